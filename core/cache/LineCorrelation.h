/// \file
/// Source ↔ output line correlation that follows inlining. The GUI's panels
/// use it (through workspace/ReportIndex.h, built on the worker) and it is
/// unit-tested without a window.
///
/// A stage's `LineOrigin` lists the frames of an output line from the
/// innermost (the inlined callee's own line) outwards to the job's function.
/// Compiler Explorer keeps only the innermost frame, so code inlined from a
/// callee maps to the callee and never to the line that called it. Here an
/// output line belongs to *every* line of the open file on its inlining
/// stack: the callee's line directly (depth 0) and each call site through
/// inlining (depth ≥ 1).
#pragma once

#include "cache/JobReport.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace prism {

/// True when a frame's file names the open file: the same path, or the same
/// base name when one side is relative (reports may carry either).
bool sameSourceFile(std::string_view FrameFile, std::string_view OpenFile);

/// One correlation between an output line and a source line.
struct LineLink {
  uint32_t Line = 0;  ///< output line (0-based) or source line (1-based)
  uint32_t Depth = 0; ///< frame index: 0 = innermost, ≥1 = a call site
  bool inlined() const { return Depth > 0; }
};

/// The index of one stage's line origins against one source file. Built
/// once per (report, stage); lookups are O(1) plus the answer's size.
class LineMap {
public:
  LineMap() = default;
  LineMap(const std::vector<LineOrigin> &Origins, std::string_view OpenFile);

  /// Output lines (0-based, increasing) whose inlining stack passes through
  /// source line SrcLine (1-based), each with the depth of that frame.
  const std::vector<LineLink> &outputLinesFor(uint32_t SrcLine) const;
  /// Source lines (1-based) of the open file on output line OutLine's
  /// inlining stack, innermost first, without repeats.
  std::vector<LineLink> sourceLinesOf(uint32_t OutLine) const;
  /// The colour key of an output line: its innermost frame in the open file
  /// (0 when the line has none).
  uint32_t primarySourceLine(uint32_t OutLine) const;
  /// Number of output lines that map to some line of the open file.
  uint32_t mappedOutputLines() const { return Mapped; }
  /// Source lines (1-based, increasing) that produced any output line.
  std::vector<uint32_t> sourceLinesWithOutput() const;

private:
  std::vector<std::vector<LineLink>> BySource; ///< indexed by source line
  std::vector<uint32_t> OutStart;              ///< CSR offsets into OutLinks
  std::vector<LineLink> OutLinks;
  uint32_t Mapped = 0;
};

} // namespace prism
