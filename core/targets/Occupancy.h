/// \file
/// Theoretical occupancy of an NVIDIA kernel: how many blocks of a given
/// size can be resident on one SM at once, and which resource stops more
/// (warp slots, registers, shared memory or the block limit). It answers,
/// without a GPU, the question Nsight Compute's "Occupancy" section and
/// CUDA's occupancy calculator answer: does this kernel's register count
/// or shared memory leave the SM room to hide latency?
///
/// The model is the hardware's allocation rules per compute capability
/// (registers are given to warps in units of 256, per SM sub-partition;
/// shared memory in units of 128 or 256 bytes, plus the 1 KiB the driver
/// reserves per block since Ampere). The tests check it against the CUDA
/// toolkit's own calculator (cuda_occupancy.h) where the toolkit is
/// installed, and tests/gpu/run-all against the driver's
/// cuOccupancyMaxActiveBlocksPerMultiprocessor on a GPU.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace prism {

struct JobReport;

/// What one SM of a compute capability offers (CUDA C++ Programming
/// Guide, "Technical Specifications per Compute Capability").
struct SmLimits {
  int Major = 0, Minor = 0;
  int WarpSize = 32;
  int MaxThreadsPerBlock = 1024;
  int MaxThreadsPerSM = 2048;
  int MaxBlocksPerSM = 32;
  int RegsPerSM = 65536;
  int RegsPerBlock = 65536;
  int MaxRegsPerThread = 255;
  int RegAllocUnit = 256; ///< registers are given to a warp in these units
  int SubPartitions = 4;  ///< each holds a quarter of the register file
  int SharedPerSM = 0;    ///< bytes, with the largest shared-memory carveout
  int SharedPerBlock = 48 * 1024; ///< static shared memory a block may declare
  int SharedReservedPerBlock = 0; ///< the driver's own per block (sm_80+)
  int SharedAllocUnit = 256;

  int maxWarpsPerSM() const { return MaxThreadsPerSM / WarpSize; }
};

/// The limits of `sm_XY`; none for an arch the table does not know.
std::optional<SmLimits> smLimits(llvm::StringRef Arch);

/// What stops a further block from being resident (several may at once).
enum OccupancyLimit : unsigned {
  LimitWarps = 1,     ///< the SM's warp slots
  LimitRegisters = 2, ///< the register file
  LimitShared = 4,    ///< shared memory
  LimitBlocks = 8,    ///< the SM's resident-block limit
};
/// "warps", "registers", "shared memory", "blocks" joined by ", ".
std::string occupancyLimitNames(unsigned Limits);

/// The occupancy of one block size.
struct Occupancy {
  int BlockSize = 0;
  int BlocksPerSM = 0; ///< resident blocks; 0: the block cannot launch
  int WarpsPerSM = 0;  ///< resident warps
  int MaxWarpsPerSM = 0;
  /// Blocks each resource alone would allow (INT_MAX: no limit).
  int ByWarps = 0, ByRegisters = 0, ByShared = 0, ByBlocks = 0;
  unsigned Limits = 0;       ///< OccupancyLimit bits that reach BlocksPerSM
  int RegistersPerBlock = 0; ///< as allocated (rounded to warps and units)
  int SharedPerBlock = 0;    ///< as allocated (rounded, with the reserve)
  std::string Why;           ///< why a block cannot launch, when it cannot

  /// Resident warps over the SM's warp slots, 0..1.
  double fraction() const {
    return MaxWarpsPerSM ? double(WarpsPerSM) / MaxWarpsPerSM : 0;
  }
};

/// Occupancy of a kernel using `Registers` per thread and `SharedBytes` of
/// static shared memory, launched with `BlockSize` threads per block.
Occupancy occupancy(const SmLimits &L, int Registers, int SharedBytes,
                    int BlockSize);

/// Occupancy at every block size from one warp to `MaxBlockSize` (0: the
/// arch's limit) in steps of one warp.
std::vector<Occupancy> occupancyCurve(const SmLimits &L, int Registers,
                                      int SharedBytes, int MaxBlockSize = 0);

/// The curve of a ptx job whose resources ptxas measured: its arch,
/// registers, shared memory and launch bound (`--maxthreads`). Empty for
/// other targets, unknown archs and missing figures.
std::vector<Occupancy> reportOccupancy(const JobReport &R);

/// The occupancy of a launch of `Threads` threads per block of the job
/// reportOccupancy describes (none when it has no curve, or Threads is 0);
/// beyond the launch bound it cannot launch.
std::optional<Occupancy> reportOccupancyAt(const JobReport &R,
                                           uint64_t Threads);

/// "4 blocks, 32 of 64 warps (50%), limited by shared memory", or
/// "cannot launch: ...".
std::string describeOccupancy(const Occupancy &O);

/// The rows worth printing: the powers of two, and the last size when it
/// is not one (a launch bound).
std::vector<const Occupancy *>
occupancyRows(const std::vector<Occupancy> &Curve);

/// "sm_90 SM: 64 warps, 32 blocks, 65536 registers, 228 KiB shared memory".
std::string describeSm(llvm::StringRef Arch, const SmLimits &L);

/// The curve's best point: the highest occupancy, at the smallest block
/// size that reaches it. Null for an empty curve or one that never launches.
const Occupancy *bestOccupancy(const std::vector<Occupancy> &Curve);

} // namespace prism
