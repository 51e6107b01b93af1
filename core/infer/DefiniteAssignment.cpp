#include "infer/DefiniteAssignment.h"

#include <algorithm>

namespace prism {

DefiniteAssignment::DefiniteAssignment(const TypedCode &Code) : Code(Code) {
  const size_t N = Code.Code.size();
  Dense.assign(Code.Slots.size(), Untracked);
  uint32_t NS = 0; // tracked slots
  for (const Stmt &S : Code.Code)
    for (const IRValue &A : S.Args)
      if (A.K == IRValue::Slot && A.Index < Dense.size() &&
          Dense[A.Index] == Untracked)
        Dense[A.Index] = NS++;
  // The end (N) is a block too: where flow falls off.
  std::vector<bool> Starts = blockStarts(Code);
  Starts[N] = true;
  for (size_t I = 0; I <= N; ++I)
    if (Starts[I])
      Leaders.push_back(I);
  const size_t NB = Leaders.size();

  // Forward must-analysis: meet is intersection, unreached blocks stay at
  // "everything assigned".
  BlockIn.assign(NB, llvm::BitVector(NS, true));
  std::vector<bool> Reached(NB, false);
  llvm::BitVector Entry(NS, false);
  for (unsigned S = 0; S <= Code.NumArgs && S < Dense.size(); ++S)
    if (Dense[S] != Untracked)
      Entry.set(Dense[S]);
  BlockIn[0] = Entry;
  Reached[0] = true;
  // Sweeps over the blocks in program order, where most edges point
  // forward: one sweep settles straight-line code and branches, a loop takes
  // a few more. (A stack of blocks revisited a chain of inlined branches
  // once per branch above it: quadratic in blocks, cubic with the slots.)
  std::vector<bool> Dirty(NB, false);
  Dirty[0] = true;
  bool Again = true;
  size_t From = 0; // the block being processed
  auto Flow = [&](size_t To, const llvm::BitVector &Out) {
    if (To > N)
      return;
    size_t B = blockOf(To);
    if (!Reached[B]) {
      BlockIn[B] = Out;
      Reached[B] = true;
    } else if (BlockIn[B].test(Out)) { // bits the meet would clear
      BlockIn[B] &= Out;
    } else {
      return;
    }
    Dirty[B] = true;
    Again |= B <= From;
  };
  llvm::BitVector Out;
  while (Again) {
    Again = false;
    for (size_t B = 0; B < NB; ++B) {
      if (!Dirty[B])
        continue;
      Dirty[B] = false;
      From = B;
      size_t Begin = Leaders[B], End = B + 1 < NB ? Leaders[B + 1] : N;
      if (Begin >= N)
        continue;
      Out = BlockIn[B];
      for (size_t I = Begin; I < End; ++I)
        step(Code.Code[I], Out);
      size_t Last = End - 1;
      const Stmt &T = Code.Code[Last];
      switch (T.K) {
      case StmtKind::Goto:
        Flow(T.Label, Out);
        break;
      case StmtKind::GotoIfNot:
        Flow(Last + 1, Out);
        Flow(T.Label, Out);
        break;
      case StmtKind::Return:
        break;
      default:
        if (!neverReturns(Code, Last))
          Flow(Last + 1, Out);
        break;
      }
    }
  }
  Cur = BlockIn[0];
}

size_t DefiniteAssignment::blockOf(size_t PC) const {
  return size_t(std::upper_bound(Leaders.begin(), Leaders.end(), PC) -
                Leaders.begin()) - 1;
}

void DefiniteAssignment::seek(size_t PC) {
  if (PC < At || (AtBlock + 1 < Leaders.size() && PC >= Leaders[AtBlock + 1])) {
    AtBlock = blockOf(PC);
    At = Leaders[AtBlock];
    Cur = BlockIn[AtBlock];
  }
  for (; At < PC; ++At)
    step(Code.Code[At], Cur);
}

bool DefiniteAssignment::assigned(size_t PC, unsigned Slot) {
  if (PC > Code.Code.size() || Slot >= Dense.size() || Dense[Slot] == Untracked)
    return true;
  seek(PC);
  return Cur.test(Dense[Slot]);
}

bool readsMaybeUnassigned(const TypedCode &Code) {
  DefiniteAssignment Assigned(Code);
  for (size_t I = 0; I < Code.Code.size(); ++I) {
    const Stmt &S = Code.Code[I];
    if (S.K == StmtKind::Nop)
      continue;
    for (const IRValue &A : S.Args)
      if (A.K == IRValue::Slot && A.Index < Code.Slots.size() &&
          !Assigned.assigned(I, A.Index))
        return true;
  }
  return false;
}

std::optional<unsigned> neverAssignedRead(const TypedCode &Code, size_t I) {
  if (I >= Code.Code.size() || I >= Code.ArgTypes.size())
    return std::nullopt;
  const Stmt &S = Code.Code[I];
  for (size_t K = 0; K < S.Args.size() && K < Code.ArgTypes[I].size(); ++K)
    if (S.Args[K].K == IRValue::Slot && S.Args[K].Index < Code.Slots.size() &&
        Code.ArgTypes[I][K].T && Code.ArgTypes[I][K].T->isBottom())
      return S.Args[K].Index;
  return std::nullopt;
}

} // namespace prism
