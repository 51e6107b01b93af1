#include "optim/Divergence.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <set>

namespace prism {

namespace {

/// Warps looked at when the block shape is not given.
constexpr unsigned WarpsWithoutBlock = 8;
/// Loop iterations followed at most.
constexpr unsigned MaxIterations = 64;
/// Lane evaluations per function at most (each rewrites and folds a few
/// SCEVs, a few microseconds): beyond it branches are left unjudged.
constexpr size_t MaxEvaluations = size_t(1) << 18;

/// Whether control from BB reaches `unreachable` through unconditional
/// branches only: the throw path of a bounds check.
bool leadsToThrow(const llvm::BasicBlock *BB) {
  for (int Steps = 0; BB && Steps < 8; ++Steps) {
    const llvm::Instruction *T = BB->getTerminator();
    if (llvm::isa<llvm::UnreachableInst>(T))
      return true;
    BB = BB->getSingleSuccessor();
  }
  return false;
}

struct Analysis {
  llvm::Function &F;
  const WarpModel &M;
  WarpLanes Lanes;
  llvm::SmallPtrSet<const llvm::Value *, 32> Dep, Loaded;
  llvm::DenseSet<const llvm::Value *> Tids;
  llvm::TargetLibraryInfoImpl TLII;
  llvm::TargetLibraryInfo TLI;
  llvm::AssumptionCache AC;
  llvm::DominatorTree DT;
  llvm::LoopInfo LI;
  llvm::ScalarEvolution SE;
  llvm::ValueToSCEVMapTy SamePhis;
  size_t Evaluations = 0; ///< lanes decided so far (MaxEvaluations)

  Analysis(llvm::Function &F, const WarpModel &M)
      : F(F), M(M), Lanes(F, M),
        TLII(llvm::Triple(F.getParent()->getTargetTriple())), TLI(TLII),
        AC(F), DT(F), LI(DT), SE(F, TLI, AC, DT, LI) {
    if (Lanes.empty())
      return;
    Tids.insert(Lanes.reads().begin(), Lanes.reads().end());
    Dep = threadDependent(Lanes.reads());
    Loaded = loadedFromThread(Dep);
    SamePhis = phisOfOneValue(F, LI, SE);
  }

  const llvm::SCEV *scev(llvm::Value *V) {
    return llvm::SCEVParameterRewriter::rewrite(SE.getSCEV(V), SE, SamePhis);
  }

  /// The comparison as lane \p Lane of warp \p Warp decides it, with the
  /// loop counters in \p Fixed; none when undecided.
  std::optional<bool> decide(const llvm::ICmpInst &C, const llvm::SCEV *L,
                             const llvm::SCEV *R, unsigned Warp, unsigned Lane,
                             const llvm::ValueToSCEVMapTy &Fixed) {
    ++Evaluations;
    return SE.evaluatePredicate(C.getPredicate(),
                                Lanes.at(L, Warp, Lane, SE, Fixed),
                                Lanes.at(R, Warp, Lane, SE, Fixed));
  }

  /// The iterations of the loop whose counter is \p P, as values of P: from
  /// its start, through its step, until an exit decides to leave before or
  /// after \p At. Open when an exit could not be decided: the values are
  /// then the first iterations, if the loop runs that long.
  struct Iterations {
    std::vector<const llvm::SCEV *> Values;
    bool Open = false;
    /// Where the loop's exit depends on the thread (`for k in 1:t`): per
    /// value, per warp, the lanes still in the loop when it reaches the
    /// branch (the others left earlier and wait, masked off). Empty when
    /// every lane runs every iteration.
    std::vector<std::vector<uint64_t>> Active;
  };
  /// Warps judged, and the lanes of warp W (the last one of a block may be
  /// partial).
  unsigned warpsJudged() const {
    return Lanes.warpsPerBlock() ? Lanes.warpsPerBlock() : WarpsWithoutBlock;
  }
  /// "the block's 8 warps", or "the first 8 warps (threads 1–256; the
  /// block shape was not given)".
  std::string warpsText(unsigned Warps) const {
    if (Lanes.warpsPerBlock())
      return Warps == 1
                 ? "the block's one " + M.warps()
                 : llvm::formatv("the block's {0} {1}", Warps, M.warps(Warps))
                       .str();
    return llvm::formatv("the first {0} {1} (threads 1–{2}; the block shape "
                         "was not given)",
                         Warps, M.warps(Warps), Warps * M.WarpSize)
        .str();
  }
  unsigned lanesIn(unsigned W) const {
    unsigned InWarp = Lanes.lanes();
    if (Lanes.warpsPerBlock())
      InWarp = std::min(InWarp, M.blockThreads() - W * M.WarpSize);
    return InWarp;
  }
  Iterations iterations(llvm::PHINode *P, const llvm::Instruction *At) {
    Iterations It;
    llvm::Loop *L = LI.getLoopFor(P->getParent());
    if (!L || L->getHeader() != P->getParent() || !L->getLoopLatch() ||
        P->getNumIncomingValues() != 2)
      return It;
    llvm::BasicBlock *Latch = L->getLoopLatch();
    llvm::Value *Start = nullptr;
    for (unsigned I = 0; I < 2; ++I)
      if (!L->contains(P->getIncomingBlock(I)))
        Start = P->getIncomingValue(I);
    // A counter that starts at a different value in each thread (`for k in
    // t:n`) has no one sequence of values to follow.
    if (!Start || Dep.count(Start) || Dep.count(P))
      return It;
    const llvm::SCEV *Next = scev(P->getIncomingValueForBlock(Latch));
    const llvm::SCEV *V = Lanes.at(scev(Start), 0, 0, SE);
    // The exits, less the throws of bounds checks: a lane that reaches one
    // stops the kernel, and a lane that does not (the check sits under a
    // branch) must not be taken for one that left.
    llvm::SmallVector<llvm::BasicBlock *, 4> Exiting;
    L->getExitingBlocks(Exiting);
    llvm::erase_if(Exiting, [&](llvm::BasicBlock *E) {
      for (llvm::BasicBlock *Succ : llvm::successors(E))
        if (!L->contains(Succ) && !leadsToThrow(Succ))
          return false;
      return true;
    });
    // An exit on the thread index (`k <= t`): each lane leaves on its own
    // iteration, so the lanes are followed one by one and the loop runs
    // while any of them is in it.
    bool PerLane = false;
    for (llvm::BasicBlock *E : Exiting)
      if (const auto *Br = llvm::dyn_cast<llvm::BranchInst>(E->getTerminator());
          Br && Br->isConditional() && Dep.count(Br->getCondition()))
        PerLane = true;
    const unsigned Warps = PerLane ? warpsJudged() : 1;
    std::vector<uint64_t> InLoop(Warps, 0);
    for (unsigned W = 0; W < Warps; ++W)
      InLoop[W] = PerLane ? (lanesIn(W) >= 64 ? ~uint64_t(0)
                                              : (uint64_t(1) << lanesIn(W)) - 1)
                          : 1;
    // A lane the loop's guard sends past the loop (`for k in 1:n` with
    // n < 1 in that thread) never enters it.
    if (PerLane) {
      // The guard: the conditional branch that leads into the loop (through
      // a preheader, if there is one).
      const llvm::BasicBlock *Into = L->getHeader();
      const llvm::BasicBlock *From = L->getLoopPredecessor();
      while (From && From->getSingleSuccessor() == Into &&
             From->getSinglePredecessor()) {
        Into = From;
        From = From->getSinglePredecessor();
      }
      const auto *G =
          From ? llvm::dyn_cast<llvm::BranchInst>(From->getTerminator())
               : nullptr;
      const auto *C = G && G->isConditional()
                          ? llvm::dyn_cast<llvm::ICmpInst>(G->getCondition())
                          : nullptr;
      if (C && SE.isSCEVable(C->getOperand(0)->getType()))
        for (unsigned W = 0; W < Warps; ++W)
          for (unsigned Lane = 0; Lane < 64; ++Lane) {
            if (!(InLoop[W] >> Lane & 1))
              continue;
            std::optional<bool> Taken =
                decide(*C, scev(C->getOperand(0)), scev(C->getOperand(1)), W,
                       Lane, llvm::ValueToSCEVMapTy());
            if (!Taken)
              return It;
            if (G->getSuccessor(*Taken ? 0 : 1) != Into)
              InLoop[W] &= ~(uint64_t(1) << Lane);
          }
    }
    // Lanes leave one by one: the longest trip can be as long as a block.
    const unsigned Limit = PerLane ? 1024 : MaxIterations;
    for (unsigned I = 0; I < Limit; ++I) {
      if (!llvm::isa<llvm::SCEVConstant>(V))
        break;
      llvm::ValueToSCEVMapTy Fixed;
      Fixed[P] = V;
      // For each lane still in the loop: does an exit leave on this value,
      // and before or after the branch?
      std::vector<uint64_t> AtBranch(Warps, 0), After(Warps, 0);
      bool Undecided = false;
      for (unsigned W = 0; W < Warps && !Undecided; ++W)
        for (unsigned Lane = 0; Lane < 64 && !Undecided; ++Lane) {
          if (!(InLoop[W] >> Lane & 1))
            continue;
          std::optional<bool> LeavesBefore;
          for (llvm::BasicBlock *E : Exiting) {
            const auto *Br =
                llvm::dyn_cast<llvm::BranchInst>(E->getTerminator());
            const auto *C =
                Br && Br->isConditional()
                    ? llvm::dyn_cast<llvm::ICmpInst>(Br->getCondition())
                    : nullptr;
            std::optional<bool> Taken;
            if (C && SE.isSCEVable(C->getOperand(0)->getType()) &&
                Evaluations < MaxEvaluations)
              Taken = decide(*C, scev(C->getOperand(0)), scev(C->getOperand(1)),
                             W, Lane, Fixed);
            if (!Taken) {
              Undecided = true;
              continue;
            }
            bool Leaves = !L->contains(Br->getSuccessor(*Taken ? 0 : 1));
            if (Leaves && !LeavesBefore)
              LeavesBefore =
                  E != At->getParent() && DT.dominates(E, At->getParent());
          }
          uint64_t Bit = uint64_t(1) << Lane;
          if (!LeavesBefore || !*LeavesBefore)
            AtBranch[W] |= Bit;
          if (!LeavesBefore)
            After[W] |= Bit;
        }
      if (Undecided && PerLane)
        break; // a lane's trip count is unknown: nothing more to claim
      bool Any = false;
      for (uint64_t Mask : AtBranch)
        Any |= Mask != 0;
      if (!Any)
        return It;
      It.Values.push_back(V);
      if (PerLane)
        It.Active.push_back(AtBranch);
      InLoop = After;
      bool Stays = false;
      for (uint64_t Mask : InLoop)
        Stays |= Mask != 0;
      if (!Stays)
        return It;
      if (Undecided)
        break;
      llvm::ValueToSCEVMapTy Step;
      Step[P] = V;
      V = Lanes.at(Next, 0, 0, SE, Step);
    }
    It.Open = true;
    return It;
  }

  /// A comparison the condition is made of, with its operands' SCEVs.
  struct Leaf {
    const llvm::ICmpInst *Cmp;
    const llvm::SCEV *L, *R;
    bool Threaded; ///< depends on the thread index
  };
  /// The comparisons of a condition built with and/or/not/select (`a &&
  /// b` is a select); false when it has another kind of thread-dependent
  /// part (a float comparison, a truncation) or a comparison SCEV cannot
  /// describe.
  bool leavesOf(const llvm::Value *V, llvm::SmallVectorImpl<Leaf> &Out,
                unsigned Depth = 0) {
    if (llvm::isa<llvm::Constant>(V))
      return true;
    if (const auto *C = llvm::dyn_cast<llvm::ICmpInst>(V)) {
      if (!SE.isSCEVable(C->getOperand(0)->getType()))
        return !Dep.count(C);
      const llvm::SCEV *L = scev(C->getOperand(0)), *R = scev(C->getOperand(1));
      if (llvm::isa<llvm::SCEVCouldNotCompute>(L) ||
          llvm::isa<llvm::SCEVCouldNotCompute>(R))
        return !Dep.count(C);
      Out.push_back({C, L, R, bool(Dep.count(C))});
      return true;
    }
    const auto *I = llvm::dyn_cast<llvm::Instruction>(V);
    bool Logic = I && Depth < 6 &&
                 (llvm::isa<llvm::SelectInst>(I) ||
                  I->getOpcode() == llvm::Instruction::And ||
                  I->getOpcode() == llvm::Instruction::Or ||
                  I->getOpcode() == llvm::Instruction::Xor);
    if (!Logic)
      return !Dep.count(V); // a uniform flag is no split
    for (const llvm::Value *Op : I->operands())
      if (!leavesOf(Op, Out, Depth + 1))
        return false;
    return true;
  }
  /// The condition \p V as lane \p Lane of warp \p Warp decides it
  /// (three-valued: `false && unknown` is false).
  std::optional<bool> evaluate(const llvm::Value *V,
                               llvm::ArrayRef<Leaf> Leaves, unsigned Warp,
                               unsigned Lane,
                               const llvm::ValueToSCEVMapTy &Fixed) {
    return decideCondition(
        V, [&](const llvm::ICmpInst &C) -> std::optional<bool> {
          for (const Leaf &X : Leaves) // leavesOf made their SCEVs once
            if (X.Cmp == &C)
              return decide(C, X.L, X.R, Warp, Lane, Fixed);
          return std::nullopt;
        });
  }
  /// Whether L - R of a comparison grows or shrinks steadily with the lane
  /// (then the comparison flips at most once along a warp).
  bool monotone(const Leaf &X) {
    const llvm::SCEV *D0 = SE.getMinusSCEV(Lanes.at(X.L, 0, 0, SE),
                                           Lanes.at(X.R, 0, 0, SE));
    if (llvm::isa<llvm::SCEVCouldNotCompute>(D0))
      return false;
    int Sign = 0;
    int64_t Prev = 0;
    for (unsigned Lane = 1; Lane < Lanes.lanes(); ++Lane) {
      const llvm::SCEV *D =
          SE.getMinusSCEV(SE.getMinusSCEV(Lanes.at(X.L, 0, Lane, SE),
                                          Lanes.at(X.R, 0, Lane, SE)),
                          D0);
      const auto *K = llvm::dyn_cast<llvm::SCEVConstant>(D);
      if (!K)
        return false;
      int64_t Cur = K->getAPInt().getSExtValue();
      int S = Cur > Prev ? 1 : Cur < Prev ? -1 : 0;
      if (S && Sign && S != Sign)
        return false;
      if (S)
        Sign = S;
      Prev = Cur;
    }
    return Sign != 0;
  }

  /// An `if` without an else: every path from one side (but a throw's)
  /// reaches the other successor, so a split warp runs only the body, with
  /// the threads that skip it idle (not "both paths one after the
  /// other"). Not a loop's exit or back edge.
  bool skipsABody(const llvm::BranchInst &Br) const {
    const llvm::Loop *L = LI.getLoopFor(Br.getParent());
    for (unsigned S = 0; S < 2; ++S) {
      const llvm::BasicBlock *Join = Br.getSuccessor(S),
                             *Body = Br.getSuccessor(1 - S);
      if (Join == Body || returns(Join) ||
          (L && (!L->contains(Join) || !L->contains(Body) ||
                 Join == L->getHeader())))
        continue;
      if (rejoins(Body, Join, Br.getParent(), L))
        return true;
    }
    return false;
  }
  /// Whether BB returns at once (the function's exit, where LLVM merged
  /// every `return`).
  static bool returns(const llvm::BasicBlock *BB) {
    return llvm::isa<llvm::ReturnInst>(BB->getTerminator());
  }
  /// `if cond return end` before the rest of the kernel: one side leaves.
  /// An `if` without `else` at the kernel's end looks the same once LLVM
  /// merged the returns (the body falls into the one `ret`).
  static bool leavesEarly(const llvm::BranchInst &Br) {
    return returns(Br.getSuccessor(0)) != returns(Br.getSuccessor(1));
  }
  static bool rejoins(const llvm::BasicBlock *Body,
                      const llvm::BasicBlock *Join,
                      const llvm::BasicBlock *From, const llvm::Loop *L) {
    llvm::SmallVector<const llvm::BasicBlock *, 16> Work{Body};
    llvm::SmallPtrSet<const llvm::BasicBlock *, 16> Seen{Body};
    while (!Work.empty()) {
      const llvm::BasicBlock *BB = Work.pop_back_val();
      if (BB == From || (L && BB == L->getHeader()) ||
          llvm::isa<llvm::ReturnInst>(BB->getTerminator()))
        return false;
      for (const llvm::BasicBlock *Next : llvm::successors(BB)) {
        if (Next == Join || leadsToThrow(Next) || !Seen.insert(Next).second)
          continue;
        if (Seen.size() > 64)
          return false;
        Work.push_back(Next);
      }
    }
    return true;
  }

  /// With \p FirstBlock, the block index is fixed to the first block's
  /// (an index `i % 2` that no lane decides while the block's offset is
  /// unknown).
  BranchDivergence judge(llvm::BranchInst &Br, bool FirstBlock = false);
  BranchDivergence judgeSwitch(llvm::SwitchInst &Sw);
};

/// A switch on the thread index (LLVM's form of an if/elseif chain of
/// `m == 0`, `m == 1`, ...): how many of its ways each warp takes, lane by
/// lane. Outside loops only; a value no lane decides is left unjudged.
BranchDivergence Analysis::judgeSwitch(llvm::SwitchInst &Sw) {
  using V = BranchDivergence::Verdict;
  BranchDivergence B;
  B.Inst = &Sw;
  std::string Where = Lanes.shape();
  std::string Shape = Where.empty() ? "" : " (" + Where + ")";
  if (Loaded.count(Sw.getCondition())) {
    B.Judged = V::DataDependent;
    B.Message = "switch on loaded data that differs between threads: a " +
                M.warps() +
                " takes several ways where its threads' values "
                "disagree";
    return B;
  }
  B.Judged = V::Unknown;
  B.Message = "switch on a value that depends on the thread index in a way "
              "not evaluated: threads of a " +
              M.warps() + " may take several ways" + Shape;
  if (!SE.isSCEVable(Sw.getCondition()->getType()) ||
      LI.getLoopFor(Sw.getParent()))
    return B;
  const llvm::SCEV *C = scev(Sw.getCondition());
  B.Warps = warpsJudged();
  unsigned Split = 0;
  size_t MostWays = 1;
  for (unsigned W = 0; W < B.Warps; ++W) {
    std::set<const llvm::BasicBlock *> Ways;
    for (unsigned Lane = 0; Lane < lanesIn(W); ++Lane) {
      const auto *K =
          llvm::dyn_cast<llvm::SCEVConstant>(Lanes.at(C, W, Lane, SE));
      if (!K || ++Evaluations > MaxEvaluations)
        return B;
      auto Case = Sw.findCaseValue(K->getValue());
      const llvm::BasicBlock *To = Case->getCaseSuccessor();
      if (!leadsToThrow(To))
        Ways.insert(To);
    }
    if (Ways.size() > 1)
      ++Split;
    MostWays = std::max(MostWays, Ways.size());
  }
  std::string WarpsText = warpsText(B.Warps);
  B.MaxDivergentWarps = Split;
  if (!Split) {
    B.Judged = V::WarpUniform;
    B.Message = "switch on the thread index where the threads of each " +
                M.warps() + " agree, in " + WarpsText + ": no " + M.warps() +
                " diverges" + Shape;
  } else {
    B.Judged = Split == B.Warps ? V::Divergent : V::PartlyDivergent;
    B.Message = llvm::formatv(
        "divergent switch (LLVM's form of an if/elseif chain): {0}{1} {2} "
        "up to {3} of its {4} ways, running them one after the other with "
        "part of its threads idle; a condition that is the same for {5} "
        "consecutive threads avoids it{6}",
        Split == B.Warps ? (B.Warps == 1 ? "" : "each of ")
                         : llvm::formatv("{0} of ", Split).str(),
        WarpsText, Split == 1 || Split == B.Warps ? "takes" : "take", MostWays,
        Sw.getNumSuccessors(), M.WarpSize, Shape);
  }
  return B;
}

/// "1–5" or "1, 3".
std::string ranges(const std::vector<unsigned> &Ns) {
  std::string Out;
  for (size_t I = 0; I < Ns.size();) {
    size_t J = I;
    while (J + 1 < Ns.size() && Ns[J + 1] == Ns[J] + 1)
      ++J;
    if (!Out.empty())
      Out += ", ";
    Out += std::to_string(Ns[I]);
    if (J > I)
      Out += (J == I + 1 ? ", " : "–") + std::to_string(Ns[J]);
    I = J + 1;
  }
  return Out;
}

BranchDivergence Analysis::judge(llvm::BranchInst &Br, bool FirstBlock) {
  using V = BranchDivergence::Verdict;
  BranchDivergence B;
  B.Inst = &Br;
  std::string Where = Lanes.shape();
  std::string Shape = Where.empty() ? "" : " (" + Where + ")";
  if (Loaded.count(Br.getCondition())) {
    B.Judged = V::DataDependent;
    B.Message = "branch on loaded data that differs between threads: a " +
                M.warps() +
                " takes both sides where its threads' values disagree";
    return B;
  }
  llvm::SmallVector<Leaf, 4> Leaves;
  if (!leavesOf(Br.getCondition(), Leaves) || Leaves.empty()) {
    B.Judged = V::Unknown;
    B.Message = "branch on a condition that depends on the thread index in "
                "a way not evaluated: threads of a " +
                M.warps() + " may take both sides" + Shape;
    return B;
  }
  B.Warps = warpsJudged();
  std::string WarpsText = warpsText(B.Warps);
  if (FirstBlock)
    WarpsText += " of the first block";

  // The loop counter in the comparison, followed through its iterations.
  llvm::SmallVector<llvm::PHINode *, 4> Phis;
  for (const Leaf &X : Leaves)
    for (const llvm::SCEV *Side : {X.L, X.R})
      for (llvm::Value *C : loopCountersIn(Side, LI, SE))
        if (auto *P = llvm::dyn_cast<llvm::PHINode>(C);
            P && !llvm::is_contained(Phis, P))
          Phis.push_back(P);
  std::vector<llvm::ValueToSCEVMapTy> Rounds;
  std::vector<std::vector<uint64_t>>
      Active; // per round, per warp; empty: all lanes
  bool Open = false;
  if (Phis.empty()) {
    Rounds.emplace_back();
  } else if (Phis.size() == 1) {
    Iterations It = iterations(Phis[0], &Br);
    Open = It.Open;
    Active = std::move(It.Active);
    for (const llvm::SCEV *Val : It.Values) {
      Rounds.emplace_back();
      Rounds.back()[Phis[0]] = Val;
    }
  }
  if (FirstBlock)
    for (llvm::ValueToSCEVMapTy &Round : Rounds)
      Lanes.bindBlock(0, Round, SE);
  // The lanes' trip counts differ: each warp runs until its last thread
  // leaves, so a warp that splits on any iteration pays for it. (An exit
  // on blockDim() is followed lane by lane too, but all leave together.)
  const bool LanesLeaveApart = std::any_of(
      Active.begin(), Active.end(),
      [&](const std::vector<uint64_t> &A) { return A != Active[0]; });
  std::vector<bool> EverSplit(B.Warps, false);

  // Per iteration: how many warps take both sides (none if undecided).
  std::vector<unsigned> Split;
  bool Decided = !Rounds.empty();
  std::vector<unsigned> SplitWarps; // of the first iteration that splits
  for (size_t R = 0; R < Rounds.size(); ++R) {
    const llvm::ValueToSCEVMapTy &Fixed = Rounds[R];
    unsigned N = 0;
    std::vector<unsigned> Which;
    for (unsigned W = 0; W < B.Warps && Decided; ++W) {
      unsigned InWarp = lanesIn(W);
      std::optional<bool> First;
      bool Both = false;
      for (unsigned Lane = 0; Lane < InWarp; ++Lane) {
        if (!Active.empty() && !(Active[R][W] >> Lane & 1))
          continue; // left the loop already: masked off

        std::optional<bool> D = Evaluations < MaxEvaluations
                                    ? evaluate(Br.getCondition(), Leaves, W,
                                               Lane, Fixed)
                                    : std::nullopt;
        if (!D) {
          Decided = false;
          break;
        }
        if (!First)
          First = D;
        else if (*First != *D) {
          Both = true; // proven: the other lanes cannot undo it
          break;
        }
      }
      if (Both) {
        ++N;
        Which.push_back(W);
        EverSplit[W] = true;
      }
    }
    if (!Decided)
      break;
    if (N && SplitWarps.empty())
      SplitWarps = Which;
    Split.push_back(N);
  }

  if (Decided) {
    B.Iterations = Phis.empty() ? 0 : unsigned(Split.size());
    B.MaxDivergentWarps = *std::max_element(Split.begin(), Split.end());
    std::vector<unsigned> All, Some;
    for (unsigned I = 0; I < Split.size(); ++I) {
      if (Split[I] == B.Warps)
        All.push_back(I + 1);
      else if (Split[I])
        Some.push_back(I + 1);
    }
    const std::vector<unsigned> &Listed = All.empty() ? Some : All;
    std::string OnIters;
    if (B.Iterations) {
      OnIters =
          Open ? llvm::formatv(" on iteration{0} {1} of the loop (Prism "
                               "followed {2} iteration{3}; how many run "
                               "depends on values known only at run time)",
                               Listed.size() == 1 ? "" : "s", ranges(Listed),
                               B.Iterations, B.Iterations == 1 ? "" : "s")
                     .str()
               : llvm::formatv(" on iteration{0} {1} of the loop's {2}",
                               Listed.size() == 1 ? "" : "s", ranges(Listed),
                               B.Iterations)
                     .str();
      // The side of the comparison without the thread index, on those
      // iterations: the user's bound (`s` in `t <= s`).
      const llvm::SCEV *Bound = nullptr;
      for (const llvm::SCEV *X : {Leaves[0].L, Leaves[0].R})
        if (!llvm::isa<llvm::SCEVConstant>(X) && Lanes.lanes() > 1 &&
            Lanes.at(X, 0, 0, SE, Rounds[0]) == Lanes.at(X, 0, 1, SE, Rounds[0]))
          Bound = X;
      std::string Values;
      for (unsigned I : Listed) {
        const auto *K = Bound && Leaves.size() == 1
                            ? llvm::dyn_cast<llvm::SCEVConstant>(Lanes.at(
                                    Bound, 0, 0, SE, Rounds[I - 1]))
                              : nullptr;
        if (!K) {
          Values.clear();
          break;
        }
        Values += (Values.empty() ? "" : ", ") +
                  std::to_string(K->getAPInt().getSExtValue());
      }
      if (!Values.empty() && Listed.size() <= 8 && !LanesLeaveApart)
        OnIters += " (the bound is then " + Values + ")";
    }
    const unsigned SplitAnywhere =
        unsigned(std::count(EverSplit.begin(), EverSplit.end(), true));
    if (LanesLeaveApart && Open && SplitAnywhere < B.Warps) {
      // Lanes were still in the loop when Prism stopped following it.
      B.Judged = V::Unknown;
      B.Message = llvm::formatv(
          "branch in a loop whose trip count depends on the thread: in the "
          "{0} iterations Prism followed, {1} of {2} take both sides; the "
          "others still had threads in the loop (a {3} runs until its last "
          "thread leaves){4}",
          B.Iterations, SplitAnywhere, WarpsText, M.warps(), Shape);
    } else if (B.MaxDivergentWarps == 0) {
      B.Judged = V::WarpUniform;
      B.Message =
          "branch on the thread index where the threads of each " + M.warps() +
          " agree, in " + WarpsText +
          (B.Iterations ? llvm::formatv(" on each of the loop's {0}{1} "
                                        "iterations",
                                        Open ? "first " : "", B.Iterations)
                              .str()
                        : "") +
          ": no " + M.warps() + " diverges" + Shape;
    } else if (!All.empty()) {
      B.Judged = V::Divergent;
      std::string AlsoSome =
          B.Iterations && !Some.empty()
              ? llvm::formatv(" (and some of them on iteration{0} {1})",
                              Some.size() == 1 ? "" : "s", ranges(Some))
                    .str()
              : "";
      const std::string Same = "a condition that is the same for " +
                               std::to_string(M.WarpSize) +
                               " consecutive threads avoids it";
      B.Message =
          "divergent branch: " + std::string(B.Warps == 1 ? "" : "each of ") +
          WarpsText + " takes both sides" + OnIters + AlsoSome +
          (leavesEarly(Br)
               ? ": the threads that go straight to the return (an early "
                 "`return`, or an `if` at the end that they skip) idle while "
                 "the others run the rest (" +
                     Same + ")"
           : skipsABody(Br)
               ? ": the threads that skip the body idle while the others "
                 "run it (little lost when the body is short; " +
                     Same + ")"
               : ", running both paths one after the other with part of "
                 "its threads idle; " +
                     Same) +
          Shape;
    } else if (SplitAnywhere == B.Warps) {
      // Each warp splits, on iterations of its own.
      B.Judged = V::Divergent;
      B.Message =
          "divergent branch: " + std::string(B.Warps == 1 ? "" : "each of ") +
          WarpsText + " takes both sides on some iteration of the loop" +
          (LanesLeaveApart
               ? ", as its threads leave the loop on different iterations: "
                 "a " +
                     M.warps() +
                     " runs until its last thread leaves, "
                     "with the threads that left idle; a trip count that is "
                     "the "
                     "same for " +
                     std::to_string(M.WarpSize) +
                     " consecutive threads avoids it"
               : ", running both paths one after the other with part of its "
                 "threads idle") +
          Shape;
    } else {
      B.Judged = V::PartlyDivergent;
      std::string Who =
          SplitWarps.size() == 1
              ? llvm::formatv("{0} {1} (threads {2}–{3}) takes", M.warps(),
                              SplitWarps[0], SplitWarps[0] * M.WarpSize + 1,
                              (SplitWarps[0] + 1) * M.WarpSize)
                    .str()
              : llvm::formatv("{0} {1} take", B.MaxDivergentWarps,
                              M.warps(B.MaxDivergentWarps))
                    .str();
      B.Message = "of " + WarpsText + ", " + Who + " both sides of this branch" +
                  OnIters + "; the others agree" + Shape;
    }
    return B;
  }

  // Undecided (a bound known only at run time): if each comparison on the
  // thread grows or shrinks steadily with the lane, each flips at most once
  // along a warp, so only the warps its bound falls in take both sides.
  size_t Bounds = 0;
  bool AllMonotone = true;
  for (const Leaf &X : Leaves)
    if (X.Threaded) {
      if (!monotone(X))
        AllMonotone = false;
      ++Bounds;
    }
  if (AllMonotone && Bounds) {
    B.Judged = V::Boundary;
    B.Message =
        Bounds == 1
            ? "branch comparing the thread index with a value known only at "
              "run time: only the " +
                  M.warps() +
                  " in which the bound falls takes both sides, the others "
                  "agree" +
                  Shape
            : llvm::formatv("branch comparing the thread index with {0} "
                            "values known only at run time: only the {2} in "
                            "which the bounds fall (at most {0}) take both "
                            "sides, the others agree{1}",
                            Bounds, Shape, M.warps(2))
                  .str();
    return B;
  }
  // Decided once the block is fixed, in the first block.
  if (!FirstBlock && Lanes.readsBlockIndex() && Evaluations < MaxEvaluations) {
    BranchDivergence InFirst = judge(Br, true);
    if (InFirst.Judged != V::Unknown)
      return InFirst;
  }
  B.Judged = V::Unknown;
  B.Message = Evaluations >= MaxEvaluations
                  ? "branch on the thread index left unjudged: the analysis "
                    "of this function reached its limit of " +
                        std::to_string(MaxEvaluations) + " lane evaluations"
                  : "branch on the thread index that Prism could not "
                    "evaluate per lane: threads of a " +
                        M.warps() + " may take both sides" + Shape;
  return B;
}

} // namespace

std::vector<BranchDivergence> analyseBranches(llvm::Function &F,
                                              const WarpModel &M) {
  std::vector<BranchDivergence> Out;
  if (F.isDeclaration())
    return Out;
  Analysis A(F, M);
  if (A.Lanes.empty())
    return Out;
  for (llvm::BasicBlock &BB : F) {
    if (auto *Sw = llvm::dyn_cast<llvm::SwitchInst>(BB.getTerminator());
        Sw && A.Dep.count(Sw->getCondition())) {
      if (Out.size() >= MaxBranchesPerFunction)
        break;
      Out.push_back(A.judgeSwitch(*Sw));
      continue;
    }
    auto *Br = llvm::dyn_cast<llvm::BranchInst>(BB.getTerminator());
    if (!Br || !Br->isConditional() || !A.Dep.count(Br->getCondition()) ||
        leadsToThrow(Br->getSuccessor(0)) || leadsToThrow(Br->getSuccessor(1)))
      continue;
    if (Out.size() >= MaxBranchesPerFunction)
      break;
    Out.push_back(A.judge(*Br));
  }
  return Out;
}

const char *BranchDivergence::name() const {
  switch (Judged) {
  case Verdict::Divergent:
    return "DivergentBranch";
  case Verdict::PartlyDivergent:
    return "PartlyDivergentBranch";
  case Verdict::WarpUniform:
    return "WarpUniformBranch";
  case Verdict::Boundary:
    return "BoundaryBranch";
  case Verdict::DataDependent:
    return "DataDependentBranch";
  case Verdict::Unknown:
    return "ThreadDependentBranch";
  }
  return "";
}

} // namespace prism
