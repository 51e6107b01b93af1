/// \file
/// Line diffs of text (IR, asm): the pass pipeline and the Compare view both
/// show them. Pure functions, unit-tested without a window.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace prism {

struct DiffLine {
  enum Kind : char { Same = ' ', Added = '+', Removed = '-' } K;
  std::string Text;
  int OldLine = -1; ///< 0-based line in the old text (Same/Removed)
  int NewLine = -1; ///< 0-based line in the new text (Same/Added)
};

/// A minimal line diff (Myers' O(ND) algorithm).
std::vector<DiffLine> diffLines(std::string_view Old, std::string_view New);

/// Lines added and removed by a unified diff (`unifiedDiff`'s text),
/// without building rows.
struct DiffCounts {
  uint32_t Added = 0, Removed = 0;
};
DiffCounts countUnified(std::string_view Unified);

/// How many lines containing \p Text a unified diff adds, less those it
/// removes: nonzero when the change made or removed such lines (an fma, a
/// throw), zero when it only rewrote them (renumbered values).
int linesContainingDelta(std::string_view Unified, std::string_view Text);

/// `diff -u` style text with `@@ -a,b +c,d @@` hunks and Context lines around
/// each change; empty when the texts are equal.
std::string unifiedDiff(std::string_view Old, std::string_view New,
                        std::string_view OldName = "before",
                        std::string_view NewName = "after",
                        unsigned Context = 3);

} // namespace prism
