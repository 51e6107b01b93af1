/// \file
/// What the GUI's panels must index in a report before they can draw it:
/// each stage's line starts and its correlation with the open file's lines,
/// and the Source gutter's marks (output lines per source line, the missed
/// optimisations at each).
/// The Workspace's worker builds one whenever a job's code changes and
/// publishes it beside the report, so the GUI thread never splits or maps a
/// large program's 20 000-line texts in a frame (that took 10-16 ms of the
/// frame that took a recompile's result).
#pragma once

#include "cache/JobReport.h"
#include "cache/LineCorrelation.h"
#include "cache/Remarks.h"
#include "support/TextLines.h"

#include <array>
#include <memory>
#include <string>
#include <string_view>

namespace prism {

class ReportIndex {
public:
  /// Indexes every stage R has, correlated with the lines of File.
  ReportIndex(const JobReport &R, std::string File);

  const TextLines &lines(Stage S) const { return Stages[size_t(S)].Lines; }
  const LineMap &map(Stage S) const { return Stages[size_t(S)].Map; }

  using StageCounts = std::array<uint32_t, size_t(Stage::NumStages)>;
  /// Per line of File (1-based; shorter when the last lines produced
  /// nothing): how many output lines of each stage come from it.
  const std::vector<StageCounts> &outputCounts() const { return Counts; }
  /// Per line of File: the missed-optimisation remarks about it, one per
  /// group of identical ones (groupRemarks).
  const std::vector<std::vector<const OptRemark *>> &missedByLine() const {
    return Missed;
  }

  /// Whether this indexes R's texts and remarks against File. The reports
  /// published after the code (resources, the cache's figures) share them,
  /// and so its index.
  bool describes(const JobReport &R, std::string_view OpenFile) const {
    return Texts.sameAs(R.Stages) && Notes.sameAs(R.Remarks) &&
           OpenFile == File;
  }

private:
  struct StageIndex {
    TextLines Lines;
    LineMap Map;
  };
  /// The stages and remarks indexed: held so that the views into them stay
  /// valid however long the index outlives the report it was built from.
  decltype(JobReport::Stages) Texts;
  decltype(JobReport::Remarks) Notes;
  std::string File;
  std::array<StageIndex, size_t(Stage::NumStages)> Stages;
  std::vector<StageCounts> Counts;
  std::vector<std::vector<const OptRemark *>> Missed;
};

using ReportIndexRef = std::shared_ptr<const ReportIndex>;

/// Index for R against File: Reuse when it already describes them, else a
/// new one (null when R is).
ReportIndexRef indexReport(const JobReportRef &R, const std::string &File,
                           const ReportIndexRef &Reuse);

} // namespace prism
