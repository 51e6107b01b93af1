//===- TypedOptimize.cpp - inlining, constant folding, DCE on typed IR ----===//
//
// Julia's optimizer in small: callees marked @inline, and small ones, are
// inlined (never @noinline ones, never recursively); statements whose value
// inference knows as a constant and that have no effect are folded into
// their uses; effect-free statements whose value is unused are removed; the
// result is renumbered without Nops. Every statement keeps its source range,
// the file it refers to and the stack of calls it was inlined through.
//
//===----------------------------------------------------------------------===//

#include "infer/DefiniteAssignment.h"
#include "infer/BuiltinTransfer.h"
#include "infer/InferenceImpl.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace prism {

using namespace infer;

namespace {

/// Callees up to this many statements are inlined without `@inline`.
constexpr size_t InlineCostThreshold = 24;
/// Inlining nests at most this deep.
constexpr size_t MaxInlineDepth = 16;

bool isPure(Builtin B) {
  switch (B) {
  case Builtin::None:
  case Builtin::Throw:
  case Builtin::TypeAssert:
  case Builtin::SDivInt: case Builtin::UDivInt:
  case Builtin::SRemInt: case Builtin::URemInt:
  case Builtin::PointerRef: case Builtin::PointerSet: case Builtin::AtomicAdd:
  case Builtin::SyncThreads: case Builtin::SharedArray:
  case Builtin::BpfLoadByte: case Builtin::BpfLoadHalf: case Builtin::BpfLoadWord:
  case Builtin::SetField:
  case Builtin::NumBuiltins:
    return false;
  default:
    return true;
  }
}

/// Constants that can stand in for a value in the IR.
bool foldableConst(const LatticeType &L) {
  return L.Const && L.Const->K != ConstValue::Sym && L.Const->Ty;
}

/// A builtin call whose value may replace it: a pure one, or an integer
/// division inference folded (its operands were constants and it did not
/// throw: `sdiv_int(-7, 2)` is -3).
bool replaceableByValue(Builtin B, const LatticeType &Result) {
  if (isPure(B))
    return true;
  switch (B) {
  case Builtin::SDivInt:
  case Builtin::UDivInt:
  case Builtin::SRemInt:
  case Builtin::URemInt:
    return foldableConst(Result);
  default:
    return false;
  }
}

size_t inlineCost(const TypedCode &C) {
  size_t N = 0;
  for (const Stmt &S : C.Code)
    N += S.K != StmtKind::Nop;
  return N;
}

IRValue nothingValue() {
  ConstValue Nothing;
  Nothing.Ty = TypeContext::get().nothing();
  return IRValue::constant(std::move(Nothing));
}

/// Room for N statements in each of T's per-statement vectors.
void reserveStatements(TypedCode &T, size_t N) {
  T.Code.reserve(N);
  T.SSATypes.reserve(N);
  T.Invokes.reserve(N);
  T.Builtins.reserve(N);
  T.ArgTypes.reserve(N);
  T.InlineStacks.reserve(N);
  T.StmtFiles.reserve(N);
}

/// Rewrites values in a statement's arguments.
template <typename Fn> void mapArgs(Stmt &S, Fn &&F) {
  for (IRValue &V : S.Args)
    V = F(V);
}

class Optimizer {
public:
  Optimizer(InferenceEngine &Engine, std::vector<const CodeInstance *> &Active)
      : Engine(Engine), Active(Active) {}

  std::shared_ptr<TypedCode> run(const CodeInstance &CI);

private:
  InferenceEngine &Engine;
  std::vector<const CodeInstance *> &Active;
  TypedCode Out;

  size_t emit(Stmt S, LatticeType T, MethodInstance *Invoke, Builtin B,
              std::vector<LatticeType> ArgT, InlineStack Stack,
              SourceFileRef File) {
    Out.Code.push_back(std::move(S));
    Out.SSATypes.push_back(std::move(T));
    Out.Invokes.push_back(Invoke);
    Out.Builtins.push_back(B);
    Out.ArgTypes.push_back(std::move(ArgT));
    Out.InlineStacks.push_back(std::move(Stack));
    Out.StmtFiles.push_back(std::move(File));
    return Out.Code.size() - 1;
  }

  /// The instance to inline at C's statement PC, or null; \p Why says
  /// why either way (unset: not a call of a method instance).
  CodeInstance *inlineTarget(const CodeInstance &Caller, const TypedCode &C,
                             size_t PC, std::optional<InlineReason> &Why) const;
  void inlineCode(const TypedCode &C, const CodeInstance &CI);
  void propagate();
  void foldAndClean();
  /// Jumps to the next statement are no jumps (an inlined `return`).
  bool removeJumpsToNext();
  void compact();
};

CodeInstance *Optimizer::inlineTarget(const CodeInstance &Caller,
                                      const TypedCode &C, size_t PC,
                                      std::optional<InlineReason> &Why) const {
  MethodInstance *MI = C.Invokes[PC];
  if (!MI)
    return nullptr;
  if (MI->Def->NoInline) {
    Why = InlineReason::DeclaredNoInline;
    return nullptr;
  }
  if (Active.size() >= MaxInlineDepth) {
    Why = InlineReason::NestedTooDeep;
    return nullptr;
  }
  CodeInstance *Callee = MI->cachedIn(Caller.MinWorld);
  if (!Callee || !Callee->Code || !Callee->Errors.empty()) {
    Why = InlineReason::CodeHasErrors;
    return nullptr;
  }
  // Never into itself. Another specialisation of the same method is not
  // recursion (`0 % T` inside `%(x, y)` for another T); the depth limit
  // bounds a chain of them.
  for (const CodeInstance *A : Active)
    if (A->MI->Def == MI->Def && A->MI->Sig == MI->Sig) {
      Why = InlineReason::Recursive;
      return nullptr;
    }
  // Inlined into a loop, a maybe-unassigned local would keep its value from
  // the previous call where Julia throws UndefVarError.
  if (Engine.readsMaybeUnassigned(*Callee)) {
    Why = InlineReason::ReadsMaybeUnassigned;
    return nullptr;
  }
  // The size is judged on the callee's optimised code (inlineCode), as
  // Julia's inlining cost is: constant folding and its own inlining may
  // make a long body short, or a short one long.
  if (MI->Def->Inline)
    Why = InlineReason::DeclaredInline;
  return Callee;
}

void Optimizer::inlineCode(const TypedCode &C, const CodeInstance &CI) {
  size_t N = C.Code.size();
  Out.Slots = C.Slots;
  Out.SlotTypes = C.SlotTypes;
  Out.SlotFirstAssign = C.SlotFirstAssign;
  Out.NumArgs = C.NumArgs;
  Out.File = C.File;
  reserveStatements(Out, N); // at least; inlining grows it
  // Old statement → first new statement (label targets) and old SSA value →
  // its new value (an SSA or, for inlined calls, the result slot).
  std::vector<size_t> Start(N + 1, 0);
  std::vector<IRValue> SSAMap(N);
  std::vector<std::pair<size_t, uint32_t>> LabelFixups; // new stmt, old label

  // Our own arguments that we never reassign are values too: an inlined
  // callee may read them directly.
  std::vector<bool> ArgIsValue(C.NumArgs + 1, true);
  for (const Stmt &S : C.Code)
    if (S.K == StmtKind::Assign && S.Slot <= C.NumArgs)
      ArgIsValue[S.Slot] = false;
  // So is any local of ours at a call where it is certainly assigned: the
  // inlined code assigns only its own slots, so a read of ours anywhere in
  // it sees the value the call would have passed (`a + 1.0f0` instead of
  // `x@_5 = a; x@_5 + 1.0f0`). Only where the slot's type is the callee's
  // argument type: inference may know more at the call than the slot's
  // type says (a Union split), and the callee's code expects that.
  std::optional<DefiniteAssignment> Assigned;
  auto LocalIsValue = [&](const IRValue &V, size_t PC, Type *ArgT) {
    if (V.K != IRValue::Slot || V.Index <= C.NumArgs ||
        V.Index >= C.SlotTypes.size() || !ArgT || C.SlotTypes[V.Index] != ArgT)
      return false;
    if (!Assigned)
      Assigned.emplace(C);
    return Assigned->assigned(PC, V.Index);
  };
  // A read of a local that some path leaves unassigned (UndefVarError).
  auto MaybeUnassigned = [&](const IRValue &V, size_t PC) {
    if (V.K != IRValue::Slot || V.Index <= C.NumArgs ||
        V.Index >= C.SlotTypes.size())
      return false;
    if (!Assigned)
      Assigned.emplace(C);
    return !Assigned->assigned(PC, V.Index);
  };
  auto Remap = [&](const IRValue &V) {
    return V.K == IRValue::SSA && V.Index < N ? SSAMap[V.Index] : V;
  };
  auto StackOf = [&](size_t PC) {
    return PC < C.InlineStacks.size() ? C.InlineStacks[PC] : InlineStack();
  };
  auto FileOf = [&](size_t PC) {
    return PC < C.StmtFiles.size() && C.StmtFiles[PC] ? C.StmtFiles[PC] : C.File;
  };

  for (size_t PC = 0; PC < N; ++PC) {
    Start[PC] = Out.Code.size();
    Stmt S = C.Code[PC];
    mapArgs(S, Remap);
    std::optional<InlineReason> Why;
    uint32_t Cost = 0;
    CodeInstance *Callee =
        S.K == StmtKind::Call ? inlineTarget(CI, C, PC, Why) : nullptr;
    std::shared_ptr<const TypedCode> K;
    if (Callee) {
      Active.push_back(Callee);
      K = Engine.optimizedCode(Callee);
      Active.pop_back();
      // As Julia does, the cost is the callee's after its own inlining: a
      // small function that inlined a tree of others is no longer small
      // (without this, a deep call tree becomes one huge function).
      if (!Callee->MI->Def->Inline) {
        Cost = inlineCost(*K);
        if (Cost > InlineCostThreshold) {
          Why = InlineReason::OverThreshold;
          K = nullptr;
        } else {
          Why = InlineReason::WithinThreshold;
        }
      }
    }
    if (Why)
      Out.Inlining.push_back({C.Invokes[PC], K != nullptr, *Why, Cost,
                              C.Code[PC].Range, FileOf(PC), StackOf(PC)});
    if (!K) {
      if (S.K == StmtKind::Goto || S.K == StmtKind::GotoIfNot)
        LabelFixups.emplace_back(Out.Code.size(), S.Label);
      size_t New = emit(S, C.SSATypes[PC], C.Invokes[PC], C.Builtins[PC],
                        PC < C.ArgTypes.size() ? C.ArgTypes[PC] : std::vector<LatticeType>{},
                        StackOf(PC), FileOf(PC));
      SSAMap[PC] = IRValue::ssa(New);
      continue;
    }

    // Inline K: its slots follow ours. Arguments it never reassigns are
    // replaced by the call's argument values (SSA values and constants: the
    // inlined code cannot change them); the others are assigned from them.
    // Each `return v` becomes `ret = v; goto after`, except that a single
    // return of an SSA value or constant is that value, with no slot.
    uint32_t Base = Out.Slots.size();
    for (size_t I = 0; I < K->Slots.size(); ++I) {
      Out.Slots.push_back(K->Slots[I]);
      Out.Slots.back().IsArgument = false;
      Out.SlotTypes.push_back(I < K->SlotTypes.size() ? K->SlotTypes[I] : nullptr);
      Out.SlotFirstAssign.push_back(UINT32_MAX);
    }
    static const std::vector<LatticeType> NoArgTypes;
    const std::vector<LatticeType> &CallArgT =
        PC < C.ArgTypes.size() ? C.ArgTypes[PC] : NoArgTypes;
    llvm::SmallVector<std::optional<IRValue>, 4> ArgValue(K->NumArgs + 1);
    llvm::SmallVector<bool, 8> Reassigned(K->NumArgs + 1, false);
    size_t Returns = 0;
    for (const Stmt &KS : K->Code) {
      if (KS.K == StmtKind::Assign && KS.Slot <= K->NumArgs)
        Reassigned[KS.Slot] = true;
      Returns += KS.K == StmtKind::Return;
    }
    for (uint32_t I = 0; I <= K->NumArgs && I < S.Args.size(); ++I) {
      if (Reassigned[I] || MaybeUnassigned(S.Args[I], PC))
        continue; // a maybe-unassigned read stays: it is a check
      if (I < CallArgT.size() && foldableConst(CallArgT[I]))
        ArgValue[I] = IRValue::constant(*CallArgT[I].Const);
      else if (S.Args[I].K == IRValue::SSA || S.Args[I].K == IRValue::Const ||
               (S.Args[I].K == IRValue::Slot && S.Args[I].Index <= C.NumArgs &&
                ArgIsValue[S.Args[I].Index]) ||
               LocalIsValue(S.Args[I], PC,
                            I < K->SlotTypes.size() ? K->SlotTypes[I] : nullptr))
        ArgValue[I] = S.Args[I];
    }
    uint32_t RetSlot = UINT32_MAX;
    auto NeedRetSlot = [&] {
      if (RetSlot != UINT32_MAX)
        return;
      RetSlot = Out.Slots.size();
      Out.Slots.push_back({Symbol::get("#ret"), false});
      Out.SlotTypes.push_back(C.SSATypes[PC].T);
      Out.SlotFirstAssign.push_back(UINT32_MAX);
    };
    std::optional<IRValue> SingleResult;

    InlineStack Outer = StackOf(PC);
    InlineFrame Here{C.Invokes[PC], C.Code[PC].Range, FileOf(PC)};
    // Each distinct stack of K's, nested under this call, once: K's
    // statements and decisions share few stacks, and so do their copies.
    llvm::SmallDenseMap<const void *, InlineStack, 8> Nested;
    auto NestedIn = [&](const InlineStack &Inner) {
      auto [It, New] = Nested.try_emplace(Inner.identity());
      if (New)
        It->second = InlineStack::nest(Outer, Here, Inner);
      return It->second;
    };
    // The callee's own decisions happen here too, one call deeper.
    for (const InlineDecision &D : K->Inlining) {
      Out.Inlining.push_back(D);
      Out.Inlining.back().Stack = NestedIn(D.Stack);
    }
    for (uint32_t I = 0; I <= K->NumArgs && I < S.Args.size(); ++I) {
      if (ArgValue[I])
        continue;
      Stmt A;
      A.K = StmtKind::Assign;
      A.Slot = Base + I;
      A.Args = {S.Args[I]};
      A.Range = S.Range;
      LatticeType AT = I < CallArgT.size() ? CallArgT[I]
                                           : LatticeType(Out.SlotTypes[Base + I]);
      emit(A, AT, nullptr, Builtin::None, {AT}, Outer, FileOf(PC));
    }
    size_t KN = K->Code.size();
    std::vector<IRValue> KMap(KN);
    std::vector<std::pair<size_t, uint32_t>> KLabels;
    std::vector<size_t> KFirst(KN + 1);
    std::vector<size_t> ReturnGotos;
    for (size_t J = 0; J < KN; ++J) {
      KFirst[J] = Out.Code.size();
      Stmt KS = K->Code[J];
      if (KS.K == StmtKind::Nop)
        continue;
      std::vector<LatticeType> KArgT = J < K->ArgTypes.size() ? K->ArgTypes[J] : std::vector<LatticeType>{};
      for (size_t A = 0; A < KS.Args.size(); ++A) {
        IRValue &V = KS.Args[A];
        if (V.K == IRValue::SSA && V.Index < KN) {
          V = KMap[V.Index];
        } else if (V.K == IRValue::Slot) {
          if (V.Index < ArgValue.size() && ArgValue[V.Index]) {
            // The argument's lattice at the call site is at least as
            // precise as the callee's view of its slot.
            if (V.Index < CallArgT.size() && A < KArgT.size() && CallArgT[V.Index].T)
              KArgT[A] = CallArgT[V.Index];
            V = *ArgValue[V.Index];
          } else {
            V = IRValue::slot(V.Index + Base);
          }
        }
      }
      InlineStack Stack =
          NestedIn(J < K->InlineStacks.size() ? K->InlineStacks[J] : InlineStack());
      SourceFileRef KF = J < K->StmtFiles.size() && K->StmtFiles[J] ? K->StmtFiles[J] : K->File;
      if (KS.K == StmtKind::Assign || KS.K == StmtKind::NewVar)
        KS.Slot += Base;
      if (KS.K == StmtKind::Return) {
        IRValue V = KS.Args.empty() ? nothingValue() : KS.Args[0];
        if (Returns == 1 && (V.K == IRValue::SSA || V.K == IRValue::Const)) {
          SingleResult = V;
        } else {
          NeedRetSlot();
          Stmt A;
          A.K = StmtKind::Assign;
          A.Slot = RetSlot;
          A.Args = {V};
          A.Range = KS.Range;
          LatticeType RT = KArgT.empty() ? LatticeType(Out.SlotTypes[RetSlot]) : KArgT[0];
          emit(A, RT, nullptr, Builtin::None, {RT}, Stack, KF);
        }
        Stmt G;
        G.K = StmtKind::Goto;
        G.Range = KS.Range;
        ReturnGotos.push_back(emit(G, LatticeType(TypeContext::get().bottom()),
                                   nullptr, Builtin::None, {}, Stack, KF));
        continue;
      }
      if (KS.K == StmtKind::Goto || KS.K == StmtKind::GotoIfNot)
        KLabels.emplace_back(Out.Code.size(), KS.Label);
      size_t New = emit(KS, K->SSATypes[J], K->Invokes[J], K->Builtins[J],
                        std::move(KArgT), std::move(Stack), KF);
      KMap[J] = IRValue::ssa(New);
    }
    KFirst[KN] = Out.Code.size();
    for (auto &[At, L] : KLabels)
      Out.Code[At].Label = L <= KN ? KFirst[L] : KFirst[KN];
    size_t After = Out.Code.size();
    for (size_t G : ReturnGotos)
      Out.Code[G].Label = After;
    if (SingleResult)
      SSAMap[PC] = *SingleResult;
    else if (RetSlot != UINT32_MAX)
      SSAMap[PC] = IRValue::slot(RetSlot);
    else // never returns: nothing may use the value
      SSAMap[PC] = nothingValue();
  }
  Start[N] = Out.Code.size();
  for (auto &[At, L] : LabelFixups)
    Out.Code[At].Label = L <= N ? Start[L] : Start[N];
}

/// The lattice of a constant value.
LatticeType constLattice(const ConstValue &C) { return LatticeType(C.Ty, C); }

void Optimizer::propagate() {
  const size_t N = Out.Code.size();
  const size_t NS = Out.Slots.size();
  auto LatticeOf = [&](size_t PC, size_t I) -> std::optional<LatticeType> {
    const IRValue &V = Out.Code[PC].Args[I];
    if (V.K == IRValue::Const && V.C.Ty)
      return constLattice(V.C);
    if (I < Out.ArgTypes[PC].size() && Out.ArgTypes[PC][I].T)
      return Out.ArgTypes[PC][I];
    return std::nullopt;
  };
  auto SetConst = [&](size_t PC, size_t I, const ConstValue &C) {
    Out.Code[PC].Args[I] = IRValue::constant(C);
    if (Out.ArgTypes[PC].size() <= I)
      Out.ArgTypes[PC].resize(I + 1);
    Out.ArgTypes[PC][I] = constLattice(C);
  };
  // Values no statement can change: SSA values, constants, and arguments
  // never reassigned (Assigns counts assignments, per round).
  std::vector<unsigned> Assigns(NS, 0);
  auto Stable = [&](const IRValue &V) {
    return V.K == IRValue::SSA || V.K == IRValue::Const ||
           (V.K == IRValue::Slot && V.Index <= Out.NumArgs && Assigns[V.Index] == 0);
  };
  // Few rounds suffice: each one resolves one more level of the chains
  // (`y = 1` → `x = y` → `slt_int(x, 0)` → the branch on it).
  for (unsigned Round = 0; Round < 16; ++Round) {
    bool Changed = removeJumpsToNext();

    // Slots assigned once, read where that assignment has certainly
    // happened: the assignment dominates the read, so the read is the
    // assigned constant, argument, or SSA value (which, defined before the
    // assignment, cannot have been recomputed without it).
    std::fill(Assigns.begin(), Assigns.end(), 0u);
    std::vector<size_t> AssignAt(NS, 0);
    for (size_t PC = 0; PC < N; ++PC)
      if (const Stmt &S = Out.Code[PC]; S.K == StmtKind::Assign && S.Slot < NS) {
        ++Assigns[S.Slot];
        AssignAt[S.Slot] = PC;
      }
    std::optional<DefiniteAssignment> Assigned; // built when first asked
    for (size_t PC = 0; PC < N; ++PC) {
      Stmt &S = Out.Code[PC];
      if (S.K == StmtKind::Nop)
        continue;
      for (size_t I = 0; I < S.Args.size(); ++I) {
        const IRValue &V = S.Args[I];
        if (V.K != IRValue::Slot || V.Index <= Out.NumArgs || V.Index >= NS ||
            Assigns[V.Index] != 1)
          continue;
        if (!Assigned)
          Assigned.emplace(Out);
        if (!Assigned->assigned(PC, V.Index))
          continue;
        size_t At = AssignAt[V.Index];
        std::optional<LatticeType> L = LatticeOf(At, 0);
        const IRValue &From = Out.Code[At].Args[0];
        if (L && foldableConst(*L)) {
          SetConst(PC, I, *L->Const);
          Changed = true;
        } else if (From.K != IRValue::Const && Stable(From)) {
          S.Args[I] = From;
          Changed = true;
        }
      }
    }

    // Pure builtins of constants, and getfield of a struct or tuple built
    // right here: the field's value itself. Within a block, a pure builtin
    // call equal to an earlier one is that one (prelude code repeats the
    // same checks for each inlined copy).
    std::vector<std::optional<IRValue>> Replace(N);
    std::vector<bool> Leader = blockStarts(Out);
    // Pure builtin calls earlier in the block, by a hash of the call.
    std::unordered_multimap<size_t, size_t> Available;
    auto CallHash = [&](size_t PC) {
      llvm::hash_code H = llvm::hash_value(static_cast<unsigned>(Out.Builtins[PC]));
      for (const IRValue &V : llvm::drop_begin(Out.Code[PC].Args))
        H = llvm::hash_combine(H, static_cast<unsigned>(V.K), V.Index,
                               V.K == IRValue::Const ? V.C.Bits : 0);
      return size_t(H);
    };
    auto SameValue = [](const IRValue &A, const IRValue &B) {
      if (A.K != B.K)
        return false;
      if (A.K == IRValue::Const)
        return A.C == B.C;
      return (A.K == IRValue::SSA || A.K == IRValue::Slot) && A.Index == B.Index;
    };
    auto SameCall = [&](size_t A, size_t B) {
      const Stmt &X = Out.Code[A], &Y = Out.Code[B];
      if (Out.Builtins[A] != Out.Builtins[B] || X.Args.size() != Y.Args.size() ||
          Out.SSATypes[A].T != Out.SSATypes[B].T)
        return false;
      for (size_t I = 1; I < X.Args.size(); ++I)
        if (!Stable(X.Args[I]) || !SameValue(X.Args[I], Y.Args[I]))
          return false;
      return true;
    };
    for (size_t PC = 0; PC < N; ++PC) {
      if (Leader[PC])
        Available.clear();
      Stmt &S = Out.Code[PC];
      Builtin B = Out.Builtins[PC];
      if (S.K != StmtKind::Call || B == Builtin::None || !isPure(B) ||
          B == Builtin::BoundsCheck || foldableConst(Out.SSATypes[PC]))
        continue;
      std::vector<LatticeType> ArgL;
      bool AllConst = true;
      for (size_t I = 1; I < S.Args.size(); ++I) {
        std::optional<LatticeType> L = LatticeOf(PC, I);
        AllConst &= L && L->Const.has_value();
        ArgL.push_back(L ? *L : LatticeType());
      }
      if (AllConst) {
        BuiltinResult R = transferBuiltin(B, ArgL, false);
        if (R.Error.empty() && foldableConst(R.R) && R.R.T == Out.SSATypes[PC].T) {
          Out.SSATypes[PC] = R.R;
          Changed = true;
          continue;
        }
      }
      // Integer comparisons of a value with itself.
      if (S.Args.size() == 3 && Stable(S.Args[1]) && SameValue(S.Args[1], S.Args[2])) {
        std::optional<bool> R;
        switch (B) {
        case Builtin::EqInt: case Builtin::SleInt: case Builtin::UleInt: R = true; break;
        case Builtin::NeInt: case Builtin::SltInt: case Builtin::UltInt: R = false; break;
        default: break;
        }
        if (R && Out.SSATypes[PC].T && Out.SSATypes[PC].T->isBool()) {
          Out.SSATypes[PC] = LatticeType(Out.SSATypes[PC].T, constBool(*R));
          Changed = true;
          continue;
        }
      }
      // A call of a slot that is assigned more than once can equal no other
      // (the slot may have changed in between): leaving such calls out of
      // Available keeps a long block linear (10 000 updates of four local
      // variables repeat the same few calls by hash).
      bool StableArgs = llvm::all_of(llvm::drop_begin(S.Args), Stable);
      if (B != Builtin::New && B != Builtin::TupleNew && StableArgs) {
        size_t H = CallHash(PC);
        auto [First, Last] = Available.equal_range(H);
        auto It = std::find_if(First, Last, [&](const auto &E) { return SameCall(E.second, PC); });
        if (It != Last) {
          Replace[PC] = IRValue::ssa(It->second);
          continue;
        }
        Available.emplace(H, PC);
      }
      // `bitcast(T, x)` of an `x::T` is `x`.
      if (B == Builtin::Bitcast && S.Args.size() == 3 && ArgL[1].T &&
          ArgL[1].T == Out.SSATypes[PC].T && Stable(S.Args[2])) {
        Replace[PC] = S.Args[2];
        continue;
      }
      if (B == Builtin::GetField && S.Args.size() == 3 &&
          S.Args[1].K == IRValue::SSA && S.Args[1].Index < N && ArgL[1].Const) {
        size_t Def = S.Args[1].Index;
        const Stmt &D = Out.Code[Def];
        Builtin DB = Out.Builtins[Def];
        Type *T = Out.SSATypes[Def].T;
        if (D.K != StmtKind::Call || !T ||
            (DB != Builtin::New && DB != Builtin::TupleNew))
          continue;
        int Index = -1;
        const ConstValue &Idx = *ArgL[1].Const;
        if (Idx.K == ConstValue::Sym && !T->isTuple())
          Index = T->fieldIndex(Idx.Name);
        else if (Idx.K == ConstValue::Int)
          Index = static_cast<int>(Idx.asSigned()) - 1;
        size_t Arg = Index + (DB == Builtin::New ? 2 : 1);
        if (Index < 0 || Arg >= D.Args.size())
          continue;
        if (Stable(D.Args[Arg]))
          Replace[PC] = D.Args[Arg];
      }
    }
    // Uses of folded statements and of replaced getfields.
    for (size_t PC = 0; PC < N; ++PC) {
      Stmt &S = Out.Code[PC];
      for (size_t I = 0; I < S.Args.size(); ++I) {
        const IRValue &V = S.Args[I];
        if (V.K != IRValue::SSA || V.Index >= N)
          continue;
        size_t Def = V.Index;
        if (Replace[Def]) {
          S.Args[I] = *Replace[Def];
          Changed = true;
        } else if (Out.Code[Def].K == StmtKind::Call && !Out.Invokes[Def] &&
                   replaceableByValue(Out.Builtins[Def], Out.SSATypes[Def]) &&
                   foldableConst(Out.SSATypes[Def])) {
          SetConst(PC, I, *Out.SSATypes[Def].Const);
          Changed = true;
        }
      }
    }

    // Branches on constants, then whatever they leave unreachable.
    for (size_t PC = 0; PC < N; ++PC) {
      Stmt &S = Out.Code[PC];
      if (S.K != StmtKind::GotoIfNot || S.Args.empty())
        continue;
      std::optional<LatticeType> L = LatticeOf(PC, 0);
      if (!L || !L->Const || L->Const->K != ConstValue::Bool)
        continue;
      S.K = L->Const->Bits ? StmtKind::Nop : StmtKind::Goto;
      S.Args.clear();
      Changed = true;
    }
    std::vector<bool> Reached(N + 1, false);
    std::vector<size_t> Work{0};
    while (!Work.empty()) {
      size_t PC = Work.back();
      Work.pop_back();
      if (PC >= N || Reached[PC])
        continue;
      Reached[PC] = true;
      const Stmt &S = Out.Code[PC];
      if (S.K == StmtKind::Goto || S.K == StmtKind::GotoIfNot)
        Work.push_back(S.Label);
      if (S.K == StmtKind::Goto || S.K == StmtKind::Return ||
          (S.K == StmtKind::Call && Out.SSATypes[PC].isBottom()))
        continue;
      Work.push_back(PC + 1);
    }
    for (size_t PC = 0; PC < N; ++PC)
      if (!Reached[PC] && Out.Code[PC].K != StmtKind::Nop) {
        Out.Code[PC].K = StmtKind::Nop;
        Out.Code[PC].Args.clear();
        Changed = true;
      }
    if (!Changed)
      break;
  }
}

void Optimizer::foldAndClean() {
  size_t N = Out.Code.size();
  // Uses of statements with a constant value are that constant already
  // (propagate); globals and static parameters become the constants
  // inference resolved them to, so codegen needs no name lookup.
  for (size_t PC = 0; PC < N; ++PC) {
    Stmt &S = Out.Code[PC];
    for (size_t I = 0; I < S.Args.size(); ++I) {
      IRValue &V = S.Args[I];
      if ((V.K == IRValue::Global || V.K == IRValue::StaticParam) &&
          I < Out.ArgTypes[PC].size() && Out.ArgTypes[PC][I].Const)
        V = IRValue::constant(*Out.ArgTypes[PC][I].Const);
    }
  }
  // A read of a slot that may be unassigned is a check (UndefVarError):
  // its statement stays even when its value is known or unused (`z = y`
  // with y assigned on one path only is Julia's throw_undef_if_not).
  std::vector<bool> Checks(N, false);
  {
    DefiniteAssignment Assigned(Out);
    std::vector<bool> Checked(Out.Slots.size(), false);
    for (size_t PC = 0; PC < N; ++PC)
      for (const IRValue &V : Out.Code[PC].Args)
        if (Out.Code[PC].K != StmtKind::Nop && V.K == IRValue::Slot &&
            V.Index < Out.Slots.size() && !Assigned.assigned(PC, V.Index))
          Checks[PC] = Checked[V.Index] = true;
    // A loop-local's NewVar matters only to a read that may find it
    // unassigned; without one, every iteration assigns before reading.
    for (Stmt &S : Out.Code)
      if (S.K == StmtKind::NewVar &&
          (S.Slot >= Checked.size() || !Checked[S.Slot]))
        S.K = StmtKind::Nop;
  }
  // Dead code: effect-free calls whose value nobody uses, to a fixed point.
  for (bool Changed = true; Changed;) {
    Changed = false;
    std::vector<unsigned> Uses(N, 0);
    for (const Stmt &S : Out.Code)
      for (const IRValue &V : S.Args)
        if (V.K == IRValue::SSA && V.Index < N)
          ++Uses[V.Index];
    // Stores to slots nobody reads are dead too (arguments stay).
    std::vector<bool> SlotRead(Out.Slots.size(), false);
    for (const Stmt &S : Out.Code)
      for (const IRValue &V : S.Args)
        if (V.K == IRValue::Slot && V.Index < SlotRead.size())
          SlotRead[V.Index] = true;
    for (size_t PC = 0; PC < N; ++PC) {
      Stmt &S = Out.Code[PC];
      // getfield of a tuple at an index known only at run time is pure
      // but throws Julia's BoundsError when it is out of range: kept.
      bool MayThrow = Out.Builtins[PC] == Builtin::GetField &&
                      S.Args.size() > 2 && S.Args[2].K != IRValue::Const;
      bool DeadCall = S.K == StmtKind::Call && !Uses[PC] && !Out.Invokes[PC] &&
                      replaceableByValue(Out.Builtins[PC], Out.SSATypes[PC]) &&
                      !MayThrow && !Out.SSATypes[PC].isBottom();
      bool DeadStore = S.K == StmtKind::Assign && S.Slot > Out.NumArgs &&
                       S.Slot < SlotRead.size() && !SlotRead[S.Slot];
      if ((DeadCall || DeadStore) && !Checks[PC]) {
        S.K = StmtKind::Nop;
        S.Args.clear();
        Changed = true;
      }
    }
  }
  removeJumpsToNext();
}

bool Optimizer::removeJumpsToNext() {
  const size_t N = Out.Code.size();
  bool Changed = false;
  for (size_t PC = 0; PC < N; ++PC) {
    Stmt &S = Out.Code[PC];
    if (S.K != StmtKind::Goto)
      continue;
    size_t Next = PC + 1;
    while (Next < N && Out.Code[Next].K == StmtKind::Nop)
      ++Next;
    size_t Target = S.Label;
    while (Target < N && Out.Code[Target].K == StmtKind::Nop)
      ++Target;
    if (Target == Next) {
      S.K = StmtKind::Nop;
      Changed = true;
    }
  }
  return Changed;
}

void Optimizer::compact() {
  size_t N = Out.Code.size();
  std::vector<uint32_t> NewIndex(N + 1, 0);
  uint32_t K = 0;
  for (size_t PC = 0; PC < N; ++PC) {
    NewIndex[PC] = K;
    if (Out.Code[PC].K != StmtKind::Nop)
      ++K;
  }
  NewIndex[N] = K;
  TypedCode C;
  C.Slots = std::move(Out.Slots);
  C.SlotTypes = std::move(Out.SlotTypes);
  C.SlotFirstAssign = std::move(Out.SlotFirstAssign);
  C.NumArgs = Out.NumArgs;
  C.File = Out.File;
  C.Inlining = std::move(Out.Inlining);
  reserveStatements(C, K);
  for (size_t PC = 0; PC < N; ++PC) {
    Stmt &S = Out.Code[PC];
    if (S.K == StmtKind::Nop)
      continue;
    for (IRValue &V : S.Args)
      if (V.K == IRValue::SSA && V.Index < N)
        V.Index = NewIndex[V.Index];
    if (S.K == StmtKind::Goto || S.K == StmtKind::GotoIfNot)
      S.Label = NewIndex[std::min<size_t>(S.Label, N)];
    if (S.K == StmtKind::Assign && S.Slot < C.SlotFirstAssign.size() &&
        S.Slot > C.NumArgs &&
        (C.SlotFirstAssign[S.Slot] == UINT32_MAX ||
         C.SlotFirstAssign[S.Slot] > C.Code.size()))
      C.SlotFirstAssign[S.Slot] = C.Code.size();
    C.Code.push_back(std::move(S));
    C.SSATypes.push_back(std::move(Out.SSATypes[PC]));
    C.Invokes.push_back(Out.Invokes[PC]);
    C.Builtins.push_back(Out.Builtins[PC]);
    C.ArgTypes.push_back(std::move(Out.ArgTypes[PC]));
    C.InlineStacks.push_back(std::move(Out.InlineStacks[PC]));
    C.StmtFiles.push_back(std::move(Out.StmtFiles[PC]));
  }
  Out = std::move(C);
}

std::shared_ptr<TypedCode> Optimizer::run(const CodeInstance &CI) {
  inlineCode(*CI.Code, CI);
  propagate();
  foldAndClean();
  compact();
  return std::make_shared<TypedCode>(std::move(Out));
}

} // namespace

std::string InlineDecision::why() const {
  auto Size = [&](const char *Side) {
    return std::to_string(Cost) +
           (Cost == 1 ? " statement, " : " statements, ") + Side +
           " the threshold of " + std::to_string(InlineCostThreshold);
  };
  switch (Reason) {
  case InlineReason::DeclaredInline: return "declared @inline";
  case InlineReason::DeclaredNoInline: return "declared @noinline";
  case InlineReason::NestedTooDeep:
    return "inlining is nested " + std::to_string(MaxInlineDepth) + " deep already";
  case InlineReason::CodeHasErrors: return "its code has errors";
  case InlineReason::Recursive: return "recursive";
  case InlineReason::ReadsMaybeUnassigned:
    return "it reads a local that may be unassigned";
  case InlineReason::WithinThreshold: return Size("within");
  case InlineReason::OverThreshold: return Size("over") + " (@inline would force it)";
  }
  return {};
}

bool InferenceEngine::readsMaybeUnassigned(const CodeInstance &CI) {
  {
    std::lock_guard<std::mutex> G(P->OptLock);
    auto It = P->MaybeUnassignedReads.find(&CI);
    if (It != P->MaybeUnassignedReads.end())
      return It->second;
  }
  bool R = prism::readsMaybeUnassigned(*CI.Code);
  std::lock_guard<std::mutex> G(P->OptLock);
  return P->MaybeUnassignedReads.emplace(&CI, R).first->second;
}

std::shared_ptr<const TypedCode>
InferenceEngine::optimizedCode(CodeInstance *CI) {
  assert(CI && CI->Code && "optimizing a CodeInstance without code");
  {
    std::lock_guard<std::mutex> G(P->OptLock);
    auto It = P->Optimized.find(CI);
    if (It != P->Optimized.end())
      return It->second;
  }
  // The chain of instances being inlined right now (per thread), so that
  // recursion is never inlined into itself.
  thread_local std::vector<const CodeInstance *> Active;
  bool Outermost = Active.empty();
  if (Outermost)
    Active.push_back(CI);
  std::shared_ptr<const TypedCode> R = Optimizer(*this, Active).run(*CI);
  if (Outermost)
    Active.pop_back();
  std::lock_guard<std::mutex> G(P->OptLock);
  return P->Optimized.emplace(CI, std::move(R)).first->second;
}

InferResult InferenceEngine::optimizeForCodegen(const InferResult &R) {
  InferResult Out;
  Out.Roots = R.Roots;
  Out.W = R.W;
  Out.Bounds = R.Bounds;
  std::unordered_set<CodeInstance *> Seen;
  std::vector<CodeInstance *> Todo(R.Roots.rbegin(), R.Roots.rend());
  while (!Todo.empty()) {
    CodeInstance *CI = Todo.back();
    Todo.pop_back();
    if (!CI->Code || !Seen.insert(CI).second)
      continue;
    std::shared_ptr<const TypedCode> Code = optimizedCode(CI);
    Out.All.push_back(CI);
    Out.Codes.push_back(Code);
    for (size_t PC = Code->Invokes.size(); PC-- > 0;)
      if (MethodInstance *MI = Code->Invokes[PC];
          MI && Code->Code[PC].K == StmtKind::Call)
        if (CodeInstance *Callee = MI->cachedIn(R.W); Callee && !Seen.count(Callee))
          Todo.push_back(Callee);
  }
  return Out;
}

} // namespace prism
