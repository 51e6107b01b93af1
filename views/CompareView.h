/// \file
/// Two jobs side by side: pick each, see the deltas of every figure (stage
/// times, allocations, resources) and the diff of one chosen stage — e.g.
/// the same kernel at -O2 and -O3, or for ptx and gcn.
#pragma once

#include "CodeListing.h"
#include "DiffModel.h"
#include "ViewContext.h"

#include <optional>
#include <string>
#include <vector>

namespace prism::views {

/// One compared figure; unset sides are unknown for that job.
struct FigureDelta {
  std::string Name;
  std::optional<double> A, B;
  bool LowerIsBetter = true;
  const char *Unit = "";
  /// Not a property of the code: it varies between runs (times), or with
  /// which job compiled first (inference is shared, so the first job's
  /// typed stages did the other's work too). Shown, but as no verdict.
  bool Circumstantial = false;
};
/// Every figure of two reports, in display order (pure; tested). With
/// `LaunchThreads`, ptx jobs also compare their occupancy at that block size.
std::vector<FigureDelta> compareFigures(const JobReport &A, const JobReport &B,
                                        uint64_t LaunchThreads = 0);

class CompareView {
public:
  void draw(ViewContext &Ctx, bool *Open);
  void drawContent(ViewContext &Ctx);
  /// The Run form's block size, for the occupancy figure (0: none).
  void setLaunchThreads(uint64_t N) { LaunchThreads = N; }
  void pick(JobId A, JobId B) {
    JobA = A;
    JobB = B;
  }

private:
  void prepareDiff(const JobReportRef &A, const JobReportRef &B);

  JobId JobA = 0, JobB = 0;
  uint64_t LaunchThreads = 0;
  Stage DiffStage = Stage::Asm;
  bool SideBySide = false;
  // The diff on screen, keyed by the two reports (held, so that their
  // texts stay valid) and the stage.
  JobReportRef DiffA, DiffB;
  Stage DiffOf = Stage::NumStages;
  DiffText Diff;
  TextLines DiffIndex, TextA, TextB;
};

} // namespace prism::views
