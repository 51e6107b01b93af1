#include "infer/SlotWebs.h"

#include "infer/Lattice.h"

#include "llvm/ADT/BitVector.h"

#include <numeric>

namespace prism::infer {

namespace {

/// The webs of one slot: its definitions (the entry value of an argument,
/// each assignment and each `NewVar`) and, per statement, which of them
/// reach it. Statement-level: this runs on one function's code before
/// inlining, and only for the few slots whose type is a Union.
class SlotWeb {
public:
  SlotWeb(const TypedCode &Code, uint32_t Slot) : Code(Code), Slot(Slot) {
    const size_t N = Code.Code.size();
    DefAt.assign(N, -1);
    if (Slot <= Code.NumArgs)
      DefPC.push_back(Entry);
    for (size_t PC = 0; PC < N; ++PC) {
      const Stmt &S = Code.Code[PC];
      if ((S.K == StmtKind::Assign || S.K == StmtKind::NewVar) && S.Slot == Slot) {
        DefAt[PC] = static_cast<int>(DefPC.size());
        DefPC.push_back(static_cast<uint32_t>(PC));
      }
    }
  }

  size_t numDefs() const { return DefPC.size(); }
  uint32_t defPC(unsigned D) const { return DefPC[D]; }

  /// Forward may-analysis: the definitions reaching each statement.
  void solve() {
    const size_t N = Code.Code.size(), ND = DefPC.size();
    In.assign(N, llvm::BitVector(ND));
    std::vector<bool> Reached(N, false);
    std::vector<size_t> Work;
    auto Flow = [&](size_t To, const llvm::BitVector &Out) {
      if (To >= N)
        return;
      llvm::BitVector Joined = In[To];
      Joined |= Out;
      if (Reached[To] && Joined == In[To])
        return;
      Reached[To] = true;
      In[To] = std::move(Joined);
      Work.push_back(To);
    };
    llvm::BitVector Start(ND);
    if (Slot <= Code.NumArgs)
      Start.set(0);
    Flow(0, Start);
    while (!Work.empty()) {
      size_t PC = Work.back();
      Work.pop_back();
      const Stmt &S = Code.Code[PC];
      llvm::BitVector Out = In[PC];
      if (DefAt[PC] >= 0) {
        Out.reset();
        Out.set(DefAt[PC]);
      }
      switch (S.K) {
      case StmtKind::Goto:
        Flow(S.Label, Out);
        break;
      case StmtKind::GotoIfNot:
        Flow(PC + 1, Out);
        Flow(S.Label, Out);
        break;
      case StmtKind::Return:
        break;
      default:
        if (!(S.K == StmtKind::Call && PC < Code.SSATypes.size() &&
              Code.SSATypes[PC].isBottom()))
          Flow(PC + 1, Out);
        break;
      }
    }
  }

  /// Definitions reaching statement PC (before it runs).
  const llvm::BitVector &reaching(size_t PC) const { return In[PC]; }

  bool reads(const Stmt &S) const {
    for (const IRValue &A : S.Args)
      if (A.K == IRValue::Slot && A.Index == Slot)
        return true;
    return false;
  }

  static constexpr uint32_t Entry = UINT32_MAX;

private:
  const TypedCode &Code;
  uint32_t Slot;
  std::vector<uint32_t> DefPC; ///< statement of each definition; Entry for an argument's value
  std::vector<int> DefAt;      ///< per statement: its definition's index, or -1
  std::vector<llvm::BitVector> In;
};

unsigned findRoot(std::vector<unsigned> &Parent, unsigned X) {
  while (Parent[X] != X)
    X = Parent[X] = Parent[Parent[X]];
  return X;
}

} // namespace

void splitSlotWebs(TypedCode &Code, std::span<Type *const> Sig) {
  const size_t N = Code.Code.size(), NumSlots = Code.Slots.size();
  for (uint32_t Slot = 1; Slot < NumSlots && Slot < Code.SlotTypes.size(); ++Slot) {
    Type *T = Code.SlotTypes[Slot];
    if (!T || T->isBottom() || T->isConcrete())
      continue;
    SlotWeb W(Code, Slot);
    const size_t ND = W.numDefs();
    if (ND < 2)
      continue;
    W.solve();
    // The definitions reaching one read are one variable.
    std::vector<unsigned> Parent(ND);
    std::iota(Parent.begin(), Parent.end(), 0u);
    for (size_t PC = 0; PC < N; ++PC) {
      if (!W.reads(Code.Code[PC]))
        continue;
      const llvm::BitVector &R = W.reaching(PC);
      int First = R.find_first();
      for (int D = First; D >= 0; D = R.find_next(D))
        Parent[findRoot(Parent, D)] = findRoot(Parent, First);
    }
    // Each web's type: the join of what its assignments store. A web of
    // `NewVar`s only (a loop-local's reset no read can see) holds no value.
    std::vector<LatticeType> WebType(ND, bottomLattice());
    std::vector<bool> HasValue(ND, false);
    for (unsigned D = 0; D < ND; ++D) {
      uint32_t PC = W.defPC(D);
      unsigned Root = findRoot(Parent, D);
      if (PC == SlotWeb::Entry) {
        WebType[Root] = join(WebType[Root], LatticeType(Sig[Slot]));
        HasValue[Root] = true;
      } else if (Code.Code[PC].K == StmtKind::Assign) {
        if (!Code.SSATypes[PC].isBottom())
          WebType[Root] = join(WebType[Root], LatticeType(Code.SSATypes[PC].T));
        HasValue[Root] = true;
      }
    }
    unsigned Webs = 0;
    for (unsigned D = 0; D < ND; ++D)
      Webs += findRoot(Parent, D) == D && HasValue[D];
    if (Webs < 2)
      continue;
    // The first web (the argument's own value, or the first assignment)
    // keeps the slot; the others get new ones of the same name.
    std::vector<uint32_t> SlotOf(ND, UINT32_MAX);
    bool Kept = false;
    for (unsigned D = 0; D < ND; ++D) {
      unsigned Root = findRoot(Parent, D);
      if (!HasValue[Root] || SlotOf[Root] != UINT32_MAX)
        continue;
      if (!Kept) {
        SlotOf[Root] = Slot;
        Kept = true;
      } else {
        SlotOf[Root] = static_cast<uint32_t>(Code.Slots.size());
        Code.Slots.push_back({Code.Slots[Slot].Name, false});
        Code.SlotTypes.push_back(nullptr);
        Code.SlotFirstAssign.push_back(UINT32_MAX);
      }
      Code.SlotTypes[SlotOf[Root]] =
          WebType[Root].T ? WebType[Root].T : TypeContext::get().bottom();
      if (SlotOf[Root] > Code.NumArgs)
        Code.SlotFirstAssign[SlotOf[Root]] = UINT32_MAX;
    }
    // Rewrite the reads (by the definitions reaching them) first, then the
    // definitions themselves.
    for (size_t PC = 0; PC < N; ++PC) {
      Stmt &S = Code.Code[PC];
      if (!W.reads(S))
        continue;
      int D = W.reaching(PC).find_first();
      if (D < 0)
        continue; // never assigned here: an UndefVarError either way
      uint32_t To = SlotOf[findRoot(Parent, D)];
      for (IRValue &A : S.Args)
        if (A.K == IRValue::Slot && A.Index == Slot)
          A.Index = To;
    }
    for (unsigned D = 0; D < ND; ++D) {
      uint32_t PC = W.defPC(D);
      if (PC == SlotWeb::Entry)
        continue;
      Stmt &S = Code.Code[PC];
      uint32_t To = SlotOf[findRoot(Parent, D)];
      if (To == UINT32_MAX) {
        S.K = StmtKind::Nop; // a reset no read sees
        S.Args.clear();
        continue;
      }
      S.Slot = To;
      if (S.K == StmtKind::Assign && To > Code.NumArgs &&
          Code.SlotFirstAssign[To] == UINT32_MAX)
        Code.SlotFirstAssign[To] = PC;
    }
  }
}

} // namespace prism::infer
