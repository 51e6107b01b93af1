/// \file
/// The LLVM optimisation pipeline (new pass manager, O0–O3) with optional
/// per-pass snapshots: after every pass that changed a function (or the
/// module), record the pass, the function and a unified diff of its IR —
/// what Compiler Explorer's opt-pipeline view shows, but in-process through
/// `PassInstrumentationCallbacks`. Snapshots cost nothing when disabled: no
/// callback is registered at all then.
#pragma once

#include "llvm/Support/Error.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
class PassBuilder;
} // namespace llvm

namespace prism {

struct PassSnapshot {
  unsigned Index = 0;   ///< position in the run order of all passes
  std::string Pass;     ///< "InstCombinePass"
  std::string Function; ///< the IR unit the pass ran on ("[module]" for module passes)
  bool Changed = false; ///< false only when snapshots of unchanged passes are kept
  /// IR text of the unit before the pass; empty when it did not change.
  std::string Before;
  /// IR text after (empty: the pass deleted it, or did not change it).
  std::string After;
  std::string Diff;     ///< unified diff Before → After
};

struct OptimizeOptions {
  unsigned OptLevel = 2;          ///< 0..3
  bool CollectSnapshots = false;  ///< record passes that changed the IR
  /// Also record passes that changed nothing (without their text): the
  /// whole pipeline in the order it ran.
  bool KeepUnchanged = false;
  bool VerifyEach = false;        ///< run the verifier after every pass (debug)
  /// Tests: print the IR wherever a cached text is reused because the
  /// fingerprint says the IR is unchanged, and list every mismatch.
  bool VerifySkippedPrints = false;
  /// The caller has just verified the module: skip the verifier on entry.
  bool InputVerified = false;
  /// Target-specific pipeline tuning (extra passes at extension points).
  std::function<void(llvm::PassBuilder &)> TuneHook;
  /// Raised by another thread to cancel: every remaining optional pass is
  /// skipped and the result is a "cancelled" error.
  const std::atomic<bool> *Cancel = nullptr;
};

struct OptimizeResult {
  std::vector<PassSnapshot> Snapshots;
  /// Transformation passes run (pass managers, adaptors, wrappers and
  /// analyses excluded). Counting needs instrumentation, so this stays 0
  /// unless CollectSnapshots or VerifyEach is set.
  unsigned PassesRun = 0;
  /// How many PassInstrumentationCallbacks were registered: 0 when neither
  /// snapshots nor VerifyEach were asked for (the pipeline then runs with no
  /// instrumentation at all). Tests use it to check that.
  unsigned InstrumentationCallbacks = 0;
  /// Units (functions, or the module) not printed after a pass because the
  /// pass preserved everything and the IR's fingerprint was unchanged.
  unsigned PrintsSkipped = 0;
  /// With VerifySkippedPrints: "function before a pass" or "function after
  /// Pass" for each reused text that differs from a fresh print.
  std::vector<std::string> SkippedPrintMismatches;
};

/// Verifies (unless Opts.InputVerified), optimises in place, and verifies
/// again. A module that fails
/// verification is an Error (never an abort). \p TM may be null: the
/// pipeline then runs without target cost models (no vectorisation tuned to
/// a register width, no target passes). OptLevel above 3 is an Error.
llvm::Expected<OptimizeResult> optimizeModule(llvm::Module &M,
                                              llvm::TargetMachine *TM,
                                              const OptimizeOptions &Opts);

/// Verifies a module; the verifier's messages become the Error's text.
llvm::Error verifyModuleOrError(const llvm::Module &M);

} // namespace prism
