/// \file
/// The GUI's view model: an immutable `GuiSnapshot` of the live session that
/// every panel renders, and the `GuiCommand`s panels post back through a
/// `CommandSink`. The Workspace (core/workspace) publishes snapshots and
/// executes commands on its worker thread; the views never call the
/// compiler. Nothing here depends on ImGui, GLFW or LLVM's IR classes, so
/// the Workspace side can build snapshots without linking the GUI.
#pragma once

#include "cache/JobReport.h"
#include "infer/CheckBounds.h"
#include "support/Diagnostic.h"
#include "workspace/ReportIndex.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace prism::views {

/// Names one watched job for the session's lifetime; never reused, 0 = none.
using JobId = uint64_t;

enum class JobStatus : uint8_t {
  Queued,    ///< waiting for the worker
  Compiling, ///< the worker is on it (Report may hold the previous result)
  Ok,        ///< Report is current
  Failed,    ///< Report holds the diagnostics of the failure
  Stale,     ///< the source changed and the job has not recompiled yet
};
const char *jobStatusName(JobStatus S);

/// Where a failed job stopped: the first stage it did not produce, and what
/// to say of it ("in llvm-raw", or "while parsing the file" when the file
/// did not parse, which happens before the first stage).
struct JobStop {
  size_t Stage = 0;
  std::string Where;
  std::string FirstError; ///< "11:19: expected a macro name after `@`"
};
/// FileDiagnostics: the file's own (a syntax error there leaves the job
/// with only "undefined function").
std::optional<JobStop>
jobStop(const JobReport &R,
        const std::vector<Diagnostic> &FileDiagnostics = {});

/// GPUCompiler-style launch bounds; 0 means "not set".
struct LaunchBounds {
  unsigned MaxThreads = 0, MinThreads = 0, BlocksPerSM = 0, MaxRegs = 0;
  bool any() const { return MaxThreads | MinThreads | BlocksPerSM | MaxRegs; }
};

/// What the user asked to compile, as `prism code_native` spells it.
struct JobSpec {
  std::string Signature; ///< `saxpy!(Float32, DeviceArray{Float32,1}, ...)`
  std::string Target = "ptx"; ///< "ptx", "gcn", "bpf", "native"
  std::string Arch;           ///< empty: the target's default
  unsigned OptLevel = 2;
  bool Kernel = true;
  bool AlwaysInline = false;
  LaunchBounds Bounds;
  CheckBounds Checks = CheckBounds::Auto; ///< Julia's --check-bounds
};

struct JobEntry {
  JobId Id = 0;
  JobSpec Spec;
  JobStatus Status = JobStatus::Queued;
  std::string StatusDetail; ///< "2 errors", "recompiling after edit", ...
  uint64_t CacheHits = 0;
  /// How many times the job compiled (0: not counted, as in snapshots made
  /// without a Workspace): a report published later for the same compile
  /// (its registers, its cache figures) keeps the count.
  uint64_t Compiles = 0;
  /// The latest finished report: null before the first compile finishes,
  /// kept (and shown as stale) while a recompile runs.
  JobReportRef Report;
  /// Report's texts indexed against the open file by the Workspace's worker
  /// (null when not published by one).
  ReportIndexRef Index;

  /// Report's texts indexed against File: Index when it describes them,
  /// else one built here, on the caller's thread (snapshots made without a
  /// Workspace: tests, the panel gallery). Null without a report.
  ReportIndexRef index(const std::string &File) const {
    return indexReport(Report, File, Index);
  }
};

enum class DeviceState : uint8_t { Available, Busy, Unavailable };
const char *deviceStateName(DeviceState S);

/// The outcome of one `RunOnDevice`, as `prism run` reports it.
struct RunResult {
  bool Ok = false;
  /// The call reached the device and ran: Ok, or stopped by an exception
  /// or fault there (not refused before: no method, the device missing).
  bool Ran = false;
  std::string Call;    ///< the call as the user wrote it
  std::string Summary; ///< "returned nothing in 0.21 ms", or the error
  std::string Output;  ///< the arguments read back (prism run's text/JSON)
  std::string Log;     ///< loader log: ptxas, BPF verifier, JIT messages
  std::string Loaded;  ///< what the device said of the loaded code (registers, ...)
  /// What a comparison between devices compares: the return value and each
  /// argument after the run, one per line (no times, no device name).
  std::string Values;
  double TimeMs = 0;
  /// An edit since this run invalidated the code it ran: its result is of
  /// code that no longer exists.
  bool Stale = false;
  /// A failed run's errors (a throw's kind and line): the Source panel
  /// lists them beside the compiler's and marks their lines.
  std::vector<Diagnostic> Diagnostics;
  /// The job whose code ran (ShowJob shows it); none when nothing was
  /// compiled (the interpreter, or a call that did not compile).
  std::optional<JobSpec> Job;
};

struct DeviceEntry {
  std::string Name;        ///< "host", "bpf", "cuda"
  std::string Description; ///< "x86_64 znver3, 16 threads", "NVIDIA H200 (sm_90)"
  DeviceState State = DeviceState::Unavailable;
  std::string Reason; ///< why it is unavailable ("libcuda.so.1 not found")
  std::optional<RunResult> LastRun;
};

/// One CodeInstance capped by an edit (its max_world ended). An entry's
/// callers, invalidated through their backedges, follow it one level deeper
/// (an invalidation tree, depth-first).
struct InvalidatedInstance {
  std::string Instance; ///< the MethodInstance, `f(Float32, Int64)`
  std::string Reason;   ///< "its method was redefined", "calls g(::Float32)"
  unsigned Depth = 0;   ///< 0: a root, with a cause of its own
};

struct RecompiledJob {
  JobId Id = 0;
  std::string Label; ///< the job: signature, target, options
  std::string Reason; ///< "depends on saxpy!(...)", "target options changed"
  double CompileMs = 0;
  bool Failed = false; ///< the recompile ended in errors
};

/// What one edit (or option change) invalidated and recompiled.
struct InvalidationEntry {
  uint64_t Sequence = 0; ///< increasing, one per entry
  uint64_t World = 0;    ///< the world age after the change
  std::string Trigger;   ///< "edit saxpy.jl", "AddJob", ...
  std::vector<std::string> ChangedMethods; ///< methods (re)defined or deleted
  std::vector<InvalidatedInstance> Invalidated;
  std::vector<RecompiledJob> Recompiled;
  double TotalMs = 0; ///< reparse + invalidation + recompiles
};

/// Everything the GUI shows, immutable once published. Cheap to copy: the
/// reports are shared.
struct GuiSnapshot {
  uint64_t Generation = 0; ///< bumps on every publish
  std::string FilePath;
  std::string Source;
  uint64_t SourceRevision = 0; ///< bumps whenever Source changes
  bool SourceDirty = false;    ///< edits not saved to FilePath
  /// Problems of the file itself (parse, lowering); job diagnostics live in
  /// each JobReport.
  std::vector<Diagnostic> SourceDiagnostics;
  std::vector<JobEntry> Jobs;
  JobId SelectedJob = 0;
  std::vector<DeviceEntry> Devices;
  std::vector<InvalidationEntry> Invalidations; ///< oldest first, bounded
  std::string HostSummary;           ///< "host: x86_64-pc-linux-gnu (znver3)"
  std::vector<std::string> Examples; ///< example files for File ▸ Examples
  std::string StatusMessage;         ///< the Workspace's last word ("saved")
  bool StatusIsError = false;        ///< StatusMessage reports a failure
  bool Busy = false;                 ///< a compile is in flight
  /// Julia's --check-bounds of runs, and the Add job form's first choice
  /// (each job has its own: JobSpec::Checks).
  CheckBounds Bounds = CheckBounds::Auto;
  /// False until the Workspace drives the GUI: panels then say that no job
  /// can run instead of pretending.
  bool CompilerConnected = false;

  const JobEntry *job(JobId Id) const;
  const JobEntry *selectedJob() const { return job(SelectedJob); }
  /// The job of Spec (a run's: its signature as Julia prints it, which is
  /// the job's report's), or null.
  const JobEntry *jobOf(const JobSpec &Spec) const;
};
using GuiSnapshotRef = std::shared_ptr<const GuiSnapshot>;

/// The commands a panel can post. Each names its intent, not how to do it.
namespace cmd {
struct SelectJob {
  JobId Id = 0;
};
struct AddJob {
  JobSpec Spec;
};
struct RemoveJob {
  JobId Id = 0;
};
/// Recompile one job (Id) or all of them (Id == 0), bypassing the cache.
struct Recompile {
  JobId Id = 0;
};
/// The editor's whole text after a change; debouncing is the Workspace's job.
struct EditSource {
  std::string Text;
};
struct OpenFile {
  std::string Path;
};
/// Save to Path, or to the snapshot's FilePath when Path is empty.
struct Save {
  std::string Path;
};
struct RunOnDevice {
  std::string Device; ///< "host", "bpf", "cuda"
  JobId Job = 0;      ///< the job whose options to use; 0: the device's default
  std::string Call;   ///< `saxpy!(2f0, rand(Float32, 1024), zeros(Float32, 1024))`
  std::array<unsigned, 3> Blocks{1, 1, 1}, Threads{1, 1, 1};
  uint64_t Seed = 0;
  /// Once the run is done, show the code that ran (ShowJob), as `gui
  /// --run` does.
  bool ShowJob = false;
};
/// Select the job of Spec (signature, target, arch, kernel-ness, options),
/// adding it first when there is none: the code a run ran.
struct ShowJob {
  JobSpec Spec;
};
/// Julia's --check-bounds for every job and for runs: the jobs in another
/// mode recompile.
struct SetCheckBounds {
  CheckBounds Mode = CheckBounds::Auto;
};
/// The Run form's block: the launch the warp analyses of ptx jobs assume
/// (the prism-access and prism-divergence remarks); they recompile.
struct SetLaunchBlock {
  std::array<unsigned, 3> Threads{0, 0, 0};
};
/// Write every stage, the pass diffs and report.json of a job into Dir.
struct ExportJob {
  JobId Id = 0;
  std::string Dir;
};
} // namespace cmd

using GuiCommand =
    std::variant<cmd::SelectJob, cmd::AddJob, cmd::RemoveJob, cmd::Recompile,
                 cmd::EditSource, cmd::OpenFile, cmd::Save, cmd::RunOnDevice,
                 cmd::ExportJob, cmd::SetCheckBounds, cmd::SetLaunchBlock,
                 cmd::ShowJob>;
const char *commandName(const GuiCommand &C); ///< "SelectJob", ...

/// Where panels post commands. The Workspace's implementation queues them
/// for its worker thread; `post` must not block the UI thread.
class CommandSink {
public:
  virtual ~CommandSink();
  virtual void post(GuiCommand C) = 0;
};

/// Keeps what was posted, in order (tests; the app drains it once a frame).
class CommandQueue final : public CommandSink {
public:
  void post(GuiCommand C) override { Posted.push_back(std::move(C)); }
  std::vector<GuiCommand> take() { return std::exchange(Posted, {}); }
  const std::vector<GuiCommand> &posted() const { return Posted; }

private:
  std::vector<GuiCommand> Posted;
};

/// Parses "X[,Y[,Z]]" (blocks/threads as `prism run` takes them); missing
/// dimensions are 1. Nullopt for anything else, including zeros.
std::optional<std::array<unsigned, 3>> parseDims(std::string_view Text);
/// The block a Run form's threads text gives the warp analyses
/// (cmd::SetLaunchBlock): zeros when malformed or a single thread (the
/// form's default, no launch to judge warps by).
std::array<unsigned, 3> launchBlockOf(std::string_view Threads);

} // namespace prism::views
