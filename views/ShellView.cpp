#include "ShellView.h"

#include <imgui_internal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace prism::views {

const char *panelTitle(Panel P) {
  switch (P) {
  case Panel::Jobs:
    return "Jobs";
  case Panel::Source:
    return "Source";
  case Panel::Invalidations:
    return "Invalidations";
  case Panel::Typed:
    return "Typed IR";
  case Panel::LLVMRaw:
    return "LLVM IR (raw)";
  case Panel::LLVMOpt:
    return "LLVM IR (optimised)";
  case Panel::Asm:
    return "Assembly";
  case Panel::Pipeline:
    return "Pipeline";
  case Panel::Stats:
    return "Stats";
  case Panel::Devices:
    return "Devices";
  case Panel::Compare:
    return "Compare";
  case Panel::NumPanels:
    break;
  }
  return "?";
}

ShellSettings::ShellSettings() {
  Visible.fill(true);
  Visible[size_t(Panel::Compare)] = false; // opened on demand, over the panes
}

ShellView::ShellView() = default;

StagePane &ShellView::stage(Panel P) {
  switch (P) {
  case Panel::LLVMRaw:
    return LLVMRaw;
  case Panel::LLVMOpt:
    return LLVMOpt;
  case Panel::Asm:
    return Asm;
  default:
    return Typed;
  }
}

// --- Settings in the ini file ---------------------------------------------

void ShellView::installSettingsHandler() {
  ImGuiSettingsHandler H;
  H.TypeName = "Prism";
  H.TypeHash = ImHashStr("Prism");
  H.UserData = this;
  H.ReadOpenFn = [](ImGuiContext *, ImGuiSettingsHandler *,
                    const char *Name) -> void * {
    return std::strcmp(Name, "Settings") == 0 ? (void *)1 : nullptr;
  };
  H.ReadLineFn = [](ImGuiContext *, ImGuiSettingsHandler *Handler, void *,
                    const char *Line) {
    auto *Self = static_cast<ShellView *>(Handler->UserData);
    ShellSettings &S = Self->Settings;
    char Word[64];
    float F;
    int I;
    if (std::sscanf(Line, "Theme=%63s", Word) == 1)
      S.Theme = std::strcmp(Word, "light") == 0 ? ThemeKind::Light
                                                : ThemeKind::Dark;
    else if (std::sscanf(Line, "FontScale=%f", &F) == 1)
      S.FontScale = std::clamp(F, 0.5f, 3.0f);
    else if (std::sscanf(Line, "Panel.%63[^=]=%d", Word, &I) == 2)
      for (size_t P = 0; P < size_t(Panel::NumPanels); ++P)
        if (std::strcmp(Word, panelTitle(Panel(P))) == 0)
          S.Visible[P] = I != 0;
  };
  H.WriteAllFn = [](ImGuiContext *, ImGuiSettingsHandler *Handler,
                    ImGuiTextBuffer *Out) {
    auto *Self = static_cast<ShellView *>(Handler->UserData);
    const ShellSettings &S = Self->Settings;
    Out->appendf("[%s][Settings]\n", Handler->TypeName);
    Out->appendf("Theme=%s\n", S.Theme == ThemeKind::Light ? "light" : "dark");
    Out->appendf("FontScale=%.2f\n", S.FontScale);
    for (size_t P = 0; P < size_t(Panel::NumPanels); ++P)
      Out->appendf("Panel.%s=%d\n", panelTitle(Panel(P)), int(S.Visible[P]));
    Out->append("\n");
  };
  ImGui::GetCurrentContext()->SettingsHandlers.push_back(H);
}

void ShellView::applySettings() {
  if (AppliedTheme != Settings.Theme || !Colors) {
    Colors = &applyTheme(Settings.Theme);
    AppliedTheme = Settings.Theme;
  }
  ImGui::GetIO().FontGlobalScale =
      Settings.FontScale * (FontBakedAtScale ? 1.0f : ContentScale);
}

// --- Layout ------------------------------------------------------------------

void ShellView::placeWindow(Panel P) {
  const ImVec2 D = ImGui::GetIO().DisplaySize;
  const float Top = ImGui::GetFrameHeight(); // the main menu bar
  const float H = D.y - Top;
  const float LeftW = std::floor(D.x * 0.27f);
  const float RightW = D.x - LeftW;
  const float PaneW = std::floor(RightW / 2);
  const float PanesH = std::floor(H * 0.62f);
  const float PaneH = std::floor(PanesH / 2);
  const float BottomY = Top + PanesH, BottomH = H - PanesH;
  const float JobsH = std::floor(H * 0.20f), SourceH = std::floor(H * 0.52f);
  ImVec2 Pos, Size;
  switch (P) {
  case Panel::Jobs:
    Pos = {0, Top}, Size = {LeftW, JobsH};
    break;
  case Panel::Source:
    Pos = {0, Top + JobsH}, Size = {LeftW, SourceH};
    break;
  case Panel::Invalidations:
    Pos = {0, Top + JobsH + SourceH}, Size = {LeftW, H - JobsH - SourceH};
    break;
  case Panel::Typed:
    Pos = {LeftW, Top}, Size = {PaneW, PaneH};
    break;
  case Panel::LLVMRaw:
    Pos = {LeftW + PaneW, Top}, Size = {RightW - PaneW, PaneH};
    break;
  case Panel::LLVMOpt:
    Pos = {LeftW, Top + PaneH}, Size = {PaneW, PanesH - PaneH};
    break;
  case Panel::Asm:
    Pos = {LeftW + PaneW, Top + PaneH}, Size = {RightW - PaneW, PanesH - PaneH};
    break;
  case Panel::Pipeline:
    Pos = {LeftW, BottomY}, Size = {std::floor(RightW * 0.46f), BottomH};
    break;
  case Panel::Stats:
    Pos = {LeftW + std::floor(RightW * 0.46f), BottomY},
    Size = {std::floor(RightW * 0.29f), BottomH};
    break;
  case Panel::Devices: {
    float X = LeftW + std::floor(RightW * 0.46f) + std::floor(RightW * 0.29f);
    Pos = {X, BottomY}, Size = {D.x - X, BottomH};
    break;
  }
  case Panel::Compare:
    Pos = {LeftW + 24, Top + 24}, Size = {RightW - 48, PanesH - 24};
    break;
  case Panel::NumPanels:
    return;
  }
  ImGuiCond Cond = LayoutPending ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(Pos, Cond);
  ImGui::SetNextWindowSize(Size, Cond);
}

// --- Frame -------------------------------------------------------------------

void ShellView::draw(const GuiSnapshot &Snap, CommandSink &Sink) {
  applySettings();
  ViewContext Ctx{Snap, Sink, Links, *Colors, Keys, Mono};
  handleShortcuts(Ctx);
  drawMenuBar(Ctx);

  auto Vis = [&](Panel P) { return &Settings.Visible[size_t(P)]; };
  // Each panel's own time, so that a slow frame names its panel
  // (`gui --bench-edit`).
  auto Timed = [&](Panel P, auto &&Draw) {
    auto Start = std::chrono::steady_clock::now();
    placeWindow(P);
    Draw();
    PanelMs[size_t(P)] = std::chrono::duration<double, std::milli>(
                             std::chrono::steady_clock::now() - Start)
                             .count();
  };
  Timed(Panel::Jobs, [&] { Jobs.draw(Ctx, Vis(Panel::Jobs)); });
  Timed(Panel::Source, [&] { Source.draw(Ctx, Vis(Panel::Source)); });
  Timed(Panel::Invalidations,
        [&] { Invalidations.draw(Ctx, Vis(Panel::Invalidations)); });
  Timed(Panel::Typed, [&] { Typed.draw(Ctx, Vis(Panel::Typed)); });
  Timed(Panel::LLVMRaw, [&] { LLVMRaw.draw(Ctx, Vis(Panel::LLVMRaw)); });
  Timed(Panel::LLVMOpt, [&] { LLVMOpt.draw(Ctx, Vis(Panel::LLVMOpt)); });
  Timed(Panel::Asm, [&] { Asm.draw(Ctx, Vis(Panel::Asm)); });
  Timed(Panel::Pipeline, [&] { Pipeline.draw(Ctx, Vis(Panel::Pipeline)); });
  // The Run form's block size is the launch whose occupancy Stats marks.
  uint64_t Threads = 0;
  if (auto T = parseDims(Devices.Form.Threads))
    Threads = uint64_t((*T)[0]) * (*T)[1] * (*T)[2];
  Stats.setLaunchThreads(Threads);
  Compare.setLaunchThreads(Threads);
  Timed(Panel::Stats, [&] { Stats.draw(Ctx, Vis(Panel::Stats)); });
  Timed(Panel::Devices, [&] { Devices.draw(Ctx, Vis(Panel::Devices)); });
  // The warps the access and divergence remarks assume: the Run form's
  // block, once the form is filled for the selected job (above; a hidden
  // panel leaves the block the app started with).
  if (std::array<unsigned, 3> Block = launchBlockOf(Devices.Form.Threads);
      Devices.formFilled() && Block != PostedBlock) {
    PostedBlock = Block;
    Ctx.Sink.post(cmd::SetLaunchBlock{Block});
  }

  if (auto Req = Jobs.takeCompareRequest()) {
    Compare.pick(Req->first, Req->second);
    Settings.Visible[size_t(Panel::Compare)] = true;
    ImGui::SetWindowFocus(panelTitle(Panel::Compare));
  }
  if (JobId E = Jobs.takeExportRequest()) {
    ExportJobId = E;
    PendingDialog = Dialog::Export;
  }
  Timed(Panel::Compare, [&] { Compare.draw(Ctx, Vis(Panel::Compare)); });

  drawDialogs(Ctx);
  if (ShowHelp)
    drawHelp();
  LayoutPending = false;
  Links.endFrame();
}

void ShellView::handleShortcuts(ViewContext &Ctx) {
  const ImGuiIO &IO = ImGui::GetIO();
  if (Keys.pressed(Keys.F1))
    ShowHelp = !ShowHelp;
  if (!IO.KeyCtrl)
    return;
  if (Keys.pressed(Keys.S))
    Ctx.Sink.post(cmd::Save{});
  if (Keys.pressed(Keys.J))
    Jobs.openAddDialog();
  if (Keys.pressed(Keys.O))
    PendingDialog = Dialog::Open;
  if (Keys.pressed(Keys.Q))
    QuitRequested = true;
  if (Keys.pressed(Keys.R))
    Ctx.Sink.post(cmd::Recompile{IO.KeyShift ? 0 : Ctx.Snap.SelectedJob});
  if (Keys.pressed(Keys.Equal, true))
    Settings.FontScale = std::min(3.0f, Settings.FontScale + 0.1f);
  if (Keys.pressed(Keys.Minus, true))
    Settings.FontScale = std::max(0.5f, Settings.FontScale - 0.1f);
}

void ShellView::drawMenuBar(ViewContext &Ctx) {
  const GuiSnapshot &Snap = Ctx.Snap;
  if (!ImGui::BeginMainMenuBar())
    return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open…", "Ctrl+O"))
      PendingDialog = Dialog::Open;
    if (ImGui::BeginMenu("Examples", !Snap.Examples.empty())) {
      for (const std::string &E : Snap.Examples) {
        size_t Slash = E.find_last_of('/');
        std::string Name = Slash == std::string::npos ? E : E.substr(Slash + 1);
        if (ImGui::MenuItem(Name.c_str(), nullptr, E == Snap.FilePath))
          Ctx.Sink.post(cmd::OpenFile{E});
      }
      ImGui::EndMenu();
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Save", "Ctrl+S"))
      Ctx.Sink.post(cmd::Save{});
    if (ImGui::MenuItem("Save as…")) {
      PendingDialog = Dialog::SaveAs;
      DialogPath = Snap.FilePath;
    }
    if (ImGui::MenuItem("Export selected job…", nullptr, false,
                        Snap.SelectedJob != 0)) {
      ExportJobId = Snap.SelectedJob;
      PendingDialog = Dialog::Export;
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q"))
      QuitRequested = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Jobs")) {
    if (ImGui::MenuItem("Add job…", "Ctrl+J"))
      Jobs.openAddDialog();
    if (ImGui::MenuItem("Recompile selected", "Ctrl+R", false,
                        Snap.SelectedJob != 0))
      Ctx.Sink.post(cmd::Recompile{Snap.SelectedJob});
    if (ImGui::MenuItem("Recompile all", "Ctrl+Shift+R", false,
                        !Snap.Jobs.empty()))
      Ctx.Sink.post(cmd::Recompile{0});
    if (ImGui::MenuItem("Compare…", nullptr, false, Snap.Jobs.size() >= 2))
      Settings.Visible[size_t(Panel::Compare)] = true;
    ImGui::Separator();
    // Julia's --check-bounds, for every job at once (an engine-wide mode).
    if (ImGui::BeginMenu("Bounds checks")) {
      for (CheckBounds Mode : AllCheckBounds) {
        std::string Label = std::string(checkBoundsName(Mode)) + ": " +
                            checkBoundsMeaning(Mode);
        if (ImGui::MenuItem(Label.c_str(), nullptr, Snap.Bounds == Mode) &&
            Snap.Bounds != Mode)
          Ctx.Sink.post(cmd::SetCheckBounds{Mode});
      }
      ImGui::EndMenu();
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    for (size_t P = 0; P < size_t(Panel::NumPanels); ++P)
      ImGui::MenuItem(panelTitle(Panel(P)), nullptr, &Settings.Visible[P]);
    ImGui::Separator();
    if (ImGui::MenuItem("Dark theme", nullptr, Settings.Theme == ThemeKind::Dark))
      Settings.Theme = ThemeKind::Dark;
    if (ImGui::MenuItem("Light theme", nullptr, Settings.Theme == ThemeKind::Light))
      Settings.Theme = ThemeKind::Light;
    ImGui::SetNextItemWidth(120);
    ImGui::SliderFloat("font scale", &Settings.FontScale, 0.5f, 3.0f, "%.2f");
    ImGui::Separator();
    if (ImGui::MenuItem("Reset layout"))
      LayoutPending = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    if (ImGui::MenuItem("Keyboard shortcuts", "F1"))
      ShowHelp = true;
    ImGui::EndMenu();
  }

  // Status on the right: the selected job and the Workspace's last word.
  std::string Status = statusBarJobText(Snap);
  // The Workspace's word in the error colour when it reports a failure.
  std::string Message;
  if (!Snap.StatusMessage.empty())
    Message = (Status.empty() ? "" : "   |   ") + Snap.StatusMessage;
  char Fps[32] = "";
  if (FrameMs > 0)
    std::snprintf(Fps, sizeof Fps, "   frame %.1f ms", FrameMs);
  float W = ImGui::CalcTextSize((Status + Message + Fps).c_str()).x;
  float X = ImGui::GetWindowWidth() - W - 12;
  if (X > ImGui::GetCursorPosX() + 20) {
    ImGui::SetCursorPosX(X);
    ImGui::TextDisabled("%s", Status.c_str());
    ImGui::SameLine(0, 0);
    if (Snap.StatusIsError)
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(Ctx.Colors.Error), "%s",
                         Message.c_str());
    else
      ImGui::TextDisabled("%s", Message.c_str());
    ImGui::SameLine(0, 0);
    ImGui::TextDisabled("%s", Fps);
  }
  ImGui::EndMainMenuBar();
}

void ShellView::drawDialogs(ViewContext &Ctx) {
  static const char *Titles[] = {"", "Open file", "Save as", "Export job"};
  if (PendingDialog != Dialog::None) {
    if (PendingDialog == Dialog::Open && DialogPath.empty())
      DialogPath = Ctx.Snap.FilePath;
    if (PendingDialog == Dialog::Export)
      DialogPath = "prism-export";
    ImGui::OpenPopup(Titles[int(PendingDialog)]);
  }
  Dialog Current = PendingDialog;
  PendingDialog = Dialog::None;
  for (int D = 1; D <= 3; ++D) {
    ImGui::SetNextWindowSize(ImVec2(520, 0), ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal(Titles[D], nullptr,
                                ImGuiWindowFlags_NoSavedSettings))
      continue;
    char Buf[1024];
    std::snprintf(Buf, sizeof Buf, "%s", DialogPath.c_str());
    ImGui::TextDisabled(D == 3 ? "folder (created if missing)" : "path");
    ImGui::SetNextItemWidth(-1);
    if (Current != Dialog::None)
      ImGui::SetKeyboardFocusHere();
    bool Enter = ImGui::InputText("##path", Buf, sizeof Buf,
                                  ImGuiInputTextFlags_EnterReturnsTrue);
    DialogPath = Buf;
    if (D == 1 && !Ctx.Snap.Examples.empty()) {
      ImGui::TextDisabled("examples");
      for (const std::string &E : Ctx.Snap.Examples)
        if (ImGui::Selectable(E.c_str(), E == DialogPath))
          DialogPath = E;
    }
    if (D == 3)
      ImGui::TextWrapped("Writes every stage, the pass diffs and report.json "
                         "of the job into the folder.");
    ImGui::Separator();
    bool Ok = ImGui::Button(D == 1 ? "Open" : D == 2 ? "Save" : "Export",
                            ImVec2(100, 0)) ||
              Enter;
    ImGui::SameLine();
    if (ImGui::Button("Cancel", ImVec2(100, 0)) ||
        ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
      ImGui::CloseCurrentPopup();
    if (Ok && !DialogPath.empty()) {
      if (D == 1)
        Ctx.Sink.post(cmd::OpenFile{DialogPath});
      else if (D == 2)
        Ctx.Sink.post(cmd::Save{DialogPath});
      else
        Ctx.Sink.post(cmd::ExportJob{ExportJobId, DialogPath});
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
}

void ShellView::drawHelp() {
  ImGui::SetNextWindowSize(ImVec2(460, 0), ImGuiCond_Appearing);
  ImVec2 D = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(D.x * 0.5f, D.y * 0.4f), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  if (!ImGui::Begin("Keyboard shortcuts", &ShowHelp,
                    ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  static const char *Rows[][2] = {
      {"Ctrl+S", "save the source"},
      {"Ctrl+O", "open a file"},
      {"Ctrl+J", "add a job"},
      {"Ctrl+R", "recompile the selected job (Shift: all)"},
      {"Ctrl+F", "find in the focused pane"},
      {"Enter / F3", "next match (Shift: previous)"},
      {"Esc", "close the find bar or a dialog"},
      {"Ctrl+= / Ctrl+-", "zoom in / out"},
      {"F1", "this window"},
      {"hover a line", "light its source line and every line it produced, "
                       "through inlining"},
      {"click a line", "pin its source line (click the gutter to unpin)"},
  };
  if (ImGui::BeginTable("##keys", 2, ImGuiTableFlags_RowBg)) {
    ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("does", ImGuiTableColumnFlags_WidthStretch);
    for (auto &R : Rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(R[0]);
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%s", R[1]);
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

std::vector<std::string> drawnWindowTitles() {
  std::vector<std::string> Titles;
  ImGuiContext *G = ImGui::GetCurrentContext();
  if (!G)
    return Titles;
  for (ImGuiWindow *W : G->Windows) {
    if (!W->Active || W->Hidden ||
        (W->Flags & (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Tooltip |
                     ImGuiWindowFlags_Popup)))
      continue;
    std::string Name = W->Name;
    if (Name.rfind("Debug##", 0) == 0 || Name.rfind("##", 0) == 0)
      continue;
    Titles.push_back(Name.substr(0, Name.find("##")));
  }
  return Titles;
}

} // namespace prism::views
