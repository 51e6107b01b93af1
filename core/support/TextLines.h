/// \file
/// A line index over a text (IR, asm, source), built once per report (by
/// the Workspace's worker, see workspace/ReportIndex.h) so that a
/// 20 000-line output is split once, never in a frame, plus the
/// case-insensitive find used by the panes' Ctrl+F. Pure, no ImGui.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace prism {

class TextLines {
public:
  TextLines() = default;
  /// Indexes Text, which must outlive this object (its holder keeps the
  /// report's stages).
  explicit TextLines(std::string_view Text);

  uint32_t size() const { return Starts.size(); }
  bool empty() const { return Starts.empty(); }
  /// Line I (0-based) without its newline (and without a trailing '\r').
  std::string_view line(uint32_t I) const;
  std::string_view text() const { return Text; }
  /// Length of the longest line, in bytes (for horizontal scrolling).
  uint32_t longestLine() const { return Longest; }

private:
  std::string_view Text;
  std::vector<uint32_t> Starts;
  uint32_t Longest = 0;
};

/// Lines (0-based, increasing) that contain Needle, ignoring ASCII case.
std::vector<uint32_t> findLines(const TextLines &Lines,
                                std::string_view Needle);

/// Byte offsets of every occurrence of Needle in Line, ignoring ASCII case.
std::vector<uint32_t> findInLine(std::string_view Line,
                                 std::string_view Needle);
/// Whether Hay contains Needle ignoring ASCII case (an empty one: yes).
inline bool containsNoCase(std::string_view Hay, std::string_view Needle) {
  return Needle.empty() || !findInLine(Hay, Needle).empty();
}

/// The line where a stage's text defines the job's entry: `define ...
/// @julia_f(` in LLVM IR, the `julia_f:` label or `.entry julia_f` in
/// assembly (the backend may have replaced `!` by `_`). None for typed IR
/// (it starts with the entry) or when not found.
std::optional<uint32_t> entryDefinitionLine(const TextLines &L, bool IsAsm,
                                            std::string_view Entry);

} // namespace prism
