#include "infer/Lattice.h"

#include <cstring>

namespace prism {

bool LatticeType::isBottom() const { return !T || T->isBottom(); }

bool operator==(const LatticeType &A, const LatticeType &B) {
  if (A.T != B.T || A.Const.has_value() != B.Const.has_value())
    return false;
  if (A.Const && !(*A.Const == *B.Const))
    return false;
  return infer::sameLatticeFields(A, B);
}

} // namespace prism

namespace prism::infer {

namespace {
TypeContext &ctx() { return TypeContext::get(); }

} // namespace

bool sameLatticeFields(const LatticeType &A, const LatticeType &B) {
  if (A.Fields == B.Fields)
    return true;
  if (!A.Fields || !B.Fields || A.Fields->size() != B.Fields->size())
    return false;
  for (size_t I = 0; I < A.Fields->size(); ++I)
    if ((*A.Fields)[I] != (*B.Fields)[I])
      return false;
  return true;
}

namespace {
unsigned unionWidth(Type *T) { return T->isUnion() ? T->members().size() : 1; }
} // namespace

LatticeType bottomLattice() { return LatticeType(ctx().bottom()); }
LatticeType anyLattice() { return LatticeType(ctx().any()); }

ConstValue constInt(Type *Ty, uint64_t Bits) {
  ConstValue C;
  C.K = Ty->isBool() ? ConstValue::Bool : ConstValue::Int;
  C.Ty = Ty;
  C.Bits = truncBits(Ty, Bits);
  return C;
}

ConstValue constBool(bool B) { return constInt(ctx().boolTy(), B ? 1 : 0); }

ConstValue constFloat(Type *Ty, double V) {
  ConstValue C;
  C.K = ConstValue::Float;
  C.Ty = Ty;
  if (Ty->bitWidth() == 32) {
    float F = static_cast<float>(V);
    uint32_t B;
    std::memcpy(&B, &F, 4);
    C.Bits = B;
  } else {
    std::memcpy(&C.Bits, &V, 8);
  }
  return C;
}

ConstValue constType(Type *T) {
  ConstValue C;
  C.K = ConstValue::TypeVal;
  C.Ty = ctx().typeOfType(T);
  C.TypeValue = T;
  return C;
}

ConstValue constFunc(GenericFunction *F) {
  ConstValue C;
  C.K = ConstValue::Func;
  C.Ty = F->type();
  C.Fn = F;
  return C;
}

ConstValue constNothing() {
  ConstValue C;
  C.K = ConstValue::Nothing;
  C.Ty = ctx().nothing();
  return C;
}

ConstValue constSym(Symbol S) {
  ConstValue C;
  C.K = ConstValue::Sym;
  C.Name = S;
  return C;
}

std::optional<ConstValue> constOfParam(Type *P) {
  if (!P)
    return std::nullopt;
  if (P->isIntValue())
    return constInt(ctx().int64(), static_cast<uint64_t>(P->intValue()));
  if (P->isSymbolValue())
    return constSym(P->symbolValue());
  if (P->isTypeVar())
    return std::nullopt;
  return constType(P);
}

LatticeType latticeOf(Type *T) {
  LatticeType L(T);
  if (!T || !T->isDataType())
    return L;
  if (T->isTypeType() && T->params().size() == 1 &&
      !T->param(0)->hasTypeVars())
    L.Const = constType(T->param(0));
  else if (T->isFunctionType() && T->name()->Func)
    L.Const = constFunc(T->name()->Func);
  else if (T->isNothing())
    L.Const = constNothing();
  return L;
}

LatticeType join(const LatticeType &A, const LatticeType &B) {
  if (A.isBottom())
    return B.T ? B : bottomLattice();
  if (B.isBottom())
    return A;
  if (A == B)
    return A;
  LatticeType R;
  R.T = typeJoin(A.T, B.T);
  if (R.T->isUnion() && unionWidth(R.T) > MaxUnionMembers)
    R.T = ctx().any();
  // Partial fields survive a merge only field by field on the same type.
  if (A.T == B.T && A.Fields && B.Fields &&
      A.Fields->size() == B.Fields->size()) {
    auto F = std::make_shared<std::vector<LatticeType>>();
    bool AnyConst = false;
    for (size_t I = 0; I < A.Fields->size(); ++I) {
      F->push_back(join((*A.Fields)[I], (*B.Fields)[I]));
      AnyConst |= F->back().Const.has_value() || F->back().Fields != nullptr;
    }
    if (AnyConst)
      R.Fields = std::move(F);
  }
  // Singletons keep their constant (the type says it all).
  if (!R.Const && !R.Fields)
    R = LatticeType(latticeOf(R.T));
  return R;
}

bool lessOrEqual(const LatticeType &A, const LatticeType &B) {
  if (A.isBottom())
    return true;
  if (B.isBottom())
    return false;
  if (A == B)
    return true;
  if (B.Const)
    return false; // A differs from the exact constant B
  if (B.Fields) {
    if (!A.Fields || A.T != B.T || A.Fields->size() != B.Fields->size())
      return false;
    for (size_t I = 0; I < A.Fields->size(); ++I)
      if (!lessOrEqual((*A.Fields)[I], (*B.Fields)[I]))
        return false;
    return true;
  }
  return isSubtype(A.T, B.T);
}

LatticeType widenConst(const LatticeType &A) {
  if (!A.T)
    return bottomLattice();
  return latticeOf(A.T);
}

uint64_t truncBits(Type *Ty, uint64_t Bits) {
  unsigned W = Ty && Ty->isBool() ? 1 : (Ty ? Ty->bitWidth() : 64);
  if (W == 0 || W >= 64)
    return Bits;
  return Bits & ((uint64_t(1) << W) - 1);
}

int64_t signedValue(Type *Ty, uint64_t Bits) {
  unsigned W = Ty ? Ty->bitWidth() : 64;
  if (W == 0 || W >= 64)
    return static_cast<int64_t>(Bits);
  uint64_t Sign = uint64_t(1) << (W - 1);
  Bits = truncBits(Ty, Bits);
  return static_cast<int64_t>((Bits ^ Sign) - Sign);
}

} // namespace prism::infer
