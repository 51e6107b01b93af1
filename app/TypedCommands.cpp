// code_lowered, code_typed, code_warntype: the front half of the pipeline.
#include "Commands.h"
#include "ProgramLoader.h"

#include "infer/Inference.h"
#include "lang/AST.h"

#include "llvm/Support/raw_ostream.h"

namespace prism::app {

static std::vector<Type *> calleeAndArgs(const FunctionSpec &Spec) {
  std::vector<Type *> Sig{Spec.Func->type()};
  for (Type *T : Spec.ArgTuple->params())
    Sig.push_back(T);
  return Sig;
}

int runCodeLowered(const CommandOptions &O) {
  int RC = ExitOk;
  auto P = loadProgram(O.File, RC);
  if (!P)
    return RC;
  auto Spec = resolveSignature(*P, O.Sig, RC);
  if (!Spec)
    return RC;
  World W = P->Env->currentWorld();
  LookupResult R = Spec->Func->lookup(calleeAndArgs(*Spec), W);
  if (R.Status != LookupStatus::Found || !R.Match.M->Lowered) {
    // Inference words the no-method/ambiguity errors best; reuse it.
    InferenceEngine Engine(*P->Env);
    auto Res = Engine.inferToplevel({&*Spec, 1}, W);
    if (!Res)
      return reportError(Res.takeError());
    llvm::errs() << "prism: no lowered code for " << O.Sig << "\n";
    return ExitProgramError;
  }
  // A body with constructs the language lacks lowers to no code of what
  // was written: its errors, as compiling it would give them.
  if (const ast::FunctionDef *D = R.Match.M->Def;
      D && !D->Unsupported.empty()) {
    printDiagnostics(D->Unsupported);
    return ExitProgramError;
  }
  std::string Text = printLowered(*R.Match.M->Lowered);
  llvm::outs() << Text << (Text.empty() || Text.back() != '\n' ? "\n" : "");
  return ExitOk;
}

static int runTyped(const CommandOptions &O, bool WarnType) {
  int RC = ExitOk;
  auto P = loadProgram(O.File, RC);
  if (!P)
    return RC;
  auto Spec = resolveSignature(*P, O.Sig, RC);
  if (!Spec)
    return RC;
  InferenceEngine Engine(*P->Env, O.Bounds);
  auto Res = Engine.inferToplevel({&*Spec, 1}, P->Env->currentWorld());
  if (!Res)
    return reportError(Res.takeError());
  CodeInstance *CI = Res->Roots.front();
  TypedPrintOptions Opts;
  Opts.WarnType = WarnType;
  Opts.Color = WarnType && wantsColor(llvm::outs());
  Opts.DebugInfo = O.DebugInfo != "none";
  std::shared_ptr<const TypedCode> Code = CI->Code;
  if (!WarnType && O.Optimize == "yes")
    Code = Engine.optimizedCode(CI);
  llvm::outs() << printTyped(*CI, *Code, Opts);
  return ExitOk;
}

int runCodeTyped(const CommandOptions &O) { return runTyped(O, false); }
int runCodeWarntype(const CommandOptions &O) { return runTyped(O, true); }

} // namespace prism::app
