#include "StagePane.h"

#include <algorithm>
#include <cassert>
#include <cstdio>

namespace prism::views {

StagePane::StagePane(std::string Title, std::vector<Stage> Stages)
    : Title(std::move(Title)), Stages(std::move(Stages)) {
  assert(!this->Stages.empty() && "a pane shows at least one stage");
}

void StagePane::find(std::string Query) {
  FindOpen = true;
  PerJob[ShownJob].Query = std::move(Query);
  refreshHits();
}

void StagePane::load(const JobReport *R, const GuiSnapshot &Snap) {
  if (Shown.get() == R && ShownStage == stage() && ShownFile == Snap.FilePath)
    return;
  const JobEntry *J = Snap.selectedJob();
  Shown = J ? J->Report : nullptr;
  ShownStage = stage();
  ShownFile = Snap.FilePath;
  Index = nullptr;
  Lines = &NoLines;
  Map = &NoMap;
  LitFor = 0;
  LitDepth.clear();
  HitsQuery = "\x01"; // force a new search
  if (!Shown)
    return;
  Index = J->index(Snap.FilePath);
  Lines = &Index->lines(ShownStage);
  Map = &Index->map(ShownStage);
  Lang = syntaxFor(ShownStage, Shown->Target);
  refreshHits();
  // The first time a job is shown, open on its entry rather than on the
  // module header (declarations, data layout).
  JobUi &U = PerJob[ShownJob];
  if (!U.Positioned && ShownStage != Stage::Typed &&
      ShownStage != Stage::TypedOpt) {
    U.Positioned = true;
    if (auto Line = entryDefinitionLine(*Lines, ShownStage == Stage::Asm,
                                        Shown->EntryName)) {
      // Keep the comment lines just above the definition in view.
      uint32_t Top = *Line;
      while (Top > 0 && Lines->line(Top - 1).find_first_of(";/") == 0)
        --Top;
      PendingScroll = static_cast<int32_t>(Top);
      PendingScrollTop = true;
    }
  }
}

void StagePane::refreshHits() {
  const std::string &Q = PerJob[ShownJob].Query;
  if (Q == HitsQuery)
    return;
  HitsQuery = Q;
  Hits = findLines(*Lines, Q);
  JobUi &U = PerJob[ShownJob];
  U.CurrentHit = Hits.empty() ? -1 : 0;
  if (!Hits.empty())
    PendingScroll = Hits[0];
}

void StagePane::stepHit(int Dir) {
  if (Hits.empty())
    return;
  JobUi &U = PerJob[ShownJob];
  int N = int(Hits.size());
  U.CurrentHit = ((U.CurrentHit < 0 ? 0 : U.CurrentHit) + Dir + N) % N;
  PendingScroll = Hits[U.CurrentHit];
  PendingScrollTop = false;
}

void StagePane::draw(ViewContext &Ctx, bool *Open) {
  if (Open && !*Open)
    return;
  if (ImGui::Begin(Title.c_str(), Open))
    drawContent(Ctx);
  ImGui::End();
}

void StagePane::drawToolbar(ViewContext &Ctx, const JobEntry &J) {
  if (Stages.size() > 1) {
    for (size_t I = 0; I < Stages.size(); ++I) {
      if (I)
        ImGui::SameLine();
      if (ImGui::RadioButton(stageName(Stages[I]), StageIndex == I))
        StageIndex = I;
    }
    ImGui::SameLine();
    ImGui::TextDisabled("|");
    ImGui::SameLine();
  }
  ImGui::Checkbox("#", &ShowLineNumbers);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("line numbers");
  ImGui::SameLine();
  ImGui::Checkbox("src", &ShowSourceColumn);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("source line column: (n) when the line reached this "
                      "file only through inlining");
  ImGui::SameLine();
  ImGui::Checkbox("map", &TintMappedLines);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("tint each line with the colour of its source line");
  ImGui::SameLine();
  if (ImGui::SmallButton("Find")) {
    FindOpen = true;
    FocusFind = true;
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("Copy")) {
    std::string All(Lines->text());
    ImGui::SetClipboardText(All.c_str());
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("copy the whole %s text", stageName(stage()));
  if (Shown) {
    const StageMeasure &M = Shown->stage(stage()).Measure;
    char Info[128];
    std::snprintf(Info, sizeof Info, "%u lines  %.2f ms  %llu allocs",
                  Lines->size(), M.WallMs, (unsigned long long)M.Allocs.Count);
    float W = ImGui::CalcTextSize(Info).x;
    float Avail = ImGui::GetContentRegionAvail().x;
    ImGui::SameLine();
    if (Avail > W + 20) {
      ImGui::SetCursorPosX(ImGui::GetCursorPosX() + Avail - W - 8);
      ImGui::TextDisabled("%s", Info);
    }
  }
  (void)Ctx;
  (void)J;
}

bool StagePane::drawFindBar(ViewContext &Ctx) {
  JobUi &U = PerJob[ShownJob];
  ImGui::PushID("find");
  if (FocusFind) {
    ImGui::SetKeyboardFocusHere();
    FocusFind = false;
  }
  ImGui::SetNextItemWidth(std::min(260.0f, ImGui::GetContentRegionAvail().x * 0.5f));
  char Buf[256];
  std::snprintf(Buf, sizeof Buf, "%s", U.Query.c_str());
  bool Enter = ImGui::InputTextWithHint("##q", "find (Enter: next, Shift+Enter: previous)",
                                        Buf, sizeof Buf,
                                        ImGuiInputTextFlags_EnterReturnsTrue);
  if (U.Query != Buf) {
    U.Query = Buf;
    refreshHits();
  }
  bool Shift = ImGui::GetIO().KeyShift;
  if (Enter) {
    stepHit(Shift ? -1 : 1);
    ImGui::SetKeyboardFocusHere(-1);
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("prev", ImGuiDir_Up))
    stepHit(-1);
  ImGui::SameLine();
  if (ImGui::ArrowButton("next", ImGuiDir_Down))
    stepHit(1);
  ImGui::SameLine();
  if (U.Query.empty())
    ImGui::TextDisabled("type to search");
  else if (Hits.empty())
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(Ctx.Colors.Warning),
                       "no match");
  else
    ImGui::TextDisabled("%d / %zu lines", U.CurrentHit + 1, Hits.size());
  ImGui::SameLine();
  bool Close = ImGui::SmallButton("x");
  ImGui::PopID();
  if (Close || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
    FindOpen = false;
    return false;
  }
  return true;
}

void StagePane::drawContent(ViewContext &Ctx) {
  const GuiSnapshot &Snap = Ctx.Snap;
  const JobEntry *J = Ctx.selectedJob();
  if (!J) {
    if (Snap.Jobs.empty())
      drawEmptyState("no job yet — add one with Jobs ▸ Add job",
                     Snap.CompilerConnected
                         ? nullptr
                         : "(the compiler workspace is not connected in this "
                           "build: jobs cannot run yet)");
    else
      drawEmptyState("no job selected — pick one in Jobs");
    return;
  }
  if (J->Id != ShownJob) {
    // Keep where we were in the previous job; restore where we were here.
    ShownJob = J->Id;
    PendingScroll = PerJob[ShownJob].TopRow;
    PendingScrollTop = true;
  }
  load(J->Report.get(), Snap);
  if (!Shown) {
    drawEmptyState(J->Status == JobStatus::Failed ? "the job failed"
                                                  : "compiling…",
                   J->StatusDetail.c_str());
    return;
  }
  drawToolbar(Ctx, *J);

  const bool Focused =
      ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows);
  const ImGuiIO &IO = ImGui::GetIO();
  if (Focused && IO.KeyCtrl && Ctx.Keys.pressed(Ctx.Keys.F)) {
    FindOpen = true;
    FocusFind = true;
  }
  if (Focused && Ctx.Keys.pressed(Ctx.Keys.F3, true))
    stepHit(IO.KeyShift ? -1 : 1);
  if (FindOpen)
    drawFindBar(Ctx);

  const StageOutput &Out = Shown->stage(stage());
  if (!Out.Present) {
    std::optional<JobStop> Stop = jobStop(*Shown, Ctx.Snap.SourceDiagnostics);
    if (Stop && Stop->Stage == size_t(stage())) {
      // This is the stage that failed: say so, with its first error.
      std::string First = Stop->FirstError;
      if (First.size() > 300)
        First = First.substr(0, 300) + "…";
      drawEmptyState(Stop->Where == std::string("in ") + stageName(stage())
                         ? "this stage failed"
                         : ("the job stopped " + Stop->Where).c_str(),
                     (First + (First.empty() ? "" : "\n") +
                      "Source ▸ diagnostics has the errors, with their lines")
                         .c_str());
    } else if (Stop) {
      std::string Why = "the job stopped " + Stop->Where +
                        ", before this stage; see Source ▸ diagnostics";
      drawEmptyState("this stage did not run", Why.c_str());
    } else {
      drawEmptyState("this stage did not run", "the job stops before it");
    }
    return;
  }
  if (J->Status == JobStatus::Compiling || J->Status == JobStatus::Stale) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(Ctx.Colors.Stale),
                       "%s — showing the previous result",
                       J->Status == JobStatus::Compiling ? "recompiling"
                                                         : "stale");
  }

  // Correlation: rows lit by the hovered/pinned source line.
  uint32_t Lit = Ctx.Links.litSource();
  // Only for the pinned line: hovering must not shift the listing.
  drawElsewhereHint(Ctx, Ctx.Links.pinnedSource());
  if (Lit != LitFor || LitDepth.size() != Lines->size()) {
    LitFor = Lit;
    LitDepth.assign(Lines->size(), 0);
    for (const LineLink &L : Map->outputLinesFor(Lit))
      if (L.Line < LitDepth.size())
        LitDepth[L.Line] = uint8_t(std::min<uint32_t>(L.Depth, 254) + 1);
  }
  const uint32_t Pin = Ctx.Links.pinnedSource();
  if (!Pin || Ctx.Links.pinChanged())
    ScrolledForPin = 0;
  // A new size (the layout settling, a resize) shows other rows: check
  // again. The user's own scrolling keeps the size, and is left alone.
  const uint32_t Span = LastLast - LastFirst;
  if (Pin && (Pin != ScrolledForPin || Span != ScrolledSpan)) {
    const auto &Out = Map->outputLinesFor(Pin);
    bool AnyVisible = std::any_of(Out.begin(), Out.end(), [&](const LineLink &L) {
      return L.Line >= LastFirst && L.Line <= LastLast;
    });
    if (AnyVisible) {
      ScrolledForPin = Pin;
      ScrolledSpan = Span;
    } else if (!Out.empty()) {
      PendingScroll = Out.front().Line;
      PendingScrollTop = false;
    }
  }

  JobUi &U = PerJob[ShownJob];
  CodeListing L;
  L.Lines = Lines;
  L.Lang = Lang;
  L.LineNumbers = ShowLineNumbers;
  const Palette &P = Ctx.Colors;
  L.StyleOf = [&](uint32_t Row) {
    RowStyle S;
    if (Row < LitDepth.size() && LitDepth[Row]) {
      bool Direct = LitDepth[Row] == 1;
      S.Background = P.sourceLine(LitFor, Direct ? P.TintAlpha * 1.6f
                                                 : P.TintAlpha * 0.8f);
      S.Marker = P.sourceLine(LitFor, 1.0f);
    } else if (TintMappedLines) {
      if (uint32_t Src = Map->primarySourceLine(Row))
        S.Background = P.sourceLine(Src, P.MapAlpha);
    }
    return S;
  };
  if (ShowSourceColumn && Map->mappedOutputLines()) {
    L.ExtraChars = 5;
    L.ExtraGutter = [&](uint32_t Row) -> std::string {
      auto Links = Map->sourceLinesOf(Row);
      if (Links.empty())
        return {};
      const LineLink &First = Links.front();
      return First.inlined() ? "(" + std::to_string(First.Line) + ")"
                             : std::to_string(First.Line);
    };
  }
  if (FindOpen && !U.Query.empty()) {
    L.Find = U.Query;
    if (U.CurrentHit >= 0 && size_t(U.CurrentHit) < Hits.size())
      L.CurrentRow = Hits[U.CurrentHit];
  }
  // The scrollbar shows where the lit rows and find hits are, so a line
  // inlined far down the listing is not missed.
  Overview.clear();
  if (LitFor)
    for (uint32_t Row = 0; Row < LitDepth.size(); ++Row)
      if (LitDepth[Row])
        Overview.push_back({Row, P.sourceLine(LitFor, 1.0f)});
  if (!L.Find.empty())
    for (uint32_t Row : Hits)
      Overview.push_back({Row, P.FindCurrent});
  L.Overview = &Overview;
  L.SelectedRow = U.SelectedRow;
  L.ScrollTo = PendingScroll;
  L.ScrollToTop = PendingScrollTop;
  PendingScroll = -1;
  PendingScrollTop = false;

  CodeListingResult R = drawCodeListing("##listing", L, P, Ctx.Mono);
  U.TopRow = R.FirstVisible;
  LastFirst = R.FirstWhole;
  LastLast = R.LastWhole;
  if (R.HoveredRow >= 0) {
    auto Origins = Map->sourceLinesOf(R.HoveredRow);
    const auto &Frames = Out.Lines;
    if (size_t(R.HoveredRow) < Frames.size() &&
        !Frames[R.HoveredRow].Frames.empty()) {
      ImGui::BeginTooltip();
      ImGui::TextDisabled("inlining stack (innermost first)");
      ImGui::PushFont(Ctx.Mono ? Ctx.Mono : ImGui::GetFont());
      ImGui::TextUnformatted(
          formatInliningStack(Frames[R.HoveredRow]).c_str());
      ImGui::PopFont();
      ImGui::EndTooltip();
    }
    Ctx.Links.hoverOutput(std::move(Origins));
  }
  if (R.ClickedRow >= 0) {
    U.SelectedRow = R.ClickedRow == U.SelectedRow ? -1 : R.ClickedRow;
    if (uint32_t Src = Map->primarySourceLine(R.ClickedRow))
      Ctx.Links.pinSource(Src);
  }
}

/// A pinned source line with no code in this stage (inlined into it only in
/// typed-opt, optimised away by LLVM) lights nothing: say which stage has
/// its code, with a button where this pane can show that stage.
void StagePane::drawElsewhereHint(ViewContext &Ctx, uint32_t Source) {
  ElsewhereHint.clear();
  const auto &Counts = Index->outputCounts();
  if (!Source || Source >= Counts.size() ||
      !Map->outputLinesFor(Source).empty())
    return;
  // The nearest stage that has it, earlier ones first on a tie: the one
  // the code was last seen in (or first appears in).
  const size_t Here = size_t(stage());
  size_t Best = size_t(Stage::NumStages);
  for (size_t D = 1;
       D < size_t(Stage::NumStages) && Best == size_t(Stage::NumStages); ++D) {
    if (D <= Here && Counts[Source][Here - D])
      Best = Here - D;
    else if (Here + D < size_t(Stage::NumStages) && Counts[Source][Here + D])
      Best = Here + D;
  }
  // Prefer a stage this pane switches to (typed / typed-opt).
  for (size_t I = 0; I < Stages.size(); ++I)
    if (I != StageIndex && Counts[Source][size_t(Stages[I])])
      Best = size_t(Stages[I]);
  if (Best == size_t(Stage::NumStages))
    return; // a comment or blank line: no stage has code for it
  uint32_t N = Counts[Source][Best];
  ElsewhereHint = "source line " + std::to_string(Source) + ": no code in " +
                  stageName(stage()) + "; " + stageName(Stage(Best)) + " has " +
                  std::to_string(N) + (N == 1 ? " line" : " lines") + " of it";
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(Ctx.Colors.Stale), "%s",
                     ElsewhereHint.c_str());
  for (size_t I = 0; I < Stages.size(); ++I)
    if (size_t(Stages[I]) == Best) {
      ImGui::SameLine();
      std::string Label = std::string("show ") + stageName(Stages[I]);
      if (ImGui::SmallButton(Label.c_str()))
        StageIndex = I;
    }
}

StagePane::LitSummary StagePane::litSummary() const {
  LitSummary S;
  S.Source = LitFor;
  S.Elsewhere = ElsewhereHint;
  for (uint32_t Row = 0; Row < LitDepth.size(); ++Row) {
    if (!LitDepth[Row])
      continue;
    if (!S.Rows++)
      S.FirstRow = Row + 1;
    S.OnScreen |= Row >= LastFirst && Row <= LastLast;
  }
  return S;
}

} // namespace prism::views
