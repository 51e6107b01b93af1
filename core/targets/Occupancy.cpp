#include "targets/Occupancy.h"

#include "cache/JobReport.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <tuple>

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
    {8, 7, 1536, 16, 164}, // Orin
    {8, 9, 1536, 24, 100}, // Ada
    {9, 0, 2048, 32, 228}, // H100, H200
};

/// AMD processors LLVM 16 knows, with the figures the backend's own
/// occupancy uses (AMDGPUBaseInfo: getMaxWavesPerEU, getTotalNumVGPRs,
/// getVGPRAllocGranule, getMaxWorkGroupsPerCU), checked against llc-16's
/// `; Occupancy:` (tests/core/targets/OccupancyTest.cpp).
///  - gfx9 (GCN, CDNA): a CU of 4 SIMDs running wave64, 64 KiB of LDS, 16
///    barriers, and an SGPR file that limits waves from 81 SGPRs. CDNA2
///    and later (gfx90a, gfx94x) have 8 wave slots per SIMD and 512 VGPRs
///    (shared with the AGPRs) given in 8s; earlier ones 10 slots and 256
///    VGPRs in 4s.
///  - gfx10 and gfx11 (RDNA), compiled for wave32: a workgroup runs on a
///    WGP (two CUs: 4 SIMD32s, 128 KiB of LDS, 32 barriers); no SGPR limit.
/// LDS is given in 512-byte blocks, in 1024-byte ones from gfx10.3.
struct CuRow {
  const char *Arch;
  int MaxWavesPerSimd, VgprsPerSimd, VgprGranule;
  bool Rdna;
  int LdsGranule;
};
constexpr CuRow CuTable[] = {
    {"gfx900", 10, 256, 4, false, 512},
    {"gfx902", 10, 256, 4, false, 512},
    {"gfx904", 10, 256, 4, false, 512},
    {"gfx906", 10, 256, 4, false, 512},
    {"gfx908", 10, 256, 4, false, 512},
    {"gfx909", 10, 256, 4, false, 512},
    {"gfx90c", 10, 256, 4, false, 512},
    {"gfx90a", 8, 512, 8, false, 512},
    {"gfx940", 8, 512, 8, false, 512},
    {"gfx941", 8, 512, 8, false, 512},
    {"gfx942", 8, 512, 8, false, 512},
    {"gfx1010", 20, 1024, 8, true, 512},
    {"gfx1011", 20, 1024, 8, true, 512},
    {"gfx1012", 20, 1024, 8, true, 512},
    {"gfx1013", 20, 1024, 8, true, 512},
    {"gfx1030", 16, 1024, 16, true, 1024},
    {"gfx1031", 16, 1024, 16, true, 1024},
    {"gfx1032", 16, 1024, 16, true, 1024},
    {"gfx1033", 16, 1024, 16, true, 1024},
    {"gfx1034", 16, 1024, 16, true, 1024},
    {"gfx1035", 16, 1024, 16, true, 1024},
    {"gfx1036", 16, 1024, 16, true, 1024},
    {"gfx1100", 16, 1536, 24, true, 1024},
    {"gfx1101", 16, 1536, 24, true, 1024},
    {"gfx1102", 16, 1024, 16, true, 1024},
    {"gfx1103", 16, 1024, 16, true, 1024},
};

/// The waves per SIMD `SGPRs` scalar registers a wave allow on gfx9 (the
/// count the backend prints, with VCC and the other extras), before the
/// SIMD's own wave slots.
int wavesPerSimdWithSgprs(int SGPRs) {
  // The SGPR file holds 800 per SIMD, given to waves in 16s (gfx9).
  return SGPRs <= 80 ? 10 : SGPRs <= 88 ? 9 : SGPRs <= 100 ? 8 : 7;
}

} // namespace

std::optional<MultiprocessorLimits> cuLimits(llvm::StringRef Arch) {
  for (const CuRow &Row : CuTable) {
    if (Arch != Row.Arch)
      continue;
    MultiprocessorLimits L;
    L.Amd = true;
    L.Unit = Row.Rdna ? "WGP" : "CU";
    L.WarpSize = Row.Rdna ? 32 : 64;
    L.SubPartitions = 4;
    L.MaxWarpsPerPartition = Row.MaxWavesPerSimd;
    L.MaxThreadsPerSM = Row.MaxWavesPerSimd * L.SubPartitions * L.WarpSize;
    // A workgroup of several waves takes one of the barriers; one of a
    // single wave needs none, so only the wave slots bound those.
    L.MaxBlocksPerSM = Row.Rdna ? 32 : 16;
    L.OneWarpBlocksUnbounded = true;
    // Registers in the NVIDIA model's units: a wave's VGPRs times its
    // lanes, allocated in granules, a quarter of the CU's per SIMD. A wave
    // addresses at most 256 (gfx90a: 512, with the AGPRs).
    L.RegsPerSM = Row.VgprsPerSimd * L.WarpSize * L.SubPartitions;
    L.RegsPerBlock = L.RegsPerSM;
    L.MaxRegsPerThread = std::min(Row.VgprsPerSimd, Row.Rdna ? 256 : 512);
    L.RegAllocUnit = Row.VgprGranule * L.WarpSize;
    L.ScalarRegistersLimit = !Row.Rdna;
    L.SharedPerSM = (Row.Rdna ? 128 : 64) * 1024;
    L.SharedPerBlock = 64 * 1024;
    L.SharedAllocUnit = Row.LdsGranule;
    return L;
  }
  return std::nullopt;
}

std::optional<MultiprocessorLimits> smLimits(llvm::StringRef Arch) {
  unsigned CC = 0;
  if (!Arch.consume_front("sm_") || Arch.getAsInteger(10, CC))
    return std::nullopt;
  for (const SmRow &Row : SmTable) {
    if (unsigned(Row.Major * 10 + Row.Minor) != CC)
      continue;
    MultiprocessorLimits L;
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

std::string occupancyLimitNames(unsigned Limits, bool Amd) {
  static const std::tuple<unsigned, const char *, const char *> Names[] = {
      {LimitRegisters, "registers", "VGPRs"},
      {LimitScalarRegisters, "SGPRs", "SGPRs"},
      {LimitShared, "shared memory", "LDS"},
      {LimitWarps, "warps", "waves"},
      {LimitBlocks, "blocks", "barriers"}};
  std::string Out;
  for (auto [Bit, Name, AmdName] : Names)
    if (Limits & Bit)
      Out += (Out.empty() ? "" : ", ") + std::string(Amd ? AmdName : Name);
  return Out;
}

Occupancy occupancy(const MultiprocessorLimits &L, int Registers,
                    int SharedBytes, int BlockSize, int ScalarRegisters) {
  Occupancy O;
  O.BlockSize = BlockSize;
  O.MaxWarpsPerSM = L.maxWarpsPerSM();
  O.Partitions = L.SubPartitions;
  O.Amd = L.Amd;
  O.WarpSize = L.WarpSize;
  const char *Block = L.blockWord();
  const char *Shared = L.sharedWord();
  if (BlockSize <= 0) {
    O.Why = llvm::formatv("a {0} needs at least one thread", Block);
    return O;
  }
  int Warps = ceilDiv(BlockSize, L.WarpSize);

  // Warp slots. On AMD a workgroup's waves may sit on any of the CU's
  // SIMDs, so the slots count per CU as on NVIDIA.
  O.ByWarps = BlockSize > L.MaxThreadsPerBlock ? 0 : O.MaxWarpsPerSM / Warps;
  if (!O.ByWarps)
    O.Why = llvm::formatv("a {0} may have at most {1} threads", Block,
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
    if (O.Why.empty() && L.Amd)
      O.Why = llvm::formatv(
          "a workgroup of {0} threads is {1} waves of {2} VGPRs, {3} per "
          "SIMD; a SIMD's {4} VGPRs hold {5} such waves",
          BlockSize, Warps, Registers, ceilDiv(Warps, L.SubPartitions),
          L.vgprsPerSimdLane(),
          L.RegsPerSM / L.SubPartitions / std::max(RegsPerWarp, 1));
    else if (O.Why.empty())
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

  // AMD gfx9: the SGPR file, per SIMD like the VGPRs; a limit only where
  // it allows fewer waves than the SIMD has slots.
  if (L.ScalarRegistersLimit && ScalarRegisters > 0) {
    int Waves = wavesPerSimdWithSgprs(ScalarRegisters);
    if (Waves < L.MaxWarpsPerPartition)
      O.ByScalarRegisters = Waves * L.SubPartitions / Warps;
  }

  // Shared memory: the kernel's static arrays plus the driver's reserve,
  // rounded to the allocation unit.
  O.SharedPerBlock =
      roundUp(SharedBytes + L.SharedReservedPerBlock, L.SharedAllocUnit);
  if (O.SharedPerBlock > L.SharedPerBlock + L.SharedReservedPerBlock) {
    O.ByShared = 0;
    if (O.Why.empty())
      O.Why = llvm::formatv("{0} bytes of {2} per {3}, more than the {1} a "
                            "{3} may declare",
                            SharedBytes, L.SharedPerBlock, Shared, Block);
  } else {
    O.ByShared = O.SharedPerBlock ? L.SharedPerSM / O.SharedPerBlock : INT_MAX;
  }

  O.ByBlocks =
      Warps == 1 && L.OneWarpBlocksUnbounded ? INT_MAX : L.MaxBlocksPerSM;
  O.BlocksPerSM = std::min(
      {O.ByWarps, O.ByRegisters, O.ByScalarRegisters, O.ByShared, O.ByBlocks});
  if (O.ByWarps == O.BlocksPerSM)
    O.Limits |= LimitWarps;
  if (O.ByRegisters == O.BlocksPerSM)
    O.Limits |= LimitRegisters;
  if (O.ByScalarRegisters == O.BlocksPerSM)
    O.Limits |= LimitScalarRegisters;
  if (O.ByShared == O.BlocksPerSM)
    O.Limits |= LimitShared;
  if (O.ByBlocks == O.BlocksPerSM)
    O.Limits |= LimitBlocks;
  O.WarpsPerSM = O.BlocksPerSM * Warps;
  return O;
}

std::vector<Occupancy> occupancyCurve(const MultiprocessorLimits &L,
                                      int Registers, int SharedBytes,
                                      int MaxBlockSize, int ScalarRegisters) {
  int Max = MaxBlockSize > 0 ? std::min(MaxBlockSize, L.MaxThreadsPerBlock)
                             : L.MaxThreadsPerBlock;
  std::vector<Occupancy> Curve;
  for (int B = L.WarpSize; B <= Max; B += L.WarpSize)
    Curve.push_back(occupancy(L, Registers, SharedBytes, B, ScalarRegisters));
  // A launch bound that is not a whole number of warps is a size of its own.
  if (Max % L.WarpSize)
    Curve.push_back(occupancy(L, Registers, SharedBytes, Max, ScalarRegisters));
  return Curve;
}

std::optional<MultiprocessorLimits> reportLimits(const JobReport &R) {
  if (!R.Kernel)
    return std::nullopt;
  if (R.Target == "ptx" && R.Resources.Registers)
    return smLimits(R.Arch);
  if (R.Target == "gcn" && R.Resources.VGPRs && R.Resources.SGPRs)
    return cuLimits(R.Arch);
  return std::nullopt;
}

namespace {

/// The figures the model takes from a report reportLimits knows.
struct KernelFigures {
  int Registers = 0, SharedBytes = 0, ScalarRegisters = 0;
};

KernelFigures kernelFigures(const JobReport &R) {
  const ResourceUsage &U = R.Resources;
  if (R.Target != "gcn")
    return {U.Registers.value_or(0), U.SharedBytes.value_or(0), 0};
  // gfx90a and gfx94x keep VGPRs and AGPRs in one file: the AGPRs follow
  // the VGPRs, aligned to 4 (the backend's TotalNumVgprs); gfx908's are a
  // file of their own, as large.
  int VGPRs = U.VGPRs.value_or(0);
  llvm::StringRef Arch(R.Arch);
  if (U.AGPRs && *U.AGPRs > 0)
    VGPRs = Arch == "gfx90a" || Arch.startswith("gfx94")
                ? roundUp(VGPRs, 4) + *U.AGPRs
                : std::max(VGPRs, *U.AGPRs);
  return {VGPRs, U.LDSBytes.value_or(0), U.SGPRs.value_or(0)};
}

/// Why the kernel's launch bounds rule out a block of N threads, if they do.
std::optional<std::string> outsideLaunchBounds(const JobReport &R, unsigned N) {
  if (R.MaxThreads && N > R.MaxThreads)
    return llvm::formatv("the kernel was compiled for at most {0} threads "
                         "(--maxthreads)",
                         R.MaxThreads)
        .str();
  if (R.MinThreads && R.Target == "ptx" && N != R.MinThreads)
    return llvm::formatv("the kernel was compiled for exactly {0} threads "
                         "(--minthreads is PTX's .reqntid)",
                         R.MinThreads)
        .str();
  if (R.MinThreads && N < R.MinThreads)
    return llvm::formatv("the kernel was compiled for at least {0} threads "
                         "(--minthreads)",
                         R.MinThreads)
        .str();
  return std::nullopt;
}

} // namespace

std::vector<Occupancy> reportOccupancy(const JobReport &R) {
  std::optional<MultiprocessorLimits> L = reportLimits(R);
  if (!L)
    return {};
  KernelFigures K = kernelFigures(R);
  std::vector<Occupancy> Curve =
      occupancyCurve(*L, K.Registers, K.SharedBytes,
                     static_cast<int>(R.MaxThreads), K.ScalarRegisters);
  // Only the block sizes the launch bounds allow (an exact `.reqntid` that
  // is not a whole number of warps is a size of its own).
  llvm::erase_if(Curve, [&](const Occupancy &O) {
    return outsideLaunchBounds(R, unsigned(O.BlockSize)).has_value();
  });
  if (R.MinThreads && R.Target == "ptx" && Curve.empty() &&
      !outsideLaunchBounds(R, R.MinThreads))
    Curve.push_back(occupancy(*L, K.Registers, K.SharedBytes, int(R.MinThreads),
                              K.ScalarRegisters));
  return Curve;
}

std::optional<Occupancy> reportOccupancyAt(const JobReport &R,
                                           uint64_t Threads) {
  std::optional<MultiprocessorLimits> L = reportLimits(R);
  if (!Threads || !L)
    return std::nullopt;
  int N = int(std::min<uint64_t>(Threads, INT_MAX));
  if (std::optional<std::string> Why = outsideLaunchBounds(R, unsigned(N))) {
    Occupancy O;
    O.BlockSize = N;
    O.MaxWarpsPerSM = L->maxWarpsPerSM();
    O.Partitions = L->SubPartitions;
    O.Amd = L->Amd;
    O.WarpSize = L->WarpSize;
    O.Why = *Why;
    return O;
  }
  KernelFigures K = kernelFigures(R);
  return occupancy(*L, K.Registers, K.SharedBytes, N, K.ScalarRegisters);
}

std::string describeOccupancy(const Occupancy &O) {
  if (!O.BlocksPerSM)
    return "cannot launch: " + O.Why;
  int Percent = int(O.fraction() * 100 + 0.5);
  std::string Limits = occupancyLimitNames(O.Limits, O.Amd);
  // A block of several warps that is no multiple of the warp: its last
  // warp's missing lanes hold a warp slot and do nothing (--threads 100: 4
  // of 32 lanes). A block smaller than a warp says so by its size.
  std::string Idle;
  if (int Rem =
          O.WarpSize && O.BlockSize > O.WarpSize ? O.BlockSize % O.WarpSize : 0)
    Idle = llvm::formatv("; each {0}'s last {1} runs {2} of its {3} lanes, "
                         "so {4} of the {5} thread slots held do work",
                         O.Amd ? "workgroup" : "block", O.Amd ? "wave" : "warp",
                         Rem, O.WarpSize, O.BlocksPerSM * O.BlockSize,
                         O.WarpsPerSM * O.WarpSize)
               .str();
  if (O.Amd)
    return llvm::formatv(
               "{0} workgroup{1}, {2} of {3} waves ({4}%, {5} per SIMD), "
               "limited by {6}",
               O.BlocksPerSM, O.BlocksPerSM == 1 ? "" : "s", O.WarpsPerSM,
               O.MaxWarpsPerSM, Percent, formatPerPartition(O), Limits)
               .str() +
           Idle;
  return llvm::formatv("{0} block{5}, {1} of {2} warps ({3}%), limited by {4}",
                       O.BlocksPerSM, O.WarpsPerSM, O.MaxWarpsPerSM, Percent,
                       Limits, O.BlocksPerSM == 1 ? "" : "s")
             .str() +
         Idle;
}

std::string formatPerPartition(const Occupancy &O) {
  double W = O.warpsPerPartition();
  if (W == double(int(W)))
    return std::to_string(int(W));
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.2f", W);
  return Buf;
}

std::vector<const Occupancy *>
occupancyRows(const std::vector<Occupancy> &Curve) {
  std::vector<const Occupancy *> Rows;
  const Occupancy *Best = bestOccupancy(Curve);
  for (const Occupancy &O : Curve)
    if (llvm::isPowerOf2_32(unsigned(O.BlockSize)) || &O == &Curve.back() ||
        &O == Best)
      Rows.push_back(&O);
  return Rows;
}

std::string describeMultiprocessor(llvm::StringRef Arch,
                                   const MultiprocessorLimits &L) {
  if (L.Amd)
    return llvm::formatv("{0} {6}: {5} SIMDs of {1} wave{7}s, {2} VGPRs per "
                         "SIMD lane, {3} barriers, {4} KiB LDS",
                         Arch, L.MaxWarpsPerPartition, L.vgprsPerSimdLane(),
                         L.MaxBlocksPerSM, L.SharedPerSM / 1024,
                         L.SubPartitions, L.Unit, L.WarpSize);
  return llvm::formatv("{0} SM: {1} warps, {2} blocks, {3} registers, {4} KiB "
                       "shared memory",
                       Arch, L.maxWarpsPerSM(), L.MaxBlocksPerSM, L.RegsPerSM,
                       L.SharedPerSM / 1024);
}

std::string backendOccupancyNote(const JobReport &R,
                                 const std::vector<Occupancy> &Curve) {
  std::optional<int> Backend = R.Resources.WavesPerSIMD;
  if (Curve.empty() || !Curve.back().Amd || !Backend)
    return {};
  const Occupancy &Largest = Curve.back();
  if (!Largest.BlocksPerSM || Largest.warpsPerPartition() == double(*Backend))
    return {};
  return llvm::formatv("the backend's waves/SIMD ({0}) counts waves one by "
                       "one; a workgroup of {1} threads is admitted whole: "
                       "{2} per SIMD",
                       *Backend, Largest.BlockSize,
                       formatPerPartition(Largest));
}

const Occupancy *bestOccupancy(const std::vector<Occupancy> &Curve) {
  const Occupancy *Best = nullptr;
  for (const Occupancy &O : Curve)
    if (O.BlocksPerSM && (!Best || O.WarpsPerSM > Best->WarpsPerSM))
      Best = &O;
  return Best;
}

} // namespace prism
