#include "infer/BuiltinTransfer.h"

#include "types/Loader.h"

#include "llvm/ADT/STLExtras.h"

#include <array>
#include <cmath>
#include <cstring>

namespace prism::infer {

namespace {
TypeContext &ctx() { return TypeContext::get(); }

BuiltinResult ok(LatticeType R) { return BuiltinResult{std::move(R), {}, false}; }
BuiltinResult ok(Type *T) { return ok(latticeOf(T)); }
BuiltinResult fail(std::string Msg) {
  return BuiltinResult{bottomLattice(), std::move(Msg), false};
}

bool isIntConst(const LatticeType &L) {
  return L.Const && (L.Const->K == ConstValue::Int || L.Const->K == ConstValue::Bool);
}
bool isFloatConst(const LatticeType &L) {
  return L.Const && L.Const->K == ConstValue::Float && L.T &&
         (L.T->bitWidth() == 32 || L.T->bitWidth() == 64);
}
/// The target type of a conversion builtin (a Type constant).
Type *typeConst(const LatticeType &L) {
  if (L.Const && L.Const->K == ConstValue::TypeVal)
    return L.Const->TypeValue;
  return nullptr;
}

double floatValue(const LatticeType &L) { return L.Const->asDouble(); }

/// Field types of a concrete struct or tuple.
std::vector<Type *> fieldTypesOf(Type *T) {
  if (T->isTuple())
    return {T->params().begin(), T->params().end()};
  return {T->fieldTypes().begin(), T->fieldTypes().end()};
}

/// A field's type in `W` with W's parameters unknown (`x::W` for
/// `struct W{T}`): a variable is its bound (Julia's getfield_tfunc), and
/// anything else that mentions one is Any here (Julia's is a UnionAll).
Type *withoutVars(Type *T) {
  if (!T->hasTypeVars())
    return T;
  if (T->isTypeVar())
    return withoutVars(T->upperBound());
  return ctx().any();
}

BuiltinResult getField(std::span<const LatticeType> A) {
  if (A.size() != 2)
    return fail("getfield expects 2 arguments");
  const LatticeType &X = A[0], &Idx = A[1];
  Type *T = X.T;
  if (T->isUnion()) {
    LatticeType R = bottomLattice();
    for (Type *M : T->members()) {
      BuiltinResult S = getField(std::array<LatticeType, 2>{latticeOf(M), Idx});
      if (S.Error.empty())
        R = join(R, S.R);
    }
    return ok(R.T ? R : anyLattice());
  }
  // A bit type has no fields: Julia's getfield(1, :foo) is this error.
  if (T->isDataType() && T->isPrimitive() && Idx.Const &&
      Idx.Const->K == ConstValue::Sym)
    return fail("type " + T->str() + " has no field " +
                std::string(Idx.Const->Name.str()));
  // `threadIdx.x`, the call's parentheses forgotten: Julia's error, and
  // what was meant.
  if (T->isFunctionType() && Idx.Const && Idx.Const->K == ConstValue::Sym) {
    std::string Name = T->str(); // typeof(threadIdx)
    if (Name.rfind("typeof(", 0) == 0 && Name.back() == ')')
      Name = Name.substr(7, Name.size() - 8);
    std::string Field(Idx.Const->Name.str());
    // The call only where there is one without arguments (`threadIdx()`).
    bool NoArgs =
        T->name()->Func &&
        llvm::any_of(T->name()->Func->methodsIn(WorldInfinity - 1),
                     [](const Method *M) { return M->Sig.size() == 1; });
    return fail("type " + T->str() + " has no field " + Field +
                (NoArgs ? ": a function has none; to take the field of what "
                          "it returns, call it: `" +
                              Name + "()." + Field + "`"
                        : std::string()));
  }
  if (!T->isDataType() || T->isAbstract() || !(T->isStruct() || T->isTuple()))
    return ok(anyLattice());
  std::vector<Type *> Fields = fieldTypesOf(T);
  int Index = -1;
  if (Idx.Const && Idx.Const->K == ConstValue::Sym) {
    if (T->isTuple())
      return fail("type " + T->str() + " has no field " +
                  std::string(Idx.Const->Name.str()));
    Index = T->fieldIndex(Idx.Const->Name);
    if (Index < 0)
      return fail("type " + T->str() + " has no field " +
                  std::string(Idx.Const->Name.str()));
  } else if (isIntConst(Idx)) {
    int64_t I = Idx.Const->asSigned();
    if (I < 1 || I > static_cast<int64_t>(Fields.size()))
      return fail("index " + std::to_string(I) + " out of bounds for " + T->str());
    Index = static_cast<int>(I - 1);
  } else {
    // A run-time index on a tuple: any field (a BoundsError is a runtime throw).
    LatticeType R = bottomLattice();
    for (Type *F : Fields)
      R = join(R, latticeOf(withoutVars(F)));
    return ok(R);
  }
  if (X.Fields && Index < static_cast<int>(X.Fields->size()))
    return ok((*X.Fields)[Index]);
  return ok(withoutVars(Fields[Index]));
}

/// `x.f = v`: every struct is immutable, so this is an error of the
/// function that does it (Julia's setfield! throws when it runs; here the
/// rest of the program still compiles).
BuiltinResult setField(std::span<const LatticeType> A) {
  if (A.size() != 3)
    return fail("setfield! expects 3 arguments");
  // A field that does not exist is getfield's error.
  BuiltinResult Get = getField(A.first(2));
  if (!Get.Error.empty())
    return Get;
  std::string Field = A[1].Const && A[1].Const->K == ConstValue::Sym
                          ? std::string(A[1].Const->Name.str())
                          : std::string("?");
  return fail("cannot assign to field `" + Field + "`: " + A[0].T->str() +
              " is immutable, as every struct in kernels is; build a new "
              "value instead (Julia: setfield!: immutable struct of type " +
              A[0].T->str() + " cannot be changed)");
}

/// Integer binary folding on values already truncated to the operand width.
std::optional<uint64_t> foldInt(Builtin B, Type *T, uint64_t X, uint64_t Y) {
  int64_t SX = signedValue(T, X), SY = signedValue(T, Y);
  unsigned W = T->isBool() ? 1 : T->bitWidth();
  switch (B) {
  case Builtin::AddInt: return X + Y;
  case Builtin::SubInt: return X - Y;
  case Builtin::MulInt: return X * Y;
  case Builtin::SDivInt:
    if (SY == 0 || (SY == -1 && SX == signedValue(T, uint64_t(1) << (W - 1))))
      return std::nullopt;
    return static_cast<uint64_t>(SX / SY);
  case Builtin::UDivInt:
    if (Y == 0) return std::nullopt;
    return X / Y;
  case Builtin::SRemInt:
    if (SY == 0 || SY == -1) return SY == -1 ? std::optional<uint64_t>(0) : std::nullopt;
    return static_cast<uint64_t>(SX % SY);
  case Builtin::URemInt:
    if (Y == 0) return std::nullopt;
    return X % Y;
  case Builtin::AndInt: return X & Y;
  case Builtin::OrInt: return X | Y;
  case Builtin::XorInt: return X ^ Y;
  case Builtin::ShlInt: return Y >= W ? 0 : X << Y;
  case Builtin::LShrInt: return Y >= W ? 0 : X >> Y;
  case Builtin::AShrInt:
    return static_cast<uint64_t>(Y >= W ? (SX < 0 ? -1 : 0) : SX >> Y);
  default: return std::nullopt;
  }
}

std::optional<bool> compareInt(Builtin B, Type *T, uint64_t X, uint64_t Y) {
  int64_t SX = signedValue(T, X), SY = signedValue(T, Y);
  switch (B) {
  case Builtin::EqInt: return X == Y;
  case Builtin::NeInt: return X != Y;
  case Builtin::SltInt: return SX < SY;
  case Builtin::SleInt: return SX <= SY;
  case Builtin::UltInt: return X < Y;
  case Builtin::UleInt: return X <= Y;
  default: return std::nullopt;
  }
}

bool sameOperandTypes(std::span<const LatticeType> A, size_t N) {
  for (size_t I = 1; I < N && I < A.size(); ++I)
    if (A[I].T != A[0].T && A[I].T->isConcrete() && A[0].T->isConcrete())
      return false;
  return true;
}

std::string arityError(Builtin B, size_t Want, size_t Got) {
  return std::string("builtin ") + builtinName(B) + " expects " +
         std::to_string(Want) + " argument" + (Want == 1 ? "" : "s") +
         ", got " + std::to_string(Got);
}

BuiltinResult intArith(Builtin B, std::span<const LatticeType> A) {
  bool Unary = B == Builtin::NegInt || B == Builtin::NotInt ||
               B == Builtin::CtpopInt || B == Builtin::CtlzInt ||
               B == Builtin::CttzInt || B == Builtin::BswapInt ||
               B == Builtin::BitreverseInt;
  size_t Want = Unary ? 1 : 2;
  if (A.size() != Want)
    return fail(arityError(B, Want, A.size()));
  Type *T = A[0].T;
  bool Shift = B == Builtin::ShlInt || B == Builtin::LShrInt || B == Builtin::AShrInt;
  if (!Shift && !sameOperandTypes(A, Want))
    return fail(std::string("builtin ") + builtinName(B) +
                ": operands have different types " + A[0].T->str() + " and " +
                A[1].T->str());
  if (!T->isConcrete())
    return ok(anyLattice());
  if (Unary) {
    if (!isIntConst(A[0]))
      return ok(T);
    uint64_t X = A[0].Const->Bits;
    unsigned W = T->isBool() ? 1 : T->bitWidth();
    uint64_t R = B == Builtin::NegInt   ? 0 - X
                 : B == Builtin::NotInt ? ~X
                                        : foldIntUnary(B, X, W);
    return ok(LatticeType(T, constInt(T, R)));
  }
  if (isIntConst(A[0]) && isIntConst(A[1])) {
    uint64_t Y = Shift ? static_cast<uint64_t>(A[1].Const->asSigned()) : A[1].Const->Bits;
    if (auto R = foldInt(B, T, A[0].Const->Bits, Y))
      return ok(LatticeType(T, constInt(T, *R)));
  }
  return ok(T);
}

BuiltinResult intCompare(Builtin B, std::span<const LatticeType> A) {
  if (A.size() != 2)
    return fail(arityError(B, 2, A.size()));
  if (!sameOperandTypes(A, 2))
    return fail(std::string("builtin ") + builtinName(B) +
                ": operands have different types " + A[0].T->str() + " and " +
                A[1].T->str());
  if (isIntConst(A[0]) && isIntConst(A[1]))
    if (auto R = compareInt(B, A[0].T, A[0].Const->Bits, A[1].Const->Bits))
      return ok(LatticeType(ctx().boolTy(), constBool(*R)));
  return ok(ctx().boolTy());
}

BuiltinResult floatArith(Builtin B, std::span<const LatticeType> A) {
  size_t Want = 2;
  switch (B) {
  case Builtin::NegFloat: case Builtin::SqrtLlvm: case Builtin::AbsFloat:
  case Builtin::FloorLlvm: case Builtin::CeilLlvm: case Builtin::TruncLlvm:
  case Builtin::RintLlvm: case Builtin::ExpFloat: case Builtin::LogFloat:
  case Builtin::SinFloat: case Builtin::CosFloat: case Builtin::Exp2Float:
  case Builtin::Log2Float:
  case Builtin::Log10Float:
    Want = 1; break;
  case Builtin::FmaFloat: case Builtin::MuladdFloat:
    Want = 3; break;
  default:
    if (const LibmOnlyFn *L = libmOnly(B))
      Want = L->Arity;
    break;
  }
  if (A.size() != Want)
    return fail(arityError(B, Want, A.size()));
  if (!sameOperandTypes(A, Want))
    return fail(std::string("builtin ") + builtinName(B) +
                ": operands have different types");
  Type *T = A[0].T;
  bool AllConst = true;
  for (const LatticeType &L : A)
    AllConst &= isFloatConst(L);
  if (!AllConst)
    return ok(T);
  double X = floatValue(A[0]), Y = Want > 1 ? floatValue(A[1]) : 0;
  double R;
  switch (B) {
  case Builtin::AddFloat: R = X + Y; break;
  case Builtin::SubFloat: R = X - Y; break;
  case Builtin::MulFloat: R = X * Y; break;
  case Builtin::DivFloat: R = X / Y; break;
  case Builtin::NegFloat: R = -X; break;
  case Builtin::AbsFloat: R = std::fabs(X); break;
  case Builtin::CopysignFloat: R = std::copysign(X, Y); break;
  case Builtin::FloorLlvm: R = std::floor(X); break;
  case Builtin::CeilLlvm: R = std::ceil(X); break;
  case Builtin::TruncLlvm: R = std::trunc(X); break;
  default: return ok(T); // transcendental functions fold at run time
  }
  if (T->bitWidth() == 32 && B != Builtin::AbsFloat && B != Builtin::NegFloat) {
    // Single-precision arithmetic rounds each operation to float.
    float FX = static_cast<float>(X), FY = static_cast<float>(Y), FR;
    switch (B) {
    case Builtin::AddFloat: FR = FX + FY; break;
    case Builtin::SubFloat: FR = FX - FY; break;
    case Builtin::MulFloat: FR = FX * FY; break;
    case Builtin::DivFloat: FR = FX / FY; break;
    default: FR = static_cast<float>(R); break;
    }
    R = FR;
  }
  return ok(LatticeType(T, constFloat(T, R)));
}

BuiltinResult floatCompare(Builtin B, std::span<const LatticeType> A) {
  if (A.size() != 2)
    return fail(arityError(B, 2, A.size()));
  if (isFloatConst(A[0]) && isFloatConst(A[1])) {
    double X = floatValue(A[0]), Y = floatValue(A[1]);
    bool R = false;
    switch (B) {
    case Builtin::EqFloat: R = X == Y; break;
    case Builtin::NeFloat: R = X != Y; break;
    case Builtin::LtFloat: R = X < Y; break;
    case Builtin::LeFloat: R = X <= Y; break;
    default: break;
    }
    return ok(LatticeType(ctx().boolTy(), constBool(R)));
  }
  return ok(ctx().boolTy());
}

BuiltinResult conversion(Builtin B, std::span<const LatticeType> A) {
  if (A.size() != 2)
    return fail(arityError(B, 2, A.size()));
  Type *To = typeConst(A[0]);
  if (!To)
    return fail(std::string("builtin ") + builtinName(B) +
                ": the target type must be a constant type, got " +
                A[0].T->str());
  const LatticeType &X = A[1];
  if (!X.Const)
    return ok(To);
  if (B == Builtin::Bitcast) {
    // The same bits under another type of the same width.
    bool FromNum = X.Const->K == ConstValue::Int || X.Const->K == ConstValue::Float;
    if (FromNum && X.T && !X.T->isBool() && !To->isBool() &&
        (To->isFloat() || To->isInteger()) && X.T->bitWidth() == To->bitWidth()) {
      ConstValue V;
      V.K = To->isFloat() ? ConstValue::Float : ConstValue::Int;
      V.Ty = To;
      V.Bits = X.Const->Bits;
      return ok(LatticeType(To, V));
    }
    return ok(To);
  }
  switch (B) {
  case Builtin::SextInt:
    if (isIntConst(X))
      return ok(LatticeType(To, constInt(To, static_cast<uint64_t>(X.Const->asSigned()))));
    break;
  case Builtin::ZextInt:
  case Builtin::TruncInt:
    if (isIntConst(X))
      return ok(LatticeType(To, constInt(To, X.Const->Bits)));
    break;
  case Builtin::SitoFp:
    if (isIntConst(X) && To->isFloat() && To->bitWidth() >= 32)
      return ok(LatticeType(To, constFloat(To, static_cast<double>(X.Const->asSigned()))));
    break;
  case Builtin::UitoFp:
    if (isIntConst(X) && To->isFloat() && To->bitWidth() >= 32)
      return ok(LatticeType(To, constFloat(To, static_cast<double>(X.Const->Bits))));
    break;
  case Builtin::Fptrunc:
  case Builtin::Fpext:
    if (isFloatConst(X) && To->bitWidth() >= 32)
      return ok(LatticeType(To, constFloat(To, X.Const->asDouble())));
    break;
  case Builtin::FptoSi:
  case Builtin::FptoUi:
    if (isFloatConst(X) && To->bitWidth() >= 1 && To->bitWidth() <= 64) {
      double D = std::trunc(X.Const->asDouble());
      // Only what fits To: out of its range the conversion is poison
      // (`unsafe_trunc(Int32, 1e10)`), some value only the device knows.
      int W = int(To->bitWidth());
      bool Signed = B == Builtin::FptoSi;
      double Lo = Signed ? -std::ldexp(1.0, W - 1) : 0.0;
      double Hi = std::ldexp(1.0, Signed ? W - 1 : W);
      if (D >= Lo && D < Hi)
        return ok(LatticeType(
            To,
            constInt(To, Signed ? static_cast<uint64_t>(static_cast<int64_t>(D))
                                : static_cast<uint64_t>(D))));
    }
    break;
  default:
    break;
  }
  return ok(To);
}

Type *pointee(Type *P) {
  if (P && P->isPointer() && !P->params().empty())
    return P->param(0);
  return nullptr;
}

BuiltinResult applyType(std::span<const LatticeType> A) {
  if (A.empty())
    return fail("apply_type expects a type");
  Type *Base = typeConst(A[0]);
  if (!Base)
    return ok(anyLattice());
  std::vector<Type *> Params;
  for (const LatticeType &P : A.subspan(1)) {
    if (Type *T = typeConst(P))
      Params.push_back(T);
    else if (isIntConst(P) && P.T == ctx().int64())
      Params.push_back(ctx().intValue(P.Const->asSigned()));
    else if (isIntConst(P) && P.T)
      // Julia's `Tag{true}` and `Tag{0x03}` differ from `Tag{1}` and
      // `Tag{3}`; Prism's value parameters are Int64s only.
      return fail("a type parameter is an Int64, a type or a symbol here; `" +
                  P.Const->str() + "` is of type " + P.T->str() +
                  ", which Prism's types do not keep (write Int(...) around "
                  "it for an Int64 parameter)");
    else if (P.Const && P.Const->K == ConstValue::Sym)
      Params.push_back(ctx().symbolValue(P.Const->Name)); // `Irrational{:π}`
    else
      return ok(anyLattice()); // not a constant: the type is only known at run time
  }
  if (Base->isBottom()) // `Union` (see resolveGlobal)
    return ok(LatticeType(ctx().typeOfType(ctx().unionOf(Params)),
                          constType(ctx().unionOf(Params))));
  if (!Base->isDataType())
    return fail("apply_type: " + Base->str() + " is not a parametric type");
  TypeName *N = Base->name();
  Type *R;
  if (Base == ctx().anyTuple()) { // bare `Tuple`
    R = ctx().tuple(Params);
  } else if (Params.size() > N->Params.size()) {
    return fail("too many parameters for type " + std::string(N->Name.str()));
  } else {
    // As the loader: a partial application (`DeviceArray{Float32}`, or
    // `AbstractVector{Float32}` of AbstractArray{T, 1}) keeps the rest of
    // the base's parameters.
    for (size_t I = Params.size(); I < N->Params.size(); ++I)
      Params.push_back(Base->param(I));
    for (size_t I = 0; I < Params.size(); ++I) {
      Type *Hi = N->Params[I]->upperBound();
      if (!Params[I]->isTypeVar() && !Params[I]->isValueParam() &&
          !Hi->isAny() && !isSubtype(Params[I], Hi))
        return fail("TypeError: in " + N->Name.string() + ", in " +
                    N->Params[I]->str() + ", expected " + N->Params[I]->str() +
                    "<:" + Hi->str() + ", got Type{" + Params[I]->str() + "}");
    }
    R = ctx().apply(N, Params);
  }
  if (std::string Error = nonConcreteFieldError(R); !Error.empty())
    return fail(std::move(Error));
  return ok(LatticeType(ctx().typeOfType(R), constType(R)));
}
} // namespace

BuiltinResult transferBuiltin(Builtin B, std::span<const LatticeType> A,
                              bool InBounds) {
  TypeContext &C = ctx();
  switch (B) {
  case Builtin::None:
  case Builtin::NumBuiltins:
    return fail("not a builtin");
  case Builtin::GetField:
    return getField(A);
  case Builtin::SetField:
    return setField(A);
  case Builtin::TupleNew: {
    std::vector<Type *> Elts;
    bool Partial = false;
    for (const LatticeType &L : A) {
      Elts.push_back(L.T);
      Partial |= (L.Const && !L.T->isSingleton()) || L.Fields;
    }
    LatticeType R(C.tuple(Elts));
    if (Partial)
      R.Fields = std::make_shared<std::vector<LatticeType>>(A.begin(), A.end());
    return ok(R);
  }
  case Builtin::New: {
    Type *T = A.empty() ? nullptr : typeConst(A[0]);
    if (!T)
      return fail("new: the first argument must be a constant struct type");
    if (!T->isDataType() || !(T->isStruct() || T->isTuple()))
      return fail("new: " + T->str() + " is not a struct type");
    size_t NF = fieldTypesOf(T).size();
    if (A.size() - 1 != NF)
      return fail("new: " + T->str() + " has " + std::to_string(NF) +
                  " fields, got " + std::to_string(A.size() - 1) + " values");
    LatticeType R = latticeOf(T);
    bool Partial = false;
    for (const LatticeType &L : A.subspan(1))
      Partial |= (L.Const && !L.T->isSingleton()) || L.Fields;
    if (Partial)
      R.Fields = std::make_shared<std::vector<LatticeType>>(A.begin() + 1, A.end());
    return ok(R);
  }
  case Builtin::Egal: {
    if (A.size() != 2)
      return fail(arityError(B, 2, A.size()));
    if (A[0].Const && A[1].Const)
      return ok(LatticeType(C.boolTy(), constBool(*A[0].Const == *A[1].Const)));
    if (typeIntersect(A[0].T, A[1].T)->isBottom())
      return ok(LatticeType(C.boolTy(), constBool(false)));
    return ok(C.boolTy());
  }
  case Builtin::TypeOf:
    if (A.size() != 1)
      return fail(arityError(B, 1, A.size()));
    if (A[0].T->isConcrete())
      return ok(LatticeType(C.typeOfType(A[0].T), constType(A[0].T)));
    return ok(anyLattice());
  case Builtin::IsA: {
    if (A.size() != 2)
      return fail(arityError(B, 2, A.size()));
    Type *T = typeConst(A[1]);
    if (!T)
      return ok(C.boolTy());
    if (isSubtype(A[0].T, T))
      return ok(LatticeType(C.boolTy(), constBool(true)));
    if (typeIntersect(A[0].T, T)->isBottom())
      return ok(LatticeType(C.boolTy(), constBool(false)));
    return ok(C.boolTy());
  }
  case Builtin::Throw:
    if (A.size() != 1)
      return fail(arityError(B, 1, A.size()));
    return ok(bottomLattice());
  case Builtin::BoundsCheck:
    return ok(LatticeType(C.boolTy(), constBool(!InBounds)));
  case Builtin::TypeAssert: {
    if (A.size() != 2)
      return fail(arityError(B, 2, A.size()));
    Type *T = typeConst(A[1]);
    if (!T)
      return ok(A[0]);
    if (isSubtype(A[0].T, T))
      return ok(A[0]);
    Type *I = typeIntersect(A[0].T, T);
    // Bottom: the assertion always fails (a TypeError at run time).
    return ok(I->isBottom() ? bottomLattice() : latticeOf(I));
  }
  case Builtin::ApplyType:
    return applyType(A);
  case Builtin::TypeJoin: {
    if (A.size() != 2)
      return fail(arityError(B, 2, A.size()));
    Type *X = typeConst(A[0]), *Y = typeConst(A[1]);
    if (!X || !Y)
      return ok(anyLattice());
    Type *J = commonSuper(X, Y);
    return ok(LatticeType(C.typeOfType(J), constType(J)));
  }
  case Builtin::SizeOf: {
    if (A.size() != 1)
      return fail(arityError(B, 1, A.size()));
    if (!A[0].T->isTypeType())
      return fail("sizeof_type expects a type, got a " + A[0].T->str());
    Type *T = A[0].T->param(0);
    if (std::optional<uint64_t> S = T->juliaSizeOf())
      return ok(LatticeType(C.int64(), constInt(C.int64(), int64_t(*S))));
    return fail((T->isAbstract() ? "Abstract type " : "Type ") + T->str() +
                " does not have a definite size.");
  }
  case Builtin::NFields:
    if (A.size() != 1)
      return fail(arityError(B, 1, A.size()));
    if (A[0].T->isConcrete() && (A[0].T->isStruct() || A[0].T->isTuple()))
      return ok(LatticeType(C.int64(), constInt(C.int64(), fieldTypesOf(A[0].T).size())));
    return ok(C.int64());

  case Builtin::AddInt: case Builtin::SubInt: case Builtin::MulInt:
  case Builtin::NegInt: case Builtin::SDivInt: case Builtin::UDivInt:
  case Builtin::SRemInt: case Builtin::URemInt: case Builtin::AndInt:
  case Builtin::OrInt: case Builtin::XorInt: case Builtin::NotInt:
  case Builtin::ShlInt: case Builtin::LShrInt: case Builtin::AShrInt:
  case Builtin::CtpopInt: case Builtin::CtlzInt: case Builtin::CttzInt:
  case Builtin::BswapInt:
  case Builtin::BitreverseInt:
    return intArith(B, A);
  case Builtin::EqInt: case Builtin::NeInt: case Builtin::SltInt:
  case Builtin::SleInt: case Builtin::UltInt: case Builtin::UleInt:
    return intCompare(B, A);

  case Builtin::AddFloat: case Builtin::SubFloat: case Builtin::MulFloat:
  case Builtin::DivFloat: case Builtin::RemFloat: case Builtin::NegFloat:
  case Builtin::FmaFloat: case Builtin::MuladdFloat: case Builtin::SqrtLlvm:
  case Builtin::AbsFloat: case Builtin::CopysignFloat: case Builtin::FloorLlvm:
  case Builtin::CeilLlvm: case Builtin::TruncLlvm: case Builtin::RintLlvm:
  case Builtin::ExpFloat: case Builtin::LogFloat: case Builtin::SinFloat:
  case Builtin::CosFloat: case Builtin::PowFloat: case Builtin::Exp2Float:
  case Builtin::Log2Float:
  case Builtin::Log10Float:
  case Builtin::TanFloat:
  case Builtin::AtanFloat:
  case Builtin::Atan2Float:
  case Builtin::TanhFloat:
  case Builtin::SinhFloat:
  case Builtin::CoshFloat:
  case Builtin::AsinFloat:
  case Builtin::AcosFloat:
  case Builtin::CbrtFloat:
  case Builtin::Expm1Float:
  case Builtin::Log1pFloat:
    return floatArith(B, A);
  case Builtin::EqFloat: case Builtin::NeFloat: case Builtin::LtFloat:
  case Builtin::LeFloat:
    return floatCompare(B, A);

  case Builtin::SextInt: case Builtin::ZextInt: case Builtin::TruncInt:
  case Builtin::FptoSi: case Builtin::FptoUi: case Builtin::SitoFp:
  case Builtin::UitoFp: case Builtin::Fptrunc: case Builtin::Fpext:
  case Builtin::Bitcast:
    return conversion(B, A);

  case Builtin::PointerRef:
  case Builtin::AtomicAdd: {
    if (A.size() != 2)
      return fail(arityError(B, 2, A.size()));
    if (Type *E = pointee(A[0].T))
      return ok(E);
    if (!A[0].T->isConcrete())
      return ok(anyLattice());
    return fail(std::string(builtinName(B)) + ": expected a Ptr, got " + A[0].T->str());
  }
  case Builtin::PointerSet:
  case Builtin::PointerAdd: {
    size_t Want = B == Builtin::PointerSet ? 3 : 2;
    if (A.size() != Want)
      return fail(arityError(B, Want, A.size()));
    if (!pointee(A[0].T) && A[0].T->isConcrete())
      return fail(std::string(builtinName(B)) + ": expected a Ptr, got " + A[0].T->str());
    return ok(A[0].T); // Julia's pointerset returns the pointer
  }

  case Builtin::ThreadIdxX: case Builtin::ThreadIdxY: case Builtin::ThreadIdxZ:
  case Builtin::BlockIdxX: case Builtin::BlockIdxY: case Builtin::BlockIdxZ:
  case Builtin::BlockDimX: case Builtin::BlockDimY: case Builtin::BlockDimZ:
  case Builtin::GridDimX: case Builtin::GridDimY: case Builtin::GridDimZ:
    if (!A.empty())
      return fail(arityError(B, 0, A.size()));
    return ok(C.int32());
  case Builtin::SyncThreads:
    return ok(C.nothing());
  case Builtin::SharedArray: {
    if (A.size() != 2)
      return fail(arityError(B, 2, A.size()));
    Type *T = typeConst(A[0]);
    if (!T)
      return fail("shared_array: the element type must be a constant type");
    BuiltinResult R = ok(C.ptr(T));
    // A non-constant length is not an inference error: validation reports
    // it once constant propagation had its chance.
    R.UsedRequiredConst = isIntConst(A[1]);
    return R;
  }
  case Builtin::BpfLoadByte:
    return ok(C.uint8());
  case Builtin::BpfLoadHalf:
    return ok(C.uint16());
  case Builtin::BpfLoadWord:
    return ok(C.uint32());
  }
  return ok(anyLattice());
}

} // namespace prism::infer
