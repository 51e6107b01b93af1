/// \file
/// The live session behind the GUI: one source file, the method table per
/// world, the jobs the user watches, and a worker thread that does every
/// compile. Views never wait for it: each change is posted as a command and
/// the worker publishes a new immutable `WorkspaceSnapshot` when done.
///
/// An edit re-parses the file, loads only the definitions whose text changed
/// (each in a new world), asks inference which CodeInstances that
/// invalidated, and recompiles exactly the jobs whose CodeInstance closure
/// contains one of them. A newer edit supersedes older work still queued.
///
/// Julia's --check-bounds is a mode of a whole inference engine (as it is
/// of a whole Julia process), so the Workspace keeps one engine per mode its
/// jobs use, all over the one method table; an edit invalidates in each.
#pragma once

#include "cache/CompilerConfig.h"
#include "cache/JobReport.h"
#include "devices/CallRunner.h"
#include "infer/CodeInstance.h"
#include "support/Diagnostic.h"
#include "workspace/ReportIndex.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <array>
#include <string>
#include <thread>
#include <vector>

namespace prism {

class GlobalEnv;
class InferenceEngine;

/// What the user asked to watch: a signature on a target with options.
struct JobSpec {
  std::string Signature; ///< `saxpy!(Float32, DeviceArray{Float32,1}, ...)`
  std::string Target = "native";
  std::string Arch;      ///< empty: the target's default
  unsigned OptLevel = 2;
  bool Kernel = true;      ///< kernel ABI (ignored where the target has none)
  bool AlwaysInline = false;
  unsigned MaxThreads = 0, MinThreads = 0, BlocksPerSM = 0, MaxRegs = 0;
  /// Julia's --check-bounds for this job: two jobs that differ only here
  /// show what the checks cost, side by side.
  CheckBounds Bounds = CheckBounds::Auto;
  /// The launch's block (threads in x, y, z) that a ptx job's warp
  /// analyses assume (CompileOptions::Block); all zero when not known. The
  /// GUI's Run form sets it for every ptx job (setLaunchBlock).
  std::array<unsigned, 3> Block = {0, 0, 0};
  bool operator==(const JobSpec &) const = default;
  /// `saxpy!(...) · ptx sm_80 · O2`, plus ` · check-bounds=no` when not auto.
  std::string label() const;
  /// The compiler options this job asks for.
  CompilerConfigOptions configOptions() const;
};

enum class JobStatus : uint8_t { Queued, Compiling, Ok, Error, Invalidated };
const char *jobStatusName(JobStatus S);

struct JobState {
  uint64_t Id = 0;
  JobSpec Spec;
  JobStatus Status = JobStatus::Queued;
  JobReportRef Report;     ///< latest finished report (may be from an older world)
  /// Report's texts indexed for the GUI against the open file (null with
  /// no report).
  ReportIndexRef Index;
  uint64_t Compiles = 0;   ///< how many times this job was compiled
  uint64_t Reuses = 0;     ///< edits after which it did not need recompiling
  std::string LastReason;  ///< why it was last recompiled
};

/// A CodeInstance an edit invalidated. The entries form trees: a root has
/// a cause of its own, the others were reached through a backedge of their
/// callee (Parent).
struct InvalidatedCode {
  std::string Instance; ///< `kernel(::Int64)`, plus ` (check-bounds=no)` by mode
  std::string Cause;    ///< a root's `its method was redefined`; else `calls ...`
  int Parent = -1;      ///< index of the callee in the same event; -1: a root
};

/// A job an edit (or an option change) recompiled.
struct RecompiledJob {
  uint64_t JobId = 0;
  std::string Label;  ///< JobSpec::label()
  std::string Reason; ///< `depends on a redefined method`, `--check-bounds=no`
  double CompileMs = 0;
  bool Failed = false; ///< the recompile ended in errors
};

/// One line of the world-age story shown in the Invalidations panel.
struct InvalidationEvent {
  uint64_t Sequence = 0;     ///< increasing, one per event
  uint64_t Edit = 0;         ///< the edit it followed (0: none yet)
  std::string Trigger;       ///< `open`, `edit`, `recompile all`, `--check-bounds=no`
  World NewWorld = 0;
  std::vector<std::string> Redefined;       ///< methods loaded by this edit
  std::vector<InvalidatedCode> Invalidated; ///< parents before children
  std::vector<RecompiledJob> Recompiled;
  std::vector<std::string> Kept; ///< jobs left alone
  double TotalMs = 0; ///< from the command to its last recompile
};

/// The last run of a call on one device (the GUI's Run form).
struct DeviceRun {
  std::string Device;
  std::string Call;
  World InWorld = 0;
  RunOutcome Outcome;
};

struct WorkspaceSnapshot {
  uint64_t Version = 0;
  /// Compiles cancelled by a newer edit (they stopped early, unreported).
  uint64_t CancelledCompiles = 0;
  std::string FilePath;
  std::string Source;        ///< the text the worker last processed
  bool Dirty = false;        ///< edited since the last save
  World CurrentWorld = 0;
  /// --check-bounds of runs (setCheckBounds); the GUI's Add job form starts
  /// from it. Each job has its own (JobSpec::Bounds).
  CheckBounds Bounds = CheckBounds::Auto;
  std::vector<Diagnostic> Diagnostics; ///< parse/load errors of the file
  std::vector<std::string> Functions;  ///< user functions, for the add-job dialog
  std::vector<JobState> Jobs;
  std::vector<InvalidationEvent> Log;
  bool Busy = false;         ///< the worker has work in flight
  std::vector<DeviceRun> Runs; ///< the latest run per device
  /// Unsaved edits found from an earlier session (crash or kill); the GUI
  /// offers to restore them.
  std::string RecoverableAutosave;
};
using WorkspaceSnapshotRef = std::shared_ptr<const WorkspaceSnapshot>;

/// Compiles one job (the driver, injected so the Workspace stays a thin
/// scheduler). Also returns the CodeInstances the job used, for invalidation.
struct CompiledJob {
  JobReportRef Report;
  std::vector<const CodeInstance *> Used;
  /// Work left for after the code is published, in steps run in order:
  /// resource figures that take a tool (ptxas), then the compile cache's
  /// figures (the cache compiles the job on its own, as a launch would).
  /// Each fills its figures into a copy of Report, which is published; a
  /// newer edit goes first between two steps. A step returns false when
  /// the compile's cancel flag stopped it (a newer edit arrived): its copy
  /// is dropped and the step runs again after the edit, unless the edit
  /// recompiles the job.
  using FinishStep = std::function<bool(JobReport &)>;
  std::vector<FinishStep> Finish;
};
/// The last argument is raised when a newer edit arrives: the compile
/// should stop early (CompileOptions::Cancel) and report "cancelled".
using JobCompiler = std::function<CompiledJob(const JobSpec &, GlobalEnv &,
                                              InferenceEngine &, World,
                                              const std::atomic<bool> &)>;

struct WorkspaceCommand {
  enum Kind : uint8_t { Open, SetSource, AddJob, RemoveJob, RecompileAll, Save,
                        RestoreAutosave, DiscardAutosave, Run,
                        SetCheckBounds, SetLaunchBlock } K;
  std::string Text;
  JobSpec Spec;
  uint64_t Id = 0;
  std::shared_ptr<const RunRequest> RunReq;
};

class Workspace {
public:
  explicit Workspace(JobCompiler Compile);
  ~Workspace();

  // Commands: all return immediately; the worker does the work.
  void openFile(const std::string &Path);
  void setSource(std::string Text);
  void addJob(JobSpec Spec);
  void removeJob(uint64_t Id);
  void recompileAll();
  /// Julia's --check-bounds for every job and for runs: the jobs in another
  /// mode switch to it and recompile. A job's own mode is JobSpec::Bounds.
  void setCheckBounds(CheckBounds Mode);
  /// The launch's block for the warp analyses of every ptx job (and of
  /// those added later): the jobs that assumed another recompile.
  void setLaunchBlock(std::array<unsigned, 3> Block);
  void save();
  /// Replace the buffer with the autosaved text found at open (or drop it).
  void restoreAutosave();
  void discardAutosave();
  /// Runs a call on a device against the current program, on the worker
  /// (after any queued edit); the outcome appears in the snapshot's Runs.
  void run(RunRequest R);
  /// Where unsaved edits of a file are autosaved (atomically, on every edit).
  static std::string autosavePathFor(const std::string &FilePath);
  /// Off: edits are not autosaved and an autosave found at open is not
  /// offered (headless runs must neither leave nor read recovery state).
  /// Takes effect for the commands posted after it.
  void setAutosave(bool On) { Autosave = On; }

  /// The latest published state (never blocks on a compile).
  WorkspaceSnapshotRef snapshot() const;
  /// Blocks until the queue is empty and nothing is in flight (tests, CLI).
  void waitIdle();
  /// Called on the worker thread after each publish (e.g. to wake the UI).
  void setOnPublish(std::function<void()> F);

private:
  struct State;
  void post(WorkspaceCommand C);
  void workerLoop();
  void process(WorkspaceCommand &C);
  void applySource(std::string Text, bool FromDisk);
  /// Compiles the jobs that need it; records each into Ev when given.
  void compilePending(const std::string &Reason,
                      InvalidationEvent *Ev = nullptr);
  /// Appends to the bounded log (the oldest events go).
  InvalidationEvent &logEvent(InvalidationEvent Ev);
  /// Runs each job's CompiledJob::Finish steps, publishing before each.
  void finishPending();
  bool newerEditQueued();
  void publish();

  JobCompiler Compile;
  std::unique_ptr<State> S; ///< owned by the worker thread
  mutable std::mutex QueueLock;
  std::condition_variable QueueCV, IdleCV;
  std::deque<WorkspaceCommand> Queue;
  bool Stop = false, InFlight = false;
  /// The last command is done but its snapshot not yet published: not idle
  /// (waitIdle's caller would read the snapshot before it).
  bool Publishing = false;
  /// Raised by an edit posted while a job compiles; lowered by the worker
  /// before each compile.
  std::atomic<bool> CancelCompile{false};
  std::atomic<bool> Autosave{true};
  std::shared_ptr<const WorkspaceSnapshot> Published;
  mutable std::mutex PublishLock;
  std::function<void()> OnPublish;
  std::thread Worker;
};

} // namespace prism
