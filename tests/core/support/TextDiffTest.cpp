#include "support/TextDiff.h"

#include <gtest/gtest.h>

#include <cstdio>

#include <chrono>
#include <random>
#include <string>

using namespace prism;

namespace {

/// Lines "L0\n" ... "L<N-1>\n".
std::string numberedLines(int N) {
  std::string S;
  for (int I = 0; I < N; ++I)
    S += "L" + std::to_string(I) + "\n";
  return S;
}

/// Rebuilds both texts from a diff: Same+Removed give the old text,
/// Same+Added the new one. Any correct diff passes this.
void expectReconstructs(std::string_view Old, std::string_view New) {
  std::string O, N;
  int ExpectOld = 0, ExpectNew = 0;
  for (const DiffLine &L : diffLines(Old, New)) {
    if (L.K != DiffLine::Added) {
      EXPECT_EQ(L.OldLine, ExpectOld++);
      O += L.Text + "\n";
    }
    if (L.K != DiffLine::Removed) {
      EXPECT_EQ(L.NewLine, ExpectNew++);
      N += L.Text + "\n";
    }
  }
  EXPECT_EQ(O, Old);
  EXPECT_EQ(N, New);
}

size_t countEdits(std::string_view Old, std::string_view New) {
  size_t Edits = 0;
  for (const DiffLine &L : diffLines(Old, New))
    Edits += L.K != DiffLine::Same;
  return Edits;
}

} // namespace

TEST(TextDiff, EqualTextsGiveEmptyDiff) {
  EXPECT_EQ(unifiedDiff("a\nb\nc\n", "a\nb\nc\n"), "");
  EXPECT_EQ(unifiedDiff("", ""), "");
  for (const DiffLine &L : diffLines("a\nb\n", "a\nb\n"))
    EXPECT_EQ(L.K, DiffLine::Same);
}

TEST(TextDiff, Insert) {
  EXPECT_EQ(unifiedDiff("a\nb\nc\n", "a\nb\nX\nc\n"), "--- before\n"
                                                      "+++ after\n"
                                                      "@@ -1,3 +1,4 @@\n"
                                                      " a\n"
                                                      " b\n"
                                                      "+X\n"
                                                      " c\n");
}

TEST(TextDiff, Delete) {
  EXPECT_EQ(unifiedDiff("a\nb\nc\n", "a\nc\n", "old.ll", "new.ll"),
            "--- old.ll\n"
            "+++ new.ll\n"
            "@@ -1,3 +1,2 @@\n"
            " a\n"
            "-b\n"
            " c\n");
}

TEST(TextDiff, ReplaceListsRemovalsBeforeAdditions) {
  EXPECT_EQ(unifiedDiff("a\nb\nc\n", "a\nB\nc\n"), "--- before\n"
                                                   "+++ after\n"
                                                   "@@ -1,3 +1,3 @@\n"
                                                   " a\n"
                                                   "-b\n"
                                                   "+B\n"
                                                   " c\n");
}

TEST(TextDiff, FromAndToEmpty) {
  EXPECT_EQ(unifiedDiff("", "x\ny\n"), "--- before\n+++ after\n"
                                       "@@ -0,0 +1,2 @@\n+x\n+y\n");
  EXPECT_EQ(unifiedDiff("x\n", ""), "--- before\n+++ after\n"
                                    "@@ -1,1 +0,0 @@\n-x\n");
}

TEST(TextDiff, ContextIsLimited) {
  // A change in the middle of 20 lines shows 3 lines either side only.
  std::string Old = numberedLines(20);
  std::string New = Old;
  New.replace(New.find("L10\n"), 4, "CHANGED\n");
  EXPECT_EQ(unifiedDiff(Old, New),
            "--- before\n"
            "+++ after\n"
            "@@ -8,7 +8,7 @@\n"
            " L7\n L8\n L9\n-L10\n+CHANGED\n L11\n L12\n L13\n");
  // An insertion with no context names the line it follows.
  std::string Ins = Old;
  Ins.insert(Ins.find("L5\n"), "NEW\n");
  EXPECT_EQ(unifiedDiff(Old, Ins, "a", "b", 0),
            "--- a\n+++ b\n@@ -5,0 +6,1 @@\n+NEW\n");
}

TEST(TextDiff, HunksMergeWhenContextOverlaps) {
  std::string Old = numberedLines(40);
  auto change = [](std::string S, std::initializer_list<int> Lines) {
    for (int L : Lines) {
      std::string Key = "L" + std::to_string(L) + "\n";
      S.replace(S.find(Key), Key.size(), "X" + std::to_string(L) + "\n");
    }
    return S;
  };
  auto hunks = [](const std::string &Diff) {
    size_t N = 0;
    for (size_t P = Diff.find("\n@@"); P != std::string::npos;
         P = Diff.find("\n@@", P + 1))
      ++N;
    return N;
  };
  // 6 unchanged lines between changes (= 2 * context): one hunk.
  std::string Merged = unifiedDiff(Old, change(Old, {10, 17}));
  EXPECT_EQ(hunks(Merged), 1u) << Merged;
  EXPECT_NE(Merged.find("@@ -8,14 +8,14 @@\n"), std::string::npos) << Merged;
  // 7 unchanged lines between them: two hunks.
  std::string Split = unifiedDiff(Old, change(Old, {10, 18}));
  EXPECT_EQ(hunks(Split), 2u) << Split;
  EXPECT_NE(Split.find("@@ -8,7 +8,7 @@\n"), std::string::npos) << Split;
  EXPECT_NE(Split.find("@@ -16,7 +16,7 @@\n"), std::string::npos) << Split;
}

TEST(TextDiff, MissingFinalNewlineIsTheSameLine) {
  expectReconstructs("a\nb\n", "a\nc\n");
  auto Lines = diffLines("a\nb", "a\nb\n");
  ASSERT_EQ(Lines.size(), 2u);
  EXPECT_EQ(Lines[1].K, DiffLine::Same);
}

TEST(TextDiff, DiffIsMinimal) {
  // The classic example from Myers' paper: ABCABBA -> CBABAC, D = 5.
  auto chars = [](std::string_view S) {
    std::string Out;
    for (char C : S)
      (Out += C) += '\n';
    return Out;
  };
  std::string A = chars("ABCABBA"), B = chars("CBABAC");
  EXPECT_EQ(countEdits(A, B), 5u);
  expectReconstructs(A, B);
  // Repeated lines (closing braces, blank lines) must not confuse it.
  EXPECT_EQ(countEdits("}\n}\n}\nx\n}\n", "}\nx\n}\n}\n}\n"), 2u);
}

TEST(TextDiff, RandomEditsReconstruct) {
  std::mt19937 Rng(42);
  for (int Round = 0; Round < 200; ++Round) {
    auto randomText = [&](int Lines) {
      std::string S;
      for (int I = 0; I < Lines; ++I)
        S += std::string(1, char('a' + Rng() % 4)) + "\n";
      return S;
    };
    std::string Old = randomText(Rng() % 30), New = randomText(Rng() % 30);
    expectReconstructs(Old, New);
    // Edit distance is symmetric: a minimal script has the same size
    // in both directions.
    EXPECT_EQ(countEdits(Old, New), countEdits(New, Old));
  }
}

// Sizes where a quadratic diff would show; the time is printed, not
// asserted (the suite's timeout catches a blow-up).
TEST(TextDiff, LargeInputsWithFewChanges) {
  std::string Old = numberedLines(20000);
  std::string New = Old;
  New.replace(New.find("L100\n"), 5, "changed 100\n");
  New.insert(New.find("L9000\n"), "inserted\n");
  New.erase(New.find("L15000\n"), 7);
  New += "appended\n";

  auto Start = std::chrono::steady_clock::now();
  std::string Diff = unifiedDiff(Old, New);
  auto Ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::steady_clock::now() - Start)
                .count();
  std::printf("20 000-line diff, 5 edits: %lld ms\n", (long long)Ms);
  EXPECT_NE(Diff.find("-L100\n+changed 100\n"), std::string::npos);
  EXPECT_NE(Diff.find("+inserted\n"), std::string::npos);
  EXPECT_NE(Diff.find("-L15000\n"), std::string::npos);
  EXPECT_NE(Diff.find("+appended\n"), std::string::npos);
  EXPECT_EQ(countEdits(Old, New), 5u);
}

TEST(TextDiff, LargeUnrelatedInputsFinish) {
  // Worst case for O(ND): nothing in common. Linear space keeps it bounded.
  std::string Old, New;
  for (int I = 0; I < 5000; ++I) {
    Old += "old " + std::to_string(I) + "\n";
    New += "new " + std::to_string(I) + "\n";
  }
  auto Start = std::chrono::steady_clock::now();
  EXPECT_EQ(countEdits(Old, New), 10000u);
  auto Ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::steady_clock::now() - Start)
                .count();
  std::printf("5 000 against 5 000 unrelated lines: %lld ms\n", (long long)Ms);
}

// Lines found on one side only are set aside before the search; the diff
// must still be minimal: |Old| + |New| - 2 * LCS edits, the LCS computed here
// by dynamic programming.
TEST(TextDiff, MinimalAgainstDynamicProgramming) {
  std::mt19937 Rng(7);
  for (int Round = 0; Round < 300; ++Round) {
    auto randomLines = [&](int Lines) {
      std::vector<std::string> V;
      for (int I = 0; I < Lines; ++I)
        V.push_back(Rng() % 4 == 0 ? "unique " + std::to_string(Rng())
                                   : std::string(1, char('a' + Rng() % 6)));
      return V;
    };
    std::vector<std::string> A = randomLines(Rng() % 40),
                             B = randomLines(Rng() % 40);
    std::vector<std::vector<size_t>> L(A.size() + 1,
                                       std::vector<size_t>(B.size() + 1, 0));
    for (size_t I = A.size(); I-- > 0;)
      for (size_t J = B.size(); J-- > 0;)
        L[I][J] = A[I] == B[J] ? L[I + 1][J + 1] + 1
                               : std::max(L[I + 1][J], L[I][J + 1]);
    std::string Old, New;
    for (const std::string &S : A)
      Old += S + "\n";
    for (const std::string &S : B)
      New += S + "\n";
    EXPECT_EQ(countEdits(Old, New), A.size() + B.size() - 2 * L[0][0])
        << "round " << Round;
    expectReconstructs(Old, New);
  }
}

// What GlobalDCE does to a module of thousands of functions: whole
// functions vanish all over the text, between lines both sides share.
TEST(TextDiff, ManyScatteredDeletionsStayFast) {
  std::string Old, New;
  for (int F = 0; F < 20000; ++F) {
    std::string Fn = "define void @f" + std::to_string(F) + "() {\n" +
                     "  %x = call i32 @g" + std::to_string(F) + "()\n" +
                     "  ret void\n}\n\n";
    Old += Fn;
    if (F % 2 == 0)
      New += Fn;
  }
  auto Start = std::chrono::steady_clock::now();
  EXPECT_EQ(countEdits(Old, New), 10000u * 5);
  auto Ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::steady_clock::now() - Start)
                .count();
  std::printf("100 000 lines, 10 000 functions deleted: %lld ms\n",
              (long long)Ms);
}

// What `prism pipeline --grep` and the Pipeline panel's line filter count:
// lines made or removed, not lines rewritten.
TEST(TextDiff, LinesContainingDeltaCountsMadeAndRemovedLines) {
  std::string Before = "%1 = fmul float %a, %b\n%2 = fadd float %1, %c\n"
                       "call void @throw(i32 1)\ncall void @throw(i32 2)\n";
  std::string After = "%1 = call float @llvm.fma.f32(float %a, float %b, "
                      "float %c)\ncall void @throw(i32 2)\n";
  std::string D = unifiedDiff(Before, After);
  EXPECT_EQ(linesContainingDelta(D, "fma"), 1);
  EXPECT_EQ(linesContainingDelta(D, "fmul"), -1);
  EXPECT_EQ(linesContainingDelta(D, "@throw"), -1);
  EXPECT_EQ(linesContainingDelta(D, "nothing"), 0);
  // A renumbering rewrites a line without making or removing one; the
  // diff's own header does not count either.
  std::string R =
      unifiedDiff("%3 = fmul float %x, %y\n", "%2 = fmul float %x, %y\n",
                  "fmul before", "fmul after");
  EXPECT_EQ(linesContainingDelta(R, "fmul"), 0);
}
