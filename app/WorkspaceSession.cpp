#include "WorkspaceSession.h"

#include "cache/Remarks.h"

#include "devices/CallRunner.h"
#include "devices/DeviceRegistry.h"
#include "infer/CodeInstance.h"
#include "support/JsonOutput.h"
#include "targets/HostInfo.h"
#include "workspace/JobCompile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace prism::app {

namespace {
constexpr auto EditDebounce = std::chrono::milliseconds(250);

/// Out of date once an edit invalidated the code it ran (an edit of an
/// unrelated method leaves it current, as in Julia); a run that compiled
/// nothing (the interpreter) on any edit.
bool runIsStale(const DeviceRun &D, World Current) {
  if (const CodeInstance *Root = D.Outcome.Root)
    return Root->MaxWorld.load(std::memory_order_acquire) < Current;
  return D.InWorld < Current;
}

views::JobStatus viewStatus(JobStatus S) {
  switch (S) {
  case JobStatus::Queued:
    return views::JobStatus::Queued;
  case JobStatus::Compiling:
    return views::JobStatus::Compiling;
  case JobStatus::Ok:
    return views::JobStatus::Ok;
  case JobStatus::Error:
    return views::JobStatus::Failed;
  case JobStatus::Invalidated:
    return views::JobStatus::Stale;
  }
  return views::JobStatus::Queued;
}

std::vector<std::string> listExamples() {
  std::vector<std::string> Files;
  std::error_code EC;
  std::string Dir = std::string(PRISM_SOURCE_DIR) + "/assets/examples";
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".jl")
      Files.push_back(It->path());
  std::sort(Files.begin(), Files.end());
  return Files;
}

bool writeFile(const std::string &Path, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return false;
  OS << Text;
  OS.close();
  if (OS.has_error()) {
    OS.clear_error();
    return false;
  }
  return true;
}
} // namespace

WorkspaceSession::WorkspaceSession(const std::string &File, bool Autosave)
    : WS(std::make_unique<Workspace>(makeDriverJobCompiler())) {
  WS->setAutosave(Autosave);
  Examples = listExamples();
  const HostInfo &H = hostInfo();
  HostSummary = "host: " + H.Triple + " (" + H.CPU + ")";
  // Device probing (dlopen, a BPF load) is quick but not free: done once.
  for (Device *D : DeviceRegistry::get().devices()) {
    views::DeviceEntry E;
    E.Name = D->name().str();
    E.Description = D->description();
    E.State = D->available() ? views::DeviceState::Available
                             : views::DeviceState::Unavailable;
    E.Reason = D->unavailableReason();
    Devices.push_back(std::move(E));
  }
  // Not a Device (it runs typed IR), but run like one: the reference the
  // Run form compares a device's results with.
  views::DeviceEntry Interp;
  Interp.Name = InterpDeviceName;
  Interp.Description = InterpDeviceDescription;
  Interp.State = views::DeviceState::Available;
  Devices.push_back(std::move(Interp));
  WS->openFile(File);
}

WorkspaceSession::~WorkspaceSession() = default;

/// The invalidated instances depth-first from each root, each caller one
/// level below the callee it was invalidated through.
static std::vector<views::InvalidatedInstance>
invalidationTree(const std::vector<InvalidatedCode> &Codes) {
  std::vector<std::vector<size_t>> Callers(Codes.size());
  std::vector<size_t> Roots;
  for (size_t I = 0; I < Codes.size(); ++I)
    if (Codes[I].Parent >= 0 && size_t(Codes[I].Parent) < I)
      Callers[size_t(Codes[I].Parent)].push_back(I);
    else
      Roots.push_back(I);
  std::vector<views::InvalidatedInstance> Out;
  std::vector<std::pair<size_t, unsigned>> Todo;
  for (auto It = Roots.rbegin(); It != Roots.rend(); ++It)
    Todo.push_back({*It, 0});
  while (!Todo.empty()) {
    auto [I, Depth] = Todo.back();
    Todo.pop_back();
    Out.push_back({Codes[I].Instance, Codes[I].Cause, Depth});
    for (auto It = Callers[I].rbegin(); It != Callers[I].rend(); ++It)
      Todo.push_back({*It, Depth + 1});
  }
  return Out;
}

void WorkspaceSession::post(views::GuiCommand C) {
  std::visit([this](auto &X) { apply(X); }, C);
}

void WorkspaceSession::apply(views::cmd::SelectJob &C) {
  Selected = C.Id;
  UiChanged = true;
}

void WorkspaceSession::apply(views::cmd::AddJob &C) {
  JobSpec S;
  S.Signature = C.Spec.Signature;
  S.Target = C.Spec.Target;
  S.Arch = C.Spec.Arch;
  S.OptLevel = C.Spec.OptLevel;
  S.Kernel = C.Spec.Kernel;
  S.AlwaysInline = C.Spec.AlwaysInline;
  S.MaxThreads = C.Spec.Bounds.MaxThreads;
  S.MinThreads = C.Spec.Bounds.MinThreads;
  S.BlocksPerSM = C.Spec.Bounds.BlocksPerSM;
  S.MaxRegs = C.Spec.Bounds.MaxRegs;
  S.Bounds = C.Spec.Checks;
  WS->addJob(std::move(S));
}

void WorkspaceSession::apply(views::cmd::RemoveJob &C) { WS->removeJob(C.Id); }
void WorkspaceSession::apply(views::cmd::Recompile &) { WS->recompileAll(); }
void WorkspaceSession::apply(views::cmd::SetCheckBounds &C) {
  WS->setCheckBounds(C.Mode);
}
void WorkspaceSession::apply(views::cmd::SetLaunchBlock &C) {
  WS->setLaunchBlock(C.Threads);
}

void WorkspaceSession::apply(views::cmd::ShowJob &C) {
  showJob(Published.get(), C.Spec);
}

void WorkspaceSession::showJob(const views::GuiSnapshot *Jobs,
                               const views::JobSpec &Spec) {
  UiChanged = true;
  if (const views::JobEntry *J = Jobs ? Jobs->jobOf(Spec) : nullptr) {
    Selected = J->Id;
    PendingShow.reset();
    return;
  }
  views::cmd::AddJob Add{Spec};
  apply(Add);
  PendingShow = Spec;
}

void WorkspaceSession::apply(views::cmd::EditSource &C) {
  PendingEdit = std::move(C.Text);
  PendingSince = std::chrono::steady_clock::now();
  UiChanged = true;
}

void WorkspaceSession::apply(views::cmd::OpenFile &C) {
  PendingEdit.reset();
  WS->openFile(C.Path);
}

void WorkspaceSession::apply(views::cmd::Save &C) {
  flushEdit();
  // Saving under another name is opening that name with this text.
  if (!C.Path.empty()) {
    auto Snap = WS->snapshot();
    std::string Text = Snap->Source;
    if (!writeFile(C.Path, Text)) {
      setStatus("cannot save " + C.Path, /*Error=*/true);
      UiChanged = true;
      return;
    }
    WS->openFile(C.Path);
    return;
  }
  WS->save();
  setStatus("saved");
  UiChanged = true;
}

void WorkspaceSession::apply(views::cmd::RunOnDevice &C) {
  flushEdit(); // run what the editor shows
  RunRequest R;
  R.Device = C.Device;
  R.Call = C.Call;
  R.Grid = {C.Blocks[0], C.Blocks[1], C.Blocks[2]};
  R.Block = {C.Threads[0], C.Threads[1], C.Threads[2]};
  R.Seed = C.Seed;
  // The selected job's options (opt level, launch bounds) apply to the run;
  // target, arch and kernel-ness are the device's (runCall decides them).
  auto Snap = WS->snapshot();
  for (const JobState &J : Snap->Jobs)
    if (J.Id == C.Job) {
      R.Config = J.Spec.configOptions();
      R.Config.Arch.clear();
      R.Config.Kernel.reset();
    }
  WS->run(std::move(R));
  // A comparison posts the same call for a second device while the first
  // runs: the status names both.
  if (!RunningCall.empty() &&
      llvm::StringRef(RunningCall).startswith(C.Call + " on ")) {
    RunningCall += " and " + C.Device;
  } else {
    RunningCall = C.Call + " on " + C.Device;
    RunningDevices.clear();
  }
  RunningDevices.push_back(C.Device);
  if (C.ShowJob)
    ShowRunsOf.push_back(C.Device);
  setStatus("running " + RunningCall + "…");
  UiChanged = true;
}

/// Whether the call reached the device and ran: it returned, or an
/// exception or fault stopped it there (not refused before: no method, the
/// device missing).
static bool reachedDevice(const RunOutcome &O) {
  return O.ok() || llvm::any_of(O.Diagnostics, [](const Diagnostic &Dg) {
           return Dg.Kind == "launch"; // thrownDiagnostic's, and interp's
         });
}

/// The job whose code a run ran, as the Jobs panel lists it; none where
/// nothing was compiled or nothing ran. Bounds: the --check-bounds runs
/// compile in.
static std::optional<views::JobSpec> ranJob(const DeviceRun &D,
                                            CheckBounds Bounds) {
  const std::optional<CompilerConfigOptions> &C = D.Outcome.Compiled;
  if (!C || D.Outcome.Signature.empty() || !reachedDevice(D.Outcome))
    return std::nullopt;
  views::JobSpec J;
  J.Signature = D.Outcome.Signature;
  J.Target = C->Target;
  J.Arch = C->Arch;
  J.OptLevel = C->OptLevel;
  J.Kernel = D.Outcome.Kernel;
  J.AlwaysInline = C->AlwaysInline;
  J.Bounds = {C->MaxThreads, C->MinThreads, C->BlocksPerSM, C->MaxRegs};
  J.Checks = Bounds;
  return J;
}

/// A finished run as the Devices panel shows it.
static views::RunResult viewRun(const DeviceRun &D, CheckBounds Bounds) {
  views::RunResult V;
  const RunOutcome &O = D.Outcome;
  V.Ok = O.ok();
  V.Ran = reachedDevice(O);
  V.Call = D.Call;
  V.Job = ranJob(D, Bounds);
  V.Log = O.LoadLog;
  V.Loaded = propertiesLine(O.KernelFacts);
  if (O.ok()) {
    V.TimeMs = O.Launch.TimeMs;
    V.Summary =
        (O.Launch.Return.isNothing() ? std::string("returned nothing")
                                     : "returned " + O.Launch.Return.str()) +
        (!O.Compiled  ? " · interpreted"
         : O.CacheHit ? " · compile cache hit"
                      : " · compiled");
    if (std::string Setup = setupNote(O.Launch, /*Standalone=*/true); !Setup.empty())
      V.Summary += " · " + Setup;
    std::string Json;
    llvm::raw_string_ostream OS(Json);
    printJSON(OS,
              llvm::json::Value(runResultJSON(D.Device, O.Launch.Return,
                                              O.Launch.Args, O.Launch.TimeMs)));
    V.Output = std::move(OS.str());
    V.Values = "return " + O.Launch.Return.str() + "\n";
    for (size_t I = 0; I < O.Launch.Args.size(); ++I)
      V.Values += "arg " + std::to_string(I + 1) + " " + O.Launch.Args[I].str() + "\n";
  } else {
    V.Diagnostics = O.Diagnostics;
    for (const Diagnostic &Dg : O.Diagnostics)
      V.Summary += renderDiagnostic(Dg, {false, false});
  }
  return V;
}

void WorkspaceSession::apply(views::cmd::ExportJob &C) {
  const views::JobEntry *J = Published ? Published->job(C.Id) : nullptr;
  if (!J || !J->Report) {
    setStatus("export: the job has no report yet", /*Error=*/true);
    UiChanged = true;
    return;
  }
  const JobReport &R = *J->Report;
  if (llvm::sys::fs::create_directories(C.Dir)) {
    setStatus("export: cannot create " + C.Dir, /*Error=*/true);
    UiChanged = true;
    return;
  }
  std::string AsmExt = R.Target == "ptx" ? ".ptx" : ".s";
  std::string Base = C.Dir + "/";
  bool Ok = true;
  Ok &= writeFile(Base + "job.typed.jl", R.stage(Stage::Typed).Text);
  Ok &= writeFile(Base + "job.typed-opt.jl", R.stage(Stage::TypedOpt).Text);
  Ok &= writeFile(Base + "job.unopt.ll", R.stage(Stage::LLVMRaw).Text);
  Ok &= writeFile(Base + "job.opt.ll", R.stage(Stage::LLVMOpt).Text);
  Ok &= writeFile(Base + "job" + AsmExt, R.stage(Stage::Asm).Text);
  std::string Remarks;
  for (const RemarkGroup &G : groupRemarks(R.Remarks))
    Remarks += formatRemark(*G.First, G.Count) + "\n";
  Ok &= writeFile(Base + "job.remarks.txt", Remarks);
  llvm::json::Array Stages;
  for (unsigned I = 0; I < static_cast<unsigned>(Stage::NumStages); ++I) {
    const StageOutput &O = R.Stages[I];
    if (O.Present)
      Stages.push_back(llvm::json::Object{
          {"stage", stageName(static_cast<Stage>(I))},
          {"wall_ms", O.Measure.WallMs},
          {"allocs", static_cast<int64_t>(O.Measure.Allocs.Count)},
          {"bytes", static_cast<int64_t>(O.Text.size())}});
  }
  std::string Json;
  llvm::raw_string_ostream JS(Json);
  printJSON(JS, llvm::json::Value(llvm::json::Object{
                    {"signature", R.Signature},
                    {"target", R.Target},
                    {"arch", R.Arch},
                    {"opt_level", R.OptLevel},
                    {"check_bounds", checkBoundsName(R.Bounds)},
                    {"stages", std::move(Stages)}}));
  Ok &= writeFile(Base + "report.json", JS.str());
  if (Ok)
    setStatus("exported to " + C.Dir);
  else
    setStatus("export: cannot write into " + C.Dir, /*Error=*/true);
  UiChanged = true;
}

void WorkspaceSession::flushEdit() {
  if (!PendingEdit)
    return;
  WS->setSource(std::move(*PendingEdit));
  PendingEdit.reset();
}

void WorkspaceSession::waitIdle() {
  flushEdit();
  WS->waitIdle();
}

views::GuiSnapshotRef WorkspaceSession::update() {
  if (PendingEdit &&
      std::chrono::steady_clock::now() - PendingSince >= EditDebounce)
    flushEdit();
  WorkspaceSnapshotRef S = WS->snapshot();
  if (Published && S->Version == SeenVersion && !UiChanged)
    return Published;
  SeenVersion = S->Version;
  UiChanged = false;
  std::vector<views::JobSpec> RanJobs; // to show, once G lists the jobs
  if (!RunningCall.empty() && !S->Busy) {
    // A run that failed says so here too: the Devices panel that has the
    // error may be scrolled or closed.
    std::string Failed;
    uint64_t RunWorld = 0;
    for (const std::string &Device : RunningDevices)
      for (const DeviceRun &D : S->Runs)
        if (D.Device == Device) {
          RunWorld = std::max<uint64_t>(RunWorld, D.InWorld);
          if (!D.Outcome.ok())
            Failed += (Failed.empty() ? "" : " and ") + Device;
        }
    if (Failed.empty())
      setStatus("ran " + RunningCall);
    else
      setStatus("run failed on " + Failed + " (see Devices)", /*Error=*/true);
    StatusRunWorld = RunWorld;
    RunningCall.clear();
    RunningDevices.clear();
    for (const std::string &Device : ShowRunsOf)
      for (const DeviceRun &D : S->Runs)
        if (D.Device == Device)
          if (std::optional<views::JobSpec> Job = ranJob(D, S->Bounds))
            RanJobs.push_back(std::move(*Job));
    ShowRunsOf.clear();
  }
  if (StatusRunWorld && S->CurrentWorld > StatusRunWorld &&
      llvm::any_of(S->Runs, [&](const DeviceRun &D) {
        return runIsStale(D, S->CurrentWorld);
      })) {
    setStatus("the program changed since the last run: press Run to run "
              "the new code");
  }

  auto G = std::make_shared<views::GuiSnapshot>();
  G->Generation = Published ? Published->Generation + 1 : 1;
  G->FilePath = S->FilePath;
  // While an edit waits for its debounce, the editor keeps its own text.
  G->Source = PendingEdit ? *PendingEdit : S->Source;
  if (G->Source != LastSource) {
    LastSource = G->Source;
    ++SourceRevision;
  }
  G->SourceRevision = SourceRevision;
  G->SourceDirty = S->Dirty || PendingEdit.has_value();
  G->SourceDiagnostics = S->Diagnostics;
  // A source that does not parse or load keeps the last good program's
  // jobs: their results are of code the editor no longer shows.
  const bool SourceBroken =
      llvm::any_of(S->Diagnostics, [](const Diagnostic &D) {
        return D.Sev == Severity::Error;
      });
  for (const JobState &J : S->Jobs) {
    views::JobEntry E;
    E.Id = J.Id;
    E.Spec.Signature = J.Spec.Signature;
    E.Spec.Target = J.Spec.Target;
    E.Spec.Arch = J.Spec.Arch;
    E.Spec.OptLevel = J.Spec.OptLevel;
    E.Spec.Kernel = J.Spec.Kernel;
    E.Spec.AlwaysInline = J.Spec.AlwaysInline;
    E.Spec.Bounds = {J.Spec.MaxThreads, J.Spec.MinThreads, J.Spec.BlocksPerSM,
                     J.Spec.MaxRegs};
    E.Spec.Checks = J.Spec.Bounds;
    E.Status = viewStatus(J.Status);
    E.StatusDetail = std::to_string(J.Compiles) + " compiles, " +
                     std::to_string(J.Reuses) + " edits without recompiling";
    if (J.Report && !J.Report->ok())
      E.StatusDetail = std::to_string(J.Report->Diagnostics.size()) + " errors";
    if (SourceBroken && (E.Status == views::JobStatus::Ok ||
                         E.Status == views::JobStatus::Failed)) {
      E.Status = views::JobStatus::Stale;
      E.StatusDetail = "the source has errors (Source ▸ diagnostics): this "
                       "is the last program that loaded";
    }
    E.CacheHits = J.Reuses;
    E.Compiles = J.Compiles;
    E.Report = J.Report;
    E.Index = J.Index;
    G->Jobs.push_back(std::move(E));
  }
  for (const views::JobSpec &Job : RanJobs)
    showJob(G.get(), Job);
  if (PendingShow)
    if (const views::JobEntry *J = G->jobOf(*PendingShow)) {
      Selected = J->Id;
      PendingShow.reset();
    }
  if (!Selected && !G->Jobs.empty())
    Selected = G->Jobs.front().Id;
  G->SelectedJob = Selected;
  G->Devices = Devices;
  for (views::DeviceEntry &E : G->Devices)
    for (const DeviceRun &D : S->Runs)
      if (D.Device == E.Name) {
        E.LastRun = viewRun(D, S->Bounds);
        E.LastRun->Stale = runIsStale(D, S->CurrentWorld);
      }
  std::string FileName = llvm::sys::path::filename(S->FilePath).str();
  for (const InvalidationEvent &Ev : S->Log) {
    views::InvalidationEntry E;
    E.Sequence = Ev.Sequence;
    E.World = Ev.NewWorld;
    E.Trigger = Ev.Trigger == "open" || Ev.Trigger == "edit"
                    ? Ev.Trigger + " " + FileName
                    : Ev.Trigger;
    E.ChangedMethods = Ev.Redefined;
    E.Invalidated = invalidationTree(Ev.Invalidated);
    for (const RecompiledJob &R : Ev.Recompiled)
      E.Recompiled.push_back(
          {R.JobId, R.Label, R.Reason, R.CompileMs, R.Failed});
    E.TotalMs = Ev.TotalMs;
    G->Invalidations.push_back(std::move(E));
  }
  G->HostSummary = HostSummary;
  G->Examples = Examples;
  G->StatusMessage = !S->RecoverableAutosave.empty()
                         ? "unsaved edits from an earlier session were found "
                           "(autosave)"
                         : Status;
  G->StatusIsError = S->RecoverableAutosave.empty() && StatusError;
  G->Busy = S->Busy || PendingEdit.has_value();
  G->Bounds = S->Bounds;
  G->CompilerConnected = true;
  Published = std::move(G);
  return Published;
}

} // namespace prism::app
