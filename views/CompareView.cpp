#include "CompareView.h"

#include "StatsView.h"

#include "cache/Remarks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace prism::views {

std::vector<FigureDelta> compareFigures(const JobReport &A, const JobReport &B,
                                        uint64_t LaunchThreads) {
  std::vector<FigureDelta> F;
  auto Opt = [](const std::optional<int> &V) -> std::optional<double> {
    if (V)
      return double(*V);
    return std::nullopt;
  };
  for (size_t I = 0; I < size_t(Stage::NumStages); ++I) {
    const StageOutput &SA = A.Stages[I], &SB = B.Stages[I];
    std::string N = stageName(Stage(I));
    bool Shared = Stage(I) == Stage::Typed || Stage(I) == Stage::TypedOpt;
    F.push_back(
        {N + " time",
         SA.Present ? std::optional<double>(SA.Measure.WallMs) : std::nullopt,
         SB.Present ? std::optional<double>(SB.Measure.WallMs) : std::nullopt,
         true, " ms", true});
    F.push_back({N + " allocations",
                 SA.Present ? std::optional<double>(SA.Measure.Allocs.Count)
                            : std::nullopt,
                 SB.Present ? std::optional<double>(SB.Measure.Allocs.Count)
                            : std::nullopt,
                 true, "", Shared});
  }
  F.push_back(
      {"total time", totalWallMs(A), totalWallMs(B), true, " ms", true});
  F.push_back({"total allocations", double(totalAllocs(A)),
               double(totalAllocs(B)), true, "", true});
  const ResourceUsage &RA = A.Resources, &RB = B.Resources;
  struct R {
    const char *Name;
    std::optional<int> ResourceUsage::*Field;
    const char *Unit;
  } Rs[] = {{"registers", &ResourceUsage::Registers, ""},
            {"spill stores", &ResourceUsage::Spills, " B"},
            {"spill loads", &ResourceUsage::SpillLoads, " B"},
            {"stack", &ResourceUsage::StackBytes, " B"},
            {"shared memory", &ResourceUsage::SharedBytes, " B"},
            {"local memory", &ResourceUsage::LocalBytes, " B"},
            {"VGPRs", &ResourceUsage::VGPRs, ""},
            {"SGPRs", &ResourceUsage::SGPRs, ""},
            {"scratch", &ResourceUsage::ScratchBytes, " B"},
            {"LDS", &ResourceUsage::LDSBytes, " B"},
            {"instructions", &ResourceUsage::Instructions, ""},
            {"throw sites", &ResourceUsage::ThrowSites, ""}};
  for (const R &X : Rs)
    if (RA.*X.Field || RB.*X.Field)
      F.push_back({X.Name, Opt(RA.*X.Field), Opt(RB.*X.Field), true, X.Unit});
  // What the optimisers could not do (the Remarks tab says why). The
  // ones they made are no figure of merit: less code has fewer.
  auto Missed = [](const JobReport &Rep) {
    return double(countRemarks(Rep.Remarks)[size_t(RemarkKind::Missed)]);
  };
  if (!A.Remarks.empty() || !B.Remarks.empty())
    F.push_back({"missed optimisations", Missed(A), Missed(B), true, ""});
  // How the warps access memory (the prism-access remarks).
  AccessCounts CA = countAccessRemarks(A.Remarks),
               CB = countAccessRemarks(B.Remarks);
  if (CA.total() || CB.total()) {
    F.push_back({"uncoalesced accesses", double(CA.Uncoalesced),
                 double(CB.Uncoalesced), true, ""});
    F.push_back({"bank-conflicted accesses", double(CA.BankConflicts),
                 double(CB.BankConflicts), true, ""});
  }
  // Branches that split warps (the prism-divergence remarks), by how
  // many: `prism report`'s kinds, each where either job has one.
  BranchCounts BA = countBranchRemarks(A.Remarks),
               BB = countBranchRemarks(B.Remarks);
  const struct {
    const char *Name;
    size_t BranchCounts::*Field;
  } Kinds[] = {
      {"divergent in every warp", &BranchCounts::Divergent},
      {"divergent in some warps", &BranchCounts::PartlyDivergent},
      {"divergent at a run-time bound", &BranchCounts::Boundary},
  };
  for (const auto &K : Kinds)
    if (BA.*K.Field || BB.*K.Field)
      F.push_back({K.Name, double(BA.*K.Field), double(BB.*K.Field), true, ""});
  // Occupancy of ptx jobs (percent; higher is better): the best over block
  // sizes, and at the Run form's block size.
  auto Best = [](const JobReport &Rep) -> std::optional<double> {
    std::vector<Occupancy> Curve = reportOccupancy(Rep);
    if (const Occupancy *O = bestOccupancy(Curve))
      return O->fraction() * 100;
    return std::nullopt;
  };
  auto At = [&](const JobReport &Rep) -> std::optional<double> {
    if (std::optional<Occupancy> O = reportOccupancyAt(Rep, LaunchThreads))
      return O->fraction() * 100;
    return std::nullopt;
  };
  if (auto BA = Best(A), BB = Best(B); BA || BB)
    F.push_back({"highest occupancy %", BA, BB, false, " %"});
  if (auto AA = At(A), AB = At(B); AA || AB)
    F.push_back({"occupancy at " + std::to_string(LaunchThreads) + " threads %",
                 AA, AB, false, " %"});
  for (size_t I = 0; I < size_t(Stage::NumStages); ++I) {
    auto Lines = [](const StageOutput &S) -> std::optional<double> {
      if (!S.Present)
        return std::nullopt;
      return double(std::count(S.Text.begin(), S.Text.end(), '\n'));
    };
    F.push_back({std::string(stageName(Stage(I))) + " lines",
                 Lines(A.Stages[I]), Lines(B.Stages[I]), true, ""});
  }
  return F;
}

void CompareView::draw(ViewContext &Ctx, bool *Open) {
  if (Open && !*Open)
    return;
  if (ImGui::Begin("Compare", Open))
    drawContent(Ctx);
  ImGui::End();
}

void CompareView::prepareDiff(const JobReportRef &A, const JobReportRef &B) {
  if (DiffA == A && DiffB == B && DiffOf == DiffStage)
    return;
  DiffA = A;
  DiffB = B;
  DiffOf = DiffStage;
  Diff = diffTextFromLines(
      diffLines(A->stage(DiffStage).Text, B->stage(DiffStage).Text));
  DiffIndex = TextLines(Diff.Text);
  TextA = TextLines(A->stage(DiffStage).Text);
  TextB = TextLines(B->stage(DiffStage).Text);
}

static bool jobCombo(const char *Id, const GuiSnapshot &Snap, JobId &Sel) {
  const JobEntry *Cur = Snap.job(Sel);
  std::string Preview = Cur ? jobLabel(*Cur) : std::string("pick a job");
  bool Changed = false;
  if (ImGui::BeginCombo(Id, Preview.c_str())) {
    for (const JobEntry &J : Snap.Jobs) {
      ImGui::PushID(int(J.Id));
      if (ImGui::Selectable(jobLabel(J).c_str(), J.Id == Sel)) {
        Sel = J.Id;
        Changed = true;
      }
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  return Changed;
}

void CompareView::drawContent(ViewContext &Ctx) {
  const GuiSnapshot &Snap = Ctx.Snap;
  if (Snap.Jobs.size() < 2) {
    drawEmptyState("compare needs two jobs",
                   "add the same kernel at another -O level or for another "
                   "target with Jobs ▸ Add job");
    return;
  }
  // Defaults: the selected job against the next one.
  if (!Snap.job(JobA))
    JobA = Snap.SelectedJob ? Snap.SelectedJob : Snap.Jobs[0].Id;
  if (!Snap.job(JobB) || JobB == JobA)
    for (const JobEntry &J : Snap.Jobs)
      if (J.Id != JobA) {
        JobB = J.Id;
        break;
      }
  float Half = (ImGui::GetContentRegionAvail().x - 40) * 0.5f;
  ImGui::TextDisabled("A");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(Half - 20);
  jobCombo("##a", Snap, JobA);
  ImGui::SameLine();
  ImGui::TextDisabled("B");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(Half - 20);
  jobCombo("##b", Snap, JobB);
  const JobEntry *A = Snap.job(JobA), *B = Snap.job(JobB);
  if (!A || !B || !A->Report || !B->Report) {
    drawEmptyState("waiting for both jobs to compile");
    return;
  }
  const JobReport &RA = *A->Report, &RB = *B->Report;

  float TableW = std::min(540.0f, ImGui::GetContentRegionAvail().x * 0.45f);
  ImGui::BeginChild("##figures", ImVec2(TableW, 0), false);
  if (ImGui::BeginTable("##deltas", 4,
                        ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                            ImGuiTableFlags_SizingFixedFit |
                            ImGuiTableFlags_BordersInnerV)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    // The numbers fit their column; a name too long for what is left is
    // elided (whole in its tooltip).
    ImGui::TableSetupColumn("figure", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("A");
    ImGui::TableSetupColumn("B");
    ImGui::TableSetupColumn("B - A");
    ImGui::TableHeadersRow();
    for (const FigureDelta &F : compareFigures(RA, RB, LaunchThreads)) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      textElided(F.Name);
      bool Ms = std::string_view(F.Unit) == " ms";
      auto Cell = [&](const std::optional<double> &V) {
        ImGui::TableNextColumn();
        if (!V)
          ImGui::TextDisabled("-");
        else if (Ms)
          ImGui::Text("%.2f", *V);
        else
          ImGui::Text("%.0f", *V);
      };
      Cell(F.A);
      Cell(F.B);
      ImGui::TableNextColumn();
      if (F.A && F.B) {
        double D = *F.B - *F.A;
        bool Zero = Ms ? std::fabs(D) < 0.005 : D == 0;
        if (Zero) {
          ImGui::TextDisabled("=");
        } else {
          bool Better = F.LowerIsBetter ? D < 0 : D > 0;
          ImU32 C = Better ? Ctx.Colors.Ok : Ctx.Colors.Failed;
          char Buf[48];
          if (*F.A != 0)
            std::snprintf(Buf, sizeof Buf, Ms ? "%+.2f (%+.0f%%)" : "%+.0f (%+.0f%%)",
                          D, 100.0 * D / *F.A);
          else
            std::snprintf(Buf, sizeof Buf, Ms ? "%+.2f" : "%+.0f", D);
          if (F.Circumstantial) {
            // A time moves by tens of percent between runs, and the typed
            // stages' work goes to whichever job compiled first: shown,
            // but not coloured as a verdict the code's own counts are.
            ImGui::TextDisabled("%s", Buf);
            if (ImGui::IsItemHovered())
              ImGui::SetTooltip(
                  Ms ? "one compile of each job: timings vary between runs, "
                       "the job compiled first also paid LLVM's one-time "
                       "start-up, and inference is shared, so it did the "
                       "other's typed work too (prism report times one job "
                       "in a process of its own)"
                     : "inference is shared between jobs: the job compiled "
                       "first did the other's typed work too");
          } else {
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(C), "%s", Buf);
          }
        }
      }
    }
    ImGui::EndTable();
  }
  ImGui::EndChild();
  ImGui::SameLine();

  ImGui::BeginChild("##stagediff", ImVec2(0, 0), false);
  ImGui::SetNextItemWidth(140);
  if (ImGui::BeginCombo("stage", stageName(DiffStage))) {
    for (size_t I = 0; I < size_t(Stage::NumStages); ++I)
      if (ImGui::Selectable(stageName(Stage(I)), Stage(I) == DiffStage))
        DiffStage = Stage(I);
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::Checkbox("side by side", &SideBySide);
  prepareDiff(A->Report, B->Report);
  ImGui::SameLine();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(Ctx.Colors.DiffAddedText),
                     "+%u", Diff.NumAdded);
  ImGui::SameLine(0, 4);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(Ctx.Colors.DiffRemovedText),
                     "-%u", Diff.NumRemoved);
  Syntax LangA = syntaxFor(DiffStage, RA.Target),
         LangB = syntaxFor(DiffStage, RB.Target);
  if (SideBySide) {
    float W = ImGui::GetContentRegionAvail().x * 0.5f - 4;
    CodeListing LA, LB;
    LA.Lines = &TextA;
    LA.Lang = LangA;
    LB.Lines = &TextB;
    LB.Lang = LangB;
    drawCodeListing("##sideA", LA, Ctx.Colors, Ctx.Mono, ImVec2(W, 0));
    ImGui::SameLine();
    drawCodeListing("##sideB", LB, Ctx.Colors, Ctx.Mono, ImVec2(0, 0));
  } else if (Diff.NumAdded == 0 && Diff.NumRemoved == 0) {
    drawEmptyState("the two jobs' texts are identical at this stage");
  } else {
    drawDiffListing("##cmpdiff", Diff, DiffIndex, LangB, Ctx.Colors, Ctx.Mono);
  }
  ImGui::EndChild();
}

} // namespace prism::views
