// The Workspace's edit → invalidate → recompile cycle, through its public
// API and the real driver (native target).
#include "workspace/JobCompile.h"
#include "workspace/Workspace.h"

#include "targets/PtxTarget.h"

#include <gtest/gtest.h>

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <mutex>

#include <sys/wait.h>
#include <unistd.h>

using namespace prism;

namespace {

const char *Program = R"(child(i::Int) = i * 2
other(i::Int) = i - 1
kernel(i::Int) = child(i) + 1
solo(i::Int) = other(i) + 3
)";

/// Removes, at exit, every file writeTemp made: several tests hand the path
/// straight to the workspace and never see it again.
struct TempFiles {
  std::mutex M;
  std::vector<std::string> Paths;
  ~TempFiles() {
    for (const std::string &P : Paths)
      llvm::sys::fs::remove(P);
  }
};
TempFiles Temps;

std::string writeTemp(const std::string &Text) {
  llvm::SmallString<128> Path;
  llvm::sys::fs::createTemporaryFile("prism-ws", "jl", Path);
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << Text;
  }
  std::lock_guard<std::mutex> G(Temps.M);
  Temps.Paths.push_back(std::string(Path));
  return std::string(Path);
}

const JobState *findJob(const WorkspaceSnapshot &S, const std::string &Sig) {
  for (const JobState &J : S.Jobs)
    if (J.Spec.Signature == Sig)
      return &J;
  return nullptr;
}

/// Opens Path, adds one job and waits until the workspace is idle; returns
/// every snapshot published on the way, the final one last.
std::vector<WorkspaceSnapshotRef> compileOneJob(const std::string &Path,
                                                const JobSpec &Spec) {
  Workspace WS(makeDriverJobCompiler());
  std::mutex M;
  std::vector<WorkspaceSnapshotRef> Seen;
  WS.setOnPublish([&] {
    std::lock_guard<std::mutex> G(M);
    Seen.push_back(WS.snapshot());
  });
  WS.openFile(Path);
  WS.addJob(Spec);
  WS.waitIdle();
  WS.setOnPublish(nullptr);
  std::lock_guard<std::mutex> G(M);
  Seen.push_back(WS.snapshot());
  return Seen;
}

/// The job's states in Seen that were compiled (Ok) with a report other
/// than Final's: the code shown before what followed it was measured.
std::vector<const JobState *>
earlierOkStates(const std::vector<WorkspaceSnapshotRef> &Seen,
                const JobState &Final) {
  std::vector<const JobState *> Out;
  for (const WorkspaceSnapshotRef &S : Seen)
    if (const JobState *J = findJob(*S, Final.Spec.Signature);
        J && J->Status == JobStatus::Ok && J->Report != Final.Report)
      Out.push_back(J);
  return Out;
}

JobSpec nativeJob(const std::string &Sig) {
  JobSpec S;
  S.Signature = Sig;
  S.Target = "native";
  S.Kernel = false;
  return S;
}

class WorkspaceTest : public ::testing::Test {
protected:
  /// Program opened with two jobs: kernel(Int) (uses child) and solo(Int).
  static void openWithKernelAndSolo(Workspace &WS, const std::string &Path) {
    WS.openFile(Path);
    WS.addJob(nativeJob("kernel(Int)"));
    WS.addJob(nativeJob("solo(Int)"));
    WS.waitIdle();
  }
  void SetUp() override {
    // Autosaves go to a private directory, not the user's.
    llvm::sys::fs::createUniqueDirectory("prism-ws-state", StateDir);
    setenv("XDG_STATE_HOME", StateDir.c_str(), 1);
  }
  void TearDown() override {
    unsetenv("XDG_STATE_HOME");
    llvm::sys::fs::remove_directories(StateDir);
  }
  llvm::SmallString<128> StateDir;
};

} // namespace

TEST_F(WorkspaceTest, ADefinitionThatOnlyMovedIsSaidToHaveMoved) {
  // A line inserted above every definition: each reloads (its line table
  // changed), and the event says it moved rather than was redefined.
  std::string Path = writeTemp(Program);
  Workspace WS(makeDriverJobCompiler());
  openWithKernelAndSolo(WS, Path);
  WS.setSource("# a comment\n" + std::string(Program));
  WS.waitIdle();
  auto S = WS.snapshot();
  const InvalidationEvent &Ev = S->Log.back();
  EXPECT_TRUE(llvm::is_contained(Ev.Redefined,
                                 "child(i::Int64) (moved from line 1 to 2)"))
      << llvm::join(Ev.Redefined, "; ");
  EXPECT_FALSE(llvm::any_of(Ev.Redefined, [](const std::string &R) {
    return llvm::StringRef(R).endswith("(deleted)");
  }));
  auto Child = llvm::find_if(Ev.Invalidated, [](const InvalidatedCode &I) {
    return llvm::StringRef(I.Instance).startswith("child(");
  });
  ASSERT_NE(Child, Ev.Invalidated.end());
  EXPECT_EQ(Child->Cause, "its method moved from line 1 to 2 (recompiled for "
                          "its line numbers)");
  llvm::sys::fs::remove(Path);
}

TEST_F(WorkspaceTest, EditingALeafRecompilesExactlyTheJobsThatUseIt) {
  std::string Path = writeTemp(Program);
  Workspace WS(makeDriverJobCompiler());
  openWithKernelAndSolo(WS, Path);

  auto S = WS.snapshot();
  ASSERT_TRUE(S->Diagnostics.empty());
  const JobState *K = findJob(*S, "kernel(Int)");
  const JobState *Solo = findJob(*S, "solo(Int)");
  ASSERT_TRUE(K && Solo);
  ASSERT_EQ(K->Status, JobStatus::Ok);
  ASSERT_EQ(Solo->Status, JobStatus::Ok);
  uint64_t KCompiles = K->Compiles, SoloCompiles = Solo->Compiles;
  JobReportRef SoloReport = Solo->Report;

  // Redefine `child` only (same line count): kernel depends on it, solo not.
  std::string Edited = Program;
  Edited.replace(Edited.find("i * 2"), 5, "i * 3");
  WS.setSource(Edited);
  WS.waitIdle();

  S = WS.snapshot();
  K = findJob(*S, "kernel(Int)");
  Solo = findJob(*S, "solo(Int)");
  EXPECT_EQ(K->Compiles, KCompiles + 1) << "kernel uses child: recompiled";
  EXPECT_EQ(Solo->Compiles, SoloCompiles) << "solo does not: left alone";
  EXPECT_EQ(Solo->Report, SoloReport) << "solo keeps the very same report";
  EXPECT_EQ(K->Status, JobStatus::Ok);
  EXPECT_NE(K->Report->stage(Stage::LLVMOpt).Text.find("3"), std::string::npos);

  ASSERT_FALSE(S->Log.empty());
  const InvalidationEvent &Ev = S->Log.back();
  ASSERT_EQ(Ev.Redefined.size(), 1u);
  EXPECT_NE(Ev.Redefined[0].find("child"), std::string::npos);
  EXPECT_EQ(Ev.Trigger, "edit");
  // The invalidation tree: child's own instance, because its method was
  // redefined, then kernel's, reached through child's backedge.
  auto Find = [&](const char *Name) {
    for (size_t I = 0; I < Ev.Invalidated.size(); ++I)
      if (Ev.Invalidated[I].Instance.rfind(Name, 0) == 0)
        return int(I);
    return -1;
  };
  int Child = Find("child("), Kernel = Find("kernel(");
  ASSERT_GE(Child, 0);
  ASSERT_GE(Kernel, 0);
  EXPECT_EQ(Ev.Invalidated[Child].Parent, -1);
  EXPECT_EQ(Ev.Invalidated[Child].Cause, "its method was redefined");
  EXPECT_EQ(Ev.Invalidated[Kernel].Parent, Child);
  EXPECT_EQ(Ev.Invalidated[Kernel].Cause,
            "calls " + Ev.Invalidated[Child].Instance);
  EXPECT_EQ(Find("solo("), -1);
  EXPECT_EQ(Find("other("), -1);
  ASSERT_EQ(Ev.Recompiled.size(), 1u);
  EXPECT_EQ(Ev.Recompiled[0].JobId, K->Id);
  EXPECT_NE(Ev.Recompiled[0].Label.find("kernel(Int)"), std::string::npos);
  EXPECT_EQ(Ev.Recompiled[0].Reason, "depends on a redefined method");
  EXPECT_GT(Ev.Recompiled[0].CompileMs, 0.0);
  EXPECT_GE(Ev.TotalMs, Ev.Recompiled[0].CompileMs);
  EXPECT_FALSE(Ev.Recompiled[0].Failed);
  EXPECT_TRUE(S->Dirty);

  // A redefinition that does not compile: the recompile is listed as failed
  // (the Invalidations panel showed a compile time as if it had worked).
  Edited.replace(Edited.find("i * 3"), 5, "i * nothing");
  WS.setSource(Edited);
  WS.waitIdle();
  S = WS.snapshot();
  ASSERT_EQ(S->Log.back().Recompiled.size(), 1u);
  EXPECT_TRUE(S->Log.back().Recompiled[0].Failed);
  EXPECT_EQ(findJob(*S, "kernel(Int)")->Status, JobStatus::Error);
  llvm::sys::fs::remove(Path);
}

// A report the GUI still shows when a recompile replaces it is freed by the
// worker, never by the GUI thread dropping its last view of it (a large
// program's report took tens of milliseconds to free: a dropped frame).
TEST_F(WorkspaceTest, TheWorkerFreesTheReportsTheGuiDropped) {
  std::string Path = writeTemp(Program);
  Workspace WS(makeDriverJobCompiler());
  openWithKernelAndSolo(WS, Path);
  auto S = WS.snapshot();
  const JobState *K = findJob(*S, "kernel(Int)");
  ASSERT_TRUE(K && K->Report);
  std::weak_ptr<const JobReport> Old = K->Report;

  std::string Edited = Program;
  Edited.replace(Edited.find("i * 2"), 5, "i * 3");
  WS.setSource(Edited);
  WS.waitIdle();
  ASSERT_NE(findJob(*WS.snapshot(), "kernel(Int)")->Report, Old.lock());
  // The GUI lets go of its snapshot: the report is not freed here, since
  // the workspace still holds it...
  S.reset();
  K = nullptr;
  EXPECT_FALSE(Old.expired());
  // ...but the worker frees it the next time it publishes.
  WS.setSource(Edited + "\n");
  WS.waitIdle();
  EXPECT_TRUE(Old.expired());
  llvm::sys::fs::remove(Path);
}

// The GUI's panels draw from an index of each report's texts that the
// worker builds (splitting and correlating a large program's 20 000-line
// texts took 10-16 ms of the GUI frame that took a recompile's result).
TEST_F(WorkspaceTest, TheWorkerIndexesEachReportForTheGui) {
  std::string Path = writeTemp("twice(x::Int64) = x * 2\n");
  std::vector<WorkspaceSnapshotRef> Seen =
      compileOneJob(Path, nativeJob("twice(Int64)"));
  const JobState *Final = findJob(*Seen.back(), "twice(Int64)");
  ASSERT_TRUE(Final && Final->Report && Final->Index);
  const ReportIndex &I = *Final->Index;
  EXPECT_TRUE(I.describes(*Final->Report, Path));
  EXPECT_FALSE(I.describes(*Final->Report, Path + ".other"));
  for (Stage S : {Stage::LLVMRaw, Stage::LLVMOpt, Stage::Asm}) {
    const StageOutput &Out = Final->Report->stage(S);
    ASSERT_TRUE(Out.Present) << stageName(S);
    EXPECT_EQ(I.lines(S).text().data(), Out.Text.data()) << stageName(S);
    EXPECT_EQ(I.lines(S).size(), TextLines(Out.Text).size()) << stageName(S);
    // Line 1's multiply lands somewhere in every stage, and the Source
    // gutter counts it.
    EXPECT_FALSE(I.map(S).outputLinesFor(1).empty()) << stageName(S);
    ASSERT_GT(I.outputCounts().size(), 1u);
    EXPECT_EQ(I.outputCounts()[1][size_t(S)],
              I.map(S).outputLinesFor(1).size());
  }
  // A report with other remarks (or other code) is not what it indexes.
  JobReport Other = *Final->Report;
  Other.Remarks.push_back(OptRemark{});
  EXPECT_FALSE(I.describes(Other, Path));
  // One without any remarks is what its index describes (it was rebuilt on
  // every publish, and by the Source panel on every frame).
  JobReport Bare;
  Bare.stage(Stage::LLVMOpt) = Final->Report->stage(Stage::LLVMOpt);
  ReportIndex B(Bare, Path);
  EXPECT_TRUE(B.describes(Bare, Path));
  EXPECT_EQ(B.lines(Stage::LLVMOpt).size(), I.lines(Stage::LLVMOpt).size());
  // The copies published while its figures were measured share the code,
  // and so the index: built once for them all.
  std::vector<const JobState *> Earlier = earlierOkStates(Seen, *Final);
  EXPECT_FALSE(Earlier.empty());
  for (const JobState *J : Earlier)
    EXPECT_EQ(J->Index, Final->Index);
  llvm::sys::fs::remove(Path);
}

// An edit that recompiles a job gives it a new index; one that leaves it
// alone keeps the old one. The index outlives the report it was built from
// (the worker frees each when no one else holds it).
TEST_F(WorkspaceTest, AnEditReindexesExactlyTheRecompiledJobs) {
  std::string Path = writeTemp(Program);
  Workspace WS(makeDriverJobCompiler());
  openWithKernelAndSolo(WS, Path);
  auto S = WS.snapshot();
  ReportIndexRef KIndex = findJob(*S, "kernel(Int)")->Index;
  ReportIndexRef SoloIndex = findJob(*S, "solo(Int)")->Index;
  ASSERT_TRUE(KIndex && SoloIndex);

  std::string Edited = Program;
  Edited.replace(Edited.find("i * 2"), 5, "i * 3");
  WS.setSource(Edited);
  WS.waitIdle();
  S = WS.snapshot();
  const JobState *K = findJob(*S, "kernel(Int)");
  EXPECT_NE(K->Index, KIndex);
  EXPECT_TRUE(K->Index->describes(*K->Report, Path));
  EXPECT_EQ(findJob(*S, "solo(Int)")->Index, SoloIndex);

  // The old kernel's texts stay readable through the old index alone.
  S.reset();
  WS.setSource(Edited + "\n");
  WS.waitIdle();
  EXPECT_NE(KIndex->lines(Stage::LLVMOpt).text().find("define"),
            std::string_view::npos);
  llvm::sys::fs::remove(Path);
}

TEST_F(WorkspaceTest, ADefinitionThatMovedRecompilesWithItsNewLines) {
  std::string Path = writeTemp(Program);
  Workspace WS(makeDriverJobCompiler());
  openWithKernelAndSolo(WS, Path);
  auto S = WS.snapshot();
  uint64_t KCompiles = findJob(*S, "kernel(Int)")->Compiles;
  uint64_t SoloCompiles = findJob(*S, "solo(Int)")->Compiles;
  EXPECT_NE(findJob(*S, "solo(Int)")->Report->stage(Stage::LLVMRaw).Text.find(
                "line: 4"),
            std::string::npos);

  // A blank line above `solo`: its text is the same, its lines are not.
  std::string Edited = Program;
  Edited.insert(Edited.find("solo(i::Int)"), "\n");
  WS.setSource(Edited);
  WS.waitIdle();

  S = WS.snapshot();
  const JobState *K = findJob(*S, "kernel(Int)");
  const JobState *Solo = findJob(*S, "solo(Int)");
  EXPECT_EQ(K->Compiles, KCompiles) << "kernel did not move";
  EXPECT_EQ(Solo->Compiles, SoloCompiles + 1) << "solo moved a line down";
  const std::string &Raw = Solo->Report->stage(Stage::LLVMRaw).Text;
  EXPECT_NE(Raw.find("line: 5"), std::string::npos) << Raw;
  EXPECT_EQ(Raw.find("line: 4"), std::string::npos) << Raw;
  llvm::sys::fs::remove(Path);
}

TEST_F(WorkspaceTest, SyntaxErrorsKeepTheLastGoodJobs) {
  std::string Path = writeTemp(Program);
  Workspace WS(makeDriverJobCompiler());
  WS.openFile(Path);
  WS.addJob(nativeJob("kernel(Int)"));
  WS.waitIdle();
  JobReportRef Before = WS.snapshot()->Jobs.at(0).Report;

  WS.setSource(std::string(Program) + "function broken(\n");
  WS.waitIdle();
  auto S = WS.snapshot();
  EXPECT_FALSE(S->Diagnostics.empty());
  EXPECT_EQ(S->Jobs.at(0).Report, Before);
  llvm::sys::fs::remove(Path);
}

TEST_F(WorkspaceTest, UnsavedEditsAreAutosavedAndOfferedBack) {
  std::string Path = writeTemp(Program);
  {
    Workspace WS(makeDriverJobCompiler());
    WS.openFile(Path);
    WS.setSource(std::string(Program) + "extra(i::Int) = i\n");
    WS.waitIdle();
    // Dropped without saving, as a crash would.
  }
  Workspace WS(makeDriverJobCompiler());
  WS.openFile(Path);
  WS.waitIdle();
  auto S = WS.snapshot();
  EXPECT_NE(S->RecoverableAutosave.find("extra(i::Int)"), std::string::npos);
  WS.restoreAutosave();
  WS.waitIdle();
  EXPECT_NE(WS.snapshot()->Source.find("extra(i::Int)"), std::string::npos);
  WS.save();
  WS.waitIdle();
  EXPECT_FALSE(WS.snapshot()->Dirty);
  EXPECT_FALSE(llvm::sys::fs::exists(Workspace::autosavePathFor(Path)));
  llvm::sys::fs::remove(Path);
}

// Headless GUI runs (screenshots, benchmarks) neither leave recovery state
// behind nor pick up another session's.
TEST_F(WorkspaceTest, WithoutAutosaveEditsLeaveNothingAndNothingIsOffered) {
  std::string Path = writeTemp(Program);
  {
    Workspace WS(makeDriverJobCompiler());
    WS.setAutosave(false);
    WS.openFile(Path);
    WS.setSource(std::string(Program) + "extra(i::Int) = i\n");
    WS.waitIdle();
  }
  EXPECT_FALSE(llvm::sys::fs::exists(Workspace::autosavePathFor(Path)));
  {
    Workspace WS(makeDriverJobCompiler()); // one that does autosave
    WS.openFile(Path);
    WS.setSource(std::string(Program) + "extra(i::Int) = i\n");
    WS.waitIdle();
  }
  ASSERT_TRUE(llvm::sys::fs::exists(Workspace::autosavePathFor(Path)));
  Workspace WS(makeDriverJobCompiler());
  WS.setAutosave(false);
  WS.openFile(Path);
  WS.waitIdle();
  EXPECT_TRUE(WS.snapshot()->RecoverableAutosave.empty());
  llvm::sys::fs::remove(Workspace::autosavePathFor(Path));
  llvm::sys::fs::remove(Path);
}

TEST_F(WorkspaceTest, RunsACallOnTheHostAndHitsTheCacheTheSecondTime) {
  Workspace WS(makeDriverJobCompiler());
  WS.openFile(writeTemp(Program));
  RunRequest R;
  R.Device = "host";
  R.Call = "kernel(20)";
  WS.run(R);
  WS.waitIdle();
  auto S = WS.snapshot();
  ASSERT_EQ(S->Runs.size(), 1u);
  const RunOutcome &First = S->Runs[0].Outcome;
  ASSERT_TRUE(First.ok()) << (First.Diagnostics.empty()
                                  ? std::string()
                                  : First.Diagnostics[0].Message);
  EXPECT_EQ(First.Launch.Return.str(), "41");
  EXPECT_FALSE(First.CacheHit);

  WS.run(R);
  WS.waitIdle();
  EXPECT_TRUE(WS.snapshot()->Runs[0].Outcome.CacheHit);

  // After an edit the same call runs the new code.
  WS.setSource(std::string(Program) + "child(i::Int) = i * 3\n");
  WS.run(R);
  WS.waitIdle();
  const RunOutcome &Edited = WS.snapshot()->Runs[0].Outcome;
  ASSERT_TRUE(Edited.ok());
  EXPECT_EQ(Edited.Launch.Return.str(), "61");
  EXPECT_FALSE(Edited.CacheHit);

  // A bad call is a usage error, reported, and the worker carries on.
  R.Call = "kernel(";
  WS.run(R);
  WS.waitIdle();
  EXPECT_EQ(WS.snapshot()->Runs[0].Outcome.Status, RunStatus::UsageError);
}

// --check-bounds for the whole session: a new engine, every job
// recompiled in the new mode, runs and edits working on the new engine.
TEST_F(WorkspaceTest, CheckBoundsRecompilesEveryJobInTheNewMode) {
  Workspace WS(makeDriverJobCompiler());
  WS.openFile(writeTemp(std::string(Program) +
                        "get1(a::DeviceArray{Float32,1}, i::Int) = a[i]\n"));
  WS.addJob(nativeJob("get1(DeviceArray{Float32,1}, Int)"));
  WS.addJob(nativeJob("kernel(Int)"));
  WS.waitIdle();
  auto ThrowSites = [&] {
    const JobState *J =
        findJob(*WS.snapshot(), "get1(DeviceArray{Float32,1}, Int)");
    EXPECT_TRUE(J && J->Status == JobStatus::Ok && J->Report);
    return J && J->Report ? J->Report->Resources.ThrowSites.value_or(-1) : -1;
  };
  EXPECT_EQ(WS.snapshot()->Bounds, CheckBounds::Auto);
  EXPECT_EQ(ThrowSites(), 1);
  uint64_t KernelCompiles = findJob(*WS.snapshot(), "kernel(Int)")->Compiles;

  WS.setCheckBounds(CheckBounds::No);
  WS.waitIdle();
  EXPECT_EQ(WS.snapshot()->Bounds, CheckBounds::No);
  EXPECT_EQ(ThrowSites(), 0);
  EXPECT_EQ(findJob(*WS.snapshot(), "kernel(Int)")->Compiles,
            KernelCompiles + 1);

  // The run cache and the invalidation bookkeeping follow the new engine.
  RunRequest R;
  R.Device = "host";
  R.Call = "kernel(20)";
  WS.run(R);
  WS.setSource(std::string(Program) + "child(i::Int) = i * 3\n" +
               "get1(a::DeviceArray{Float32,1}, i::Int) = a[i]\n");
  WS.run(R);
  WS.waitIdle();
  auto S = WS.snapshot();
  ASSERT_EQ(S->Runs.size(), 1u);
  ASSERT_TRUE(S->Runs[0].Outcome.ok());
  EXPECT_EQ(S->Runs[0].Outcome.Launch.Return.str(), "61")
      << "the run in world " << S->Runs[0].InWorld << " of " << S->CurrentWorld;
  EXPECT_EQ(findJob(*S, "kernel(Int)")->Compiles, KernelCompiles + 2);

  WS.setCheckBounds(CheckBounds::Auto);
  WS.waitIdle();
  EXPECT_EQ(ThrowSites(), 1);
}

TEST_F(WorkspaceTest, AModeSetBeforeAnyJobLeavesTheJobsUnderTheOpening) {
  // `prism gui FILE --check-bounds=no`: the mode comes before the jobs. It
  // moved nothing, so it is no event ("0 recompiled"), and the jobs'
  // compiles count under the file's opening, as without the option.
  Workspace WS(makeDriverJobCompiler());
  WS.openFile(writeTemp(Program));
  WS.setCheckBounds(CheckBounds::No);
  JobSpec Job = nativeJob("kernel(Int)");
  Job.Bounds = CheckBounds::No; // as the GUI adds its jobs
  WS.addJob(Job);
  WS.waitIdle();
  auto S = WS.snapshot();
  ASSERT_EQ(S->Log.size(), 1u);
  EXPECT_EQ(S->Log[0].Trigger, "open");
  ASSERT_EQ(S->Log[0].Recompiled.size(), 1u);
  ASSERT_EQ(S->Jobs.size(), 1u);
  EXPECT_EQ(S->Jobs[0].Spec.Bounds, CheckBounds::No);
}

TEST_F(WorkspaceTest, JobsInTwoBoundsModesCompileSideBySide) {
  // The same signature with and without bounds checks: two jobs, two
  // engines over one method table; an edit invalidates in both.
  const std::string Get1 = "get1(a::DeviceArray{Float32,1}, i::Int) = a[i]\n";
  Workspace WS(makeDriverJobCompiler());
  WS.openFile(writeTemp(std::string(Program) + Get1));
  JobSpec Checked = nativeJob("get1(DeviceArray{Float32,1}, Int)");
  JobSpec Unchecked = Checked;
  Unchecked.Bounds = CheckBounds::No;
  WS.addJob(Checked);
  WS.addJob(Unchecked);
  WS.waitIdle();
  auto Jobs = [&] {
    auto S = WS.snapshot();
    EXPECT_EQ(S->Jobs.size(), 2u);
    return S->Jobs;
  };
  std::vector<JobState> J = Jobs();
  ASSERT_EQ(J.size(), 2u);
  ASSERT_TRUE(J[0].Report && J[1].Report);
  EXPECT_EQ(J[0].Status, JobStatus::Ok);
  EXPECT_EQ(J[1].Status, JobStatus::Ok);
  EXPECT_EQ(J[0].Report->Bounds, CheckBounds::Auto);
  EXPECT_EQ(J[1].Report->Bounds, CheckBounds::No);
  EXPECT_EQ(J[0].Report->Resources.ThrowSites, 1);
  EXPECT_EQ(J[1].Report->Resources.ThrowSites, 0);
  EXPECT_NE(J[1].Spec.label().find(" · check-bounds=no"), std::string::npos);
  EXPECT_EQ(J[0].Spec.label().find("check-bounds"), std::string::npos);

  // An edit elsewhere keeps both; redefining get1 recompiles both, and the
  // log names the instance of each engine.
  WS.setSource(std::string(Program) + Get1 + "unrelated(i::Int) = i\n");
  WS.waitIdle();
  J = Jobs();
  ASSERT_EQ(J.size(), 2u);
  EXPECT_EQ(J[0].Compiles, 1u);
  EXPECT_EQ(J[1].Compiles, 1u);
  WS.setSource(std::string(Program) +
               "get1(a::DeviceArray{Float32,1}, i::Int) = a[i] + 1f0\n" +
               "unrelated(i::Int) = i\n");
  WS.waitIdle();
  J = Jobs();
  ASSERT_EQ(J.size(), 2u);
  EXPECT_EQ(J[0].Compiles, 2u);
  EXPECT_EQ(J[1].Compiles, 2u);
  EXPECT_EQ(J[1].Report->Resources.ThrowSites, 0);
  const InvalidationEvent &Ev = WS.snapshot()->Log.back();
  EXPECT_EQ(Ev.Recompiled.size(), 2u);
  EXPECT_TRUE(llvm::any_of(Ev.Invalidated, [](const InvalidatedCode &I) {
    return I.Instance.find("get1") != std::string::npos &&
           I.Instance.find("(check-bounds=no)") != std::string::npos;
  })) << "the unchecked engine's instance is named as such";

  // Setting the mode for all moves the checked job only.
  WS.setCheckBounds(CheckBounds::No);
  WS.waitIdle();
  J = Jobs();
  ASSERT_EQ(J.size(), 2u);
  EXPECT_EQ(J[0].Spec.Bounds, CheckBounds::No);
  EXPECT_EQ(J[0].Compiles, 3u);
  EXPECT_EQ(J[0].Report->Resources.ThrowSites, 0);
  EXPECT_EQ(J[1].Compiles, 2u);
  const InvalidationEvent &Switch = WS.snapshot()->Log.back();
  EXPECT_EQ(Switch.Trigger, "--check-bounds=no");
  EXPECT_TRUE(Switch.Invalidated.empty());
  ASSERT_EQ(Switch.Recompiled.size(), 1u);
  EXPECT_EQ(Switch.Recompiled[0].JobId, J[0].Id);
}

TEST_F(WorkspaceTest, AnEditCancelsTheCompileInFlight) {
  // The real driver, wrapped so that an edit arrives while the first
  // compile runs (as a user typing would): that compile stops early, is
  // not reported, and the edit's compile is.
  std::string Path = writeTemp(Program);
  Workspace *WSP = nullptr;
  std::atomic<int> Calls{0};
  JobCompiler Driver = makeDriverJobCompiler();
  Workspace WS([&](const JobSpec &Spec, GlobalEnv &Env, InferenceEngine &Engine,
                   World W, const std::atomic<bool> &Cancel) {
    if (Calls++ == 0) { // the job's first compile
      std::string Edited = Program;
      Edited.replace(Edited.find("i * 2"), 5, "i * 5");
      WSP->setSource(Edited);
      EXPECT_TRUE(Cancel.load());
    }
    return Driver(Spec, Env, Engine, W, Cancel);
  });
  WSP = &WS;
  WS.openFile(Path);
  WS.waitIdle();
  WS.addJob(nativeJob("kernel(Int)"));
  WS.waitIdle();
  auto S = WS.snapshot();
  EXPECT_EQ(S->CancelledCompiles, 1u);
  const JobState *K = findJob(*S, "kernel(Int)");
  ASSERT_TRUE(K);
  EXPECT_EQ(K->Status, JobStatus::Ok);
  EXPECT_EQ(K->Compiles, 1u) << "only the compile of the edited source counts";
  EXPECT_NE(K->Report->stage(Stage::LLVMOpt).Text.find("5"), std::string::npos);
  llvm::sys::fs::remove(Path);
}

// The compile cache's own compile of a job (a finish step, after the code
// is shown) stops too when an edit arrives; an edit that leaves the job as
// it was (a new function) runs the step again, and the figures are the
// completed compile's alone.
TEST_F(WorkspaceTest, AnEditCancelsTheCacheCompileAndItRunsAgain) {
  std::string Path = writeTemp(Program);
  Workspace *WSP = nullptr;
  std::atomic<int> Probes{0};
  JobCompiler Driver = makeDriverJobCompiler();
  Workspace WS([&](const JobSpec &Spec, GlobalEnv &Env, InferenceEngine &Engine,
                   World W, const std::atomic<bool> &Cancel) {
    CompiledJob R = Driver(Spec, Env, Engine, W, Cancel);
    if (R.Finish.empty())
      return R;
    // The last step is the cache's: the edit arrives as it starts.
    CompiledJob::FinishStep Probe = std::move(R.Finish.back());
    R.Finish.back() = [&, Probe](JobReport &Report) {
      if (Probes++ == 0)
        WSP->setSource(std::string(Program) + "extra(i::Int) = i\n");
      return Probe(Report);
    };
    return R;
  });
  WSP = &WS;
  WS.openFile(Path);
  WS.addJob(nativeJob("kernel(Int)"));
  WS.waitIdle();
  auto S = WS.snapshot();
  EXPECT_EQ(Probes.load(), 2) << "cancelled once, then run to the end";
  EXPECT_EQ(S->CancelledCompiles, 1u);
  const JobState *K = findJob(*S, "kernel(Int)");
  ASSERT_TRUE(K);
  EXPECT_EQ(K->Status, JobStatus::Ok);
  EXPECT_EQ(K->Compiles, 1u) << "the edit left the job as it was";
  const CacheFigures &C = K->Report->Cache;
  EXPECT_TRUE(C.Measured);
  EXPECT_FALSE(C.Pending);
  EXPECT_EQ(C.Compiles, 1u) << "the cancelled compile is not counted";
  EXPECT_EQ(C.HitProbes, 10000u);
  llvm::sys::fs::remove(Path);
}

TEST_F(WorkspaceTest, AutosaveSurvivesKillDashNine) {
  // A child process opens the file, edits it, waits for the autosave and
  // is killed with SIGKILL mid-session; a new Workspace offers the edit.
  std::string Path = writeTemp(Program);
  std::string Autosave = Workspace::autosavePathFor(Path);
  int Ready[2];
  ASSERT_EQ(pipe(Ready), 0);
  pid_t Child = fork();
  ASSERT_GE(Child, 0);
  if (Child == 0) {
    Workspace WS(makeDriverJobCompiler());
    WS.openFile(Path);
    WS.setSource(std::string(Program) + "typed_before_the_crash(i::Int) = i\n");
    WS.waitIdle();
    char C = 1;
    (void)!write(Ready[1], &C, 1);
    for (;;)
      pause(); // killed here, with the Workspace alive
  }
  char C = 0;
  ASSERT_EQ(read(Ready[0], &C, 1), 1);
  kill(Child, SIGKILL);
  int Status = 0;
  waitpid(Child, &Status, 0);
  ASSERT_TRUE(WIFSIGNALED(Status) && WTERMSIG(Status) == SIGKILL);
  close(Ready[0]);
  close(Ready[1]);

  Workspace WS(makeDriverJobCompiler());
  WS.openFile(Path);
  WS.waitIdle();
  EXPECT_NE(WS.snapshot()->RecoverableAutosave.find("typed_before_the_crash"),
            std::string::npos);
  WS.discardAutosave();
  WS.waitIdle();
  EXPECT_FALSE(llvm::sys::fs::exists(Autosave));
  llvm::sys::fs::remove(Path);
}

// A ptx job's code is published before ptxas runs for its resource
// figures; the figures follow in a later snapshot, before the compile
// cache's own compile of the job, and waitIdle waits for them all.
TEST_F(WorkspaceTest, PtxCodeIsShownBeforePtxasMeasuresIt) {
  if (!findPtxas())
    GTEST_SKIP() << "ptxas not installed (CUDA toolkit): no resource figures";
  std::string Path = writeTemp(R"(function fill!(a::DeviceArray{Float32,1})
    @inbounds a[threadIdx().x] = 1.0f0
    return nothing
end
)");
  JobSpec Spec;
  Spec.Signature = "fill!(DeviceArray{Float32,1})";
  Spec.Target = "ptx";
  std::vector<WorkspaceSnapshotRef> Seen = compileOneJob(Path, Spec);

  const JobState *Final = findJob(*Seen.back(), Spec.Signature);
  ASSERT_TRUE(Final && Final->Status == JobStatus::Ok);
  EXPECT_TRUE(Final->Report->Resources.Registers.has_value())
      << Final->Report->Resources.Note;
  EXPECT_EQ(Final->Report->Resources.Source.rfind("ptxas -v", 0), 0u);
  // Some earlier snapshot had the same code without the figures yet.
  std::vector<const JobState *> Earlier = earlierOkStates(Seen, *Final);
  for (const JobState *J : Earlier) {
    EXPECT_EQ(J->Report->stage(Stage::Asm).Text,
              Final->Report->stage(Stage::Asm).Text);
    if (!J->Report->Resources.Registers) {
      EXPECT_EQ(J->Report->Resources.Note, "being measured");
      EXPECT_TRUE(J->Report->Cache.Pending);
    }
  }
  // One snapshot with the code only, one with ptxas's figures while the
  // cache's compile is still to come.
  EXPECT_TRUE(llvm::any_of(Earlier, [](const JobState *J) {
    return !J->Report->Resources.Registers;
  }));
  EXPECT_TRUE(llvm::any_of(Earlier, [](const JobState *J) {
    return J->Report->Resources.Registers && J->Report->Cache.Pending;
  }));
  EXPECT_FALSE(Final->Report->Cache.Pending);
  llvm::sys::fs::remove(Path);
}

// The compile cache's figures (its own compile of the job, as a launch
// would pay it, then the timed hits) come after the code is shown: an edit
// shows its code after one compile, not two. Every target, no tool needed.
TEST_F(WorkspaceTest, TheCodeIsShownBeforeTheCacheCompilesIt) {
  std::string Path = writeTemp("twice(x::Int64) = x * 2\n");
  JobSpec Spec;
  Spec.Signature = "twice(Int64)";
  Spec.Target = "native";
  Spec.Kernel = false;
  std::vector<WorkspaceSnapshotRef> Seen = compileOneJob(Path, Spec);

  const JobState *Final = findJob(*Seen.back(), Spec.Signature);
  ASSERT_TRUE(Final && Final->Status == JobStatus::Ok);
  const CacheFigures &C = Final->Report->Cache;
  EXPECT_TRUE(C.Measured);
  EXPECT_FALSE(C.Pending);
  EXPECT_EQ(C.Compiles, 1u);
  EXPECT_GT(C.LastCompileMs, 0.0);
  EXPECT_EQ(C.HitProbes, 10000u);
  EXPECT_EQ(C.AllocsPerHit, 0.0);
  std::vector<const JobState *> Earlier = earlierOkStates(Seen, *Final);
  for (const JobState *J : Earlier) {
    EXPECT_EQ(J->Report->stage(Stage::Asm).Text,
              Final->Report->stage(Stage::Asm).Text);
    EXPECT_TRUE(J->Report->Cache.Pending);
    EXPECT_FALSE(J->Report->Cache.Measured);
    // The measured copy shares the code, remarks and passes it did not
    // change (a copy of a large kernel's report cost tens of ms).
    EXPECT_TRUE(J->Report->Stages.sharesWith(Final->Report->Stages));
    EXPECT_TRUE(J->Report->Remarks.sharesWith(Final->Report->Remarks));
    EXPECT_TRUE(J->Report->Passes.sharesWith(Final->Report->Passes));
  }
  EXPECT_FALSE(Earlier.empty());
  llvm::sys::fs::remove(Path);
}

// The GUI's Run form gives the launch's block to the warp analyses: only
// GPU jobs recompile, jobs added later take it too, and the divergence
// remark of `t <= 40` names the warp it splits in that block (on gcn it
// splits the block's one 64-thread wavefront).
TEST_F(WorkspaceTest, TheLaunchBlockRecompilesOnlyGpuJobs) {
  std::string Path = writeTemp(R"(function part!(a::DeviceArray{Float32,1})
    t = threadIdx().x
    if t <= 40
        @inbounds a[t] = exp(a[t])
    end
    return nothing
end
)");
  Workspace WS(makeDriverJobCompiler());
  WS.openFile(Path);
  JobSpec Ptx;
  Ptx.Signature = "part!(DeviceArray{Float32,1})";
  Ptx.Target = "ptx";
  JobSpec Host = Ptx;
  Host.Target = "native";
  JobSpec Gcn = Ptx;
  Gcn.Target = "gcn";
  WS.addJob(Ptx);
  WS.addJob(Host);
  WS.addJob(Gcn);
  WS.waitIdle();
  auto Divergence = [](const JobState &J) {
    for (const OptRemark &R : J.Report->Remarks)
      if (R.Pass == "prism-divergence")
        return R.Message;
    return std::string();
  };
  auto S = WS.snapshot();
  ASSERT_EQ(S->Jobs.size(), 3u);
  ASSERT_TRUE(S->Jobs[0].Report && S->Jobs[1].Report && S->Jobs[2].Report);
  EXPECT_NE(Divergence(S->Jobs[0]).find("the first 8 warps"), std::string::npos)
      << Divergence(S->Jobs[0]);

  WS.setLaunchBlock({64, 1, 1});
  WS.waitIdle();
  S = WS.snapshot();
  EXPECT_EQ(S->Jobs[0].Compiles, 2u);
  EXPECT_EQ(S->Jobs[1].Compiles, 1u) << "the host has no warps";
  EXPECT_EQ(S->Jobs[0].Spec.Block, (std::array<unsigned, 3>{64, 1, 1}));
  EXPECT_NE(Divergence(S->Jobs[0]).find("of the block's 2 warps, warp 1"),
            std::string::npos)
      << Divergence(S->Jobs[0]);
  EXPECT_EQ(S->Jobs[2].Compiles, 2u);
  // The Invalidations panel says why they recompiled: the block, not an edit.
  ASSERT_FALSE(S->Log.empty());
  EXPECT_EQ(S->Log.back().Trigger, "launch block 64×1×1");
  EXPECT_TRUE(S->Log.back().Invalidated.empty());
  ASSERT_EQ(S->Log.back().Recompiled.size(), 2u);
  EXPECT_EQ(S->Log.back().Recompiled[0].Reason,
            "its warps are laid out in the new block");
  uint64_t Events = S->Log.back().Sequence;
  EXPECT_NE(Divergence(S->Jobs[2])
                .find("divergent branch: the block's one "
                      "wavefront takes both sides"),
            std::string::npos)
      << Divergence(S->Jobs[2]);
  // The same block again recompiles nothing; a job added later takes it.
  WS.setLaunchBlock({64, 1, 1});
  Ptx.OptLevel = 3;
  WS.addJob(Ptx);
  WS.waitIdle();
  S = WS.snapshot();
  ASSERT_EQ(S->Jobs.size(), 4u);
  EXPECT_EQ(S->Jobs[0].Compiles, 2u);
  EXPECT_EQ(S->Log.back().Sequence, Events) << "an unchanged block is no event";
  EXPECT_EQ(S->Jobs[3].Spec.Block, (std::array<unsigned, 3>{64, 1, 1}));
}

// The file is the truth, as Revise keeps it: a definition that a later one
// in the file overwrites stays overwritten when it is edited, and Julia's
// overwrite warning reaches the file's diagnostics.
TEST_F(WorkspaceTest, AnOverwrittenDefinitionStaysOverwrittenWhenEdited) {
  const char *Twice = "f(i::Int) = i + 100\n"
                      "f(i::Int) = i + 200\n"
                      "k(i::Int) = f(i) * 2\n";
  std::string Path = writeTemp(Twice);
  Workspace WS(makeDriverJobCompiler());
  WS.openFile(Path);
  WS.addJob(nativeJob("k(Int)"));
  WS.waitIdle();
  auto S = WS.snapshot();
  ASSERT_EQ(S->Diagnostics.size(), 1u);
  EXPECT_EQ(S->Diagnostics[0].Sev, Severity::Warning);
  EXPECT_NE(S->Diagnostics[0].Message.find("overwrites"), std::string::npos);
  const JobState *K = findJob(*S, "k(Int)");
  ASSERT_TRUE(K && K->Report);
  EXPECT_NE(K->Report->stage(Stage::LLVMOpt).Text.find("400"),
            std::string::npos);

  std::string Edited = Twice;
  Edited.replace(Edited.find("100"), 3, "300");
  WS.setSource(Edited);
  WS.waitIdle();
  S = WS.snapshot();
  K = findJob(*S, "k(Int)");
  ASSERT_TRUE(K && K->Report);
  const std::string &Opt = K->Report->stage(Stage::LLVMOpt).Text;
  EXPECT_NE(Opt.find("400"), std::string::npos) << Opt;
  EXPECT_EQ(Opt.find("600"), std::string::npos) << Opt;
  EXPECT_EQ(S->Diagnostics.size(), 1u) << "still warned after the edit";

  // Without the second definition the first is the one, warned no more.
  Edited.erase(Edited.find("f(i::Int) = i + 200\n"), 20);
  WS.setSource(Edited);
  WS.waitIdle();
  S = WS.snapshot();
  K = findJob(*S, "k(Int)");
  ASSERT_TRUE(K && K->Report);
  EXPECT_NE(K->Report->stage(Stage::LLVMOpt).Text.find("600"),
            std::string::npos);
  EXPECT_TRUE(S->Diagnostics.empty());
  llvm::sys::fs::remove(Path);
}

// Deleting a definition deletes its method (Revise's rule): its callers
// fail to compile, as in Julia after Revise (the function is left with no
// methods), rather than keep running the deleted code.
TEST_F(WorkspaceTest, DeletingADefinitionDeletesItsMethod) {
  const char *Two = "g(i::Int) = i + 5\n"
                    "k(i::Int) = g(i) * 2\n";
  std::string Path = writeTemp(Two);
  Workspace WS(makeDriverJobCompiler());
  WS.openFile(Path);
  WS.addJob(nativeJob("k(Int)"));
  WS.waitIdle();
  ASSERT_EQ(findJob(*WS.snapshot(), "k(Int)")->Status, JobStatus::Ok);

  WS.setSource("\nk(i::Int) = g(i) * 2\n");
  WS.waitIdle();
  auto S = WS.snapshot();
  const JobState *K = findJob(*S, "k(Int)");
  ASSERT_TRUE(K);
  EXPECT_EQ(K->Status, JobStatus::Error);
  ASSERT_TRUE(K->Report);
  bool NoMethod = false;
  for (const Diagnostic &D : K->Report->Diagnostics)
    NoMethod |=
        D.Message.find("no method matching g(::Int64)") != std::string::npos;
  EXPECT_TRUE(NoMethod);
  ASSERT_FALSE(S->Log.empty());
  EXPECT_EQ(S->Log.back().Redefined.size(), 1u) << "g(i::Int) deleted";
  llvm::sys::fs::remove(Path);
}
