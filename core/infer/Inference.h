/// \file
/// Type inference: abstract interpretation of lowered IR producing
/// CodeInstances (Julia's `typeinf`), the batch entry point that hands
/// codegen a closed set of CodeInstances (`typeinf_ext_toplevel`), and
/// invalidation after a redefinition.
#pragma once

#include "infer/CheckBounds.h"
#include "infer/CodeInstance.h"
#include "types/Loader.h"
#include "types/Method.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <span>
#include <vector>

namespace prism {

/// Everything codegen needs: the roots (one per requested spec, same order)
/// and the closure of CodeInstances reachable through `Edges`, each once,
/// callers before callees.
struct InferResult {
  std::vector<CodeInstance *> Roots;
  std::vector<CodeInstance *> All;
  World W = 0;
  /// The engine's mode: the same instances compile differently under each.
  CheckBounds Bounds = CheckBounds::Auto;
  /// Per element of All, the typed code codegen emits for it. Empty: each
  /// instance's own `Code`. After InferenceEngine::optimizeForCodegen: the
  /// optimised code (callees inlined), with All cut to the instances that
  /// are still called.
  std::vector<std::shared_ptr<const TypedCode>> Codes;

  const TypedCode &codeOf(size_t I) const {
    return I < Codes.size() && Codes[I] ? *Codes[I] : *All[I]->Code;
  }
};

/// One CodeInstance an edit capped, and why: the roots of the tree have a
/// cause of their own, the rest were reached through a backedge from the
/// invalidated callee `Via` (SnoopCompile's invalidation trees).
struct Invalidation {
  CodeInstance *CI = nullptr;
  CodeInstance *Via = nullptr; ///< null for a root
  /// For a root: `its method was redefined`, `dispatch now picks f(x::T)`,
  /// ...; empty otherwise.
  std::string Cause;
};

class InferenceEngine {
public:
  explicit InferenceEngine(GlobalEnv &Env,
                           CheckBounds Bounds = CheckBounds::Auto);
  ~InferenceEngine();

  /// Fixed for the engine's life, as Julia's is for the process: every
  /// CodeInstance it caches was inferred under it.
  CheckBounds checkBounds() const;

  /// Unique among the engines of the process, never reused (an address may
  /// be): what a cache tied to one engine compares.
  uint64_t serial() const { return Serial; }

  /// Infers the requested specs in world W and returns the closed set of
  /// CodeInstances, reusing cached ones valid in W. Thread-safe: concurrent
  /// callers infer each MethodInstance once. Errors that inference detects
  /// (no matching method, ambiguity, undefined name) are diagnostics with
  /// source lines and an inlining-style backtrace of the call chain.
  llvm::Expected<InferResult> inferToplevel(std::span<const FunctionSpec> Specs,
                                            World W);

  /// The interned MethodInstance for a method and concrete signature.
  MethodInstance *methodInstance(Method *M, std::span<Type *const> Sig,
                                 std::span<Type *const> Sparams, bool InBounds);

  /// Invalidation after definitions were loaded: caps MaxWorld of every
  /// CodeInstance whose dispatch could change (transitively through
  /// backedges) and returns them, each with why. Nothing else is touched.
  std::vector<Invalidation> invalidateExplained(const LoadResult &Loaded);
  /// The same, only the CodeInstances.
  std::vector<CodeInstance *> invalidate(const LoadResult &Loaded);

  /// Typed IR after inlining/const-folding/DCE, for code_typed(optimize=yes)
  /// and the GUI; each statement keeps its location and inlining stack.
  std::shared_ptr<const TypedCode> optimizedCode(CodeInstance *CI);
  /// Whether CI's code reads a local that may be unassigned there (such
  /// code is not inlined); computed once per CodeInstance.
  bool readsMaybeUnassigned(const CodeInstance &CI);

  /// Julia's division of labour: inference and its optimiser decide what
  /// code exists, codegen emits it. Returns R with every instance's
  /// optimised code and only the instances that calls left after inlining
  /// still reach (roots first, callers before callees).
  InferResult optimizeForCodegen(const InferResult &R);

  GlobalEnv &env() { return Env; }

  /// The engine's state (infer/InferenceImpl.h); public only so that the
  /// inference source files can name it.
  struct Impl;

private:
  GlobalEnv &Env;
  std::unique_ptr<Impl> P;
  uint64_t Serial;
};

/// `code_typed` printing: one statement per line with its type, resolved
/// `invoke` targets and source line; last line `=> RetType`.
struct TypedPrintOptions {
  bool WarnType = false;   ///< mark non-concrete types (code_warntype)
  bool Color = false;      ///< ANSI colours (red for non-concrete)
  bool DebugInfo = true;   ///< `# file:line` annotations
};
std::string printTyped(const CodeInstance &CI, const TypedCode &Code,
                       const TypedPrintOptions &Opts = {});

} // namespace prism
