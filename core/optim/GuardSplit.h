/// \file
/// GuardSplitPass: splits a loop's iterations at a guard whose outcome is
/// monotone in the induction variable, so that neither half tests it.
///
/// A GPU kernel guards its work with `if i <= length(y)`, where `i` grows
/// with the thread index. On the host, a block's threads are a loop in the
/// block wrapper, and that guard inside it makes the vectoriser mask every
/// load and store. Here the loop
///
///     for t in 0:n-1                      for t in 0:k-1   (guard true)
///       if base + t <= len    becomes       body
///         body                            for t in k:n-1   (guard false)
///                                           nothing
///
/// with k = clamp(len - base + 1, 0, n) computed before the loop; each half
/// then vectorises unmasked (or disappears). LLVM's own IRCE and
/// LoopBoundSplit handle neighbouring shapes (a `<` test on the loop's own
/// counter), not a `<=` on a value derived from it.
///
/// Candidates: innermost loops with one exiting block, the latch, and a
/// computable trip count; the guard is an integer compare of an affine
/// recurrence {start,+,1} that cannot wrap (nsw for signed compares, nuw
/// for unsigned) against a loop-invariant bound, deciding a branch alone or
/// inside an `and`/`or` of conditions (SimplifyCFG merges nested ifs). Each
/// round splits one guard; a function gets at most four. Only functions
/// carrying the attribute named by GuardSplitPass::Attr are considered (the
/// native target's block wrappers), where this shape is the norm and worth the
/// extra copy of the loop.
#pragma once

#include "llvm/IR/PassManager.h"

namespace prism {

class GuardSplitPass : public llvm::PassInfoMixin<GuardSplitPass> {
public:
  /// The function attribute that opts a function in.
  static constexpr const char *Attr = "prism-split-guards";
  static llvm::StringRef name() { return "GuardSplitPass"; }

  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

} // namespace prism
