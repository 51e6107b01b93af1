/// \file
/// Theoretical occupancy of a GPU kernel: how many blocks of a given size
/// can be resident on one multiprocessor at once, and which resource stops
/// more (warp slots, registers, shared memory or the block limit). It
/// answers, without a GPU, the question Nsight Compute's "Occupancy"
/// section and CUDA's occupancy calculator answer: does this kernel's
/// register count or shared memory leave the multiprocessor room to hide
/// latency?
///
/// NVIDIA: an SM, per compute capability (registers are given to warps in
/// units of 256, per SM sub-partition; shared memory in units of 128 or 256
/// bytes, plus the 1 KiB the driver reserves per block since Ampere). The
/// tests check it against the CUDA toolkit's own calculator
/// (cuda_occupancy.h) where the toolkit is installed, and tests/gpu/run-all
/// against the driver's cuOccupancyMaxActiveBlocksPerMultiprocessor.
///
/// AMD (gfx9: GCN and CDNA; gfx10 and gfx11: RDNA): a compute unit (on
/// RDNA a workgroup processor, two CUs), the same model in AMD's words
/// (a block is a workgroup, a warp a wavefront, a sub-partition a SIMD,
/// shared memory the LDS), plus the SGPR file, which on gfx9 also limits
/// the waves per SIMD. A workgroup is admitted whole, so its size matters
/// as on NVIDIA; the AMDGPU backend's own `; Occupancy:` figure ignores
/// that (it is the waves per SIMD the registers and LDS allow), and the
/// tests check the model against it where the two must agree.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace prism {

struct JobReport;

/// What one multiprocessor offers: an NVIDIA SM (CUDA C++ Programming
/// Guide, "Technical Specifications per Compute Capability") or an AMD
/// compute unit (the AMDGPU backend's subtarget figures, AMDGPUUsage).
struct MultiprocessorLimits {
  bool Amd = false;        ///< an AMD CU: workgroups, wavefronts, SIMDs, LDS
  const char *Unit = "SM"; ///< "SM", "CU", "WGP" (RDNA: two CUs)
  int Major = 0, Minor = 0;
  int WarpSize = 32;
  int MaxThreadsPerBlock = 1024;
  int MaxThreadsPerSM = 2048;
  int MaxBlocksPerSM = 32; ///< AMD: workgroups of several waves (barriers)
  /// AMD: a one-wave workgroup takes no barrier; only the wave slots bound
  /// how many stay resident.
  bool OneWarpBlocksUnbounded = false;
  int RegsPerSM = 65536;
  int RegsPerBlock = 65536;
  int MaxRegsPerThread = 255;
  int RegAllocUnit = 256; ///< registers are given to a warp in these units
  int SubPartitions = 4;  ///< each holds a quarter of the register file
  /// AMD gfx9: the SGPR file also limits the waves per SIMD (from 81
  /// SGPRs a wave); gfx10 and NVIDIA have no such limit.
  bool ScalarRegistersLimit = false;
  int MaxWarpsPerPartition = 0; ///< AMD: waves per SIMD (8 or 10)
  int SharedPerSM = 0;    ///< bytes, with the largest shared-memory carveout
  int SharedPerBlock = 48 * 1024; ///< static shared memory a block may declare
  int SharedReservedPerBlock = 0; ///< the driver's own per block (sm_80+)
  int SharedAllocUnit = 256;

  int maxWarpsPerSM() const { return MaxThreadsPerSM / WarpSize; }
  /// AMD: the register file of one SIMD lane (512 VGPRs on gfx90a).
  int vgprsPerSimdLane() const { return RegsPerSM / SubPartitions / WarpSize; }
  /// The vendor's words: "block"/"workgroup", "warp"/"wave", "SM"/"CU".
  const char *blockWord() const { return Amd ? "workgroup" : "block"; }
  const char *warpWord() const { return Amd ? "wave" : "warp"; }
  const char *unitWord() const { return Unit; }
  const char *registersWord() const { return Amd ? "VGPRs" : "registers"; }
  const char *sharedWord() const { return Amd ? "LDS" : "shared memory"; }
};

/// The limits of `sm_XY`; none for an arch the table does not know.
std::optional<MultiprocessorLimits> smLimits(llvm::StringRef Arch);

/// The limits of an AMD processor LLVM 16 knows: gfx9 (`gfx900` ...
/// `gfx90a`, `gfx940` ... `gfx942`: a CU running wave64) and gfx10/gfx11
/// (`gfx1010` ... `gfx1103`: a WGP running wave32); none for others.
std::optional<MultiprocessorLimits> cuLimits(llvm::StringRef Arch);

/// What stops a further block from being resident (several may at once).
enum OccupancyLimit : unsigned {
  LimitWarps = 1,            ///< the SM's warp slots
  LimitRegisters = 2,        ///< the register file
  LimitShared = 4,           ///< shared memory
  LimitBlocks = 8,           ///< the SM's resident-block limit
  LimitScalarRegisters = 16, ///< AMD gfx9: the SGPR file
};
/// "warps", "registers", "shared memory", "blocks" joined by ", "; for AMD
/// (`Amd`) "waves", "VGPRs", "LDS", "barriers", "SGPRs".
std::string occupancyLimitNames(unsigned Limits, bool Amd = false);

/// The occupancy of one block size.
struct Occupancy {
  int BlockSize = 0;
  int BlocksPerSM = 0; ///< resident blocks; 0: the block cannot launch
  int WarpsPerSM = 0;  ///< resident warps
  int MaxWarpsPerSM = 0;
  int Partitions = 4; ///< sub-partitions (AMD: SIMDs) sharing the warps
  bool Amd = false;   ///< about an AMD CU (names, as in MultiprocessorLimits)
  int WarpSize = 32;  ///< lanes of a warp (AMD: of a wave)
  /// Blocks each resource alone would allow (INT_MAX: no limit).
  int ByWarps = 0, ByRegisters = 0, ByShared = 0, ByBlocks = 0;
  int ByScalarRegisters = INT_MAX;
  unsigned Limits = 0;       ///< OccupancyLimit bits that reach BlocksPerSM
  int RegistersPerBlock = 0; ///< as allocated (rounded to warps and units)
  int SharedPerBlock = 0;    ///< as allocated (rounded, with the reserve)
  std::string Why;           ///< why a block cannot launch, when it cannot

  /// Resident warps over the SM's warp slots, 0..1.
  double fraction() const {
    return MaxWarpsPerSM ? double(WarpsPerSM) / MaxWarpsPerSM : 0;
  }
  /// Resident warps per sub-partition (AMD: waves per SIMD), on average.
  double warpsPerPartition() const {
    return Partitions ? double(WarpsPerSM) / Partitions : 0;
  }
};

/// Occupancy of a kernel using `Registers` per thread (AMD: VGPRs),
/// `SharedBytes` of static shared memory (LDS) and, on AMD gfx9,
/// `ScalarRegisters` SGPRs per wave, launched with `BlockSize` threads per
/// block.
Occupancy occupancy(const MultiprocessorLimits &L, int Registers,
                    int SharedBytes, int BlockSize, int ScalarRegisters = 0);

/// Occupancy at every block size from one warp to `MaxBlockSize` (0: the
/// arch's limit) in steps of one warp.
std::vector<Occupancy> occupancyCurve(const MultiprocessorLimits &L,
                                      int Registers, int SharedBytes,
                                      int MaxBlockSize = 0,
                                      int ScalarRegisters = 0);

/// The multiprocessor a report's occupancy is about: a ptx kernel whose
/// registers ptxas measured, or a gcn kernel for a gfx9 arch, whose
/// registers the backend printed. None for anything else.
std::optional<MultiprocessorLimits> reportLimits(const JobReport &R);

/// The curve of a job reportLimits knows: its arch, registers, shared
/// memory and launch bound (`--maxthreads`). Empty for other targets,
/// unknown archs and missing figures.
std::vector<Occupancy> reportOccupancy(const JobReport &R);

/// The occupancy of a launch of `Threads` threads per block of the job
/// reportOccupancy describes (none when it has no curve, or Threads is 0);
/// beyond the launch bound it cannot launch.
std::optional<Occupancy> reportOccupancyAt(const JobReport &R,
                                           uint64_t Threads);

/// "4 blocks, 32 of 64 warps (50%), limited by shared memory" (AMD: "1
/// workgroup, 4 of 32 waves (13%, 1 per SIMD), limited by LDS"), or
/// "cannot launch: ...".
std::string describeOccupancy(const Occupancy &O);

/// Warps per sub-partition (AMD: waves per SIMD), "4" or "0.25".
std::string formatPerPartition(const Occupancy &O);

/// The rows worth printing: the powers of two, the last size when it is
/// not one (a launch bound), and the smallest size with the highest
/// occupancy (sm_86's 768), which "highest:" names.
std::vector<const Occupancy *>
occupancyRows(const std::vector<Occupancy> &Curve);

/// "sm_90 SM: 64 warps, 32 blocks, 65536 registers, 228 KiB shared memory",
/// "gfx90a CU: 4 SIMDs of 8 wave64s, 512 VGPRs per SIMD lane, 16 barriers,
/// 64 KiB LDS".
std::string describeMultiprocessor(llvm::StringRef Arch,
                                   const MultiprocessorLimits &L);

/// gcn: where the backend's own waves/SIMD differs from the curve's
/// largest workgroup (the backend counts waves one by one), a sentence
/// saying why; empty otherwise.
std::string backendOccupancyNote(const JobReport &R,
                                 const std::vector<Occupancy> &Curve);

/// The curve's best point: the highest occupancy, at the smallest block
/// size that reaches it. Null for an empty curve or one that never launches.
const Occupancy *bestOccupancy(const std::vector<Occupancy> &Curve);

} // namespace prism
