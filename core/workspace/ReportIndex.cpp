#include "ReportIndex.h"

namespace prism {

ReportIndex::ReportIndex(const JobReport &R, std::string File)
    : Texts(R.Stages), Notes(R.Remarks), File(std::move(File)) {
  for (size_t S = 0; S < size_t(Stage::NumStages); ++S) {
    const StageOutput &Out = Texts[S];
    if (!Out.Present)
      continue;
    Stages[S].Lines = TextLines(Out.Text);
    Stages[S].Map = LineMap(Out.Lines, this->File);
    for (uint32_t L : Stages[S].Map.sourceLinesWithOutput()) {
      if (Counts.size() <= L)
        Counts.resize(L + 1, {});
      Counts[L][S] = Stages[S].Map.outputLinesFor(L).size();
    }
  }
  // Grouping keys every remark by its text and frames: 4-5 ms of a frame
  // for a large program's thousands of remarks.
  for (const RemarkGroup &G : groupRemarks(Notes)) {
    if (G.First->Kind != RemarkKind::Missed)
      continue;
    uint32_t L = remarkLineInFile(*G.First, this->File);
    if (!L)
      continue;
    if (Missed.size() <= L)
      Missed.resize(L + 1);
    Missed[L].push_back(G.First);
  }
}

ReportIndexRef indexReport(const JobReportRef &R, const std::string &File,
                           const ReportIndexRef &Reuse) {
  if (!R)
    return nullptr;
  if (Reuse && Reuse->describes(*R, File))
    return Reuse;
  return std::make_shared<const ReportIndex>(*R, File);
}

} // namespace prism
