#include "support/Diagnostic.h"

#include <gtest/gtest.h>

using namespace prism;

TEST(Diagnostic, RendersLocationSourceAndCaret) {
  auto F = SourceFile::create("k.jl", "function f(x)\n    y = x +* 1\nend\n");
  // "*" is at line 2, col 12.
  uint32_t Off = std::string_view(F->text()).find('*');
  Diagnostic D = Diagnostic::error("parse", "unexpected `*`",
                                   DiagLoc::fromRange(F, {Off, Off + 1}));
  std::string S = renderDiagnostic(D);
  EXPECT_EQ(S, "k.jl:2:12: error: unexpected `*`\n"
               "      y = x +* 1\n"
               "             ^\n");
}

TEST(Diagnostic, RangeUnderlinedWithTildes) {
  auto F = SourceFile::create("k.jl", "acc = 0\n");
  Diagnostic D = Diagnostic::error("x", "m", DiagLoc::fromRange(F, {0, 3}));
  EXPECT_NE(renderDiagnostic(D).find("^~~\n"), std::string::npos);
}

TEST(Diagnostic, NotesAndBacktrace) {
  auto F = SourceFile::create("a.jl", "one\ntwo\nthree\n");
  Diagnostic D = Diagnostic::error("invalid-ir", "bad", DiagLoc::fromRange(F, {4, 7}));
  D.note("defined here", DiagLoc::fromRange(F, {8, 13}));
  D.Backtrace.push_back({"getindex", DiagLoc::fromRange(F, {0, 1})});
  D.Backtrace.push_back({"saxpy!", DiagLoc::fromRange(F, {4, 5})});
  std::string S = renderDiagnostic(D, {false, false});
  EXPECT_EQ(S, "a.jl:2:1: error: bad\n"
               "a.jl:3:1: note: defined here\n"
               "Stacktrace:\n"
               " [1] getindex at a.jl:1:1\n"
               " [2] saxpy! at a.jl:2:1\n");
}

// A binary file's line reaches the terminal as `?`s, not raw bytes; valid
// UTF-8 (`÷`) is kept.
TEST(Diagnostic, ExcerptReplacesStrayBytesAndControls) {
  auto F = SourceFile::create("b.jl", std::string("x \xff\xfe\x1b[31m ÷\n"));
  Diagnostic D = Diagnostic::error("x", "m", DiagLoc::fromRange(F, {0, 1}));
  std::string S = renderDiagnostic(D, {false, true});
  EXPECT_NE(S.find("  x ???[31m ÷\n"), std::string::npos) << S;
  EXPECT_EQ(S.find('\xff'), std::string::npos);
  EXPECT_EQ(S.find('\x1b'), std::string::npos);
}

TEST(Diagnostic, ColumnsCountCodePoints) {
  auto F = SourceFile::create("u.jl", "a = b ÷ c\n");
  uint32_t Off = std::string_view(F->text()).find('c');
  EXPECT_EQ(F->lineCol(Off).Col, 9u);
}

TEST(Diagnostic, ErrorRoundTrip) {
  llvm::Error E = makeDiagError(Diagnostic::error("k", "msg", {}));
  auto Ds = takeDiagnostics(std::move(E));
  ASSERT_EQ(Ds.size(), 1u);
  EXPECT_EQ(Ds[0].Message, "msg");
  auto Other = takeDiagnostics(llvm::createStringError(
      llvm::inconvertibleErrorCode(), "plain"));
  ASSERT_EQ(Other.size(), 1u);
  EXPECT_EQ(Other[0].Kind, "internal");
}
