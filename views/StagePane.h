/// \file
/// One output stage of the selected job (typed IR, LLVM IR raw/optimised,
/// assembly) as a coloured, virtualised listing with find, copy, optional
/// columns and inlining-aware correlation with the Source view. The shell
/// creates one instance per stage; each keeps its own scroll position and
/// find query per job.
#pragma once

#include "CodeListing.h"
#include "Correlation.h"
#include "ViewContext.h"
#include "support/TextLines.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace prism::views {

class StagePane {
public:
  /// Stages lists the stages this pane can show (the first by default):
  /// the typed-IR pane toggles between un-inlined and inlined typed IR.
  StagePane(std::string Title, std::vector<Stage> Stages);

  /// Draws the pane's window; *Open is the View menu's toggle.
  void draw(ViewContext &Ctx, bool *Open);
  /// Draws the pane's contents into the current window.
  void drawContent(ViewContext &Ctx);

  const std::string &title() const { return Title; }
  Stage stage() const { return Stages[StageIndex]; }

  /// Opens the find bar with a query (the Ctrl+F path, and tests).
  void find(std::string Query);
  /// Scrolls so that row Row is at the top next frame (`--bench-scroll`).
  void scrollToRow(uint32_t Row) {
    PendingScroll =
        static_cast<int32_t>(Row % std::max<size_t>(Lines->size(), 1));
    PendingScrollTop = true;
  }
  /// The index the pane draws from (tests).
  const ReportIndex *index() const { return Index.get(); }
  /// Lines matching the current query (tests, the "n/m" counter).
  const std::vector<uint32_t> &findHits() const { return Hits; }

  /// What the last frame lit for the hovered or pinned source line
  /// (`gui --list-windows`, tests): how many rows, the first (1-based, as
  /// the gutter numbers it) and whether any lit row was wholly on screen.
  struct LitSummary {
    uint32_t Source = 0, Rows = 0, FirstRow = 0;
    bool OnScreen = false;
    std::string Elsewhere; ///< the hint shown when no row is lit
  };
  LitSummary litSummary() const;

  bool ShowLineNumbers = true;
  bool ShowSourceColumn = true;
  bool TintMappedLines = true; ///< Compiler Explorer-style colour per source line

private:
  struct JobUi {
    uint32_t TopRow = 0;
    std::string Query;
    int32_t CurrentHit = -1;
    int32_t SelectedRow = -1;
    bool Positioned = false; ///< scrolled to the entry once
  };
  void load(const JobReport *R, const GuiSnapshot &Snap);
  void drawToolbar(ViewContext &Ctx, const JobEntry &J);
  bool drawFindBar(ViewContext &Ctx);
  void refreshHits();
  void stepHit(int Dir);
  void drawElsewhereHint(ViewContext &Ctx, uint32_t Source);

  std::string Title;
  std::vector<Stage> Stages;
  size_t StageIndex = 0;

  /// Where the pinned line's code is when this stage has none of it.
  std::string ElsewhereHint;

  // What is on screen: the report is held so that the views into its text
  // stay valid even after the Workspace publishes a newer one.
  JobReportRef Shown;
  Stage ShownStage = Stage::NumStages;
  std::string ShownFile;
  ReportIndexRef Index;              ///< the Workspace's index of Shown's texts
  const TextLines *Lines = &NoLines; ///< the shown stage's, in Index
  const LineMap *Map = &NoMap;
  static inline const TextLines NoLines;
  static inline const LineMap NoMap;
  Syntax Lang = Syntax::Plain;

  JobId ShownJob = 0;
  std::unordered_map<JobId, JobUi> PerJob;
  int32_t PendingScroll = -1;
  uint32_t LastFirst = 0, LastLast = 0; ///< rows wholly visible last frame
  /// The pinned source line whose rows this pane has shown: until they
  /// are on screen, each frame scrolls to them, so a pin made before this
  /// stage's text arrived, or before the layout settled, still shows.
  uint32_t ScrolledForPin = 0, ScrolledSpan = 0;
  bool PendingScrollTop = false;
  bool FindOpen = false, FocusFind = false;
  std::vector<uint32_t> Hits;
  std::string HitsQuery;

  // Rows lit by the current correlation: depth+1 per row (0 = unlit).
  uint32_t LitFor = 0;
  std::vector<uint8_t> LitDepth;
  // The scrollbar's marks: rebuilt every frame, kept for the capacity.
  std::vector<OverviewMark> Overview;
};

} // namespace prism::views
