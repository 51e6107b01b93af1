#include "workspace/Workspace.h"
#include "workspace/DefinitionSync.h"

#include "infer/Inference.h"
#include "lang/Parser.h"
#include "support/SourceRead.h"
#include "targets/Target.h"
#include "types/Loader.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace prism {

std::string JobSpec::label() const {
  std::string L = Signature + " · " + Target;
  if (!Arch.empty())
    L += " " + Arch;
  L += " · O" + std::to_string(OptLevel);
  if (Bounds != CheckBounds::Auto)
    L += std::string(" · check-bounds=") + checkBoundsName(Bounds);
  return L;
}

CompilerConfigOptions JobSpec::configOptions() const {
  CompilerConfigOptions O;
  O.Target = Target;
  O.Arch = Arch;
  O.OptLevel = OptLevel;
  O.Kernel = Kernel;
  O.AlwaysInline = AlwaysInline;
  O.MaxThreads = MaxThreads;
  O.MinThreads = MinThreads;
  O.BlocksPerSM = BlocksPerSM;
  O.MaxRegs = MaxRegs;
  return O;
}

const char *jobStatusName(JobStatus S) {
  switch (S) {
  case JobStatus::Queued:
    return "queued";
  case JobStatus::Compiling:
    return "compiling";
  case JobStatus::Ok:
    return "ok";
  case JobStatus::Error:
    return "error";
  case JobStatus::Invalidated:
    return "invalidated";
  }
  return "?";
}

namespace {
struct WatchedJob {
  JobState State;
  std::vector<const CodeInstance *> Used;
  bool NeedsCompile = true;
  /// The report's figures still to measure (CompiledJob::Finish), in order.
  std::vector<CompiledJob::FinishStep> PendingFinish;
};
} // namespace

/// Everything the worker thread owns.
struct Workspace::State {
  std::unique_ptr<GlobalEnv> Env;
  /// One engine per --check-bounds mode, made when a job or run first
  /// needs it; every CodeInstance belongs to one of them.
  std::array<std::unique_ptr<InferenceEngine>, 3> Engines;
  CheckBounds DefaultBounds = CheckBounds::Auto; ///< of runs (setCheckBounds)
  std::array<unsigned, 3> LaunchBlock = {0, 0, 0}; ///< setLaunchBlock
  std::vector<Diagnostic> PreludeErrors;
  std::string Path, Source, Recoverable;
  bool Dirty = false;
  /// The definitions loaded so far: an edit loads only new texts.
  DefinitionSync Defs;
  std::vector<Diagnostic> Diags;
  std::vector<WatchedJob> Jobs;
  std::vector<InvalidationEvent> Log;
  std::vector<DeviceRun> Runs;
  /// Compiled runs, so that running a call again is a cache hit; one per
  /// engine.
  std::array<std::unique_ptr<CompileCache>, 3> RunCaches;
  uint64_t NextJobId = 1, Edits = 0, Version = 0, Cancelled = 0, Events = 0;
  /// Every report (and report index) published and perhaps still shown.
  /// The worker holds each until it is the only holder, and then frees it
  /// here: a large program's report (pass snapshots, line maps, typed code)
  /// took 50-80 ms to free, which the GUI thread paid in one frame when it
  /// dropped the last view of the report a recompile replaced.
  std::vector<std::shared_ptr<const void>> Published;

  void keepPublished(std::shared_ptr<const void> P) {
    if (P && llvm::find(Published, P) == Published.end())
      Published.push_back(std::move(P));
  }
  /// Frees what no one else holds any more.
  void releaseUnshown() {
    llvm::erase_if(Published, [](const std::shared_ptr<const void> &P) {
      return P.use_count() == 1;
    });
  }

  InferenceEngine &engine(CheckBounds Mode) {
    std::unique_ptr<InferenceEngine> &E = Engines[size_t(Mode)];
    if (!E)
      E = std::make_unique<InferenceEngine>(*Env, Mode);
    return *E;
  }
  CompileCache &runCache(CheckBounds Mode) {
    std::unique_ptr<CompileCache> &C = RunCaches[size_t(Mode)];
    if (!C)
      C = std::make_unique<CompileCache>(engine(Mode));
    return *C;
  }
};

/// Whether a job's target has warps for the launch block to lay out (its
/// Target::warpModel: ptx and gcn).
static bool hasWarps(const JobSpec &S) {
  llvm::Expected<const Target *> T = lookupTarget(S.Target);
  if (!T) {
    llvm::consumeError(T.takeError());
    return false;
  }
  return (*T)->warpModel().has_value();
}

/// Names the engine of an invalidated instance when it is not the usual one.
static std::string boundsSuffix(CheckBounds Mode) {
  return Mode == CheckBounds::Auto
             ? std::string()
             : std::string(" (check-bounds=") + checkBoundsName(Mode) + ")";
}

static double msSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - Start)
      .count();
}

std::string Workspace::autosavePathFor(const std::string &FilePath) {
  llvm::SmallString<256> Dir;
  if (const char *State = std::getenv("XDG_STATE_HOME"); State && *State)
    Dir = State;
  else if (const char *Home = std::getenv("HOME"); Home && *Home)
    llvm::sys::path::append(Dir, Home, ".local", "state");
  else
    Dir = "/tmp";
  llvm::sys::path::append(Dir, "prism", "autosave");
  llvm::SmallString<256> Abs(FilePath);
  llvm::sys::fs::make_absolute(Abs);
  uint64_t H = llvm::xxHash64(Abs.str());
  std::string Name = llvm::sys::path::filename(FilePath).str() + "." +
                     llvm::utohexstr(H) + ".autosave";
  llvm::sys::path::append(Dir, Name);
  return std::string(Dir);
}

/// Writes Text to Path atomically: a temporary file in the same directory,
/// then rename, so a crash leaves either the old or the new content.
static bool writeAtomically(const std::string &Path, const std::string &Text) {
  llvm::SmallString<256> Dir(Path);
  llvm::sys::path::remove_filename(Dir);
  if (!Dir.empty() && llvm::sys::fs::create_directories(Dir))
    return false;
  llvm::sys::fs::setPermissions(Dir, llvm::sys::fs::owner_all);
  std::string Tmp = Path + ".tmp";
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Tmp, EC);
    if (EC)
      return false;
    OS << Text;
    OS.flush();
    if (OS.has_error()) {
      OS.clear_error();
      return false;
    }
  }
  return !llvm::sys::fs::rename(Tmp, Path);
}

Workspace::Workspace(JobCompiler C) : Compile(std::move(C)), S(new State) {
  S->Env = std::make_unique<GlobalEnv>();
  if (llvm::Error E = loadPrelude(*S->Env))
    S->PreludeErrors = takeDiagnostics(std::move(E));
  Published = std::make_shared<WorkspaceSnapshot>();
  Worker = std::thread([this] { workerLoop(); });
}

Workspace::~Workspace() {
  {
    std::lock_guard<std::mutex> G(QueueLock);
    Stop = true;
  }
  QueueCV.notify_all();
  Worker.join();
}

void Workspace::post(WorkspaceCommand C) {
  // An edit makes the compile in flight pointless: cancel it.
  if (C.K == WorkspaceCommand::SetSource || C.K == WorkspaceCommand::Open)
    CancelCompile.store(true, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> G(QueueLock);
    Queue.push_back(std::move(C));
  }
  QueueCV.notify_one();
}

static WorkspaceCommand command(WorkspaceCommand::Kind K, std::string Text,
                                JobSpec Spec, uint64_t Id) {
  WorkspaceCommand C;
  C.K = K;
  C.Text = std::move(Text);
  C.Spec = std::move(Spec);
  C.Id = Id;
  return C;
}

void Workspace::openFile(const std::string &Path) {
  post(command(WorkspaceCommand::Open, Path, {}, 0));
}
void Workspace::setSource(std::string Text) {
  post(command(WorkspaceCommand::SetSource, std::move(Text), {}, 0));
}
void Workspace::addJob(JobSpec Spec) {
  post(command(WorkspaceCommand::AddJob, {}, std::move(Spec), 0));
}
void Workspace::removeJob(uint64_t Id) {
  post(command(WorkspaceCommand::RemoveJob, {}, {}, Id));
}
void Workspace::recompileAll() { post(command(WorkspaceCommand::RecompileAll, {}, {}, 0)); }
void Workspace::setCheckBounds(CheckBounds Mode) {
  post(command(WorkspaceCommand::SetCheckBounds, {}, {}, uint64_t(Mode)));
}
void Workspace::setLaunchBlock(std::array<unsigned, 3> Block) {
  WorkspaceCommand C = command(WorkspaceCommand::SetLaunchBlock, {}, {}, 0);
  C.Spec.Block = Block;
  post(std::move(C));
}
void Workspace::save() { post(command(WorkspaceCommand::Save, {}, {}, 0)); }
void Workspace::restoreAutosave() {
  post(command(WorkspaceCommand::RestoreAutosave, {}, {}, 0));
}
void Workspace::discardAutosave() {
  post(command(WorkspaceCommand::DiscardAutosave, {}, {}, 0));
}
void Workspace::run(RunRequest R) {
  WorkspaceCommand C = command(WorkspaceCommand::Run, {}, {}, 0);
  C.RunReq = std::make_shared<const RunRequest>(std::move(R));
  post(std::move(C));
}

WorkspaceSnapshotRef Workspace::snapshot() const {
  std::lock_guard<std::mutex> G(PublishLock);
  return Published;
}

void Workspace::setOnPublish(std::function<void()> F) {
  std::lock_guard<std::mutex> G(PublishLock);
  OnPublish = std::move(F);
}

void Workspace::waitIdle() {
  std::unique_lock<std::mutex> L(QueueLock);
  IdleCV.wait(L, [&] { return Queue.empty() && !InFlight && !Publishing; });
}

bool Workspace::newerEditQueued() {
  std::lock_guard<std::mutex> G(QueueLock);
  return std::any_of(Queue.begin(), Queue.end(), [](const WorkspaceCommand &C) {
    return C.K == WorkspaceCommand::SetSource || C.K == WorkspaceCommand::Open;
  });
}

void Workspace::workerLoop() {
  for (;;) {
    WorkspaceCommand C;
    {
      std::unique_lock<std::mutex> L(QueueLock);
      QueueCV.wait(L, [&] { return Stop || !Queue.empty(); });
      if (Stop)
        return;
      C = std::move(Queue.front());
      Queue.pop_front();
      // A newer edit supersedes an older one still queued.
      if (C.K == WorkspaceCommand::SetSource)
        while (!Queue.empty() && Queue.front().K == WorkspaceCommand::SetSource) {
          C = std::move(Queue.front());
          Queue.pop_front();
        }
      InFlight = true;
    }
    process(C);
    {
      std::lock_guard<std::mutex> G(QueueLock);
      InFlight = false; // the snapshot below says "not busy"
      Publishing = true;
    }
    publish();
    {
      std::lock_guard<std::mutex> G(QueueLock);
      Publishing = false;
    }
    IdleCV.notify_all();
  }
}

void Workspace::process(WorkspaceCommand &C) {
  switch (C.K) {
  case WorkspaceCommand::Open: {
    auto Buf = readSourceFile(C.Text);
    S->Path = C.Text;
    if (!Buf) {
      S->Diags = {Diagnostic::error("io", "cannot read " + C.Text + ": " +
                                              Buf.getError().message(),
                                    {})};
      return;
    }
    S->Recoverable.clear();
    if (Autosave)
      if (auto Auto = llvm::MemoryBuffer::getFile(autosavePathFor(C.Text)))
        if ((*Auto)->getBuffer() != (*Buf)->getBuffer())
          S->Recoverable = (*Auto)->getBuffer().str();
    applySource((*Buf)->getBuffer().str(), /*FromDisk=*/true);
    return;
  }
  case WorkspaceCommand::SetSource:
    applySource(std::move(C.Text), /*FromDisk=*/false);
    return;
  case WorkspaceCommand::AddJob: {
    WatchedJob J;
    J.State.Id = S->NextJobId++;
    J.State.Spec = std::move(C.Spec);
    if (hasWarps(J.State.Spec))
      J.State.Spec.Block = S->LaunchBlock;
    S->Jobs.push_back(std::move(J));
    // Jobs added right after a file opened (the example's own, the
    // command line's) belong to its story; later additions are no event.
    InvalidationEvent *Open = !S->Log.empty() && S->Log.back().Trigger == "open" &&
                                      S->Log.back().Edit == S->Edits
                                  ? &S->Log.back()
                                  : nullptr;
    size_t Before = Open ? Open->Recompiled.size() : 0;
    compilePending("added", Open);
    if (Open)
      for (size_t I = Before; I < Open->Recompiled.size(); ++I)
        Open->TotalMs += Open->Recompiled[I].CompileMs;
    return;
  }
  case WorkspaceCommand::RemoveJob:
    S->Jobs.erase(std::remove_if(S->Jobs.begin(), S->Jobs.end(),
                                 [&](const WatchedJob &J) {
                                   return J.State.Id == C.Id;
                                 }),
                  S->Jobs.end());
    return;
  case WorkspaceCommand::RecompileAll: {
    auto Start = std::chrono::steady_clock::now();
    for (WatchedJob &J : S->Jobs)
      J.NeedsCompile = true;
    InvalidationEvent Ev;
    Ev.Trigger = "recompile all";
    InvalidationEvent &Logged = logEvent(std::move(Ev));
    compilePending("recompile requested", &Logged);
    Logged.TotalMs = msSince(Start);
    return;
  }
  case WorkspaceCommand::SetCheckBounds: {
    auto Start = std::chrono::steady_clock::now();
    auto Mode = static_cast<CheckBounds>(C.Id);
    S->DefaultBounds = Mode;
    // Each job compiles with the engine of its own mode: a job that
    // switches moves to another engine, and its instances with it.
    bool Changed = false;
    for (WatchedJob &J : S->Jobs)
      if (J.State.Spec.Bounds != Mode) {
        J.State.Spec.Bounds = Mode;
        J.Used.clear();
        J.NeedsCompile = Changed = true;
      }
    // No job to move (the mode given at start, before any job): no event,
    // so the jobs added next count under the file's opening.
    if (!Changed)
      return;
    InvalidationEvent Ev;
    Ev.Trigger = std::string("--check-bounds=") + checkBoundsName(Mode);
    InvalidationEvent &Logged = logEvent(std::move(Ev));
    compilePending(Logged.Trigger, &Logged);
    Logged.TotalMs = msSince(Start);
    return;
  }
  case WorkspaceCommand::SetLaunchBlock: {
    // Only the warp analyses read it: nothing else recompiles. Nothing is
    // invalidated either, but the event says why the GPU jobs recompiled.
    auto Start = std::chrono::steady_clock::now();
    S->LaunchBlock = C.Spec.Block;
    bool Changed = false;
    for (WatchedJob &J : S->Jobs)
      if (hasWarps(J.State.Spec) && J.State.Spec.Block != S->LaunchBlock) {
        J.State.Spec.Block = S->LaunchBlock;
        J.NeedsCompile = Changed = true;
      }
    if (!Changed)
      return;
    const std::array<unsigned, 3> &B = S->LaunchBlock;
    InvalidationEvent Ev;
    Ev.Trigger =
        B[0] ? llvm::formatv("launch block {0}×{1}×{2}", B[0], B[1], B[2]).str()
             : "no launch block";
    InvalidationEvent &Logged = logEvent(std::move(Ev));
    compilePending("its warps are laid out in the new block", &Logged);
    Logged.TotalMs = msSince(Start);
    return;
  }
  case WorkspaceCommand::Save:
    if (!S->Path.empty() && writeAtomically(S->Path, S->Source)) {
      S->Dirty = false;
      llvm::sys::fs::remove(autosavePathFor(S->Path));
    } else {
      S->Diags.push_back(
          Diagnostic::error("io", "cannot save " + S->Path, {}));
    }
    return;
  case WorkspaceCommand::RestoreAutosave: {
    std::string Text = std::move(S->Recoverable);
    S->Recoverable.clear();
    if (!Text.empty())
      applySource(std::move(Text), /*FromDisk=*/false);
    return;
  }
  case WorkspaceCommand::Run: {
    const RunRequest &R = *C.RunReq;
    DeviceRun Rec;
    Rec.Device = R.Device;
    Rec.Call = R.Call;
    Rec.InWorld = S->Env->currentWorld();
    Rec.Outcome = runCall(*S->Env, S->engine(S->DefaultBounds), R,
                          &S->runCache(S->DefaultBounds));
    auto It = std::find_if(S->Runs.begin(), S->Runs.end(),
                           [&](const DeviceRun &D) { return D.Device == R.Device; });
    if (It != S->Runs.end())
      *It = std::move(Rec);
    else
      S->Runs.push_back(std::move(Rec));
    return;
  }
  case WorkspaceCommand::DiscardAutosave:
    S->Recoverable.clear();
    if (!S->Path.empty())
      llvm::sys::fs::remove(autosavePathFor(S->Path));
    return;
  }
}

void Workspace::applySource(std::string Text, bool FromDisk) {
  auto Start = std::chrono::steady_clock::now();
  S->Source = std::move(Text);
  S->Dirty = !FromDisk;
  if (S->Dirty && !S->Path.empty() && Autosave)
    writeAtomically(autosavePathFor(S->Path), S->Source);
  ++S->Edits;

  auto File = SourceFile::create(S->Path.empty() ? "untitled.jl" : S->Path,
                                 S->Source);
  std::shared_ptr<ast::ParsedFile> Parsed = parseFile(File);
  S->Diags = S->PreludeErrors;
  if (Parsed->hasErrors()) {
    // Keep the last good program and its jobs; show what is wrong now.
    for (const Diagnostic &D : Parsed->Diags)
      if (D.Sev != Severity::Error) // the warnings; the errors, in order:
        S->Diags.push_back(D);
    llvm::append_range(S->Diags, Parsed->errorsWithDeferred());
    return;
  }

  // Load only the definitions whose text is new, and delete the methods of
  // those that left the file (Revise-style): unchanged methods keep their
  // CodeInstances, so their jobs stay valid.
  InvalidationEvent Ev;
  Ev.Trigger = FromDisk ? "open" : "edit";
  auto Loaded = S->Defs.apply(*S->Env, Parsed);
  if (!Loaded) {
    std::vector<Diagnostic> Ds = takeDiagnostics(Loaded.takeError());
    S->Diags.insert(S->Diags.end(), Ds.begin(), Ds.end());
    return;
  }
  llvm::append_range(S->Diags, S->Defs.warnings());
  Ev.NewWorld = S->Env->currentWorld();
  // A definition that only moved (the same text on another line) is
  // reloaded so that line tables stay true: say so, not "redefined".
  std::unordered_map<const Method *, std::string> Moved; // old -> "moved ..."
  std::unordered_set<const Method *> MovedTo;
  std::vector<const Method *> Gone(Loaded->Replaced.begin(),
                                   Loaded->Replaced.end());
  Gone.insert(Gone.end(), S->Defs.deleted().begin(), S->Defs.deleted().end());
  for (const Method *Old : Gone)
    for (const Method *New : Loaded->Added)
      if (!MovedTo.count(New) && New->SourceText == Old->SourceText &&
          New->signatureString() == Old->signatureString()) {
        Moved[Old] = "moved from line " + std::to_string(Old->location().Line) +
                     " to " + std::to_string(New->location().Line);
        MovedTo.insert(New);
        break;
      }
  for (Method *M : Loaded->Added)
    if (!MovedTo.count(M))
      Ev.Redefined.push_back(M->signatureString());
  for (Method *M : Loaded->Replaced)
    if (auto It = Moved.find(M); It != Moved.end())
      Ev.Redefined.push_back(M->signatureString() + " (" + It->second + ")");
  for (Method *M : S->Defs.deleted())
    Ev.Redefined.push_back(M->signatureString() + " (" +
                           (Moved.count(M) ? Moved[M] : "deleted") + ")");
  if (!Ev.Redefined.empty()) {
    std::unordered_set<const CodeInstance *> DeadSet;
    for (std::unique_ptr<InferenceEngine> &E : S->Engines) {
      if (!E)
        continue;
      // Each callee comes before the callers reached through it.
      std::unordered_map<const CodeInstance *, int> Index;
      for (const Invalidation &I : E->invalidateExplained(*Loaded)) {
        DeadSet.insert(I.CI);
        InvalidatedCode Code;
        Code.Instance = I.CI->MI->str() + boundsSuffix(E->checkBounds());
        Code.Cause = I.Via ? "calls " + I.Via->MI->str() : I.Cause;
        if (auto It = Moved.find(I.CI->MI->Def); !I.Via && It != Moved.end())
          Code.Cause =
              "its method " + It->second + " (recompiled for its line numbers)";
        if (auto It = Index.find(I.Via); I.Via && It != Index.end())
          Code.Parent = It->second;
        Index[I.CI] = int(Ev.Invalidated.size());
        Ev.Invalidated.push_back(std::move(Code));
      }
    }
    for (WatchedJob &J : S->Jobs) {
      bool Hit = J.State.Status == JobStatus::Error || !J.State.Report;
      for (const CodeInstance *CI : J.Used)
        Hit |= DeadSet.count(CI) != 0;
      if (Hit) {
        J.NeedsCompile = true;
        J.State.Status = JobStatus::Invalidated;
      } else if (!J.NeedsCompile) {
        ++J.State.Reuses;
        Ev.Kept.push_back(J.State.Spec.label());
      }
    }
  }
  InvalidationEvent &Logged = logEvent(std::move(Ev));
  compilePending(Logged.Redefined.empty() ? "opened"
                                          : "depends on a redefined method",
                 &Logged);
  Logged.TotalMs = msSince(Start);
}

InvalidationEvent &Workspace::logEvent(InvalidationEvent Ev) {
  if (S->Log.size() >= 200)
    S->Log.erase(S->Log.begin());
  Ev.Sequence = ++S->Events;
  Ev.Edit = S->Edits;
  if (!Ev.NewWorld)
    Ev.NewWorld = S->Env->currentWorld();
  S->Log.push_back(std::move(Ev));
  return S->Log.back();
}

void Workspace::compilePending(const std::string &Reason,
                               InvalidationEvent *Ev) {
  World W = S->Env->currentWorld();
  for (WatchedJob &J : S->Jobs) {
    if (!J.NeedsCompile)
      continue;
    // Lowered before looking at the queue, so an edit posted from here on
    // either is seen below or cancels the compile.
    CancelCompile.store(false, std::memory_order_relaxed);
    if (newerEditQueued())
      return; // the next edit recompiles what is still pending
    J.State.Status = JobStatus::Compiling;
    publish();
    auto Start = std::chrono::steady_clock::now();
    CompiledJob R = Compile(J.State.Spec, *S->Env,
                            S->engine(J.State.Spec.Bounds), W, CancelCompile);
    if (R.Report && llvm::any_of(R.Report->Diagnostics, [](const Diagnostic &D) {
          return D.Kind == "cancelled";
        })) {
      ++S->Cancelled;
      J.State.Status = JobStatus::Queued; // the next edit recompiles it
      return;
    }
    J.State.Report = R.Report;
    J.Used = std::move(R.Used);
    J.PendingFinish = std::move(R.Finish);
    J.State.Status = (R.Report && R.Report->ok()) ? JobStatus::Ok
                                                  : JobStatus::Error;
    ++J.State.Compiles;
    J.State.LastReason = Reason;
    J.NeedsCompile = false;
    if (Ev)
      Ev->Recompiled.push_back({J.State.Id, J.State.Spec.label(), Reason,
                                msSince(Start),
                                J.State.Status == JobStatus::Error});
  }
  finishPending();
}

void Workspace::finishPending() {
  for (WatchedJob &J : S->Jobs) {
    while (!J.PendingFinish.empty() && J.State.Report) {
      // A newer edit comes first; what is left is measured after it (or
      // replaced by its recompile). Lowered first, as for a compile, so
      // that an edit posted from here on is seen or cancels the step.
      CancelCompile.store(false, std::memory_order_relaxed);
      if (newerEditQueued())
        return;
      // What is known so far before each step: the recompiled code before
      // ptxas runs, ptxas's figures before the cache compiles (the worker
      // publishes the last step's).
      publish();
      auto Measured = std::make_shared<JobReport>(*J.State.Report);
      if (!J.PendingFinish.front()(*Measured)) {
        ++S->Cancelled;
        return; // cancelled by an edit: run again after it
      }
      J.PendingFinish.erase(J.PendingFinish.begin()); // two steps at most
      J.State.Report = std::move(Measured);
    }
  }
}

void Workspace::publish() {
  auto Snap = std::make_shared<WorkspaceSnapshot>();
  Snap->Version = ++S->Version;
  Snap->CancelledCompiles = S->Cancelled;
  Snap->FilePath = S->Path;
  Snap->Source = S->Source;
  Snap->Dirty = S->Dirty;
  Snap->CurrentWorld = S->Env->currentWorld();
  Snap->Bounds = S->DefaultBounds;
  Snap->Diagnostics = S->Diags;
  Snap->RecoverableAutosave = S->Recoverable;
  for (GenericFunction *F : S->Env->functions())
    for (Method *M : F->methodsIn(Snap->CurrentWorld))
      if (!M->IsPrelude) {
        Snap->Functions.push_back(M->signatureString());
      }
  std::sort(Snap->Functions.begin(), Snap->Functions.end());
  S->releaseUnshown();
  for (WatchedJob &J : S->Jobs) {
    // Indexed here, off the GUI thread (a no-op while the report's stages
    // stay the same).
    J.State.Index = indexReport(J.State.Report, S->Path, J.State.Index);
    Snap->Jobs.push_back(J.State);
    S->keepPublished(J.State.Report);
    S->keepPublished(J.State.Index);
  }
  Snap->Log = S->Log;
  Snap->Runs = S->Runs;
  {
    std::lock_guard<std::mutex> G(QueueLock);
    Snap->Busy = InFlight || !Queue.empty();
  }
  std::function<void()> Notify;
  {
    std::lock_guard<std::mutex> G(PublishLock);
    Published = std::move(Snap);
    Notify = OnPublish;
  }
  if (Notify)
    Notify();
}

} // namespace prism
