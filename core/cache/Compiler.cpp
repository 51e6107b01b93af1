// The staged driver. Each stage: probe → produce → record text and line
// origins → fire the hook → stop if asked or if something failed.
#include "cache/Compiler.h"

#include "cache/Remarks.h"
#include "codegen/Emitter.h"
#include "codegen/LineMap.h"
#include "codegen/Runtime.h"
#include "optim/Pipeline.h"
#include "targets/NativeTarget.h"
#include "targets/Target.h"
#include "validate/Validator.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <chrono>
#include <set>
#include <span>
#include <tuple>

namespace {
/// Distinct source places among the throw-hook calls of M, as
/// retargetThrowLocations left them. An inlined copy of a check (a launch
/// wrapper's) is the same place.
int countThrowSites(const llvm::Module &M) {
  const llvm::Function *Hook = M.getFunction(prism::ThrowHookName);
  if (!Hook)
    return 0;
  std::set<std::tuple<int32_t, std::string, std::string, int32_t>> Sites;
  for (const llvm::User *U : Hook->users())
    if (const auto *CI = llvm::dyn_cast<llvm::CallBase>(U);
        CI && CI->getCalledFunction() == Hook)
      Sites.insert(prism::readThrowCall(*CI).key());
  return int(Sites.size());
}
} // namespace

namespace prism {

CompileResult::CompileResult() = default;
CompileResult::CompileResult(CompileResult &&) = default;
// Not defaulted: member-wise assignment would replace Context first,
// destroying the old context while the old module still lives in it.
CompileResult &CompileResult::operator=(CompileResult &&O) {
  if (this == &O)
    return *this;
  Module.reset();
  Context = std::move(O.Context);
  Module = std::move(O.Module);
  Report = std::move(O.Report);
  Object = std::move(O.Object);
  EntrySymbol = std::move(O.EntrySymbol);
  LaunchSymbol = std::move(O.LaunchSymbol);
  SharedBytes = O.SharedBytes;
  DeferredAsm = std::move(O.DeferredAsm);
  return *this;
}
CompileResult::~CompileResult() = default;

namespace {

/// Turns LLVM's diagnostics (backend errors, e.g. an unsupported
/// instruction) into Prism diagnostics instead of printing and exiting, and
/// collects optimisation remarks while a stage asks for them.
class CollectingDiagnosticHandler : public llvm::DiagnosticHandler {
public:
  explicit CollectingDiagnosticHandler(std::vector<Diagnostic> &Out)
      : Out(Out) {}

  /// The job's own function: remarks' frames end there (trimToJob).
  void setJobFunction(std::string Name) { JobFunction = std::move(Name); }
  /// Collect remarks into \p Into (null: none are made) as stage \p At;
  /// \p Tags when the module is tagged by tagLocations (backend errors'
  /// lines are tags then too).
  void collectRemarks(std::vector<OptRemark> *Into, Stage At,
                      std::span<const llvm::DILocation *const> Tags = {}) {
    Remarks = Into;
    RemarkStage = At;
    LineTags = Tags;
  }

  bool handleDiagnostics(const llvm::DiagnosticInfo &DI) override {
    if (DI.getSeverity() == llvm::DS_Remark) {
      OptRemark R;
      if (Remarks && remarkFrom(DI, RemarkStage, LineTags, R)) {
        trimToJob(R, JobFunction);
        Remarks->push_back(std::move(R));
      }
      return true;
    }
    if (DI.getSeverity() != llvm::DS_Error &&
        DI.getSeverity() != llvm::DS_Warning)
      return true; // notes: not for users here
    std::string Msg;
    llvm::raw_string_ostream OS(Msg);
    llvm::DiagnosticPrinterRawOStream DP(OS);
    DI.print(DP);
    OS.flush();
    Diagnostic D = Diagnostic::error("backend", Msg, {});
    // "unsupported" errors (what BPF, NVPTX and AMDGPU report) carry a
    // place: the message without it, at the source line.
    if (const auto *U = llvm::dyn_cast<llvm::DiagnosticInfoUnsupported>(&DI)) {
      D.Message = llvm::StringRef(U->getMessage().str()).trim().str();
      locate(*U, D);
    }
    if (DI.getSeverity() == llvm::DS_Warning)
      D.Sev = Severity::Warning;
    // The BPF backend says this once per frame object past the limit and
    // advises maps, which kernels do not have: once, in the language's
    // terms, at the first place.
    if (llvm::StringRef(D.Message).startswith(
            "Looks like the BPF stack limit")) {
      D.Message = "the BPF stack is limited to 512 bytes, and this "
                  "program's locals with the values the backend keeps on "
                  "the stack exceed it: use smaller tuples, or fewer values "
                  "live at once";
      for (const Diagnostic &Seen : Out)
        if (Seen.Message == D.Message)
          return true;
    }
    // A backend repeats one error per argument or value (BPF's "too many
    // args" for each past the fifth): once per place.
    for (const Diagnostic &Seen : Out)
      if (Seen.Message == D.Message && Seen.Loc.FileName == D.Loc.FileName &&
          Seen.Loc.Line == D.Loc.Line && Seen.Loc.Col == D.Loc.Col)
        return true;
    Out.push_back(std::move(D));
    return true;
  }

  bool isAnyRemarkEnabled() const override { return Remarks; }
  bool isPassedOptRemarkEnabled(llvm::StringRef Pass) const override {
    return Remarks && remarkPassWanted(Pass);
  }
  bool isMissedOptRemarkEnabled(llvm::StringRef Pass) const override {
    return Remarks && remarkPassWanted(Pass);
  }
  bool isAnalysisRemarkEnabled(llvm::StringRef Pass) const override {
    return Remarks && remarkPassWanted(Pass);
  }

private:
  /// A backend error's place with its inlining chain, placed in the user's
  /// code as validation errors are: its line is a tag in a tagged module,
  /// else the function's instruction at that file, line and column gives
  /// the chain. Without a location, the function's definition.
  void locate(const llvm::DiagnosticInfoWithLocationBase &DI,
              Diagnostic &D) const {
    const llvm::Function &F = DI.getFunction();
    llvm::DiagnosticLocation L = DI.getLocation();
    const llvm::DILocation *Full = nullptr;
    if (DI.isLocationAvailable()) {
      Full = untagLine(L.getLine(), LineTags);
      if (!Full && L.getLine() < LocationTagBase) {
        auto At =
            instructionsAt(F, L.getRelativePath(), L.getLine(), L.getColumn());
        if (!At.empty())
          Full = At.front()->getDebugLoc().get();
      }
    }
    if (Full) {
      locateDebugLoc(Full, D);
    } else if (DI.isLocationAvailable() && L.getLine() < LocationTagBase) {
      D.Loc.FileName = L.getRelativePath().str();
      D.Loc.Line = L.getLine();
      D.Loc.Col = L.getColumn();
    } else if (const llvm::DISubprogram *SP = F.getSubprogram()) {
      D.Loc.FileName = SP->getFilename().str();
      D.Loc.Line = SP->getLine();
      D.Loc.Col = 1;
    }
  }

  std::vector<Diagnostic> &Out;
  std::vector<OptRemark> *Remarks = nullptr;
  Stage RemarkStage = Stage::LLVMOpt;
  std::span<const llvm::DILocation *const> LineTags;
  std::string JobFunction;
};

/// Statement lines of printTyped output, in order: the lines drawn with a
/// block gutter (`1 ─ `, `│`, `└`).
std::vector<LineOrigin> typedLineOrigins(const std::string &Text,
                                         const CodeInstance &CI) {
  const TypedCode &C = *CI.Code;
  std::vector<unsigned> Shown;
  for (unsigned I = 0; I < C.Code.size(); ++I)
    if (C.Code[I].K != StmtKind::Nop)
      Shown.push_back(I);
  std::vector<LineOrigin> Lines;
  size_t K = 0;
  std::string Fn = CI.MI->Def ? CI.MI->Def->Name.string() : "";
  llvm::StringRef Rest(Text);
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    LineOrigin O;
    llvm::StringRef L = Line.ltrim(' ');
    // A throw's `└── unreachable` line stands for no statement of its own.
    bool IsStmt = (L.startswith("│") || L.startswith("└") ||
                   (!L.empty() && isdigit(static_cast<unsigned char>(L[0])) &&
                    L.contains(" ─ "))) &&
                  !L.rtrim().endswith(" unreachable");
    if (IsStmt && K < Shown.size()) {
      unsigned I = Shown[K++];
      SourceFileRef F =
          I < C.StmtFiles.size() && C.StmtFiles[I] ? C.StmtFiles[I] : C.File;
      if (F && C.Code[I].Range.valid()) {
        LineCol LC = F->lineCol(C.Code[I].Range.Begin);
        O.Frames.push_back({Fn, F->name(), LC.Line, LC.Col});
        if (I < C.InlineStacks.size())
          for (auto It = C.InlineStacks[I].rbegin();
               It != C.InlineStacks[I].rend(); ++It)
            if (It->File && It->CallSite.valid()) {
              LineCol CL = It->File->lineCol(It->CallSite.Begin);
              O.Frames.push_back({"", It->File->name(), CL.Line, CL.Col});
            }
      }
    }
    Lines.push_back(std::move(O));
  }
  return Lines;
}

class Driver {
public:
  Driver(const CompilerJob &Job, Stage UpTo, const CompileHooks &Hooks,
         const CompileOptions &Opts)
      : Job(Job), Config(*Job.Config), UpTo(UpTo), Hooks(Hooks), Opts(Opts) {
    Result.Report = std::make_shared<JobReport>();
    JobReport &R = *Result.Report;
    R.Signature = Job.Spec.Func ? Job.Spec.str() : "";
    R.Target = Config.targetName();
    R.Arch = Config.arch();
    R.OptLevel = Config.optLevel();
    R.Kernel = Config.kernel();
    R.MaxThreads = Config.maxThreads();
    R.MinThreads = Config.minThreads();
    R.World = Job.W;
  }

  CompileResult run(InferenceEngine *Engine, const InferResult *Given,
                    const GlobalEnv *Env);

private:
  JobReport &report() { return *Result.Report; }
  bool wants(Stage S) const {
    return static_cast<unsigned>(S) <= static_cast<unsigned>(UpTo);
  }
  /// Whether to go on to stage S: wanted, and not cancelled meanwhile.
  bool proceed(Stage S) {
    if (!wants(S))
      return false;
    if (Opts.Cancel && Opts.Cancel->load(std::memory_order_relaxed)) {
      fail({Diagnostic::error(
          "cancelled", "the compile was cancelled (a newer edit replaced it)", {})});
      return false;
    }
    return true;
  }
  void fail(std::vector<Diagnostic> Ds) {
    for (Diagnostic &D : Ds)
      report().Diagnostics.push_back(std::move(D));
  }
  void fail(llvm::Error E) { fail(takeDiagnostics(std::move(E))); }
  /// Keeps a check's diagnostics with the result; true when one is an
  /// error (warnings let the compile go on).
  bool keepFailing(std::vector<Diagnostic> Ds) {
    bool Failed = llvm::any_of(
        Ds, [](const Diagnostic &D) { return D.Sev == Severity::Error; });
    fail(std::move(Ds));
    return Failed;
  }
  bool backendFailed() {
    bool Failed = false;
    for (Diagnostic &D : BackendDiags) {
      Failed |= D.Sev == Severity::Error;
      report().Diagnostics.push_back(std::move(D));
    }
    BackendDiags.clear();
    return Failed;
  }
  void finishStage(Stage S, StageOutput Out, const llvm::Module *M) {
    StageOutput &Slot = report().stage(S);
    Slot = std::move(Out);
    Slot.Present = true;
    if (Hooks.OnStage) {
      StageEvent E{S, Job, Slot, report(), Inferred, M};
      Hooks.OnStage(E);
    }
  }
  void collectSources();

  const CompilerJob &Job;
  const CompilerConfig &Config;
  Stage UpTo;
  const CompileHooks &Hooks;
  const CompileOptions &Opts;
  CompileResult Result;
  const InferResult *Inferred = nullptr;
  std::vector<Diagnostic> BackendDiags;
  /// The LLVM context's handler (owned by the context), for remarks.
  CollectingDiagnosticHandler *Diagnostics = nullptr;
};

void Driver::collectSources() {
  std::set<const SourceFile *> Seen;
  for (CodeInstance *CI : Inferred->All) {
    if (!CI->Code)
      continue;
    auto Add = [&](const SourceFileRef &F) {
      if (F && Seen.insert(F.get()).second)
        report().Sources.push_back(F);
    };
    Add(CI->Code->File);
    for (const SourceFileRef &F : CI->Code->StmtFiles)
      Add(F);
  }
}

CompileResult Driver::run(InferenceEngine *Engine, const InferResult *Given,
                          const GlobalEnv *Env) {
  //===--- Typed IR ---===//
  InferResult Owned;
  {
    StageProbe Probe;
    if (Given) {
      Inferred = Given;
    } else {
      FunctionSpec Specs[] = {Job.Spec};
      auto R = Engine->inferToplevel(Specs, Job.W);
      if (!R) {
        fail(R.takeError());
        return std::move(Result);
      }
      Owned = std::move(*R);
      Inferred = &Owned;
      Env = &Engine->env();
    }
    if (Inferred->Roots.empty() || !Inferred->Roots[0]->Code) {
      fail({Diagnostic::error("internal", "inference returned no code", {})});
      return std::move(Result);
    }
    const CodeInstance &Root = *Inferred->Roots[0];
    report().Bounds = Inferred->Bounds;
    StageOutput Out;
    if (Opts.wantsText(Stage::Typed)) {
      Out.Text = printTyped(Root, *Root.Code);
      Out.Lines = typedLineOrigins(Out.Text, Root);
    }
    Out.Measure = Probe.finish();
    collectSources();
    finishStage(Stage::Typed, std::move(Out), nullptr);
  }
  if (!proceed(Stage::TypedOpt))
    return std::move(Result);

  if (Opts.TypedOptimized && Engine) {
    StageProbe Probe;
    CodeInstance *Root = Inferred->Roots[0];
    std::shared_ptr<const TypedCode> Opt = Engine->optimizedCode(Root);
    StageOutput Out;
    if (Opt && Opts.wantsText(Stage::TypedOpt)) {
      Out.Text = printTyped(*Root, *Opt);
      // Line origins need the optimised code's own statements.
      CodeInstance Shadow;
      Shadow.MI = Root->MI;
      Shadow.Code = Opt;
      Out.Lines = typedLineOrigins(Out.Text, Shadow);
    }
    Out.Measure = Probe.finish();
    finishStage(Stage::TypedOpt, std::move(Out), nullptr);
  }
  if (!proceed(Stage::LLVMRaw))
    return std::move(Result);

  //===--- Raw LLVM IR: validate, emit, verify ---===//
  llvm::TargetMachine *TM = nullptr;
  {
    StageProbe Probe;
    std::vector<Diagnostic> Invalid = validateTyped(*Inferred, Config, Env);
    if (keepFailing(std::move(Invalid)))
      return std::move(Result);
    auto TMOr = Config.targetMachine();
    if (!TMOr) {
      fail(TMOr.takeError());
      return std::move(Result);
    }
    TM = *TMOr;
    // Julia's split: inference and its optimiser decide what code exists
    // (callees inlined, constants folded), codegen emits that. LLVM's
    // pipeline then starts from one function per kernel instead of dozens
    // of tiny prelude ones. -O0 emits every instance as inferred.
    InferResult Optimized;
    const InferResult *ForCodegen = Inferred;
    if (Engine && Config.optLevel() > 0) {
      Optimized = Engine->optimizeForCodegen(*Inferred);
      ForCodegen = &Optimized;
      if (Opts.Remarks)
        addInliningRemarks(Optimized, report().Remarks.mut());
    }
    Result.Context = std::make_unique<llvm::LLVMContext>();
    auto Handler = std::make_unique<CollectingDiagnosticHandler>(BackendDiags);
    Diagnostics = Handler.get();
    if (Job.Spec.Func)
      Diagnostics->setJobFunction(Job.Spec.Func->Name.string());
    Result.Context->setDiagnosticHandler(std::move(Handler));
    auto Emitted = emitModule(*Result.Context, *ForCodegen, Config,
                              TM->createDataLayout(),
                              TM->getTargetTriple().str());
    if (!Emitted) {
      fail(Emitted.takeError());
      return std::move(Result);
    }
    Result.Module = std::move(Emitted->M);
    Result.EntrySymbol = Emitted->EntrySymbol;
    if (Emitted->LaunchWrapper)
      Result.LaunchSymbol = Emitted->LaunchWrapper->getName().str();
    Result.SharedBytes = Emitted->SharedBytes;
    report().EntryName = Result.EntrySymbol;
    if (Emitted->SharedBytes)
      report().Resources.SharedBytes = static_cast<int>(Emitted->SharedBytes);

    StageOutput Out;
    if (Opts.wantsText(Stage::LLVMRaw))
      Out.Text = printModuleWithLines(*Result.Module, Out.Lines);
    llvm::Error VerifyErr = verifyModuleOrError(*Result.Module);
    Out.Measure = Probe.finish();
    if (VerifyErr) {
      // A compiler bug: keep the text for debugging, stop before LLVM.
      for (Diagnostic &D : takeDiagnostics(std::move(VerifyErr))) {
        D.Kind = "invalid-ir";
        D.Message = "emitted LLVM IR does not verify: " + D.Message;
        report().Diagnostics.push_back(std::move(D));
      }
      finishStage(Stage::LLVMRaw, std::move(Out), Result.Module.get());
      return std::move(Result);
    }
    finishStage(Stage::LLVMRaw, std::move(Out), Result.Module.get());
  }
  if (!proceed(Stage::LLVMOpt))
    return std::move(Result);

  //===--- Optimised LLVM IR ---===//
  {
    StageProbe Probe;
    OptimizeOptions OO;
    OO.OptLevel = Config.optLevel();
    OO.CollectSnapshots = Opts.Snapshots;
    OO.KeepUnchanged = Opts.KeepUnchangedPasses;
    OO.Cancel = Opts.Cancel;
    OO.InputVerified = true; // the raw stage just did
    const Target &Tgt = Config.target();
    OO.TuneHook = [&Tgt, this](llvm::PassBuilder &PB) {
      Tgt.tunePipeline(PB, Config);
    };
    if (Opts.Remarks)
      Diagnostics->collectRemarks(&report().Remarks.mut(), Stage::LLVMOpt);
    // Where library code without debug info is called, before the inliner
    // gives it the calls' locations.
    std::optional<LibraryCallSites> Library;
    if (Opts.Remarks && Config.kernel())
      Library.emplace(*Result.Module);
    llvm::Expected<OptimizeResult> Opt = [&] {
      std::lock_guard<std::mutex> Lock(Config.targetMachineLock());
      return optimizeModule(*Result.Module, TM, OO);
    }();
    Diagnostics->collectRemarks(nullptr, Stage::LLVMOpt);
    std::optional<WarpModel> W =
        Opts.Remarks ? Tgt.warpModel(Config.arch()) : std::nullopt;
    // A GPU thread runs scalar code (the warp is the vector): what the loop
    // vectoriser did not do and why ("loop not vectorized: could not
    // determine number of loop iterations", "vectorization is not
    // beneficial") is noise there, not a reason.
    if (W)
      llvm::erase_if(report().Remarks.mut(), [](const OptRemark &R) {
        return R.Pass == "loop-vectorize" && R.Kind != RemarkKind::Passed;
      });
    // How each warp touches memory and which branches split it, as
    // remarks on the optimised code.
    if (Opt && W && Config.kernel()) {
      W->Block = Opts.Block;
      std::string Fn = Job.Spec.Func ? Job.Spec.Func->Name.string() : "";
      if (W->ModelsMemory)
        addAccessRemarks(*Result.Module, *W, Fn, report().Remarks.mut());
      addDivergenceRemarks(*Result.Module, *W, Fn, report().Remarks.mut());
      addArithmeticRemarks(*Result.Module, Tgt.name(), Config.arch(),
                           Library ? &*Library : nullptr, Fn,
                           report().Remarks.mut());
    }
    if (!Opt) {
      fail(Opt.takeError());
      return std::move(Result);
    }
    report().Passes = std::move(Opt->Snapshots);
    retargetThrowLocations(*Result.Module);
    report().Resources.ThrowSites = countThrowSites(*Result.Module);
    // Where those throw sites are: what a GPU kernel pays for its checks.
    if (W && Config.kernel())
      addThrowSiteRemarks(*Result.Module,
                          Job.Spec.Func ? Job.Spec.Func->Name.string() : "",
                          report().Remarks.mut());
    StageOutput Out;
    if (Opts.wantsText(Stage::LLVMOpt))
      Out.Text = printModuleWithLines(*Result.Module, Out.Lines);
    Out.Measure = Probe.finish();
    bool BackendError = backendFailed();
    finishStage(Stage::LLVMOpt, std::move(Out), Result.Module.get());
    if (BackendError)
      return std::move(Result);
  }
  if (!proceed(Stage::Asm))
    return std::move(Result);

  //===--- Assembly (and object) ---===//
  {
    StageProbe Probe;
    std::vector<Diagnostic> Invalid = validateLLVM(*Result.Module, Config);
    if (llvm::Error E = verifyModuleOrError(*Result.Module)) {
      fail(std::move(E));
      return std::move(Result);
    }
    if (keepFailing(std::move(Invalid)))
      return std::move(Result);
    const Target &Tgt = Config.target();
    // Asm shown annotated is generated from a copy whose locations are
    // tagged, so each `.loc` names one full inlining chain.
    bool Annotate = !Opts.RawAsm && Opts.wantsText(Stage::Asm);
    // Code generation rewrites the IR it runs on; the report's optimised
    // module must stay as the optimiser left it, unless nobody keeps it.
    auto TakeOrClone = [&](bool Last) {
      if (Last && !Opts.KeepModule)
        return std::move(Result.Module);
      return llvm::CloneModule(*Result.Module);
    };
    std::unique_ptr<llvm::Module> ForAsm =
        TakeOrClone(!Opts.EmitObject && !Annotate);
    std::vector<const llvm::DILocation *> Tags;
    if (Annotate)
      Tags = tagLocations(*ForAsm);
    // The tags also place backend errors, with or without remarks.
    Diagnostics->collectRemarks(
        Opts.Remarks ? &report().Remarks.mut() : nullptr, Stage::Asm, Tags);
    llvm::Expected<std::string> Asm = [&] {
      std::lock_guard<std::mutex> Lock(Config.targetMachineLock());
      return Tgt.emitAsm(*ForAsm, *TM);
    }();
    Diagnostics->collectRemarks(nullptr, Stage::Asm);
    if (!Asm) {
      fail(Asm.takeError());
      return std::move(Result);
    }
    if (backendFailed())
      return std::move(Result);
    if (Opts.EmitObject) {
      std::unique_ptr<llvm::Module> ForObj = TakeOrClone(!Annotate);
      if (Tgt.objectLinesAtUserCode())
        locateAtUserCode(*ForObj);
      llvm::Expected<std::string> Obj = [&] {
        std::lock_guard<std::mutex> Lock(Config.targetMachineLock());
        return Tgt.emitObject(*ForObj, *TM);
      }();
      if (!Obj) {
        fail(Obj.takeError());
        return std::move(Result);
      }
      if (backendFailed())
        return std::move(Result);
      Result.Object.assign(Obj->begin(), Obj->end());
    }
    if (Opts.Resources && Opts.DeferResources && Tgt.resourceUsageRunsATool()) {
      Result.DeferredAsm = *Asm;
      report().Resources.Note = "being measured";
    }
    StageOutput Out;
    const bool Raw = Opts.RawAsm || !Opts.wantsText(Stage::Asm);
    if (!Raw) {
      AsmCommentStyle Style = Tgt.asmSourceComments();
      AsmAnnotation A = annotateAsm(*Asm, *Result.Module, Style.Leader, Tags,
                                    Style.AsciiOnly);
      Out.Text = std::move(A.Text);
      Out.Lines = std::move(A.Lines);
    }
    Out.Measure = Probe.finish();
    // After the stage's measurement: ptxas is a process of its own, timed
    // on its own (ResourceUsage::ToolMs).
    if (Opts.Resources && Result.DeferredAsm.empty())
      measureResources(Config, *Asm, report().Resources);
    if (Raw)
      Out.Text = std::move(*Asm);
    finishStage(Stage::Asm, std::move(Out), Result.Module.get());
  }
  return std::move(Result);
}

} // namespace

void measureResources(const CompilerConfig &C, const std::string &Asm,
                      ResourceUsage &Out) {
  Out.Note.clear();
  const Target &T = C.target();
  auto Start = std::chrono::steady_clock::now();
  T.resourceUsage(Asm, C, Out);
  if (T.resourceUsageRunsATool())
    Out.ToolMs = std::chrono::duration<double, std::milli>(
                     std::chrono::steady_clock::now() - Start)
                     .count();
}

CompileResult compile(InferenceEngine &Engine, const CompilerJob &Job,
                      Stage UpTo, const CompileHooks &Hooks,
                      const CompileOptions &Opts) {
  return Driver(Job, UpTo, Hooks, Opts).run(&Engine, nullptr, &Engine.env());
}

CompileResult compileInferred(const InferResult &R, const CompilerJob &Job,
                              Stage UpTo, const CompileHooks &Hooks,
                              const CompileOptions &Opts,
                              InferenceEngine *Engine) {
  return Driver(Job, UpTo, Hooks, Opts)
      .run(Engine, &R, Engine ? &Engine->env() : nullptr);
}

} // namespace prism
