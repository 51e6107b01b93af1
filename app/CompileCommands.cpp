// code_llvm, code_native (code_ptx/gcn/bpf), pipeline, report: the back half
// of the pipeline, all through the staged driver (core/cache/Compiler.h).
#include "Commands.h"
#include "ProgramLoader.h"

#include "cache/CacheProbe.h"
#include "cache/Compiler.h"
#include "cache/Remarks.h"
#include "codegen/LineMap.h"
#include "devices/CallRunner.h"
#include "support/JsonOutput.h"
#include "support/TextDiff.h"
#include "targets/Occupancy.h"
#include "targets/Target.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <sys/resource.h>

#include <cctype>
#include <set>

namespace prism::app {

namespace {
/// The process's peak resident memory (what a 100 000-line file costs).
int64_t peakRssKiB() {
  struct rusage U {};
  getrusage(RUSAGE_SELF, &U);
  return static_cast<int64_t>(U.ru_maxrss); // KiB on Linux
}
} // namespace

CompilerConfigOptions makeConfigOptions(const CommandOptions &O) {
  CompilerConfigOptions C;
  C.Target = O.Target;
  C.Arch = O.Arch;
  if (O.Kernel)
    C.Kernel = true;
  if (O.NoKernel)
    C.Kernel = false;
  C.OptLevel = O.OptLevel;
  C.DebugInfo = O.DebugInfo == "none" ? DebugInfoLevel::None
                                      : DebugInfoLevel::LineTables;
  C.AlwaysInline = O.AlwaysInline;
  C.MaxThreads = O.MaxThreads;
  C.MinThreads = O.MinThreads;
  C.BlocksPerSM = O.BlocksPerSM;
  C.MaxRegs = O.MaxRegs;
  C.DiskCache = O.DiskCache || !O.CacheDir.empty();
  C.DiskCacheDir = O.CacheDir;
  if (!O.CacheDir.empty() && O.CacheDir[0] != '/') {
    llvm::SmallString<256> Abs(O.CacheDir);
    llvm::sys::fs::make_absolute(Abs);
    C.DiskCacheDir = std::string(Abs);
  }
  return C;
}

llvm::Expected<CompilerConfigRef> makeConfig(const CommandOptions &O) {
  // A BPF program's entry returns its verdict (a UInt32): it is no kernel,
  // and the kernel ABI's "must return nothing" would be the wrong complaint.
  if (O.Kernel && O.Target == "bpf")
    return makeDiagError(
        Diagnostic::error("config",
                          "--kernel does not apply to the bpf target: a BPF "
                          "program's entry returns its verdict (a UInt32), not "
                          "`nothing` as a kernel does",
                          {}));
  return CompilerConfig::create(makeConfigOptions(O));
}

namespace {

/// A loaded program, a job for SIG, and the compile of it up to a stage.
struct CompiledCommand {
  std::optional<LoadedProgram> Program;
  std::unique_ptr<InferenceEngine> Engine;
  CompilerConfigRef Config;
  FunctionSpec Spec;
  CompileResult Result;
  CompiledCommand *Previous = nullptr; ///< an earlier compile of the process
};

/// The compiles of this process, newest first. The command prints and the
/// process ends: tearing down the program, the inference engine and the
/// LLVM module would only hand memory back to a process about to exit (a
/// sixth of a 10 000-function compile), so they are never destroyed, as
/// clang's -disable-free does. A global pointer keeps them reachable for
/// LeakSanitizer.
CompiledCommand *TheCompiles = nullptr;

CompiledCommand *compileFor(const CommandOptions &O, Stage UpTo,
                            const CompileOptions &Opts, int &RC) {
  auto *New = new CompiledCommand;
  New->Previous = TheCompiles;
  TheCompiles = New;
  CompiledCommand &C = *New;
  C.Program = loadProgram(O.File, RC);
  if (!C.Program)
    return nullptr;
  auto Spec = resolveSignature(*C.Program, O.Sig, RC);
  if (!Spec)
    return nullptr;
  auto Config = makeConfig(O);
  if (!Config) {
    RC = reportError(Config.takeError());
    if (RC == ExitProgramError)
      RC = ExitUsage; // a bad target/arch is a usage error
    return nullptr;
  }
  C.Engine =
      std::make_unique<InferenceEngine>(*C.Program->Env, O.Bounds);
  C.Config = *Config;
  C.Spec = *Spec;
  CompilerJob Job{*Spec, *Config, C.Program->Env->currentWorld()};
  C.Result = compile(*C.Engine, Job, UpTo, {}, Opts);
  if (!C.Result.ok()) {
    printDiagnostics(C.Result.Report->Diagnostics);
    RC = ExitProgramError;
    return nullptr;
  }
  // Warnings (e.g. from the backend) still go to stderr.
  printDiagnostics(C.Result.Report->Diagnostics);
  return &C;
}

/// The `define ... @Name(...) { ... }` block of one function in module text.
/// Name as LLVM's printer quotes it: bytes outside printable ASCII (a
/// UTF-8 `σ`) as `\CF\83`.
static std::string quotedLLVMName(llvm::StringRef Name) {
  std::string Q = "@\"";
  for (unsigned char C : Name) {
    if (C >= 0x20 && C < 0x7f && C != '\\' && C != '"') {
      Q += char(C);
    } else {
      Q += '\\';
      Q += llvm::hexdigit(C >> 4);
      Q += llvm::hexdigit(C & 15);
    }
  }
  return Q + "\"(";
}

std::string extractFunction(llvm::StringRef Module, llvm::StringRef Name) {
  std::string Needle = ("@" + Name + "(").str();
  std::string Quoted = quotedLLVMName(Name);
  size_t Pos = llvm::StringRef::npos;
  for (size_t From = 0;;) {
    size_t P = Module.find("define ", From);
    if (P == llvm::StringRef::npos)
      break;
    size_t EOL = Module.find('\n', P);
    llvm::StringRef Header = Module.slice(P, EOL);
    if (Header.contains(Needle) || Header.contains(Quoted)) {
      Pos = P;
      break;
    }
    From = EOL;
  }
  if (Pos == llvm::StringRef::npos)
    return Module.str();
  // Include the comment lines directly above (`; @ file:line within f`).
  size_t Start = Pos;
  while (Start > 0) {
    size_t PrevEnd = Start - 1;
    size_t PrevStart = Module.rfind('\n', PrevEnd ? PrevEnd - 1 : 0);
    PrevStart = PrevStart == llvm::StringRef::npos ? 0 : PrevStart + 1;
    if (!Module.slice(PrevStart, PrevEnd).startswith(";"))
      break;
    Start = PrevStart;
  }
  size_t End = Module.find("\n}", Pos);
  End = End == llvm::StringRef::npos ? Module.size() : End + 2;
  return Module.slice(Start, End).str() + "\n";
}

/// IR text without metadata attachments (`, !dbg !14`, `, !range !18`,
/// ` !dbg !10` on a `define`) and, in a whole module, without the
/// debug-info nodes (`!14 = !DILocation(...)`, `!llvm.dbg.cu`), as Julia's
/// `code_llvm` prints it unless `raw`: the `; file:line` comments say where
/// each line came from.
std::string withoutMetadata(llvm::StringRef Text) {
  static const llvm::Regex Attachment(",? ![A-Za-z_.][A-Za-z0-9_.]* ![0-9]+");
  static const llvm::Regex DebugNode("^![0-9]+ = (distinct )?!DI");
  static const llvm::Regex NodeRef("![0-9]+");
  std::string Out;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Text.split(Lines, '\n');
  // The debug nodes go, and so does every metadata line that refers to one
  // that went (`!prism.shared_arrays`' pairs name a DIGlobalVariable): the
  // module must still parse.
  std::vector<bool> Drop(Lines.size(), false);
  llvm::StringSet<> Gone;
  for (bool Again = true; Again;) {
    Again = false;
    for (size_t I = 0; I < Lines.size(); ++I) {
      llvm::StringRef L = Lines[I];
      if (Drop[I] || !L.startswith("!"))
        continue;
      bool Refers = DebugNode.match(L) || L.startswith("!llvm.dbg.cu");
      for (llvm::StringRef Rest = L.split(" = ").second; !Refers;) {
        llvm::SmallVector<llvm::StringRef, 1> M;
        if (!NodeRef.match(Rest, &M))
          break;
        Refers = Gone.contains(M[0]);
        Rest = Rest.substr(Rest.find(M[0]) + M[0].size());
      }
      if (!Refers)
        continue;
      Drop[I] = Again = true;
      Gone.insert(L.split(" = ").first.trim());
    }
  }
  for (size_t I = 0; I < Lines.size(); ++I) {
    if (Drop[I])
      continue;
    std::string L = Lines[I].str();
    if (!llvm::StringRef(L).ltrim().startswith(";"))
      while (Attachment.match(L))
        L = Attachment.sub("", L);
    Out += L;
    if (I + 1 < Lines.size())
      Out += '\n';
  }
  return Out;
}

/// The symbol a `.size NAME, ...` or `.type NAME,@function` line names.
static llvm::StringRef directiveSymbol(llvm::StringRef Line,
                                       llvm::StringRef Directive) {
  llvm::StringRef L = Line.ltrim();
  if (!L.consume_front(Directive) || L.empty() || !std::isspace(L[0]))
    return {};
  L = L.ltrim();
  return L.take_until([](char C) { return C == ','; }).trim().trim('"');
}

/// Assembly of the entry function only, as Julia's `code_native`: other
/// functions (the host's `jfptr_` wrappers, each with a copy of the
/// inlined kernel) are left out; the file's header and its data (a bpf
/// license, a gcn kernel descriptor) stay. A function's text runs from
/// after the previous `.size` to its own.
std::string entryAsm(llvm::StringRef Asm, llvm::StringRef Entry) {
  llvm::SmallVector<llvm::StringRef, 256> Lines;
  Asm.split(Lines, '\n');
  llvm::StringSet<> Functions;
  for (llvm::StringRef L : Lines)
    if (L.contains("@function"))
      if (llvm::StringRef Sym = directiveSymbol(L, ".type"); !Sym.empty())
        Functions.insert(Sym);
  if (Functions.size() < 2 || !Functions.contains(Entry))
    return Asm.str();
  std::string Out;
  size_t ChunkStart = 0;
  bool First = true;
  auto Emit = [&](size_t B, size_t E) {
    for (size_t I = B; I < E; ++I)
      Out += Lines[I].str() + (I + 1 < Lines.size() ? "\n" : "");
  };
  for (size_t I = 0; I < Lines.size(); ++I) {
    llvm::StringRef Sym = directiveSymbol(Lines[I], ".size");
    if (Sym.empty() || !Functions.contains(Sym))
      continue;
    size_t End = I + 1;
    if (End < Lines.size() && Lines[End].contains("-- End function"))
      ++End;
    if (Sym == Entry) {
      Emit(ChunkStart, End);
    } else if (First) {
      // The file's header (`.text`, `.file`, a target directive) before
      // the first function's own directives.
      size_t H = ChunkStart;
      while (H < I && !Lines[H].ltrim().startswith(".globl") &&
             !Lines[H].ltrim().startswith(".type") &&
             !Lines[H].ltrim().startswith(".p2align"))
        ++H;
      Emit(ChunkStart, H);
    }
    First = false;
    ChunkStart = End;
  }
  Emit(ChunkStart, Lines.size());
  return Out;
}

/// The stage's text of the entry function (or the whole module), its
/// instructions under `; file:line` comments unless `--debuginfo=none`.
std::string entryText(const CompileResult &R, Stage S, bool WholeModule,
                      bool Raw, bool Annotate) {
  const StageOutput &Out = R.Report->stage(S);
  std::string Text = Annotate ? annotateIR(Out.Text, Out.Lines) : Out.Text;
  if (Raw)
    return Text;
  if (WholeModule || R.EntrySymbol.empty())
    return withoutMetadata(Text);
  return withoutMetadata(extractFunction(Text, R.EntrySymbol));
}

} // namespace

int runCodeLlvm(const CommandOptions &O) {
  int RC = ExitOk;
  Stage S = O.Optimize == "no" ? Stage::LLVMRaw : Stage::LLVMOpt;
  CompileOptions Opts;
  Opts.Remarks = false; // printed by `remarks` and `report` only
  Opts.OnlyText = S;
  auto C = compileFor(O, S, Opts, RC);
  if (!C)
    return RC;
  llvm::outs() << entryText(C->Result, S, O.DumpModule, O.Raw,
                            O.DebugInfo != "none");
  return ExitOk;
}

int runCodeNative(const CommandOptions &O) {
  int RC = ExitOk;
  CompileOptions Opts;
  Opts.RawAsm = O.Raw;
  // Only the assembly is printed: no `ptxas -v` for figures nobody sees,
  // no remarks, no text of the other stages.
  Opts.Resources = false;
  Opts.Remarks = false;
  Opts.OnlyText = Stage::Asm;
  auto C = compileFor(O, Stage::Asm, Opts, RC);
  if (!C)
    return RC;
  const std::string &Asm = C->Result.Report->stage(Stage::Asm).Text;
  if (O.DumpModule || O.Raw || C->Result.EntrySymbol.empty())
    llvm::outs() << Asm;
  else
    llvm::outs() << entryAsm(Asm, C->Result.EntrySymbol);
  return ExitOk;
}

int runPipeline(const CommandOptions &O) {
  int RC = ExitOk;
  CompileOptions Opts;
  Opts.Snapshots = true;
  Opts.KeepUnchangedPasses = O.PipelineAll;
  Opts.Remarks = false;
  auto C = compileFor(O, Stage::LLVMOpt, Opts, RC);
  if (!C)
    return RC;
  const JobReport &R = *C->Result.Report;
  size_t Changed =
      llvm::count_if(R.Passes, [](const PassSnapshot &P) { return P.Changed; });
  auto Matches = [](llvm::StringRef Name, llvm::StringRef Filter) {
    return Filter.empty() || Name.contains_insensitive(Filter);
  };
  std::vector<const PassSnapshot *> Shown;
  for (const PassSnapshot &P : R.Passes)
    if (Matches(P.Pass, O.PipelinePass) &&
        Matches(P.Function, O.PipelineFunction) &&
        (O.PipelineGrep.empty() ||
         linesContainingDelta(P.Diff, O.PipelineGrep) != 0))
      Shown.push_back(&P);
  if (O.Json) {
    // The passes shown, as the text would list them; --summary leaves out
    // the diffs.
    llvm::json::Array List;
    for (const PassSnapshot *P : Shown) {
      DiffCounts D = countUnified(P->Diff);
      llvm::json::Object J{{"index", P->Index},
                           {"pass", P->Pass},
                           {"function", P->Function},
                           {"changed", P->Changed},
                           {"added", D.Added},
                           {"removed", D.Removed}};
      if (!O.PipelineGrep.empty())
        J["lines_with_grep"] = linesContainingDelta(P->Diff, O.PipelineGrep);
      if (!O.PipelineSummary)
        J["diff"] = P->Diff;
      List.push_back(std::move(J));
    }
    llvm::json::Object Out{{"signature", R.Signature},
                           {"target", R.Target},
                           {"arch", R.Arch},
                           {"opt_level", R.OptLevel},
                           {"passes_changed", int64_t(Changed)},
                           {"passes", std::move(List)}};
    if (O.PipelineAll)
      Out["passes_run"] = int64_t(R.Passes.size());
    printJSON(llvm::outs(), llvm::json::Value(std::move(Out)));
    return ExitOk;
  }
  llvm::outs() << "; " << Changed << " passes changed " << R.Signature << " ("
               << R.Target << ", O" << R.OptLevel << ")";
  if (O.PipelineAll)
    llvm::outs() << "; " << R.Passes.size() << " ran";
  llvm::outs() << "\n";
  std::vector<std::string> Conditions;
  if (!O.PipelinePass.empty())
    Conditions.push_back("with a pass matching '" + O.PipelinePass + "'");
  if (!O.PipelineFunction.empty())
    Conditions.push_back("on a function matching '" + O.PipelineFunction + "'");
  if (!O.PipelineGrep.empty())
    Conditions.push_back("changing how many lines hold '" + O.PipelineGrep +
                         "'");
  bool Filtered = !Conditions.empty();
  if (Filtered)
    llvm::outs() << "; " << Shown.size() << " of them "
                 << llvm::join(Conditions, " and ") << "\n";
  if (Shown.empty() &&
      (!O.PipelinePass.empty() || !O.PipelineFunction.empty())) {
    // Most likely a misspelt name: say which ones there are.
    llvm::SetVector<llvm::StringRef> Passes, Functions;
    for (const PassSnapshot &P : R.Passes) {
      if (!P.Changed)
        continue;
      Passes.insert(P.Pass);
      Functions.insert(P.Function);
    }
    llvm::outs() << "; passes that changed something: "
                 << llvm::join(Passes, ", ")
                 << "\n; on: " << llvm::join(Functions, ", ") << "\n";
    return ExitOk;
  }
  for (const PassSnapshot *P : Shown) {
    if (!P->Changed) { // --all
      llvm::outs() << llvm::formatv("{0};; [{1}] {2} on {3}  =\n",
                                    O.PipelineSummary ? "" : "\n", P->Index,
                                    P->Pass, P->Function);
      continue;
    }
    if (O.PipelineSummary) {
      DiffCounts D = countUnified(P->Diff);
      llvm::outs() << llvm::formatv(";; [{0}] {1} on {2}  +{3} -{4}", P->Index,
                                    P->Pass, P->Function, D.Added, D.Removed);
      if (!O.PipelineGrep.empty()) {
        int Delta = linesContainingDelta(P->Diff, O.PipelineGrep);
        llvm::outs() << "  (" << (Delta > 0 ? "+" : "") << Delta << " with '"
                     << O.PipelineGrep << "')";
      }
      llvm::outs() << "\n";
      continue;
    }
    llvm::outs() << llvm::formatv("\n;; [{0}] {1} on {2}\n", P->Index, P->Pass,
                                  P->Function)
                 << P->Diff;
  }
  return ExitOk;
}

static llvm::json::Object remarkJson(const OptRemark &R) {
  llvm::json::Array Frames;
  for (const SourceFrame &F : R.Origin.Frames)
    Frames.push_back(llvm::json::Object{{"function", F.Function},
                                        {"file", F.File},
                                        {"line", static_cast<int64_t>(F.Line)},
                                        {"col", static_cast<int64_t>(F.Col)}});
  return llvm::json::Object{{"kind", remarkKindName(R.Kind)},
                            {"stage", stageName(R.At)},
                            {"pass", R.Pass},
                            {"name", R.Name},
                            {"message", R.Message},
                            {"function", R.Function},
                            {"frames", std::move(Frames)}};
}

/// {"passed": N, "missed": N, "analysis": N}
static llvm::json::Object remarkCounts(const std::vector<OptRemark> &Remarks) {
  std::array<size_t, 3> Count = countRemarks(Remarks);
  llvm::json::Object J;
  for (RemarkKind K : AllRemarkKinds)
    J[remarkKindName(K)] = static_cast<int64_t>(Count[static_cast<size_t>(K)]);
  return J;
}

/// The access-pattern verdicts (null when the job has none: not ptx).
static llvm::json::Value accessCounts(const std::vector<OptRemark> &Remarks) {
  AccessCounts C = countAccessRemarks(Remarks);
  if (!C.total())
    return nullptr;
  auto N = [](size_t V) { return static_cast<int64_t>(V); };
  return llvm::json::Object{{"coalesced", N(C.Coalesced)},
                            {"uncoalesced", N(C.Uncoalesced)},
                            {"conflict_free", N(C.ConflictFree)},
                            {"bank_conflicts", N(C.BankConflicts)},
                            {"broadcast", N(C.Broadcast)},
                            {"runtime_stride", N(C.RuntimeStride)}};
}

/// The costly operations prism-arith found (null when none: not a GPU
/// kernel, or nothing to report).
static llvm::json::Value
arithmeticCounts(const std::vector<OptRemark> &Remarks) {
  ArithmeticCounts C = countArithmeticRemarks(Remarks);
  if (!C.total())
    return nullptr;
  return llvm::json::Object{
      {"float64_conversions", static_cast<int64_t>(C.Float64)},
      {"wide_divisions", static_cast<int64_t>(C.WideDivisions)}};
}

/// The branch-divergence verdicts (null when the job has none: not ptx, or
/// no branch on the thread index).
static llvm::json::Value branchCounts(const std::vector<OptRemark> &Remarks) {
  BranchCounts C = countBranchRemarks(Remarks);
  if (!C.total())
    return nullptr;
  auto N = [](size_t V) { return static_cast<int64_t>(V); };
  return llvm::json::Object{{"divergent", N(C.Divergent)},
                            {"partly_divergent", N(C.PartlyDivergent)},
                            {"warp_uniform", N(C.WarpUniform)},
                            {"at_a_boundary", N(C.Boundary)},
                            {"data_dependent", N(C.DataDependent)},
                            {"not_evaluated", N(C.Unknown)}};
}

/// --threads X[,Y[,Z]] as the block the warp analyses assume (zeros when
/// absent); none, after a usage message, when malformed.
static std::optional<std::array<unsigned, 3>>
blockOption(const CommandOptions &O, llvm::StringRef Command) {
  std::array<unsigned, 3> Block = {0, 0, 0};
  if (O.Threads.empty())
    return Block;
  std::optional<Dim3> D = parseDim3(O.Threads);
  if (!D) {
    const char *Msg = "--threads takes X[,Y[,Z]] with positive integers";
    llvm::errs() << "prism " << Command << ": " << Msg << "\n";
    recordError("usage", Msg);
    return std::nullopt;
  }
  if (std::string Why = blockShapeError(*D); !Why.empty()) {
    llvm::errs() << "prism " << Command << ": " << Why << "\n";
    recordError("usage", Why);
    return std::nullopt;
  }
  return std::array<unsigned, 3>{D->X, D->Y, D->Z};
}

int runRemarks(const CommandOptions &O) {
  std::optional<std::array<unsigned, 3>> Block = blockOption(O, "remarks");
  if (!Block)
    return ExitUsage;
  int RC = ExitOk;
  CompileOptions Opts;
  Opts.Block = *Block;
  Opts.Resources = false; // remarks only: no `ptxas -v`
  auto C = compileFor(O, Stage::Asm, Opts, RC);
  if (!C)
    return RC;
  const JobReport &R = *C->Result.Report;
  std::vector<OptRemark> Shown;
  for (const OptRemark &M : R.Remarks) {
    bool KindOk = O.RemarkKinds.empty() ||
                  llvm::is_contained(O.RemarkKinds, remarkKindName(M.Kind));
    if (KindOk &&
        (O.RemarkPasses.empty() || llvm::is_contained(O.RemarkPasses, M.Pass)))
      Shown.push_back(M);
  }
  // A --pass no remark came from: Prism's own that found nothing, or a
  // typo or a pass's class name (`GVNPass`), with the passes that did.
  std::set<std::string> Passes;
  for (const OptRemark &M : R.Remarks)
    Passes.insert(M.Pass);
  std::set<std::string> Noted;
  for (const std::string &Pass : O.RemarkPasses) {
    if (Passes.count(Pass) || !Noted.insert(Pass).second)
      continue;
    static const char *const Own[] = {"prism-access", "prism-divergence",
                                      "prism-arith", "prism-throw",
                                      "typed-inline"};
    if (llvm::is_contained(Own, Pass)) {
      bool Gpu = R.Target == "ptx" || R.Target == "gcn";
      llvm::errs() << "note: `" << Pass << "` found nothing to report in "
                   << "this job"
                   << (Gpu || Pass == "typed-inline"
                           ? ""
                           : " (it looks at ptx and gcn kernels only)")
                   << "\n";
      continue;
    }
    std::string Near;
    unsigned Best = 3;
    std::vector<std::string> Known(std::begin(Own), std::end(Own));
    Known.insert(Known.end(), Passes.begin(), Passes.end());
    for (const std::string &K : Known)
      if (unsigned D = llvm::StringRef(Pass).edit_distance(K, true, Best);
          D < Best) {
        Best = D;
        Near = K;
      }
    std::string List;
    for (const std::string &P : Passes)
      List += (List.empty() ? "" : ", ") + P;
    llvm::errs() << "note: no remark comes from a pass named `" << Pass << "`"
                 << (Near.empty() ? "" : " (did you mean `" + Near + "`?)")
                 << "; "
                 << (List.empty() ? "this job has no remarks"
                                  : "the remarks' passes are " + List)
                 << "\n";
  }
  if (O.Json) {
    llvm::json::Array List;
    for (const OptRemark &M : Shown)
      List.push_back(remarkJson(M));
    llvm::json::Object Out{{"signature", R.Signature},
                           {"target", R.Target},
                           {"arch", R.Arch},
                           {"opt_level", R.OptLevel},
                           {"remarks", std::move(List)}};
    printJSON(llvm::outs(), llvm::json::Value(std::move(Out)));
    return ExitOk;
  }
  std::vector<RemarkGroup> Groups = groupRemarks(Shown);
  llvm::outs() << "; " << Shown.size() << " remarks (" << Groups.size()
               << " distinct) for " << R.Signature << " (" << R.Target << " "
               << R.Arch << ", O" << R.OptLevel
               << "): " << summarizeRemarks(Shown) << "\n";
  for (const RemarkGroup &G : Groups)
    llvm::outs() << formatRemark(*G.First, G.Count) << "\n";
  return ExitOk;
}

static llvm::json::Object measureJson(const StageMeasure &M) {
  return llvm::json::Object{{"wall_ms", M.WallMs},
                            {"allocs", static_cast<int64_t>(M.Allocs.Count)},
                            {"alloc_bytes", static_cast<int64_t>(M.Allocs.Bytes)}};
}

static llvm::json::Value optionalInt(const std::optional<int> &V) {
  return V ? llvm::json::Value(*V) : llvm::json::Value(nullptr);
}

/// Lookups timed after the first one (about a millisecond in all).
constexpr unsigned CacheProbes = 100000;

static llvm::json::Object cacheJson(const CacheFigures &C) {
  llvm::json::Object Disk{
      // A directory that cannot be used turns the disk cache off.
      {"enabled", !C.DiskDir.empty() && C.DiskError.empty()},
      {"dir", C.DiskDir},
      {"hit", C.FromDisk},
      {"writes", static_cast<int64_t>(C.DiskWrites)},
      {"corrupt", static_cast<int64_t>(C.DiskCorrupt)},
      {"write_errors", static_cast<int64_t>(C.DiskWriteErrors)},
      {"write_error", C.DiskWriteError},
      {"error", C.DiskError}};
  return llvm::json::Object{
      {"hits", static_cast<int64_t>(C.Hits)},
      {"misses", static_cast<int64_t>(C.Misses)},
      {"compiles", static_cast<int64_t>(C.Compiles)},
      {"invalidations", static_cast<int64_t>(C.Invalidations)},
      {"compile_ms", C.LastCompileMs},
      {"compile_allocs", static_cast<int64_t>(C.LastCompileAllocs.Count)},
      {"hit_ns", C.HitNs},
      {"allocs_per_hit", C.AllocsPerHit},
      {"disk", std::move(Disk)}};
}

/// One block size's occupancy as JSON (for gcn a block is a workgroup, a
/// warp a wave and an SM a CU; "waves_per_simd" adds the average per SIMD).
llvm::json::Object occupancyPointJson(const Occupancy &O) {
  llvm::json::Array Limits;
  for (OccupancyLimit L : {LimitRegisters, LimitScalarRegisters, LimitShared,
                           LimitWarps, LimitBlocks})
    if (O.Limits & L)
      Limits.push_back(occupancyLimitNames(L, O.Amd));
  llvm::json::Object P{{"threads", O.BlockSize},
                       {"blocks_per_sm", O.BlocksPerSM},
                       {"warps_per_sm", O.WarpsPerSM},
                       {"occupancy", O.fraction()},
                       {"limited_by", std::move(Limits)}};
  if (O.Amd)
    P["waves_per_simd"] = O.warpsPerPartition();
  if (!O.Why.empty())
    P["cannot_launch"] = O.Why;
  return P;
}

/// The kernel's theoretical occupancy by block size (null when there is
/// none: another target or arch, or no register figures).
llvm::json::Value occupancyJson(const JobReport &R, uint64_t Threads) {
  std::vector<Occupancy> Curve = reportOccupancy(R);
  if (Curve.empty())
    return nullptr;
  llvm::json::Array Points;
  for (const Occupancy &O : Curve)
    Points.push_back(occupancyPointJson(O));
  const MultiprocessorLimits L = *reportLimits(R);
  llvm::json::Object J{{"arch", R.Arch},
                       {"max_warps_per_sm", L.maxWarpsPerSM()},
                       {"max_blocks_per_sm", L.MaxBlocksPerSM},
                       {"one_warp_blocks_unbounded", L.OneWarpBlocksUnbounded},
                       {"registers_per_sm", L.RegsPerSM},
                       {"shared_bytes_per_sm", L.SharedPerSM},
                       {"by_block_size", std::move(Points)}};
  // null without --threads, as the README promises for unknown values.
  std::optional<Occupancy> At = reportOccupancyAt(R, Threads);
  J["at_threads"] = At ? llvm::json::Value(occupancyPointJson(*At)) : nullptr;
  return J;
}

void printOccupancy(const JobReport &R, uint64_t Threads, int BlocksPerSM) {
  std::vector<Occupancy> Curve = reportOccupancy(R);
  if (Curve.empty()) {
    if (R.Target == "gcn" && R.Kernel && R.Resources.WavesPerSIMD)
      llvm::outs() << "\n  occupancy: no table for " << R.Arch
                   << " (the model covers gfx9 to gfx11); waves/SIMD "
                      "above is the backend's own figure\n";
    return;
  }
  const MultiprocessorLimits L = *reportLimits(R);
  llvm::outs() << "\n  occupancy (" << describeMultiprocessor(R.Arch, L)
               << "):\n";
  // AMD adds the waves per SIMD, the unit of the backend's own figure.
  std::string Head =
      llvm::formatv("  {0,7} {1,6} {2,6}", "threads",
                    L.Amd ? "groups" : "blocks", L.Amd ? "waves" : "warps");
  if (L.Amd)
    Head += llvm::formatv(" {0,10}", "waves/SIMD");
  llvm::outs() << Head
               << llvm::formatv(" {0,10}  {1}\n", "occupancy", "limited by");
  for (const Occupancy *O : occupancyRows(Curve)) {
    if (!O->BlocksPerSM) {
      llvm::outs() << llvm::formatv("  {0,7}  cannot launch: {1}\n",
                                    O->BlockSize, O->Why);
      continue;
    }
    std::string Row = llvm::formatv("  {0,7} {1,6} {2,6}", O->BlockSize,
                                    O->BlocksPerSM, O->WarpsPerSM);
    if (L.Amd)
      Row += llvm::formatv(" {0,10}", formatPerPartition(*O));
    llvm::outs() << Row
                 << llvm::formatv(" {0,9}%  {1}\n",
                                  int(O->fraction() * 100 + 0.5),
                                  occupancyLimitNames(O->Limits, L.Amd));
  }
  if (const Occupancy *Best = bestOccupancy(Curve))
    llvm::outs() << llvm::formatv(
        "  highest: {0}% from {1} threads per {2}{3}\n",
        int(Best->fraction() * 100 + 0.5), Best->BlockSize, L.blockWord(),
        R.MaxThreads ? llvm::formatv(" (launch bound {0})", R.MaxThreads).str()
                     : std::string());
  if (std::string Note = backendOccupancyNote(R, Curve); !Note.empty())
    llvm::outs() << "  " << Note << "\n";
  if (std::optional<Occupancy> At = reportOccupancyAt(R, Threads))
    llvm::outs() << "  at " << At->BlockSize
                 << (At->BlockSize == 1 ? " thread: " : " threads: ")
                 << describeOccupancy(*At) << "\n";
  // --blocks-per-sm asks ptxas to fit that many blocks at the launch bound's
  // size; it trims registers (and spills) to try, but cannot shrink shared
  // memory or the SM's own limits.
  if (unsigned Bound = R.MaxThreads ? R.MaxThreads : R.MinThreads;
      BlocksPerSM > 0 && Bound)
    for (const Occupancy &O : Curve)
      if (unsigned(O.BlockSize) == Bound && O.BlocksPerSM < BlocksPerSM) {
        llvm::outs() << llvm::formatv(
            "  note: --blocks-per-sm {0} is not met: at {1} threads the {2} "
            "holds {3} {4}, limited by {5}\n",
            BlocksPerSM, Bound, L.Amd ? "CU" : "SM", O.BlocksPerSM,
            std::string(L.blockWord()) + (O.BlocksPerSM == 1 ? "" : "s"),
            occupancyLimitNames(O.Limits, L.Amd));
        break;
      }
}

int runReport(const CommandOptions &O) {
  // --threads: the launch whose occupancy to single out, and whose warps
  // the access and divergence counts assume.
  std::optional<std::array<unsigned, 3>> Block = blockOption(O, "report");
  if (!Block)
    return ExitUsage;
  uint64_t Threads = uint64_t((*Block)[0]) * (*Block)[1] * (*Block)[2];
  int RC = ExitOk;
  CompileOptions Opts;
  Opts.Block = *Block;
  Opts.Snapshots = true;
  Opts.TypedOptimized = true;
  auto C = compileFor(O, Stage::Asm, Opts, RC);
  if (!C)
    return RC;
  // The same job through a compile cache, as a launch would see it.
  {
    CompileCache Cache(*C->Engine);
    if (llvm::Error E = probeCache(Cache, *C->Config, C->Spec, CacheProbes,
                                   C->Result.Report->Cache))
      return reportError(std::move(E));
  }
  const JobReport &R = *C->Result.Report;
  if (!O.Threads.empty() && R.Target != "ptx" && R.Target != "gcn")
    llvm::errs() << "note: --threads has no effect on " << R.Target
                 << ": occupancy and the warps of the access and divergence "
                    "counts are ptx's and gcn's\n";
  static const Stage Order[] = {Stage::Typed, Stage::TypedOpt, Stage::LLVMRaw,
                                Stage::LLVMOpt, Stage::Asm};
  // The assembly's symbol for the entry: the backend may rename it (PTX
  // has no `!` in names: julia_saxpy! is julia_saxpy_ there).
  std::string EntrySymbol = R.EntryName;
  if (llvm::Expected<const Target *> T = lookupTarget(R.Target))
    EntrySymbol = (*T)->asmSymbol(R.EntryName);
  else
    llvm::consumeError(T.takeError());
  const ResourceUsage &U = R.Resources;
  if (O.Json) {
    llvm::json::Array Stages;
    for (Stage S : Order) {
      const StageOutput &Out = R.stage(S);
      if (!Out.Present)
        continue;
      llvm::json::Object J = measureJson(Out.Measure);
      J["stage"] = stageName(S);
      J["bytes"] = static_cast<int64_t>(Out.Text.size());
      J["lines"] = static_cast<int64_t>(
          std::count(Out.Text.begin(), Out.Text.end(), '\n'));
      Stages.push_back(std::move(J));
    }
    llvm::json::Array Passes;
    for (const PassSnapshot &P : R.Passes)
      Passes.push_back(llvm::json::Object{{"index", P.Index},
                                          {"pass", P.Pass},
                                          {"function", P.Function}});
    llvm::json::Object Out{
        {"signature", R.Signature},
        {"target", R.Target},
        {"arch", R.Arch},
        {"opt_level", R.OptLevel},
        {"kernel", R.Kernel},
        {"check_bounds", checkBoundsName(R.Bounds)},
        // The launch the warp and occupancy figures assume (--threads).
        {"block", Threads ? llvm::json::Value(llvm::json::Array{
                                (*Block)[0], (*Block)[1], (*Block)[2]})
                          : llvm::json::Value(nullptr)},
        {"entry", R.EntryName},
        {"entry_symbol", EntrySymbol},
        {"world", static_cast<int64_t>(R.World)},
        {"stages", std::move(Stages)},
        {"passes_changed", std::move(Passes)},
        {"remarks", remarkCounts(R.Remarks)},
        {"accesses", accessCounts(R.Remarks)},
        {"branches", branchCounts(R.Remarks)},
        {"arithmetic", arithmeticCounts(R.Remarks)},
        {"occupancy", occupancyJson(R, Threads)},
        {"cache", cacheJson(R.Cache)},
        {"process", llvm::json::Object{{"peak_rss_kib", peakRssKiB()}}},
        {"resources",
         llvm::json::Object{{"registers", optionalInt(U.Registers)},
                            {"spills", optionalInt(U.Spills)},
                            {"spill_loads", optionalInt(U.SpillLoads)},
                            {"stack_bytes", optionalInt(U.StackBytes)},
                            {"shared_bytes", optionalInt(U.SharedBytes)},
                            {"const_bytes", optionalInt(U.ConstBytes)},
                            {"local_bytes", optionalInt(U.LocalBytes)},
                            {"vgprs", optionalInt(U.VGPRs)},
                            {"sgprs", optionalInt(U.SGPRs)},
                            {"agprs", optionalInt(U.AGPRs)},
                            {"scratch_bytes", optionalInt(U.ScratchBytes)},
                            {"lds_bytes", optionalInt(U.LDSBytes)},
                            {"waves_per_simd", optionalInt(U.WavesPerSIMD)},
                            {"instructions", optionalInt(U.Instructions)},
                            {"throw_sites", optionalInt(U.ThrowSites)},
                            {"source", U.Source},
                            {"tool_ms", U.ToolMs ? llvm::json::Value(*U.ToolMs)
                                                 : llvm::json::Value(nullptr)},
                            {"note", U.Note}}}};
    printJSON(llvm::outs(), llvm::json::Value(std::move(Out)));
    return ExitOk;
  }
  llvm::outs() << R.Signature << "\n  target " << R.Target << " " << R.Arch
               << ", O" << R.OptLevel << (R.Kernel ? ", kernel" : "")
               << (R.Bounds == CheckBounds::Auto
                       ? std::string()
                       : std::string(", check-bounds=") +
                             checkBoundsName(R.Bounds))
               << ", entry " << R.EntryName
               << (EntrySymbol == R.EntryName
                       ? std::string()
                       : " (" + EntrySymbol + " in the assembly)")
               << ", world " << R.World << "\n\n";
  llvm::outs() << llvm::formatv("  {0,-10} {1,10} {2,10} {3,12} {4,8}\n",
                                "stage", "time ms", "allocs", "alloc bytes",
                                "lines");
  for (Stage S : Order) {
    const StageOutput &Out = R.stage(S);
    if (!Out.Present)
      continue;
    llvm::outs() << llvm::formatv(
        "  {0,-10} {1,10:f3} {2,10} {3,12} {4,8}\n", stageName(S),
        Out.Measure.WallMs, Out.Measure.Allocs.Count, Out.Measure.Allocs.Bytes,
        std::count(Out.Text.begin(), Out.Text.end(), '\n'));
  }
  llvm::outs() << "\n  passes that changed the IR: " << R.Passes.size() << "\n";
  llvm::outs() << "  optimisation remarks: " << summarizeRemarks(R.Remarks)
               << " (prism remarks lists them)\n";
  // The target's word for its warps: "wavefront" on gcn.
  std::string Warp = "warp";
  if (auto T = lookupTarget(R.Target)) {
    if (std::optional<WarpModel> M = (*T)->warpModel(R.Arch))
      Warp = M->Warp;
  } else {
    llvm::consumeError(T.takeError());
  }
  if (AccessCounts A = countAccessRemarks(R.Remarks); A.total())
    llvm::outs() << llvm::formatv(
        "  memory accesses of a {5}: global {0} coalesced, {1} uncoalesced; "
        "shared {2} conflict-free, {3} with bank conflicts; {4} with a "
        "run-time stride{6} (prism remarks --pass prism-access)\n",
        A.Coalesced, A.Uncoalesced, A.ConflictFree, A.BankConflicts,
        A.RuntimeStride, Warp,
        A.Broadcast ? llvm::formatv("; {0} broadcast{1}", A.Broadcast,
                                    A.Broadcast == 1 ? "" : "s")
                          .str()
                    : std::string());
  if (BranchCounts B = countBranchRemarks(R.Remarks); B.total()) {
    llvm::outs() << llvm::formatv(
        "  branches on the thread index: {0} divergent in every {6}, {1} in "
        "some {6}s, {2} at a run-time bound, {3} {6}-uniform, {4} on loaded "
        "data, {5} not evaluated (prism remarks --pass prism-divergence)\n",
        B.Divergent, B.PartlyDivergent, B.Boundary, B.WarpUniform,
        B.DataDependent, B.Unknown, Warp);
  }
  if (ArithmeticCounts A = countArithmeticRemarks(R.Remarks); A.total())
    llvm::outs() << llvm::formatv(
        "  costly arithmetic: {0} conversion{2} into or out of Float64, {1} "
        "64-bit division{3} by a variable (prism remarks --pass prism-arith)\n",
        A.Float64, A.WideDivisions, A.Float64 == 1 ? "" : "s",
        A.WideDivisions == 1 ? "" : "s");
  llvm::outs() << "  peak memory (RSS) of this process: "
               << llvm::formatv("{0:f1}", double(peakRssKiB()) / 1024) << " MiB\n";
  auto Fig = [](const char *Name, const std::optional<int> &V) {
    if (V)
      llvm::outs() << llvm::formatv("  {0,-14} {1}\n", Name, *V);
  };
  std::string From = U.Source;
  if (U.ToolMs)
    From += llvm::formatv(", {0:f1} ms", *U.ToolMs).str();
  llvm::outs() << "\n  resources" << (From.empty() ? "" : " (" + From + ")")
               << ":\n";
  Fig("registers", U.Registers);
  if (U.Spills && U.SpillLoads)
    llvm::outs() << llvm::formatv("  {0,-14} {1} bytes stored, {2} loaded\n",
                                  "spills", *U.Spills, *U.SpillLoads);
  else
    Fig("spills", U.Spills);
  Fig("stack bytes", U.StackBytes);
  if (!U.LDSBytes) // gcn's LDS bytes are the same figure, from the assembler
    Fig("shared bytes", U.SharedBytes);
  Fig("const bytes", U.ConstBytes);
  Fig("local bytes", U.LocalBytes);
  Fig("VGPRs", U.VGPRs);
  Fig("SGPRs", U.SGPRs);
  if (U.AGPRs && *U.AGPRs > 0) // only kernels with MFMA use them
    Fig("AGPRs", U.AGPRs);
  Fig("scratch bytes", U.ScratchBytes);
  Fig("LDS bytes", U.LDSBytes);
  Fig("waves/SIMD", U.WavesPerSIMD);
  Fig("instructions", U.Instructions);
  if (U.ThrowSites && *U.ThrowSites > 0 && R.Kernel &&
      (R.Target == "ptx" || R.Target == "gcn"))
    llvm::outs() << llvm::formatv(
        "  {0,-14} {1} (prism remarks --pass prism-throw lists them)\n",
        "throw sites", *U.ThrowSites);
  else
    Fig("throw sites", U.ThrowSites);
  if (!U.Note.empty())
    llvm::outs() << "  note: " << U.Note << "\n";
  // Local memory is off-chip: say what puts a kernel there.
  if (std::optional<int> Local = U.StackBytes ? U.StackBytes : U.ScratchBytes;
      Local && *Local > 0)
    llvm::outs() << "  note: " << *Local << " bytes of "
                 << (U.StackBytes ? "local" : "scratch (private)")
                 << " memory per thread (off-chip, as slow as global memory "
                    "when the cache misses): "
                 << (U.Spills && *U.Spills > 0
                         ? "registers spilled there"
                         : "a tuple or struct indexed with a value known "
                           "only at run time, or a call's frame")
                 << "\n";
  printOccupancy(R, Threads, O.BlocksPerSM);

  const CacheFigures &CF = R.Cache;
  // The hits are the report's own measurement (that many lookups of the
  // compiled job, timed), not a history of this process.
  llvm::outs() << "\n  cache (one compile, then " << CF.Hits
               << " timed lookups of it):\n";
  llvm::outs() << llvm::formatv("  {0,-14} {1}\n", "hits", CF.Hits);
  llvm::outs() << llvm::formatv("  {0,-14} {1}\n", "misses", CF.Misses);
  llvm::outs() << llvm::formatv("  {0,-14} {1}\n", "compiles", CF.Compiles);
  llvm::outs() << llvm::formatv("  {0,-14} {1:f3} ms, {2} allocs{3}\n",
                                "compile", CF.LastCompileMs,
                                CF.LastCompileAllocs.Count,
                                CF.FromDisk ? " (from the disk cache)" : "");
  llvm::outs() << llvm::formatv("  {0,-14} {1:f1} ns, {2} allocs per hit\n",
                                "hit", CF.HitNs, CF.AllocsPerHit);
  if (!CF.DiskDir.empty())
    llvm::outs() << llvm::formatv("  {0,-14} {1} ({2} writes, {3} corrupt)\n",
                                  "disk", CF.DiskDir, CF.DiskWrites,
                                  CF.DiskCorrupt);
  if (!CF.DiskWriteError.empty())
    llvm::outs() << "  disk cache write error: " << CF.DiskWriteError << "\n";
  if (!CF.DiskError.empty())
    llvm::outs() << "  disk cache unavailable: " << CF.DiskError << "\n";
  return ExitOk;
}

} // namespace prism::app
