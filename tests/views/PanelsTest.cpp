// Every panel rendered headless from snapshots built here: the windows the
// shell should draw exist and have something in them, placeholders show
// when there is no job, interactions post commands, and a 20 000-line pane
// stays cheap per frame. Set PRISM_VIEW_GALLERY=DIR to also write PNGs of
// the whole window (dark and light) rendered in software.
#include "ImGuiHarness.h"
#include "SampleReports.h"
#include "ShellView.h"

#include <imgui_internal.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>

using namespace prism;
using namespace prism::views;
using prism::views::test::ImGuiHarness;

namespace {

bool hasWindow(const std::vector<std::string> &Titles, const char *T) {
  return std::find(Titles.begin(), Titles.end(), T) != Titles.end();
}

/// Vertices drawn by a window and its child windows.
int drawnVertices(const char *Title) {
  ImGuiWindow *W = ImGui::FindWindowByName(Title);
  if (!W)
    return -1;
  int N = W->DrawList->VtxBuffer.Size;
  for (ImGuiWindow *C : ImGui::GetCurrentContext()->Windows)
    if (C->RootWindow == W && C != W)
      N += C->DrawList->VtxBuffer.Size;
  return N;
}

void gallery(const ImGuiHarness &H, const char *Name) {
  const char *Dir = std::getenv("PRISM_VIEW_GALLERY");
  if (!Dir || !*Dir)
    return;
  std::string Path = std::string(Dir) + "/" + Name + ".png";
  EXPECT_TRUE(H.writePng(Path)) << Path;
  std::printf("gallery: %s\n", Path.c_str());
}

const char *const AllPanels[] = {"Jobs",          "Source",
                                 "Invalidations", "Typed IR",
                                 "LLVM IR (raw)", "LLVM IR (optimised)",
                                 "Assembly",      "Pipeline",
                                 "Stats",         "Devices"};

} // namespace

TEST(Panels, EmptySnapshotShowsPlaceholders) {
  ImGuiHarness H;
  ShellView Shell;
  Shell.setMonoFont(H.mono());
  GuiSnapshot S;
  S.FilePath = test::SaxpyPath;
  S.Source = test::SaxpySource;
  S.SourceRevision = 1;
  S.HostSummary = "host: x86_64-pc-linux-gnu (znver3)";
  CommandQueue Q;
  for (int I = 0; I < 3; ++I)
    H.frame([&] { Shell.draw(S, Q); });
  auto Titles = drawnWindowTitles();
  for (const char *T : AllPanels) {
    EXPECT_TRUE(hasWindow(Titles, T)) << T;
    EXPECT_GT(drawnVertices(T), 0) << T;
  }
  EXPECT_FALSE(hasWindow(Titles, "Compare")); // opened on demand
  EXPECT_EQ(Shell.source().buffer(), test::SaxpySource);
  EXPECT_TRUE(Q.posted().empty()); // drawing alone posts nothing
  gallery(H, "empty-dark");
}

TEST(Panels, FullSnapshotRendersEveryPanel) {
  ImGuiHarness H;
  ShellView Shell;
  Shell.setMonoFont(H.mono());
  Shell.settings().Visible[size_t(Panel::Compare)] = true;
  GuiSnapshot S = test::makeSnapshot();
  CommandQueue Q;
  for (int I = 0; I < 3; ++I)
    H.frame([&] { Shell.draw(S, Q); });
  auto Titles = drawnWindowTitles();
  for (const char *T : AllPanels) {
    EXPECT_TRUE(hasWindow(Titles, T)) << T;
    EXPECT_GT(drawnVertices(T), 200) << T;
  }
  EXPECT_TRUE(hasWindow(Titles, "Compare"));
  EXPECT_GT(drawnVertices("Compare"), 200);
  // Every window lies on the 1600x1000 display.
  for (const char *T : AllPanels) {
    ImGuiWindow *W = ImGui::FindWindowByName(T);
    ASSERT_TRUE(W);
    EXPECT_GE(W->Pos.x, 0) << T;
    EXPECT_LE(W->Pos.x + W->Size.x, 1600.5f) << T;
    EXPECT_LE(W->Pos.y + W->Size.y, 1000.5f) << T;
  }
  EXPECT_TRUE(Q.posted().empty());
  EXPECT_EQ(Shell.stats().historySize(1), 1u);
  EXPECT_EQ(Shell.stats().historySize(2), 1u);
  EXPECT_EQ(Shell.stats().historySize(3), 0u); // still compiling
}

TEST(Panels, GalleryWithPinnedInlinedLine) {
  ImGuiHarness H;
  ShellView Shell;
  Shell.setMonoFont(H.mono());
  GuiSnapshot S = test::makeSnapshot();
  CommandQueue Q;
  Shell.links().pinSource(2); // axpy's body: lit in every stage, inlined or not
  for (int I = 0; I < 3; ++I)
    H.frame([&] { Shell.draw(S, Q); });
  EXPECT_EQ(Shell.links().pinnedSource(), 2u);
  gallery(H, "full-dark");
  Shell.settings().Theme = ThemeKind::Light;
  Shell.settings().Visible[size_t(Panel::Compare)] = true;
  for (int I = 0; I < 3; ++I)
    H.frame([&] { Shell.draw(S, Q); });
  gallery(H, "full-light-compare");
}

TEST(Panels, StagePaneFindsAndSwitchesJobs) {
  ImGuiHarness H;
  ShellView Shell;
  GuiSnapshot S = test::makeSnapshot();
  CommandQueue Q;
  H.frame([&] { Shell.draw(S, Q); });
  StagePane &Opt = Shell.stage(Panel::LLVMOpt);
  Opt.find("load float");
  H.frame([&] { Shell.draw(S, Q); });
  EXPECT_EQ(Opt.findHits().size(), 2u);
  Opt.find("fmul");
  H.frame([&] { Shell.draw(S, Q); });
  EXPECT_EQ(Opt.findHits().size(), 1u);
  // Job 2 (-O3) has an fma instead; the query is kept per job.
  S.SelectedJob = 2;
  H.frame([&] { Shell.draw(S, Q); });
  Opt.find("llvm.fma");
  H.frame([&] { Shell.draw(S, Q); });
  EXPECT_EQ(Opt.findHits().size(), 1u);
}

// A snapshot published by the Workspace carries each report's index: the
// panes draw from it and index nothing on the GUI thread; without one (here,
// the gallery) a pane indexes the report itself.
TEST(Panels, StagePanesDrawFromThePublishedIndex) {
  ImGuiHarness H;
  ShellView Shell;
  GuiSnapshot S = test::makeSnapshot();
  CommandQueue Q;
  H.frame([&] { Shell.draw(S, Q); });
  StagePane &Opt = Shell.stage(Panel::LLVMOpt);
  ASSERT_NE(Opt.index(), nullptr);
  const ReportIndex *Own = Opt.index();
  EXPECT_EQ(S.selectedJob()->Index, nullptr);

  // The next snapshot, as the Workspace publishes it: new reports (here
  // copies: they share their texts), each with its index.
  GuiSnapshot P = S;
  for (JobEntry &J : P.Jobs) {
    if (J.Report)
      J.Report = std::make_shared<const JobReport>(*J.Report);
    J.Index = indexReport(J.Report, P.FilePath, nullptr);
  }
  P.Generation++;
  H.frame([&] { Shell.draw(P, Q); });
  EXPECT_EQ(Opt.index(), P.selectedJob()->Index.get());
  EXPECT_NE(Opt.index(), Own);
  // Drawn from it: the find still works.
  Opt.find("load float");
  H.frame([&] { Shell.draw(P, Q); });
  EXPECT_EQ(Opt.findHits().size(), 2u);
}

TEST(Panels, PipelineFiltersPasses) {
  ImGuiHarness H;
  ShellView Shell;
  GuiSnapshot S = test::makeSnapshot();
  CommandQueue Q;
  H.frame([&] { Shell.draw(S, Q); });
  EXPECT_EQ(Shell.pipeline().visiblePasses().size(), 3u); // one left nothing
  Shell.pipeline().setNameFilter("instcombine");
  H.frame([&] { Shell.draw(S, Q); });
  ASSERT_EQ(Shell.pipeline().visiblePasses().size(), 1u);
  EXPECT_EQ(Shell.pipeline().visiblePasses()[0], 1u);
  Shell.pipeline().selectPass(1); // no Diff text: rendered through diffLines
  H.frame([&] { Shell.draw(S, Q); });
  EXPECT_GT(drawnVertices("Pipeline"), 200);
  // The line filter keeps the passes that made or removed matching lines:
  // SROA removed the alloca (and its store), nothing else touched one.
  Shell.pipeline().setNameFilter("");
  Shell.pipeline().setLineFilter("%a.addr");
  H.frame([&] { Shell.draw(S, Q); });
  ASSERT_EQ(Shell.pipeline().visiblePasses().size(), 1u);
  EXPECT_EQ(Shell.pipeline().visiblePasses()[0], 0u);
  EXPECT_LT(Shell.pipeline().lineDelta(0), 0);
  H.frame([&] { Shell.draw(S, Q); });
  gallery(H, "pipeline-line-filter");
  Shell.pipeline().setLineFilter("no such line");
  H.frame([&] { Shell.draw(S, Q); });
  EXPECT_TRUE(Shell.pipeline().visiblePasses().empty());
  // Unticking "changed" lists the pass that left the IR as it was too.
  Shell.pipeline().setLineFilter("");
  Shell.pipeline().setChangedOnly(false);
  Shell.pipeline().selectPass(2);
  H.frame([&] { Shell.draw(S, Q); });
  H.frame([&] { Shell.draw(S, Q); });
  EXPECT_EQ(Shell.pipeline().visiblePasses().size(), 4u);
  gallery(H, "pipeline-unchanged-pass");
}

// Opening a large file changes every method and invalidates thousands of
// instances: the panel draws the rows on screen, not all of them.
TEST(Panels, InvalidationsDrawOnlyTheRowsOnScreen) {
  ImGuiHarness H;
  ShellView Shell;
  GuiSnapshot S = test::makeSnapshot();
  CommandQueue Q;
  H.frame([&] { Shell.draw(S, Q); });
  InvalidationEntry E;
  E.Sequence =
      S.Invalidations.empty() ? 1 : S.Invalidations.back().Sequence + 1;
  E.Trigger = "open big.jl";
  for (int I = 0; I < 5000; ++I) {
    E.ChangedMethods.push_back("f_" + std::to_string(I) + "(x::Float32)");
    E.Invalidated.push_back({"f_" + std::to_string(I) + "(Float32)",
                             "its method was redefined", unsigned(I % 3)});
  }
  S.Invalidations.push_back(std::move(E));
  for (int I = 0; I < 3; ++I)
    H.frame([&] { Shell.draw(S, Q); });
  EXPECT_GT(drawnVertices("Invalidations"), 200);
  // ImGui culls what is off screen, but each of the 10 000 rows submitted
  // still costs its formatting and layout.
  EXPECT_GT(Shell.invalidations().rowsDrawn(), 0u);
  EXPECT_LT(Shell.invalidations().rowsDrawn(), 200u);
}

TEST(Panels, RemarksTabGroupsFiltersAndLightsTheLine) {
  ImGuiHarness H;
  ShellView Shell;
  GuiSnapshot S = test::makeSnapshot();
  CommandQueue Q;
  Shell.pipeline().showRemarks();
  H.frame([&] { Shell.draw(S, Q); });
  H.frame([&] { Shell.draw(S, Q); });
  RemarksView &Rv = Shell.pipeline().remarks();
  // At first what did not happen: the missed load and the analysis.
  ASSERT_EQ(Rv.rows().size(), 2u);
  EXPECT_EQ(Rv.rows()[0].Remark->Kind, RemarkKind::Missed);
  Rv.setShown(RemarkKind::Passed, true);
  H.frame([&] { Shell.draw(S, Q); });
  // Two identical LICM remarks are one row; rows go by source line, the
  // one without a line last.
  const auto &Rows = Rv.rows();
  ASSERT_EQ(Rows.size(), 3u);
  EXPECT_EQ(Rows[0].SourceLine, 6u);
  EXPECT_EQ(Rows[0].Count, 2u);
  EXPECT_EQ(Rows[1].SourceLine, 7u); // axpy's load, at its call in the kernel
  EXPECT_EQ(Rows[1].Remark->Pass, "gvn");
  EXPECT_EQ(Rows[2].SourceLine, 0u);
  EXPECT_GT(drawnVertices("Pipeline"), 200);
  // The Source view marks the missed one on its kernel line, only it.
  EXPECT_EQ(Shell.source().missedRemarksOn(7), 1u);
  EXPECT_EQ(Shell.source().missedRemarksOn(6), 0u);
  EXPECT_EQ(Shell.source().missedRemarksOn(2), 0u);
  Rv.setShown(RemarkKind::Passed, false);
  H.frame([&] { Shell.draw(S, Q); });
  EXPECT_EQ(Rv.rows().size(), 2u);
  Rv.setFilter("ELIMINATED");
  H.frame([&] { Shell.draw(S, Q); });
  ASSERT_EQ(Rv.rows().size(), 1u);
  EXPECT_EQ(Rv.rows()[0].Remark->Pass, "gvn");
}

// The Run form fills from the file's `# run:` line for the selected job and
// hands its block to the warp analyses; a form the command line filled
// (`gui --run CALL --threads 64`) is kept, so the jobs compile for the
// launch that ran, once.
TEST(Panels, AFailedRunMarksItsLineInTheSourceWhileItsCodeIsCurrent) {
  GuiSnapshot S = test::makeSnapshot();
  Diagnostic Throw =
      Diagnostic::error("launch", "BoundsError at saxpy.jl:11", DiagLoc());
  Throw.Loc.FileName = S.FilePath;
  Throw.Loc.Line = 11;
  Throw.Loc.Col = 9;
  auto Host =
      std::find_if(S.Devices.begin(), S.Devices.end(),
                   [](const DeviceEntry &D) { return D.Name == "host"; });
  ASSERT_NE(Host, S.Devices.end());
  Host->LastRun.emplace();
  Host->LastRun->Call = "saxpy!(2f0, ones(Float32, 8), ones(Float32, 4))";
  Host->LastRun->Diagnostics.push_back(Throw);
  ImGuiHarness H;
  ShellView Shell;
  CommandQueue Q;
  H.frame([&] { Shell.draw(S, Q); });
  EXPECT_EQ(Shell.source().diagnosticsOn(11), 1u);
  // Once an edit replaced the code that threw, the throw is history.
  Host->LastRun->Stale = true;
  H.frame([&] { Shell.draw(S, Q); });
  EXPECT_EQ(Shell.source().diagnosticsOn(11), 0u);
}

TEST(Panels, TheRunFormKeepsACommandLinePreset) {
  GuiSnapshot S = test::makeSnapshot();
  S.Source = "# run: saxpy!(2f0, ones(Float32, 512), ones(Float32, 512)) "
             "--blocks 2 --threads 256\n" +
             S.Source;
  auto BlockPosted = [](const CommandQueue &Q) {
    std::optional<std::array<unsigned, 3>> B;
    for (const GuiCommand &C : Q.posted())
      if (const auto *L = std::get_if<cmd::SetLaunchBlock>(&C))
        B = L->Threads;
    return B;
  };
  {
    ImGuiHarness H;
    ShellView Shell;
    CommandQueue Q;
    H.frame([&] { Shell.draw(S, Q); });
    EXPECT_EQ(Shell.runForm().Threads, "256");
    EXPECT_EQ(BlockPosted(Q), (std::array<unsigned, 3>{256, 1, 1}));
  }
  ImGuiHarness H;
  ShellView Shell;
  RunForm F;
  F.Call = "saxpy!(2f0, ones(Float32, 64), ones(Float32, 64))";
  F.Threads = "64";
  Shell.presetRunForm(F);
  Shell.setPostedBlock({64, 1, 1}); // as the app posts before the first job
  CommandQueue Q;
  for (int I = 0; I < 2; ++I)
    H.frame([&] { Shell.draw(S, Q); });
  EXPECT_EQ(Shell.runForm().Threads, "64");
  EXPECT_EQ(Shell.runForm().Call, F.Call);
  EXPECT_FALSE(BlockPosted(Q)) << "the block the jobs started with";
}

TEST(Panels, StatsKeepsHistoryOverRecompiles) {
  ImGuiHarness H;
  ShellView Shell;
  GuiSnapshot S = test::makeSnapshot();
  CommandQueue Q;
  for (int I = 0; I < 5; ++I) {
    S.Jobs[0].Report = test::makeSaxpyReport(2); // a fresh report each time
    H.frame([&] { Shell.draw(S, Q); });
    H.frame([&] { Shell.draw(S, Q); }); // same report: not recorded twice
  }
  EXPECT_EQ(Shell.stats().historySize(1), 5u);

  // A Workspace counts compiles: the reports it publishes later for the same
  // compile (ptxas's registers, the cache's figures) update its entry.
  S.Jobs[0].Compiles = 6;
  S.Jobs[0].Report = test::makeSaxpyReport(2);
  H.frame([&] { Shell.draw(S, Q); });
  S.Jobs[0].Report = test::makeSaxpyReport(2);
  H.frame([&] { Shell.draw(S, Q); });
  EXPECT_EQ(Shell.stats().historySize(1), 6u);
  S.Jobs[0].Compiles = 7;
  S.Jobs[0].Report = test::makeSaxpyReport(2);
  H.frame([&] { Shell.draw(S, Q); });
  EXPECT_EQ(Shell.stats().historySize(1), 7u);
}

TEST(Panels, ResourcesTabChartsOccupancyByBlockSize) {
  ImGuiHarness H;
  ShellView Shell;
  GuiSnapshot S = test::makeSnapshot(); // saxpy! on ptx sm_80, 12 registers
  CommandQueue Q;
  Shell.stats().showResources();
  H.frame([&] { Shell.draw(S, Q); });
  H.frame([&] { Shell.draw(S, Q); });
  const std::vector<Occupancy> &Occ = Shell.stats().occupancy();
  ASSERT_EQ(Occ.size(), 32u); // one warp to 1024 threads
  EXPECT_EQ(Occ[7].BlockSize, 256);
  EXPECT_DOUBLE_EQ(Occ[7].fraction(), 1.0);
  // Hovering a bar picks its block size (the tooltip explains it).
  ImGuiWindow *W = ImGui::FindWindowByName("Stats");
  ASSERT_TRUE(W);
  ImGuiIO &IO = ImGui::GetIO();
  int Hovered = 0;
  for (float Y = W->Pos.y + 40; Y < W->Pos.y + W->Size.y && !Hovered; Y += 4) {
    IO.MousePos = ImVec2(W->Pos.x + W->Size.x - 20, Y);
    H.frame([&] { Shell.draw(S, Q); });
    Hovered = Shell.stats().hoveredBlockSize();
  }
  EXPECT_GE(Hovered, 900); // the right end: the largest blocks
  // The Run form's block size is marked and described.
  Shell.devices().Form.Threads = "16,16";
  H.frame([&] { Shell.draw(S, Q); });
  ASSERT_TRUE(Shell.stats().launchOccupancy());
  EXPECT_EQ(Shell.stats().launchOccupancy()->BlockSize, 256);
  Shell.devices().Form.Threads = "2048";
  H.frame([&] { Shell.draw(S, Q); });
  ASSERT_TRUE(Shell.stats().launchOccupancy());
  EXPECT_EQ(Shell.stats().launchOccupancy()->BlocksPerSM, 0);
  gallery(H, "stats_occupancy");
  // gcn charts workgroups of waves on a CU, one bar per wave.
  auto Gcn = std::make_shared<JobReport>(*test::makeSaxpyReport(2));
  Gcn->Target = "gcn";
  Gcn->Arch = "gfx90a";
  Gcn->Resources.VGPRs = 65; // 7 waves per SIMD
  Gcn->Resources.SGPRs = 20;
  Gcn->Resources.LDSBytes = 0;
  Gcn->Resources.WavesPerSIMD = 7; // the backend counts waves one by one
  S.Jobs[0].Report = Gcn;
  Shell.devices().Form.Threads = "1024";
  H.frame([&] { Shell.draw(S, Q); });
  ASSERT_EQ(Shell.stats().occupancy().size(), 16u); // 64 ... 1024 threads
  EXPECT_TRUE(Shell.stats().occupancy().front().Amd);
  ASSERT_TRUE(Shell.stats().launchOccupancy());
  EXPECT_DOUBLE_EQ(Shell.stats().launchOccupancy()->warpsPerPartition(), 4);
  // The host has no occupancy chart.
  auto Native = std::make_shared<JobReport>(*Gcn);
  Native->Target = "native";
  Native->Arch = "znver4";
  S.Jobs[0].Report = Native;
  H.frame([&] { Shell.draw(S, Q); });
  EXPECT_TRUE(Shell.stats().occupancy().empty());
}

namespace {
/// The selected tab of every tab bar drawn, by name.
std::vector<std::string> selectedTabs() {
  std::vector<std::string> Names;
  ImGuiContext &G = *ImGui::GetCurrentContext();
  for (int N = 0; N < G.TabBars.GetMapSize(); ++N)
    if (ImGuiTabBar *TB = G.TabBars.TryGetMapData(N))
      if (ImGuiTabItem *T = ImGui::TabBarFindTabByID(TB, TB->SelectedTabId))
        Names.push_back(TB->GetTabName(T));
  return Names;
}
} // namespace

// `gui --show-cache` opens Stats on its Cache tab; a report whose cache
// figures the workspace is still measuring says so there.
TEST(Panels, CacheTabOpensOnRequestAndShowsAPendingProbe) {
  ImGuiHarness H;
  ShellView Shell;
  GuiSnapshot S = test::makeSnapshot();
  CommandQueue Q;
  H.frame([&] { Shell.draw(S, Q); });
  std::vector<std::string> Before = selectedTabs();
  EXPECT_EQ(std::count(Before.begin(), Before.end(), "Cache"), 0);
  Shell.stats().showCache();
  H.frame([&] { Shell.draw(S, Q); });
  H.frame([&] { Shell.draw(S, Q); });
  std::vector<std::string> After = selectedTabs();
  EXPECT_EQ(std::count(After.begin(), After.end(), "Cache"), 1);
  // The figures' table, then in its place a line or two of text.
  auto ContentHeight = [] {
    ImGuiWindow *W = ImGui::FindWindowByName("Stats");
    return W ? W->ContentSize.y : -1.0f;
  };
  float Measured = ContentHeight();
  auto Pending = std::make_shared<JobReport>(*test::makeSaxpyReport(2));
  Pending->Cache.Pending = true; // the earlier figures are not shown

  S.Jobs[0].Report = Pending;
  H.frame([&] { Shell.draw(S, Q); });
  H.frame([&] { Shell.draw(S, Q); });
  float Waiting = ContentHeight();
  EXPECT_GT(Waiting, 0.0f);
  EXPECT_LT(Waiting, Measured * 0.75f) << Measured;
  gallery(H, "stats_cache_pending");
}

TEST(Panels, TypingInTheEditorPostsEditSource) {
  ImGuiHarness H;
  ShellView Shell;
  GuiSnapshot S = test::makeSnapshot();
  CommandQueue Q;
  H.frame([&] { Shell.draw(S, Q); });
  ImGuiWindow *W = ImGui::FindWindowByName("Source");
  ASSERT_TRUE(W);
  ImGuiIO &IO = ImGui::GetIO();
  // Click into the text (right of the gutter), then type.
  IO.MousePos = ImVec2(W->Pos.x + 200, W->Pos.y + 90);
  IO.MouseDown[0] = true;
  H.frame([&] { Shell.draw(S, Q); });
  IO.MouseDown[0] = false;
  H.frame([&] { Shell.draw(S, Q); });
  IO.AddInputCharacter('#');
  H.frame([&] { Shell.draw(S, Q); });
  ASSERT_FALSE(Q.posted().empty());
  const auto *E = std::get_if<cmd::EditSource>(&Q.posted().back());
  ASSERT_TRUE(E);
  EXPECT_EQ(E->Text.size(), std::string(test::SaxpySource).size() + 1);
  EXPECT_NE(E->Text.find('#', 1), std::string::npos);
  EXPECT_EQ(Shell.source().buffer(), E->Text);
  // Until the Workspace echoes the edit, the editor keeps the user's text.
  H.frame([&] { Shell.draw(S, Q); });
  EXPECT_EQ(Shell.source().buffer(), E->Text);
}

TEST(Panels, HoveringAnOutputLineLightsItsSourceLines) {
  ImGuiHarness H;
  ShellView Shell;
  GuiSnapshot S = test::makeSnapshot();
  CommandQueue Q;
  Shell.settings().Visible[size_t(Panel::LLVMRaw)] = false;
  Shell.settings().Visible[size_t(Panel::Typed)] = false;
  H.frame([&] { Shell.draw(S, Q); });
  // Find the fmul row (axpy inlined into saxpy!) and put the mouse on it.
  StagePane &Pane = Shell.stage(Panel::LLVMOpt);
  Pane.find("fmul contract");
  H.frame([&] { Shell.draw(S, Q); });
  ImGuiWindow *W = ImGui::FindWindowByName("LLVM IR (optimised)");
  ASSERT_TRUE(W);
  ImGuiIO &IO = ImGui::GetIO();
  // Scan down the pane until a hover lights two source lines.
  bool Found = false;
  for (float Y = W->Pos.y + 40; Y < W->Pos.y + W->Size.y && !Found; Y += 4) {
    IO.MousePos = ImVec2(W->Pos.x + 300, Y);
    H.frame([&] { Shell.draw(S, Q); });
    const auto &O = Shell.links().hoveredOrigins();
    Found = O.size() == 2 && O[0].Line == 2 && O[1].Line == 7;
  }
  EXPECT_TRUE(Found) << "no row of the pane maps to lines 2 and 7";
  EXPECT_EQ(Shell.links().litSource(), 2u);
}

TEST(Panels, LargePaneUsesTheClipper) {
  ImGuiHarness H;
  ShellView Shell;
  GuiSnapshot S = test::makeSnapshot();
  S.Jobs[0].Report = test::makeLargeReport(20000);
  CommandQueue Q;
  ImGuiIO &IO = ImGui::GetIO();
  H.frame([&] { Shell.draw(S, Q); });
  ImGuiWindow *W = ImGui::FindWindowByName("LLVM IR (optimised)");
  ASSERT_TRUE(W);
  IO.MousePos = ImVec2(W->Pos.x + 200, W->Pos.y + 100);
  std::vector<double> Ms;
  for (int I = 0; I < 120; ++I) {
    IO.MouseWheel = -10; // keep scrolling down
    auto T0 = std::chrono::steady_clock::now();
    H.frame([&] { Shell.draw(S, Q); });
    Ms.push_back(std::chrono::duration<double, std::milli>(
                     std::chrono::steady_clock::now() - T0)
                     .count());
  }
  // Only the visible rows were drawn: far fewer vertices than 20 000 lines.
  EXPECT_LT(drawnVertices("LLVM IR (optimised)"), 200000);
  std::sort(Ms.begin(), Ms.end());
  std::printf("20000-line pane: whole-UI frame median %.3f ms, p95 %.3f ms, "
              "max %.3f ms\n",
              Ms[Ms.size() / 2], Ms[Ms.size() * 95 / 100], Ms.back());
}

TEST(Panels, ThemeFontScaleAndPanelsPersistThroughTheIni) {
  // What `prism gui` writes to imgui.ini and reads back next session: the
  // Prism section (theme, zoom, open panels) and ImGui's window layout.
  std::string Ini;
  {
    ImGuiHarness H;
    ShellView Shell;
    Shell.installSettingsHandler();
    Shell.setMonoFont(H.mono());
    Shell.settings().Theme = ThemeKind::Light;
    Shell.settings().FontScale = 1.25f;
    Shell.settings().Visible[size_t(Panel::Pipeline)] = false;
    GuiSnapshot S;
    S.Source = test::SaxpySource;
    CommandQueue Q;
    for (int I = 0; I < 2; ++I)
      H.frame([&] { Shell.draw(S, Q); });
    ImGui::MarkIniSettingsDirty();
    Ini = ImGui::SaveIniSettingsToMemory();
  }
  EXPECT_NE(Ini.find("[Prism][Settings]"), std::string::npos) << Ini;
  EXPECT_NE(Ini.find("Theme=light"), std::string::npos) << Ini;
  EXPECT_NE(Ini.find("[Window][Jobs]"), std::string::npos) << Ini;

  ImGuiHarness H;
  ShellView Shell;
  Shell.installSettingsHandler();
  ImGui::LoadIniSettingsFromMemory(Ini.c_str(), Ini.size());
  EXPECT_EQ(Shell.settings().Theme, ThemeKind::Light);
  EXPECT_FLOAT_EQ(Shell.settings().FontScale, 1.25f);
  EXPECT_FALSE(Shell.settings().Visible[size_t(Panel::Pipeline)]);
  EXPECT_TRUE(Shell.settings().Visible[size_t(Panel::Jobs)]);
}

// Where a failed job stopped, as the stage panes and Stats say it: the
// first stage it did not produce, or the file's own syntax error (which
// leaves the job with only "undefined function").
TEST(Panels, JobStopNamesTheFailingStageOrTheFilesError) {
  JobReport R;
  R.stage(Stage::Typed).Present = true;
  R.Diagnostics.push_back(Diagnostic::error(
      "invalid-ir", "kernel returns a value of type Float32", {}));
  std::optional<JobStop> S = jobStop(R);
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Stage, size_t(Stage::TypedOpt));
  EXPECT_EQ(S->Where, "in typed-opt");
  EXPECT_EQ(S->FirstError, "kernel returns a value of type Float32");

  DiagLoc At;
  At.Line = 11;
  At.Col = 19;
  std::vector<Diagnostic> File{
      Diagnostic::error("parse", "expected a macro name after `@`", At)};
  S = jobStop(R, File);
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Where, "while parsing the file");
  EXPECT_EQ(S->FirstError, "11:19: expected a macro name after `@`");

  R.Diagnostics.clear();
  R.stage(Stage::TypedOpt).Present = R.stage(Stage::LLVMRaw).Present =
      R.stage(Stage::LLVMOpt).Present = R.stage(Stage::Asm).Present = true;
  EXPECT_FALSE(jobStop(R)) << "a job without errors did not stop";
}
