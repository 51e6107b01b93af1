/// \file
/// Runs a call on a device: what `prism run` and the GUI's Run form do.
///
/// The call's arguments are evaluated on the host (CallParser), their types
/// form the signature, inference decides kernel-ness where the target needs
/// it (a GPU function returning `nothing` is a kernel), the function is
/// compiled through the compile cache (a second run of the same call is a
/// cache hit), loaded on the device and launched over Grid × Block.
///
/// Kernel-ness per target: ptx — a function returning `nothing` is a kernel
/// (anything else is a device function the GPU cannot launch); native —
/// an ordinary function whose return value comes back, unless Kernel is
/// forced; bpf — never a kernel (the program returns its verdict).
#pragma once

#include "cache/CompileCache.h"
#include "devices/Device.h"
#include "infer/Inference.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace prism {

/// `--device interp`: the reference interpreter (interp/Interpreter.h) runs
/// the call's typed IR with the host's semantics; nothing is compiled.
inline constexpr const char *InterpDeviceName = "interp";
inline constexpr const char *InterpDeviceDescription =
    "reference interpreter: typed IR, Julia's semantics, no compiler";

struct RunRequest {
  std::string Device = "host";
  std::string Call;       ///< `saxpy!(2f0, ones(Float32, 8), ones(Float32, 8))`
  Dim3 Grid, Block;
  uint64_t Seed = 0;      ///< of `rand(...)` in the call
  /// Options for the compile (opt level, launch bounds...). Target and
  /// Arch default to the device's; a Target naming another target is a
  /// usage error.
  CompilerConfigOptions Config;
  bool TargetGiven = false;
  /// Called once the call is compiled and loaded, just before it runs: a
  /// time limit on the call starts its clock here, not at the compile.
  std::function<void()> BeforeRun;
};

enum class RunStatus {
  Ok,
  UsageError,   ///< unknown device, bad call syntax, wrong target
  ProgramError, ///< the program does not compile for the device
  DeviceError,  ///< unavailable device, load failure, run-time failure
};

struct RunOutcome {
  RunStatus Status = RunStatus::Ok;
  std::vector<Diagnostic> Diagnostics; ///< errors, or warnings on success
  LaunchResult Launch;                 ///< valid when Status == Ok
  bool Kernel = false;                 ///< compiled as a kernel
  /// The call's code reads threadIdx(), blockIdx(), blockDim() or
  /// gridDim(): a launch of one thread is then likely a forgotten --threads.
  bool ReadsThreadIndex = false;
  std::string Signature;               ///< the job the call resolved to
  /// That job's options (target, arch, kernel-ness as compiled): what a
  /// view shows as the code that ran. None where nothing was compiled (the
  /// interpreter) or the compile failed.
  std::optional<CompilerConfigOptions> Compiled;
  std::string LoadLog;                 ///< the device loader's log
  /// What the device says about the loaded code (registers, local bytes,
  /// verified instructions, ...), from LoadedKernel::attributes().
  std::vector<DeviceProperty> KernelFacts;
  bool CacheHit = false;               ///< the compile was a cache hit
  /// The entry's CodeInstance of the compiled code that ran (owned by the
  /// engine): the run is out of date once an edit invalidates it, not on
  /// every edit. Null where nothing was compiled.
  const CodeInstance *Root = nullptr;
  bool ok() const { return Status == RunStatus::Ok; }
};

/// Runs the request against the program in Env (current world). `Cache`
/// must belong to `Engine`; without one a private cache is used.
RunOutcome runCall(GlobalEnv &Env, InferenceEngine &Engine,
                   const RunRequest &R, CompileCache *Cache = nullptr);

/// The name of the program's function (outside the prelude) whose method
/// definition in File spans Line, or empty: where a device reports a
/// throw's line but no frames (cuda's throw sites carry lines only).
std::string functionAtLine(const GlobalEnv &Env, llvm::StringRef File,
                           uint32_t Line);

/// `X[,Y[,Z]]` → Dim3 (empty: 1); none when malformed or zero.
std::optional<Dim3> parseDim3(llvm::StringRef S);

/// Why no GPU could run a block of this shape (CUDA's limits: 1024 × 1024
/// × 64 and 1024 threads in all, kept on every device), or empty.
std::string blockShapeError(const Dim3 &Block);

} // namespace prism
