// LLVM's optimisation remarks, collected by the staged driver: located at
// the kernel's line through inlining, free of tag lines and of the
// forced (always-inline) decisions, grouped and printed as clang does.
#include "core/infer/InferTestUtil.h"

#include "cache/Compiler.h"
#include "cache/Remarks.h"
#include "codegen/LineMap.h"

#include <gtest/gtest.h>

#include <map>

using namespace prism;

namespace {

class Remarks : public prism::testing::InferTest {
protected:
  CompileResult compileExample(const std::string &File, const std::string &Sig,
                               const std::string &Target,
                               const CompileOptions &O = {}) {
    loadExample(File);
    CompilerConfigOptions CO;
    CO.Target = Target;
    auto C = CompilerConfig::create(CO);
    EXPECT_TRUE(!!C);
    CompilerJob Job{spec(Sig), *C, Env.currentWorld()};
    CompileOptions Opts = O;
    Opts.Resources = false; // no ptxas needed
    return compile(Engine, Job, Stage::Asm, {}, Opts);
  }

  CompileResult blockSum(const std::string &Target,
                         const CompileOptions &O = {}) {
    return compileExample(
        "reduce.jl", "block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})",
        Target, O);
  }

  static const OptRemark *find(const JobReport &R, RemarkKind K,
                               const std::string &Pass) {
    for (const OptRemark &M : R.Remarks)
      if (M.Kind == K && M.Pass == Pass)
        return &M;
    return nullptr;
  }
};

TEST_F(Remarks, AMissedLoadIsAtTheKernelsLineThroughInlining) {
  CompileResult C = blockSum("ptx");
  ASSERT_TRUE(C.ok());
  const JobReport &R = *C.Report;
  ASSERT_FALSE(R.Remarks.empty());
  // `tmp[t] += tmp[t + s]` (line 16) reloads shared memory after
  // sync_threads: GVN cannot reuse the load, and says so.
  const OptRemark *Gvn = find(R, RemarkKind::Missed, "gvn");
  ASSERT_NE(Gvn, nullptr);
  EXPECT_EQ(Gvn->At, Stage::LLVMOpt);
  const std::vector<SourceFrame> &Fr = Gvn->Origin.Frames;
  ASSERT_GE(Fr.size(), 2u) << "the load comes from getindex, inlined";
  EXPECT_EQ(Fr.back().Function, "block_sum!");
  EXPECT_EQ(Fr.back().Line, 16u);
  EXPECT_NE(Fr.back().File.find("reduce.jl"), std::string::npos);
  EXPECT_NE(Fr.front().File.find("prelude/"), std::string::npos);
  // A GPU thread runs scalar code: the vectoriser's "loop not vectorized"
  // is left out on ptx; on the host it names why it gave up on the while
  // loop.
  EXPECT_EQ(find(R, RemarkKind::Missed, "loop-vectorize"), nullptr);
  CompileResult Host = blockSum("native");
  ASSERT_TRUE(Host.ok());
  const OptRemark *Vec =
      find(*Host.Report, RemarkKind::Missed, "loop-vectorize");
  ASSERT_NE(Vec, nullptr);
  ASSERT_FALSE(Vec->Origin.Frames.empty());
  EXPECT_EQ(Vec->Origin.Frames.back().Line, 15u);
}

TEST_F(Remarks, BackendRemarksAreUntaggedAndForcedInliningIsLeftOut) {
  CompileResult C = blockSum("ptx");
  ASSERT_TRUE(C.ok());
  bool Backend = false;
  for (const OptRemark &M : C.Report->Remarks) {
    Backend |= M.At == Stage::Asm;
    // The asm is generated from a module whose lines are tags: never shown.
    for (const SourceFrame &F : M.Origin.Frames)
      EXPECT_LT(F.Line, LocationTagBase) << M.Pass << ": " << M.Message;
    EXPECT_FALSE(M.Pass == "inline" &&
                 M.Message.find("always inline") != std::string::npos)
        << M.Message;
    EXPECT_EQ(M.Message.find(" at callsite "), std::string::npos) << M.Message;
    EXPECT_NE(M.Name, "NoDefinition");
    EXPECT_NE(M.Name, "InstructionMix");
  }
  EXPECT_TRUE(Backend) << "the asm printer counts the instructions";
  const OptRemark *Count = find(*C.Report, RemarkKind::Analysis, "asm-printer");
  ASSERT_NE(Count, nullptr);
  EXPECT_NE(Count->Message.find("instructions in function"), std::string::npos);
}

// The register allocator's copy costs are floats LLVM prints as
// "1.593750e+01"; a remark shows them as people write them ("15.9").
TEST_F(Remarks, RegallocCostsReadAsDecimals) {
  CompileResult C =
      compileExample("matmul.jl",
                     "matmul!(DeviceArray{Float32,2}, DeviceArray{Float32,2}, "
                     "DeviceArray{Float32,2})",
                     "gcn");
  ASSERT_TRUE(C.ok());
  size_t Costs = 0;
  for (const OptRemark &M : C.Report->Remarks) {
    EXPECT_FALSE(llvm::StringRef(M.Message).contains("e+0")) << M.Message;
    if (M.Pass == "regalloc" && llvm::StringRef(M.Message).contains("cost")) {
      ++Costs;
      EXPECT_TRUE(llvm::StringRef(M.Message).contains(".")) << M.Message;
    }
  }
  EXPECT_GT(Costs, 0u) << "gcn's matmul copies registers in its loop";
}

TEST_F(Remarks, TheHostVectorisesTheBlockLoopAndFramesEndAtTheJob) {
  CompileResult C = compileExample(
      "saxpy.jl", "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})",
      "native");
  ASSERT_TRUE(C.ok());
  const OptRemark *Vec = find(*C.Report, RemarkKind::Passed, "loop-vectorize");
  ASSERT_NE(Vec, nullptr) << "the block wrapper's thread loop";
  EXPECT_NE(Vec->Message.find("vectorized loop"), std::string::npos);
  // The kernel is inlined into its launch wrappers: a remark inside the
  // kernel's code ends at the kernel's line, not at the wrapper's.
  bool SawKernelLine = false, Backend = false;
  for (const OptRemark &M : C.Report->Remarks) {
    const std::vector<SourceFrame> &Fr = M.Origin.Frames;
    // Register allocation reports on the host's loops, from the asm's
    // tagged module: its lines are the original ones.
    if (M.At == Stage::Asm && !Fr.empty()) {
      Backend = true;
      EXPECT_LT(Fr.back().Line, 100u) << formatRemark(M);
    }
    EXPECT_EQ(M.Message.find(std::to_string(LocationTagBase).substr(0, 5)),
              std::string::npos)
        << "a tag line in the message: " << M.Message;
    for (size_t I = 0; I + 1 < Fr.size(); ++I)
      if (Fr[I].Function == "saxpy!")
        ADD_FAILURE() << "frames go past the job's function: " << formatRemark(M);
    SawKernelLine |= !Fr.empty() && Fr.back().Function == "saxpy!" &&
                     Fr.back().Line == 11;
  }
  EXPECT_TRUE(SawKernelLine);
  EXPECT_TRUE(Backend);
}

// Julia's inlining happens on typed IR, before LLVM: its decisions are
// remarks of their own, at the call in the user's code.
TEST_F(Remarks, TheTypedInlinerSaysWhatItInlinedAndWhy) {
  CompileResult C = compileExample(
      "inlining.jl", "inline_demo(DeviceArray{Float32,1})", "ptx");
  ASSERT_TRUE(C.ok());
  const OptRemark *Kept = nullptr, *Clamp = nullptr;
  for (const OptRemark &M : C.Report->Remarks) {
    if (M.Pass != "typed-inline")
      continue;
    EXPECT_EQ(M.At, Stage::TypedOpt);
    if (M.Message.find("`kept(::Float32)`") != std::string::npos)
      Kept = &M;
    if (M.Message.find("`clamp01(::Float32)`") != std::string::npos)
      Clamp = &M;
    // The prelude's own small functions inlined into each other are noise.
    ASSERT_FALSE(M.Origin.Frames.empty());
    EXPECT_FALSE(M.Kind == RemarkKind::Passed &&
                 M.Origin.Frames.front().File.rfind("prelude/", 0) == 0)
        << formatRemark(M);
  }
  ASSERT_NE(Kept, nullptr);
  EXPECT_EQ(Kept->Kind, RemarkKind::Missed);
  EXPECT_EQ(Kept->Message, "not inlined `kept(::Float32)`: declared @noinline");
  EXPECT_EQ(Kept->Origin.Frames.back().Line, 18u);
  ASSERT_NE(Clamp, nullptr);
  EXPECT_EQ(Clamp->Kind, RemarkKind::Passed);
  EXPECT_EQ(Clamp->Message, "inlined `clamp01(::Float32)`: declared @inline");
}

TEST_F(Remarks, SmallCalleesInlineByCostAndRecursionStays) {
  loadText("t.jl", R"(
helper(x::Int) = x * 3 + 1
function big(x::Int)
    y = x
    for k in 1:4
        y = y * 7 + k
        y = y - (y ÷ 3)
        y = y + (y % 5)
        y = y * 11 - k
        y = y + (y ÷ 13)
    end
    return y
end
rec(n::Int) = n < 2 ? n : rec(n - 1) + 1
function top(x::Int)
    return helper(x) + big(x) + rec(x)
end
)");
  CompilerConfigOptions CO;
  CO.Target = "native";
  auto Cfg = CompilerConfig::create(CO);
  ASSERT_TRUE(!!Cfg);
  CompilerJob Job{spec("top(Int)"), *Cfg, Env.currentWorld()};
  CompileResult C = compile(Engine, Job, Stage::LLVMOpt);
  ASSERT_TRUE(C.ok());
  std::map<std::string, const OptRemark *> ByCallee;
  for (const OptRemark &M : C.Report->Remarks)
    if (M.Pass == "typed-inline")
      for (const char *F : {"helper", "big", "rec"})
        if (M.Message.find(std::string("`") + F + "(") != std::string::npos &&
            M.Origin.Frames.back().Line == 16)
          ByCallee[F] = &M;
  ASSERT_EQ(ByCallee.size(), 3u);
  EXPECT_EQ(ByCallee["helper"]->Kind, RemarkKind::Passed);
  EXPECT_NE(ByCallee["helper"]->Message.find("statements, within the threshold of 24"),
            std::string::npos)
      << ByCallee["helper"]->Message;
  EXPECT_EQ(ByCallee["big"]->Kind, RemarkKind::Missed);
  EXPECT_NE(ByCallee["big"]->Message.find("statements, over the threshold of 24"),
            std::string::npos)
      << ByCallee["big"]->Message;
  // rec is inlined into top once; inside it, rec calls itself: not inlined.
  bool SawRecursion = false;
  for (const OptRemark &M : C.Report->Remarks)
    SawRecursion |= M.Pass == "typed-inline" &&
                    M.Message == "not inlined `rec(::Int64)`: recursive";
  EXPECT_TRUE(SawRecursion);
}

// A comparison of Int32 with Int64 goes eight calls deep in the prelude
// (setindex! → checkbounds → < → promote → convert → Int64 →
// checked_convert → %): the inliner reaches the bottom.
TEST_F(Remarks, ThePreludesDeepChainsInlineCompletely) {
  CompileResult C = blockSum("ptx");
  ASSERT_TRUE(C.ok());
  for (const OptRemark &M : C.Report->Remarks)
    EXPECT_FALSE(M.Pass == "typed-inline" && M.Kind == RemarkKind::Missed)
        << formatRemark(M);
}

TEST_F(Remarks, OffMeansNone) {
  CompileOptions O;
  O.Remarks = false;
  CompileResult C = blockSum("ptx", O);
  ASSERT_TRUE(C.ok());
  EXPECT_TRUE(C.Report->Remarks.empty());
}

TEST_F(Remarks, GroupedAndPrintedLikeClang) {
  OptRemark A;
  A.Kind = RemarkKind::Missed;
  A.Pass = "gvn";
  A.Message = "load of type float not eliminated";
  A.Origin.Frames = {{"unsafe_load", "prelude/80_array.jl", 4, 56},
                     {"getindex", "prelude/80_array.jl", 88, 12},
                     {"block_sum!", "reduce.jl", 16, 13}};
  OptRemark B = A;
  B.Kind = RemarkKind::Passed;
  B.Pass = "licm";
  B.Message = "hoisting load";
  std::vector<OptRemark> All = {A, B, A};
  std::vector<RemarkGroup> G = groupRemarks(All);
  ASSERT_EQ(G.size(), 2u);
  EXPECT_EQ(G[0].Count, 2u);
  EXPECT_EQ(G[0].First->Pass, "gvn");
  EXPECT_EQ(G[1].Count, 1u);
  EXPECT_EQ(formatRemark(A),
            "reduce.jl:16:13: remark: load of type float not eliminated "
            "[-Rpass-missed=gvn]\n"
            "  inlined from unsafe_load at prelude/80_array.jl:4 via getindex "
            "at prelude/80_array.jl:88");
  EXPECT_EQ(formatRemark(*G[0].First, G[0].Count),
            "reduce.jl:16:13: remark: load of type float not eliminated "
            "[-Rpass-missed=gvn] (x2)\n"
            "  inlined from unsafe_load at prelude/80_array.jl:4 via getindex "
            "at prelude/80_array.jl:88");
  EXPECT_EQ(summarizeRemarks(All), "passed 1, missed 2");
  EXPECT_EQ(summarizeRemarks({}), "none");
}

} // namespace
