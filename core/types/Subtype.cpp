// Subtyping, matching with `where` variables, intersection and join.
//
// This is a deliberately small version of Julia's subtyping algorithm
// (src/subtype.c): the kernel language has no UnionAll values beyond method
// signatures and bare parametric names, no Vararg except NTuple, and
// dispatch is always asked about concrete argument types. Variables of the
// right-hand side are existential and get bound while walking the types;
// variables of the left-hand side stand for any type within their bounds.
#include "types/Type.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cassert>

namespace prism {

namespace {

void collectVars(Type *T, llvm::SmallVectorImpl<Type *> &Out) {
  if (!T || !T->hasTypeVars())
    return;
  if (T->isTypeVar()) {
    if (std::find(Out.begin(), Out.end(), T) == Out.end())
      Out.push_back(T);
    return;
  }
  for (Type *P : T->params()) // DataType params and Union members alike
    collectVars(P, Out);
}

bool occursIn(Type *Var, Type *T) {
  if (T == Var)
    return true;
  if (!T->hasTypeVars() || T->isTypeVar())
    return false;
  for (Type *P : T->params())
    if (occursIn(Var, P))
      return true;
  return false;
}

bool subUniversal(Type *A, Type *B);
bool equalUniversal(Type *A, Type *B);

bool isNTuplePattern(Type *T) {
  return T->isDataType() && T->name() == TypeContext::get().ntupleName();
}

/// The value of a bare parametric name (`Point`, `Ptr`, `Tuple`): a UnionAll
/// over the name's own parameters. Inside an invariant position it is one
/// opaque type (`Type{Point}` is not `Type{Point{T}}` for any T), so its
/// variables must not be bound like a signature's.
bool isBareUnionAll(Type *T) {
  if (!T->isDataType() || !T->hasTypeVars())
    return false;
  TypeName *N = T->name();
  auto Ps = T->params();
  if (Ps.size() != N->Params.size())
    return false;
  for (size_t I = 0; I < Ps.size(); ++I)
    if (Ps[I] == N->Params[I] || (isNTuplePattern(T) && I == 1 && Ps[I]->isAny()))
      return true;
  return false;
}

class Matcher {
public:
  struct VarState {
    Type *Var;
    Type *Inv = nullptr;        ///< binding from an invariant position
    llvm::SmallVector<Type *, 2> Cov; ///< types seen in covariant positions
    unsigned CovCount = 0, InvCount = 0; ///< occurrences in the pattern
    Type *Value = nullptr;      ///< after finish()
  };
  using VarStates = llvm::SmallVector<VarState, 2>;

  explicit Matcher(std::span<Type *const> Existential) {
    for (Type *V : Existential) {
      Vars.emplace_back();
      Vars.back().Var = V;
    }
  }

  /// Counts occurrences of the existential variables in the pattern, to
  /// know which are diagonal (only covariant, more than once).
  void scan(Type *T, bool Invariant) {
    if (!T->hasTypeVars())
      return;
    if (T->isTypeVar()) {
      if (VarState *S = find(T))
        (Invariant ? S->InvCount : S->CovCount) += 1;
      return;
    }
    if (T->isUnion()) {
      for (Type *M : T->members())
        scan(M, Invariant);
      return;
    }
    if (T->isTuple()) {
      for (Type *P : T->params())
        scan(P, Invariant);
      return;
    }
    if (isNTuplePattern(T)) {
      scan(T->param(0), true);
      // The element type repeats N times: count it as repeated.
      scan(T->param(1), Invariant);
      scan(T->param(1), Invariant);
      return;
    }
    for (Type *P : T->params())
      scan(P, true);
  }

  bool sub(Type *A, Type *B) {
    if (A == B)
      return true;
    if (VarState *S = find(B))
      return bindCov(*S, A);
    if (A->isBottom() || B->isAny())
      return true;
    if (A->isUnion()) {
      for (Type *M : A->members())
        if (!sub(M, B))
          return false;
      return true;
    }
    if (A->isTypeVar())
      return sub(A->upperBound(), B);
    if (B->isUnion()) {
      for (Type *M : B->members()) {
        VarStates Saved = Vars;
        if (sub(A, M))
          return true;
        Vars = std::move(Saved);
      }
      return false;
    }
    if (B->isTypeVar()) // a variable of the left side, seen on the right
      return sub(A, B->lowerBound());
    if (!A->isDataType() || !B->isDataType())
      return false;

    if (isNTuplePattern(B)) {
      if (A->isTuple()) {
        TypeContext &C = TypeContext::get();
        if (!eq(C.intValue(static_cast<int64_t>(A->params().size())), B->param(0)))
          return false;
        for (Type *E : A->params())
          if (!sub(E, B->param(1)))
            return false;
        return true;
      }
      if (isNTuplePattern(A))
        return eq(A->param(0), B->param(0)) && sub(A->param(1), B->param(1));
      return false;
    }
    if (B->isTuple()) {
      if (!A->isTuple() || A->params().size() != B->params().size())
        return false;
      for (size_t I = 0; I < A->params().size(); ++I)
        if (!sub(A->param(I), B->param(I)))
          return false;
      return true;
    }
    // Walk up A's supertypes to B's name, then compare parameters
    // invariantly.
    Type *Up = A;
    while (Up && Up->isDataType() && Up->name() != B->name())
      Up = Up->super();
    if (!Up || !Up->isDataType())
      return false;
    if (Up->params().size() != B->params().size())
      return false;
    for (size_t I = 0; I < Up->params().size(); ++I)
      if (!eq(Up->param(I), B->param(I)))
        return false;
    return true;
  }

  /// Type equality in an invariant position, binding variables of B.
  bool eq(Type *A, Type *B) {
    if (A == B)
      return true;
    if (VarState *S = find(B))
      return bindInv(*S, A);
    if (isBareUnionAll(A) || isBareUnionAll(B))
      return false;
    bool BHasEx = hasExistential(B);
    if (A->isDataType() && B->isDataType() && BHasEx) {
      if (A->name() == B->name() && A->params().size() == B->params().size()) {
        for (size_t I = 0; I < A->params().size(); ++I)
          if (!eq(A->param(I), B->param(I)))
            return false;
        return true;
      }
      if (A->isTuple() && isNTuplePattern(B)) {
        TypeContext &C = TypeContext::get();
        if (!eq(C.intValue(static_cast<int64_t>(A->params().size())), B->param(0)))
          return false;
        for (Type *E : A->params())
          if (!eq(E, B->param(1)))
            return false;
        return true;
      }
      return false;
    }
    if (A->isValueParam() || B->isValueParam())
      return false;
    // Mutual subtyping (equal Unions written differently, left variables).
    VarStates Saved = Vars;
    if (sub(A, B) && subNoBind(B, A))
      return true;
    Vars = std::move(Saved);
    return false;
  }

  /// Checks bounds, the diagonal rule and covariant/invariant agreement;
  /// computes each variable's value.
  bool finish() {
    std::vector<Type *> Done, Values;
    TypeContext &C = TypeContext::get();
    for (VarState &S : Vars) {
      if (S.Inv) {
        for (Type *Cv : S.Cov)
          if (!subUniversal(Cv, S.Inv))
            return false;
        S.Value = S.Inv;
      } else if (!S.Cov.empty()) {
        if (S.CovCount > 1 && S.InvCount == 0) {
          // Diagonal: equality was checked at binding; must be concrete.
          Type *V = S.Cov[0];
          if (!V->isConcrete() && !V->isTypeVar() && !V->isBottom())
            return false;
          S.Value = V;
        } else {
          S.Value = C.unionOf(S.Cov);
        }
      }
      if (S.Value) {
        Type *Lo = C.substitute(S.Var->lowerBound(), Done, Values);
        Type *Hi = C.substitute(S.Var->upperBound(), Done, Values);
        if (!subUniversal(Lo, S.Value) || !subUniversal(S.Value, Hi))
          return false;
      }
      Done.push_back(S.Var);
      Values.push_back(S.Value);
    }
    return true;
  }

  /// A static parameter's value. One bound only in covariant positions
  /// (`x::T`) to a type that is not concrete stays the variable, as Julia
  /// leaves it (`T <: Real` at an argument of type Real): its value is the
  /// argument's type when it runs, some subtype.
  Type *sparamValue(Type *Var) {
    VarState *S = find(Var);
    if (!S || !S->Value)
      return nullptr;
    Type *V = S->Value;
    if (!S->Inv && !V->isConcrete() && !V->isBottom() && !V->isTypeVar() &&
        !V->isValueParam())
      return Var;
    return V;
  }

private:
  VarStates Vars;

  VarState *find(Type *V) {
    if (!V->isTypeVar())
      return nullptr;
    for (VarState &S : Vars)
      if (S.Var == V)
        return &S;
    return nullptr;
  }

  bool hasExistential(Type *T) {
    if (!T->hasTypeVars())
      return false;
    for (VarState &S : Vars)
      if (occursIn(S.Var, T))
        return true;
    return false;
  }

  bool subNoBind(Type *A, Type *B) {
    VarStates Saved = Vars;
    bool R = sub(A, B);
    Vars = std::move(Saved);
    return R;
  }

  /// Early bound check where the bound does not depend on other variables:
  /// prunes Union alternatives that would fail at finish().
  bool withinUpper(VarState &S, Type *A) {
    Type *Hi = S.Var->upperBound();
    if (Hi->isAny() || hasExistential(Hi) || A->isValueParam())
      return true;
    return subUniversal(A, Hi);
  }

  bool bindCov(VarState &S, Type *A) {
    if (A->isValueParam())
      return false; // a value is not a type
    if (!withinUpper(S, A))
      return false;
    bool Diagonal = S.CovCount > 1 && S.InvCount == 0;
    if (Diagonal && !S.Cov.empty() && !equalUniversal(S.Cov[0], A))
      return false;
    if (S.Inv && !subUniversal(A, S.Inv))
      return false;
    S.Cov.push_back(A);
    return true;
  }

  bool bindInv(VarState &S, Type *A) {
    if (S.Inv)
      return equalUniversal(S.Inv, A);
    if (!withinUpper(S, A))
      return false;
    S.Inv = A;
    return true;
  }
};

/// `A <: B` where every TypeVar (of either side) stands for an unknown type
/// within its bounds: what the matcher needs for checks on types that came
/// from the left side (they may mention the left signature's variables).
bool subUniversal(Type *A, Type *B) {
  if (A == B || B->isAny() || A->isBottom())
    return true;
  // A bare `Tuple` (NTuple{N, Any} over the name's own N, as a where
  // variable's bound `T<:Tuple`) holds every tuple, whatever its length;
  // with N universal the check below would hold none.
  if (A->isTuple() && B == TypeContext::get().anyTuple())
    return true;
  if (!A->hasTypeVars() && !B->hasTypeVars())
    return isSubtype(A, B);
  Matcher M({});
  return M.sub(A, B) && M.finish();
}

bool equalUniversal(Type *A, Type *B) {
  if (A == B)
    return true;
  if (A->isValueParam() || B->isValueParam())
    return false;
  if (!A->hasTypeVars() && !B->hasTypeVars())
    return typeEqual(A, B);
  return subUniversal(A, B) && subUniversal(B, A);
}

bool subtypeImpl(Type *A, Type *B) {
  llvm::SmallVector<Type *, 4> BVars, Ex;
  collectVars(B, BVars);
  for (Type *V : BVars)
    if (!occursIn(V, A))
      Ex.push_back(V);
  Matcher M(Ex);
  M.scan(B, false);
  return M.sub(A, B) && M.finish();
}

} // namespace

bool isSubtype(Type *A, Type *B) {
  assert(A && B && "isSubtype on null");
  if (A == B || B->isAny() || A->isBottom())
    return true;
  if (!A->hasTypeVars() && !B->hasTypeVars()) {
    // Fast path without an environment: the common case in inference.
    if (A->isUnion()) {
      for (Type *M : A->members())
        if (!isSubtype(M, B))
          return false;
      return true;
    }
    if (B->isUnion()) {
      for (Type *M : B->members())
        if (isSubtype(A, M))
          return true;
      return false;
    }
    if (!A->isDataType() || !B->isDataType())
      return false;
    if (B->isTuple()) {
      if (!A->isTuple() || A->params().size() != B->params().size())
        return false;
      for (size_t I = 0; I < A->params().size(); ++I)
        if (!isSubtype(A->param(I), B->param(I)))
          return false;
      return true;
    }
    Type *Up = A;
    while (Up && Up->isDataType() && Up->name() != B->name())
      Up = Up->super();
    if (!Up || !Up->isDataType() || Up->params().size() != B->params().size())
      return false;
    for (size_t I = 0; I < Up->params().size(); ++I)
      if (!typeEqual(Up->param(I), B->param(I)))
        return false;
    return true;
  }
  return subtypeImpl(A, B);
}

bool typeEqual(Type *A, Type *B) {
  if (A == B)
    return true;
  if (A->isValueParam() || B->isValueParam())
    return false;
  if (!A->hasTypeVars() && !B->hasTypeVars()) {
    if (!A->isUnion() && !B->isUnion())
      return false; // interned: structurally equal means pointer-equal
    return isSubtype(A, B) && isSubtype(B, A);
  }
  return subUniversal(A, B) && subUniversal(B, A);
}

bool matchTypes(std::span<Type *const> Args, std::span<Type *const> Pattern,
                std::span<Type *const> Sparams,
                std::vector<Type *> *SparamValues) {
  if (Args.size() != Pattern.size())
    return false;
  // Existential: the method's where-variables, plus anonymous variables of
  // bare names in the pattern (`::Tuple`, `::Type`) not shared with Args.
  // Small vectors: dispatch matches every call against a few methods.
  llvm::SmallVector<Type *, 4> Ex(Sparams.begin(), Sparams.end()), PVars;
  for (Type *P : Pattern)
    collectVars(P, PVars);
  for (Type *V : PVars) {
    if (std::find(Ex.begin(), Ex.end(), V) != Ex.end())
      continue;
    bool InArgs = std::any_of(Args.begin(), Args.end(),
                              [&](Type *A) { return occursIn(V, A); });
    if (!InArgs)
      Ex.push_back(V);
  }
  Matcher M(Ex);
  for (Type *P : Pattern)
    M.scan(P, false);
  for (size_t I = 0; I < Args.size(); ++I)
    if (!M.sub(Args[I], Pattern[I]))
      return false;
  if (!M.finish())
    return false;
  if (SparamValues) {
    SparamValues->clear();
    for (Type *V : Sparams)
      SparamValues->push_back(M.sparamValue(V));
  }
  return true;
}

/// Julia's typejoin, simplified: two instances of one parametric name with
/// different parameters join at a common supertype (Julia's would be the
/// name's UnionAll), and tuples of different lengths at Any.
Type *commonSuper(Type *A, Type *B) {
  TypeContext &C = TypeContext::get();
  if (isSubtype(A, B))
    return B;
  if (isSubtype(B, A))
    return A;
  if (A->isTuple() && B->isTuple() && A->params().size() == B->params().size()) {
    std::vector<Type *> Es;
    for (size_t I = 0; I < A->params().size(); ++I)
      Es.push_back(commonSuper(A->param(I), B->param(I)));
    return C.tuple(Es);
  }
  if (A->isUnion()) {
    Type *J = C.bottom();
    for (Type *M : A->members())
      J = commonSuper(J, M);
    return commonSuper(J, B);
  }
  if (B->isUnion())
    return commonSuper(B, A);
  for (Type *Up = A; Up && Up->isDataType(); Up = Up->super())
    if (isSubtype(B, Up))
      return Up;
  return C.any();
}

Type *typeJoin(Type *A, Type *B) {
  if (isSubtype(A, B))
    return B;
  if (isSubtype(B, A))
    return A;
  TypeContext &C = TypeContext::get();
  Type *U = C.unionOf(A, B);
  // Small Unions keep inference precise (and let codegen split them); past
  // that, widen as Julia's inference does.
  constexpr size_t MaxUnionMembers = 4;
  if (!U->isUnion() || U->members().size() <= MaxUnionMembers)
    return U;
  Type *J = C.bottom();
  for (Type *M : U->members())
    J = commonSuper(J, M);
  return J;
}

Type *typeIntersect(Type *A, Type *B) {
  TypeContext &C = TypeContext::get();
  if (isSubtype(A, B))
    return A;
  if (isSubtype(B, A))
    return B;
  if (A->isUnion() || B->isUnion()) {
    Type *U = A->isUnion() ? A : B, *Other = A->isUnion() ? B : A;
    std::vector<Type *> Ms;
    for (Type *M : U->members())
      Ms.push_back(typeIntersect(M, Other));
    return C.unionOf(Ms);
  }
  if (A->isTypeVar())
    return typeIntersect(A->upperBound(), B);
  if (B->isTypeVar())
    return typeIntersect(A, B->upperBound());
  if (!A->isDataType() || !B->isDataType())
    return C.bottom();
  if (A->isTuple() && B->isTuple()) {
    if (A->params().size() != B->params().size())
      return C.bottom();
    std::vector<Type *> Es;
    for (size_t I = 0; I < A->params().size(); ++I) {
      Es.push_back(typeIntersect(A->param(I), B->param(I)));
      if (Es.back()->isBottom())
        return C.bottom();
    }
    return C.tuple(Es);
  }
  if (A->hasTypeVars() || B->hasTypeVars()) {
    // Conservative: an over-approximation that is never wrongly empty. If
    // the names can meet (one reaches the other's name through supertypes),
    // keep the more specific side.
    auto Reaches = [](Type *X, Type *Y) {
      for (Type *Up = X; Up && Up->isDataType(); Up = Up->super())
        if (Up->name() == Y->name())
          return true;
      return false;
    };
    if (isNTuplePattern(A) || isNTuplePattern(B)) {
      Type *Tup = isNTuplePattern(A) ? B : A;
      if (Tup->isTuple() || isNTuplePattern(Tup))
        return Tup->hasTypeVars() ? (isNTuplePattern(A) ? A : B) : Tup;
      return C.bottom();
    }
    if (Reaches(A, B))
      return A;
    if (Reaches(B, A))
      return B;
    return C.bottom();
  }
  // Without variables: distinct parameters of one name never meet
  // (invariance), and single inheritance means unrelated names never meet.
  return C.bottom();
}

SignatureMeet intersectSignature(std::span<Type *const> Sig,
                                 std::span<Type *const> Pattern,
                                 std::span<Type *const> Sparams) {
  const SignatureMeet Disjoint{SignatureMeet::Disjoint, {}};
  const SignatureMeet Unknown{SignatureMeet::Unknown, {}};
  if (Sig.size() != Pattern.size())
    return Disjoint;
  auto IsSparam = [&](Type *P) {
    return P->isTypeVar() && llvm::is_contained(Sparams, P);
  };
  std::vector<Type *> Meet(Sig.size());
  for (size_t I = 0; I < Sig.size(); ++I) {
    Type *P = Pattern[I];
    // `x::T where T<:Integer`: within the bound (matchTypes checks the rest).
    if (IsSparam(P) && !P->upperBound()->hasTypeVars())
      P = P->upperBound();
    Meet[I] = typeIntersect(Sig[I], P);
    if (Meet[I]->isBottom())
      return Disjoint;
    if (Meet[I]->hasTypeVars())
      return Unknown;
  }
  // The diagonal rule: a variable that stands for several arguments is one
  // concrete type (`k(x::T, y::T)` meets (Int64, Real) at (Int64, Int64)).
  for (size_t I = 0; I < Sig.size(); ++I) {
    if (!IsSparam(Pattern[I]) || std::find(Pattern.begin(), Pattern.begin() + I,
                                           Pattern[I]) != Pattern.begin() + I)
      continue;
    llvm::SmallVector<size_t, 4> Same;
    for (size_t J = I; J < Sig.size(); ++J)
      if (Pattern[J] == Pattern[I])
        Same.push_back(J);
    if (Same.size() < 2)
      continue;
    Type *Leaf = nullptr;
    for (size_t J : Same)
      if (Meet[J]->isConcrete()) {
        if (Leaf && Leaf != Meet[J])
          return Disjoint;
        Leaf = Meet[J];
      }
    if (!Leaf)
      return Unknown; // (Real, Real): any one concrete type
    for (size_t J : Same) {
      if (!isSubtype(Leaf, Meet[J]))
        return Disjoint;
      Meet[J] = Leaf;
    }
  }
  if (!matchTypes(Meet, Pattern, Sparams))
    return Unknown;
  return {SignatureMeet::Found, std::move(Meet)};
}

} // namespace prism
