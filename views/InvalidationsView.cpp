#include "InvalidationsView.h"

namespace prism::views {

void InvalidationsView::draw(ViewContext &Ctx, bool *Open) {
  if (Open && !*Open)
    return;
  if (ImGui::Begin("Invalidations", Open))
    drawContent(Ctx);
  ImGui::End();
}

void InvalidationsView::drawContent(ViewContext &Ctx) {
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
        for (const std::string &M : E.ChangedMethods)
          ImGui::BulletText("%s", M.c_str());
      }
      if (!E.Invalidated.empty()) {
        ImGui::TextDisabled("invalidated CodeInstances");
        for (const InvalidatedInstance &I : E.Invalidated) {
          ImGui::BulletText("%s", I.Instance.c_str());
          if (!I.Reason.empty()) {
            ImGui::SameLine();
            ImGui::TextDisabled("— %s", I.Reason.c_str());
          }
        }
      }
      if (!E.Recompiled.empty()) {
        ImGui::TextDisabled("recompiled jobs");
        for (const RecompiledJob &R : E.Recompiled) {
          ImGui::BulletText("%s", R.Signature.c_str());
          ImGui::SameLine();
          ImGui::TextDisabled("%.1f ms — %s", R.CompileMs, R.Reason.c_str());
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
