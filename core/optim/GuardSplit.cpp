// Splitting a loop at a monotone guard; see GuardSplit.h.
#include "optim/GuardSplit.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <optional>

using namespace llvm;

namespace prism {

namespace {

/// Bounds on the code this pass may add: each split copies one loop.
constexpr unsigned MaxLoopInstructions = 1000;
constexpr unsigned MaxSplitsPerFunction = 4;

/// `icmp Pred ({Start,+,1} of the loop), Bound`, the recurrence on the
/// left, deciding a branch (alone, or in an `and`/`or` of conditions, as
/// SimplifyCFG merges nested `if`s).
struct Guard {
  ICmpInst *Cmp = nullptr;
  CmpInst::Predicate Pred = CmpInst::BAD_ICMP_PREDICATE;
  const SCEV *Start = nullptr;
  const SCEV *Bound = nullptr;

  /// The outcome in the first iterations: `<`, `<=` hold while the
  /// recurrence is small; `>`, `>=` fail.
  bool firstOutcome() const {
    return ICmpInst::isLT(Pred) || ICmpInst::isLE(Pred);
  }
  /// The first outcome lasts while t < Bound - Start + adjustment():
  /// `<` and `>=` change at t = Bound - Start, `<=` and `>` one later.
  unsigned adjustment() const {
    return ICmpInst::isLE(Pred) || ICmpInst::isGT(Pred);
  }
};

/// Whether V decides a conditional branch of L other than its exit test,
/// directly or through `and`/`or` (as instructions or selects) of i1s.
bool decidesBranch(Value *V, Loop &L) {
  SmallVector<Value *, 8> Work = {V};
  SmallPtrSet<Value *, 8> Seen;
  while (!Work.empty()) {
    Value *X = Work.pop_back_val();
    if (!Seen.insert(X).second)
      continue;
    for (User *U : X->users()) {
      auto *I = dyn_cast<Instruction>(U);
      if (!I || !L.contains(I))
        continue;
      if (auto *Br = dyn_cast<BranchInst>(I)) {
        if (Br->getParent() != L.getLoopLatch())
          return true;
        continue;
      }
      if (I->getType()->isIntegerTy(1) &&
          (isa<SelectInst>(I) || I->getOpcode() == Instruction::And ||
           I->getOpcode() == Instruction::Or))
        Work.push_back(I);
    }
  }
  return false;
}

std::optional<Guard> findGuard(Loop &L, ScalarEvolution &SE) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      auto *Cmp = dyn_cast<ICmpInst>(&I);
      if (!Cmp || Cmp->isEquality() ||
          !Cmp->getOperand(0)->getType()->isIntegerTy() ||
          !decidesBranch(Cmp, L))
        continue;
      const SCEV *LHS = SE.getSCEV(Cmp->getOperand(0));
      const SCEV *RHS = SE.getSCEV(Cmp->getOperand(1));
      CmpInst::Predicate Pred = Cmp->getPredicate();
      if (!isa<SCEVAddRecExpr>(LHS)) {
        std::swap(LHS, RHS);
        Pred = CmpInst::getSwappedPredicate(Pred);
      }
      auto *AR = dyn_cast<SCEVAddRecExpr>(LHS);
      if (!AR || AR->getLoop() != &L || !AR->isAffine() ||
          !AR->getStepRecurrence(SE)->isOne())
        continue;
      // Monotone only if it cannot wrap in the compare's signedness.
      if (!(ICmpInst::isSigned(Pred) ? AR->hasNoSignedWrap()
                                     : AR->hasNoUnsignedWrap()))
        continue;
      if (!SE.isAvailableAtLoopEntry(RHS, &L) ||
          !SE.isAvailableAtLoopEntry(AR->getStart(), &L))
        continue;
      return Guard{Cmp, Pred, AR->getStart(), RHS};
    }
  return std::nullopt;
}

unsigned instructionCount(const Loop &L) {
  unsigned N = 0;
  for (const BasicBlock *BB : L.blocks())
    N += BB->size();
  return N;
}

/// The shape the split needs: an innermost loop in simplified and LCSSA
/// form (so its exit is dedicated) whose only exit is a conditional branch
/// at the latch.
bool hasSplittableShape(Loop &L, DominatorTree &DT) {
  if (!L.isInnermost() || !L.isLoopSimplifyForm() || !L.isLCSSAForm(DT) ||
      !L.isSafeToClone())
    return false;
  BasicBlock *Latch = L.getLoopLatch();
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  return L.getExitingBlock() == Latch && L.getExitBlock() && Br &&
         Br->isConditional();
}

/// Splits L at G. Before the loop: k, the number of iterations in which
/// the guard keeps its first outcome (clamped to the trip count n). The
/// loop runs those k (skipped when k = 0) with the guard folded, then a
/// copy runs the remaining n - k (skipped when k = n) with it folded the
/// other way; the copy's header phis continue from the loop's last values.
void split(Loop &L, const Guard &G, const SCEV *Taken, ScalarEvolution &SE,
           DominatorTree &DT, LoopInfo &LI) {
  Function &F = *L.getHeader()->getParent();
  LLVMContext &Ctx = F.getContext();
  BasicBlock *PH = L.getLoopPreheader();
  BasicBlock *Header = L.getHeader();
  BasicBlock *Latch = L.getLoopLatch();
  BasicBlock *Exit = L.getExitBlock();
  auto *LatchBr = cast<BranchInst>(Latch->getTerminator());

  // k = clamp(Bound - Start + adjustment, 0, n), exactly: in twice the
  // width, where neither the difference nor n = taken + 1 can overflow.
  SCEVExpander Expander(SE, F.getParent()->getDataLayout(), "guard.split");
  Instruction *At = PH->getTerminator();
  Type *CmpTy = G.Start->getType();
  Type *CountTy = Taken->getType();
  Value *Start = Expander.expandCodeFor(G.Start, CmpTy, At);
  Value *Bound = Expander.expandCodeFor(G.Bound, CmpTy, At);
  Value *TakenV = Expander.expandCodeFor(Taken, CountTy, At);
  IRBuilder<> B(At);
  // The guard may sit where the loop never goes, with operands that are
  // poison; k must still be some number, not poison.
  Start = B.CreateFreeze(Start);
  Bound = B.CreateFreeze(Bound);
  Type *WideTy = B.getIntNTy(
      2 * std::max(CmpTy->getIntegerBitWidth(), CountTy->getIntegerBitWidth()));
  bool Signed = ICmpInst::isSigned(G.Pred);
  auto Widen = [&](Value *V) {
    return Signed ? B.CreateSExt(V, WideTy) : B.CreateZExt(V, WideTy);
  };
  Value *Trips = B.CreateAdd(B.CreateZExt(TakenV, WideTy),
                             ConstantInt::get(WideTy, 1), "guard.split.n");
  Value *Diff = B.CreateAdd(B.CreateSub(Widen(Bound), Widen(Start)),
                            ConstantInt::get(WideTy, G.adjustment()));
  Value *K = B.CreateBinaryIntrinsic(
      Intrinsic::smin,
      B.CreateBinaryIntrinsic(Intrinsic::smax, Diff,
                              ConstantInt::get(WideTy, 0)),
      Trips, nullptr, "guard.split.k");
  Value *SkipFirst = B.CreateICmpEQ(K, ConstantInt::get(WideTy, 0));
  Value *RunSecond = B.CreateICmpNE(K, Trips);
  Value *LastFirst = B.CreateTrunc(B.CreateSub(K, ConstantInt::get(WideTy, 1)),
                                   CountTy, "guard.split.last");

  // The copy, between the loop and its exit.
  BasicBlock *FirstPH = SplitEdge(PH, Header, &DT, &LI);
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 16> Blocks;
  Loop *Second = cloneLoopWithPreheader(Exit, FirstPH, &L, VMap, ".split", &LI,
                                        &DT, Blocks);
  remapInstructionsInBlocks(Blocks, VMap);
  BasicBlock *SecondPH = Second->getLoopPreheader();
  BasicBlock *SecondLatch = Second->getLoopLatch();

  // Mid: where the loop ends up, through its own exit block, and where it
  // is skipped to. Each copy gets an exit of its own, so that both are
  // again in simplified, LCSSA form (a later round may split them).
  BasicBlock *FirstExit =
      BasicBlock::Create(Ctx, "guard.split.first.exit", &F, SecondPH);
  BasicBlock *Mid = BasicBlock::Create(Ctx, "guard.split.mid", &F, SecondPH);
  BasicBlock *SecondExit =
      BasicBlock::Create(Ctx, "guard.split.second.exit", &F, Exit);
  IRBuilder<> FB(FirstExit), MB(Mid), SB(SecondExit);
  for (IRBuilder<> *IB : {&FB, &MB, &SB})
    IB->SetCurrentDebugLocation(LatchBr->getDebugLoc());
  // V as seen after loop Lp, whose latch is From: through an LCSSA phi in
  // Lp's exit block B if Lp defines it.
  auto Leave = [](IRBuilder<> &B, Loop &Lp, BasicBlock *From, Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !Lp.contains(I))
      return V;
    PHINode *P = B.CreatePHI(V->getType(), 1, V->getName() + ".lcssa");
    P->addIncoming(V, From);
    return static_cast<Value *>(P);
  };
  for (PHINode &Phi : Header->phis()) {
    PHINode *Cont = MB.CreatePHI(Phi.getType(), 2, Phi.getName() + ".cont");
    Cont->addIncoming(Leave(FB, L, Latch, Phi.getIncomingValueForBlock(Latch)),
                      FirstExit);
    Cont->addIncoming(Phi.getIncomingValueForBlock(FirstPH), PH);
    cast<PHINode>(VMap[&Phi])->setIncomingValueForBlock(SecondPH, Cont);
  }
  for (PHINode &Phi : Exit->phis()) {
    int I = Phi.getBasicBlockIndex(Latch);
    Value *V = Phi.getIncomingValue(I);
    PHINode *Out = MB.CreatePHI(Phi.getType(), 2, Phi.getName() + ".first");
    Out->addIncoming(Leave(FB, L, Latch, V), FirstExit);
    // k = 0 always runs the copy, so this value is never used.
    Out->addIncoming(PoisonValue::get(Phi.getType()), PH);
    Phi.setIncomingBlock(I, Mid);
    Phi.setIncomingValue(I, Out);
    Value *Copy = VMap.lookup(V);
    if (Phi.getBasicBlockIndex(SecondLatch) >= 0)
      Phi.removeIncomingValue(SecondLatch, /*DeletePHIIfEmpty=*/false);
    Phi.addIncoming(Leave(SB, *Second, SecondLatch, Copy ? Copy : V),
                    SecondExit);
  }
  FB.CreateBr(Mid);
  MB.CreateCondBr(RunSecond, SecondPH, Exit);
  SB.CreateBr(Exit);
  SecondLatch->getTerminator()->replaceSuccessorWith(Exit, SecondExit);

  // The loop counts its iterations and leaves after the k-th.
  PHINode *T = PHINode::Create(CountTy, 2, "guard.split.t", &Header->front());
  T->addIncoming(ConstantInt::get(CountTy, 0), FirstPH);
  IRBuilder<> LB(LatchBr);
  T->addIncoming(LB.CreateNUWAdd(T, ConstantInt::get(CountTy, 1)), Latch);
  BranchInst *NewLatchBr =
      LB.CreateCondBr(LB.CreateICmpEQ(T, LastFirst), FirstExit, Header);
  NewLatchBr->copyMetadata(*LatchBr);
  LatchBr->eraseFromParent();

  Instruction *PHTerm = PH->getTerminator();
  BranchInst::Create(Mid, FirstPH, SkipFirst, PHTerm);
  PHTerm->eraseFromParent();

  // Each half knows the guard's outcome; the conditions built on it fold.
  // What a half no longer reaches goes now, so that the next round finds
  // only live guards.
  auto *SecondCmp = cast<ICmpInst>(VMap[G.Cmp]);
  replaceAndRecursivelySimplify(G.Cmp,
                                ConstantInt::getBool(Ctx, G.firstOutcome()));
  replaceAndRecursivelySimplify(SecondCmp,
                                ConstantInt::getBool(Ctx, !G.firstOutcome()));
  for (BasicBlock *BB : L.blocks())
    ConstantFoldTerminator(BB, /*DeleteDeadConditions=*/true);
  for (BasicBlock *BB : Second->blocks())
    ConstantFoldTerminator(BB, true);
  removeUnreachableBlocks(F);
}

/// Splits the first loop of F that qualifies; true if one was split.
bool splitOne(Function &F, FunctionAnalysisManager &FAM) {
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!hasSplittableShape(*L, DT) ||
        instructionCount(*L) > MaxLoopInstructions)
      continue;
    std::optional<Guard> G = findGuard(*L, SE);
    if (!G)
      continue;
    const SCEV *Taken = SE.getBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(Taken) || !Taken->getType()->isIntegerTy())
      continue;
    SCEVExpander Check(SE, F.getParent()->getDataLayout(), "guard.split");
    Instruction *At = L->getLoopPreheader()->getTerminator();
    if (!Check.isSafeToExpandAt(Taken, At) ||
        !Check.isSafeToExpandAt(G->Start, At) ||
        !Check.isSafeToExpandAt(G->Bound, At))
      continue;
    split(*L, *G, Taken, SE, DT, LI);
    return true;
  }
  return false;
}

} // namespace

PreservedAnalyses GuardSplitPass::run(Function &F,
                                      FunctionAnalysisManager &FAM) {
  if (!F.hasFnAttribute(Attr))
    return PreservedAnalyses::all();
  bool Changed = false;
  for (unsigned I = 0; I < MaxSplitsPerFunction && splitOne(F, FAM); ++I) {
    Changed = true;
    // The CFG changed under every analysis; the next round starts afresh.
    FAM.invalidate(F, PreservedAnalyses::none());
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace prism
