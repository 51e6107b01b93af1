#include "InvalidationsView.h"

#include <algorithm>

namespace prism::views {

void InvalidationsView::draw(ViewContext &Ctx, bool *Open) {
  if (Open && !*Open)
    return;
  if (ImGui::Begin("Invalidations", Open))
    drawContent(Ctx);
  ImGui::End();
}

void InvalidationsView::drawContent(ViewContext &Ctx) {
  RowsDrawn = 0;
  const auto &Log = Ctx.Snap.Invalidations;
  const Palette &P = Ctx.Colors;
  if (Log.empty()) {
    drawEmptyState("no invalidations yet",
                   "edit the source: Prism shows which CodeInstances the "
                   "edit invalidated and which jobs recompiled, and why");
    return;
  }
  uint64_t Newest = Log.back().Sequence;
  bool OpenNewest = Newest != NewestSeen;
  NewestSeen = Newest;
  ImGui::BeginChild("##log");
  for (auto It = Log.rbegin(); It != Log.rend(); ++It) {
    const InvalidationEntry &E = *It;
    ImGui::PushID(int(E.Sequence));
    if (It == Log.rbegin() && OpenNewest)
      ImGui::SetNextItemOpen(true);
    bool Open = ImGui::TreeNodeEx(
        "##e", ImGuiTreeNodeFlags_SpanAvailWidth, "#%llu  world %llu  %s",
        (unsigned long long)E.Sequence, (unsigned long long)E.World,
        E.Trigger.c_str());
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(
                           E.Invalidated.empty() ? P.Muted : P.Stale),
                       "%zu invalidated", E.Invalidated.size());
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(P.Busy), "%zu recompiled",
                       E.Recompiled.size());
    ImGui::SameLine();
    ImGui::TextDisabled("%.1f ms", E.TotalMs);
    if (Open) {
      if (!E.ChangedMethods.empty()) {
        ImGui::TextDisabled("changed methods");
        // Opening a 2 400-function file changes every method: only the rows
        // on screen are drawn (all of them took 4-6 ms a frame).
        ImGuiListClipper Clip;
        Clip.Begin(int(E.ChangedMethods.size()));
        while (Clip.Step())
          for (int I = Clip.DisplayStart; I < Clip.DisplayEnd; ++I, ++RowsDrawn)
            ImGui::BulletText("%s", E.ChangedMethods[I].c_str());
      }
      if (!E.Invalidated.empty()) {
        // A tree: each root's cause, then the callers its backedges reached.
        ImGui::TextDisabled("invalidated CodeInstances");
        float Step = ImGui::GetStyle().IndentSpacing;
        ImGuiListClipper Clip;
        Clip.Begin(int(E.Invalidated.size()));
        while (Clip.Step())
          for (int Row = Clip.DisplayStart; Row < Clip.DisplayEnd; ++Row) {
            ++RowsDrawn;
            const InvalidatedInstance &I = E.Invalidated[Row];
            float Indent = Step * float(I.Depth);
            if (Indent > 0)
              ImGui::Indent(Indent);
            ImGui::BulletText("%s", I.Instance.c_str());
            if (!I.Reason.empty()) {
              ImGui::SameLine();
              ImGui::TextColored(
                  ImGui::ColorConvertU32ToFloat4(I.Depth ? P.Muted : P.Stale),
                  "— %s", I.Reason.c_str());
            }
            if (Indent > 0)
              ImGui::Unindent(Indent);
          }
      }
      if (!E.Recompiled.empty()) {
        ImGui::TextDisabled("recompiled jobs");
        for (const RecompiledJob &R : E.Recompiled) {
          ImGui::PushID(int(R.Id));
          ImGui::Bullet();
          // The job's label selects it, when it is still watched. Target
          // and mode first ("map!  ptx sm_80 -O2  (typeof(square), ...)"):
          // after the full signature they were cut off in a narrow panel,
          // and two jobs of one kernel looked alike. The tooltip has it all.
          const JobEntry *J = Ctx.Snap.job(R.Id);
          std::string Short = R.Label;
          if (J) {
            const std::string &Sig = J->Spec.Signature;
            Short = jobLabel(*J) + "  " + Sig.substr(std::min(Sig.find('('), Sig.size()));
          }
          if (ImGui::Selectable(Short.c_str(), R.Id == Ctx.Snap.SelectedJob,
                                ImGuiSelectableFlags_AllowItemOverlap,
                                ImVec2(ImGui::CalcTextSize(Short.c_str()).x, 0)) &&
              J)
            Ctx.Sink.post(cmd::SelectJob{R.Id});
          if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", R.Label.c_str());
          ImGui::SameLine();
          if (R.Failed) {
            // Not a compile time: the job stopped at its errors.
            ImGui::TextColored(
                ImGui::ColorConvertU32ToFloat4(Ctx.Colors.Failed), "failed");
            ImGui::SameLine(0, 0);
            ImGui::TextDisabled(" — %s", R.Reason.c_str());
          } else {
            ImGui::TextDisabled("%.1f ms — %s", R.CompileMs, R.Reason.c_str());
          }
          ImGui::PopID();
        }
      }
      if (E.Invalidated.empty() && E.Recompiled.empty())
        ImGui::TextDisabled("nothing depended on the change");
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
  ImGui::EndChild();
}

} // namespace prism::views
