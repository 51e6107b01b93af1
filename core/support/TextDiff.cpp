//===- TextDiff.cpp - Myers line diff and unified diff text ---------------===//
//
// The diff runs on interned line ids rather than on strings, so that the
// inner "follow the snake" loop compares integers. Lines found on one side
// only are taken out before the search, and common prefixes and suffixes are
// stripped: a pass usually changes a few lines of a long function, and
// stripping turns that case into a tiny search.
//
// The search is the linear-space variant of Myers' algorithm ("An O(ND)
// Difference Algorithm and Its Variations", 1986, section 4b): find the middle
// snake of the shortest edit script by running the greedy search from both
// ends at once, then recurse on both halves. Keeping the full per-D frontier
// history instead would cost O(D^2) memory, which two unrelated 20 000-line
// texts would turn into gigabytes.
//
//===----------------------------------------------------------------------===//

#include "support/TextDiff.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cassert>
#include <cstdint>

using namespace prism;

namespace {

/// Splits at '\n'. A final line without a newline is still a line; a final
/// newline does not start an empty one (so "a\n" and "a" are both one line).
std::vector<std::string_view> splitLines(std::string_view Text) {
  std::vector<std::string_view> Lines;
  size_t Pos = 0;
  while (Pos < Text.size()) {
    size_t End = Text.find('\n', Pos);
    if (End == std::string_view::npos)
      End = Text.size();
    Lines.push_back(Text.substr(Pos, End - Pos));
    Pos = End + 1;
  }
  return Lines;
}

/// The edit script as two "changed" bitmaps, one per side (as GNU diff keeps
/// it): a removed old line or an added new line is marked true.
class MyersDiff {
public:
  MyersDiff(const std::vector<uint32_t> &A, const std::vector<uint32_t> &B)
      : A(A), B(B), RemovedA(A.size(), false), AddedB(B.size(), false) {}

  void run() { compare(0, A.size(), 0, B.size()); }

  std::vector<bool> takeRemoved() { return std::move(RemovedA); }
  std::vector<bool> takeAdded() { return std::move(AddedB); }

private:
  const std::vector<uint32_t> &A;
  const std::vector<uint32_t> &B;
  std::vector<bool> RemovedA;
  std::vector<bool> AddedB;

  /// Diffs A[ALo, AHi) against B[BLo, BHi).
  void compare(size_t ALo, size_t AHi, size_t BLo, size_t BHi) {
    // Strip the common prefix and suffix: they are never part of an edit.
    while (ALo < AHi && BLo < BHi && A[ALo] == B[BLo])
      ++ALo, ++BLo;
    while (ALo < AHi && BLo < BHi && A[AHi - 1] == B[BHi - 1])
      --AHi, --BHi;

    if (ALo == AHi) {
      std::fill(AddedB.begin() + BLo, AddedB.begin() + BHi, true);
      return;
    }
    if (BLo == BHi) {
      std::fill(RemovedA.begin() + ALo, RemovedA.begin() + AHi, true);
      return;
    }

    size_t SplitA, SplitB;
    if (!middleSnake(ALo, AHi, BLo, BHi, SplitA, SplitB)) {
      // No common line at all: replace the whole range.
      std::fill(RemovedA.begin() + ALo, RemovedA.begin() + AHi, true);
      std::fill(AddedB.begin() + BLo, AddedB.begin() + BHi, true);
      return;
    }
    compare(ALo, SplitA, BLo, SplitB);
    compare(SplitA, AHi, SplitB, BHi);
  }

  /// Finds a point (SplitA, SplitB) on an optimal edit path through the
  /// middle of the edit graph of A[ALo, AHi) × B[BLo, BHi). Both ranges are
  /// non-empty. Returns false when the forward and backward searches never
  /// meet before D = ceil((N + M) / 2) (no common subsequence worth taking).
  bool middleSnake(size_t ALo, size_t AHi, size_t BLo, size_t BHi,
                   size_t &SplitA, size_t &SplitB) {
    const int64_t N = AHi - ALo, M = BHi - BLo;
    const int64_t MaxD = (N + M + 1) / 2;
    const int64_t Offset = MaxD;
    const int64_t VSize = 2 * MaxD + 2;
    // Forward[k]: furthest x reached on diagonal k (k = x - y) from the top
    // left; Backward[k]: the same from the bottom right in reversed
    // coordinates. -1 marks a diagonal not reached yet.
    std::vector<int64_t> Forward(VSize, -1), Backward(VSize, -1);
    Forward[Offset + 1] = 0;
    Backward[Offset + 1] = 0;
    const int64_t Delta = N - M;
    // With an odd delta the paths can only meet while extending forward.
    const bool MeetForward = (Delta % 2) != 0;
    // Diagonals that ran off the edit graph are trimmed from later rounds.
    int64_t K1Start = 0, K1End = 0, K2Start = 0, K2End = 0;

    auto a = [&](int64_t X) { return A[ALo + X]; };
    auto b = [&](int64_t Y) { return B[BLo + Y]; };

    for (int64_t D = 0; D < MaxD; ++D) {
      for (int64_t K1 = -D + K1Start; K1 <= D - K1End; K1 += 2) {
        int64_t K1Off = Offset + K1;
        int64_t X1;
        if (K1 == -D || (K1 != D && Forward[K1Off - 1] < Forward[K1Off + 1]))
          X1 = Forward[K1Off + 1];
        else
          X1 = Forward[K1Off - 1] + 1;
        int64_t Y1 = X1 - K1;
        while (X1 < N && Y1 < M && a(X1) == b(Y1))
          ++X1, ++Y1;
        Forward[K1Off] = X1;
        if (X1 > N) {
          K1End += 2;
        } else if (Y1 > M) {
          K1Start += 2;
        } else if (MeetForward) {
          int64_t K2Off = Offset + Delta - K1;
          if (K2Off >= 0 && K2Off < VSize && Backward[K2Off] != -1) {
            int64_t X2 = N - Backward[K2Off];
            if (X1 >= X2) {
              SplitA = ALo + X1;
              SplitB = BLo + Y1;
              return true;
            }
          }
        }
      }

      for (int64_t K2 = -D + K2Start; K2 <= D - K2End; K2 += 2) {
        int64_t K2Off = Offset + K2;
        int64_t X2;
        if (K2 == -D || (K2 != D && Backward[K2Off - 1] < Backward[K2Off + 1]))
          X2 = Backward[K2Off + 1];
        else
          X2 = Backward[K2Off - 1] + 1;
        int64_t Y2 = X2 - K2;
        while (X2 < N && Y2 < M && a(N - X2 - 1) == b(M - Y2 - 1))
          ++X2, ++Y2;
        Backward[K2Off] = X2;
        if (X2 > N) {
          K2End += 2;
        } else if (Y2 > M) {
          K2Start += 2;
        } else if (!MeetForward) {
          int64_t K1Off = Offset + Delta - K2;
          if (K1Off >= 0 && K1Off < VSize && Forward[K1Off] != -1) {
            int64_t X1 = Forward[K1Off];
            int64_t Y1 = Offset + X1 - K1Off;
            if (X1 >= N - X2) {
              SplitA = ALo + X1;
              SplitB = BLo + Y1;
              return true;
            }
          }
        }
      }
    }
    return false;
  }
};

} // namespace

std::vector<DiffLine> prism::diffLines(std::string_view Old,
                                       std::string_view New) {
  std::vector<std::string_view> OldLines = splitLines(Old);
  std::vector<std::string_view> NewLines = splitLines(New);

  // Intern lines so that the search compares integers.
  llvm::DenseMap<llvm::StringRef, uint32_t> Ids;
  Ids.reserve(OldLines.size() + NewLines.size());
  auto intern = [&](const std::vector<std::string_view> &Lines) {
    std::vector<uint32_t> Out;
    Out.reserve(Lines.size());
    for (std::string_view L : Lines)
      Out.push_back(
          Ids.try_emplace(llvm::StringRef(L.data(), L.size()), Ids.size())
              .first->second);
    return Out;
  };
  std::vector<uint32_t> A = intern(OldLines);
  std::vector<uint32_t> B = intern(NewLines);

  // A line that occurs on one side only can never be matched: it is marked
  // changed here, and the search runs on the other lines (GNU diff discards
  // them too). The diff stays minimal, since a common subsequence only holds
  // lines both sides have; and a module pass that deletes whole functions,
  // thousands of lines found nowhere else, no longer makes the search
  // quadratic.
  std::vector<uint32_t> InA(Ids.size(), 0), InB(Ids.size(), 0);
  for (uint32_t Id : A)
    ++InA[Id];
  for (uint32_t Id : B)
    ++InB[Id];
  std::vector<bool> Removed(A.size(), false), Added(B.size(), false);
  auto keepMatchable =
      [](const std::vector<uint32_t> &Side,
         const std::vector<uint32_t> &OtherCount, std::vector<bool> &Changed,
         std::vector<uint32_t> &Kept, std::vector<size_t> &Index) {
        for (size_t I = 0; I < Side.size(); ++I) {
          if (OtherCount[Side[I]] == 0) {
            Changed[I] = true;
            continue;
          }
          Kept.push_back(Side[I]);
          Index.push_back(I);
        }
      };
  std::vector<uint32_t> KeptA, KeptB;
  std::vector<size_t> IndexA, IndexB;
  keepMatchable(A, InB, Removed, KeptA, IndexA);
  keepMatchable(B, InA, Added, KeptB, IndexB);

  MyersDiff Diff(KeptA, KeptB);
  Diff.run();
  std::vector<bool> KeptRemoved = Diff.takeRemoved();
  std::vector<bool> KeptAdded = Diff.takeAdded();
  for (size_t I = 0; I < KeptA.size(); ++I)
    if (KeptRemoved[I])
      Removed[IndexA[I]] = true;
  for (size_t J = 0; J < KeptB.size(); ++J)
    if (KeptAdded[J])
      Added[IndexB[J]] = true;

  std::vector<DiffLine> Out;
  Out.reserve(std::max(A.size(), B.size()));
  size_t I = 0, J = 0;
  while (I < A.size() || J < B.size()) {
    // Within a change, removals come before additions, as in `diff -u`.
    if (I < A.size() && Removed[I]) {
      Out.push_back({DiffLine::Removed, std::string(OldLines[I]), int(I), -1});
      ++I;
    } else if (J < B.size() && Added[J]) {
      Out.push_back({DiffLine::Added, std::string(NewLines[J]), -1, int(J)});
      ++J;
    } else {
      assert(I < A.size() && J < B.size() && A[I] == B[J] &&
             "unmarked lines on both sides must be equal");
      Out.push_back({DiffLine::Same, std::string(OldLines[I]), int(I), int(J)});
      ++I, ++J;
    }
  }
  return Out;
}

std::string prism::unifiedDiff(std::string_view Old, std::string_view New,
                               std::string_view OldName,
                               std::string_view NewName, unsigned Context) {
  if (Old == New)
    return {};
  std::vector<DiffLine> Lines = diffLines(Old, New);

  // Hunks are runs of Lines: each change with Context lines either side;
  // two changes closer than 2 * Context share one hunk, as in `diff -u`.
  struct Hunk {
    size_t Begin, End; // [Begin, End) in Lines
  };
  std::vector<Hunk> Hunks;
  for (size_t I = 0; I < Lines.size(); ++I) {
    if (Lines[I].K == DiffLine::Same)
      continue;
    size_t Begin = I >= Context ? I - Context : 0;
    size_t Last = I;
    while (Last + 1 < Lines.size() && Lines[Last + 1].K != DiffLine::Same)
      ++Last;
    size_t End = std::min(Lines.size(), Last + 1 + Context);
    if (!Hunks.empty() && Begin <= Hunks.back().End)
      Hunks.back().End = End;
    else
      Hunks.push_back({Begin, End});
    I = Last;
  }
  if (Hunks.empty())
    return {}; // Only a difference in a final newline, which we do not track.

  std::string Out;
  Out.reserve(Old.size() / 4 + New.size() / 4 + 64);
  Out.append("--- ").append(OldName).append("\n");
  Out.append("+++ ").append(NewName).append("\n");
  for (const Hunk &H : Hunks) {
    // 1-based start lines; an empty side names the line before the hunk
    // (0 at the top), as `diff -u` does. Counts are always printed.
    int OldStart = -1, NewStart = -1, OldCount = 0, NewCount = 0;
    int OldBefore = 0, NewBefore = 0;
    for (size_t I = H.Begin; I < H.End; ++I) {
      const DiffLine &L = Lines[I];
      if (L.OldLine >= 0) {
        if (OldStart < 0)
          OldStart = L.OldLine + 1;
        ++OldCount;
      }
      if (L.NewLine >= 0) {
        if (NewStart < 0)
          NewStart = L.NewLine + 1;
        ++NewCount;
      }
    }
    // For an empty side, find how many of its lines precede the hunk.
    for (size_t I = H.Begin; I-- > 0;) {
      if (OldBefore == 0 && Lines[I].OldLine >= 0)
        OldBefore = Lines[I].OldLine + 1;
      if (NewBefore == 0 && Lines[I].NewLine >= 0)
        NewBefore = Lines[I].NewLine + 1;
      if (OldBefore && NewBefore)
        break;
    }
    if (OldStart < 0)
      OldStart = OldBefore;
    if (NewStart < 0)
      NewStart = NewBefore;

    Out.append("@@ -")
        .append(std::to_string(OldStart))
        .append(",")
        .append(std::to_string(OldCount))
        .append(" +")
        .append(std::to_string(NewStart))
        .append(",")
        .append(std::to_string(NewCount))
        .append(" @@\n");
    for (size_t I = H.Begin; I < H.End; ++I) {
      Out.push_back(static_cast<char>(Lines[I].K));
      Out.append(Lines[I].Text).push_back('\n');
    }
  }
  return Out;
}

namespace {
/// Calls Fn(Sign, Line) for each added ('+') or removed ('-') line of a
/// unified diff, its `---`/`+++` header aside; Line is without the sign.
template <class Fn> void forEachChangedLine(std::string_view U, Fn F) {
  while (!U.empty()) {
    size_t NL = U.find('\n');
    std::string_view L = U.substr(0, NL);
    U = NL == std::string_view::npos ? std::string_view() : U.substr(NL + 1);
    if (L.empty() || L.starts_with("+++ ") || L.starts_with("--- "))
      continue;
    if (L[0] == '+' || L[0] == '-')
      F(L[0], L.substr(1));
  }
}
} // namespace

DiffCounts prism::countUnified(std::string_view U) {
  DiffCounts C;
  forEachChangedLine(U, [&](char Sign, std::string_view) {
    (Sign == '+' ? C.Added : C.Removed) += 1;
  });
  return C;
}

int prism::linesContainingDelta(std::string_view U, std::string_view Text) {
  int Delta = 0;
  forEachChangedLine(U, [&](char Sign, std::string_view Line) {
    if (Line.find(Text) != std::string_view::npos)
      Delta += Sign == '+' ? 1 : -1;
  });
  return Delta;
}
