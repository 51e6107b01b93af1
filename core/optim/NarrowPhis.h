/// \file
/// NarrowPhisPass: a 64-bit integer phi whose every value provably fits in
/// 32 bits becomes a 32-bit phi (GPU targets).
///
/// Julia's `Int` is 64-bit, so a kernel's loop variables are i64 even when
/// they only ever hold a thread index or a block size:
///
///     s = blockDim().x ÷ 2          %s = phi i64 [ zext(ntid), ... ],
///     while s > 0                                [ lshr %s, 1, ... ]
///         ... tmp[t + s] ...
///         s ÷= 2
///
/// On a GPU a 64-bit value takes two 32-bit registers and most 64-bit
/// operations two instructions; nvcc's `int` takes one. LLVM widens
/// induction variables (IndVarSimplify) but never narrows them, and
/// InstCombine's own phi narrowing needs every incoming value to be an
/// extension already, which a loop-carried value is not.
///
/// Here a phi is narrowed when ValueTracking's known bits (which follow
/// shift recurrences such as `s ÷= 2`) or ScalarEvolution's range (which
/// bounds an affine recurrence by the loop's trip count) show that all its
/// values fit in 32 bits, unsigned (the phi becomes `zext` of an i32 phi)
/// or signed (`sext`). Each incoming value is truncated at the end of its
/// block. The pass does no more: InstCombine, which the pipeline runs next,
/// folds `trunc (lshr (zext x), 1)` into `lshr x, 1` and compares of two
/// extensions into 32-bit compares, so the arithmetic around the phi
/// shrinks with it, and what still needs 64 bits (an address) extends once.
/// Where every value entering the loop is a constant or an extension
/// (`for k in 1:16`), InstCombine prefers the loop without extensions and
/// widens it back; a loop that starts from a 32-bit value (a special
/// register: a thread index, a block size) stays narrow.
#pragma once

#include "llvm/IR/PassManager.h"

namespace prism {

class NarrowPhisPass : public llvm::PassInfoMixin<NarrowPhisPass> {
public:
  static llvm::StringRef name() { return "NarrowPhisPass"; }

  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

} // namespace prism
