/// \file
/// The open kernel source: an editor with line numbers that posts
/// `EditSource` on every change (the Workspace debounces), gutter marks for
/// lines that produced output in the selected job (in their correlation
/// colour) and for diagnostics, hover/pin correlation with the stage panes,
/// and the diagnostics listed below (click to jump).
#pragma once

#include "Correlation.h"
#include "ViewContext.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace prism::views {

class SourceView {
public:
  void draw(ViewContext &Ctx, bool *Open);
  void drawContent(ViewContext &Ctx);

  /// The editor's text (tests).
  const std::string &buffer() const { return Buffer; }
  /// Scrolls to a 1-based line and pins it (diagnostic clicks, tests).
  void jumpTo(uint32_t Line) { JumpLine = Line; }
  /// The first and last source lines the editor showed in the last frame
  /// (about: a line cut at an edge may count).
  std::pair<uint32_t, uint32_t> shownLines() const { return ShownLines; }
  /// Diagnostics marked on a line last frame (tests).
  size_t diagnosticsOn(uint32_t Line) const {
    return Line < MarksByLine.size() ? MarksByLine[Line].size() : 0;
  }
  /// Distinct missed-optimisation remarks marked on a line (tests).
  size_t missedRemarksOn(uint32_t Line) const {
    return Line < missedByLine().size() ? missedByLine()[Line].size() : 0;
  }

private:
  struct Mark {
    Severity Sev;
    std::string Message;
  };
  void sync(const GuiSnapshot &Snap);
  void indexReport(const JobEntry *J, const std::string &File);
  void collectDiagnostics(ViewContext &Ctx);
  void drawEditor(ViewContext &Ctx);
  void drawDiagnostics(ViewContext &Ctx);
  float diagnosticsHeight() const;
  /// Notes shown under a diagnostic; the rest are in its tooltip.
  static constexpr size_t ShownNotes = 6;

  std::string Buffer;
  uint64_t SyncedRevision = ~0ull;
  std::string SyncedPath, SyncedText;
  uint32_t JumpLine = 0;
  uint32_t ScrolledForPin = 0; ///< the pinned line last brought on screen
  std::pair<uint32_t, uint32_t> ShownLines{0, 0};
  /// The job whose function the editor last revealed (scrolled to when
  /// none of it was on screen): a newly selected job's is revealed once
  /// its report is indexed.
  JobId RevealedJob = 0;

  /// The selected report's index, for the gutter: output lines of each
  /// stage per source line and the missed optimisations at each.
  ReportIndexRef Gutter;
  const std::vector<ReportIndex::StageCounts> &outputCount() const;
  const std::vector<std::vector<const OptRemark *>> &missedByLine() const;

  std::vector<const Diagnostic *> Diags; ///< this frame's, sorted by line
  std::vector<std::vector<Mark>> MarksByLine;
  float DiagPaneH = 110;
};

} // namespace prism::views
