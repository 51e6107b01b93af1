// How a warp's threads access memory, judged from optimised PTX-bound IR:
// coalesced and strided global accesses, a column-major row walk, bank
// conflicts and their padding fix, and what is left alone (a gather, an
// address the thread index does not reach), both as the analysis' figures
// and as the `prism-access` remarks of a compile.
#include "optim/AccessPatterns.h"

#include "core/targets/GpuTestUtil.h"
#include "targets/Target.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace prism;
using namespace prism::testing;

namespace {

constexpr const char *Source =
    R"(function acc!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1}, idx::DeviceArray{Int32,1}, A::DeviceArray{Float32,2})
    t = threadIdx().x
    @inbounds v = x[t]
    @inbounds v += x[2 * t]
    @inbounds v += x[idx[t]]
    @inbounds v += A[1, t]
    @inbounds v += x[1]
    s = CuStaticSharedArray(Float32, 2048)
    @inbounds s[t * 32] = v
    @inbounds s[t * 33 + 1] = v
    sync_threads()
    @inbounds y[t] = s[t]
    return
end
)";
constexpr const char *Sig =
    "acc!(DeviceArray{Float32,1}, DeviceArray{Float32,1}, "
    "DeviceArray{Int32,1}, DeviceArray{Float32,2})";

class AccessPatternsTest : public GpuJobTest {
protected:
  /// The ptx target's own model.
  static WarpModel ptxWarp() {
    return *llvm::cantFail(lookupTarget("ptx"))->warpModel();
  }
  /// The compiled module's function whose name contains \p Part.
  static llvm::Function *kernelNamed(const CompileResult &R,
                                     llvm::StringRef Part) {
    if (R.Module)
      for (llvm::Function &Fn : *R.Module)
        if (!Fn.isDeclaration() && Fn.getName().contains(Part))
          return &Fn;
    return nullptr;
  }
  /// The kernel's line an access came from (its outermost inlined frame).
  static unsigned lineOf(const MemoryAccess &A) {
    const llvm::DILocation *L = A.Inst->getDebugLoc().get();
    while (L && L->getInlinedAt())
      L = L->getInlinedAt();
    return L ? L->getLine() : 0;
  }
};

TEST_F(AccessPatternsTest, JudgesEachAccessOfAWarp) {
  loadText("acc.jl", Source);
  CompileResult R = compileFor("ptx", Sig, Stage::LLVMOpt);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  ASSERT_TRUE(R.Module);
  llvm::Function *F = kernelNamed(R, "acc");
  ASSERT_TRUE(F);
  std::multimap<unsigned, MemoryAccess> ByLine;
  for (MemoryAccess &A : analyseMemoryAccesses(*F, ptxWarp()))
    ByLine.emplace(lineOf(A), std::move(A));
  auto One = [&](unsigned Line, bool Store) -> const MemoryAccess * {
    for (auto [It, End] = ByLine.equal_range(Line); It != End; ++It)
      if (It->second.Store == Store)
        return &It->second;
    return nullptr;
  };
  using V = MemoryAccess::Verdict;
  // x[t]: 32 floats in 4 sectors.
  const MemoryAccess *A = One(3, false);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Judged, V::Good);
  EXPECT_EQ(A->Where, MemoryAccess::Space::Global);
  EXPECT_EQ(A->StrideBytes, 4);
  EXPECT_EQ(A->Sectors, 4u);
  // x[2t]: every other float, twice the sectors.
  A = One(4, false);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Judged, V::Poor);
  EXPECT_EQ(A->StrideBytes, 8);
  EXPECT_EQ(A->Sectors, 8u);
  EXPECT_EQ(A->IdealSectors, 4u);
  // x[idx[t]]: idx[t] is coalesced; where x is read depends on loaded data.
  EXPECT_EQ(ByLine.count(5), 1u);
  EXPECT_EQ(One(5, false)->ElementBytes, 4u);
  // A[1, t] walks a row of a column-major array: a run-time stride.
  A = One(6, false);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Judged, V::Poor);
  EXPECT_FALSE(A->StrideBytes);
  EXPECT_NE(A->Message.find("4 × size(A, 1) bytes apart"), std::string::npos)
      << A->Message;
  // x[1] is the same for every thread: not an access pattern.
  EXPECT_EQ(ByLine.count(7), 0u);
  // s[32t]: every lane in bank 0; s[33t + 1]: padded, one lane per bank.
  A = One(9, true);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Where, MemoryAccess::Space::Shared);
  EXPECT_EQ(A->Judged, V::Poor);
  EXPECT_EQ(A->ConflictWays, 32u);
  A = One(10, true);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Judged, V::Good);
  EXPECT_EQ(A->ConflictWays, 1u);
  EXPECT_EQ(A->StrideBytes, 132);
  // y[t] = s[t].
  ASSERT_TRUE(One(12, false));
  EXPECT_EQ(One(12, false)->Where, MemoryAccess::Space::Shared);
  EXPECT_EQ(One(12, false)->Judged, V::Good);
  ASSERT_TRUE(One(12, true));
  EXPECT_EQ(One(12, true)->Judged, V::Good);
}

TEST_F(AccessPatternsTest, WideValuesAreServedInPartsOfAWarp) {
  // A warp's 8-byte values fill the 32 banks twice: two halves of 16 lanes
  // is the minimum, not a 2-way conflict. A 16-byte stride makes the halves
  // collide (2-way); an 8-byte one does not.
  loadText("f64.jl", R"(function f64!(y::DeviceArray{Float64,1})
    s = CuStaticSharedArray(Float64, 512)
    t = threadIdx().x
    @inbounds s[t] = 1.0
    @inbounds s[2t] = 2.0
    sync_threads()
    @inbounds y[t] = s[t]
    return
end
)");
  CompileResult R =
      compileFor("ptx", "f64!(DeviceArray{Float64,1})", Stage::LLVMOpt);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  std::map<unsigned, unsigned> WaysOfStoreAt;
  for (llvm::Function &F : *R.Module)
    if (!F.isDeclaration() && F.getName().contains("f64"))
      for (MemoryAccess &A : analyseMemoryAccesses(F, ptxWarp()))
        if (A.Where == MemoryAccess::Space::Shared && A.Store)
          WaysOfStoreAt[lineOf(A)] = A.ConflictWays;
  EXPECT_EQ(WaysOfStoreAt[4], 1u);
  EXPECT_EQ(WaysOfStoreAt[5], 2u);
}

TEST_F(AccessPatternsTest, ACompileReportsThemAsRemarksOnTheirLines) {
  loadText("acc.jl", Source);
  CompileResult R = compileFor("ptx", Sig);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  std::map<std::pair<unsigned, std::string>, RemarkKind> Seen;
  auto KindAt = [&](unsigned Line, const char *Name) {
    auto It = Seen.find({Line, Name});
    return It == Seen.end() ? std::optional<RemarkKind>() : It->second;
  };
  for (const OptRemark &M : R.Report->Remarks)
    if (M.Pass == "prism-access") {
      ASSERT_FALSE(M.Origin.Frames.empty()) << M.Message;
      EXPECT_EQ(M.Origin.Frames.back().Function, "acc!");
      Seen[{M.Origin.Frames.back().Line, M.Name}] = M.Kind;
    }
  EXPECT_EQ(KindAt(3, "Coalesced"), RemarkKind::Analysis);
  EXPECT_EQ(KindAt(4, "Uncoalesced"), RemarkKind::Missed);
  EXPECT_EQ(KindAt(6, "Uncoalesced"), RemarkKind::Missed);
  EXPECT_EQ(KindAt(9, "BankConflict"), RemarkKind::Missed);
  EXPECT_EQ(KindAt(10, "ConflictFree"), RemarkKind::Analysis);
  EXPECT_EQ(Seen.size(), 8u);

  // Not for the host (no warps) nor without remarks.
  R = compileFor("native", Sig);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  for (const OptRemark &M : R.Report->Remarks)
    EXPECT_NE(M.Pass, "prism-access") << M.Message;
}

// gfx9's wave64: 64 lanes, served by the vector L1 in 64-byte lines and
// by the LDS in two halves of 32 lanes. x[t] is 256 bytes in 4 lines;
// s[32t] puts each half's 32 lanes in one bank (32-way, not 64); s[16t]
// puts 16 words in each of two banks per half.
TEST_F(AccessPatternsTest, AGfx9WavefrontIsSixtyFourLanesInTwoLdsHalves) {
  constexpr const char *Wave =
      R"(function wave!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    t = threadIdx().x
    @inbounds v = x[t]
    s = CuStaticSharedArray(Float32, 4096)
    @inbounds s[t * 32] = v
    @inbounds s[t * 16] = v
    sync_threads()
    @inbounds y[t] = s[t]
    return
end
)";
  loadText("wave.jl", Wave);
  GpuJobOptions O;
  O.Arch = "gfx90a";
  CompileResult R =
      compileFor("gcn", "wave!(DeviceArray{Float32,1}, DeviceArray{Float32,1})",
                 Stage::LLVMOpt, O);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  llvm::Function *F = kernelNamed(R, "wave");
  ASSERT_TRUE(F);
  WarpModel M = *llvm::cantFail(lookupTarget("gcn"))->warpModel("gfx90a");
  ASSERT_TRUE(M.ModelsMemory);
  std::multimap<unsigned, MemoryAccess> ByLine;
  for (MemoryAccess &A : analyseMemoryAccesses(*F, M))
    ByLine.emplace(lineOf(A), std::move(A));
  auto One = [&](unsigned Line) -> const MemoryAccess * {
    auto It = ByLine.find(Line);
    return It == ByLine.end() ? nullptr : &It->second;
  };
  using V = MemoryAccess::Verdict;
  const MemoryAccess *A = One(3);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Judged, V::Good);
  EXPECT_EQ(A->Sectors, 4u);
  EXPECT_NE(A->Message.find("4 cache lines of 64 bytes per wavefront"),
            std::string::npos)
      << A->Message;
  A = One(5);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Judged, V::Poor);
  EXPECT_EQ(A->ConflictWays, 32u);
  EXPECT_NE(A->Message.find("so the 32 lanes served together (part of a "
                            "wavefront) ask one of the 32 banks for 32 "
                            "different words, served one per pass: 32 "
                            "passes where 1 would do"),
            std::string::npos)
      << A->Message;
  A = One(6);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->ConflictWays, 16u);
  ASSERT_TRUE(One(8));
  EXPECT_EQ(One(8)->Judged, V::Good);

  // RDNA's wave32 is not modelled.
  EXPECT_FALSE(
      llvm::cantFail(lookupTarget("gcn"))->warpModel("gfx1030")->ModelsMemory);
}

// The tour's example: rows padded to 33 floats keep the per-thread reads
// free of bank conflicts; unpadded (32) every lane would hit one bank.
TEST_F(AccessPatternsTest, TheTourExamplesPaddedTileHasNoBankConflict) {
  loadExample("occupancy.jl");
  CompileResult R = compileFor(
      "ptx", "chunk_sums!(DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  size_t Judged = 0;
  for (const OptRemark &M : R.Report->Remarks)
    if (M.Pass == "prism-access") {
      ++Judged;
      EXPECT_EQ(M.Kind, RemarkKind::Analysis) << M.Message;
    }
  EXPECT_GE(Judged, 4u);
}

// On gcn the tile's store address divides a loop counter plus the thread
// index (`j ÷ 32`, an sdiv of a freeze that SCEV keeps opaque, in a loop
// unrolled by two): judged per iteration, conflict-free, and never taken
// for one address (equal opaque terms cancelling would say "broadcast").
TEST_F(AccessPatternsTest, ADivisionOfALoopCounterIsJudgedPerIteration) {
  loadExample("occupancy.jl");
  CompileResult R = compileFor(
      "gcn", "chunk_sums!(DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  std::set<std::string> AtTile;
  for (const OptRemark &M : R.Report->Remarks)
    if (M.Pass == "prism-access" && !M.Origin.Frames.empty() &&
        M.Origin.Frames.back().Line == 19)
      AtTile.insert(M.Name);
  EXPECT_EQ(AtTile, std::set<std::string>{"ConflictFree"});
}

// In a 2-d block a warp holds several rows of threadIdx().x; `B[i, j]`
// with j from threadIdx().y puts them a run-time column stride apart. Each
// row is judged on its own: coalesced in a 16×16 block, but a 4-wide row
// covers half a sector, so a 4×8 block needs twice the sectors.
TEST_F(AccessPatternsTest, RowsOfA2dBlockARunTimeStrideApartAreJudgedEach) {
  loadText(
      "copy2d.jl",
      R"(function copy2d!(B::DeviceArray{Float32,2}, A::DeviceArray{Float32,2})
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    j = (blockIdx().y - 1) * blockDim().y + threadIdx().y
    @inbounds B[i, j] = A[i, j]
    return nothing
end
)");
  CompileResult R = compileFor(
      "ptx", "copy2d!(DeviceArray{Float32,2}, DeviceArray{Float32,2})",
      Stage::LLVMOpt);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  llvm::Function *F = kernelNamed(R, "copy2d");
  ASSERT_TRUE(F);
  auto Judge = [&](std::array<unsigned, 3> Block) {
    WarpModel M = ptxWarp();
    M.Block = Block;
    return analyseMemoryAccesses(*F, M);
  };
  using V = MemoryAccess::Verdict;
  std::vector<MemoryAccess> Square = Judge({16, 16, 1});
  ASSERT_EQ(Square.size(), 2u);
  for (const MemoryAccess &A : Square) {
    EXPECT_EQ(A.Judged, V::Good) << A.Message;
    EXPECT_EQ(A.Sectors, 4u);
    EXPECT_NE(A.Message.find("consecutive threadIdx().y 4 × size("),
              std::string::npos)
        << A.Message;
    EXPECT_NE(A.Message.find("1) is a multiple of 8"), std::string::npos)
        << A.Message;
  }
  std::vector<MemoryAccess> Narrow = Judge({4, 8, 1});
  ASSERT_EQ(Narrow.size(), 2u);
  for (const MemoryAccess &A : Narrow) {
    EXPECT_EQ(A.Judged, V::Poor) << A.Message;
    EXPECT_EQ(A.Sectors, 8u);
    EXPECT_EQ(A.IdealSectors, 4u);
    EXPECT_NE(A.Message.find("a row of 4 threadIdx().x covers 16 bytes"),
              std::string::npos)
        << A.Message;
  }
}

} // namespace

// Only the lanes a branch on the thread index lets through touch memory:
// `if t <= 2` around a 32-word stride is 2-way, not 32-way, and the
// strided reduction's `if index <= 256` thins out with each round. A
// reversed walk is as coalesced as a forward one.
TEST_F(AccessPatternsTest, OnlyTheLanesABranchLetsThroughAreCounted) {
  loadText(
      "guard.jl",
      R"(function guard!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    t = threadIdx().x
    s = CuStaticSharedArray(Float32, 1024)
    @inbounds s[t] = 1.0f0
    sync_threads()
    if t <= 2
        @inbounds y[t] = s[(t - 1) * 32 + 1]
    end
    @inbounds y[t] = x[length(x) - t + 1]
    return nothing
end
)");
  CompileResult R = compileFor(
      "ptx", "guard!(DeviceArray{Float32,1}, DeviceArray{Float32,1})",
      Stage::LLVMOpt);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  llvm::Function *F = kernelNamed(R, "guard");
  ASSERT_TRUE(F);
  bool SawGuarded = false, SawReversed = false;
  for (const MemoryAccess &A : analyseMemoryAccesses(*F, ptxWarp())) {
    if (lineOf(A) == 7 && A.Where == MemoryAccess::Space::Shared) {
      SawGuarded = true;
      EXPECT_EQ(A.ConflictWays, 2u) << A.Message;
      EXPECT_NE(A.Message.find("only 2 of a warp's 32 lanes run it (the "
                               "branch at line 6)"),
                std::string::npos)
          << A.Message;
    }
    if (lineOf(A) == 7 && A.Where == MemoryAccess::Space::Global) {
      EXPECT_EQ(A.Sectors, 1u) << A.Message;
    }
    if (lineOf(A) == 9 && !A.Store) {
      SawReversed = true;
      EXPECT_EQ(A.StrideBytes, -4);
      EXPECT_EQ(A.Sectors, 4u) << A.Message;
      EXPECT_EQ(A.Judged, MemoryAccess::Verdict::Good) << A.Message;
    }
  }
  EXPECT_TRUE(SawGuarded);
  EXPECT_TRUE(SawReversed);
}

// `x[(i + 1) ÷ 2]` with i from the block: no lane folds the division while
// the block's offset is unknown; in the first block, lanes read in pairs,
// two sectors for a warp (it was "a stride known only at run time").
TEST_F(AccessPatternsTest, ABlockBuiltIndexIsJudgedInTheFirstBlock) {
  loadText(
      "half.jl",
      R"(function half!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    @inbounds y[i] = x[(i + 1) ÷ 2]
    return nothing
end
)");
  CompileResult R =
      compileFor("ptx", "half!(DeviceArray{Float32,1}, DeviceArray{Float32,1})",
                 Stage::LLVMOpt);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  llvm::Function *F = kernelNamed(R, "half");
  ASSERT_TRUE(F);
  bool Saw = false;
  for (const MemoryAccess &A : analyseMemoryAccesses(*F, ptxWarp()))
    if (!A.Store) {
      Saw = true;
      EXPECT_EQ(A.Judged, MemoryAccess::Verdict::Good) << A.Message;
      EXPECT_EQ(A.Sectors, 2u) << A.Message;
      EXPECT_FALSE(A.StrideBytes) << "pairs are not a stride";
      EXPECT_NE(A.Message.find("(judged in the first block)"),
                std::string::npos)
          << A.Message;
    }
  EXPECT_TRUE(Saw);
}

// An array starts a sector: `x[t + 1]` starts 4 bytes into one, and its
// warp takes 5 sectors where an aligned one takes 4, said, not missed.
TEST_F(AccessPatternsTest, AConstantMisalignmentCostsOneSector) {
  loadText(
      "shift.jl",
      R"(function shift!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    t = threadIdx().x
    @inbounds y[t] = x[t + 1]
    return nothing
end
)");
  CompileResult R = compileFor(
      "ptx", "shift!(DeviceArray{Float32,1}, DeviceArray{Float32,1})",
      Stage::LLVMOpt);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  llvm::Function *F = kernelNamed(R, "shift");
  ASSERT_TRUE(F);
  for (const MemoryAccess &A : analyseMemoryAccesses(*F, ptxWarp())) {
    EXPECT_EQ(A.Judged, MemoryAccess::Verdict::Good) << A.Message;
    EXPECT_EQ(A.Sectors, A.Store ? 4u : 5u) << A.Message;
    if (!A.Store) {
      EXPECT_NE(A.Message.find("starts 4 bytes into a sector"),
                std::string::npos)
          << A.Message;
    }
  }
}

// The same on gcn: the array's base is the global pointer the kernel
// casts its argument to, and a wavefront's x[t + 1] spans 5 cache lines.
TEST_F(AccessPatternsTest, AMisalignedWavefrontTakesOneMoreCacheLine) {
  loadText(
      "shift.jl",
      R"(function shift!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    t = threadIdx().x
    @inbounds y[t] = x[t + 1]
    return nothing
end
)");
  GpuJobOptions O;
  O.Arch = "gfx90a";
  CompileResult R = compileFor(
      "gcn", "shift!(DeviceArray{Float32,1}, DeviceArray{Float32,1})",
      Stage::LLVMOpt, O);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  llvm::Function *F = kernelNamed(R, "shift");
  ASSERT_TRUE(F);
  WarpModel M = *llvm::cantFail(lookupTarget("gcn"))->warpModel("gfx90a");
  for (const MemoryAccess &A : analyseMemoryAccesses(*F, M)) {
    EXPECT_EQ(A.Judged, MemoryAccess::Verdict::Good) << A.Message;
    EXPECT_EQ(A.Sectors, A.Store ? 4u : 5u) << A.Message;
  }
}

// A 2-d stencil's a[i + 1, j] and a[i + 1, j + 1]: each row of a warp
// starts 4 bytes into a sector (the columns taken to start sectors, as
// said), so a 16×16 block's two-row warp takes 6 sectors where 4 would do,
// misaligned, not uncoalesced; a 32×8 block's one-row warp takes 5, in
// every column.
TEST_F(AccessPatternsTest, A2dStencilsMisalignmentIsPlacedInEveryColumn) {
  loadText(
      "st.jl",
      R"(function st!(out::DeviceArray{Float32,2}, a::DeviceArray{Float32,2})
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    j = (blockIdx().y - 1) * blockDim().y + threadIdx().y
    @inbounds out[i, j] = a[i + 1, j] + a[i + 1, j + 1]
    return nothing
end
)");
  CompileResult R =
      compileFor("ptx", "st!(DeviceArray{Float32,2}, DeviceArray{Float32,2})",
                 Stage::LLVMOpt);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  llvm::Function *F = kernelNamed(R, "st");
  ASSERT_TRUE(F);
  for (auto [X, Y, Loads] : {std::tuple{16u, 16u, 6u}, {32u, 8u, 5u}}) {
    SCOPED_TRACE(X);
    WarpModel M = ptxWarp();
    M.Block = {X, Y, 1};
    unsigned Seen = 0;
    for (const MemoryAccess &A : analyseMemoryAccesses(*F, M)) {
      if (A.Store)
        continue;
      ++Seen;
      EXPECT_EQ(A.Judged, MemoryAccess::Verdict::Good) << A.Message;
      EXPECT_EQ(A.Sectors, Loads) << A.Message;
      EXPECT_NE(A.Message.find("4 bytes into a sector"), std::string::npos)
          << A.Message;
    }
    EXPECT_EQ(Seen, 2u);
  }
}

// A naive transpose's out[j, i] in blocks narrower than a warp: each
// threadIdx().x is a column the warp's threadIdx().y walk down, 4 bytes
// apart, so a 4×32 block's warp fills 4 sectors (coalesced, it was called
// uncoalesced) and a 16×16 one's takes 16. A block one thread wide lays
// the warp along threadIdx().y, and the remark says so.
TEST_F(AccessPatternsTest, ABlockNarrowerThanAWarpWalksColumnsInY) {
  loadText(
      "tr.jl",
      R"(function tr!(out::DeviceArray{Float32,2}, inp::DeviceArray{Float32,2})
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    j = (blockIdx().y - 1) * blockDim().y + threadIdx().y
    @inbounds out[j, i] = inp[i, j]
    return nothing
end
)");
  CompileResult R =
      compileFor("ptx", "tr!(DeviceArray{Float32,2}, DeviceArray{Float32,2})",
                 Stage::LLVMOpt);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  llvm::Function *F = kernelNamed(R, "tr");
  ASSERT_TRUE(F);
  auto StoreIn = [&](std::array<unsigned, 3> Block) {
    WarpModel M = ptxWarp();
    M.Block = Block;
    for (MemoryAccess &A : analyseMemoryAccesses(*F, M))
      if (A.Store)
        return A;
    return MemoryAccess();
  };
  using V = MemoryAccess::Verdict;
  MemoryAccess Narrow = StoreIn({4, 32, 1});
  EXPECT_EQ(Narrow.Judged, V::Good) << Narrow.Message;
  EXPECT_EQ(Narrow.Sectors, 4u) << Narrow.Message;
  EXPECT_NE(Narrow.Message.find("consecutive threadIdx().y are 4 bytes apart"),
            std::string::npos)
      << Narrow.Message;
  MemoryAccess Square = StoreIn({16, 16, 1});
  EXPECT_EQ(Square.Judged, V::Poor) << Square.Message;
  EXPECT_EQ(Square.Sectors, 16u) << Square.Message;
  MemoryAccess Column = StoreIn({1, 32, 1});
  EXPECT_EQ(Column.Judged, V::Good) << Column.Message;
  EXPECT_NE(Column.Message.find("consecutive threadIdx().y are 4 bytes apart"),
            std::string::npos)
      << Column.Message;
}

// A struct of mixed fields that LLVM loads and stores whole is two
// accesses in the hardware (ld.global.f64, ld.global.f32), each 16 bytes
// apart between lanes: each judged on its own (it was one coalesced
// 16-byte access).
TEST_F(AccessPatternsTest, AWholeStructIsOneAccessPerField) {
  loadText("aos.jl", R"(struct PD
    a::Float64
    b::Float32
end
function aosd!(y::DeviceArray{Float32,1}, p::DeviceArray{PD,1})
    i = threadIdx().x
    @inbounds q = p[i]
    @inbounds y[i] = q.a + q.b
    return nothing
end
)");
  CompileResult R =
      compileFor("ptx", "aosd!(DeviceArray{Float32,1}, DeviceArray{PD,1})",
                 Stage::LLVMOpt);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  llvm::Function *F = kernelNamed(R, "aosd");
  ASSERT_TRUE(F);
  std::vector<unsigned> Bytes;
  for (const MemoryAccess &A : analyseMemoryAccesses(*F, ptxWarp()))
    if (!A.Store) {
      Bytes.push_back(A.ElementBytes);
      EXPECT_EQ(A.Judged, MemoryAccess::Verdict::Poor) << A.Message;
      EXPECT_EQ(A.Sectors, 16u) << A.Message;
      EXPECT_EQ(A.StrideBytes, 16) << A.Message;
    }
  EXPECT_EQ(Bytes, (std::vector<unsigned>{8, 4}));
}
