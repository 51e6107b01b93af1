// GuardSplitPass: a loop split at a monotone guard computes what the loop
// computed, for every compare and every place the guard can flip (before
// the loop, inside it, after it); loops it must not touch stay as they are.
#include "core/optim/ParseIR.h"
#include "core/optim/RunPass.h"

#include "optim/GuardSplit.h"
#include "optim/LLVMInit.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace llvm;

namespace {

/// `for t in 0:n-1; if GUARD; out[t] = 1`, as LLVM's loop passes leave a
/// block wrapper's thread loop (rotated, n >= 1). Guard is IR in the loop
/// header that ends in a branch to %then (write) or %latch (skip); it may
/// use %t, %a and %b. Attr: whether the function opts in.
std::string loopIR(StringRef Name, StringRef Guard, bool Attr) {
  return formatv(R"IR(
define void @{0}(i64 %a, i64 %b, i64 %n, ptr %out) {2} {{
entry:
  br label %loop
loop:
  %t = phi i64 [ 0, %entry ], [ %t.next, %latch ]
{1}
then:
  %p = getelementptr inbounds i64, ptr %out, i64 %t
  store i64 1, ptr %p, align 8
  br label %latch
latch:
  %t.next = add nuw nsw i64 %t, 1
  %done = icmp eq i64 %t.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
)IR",
                 Name, Guard, Attr ? "\"prism-split-guards\"" : "")
      .str();
}

/// The same loop with the opt-in (@split) and without (@original).
std::string splitAndOriginal(StringRef Guard) {
  return loopIR("split", Guard, true) + loopIR("original", Guard, false);
}

/// `if (a + t) PRED b`, where the add promises Flags (`nsw`, `nuw` or
/// nothing).
std::string guardedLoop(StringRef Name, StringRef Pred, StringRef Flags,
                        bool Attr = true) {
  return loopIR(Name,
                formatv("  %v = add {1} i64 %a, %t\n"
                        "  %g = icmp {0} i64 %v, %b\n"
                        "  br i1 %g, label %then, label %latch",
                        Pred, Flags)
                    .str(),
                Attr);
}

/// Runs GuardSplitPass on every function of M; the number of loops after.
unsigned splitAndCountLoops(Module &M) {
  unsigned Loops = 0;
  prism::test::runOnFunctions(
      M, prism::GuardSplitPass(), [](const Function &) { return true; },
      [&](Function &F, FunctionAnalysisManager &FAM) {
        Loops += FAM.getResult<LoopAnalysis>(F).getLoopsInPreorder().size();
      });
  return Loops;
}

/// Branches on an ordering compare: the guard (the loops' own exit tests,
/// and those the split adds, are equalities).
unsigned guardBranches(const Function &F) {
  unsigned N = 0;
  for (const BasicBlock &BB : F)
    if (auto *Br = dyn_cast<BranchInst>(BB.getTerminator()))
      if (Br->isConditional())
        if (auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition()))
          N += !Cmp->isEquality();
  return N;
}

std::string text(const Module &M) {
  std::string S;
  raw_string_ostream OS(S);
  M.print(OS, nullptr);
  return OS.str();
}

using LoopFn = void (*)(int64_t, int64_t, int64_t, int64_t *);

/// JIT-compiles M (after the pass) and checks that @split and @original
/// write the same elements for every (A, B, n) of the given ranges.
void expectSameResults(std::unique_ptr<Module> M,
                       std::unique_ptr<LLVMContext> Ctx, int64_t ALo,
                       int64_t AHi, int64_t BLo, int64_t BHi) {
  auto J = orc::LLJITBuilder().create();
  ASSERT_TRUE(!!J) << toString(J.takeError());
  ASSERT_FALSE(
      !!(*J)->addIRModule(orc::ThreadSafeModule(std::move(M), std::move(Ctx))));
  auto Split = (*J)->lookup("split");
  auto Original = (*J)->lookup("original");
  ASSERT_TRUE(Split && Original);
  auto *S = Split->toPtr<LoopFn>();
  auto *O = Original->toPtr<LoopFn>();
  for (int64_t A = ALo; A <= AHi; ++A)
    for (int64_t B = BLo; B <= BHi; ++B)
      for (int64_t N = 1; N <= 8; ++N) {
        std::vector<int64_t> Want(N, 0), Got(N, 0);
        O(A, B, N, Want.data());
        S(A, B, N, Got.data());
        ASSERT_EQ(Got, Want) << "arguments " << A << ", " << B << ", n " << N;
      }
}

struct Case {
  const char *Pred;
  const char *Flags;
};

const Case AllCompares[] = {
    {"slt", "nsw"}, {"sle", "nsw"}, {"sgt", "nsw"}, {"sge", "nsw"},
    {"ult", "nuw"}, {"ule", "nuw"}, {"ugt", "nuw"}, {"uge", "nuw"},
};

// The split and the original loop agree for every start, bound and trip
// count in a window wide enough for the guard to flip before the first
// iteration, at each iteration, after the last, and never.
TEST(GuardSplit, SplitLoopsComputeWhatTheLoopComputed) {
  prism::initializeLLVMTargets();
  for (const Case &C : AllCompares) {
    SCOPED_TRACE(C.Pred);
    auto Ctx = std::make_unique<LLVMContext>();
    std::unique_ptr<Module> M = prism::test::parseIR(
        *Ctx, guardedLoop("split", C.Pred, C.Flags) +
                  guardedLoop("original", C.Pred, C.Flags, false));
    ASSERT_TRUE(M);
    // One loop in `original` (no attribute), two in `split`.
    ASSERT_EQ(splitAndCountLoops(*M), 3u);
    EXPECT_EQ(guardBranches(*M->getFunction("split")), 0u);
    EXPECT_EQ(guardBranches(*M->getFunction("original")), 1u);

    const bool Signed = C.Pred[0] == 's';
    expectSameResults(std::move(M), std::move(Ctx), Signed ? -4 : 0, 6,
                      Signed ? -6 : 0, 14);
  }
}

// Loops the pass must leave alone: a recurrence that may wrap is not
// monotone, `==` is not a range, and functions that did not opt in.
TEST(GuardSplit, LeavesOtherLoopsAlone) {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = prism::test::parseIR(
      Ctx, guardedLoop("may_wrap", "slt", "") +
               guardedLoop("unsigned_wrap", "ult", "nsw") +
               guardedLoop("equality", "eq", "nsw") +
               guardedLoop("not_opted_in", "slt", "nsw", false));
  ASSERT_TRUE(M);
  const std::string Before = text(*M);
  EXPECT_EQ(splitAndCountLoops(*M), 4u);
  EXPECT_EQ(text(*M), Before);
}

// Nested guards (a window lo < t <= hi, inside a bound): one split per
// guard, each on the copy where the guard is still live; the dead copies
// are gone before the next round, so the loops are few and guard-free.
TEST(GuardSplit, NestedGuardsAreSplitOneAfterAnother) {
  prism::initializeLLVMTargets();
  auto Ctx = std::make_unique<LLVMContext>();
  // a < t <= b, as two nested ifs.
  std::unique_ptr<Module> M = prism::test::parseIR(
      *Ctx, splitAndOriginal(R"IR(  %above = icmp sgt i64 %t, %a
  br i1 %above, label %inside, label %latch
inside:
  %below = icmp sle i64 %t, %b
  br i1 %below, label %then, label %latch)IR"));
  ASSERT_TRUE(M);
  // [0, a] does nothing, (a, b] writes, (b, n) does nothing: three
  // loops, and the original's one.
  EXPECT_EQ(splitAndCountLoops(*M), 4u);
  EXPECT_EQ(guardBranches(*M->getFunction("split")), 0u);
  expectSameResults(std::move(M), std::move(Ctx), -3, 10, -3, 10);
}

// The same window as SimplifyCFG leaves it: one branch on a logical `or`
// of the compares (selects). Each compare is split on in turn.
TEST(GuardSplit, GuardsMergedIntoOneConditionAreSplitToo) {
  prism::initializeLLVMTargets();
  auto Ctx = std::make_unique<LLVMContext>();
  // a < t + 3 <= b, one branch on `t + 3 <= a || t + 3 > b`.
  std::unique_ptr<Module> M =
      prism::test::parseIR(*Ctx, splitAndOriginal(R"IR(  %v = add nsw i64 %t, 3
  %below = icmp sle i64 %v, %a
  %above = icmp sgt i64 %v, %b
  %out.of.window = select i1 %below, i1 true, i1 %above
  br i1 %out.of.window, label %latch, label %then)IR"));
  ASSERT_TRUE(M);
  EXPECT_EQ(splitAndCountLoops(*M), 4u);
  for (const Instruction &I : instructions(*M->getFunction("split")))
    EXPECT_FALSE(isa<SelectInst>(I)) << "a merged guard is left";
  expectSameResults(std::move(M), std::move(Ctx), -3, 12, -3, 12);
}

} // namespace
