/// \file
/// Diffs prepared for display: the pass pipeline's unified diffs and the
/// Compare view's line diffs become one text plus a kind and old/new line
/// numbers per row, so that the listing widget can colour them. Pure.
#pragma once

#include "support/TextDiff.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace prism::views {

struct DiffText {
  enum RowKind : char {
    Same = ' ',
    Added = '+',
    Removed = '-',
    Hunk = '@',   ///< `@@ -a,b +c,d @@`
    Header = 'h', ///< `--- before` / `+++ after`
  };
  std::string Text; ///< one row a line, without the +/- sign
  std::vector<RowKind> Kinds;
  std::vector<uint32_t> OldNo, NewNo; ///< 1-based; 0 when absent
  uint32_t NumAdded = 0, NumRemoved = 0;
};

DiffText diffTextFromLines(const std::vector<DiffLine> &Lines);
/// Parses `diff -u` output (as PassSnapshot::Diff holds).
DiffText diffTextFromUnified(std::string_view Unified);
/// Whether a unified diff of LLVM IR adds or removes a line that is not
/// only a comment (`; Function Attrs: ...`) or an attribute group.
bool diffChangesCode(std::string_view Unified);

} // namespace prism::views
