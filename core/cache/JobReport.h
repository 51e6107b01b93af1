/// \file
/// The immutable result of one compiler job: every stage's output, its wall
/// time and allocations, the pass snapshots, diagnostics, resource usage,
/// cache figures and the line maps that correlate each output line with
/// its source line through inlining. Views and the CLI only read reports;
/// they are published as `std::shared_ptr<const JobReport>`.
#pragma once

#include "infer/CheckBounds.h"
#include "optim/Pipeline.h"
#include "support/CopyOnWrite.h"
#include "support/Diagnostic.h"
#include "support/Timer.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace prism {

enum class Stage : uint8_t {
  Typed,     ///< typed IR (code_typed, un-inlined)
  TypedOpt,  ///< typed IR after typed-IR inlining (code_typed optimize=yes)
  LLVMRaw,   ///< LLVM IR as emitted
  LLVMOpt,   ///< LLVM IR after the optimisation pipeline
  Asm,       ///< target assembly (PTX, GCN, BPF, x86-64)
  NumStages
};
const char *stageName(Stage S); ///< "typed", "llvm-raw", ...

/// One frame of where an output line came from: a function and a source
/// position. Frames run from the innermost (the inlined callee) outwards.
struct SourceFrame {
  std::string Function;
  std::string File;
  uint32_t Line = 0;
  uint32_t Col = 0;
  /// A frame the compiler made up (a launch wrapper: `jfptr_NAME`, the BPF
  /// program around its entry), not a function of the source.
  bool Artificial = false;
};

/// The origin of one output line; empty when the line has no location.
struct LineOrigin {
  std::vector<SourceFrame> Frames; ///< [0] innermost ... [n-1] the job's own function
};

struct StageOutput {
  bool Present = false;          ///< the stage ran (the job may stop earlier)
  std::string Text;
  std::vector<LineOrigin> Lines; ///< one per line of Text (may be empty)
  StageMeasure Measure;
};

/// Resource figures of the compiled code; unset when unknown for the target.
struct ResourceUsage {
  std::optional<int> Registers, StackBytes, SharedBytes, ConstBytes,
      LocalBytes; ///< ptx (ptxas -v), cuda device
  /// ptx: bytes ptxas spilled to local memory (stores) and read back
  /// (loads); gcn: the same of the backend's spills to scratch. Both count
  /// every spill site once, not per execution.
  std::optional<int> Spills, SpillLoads;
  std::optional<int> VGPRs, SGPRs, ScratchBytes, LDSBytes; ///< gcn
  std::optional<int> AGPRs; ///< gcn: accumulation registers (MFMA; gfx908+)
  /// gcn: the AMDGPU backend's occupancy, waves per SIMD, for the largest
  /// workgroup the kernel allows.
  std::optional<int> WavesPerSIMD;
  std::optional<int> Instructions;         ///< every target
  /// Every target: the source places that can still throw after LLVM's
  /// optimisation (distinct kind, file and line among the prism_throw
  /// calls), i.e. checks the compiler could not prove away; each costs
  /// compares and branches on the hot path. `@inbounds` removes bounds
  /// checks.
  std::optional<int> ThrowSites;
  std::string Source; ///< where the figures came from ("ptxas -v sm_80", ...)
  /// How long the tool that measured them ran (ptxas, a process of its
  /// own); not part of any stage's time.
  std::optional<double> ToolMs;
  /// Why figures are missing ("ptxas not found"), or what the tool warned
  /// of beside them (ptxas raising a `--maxregs` below its minimum).
  std::string Note;
};

/// What an optimisation remark says about a pass's decision (clang's
/// -Rpass, -Rpass-missed, -Rpass-analysis).
enum class RemarkKind : uint8_t { Passed, Missed, Analysis };
inline constexpr RemarkKind AllRemarkKinds[] = {
    RemarkKind::Passed, RemarkKind::Missed, RemarkKind::Analysis};
const char *remarkKindName(RemarkKind K); ///< "passed", "missed", "analysis"

/// One LLVM optimisation remark ("hoisting load", "loop not vectorized:
/// ...", "N spills generated in loop"), located through its inlining chain
/// like an output line, so a remark about prelude code inlined into a
/// kernel lands on the kernel's line.
struct OptRemark {
  RemarkKind Kind = RemarkKind::Passed;
  Stage At = Stage::LLVMOpt; ///< LLVMOpt: the optimiser; Asm: the backend
  std::string Pass;          ///< LLVM's pass name: "licm", "gvn", "regalloc"
  std::string Name;          ///< the remark's identifier: "Hoisted"
  std::string Message;       ///< "hoisting load"
  std::string Function;      ///< the LLVM function it is about
  LineOrigin Origin;         ///< empty when the remark has no location
};

/// How many remarks of each kind, indexed by RemarkKind.
std::array<size_t, 3> countRemarks(const std::vector<OptRemark> &Remarks);

/// The job's entry in a CompileCache (cache/CacheProbe.h fills it).
struct CacheFigures {
  bool Measured = false; ///< false: the job never went through a cache
  /// The live workspace measures after the code is shown: the figures
  /// follow in a later snapshot.
  bool Pending = false;
  uint64_t Hits = 0, Misses = 0, Compiles = 0, Invalidations = 0;
  double LastCompileMs = 0;
  AllocationStats LastCompileAllocs;
  double AllocsPerHit = 0; ///< measured over HitProbes lookups
  double HitNs = 0;        ///< mean wall time of one hit, same lookups
  uint64_t HitProbes = 0;
  bool FromDisk = false;   ///< the artefact came from the disk cache
  std::string DiskDir;     ///< empty: no disk cache
  std::string DiskError;   ///< why the disk cache is not in use
  uint64_t DiskWrites = 0, DiskCorrupt = 0, DiskWriteErrors = 0;
  std::string DiskWriteError; ///< the latest failed write (full disk, ...)
};

struct JobReport {
  // What the job was.
  std::string Signature; ///< `saxpy!(Float32, DeviceArray{Float32, 1}, ...)`
  std::string Target;    ///< "ptx", "gcn", "bpf", "native"
  std::string Arch;      ///< "sm_80", "gfx90a", host CPU name
  unsigned OptLevel = 2;
  bool Kernel = false;
  unsigned MaxThreads = 0; ///< the launch bound `--maxthreads` (0: none)
  /// `--minthreads` (0: none): on ptx the exact block size (`.reqntid`), on
  /// gcn the lower end of `amdgpu-flat-work-group-size`.
  unsigned MinThreads = 0;
  CheckBounds Bounds = CheckBounds::Auto; ///< the inference engine's mode
  std::string EntryName; ///< the LLVM/asm symbol of the entry
  uint64_t World = 0;

  // The large parts are shared between a report and its copies until one
  // writes them (support/CopyOnWrite.h).
  CopyOnWrite<std::array<StageOutput, static_cast<size_t>(Stage::NumStages)>>
      Stages;
  CopyOnWrite<std::vector<PassSnapshot>> Passes;
  std::vector<Diagnostic> Diagnostics;
  /// Optimisation remarks of the LLVM pipeline and the backend, in the
  /// order the passes made them.
  CopyOnWrite<std::vector<OptRemark>> Remarks;
  ResourceUsage Resources;
  CacheFigures Cache;
  /// Source files the line maps refer to (name → text), for correlation views.
  std::vector<SourceFileRef> Sources;

  bool ok() const;
  const StageOutput &stage(Stage S) const {
    return Stages[static_cast<size_t>(S)];
  }
  StageOutput &stage(Stage S) { return Stages.mut()[static_cast<size_t>(S)]; }
};

using JobReportRef = std::shared_ptr<const JobReport>;

} // namespace prism
