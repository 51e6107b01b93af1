//===- AbstractInterp.cpp - the abstract interpreter over lowered IR ------===//
//
// Julia's `typeinf_local`: a worklist over statements carrying the slot
// types at each statement's entry, joined where control flow merges. Only
// reachable statements are interpreted, so a branch on a constant never
// infers (or dispatches from) the dead side. Calls dispatch statically and
// recurse into the callee's MethodInstance through Impl::callMI.
//
//===----------------------------------------------------------------------===//

#include "infer/BuiltinTransfer.h"
#include "infer/InferenceImpl.h"

#include "lang/AST.h"
#include "types/NameSuggestion.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace prism {

using namespace infer;

namespace {

TypeContext &ctx() { return TypeContext::get(); }

/// A constant worth propagating into a callee: a number, a Bool, a symbol,
/// or a tuple or struct with such a field (the dims `(16, 16)` of a 2-d
/// shared array, a DeviceArray whose size is known).
bool interestingConst(const LatticeType &L) {
  if (L.Fields)
    return std::any_of(L.Fields->begin(), L.Fields->end(), interestingConst);
  return L.Const && (L.Const->K == ConstValue::Int ||
                     L.Const->K == ConstValue::Bool ||
                     L.Const->K == ConstValue::Float ||
                     L.Const->K == ConstValue::Sym);
}

/// Nesting depth of a type's parameters, counted up to Limit + 1. Types
/// are interned, so a wide nest (`((x, x, ..., x), ...)` eight wide, twelve
/// deep) shares its parameters: each distinct one is measured once, where
/// walking the tree took eight to the twelfth steps.
unsigned typeDepthMemo(Type *T, unsigned Limit,
                       std::unordered_map<Type *, unsigned> &Memo) {
  if (!T->isDataType() && !T->isUnion())
    return 1;
  if (Limit == 0)
    return 1;
  if (auto It = Memo.find(T); It != Memo.end())
    return std::min(It->second, Limit + 1);
  unsigned D = 0;
  for (Type *P : T->params()) {
    D = std::max(D, typeDepthMemo(P, Limit - 1, Memo));
    if (D > Limit - 1)
      return Limit + 1; // past the limit: how far past does not matter
  }
  Memo.emplace(T, D + 1); // exact: nothing below was cut off
  return D + 1;
}




/// Concrete enough to dispatch on: a concrete type, or a `Type{T}` value.
bool dispatchable(Type *T) { return T->isConcrete() || T->isTypeType(); }

/// The statements waiting to be (re)interpreted, lowest first (a loop's
/// body runs before its exit). A bit per statement rather than a std::set:
/// queueing a statement is the commonest thing the interpreter does, and
/// must not allocate.
class StmtWorklist {
public:
  explicit StmtWorklist(size_t N) : Pending(N), Low(N) {}
  bool empty() const { return Count == 0; }
  void insert(uint32_t PC) {
    if (Pending.test(PC))
      return;
    Pending.set(PC);
    ++Count;
    Low = std::min<size_t>(Low, PC);
  }
  uint32_t pop() {
    // No statement below Low is pending.
    uint32_t PC = Pending.find_first_in(Low, Pending.size());
    Pending.reset(PC);
    --Count;
    Low = PC + 1;
    return PC;
  }

private:
  llvm::BitVector Pending;
  size_t Low;
  size_t Count = 0;
};

class Interpreter {
public:
  Interpreter(InferenceEngine::Impl &E, Frame &F)
      : E(E), F(F), Work(F.Src->Code.size()) {}

  void run();

private:
  InferenceEngine::Impl &E;
  Frame &F;
  StmtWorklist Work;

  const Stmt &stmt(uint32_t PC) const { return F.Src->Code[PC]; }
  DiagLoc locOf(uint32_t PC) const {
    return DiagLoc::fromRange(F.Src->File, stmt(PC).Range);
  }
  /// The name Name where it stands as a whole identifier inside statement
  /// PC's range or after it on its last line (an IR global keeps no range
  /// of its own); the statement's range when it is not there.
  DiagLoc locOfName(uint32_t PC, std::string_view Name) const {
    SrcRange R = stmt(PC).Range;
    if (F.Src->File && R.valid() && !Name.empty()) {
      std::string_view Text = F.Src->File->text();
      auto IsIdent = [](char C) {
        return std::isalnum(static_cast<unsigned char>(C)) || C == '_' ||
               C == '!' || static_cast<unsigned char>(C) >= 0x80;
      };
      // To the end of the statement's last line: `a[i] = q` is a
      // setindex! whose range is `a[i]`, with `q` beside it.
      size_t End = std::min(Text.find('\n', R.End), Text.size());
      for (size_t P = Text.find(Name, R.Begin);
           P != std::string_view::npos && P + Name.size() <= End;
           P = Text.find(Name, P + 1)) {
        size_t E = P + Name.size();
        if ((P == 0 || !IsIdent(Text[P - 1])) &&
            (E >= Text.size() || !IsIdent(Text[E])))
          return DiagLoc::fromRange(F.Src->File, {uint32_t(P), uint32_t(E)});
      }
    }
    return locOf(PC);
  }
  void error(uint32_t PC, Diagnostic D) { F.StmtErrors[PC].push_back(std::move(D)); }
  void undefinedName(uint32_t PC, Symbol Name);
  std::string nearestName(llvm::StringRef Name) const;
  void reportUnreachedUndefinedNames();

  /// Joins State into the entry state of statement To and queues To when
  /// that changed. Takes State by value: a successor reached first (the
  /// common case, straight-line code) keeps it without a copy.
  void propagate(uint32_t To, std::vector<LatticeType> State);
  LatticeType evalValue(uint32_t PC, const IRValue &V,
                        const std::vector<LatticeType> &State);
  LatticeType evalCall(uint32_t PC, const std::vector<LatticeType> &State);
  LatticeType dispatchGeneric(uint32_t PC, GenericFunction *GF,
                              const std::vector<LatticeType> &A);
  LatticeType dispatchAbstract(uint32_t PC, GenericFunction *GF,
                               const std::vector<Type *> &Sig);
  LatticeType dispatchOne(uint32_t PC, GenericFunction *GF,
                          const std::vector<LatticeType> &A,
                          const std::vector<Type *> &Sig, bool AllowConstProp,
                          MethodInstance **Target);
  bool narrowOnBranch(uint32_t PC, const IRValue &Cond,
                      std::vector<LatticeType> &Then,
                      std::vector<LatticeType> &Else, bool &ThenLive,
                      bool &ElseLive, unsigned Depth = 0);
};

/// A minus B: the members of a Union A that are not B's; Bottom when all
/// of A is B. Julia's typesubtract, for what a branch rules out.
Type *typeSubtract(Type *A, Type *B) {
  if (A->isUnion()) {
    std::vector<Type *> Keep;
    for (Type *M : A->members())
      if (!isSubtype(M, B))
        Keep.push_back(M);
    return ctx().unionOf(Keep);
  }
  return isSubtype(A, B) ? ctx().bottom() : A;
}

/// Julia's Conditional: a branch on `x isa T`, `x === c` or `x !== c` (c a
/// singleton such as `nothing`), `isnothing(x)`, or `!` of one, narrows the
/// local or argument x on each edge: `x === nothing ? 0 : x + 1` with x a
/// Union{Nothing, Int64} adds an Int64. False when Cond is not such a test;
/// an edge whose x would have no type is dead.
bool Interpreter::narrowOnBranch(uint32_t PC, const IRValue &Cond,
                                 std::vector<LatticeType> &Then,
                                 std::vector<LatticeType> &Else, bool &ThenLive,
                                 bool &ElseLive, unsigned Depth) {
  if (Cond.K != IRValue::SSA || Cond.Index >= PC || Depth > 4)
    return false;
  const uint32_t D = Cond.Index;
  const Stmt &S = stmt(D);
  if (S.K != StmtKind::Call || F.ArgTypes[D].size() != S.Args.size())
    return false;
  const std::vector<LatticeType> &A = F.ArgTypes[D];
  std::string_view Name;
  if (F.Builtins[D] == Builtin::IsA)
    Name = "isa";
  else if (F.Builtins[D] == Builtin::Egal)
    Name = "===";
  else if (A[0].Const && A[0].Const->K == ConstValue::Func &&
           llvm::all_of(A[0].Const->Fn->methodsIn(F.W),
                        [](const Method *M) { return M->IsPrelude; }))
    // Only Base's own `!`, `!==` and `isnothing` mean what is assumed
    // here: a program that adds a method (`isnothing(m::Maybe)`, even
    // `!(x::Bool) = x`) may mean anything by it.
    Name = A[0].Const->Fn->Name.str();
  if (Name == "!" && S.Args.size() == 2)
    return narrowOnBranch(PC, S.Args[1], Else, Then, ElseLive, ThenLive,
                          Depth + 1);
  const bool IsNothing = Name == "isnothing" && S.Args.size() == 2;
  if (S.Args.size() != 3 && !IsNothing)
    return false;
  // The slot tested, unless it is assigned between the test and the branch.
  auto SlotAt = [&](size_t I) -> std::optional<uint32_t> {
    if (S.Args[I].K != IRValue::Slot || S.Args[I].Index >= Then.size())
      return std::nullopt;
    for (uint32_t Q = D + 1; Q < PC; ++Q)
      if ((stmt(Q).K == StmtKind::Assign || stmt(Q).K == StmtKind::NewVar) &&
          stmt(Q).Slot == S.Args[I].Index)
        return std::nullopt;
    return S.Args[I].Index;
  };
  std::optional<uint32_t> Slot;
  Type *Is = nullptr;  // the true edge's x is within this
  LatticeType IsValue; // ... and is this value when it is a singleton
  if (IsNothing) {
    Slot = SlotAt(1);
    Is = ctx().nothing();
    IsValue = LatticeType(Is, constNothing());
  } else if (Name == "isa") {
    Slot = SlotAt(1);
    Is = A[2].Const && A[2].Const->K == ConstValue::TypeVal
             ? A[2].Const->TypeValue
             : nullptr;
  } else if (Name == "===" || Name == "!==") {
    for (size_t I : {1, 2}) {
      const LatticeType &Other = A[3 - I];
      if (!Slot && Other.Const && Other.T->isSingleton()) {
        Slot = SlotAt(I);
        Is = Other.T;
        IsValue = Other;
      }
    }
  }
  if (!Slot || !Is || !Then[*Slot].T || Then[*Slot].isBottom())
    return false;
  if (Name == "!==")
    std::swap(ThenLive, ElseLive), std::swap(Then, Else);
  auto Narrow = [](LatticeType &L, Type *T, bool &Live) {
    if (T->isBottom())
      Live = false;
    else if (T != L.T)
      L = latticeOf(T);
  };
  LatticeType &X = Then[*Slot];
  Type *Old = X.T;
  if (IsValue.T && !Old->isSingleton() && isSubtype(IsValue.T, Old))
    X = IsValue;
  else
    Narrow(X, typeIntersect(Old, Is), ThenLive);
  Narrow(Else[*Slot], typeSubtract(Else[*Slot].T, Is), ElseLive);
  if (Name == "!==")
    std::swap(ThenLive, ElseLive), std::swap(Then, Else);
  return true;
}

void Interpreter::propagate(uint32_t To, std::vector<LatticeType> State) {
  if (To >= F.States.size())
    return;
  auto &Dst = F.States[To];
  if (!Dst) {
    Dst = std::move(State);
    Work.insert(To);
    return;
  }
  bool Changed = false;
  for (size_t I = 0; I < State.size(); ++I) {
    LatticeType J = join((*Dst)[I], State[I]);
    if (J != (*Dst)[I]) {
      (*Dst)[I] = std::move(J);
      Changed = true;
    }
  }
  if (Changed)
    Work.insert(To);
}

LatticeType Interpreter::evalValue(uint32_t PC, const IRValue &V,
                                   const std::vector<LatticeType> &State) {
  switch (V.K) {
  case IRValue::None:
    return LatticeType(ctx().nothing(), constNothing());
  case IRValue::SSA:
    return V.Index < F.SSATypes.size() && F.SSATypes[V.Index].T
               ? F.SSATypes[V.Index]
               : bottomLattice();
  case IRValue::Slot:
    return V.Index < State.size() && State[V.Index].T ? State[V.Index]
                                                       : bottomLattice();
  case IRValue::StaticParam: {
    Type *P = V.Index < F.MI->SparamValues.size() ? F.MI->SparamValues[V.Index]
                                                  : nullptr;
    if (auto C = constOfParam(P)) // a symbol (`:π`) has no type of its own
      return LatticeType(C->Ty ? C->Ty : ctx().any(), *C);
    return anyLattice(); // unbound: only known at run time
  }
  case IRValue::Const: {
    const ConstValue &C = V.C;
    if (C.K == ConstValue::Sym)
      return LatticeType(ctx().any(), C);
    if (!C.Ty) {
      // Lowering's `nothing` may leave the type implicit.
      if (C.K == ConstValue::Nothing)
        return LatticeType(ctx().nothing(), constNothing());
      return anyLattice();
    }
    return LatticeType(C.Ty, C);
  }
  case IRValue::Global: {
    if (auto L = E.resolveGlobal(V.Name, F.Src->File))
      return *L;
    undefinedName(PC, V.Name);
    return bottomLattice();
  }
  }
  return anyLattice();
}

void Interpreter::run() {
  const CodeInfo &Src = *F.Src;
  size_t N = Src.Code.size();
  F.reset(N);
  // Entry state: #self# and the arguments from the signature (constant
  // arguments of a const-specialised instance included); locals undefined.
  std::vector<LatticeType> Entry(Src.Slots.size());
  for (size_t I = 0; I < Entry.size() && I < F.MI->Sig.size() &&
                     I <= Src.NumArgs;
       ++I) {
    Entry[I] = latticeOf(F.MI->Sig[I]);
    if (I < F.MI->ConstArgs.size() && F.MI->ConstArgs[I])
      Entry[I] = *F.MI->ConstArgs[I];
  }
  if (N == 0)
    return;
  F.States[0] = std::move(Entry);
  Work.insert(0);

  // The statements reading each SSA value. A value's type can widen while
  // the slot state at its users stays the same (a loop's second iteration),
  // so its users are revisited when it changes, not only on state changes.
  // Flat: the users of value V are UserList[UsersBegin[V] .. UsersBegin[V + 1]).
  std::vector<uint32_t> UsersBegin(N + 1, 0), UserList;
  for (uint32_t PC = 0; PC < N; ++PC)
    for (const IRValue &V : Src.Code[PC].Args)
      if (V.K == IRValue::SSA && V.Index < N)
        ++UsersBegin[V.Index + 1];
  for (size_t V = 0; V < N; ++V)
    UsersBegin[V + 1] += UsersBegin[V];
  UserList.resize(UsersBegin[N]);
  {
    std::vector<uint32_t> Next(UsersBegin.begin(), UsersBegin.end() - 1);
    for (uint32_t PC = 0; PC < N; ++PC)
      for (const IRValue &V : Src.Code[PC].Args)
        if (V.K == IRValue::SSA && V.Index < N)
          UserList[Next[V.Index]++] = PC;
  }
  // Slot states are kept at the start of each basic block only (the entry,
  // jump targets, what follows a jump or a return), and a block is
  // interpreted in one pass over one working state, as Julia's inference
  // does: a state per statement held every slot at every statement, which
  // grew with the square of a long function with many locals.
  std::vector<uint32_t> LeaderOf(N);
  {
    std::vector<bool> Leader = blockStarts(Src.Code);
    for (uint32_t PC = 0, L = 0; PC < N; ++PC)
      LeaderOf[PC] = L = Leader[PC] ? PC : L;
  }
  uint32_t PC = 0; // the statement being interpreted
  // A value's type widened: the blocks of the statements using it run again
  // (one later in the block being interpreted is reached in this pass).
  auto SetSSAType = [&](uint32_t Def, const LatticeType &R) {
    LatticeType J = join(F.SSATypes[Def], R);
    if (J == F.SSATypes[Def])
      return;
    F.SSATypes[Def] = std::move(J);
    for (uint32_t I = UsersBegin[Def]; I < UsersBegin[Def + 1]; ++I) {
      uint32_t U = UserList[I];
      if (F.Reached[U] && !(LeaderOf[U] == LeaderOf[PC] && U > PC))
        Work.insert(LeaderOf[U]);
    }
  };

  while (!Work.empty()) {
    PC = Work.pop();
    std::vector<LatticeType> State = *F.States[PC];
    for (bool InBlock = true; InBlock;) {
      InBlock = false;
      F.Reached[PC] = true;
      // Into the next statement: within the block on the working state, or
      // into the next block's entry state.
      auto FallThrough = [&] {
        if (PC + 1 < N && LeaderOf[PC + 1] != PC + 1) {
          ++PC;
          InBlock = true;
        } else {
          propagate(PC + 1, std::move(State));
        }
      };
      const Stmt &S = stmt(PC);
      F.StmtErrors[PC].clear();
      switch (S.K) {
      case StmtKind::Call: {
        LatticeType R = evalCall(PC, State);
        SetSSAType(PC, R);
        if (!R.isBottom())
          FallThrough();
        break;
      }
      case StmtKind::Assign: {
        LatticeType V =
            S.Args.empty() ? bottomLattice() : evalValue(PC, S.Args[0], State);
        F.ArgTypes[PC].assign(1, V);
        // A loop that nests a variable in itself (`t = (t, i)`) would grow
        // its type forever: reported, as a recursion's argument types are.
        if (!V.isBottom() && typeDepth(V.T, MaxArgTypeDepth) > MaxArgTypeDepth) {
          error(PC,
                Diagnostic::error(
                    "inference",
                    "the type of `" +
                        (S.Slot < F.Src->Slots.size()
                             ? F.Src->Slots[S.Slot].Name.string()
                             : std::string("?")) +
                        "` nests more than " + std::to_string(MaxArgTypeDepth) +
                        " levels deep, past Prism's limit (which a loop "
                        "whose variable's type grows without bound "
                        "reaches)",
                    locOf(PC)));
          V = bottomLattice();
        }
        SetSSAType(PC, V);
        if (V.isBottom())
          break;
        if (S.Slot < State.size())
          State[S.Slot] = V;
        FallThrough();
        break;
      }
      case StmtKind::Goto:
        propagate(S.Label, std::move(State));
        break;
      case StmtKind::GotoIfNot: {
        LatticeType C =
            S.Args.empty() ? bottomLattice() : evalValue(PC, S.Args[0], State);
        F.ArgTypes[PC].assign(1, C);
        if (C.isBottom())
          break;
        if (C.Const && C.Const->K == ConstValue::Bool) {
          propagate(C.Const->Bits ? PC + 1 : S.Label, std::move(State));
          break;
        }
        if (typeIntersect(C.T, ctx().boolTy())->isBottom()) {
          error(PC, Diagnostic::error("type-error",
                                      "non-boolean (" + C.T->str() +
                                          ") used in boolean context",
                                      locOf(PC)));
          break;
        }
        std::vector<LatticeType> Else = State;
        bool ThenLive = true, ElseLive = true;
        narrowOnBranch(PC, S.Args[0], State, Else, ThenLive, ElseLive);
        if (ThenLive)
          propagate(PC + 1, std::move(State));
        if (ElseLive)
          propagate(S.Label, std::move(Else));
        break;
      }
      case StmtKind::Return: {
        LatticeType V = S.Args.empty()
                            ? LatticeType(ctx().nothing(), constNothing())
                            : evalValue(PC, S.Args[0], State);
        F.ArgTypes[PC].assign(1, V);
        F.Return = join(F.Return, V);
        break;
      }
      case StmtKind::NewVar:
        if (S.Slot < State.size())
          State[S.Slot] = bottomLattice(); // no value until assigned again
        FallThrough();
        break;
      case StmtKind::Nop:
        FallThrough();
        break;
      }
    }
  }
  reportUnreachedUndefinedNames();
}

void Interpreter::undefinedName(uint32_t PC, Symbol Name) {
  F.UndefinedNames.push_back(Name);
  Diagnostic D = Diagnostic::error(
      "undef-var", "`" + std::string(Name.str()) + "` not defined",
      locOfName(PC, Name.str()));
  // `r = 1:n` lowers, as in Julia, to a call of `:`, which the kernel
  // language has only as a `for` loop's iterator.
  if (Name.str() == ":")
    D.Message = "a range (`a:b`, `a:s:b`) is not a value in the kernel "
                "language: only a `for` loop iterates one (`for i in a:b`)";
  else if (isBaseOnlyFunction(Name.str()))
    D.note("`" + std::string(Name.str()) +
           "` is Base Julia's, but not in the kernel language's prelude "
           "(LANGUAGE.md lists what is)");
  else if (std::string Advice = cudaOnlyAdvice(Name.str()); !Advice.empty())
    D.note(Advice);
  else if (std::string Near = nearestName(Name.str()); !Near.empty())
    D.note("did you mean `" + Near + "`?");
  error(PC, std::move(D));
}

std::string Interpreter::nearestName(llvm::StringRef Name) const {
  std::vector<llvm::StringRef> Locals;
  for (const SlotInfo &S : F.Src->Slots)
    Locals.push_back(S.Name.str());
  return nearestFunctionName(E.Env, Name, Locals);
}

/// An undefined name has no value (Union{}), so the code after it is
/// never reached and a second misspelt name would show only once the first
/// is fixed. The names the unreached code uses that are defined nowhere
/// are reported with it. Only then: code unreachable for its own reasons
/// (after a `throw`) is left alone, as Julia leaves it.
void Interpreter::reportUnreachedUndefinedNames() {
  if (F.UndefinedNames.empty())
    return;
  const CodeInfo &Src = *F.Src;
  for (uint32_t PC = 0; PC < Src.Code.size(); ++PC) {
    if (F.Reached[PC])
      continue;
    for (const IRValue &V : Src.Code[PC].Args)
      if (V.K == IRValue::Global &&
          std::find(F.UndefinedNames.begin(), F.UndefinedNames.end(), V.Name) ==
              F.UndefinedNames.end() &&
          !E.resolveGlobal(V.Name, Src.File))
        undefinedName(PC, V.Name);
  }
}

LatticeType Interpreter::evalCall(uint32_t PC,
                                  const std::vector<LatticeType> &State) {
  const Stmt &S = stmt(PC);
  std::vector<LatticeType> A;
  A.reserve(S.Args.size());
  bool AnyBottom = false;
  for (const IRValue &V : S.Args) {
    A.push_back(evalValue(PC, V, State));
    AnyBottom |= A.back().isBottom();
  }
  F.Invokes[PC] = nullptr;
  F.Builtins[PC] = Builtin::None;
  F.StmtEdges[PC].clear();
  // An argument without a value (an error, or code after a throw in this
  // iteration): the call is never reached.
  if (A.empty() || AnyBottom) {
    F.ArgTypes[PC] = std::move(A);
    return bottomLattice();
  }
  LatticeType Result;
  const LatticeType &Callee = A[0];
  GenericFunction *GF = nullptr;
  if (Callee.Const && Callee.Const->K == ConstValue::Func)
    GF = Callee.Const->Fn;
  else if (Callee.T->isFunctionType() && Callee.T->name()->Func)
    GF = Callee.T->name()->Func;

  if (GF && GF->K == GenericFunction::BuiltinFn) {
    F.Builtins[PC] = GF->BuiltinId;
    BuiltinResult BR = transferBuiltin(
        GF->BuiltinId, std::span<const LatticeType>(A).subspan(1),
        E.boundsChecksOff(*F.MI));
    if (!BR.Error.empty())
      error(PC, Diagnostic::error("builtin", BR.Error, locOf(PC)));
    F.NeedsConstArgs |= BR.UsedRequiredConst;
    Result = BR.R;
  } else if (GF) {
    Result = dispatchGeneric(PC, GF, A);
  } else if (Callee.Const && Callee.Const->K == ConstValue::TypeVal &&
             Callee.Const->TypeValue->isDataType()) {
    // `Float32(x)`, `Point(1, 2)`, `S{T}(x)`: the type's constructor table,
    // dispatched with `Type{S}` as the callee type.
    GF = E.Env.constructorFunction(Callee.Const->TypeValue->name());
    Result = dispatchGeneric(PC, GF, A);
  } else if (Callee.T->isTypeType() && !Callee.T->params().empty() &&
             Callee.T->param(0)->isDataType()) {
    GF = E.Env.constructorFunction(Callee.T->param(0)->name());
    Result = dispatchGeneric(PC, GF, A);
  } else if (!dispatchable(Callee.T)) {
    // A callee only known at run time (a Union of functions, Any): dynamic
    // call; validation reports it.
    Result = anyLattice();
  } else {
    error(PC, Diagnostic::error("not-callable",
                                "objects of type " + Callee.T->str() +
                                    " are not callable",
                                locOf(PC)));
    Result = bottomLattice();
  }
  F.ArgTypes[PC] = std::move(A);
  return Result;
}

LatticeType Interpreter::dispatchGeneric(uint32_t PC, GenericFunction *GF,
                                         const std::vector<LatticeType> &A) {
  std::vector<Type *> Sig;
  bool AllConcrete = true;
  for (const LatticeType &L : A) {
    Sig.push_back(L.T);
    AllConcrete &= dispatchable(L.T);
  }
  if (AllConcrete) {
    MethodInstance *Target = nullptr;
    LatticeType R = dispatchOne(PC, GF, A, Sig, /*AllowConstProp=*/true, &Target);
    F.Invokes[PC] = Target;
    return R;
  }
  // Union splitting: a small Union argument is dispatched per member so the
  // result type stays precise (the call itself stays dynamic: Invokes is
  // null and validation reports the non-concrete argument).
  size_t Combos = 1;
  for (Type *T : Sig) {
    if (T->isUnion()) {
      for (Type *M : T->members())
        if (!dispatchable(M))
          return dispatchAbstract(PC, GF, Sig);
      Combos *= T->members().size();
    } else if (!dispatchable(T)) {
      return dispatchAbstract(PC, GF, Sig);
    }
  }
  if (Combos > 8)
    return dispatchAbstract(PC, GF, Sig);
  LatticeType R = bottomLattice();
  for (size_t C = 0; C < Combos; ++C) {
    std::vector<Type *> Split(Sig.size());
    std::vector<LatticeType> SplitA(A.size());
    size_t Rest = C;
    for (size_t I = 0; I < Sig.size(); ++I) {
      if (Sig[I]->isUnion()) {
        auto Ms = Sig[I]->members();
        Split[I] = Ms[Rest % Ms.size()];
        Rest /= Ms.size();
        SplitA[I] = latticeOf(Split[I]);
      } else {
        Split[I] = Sig[I];
        SplitA[I] = A[I];
      }
    }
    MethodInstance *Target = nullptr;
    R = join(R, dispatchOne(PC, GF, SplitA, Split, false, &Target));
  }
  return R;
}

/// Julia's abstract call inference (max_methods): a call whose argument
/// types are abstract may reach several methods. With at most MaxMethods of
/// them, each is inferred for the intersection of its signature with the
/// call's, and the result is the union (`area(s::Shape)` over `area(::Square)
/// → Float64`, `area(::Circle) → Float32` and `area(::Shape) → Float64`:
/// Union{Float32, Float64}). The call itself stays dynamic (validation
/// reports it); what is not this simple (a where-variable in an
/// intersection, an ambiguous one) stays Any. The lookup is recorded so that
/// a method added later that may match invalidates this code
/// (Invalidation.cpp), as Julia's method-table backedges do.
LatticeType Interpreter::dispatchAbstract(uint32_t PC, GenericFunction *GF,
                                          const std::vector<Type *> &Sig) {
  constexpr size_t MaxMethods = 3; // Julia's default max_methods
  std::vector<std::vector<Type *>> Targets;
  for (Method *M : GF->methodsIn(F.W)) {
    if (M->Sig.size() != Sig.size())
      continue;
    SignatureMeet Meet = intersectSignature(Sig, M->Sig, M->Sparams);
    if (Meet.Kind == SignatureMeet::Unknown)
      return anyLattice();
    if (Meet.Kind == SignatureMeet::Disjoint)
      continue;
    if (llvm::any_of(Targets, [&](const std::vector<Type *> &T) {
          return std::equal(T.begin(), T.end(), Meet.Types.begin(), typeEqual);
        }))
      continue;
    if (Targets.size() == MaxMethods)
      return anyLattice();
    Targets.push_back(std::move(Meet.Types));
  }
  F.FailedLookups.emplace_back(GF, Sig);
  if (Targets.empty())
    return anyLattice(); // a MethodError at run time; Julia infers Union{}
  for (const std::vector<Type *> &T : Targets)
    if (E.lookup(GF, T, F.W).Status != LookupStatus::Found)
      return anyLattice();
  LatticeType R = bottomLattice();
  for (const std::vector<Type *> &T : Targets) {
    std::vector<LatticeType> A;
    for (Type *P : T)
      A.push_back(latticeOf(P));
    MethodInstance *Target = nullptr;
    R = join(R, dispatchOne(PC, GF, A, T, /*AllowConstProp=*/false, &Target));
  }
  return R;
}

LatticeType Interpreter::dispatchOne(uint32_t PC, GenericFunction *GF,
                                     const std::vector<LatticeType> &A,
                                     const std::vector<Type *> &Sig,
                                     bool AllowConstProp,
                                     MethodInstance **Target) {
  const LookupResult *Found = &E.lookup(GF, Sig, F.W);
  if (Found->Status == LookupStatus::NoMethod && GF->ConstructorOf &&
      GF->ConstructorOf != ctx().typeTypeName()) {
    // `(::Type{T})(x) where T` methods live in the table of `Type` itself.
    GenericFunction *TypeTable = E.Env.constructorFunction(ctx().typeTypeName());
    const LookupResult &Alt = E.lookup(TypeTable, Sig, F.W);
    if (Alt.Status != LookupStatus::NoMethod) {
      GF = TypeTable;
      Found = &Alt;
    }
  }
  const LookupResult &LR = *Found;
  if (LR.Status != LookupStatus::Found) {
    error(PC, dispatchDiagnostic(*GF, Sig, LR, locOf(PC)));
    if (LR.Status == LookupStatus::NoMethod)
      F.FailedLookups.emplace_back(GF, Sig);
    return bottomLattice();
  }
  const MethodMatch &MM = LR.Match;
  for (Type *T : Sig)
    if (typeDepth(T, MaxArgTypeDepth) > MaxArgTypeDepth) {
      error(PC, Diagnostic::error(
                    "inference",
                    "inference of " + MM.M->signatureString() +
                        ": argument types nest more than " +
                        std::to_string(MaxArgTypeDepth) +
                        " levels deep, past Prism's limit (which a recursion "
                        "whose argument types grow without bound reaches)",
                    locOf(PC)));
      return bottomLattice();
    }
  F.narrowWorlds(MM.MinWorld, MM.MaxWorld);
  // Only Auto tells @inbounds callees apart; the other modes decide
  // boundscheck() alike everywhere, so one instance serves. In an
  // @inbounds instance of a @propagate_inbounds method every call is
  // @inbounds, as if the caller's region went on into it.
  bool InRegion = (stmt(PC).Flags & SF_InBounds) ||
                  (F.MI->InBounds && F.MI->Def->PropagateInbounds);
  bool InBounds =
      E.Bounds == CheckBounds::Auto && InRegion && E.usesBoundsCheck(MM.M);
  MethodInstance *MI = E.internMI(MM.M, Sig, MM.SparamValues, InBounds);
  CodeInstance *CI = nullptr;
  std::string Err;
  LatticeType R = E.callMI(F, MI, &CI, 0, &Err);
  *Target = MI;
  if (!Err.empty())
    error(PC, Diagnostic::error("inference", Err, locOf(PC)));

  // Constant propagation: re-infer the callee with the constant arguments
  // when that can sharpen the result (Julia's const-prop). The constant
  // instance is kept when its result is strictly better or when its body
  // needed the constants (`shared_array(T, n)`).
  bool HasConst = false;
  for (size_t I = 1; I < A.size(); ++I)
    HasConst |= interestingConst(A[I]);
  if (AllowConstProp && HasConst && CI && !R.Const && !R.isBottom() &&
      F.ConstDepth < MaxConstDepth && MM.M->Lowered &&
      MM.M->Lowered->Code.size() <= 400) {
    // Only a recursion of this very instance stops it (Julia's
    // is_constprop_recursed): `%(-7, 3)` reaches `%(0, Int64)` through
    // `zero`, a different instance of the same method, which must fold.
    bool OnStack = false;
    for (Frame *S : E.Stack)
      OnStack |= S->MI->Def == MM.M && S->MI->Sig == Sig;
    if (!OnStack) {
      std::vector<std::optional<LatticeType>> ConstArgs(A.size());
      for (size_t I = 1; I < A.size(); ++I)
        if (interestingConst(A[I]))
          ConstArgs[I] = A[I];
      MethodInstance *CMI =
          E.internMI(MM.M, Sig, MM.SparamValues, InBounds, std::move(ConstArgs));
      CodeInstance *CCI = nullptr;
      std::string CErr;
      LatticeType CR = E.callMI(F, CMI, &CCI, F.ConstDepth + 1, &CErr);
      if (CCI && CErr.empty() && (CCI->NeedsConstArgs || (CR != R && lessOrEqual(CR, R)))) {
        F.NeedsConstArgs |= CCI->NeedsConstArgs;
        R = CR;
        MI = CMI;
        *Target = CMI;
      }
    }
  }
  F.StmtEdges[PC].push_back(MI);
  return R;
}

} // namespace

unsigned typeDepth(Type *T, unsigned Limit) {
  std::unordered_map<Type *, unsigned> Memo;
  return typeDepthMemo(T, Limit, Memo);
}

void InferenceEngine::Impl::interpret(Frame &F) {
  Interpreter(*this, F).run();
}

std::optional<LatticeType>
InferenceEngine::Impl::resolveGlobal(Symbol Name, const SourceFileRef &File) {
  if (Name.str() == "nothing")
    return LatticeType(ctx().nothing(), constNothing());
  // `Any` and `Union` are not TypeNames. `Union` as a value is represented
  // by Union{} (Bottom): apply_type(Union, A, B) builds Union{A, B} and a
  // bare `Union{}` is Bottom itself.
  if (Name.str() == "Any")
    return LatticeType(ctx().typeOfType(ctx().any()), constType(ctx().any()));
  if (Name.str() == "Union")
    return LatticeType(ctx().typeOfType(ctx().bottom()), constType(ctx().bottom()));
  if (TypeName *TN = Env.lookupType(Name)) {
    // Evaluate the name as the loader does, so `Int` is Int64 and a
    // parametric name is the same type object the loader puts in signatures.
    ast::Node N{ast::NodeKind::Ident, SrcRange{}, Name, ast::LitType::Int64, 0, {}};
    Type *T = nullptr;
    if (auto TE = evalTypeExpr(Env, N, File))
      T = *TE;
    else
      llvm::consumeError(TE.takeError());
    if (!T)
      T = ctx().apply(TN, TN->Params);
    return LatticeType(ctx().typeOfType(T), constType(T));
  }
  if (GenericFunction *GF = Env.lookupFunction(Name))
    return LatticeType(GF->type(), constFunc(GF));
  if (const ConstValue *C = Env.lookupConst(Name)) {
    if (C->K == ConstValue::Sym)
      return LatticeType(ctx().any(), *C);
    return LatticeType(C->Ty, *C);
  }
  // Julia's aliases (`AbstractVector`, CUDA.jl's `CuDeviceVector`) are
  // types in an expression too (`x isa AbstractVector`), as in a signature.
  ast::Node N{ast::NodeKind::Ident, SrcRange{}, Name,
              ast::LitType::Int64,  0,          {}};
  if (auto TE = evalTypeExpr(Env, N, File))
    return LatticeType(ctx().typeOfType(*TE), constType(*TE));
  else
    llvm::consumeError(TE.takeError());
  return std::nullopt;
}

} // namespace prism
