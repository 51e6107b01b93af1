#include "StatsView.h"

#include <algorithm>
#include <climits>
#include <cstdio>

namespace prism::views {

double totalWallMs(const JobReport &R) {
  double T = 0;
  for (const StageOutput &S : R.Stages)
    T += S.Present ? S.Measure.WallMs : 0;
  return T;
}

uint64_t totalAllocs(const JobReport &R) {
  uint64_t N = 0;
  for (const StageOutput &S : R.Stages)
    N += S.Present ? S.Measure.Allocs.Count : 0;
  return N;
}

static std::string humanBytes(uint64_t B) {
  char Buf[32];
  if (B < 1024)
    std::snprintf(Buf, sizeof Buf, "%llu B", (unsigned long long)B);
  else if (B < 1024 * 1024)
    std::snprintf(Buf, sizeof Buf, "%.1f KiB", B / 1024.0);
  else
    std::snprintf(Buf, sizeof Buf, "%.1f MiB", B / (1024.0 * 1024.0));
  return Buf;
}

static std::string humanCount(uint64_t N) {
  char Buf[32];
  if (N < 10000)
    std::snprintf(Buf, sizeof Buf, "%llu", (unsigned long long)N);
  else if (N < 10000000)
    std::snprintf(Buf, sizeof Buf, "%.1fk", N / 1000.0);
  else
    std::snprintf(Buf, sizeof Buf, "%.1fM", N / 1e6);
  return Buf;
}

void StatsView::record(const GuiSnapshot &Snap) {
  for (const JobEntry &J : Snap.Jobs) {
    if (!J.Report)
      continue;
    JobHistory &H = History[J.Id];
    if (H.Last.lock() == J.Report)
      continue;
    bool SameCompile = J.Compiles && J.Compiles == H.Compile;
    H.Last = J.Report;
    H.Compile = J.Compiles;
    float Ms = float(totalWallMs(*J.Report));
    float AllocsK = float(totalAllocs(*J.Report)) / 1000.0f;
    if (SameCompile) {
      H.CompileMs.setLast(Ms);
      H.AllocsK.setLast(AllocsK);
    } else {
      H.CompileMs.push(Ms);
      H.AllocsK.push(AllocsK);
    }
    // Not a zero while ptxas has not said yet: no point until it has.
    if (std::optional<int> N = J.Report->Resources.Instructions) {
      if (J.Compiles && J.Compiles == H.CountedCompile)
        H.Instructions.setLast(float(*N));
      else
        H.Instructions.push(float(*N));
      H.CountedCompile = J.Compiles;
    }
  }
}

void StatsView::draw(ViewContext &Ctx, bool *Open) {
  record(Ctx.Snap); // even while hidden, so the history has no holes
  if (Open && !*Open)
    return;
  if (ImGui::Begin("Stats", Open))
    drawContent(Ctx);
  ImGui::End();
}

void StatsView::drawContent(ViewContext &Ctx) {
  const JobEntry *J = Ctx.selectedJob();
  if (!J) {
    drawEmptyState(Ctx.Snap.Jobs.empty()
                       ? "no job yet — add one with Jobs ▸ Add job"
                       : "no job selected");
    return;
  }
  if (!J->Report) {
    drawEmptyState("compiling…");
    return;
  }
  const JobReport &R = *J->Report;
  if (ImGui::BeginTabBar("##stats")) {
    if (ImGui::BeginTabItem("Stages")) {
      drawStages(Ctx, R);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Cache", nullptr,
                            SelectCache ? ImGuiTabItemFlags_SetSelected : 0)) {
      drawCache(Ctx, *J, R);
      ImGui::EndTabItem();
    }
    SelectCache = false;
    ImGuiTabItemFlags Flags =
        SelectResources ? ImGuiTabItemFlags_SetSelected : 0;
    SelectResources = false;
    if (ImGui::BeginTabItem("Resources", nullptr, Flags)) {
      drawResources(Ctx, R);
      ImGui::EndTabItem();
    }
    Flags = SelectHistory ? ImGuiTabItemFlags_SetSelected : 0;
    SelectHistory = false;
    if (ImGui::BeginTabItem("History", nullptr, Flags)) {
      drawHistory(Ctx, *J);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
}

void StatsView::drawStages(ViewContext &Ctx, const JobReport &R) {
  double MaxMs = 0.001;
  for (const StageOutput &S : R.Stages)
    if (S.Present)
      MaxMs = std::max(MaxMs, S.Measure.WallMs);
  const float LabelW = ImGui::CalcTextSize("typed-opt ").x;
  const float FigW = ImGui::CalcTextSize("0000.00 ms  00.0k allocs ").x;
  const float BarMaxW =
      std::max(40.0f, ImGui::GetContentRegionAvail().x - LabelW - FigW - 16);
  const float RowH = ImGui::GetTextLineHeight();
  ImDrawList *DL = ImGui::GetWindowDrawList();
  ImU32 Bar = ImGui::GetColorU32(ImGuiCol_PlotHistogram);
  // A failed job stopped in the first stage that did not finish.
  std::optional<JobStop> Stop = jobStop(R, Ctx.Snap.SourceDiagnostics);
  std::optional<size_t> FailedAt;
  if (Stop)
    FailedAt = Stop->Stage;
  for (size_t I = 0; I < R.Stages.size(); ++I) {
    const StageOutput &S = R.Stages[I];
    ImGui::TextUnformatted(stageName(Stage(I)));
    ImGui::SameLine(LabelW + ImGui::GetStyle().WindowPadding.x);
    ImVec2 P = ImGui::GetCursorScreenPos();
    float W = S.Present ? float(S.Measure.WallMs / MaxMs) * BarMaxW : 0;
    DL->AddRectFilled(P, ImVec2(P.x + BarMaxW, P.y + RowH),
                      ImGui::GetColorU32(ImGuiCol_FrameBg), 2);
    if (W > 0)
      DL->AddRectFilled(P, ImVec2(P.x + std::max(W, 2.0f), P.y + RowH), Bar, 2);
    ImGui::Dummy(ImVec2(BarMaxW, RowH));
    if (ImGui::IsItemHovered() && S.Present)
      ImGui::SetTooltip("%s: %.3f ms, %llu allocations (%s), %llu frees",
                        stageName(Stage(I)), S.Measure.WallMs,
                        (unsigned long long)S.Measure.Allocs.Count,
                        humanBytes(S.Measure.Allocs.Bytes).c_str(),
                        (unsigned long long)S.Measure.Allocs.Frees);
    ImGui::SameLine();
    if (S.Present)
      ImGui::Text("%7.2f ms  %s allocs", S.Measure.WallMs,
                  humanCount(S.Measure.Allocs.Count).c_str());
    else if (FailedAt == I)
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(Ctx.Colors.Error),
                         "failed");
    else
      ImGui::TextDisabled("did not run");
  }
  ImGui::Separator();
  if (FailedAt) {
    ImGui::TextWrapped("the job stopped %s with %zu error%s: Source ▸ "
                       "diagnostics has them",
                       Stop->Where.c_str(), R.Diagnostics.size(),
                       R.Diagnostics.size() == 1 ? "" : "s");
    return;
  }
  ImGui::Text("total %.2f ms, %s allocations", totalWallMs(R),
              humanCount(totalAllocs(R)).c_str());
  // Why these differ from `prism report`'s: the jobs of a session share
  // one inference engine, and an edit recompiles only what it changed.
  ImGui::PushStyleColor(ImGuiCol_Text,
                        ImGui::ColorConvertU32ToFloat4(Ctx.Colors.Muted));
  ImGui::TextWrapped("This job's last compile in this session, which is "
                     "not a cold `prism report`: inference is shared with "
                     "the other jobs (what they inferred first is not "
                     "counted again) and the panels keep more of each "
                     "stage (snapshots, remarks, line maps).");
  ImGui::PopStyleColor();
}

void StatsView::drawCache(ViewContext &Ctx, const JobEntry &J,
                          const JobReport &R) {
  const CacheFigures &C = R.Cache;
  if (C.Pending) {
    ImGui::PushStyleColor(ImGuiCol_Text,
                          ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("being measured: the compile cache compiles the job "
                       "on its own, as a launch would, after the code is shown");
    ImGui::PopStyleColor();
    return;
  }
  if (!C.Measured) {
    ImGui::TextDisabled("not in the compile cache (the job did not compile)");
    return;
  }
  if (ImGui::BeginTable("##cache", 2, ImGuiTableFlags_RowBg)) {
    // Labels at their own width; a value too long for the rest is elided,
    // whole in its tooltip.
    ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
    auto Row = [](const char *Name, const std::string &Value, ImU32 Col = 0) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(Name);
      ImGui::TableNextColumn();
      if (Col)
        ImGui::PushStyleColor(ImGuiCol_Text, Col);
      textElided(Value);
      if (Col)
        ImGui::PopStyleColor();
    };
    char B[64];
    // The cache's own count includes the lookups timed for "time per hit";
    // the Jobs column counts this session's launches and recompiles only.
    if (C.HitProbes) {
      Row("hits: timed lookups",
          humanCount(C.HitProbes) + " (for time per hit)");
      Row("hits: other",
          humanCount(C.Hits > C.HitProbes ? C.Hits - C.HitProbes : 0));
    } else {
      Row("hits", humanCount(C.Hits));
    }
    Row("misses", humanCount(C.Misses));
    Row("compiles", humanCount(C.Compiles));
    Row("invalidations", humanCount(C.Invalidations));
    std::snprintf(B, sizeof B, "%.2f ms", C.LastCompileMs);
    Row("last compile", B);
    Row("last compile allocs",
        humanCount(C.LastCompileAllocs.Count) + " (" +
            humanBytes(C.LastCompileAllocs.Bytes) + ")");
    std::snprintf(B, sizeof B, "%.2f", C.AllocsPerHit);
    Row("allocations per hit", C.Hits ? std::string(B) : std::string("no hits yet"),
        C.Hits ? (C.AllocsPerHit == 0 ? Ctx.Colors.Ok : Ctx.Colors.Warning) : 0);
    std::snprintf(B, sizeof B, "%.1f ns", C.HitNs);
    Row("time per hit", C.HitProbes
                            ? B + (" (mean of " + humanCount(C.HitProbes) + ")")
                            : std::string("-"));
    // The Jobs panel's "reused" column: edits that left this job as it was.
    Row("edits without recompiling", humanCount(J.CacheHits));
    ImGui::EndTable();
  }
  if (C.Hits && C.AllocsPerHit == 0)
    ImGui::TextDisabled("cache hits allocate nothing");
}

void StatsView::drawResources(ViewContext &Ctx, const JobReport &R) {
  const ResourceUsage &U = R.Resources;
  struct Fig {
    const char *Name;
    const std::optional<int> &V;
    bool Bytes;
  } Figs[] = {
      {"registers", U.Registers, false},
      {"spill stores", U.Spills, true},
      {"spill loads", U.SpillLoads, true},
      {"stack", U.StackBytes, true},
      {"shared memory", U.SharedBytes, true},
      {"constant memory", U.ConstBytes, true},
      {"local memory", U.LocalBytes, true},
      {"VGPRs", U.VGPRs, false},
      {"SGPRs", U.SGPRs, false},
      {"scratch", U.ScratchBytes, true},
      {"LDS", U.LDSBytes, true},
      {"waves/SIMD (backend)", U.WavesPerSIMD, false},
      {"instructions", U.Instructions, false},
      {"throw sites", U.ThrowSites, false},
  };
  bool Any = false;
  if (ImGui::BeginTable("##res", 2,
                        ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    for (const Fig &F : Figs) {
      // gcn: the backend's LDS figure says what the emitter's shared
      // memory does.
      if (!F.V || (&F.V == &U.SharedBytes && U.LDSBytes))
        continue;
      Any = true;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(F.Name);
      ImGui::TableNextColumn();
      bool Bad = (std::string_view(F.Name).starts_with("spill") ||
                  std::string_view(F.Name) == "local memory" ||
                  std::string_view(F.Name) == "scratch") &&
                 *F.V > 0;
      std::string Val = F.Bytes ? humanBytes(*F.V) : std::to_string(*F.V);
      if (Bad)
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(Ctx.Colors.Warning),
                           "%s", Val.c_str());
      else
        ImGui::TextUnformatted(Val.c_str());
    }
    ImGui::EndTable();
  }
  if (!U.Source.empty() && U.ToolMs)
    ImGui::TextDisabled("from %s, %.1f ms", U.Source.c_str(), *U.ToolMs);
  else if (!U.Source.empty())
    ImGui::TextDisabled("from %s", U.Source.c_str());
  if (!Any)
    ImGui::TextWrapped("no resource figures for %s%s%s", R.Target.c_str(),
                       U.Note.empty() ? "" : ": ", U.Note.c_str());
  else if (!U.Note.empty())
    ImGui::TextDisabled("%s", U.Note.c_str());
  drawOccupancy(Ctx, R);
}

/// Bars of occupancy by block size, one per warp's worth of threads,
/// coloured by what limits them; hovering one explains it.
void StatsView::drawOccupancy(ViewContext &Ctx, const JobReport &R) {
  HoveredBlock = 0;
  if (OccFor.lock().get() != &R) {
    Occ = reportOccupancy(R);
    OccNote = backendOccupancyNote(R, Occ);
    OccFor = Ctx.selectedJob()->Report;
    AtLaunchFor = 0;
  }
  if (AtLaunchFor != LaunchThreads) {
    AtLaunch = reportOccupancyAt(R, LaunchThreads);
    AtLaunchFor = LaunchThreads;
  }
  if (Occ.empty())
    return;
  const Palette &C = Ctx.Colors;
  auto ColorOf = [&](const Occupancy &O) {
    if (!O.BlocksPerSM)
      return C.Error;
    // At full occupancy nothing is lost, and where the warp slots or the
    // block limit cap it too, fewer registers or less shared memory would
    // not raise it: a tie is no bottleneck to colour.
    if (O.fraction() >= 1.0 || (O.Limits & (LimitWarps | LimitBlocks)))
      return C.Ok;
    if (O.Limits & (LimitRegisters | LimitScalarRegisters))
      return C.Warning;
    if (O.Limits & LimitShared)
      return C.Busy;
    return C.Ok;
  };
  ImGui::Spacing();
  ImGui::Separator();
  const Occupancy *Best = bestOccupancy(Occ);
  const MultiprocessorLimits L = *reportLimits(R);
  const char *Block = L.blockWord(), *Warp = L.warpWord();
  ImGui::Text("occupancy");
  ImGui::SameLine();
  // Wrapped: the panel is often narrower than the line (gcn's words are
  // longer than cuda's).
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%ss per %s by %s size, %s", Warp, L.unitWord(), Block,
                      R.Arch.c_str());
  ImGui::PopTextWrapPos();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s\nThe kernel's registers and %s stay as compiled; a "
                      "%s size\nthe kernel was not written for may still be "
                      "wrong for it.",
                      describeMultiprocessor(R.Arch, L).c_str(), L.sharedWord(),
                      Block);

  // The answer first, above the chart: a short panel scrolls the chart's
  // foot out of sight, not this.
  if (Best)
    ImGui::Text("highest %.0f%% from %d threads per %s", Best->fraction() * 100,
                Best->BlockSize, Block);
  else
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(C.Error),
                       "no %s size can launch: %s", Block,
                       Occ.front().Why.c_str());
  float W = ImGui::GetContentRegionAvail().x;
  // Room below for the axis, the legend and the Run form's line (often
  // two).
  float Below = ((AtLaunch ? 4.2f : 2.2f) + (OccNote.empty() ? 0 : 2)) *
                ImGui::GetTextLineHeightWithSpacing();
  float H = std::clamp(ImGui::GetContentRegionAvail().y - Below, 40.0f, 120.0f);
  ImVec2 P = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##occ", ImVec2(W, H));
  bool Hover = ImGui::IsItemHovered();
  ImDrawList *DL = ImGui::GetWindowDrawList();
  DL->AddRectFilled(P, ImVec2(P.x + W, P.y + H),
                    ImGui::GetColorU32(ImGuiCol_FrameBg), 2);
  // 50% and 100% guides.
  for (float F : {0.5f, 1.0f})
    DL->AddLine(ImVec2(P.x, P.y + H * (1 - F)),
                ImVec2(P.x + W, P.y + H * (1 - F)), C.Muted & 0x60ffffff);
  float Slot = W / float(Occ.size());
  float Gap = Slot > 4 ? 1 : 0;
  float MouseX = ImGui::GetIO().MousePos.x;
  for (size_t I = 0; I < Occ.size(); ++I) {
    const Occupancy &O = Occ[I];
    float X0 = P.x + Slot * float(I), X1 = X0 + Slot - Gap;
    float Top = P.y + H * (1 - float(O.fraction()));
    bool Hot = Hover && MouseX >= X0 && MouseX < X0 + Slot;
    ImU32 Col = ColorOf(O);
    if (!Hot)
      Col = (Col & 0x00ffffff) | 0xb0000000;
    if (O.BlocksPerSM)
      DL->AddRectFilled(ImVec2(X0, Top), ImVec2(X1, P.y + H), Col);
    else
      DL->AddRectFilled(ImVec2(X0, P.y + H - 3), ImVec2(X1, P.y + H), Col);
    // The Run form's launch: an outline around its bar.
    if (AtLaunch && uint64_t(O.BlockSize) == LaunchThreads)
      DL->AddRect(ImVec2(X0 - 1, P.y), ImVec2(X1 + 1, P.y + H), C.Text, 0, 0,
                  1.5f);
    if (!Hot)
      continue;
    HoveredBlock = O.BlockSize;
    ImGui::BeginTooltip();
    ImGui::Text("%d threads per %s", O.BlockSize, Block);
    if (!O.BlocksPerSM) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(C.Error),
                         "cannot launch: %s", O.Why.c_str());
    } else {
      ImGui::Text("%d %ss, %d of %d %ss per %s (%.0f%%)", O.BlocksPerSM, Block,
                  O.WarpsPerSM, O.MaxWarpsPerSM, Warp, L.unitWord(),
                  O.fraction() * 100);
      if (L.Amd)
        ImGui::Text("%s waves per SIMD", formatPerPartition(O).c_str());
      ImGui::Text("limited by %s",
                  occupancyLimitNames(O.Limits, L.Amd).c_str());
      auto Lim = [](int N) {
        return N == INT_MAX ? std::string("no limit") : std::to_string(N);
      };
      std::string Sgprs =
          L.ScalarRegistersLimit ? ", SGPRs " + Lim(O.ByScalarRegisters) : "";
      ImGui::TextDisabled(
          "%ss each allows: %s %s%s, %s %s, %s slots %s, %s "
          "%s",
          Block, L.registersWord(), Lim(O.ByRegisters).c_str(), Sgprs.c_str(),
          L.sharedWord(), Lim(O.ByShared).c_str(), Warp, Lim(O.ByWarps).c_str(),
          L.Amd ? "barriers" : "block limit", Lim(O.ByBlocks).c_str());
      // The registers a block holds; an AMD wave's VGPRs are counted above.
      std::string Regs =
          L.Amd ? "" : std::to_string(O.RegistersPerBlock) + " registers, ";
      ImGui::TextDisabled("per %s: %s%d bytes of %s (in %d-byte blocks)", Block,
                          Regs.c_str(), O.SharedPerBlock, L.sharedWord(),
                          L.SharedAllocUnit);
    }
    ImGui::EndTooltip();
  }
  // The axis: first, middle and last block size.
  ImGui::TextDisabled("%d", Occ.front().BlockSize);
  char Last[16];
  std::snprintf(Last, sizeof Last, "%d", Occ.back().BlockSize);
  ImGui::SameLine(W - ImGui::CalcTextSize(Last).x +
                  ImGui::GetStyle().WindowPadding.x);
  ImGui::TextDisabled("%s", Last);
  // Legend, then the best point.
  auto Key = [&](ImU32 Col, const char *Name) {
    ImVec2 Q = ImGui::GetCursorScreenPos();
    float S = ImGui::GetTextLineHeight() * 0.7f;
    DL->AddRectFilled(ImVec2(Q.x, Q.y + S * 0.25f),
                      ImVec2(Q.x + S, Q.y + S * 1.25f), Col);
    ImGui::Dummy(ImVec2(S, S));
    ImGui::SameLine();
    ImGui::TextDisabled("%s", Name);
    ImGui::SameLine();
  };
  Key(C.Ok, L.Amd ? "waves/barriers" : "warps/blocks");
  Key(C.Warning, L.Amd ? "VGPRs/SGPRs" : "registers");
  Key(C.Busy, L.sharedWord());
  ImGui::NewLine();
  if (AtLaunch) {
    std::string Line = describeOccupancy(*AtLaunch);
    ImU32 Col = AtLaunch->BlocksPerSM ? C.Text : C.Error;
    ImGui::PushStyleColor(ImGuiCol_Text, Col);
    ImGui::TextWrapped("Run form, %d threads: %s", AtLaunch->BlockSize,
                       Line.c_str());
    ImGui::PopStyleColor();
  }

  if (!OccNote.empty())
    ImGui::TextWrapped("%s", OccNote.c_str());
}

void StatsView::drawHistory(ViewContext &Ctx, const JobEntry &J) {
  auto It = History.find(J.Id);
  if (It == History.end() || It->second.CompileMs.size() == 0) {
    ImGui::TextDisabled("no compiles recorded yet");
    return;
  }
  const JobHistory &H = It->second;
  auto Getter = [](void *Data, int I) {
    return static_cast<const Ring<HistoryLen> *>(Data)->at(I);
  };
  ImGui::PushStyleColor(ImGuiCol_Text,
                        ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  if (H.CompileMs.size() == 1)
    ImGui::TextWrapped("1 compile of this job in this session; edit the "
                       "source to see how the figures move");
  else
    ImGui::TextWrapped("%zu compiles of this job in this session; each plot "
                       "runs from 0 to its max",
                       H.CompileMs.size());
  ImGui::PopStyleColor();
  float W = ImGui::GetContentRegionAvail().x;
  float PlotH = std::max(36.0f, (ImGui::GetContentRegionAvail().y - 60) / 3 -
                                    ImGui::GetTextLineHeightWithSpacing());
  // Each plot starts at zero, so that a line's height means the same in
  // every compile, and says its scale: the latest value, then the range.
  auto Plot = [&](const char *Id, const Ring<HistoryLen> &R, const char *What,
                  const char *Format) {
    char Last[48], Lo[48], Hi[48];
    std::snprintf(Last, sizeof Last, Format, R.last());
    std::snprintf(Lo, sizeof Lo, Format, R.min());
    std::snprintf(Hi, sizeof Hi, Format, R.max());
    ImGui::Text("%s %s", What, Last);
    if (R.size() > 1) {
      ImGui::SameLine();
      ImGui::TextDisabled("· min %s · max %s", Lo, Hi);
    }
    // One point draws no line: an empty box would look broken.
    if (R.size() < 2)
      return;
    float Top = R.max() > 0 ? R.max() : 1;
    ImGui::PlotLines(Id, Getter, (void *)&R, int(R.size()), 0, nullptr, 0, Top,
                     ImVec2(W, PlotH));
  };
  Plot("##ms", H.CompileMs, "compile", "%.2f ms");
  Plot("##allocs", H.AllocsK, "allocations", "%.1fk");
  if (H.Instructions.size() == 0)
    ImGui::TextDisabled("instructions: being measured");
  else
    Plot("##insts", H.Instructions, "instructions", "%.0f");
  if (H.Instructions.size() && H.CountedCompile != H.Compile)
    ImGui::TextDisabled("the latest compile's instructions are being measured");
  (void)Ctx;
}

} // namespace prism::views
