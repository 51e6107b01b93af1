// Theoretical occupancy: hand-worked cases, the CUDA toolkit's own
// calculator as a reference where it is installed, and the curve of a
// compiled kernel.
#include "targets/Occupancy.h"

#include "cache/JobReport.h"

#include "core/targets/GpuTestUtil.h"
#include "targets/PtxTarget.h"

#include <gtest/gtest.h>

#include <climits>

#ifdef PRISM_HAVE_CUDA_OCCUPANCY_H
#include <cuda_occupancy.h>
#endif

namespace prism {
namespace {

MultiprocessorLimits limits(const char *Arch) {
  std::optional<MultiprocessorLimits> L = smLimits(Arch);
  EXPECT_TRUE(L) << Arch;
  return L.value_or(MultiprocessorLimits{});
}

MultiprocessorLimits cu(const char *Arch) {
  std::optional<MultiprocessorLimits> L = cuLimits(Arch);
  EXPECT_TRUE(L) << Arch;
  return L.value_or(MultiprocessorLimits{});
}

TEST(Occupancy, KnowsThePtxArchsAndNothingElse) {
  for (const char *A : {"sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90"})
    EXPECT_TRUE(smLimits(A)) << A;
  for (const char *A : {"sm_", "sm_70x", "gfx90a", "sm_100", ""})
    EXPECT_FALSE(smLimits(A)) << A;
  MultiprocessorLimits H = limits("sm_90");
  EXPECT_EQ(H.maxWarpsPerSM(), 64);
  EXPECT_EQ(H.SharedPerSM, 228 * 1024);
  EXPECT_EQ(limits("sm_86").maxWarpsPerSM(), 48);
  // Orin: 48 warps, as sm_86 and sm_89 (the programming guide's table).
  EXPECT_EQ(limits("sm_87").maxWarpsPerSM(), 48);
}

// block_sum on an A100: 13 registers, 1 KiB of shared memory, 256 threads.
// 8 warps a block; the warp slots allow 8 blocks, registers 16 (13 × 32
// rounds to 512 per warp: 32 warps per sub-partition), shared memory 82
// (2 KiB a block with the driver's reserve), the block limit 32.
TEST(Occupancy, BlockSumOnA100IsLimitedByWarpSlots) {
  Occupancy O = occupancy(limits("sm_80"), 13, 1024, 256);
  EXPECT_EQ(O.ByWarps, 8);
  EXPECT_EQ(O.ByRegisters, 16);
  EXPECT_EQ(O.ByShared, 82);
  EXPECT_EQ(O.ByBlocks, 32);
  EXPECT_EQ(O.BlocksPerSM, 8);
  EXPECT_EQ(O.WarpsPerSM, 64);
  EXPECT_EQ(O.Limits, unsigned(LimitWarps));
  EXPECT_DOUBLE_EQ(O.fraction(), 1.0);
  EXPECT_EQ(O.RegistersPerBlock, 512 * 8);
  EXPECT_EQ(O.SharedPerBlock, 2048);
  EXPECT_TRUE(O.Why.empty());
}

TEST(Occupancy, RegistersHalveIt) {
  // 64 registers: 2048 a warp, 8 warps per sub-partition, 32 per SM.
  Occupancy O = occupancy(limits("sm_80"), 64, 0, 256);
  EXPECT_EQ(O.BlocksPerSM, 4);
  EXPECT_EQ(O.WarpsPerSM, 32);
  EXPECT_EQ(O.Limits, unsigned(LimitRegisters));
  EXPECT_DOUBLE_EQ(O.fraction(), 0.5);
  EXPECT_EQ(occupancyLimitNames(O.Limits), "registers");
}

TEST(Occupancy, SharedMemoryLimitsBigTiles) {
  // 40 KiB + the 1 KiB reserve: five blocks in 228 KiB.
  Occupancy O = occupancy(limits("sm_90"), 32, 40 * 1024, 128);
  EXPECT_EQ(O.ByShared, 5);
  EXPECT_EQ(O.BlocksPerSM, 5);
  EXPECT_EQ(O.WarpsPerSM, 20);
  EXPECT_EQ(O.Limits, unsigned(LimitShared));
}

TEST(Occupancy, SmallBlocksHitTheBlockLimit) {
  // One warp a block: Turing keeps 16 blocks of its 32 warp slots.
  Occupancy O = occupancy(limits("sm_75"), 16, 0, 32);
  EXPECT_EQ(O.BlocksPerSM, 16);
  EXPECT_DOUBLE_EQ(O.fraction(), 0.5);
  EXPECT_EQ(O.Limits, unsigned(LimitBlocks));
  // Several limits at once are all named.
  EXPECT_EQ(occupancyLimitNames(LimitWarps | LimitBlocks), "warps, blocks");
}

TEST(Occupancy, ABlockThatCannotLaunchSaysWhy) {
  // 255 registers × 1024 threads is four register files.
  Occupancy O = occupancy(limits("sm_80"), 255, 0, 1024);
  EXPECT_EQ(O.BlocksPerSM, 0);
  EXPECT_EQ(O.fraction(), 0);
  EXPECT_NE(O.Why.find("registers"), std::string::npos) << O.Why;
  EXPECT_NE(O.Why.find("65536"), std::string::npos) << O.Why;
  // Static shared memory stops at 48 KiB whatever the SM holds.
  O = occupancy(limits("sm_90"), 32, 48 * 1024 + 1, 128);
  EXPECT_EQ(O.BlocksPerSM, 0);
  EXPECT_NE(O.Why.find("shared memory"), std::string::npos) << O.Why;
  O = occupancy(limits("sm_90"), 32, 0, 1056);
  EXPECT_EQ(O.BlocksPerSM, 0);
  EXPECT_NE(O.Why.find("at most 1024 threads"), std::string::npos) << O.Why;
}

TEST(Occupancy, CurveStopsAtTheLaunchBound) {
  MultiprocessorLimits L = limits("sm_80");
  std::vector<Occupancy> Full = occupancyCurve(L, 13, 1024);
  ASSERT_EQ(Full.size(), 32u);
  EXPECT_EQ(Full.front().BlockSize, 32);
  EXPECT_EQ(Full.back().BlockSize, 1024);
  std::vector<Occupancy> Bounded = occupancyCurve(L, 13, 1024, 200);
  ASSERT_EQ(Bounded.size(), 7u); // 32 ... 192, and 200 itself
  EXPECT_EQ(Bounded.back().BlockSize, 200);
  // The best point is the smallest size at the highest occupancy: 64
  // threads reach all 64 warps (32 blocks of 2 warps).
  const Occupancy *Best = bestOccupancy(Full);
  ASSERT_TRUE(Best);
  EXPECT_EQ(Best->BlockSize, 64);
  EXPECT_DOUBLE_EQ(Best->fraction(), 1.0);
  EXPECT_EQ(bestOccupancy({}), nullptr);
}

#ifdef PRISM_HAVE_CUDA_OCCUPANCY_H
// NVIDIA's calculator, given the same SM as Prism's table, must agree with
// Prism's allocation rules everywhere: every arch, register count, shared
// size and block size sampled here.
TEST(Occupancy, AgreesWithTheCudaToolkitsCalculator) {
  int Compared = 0;
  for (const char *Arch :
       {"sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90"}) {
    MultiprocessorLimits L = limits(Arch);
    cudaOccDeviceProp P;
    P.computeMajor = L.Major;
    P.computeMinor = L.Minor;
    P.maxThreadsPerBlock = L.MaxThreadsPerBlock;
    P.maxThreadsPerMultiprocessor = L.MaxThreadsPerSM;
    P.regsPerBlock = L.RegsPerBlock;
    P.regsPerMultiprocessor = L.RegsPerSM;
    P.warpSize = L.WarpSize;
    P.sharedMemPerBlock = L.SharedPerBlock;
    P.sharedMemPerMultiprocessor = L.SharedPerSM;
    P.numSms = 1;
    P.sharedMemPerBlockOptin = L.SharedPerSM - L.SharedReservedPerBlock;
    P.reservedSharedMemPerBlock = L.SharedReservedPerBlock;
    cudaOccDeviceState State;
    for (int Regs : {1, 8, 13, 16, 24, 32, 33, 40, 48, 56, 64, 72, 80, 96, 128,
                     168, 200, 255})
      for (int Shared :
           {0, 4, 1000, 1024, 4096, 12288, 16384, 40000, 49152, 49153})
        for (int Block = 1; Block <= 1056; Block += (Block < 96 ? 1 : 31)) {
          cudaOccFuncAttributes A;
          A.maxThreadsPerBlock = L.MaxThreadsPerBlock;
          A.numRegs = Regs;
          A.sharedSizeBytes = Shared;
          A.numBlockBarriers = 1; // as converted from cudaFuncAttributes
          cudaOccResult Ref;
          ASSERT_EQ(cudaOccMaxActiveBlocksPerMultiprocessor(&Ref, &P, &A,
                                                            &State, Block, 0),
                    CUDA_OCC_SUCCESS);
          Occupancy O = occupancy(L, Regs, Shared, Block);
          SCOPED_TRACE(::testing::Message()
                       << Arch << " regs " << Regs << " shared " << Shared
                       << " block " << Block);
          ASSERT_EQ(O.BlocksPerSM, Ref.activeBlocksPerMultiprocessor);
          ASSERT_EQ(O.ByRegisters, Ref.blockLimitRegs);
          ASSERT_EQ(O.ByShared, Ref.blockLimitSharedMem);
          ASSERT_EQ(O.ByWarps, Ref.blockLimitWarps);
          ASSERT_EQ(O.ByBlocks, Ref.blockLimitBlocks);
          // The same bits for the same four limits (the reference may add
          // barriers and virtual resources, which Prism's kernels never
          // reach first).
          ASSERT_EQ(O.Limits, Ref.limitingFactors & 0xf);
          ASSERT_EQ(O.RegistersPerBlock, Ref.allocatedRegistersPerBlock);
          if (O.BlocksPerSM) {
            ASSERT_EQ(size_t(O.SharedPerBlock), Ref.allocatedSharedMemPerBlock);
          }
          ++Compared;
        }
  }
  EXPECT_GT(Compared, 10000);
}
#else
TEST(Occupancy, AgreesWithTheCudaToolkitsCalculator) {
  GTEST_SKIP() << "cuda_occupancy.h not found (no CUDA toolkit at build time)";
}
#endif

class OccupancyJobTest : public testing::GpuJobTest {};

TEST_F(OccupancyJobTest, ACompiledKernelsCurveFollowsItsResources) {
  if (!findPtxas())
    GTEST_SKIP() << "ptxas not found";
  loadExample("reduce.jl");
  const char *Sig =
      "block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})";
  testing::GpuJobOptions O;
  O.Arch = "sm_90";
  CompileResult R = compileFor("ptx", Sig, Stage::Asm, O);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  std::vector<Occupancy> Curve = reportOccupancy(*R.Report);
  ASSERT_EQ(Curve.size(), 32u);
  const ResourceUsage &U = R.Report->Resources;
  Occupancy At256 =
      occupancy(limits("sm_90"), *U.Registers, *U.SharedBytes, 256);
  EXPECT_EQ(Curve[7].BlockSize, 256);
  EXPECT_EQ(Curve[7].BlocksPerSM, At256.BlocksPerSM);
  EXPECT_DOUBLE_EQ(Curve[7].fraction(), 1.0);

  // A launch bound ends the curve: no larger block could launch.
  O.MaxThreads = 256;
  R = compileFor("ptx", Sig, Stage::Asm, O);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  EXPECT_EQ(R.Report->MaxThreads, 256u);
  Curve = reportOccupancy(*R.Report);
  ASSERT_FALSE(Curve.empty());
  EXPECT_EQ(Curve.back().BlockSize, 256);

  // --minthreads on ptx is `.reqntid`, an exact block size: the curve is
  // that one size, and any other cannot launch.
  O.MaxThreads = 0;
  O.MinThreads = 128;
  R = compileFor("ptx", Sig, Stage::Asm, O);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  Curve = reportOccupancy(*R.Report);
  ASSERT_EQ(Curve.size(), 1u);
  EXPECT_EQ(Curve[0].BlockSize, 128);
  std::optional<Occupancy> At = reportOccupancyAt(*R.Report, 256);
  ASSERT_TRUE(At);
  EXPECT_EQ(At->BlocksPerSM, 0);
  EXPECT_NE(describeOccupancy(*At).find("exactly 128 threads"),
            std::string::npos)
      << describeOccupancy(*At);
  O.MinThreads = 0;

  // The host and bpf have no occupancy; gcn has its own (below).
  R = compileFor("native", Sig);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  EXPECT_TRUE(reportOccupancy(*R.Report).empty());
}

/// A kernel's resources and the waves per SIMD llc-16 printed for it
/// (`; Occupancy:`).
struct AmdPoint {
  const char *Arch;
  int VGPRs, SGPRs, LDS, Threads;
  double Waves;
};

void expectBackendsWaves(llvm::ArrayRef<AmdPoint> Points) {
  for (const AmdPoint &P : Points) {
    Occupancy O = occupancy(cu(P.Arch), P.VGPRs, P.LDS, P.Threads, P.SGPRs);
    EXPECT_DOUBLE_EQ(O.warpsPerPartition(), P.Waves)
        << P.Arch << " " << P.VGPRs << " VGPRs, " << P.SGPRs << " SGPRs, "
        << P.LDS << " bytes of LDS, " << P.Threads
        << " threads: " << describeOccupancy(O);
  }
}

// The AMD model, on figures llc-16 printed for kernels that clobber a
// chosen register (`call void asm sideeffect "", "~{v64}"()` and the
// like) with `amdgpu-flat-work-group-size` 1,256: a workgroup of 4 waves,
// one per SIMD, where workgroup granularity cannot differ from the
// backend's wave-by-wave count.
TEST(Occupancy, AmdRegisterLimitsMatchTheBackend) {
  const AmdPoint Points[] = {
      {"gfx900", 25, 1, 4, 256, 9},    {"gfx900", 32, 1, 4, 256, 8},
      {"gfx900", 33, 1, 4, 256, 7},    {"gfx900", 65, 1, 4, 256, 3},
      {"gfx900", 85, 1, 4, 256, 2},    {"gfx900", 128, 1, 4, 256, 2},
      {"gfx900", 256, 1, 4, 256, 1},   {"gfx900", 2, 80, 4, 256, 10},
      {"gfx900", 2, 81, 4, 256, 9},    {"gfx900", 2, 88, 4, 256, 9},
      {"gfx900", 2, 89, 4, 256, 8},    {"gfx900", 2, 100, 4, 256, 8},
      {"gfx900", 2, 101, 4, 256, 7},   {"gfx908", 33, 1, 4, 256, 7},
      {"gfx90a", 34, 1, 4, 256, 8},    {"gfx90a", 65, 1, 4, 256, 7},
      {"gfx90a", 85, 1, 4, 256, 5},    {"gfx90a", 128, 1, 4, 256, 4},
      {"gfx90a", 256, 1, 4, 256, 2},   {"gfx90a", 2, 100, 4, 256, 8},
      {"gfx90a", 2, 101, 4, 256, 7},   {"gfx940", 2, 106, 4, 256, 7},
      {"gfx90a", 2, 1, 16384, 256, 4}, {"gfx90a", 2, 1, 33792, 256, 1},
  };
  expectBackendsWaves(Points);
  EXPECT_EQ(occupancy(cu("gfx90a"), 65, 0, 256).Limits,
            unsigned(LimitRegisters));
  EXPECT_EQ(occupancy(cu("gfx900"), 2, 0, 256, 90).Limits,
            unsigned(LimitScalarRegisters));
  // SGPRs within the SIMD's slots are no limit.
  EXPECT_EQ(occupancy(cu("gfx90a"), 2, 0, 256, 90).Limits,
            unsigned(LimitWarps));
}

// RDNA, compiled for wave32, on a WGP: llc-16's figures for the same
// kind of kernels, with a workgroup of 128 threads (4 waves, one per
// SIMD) for the registers; LDS is 128 KiB per WGP.
TEST(Occupancy, RdnaRegisterAndLdsLimitsMatchTheBackend) {
  const AmdPoint Points[] = {
      {"gfx1010", 49, 106, 4, 128, 18},   {"gfx1010", 65, 106, 4, 128, 14},
      {"gfx1010", 96, 106, 4, 128, 10},   {"gfx1010", 256, 106, 4, 128, 4},
      {"gfx1012", 65, 106, 4, 128, 14},   {"gfx1030", 49, 106, 4, 128, 16},
      {"gfx1030", 65, 106, 4, 128, 12},   {"gfx1030", 96, 106, 4, 128, 10},
      {"gfx1036", 121, 106, 4, 128, 8},   {"gfx1100", 96, 106, 4, 128, 16},
      {"gfx1100", 128, 106, 4, 128, 10},  {"gfx1100", 256, 106, 4, 128, 5},
      {"gfx1101", 121, 106, 4, 128, 10},  {"gfx1102", 65, 106, 4, 128, 12},
      {"gfx1030", 2, 106, 33792, 256, 6}, {"gfx1030", 2, 106, 16384, 64, 4},
      {"gfx1030", 2, 106, 8192, 32, 4},   {"gfx1010", 2, 106, 2048, 32, 16},
  };
  expectBackendsWaves(Points);
  // No SGPR limit from gfx10 on (106 SGPRs above).
  EXPECT_EQ(occupancy(cu("gfx1030"), 2, 0, 128, 106).Limits,
            unsigned(LimitWarps));
}

TEST(Occupancy, AmdKnowsGfx9ToGfx11AndNothingElse) {
  for (const char *A : {"gfx900", "gfx906", "gfx908", "gfx90a", "gfx942",
                        "gfx1010", "gfx1030", "gfx1100", "gfx1103"})
    EXPECT_TRUE(cuLimits(A)) << A;
  for (const char *A : {"gfx803", "gfx1150", "sm_90", "gfx90", ""})
    EXPECT_FALSE(cuLimits(A)) << A;
  EXPECT_EQ(cu("gfx1030").WarpSize, 32);
  EXPECT_EQ(cu("gfx1030").maxWarpsPerSM(), 64);
  EXPECT_EQ(describeMultiprocessor("gfx1100", cu("gfx1100")),
            "gfx1100 WGP: 4 SIMDs of 16 wave32s, 1536 VGPRs per SIMD lane, 32 "
            "barriers, 128 KiB LDS");
  MultiprocessorLimits L = cu("gfx90a");
  EXPECT_EQ(L.maxWarpsPerSM(), 32);
  EXPECT_EQ(cu("gfx908").maxWarpsPerSM(), 40);
  EXPECT_EQ(describeMultiprocessor("gfx90a", L),
            "gfx90a CU: 4 SIMDs of 8 wave64s, 512 VGPRs per SIMD lane, 16 "
            "barriers, 64 KiB LDS");
}

// Where the hardware and the backend part: a workgroup is admitted whole.
// 65 VGPRs leave 7 waves per SIMD, 28 per CU; a workgroup of 1024 threads
// is 16 waves, so only one fits (4 per SIMD), though the backend says 7.
TEST(Occupancy, AmdAdmitsAWorkgroupWhole) {
  MultiprocessorLimits L = cu("gfx90a");
  Occupancy O = occupancy(L, 65, 0, 1024);
  EXPECT_EQ(O.BlocksPerSM, 1);
  EXPECT_EQ(O.WarpsPerSM, 16);
  EXPECT_DOUBLE_EQ(O.warpsPerPartition(), 4);
  EXPECT_EQ(O.Limits, unsigned(LimitRegisters));
  EXPECT_EQ(describeOccupancy(O), "1 workgroup, 16 of 32 waves (50%, 4 per "
                                  "SIMD), limited by VGPRs");
  // One-wave workgroups need no barrier: 32 of them fill the CU.
  O = occupancy(L, 8, 0, 64);
  EXPECT_EQ(O.BlocksPerSM, 32);
  EXPECT_EQ(O.Limits, unsigned(LimitWarps));
  // Several waves take one of the 16 barriers: 16 workgroups of 2 waves.
  O = occupancy(L, 8, 0, 128);
  EXPECT_EQ(O.BlocksPerSM, 16);
  EXPECT_EQ(O.Limits, unsigned(LimitWarps | LimitBlocks));
  EXPECT_EQ(occupancyLimitNames(O.Limits, true), "waves, barriers");
  // LDS is allocated in 512-byte blocks: 16 KiB + 1 byte takes 16.5 KiB.
  O = occupancy(L, 8, 16 * 1024 + 1, 256);
  EXPECT_EQ(O.SharedPerBlock, 16 * 1024 + 512);
  EXPECT_EQ(O.BlocksPerSM, 3);
  EXPECT_EQ(O.Limits, unsigned(LimitShared));
  // 1024 threads of 256 VGPRs need 16 waves of a quarter of a SIMD each.
  O = occupancy(L, 256, 0, 1024);
  EXPECT_EQ(O.BlocksPerSM, 0);
  EXPECT_NE(O.Why.find("VGPRs"), std::string::npos) << O.Why;
  EXPECT_NE(O.Why.find("workgroup"), std::string::npos) << O.Why;
  O = occupancy(L, 8, 65 * 1024, 64);
  EXPECT_EQ(O.BlocksPerSM, 0);
  EXPECT_NE(O.Why.find("LDS"), std::string::npos) << O.Why;
}

// The report names the difference: the backend's 7 (65 VGPRs) against the
// one 16-wave workgroup that fits.
TEST(Occupancy, AmdReportExplainsTheBackendsFigure) {
  JobReport R;
  R.Target = "gcn";
  R.Arch = "gfx90a";
  R.Kernel = true;
  R.Resources.VGPRs = 65;
  R.Resources.SGPRs = 20;
  R.Resources.WavesPerSIMD = 7;
  std::vector<Occupancy> Curve = reportOccupancy(R);
  ASSERT_EQ(Curve.size(), 16u);
  EXPECT_EQ(backendOccupancyNote(R, Curve),
            "the backend's waves/SIMD (7) counts waves one by one; a "
            "workgroup of 1024 threads is admitted whole: 4 per SIMD");
  // Agreeing figures need no note; nor does NVIDIA.
  R.Resources.VGPRs = 64;
  R.Resources.WavesPerSIMD = 8;
  EXPECT_EQ(backendOccupancyNote(R, reportOccupancy(R)), "");
  // AGPRs share gfx90a's file: 64 VGPRs and 8 AGPRs are 72 (7 waves).
  R.Resources.AGPRs = 8;
  EXPECT_DOUBLE_EQ(reportOccupancyAt(R, 256)->warpsPerPartition(), 7);
}

// Compiled kernels: at a launch bound of 256 threads (4 wave64s, one per
// SIMD; 8 wave32s, two per SIMD) the model's waves per SIMD must be the
// backend's own figure.
TEST_F(OccupancyJobTest, AmdCurveAgreesWithTheBackendAtItsLaunchBound) {
  loadExample("occupancy.jl");
  loadExample("reduce.jl");
  loadExample("saxpy.jl");
  const char *Sigs[] = {
      "chunk_sums!(DeviceArray{Float32,1}, DeviceArray{Float32,1})",
      "block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})",
      "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})"};
  int LdsLimited = 0;
  for (const char *Arch : {"gfx90a", "gfx900", "gfx1030"})
    for (const char *Sig : Sigs) {
      testing::GpuJobOptions O;
      O.Arch = Arch;
      O.MaxThreads = 256;
      CompileResult R = compileFor("gcn", Sig, Stage::Asm, O);
      ASSERT_TRUE(R.ok()) << diags(*R.Report);
      const ResourceUsage &U = R.Report->Resources;
      ASSERT_TRUE(U.WavesPerSIMD && U.VGPRs && U.SGPRs) << Sig;
      std::vector<Occupancy> Curve = reportOccupancy(*R.Report);
      // 64 ... 256 threads (32 ... 256 in wave32)
      ASSERT_EQ(Curve.size(), std::string(Arch) == "gfx1030" ? 8u : 4u) << Sig;
      std::optional<Occupancy> At = reportOccupancyAt(*R.Report, 256);
      ASSERT_TRUE(At);
      EXPECT_DOUBLE_EQ(At->warpsPerPartition(), double(*U.WavesPerSIMD))
          << Arch << " " << Sig << ": " << describeOccupancy(*At);
      LdsLimited += (At->Limits & LimitShared) != 0;
      // Beyond the bound it cannot launch.
      EXPECT_EQ(reportOccupancyAt(*R.Report, 512)->BlocksPerSM, 0);
    }
  // chunk_sums!'s 33 KiB tile is the limit on all three.
  EXPECT_EQ(LdsLimited, 3);
}

} // namespace
} // namespace prism
