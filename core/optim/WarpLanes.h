/// \file
/// The threads of one warp, for analyses that ask "what does each lane
/// see?" of optimised LLVM IR (optim/AccessPatterns.h: where each lane's
/// load goes; optim/Divergence.h: which way each lane's branch goes).
/// Each lane is the function with its thread index reads replaced by that
/// lane's values, through ScalarEvolution.
///
/// Without a launch's block shape a warp is WarpSize (32 on ptx)
/// consecutive `threadIdx().x` with everything else equal (blockDim.x a
/// multiple of it). With it (`--threads 16,16`), lane L of warp W is thread
/// 32W + L of the block in CUDA's order (x fastest), so a warp of a 16×16
/// block is 16 `threadIdx().x` × 2 `threadIdx().y`, and `blockDim()` is a
/// constant.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Intrinsics.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class DataLayout;
class ICmpInst;
class Function;
class Instruction;
class LoopInfo;
} // namespace llvm

namespace prism {

/// What a target's warps and memories look like to the analyses.
struct WarpModel {
  /// The intrinsics that read threadIdx (0-based) and blockDim, x y z.
  std::array<llvm::Intrinsic::ID, 3> ThreadIdx = {
      llvm::Intrinsic::not_intrinsic, llvm::Intrinsic::not_intrinsic,
      llvm::Intrinsic::not_intrinsic};
  std::array<llvm::Intrinsic::ID, 3> BlockDim = ThreadIdx;
  /// The intrinsics that read blockIdx (0-based), x y z.
  std::array<llvm::Intrinsic::ID, 3> BlockIdx = ThreadIdx;
  /// A blockDim read that is not an intrinsic call (gcn loads the workgroup
  /// size from the dispatch packet): its dimension, or none.
  std::optional<unsigned> (*BlockDimRead)(const llvm::Instruction &) = nullptr;
  unsigned WarpSize = 32;
  /// What the target calls the threads that run as one: "warp" (NVIDIA),
  /// "wavefront" (AMD).
  const char *Warp = "warp";
  /// Whether the sector and bank model below describes the target's
  /// memory (for the access remarks); divergence needs only the lanes.
  bool ModelsMemory = true;
  /// The launch's block shape when known (threads in x, y, z); all zero
  /// when not.
  std::array<unsigned, 3> Block = {0, 0, 0};
  unsigned GlobalAS = 1, SharedAS = 3;
  /// Generic pointers (not to a local variable) count as global memory:
  /// arrays reach a kernel as generic pointers, and the backend infers
  /// their address space only later.
  std::optional<unsigned> GenericAS;
  unsigned SectorBytes = 32;
  /// What the unit of SectorBytes is called: "sector" (NVIDIA's L1/L2),
  /// "cache line" (AMD's vector L1).
  const char *Sector = "sector";
  unsigned Banks = 32, BankBytes = 4;
  /// Lanes whose shared-memory accesses are served together, so that only
  /// they can conflict: 0 for the whole warp; 32 for a wave64 (the LDS
  /// serves it in two halves).
  unsigned BankLanes = 0;

  bool blockKnown() const { return Block[0] && Block[1] && Block[2]; }
  /// "warp", "warps", "wavefront", "wavefronts".
  std::string warps(unsigned N = 1) const {
    return std::string(Warp) + (N == 1 ? "" : "s");
  }
  unsigned blockThreads() const { return Block[0] * Block[1] * Block[2]; }
};

/// The lanes of the warps of one function.
class WarpLanes {
public:
  WarpLanes(llvm::Function &F, const WarpModel &M);

  /// Whether the function reads no thread index that a lane would change.
  bool empty() const { return Reads.empty(); }
  /// The thread index reads replaced per lane.
  llvm::ArrayRef<llvm::Instruction *> reads() const { return Reads; }
  /// Threads in a warp (fewer than the warp size in a smaller block).
  unsigned lanes() const { return Lanes; }
  /// The warps of a block (0 when the block is not known).
  unsigned warpsPerBlock() const { return Warps; }

  /// Adds lane \p Lane of warp \p Warp's thread index (and, when the
  /// block is known, blockDim) to \p Map.
  void bind(unsigned Warp, unsigned Lane, llvm::ValueToSCEVMapTy &Map,
            llvm::ScalarEvolution &SE) const;
  /// Whether the function reads the block index.
  bool readsBlockIndex() const { return !BlockReads.empty(); }
  /// Adds block \p Block's index (0-based, in x; y and z 0) to \p Map: an
  /// index built from the block (`(blockIdx().x - 1) * blockDim().x +
  /// threadIdx().x`) that no lane can fold otherwise (`i % 2`, `(i + 1) ÷
  /// 2`) is then decided in that block.
  void bindBlock(unsigned Block, llvm::ValueToSCEVMapTy &Map,
                 llvm::ScalarEvolution &SE) const;
  /// \p S as lane \p Lane of warp \p Warp sees it, with \p Fixed's
  /// values too.
  const llvm::SCEV *at(const llvm::SCEV *S, unsigned Warp, unsigned Lane,
                       llvm::ScalarEvolution &SE,
                       const llvm::ValueToSCEVMapTy &Fixed) const;
  const llvm::SCEV *at(const llvm::SCEV *S, unsigned Warp, unsigned Lane,
                       llvm::ScalarEvolution &SE) const {
    return at(S, Warp, Lane, SE, llvm::ValueToSCEVMapTy());
  }

  /// How a warp is laid out, for messages: e.g. "a warp is 16
  /// threadIdx().x × 2 threadIdx().y of the 16×16 block"; empty when a
  /// warp is 32 threadIdx().x.
  std::string shape() const;

private:
  const WarpModel &M;
  const llvm::DataLayout *DL;
  llvm::SmallVector<llvm::Instruction *, 4> Reads;
  llvm::SmallVector<std::pair<llvm::Instruction *, unsigned>, 4> ReadDim;
  llvm::SmallVector<std::pair<llvm::Instruction *, unsigned>, 4> DimReads;
  llvm::SmallVector<std::pair<llvm::Instruction *, unsigned>, 4> BlockReads;
  unsigned Lanes = 0, Warps = 0;
};

/// Values that depend on the thread index (data flow from \p Roots,
/// through loads of addresses that do).
llvm::SmallPtrSet<const llvm::Value *, 32>
threadDependent(llvm::ArrayRef<llvm::Instruction *> Roots);

/// The values of \p Dep that depend on a load of a thread-dependent
/// address: the data each thread reads.
llvm::SmallPtrSet<const llvm::Value *, 32>
loadedFromThread(const llvm::SmallPtrSetImpl<const llvm::Value *> &Dep);

/// Whether S mentions a thread-dependent value other than the index reads
/// themselves (a loaded index, a select on the thread): then substituting
/// the index does not tell what each lane sees. Operations SCEV keeps
/// opaque but the lanes' rewriter folds (`sdiv`, `srem`, a freeze) are
/// looked through.
bool dependsOnLoadedData(const llvm::SCEV *S,
                         const llvm::SmallPtrSetImpl<const llvm::Value *> &Dep,
                         const llvm::DenseSet<const llvm::Value *> &Tids,
                         llvm::ScalarEvolution &SE, unsigned Depth = 0);

/// Phis outside loop headers whose incoming values are one expression
/// (GVN's partial redundancy elimination computes a value on two paths
/// and merges them), mapped to it: SCEV sees such a phi as opaque.
llvm::ValueToSCEVMapTy phisOfOneValue(llvm::Function &F,
                                      const llvm::LoopInfo &LI,
                                      llvm::ScalarEvolution &SE);

/// The loop counters S mentions, also through the integer operations SCEV
/// keeps opaque: loop-header phis SCEV sees as opaque values, and the
/// header block of each loop one of its recurrences runs in. Bound to a
/// constant N in the map WarpLanes::at takes, a phi is N and a loop's
/// recurrences are evaluated at iteration N.
llvm::SmallVector<llvm::Value *, 4> loopCountersIn(const llvm::SCEV *S,
                                                   const llvm::LoopInfo &LI,
                                                   llvm::ScalarEvolution &SE);

/// LLVM's text for \p S.
std::string scevText(const llvm::SCEV *S);

/// A condition built of comparisons with and/or/xor/select (`a && b` is a
/// select) as one lane decides it, \p Compare deciding each comparison;
/// three-valued: `false && unknown` is false, anything else unknown is
/// none.
std::optional<bool> decideCondition(
    const llvm::Value *V,
    llvm::function_ref<std::optional<bool>(const llvm::ICmpInst &)> Compare,
    unsigned Depth = 0);

} // namespace prism
