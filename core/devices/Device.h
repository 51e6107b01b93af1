/// \file
/// The `Device` interface: something that can load a compiled artefact and
/// run it (DESIGN.md, `Device`). Three implementations: `host` (LLVM ORC JIT
/// plus a grid runtime), `bpf` (the Linux verifier and BPF_PROG_TEST_RUN
/// through libbpf) and `cuda` (the CUDA Driver API, loaded with dlopen).
///
/// A device that cannot work here (no driver, no GPU, no permission) is
/// still constructed: it reports `available() == false` and a reason, and
/// every call returns a diagnostic instead of crashing. Logs from the loader
/// (ptxas/JIT info log, BPF verifier log) are kept on success and failure.
///
/// Devices are used from one thread at a time per device (the Workspace's
/// worker); each implementation serialises its own calls anyway.
#pragma once

#include "devices/HostValue.h"
#include "support/Diagnostic.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace prism {

/// What the back end hands a device: a plain description of the compiled
/// entry. PTX travels as text (the driver JITs it for the GPU at hand); a
/// BPF or host object as an ELF image.
struct DeviceArtefact {
  std::string Target;          ///< "ptx", "bpf", "native"
  std::string Entry;           ///< the entry symbol (kernel / program name)
  std::string Asm;             ///< PTX text (ptx)
  std::vector<uint8_t> Object; ///< ELF image (bpf, native)

  /// Optional map from a BPF instruction index (8-byte slots, as the
  /// verifier counts them) to the source position it came from, used to
  /// place a verifier rejection on a source line. Without it the device
  /// falls back to the `; ... @ file:line` notes the kernel prints when the
  /// object carries BTF line info.
  struct InsnLine {
    uint32_t Insn = 0;
    DiagLoc Loc;
  };
  std::vector<InsnLine> LineTable;

  /// native: bytes of per-block shared memory the code carves from
  /// NativeKernelState::SharedMem (CompileResult::SharedBytes).
  uint64_t SharedBytes = 0;
  /// native: a value of the entry's return type (a scalar kind, a tuple of
  /// them, or `nothing`), so that the host device can read the launch
  /// wrapper's `ret` back; `nothing` for kernels.
  HostValue ReturnShape;
};

/// A grid or block shape (CUDA's x, y, z). The default is a single thread.
struct Dim3 {
  uint32_t X = 1, Y = 1, Z = 1;
  uint64_t count() const { return uint64_t(X) * Y * Z; }
};

/// A key/value property for `prism devices` ("compute capability" = "9.0").
using DeviceProperty = std::pair<std::string, std::string>;

/// `registers 24 · local bytes 0 · ...`: properties on one line.
std::string propertiesLine(const std::vector<DeviceProperty> &Ps);

/// A kernel loaded on a device. Owns the device-side handle (CUDA module,
/// BPF program fd, JIT dylib) and releases it when destroyed; must not
/// outlive the device that loaded it.
class LoadedKernel {
public:
  virtual ~LoadedKernel();
  const std::string &entry() const { return Entry; }
  /// The loader's log on success (ptxas info log, verifier statistics).
  const std::string &log() const { return Log; }
  /// Key/value facts about the loaded code (registers, local/shared/const
  /// bytes, max threads per block, verified instruction count).
  const std::vector<DeviceProperty> &attributes() const { return Attributes; }

protected:
  std::string Entry;
  std::string Log;
  std::vector<DeviceProperty> Attributes;
};

/// What a launch gives back.
struct LaunchResult {
  HostValue Return;             ///< `nothing` for GPU kernels
  std::vector<HostValue> Args;  ///< the arguments after the run (arrays read back)
  double TimeMs = 0;            ///< device time of the run
  std::string TimeSource;       ///< "cuEventElapsedTime", "BPF_PROG_TEST_RUN", ...
  /// One-time work inside TimeMs that a repeated launch would not do
  /// ("creating 512 fiber stacks"), and its share of TimeMs; 0 and empty
  /// when there was none.
  double SetupMs = 0;
  std::string Setup;
  /// What the device says about this launch (the cuda driver's resident
  /// blocks per SM at this block size); shown with the kernel's facts.
  std::vector<DeviceProperty> Facts;
};

/// "6.9 ms of it creating 512 fiber stacks, once per worker thread" (to
/// follow the time), or with `Standalone` "6.9 ms of the 7.5 ms creating
/// ..."; empty when the launch did no one-time work.
std::string setupNote(const LaunchResult &R, bool Standalone = false);

class Device {
public:
  virtual ~Device();

  /// "host", "bpf", "cuda" (the `--device` name).
  virtual llvm::StringRef name() const = 0;
  /// The target whose artefacts this device runs ("native", "bpf", "ptx").
  virtual llvm::StringRef target() const = 0;
  /// A one-line description ("NVIDIA H200 (sm_90, 132 SMs)").
  virtual std::string description() const = 0;
  virtual bool available() const = 0;
  /// Why the device cannot be used; empty when available.
  virtual std::string unavailableReason() const = 0;
  /// Facts for `prism devices [--json]`, in display order.
  virtual std::vector<DeviceProperty> properties() const = 0;
  /// The architecture to compile for ("sm_90"); empty when not applicable.
  virtual std::string defaultArch() const { return ""; }

  /// Loads an artefact. `Log` receives the loader's log whether the load
  /// succeeds or fails (a failed load also carries it as a note of the
  /// diagnostic, so that printing the error shows it).
  virtual llvm::Expected<std::unique_ptr<LoadedKernel>>
  load(const DeviceArtefact &A, std::string &Log) = 0;

  /// Runs a loaded kernel over Grid×Block with the given arguments; arrays
  /// are copied to the device and back after the run. A run-time failure
  /// (trap, illegal address, verifier-accepted program failing) is a
  /// diagnostic, and the device stays usable for the next launch.
  virtual llvm::Expected<LaunchResult> launch(LoadedKernel &K, Dim3 Grid,
                                              Dim3 Block,
                                              llvm::ArrayRef<HostValue> Args) = 0;
};

/// A device diagnostic: kind ("device-unavailable", "load", "verifier",
/// "launch", "argument"), message, and the loader's log as a note.
Diagnostic deviceDiagnostic(std::string Kind, std::string Message,
                            llvm::StringRef Log = {});
inline llvm::Error deviceError(std::string Kind, std::string Message,
                               llvm::StringRef Log = {}) {
  return makeDiagError(deviceDiagnostic(std::move(Kind), std::move(Message), Log));
}

/// An exception thrown by a kernel during a launch, as a device saw it.
struct ThrownException {
  int32_t Kind = 0;     ///< a ThrowKind
  std::string TypeName; ///< `BoundsError`
  std::string File;     ///< source file of the throw as debug info knows it
  int32_t Line = 0;     ///< 0 when unknown
  uint32_t Col = 0;     ///< 0 when unknown (PTX throw sites carry lines only)
  /// What Julia's showerror prints, with the exception's values
  /// (`BoundsError: attempt to access 8-element DeviceArray{Float32, 1} at
  /// index [9]`); empty when the device does not pass them (cuda) or there
  /// is nothing past the type name.
  std::string Detail;
  uint32_t Block[3] = {0, 0, 0}; ///< 0-based index of the throwing block
  uint32_t Thread[3] = {0, 0, 0}; ///< and thread
  bool HasThread = true; ///< whether Block and Thread are known
  /// The host: an address inside the current instruction of each compiled
  /// frame, innermost first (the throw's call, then each caller's call),
  /// which the device maps to Stack.
  std::vector<uint64_t> CodeAddresses;
  /// Calls of a deep recursion that CodeAddresses leaves out, between its
  /// entries OmittedAt - 1 and OmittedAt.
  uint64_t OmittedCalls = 0;
  size_t OmittedAt = 0;
  /// The calls that led to the throw, innermost first and prelude frames
  /// included, as Julia's stacktrace lists them; empty where the device
  /// cannot tell (cuda, bpf).
  std::vector<BacktraceFrame> Stack;
  /// Set when this is no exception but a fault in compiled code (the host
  /// device: an invalid memory access, such as an index out of range under
  /// `@inbounds`). TypeName then reads "invalid memory access".
  struct MemoryFault {
    /// Unknown: the address too (a general protection fault says neither).
    enum Access : uint8_t { Unknown, Read, Write } What = Unknown;
    uint64_t Address = 0; ///< the address accessed
    uint64_t PC = 0;      ///< the faulting instruction (0 when unknown)
  };
  std::optional<MemoryFault> Fault;
};

/// A ShowErrorTemplate's text with its placeholders replaced by Values
/// (the scalars' bits, zero-extended), printed as Julia prints them; a
/// placeholder without a value reads `?`.
std::string formatShowError(llvm::StringRef Template,
                            llvm::ArrayRef<uint64_t> Values);

/// A 0-based thread or block index as Julia's 1-based `(x, y, z)`.
std::string dim3Text(const uint32_t D[3]);

/// The function a throw's line is in: of Stack (innermost first), the
/// first frame outside the prelude; Entry when there is none.
std::string userFunction(llvm::ArrayRef<BacktraceFrame> Stack,
                         llvm::StringRef Entry);

/// The launch diagnostic for a thrown exception, the same on every device:
/// `BoundsError at map.jl:15 (thread (3, 1, 1) of block (1, 1, 1)) in
/// `julia_map_``, placed at the throw's line, with the exception kind as a
/// note. The thread is named when the launch had more than one. With a
/// Stack, the function named is the innermost one outside the prelude (the
/// one the line is in) rather than Entry, and the stack is the backtrace.
Diagnostic thrownDiagnostic(const ThrownException &E, Dim3 Grid, Dim3 Block,
                            llvm::StringRef Entry);

/// Key/value properties as the JSON object of one device in
/// `prism devices --json`: {"name", "target", "available", "reason"?,
/// "description", "properties": {k: v, ...}}.
llvm::json::Object deviceJSON(const Device &D);

} // namespace prism
