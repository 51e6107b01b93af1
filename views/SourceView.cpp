#include "SourceView.h"

#include "RemarksView.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

namespace prism::views {

static int resizeCallback(ImGuiInputTextCallbackData *D) {
  if (D->EventFlag == ImGuiInputTextFlags_CallbackResize) {
    auto *S = static_cast<std::string *>(D->UserData);
    S->resize(D->BufTextLen);
    D->Buf = S->data();
  }
  return 0;
}

void SourceView::sync(const GuiSnapshot &Snap) {
  if (Snap.SourceRevision == SyncedRevision && Snap.FilePath == SyncedPath)
    return;
  // Adopt the Workspace's text unless the user typed something it has not
  // seen yet (its echo of our EditSource arrives a few frames later).
  bool LocalEdits = Buffer != SyncedText && Snap.FilePath == SyncedPath;
  if (!LocalEdits || Snap.Source == Buffer)
    Buffer = Snap.Source;
  SyncedRevision = Snap.SourceRevision;
  SyncedPath = Snap.FilePath;
  SyncedText = Snap.Source;
}

void SourceView::indexReport(const JobEntry *J, const std::string &File) {
  if (!J || !J->Report)
    Gutter = nullptr;
  else if (!Gutter || !Gutter->describes(*J->Report, File))
    Gutter = J->index(File);
}

const std::vector<ReportIndex::StageCounts> &SourceView::outputCount() const {
  static const std::vector<ReportIndex::StageCounts> None;
  return Gutter ? Gutter->outputCounts() : None;
}

const std::vector<std::vector<const OptRemark *>> &
SourceView::missedByLine() const {
  static const std::vector<std::vector<const OptRemark *>> None;
  return Gutter ? Gutter->missedByLine() : None;
}

void SourceView::collectDiagnostics(ViewContext &Ctx) {
  Diags.clear();
  for (const Diagnostic &D : Ctx.Snap.SourceDiagnostics)
    Diags.push_back(&D);
  if (const JobReport *R = Ctx.selectedReport())
    for (const Diagnostic &D : R->Diagnostics)
      if (!D.Loc.known() || sameSourceFile(D.Loc.FileName, Ctx.Snap.FilePath))
        Diags.push_back(&D);
  // A run that failed in this file's code (a BoundsError at line 13), while
  // that code is current.
  for (const DeviceEntry &Dev : Ctx.Snap.Devices)
    if (Dev.LastRun && !Dev.LastRun->Stale)
      for (const Diagnostic &D : Dev.LastRun->Diagnostics)
        if (D.Loc.known() && sameSourceFile(D.Loc.FileName, Ctx.Snap.FilePath))
          Diags.push_back(&D);
  std::stable_sort(Diags.begin(), Diags.end(),
                   [](const Diagnostic *A, const Diagnostic *B) {
                     return A->Loc.Line < B->Loc.Line;
                   });
  MarksByLine.clear();
  for (const Diagnostic *D : Diags) {
    if (!D->Loc.known())
      continue;
    if (MarksByLine.size() <= D->Loc.Line)
      MarksByLine.resize(D->Loc.Line + 1);
    MarksByLine[D->Loc.Line].push_back({D->Sev, D->Message});
  }
}

void SourceView::draw(ViewContext &Ctx, bool *Open) {
  if (Open && !*Open)
    return;
  if (ImGui::Begin("Source", Open))
    drawContent(Ctx);
  ImGui::End();
}

void SourceView::drawContent(ViewContext &Ctx) {
  const GuiSnapshot &Snap = Ctx.Snap;
  sync(Snap);
  const JobEntry *J = Ctx.selectedJob();
  indexReport(J, Snap.FilePath);
  collectDiagnostics(Ctx);

  // Toolbar: file, dirty mark, save.
  std::string_view Path = Snap.FilePath;
  size_t Slash = Path.find_last_of('/');
  std::string Base(Slash == std::string_view::npos ? Path : Path.substr(Slash + 1));
  ImGui::TextUnformatted(Base.empty() ? "(no file)" : Base.c_str());
  if (ImGui::IsItemHovered() && !Path.empty())
    ImGui::SetTooltip("%s", Snap.FilePath.c_str());
  bool Dirty = Snap.SourceDirty || Buffer != Snap.Source;
  if (Dirty) {
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(Ctx.Colors.Stale),
                       "modified");
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("Save"))
    Ctx.Sink.post(cmd::Save{});
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Ctrl+S");
  if (uint32_t Pin = Ctx.Links.pinnedSource()) {
    ImGui::SameLine();
    ImGui::TextDisabled("| pinned line %u", Pin);
    ImGui::SameLine();
    if (ImGui::SmallButton("unpin"))
      Ctx.Links.clearPin();
  }

  ImVec2 Avail = ImGui::GetContentRegionAvail();
  float DiagH =
      Diags.empty()
          ? ImGui::GetFrameHeightWithSpacing() * 1.2f
          : std::min(std::max(DiagPaneH, diagnosticsHeight()), Avail.y * 0.45f);
  ImGui::BeginChild("##editor", ImVec2(0, Avail.y - DiagH), true,
                    ImGuiWindowFlags_HorizontalScrollbar);
  drawEditor(Ctx);
  ImGui::EndChild();
  drawDiagnostics(Ctx);
}

void SourceView::drawEditor(ViewContext &Ctx) {
  const Palette &P = Ctx.Colors;
  ImFont *Font = Ctx.Mono ? Ctx.Mono : ImGui::GetFont();
  ImGui::PushFont(Font);
  const float FontSize = ImGui::GetFontSize();
  const float CharW = Font->CalcTextSizeA(FontSize, FLT_MAX, 0, "0").x;
  const ImGuiStyle &Style = ImGui::GetStyle();

  uint32_t NumLines = 1, Longest = 0, Cur = 0;
  for (char C : Buffer) {
    if (C == '\n') {
      ++NumLines;
      Longest = std::max(Longest, Cur);
      Cur = 0;
    } else {
      ++Cur;
    }
  }
  Longest = std::max(Longest, Cur);

  const float GutterW = CharW * 6.5f;
  const ImVec2 Origin = ImGui::GetCursorScreenPos();
  const float TextX = Origin.x + GutterW + Style.FramePadding.x;
  const float TextY = Origin.y + Style.FramePadding.y;
  auto RowY = [&](uint32_t Line) { return TextY + (Line - 1) * FontSize; };

  if (JumpLine) {
    float Y = (JumpLine - 1) * FontSize;
    ImGui::SetScrollY(std::max(0.0f, Y - ImGui::GetWindowHeight() / 3));
    Ctx.Links.pinSource(JumpLine);
    JumpLine = 0;
  }

  // Backgrounds first (the editor's frame is transparent above them).
  ImDrawList *DL = ImGui::GetWindowDrawList();
  const float RightX = Origin.x + std::max(ImGui::GetWindowWidth(),
                                           GutterW + (Longest + 4) * CharW);
  uint32_t Lit = Ctx.Links.litSource();
  uint32_t Pin = Ctx.Links.pinnedSource();
  for (const LineLink &L : Ctx.Links.hoveredOrigins())
    if (L.Line >= 1 && L.Line <= NumLines)
      DL->AddRectFilled(ImVec2(Origin.x, RowY(L.Line)),
                        ImVec2(RightX, RowY(L.Line) + FontSize),
                        P.sourceLine(L.Line, L.inlined() ? P.TintAlpha * 0.7f
                                                         : P.TintAlpha * 1.6f));
  if (Lit && Ctx.Links.hoveredOrigins().empty() && Lit <= NumLines)
    DL->AddRectFilled(ImVec2(Origin.x, RowY(Lit)),
                      ImVec2(RightX, RowY(Lit) + FontSize),
                      P.sourceLine(Lit, P.TintAlpha * 1.6f));
  if (Pin && Pin <= NumLines)
    DL->AddRect(ImVec2(Origin.x + GutterW, RowY(Pin)),
                ImVec2(RightX - 2, RowY(Pin) + FontSize),
                P.sourceLine(Pin, 0.9f));
  for (uint32_t L = 1; L < MarksByLine.size() && L <= NumLines; ++L)
    if (!MarksByLine[L].empty()) {
      bool Err = std::any_of(MarksByLine[L].begin(), MarksByLine[L].end(),
                             [](const Mark &M) { return M.Sev == Severity::Error; });
      ImU32 C = Err ? P.Error : P.Warning;
      ImVec4 V = ImGui::ColorConvertU32ToFloat4(C);
      V.w = 0.16f;
      DL->AddRectFilled(ImVec2(Origin.x + GutterW, RowY(L)),
                        ImVec2(RightX, RowY(L) + FontSize),
                        ImGui::ColorConvertFloat4ToU32(V));
      // Wavy-ish underline of the whole line.
      DL->AddLine(ImVec2(TextX, RowY(L) + FontSize - 1),
                  ImVec2(RightX - 4, RowY(L) + FontSize - 1), C, 1.0f);
    }

  // Gutter: numbers, output bars in the line's correlation colour, marks.
  float ScrollY = ImGui::GetScrollY();
  float WinTop = ImGui::GetWindowPos().y, WinH = ImGui::GetWindowHeight();
  uint32_t FirstVis = uint32_t(std::max(0.0f, ScrollY / FontSize - 1)) + 1;
  uint32_t LastVis = std::min<uint32_t>(NumLines, FirstVis + uint32_t(WinH / FontSize) + 2);
  // A pinned line (a click elsewhere, --pin-line) is scrolled into view,
  // as the stage panes scroll to its code, until it has been on screen;
  // after that the user's own scrolling is left alone.
  ShownLines = {
      uint32_t(ScrollY / FontSize) + 1,
      std::min<uint32_t>(NumLines, uint32_t((ScrollY + WinH) / FontSize))};
  if (!Pin || Ctx.Links.pinChanged())
    ScrolledForPin = 0;
  if (Pin && Pin <= NumLines && Pin != ScrolledForPin) {
    float Want = std::max(0.0f, (float(Pin) - 1) * FontSize - WinH / 3);
    // On screen, or scrolled as far as it goes (the last lines of a file
    // stop at the bottom): done, so that the user's scrolling is not
    // pulled back every frame.
    if ((Pin >= ShownLines.first && Pin <= ShownLines.second) ||
        std::fabs(ScrollY - std::min(Want, ImGui::GetScrollMaxY())) < 1.0f)
      ScrolledForPin = Pin;
    else
      ImGui::SetScrollY(Want);
  }
  // A newly selected job: show its function (the lines its typed IR comes
  // from) unless some of it is on screen or a line is pinned.
  if (Ctx.Snap.SelectedJob != RevealedJob && Gutter) {
    RevealedJob = Ctx.Snap.SelectedJob;
    uint32_t First = 0, Last = 0;
    for (uint32_t L = 1; L < outputCount().size(); ++L)
      if (outputCount()[L][size_t(Stage::Typed)]) {
        First = First ? First : L;
        Last = L;
      }
    if (First && !Ctx.Links.pinnedSource() &&
        (Last < FirstVis || First > LastVis))
      ImGui::SetScrollY(std::max(0.0f, (float(First) - 3) * FontSize));
  }
  ImVec2 Mouse = ImGui::GetMousePos();
  bool WinHovered = ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows);
  uint32_t HoverLine = 0;
  if (WinHovered && Mouse.y >= TextY && Mouse.y > WinTop)
    HoverLine = uint32_t((Mouse.y - TextY) / FontSize) + 1;
  if (HoverLine > NumLines)
    HoverLine = 0;
  char Buf[16];
  for (uint32_t L = FirstVis; L <= LastVis; ++L) {
    float Y = RowY(L);
    bool Hot = L == HoverLine || L == Lit;
    int N = std::snprintf(Buf, sizeof Buf, "%4u", L);
    DL->AddText(Font, FontSize, ImVec2(Origin.x + CharW * 0.5f, Y),
                Hot ? P.LineNumberHot : P.LineNumber, Buf, Buf + N);
    if (L < outputCount().size()) {
      bool Any = std::any_of(outputCount()[L].begin(), outputCount()[L].end(),
                             [](uint32_t C) { return C != 0; });
      if (Any)
        DL->AddRectFilled(ImVec2(Origin.x + CharW * 5.0f, Y + 1),
                          ImVec2(Origin.x + CharW * 5.6f, Y + FontSize - 1),
                          P.sourceLine(L, 0.95f), 1.5f);
    }
    if (L < MarksByLine.size() && !MarksByLine[L].empty()) {
      bool Err = MarksByLine[L].front().Sev == Severity::Error;
      DL->AddCircleFilled(ImVec2(Origin.x + CharW * 6.0f, Y + FontSize * 0.5f),
                          FontSize * 0.22f, Err ? P.Error : P.Warning);
    } else if (L < missedByLine().size() && !missedByLine()[L].empty()) {
      // An optimisation LLVM or the inliner did not make here: a hollow
      // marker, quieter than a diagnostic's dot.
      DL->AddCircle(ImVec2(Origin.x + CharW * 6.0f, Y + FontSize * 0.5f),
                    FontSize * 0.2f, P.Warning, 0, 1.5f);
    }
  }

  // The editor itself, as tall as its text so the outer child scrolls it
  // together with the gutter.
  ImGui::SetCursorScreenPos(ImVec2(Origin.x + GutterW, Origin.y));
  ImGui::PushStyleColor(ImGuiCol_FrameBg, IM_COL32(0, 0, 0, 0));
  ImVec2 EdSize(std::max(ImGui::GetContentRegionAvail().x,
                         (Longest + 4) * CharW + Style.FramePadding.x * 2),
                std::max(ImGui::GetContentRegionAvail().y,
                         (NumLines + 2) * FontSize + Style.FramePadding.y * 2));
  bool Changed = ImGui::InputTextMultiline(
      "##source", Buffer.data(), Buffer.capacity() + 1, EdSize,
      ImGuiInputTextFlags_CallbackResize | ImGuiInputTextFlags_AllowTabInput,
      resizeCallback, &Buffer);
  ImGui::PopStyleColor();
  if (Changed)
    Ctx.Sink.post(cmd::EditSource{Buffer});

  // Hover and pin: the gutter pins; hovering anywhere lights the outputs.
  if (HoverLine) {
    Ctx.Links.hoverSource(HoverLine);
    bool InGutter = Mouse.x < Origin.x + GutterW;
    if (InGutter && ImGui::IsMouseClicked(ImGuiMouseButton_Left))
      Ctx.Links.pinSource(HoverLine, /*Toggle=*/true);
    bool HasOut = HoverLine < outputCount().size();
    bool HasMark = HoverLine < MarksByLine.size() && !MarksByLine[HoverLine].empty();
    bool HasMissed =
        HoverLine < missedByLine().size() && !missedByLine()[HoverLine].empty();
    if (InGutter && (HasOut || HasMark || HasMissed)) {
      ImGui::PopFont();
      ImGui::BeginTooltip();
      if (HasOut) {
        ImGui::Text("line %u produced:", HoverLine);
        for (size_t S = 0; S < size_t(Stage::NumStages); ++S)
          if (uint32_t C = outputCount()[HoverLine][S])
            ImGui::BulletText("%u %s line%s", C, stageName(Stage(S)),
                              C == 1 ? "" : "s");
        ImGui::TextDisabled("click to pin; hover output lines for their "
                            "inlining stack");
      }
      if (HasMark)
        for (const Mark &M : MarksByLine[HoverLine])
          ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(
                                 M.Sev == Severity::Error ? P.Error : P.Warning),
                             "%s", M.Message.c_str());
      if (HasMissed) {
        ImGui::Separator();
        ImGui::Text("not optimised here (Pipeline ▸ Remarks):");
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40);
        for (const OptRemark *M : missedByLine()[HoverLine])
          ImGui::BulletText("%s: %s", M->Pass.c_str(), M->Message.c_str());
        ImGui::PopTextWrapPos();
      }
      ImGui::EndTooltip();
      ImGui::PushFont(Font);
    }
  }
  ImGui::PopFont();
}

/// The height the diagnostics list wants: every message and its shown
/// notes, wrapped as drawDiagnostics wraps them, so that a second error is
/// not below the fold while the editor has empty lines to spare.
float SourceView::diagnosticsHeight() const {
  const ImGuiStyle &Style = ImGui::GetStyle();
  const float Indent = ImGui::CalcTextSize("warning ").x;
  const float WrapW =
      std::max(60.0f, ImGui::GetContentRegionAvail().x - Style.ScrollbarSize -
                          ImGui::CalcTextSize("warning 999:99 ").x);
  auto Wrapped = [&](const std::string &Text, float W) {
    return ImGui::CalcTextSize(Text.c_str(), nullptr, false, W).y +
           Style.ItemSpacing.y;
  };
  float H = ImGui::GetTextLineHeightWithSpacing() + Style.WindowPadding.y;
  for (size_t I = 0; I < Diags.size() && I < 16; ++I) {
    H += Wrapped(Diags[I]->Message, WrapW);
    for (size_t K = 0; K < Diags[I]->Notes.size() && K < ShownNotes; ++K)
      H += Wrapped("note: " + Diags[I]->Notes[K].Message, WrapW + Indent);
    if (Diags[I]->Notes.size() > ShownNotes)
      H += ImGui::GetTextLineHeightWithSpacing();
  }
  return H;
}

void SourceView::drawDiagnostics(ViewContext &Ctx) {
  const Palette &P = Ctx.Colors;
  if (Diags.empty()) {
    ImGui::TextDisabled(Ctx.selectedReport() ? "no diagnostics"
                                             : "diagnostics appear here");
    return;
  }
  auto Count = [&](Severity S) {
    return size_t(std::count_if(Diags.begin(), Diags.end(),
                                [S](const Diagnostic *D) { return D->Sev == S; }));
  };
  size_t Errors = Count(Severity::Error), Warnings = Count(Severity::Warning);
  size_t Other = Diags.size() - Errors - Warnings;
  ImGui::Text("%zu error%s, %zu warning%s%s", Errors, Errors == 1 ? "" : "s",
              Warnings, Warnings == 1 ? "" : "s",
              Other ? (", " + std::to_string(Other) + " other").c_str() : "");
  ImGui::BeginChild("##diags", ImVec2(0, 0), false);
  for (size_t I = 0; I < Diags.size(); ++I) {
    const Diagnostic &D = *Diags[I];
    ImGui::PushID(int(I));
    ImU32 C = D.Sev == Severity::Error ? P.Error
              : D.Sev == Severity::Warning ? P.Warning
                                           : P.Muted;
    char Label[64];
    std::snprintf(Label, sizeof Label, "%s##d",
                  D.Sev == Severity::Error ? "error" : D.Sev == Severity::Warning ? "warning" : "note");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(C));
    bool Clicked = ImGui::Selectable(Label, false, ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap,
                                     ImVec2(ImGui::CalcTextSize("warning").x, 0));
    ImGui::PopStyleColor();
    ImGui::SameLine();
    if (D.Loc.known())
      ImGui::TextDisabled("%u:%u", D.Loc.Line, D.Loc.Col);
    else
      ImGui::TextDisabled("-");
    ImGui::SameLine();
    ImGui::TextWrapped("%s", D.Message.c_str());
    bool Hovered = ImGui::IsItemHovered();
    // The notes say what to do (the closest candidates, a possible fix):
    // under the message, not only in a tooltip. A long list ends in "…".
    ImGui::Indent(ImGui::CalcTextSize("warning ").x);
    for (size_t K = 0; K < D.Notes.size() && K < ShownNotes; ++K) {
      const DiagNote &N = D.Notes[K];
      // A line of this file by its number, as the messages; a line of
      // another (the prelude) is in the note's own text.
      bool Here = N.Loc.known() && (N.Loc.File == D.Loc.File ||
                                    N.Loc.FileName == D.Loc.FileName);
      std::string Where =
          Here ? std::to_string(N.Loc.Line) + ": " : std::string();
      ImGui::PushStyleColor(ImGuiCol_Text,
                            ImGui::ColorConvertU32ToFloat4(P.Muted));
      ImGui::TextWrapped("%snote: %s", Where.c_str(), N.Message.c_str());
      ImGui::PopStyleColor();
      Hovered |= ImGui::IsItemHovered();
    }
    if (D.Notes.size() > ShownNotes)
      ImGui::TextDisabled("… %zu more notes (hover)",
                          D.Notes.size() - ShownNotes);
    ImGui::Unindent(ImGui::CalcTextSize("warning ").x);
    if (Hovered && (!D.Notes.empty() || !D.Backtrace.empty())) {
      ImGui::BeginTooltip();
      for (const DiagNote &N : D.Notes)
        ImGui::BulletText("note: %s", N.Message.c_str());
      if (!D.Backtrace.empty())
        ImGui::TextDisabled("stacktrace:");
      for (size_t K = 0; K < D.Backtrace.size(); ++K) {
        ImGui::Text("[%zu] %s", K + 1, D.Backtrace[K].str().c_str());
        if (D.Backtrace[K].OmittedAfter)
          ImGui::TextDisabled("    %s", D.Backtrace[K].omittedText().c_str());
      }
      ImGui::EndTooltip();
    }
    if (Clicked && D.Loc.known())
      JumpLine = D.Loc.Line;
    ImGui::PopID();
  }
  ImGui::EndChild();
}

} // namespace prism::views
