/// \file
/// How the threads of a warp access memory, found statically in optimised
/// LLVM IR: for every load and store of global or shared memory in a
/// function that reads the thread index, the addresses of threads 0..31 of
/// a warp (consecutive `threadIdx().x`, everything else equal) relative to
/// thread 0, by ScalarEvolution with the thread index replaced by each
/// lane's value.
///
///  - global memory: how many 32-byte sectors one warp's access touches
///    against the fewest that its bytes need — a coalesced access needs 4
///    for 32 floats, a strided one up to 32;
///  - shared memory: how many different words fall in one of the 32 4-byte
///    banks — an n-way bank conflict serialises the access n times (the
///    same word is a broadcast, no conflict).
///
/// This is what Nsight Compute measures at run time ("uncoalesced global
/// accesses", "shared bank conflicts"), known here before a launch and
/// placed on the source line. Assumed: a warp is laid out as
/// optim/WarpLanes.h says (32 consecutive `threadIdx().x` unless the
/// launch's block shape is given), and thread 0's address is aligned to a
/// sector. Where ScalarEvolution cannot
/// fold a loop counter into an address (a division of it), the lanes are
/// compared on a few iterations, which must agree. An address that depends
/// on loaded data (a gather) or is not an affine function of the lane is
/// not judged, nor one that does not depend on the thread index at all (a
/// kernel parameter, one thread's store).
#pragma once

#include "optim/WarpLanes.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Function;
class Instruction;
class Module;
} // namespace llvm

namespace prism {

struct MemoryAccess {
  enum class Space : uint8_t { Global, Shared };
  enum class Verdict : uint8_t {
    Uniform, ///< one address for the whole warp
    Good,    ///< coalesced (global), conflict-free (shared)
    Poor,    ///< uncoalesced, or a bank conflict
    Unknown, ///< a run-time stride (the message has LLVM's expression)
  };
  const llvm::Instruction *Inst = nullptr;
  Space Where = Space::Global;
  bool Store = false;
  unsigned ElementBytes = 0;
  Verdict Judged = Verdict::Unknown;
  std::optional<int64_t> StrideBytes; ///< between lanes 0 and 1, when constant
  unsigned Sectors = 0, IdealSectors = 0; ///< global
  unsigned ConflictWays = 0;              ///< shared: 1 is conflict-free
  std::string Message;                    ///< one line, for a remark
  /// The remark's identifier: Coalesced, Uncoalesced, ConflictFree,
  /// BankConflict, Broadcast, RuntimeStride.
  const char *name() const;
};

/// Judging every access of a huge kernel would cost more than it tells:
/// the analysis stops after this many.
constexpr size_t MaxAccessesPerFunction = 512;

/// The accesses of F, in instruction order. Empty when F does not read
/// the thread index.
std::vector<MemoryAccess> analyseMemoryAccesses(llvm::Function &F,
                                                const WarpModel &M);

} // namespace prism
