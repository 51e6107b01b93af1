#include "ShellView.h"

#include <imgui.h>

namespace prism::views {

void ShellView::draw(const ShellSnapshot &S) {
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(700, 500), ImGuiCond_FirstUseEver);
  ImGui::Begin("Source");
  ImGui::TextDisabled("%s", S.FileName.c_str());
  ImGui::Separator();
  ImGui::BeginChild("src");
  ImGui::TextUnformatted(S.Source.c_str());
  ImGui::EndChild();
  ImGui::End();

  ImGui::SetNextWindowPos(ImVec2(720, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(400, 200), ImGuiCond_FirstUseEver);
  ImGui::Begin("Devices");
  ImGui::TextWrapped("%s", S.HostSummary.c_str());
  ImGui::End();
}

} // namespace prism::views
