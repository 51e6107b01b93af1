/// \file
/// The staged compiler driver (GPUCompiler's `compile(:llvm | :asm | :obj,
/// job)`): typed IR → raw LLVM IR → optimised LLVM IR → assembly (and an
/// object), stopping at the requested stage.
///
/// Every stage is measured (wall time and this thread's allocations, via
/// StageProbe), its text and per-line source origins are stored in one
/// JobReport, and an observer hook fires once per finished stage, in order
/// — the basis of every reflection view (`code_typed`, `code_llvm`,
/// `code_native`, the pipeline view) and of the GUI. Reflection never goes
/// through the compile cache, so cached kernels still show their stages.
///
/// Problems are data: inference errors, validation errors (all at once),
/// verifier failures and LLVM backend errors all end up as diagnostics in
/// the report; nothing aborts. No module reaches the optimiser or a backend
/// without passing the verifier.
#pragma once

#include "cache/CompilerJob.h"
#include "cache/JobReport.h"
#include "infer/Inference.h"

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace prism {

/// What a stage hook sees. Pointers are valid only during the call.
struct StageEvent {
  Stage S;
  const CompilerJob &Job;
  const StageOutput &Output;
  const JobReport &Report;          ///< everything so far (this stage included)
  const InferResult *Inferred = nullptr; ///< Typed, TypedOpt and later
  const llvm::Module *Module = nullptr;  ///< LLVMRaw, LLVMOpt, Asm
};

struct CompileHooks {
  /// Fires after each stage that ran, in pipeline order.
  std::function<void(const StageEvent &)> OnStage;
};

struct CompileOptions {
  bool Snapshots = false;         ///< record per-pass snapshots (pipeline view)
  bool KeepUnchangedPasses = false;
  bool TypedOptimized = false;    ///< also produce Stage::TypedOpt
  bool RawAsm = false;            ///< keep the backend's asm as is (no annotation)
  bool EmitObject = false;        ///< also produce an object file (needs Stage::Asm)
  /// Print every stage's text and line map. The compile cache turns this
  /// off: it keeps only the raw assembly and the object.
  bool StageText = true;
  /// With StageText: print only this stage. The command-line tools show one
  /// stage; printing the others (a 10 000-statement kernel's raw IR is
  /// 150 000 lines) was a fifth of `code_ptx`'s time.
  std::optional<Stage> OnlyText;
  bool wantsText(Stage S) const {
    return StageText && (!OnlyText || *OnlyText == S);
  }
  /// Collect LLVM's optimisation remarks into JobReport::Remarks. Without
  /// it no pass builds one (LLVM checks before it formats a remark).
  bool Remarks = true;
  /// The launch's block shape (threads in x, y, z) that the warp analyses
  /// behind the `prism-access` and `prism-divergence` remarks assume; all
  /// zero: a warp is 32 consecutive threadIdx().x.
  std::array<unsigned, 3> Block = {0, 0, 0};
  /// Measure resources (ptx: runs `ptxas -v`, a separate process).
  bool Resources = true;
  /// Where measuring runs a tool (Target::resourceUsageRunsATool), leave it
  /// for later: the report's figures say so, and CompileResult::DeferredAsm
  /// keeps what measureResources() needs. The live workspace shows the
  /// code first and the figures when ptxas is done.
  bool DeferResources = false;
  /// Keep the optimised module in CompileResult::Module. The compile cache
  /// does not: code generation then runs on it instead of on a copy.
  bool KeepModule = true;
  /// Raised by another thread to cancel the compile (the GUI does when a
  /// newer edit arrives): checked between stages and between LLVM passes;
  /// the report then holds one "cancelled" error.
  const std::atomic<bool> *Cancel = nullptr;
};

struct CompileResult {
  // Declared first so that it is destroyed last: the module lives in it.
  std::unique_ptr<llvm::LLVMContext> Context;
  /// The optimised module (after LLVMOpt), or the raw one when the job
  /// stopped at LLVMRaw; null when emission did not happen or, after the
  /// Asm stage, when CompileOptions::KeepModule was off.
  std::unique_ptr<llvm::Module> Module;
  std::shared_ptr<JobReport> Report;
  std::vector<uint8_t> Object;    ///< with CompileOptions::EmitObject
  std::string EntrySymbol;
  std::string LaunchSymbol;       ///< native: the `jfptr_` launch wrapper
  uint64_t SharedBytes = 0;
  /// With CompileOptions::DeferResources: the backend's assembly, for
  /// measureResources() (empty when nothing was deferred).
  std::string DeferredAsm;

  CompileResult();
  CompileResult(CompileResult &&);
  CompileResult &operator=(CompileResult &&);
  ~CompileResult();
  bool ok() const { return Report && Report->ok(); }
};

/// The resource figures of assembly a compile deferred (DeferredAsm), added
/// to Out (which holds what the compile already knew, e.g. shared bytes).
void measureResources(const CompilerConfig &C, const std::string &Asm,
                      ResourceUsage &Out);

/// Runs the job up to and including `UpTo`, inferring through `Engine`.
CompileResult compile(InferenceEngine &Engine, const CompilerJob &Job,
                      Stage UpTo, const CompileHooks &Hooks = {},
                      const CompileOptions &Opts = {});

/// Same, from inference results the caller already has (R.Roots[0] is the
/// job's entry); the Typed stage prints them instead of inferring. With the
/// engine that inferred them, codegen at -O1 and above emits the typed
/// optimiser's code (callees inlined), as compile() does; without it, every
/// instance's own code.
CompileResult compileInferred(const InferResult &R, const CompilerJob &Job,
                              Stage UpTo, const CompileHooks &Hooks = {},
                              const CompileOptions &Opts = {},
                              InferenceEngine *Engine = nullptr);

} // namespace prism
