#include "support/TextLines.h"

#include <gtest/gtest.h>

using namespace prism;

namespace {

// A pane opens on the job's entry, not on the module header.
TEST(TextLines, EntryDefinitionLineFindsEachTargetsSpelling) {
  const char *Ir = "; ModuleID = 'x'\n"
                   "define void @julia_other(i64 %0) {\n"
                   "define i64 @\"julia_saxpy!\"(i64 %0) {\n";
  TextLines L(Ir);
  EXPECT_EQ(entryDefinitionLine(L, false, "julia_saxpy!"), 2u);

  // PTX: a kernel's `.entry`, a device function's `.func` with a return
  // parameter before its name.
  const char *Ptx =
      "//\n.version 7.0\n\n"
      ".visible .entry julia_saxpy_(\n"
      ".visible .func  (.param .b64 func_retval0) julia_kernel(\n";
  TextLines P(Ptx);
  EXPECT_EQ(entryDefinitionLine(P, true, "julia_saxpy!"), 3u);
  EXPECT_EQ(entryDefinitionLine(P, true, "julia_kernel"), 4u);
  EXPECT_EQ(entryDefinitionLine(P, true, "julia_kern"), std::nullopt);

  // GCN and x86: a label.
  TextLines G("\t.text\njulia_f:\n\ts_endpgm\n");
  EXPECT_EQ(entryDefinitionLine(G, true, "julia_f"), 1u);
}

} // namespace
