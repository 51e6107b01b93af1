/// \file
/// Which branches split a warp, found statically in optimised LLVM IR.
/// The threads of a warp execute one instruction stream: when a branch's
/// condition differs between them, the warp runs both sides one after the
/// other with part of its threads masked off (branch divergence).
///
/// The target's WarpModel says how many threads run as one: a warp of 32
/// on ptx, a wavefront of 64 (gfx9, CDNA) or 32 (gfx10 on) on gcn; the
/// messages use the target's word.
///
/// For every conditional branch whose condition depends on the thread
/// index (bounds checks that throw are left out), each lane's comparison
/// is decided by ScalarEvolution with the thread index replaced by the
/// lane's values (optim/WarpLanes.h), over the warps of the block (the
/// first 8 warps when the block shape is not given). A loop counter in the
/// condition is followed through the loop's iterations when its start,
/// step and exit are constants (`s = blockDim().x ÷ 2; while s > 0 ...;
/// s ÷= 2` once the block is known). Where the exit depends on the thread
/// (`for k in 1:t`) each lane is followed until it leaves, and a lane that
/// left is masked off in later iterations; a warp that splits on any
/// iteration counts, since it runs until its last lane leaves. Verdicts:
///  - divergent: on some iteration every warp takes both sides (e.g.
///    `t % 2 == 0`): the branch costs both paths everywhere;
///  - partly divergent: some warps only (`t == 1`, or the last rounds of a
///    tree reduction);
///  - warp-uniform: depends on the thread, but a warp's threads agree;
///  - at a boundary: compares the thread index with a value known only at
///    run time, monotonically in the lane, so only the warp the bound falls
///    in takes both sides (`i <= length(x)`);
///  - data-dependent or not evaluated: depends on loaded values, or is not
///    an affine function of the lane.
#pragma once

#include "optim/WarpLanes.h"

#include <string>
#include <vector>

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace prism {

struct BranchDivergence {
  enum class Verdict : uint8_t {
    Divergent,
    PartlyDivergent,
    WarpUniform,
    Boundary,
    DataDependent,
    Unknown,
  };
  const llvm::Instruction *Inst = nullptr; ///< the branch
  Verdict Judged = Verdict::Unknown;
  unsigned Warps = 0;          ///< warps evaluated
  unsigned Iterations = 0;     ///< loop iterations evaluated (0: no loop)
  unsigned MaxDivergentWarps = 0; ///< on the worst iteration
  std::string Message;         ///< one line, for a remark
  /// The remark's identifier: DivergentBranch, PartlyDivergentBranch,
  /// WarpUniformBranch, BoundaryBranch, DataDependentBranch,
  /// ThreadDependentBranch.
  const char *name() const;
};

/// At most this many branches of one function are judged (and at most
/// 2^18 lane evaluations: past that, branches are left unjudged and say
/// so).
constexpr size_t MaxBranchesPerFunction = 256;

/// The thread-dependent branches of F, in block order. Empty when F
/// does not read the thread index.
std::vector<BranchDivergence> analyseBranches(llvm::Function &F,
                                              const WarpModel &M);

} // namespace prism
