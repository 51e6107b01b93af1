#include "ViewContext.h"

#include <algorithm>

namespace prism::views {

void textElided(const std::string &Text) {
  const float Avail = ImGui::GetContentRegionAvail().x;
  if (ImGui::CalcTextSize(Text.c_str()).x <= Avail) {
    ImGui::TextUnformatted(Text.c_str());
    return;
  }
  const char *Ellipsis = "…";
  const float EllipsisW = ImGui::CalcTextSize(Ellipsis).x;
  // The longest prefix that fits with the ellipsis (a binary search: the
  // widths grow with the length), cut between UTF-8 characters.
  auto Boundary = [&](size_t I) {
    while (I > 0 && I < Text.size() && (uint8_t(Text[I]) & 0xC0) == 0x80)
      --I;
    return I;
  };
  size_t Lo = 0, Hi = Text.size();
  while (Lo < Hi) {
    size_t Mid = Boundary((Lo + Hi + 1) / 2);
    if (Mid <= Lo) {
      // No character boundary between Lo and Hi's midpoint: step to the
      // next boundary after Lo.
      Mid = Lo + 1;
      while (Mid < Hi && (uint8_t(Text[Mid]) & 0xC0) == 0x80)
        ++Mid;
    }
    if (ImGui::CalcTextSize(Text.data(), Text.data() + Mid).x + EllipsisW <=
        Avail)
      Lo = Mid;
    else
      Hi = Mid - 1;
  }
  const size_t N = Boundary(Lo);
  std::string Shown = Text.substr(0, N) + Ellipsis;
  ImGui::TextUnformatted(Shown.c_str());
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", Text.c_str());
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

} // namespace prism::views
