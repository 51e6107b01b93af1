/// \file
/// What the GUI's panels must index in a report before they can draw it:
/// each stage's line starts and its correlation with the open file's lines.
/// The Workspace's worker builds one whenever a job's code changes and
/// publishes it beside the report, so the GUI thread never splits or maps a
/// large program's 20 000-line texts in a frame (that took 10-16 ms of the
/// frame that took a recompile's result).
#pragma once

#include "cache/JobReport.h"
#include "cache/LineCorrelation.h"
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
  const std::string &file() const { return File; }
  /// Whether this indexes R's texts against File. The reports published
  /// after the code (resources, the cache's figures) share its stages, and
  /// so its index.
  bool describes(const JobReport &R, std::string_view OpenFile) const {
    return Texts.sharesWith(R.Stages) && OpenFile == File;
  }

private:
  struct StageIndex {
    TextLines Lines;
    LineMap Map;
  };
  /// The stages indexed: held so that the TextLines' views stay valid
  /// however long the index outlives the report it was built from.
  decltype(JobReport::Stages) Texts;
  std::string File;
  std::array<StageIndex, size_t(Stage::NumStages)> Stages;
};

using ReportIndexRef = std::shared_ptr<const ReportIndex>;

/// Index for R against File: Reuse when it already describes them, else a
/// new one (null when R is).
ReportIndexRef indexReport(const JobReportRef &R, const std::string &File,
                           const ReportIndexRef &Reuse);

} // namespace prism
