// Line correlation through inlining, and the colours and tooltips built on it.
#include "Correlation.h"
#include "SampleReports.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

using namespace prism;
using namespace prism::views;

namespace {

LineOrigin frames(std::vector<SourceFrame> F) { return LineOrigin{std::move(F)}; }

std::vector<uint32_t> outLines(const LineMap &M, uint32_t Src) {
  std::vector<uint32_t> V;
  for (const LineLink &L : M.outputLinesFor(Src))
    V.push_back(L.Line);
  return V;
}

} // namespace

TEST(Correlation, InlinedLineMapsToCalleeAndCallSite) {
  // Output line 1 is axpy's body (line 2) inlined at saxpy!'s line 7.
  std::vector<LineOrigin> O = {
      frames({{"saxpy!", "k.jl", 5, 1}}),
      frames({{"axpy", "k.jl", 2, 25}, {"saxpy!", "k.jl", 7, 26}}),
      frames({}),
      frames({{"saxpy!", "k.jl", 7, 9}}),
  };
  LineMap M(O, "k.jl");
  EXPECT_EQ(outLines(M, 2), (std::vector<uint32_t>{1}));    // the callee's line
  EXPECT_EQ(outLines(M, 7), (std::vector<uint32_t>{1, 3})); // and the call site
  EXPECT_EQ(outLines(M, 5), (std::vector<uint32_t>{0}));
  EXPECT_TRUE(M.outputLinesFor(4).empty());
  // The depth tells direct code from code that arrived through inlining.
  EXPECT_EQ(M.outputLinesFor(2)[0].Depth, 0u);
  EXPECT_EQ(M.outputLinesFor(7)[0].Depth, 1u);
  EXPECT_TRUE(M.outputLinesFor(7)[0].inlined());
  EXPECT_FALSE(M.outputLinesFor(7)[1].inlined());
  EXPECT_EQ(M.mappedOutputLines(), 3u);
}

TEST(Correlation, SourceLinesOfOutputLineInnermostFirst) {
  std::vector<LineOrigin> O = {
      frames({{"getindex", "base.jl", 112, 1},
              {"axpy", "/src/k.jl", 2, 25},
              {"saxpy!", "/src/k.jl", 7, 26}}),
  };
  LineMap M(O, "/src/k.jl");
  auto S = M.sourceLinesOf(0);
  ASSERT_EQ(S.size(), 2u); // base.jl is another file
  EXPECT_EQ(S[0].Line, 2u);
  EXPECT_EQ(S[0].Depth, 1u);
  EXPECT_EQ(S[1].Line, 7u);
  EXPECT_EQ(S[1].Depth, 2u);
  EXPECT_EQ(M.primarySourceLine(0), 2u);
  EXPECT_TRUE(M.sourceLinesOf(5).empty()); // out of range is no origin
  EXPECT_EQ(M.primarySourceLine(5), 0u);
}

TEST(Correlation, CodeFromAnotherFileMapsToItsCallSiteOnly) {
  // `length(y)` from the prelude, inlined at line 6 of the kernel.
  std::vector<LineOrigin> O = {
      frames({{"length", "prelude/base.jl", 88, 9}, {"saxpy!", "k.jl", 6, 10}})};
  LineMap M(O, "k.jl");
  EXPECT_EQ(outLines(M, 6), (std::vector<uint32_t>{0}));
  EXPECT_TRUE(M.outputLinesFor(88).empty());
}

TEST(Correlation, RecursionRepeatsALineOnce) {
  std::vector<LineOrigin> O = {
      frames({{"f", "k.jl", 3, 1}, {"f", "k.jl", 3, 1}, {"g", "k.jl", 9, 1}})};
  LineMap M(O, "k.jl");
  EXPECT_EQ(M.sourceLinesOf(0).size(), 2u);
  EXPECT_EQ(M.outputLinesFor(3).size(), 1u);
}

TEST(Correlation, SameSourceFileMatchesPathsAndBaseNames) {
  EXPECT_TRUE(sameSourceFile("/a/k.jl", "/a/k.jl"));
  EXPECT_TRUE(sameSourceFile("k.jl", "/work/examples/k.jl"));
  EXPECT_TRUE(sameSourceFile("/work/examples/k.jl", "k.jl"));
  EXPECT_FALSE(sameSourceFile("/a/k.jl", "/b/k.jl"));
  EXPECT_FALSE(sameSourceFile("base.jl", "k.jl"));
  EXPECT_FALSE(sameSourceFile("", "k.jl"));
}

TEST(Correlation, SourceLinesWithOutputOfSampleReport) {
  JobReportRef R = test::makeSaxpyReport();
  LineMap M(R->stage(Stage::Asm).Lines, test::SaxpyPath);
  auto Lines = M.sourceLinesWithOutput();
  EXPECT_EQ(Lines, (std::vector<uint32_t>{2, 4, 5, 6, 7, 9}));
  // The PTX mul/add of axpy map to line 2 directly and to 7 via inlining.
  bool Found = false;
  for (const LineLink &L : M.outputLinesFor(2)) {
    auto Srcs = M.sourceLinesOf(L.Line);
    Found |= Srcs.size() == 2 && Srcs[1].Line == 7;
  }
  EXPECT_TRUE(Found);
}

TEST(Correlation, ColourIsStableAndNeighboursDiffer) {
  for (uint32_t L = 1; L < 200; ++L) {
    Rgb A = sourceLineColor(L), B = sourceLineColor(L);
    EXPECT_EQ(A.R, B.R);
    EXPECT_EQ(A.G, B.G);
    EXPECT_EQ(A.B, B.B);
    Rgb N = sourceLineColor(L + 1);
    float D = std::abs(A.R - N.R) + std::abs(A.G - N.G) + std::abs(A.B - N.B);
    EXPECT_GT(D, 0.15f) << "lines " << L << " and " << L + 1;
    for (float C : {A.R, A.G, A.B}) {
      EXPECT_GE(C, 0.0f);
      EXPECT_LE(C, 1.0f);
    }
  }
}

TEST(Correlation, FormatInliningStack) {
  LineOrigin O = frames({{"axpy", "/src/k.jl", 2, 25}, {"saxpy!", "/src/k.jl", 7, 26}});
  EXPECT_EQ(formatInliningStack(O),
            "[1] axpy at k.jl:2:25  (inlined)\n[2] saxpy! at k.jl:7:26");
  EXPECT_EQ(formatInliningStack(LineOrigin{}), "");
}
