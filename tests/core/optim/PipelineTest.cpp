#include "core/optim/ParseIR.h"

#include "optim/Pipeline.h"
#include "optim/LLVMInit.h"

#include "support/Diagnostic.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Host.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

#include <gtest/gtest.h>

#include <atomic>

#include <chrono>
#include <map>

using namespace prism;
using namespace llvm;

namespace {

/// A function as a frontend emits it at -O0: every local in an alloca.
constexpr const char *AllocaIR = R"IR(
define i32 @sum(i32 %a, i32 %b) {
entry:
  %x = alloca i32, align 4
  %y = alloca i32, align 4
  store i32 %a, ptr %x, align 4
  store i32 %b, ptr %y, align 4
  %0 = load i32, ptr %x, align 4
  %1 = load i32, ptr %y, align 4
  %add = add nsw i32 %0, %1
  ret i32 %add
}
)IR";

/// saxpy the way Prism's emitter produces it before optimisation: locals
/// in allocas, a top-tested loop, a redundant jump into the loop.
constexpr const char *SaxpyIR = R"IR(
define void @saxpy(i64 %n, float %a, ptr noalias %x, ptr noalias %y) {
entry:
  %i = alloca i64, align 8
  store i64 0, ptr %i, align 8
  br label %cond

cond:
  %iv = load i64, ptr %i, align 8
  %more = icmp slt i64 %iv, %n
  br i1 %more, label %body, label %exit

body:
  %iv2 = load i64, ptr %i, align 8
  %px = getelementptr inbounds float, ptr %x, i64 %iv2
  %vx = load float, ptr %px, align 4
  %py = getelementptr inbounds float, ptr %y, i64 %iv2
  %vy = load float, ptr %py, align 4
  %mul = fmul float %a, %vx
  %sum = fadd float %mul, %vy
  store float %sum, ptr %py, align 4
  %next = add nsw i64 %iv2, 1
  store i64 %next, ptr %i, align 8
  br label %latch

latch:
  br label %cond

exit:
  ret void
}
)IR";

/// Work for InstCombine (multiply by a power of two) and SimplifyCFG (a
/// block that only jumps on).
constexpr const char *CombineIR = R"IR(
define i32 @scale(i32 %a) {
entry:
  br label %next

next:
  %m = mul i32 %a, 8
  ret i32 %m
}
)IR";

/// A caller and an internal callee: the inliner and the module passes
/// (GlobalDCE, function attributes) all have work.
constexpr const char *CallIR = R"IR(
define internal i32 @helper(i32 %v) {
  %t = alloca i32, align 4
  store i32 %v, ptr %t, align 4
  %l = load i32, ptr %t, align 4
  %r = mul i32 %l, 3
  ret i32 %r
}

define i32 @caller(i32 %a) {
  %c = call i32 @helper(i32 %a)
  %d = add i32 %c, 1
  ret i32 %d
}
)IR";

/// Debian ships LLVM's Testing/Support headers without their library, so the
/// EXPECT_THAT_EXPECTED matchers are unavailable; these stand in for them.
#define ASSERT_OK(Exp) ASSERT_TRUE(bool(Exp)) << errorText((Exp).takeError())
#define EXPECT_OK(Exp) EXPECT_TRUE(bool(Exp)) << errorText((Exp).takeError())

/// The messages of an error's diagnostics, one per line; consumes it.
std::string errorText(Error E) {
  std::string Text;
  for (const Diagnostic &D : takeDiagnostics(std::move(E)))
    Text += D.Message + "\n";
  return Text;
}

std::string print(const Module &M) {
  std::string Text;
  raw_string_ostream OS(Text);
  M.print(OS, nullptr);
  return Text;
}

OptimizeOptions withSnapshots(unsigned OptLevel = 2) {
  OptimizeOptions Opts;
  Opts.OptLevel = OptLevel;
  Opts.CollectSnapshots = true;
  return Opts;
}

const PassSnapshot *findPass(const OptimizeResult &R, StringRef Pass,
                             StringRef Function = "") {
  for (const PassSnapshot &S : R.Snapshots)
    if (S.Pass == Pass && (Function.empty() || S.Function == Function))
      return &S;
  return nullptr;
}

std::string passList(const OptimizeResult &R) {
  std::string S;
  for (const PassSnapshot &P : R.Snapshots)
    S += std::to_string(P.Index) + " " + P.Pass + " " + P.Function + "\n";
  return S;
}

double millisecondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - Start)
      .count();
}

} // namespace

TEST(Pipeline, O2RemovesAllocasAndSnapshotShowsSROA) {
  LLVMContext Ctx;
  auto M = prism::test::parseIR(Ctx, AllocaIR);
  ASSERT_TRUE(M);
  Expected<OptimizeResult> R = optimizeModule(*M, nullptr, withSnapshots());
  ASSERT_OK(R);

  std::string After = print(*M);
  EXPECT_EQ(After.find("alloca"), std::string::npos) << After;
  EXPECT_NE(After.find("= add nsw i32 %"), std::string::npos) << After;

  const PassSnapshot *SROA = findPass(*R, "SROAPass", "sum");
  ASSERT_NE(SROA, nullptr) << passList(*R);
  EXPECT_TRUE(SROA->Changed);
  EXPECT_NE(SROA->Diff.find("\n-  %x = alloca i32, align 4\n"),
            std::string::npos)
      << SROA->Diff;
  EXPECT_NE(SROA->Before.find("alloca"), std::string::npos);
  EXPECT_EQ(SROA->After.find("alloca"), std::string::npos);
  EXPECT_NE(SROA->Before.find("define i32 @sum"), std::string::npos)
      << SROA->Before;
  // The first pass to touch the allocas is the one credited with them.
  for (const PassSnapshot &S : R->Snapshots) {
    if (&S == SROA)
      break;
    EXPECT_NE(S.After.find("alloca"), std::string::npos)
        << S.Pass << " removed the allocas before SROA";
  }
}

TEST(Pipeline, SnapshotsAreOrderedAndSkipContainers) {
  LLVMContext Ctx;
  auto M = prism::test::parseIR(Ctx, SaxpyIR);
  ASSERT_TRUE(M);
  Expected<OptimizeResult> R = optimizeModule(*M, nullptr, withSnapshots());
  ASSERT_OK(R);
  ASSERT_FALSE(R->Snapshots.empty());
  EXPECT_GT(R->PassesRun, R->Snapshots.size());
  EXPECT_EQ(R->InstrumentationCallbacks, 3u);

  unsigned Last = 0;
  for (const PassSnapshot &S : R->Snapshots) {
    EXPECT_GE(S.Index, Last);
    Last = S.Index;
    EXPECT_LT(S.Index, R->PassesRun);
    EXPECT_TRUE(S.Changed);
    EXPECT_FALSE(S.Diff.empty()) << S.Pass;
    EXPECT_EQ(S.Diff.rfind("--- before " + S.Pass + "\n", 0), 0u) << S.Diff;
    EXPECT_EQ(S.Pass.find("PassManager"), std::string::npos) << S.Pass;
    EXPECT_EQ(S.Pass.find("Adaptor"), std::string::npos) << S.Pass;
    EXPECT_NE(S.Pass, "VerifierPass");
    EXPECT_NE(S.Pass, "ModuleInlinerWrapperPass");
  }
}

TEST(Pipeline, LoopPassesShowTheWholeFunction) {
  LLVMContext Ctx;
  auto M = prism::test::parseIR(Ctx, SaxpyIR);
  ASSERT_TRUE(M);
  Expected<OptimizeResult> R = optimizeModule(*M, nullptr, withSnapshots());
  ASSERT_OK(R);
  const PassSnapshot *Rotate = findPass(*R, "LoopRotatePass", "saxpy");
  ASSERT_NE(Rotate, nullptr) << passList(*R);
  EXPECT_NE(Rotate->Before.find("define void @saxpy"), std::string::npos)
      << Rotate->Before;
  EXPECT_NE(Rotate->After.find("ret void"), std::string::npos);
}

TEST(Pipeline, PassesThatDeleteTheirLoopAreRecorded) {
  // A loop with no effect is deleted, and a short constant-trip loop is
  // fully unrolled: LLVM then reports "the unit was invalidated" instead of
  // handing the loop back, and the snapshot must come from the function.
  LLVMContext Ctx;
  auto M = prism::test::parseIR(Ctx, R"IR(
define i32 @dead(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %i1 = add nuw nsw i32 %i, 1
  %c = icmp ult i32 %i1, 100
  br i1 %c, label %loop, label %exit
exit:
  ret i32 %n
}

define void @unroll(ptr %p) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %q = getelementptr inbounds i32, ptr %p, i64 %i
  store i32 7, ptr %q, align 4
  %i1 = add nuw nsw i64 %i, 1
  %c = icmp ult i64 %i1, 4
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
)IR");
  ASSERT_TRUE(M);
  Expected<OptimizeResult> R = optimizeModule(*M, nullptr, withSnapshots());
  ASSERT_OK(R);
  EXPECT_EQ(print(*M).find("phi"), std::string::npos) << print(*M);
  for (std::string Fn : {"dead", "unroll"}) {
    bool LoopRemoved = false;
    for (const PassSnapshot &S : R->Snapshots)
      LoopRemoved |= S.Function == Fn &&
                     S.Before.find("phi") != std::string::npos &&
                     S.After.find("phi") == std::string::npos;
    EXPECT_TRUE(LoopRemoved) << Fn << "\n" << passList(*R);
  }
}

TEST(Pipeline, InstCombineAndSimplifyCFGAppear) {
  LLVMContext Ctx;
  auto M = prism::test::parseIR(Ctx, CombineIR);
  ASSERT_TRUE(M);
  Expected<OptimizeResult> R = optimizeModule(*M, nullptr, withSnapshots());
  ASSERT_OK(R);

  const PassSnapshot *CFG = findPass(*R, "SimplifyCFGPass", "scale");
  ASSERT_NE(CFG, nullptr) << passList(*R);
  EXPECT_NE(CFG->Diff.find("\n-  br label %next\n"), std::string::npos)
      << CFG->Diff;

  const PassSnapshot *Combine = findPass(*R, "InstCombinePass", "scale");
  ASSERT_NE(Combine, nullptr) << passList(*R);
  EXPECT_NE(Combine->Diff.find("\n-  %m = mul i32 %a, 8\n"), std::string::npos)
      << Combine->Diff;
  EXPECT_NE(Combine->Diff.find("shl i32 %a, 3"), std::string::npos)
      << Combine->Diff;
}

TEST(Pipeline, CachedTextsChainFromPassToPass) {
  // Each function's texts are reused from pass to pass; if the reuse were
  // wrong, a "before" would differ from the previous "after" of the same
  // function. Module passes may legitimately change a function in between,
  // so the chain restarts after a module snapshot that changed something.
  LLVMContext Ctx;
  auto M = prism::test::parseIR(Ctx, CallIR);
  ASSERT_TRUE(M);
  OptimizeOptions Opts = withSnapshots();
  Opts.KeepUnchanged = true;
  Expected<OptimizeResult> R = optimizeModule(*M, nullptr, Opts);
  ASSERT_OK(R);

  bool SawUnchanged = false;
  std::map<std::string, std::string> LastAfter;
  for (const PassSnapshot &S : R->Snapshots) {
    SawUnchanged |= !S.Changed;
    if (!S.Changed) {
      // An unchanged pass keeps no text; the chain goes on past it.
      EXPECT_TRUE(S.Before.empty() && S.After.empty()) << S.Pass;
      EXPECT_TRUE(S.Diff.empty());
      continue;
    }
    if (S.Function == "[module]") {
      if (S.Changed)
        LastAfter.clear();
      continue;
    }
    auto It = LastAfter.find(S.Function);
    if (It != LastAfter.end()) {
      EXPECT_EQ(S.Before, It->second)
          << "stale text of " << S.Function << " before " << S.Pass << " ("
          << S.Index << ")";
    }
    LastAfter[S.Function] = S.After;
  }
  EXPECT_TRUE(SawUnchanged);
  // With unchanged passes kept, every pass run has a snapshot.
  EXPECT_GE(R->Snapshots.size(), R->PassesRun);
  // The inliner shows up with the caller, and helper is gone at the end.
  EXPECT_NE(findPass(*R, "InlinerPass", "caller"), nullptr) << passList(*R);
  EXPECT_EQ(print(*M).find("@helper"), std::string::npos) << print(*M);
}

TEST(Pipeline, DisabledSnapshotsRegisterNoCallbacks) {
  LLVMContext Ctx;
  auto M = prism::test::parseIR(Ctx, AllocaIR);
  ASSERT_TRUE(M);
  OptimizeOptions Opts;
  Opts.OptLevel = 2;
  Expected<OptimizeResult> R = optimizeModule(*M, nullptr, Opts);
  ASSERT_OK(R);
  EXPECT_TRUE(R->Snapshots.empty());
  EXPECT_EQ(R->InstrumentationCallbacks, 0u);
  EXPECT_EQ(R->PassesRun, 0u);
  EXPECT_EQ(print(*M).find("alloca"), std::string::npos);
}

TEST(Pipeline, VerifyEachOnValidIR) {
  LLVMContext Ctx;
  auto M = prism::test::parseIR(Ctx, SaxpyIR);
  ASSERT_TRUE(M);
  OptimizeOptions Opts;
  Opts.VerifyEach = true;
  Expected<OptimizeResult> R = optimizeModule(*M, nullptr, Opts);
  ASSERT_OK(R);
  EXPECT_EQ(R->InstrumentationCallbacks, 2u);
  EXPECT_GT(R->PassesRun, 50u);
  EXPECT_TRUE(R->Snapshots.empty());
}

TEST(Pipeline, InvalidModuleIsAnErrorNotAnAbort) {
  LLVMContext Ctx;
  Module M("bad", Ctx);
  IRBuilder<> B(Ctx);
  Function *F = Function::Create(
      FunctionType::get(B.getInt32Ty(), {B.getInt32Ty()}, false),
      GlobalValue::ExternalLinkage, "f", M);
  B.SetInsertPoint(BasicBlock::Create(Ctx, "entry", F));
  // %y uses %x, which is only defined after it.
  Instruction *X = BinaryOperator::CreateAdd(F->getArg(0), B.getInt32(1), "x");
  Value *Y = B.CreateAdd(X, B.getInt32(2), "y");
  B.Insert(X);
  B.CreateRet(Y);

  EXPECT_NE(errorText(verifyModuleOrError(M))
                .find("Instruction does not dominate all uses!"),
            std::string::npos);

  Expected<OptimizeResult> R = optimizeModule(M, nullptr, withSnapshots());
  ASSERT_FALSE(bool(R));
  std::vector<Diagnostic> Diags = takeDiagnostics(R.takeError());
  ASSERT_EQ(Diags.size(), 1u);
  EXPECT_EQ(Diags[0].Kind, "invalid-ir");
  EXPECT_NE(Diags[0].Message.find("Instruction does not dominate all uses!"),
            std::string::npos)
      << Diags[0].Message;
  EXPECT_NE(Diags[0].Message.find("'bad'"), std::string::npos);
}

TEST(Pipeline, ValidModuleVerifies) {
  LLVMContext Ctx;
  auto M = prism::test::parseIR(Ctx, AllocaIR);
  ASSERT_TRUE(M);
  EXPECT_EQ(errorText(verifyModuleOrError(*M)), "");
}

TEST(Pipeline, O0KeepsAllocas) {
  LLVMContext Ctx;
  auto M = prism::test::parseIR(Ctx, AllocaIR);
  ASSERT_TRUE(M);
  Expected<OptimizeResult> R = optimizeModule(*M, nullptr, withSnapshots(0));
  ASSERT_OK(R);
  EXPECT_NE(print(*M).find("%x = alloca i32"), std::string::npos);
  EXPECT_EQ(findPass(*R, "SROAPass"), nullptr) << passList(*R);
}

TEST(Pipeline, AllLevelsRun) {
  for (unsigned Level : {0u, 1u, 2u, 3u}) {
    LLVMContext Ctx;
    auto M = prism::test::parseIR(Ctx, SaxpyIR);
    ASSERT_TRUE(M);
    Expected<OptimizeResult> R =
        optimizeModule(*M, nullptr, withSnapshots(Level));
    ASSERT_OK(R) << "O" << Level;
    EXPECT_EQ(print(*M).find("alloca") == std::string::npos, Level > 0)
        << "O" << Level;
  }
}

TEST(Pipeline, InvalidOptLevelIsAnError) {
  LLVMContext Ctx;
  auto M = prism::test::parseIR(Ctx, AllocaIR);
  ASSERT_TRUE(M);
  OptimizeOptions Opts;
  Opts.OptLevel = 4;
  Expected<OptimizeResult> R = optimizeModule(*M, nullptr, Opts);
  ASSERT_FALSE(bool(R));
  EXPECT_NE(errorText(R.takeError()).find("level 4"), std::string::npos);
}

namespace {
/// A module pass a target would add at an extension point; counts its runs.
struct CountingPass : PassInfoMixin<CountingPass> {
  int *Runs;
  explicit CountingPass(int *Runs) : Runs(Runs) {}
  PreservedAnalyses run(Module &, ModuleAnalysisManager &) {
    ++*Runs;
    return PreservedAnalyses::all();
  }
};
} // namespace

TEST(Pipeline, TuneHookRunsBeforeThePipelineIsBuilt) {
  for (unsigned Level : {0u, 2u}) {
    LLVMContext Ctx;
    auto M = prism::test::parseIR(Ctx, AllocaIR);
    ASSERT_TRUE(M);
    int HookCalls = 0, PassRuns = 0;
    OptimizeOptions Opts = withSnapshots(Level);
    Opts.TuneHook = [&](PassBuilder &PB) {
      ++HookCalls;
      PB.registerPipelineStartEPCallback(
          [&](ModulePassManager &MPM, OptimizationLevel) {
            MPM.addPass(CountingPass(&PassRuns));
          });
    };
    Expected<OptimizeResult> R = optimizeModule(*M, nullptr, Opts);
    ASSERT_OK(R);
    EXPECT_EQ(HookCalls, 1) << "O" << Level;
    EXPECT_EQ(PassRuns, 1) << "O" << Level;
  }
}

namespace {
/// Sets nsw on every add and says it preserved every analysis, as LLVM 16's
/// IndVarSimplify does when it only strengthens flags.
struct FlagsWithoutSayingSoPass : PassInfoMixin<FlagsWithoutSayingSoPass> {
  static StringRef name() { return "FlagsWithoutSayingSoPass"; }
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &) {
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (I.getOpcode() == Instruction::Add)
          I.setHasNoSignedWrap(true);
    return PreservedAnalyses::all();
  }
};
} // namespace

// A pass's PreservedAnalyses::all() does not hide its change: the print is
// skipped only when the IR's fingerprint agrees.
TEST(Pipeline, APassThatChangesTheIRWhileSayingItPreservedAllIsRecorded) {
  LLVMContext Ctx;
  auto M = prism::test::parseIR(Ctx, CallIR);
  ASSERT_TRUE(M);
  OptimizeOptions Opts = withSnapshots(1);
  Opts.VerifySkippedPrints = true;
  Opts.TuneHook = [](PassBuilder &PB) {
    PB.registerPipelineStartEPCallback(
        [](ModulePassManager &MPM, OptimizationLevel) {
          MPM.addPass(
              createModuleToFunctionPassAdaptor(FlagsWithoutSayingSoPass()));
        });
  };
  Expected<OptimizeResult> R = optimizeModule(*M, nullptr, Opts);
  ASSERT_OK(R);
  const PassSnapshot *S = findPass(*R, "FlagsWithoutSayingSoPass", "caller");
  ASSERT_NE(S, nullptr) << passList(*R);
  EXPECT_NE(S->Diff.find("+  %d = add nsw i32 %c, 1"), std::string::npos)
      << S->Diff;
  // Most pass runs change nothing and print nothing; none of those skips
  // reused a text that differs from a fresh print.
  EXPECT_GT(R->PrintsSkipped, R->Snapshots.size());
  EXPECT_TRUE(R->SkippedPrintMismatches.empty())
      << R->SkippedPrintMismatches.front();
}

TEST(Pipeline, SnapshotCostOnASaxpySizedModule) {
  auto run = [](bool Snapshots) {
    LLVMContext Ctx;
    auto M = prism::test::parseIR(Ctx, SaxpyIR);
    OptimizeOptions Opts;
    Opts.CollectSnapshots = Snapshots;
    auto Start = std::chrono::steady_clock::now();
    Expected<OptimizeResult> R = optimizeModule(*M, nullptr, Opts);
    double Ms = millisecondsSince(Start);
    EXPECT_OK(R);
    return Ms;
  };
  run(true); // Warm up LLVM's lazily built tables.
  double Best[2] = {1e9, 1e9};
  for (int I = 0; I < 5; ++I)
    for (bool Snapshots : {false, true})
      Best[Snapshots] = std::min(Best[Snapshots], run(Snapshots));
  std::printf(
      "[ timing   ] saxpy O2: %.2f ms without snapshots, %.2f ms with\n",
      Best[0], Best[1]);
  // The budget is 100 ms; a loaded CI machine gets some slack.
  EXPECT_LT(Best[1], 200.0);
}

TEST(Pipeline, HostTargetMachine) {
  initializeLLVMTargets();
  initializeLLVMTargets(); // Idempotent.
  std::string Triple = sys::getProcessTriple();
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(Triple, Err);
  if (!T)
    GTEST_SKIP() << "host target not built into this LLVM: " << Err;
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      Triple, "generic", "", TargetOptions(), std::nullopt));
  ASSERT_TRUE(TM);

  auto optimize = [&](TargetMachine *Machine) {
    LLVMContext Ctx;
    auto M = prism::test::parseIR(Ctx, SaxpyIR);
    M->setTargetTriple(Triple);
    if (Machine)
      M->setDataLayout(Machine->createDataLayout());
    Expected<OptimizeResult> R = optimizeModule(*M, Machine, withSnapshots(2));
    EXPECT_OK(R);
    return std::make_pair(
        print(*M),
        R ? findPass(*R, "LoopVectorizePass", "saxpy") != nullptr : false);
  };
  auto [WithTM, VectorizedWithTM] = optimize(TM.get());
  auto [WithoutTM, VectorizedWithoutTM] = optimize(nullptr);
  // With the target's cost model the loop vectorises to the target's vector
  // width; without a target, TTI has no vector registers.
  EXPECT_TRUE(VectorizedWithTM);
  EXPECT_NE(WithTM.find(" x float>"), std::string::npos) << WithTM;
  EXPECT_EQ(WithoutTM.find(" x float>"), std::string::npos) << WithoutTM;
  (void)VectorizedWithoutTM;
}

TEST(Pipeline, ACancelledPipelineSkipsItsPassesAndSaysSo) {
  LLVMContext Ctx;
  auto M = prism::test::parseIR(Ctx, AllocaIR);
  ASSERT_TRUE(M);
  std::atomic<bool> Cancel{true};
  OptimizeOptions Opts = withSnapshots();
  Opts.Cancel = &Cancel;
  Expected<OptimizeResult> R = optimizeModule(*M, nullptr, Opts);
  ASSERT_FALSE(static_cast<bool>(R));
  std::vector<Diagnostic> Ds = takeDiagnostics(R.takeError());
  ASSERT_EQ(Ds.size(), 1u);
  EXPECT_EQ(Ds[0].Kind, "cancelled");
  // No optional pass ran: the allocas SROA would remove are still there.
  EXPECT_NE(print(*M).find("alloca"), std::string::npos);
}
