#include "infer/DefiniteAssignment.h"

namespace prism {

std::vector<llvm::BitVector> definitelyAssigned(const TypedCode &Code) {
  const size_t N = Code.Code.size(), NS = Code.Slots.size();
  std::vector<llvm::BitVector> In(N + 1, llvm::BitVector(NS, true));
  std::vector<bool> Reached(N + 1, false);
  llvm::BitVector Entry(NS, false);
  for (unsigned S = 0; S <= Code.NumArgs && S < NS; ++S)
    Entry.set(S);
  In[0] = Entry;
  Reached[0] = true;
  std::vector<unsigned> Work{0};
  auto Flow = [&](unsigned To, const llvm::BitVector &Out) {
    if (To > N)
      return;
    llvm::BitVector Meet = Out;
    if (Reached[To])
      Meet &= In[To];
    if (!Reached[To] || Meet != In[To]) {
      In[To] = std::move(Meet);
      Reached[To] = true;
      Work.push_back(To);
    }
  };
  while (!Work.empty()) {
    unsigned I = Work.back();
    Work.pop_back();
    if (I >= N)
      continue;
    const Stmt &S = Code.Code[I];
    llvm::BitVector Out = In[I];
    if (S.K == StmtKind::Assign && S.Slot < NS)
      Out.set(S.Slot);
    switch (S.K) {
    case StmtKind::Goto:
      Flow(S.Label, Out);
      break;
    case StmtKind::GotoIfNot:
      Flow(I + 1, Out);
      Flow(S.Label, Out);
      break;
    case StmtKind::Return:
      break;
    case StmtKind::Call:
      if (I < Code.SSATypes.size() && Code.SSATypes[I].T &&
          Code.SSATypes[I].T->isBottom())
        break;
      Flow(I + 1, Out);
      break;
    default:
      Flow(I + 1, Out);
      break;
    }
  }
  return In;
}

bool readsMaybeUnassigned(const TypedCode &Code) {
  std::vector<llvm::BitVector> Assigned = definitelyAssigned(Code);
  for (size_t I = 0; I < Code.Code.size(); ++I) {
    const Stmt &S = Code.Code[I];
    if (S.K == StmtKind::Nop)
      continue;
    for (const IRValue &A : S.Args)
      if (A.K == IRValue::Slot && A.Index < Code.Slots.size() &&
          !Assigned[I].test(A.Index))
        return true;
  }
  return false;
}

} // namespace prism
