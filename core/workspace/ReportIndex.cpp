#include "ReportIndex.h"

namespace prism {

ReportIndex::ReportIndex(const JobReport &R, std::string File)
    : Texts(R.Stages), File(std::move(File)) {
  for (size_t S = 0; S < size_t(Stage::NumStages); ++S) {
    const StageOutput &Out = Texts[S];
    if (!Out.Present)
      continue;
    Stages[S].Lines = TextLines(Out.Text);
    Stages[S].Map = LineMap(Out.Lines, this->File);
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
