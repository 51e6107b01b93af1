#include "RemarksView.h"

#include "support/TextLines.h"

#include <algorithm>
#include <cstdio>

namespace prism::views {

namespace {

ImU32 kindColor(const Palette &C, RemarkKind K) {
  switch (K) {
  case RemarkKind::Passed:
    return C.Ok;
  case RemarkKind::Missed:
    return C.Warning;
  case RemarkKind::Analysis:
    return C.Muted;
  }
  return C.Text;
}

} // namespace

void RemarksView::rebuild(const JobReport &R, const std::string &OpenFile) {
  Rows.clear();
  std::vector<RemarkGroup> Groups = groupRemarks(R.Remarks);
  Total = Groups.size();
  for (const RemarkGroup &G : Groups) {
    const OptRemark &M = *G.First;
    if (!ShowKind[size_t(M.Kind)])
      continue;
    if (!containsNoCase(M.Pass, Filter) && !containsNoCase(M.Message, Filter))
      continue;
    Rows.push_back({&M, G.Count, remarkLineInFile(M, OpenFile)});
  }
  // By line of the open file, remarks elsewhere last; pass order within.
  std::stable_sort(Rows.begin(), Rows.end(), [](const Row &A, const Row &B) {
    uint32_t LA = A.SourceLine ? A.SourceLine : UINT32_MAX;
    uint32_t LB = B.SourceLine ? B.SourceLine : UINT32_MAX;
    return LA < LB;
  });
}

void RemarksView::drawContent(ViewContext &Ctx) {
  const JobReport *R = Ctx.selectedReport();
  if (!R) {
    drawEmptyState(Ctx.Snap.Jobs.empty() ? "no job yet" : "compiling…");
    return;
  }
  if (Shown.get() != R || ShownFile != Ctx.Snap.FilePath) {
    Shown = Ctx.selectedJob()->Report;
    ShownFile = Ctx.Snap.FilePath;
    Dirty = true;
  }
  if (R->Remarks.empty()) {
    drawEmptyState("no remarks in this report",
                   "LLVM's passes report what they did at -O1 and above");
    return;
  }

  // Filters: one checkbox per kind in its colour, then a text filter.
  for (RemarkKind K : AllRemarkKinds) {
    ImGui::PushStyleColor(ImGuiCol_Text, kindColor(Ctx.Colors, K));
    Dirty |= ImGui::Checkbox(remarkKindName(K), &ShowKind[size_t(K)]);
    ImGui::PopStyleColor();
    ImGui::SameLine();
  }
  char Buf[128];
  std::snprintf(Buf, sizeof Buf, "%s", Filter.c_str());
  ImGui::SetNextItemWidth(-1);
  if (ImGui::InputTextWithHint("##remarkfilter", "filter (licm, vectoriz...)",
                               Buf, sizeof Buf)) {
    Filter = Buf;
    Dirty = true;
  }
  if (Dirty) {
    rebuild(*R, ShownFile);
    Dirty = false;
  }
  // Rows are distinct remarks (one per pass, message and line); the counts
  // by kind are of every remark emitted, as `prism remarks` says them.
  size_t All = 0;
  for (size_t N : countRemarks(R->Remarks))
    All += N;
  ImGui::TextDisabled("%zu of %zu distinct  ·  %zu in all: %s", Rows.size(),
                      Total, All, summarizeRemarks(R->Remarks).c_str());

  if (!ImGui::BeginTable("##remarks", 3,
                         ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                             ImGuiTableFlags_SizingFixedFit |
                             ImGuiTableFlags_Resizable))
    return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("line", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("pass", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("remark", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  ImGuiListClipper Clip;
  Clip.Begin(int(Rows.size()));
  while (Clip.Step())
    for (int I = Clip.DisplayStart; I < Clip.DisplayEnd; ++I) {
      const Row &W = Rows[I];
      const OptRemark &M = *W.Remark;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(I);
      char Line[16] = "—";
      if (W.SourceLine)
        std::snprintf(Line, sizeof Line, "%u", W.SourceLine);
      bool Pinned = W.SourceLine && Ctx.Links.pinnedSource() == W.SourceLine;
      if (ImGui::Selectable(Line, Pinned, ImGuiSelectableFlags_SpanAllColumns) &&
          W.SourceLine)
        Ctx.Links.pinSource(W.SourceLine, /*Toggle=*/true);
      bool Hovered = ImGui::IsItemHovered();
      ImGui::PopID();
      ImGui::TableNextColumn();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kindColor(Ctx.Colors, M.Kind)),
                         "%s", M.Pass.c_str());
      ImGui::TableNextColumn();
      if (W.Count > 1)
        ImGui::Text("%s  ×%zu", M.Message.c_str(), W.Count);
      else
        ImGui::TextUnformatted(M.Message.c_str());
      if (!Hovered)
        continue;
      if (W.SourceLine)
        Ctx.Links.hoverSource(W.SourceLine);
      ImGui::BeginTooltip();
      ImGui::Text("%s · %s · %s", remarkKindName(M.Kind), M.Pass.c_str(),
                  M.Name.c_str());
      ImGui::TextDisabled("%s, in %s", M.At == Stage::Asm ? "backend" : "optimiser",
                          M.Function.c_str());
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40);
      ImGui::TextUnformatted(M.Message.c_str());
      ImGui::PopTextWrapPos();
      for (const SourceFrame &F : M.Origin.Frames)
        ImGui::TextDisabled("  %s at %s:%u", F.Function.c_str(), F.File.c_str(),
                            F.Line);
      ImGui::EndTooltip();
    }
  ImGui::EndTable();
}

} // namespace prism::views
