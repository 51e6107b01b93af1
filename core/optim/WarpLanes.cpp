#include "optim/WarpLanes.h"

#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

namespace prism {

WarpLanes::WarpLanes(llvm::Function &F, const WarpModel &Model)
    : M(Model), DL(&F.getParent()->getDataLayout()) {
  if (F.isDeclaration() ||
      M.ThreadIdx[0] == llvm::Intrinsic::not_intrinsic)
    return;
  bool Known = M.blockKnown();
  for (llvm::Instruction &I : llvm::instructions(F)) {
    const auto *II = llvm::dyn_cast<llvm::IntrinsicInst>(&I);
    if (!II) {
      if (Known && M.BlockDimRead)
        if (std::optional<unsigned> D = M.BlockDimRead(I))
          DimReads.push_back({&I, *D});
      continue;
    }
    for (unsigned D = 0; D < 3; ++D) {
      // Without the block only threadIdx().x changes within a warp.
      if (II->getIntrinsicID() == M.ThreadIdx[D] && (D == 0 || Known)) {
        Reads.push_back(&I);
        ReadDim.push_back({&I, D});
      }
      if (Known && II->getIntrinsicID() == M.BlockDim[D])
        DimReads.push_back({&I, D});
      if (II->getIntrinsicID() == M.BlockIdx[D])
        BlockReads.push_back({&I, D});
    }
  }
  if (Reads.empty())
    return;
  Lanes = Known ? std::min(M.WarpSize, M.blockThreads()) : M.WarpSize;
  Warps = Known ? (M.blockThreads() + M.WarpSize - 1) / M.WarpSize : 0;
}

void WarpLanes::bind(unsigned Warp, unsigned Lane, llvm::ValueToSCEVMapTy &Map,
                     llvm::ScalarEvolution &SE) const {
  unsigned T = Warp * M.WarpSize + Lane;
  std::array<unsigned, 3> Idx = {T, 0, 0};
  if (M.blockKnown())
    Idx = {T % M.Block[0], (T / M.Block[0]) % M.Block[1],
           T / (M.Block[0] * M.Block[1])};
  for (auto [I, D] : ReadDim)
    Map[I] = SE.getConstant(I->getType(), Idx[D]);
  for (auto [I, D] : DimReads)
    Map[I] = SE.getConstant(I->getType(), M.Block[D]);
}

void WarpLanes::bindBlock(unsigned Block, llvm::ValueToSCEVMapTy &Map,
                          llvm::ScalarEvolution &SE) const {
  for (auto [I, D] : BlockReads)
    Map[I] = SE.getConstant(I->getType(), D == 0 ? Block : 0);
}

namespace {
/// Replaces the values in a map, and folds the integer operations SCEV
/// keeps opaque (`t % (2s)`, a shift by a variable) once their operands
/// have become constants.
class LaneRewriter : public llvm::SCEVRewriteVisitor<LaneRewriter> {
public:
  LaneRewriter(llvm::ScalarEvolution &SE, const llvm::ValueToSCEVMapTy &Map,
               const llvm::DataLayout &DL)
      : SCEVRewriteVisitor(SE), Map(Map), DL(DL) {}

  const llvm::SCEV *visitUnknown(const llvm::SCEVUnknown *Expr) {
    llvm::Value *V = Expr->getValue();
    if (auto It = Map.find(V); It != Map.end())
      return It->second;
    // A freeze (instcombine's, before a division it splits) of what
    // becomes a constant is that constant.
    if (auto *Fr = llvm::dyn_cast<llvm::FreezeInst>(V);
        Fr && Depth < 8 && SE.isSCEVable(Fr->getType())) {
      ++Depth;
      const llvm::SCEV *Op = visit(SE.getSCEV(Fr->getOperand(0)));
      --Depth;
      return llvm::isa<llvm::SCEVConstant>(Op) ? Op : Expr;
    }
    auto *BO = llvm::dyn_cast<llvm::BinaryOperator>(V);
    if (!BO || Depth >= 8 || !SE.isSCEVable(BO->getType()))
      return Expr;
    ++Depth;
    const llvm::SCEV *A = visit(SE.getSCEV(BO->getOperand(0)));
    const llvm::SCEV *B = visit(SE.getSCEV(BO->getOperand(1)));
    --Depth;
    const auto *CA = llvm::dyn_cast<llvm::SCEVConstant>(A);
    const auto *CB = llvm::dyn_cast<llvm::SCEVConstant>(B);
    if (!CA || !CB)
      return Expr;
    llvm::Constant *R = llvm::ConstantFoldBinaryOpOperands(
        BO->getOpcode(), CA->getValue(), CB->getValue(), DL);
    if (auto *CI = llvm::dyn_cast_or_null<llvm::ConstantInt>(R))
      return SE.getConstant(CI);
    return Expr; // division by zero: poison
  }

  /// A loop bound to an iteration (its header block in the map): the
  /// recurrence's value there.
  const llvm::SCEV *visitAddRecExpr(const llvm::SCEVAddRecExpr *Expr) {
    auto It = Map.find(Expr->getLoop()->getHeader());
    if (It == Map.end())
      return SCEVRewriteVisitor::visitAddRecExpr(Expr);
    const llvm::SCEV *N = SE.getTruncateOrZeroExtend(
        It->second, SE.getEffectiveSCEVType(Expr->getType()));
    return visit(Expr->evaluateAtIteration(N, SE));
  }

private:
  const llvm::ValueToSCEVMapTy &Map;
  const llvm::DataLayout &DL;
  unsigned Depth = 0;
};
} // namespace

const llvm::SCEV *WarpLanes::at(const llvm::SCEV *S, unsigned Warp,
                                unsigned Lane, llvm::ScalarEvolution &SE,
                                const llvm::ValueToSCEVMapTy &Fixed) const {
  llvm::ValueToSCEVMapTy Map = Fixed;
  bind(Warp, Lane, Map, SE);
  return LaneRewriter(SE, Map, *DL).visit(S);
}

std::string WarpLanes::shape() const {
  if (!M.blockKnown())
    return "";
  std::string Block = llvm::formatv("{0}×{1}", M.Block[0], M.Block[1]);
  if (M.Block[2] > 1)
    Block += llvm::formatv("×{0}", M.Block[2]);
  else if (M.Block[1] == 1)
    Block = std::to_string(M.Block[0]) + "-thread";
  if (M.Block[0] >= Lanes)
    return ""; // as without the block
  // A width that does not divide the warp leaves its last row partial
  // (3 wide: rows of 3, 11 of them, the last with 2 lanes).
  const bool Partial = Lanes % M.Block[0] != 0;
  unsigned Y =
      std::min(M.Block[1], std::max(1u, (Lanes + M.Block[0] - 1) / M.Block[0]));
  std::string Out = llvm::formatv(
      "a {0} is {1} threadIdx().x × {2} "
      "threadIdx().y{3}",
      M.Warp, M.Block[0], Y, Partial && Y > 1 ? " (the last row partial)" : "");
  if (M.Block[0] * M.Block[1] < Lanes)
    Out += llvm::formatv(" × {0} threadIdx().z",
                         Lanes / (M.Block[0] * M.Block[1]));
  return Out + " of the " + Block + " block";
}

llvm::SmallPtrSet<const llvm::Value *, 32>
threadDependent(llvm::ArrayRef<llvm::Instruction *> Roots) {
  llvm::SmallPtrSet<const llvm::Value *, 32> Seen;
  llvm::SmallVector<const llvm::Value *, 32> Work(Roots.begin(), Roots.end());
  for (const llvm::Value *R : Roots)
    Seen.insert(R);
  while (!Work.empty()) {
    const llvm::Value *V = Work.pop_back_val();
    for (const llvm::User *U : V->users())
      if (llvm::isa<llvm::Instruction>(U) && !llvm::isa<llvm::StoreInst>(U) &&
          Seen.insert(U).second)
        Work.push_back(U);
  }
  return Seen;
}

llvm::SmallPtrSet<const llvm::Value *, 32>
loadedFromThread(const llvm::SmallPtrSetImpl<const llvm::Value *> &Dep) {
  llvm::SmallVector<llvm::Instruction *, 8> Loads;
  for (const llvm::Value *V : Dep)
    if (const auto *L = llvm::dyn_cast<llvm::LoadInst>(V))
      Loads.push_back(const_cast<llvm::LoadInst *>(L));
  return threadDependent(Loads);
}

/// What the lanes' rewriter folds once its operands are constants.
static bool foldsPerLane(const llvm::Value *V, llvm::ScalarEvolution &SE) {
  return (llvm::isa<llvm::BinaryOperator>(V) ||
          llvm::isa<llvm::FreezeInst>(V)) &&
         SE.isSCEVable(V->getType());
}

bool dependsOnLoadedData(const llvm::SCEV *S,
                         const llvm::SmallPtrSetImpl<const llvm::Value *> &Dep,
                         const llvm::DenseSet<const llvm::Value *> &Tids,
                         llvm::ScalarEvolution &SE, unsigned Depth) {
  return llvm::SCEVExprContains(S, [&](const llvm::SCEV *X) {
    const auto *U = llvm::dyn_cast<llvm::SCEVUnknown>(X);
    if (!U || !Dep.count(U->getValue()) || Tids.count(U->getValue()))
      return false;
    // An operation SCEV keeps opaque (`sdiv`, `srem`, a freeze) is a
    // function of the lane when its operands are.
    const auto *I = llvm::dyn_cast<llvm::Instruction>(U->getValue());
    if (!I || Depth >= 8 || !foldsPerLane(I, SE))
      return true;
    return llvm::any_of(I->operands(), [&](const llvm::Value *Op) {
      return !SE.isSCEVable(Op->getType()) ||
             dependsOnLoadedData(SE.getSCEV(const_cast<llvm::Value *>(Op)), Dep,
                                 Tids, SE, Depth + 1);
    });
  });
}

llvm::ValueToSCEVMapTy phisOfOneValue(llvm::Function &F,
                                      const llvm::LoopInfo &LI,
                                      llvm::ScalarEvolution &SE) {
  llvm::ValueToSCEVMapTy Map;
  for (int Round = 0; Round < 4; ++Round) {
    bool Changed = false;
    for (llvm::BasicBlock &BB : F) {
      if (LI.isLoopHeader(&BB))
        continue;
      for (llvm::PHINode &P : BB.phis()) {
        if (Map.count(&P) || !SE.isSCEVable(P.getType()))
          continue;
        const llvm::SCEV *Same = nullptr;
        for (llvm::Value *In : P.incoming_values()) {
          const llvm::SCEV *S =
              llvm::SCEVParameterRewriter::rewrite(SE.getSCEV(In), SE, Map);
          if (Same && S != Same) {
            Same = nullptr;
            break;
          }
          Same = S;
        }
        if (Same && !llvm::isa<llvm::SCEVUnknown>(Same)) {
          Map[&P] = Same;
          Changed = true;
        }
      }
    }
    if (!Changed)
      break;
  }
  return Map;
}

llvm::SmallVector<llvm::Value *, 4> loopCountersIn(const llvm::SCEV *S,
                                                   const llvm::LoopInfo &LI,
                                                   llvm::ScalarEvolution &SE) {
  llvm::SmallVector<llvm::Value *, 4> Counters;
  auto Add = [&](llvm::Value *V) {
    if (!llvm::is_contained(Counters, V))
      Counters.push_back(V);
  };
  llvm::SmallVector<std::pair<const llvm::SCEV *, unsigned>, 8> Work{{S, 0}};
  while (!Work.empty()) {
    auto [E, Depth] = Work.pop_back_val();
    llvm::SCEVExprContains(E, [&](const llvm::SCEV *X) {
      if (const auto *AR = llvm::dyn_cast<llvm::SCEVAddRecExpr>(X)) {
        Add(AR->getLoop()->getHeader());
        return false;
      }
      const auto *U = llvm::dyn_cast<llvm::SCEVUnknown>(X);
      if (!U)
        return false;
      if (auto *P = llvm::dyn_cast<llvm::PHINode>(U->getValue())) {
        if (LI.isLoopHeader(P->getParent()))
          Add(P);
      } else if (auto *I = llvm::dyn_cast<llvm::Instruction>(U->getValue());
                 I && Depth < 8 && foldsPerLane(I, SE)) {
        // An operation SCEV keeps opaque: the lanes' rewriter folds it, so
        // its counters count too.
        for (llvm::Value *Op : I->operands())
          Work.push_back({SE.getSCEV(Op), Depth + 1});
      }
      return false;
    });
  }
  return Counters;
}

std::string scevText(const llvm::SCEV *S) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  S->print(OS);
  return Out;
}

std::optional<bool> decideCondition(
    const llvm::Value *V,
    llvm::function_ref<std::optional<bool>(const llvm::ICmpInst &)> Compare,
    unsigned Depth) {
  if (const auto *K = llvm::dyn_cast<llvm::ConstantInt>(V))
    return !K->isZero();
  if (const auto *C = llvm::dyn_cast<llvm::ICmpInst>(V))
    return Compare(*C);
  const auto *I = llvm::dyn_cast<llvm::Instruction>(V);
  if (!I || Depth >= 6)
    return std::nullopt;
  auto Eval = [&](const llvm::Value *Op) {
    return decideCondition(Op, Compare, Depth + 1);
  };
  if (const auto *S = llvm::dyn_cast<llvm::SelectInst>(I)) {
    if (std::optional<bool> Cond = Eval(S->getCondition()))
      return Eval(*Cond ? S->getTrueValue() : S->getFalseValue());
    std::optional<bool> T = Eval(S->getTrueValue()),
                        F = Eval(S->getFalseValue());
    return T && F && *T == *F ? T : std::nullopt;
  }
  if (I->getOpcode() != llvm::Instruction::And &&
      I->getOpcode() != llvm::Instruction::Or &&
      I->getOpcode() != llvm::Instruction::Xor)
    return std::nullopt;
  std::optional<bool> A = Eval(I->getOperand(0)), B = Eval(I->getOperand(1));
  switch (I->getOpcode()) {
  case llvm::Instruction::And:
    if ((A && !*A) || (B && !*B))
      return false;
    return A && B ? std::optional<bool>(true) : std::nullopt;
  case llvm::Instruction::Or:
    if ((A && *A) || (B && *B))
      return true;
    return A && B ? std::optional<bool>(false) : std::nullopt;
  default:
    return A && B ? std::optional<bool>(*A != *B) : std::nullopt;
  }
}

} // namespace prism
