// The ptx throw-site table (PTX comments) and the exception record.
#include "targets/PtxThrowSites.h"

#include <gtest/gtest.h>

using namespace prism;

TEST(PtxThrowSites, TableRoundTripsThroughPtxText) {
  std::vector<PtxThrowSite> Sites{
      {1, 1, "BoundsError", "/src/map.jl", 15},
      // Type names and paths may hold spaces; the file comes last.
      {2, 0, "Tuple{Int64, Int64}", "/my kernels/odd name.jl", 7},
      {3, 10, "StackOverflowError", "", 0}};
  std::string Ptx = ".version 7.0\n.target sm_80\n.address_size 64\n" +
                    formatThrowSites(Sites) + ".visible .entry k()\n{\n\tret;\n}\n";
  std::vector<PtxThrowSite> Back = parseThrowSites(Ptx);
  ASSERT_EQ(Back.size(), Sites.size()) << Ptx;
  for (size_t I = 0; I < Sites.size(); ++I) {
    SCOPED_TRACE(I);
    EXPECT_EQ(Back[I].Id, Sites[I].Id);
    EXPECT_EQ(Back[I].Kind, Sites[I].Kind);
    EXPECT_EQ(Back[I].TypeName, Sites[I].TypeName);
    EXPECT_EQ(Back[I].File, Sites[I].File);
    EXPECT_EQ(Back[I].Line, Sites[I].Line);
  }
  EXPECT_EQ(formatThrowSites({}), "");
}

TEST(PtxThrowSites, ForeignPtxAndMalformedLinesHaveNoSites) {
  EXPECT_TRUE(parseThrowSites(".version 7.0\n// a comment\n").empty());
  EXPECT_TRUE(parseThrowSites("// prism.throw site=x kind=1 line=2 type=A file=b\n"
                              "// prism.throw site=1 kind=1 line=2 type=A\n")
                  .empty());
  // CRLF line ends (a file edited elsewhere) still read.
  auto S = parseThrowSites("// prism.throw site=4 kind=2 line=9 type=InexactError file=a.jl\r\n");
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S[0].File, "a.jl");
}

TEST(PtxThrowSites, RecordPacksSiteThreadAndBlock) {
  // What the kernel stores: site << 48 | thread << 32 | block.
  uint64_t Word = (uint64_t(3) << ThrowSiteShift) |
                  (uint64_t(1023) << ThrowThreadShift) | 0xfffffffe;
  ThrowRecord R = decodeThrowRecord(Word);
  EXPECT_EQ(R.Site, 3u);
  EXPECT_EQ(R.Thread, 1023u);
  EXPECT_EQ(R.Block, 0xfffffffeu);
  ThrowRecord Max = decodeThrowRecord(uint64_t(MaxThrowSites) << ThrowSiteShift);
  EXPECT_EQ(Max.Site, MaxThrowSites);
  EXPECT_EQ(Max.Thread, 0u);
  EXPECT_EQ(Max.Block, 0u);
}
