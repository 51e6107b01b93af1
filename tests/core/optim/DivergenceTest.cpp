// Which branches split a warp, decided per lane of optimised PTX-bound IR:
// a parity test splits every warp, a threshold at a multiple of 32 none, one
// elsewhere a single warp, a run-time bound only where it falls (two of
// them joined by && in at most two warps), loaded data
// is named as such, and bounds checks are left out. Loop counters are
// followed through their iterations once the block is known: the tree
// reduction splits warp 0 on its last five rounds, the interleaved one every
// warp from the first. Also: the block shape lays a warp out in 2-D for the
// access analysis (matmul's 16×16 tiles: 8-way conflicts, not 16).
#include "optim/Divergence.h"

#include "cache/Remarks.h"

#include "core/targets/GpuTestUtil.h"
#include "targets/Target.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace prism;
using namespace prism::testing;

namespace {

constexpr const char *Source =
    R"(function branches!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    t = threadIdx().x
    v = 0.0f0
    if t % 2 == 0
        @inbounds v = sin(x[t])
    else
        @inbounds v = cos(x[t])
    end
    if t <= 64
        @inbounds v += exp(x[t + 1])
    end
    if t <= 40
        @inbounds v += exp(x[t + 2])
    end
    @inbounds if x[t] > 0.0f0
        v += exp(x[t + 3])
    end
    if t <= length(y)
        y[t] = v
    end
    if t > 3 && t <= length(x)
        @inbounds y[t] += 1.0f0
    end
    return
end

function interleaved!(out::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    tmp = CuStaticSharedArray(Float32, 256)
    t = threadIdx().x
    @inbounds tmp[t] = x[t]
    sync_threads()
    s = 1
    while s < blockDim().x
        if (t - 1) % (2 * s) == 0
            @inbounds tmp[t] += tmp[t + s]
        end
        sync_threads()
        s *= 2
    end
    return
end
)";
constexpr const char *BranchesSig =
    "branches!(DeviceArray{Float32,1}, DeviceArray{Float32,1})";
constexpr const char *InterleavedSig =
    "interleaved!(DeviceArray{Float32,1}, DeviceArray{Float32,1})";

class DivergenceTest : public GpuJobTest {
protected:
  /// The ptx target's own model, with a launch's block.
  static WarpModel ptxWarp(std::array<unsigned, 3> Block = {0, 0, 0}) {
    WarpModel M = *llvm::cantFail(lookupTarget("ptx"))->warpModel();
    M.Block = Block;
    return M;
  }
  static unsigned lineOf(const llvm::Instruction *I) {
    const llvm::DILocation *L = I->getDebugLoc().get();
    while (L && L->getInlinedAt())
      L = L->getInlinedAt();
    return L ? L->getLine() : 0;
  }
  /// The branches of the job's kernel, by source line.
  std::map<unsigned, BranchDivergence> branches(const std::string &Sig,
                                                std::array<unsigned, 3> Block) {
    R = compileFor("ptx", Sig, Stage::LLVMOpt);
    EXPECT_TRUE(R.ok()) << diags(*R.Report);
    std::map<unsigned, BranchDivergence> Out;
    if (!R.Module)
      return Out;
    for (llvm::Function &F : *R.Module)
      if (!F.isDeclaration() && F.getName().startswith("julia_"))
        for (BranchDivergence &B : analyseBranches(F, ptxWarp(Block)))
          Out.emplace(lineOf(B.Inst), std::move(B));
    return Out;
  }
  CompileResult R;
};

TEST_F(DivergenceTest, DecidesEachBranchPerLaneAndWarp) {
  loadText("div.jl", Source);
  using V = BranchDivergence::Verdict;
  for (std::array<unsigned, 3> Block :
       {std::array<unsigned, 3>{0, 0, 0}, std::array<unsigned, 3>{128, 1, 1}}) {
    SCOPED_TRACE(Block[0]);
    auto B = branches(BranchesSig, Block);
    ASSERT_TRUE(B.count(4));
    EXPECT_EQ(B[4].Judged, V::Divergent) << B[4].Message;
    EXPECT_EQ(B[4].MaxDivergentWarps, B[4].Warps);
    EXPECT_EQ(B[4].Warps, Block[0] ? 4u : 8u);
    // An if/else runs both paths; an `if` alone (the interleaved sum's)
    // only its body, with the threads that skip it idle.
    EXPECT_NE(B[4].Message.find("running both paths one after the other"),
              std::string::npos)
        << B[4].Message;
    ASSERT_TRUE(B.count(9));
    EXPECT_EQ(B[9].Judged, V::WarpUniform) << B[9].Message;
    ASSERT_TRUE(B.count(12));
    EXPECT_EQ(B[12].Judged, V::PartlyDivergent) << B[12].Message;
    EXPECT_EQ(B[12].MaxDivergentWarps, 1u);
    EXPECT_NE(B[12].Message.find("warp 1 (threads 33–64)"), std::string::npos)
        << B[12].Message;
    ASSERT_TRUE(B.count(15));
    EXPECT_EQ(B[15].Judged, V::DataDependent) << B[15].Message;
    ASSERT_TRUE(B.count(18));
    EXPECT_EQ(B[18].Judged, V::Boundary) << B[18].Message;
    // y[t]'s bounds check throws: not a branch a warp runs both sides of.
    EXPECT_EQ(B.count(19), 0u);
    // Two thresholds joined by &&: at most two warps.
    ASSERT_TRUE(B.count(21));
    EXPECT_EQ(B[21].Judged, V::Boundary) << B[21].Message;
    EXPECT_NE(B[21].Message.find("at most 2"), std::string::npos)
        << B[21].Message;
  }
}

TEST_F(DivergenceTest, FollowsALoopCounterOnceTheBlockIsKnown) {
  using V = BranchDivergence::Verdict;
  loadText("div.jl", Source);
  // Interleaved addressing: every warp, on the first 5 of 8 rounds.
  auto I = branches(InterleavedSig, {256, 1, 1});
  ASSERT_TRUE(I.count(34));
  EXPECT_EQ(I[34].Judged, V::Divergent) << I[34].Message;
  EXPECT_EQ(I[34].Iterations, 8u);
  EXPECT_NE(I[34].Message.find("iterations 1–5 of the loop's 8 (and some of "
                               "them on iterations 6–8): the threads that "
                               "skip the body idle while the others run it"),
            std::string::npos)
      << I[34].Message;
  // Without the block the loop's end is unknown: its first round is enough.
  I = branches(InterleavedSig, {0, 0, 0});
  EXPECT_EQ(I[34].Judged, V::Divergent) << I[34].Message;
  EXPECT_EQ(I[34].Iterations, 1u);

  // The example's sequential tree reduction: warp 0 only, once s < 32.
  loadExample("reduce.jl");
  const char *Sum = "block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})";
  auto S = branches(Sum, {256, 1, 1});
  ASSERT_TRUE(S.count(15));
  EXPECT_EQ(S[15].Judged, V::PartlyDivergent) << S[15].Message;
  EXPECT_EQ(S[15].Iterations, 8u);
  EXPECT_NE(S[15].Message.find("iterations 4–8 of the loop's 8 (the bound is "
                               "then 16, 8, 4, 2, 1)"),
            std::string::npos)
      << S[15].Message;
  // Without it, `s` is a run-time bound.
  S = branches(Sum, {0, 0, 0});
  EXPECT_EQ(S[15].Judged, V::Boundary) << S[15].Message;
}

TEST_F(DivergenceTest, ALoopWhoseTripCountIsTheThreadsSplitsEveryWarp) {
  // Each thread leaves `for k in 1:t` on its own iteration: a warp runs
  // until its last thread leaves, so every warp takes both sides of the
  // exit (judged from thread 1 alone, this was "warp 0 only, on iteration
  // 1 of the loop's 1"). `1:(t % 4)` ends on iteration 1, 2 or 3, and the
  // threads with t % 4 == 0 never enter; `1:((t - 1) ÷ 32)` is the same in
  // a whole warp.
  loadText(
      "trip.jl",
      R"(function tri!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    t = threadIdx().x
    s = 0.0f0
    for k in 1:t
        @inbounds s += x[k]
    end
    @inbounds y[t] = s
    return nothing
end
function quad!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    t = threadIdx().x
    s = 0.0f0
    for k in 1:(t % 4)
        @inbounds s += x[k]
    end
    @inbounds y[t] = s
    return nothing
end
function per_warp!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    t = threadIdx().x
    s = 0.0f0
    for k in 1:((t - 1) ÷ 32)
        @inbounds s += x[k]
    end
    @inbounds y[t] = s
    return nothing
end
)");
  using V = BranchDivergence::Verdict;
  const char *Args = "(DeviceArray{Float32,1}, DeviceArray{Float32,1})";
  auto T = branches(std::string("tri!") + Args, {256, 1, 1});
  ASSERT_TRUE(T.count(4));
  EXPECT_EQ(T[4].Judged, V::Divergent) << T[4].Message;
  EXPECT_NE(
      T[4].Message.find("each of the block's 8 warps takes both sides on "
                        "some iteration of the loop, as its threads leave"),
      std::string::npos)
      << T[4].Message;
  // The guard and the exit are on one line: look at every branch.
  branches(std::string("quad!") + Args, {256, 1, 1});
  bool SawExit = false;
  for (llvm::Function &F : *R.Module)
    for (BranchDivergence &B : F.isDeclaration()
                                   ? std::vector<BranchDivergence>()
                                   : analyseBranches(F, ptxWarp({256, 1, 1})))
      if (B.Iterations) {
        SawExit = true;
        EXPECT_EQ(B.Judged, V::Divergent) << B.Message;
        EXPECT_EQ(B.Iterations, 3u) << B.Message;
      }
  EXPECT_TRUE(SawExit);
  auto W = branches(std::string("per_warp!") + Args, {256, 1, 1});
  for (auto &[Line, B] : W)
    EXPECT_EQ(B.Judged, V::WarpUniform) << B.Message;
}

TEST_F(DivergenceTest, ACompileReportsThemAsRemarks) {
  loadText("div.jl", Source);
  GpuJobOptions O;
  O.Block = {128, 1, 1};
  CompileResult C = compileFor("ptx", BranchesSig, Stage::Asm, O);
  ASSERT_TRUE(C.ok()) << diags(*C.Report);
  BranchCounts N = countBranchRemarks(C.Report->Remarks);
  EXPECT_EQ(N.Divergent, 1u);
  EXPECT_EQ(N.PartlyDivergent, 1u);
  EXPECT_EQ(N.WarpUniform, 1u);
  EXPECT_GE(N.Boundary, 1u);
  EXPECT_GE(N.DataDependent, 1u);
  for (const OptRemark &M : C.Report->Remarks)
    if (M.Name == "DivergentBranch") {
      EXPECT_EQ(M.Kind, RemarkKind::Missed);
      ASSERT_FALSE(M.Origin.Frames.empty());
      EXPECT_EQ(M.Origin.Frames.back().Line, 4u);
    }
  // The host has no warps.
  C = compileFor("native", BranchesSig);
  ASSERT_TRUE(C.ok()) << diags(*C.Report);
  EXPECT_EQ(countBranchRemarks(C.Report->Remarks).total(), 0u);
}

// A barrier that only some threads reach (under `if t <= 16`, or in a loop
// that runs t times) is a remark of its own on ptx and gcn; a reduction's
// barriers, after a branch on the thread index or behind bounds checks
// that throw, are not.
TEST_F(DivergenceTest, BarriersUnderABranchOnTheThreadIndexAreRemarks) {
  loadText("bar.jl", R"(function under_if!(a::DeviceArray{Float32,1})
    t = threadIdx().x
    if t <= 16
        sync_threads()
    end
    a[t] = 1.0f0
    return
end
function in_loop!(a::DeviceArray{Float32,1})
    t = threadIdx().x
    for k in 1:t
        sync_threads()
    end
    a[t] = 1.0f0
    return
end
)" + std::string(Source));
  auto Barriers = [&](const char *Target, const std::string &Sig) {
    CompileResult C = compileFor(Target, Sig, Stage::LLVMOpt);
    EXPECT_TRUE(C.ok()) << diags(*C.Report);
    std::vector<unsigned> Lines;
    for (const OptRemark &M : C.Report->Remarks)
      if (M.Name == "BarrierUnderBranch") {
        EXPECT_EQ(M.Kind, RemarkKind::Missed);
        if (!M.Origin.Frames.empty())
          Lines.push_back(M.Origin.Frames.back().Line);
      }
    return Lines;
  };
  for (const char *T : {"ptx", "gcn"}) {
    SCOPED_TRACE(T);
    EXPECT_EQ(Barriers(T, "under_if!(DeviceArray{Float32,1})"),
              std::vector<unsigned>{4});
    EXPECT_EQ(Barriers(T, "in_loop!(DeviceArray{Float32,1})"),
              std::vector<unsigned>{12});
    EXPECT_TRUE(Barriers(T, InterleavedSig).empty());
  }
}

// AMD GPUs run wavefronts of 64 before gfx10 and of 32 from gfx10 on, as
// the backend's own asm says: the same tree reduction splits wavefront 0 of
// gfx90a from s = 32 on, one round earlier than a warp of 32. The loop's
// bound, `blockDim().x` (a load from the dispatch packet on gcn), is
// followed just as on ptx. gcn gets no memory-access remarks: its caches
// are not what the sector model describes.
TEST_F(DivergenceTest, GcnWavefrontsAreSixtyFourThreadsBeforeGfx10) {
  loadExample("reduce.jl");
  const char *Sum =
      "block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})";
  struct Case {
    const char *Arch;
    unsigned Wave;
    const char *Rounds;
  } Cases[] = {{"gfx90a", 64,
                "iterations 3–8 of the loop's 8 (the bound is "
                "then 32, 16, 8, 4, 2, 1)"},
               {"gfx1030", 32,
                "iterations 4–8 of the loop's 8 (the bound is "
                "then 16, 8, 4, 2, 1)"}};
  for (const Case &K : Cases) {
    SCOPED_TRACE(K.Arch);
    std::optional<WarpModel> M =
        llvm::cantFail(lookupTarget("gcn"))->warpModel(K.Arch);
    ASSERT_TRUE(M.has_value());
    EXPECT_EQ(M->WarpSize, K.Wave);
    EXPECT_EQ(M->warps(2), "wavefronts");

    GpuJobOptions O;
    O.Arch = K.Arch;
    O.Block = {256, 1, 1};
    CompileResult C = compileFor("gcn", Sum, Stage::Asm, O);
    ASSERT_TRUE(C.ok()) << diags(*C.Report);
    // What the backend compiled for.
    EXPECT_EQ(contains(text(C, Stage::Asm), ".amdhsa_wavefront_size32 1"),
              K.Wave == 32);
    bool Seen = false;
    size_t Accesses = 0;
    for (const OptRemark &R : C.Report->Remarks) {
      Accesses += R.Pass == "prism-access"; // gfx9's memory only
      if (R.Pass != "prism-divergence" || R.Origin.Frames.empty() ||
          R.Origin.Frames.back().Line != 15)
        continue;
      Seen = true;
      EXPECT_EQ(R.Name, "PartlyDivergentBranch");
      EXPECT_NE(
          R.Message.find(
              llvm::formatv(
                  "of the block's {0} wavefronts, wavefront 0 (threads 1–{1})",
                  256 / K.Wave, K.Wave)
                  .str()),
          std::string::npos)
          << R.Message;
      EXPECT_NE(R.Message.find(K.Rounds), std::string::npos) << R.Message;
    }
    EXPECT_TRUE(Seen);
    EXPECT_EQ(Accesses > 0, K.Wave == 64);
  }
}

// With the block shape, a warp of matmul's 16×16 tiles is two rows of 16:
// its transposed tile stores hit 8 words per bank, not 16.
TEST_F(DivergenceTest, TheBlockShapeLaysAWarpOutInTwoDimensions) {
  loadExample("matmul.jl");
  const char *Sig = "matmul!(DeviceArray{Float32,2}, DeviceArray{Float32,2}, "
                    "DeviceArray{Float32,2})";
  auto Ways = [&](std::array<unsigned, 3> Block) {
    GpuJobOptions O;
    O.Block = Block;
    CompileResult C = compileFor("ptx", Sig, Stage::LLVMOpt, O);
    EXPECT_TRUE(C.ok()) << diags(*C.Report);
    std::set<std::string> Found;
    for (const OptRemark &M : C.Report->Remarks)
      if (M.Name == "BankConflict")
        Found.insert(M.Message.substr(0, M.Message.find(' ')));
    return Found;
  };
  EXPECT_EQ(Ways({0, 0, 0}), std::set<std::string>{"16-way"});
  EXPECT_EQ(Ways({16, 16, 1}), std::set<std::string>{"8-way"});
}

} // namespace

namespace {
// Judging costs a few microseconds a lane: a function whose branches would
// take more than the budget leaves the rest unjudged, and says so.
TEST_F(DivergenceTest, AHugeAnalysisStopsAtItsBudget) {
  std::string Src = "function many!(a::DeviceArray{Float32,1})\n"
                    "    t = threadIdx().x\n    s = 1\n"
                    "    while s < 100000000\n";
  for (int K = 0; K < 8; ++K)
    Src += "        if (t - 1) ÷ 32 == s % " + std::to_string(K + 5) +
           "\n            @inbounds a[t] += 1.0f0\n        end\n";
  Src += "        s = s * 3 ÷ 2 + 1\n    end\n    return\nend\n";
  loadText("many.jl", Src);
  auto B = branches("many!(DeviceArray{Float32,1})", {1024, 1, 1});
  size_t Uniform = 0, Unjudged = 0;
  for (const auto &[Line, D] : B) {
    if (D.Judged == BranchDivergence::Verdict::WarpUniform)
      ++Uniform;
    else if (D.Message.find("reached its limit") != std::string::npos)
      ++Unjudged;
  }
  EXPECT_GE(Uniform, 4u);
  EXPECT_GE(Unjudged, 1u);
  EXPECT_EQ(Uniform + Unjudged, 8u);
}
} // namespace

// A global index's parity: no lane decides `i % 2 == 0` while the block's
// offset is unknown, but every warp of the first block splits on it.
TEST_F(DivergenceTest, AGlobalIndexIsDecidedInTheFirstBlock) {
  loadText("gidx.jl",
           R"(function gidx!(y::DeviceArray{Float32,1})
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    if i % 2 == 0
        @inbounds y[i] = 1.0f0
    end
    return nothing
end
)");
  auto B = branches("gidx!(DeviceArray{Float32,1})", {0, 0, 0});
  ASSERT_TRUE(B.count(3));
  EXPECT_EQ(B[3].Judged, BranchDivergence::Verdict::Divergent) << B[3].Message;
  EXPECT_NE(B[3].Message.find("of the first block"), std::string::npos)
      << B[3].Message;
}

// An if/elseif chain on `i % 4` becomes one LLVM switch: judged lane by
// lane like a branch (it was not judged at all). On `(i - 1) ÷ 32` every
// warp takes one way.
TEST_F(DivergenceTest, ASwitchOnTheThreadIndexIsJudgedPerWarp) {
  using V = BranchDivergence::Verdict;
  loadText("sw.jl",
           R"(function k2!(out::DeviceArray{Int32,1}, a::DeviceArray{Int32,1})
    i = threadIdx().x
    m = i % 4
    if m == 0
        @inbounds out[i] = a[i] ÷ Int32(3)
    elseif m == 1
        @inbounds out[i] = a[i] ÷ Int32(7)
    elseif m == 2
        @inbounds out[i] = a[i] * a[i] ÷ Int32(11)
    end
    return
end
function k5!(out::DeviceArray{Int32,1}, a::DeviceArray{Int32,1})
    i = threadIdx().x
    m = (i - 1) ÷ 32
    if m == 0
        @inbounds out[i] = a[i] ÷ Int32(3)
    elseif m == 1
        @inbounds out[i] = a[i] ÷ Int32(7)
    elseif m == 2
        @inbounds out[i] = a[i] * a[i] ÷ Int32(11)
    end
    return
end
)");
  auto Split =
      branches("k2!(DeviceArray{Int32,1}, DeviceArray{Int32,1})", {128, 1, 1});
  ASSERT_TRUE(Split.count(4));
  EXPECT_TRUE(llvm::isa<llvm::SwitchInst>(Split[4].Inst));
  EXPECT_EQ(Split[4].Judged, V::Divergent) << Split[4].Message;
  EXPECT_EQ(Split[4].MaxDivergentWarps, 4u);
  EXPECT_NE(Split[4].Message.find("takes up to 4 of its 4 ways"),
            std::string::npos)
      << Split[4].Message;
  auto Agree =
      branches("k5!(DeviceArray{Int32,1}, DeviceArray{Int32,1})", {128, 1, 1});
  ASSERT_TRUE(Agree.count(16));
  EXPECT_EQ(Agree[16].Judged, V::WarpUniform) << Agree[16].Message;
}
