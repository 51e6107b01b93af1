// Narrowing 64-bit phis that only hold 32-bit values; see NarrowPhis.h.
#include "optim/NarrowPhis.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/KnownBits.h"

using namespace llvm;

namespace prism {

namespace {

constexpr unsigned WideBits = 64;
constexpr unsigned NarrowBits = 32;

/// How a phi's values fit in NarrowBits, if they do.
enum class Fit { None, Unsigned, Signed };

Fit fitOf(PHINode &P, const DataLayout &DL, AssumptionCache &AC,
          DominatorTree &DT, ScalarEvolution &SE) {
  // Known bits see through shift recurrences (`s ÷= 2` keeps the start's
  // leading zeros) and masks; SCEV bounds affine recurrences by the trip
  // count, in either signedness. Each is a proof about every value the phi
  // takes.
  KnownBits K = computeKnownBits(&P, DL, /*Depth=*/0, &AC, &P, &DT);
  if (K.countMinLeadingZeros() >= WideBits - NarrowBits)
    return Fit::Unsigned;
  const SCEV *S = SE.getSCEV(&P);
  if (SE.getUnsignedRange(S).getUnsignedMax().getActiveBits() <= NarrowBits)
    return Fit::Unsigned;
  if (SE.getSignedRange(S).getMinSignedBits() <= NarrowBits)
    return Fit::Signed;
  return Fit::None;
}

/// Replaces P by an extension of a NarrowBits phi of its truncated
/// incoming values.
void narrow(PHINode &P, Fit How) {
  Type *Narrow = Type::getIntNTy(P.getContext(), NarrowBits);
  auto *N = PHINode::Create(Narrow, P.getNumIncomingValues(),
                            P.getName() + ".narrow", &P);
  N->setDebugLoc(P.getDebugLoc());
  // A block may appear more than once (a switch's edges); a phi must then
  // take the same value from each.
  SmallDenseMap<BasicBlock *, Value *, 4> Truncated;
  for (unsigned I = 0, E = P.getNumIncomingValues(); I != E; ++I) {
    BasicBlock *From = P.getIncomingBlock(I);
    Value *&T = Truncated[From];
    if (!T) {
      IRBuilder<> B(From->getTerminator());
      T = B.CreateTrunc(P.getIncomingValue(I), Narrow);
    }
    N->addIncoming(T, From);
  }
  BasicBlock *BB = P.getParent();
  IRBuilder<> B(BB, BB->getFirstInsertionPt());
  B.SetCurrentDebugLocation(P.getDebugLoc());
  Value *Ext = How == Fit::Unsigned ? B.CreateZExt(N, P.getType())
                                    : B.CreateSExt(N, P.getType());
  Ext->takeName(&P);
  P.replaceAllUsesWith(Ext);
  P.eraseFromParent();
}

} // namespace

PreservedAnalyses NarrowPhisPass::run(Function &F,
                                      FunctionAnalysisManager &FAM) {
  auto &AC = FAM.getResult<AssumptionAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  const DataLayout &DL = F.getParent()->getDataLayout();

  // Decide for every phi on the unchanged function first: the proofs hold
  // for the values, which narrowing another phi does not change, but the
  // analyses would be stale after the first rewrite.
  SmallVector<std::pair<PHINode *, Fit>, 8> Narrowed;
  for (BasicBlock &BB : F)
    for (PHINode &P : BB.phis())
      if (P.getType()->isIntegerTy(WideBits) && !P.use_empty())
        if (Fit How = fitOf(P, DL, AC, DT, SE); How != Fit::None)
          Narrowed.push_back({&P, How});
  if (Narrowed.empty())
    return PreservedAnalyses::all();
  for (auto [P, How] : Narrowed)
    narrow(*P, How);
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace prism
