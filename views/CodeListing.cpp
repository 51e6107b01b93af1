#include "CodeListing.h"

#include <imgui_internal.h> // the scrollbar rectangle

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <vector>

namespace prism::views {

namespace {

/// Ticks over the current window's vertical scrollbar, one per mark, at
/// the row's place in the whole listing. Nothing when the listing fits.
void drawOverview(const std::vector<OverviewMark> &Marks, uint32_t NumRows) {
  ImGuiWindow *W = ImGui::GetCurrentWindow();
  if (!W->ScrollbarY)
    return;
  ImRect Bar = ImGui::GetWindowScrollbarRect(W, ImGuiAxis_Y);
  // Marks fill the right half of the track, so the grab stays visible
  // beside them, and are at least two pixels tall so one row shows.
  const float Left = Bar.Min.x + Bar.GetWidth() * 0.55f;
  const float TickH = std::max(2.0f, Bar.GetHeight() / float(NumRows));
  ImDrawList *DL = W->DrawList;
  DL->PushClipRect(Bar.Min, Bar.Max, false);
  for (const OverviewMark &M : Marks) {
    if (M.Row >= NumRows)
      continue;
    float Y = Bar.Min.y + Bar.GetHeight() * (float(M.Row) / float(NumRows));
    DL->AddRectFilled(ImVec2(Left, Y), ImVec2(Bar.Max.x - 1.0f, Y + TickH),
                      M.Color);
  }
  DL->PopClipRect();
}

} // namespace

CodeListingResult drawCodeListing(const char *Id, const CodeListing &L,
                                  const Palette &P, ImFont *Mono,
                                  ImVec2 Size) {
  CodeListingResult R;
  ImFont *Font = Mono ? Mono : ImGui::GetFont();
  ImGui::PushFont(Font);
  const float FontSize = ImGui::GetFontSize();
  const float RowH = std::floor(FontSize + 2.0f);
  const float CharW = Font->CalcTextSizeA(FontSize, FLT_MAX, 0, "0").x;
  const uint32_t NumRows = L.Lines ? L.Lines->size() : 0;

  int Digits = 1;
  for (uint32_t N = std::max<uint32_t>(NumRows, 9); N >= 10; N /= 10)
    ++Digits;
  const float NumberW = L.LineNumbers ? (Digits + 1) * CharW : 0;
  const float ExtraW = L.ExtraChars > 0 ? (L.ExtraChars + 1) * CharW : 0;
  const float GutterW = NumberW + ExtraW + CharW * 0.75f;
  const float ContentW =
      GutterW + (L.Lines ? L.Lines->longestLine() + 2 : 0) * CharW;

  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 2));
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(0, 0));
  ImGui::BeginChild(Id, Size, false, ImGuiWindowFlags_HorizontalScrollbar);

  // The height rows show in: less the horizontal scrollbar, which hides a
  // row it covers (the same measure as FirstWhole/LastWhole below).
  auto VisibleH = [] {
    return ImGui::GetWindowHeight() - 4 -
           (ImGui::GetScrollMaxX() > 0 ? ImGui::GetStyle().ScrollbarSize : 0);
  };
  if (L.ScrollTo >= 0 && uint32_t(L.ScrollTo) < NumRows) {
    float Y = L.ScrollTo * RowH;
    float Top = ImGui::GetScrollY(), H = VisibleH();
    if (L.ScrollToTop)
      ImGui::SetScrollY(Y);
    else if (Y < Top || Y + RowH > Top + H)
      ImGui::SetScrollY(std::max(0.0f, Y - H / 3));
  }

  ImDrawList *DL = ImGui::GetWindowDrawList();
  const ImVec2 Mouse = ImGui::GetMousePos();
  const bool Hovered = ImGui::IsWindowHovered();
  const float WinX = ImGui::GetWindowPos().x;
  const float VisibleW = std::max(ImGui::GetWindowWidth(), ContentW);
  std::vector<Token> Tokens;
  char Buf[32];

  {
    // The rows wholly inside the view; the horizontal scrollbar, when
    // there is one, covers the bottom of it.
    float Top = ImGui::GetScrollY();
    float H = VisibleH();
    R.FirstWhole = uint32_t(std::ceil(Top / RowH));
    float Last = std::floor((Top + H) / RowH) - 1;
    R.LastWhole = Last < 0 ? 0 : uint32_t(Last);
  }
  ImGuiListClipper Clipper;
  Clipper.Begin(int(NumRows), RowH);
  bool First = true;
  while (Clipper.Step()) {
    for (int Row = Clipper.DisplayStart; Row < Clipper.DisplayEnd; ++Row) {
      if (First) {
        R.FirstVisible = Row;
        First = false;
      }
      R.LastVisible = Row;
      ImVec2 Pos = ImGui::GetCursorScreenPos();
      ImVec2 RowMin(WinX, Pos.y), RowMax(WinX + VisibleW, Pos.y + RowH);
      RowStyle St = L.StyleOf ? L.StyleOf(Row) : RowStyle{};
      if (St.Background)
        DL->AddRectFilled(RowMin, RowMax, St.Background);
      if (Row == L.SelectedRow)
        DL->AddRectFilled(RowMin, RowMax, P.SelectedRow);
      bool RowHovered = Hovered && Mouse.y >= RowMin.y && Mouse.y < RowMax.y;
      if (RowHovered) {
        DL->AddRectFilled(RowMin, RowMax, P.HoverRow);
        R.HoveredRow = Row;
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left))
          R.ClickedRow = Row;
      }
      // Gutter.
      DL->AddRectFilled(ImVec2(Pos.x, Pos.y), ImVec2(Pos.x + GutterW - CharW * 0.4f, Pos.y + RowH),
                        P.GutterBg);
      float TextY = Pos.y + (RowH - FontSize) * 0.5f;
      if (L.LineNumbers) {
        uint32_t Num = L.NumberOf ? L.NumberOf(Row) : Row + 1;
        if (Num) {
          int Len = std::snprintf(Buf, sizeof Buf, "%*u", Digits, Num);
          DL->AddText(Font, FontSize, ImVec2(Pos.x + CharW * 0.5f, TextY),
                      RowHovered ? P.LineNumberHot : P.LineNumber, Buf,
                      Buf + Len);
        }
      }
      if (ExtraW > 0 && L.ExtraGutter) {
        std::string Extra = L.ExtraGutter(Row);
        DL->AddText(Font, FontSize, ImVec2(Pos.x + NumberW + CharW * 0.5f, TextY),
                    P.Muted, Extra.data(), Extra.data() + Extra.size());
      }
      if (St.Marker)
        DL->AddRectFilled(ImVec2(Pos.x + GutterW - CharW * 0.75f, Pos.y),
                          ImVec2(Pos.x + GutterW - CharW * 0.4f, Pos.y + RowH),
                          St.Marker);
      // Text.
      std::string_view Line = L.Lines->line(Row);
      const float X0 = Pos.x + GutterW;
      auto XAt = [&](uint32_t Byte) {
        return X0 + Font->CalcTextSizeA(FontSize, FLT_MAX, 0, Line.data(),
                                        Line.data() + Byte)
                        .x;
      };
      if (!L.Find.empty())
        for (uint32_t Hit : findInLine(Line, L.Find))
          DL->AddRectFilled(ImVec2(XAt(Hit), Pos.y),
                            ImVec2(XAt(Hit + L.Find.size()), Pos.y + RowH),
                            Row == L.CurrentRow ? P.FindCurrent : P.FindMatch,
                            2.0f);
      if (St.TextOverride) {
        DL->AddText(Font, FontSize, ImVec2(X0, TextY), St.TextOverride,
                    Line.data(), Line.data() + Line.size());
      } else {
        tokenizeLine(Line, L.Lang, Tokens);
        uint32_t At = 0;
        float X = X0;
        auto Emit = [&](uint32_t B, uint32_t E, ImU32 Col) {
          if (B >= E)
            return;
          const char *S = Line.data() + B, *End = Line.data() + E;
          DL->AddText(Font, FontSize, ImVec2(X, TextY), Col, S, End);
          X += Font->CalcTextSizeA(FontSize, FLT_MAX, 0, S, End).x;
        };
        for (const Token &T : Tokens) {
          Emit(At, T.Begin, P.token(TokenKind::Text));
          Emit(T.Begin, T.End, P.token(T.Kind));
          At = T.End;
        }
        Emit(At, Line.size(), P.token(TokenKind::Text));
      }
      ImGui::Dummy(ImVec2(ContentW, RowH));
    }
  }
  Clipper.End();
  if (L.Overview && !L.Overview->empty() && NumRows > 0)
    drawOverview(*L.Overview, NumRows);
  ImGui::EndChild();
  ImGui::PopStyleVar(2);
  ImGui::PopFont();
  return R;
}

CodeListingResult drawDiffListing(const char *Id, const DiffText &D,
                                  const TextLines &Lines, Syntax Lang,
                                  const Palette &P, ImFont *Mono,
                                  ImVec2 Size) {
  CodeListing L;
  L.Lines = &Lines;
  L.Lang = Lang;
  L.LineNumbers = false;
  L.ExtraChars = 11;
  L.ExtraGutter = [&](uint32_t Row) -> std::string {
    if (Row >= D.Kinds.size())
      return {};
    char Buf[48];
    auto Num = [](uint32_t N, char *Out) {
      if (N)
        std::snprintf(Out, 12, "%5u", N % 100000);
      else
        std::snprintf(Out, 12, "     ");
    };
    char A[12], B[12];
    Num(D.OldNo[Row], A);
    Num(D.NewNo[Row], B);
    char Sign = D.Kinds[Row] == DiffText::Added     ? '+'
                : D.Kinds[Row] == DiffText::Removed ? '-'
                                                    : ' ';
    std::snprintf(Buf, sizeof Buf, "%s%s%c", A, B, Sign);
    return Buf;
  };
  L.StyleOf = [&](uint32_t Row) {
    RowStyle S;
    if (Row >= D.Kinds.size())
      return S;
    switch (D.Kinds[Row]) {
    case DiffText::Added:
      S.Background = P.DiffAddedBg;
      S.Marker = P.DiffAddedText;
      break;
    case DiffText::Removed:
      S.Background = P.DiffRemovedBg;
      S.Marker = P.DiffRemovedText;
      break;
    case DiffText::Hunk:
      S.TextOverride = P.DiffHunk;
      break;
    case DiffText::Header:
      S.TextOverride = P.Muted;
      break;
    case DiffText::Same:
      break;
    }
    return S;
  };
  std::vector<OverviewMark> Changes;
  for (uint32_t Row = 0; Row < D.Kinds.size(); ++Row)
    if (D.Kinds[Row] == DiffText::Added || D.Kinds[Row] == DiffText::Removed)
      Changes.push_back({Row, D.Kinds[Row] == DiffText::Added
                                  ? P.DiffAddedText
                                  : P.DiffRemovedText});
  L.Overview = &Changes;
  return drawCodeListing(Id, L, P, Mono, Size);
}

} // namespace prism::views
