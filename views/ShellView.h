/// \file
/// The GUI's window shell: the main menu, the default layout (a grid of
/// panel windows that fits 1600×1000 and scales to the display), theme and
/// font-scale settings persisted in ImGui's ini file, the keyboard
/// shortcuts and the dialogs (open, save as, export, help). It owns one
/// instance of each panel and hands them the frame's snapshot; it keeps no
/// data of its own beyond UI state.
#pragma once

#include "CompareView.h"
#include "DevicesView.h"
#include "InvalidationsView.h"
#include "JobsView.h"
#include "PipelineView.h"
#include "SourceView.h"
#include "StagePane.h"
#include "StatsView.h"
#include "ViewContext.h"

#include <array>
#include <string>
#include <vector>

namespace prism::views {

enum class Panel : uint8_t {
  Jobs,
  Source,
  Invalidations,
  Typed,
  LLVMRaw,
  LLVMOpt,
  Asm,
  Pipeline,
  Stats,
  Devices,
  Compare,
  NumPanels
};
/// The panel's window title (also its ImGui ID and ini key).
const char *panelTitle(Panel P);

struct ShellSettings {
  ThemeKind Theme = ThemeKind::Dark;
  float FontScale = 1.0f; ///< the user's zoom, on top of the monitor's scale
  std::array<bool, size_t(Panel::NumPanels)> Visible;
  ShellSettings();
};

class ShellView {
public:
  ShellView();

  /// Registers the `[Prism][Settings]` ini section (theme, font scale, open
  /// panels). Call after ImGui::CreateContext, before the ini is loaded
  /// (the first NewFrame), and only when an ini file is used.
  void installSettingsHandler();
  /// The monospace font for code (null: ImGui's default font).
  void setMonoFont(ImFont *F) { Mono = F; }
  void setKeyBindings(const KeyBindings &K) { Keys = K; }
  /// The monitor's content scale; FontBaked: the fonts were rasterised at
  /// that scale already, so only the user's zoom applies on top.
  void setContentScale(float S, bool FontBaked) {
    ContentScale = S;
    FontBakedAtScale = FontBaked;
  }

  /// Draws a whole frame's UI from the snapshot (between NewFrame and Render).
  void draw(const GuiSnapshot &Snap, CommandSink &Sink);

  bool quitRequested() const { return QuitRequested; }
  ShellSettings &settings() { return Settings; }
  void resetLayout() { LayoutPending = true; }
  /// Scrolls every stage pane Rows further down (wrapping): what
  /// `gui --bench-scroll` does each frame to measure scrolling.
  /// The four stage panes, in layout order.
  std::array<const StagePane *, 4> stagePanes() const {
    return {&Typed, &LLVMRaw, &LLVMOpt, &Asm};
  }
  void scrollStagePanes(uint32_t Row) {
    for (StagePane *P : {&Typed, &LLVMRaw, &LLVMOpt, &Asm})
      P->scrollToRow(Row);
  }
  /// The Devices panel's Run form (`gui --run/--compare` fill it).
  RunForm &runForm() { return Devices.Form; }
  void presetRunForm(RunForm F) { Devices.presetForm(std::move(F)); }
  /// Frame time shown in the menu bar (the app measures it).
  void setFrameMs(double Ms) { FrameMs = Ms; }
  /// What each panel took to draw in the last frame, in ms (layout and
  /// draw lists, not the rasteriser).
  const std::array<double, size_t(Panel::NumPanels)> &panelMs() const {
    return PanelMs;
  }

  // The panels, for tests.
  JobsView &jobs() { return Jobs; }
  SourceView &source() { return Source; }
  StagePane &stage(Panel P);
  PipelineView &pipeline() { return Pipeline; }
  InvalidationsView &invalidations() { return Invalidations; }
  StatsView &stats() { return Stats; }
  DevicesView &devices() { return Devices; }
  CompareView &compare() { return Compare; }
  LinkState &links() { return Links; }

private:
  void applySettings();
  void placeWindow(Panel P);
  void drawMenuBar(ViewContext &Ctx);
  void handleShortcuts(ViewContext &Ctx);
  void drawDialogs(ViewContext &Ctx);
  void drawHelp();

  JobsView Jobs;
  SourceView Source;
  InvalidationsView Invalidations;
  StagePane Typed{"Typed IR", {Stage::Typed, Stage::TypedOpt}};
  StagePane LLVMRaw{"LLVM IR (raw)", {Stage::LLVMRaw}};
  StagePane LLVMOpt{"LLVM IR (optimised)", {Stage::LLVMOpt}};
  StagePane Asm{"Assembly", {Stage::Asm}};
  PipelineView Pipeline;
  StatsView Stats;
  DevicesView Devices;
  CompareView Compare;

  LinkState Links;
  ShellSettings Settings;
  ThemeKind AppliedTheme = ThemeKind::Light; ///< forces the first apply
  const Palette *Colors = nullptr;
  KeyBindings Keys;
  ImFont *Mono = nullptr;
  float ContentScale = 1.0f;
  bool FontBakedAtScale = false;
  bool LayoutPending = false;
  bool QuitRequested = false;
  bool ShowHelp = false;
  double FrameMs = 0;
  std::array<double, size_t(Panel::NumPanels)> PanelMs{};

  enum class Dialog { None, Open, SaveAs, Export } PendingDialog = Dialog::None;
  std::string DialogPath;
  JobId ExportJobId = 0;
  /// The Run form's block last posted as SetLaunchBlock (zeros: none).
  std::array<unsigned, 3> PostedBlock = {0, 0, 0};

public:
  /// The block the app already gave the Workspace before the first frame.
  void setPostedBlock(std::array<unsigned, 3> B) { PostedBlock = B; }
};

/// Titles of the top-level windows drawn in the last rendered frame
/// (neither child windows, tooltips nor popups), for `--list-windows` and
/// the tests.
std::vector<std::string> drawnWindowTitles();

} // namespace prism::views
