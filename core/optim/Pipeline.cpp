//===- Pipeline.cpp - New-pass-manager pipeline with per-pass snapshots ---===//
//
// Snapshots come from PassInstrumentationCallbacks: before a pass we take
// the text of the IR unit it runs on, after it we print the unit again and
// diff. Printing is the whole cost, so it is avoided where possible:
//   - The text after a pass is cached per function and is the "before" of
//     the next pass on that function. Each cached text carries the
//     fingerprint of the IR it was printed from (IRFingerprint.h), and is
//     printed afresh when the IR's fingerprint no longer matches.
//   - After a pass, the unit is printed only if the pass did not preserve
//     every analysis or the fingerprint changed. Most pass runs change
//     nothing; neither signal alone is trusted: some passes change the IR
//     while saying they preserved everything (IndVarSimplify's nsw flags,
//     Reassociate's operand order), and a hash could in principle miss a
//     change. VerifySkippedPrints checks the skips in tests.
//   - What a function's text owes to the module (attribute group and
//     metadata numbers) is outside its fingerprint: a pass that changed that
//     numbering (fingerprintModuleNumbering), a CGSCC pass that changed
//     anything (argument promotion and function attributes rewrite callers
//     elsewhere too) or a module pass that did drops every other cached
//     function text.
//   - A module pass is compared as the whole module.
// The printer writes through a buffered stream: over LLVM's unbuffered
// raw_string_ostream, each token is its own chain of virtual calls.
//
//===----------------------------------------------------------------------===//

#include "optim/Pipeline.h"

#include "optim/IRFingerprint.h"

#include "support/Diagnostic.h"
#include "support/TextDiff.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LazyCallGraph.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace llvm;
using namespace prism;

namespace {

constexpr const char *ModuleUnitName = "[module]";

/// Passes that only run other passes (managers, adaptors, wrappers, repeat
/// loops), only compute or drop analyses, or only check or print the IR.
/// Their changes are the sum of their inner passes', which are reported on
/// their own, so snapshotting them would print IR for nothing.
bool isContainerOrUtilityPass(StringRef Name) {
  return Name.contains("PassManager") || Name.contains("Adaptor") ||
         Name.contains("Wrapper") || Name.contains("RepeatedPass") ||
         Name.startswith("RequireAnalysisPass") ||
         Name.startswith("InvalidateAnalysisPass") ||
         Name == "InvalidateAllAnalysesPass" || Name == "VerifierPass" ||
         Name == "PrintModulePass" || Name == "PrintFunctionPass";
}

/// A string stream with a buffer. The IR printer writes through a
/// formatted_raw_ostream that takes its buffering from the stream it wraps;
/// over an unbuffered raw_string_ostream every token of the IR becomes its
/// own chain of virtual writes, which was a third of a snapshot's cost.
class BufferedStringStream : public raw_ostream {
public:
  explicit BufferedStringStream(std::string &Text) : Text(Text) {
    SetBufferSize(64 * 1024);
  }
  ~BufferedStringStream() override { flush(); }

private:
  std::string &Text;
  void write_impl(const char *Ptr, size_t Size) override {
    Text.append(Ptr, Size);
  }
  uint64_t current_pos() const override { return Text.size(); }
};

std::string printFunction(const Function &F) {
  std::string Text;
  {
    BufferedStringStream OS(Text);
    F.print(OS);
  }
  return Text;
}

std::string printModule(const Module &M) {
  std::string Text;
  {
    BufferedStringStream OS(Text);
    M.print(OS, nullptr);
  }
  return Text;
}

/// Everything one optimizeModule call records through the instrumentation.
/// Lives on optimizeModule's stack; the callbacks hold a pointer to it.
class PassObserver {
public:
  PassObserver(const Module &M, const OptimizeOptions &Opts)
      : M(M), Opts(Opts), ModuleNumbering(fingerprintModuleNumbering(M)) {}

  /// Registers exactly the callbacks the options need; returns how many.
  unsigned registerCallbacks(PassInstrumentationCallbacks &PIC);

  OptimizeResult takeResult() { return std::move(Result); }
  /// The first verifier failure seen with VerifyEach, if any.
  std::optional<std::string> &verifyFailure() { return VerifyFailure; }

private:
  /// Other is an IR unit we do not snapshot (a MachineFunction, should a
  /// codegen pipeline ever be instrumented through here).
  enum class UnitKind { Module, Function, SCC, Other };

  /// The printed text of a function or of the module, and the fingerprint
  /// of the IR it was printed from.
  struct UnitText {
    std::string Text;
    uint64_t Fingerprint = 0;
  };

  /// A pass that has started and not yet finished.
  struct PendingPass {
    std::string Name;
    UnitKind Kind;
    /// The functions the pass runs on (the loop's function for loop passes,
    /// the SCC's members for CGSCC passes); empty for module passes. Weak
    /// handles: the inliner deletes callees that became dead.
    SmallVector<WeakVH, 4> Functions;
    /// Their names, kept in case the pass deletes a function.
    SmallVector<std::string, 4> Names;
    /// Their texts before the pass (one for the module for module passes).
    SmallVector<UnitText, 4> Before;
    /// Another pass started inside this one: it is a container after all.
    bool HadNested = false;
  };

  const Module &M;
  const OptimizeOptions &Opts;
  OptimizeResult Result;
  std::optional<std::string> VerifyFailure;

  SmallVector<PendingPass, 4> Stack;
  /// The current text of functions whose text is known (see file comment).
  DenseMap<const Function *, UnitText> FunctionText;
  /// The text of the whole module when it was last printed.
  std::optional<UnitText> ModuleText;
  /// fingerprintModuleNumbering when the cached function texts were valid.
  uint64_t ModuleNumbering = 0;

  void beforePass(StringRef Name, Any IR);
  void afterPass(StringRef Name, const PreservedAnalyses &PA);
  void verifyAfterPass(StringRef Name, Any IR);

  const UnitText &functionText(const Function &F);
  /// With VerifySkippedPrints: prints \p F (null: the module) and notes a
  /// mismatch with \p Text, the text reused instead of that print.
  void checkReused(const std::string &Text, const Function *F, StringRef Where);
  /// The unit's text after a pass: \p Before's when the pass preserved
  /// everything and the fingerprint says the IR is as it was, else printed.
  UnitText textAfter(const PendingPass &P, const UnitText &Before,
                     const Function *F, bool AllPreserved);
  void record(unsigned Index, const std::string &Pass, std::string Function,
              std::string Before, const std::string &After);
};

unsigned PassObserver::registerCallbacks(PassInstrumentationCallbacks &PIC) {
  unsigned Count = 0;
  if (Opts.CollectSnapshots) {
    PIC.registerBeforeNonSkippedPassCallback(
        [this](StringRef Name, Any IR) { beforePass(Name, IR); });
    PIC.registerAfterPassCallback(
        [this](StringRef Name, Any IR, const PreservedAnalyses &PA) {
          afterPass(Name, PA);
        });
    // A loop that was deleted, or an SCC that was merged away: the pass
    // finished but its IR unit no longer exists. The pending entry still
    // names the functions involved, which is all afterPass needs.
    PIC.registerAfterPassInvalidatedCallback(
        [this](StringRef Name, const PreservedAnalyses &PA) {
          afterPass(Name, PA);
        });
    Count += 3;
  }
  if (Opts.VerifyEach) {
    PIC.registerAfterPassCallback(
        [this](StringRef Name, Any IR, const PreservedAnalyses &) {
          verifyAfterPass(Name, IR);
        });
    // Once the IR is broken, later passes may crash on it: skip every pass
    // that LLVM allows to be skipped and report the first failure.
    PIC.registerShouldRunOptionalPassCallback(
        [this](StringRef, Any) { return !VerifyFailure; });
    Count += 2;
  }
  if (const std::atomic<bool> *Cancel = Opts.Cancel) {
    // Most passes are optional: once cancelled the pipeline runs through
    // without doing work, which is the fastest way out of MPM.run.
    PIC.registerShouldRunOptionalPassCallback([Cancel](StringRef, Any) {
      return !Cancel->load(std::memory_order_relaxed);
    });
    Count += 1;
  }
  return Count;
}

const PassObserver::UnitText &PassObserver::functionText(const Function &F) {
  // A cached text whose fingerprint no longer matches was changed by
  // something this observer did not see change it: print it again.
  uint64_t Fingerprint = fingerprintFunction(F);
  auto [It, Inserted] = FunctionText.try_emplace(&F);
  if (Inserted || It->second.Fingerprint != Fingerprint)
    It->second = {printFunction(F), Fingerprint};
  else
    checkReused(It->second.Text, &F, "before a pass");
  return It->second;
}

void PassObserver::checkReused(const std::string &Text, const Function *F,
                               StringRef Where) {
  if (!Opts.VerifySkippedPrints)
    return;
  std::string Printed = F ? printFunction(*F) : printModule(M);
  if (Printed != Text)
    Result.SkippedPrintMismatches.push_back(
        (F ? F->getName().str() : std::string(ModuleUnitName)) + " " +
        Where.str() + ":\n" + unifiedDiff(Text, Printed, "reused", "printed"));
}

void PassObserver::beforePass(StringRef Name, Any IR) {
  if (isContainerOrUtilityPass(Name))
    return;
  for (PendingPass &P : Stack)
    P.HadNested = true;

  PendingPass P;
  P.Name = Name.str();
  SmallVector<const Function *, 4> Functions;
  if (const auto *MP = any_cast<const Module *>(&IR)) {
    assert(*MP == &M && "a pass ran on another module");
    (void)MP;
    P.Kind = UnitKind::Module;
    uint64_t Fingerprint = fingerprintModule(M);
    if (!ModuleText || ModuleText->Fingerprint != Fingerprint)
      ModuleText = UnitText{printModule(M), Fingerprint};
    else
      checkReused(ModuleText->Text, nullptr, "before " + P.Name);
    P.Before.push_back(*ModuleText);
  } else if (const auto *FP = any_cast<const Function *>(&IR)) {
    P.Kind = UnitKind::Function;
    Functions.push_back(*FP);
  } else if (const auto *LP = any_cast<const Loop *>(&IR)) {
    // A loop is shown as its whole function: a loop's blocks alone do not
    // read as IR, and preheaders/exits outside the loop change too.
    P.Kind = UnitKind::Function;
    Functions.push_back((*LP)->getHeader()->getParent());
  } else if (const auto *CP = any_cast<const LazyCallGraph::SCC *>(&IR)) {
    P.Kind = UnitKind::SCC;
    for (const LazyCallGraph::Node &N : **CP)
      Functions.push_back(&N.getFunction());
  } else {
    // Still pushed, so that its "after" callback finds its own entry.
    P.Kind = UnitKind::Other;
  }
  for (const Function *F : Functions) {
    P.Functions.emplace_back(const_cast<Function *>(F));
    P.Names.push_back(F->getName().str());
    P.Before.push_back(functionText(*F));
  }
  Stack.push_back(std::move(P));
}

PassObserver::UnitText PassObserver::textAfter(const PendingPass &P,
                                               const UnitText &Before,
                                               const Function *F,
                                               bool AllPreserved) {
  uint64_t Fingerprint = F ? fingerprintFunction(*F) : fingerprintModule(M);
  // A pass's word that it preserved every analysis is not enough alone:
  // IndVarSimplify adds nsw flags and Reassociate swaps operands while
  // saying so. Both must agree before the print is skipped.
  if (!AllPreserved || Fingerprint != Before.Fingerprint)
    return {F ? printFunction(*F) : printModule(M), Fingerprint};
  ++Result.PrintsSkipped;
  checkReused(Before.Text, F, "after " + P.Name);
  return Before;
}

void PassObserver::afterPass(StringRef Name, const PreservedAnalyses &PA) {
  if (isContainerOrUtilityPass(Name) || Stack.empty())
    return;
  // Only passes we pushed come back here: the filter above is the same, and
  // LLVM calls an "after" callback only for passes whose "before" ran.
  assert(Stack.back().Name == Name && "unbalanced pass instrumentation");
  PendingPass P = Stack.pop_back_val();
  if (P.HadNested || P.Kind == UnitKind::Other)
    return; // A wrapper (its inner passes were recorded one by one), or a
            // unit we do not show.

  unsigned Index = Result.PassesRun++;
  bool AllPreserved = PA.areAllPreserved();
  switch (P.Kind) {
  case UnitKind::Module: {
    UnitText After = textAfter(P, P.Before.front(), nullptr, AllPreserved);
    if (After.Text != P.Before.front().Text) {
      FunctionText.clear();
      ModuleNumbering = fingerprintModuleNumbering(M);
    }
    record(Index, P.Name, ModuleUnitName, std::move(P.Before.front().Text),
           After.Text);
    ModuleText = std::move(After);
    return;
  }
  case UnitKind::Function:
  case UnitKind::SCC: {
    // A CGSCC pass may have deleted functions of its SCC (the inliner
    // removes callees that became dead): their handles are null now.
    bool AnyChanged = false;
    DenseMap<const Function *, UnitText> NewTexts;
    for (size_t I = 0; I < P.Functions.size(); ++I) {
      const auto *F = cast_or_null<Function>(P.Functions[I]);
      // A deleted function reads as a diff that removes all of it.
      UnitText After =
          F ? textAfter(P, P.Before[I], F, AllPreserved) : UnitText();
      AnyChanged |= After.Text != P.Before[I].Text;
      record(Index, P.Name, std::move(P.Names[I]), std::move(P.Before[I].Text),
             After.Text);
      if (F)
        NewTexts[F] = std::move(After);
    }
    // Some CGSCC passes (argument promotion, function attributes) also
    // rewrite callers outside the SCC: when one changed anything, no other
    // cached text is trusted. Nor when the numbering every function's text
    // shares changed (a pass that calls a new intrinsic declares it, and
    // its attributes shift every `#N` attribute group after it).
    bool NumberingChanged = false;
    if (AnyChanged) {
      uint64_t Numbering = fingerprintModuleNumbering(M);
      NumberingChanged = Numbering != ModuleNumbering;
      ModuleNumbering = Numbering;
    }
    if ((AnyChanged && P.Kind == UnitKind::SCC) || NumberingChanged)
      FunctionText = std::move(NewTexts);
    else
      for (auto &[F, Text] : NewTexts)
        FunctionText[F] = std::move(Text);
    return;
  }
  case UnitKind::Other:
    llvm_unreachable("returned above");
  }
}

void PassObserver::record(unsigned Index, const std::string &Pass,
                          std::string Function, std::string Before,
                          const std::string &After) {
  bool Changed = Before != After;
  if (!Changed && !Opts.KeepUnchanged)
    return;
  PassSnapshot S;
  S.Index = Index;
  S.Pass = Pass;
  S.Function = std::move(Function);
  S.Changed = Changed;
  // A pass that changed nothing keeps no text: the IR is the one the
  // previous change left, and most pass runs are such (thousands of copies
  // of a function's text for a large program).
  if (Changed) {
    S.Diff = unifiedDiff(Before, After, "before " + Pass, "after " + Pass);
    S.Before = std::move(Before);
    S.After = After;
  }
  Result.Snapshots.push_back(std::move(S));
}

void PassObserver::verifyAfterPass(StringRef Name, Any IR) {
  if (VerifyFailure || isContainerOrUtilityPass(Name))
    return;
  // Without snapshots nothing else counts passes.
  if (!Opts.CollectSnapshots)
    ++Result.PassesRun;
  std::string Message;
  raw_string_ostream OS(Message);
  bool Broken = false;
  std::string Unit;
  auto verifyFn = [&](const Function &F) {
    if (verifyFunction(F, &OS)) {
      Broken = true;
      Unit = F.getName().str();
    }
  };
  if (const auto *MP = any_cast<const Module *>(&IR)) {
    Broken = verifyModule(**MP, &OS);
    Unit = ModuleUnitName;
  } else if (const auto *FP = any_cast<const Function *>(&IR)) {
    verifyFn(**FP);
  } else if (const auto *LP = any_cast<const Loop *>(&IR)) {
    verifyFn(*(*LP)->getHeader()->getParent());
  } else if (const auto *CP = any_cast<const LazyCallGraph::SCC *>(&IR)) {
    for (const LazyCallGraph::Node &N : **CP)
      verifyFn(N.getFunction());
  }
  if (Broken)
    VerifyFailure = "after " + Name.str() + " on " + Unit + ":\n" + Message;
}

OptimizationLevel toLevel(unsigned OptLevel) {
  switch (OptLevel) {
  case 0:
    return OptimizationLevel::O0;
  case 1:
    return OptimizationLevel::O1;
  case 2:
    return OptimizationLevel::O2;
  default:
    return OptimizationLevel::O3;
  }
}

Error invalidIR(std::string Message) {
  return makeDiagError(Diagnostic::error("invalid-ir", std::move(Message), {}));
}

/// The verifier's report on \p M, or nothing when it is valid.
std::optional<std::string> verifierMessage(const Module &M) {
  std::string Message;
  raw_string_ostream OS(Message);
  if (!verifyModule(M, &OS))
    return std::nullopt;
  OS.flush();
  while (!Message.empty() && Message.back() == '\n')
    Message.pop_back();
  return Message;
}

} // namespace

Error prism::verifyModuleOrError(const Module &M) {
  if (std::optional<std::string> Message = verifierMessage(M))
    return invalidIR("LLVM module '" + M.getModuleIdentifier() +
                     "' failed verification:\n" + *Message);
  return Error::success();
}

Expected<OptimizeResult> prism::optimizeModule(Module &M, TargetMachine *TM,
                                               const OptimizeOptions &Opts) {
  if (Opts.OptLevel > 3)
    return makeDiagError(Diagnostic::error("invalid-option",
                                           "optimisation level " +
                                               std::to_string(Opts.OptLevel) +
                                               " does not exist (use 0 to 3)",
                                           {}));
  if (!Opts.InputVerified)
    if (Error E = verifyModuleOrError(M))
      return E;

  // Declaration order matters: the analysis managers refer to the
  // instrumentation, and are torn down before it (reverse order).
  PassInstrumentationCallbacks PIC;
  PassObserver Observer(M, Opts);
  unsigned Callbacks = Observer.registerCallbacks(PIC);

  // Without callbacks the pass builder gets no instrumentation at all, so
  // that a pipeline without snapshots pays nothing for them.
  PassBuilder PB(TM, PipelineTuningOptions(), std::nullopt,
                 Callbacks ? &PIC : nullptr);
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);

  // The target's hook registers its extension-point callbacks; it must run
  // before the pipeline is built, which is when those callbacks fire.
  if (Opts.TuneHook)
    Opts.TuneHook(PB);

  OptimizationLevel Level = toLevel(Opts.OptLevel);
  ModulePassManager MPM = Level == OptimizationLevel::O0
                              ? PB.buildO0DefaultPipeline(Level)
                              : PB.buildPerModuleDefaultPipeline(Level);
  MPM.run(M, MAM);
  if (Opts.Cancel && Opts.Cancel->load(std::memory_order_relaxed))
    return makeDiagError(Diagnostic::error(
        "cancelled", "the compile was cancelled (a newer edit replaced it)", {}));

  // Invalid IR after the pipeline is an LLVM (or target hook) bug, but it
  // is still reported rather than handed to a backend that would abort.
  if (std::optional<std::string> &Failure = Observer.verifyFailure())
    return invalidIR("LLVM IR became invalid " + *Failure);
  if (std::optional<std::string> Message = verifierMessage(M))
    return invalidIR("LLVM IR became invalid during optimisation:\n" +
                     *Message);

  OptimizeResult Result = Observer.takeResult();
  Result.InstrumentationCallbacks = Callbacks;
  return Result;
}
