#include "ViewContext.h"

#include <imgui_internal.h> // RenderTextEllipsis

#include <algorithm>

namespace prism::views {

void textElided(const std::string &Text) {
  const char *Begin = Text.c_str(), *End = Begin + Text.size();
  const ImVec2 Size = ImGui::CalcTextSize(Begin, End);
  const float Avail = ImGui::GetContentRegionAvail().x;
  if (Size.x <= Avail) {
    ImGui::TextUnformatted(Begin, End);
    return;
  }
  const ImVec2 Pos = ImGui::GetCursorScreenPos();
  const ImVec2 Max(Pos.x + Avail, Pos.y + Size.y);
  ImGui::RenderTextEllipsis(ImGui::GetWindowDrawList(), Pos, Max, Max.x, Max.x,
                            Begin, End, &Size);
  ImGui::Dummy(ImVec2(Avail, Size.y));
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", Begin);
}

void drawEmptyState(const char *Message, const char *Detail) {
  ImVec2 Avail = ImGui::GetContentRegionAvail();
  float WrapW = std::max(120.0f, Avail.x - 40);
  ImVec2 MsgSize = ImGui::CalcTextSize(Message, nullptr, false, WrapW);
  ImVec2 DetSize = Detail && *Detail
                       ? ImGui::CalcTextSize(Detail, nullptr, false, WrapW)
                       : ImVec2(0, 0);
  float TotalH = MsgSize.y + (DetSize.y > 0 ? DetSize.y + 6 : 0);
  ImVec2 Start = ImGui::GetCursorPos();
  float Y = Start.y + std::max(0.0f, (Avail.y - TotalH) * 0.4f);
  auto Centered = [&](const char *Text, ImVec2 Size) {
    ImGui::SetCursorPos(
        ImVec2(Start.x + std::max(0.0f, (Avail.x - Size.x) * 0.5f), Y));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + WrapW);
    ImGui::TextDisabled("%s", Text);
    ImGui::PopTextWrapPos();
    Y += Size.y + 6;
  };
  Centered(Message, MsgSize);
  if (DetSize.y > 0)
    Centered(Detail, DetSize);
}

std::string jobLabel(const JobEntry &J) {
  const JobSpec &S = J.Spec;
  std::string Name = S.Signature.substr(0, S.Signature.find('('));
  std::string L = Name + "  " + S.Target;
  std::string Arch = S.Arch;
  if (Arch.empty() && J.Report)
    Arch = J.Report->Arch;
  if (!Arch.empty())
    L += " " + Arch;
  L += " -O" + std::to_string(S.OptLevel);
  if (S.Checks != CheckBounds::Auto)
    L += std::string(" check-bounds=") + checkBoundsName(S.Checks);
  return L;
}

std::string statusBarJobText(const GuiSnapshot &Snap) {
  std::string Status;
  const JobEntry *J = Snap.selectedJob();
  if (J)
    Status = jobLabel(*J) + "  " + jobStatusName(J->Status);
  // The job's label already names its own setting.
  if (Snap.Bounds != CheckBounds::Auto && !(J && J->Spec.Checks == Snap.Bounds))
    Status += std::string("  --check-bounds=") + checkBoundsName(Snap.Bounds);
  return Status;
}

} // namespace prism::views
