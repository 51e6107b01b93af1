#include "targets/Occupancy.h"

#include "cache/JobReport.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <climits>

namespace prism {

namespace {

int ceilDiv(int X, int Y) { return (X + Y - 1) / Y; }
int roundUp(int X, int Y) { return ceilDiv(X, Y) * Y; }

/// The archs PtxTarget accepts. Shared memory per SM is the largest
/// carveout; with no preference set the driver may choose it, and the
/// occupancy calculators assume it.
struct SmRow {
  int Major, Minor, MaxThreadsPerSM, MaxBlocksPerSM, SharedPerSMKiB;
};
constexpr SmRow SmTable[] = {
    {7, 5, 1024, 16, 64},  // Turing
    {8, 0, 2048, 32, 164}, // A100
    {8, 6, 1536, 16, 100}, // GA10x
    {8, 7, 2048, 16, 164}, // Orin
    {8, 9, 1536, 24, 100}, // Ada
    {9, 0, 2048, 32, 228}, // H100, H200
};

} // namespace

std::optional<SmLimits> smLimits(llvm::StringRef Arch) {
  unsigned CC = 0;
  if (!Arch.consume_front("sm_") || Arch.getAsInteger(10, CC))
    return std::nullopt;
  for (const SmRow &Row : SmTable) {
    if (unsigned(Row.Major * 10 + Row.Minor) != CC)
      continue;
    SmLimits L;
    L.Major = Row.Major;
    L.Minor = Row.Minor;
    L.MaxThreadsPerSM = Row.MaxThreadsPerSM;
    L.MaxBlocksPerSM = Row.MaxBlocksPerSM;
    L.SharedPerSM = Row.SharedPerSMKiB * 1024;
    // Since Ampere shared memory is allocated in 128-byte units and the
    // driver keeps 1 KiB of every block's share for itself.
    L.SharedAllocUnit = Row.Major >= 8 ? 128 : 256;
    L.SharedReservedPerBlock = Row.Major >= 8 ? 1024 : 0;
    return L;
  }
  return std::nullopt;
}

std::string occupancyLimitNames(unsigned Limits) {
  static const std::pair<unsigned, const char *> Names[] = {
      {LimitRegisters, "registers"},
      {LimitShared, "shared memory"},
      {LimitWarps, "warps"},
      {LimitBlocks, "blocks"}};
  std::string Out;
  for (auto [Bit, Name] : Names)
    if (Limits & Bit)
      Out += (Out.empty() ? "" : ", ") + std::string(Name);
  return Out;
}

Occupancy occupancy(const SmLimits &L, int Registers, int SharedBytes,
                    int BlockSize) {
  Occupancy O;
  O.BlockSize = BlockSize;
  O.MaxWarpsPerSM = L.maxWarpsPerSM();
  if (BlockSize <= 0) {
    O.Why = "a block needs at least one thread";
    return O;
  }
  int Warps = ceilDiv(BlockSize, L.WarpSize);

  // Warp slots.
  O.ByWarps = BlockSize > L.MaxThreadsPerBlock ? 0 : O.MaxWarpsPerSM / Warps;
  if (!O.ByWarps)
    O.Why = llvm::formatv("a block may have at most {0} threads",
                          L.MaxThreadsPerBlock);

  // Registers go to warps, rounded up to the allocation unit, and each
  // sub-partition holds a quarter of the register file: a warp cannot
  // straddle two. The launch check also rounds the block's warps up to
  // the sub-partitions, as if it were spread over all of them.
  int RegsPerWarp = roundUp(Registers * L.WarpSize, L.RegAllocUnit);
  O.RegistersPerBlock = RegsPerWarp * Warps;
  if (Registers > L.MaxRegsPerThread ||
      RegsPerWarp * roundUp(Warps, L.SubPartitions) > L.RegsPerBlock) {
    O.ByRegisters = 0;
    if (O.Why.empty())
      O.Why = llvm::formatv(
          "a block of {0} threads needs {1} registers ({2} per thread, {3} "
          "per warp), more than the {4} a block may use",
          BlockSize, RegsPerWarp * roundUp(Warps, L.SubPartitions), Registers,
          RegsPerWarp, L.RegsPerBlock);
  } else if (RegsPerWarp == 0) {
    O.ByRegisters = INT_MAX;
  } else {
    int WarpsPerPartition = L.RegsPerSM / L.SubPartitions / RegsPerWarp;
    O.ByRegisters = WarpsPerPartition * L.SubPartitions / Warps;
  }

  // Shared memory: the kernel's static arrays plus the driver's reserve,
  // rounded to the allocation unit.
  O.SharedPerBlock =
      roundUp(SharedBytes + L.SharedReservedPerBlock, L.SharedAllocUnit);
  if (O.SharedPerBlock > L.SharedPerBlock + L.SharedReservedPerBlock) {
    O.ByShared = 0;
    if (O.Why.empty())
      O.Why = llvm::formatv("{0} bytes of shared memory per block, more than "
                            "the {1} a block may declare",
                            SharedBytes, L.SharedPerBlock);
  } else {
    O.ByShared = O.SharedPerBlock ? L.SharedPerSM / O.SharedPerBlock : INT_MAX;
  }

  O.ByBlocks = L.MaxBlocksPerSM;
  O.BlocksPerSM = std::min({O.ByWarps, O.ByRegisters, O.ByShared, O.ByBlocks});
  if (O.ByWarps == O.BlocksPerSM)
    O.Limits |= LimitWarps;
  if (O.ByRegisters == O.BlocksPerSM)
    O.Limits |= LimitRegisters;
  if (O.ByShared == O.BlocksPerSM)
    O.Limits |= LimitShared;
  if (O.ByBlocks == O.BlocksPerSM)
    O.Limits |= LimitBlocks;
  O.WarpsPerSM = O.BlocksPerSM * Warps;
  return O;
}

std::vector<Occupancy> occupancyCurve(const SmLimits &L, int Registers,
                                      int SharedBytes, int MaxBlockSize) {
  int Max = MaxBlockSize > 0 ? std::min(MaxBlockSize, L.MaxThreadsPerBlock)
                             : L.MaxThreadsPerBlock;
  std::vector<Occupancy> Curve;
  for (int B = L.WarpSize; B <= Max; B += L.WarpSize)
    Curve.push_back(occupancy(L, Registers, SharedBytes, B));
  // A launch bound that is not a whole number of warps is a size of its own.
  if (Max % L.WarpSize)
    Curve.push_back(occupancy(L, Registers, SharedBytes, Max));
  return Curve;
}

/// The SM a report's occupancy is about: a ptx kernel whose registers
/// ptxas measured, for an arch the table knows.
static std::optional<SmLimits> reportSm(const JobReport &R) {
  if (R.Target != "ptx" || !R.Kernel || !R.Resources.Registers)
    return std::nullopt;
  return smLimits(R.Arch);
}

std::vector<Occupancy> reportOccupancy(const JobReport &R) {
  std::optional<SmLimits> L = reportSm(R);
  if (!L)
    return {};
  return occupancyCurve(*L, *R.Resources.Registers,
                        R.Resources.SharedBytes.value_or(0),
                        static_cast<int>(R.MaxThreads));
}

std::optional<Occupancy> reportOccupancyAt(const JobReport &R,
                                           uint64_t Threads) {
  std::optional<SmLimits> L = reportSm(R);
  if (!Threads || !L)
    return std::nullopt;
  int N = int(std::min<uint64_t>(Threads, INT_MAX));
  if (R.MaxThreads && unsigned(N) > R.MaxThreads) {
    Occupancy O;
    O.BlockSize = N;
    O.MaxWarpsPerSM = L->maxWarpsPerSM();
    O.Why = llvm::formatv("the kernel was compiled for at most {0} threads "
                          "(--maxthreads)",
                          R.MaxThreads);
    return O;
  }
  return occupancy(*L, *R.Resources.Registers,
                   R.Resources.SharedBytes.value_or(0), N);
}

std::string describeOccupancy(const Occupancy &O) {
  if (!O.BlocksPerSM)
    return "cannot launch: " + O.Why;
  return llvm::formatv("{0} blocks, {1} of {2} warps ({3}%), limited by {4}",
                       O.BlocksPerSM, O.WarpsPerSM, O.MaxWarpsPerSM,
                       int(O.fraction() * 100 + 0.5),
                       occupancyLimitNames(O.Limits));
}

std::vector<const Occupancy *>
occupancyRows(const std::vector<Occupancy> &Curve) {
  std::vector<const Occupancy *> Rows;
  for (const Occupancy &O : Curve)
    if (llvm::isPowerOf2_32(unsigned(O.BlockSize)) || &O == &Curve.back())
      Rows.push_back(&O);
  return Rows;
}

std::string describeSm(llvm::StringRef Arch, const SmLimits &L) {
  return llvm::formatv("{0} SM: {1} warps, {2} blocks, {3} registers, {4} KiB "
                       "shared memory",
                       Arch, L.maxWarpsPerSM(), L.MaxBlocksPerSM, L.RegsPerSM,
                       L.SharedPerSM / 1024);
}

const Occupancy *bestOccupancy(const std::vector<Occupancy> &Curve) {
  const Occupancy *Best = nullptr;
  for (const Occupancy &O : Curve)
    if (O.BlocksPerSM && (!Best || O.WarpsPerSM > Best->WarpsPerSM))
      Best = &O;
  return Best;
}

} // namespace prism
