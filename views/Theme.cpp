#include "Theme.h"

namespace prism::views {

static ImU32 rgb(unsigned Hex, unsigned A = 255) {
  return IM_COL32((Hex >> 16) & 0xff, (Hex >> 8) & 0xff, Hex & 0xff, A);
}

static Palette makeDark() {
  Palette P;
  P.Dark = true;
  auto T = [&](TokenKind K, unsigned Hex) { P.Tokens[int(K)] = rgb(Hex); };
  T(TokenKind::Text, 0xd4d4d4);
  T(TokenKind::Keyword, 0xc586c0);
  T(TokenKind::Type, 0x4ec9b0);
  T(TokenKind::Comment, 0x6a9955);
  T(TokenKind::Value, 0x9cdcfe);
  T(TokenKind::Global, 0xdcdcaa);
  T(TokenKind::Number, 0xb5cea8);
  T(TokenKind::String, 0xce9178);
  T(TokenKind::Label, 0xf0a35e);
  T(TokenKind::Metadata, 0x808080);
  T(TokenKind::Mnemonic, 0x569cd6);
  T(TokenKind::Register, 0x9cdcfe);
  T(TokenKind::Directive, 0xc586c0);
  T(TokenKind::Unstable, 0xf14c4c);
  P.Text = rgb(0xd4d4d4);
  P.Muted = rgb(0x8a8f98);
  P.LineNumber = rgb(0x5a5f68);
  P.LineNumberHot = rgb(0xc8ccd4);
  P.HoverRow = rgb(0xffffff, 18);
  P.SelectedRow = rgb(0x3a6ea5, 90);
  P.FindMatch = rgb(0xe2b93d, 70);
  P.FindCurrent = rgb(0xe2b93d, 150);
  P.DiffAddedBg = rgb(0x2ea043, 48);
  P.DiffRemovedBg = rgb(0xf85149, 48);
  P.DiffAddedText = rgb(0x7ee787);
  P.DiffRemovedText = rgb(0xffa198);
  P.DiffHunk = rgb(0x79c0ff);
  P.Ok = rgb(0x3fb950);
  P.Failed = rgb(0xf85149);
  P.Busy = rgb(0x58a6ff);
  P.Stale = rgb(0xd29922);
  P.Warning = rgb(0xd29922);
  P.Error = rgb(0xf85149);
  P.GutterBg = rgb(0x000000, 40);
  P.TintAlpha = 0.24f;
  P.MapAlpha = 0.07f;
  return P;
}

static Palette makeLight() {
  Palette P;
  P.Dark = false;
  auto T = [&](TokenKind K, unsigned Hex) { P.Tokens[int(K)] = rgb(Hex); };
  T(TokenKind::Text, 0x1f2328);
  T(TokenKind::Keyword, 0xa626a4);
  T(TokenKind::Type, 0x0b7285);
  T(TokenKind::Comment, 0x6a737d);
  T(TokenKind::Value, 0x005cc5);
  T(TokenKind::Global, 0x8a5300);
  T(TokenKind::Number, 0x098658);
  T(TokenKind::String, 0xa31515);
  T(TokenKind::Label, 0xb35900);
  T(TokenKind::Metadata, 0x8c959f);
  T(TokenKind::Mnemonic, 0x0550ae);
  T(TokenKind::Register, 0x116329);
  T(TokenKind::Directive, 0x8250df);
  T(TokenKind::Unstable, 0xcf222e);
  P.Text = rgb(0x1f2328);
  P.Muted = rgb(0x6e7781);
  P.LineNumber = rgb(0xa0a7b0);
  P.LineNumberHot = rgb(0x24292f);
  P.HoverRow = rgb(0x000000, 14);
  P.SelectedRow = rgb(0x54aeff, 70);
  P.FindMatch = rgb(0xffd33d, 110);
  P.FindCurrent = rgb(0xff9f1c, 160);
  P.DiffAddedBg = rgb(0x2da44e, 40);
  P.DiffRemovedBg = rgb(0xcf222e, 36);
  P.DiffAddedText = rgb(0x116329);
  P.DiffRemovedText = rgb(0x82071e);
  P.DiffHunk = rgb(0x0969da);
  P.Ok = rgb(0x1a7f37);
  P.Failed = rgb(0xcf222e);
  P.Busy = rgb(0x0969da);
  P.Stale = rgb(0x9a6700);
  P.Warning = rgb(0x9a6700);
  P.Error = rgb(0xcf222e);
  P.GutterBg = rgb(0x000000, 10);
  P.TintAlpha = 0.30f;
  P.MapAlpha = 0.10f;
  return P;
}

ImU32 Palette::jobStatus(JobStatus S) const {
  switch (S) {
  case JobStatus::Ok:
    return Ok;
  case JobStatus::Failed:
    return Failed;
  case JobStatus::Queued:
  case JobStatus::Compiling:
    return Busy;
  case JobStatus::Stale:
    return Stale;
  }
  return Muted;
}

ImU32 Palette::sourceLine(uint32_t SrcLine, float Alpha) const {
  Rgb C = sourceLineColor(SrcLine);
  if (!Dark) { // deeper hues read better on white
    C.R *= 0.85f;
    C.G *= 0.85f;
    C.B *= 0.85f;
  }
  return ImGui::ColorConvertFloat4ToU32(ImVec4(C.R, C.G, C.B, Alpha));
}

const Palette &palette(ThemeKind K) {
  static const Palette Dark = makeDark(), Light = makeLight();
  return K == ThemeKind::Dark ? Dark : Light;
}

const Palette &applyTheme(ThemeKind K) {
  ImGuiStyle &S = ImGui::GetStyle();
  if (K == ThemeKind::Dark)
    ImGui::StyleColorsDark(&S);
  else
    ImGui::StyleColorsLight(&S);
  S.WindowRounding = 4;
  S.ChildRounding = 3;
  S.FrameRounding = 3;
  S.PopupRounding = 4;
  S.GrabRounding = 3;
  S.TabRounding = 3;
  S.ScrollbarRounding = 6;
  S.WindowBorderSize = 1;
  S.FrameBorderSize = K == ThemeKind::Light ? 1 : 0;
  S.WindowPadding = ImVec2(8, 6);
  S.FramePadding = ImVec2(6, 3);
  S.ItemSpacing = ImVec2(7, 4);
  S.ItemInnerSpacing = ImVec2(5, 4);
  S.CellPadding = ImVec2(5, 2);
  S.ScrollbarSize = 13;
  S.WindowTitleAlign = ImVec2(0.0f, 0.5f);
  ImVec4 *C = S.Colors;
  if (K == ThemeKind::Dark) {
    C[ImGuiCol_WindowBg] = ImVec4(0.11f, 0.12f, 0.14f, 1.00f);
    C[ImGuiCol_ChildBg] = ImVec4(0.09f, 0.10f, 0.11f, 1.00f);
    C[ImGuiCol_PopupBg] = ImVec4(0.13f, 0.14f, 0.16f, 0.98f);
    C[ImGuiCol_Border] = ImVec4(0.24f, 0.26f, 0.30f, 1.00f);
    C[ImGuiCol_TitleBg] = ImVec4(0.13f, 0.14f, 0.17f, 1.00f);
    C[ImGuiCol_TitleBgActive] = ImVec4(0.17f, 0.22f, 0.31f, 1.00f);
    C[ImGuiCol_TitleBgCollapsed] = C[ImGuiCol_TitleBg];
    C[ImGuiCol_MenuBarBg] = ImVec4(0.14f, 0.15f, 0.18f, 1.00f);
    C[ImGuiCol_FrameBg] = ImVec4(0.17f, 0.18f, 0.21f, 1.00f);
    C[ImGuiCol_FrameBgHovered] = ImVec4(0.22f, 0.24f, 0.29f, 1.00f);
    C[ImGuiCol_FrameBgActive] = ImVec4(0.25f, 0.28f, 0.35f, 1.00f);
    C[ImGuiCol_Header] = ImVec4(0.22f, 0.33f, 0.50f, 0.55f);
    C[ImGuiCol_HeaderHovered] = ImVec4(0.26f, 0.40f, 0.60f, 0.70f);
    C[ImGuiCol_HeaderActive] = ImVec4(0.26f, 0.42f, 0.65f, 0.90f);
    C[ImGuiCol_Button] = ImVec4(0.20f, 0.23f, 0.29f, 1.00f);
    C[ImGuiCol_ButtonHovered] = ImVec4(0.26f, 0.36f, 0.52f, 1.00f);
    C[ImGuiCol_ButtonActive] = ImVec4(0.28f, 0.42f, 0.62f, 1.00f);
    C[ImGuiCol_TableHeaderBg] = ImVec4(0.15f, 0.16f, 0.19f, 1.00f);
    C[ImGuiCol_TableRowBgAlt] = ImVec4(1.00f, 1.00f, 1.00f, 0.025f);
    C[ImGuiCol_PlotHistogram] = ImVec4(0.35f, 0.60f, 0.95f, 1.00f);
    C[ImGuiCol_PlotLines] = ImVec4(0.35f, 0.60f, 0.95f, 1.00f);
    C[ImGuiCol_Text] = ImVec4(0.86f, 0.87f, 0.89f, 1.00f);
    C[ImGuiCol_TextDisabled] = ImVec4(0.52f, 0.55f, 0.60f, 1.00f);
  } else {
    C[ImGuiCol_WindowBg] = ImVec4(0.97f, 0.97f, 0.98f, 1.00f);
    C[ImGuiCol_ChildBg] = ImVec4(1.00f, 1.00f, 1.00f, 1.00f);
    C[ImGuiCol_TitleBgActive] = ImVec4(0.80f, 0.86f, 0.95f, 1.00f);
    C[ImGuiCol_TitleBg] = ImVec4(0.91f, 0.92f, 0.94f, 1.00f);
    C[ImGuiCol_Border] = ImVec4(0.78f, 0.80f, 0.84f, 1.00f);
    C[ImGuiCol_TableRowBgAlt] = ImVec4(0.00f, 0.00f, 0.00f, 0.025f);
    C[ImGuiCol_PlotHistogram] = ImVec4(0.20f, 0.45f, 0.85f, 1.00f);
    C[ImGuiCol_PlotLines] = ImVec4(0.20f, 0.45f, 0.85f, 1.00f);
  }
  return palette(K);
}

} // namespace prism::views
