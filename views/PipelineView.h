/// \file
/// The selected job's optimisation pipeline, pass by pass: the passes that
/// changed something (filterable by pass name, by function, and by the
/// lines a pass made or removed, as `prism pipeline --grep`), and the
/// diff of the selected pass with +/- colouring — Compiler Explorer's
/// opt-pipeline view, from in-process PassSnapshots. A second tab lists
/// the passes' optimisation remarks (RemarksView).
#pragma once

#include "CodeListing.h"
#include "DiffModel.h"
#include "RemarksView.h"
#include "ViewContext.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace prism::views {

class PipelineView {
public:
  void draw(ViewContext &Ctx, bool *Open);
  void drawContent(ViewContext &Ctx);

  /// Indices into JobReport::Passes that pass the current filters (tests).
  const std::vector<uint32_t> &visiblePasses() const { return Visible; }
  void setNameFilter(std::string F) { PerJob[ShownJob].NameFilter = std::move(F); }
  void setLineFilter(std::string F) {
    PerJob[ShownJob].LineFilter = std::move(F);
  }
  void setChangedOnly(bool On) { PerJob[ShownJob].ChangedOnly = On; }
  /// With a line filter: per visible pass, lines holding it added less
  /// removed (tests).
  int lineDelta(uint32_t Pass) const {
    return Pass < Deltas.size() ? Deltas[Pass] : 0;
  }
  void selectPass(int32_t Index) { PerJob[ShownJob].Selected = Index; }
  RemarksView &remarks() { return Remarks; }
  /// Brings the Remarks tab to the front on the next frame.
  void showRemarks() { SelectRemarks = true; }

private:
  struct JobUi {
    std::string NameFilter;
    /// Only passes that changed how many lines contain this (`prism
    /// pipeline --grep`); empty: all.
    std::string LineFilter;
    std::string Function; ///< empty: all functions
    bool ChangedOnly = true;
    int32_t Selected = -1; ///< index into Passes
  };
  void load(const JobEntry &J);
  void filter(const JobReport &R, const JobUi &U);
  void countLines(const JobReport &R, const std::string &Text);
  void prepareDiff(const JobReport &R, int32_t Index);

  JobReportRef Shown;
  JobId ShownJob = 0;
  std::unordered_map<JobId, JobUi> PerJob;
  std::vector<std::optional<DiffCounts>> Counts; ///< per pass, once drawn
  std::vector<int> Deltas;                       ///< per pass, for DeltasFor
  std::string DeltasFor;                   ///< the line filter Deltas count
  std::vector<std::string> Functions;      ///< distinct, sorted
  std::vector<uint32_t> Visible;
  // The diff on screen.
  int32_t DiffFor = -1;
  DiffText Diff;
  TextLines DiffLinesIndex;
  RemarksView Remarks; ///< the window's second tab
  bool SelectRemarks = false;
};

} // namespace prism::views
