#include "JobsView.h"

#include "Signatures.h"

#include <cstdio>
#include <iterator>

namespace prism::views {

const std::vector<const char *> &AddJobForm::targets() {
  static const std::vector<const char *> T = {"ptx", "gcn", "bpf", "native"};
  return T;
}

const char *AddJobForm::defaultArch(std::string_view Target) {
  if (Target == "ptx")
    return "sm_80";
  if (Target == "gcn")
    return "gfx90a";
  if (Target == "native")
    return "host CPU";
  return "";
}

std::optional<cmd::AddJob> AddJobForm::toCommand(std::string &Error) const {
  std::string_view Sig = Signature;
  while (!Sig.empty() && Sig.front() == ' ')
    Sig.remove_prefix(1);
  while (!Sig.empty() && Sig.back() == ' ')
    Sig.remove_suffix(1);
  size_t Open = Sig.find('(');
  if (Sig.empty() || Open == 0 || Open == std::string_view::npos ||
      Sig.back() != ')') {
    Error = "write the signature as name(Type, ...), e.g. "
            "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})";
    return std::nullopt;
  }
  if (TargetIndex < 0 || size_t(TargetIndex) >= targets().size()) {
    Error = "pick a target";
    return std::nullopt;
  }
  if (OptLevel < 0 || OptLevel > 3) {
    Error = "-O level must be 0..3";
    return std::nullopt;
  }
  if (MaxThreads < 0 || MinThreads < 0 || BlocksPerSM < 0 || MaxRegs < 0) {
    Error = "launch bounds cannot be negative";
    return std::nullopt;
  }
  if (MaxThreads > 1024 || MinThreads > 1024) {
    Error = "a block has at most 1024 threads";
    return std::nullopt;
  }
  if (MaxThreads && MinThreads &&
      targets()[TargetIndex] == std::string("ptx")) {
    // ptxas rejects .reqntid with .maxntid (the ptx target says so too).
    Error = "minthreads (.reqntid) and maxthreads (.maxntid): one or the other";
    return std::nullopt;
  }
  cmd::AddJob C;
  C.Spec.Signature = std::string(Sig);
  C.Spec.Target = targets()[TargetIndex];
  C.Spec.Arch = Arch;
  C.Spec.OptLevel = unsigned(OptLevel);
  bool GPU = C.Spec.Target == "ptx" || C.Spec.Target == "gcn";
  C.Spec.Kernel = Kernel && GPU;
  C.Spec.AlwaysInline = AlwaysInline;
  C.Spec.Bounds = {unsigned(MaxThreads), unsigned(MinThreads),
                   unsigned(BlocksPerSM), unsigned(MaxRegs)};
  if (ChecksIndex < 0 || size_t(ChecksIndex) >= std::size(AllCheckBounds)) {
    Error = "pick auto, yes or no for bounds checks";
    return std::nullopt;
  }
  C.Spec.Checks = AllCheckBounds[ChecksIndex];
  Error.clear();
  return C;
}

void JobsView::draw(ViewContext &Ctx, bool *Open) {
  if (Open && !*Open) {
    if (WantAddDialog) // the menu can open the dialog with the panel hidden
      *Open = true;
    else
      return;
  }
  if (ImGui::Begin("Jobs", Open))
    drawContent(Ctx);
  ImGui::End();
}

void JobsView::drawContent(ViewContext &Ctx) {
  const GuiSnapshot &Snap = Ctx.Snap;
  const Palette &P = Ctx.Colors;
  if (ImGui::Button("+ Add job"))
    WantAddDialog = true;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Ctrl+J");
  ImGui::SameLine();
  ImGui::BeginDisabled(Snap.Jobs.empty());
  if (ImGui::Button("Recompile all"))
    Ctx.Sink.post(cmd::Recompile{0});
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("Ctrl+R: recompile every job, bypassing the cache");
  if (Snap.Busy) {
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(P.Busy), "compiling…");
  }

  if (Snap.Jobs.empty()) {
    drawEmptyState("no job yet — add one with Jobs ▸ Add job",
                   "a job is a function signature plus a target, arch and "
                   "-O level; every stage of it shows in the panes");
  } else if (ImGui::BeginTable("##jobs", 7,
                               ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                   ImGuiTableFlags_Resizable |
                                   ImGuiTableFlags_Hideable |
                                   ImGuiTableFlags_SizingFixedFit |
                                   ImGuiTableFlags_BordersInnerV)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("status");
    ImGui::TableSetupColumn("signature", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("target");
    ImGui::TableSetupColumn("arch");
    // -O and reuse are rarely what tells jobs apart: hidden until the
    // header's context menu shows them, so that the signature has room.
    ImGui::TableSetupColumn("-O", ImGuiTableColumnFlags_DefaultHide);
    ImGui::TableSetupColumn("checks");
    ImGui::TableSetupColumn("reused", ImGuiTableColumnFlags_DefaultHide);
    ImGui::TableHeadersRow();
    for (const JobEntry &J : Snap.Jobs) {
      ImGui::PushID(int(J.Id));
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImVec2 Pos = ImGui::GetCursorScreenPos();
      float H = ImGui::GetTextLineHeight();
      ImGui::GetWindowDrawList()->AddCircleFilled(
          ImVec2(Pos.x + H * 0.4f, Pos.y + H * 0.5f), H * 0.28f,
          P.jobStatus(J.Status));
      ImGui::Dummy(ImVec2(H * 0.9f, H));
      ImGui::SameLine();
      bool Sel = J.Id == Snap.SelectedJob;
      if (ImGui::Selectable(jobStatusName(J.Status), Sel,
                            ImGuiSelectableFlags_SpanAllColumns |
                                ImGuiSelectableFlags_AllowItemOverlap) &&
          !Sel)
        Ctx.Sink.post(cmd::SelectJob{J.Id});
      if (ImGui::IsItemHovered() && !J.StatusDetail.empty())
        ImGui::SetTooltip("%s", J.StatusDetail.c_str());
      if (ImGui::BeginPopupContextItem("##ctx")) {
        if (ImGui::MenuItem("Recompile"))
          Ctx.Sink.post(cmd::Recompile{J.Id});
        if (ImGui::MenuItem("Compare with selected", nullptr, false,
                            Snap.SelectedJob && !Sel))
          CompareRequest = std::make_pair(Snap.SelectedJob, J.Id);
        if (ImGui::BeginMenu("Copy with bounds checks")) {
          // The same job in another --check-bounds mode, to compare what
          // the checks cost (registers, instructions, throw sites).
          for (CheckBounds Mode : AllCheckBounds)
            if (ImGui::MenuItem(checkBoundsName(Mode), nullptr, false,
                                Mode != J.Spec.Checks)) {
              cmd::AddJob Copy{J.Spec};
              Copy.Spec.Checks = Mode;
              Ctx.Sink.post(std::move(Copy));
            }
          ImGui::EndMenu();
        }
        if (ImGui::MenuItem("Export…"))
          ExportRequest = J.Id;
        ImGui::Separator();
        if (ImGui::MenuItem("Remove"))
          Ctx.Sink.post(cmd::RemoveJob{J.Id});
        ImGui::EndPopup();
      }
      ImGui::TableNextColumn();
      textElided(J.Spec.Signature);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(J.Spec.Target.c_str());
      ImGui::TableNextColumn();
      std::string Arch = !J.Spec.Arch.empty() ? J.Spec.Arch
                         : J.Report           ? J.Report->Arch
                                              : std::string();
      ImGui::TextUnformatted(Arch.empty() ? "-" : Arch.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%u", J.Spec.OptLevel);
      ImGui::TableNextColumn();
      // Julia's --check-bounds of the job; auto (the default) dimmed.
      if (J.Spec.Checks == CheckBounds::Auto)
        ImGui::TextDisabled("auto");
      else
        ImGui::TextUnformatted(checkBoundsName(J.Spec.Checks));
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("--check-bounds=%s", checkBoundsName(J.Spec.Checks));
      ImGui::TableNextColumn();
      ImGui::Text("%llu", (unsigned long long)J.CacheHits);
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  drawAddDialog(Ctx);
}

void JobsView::drawAddDialog(ViewContext &Ctx) {
  if (WantAddDialog) {
    WantAddDialog = false;
    Suggestions = suggestSignatures(Ctx.Snap.Source);
    if (Form.Signature.empty() && !Suggestions.empty())
      Form.Signature = Suggestions.front();
    Form.ChecksIndex = int(Ctx.Snap.Bounds);
    FormError.clear();
    ImGui::OpenPopup("Add job");
  }
  ImGui::SetNextWindowSize(ImVec2(560, 0), ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal("Add job", nullptr,
                              ImGuiWindowFlags_NoSavedSettings))
    return;
  char Buf[512];
  std::snprintf(Buf, sizeof Buf, "%s", Form.Signature.c_str());
  ImGui::TextDisabled("signature");
  ImGui::SetNextItemWidth(-1);
  if (ImGui::IsWindowAppearing())
    ImGui::SetKeyboardFocusHere();
  if (ImGui::InputTextWithHint("##sig", "saxpy!(Float32, DeviceArray{Float32,1}, ...)",
                               Buf, sizeof Buf))
    Form.Signature = Buf;
  if (!Suggestions.empty()) {
    ImGui::TextDisabled("from the source:");
    for (size_t I = 0; I < Suggestions.size(); ++I) {
      ImGui::PushID(int(I));
      if (ImGui::SmallButton(Suggestions[I].c_str()))
        Form.Signature = Suggestions[I];
      ImGui::PopID();
    }
  }
  ImGui::Spacing();
  const auto &Targets = AddJobForm::targets();
  ImGui::SetNextItemWidth(120);
  ImGui::Combo("target", &Form.TargetIndex, Targets.data(), int(Targets.size()));
  ImGui::SameLine();
  std::snprintf(Buf, sizeof Buf, "%s", Form.Arch.c_str());
  ImGui::SetNextItemWidth(140);
  if (ImGui::InputTextWithHint("arch", AddJobForm::defaultArch(Targets[Form.TargetIndex]),
                               Buf, 64))
    Form.Arch = Buf;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(110);
  ImGui::SliderInt("-O", &Form.OptLevel, 0, 3);
  bool GPU = Form.TargetIndex <= 1;
  ImGui::BeginDisabled(!GPU);
  ImGui::Checkbox("kernel", &Form.Kernel);
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::Checkbox("always inline", &Form.AlwaysInline);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  ImGui::Combo(
      "bounds checks", &Form.ChecksIndex,
      [](void *, int I, const char **Name) {
        *Name = checkBoundsName(AllCheckBounds[I]);
        return true;
      },
      nullptr, int(std::size(AllCheckBounds)));
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Julia's --check-bounds for this job: auto skips the "
                      "checks inside @inbounds, yes keeps them everywhere, "
                      "no removes them all");
  if (ImGui::TreeNode("launch bounds")) {
    ImGui::BeginDisabled(!GPU);
    ImGui::SetNextItemWidth(110);
    ImGui::InputInt("maxthreads", &Form.MaxThreads, 32, 128);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(110);
    ImGui::InputInt("minthreads", &Form.MinThreads, 32, 128);
    ImGui::SetNextItemWidth(110);
    ImGui::InputInt("blocks/SM", &Form.BlocksPerSM, 1, 4);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(110);
    ImGui::InputInt("maxregs", &Form.MaxRegs, 8, 32);
    ImGui::EndDisabled();
    ImGui::TreePop();
  }
  if (!FormError.empty())
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(Ctx.Colors.Error), "%s",
                       FormError.c_str());
  ImGui::Separator();
  bool Submit = ImGui::Button("Add", ImVec2(100, 0)) ||
                ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter));
  ImGui::SameLine();
  if (ImGui::Button("Cancel", ImVec2(100, 0)) ||
      ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
    ImGui::CloseCurrentPopup();
  if (Submit) {
    if (auto C = Form.toCommand(FormError)) {
      Ctx.Sink.post(std::move(*C));
      ImGui::CloseCurrentPopup();
    }
  }
  ImGui::EndPopup();
}

} // namespace prism::views
