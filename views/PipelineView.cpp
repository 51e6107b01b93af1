#include "PipelineView.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstdio>
#include <string_view>
#include <unordered_set>

namespace prism::views {

void PipelineView::draw(ViewContext &Ctx, bool *Open) {
  if (Open && !*Open)
    return;
  if (ImGui::Begin("Pipeline", Open) && ImGui::BeginTabBar("##pipetabs")) {
    if (ImGui::BeginTabItem("Passes")) {
      drawContent(Ctx);
      ImGui::EndTabItem();
    }
    const JobReport *R = Ctx.selectedReport();
    // The tab names what matters for speed: the missed optimisations.
    size_t Missed =
        R ? countRemarks(R->Remarks)[size_t(RemarkKind::Missed)] : 0;
    char Label[64];
    std::snprintf(Label, sizeof Label, "Remarks · %zu missed###remarks", Missed);
    ImGuiTabItemFlags Flags = SelectRemarks ? ImGuiTabItemFlags_SetSelected : 0;
    SelectRemarks = false;
    if (ImGui::BeginTabItem(Label, nullptr, Flags)) {
      Remarks.drawContent(Ctx);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::End();
}

void PipelineView::load(const JobEntry &J) {
  ShownJob = J.Id;
  if (Shown == J.Report)
    return;
  // Each step after a compile (resources, the cache's figures) publishes a
  // new report that shares its passes with the one before: nothing to redo.
  bool SamePasses =
      Shown && J.Report && Shown->Passes.sharesWith(J.Report->Passes);
  Shown = J.Report;
  if (SamePasses)
    return;
  Counts.clear();
  Functions.clear();
  Deltas.clear();
  DeltasFor.clear();
  DiffFor = -1;
  if (!Shown)
    return;
  // A large program's report lists tens of thousands of pass runs (those
  // that changed nothing too) over far fewer functions, and megabytes of
  // diffs: this runs on the UI thread when a new report arrives, so the
  // functions are deduplicated before sorting and each pass's line counts
  // wait until its row is drawn.
  std::unordered_set<std::string_view> Seen;
  Counts.assign(Shown->Passes.size(), std::nullopt);
  for (const PassSnapshot &P : Shown->Passes)
    if (Seen.insert(P.Function).second)
      Functions.push_back(P.Function);
  std::sort(Functions.begin(), Functions.end());
}

void PipelineView::countLines(const JobReport &R, const std::string &Text) {
  if (Text == DeltasFor && Deltas.size() == R.Passes.size())
    return;
  DeltasFor = Text;
  Deltas.assign(R.Passes.size(), 0);
  if (Text.empty())
    return;
  for (uint32_t I = 0; I < R.Passes.size(); ++I) {
    const PassSnapshot &P = R.Passes[I];
    if (!P.Changed)
      continue;
    Deltas[I] = linesContainingDelta(
        P.Diff.empty() ? unifiedDiff(P.Before, P.After) : P.Diff, Text);
  }
}

void PipelineView::filter(const JobReport &R, const JobUi &U) {
  countLines(R, U.LineFilter);
  Visible.clear();
  for (uint32_t I = 0; I < R.Passes.size(); ++I) {
    const PassSnapshot &P = R.Passes[I];
    if (U.ChangedOnly && !P.Changed)
      continue;
    if (!U.Function.empty() && P.Function != U.Function)
      continue;
    if (!containsNoCase(P.Pass, U.NameFilter))
      continue;
    if (!U.LineFilter.empty() && Deltas[I] == 0)
      continue;
    Visible.push_back(I);
  }
}

void PipelineView::prepareDiff(const JobReport &R, int32_t Index) {
  if (Index == DiffFor)
    return;
  DiffFor = Index;
  Diff = DiffText();
  if (Index >= 0 && size_t(Index) < R.Passes.size()) {
    const PassSnapshot &P = R.Passes[Index];
    Diff = !P.Diff.empty() ? diffTextFromUnified(P.Diff)
                           : diffTextFromLines(diffLines(P.Before, P.After));
  }
  DiffLinesIndex = TextLines(Diff.Text);
}

void PipelineView::drawContent(ViewContext &Ctx) {
  const JobEntry *J = Ctx.selectedJob();
  if (!J) {
    drawEmptyState(Ctx.Snap.Jobs.empty()
                       ? "no job yet — add one with Jobs ▸ Add job"
                       : "no job selected");
    return;
  }
  load(*J);
  if (!Shown) {
    drawEmptyState("compiling…");
    return;
  }
  const JobReport &R = *Shown;
  if (R.Passes.empty()) {
    // A job that failed before the optimiser ran no pass; say so rather than
    // suggest the snapshots were not recorded.
    if (!R.stage(Stage::LLVMRaw).Present)
      drawEmptyState("no passes ran: the job failed before optimisation",
                     "its errors are in the Source panel; fix them and the "
                     "pipeline shows up here");
    else
      drawEmptyState("no pass snapshots in this report",
                     "the Workspace records them for watched jobs; "
                     "`prism pipeline FILE SIG` prints them too");
    return;
  }
  JobUi &U = PerJob[J->Id];
  filter(R, U);
  // The diff on the right is always of a pass the list shows; at first,
  // the first that changed code, not only comments (InferFunctionAttrs
  // rewrites `; Function Attrs:` lines and nothing else).
  if (U.Selected < 0) {
    auto Code = llvm::find_if(
        Visible, [&](uint32_t I) { return diffChangesCode(R.Passes[I].Diff); });
    U.Selected = Code != Visible.end() ? int32_t(*Code)
                 : Visible.empty()     ? -1
                                       : int32_t(Visible.front());
  } else if (!std::binary_search(Visible.begin(), Visible.end(),
                                 static_cast<uint32_t>(U.Selected))) {
    U.Selected = Visible.empty() ? -1 : int32_t(Visible.front());
  }

  // Left: the pass list with its filters.
  float ListW = std::max(220.0f, ImGui::GetContentRegionAvail().x * 0.36f);
  ImGui::BeginChild("##passes", ImVec2(ListW, 0), false);
  char Buf[128];
  std::snprintf(Buf, sizeof Buf, "%s", U.NameFilter.c_str());
  ImGui::SetNextItemWidth(-1);
  if (ImGui::InputTextWithHint("##filter", "filter passes (e.g. instcombine)",
                               Buf, sizeof Buf))
    U.NameFilter = Buf;
  std::snprintf(Buf, sizeof Buf, "%s", U.LineFilter.c_str());
  ImGui::SetNextItemWidth(-1);
  if (ImGui::InputTextWithHint("##lines", "lines made or removed (e.g. fma)",
                               Buf, sizeof Buf))
    U.LineFilter = Buf;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Only the passes that changed how many lines contain "
                      "this text,\nwith the change: which pass made the fma, "
                      "which removed a throw.\nRenumbered lines do not count.");
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.6f);
  if (ImGui::BeginCombo("##fn", U.Function.empty() ? "all functions"
                                                   : U.Function.c_str())) {
    if (ImGui::Selectable("all functions", U.Function.empty()))
      U.Function.clear();
    for (const std::string &F : Functions)
      if (ImGui::Selectable(F.c_str(), F == U.Function))
        U.Function = F;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::Checkbox("changed", &U.ChangedOnly);
  ImGui::TextDisabled("%zu of %zu passes", Visible.size(), R.Passes.size());
  if (ImGui::BeginTable("##passtable", 3,
                        ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                            ImGuiTableFlags_SizingFixedFit,
                        ImVec2(0, 0))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("pass / function", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("+/-", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableHeadersRow();
    ImGuiListClipper Clip;
    Clip.Begin(int(Visible.size()));
    while (Clip.Step())
      for (int Row = Clip.DisplayStart; Row < Clip.DisplayEnd; ++Row) {
        uint32_t I = Visible[Row];
        const PassSnapshot &P = R.Passes[I];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%u", P.Index);
        ImGui::TableNextColumn();
        ImGui::PushID(int(I));
        if (ImGui::Selectable(P.Pass.c_str(), int32_t(I) == U.Selected,
                              ImGuiSelectableFlags_SpanAllColumns))
          U.Selected = I;
        ImGui::PopID();
        if (!P.Function.empty()) {
          ImGui::SameLine();
          ImGui::TextDisabled("%s", P.Function.c_str());
        }
        ImGui::TableNextColumn();
        if (!Counts[I])
          Counts[I] = P.Diff.empty() ? DiffCounts{} : countUnified(P.Diff);
        const DiffCounts &C = *Counts[I];
        if (!P.Changed) {
          ImGui::TextDisabled("=");
        } else if (!U.LineFilter.empty()) {
          // The change in matching lines says more than the diff's size.
          int D = Deltas[I];
          ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(
                                 D > 0 ? Ctx.Colors.DiffAddedText
                                       : Ctx.Colors.DiffRemovedText),
                             "%+d", D);
          if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%+d lines with \"%s\" (the diff: +%u -%u)", D,
                              U.LineFilter.c_str(), C.Added, C.Removed);
        } else {
          ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(Ctx.Colors.DiffAddedText),
                             "+%u", C.Added);
          ImGui::SameLine(0, 3);
          ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(Ctx.Colors.DiffRemovedText),
                             "-%u", C.Removed);
        }
      }
    ImGui::EndTable();
  }
  ImGui::EndChild();

  // Right: the selected pass's diff.
  ImGui::SameLine();
  ImGui::BeginChild("##diff", ImVec2(0, 0), false);
  if (U.Selected >= 0 && size_t(U.Selected) < R.Passes.size()) {
    const PassSnapshot &P = R.Passes[U.Selected];
    prepareDiff(R, U.Selected);
    ImGui::Text("%s", P.Pass.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("on %s  (pass %u)", P.Function.c_str(), P.Index);
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(Ctx.Colors.DiffAddedText),
                       "+%u", Diff.NumAdded);
    ImGui::SameLine(0, 4);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(Ctx.Colors.DiffRemovedText),
                       "-%u", Diff.NumRemoved);
    if (Diff.Kinds.empty())
      drawEmptyState("this pass left the IR unchanged");
    else
      drawDiffListing("##passdiff", Diff, DiffLinesIndex, Syntax::LLVMIR,
                      Ctx.Colors, Ctx.Mono);
  } else {
    drawEmptyState("no pass matches the filters");
  }
  ImGui::EndChild();
}

} // namespace prism::views
