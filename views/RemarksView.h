/// \file
/// The selected job's optimisation remarks (JobReport::Remarks): what each
/// LLVM pass did, did not do, and why, at the source line it concerns,
/// through inlining. Filterable by kind and by pass or text; identical
/// remarks at one place are one row with a count. Hovering a row lights
/// its line in the Source view and every pane, clicking pins it.
#pragma once

#include "cache/Remarks.h"
#include "ViewContext.h"

#include <array>
#include <string>
#include <vector>

namespace prism::views {

class RemarksView {
public:
  /// Draws into the current window (the Pipeline window's Remarks tab).
  void drawContent(ViewContext &Ctx);

  /// One row on screen.
  struct Row {
    const OptRemark *Remark = nullptr;
    size_t Count = 0;
    uint32_t SourceLine = 0; ///< in the open file; 0: elsewhere or unknown
  };
  /// The rows that pass the filters, by source line (tests).
  const std::vector<Row> &rows() const { return Rows; }
  void setShown(RemarkKind K, bool On) { ShowKind[size_t(K)] = On; Dirty = true; }
  void setFilter(std::string F) { Filter = std::move(F); Dirty = true; }

private:
  void rebuild(const JobReport &R, const std::string &OpenFile);

  JobReportRef Shown;
  std::string ShownFile;
  /// Missed and analysis: what did not happen, and why (why a kernel is
  /// slow); what the passes did is one tick away.
  std::array<bool, 3> ShowKind = {false, true, true};
  std::string Filter;
  bool Dirty = true;
  std::vector<Row> Rows;
  size_t Total = 0; ///< rows before filtering
};

} // namespace prism::views
