// The builtins' meaning, one case each, written from Julia's definitions
// rather than from what codegen emits: wrapping integer arithmetic at the
// type's width, shifts that saturate at the width, IEEE floats rounded to
// nearest-even through APFloat at the type's own precision, the libm
// functions for exp/log/sin/cos/pow (what the host calls), conversions
// that are poison out of range (the prelude checks before converting, so
// reaching one is a fault).
#include "interp/InterpImpl.h"
#include "lang/HostMath.h"

#include "devices/Device.h"
#include "targets/HostInfo.h"
#include "types/ShowError.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"

#include <cmath>
#include <cstring>

namespace prism::interp {

namespace {

/// Whether the host's code fuses a Float16 muladd (LLVM selects vfmadd*sh).
bool hostHalfFma() {
  static const bool Has =
      llvm::StringRef(hostInfo().Features).contains("+avx512fp16");
  return Has;
}

uint64_t mask(unsigned W) { return W >= 64 ? ~0ull : (1ull << W) - 1; }
int64_t sext(uint64_t Bits, unsigned W) {
  if (W >= 64)
    return static_cast<int64_t>(Bits);
  uint64_t Sign = 1ull << (W - 1);
  return static_cast<int64_t>(((Bits & mask(W)) ^ Sign) - Sign);
}
/// The width as arithmetic sees it (Bool is one bit, stored in a byte).
unsigned width(Type *T) {
  if (T->isBool())
    return 1;
  return T->isPrimitive() ? T->bitWidth() : 64;
}

const llvm::fltSemantics &semantics(Type *T) {
  switch (T->bitWidth()) {
  case 16: return llvm::APFloat::IEEEhalf();
  case 32: return llvm::APFloat::IEEEsingle();
  default: return llvm::APFloat::IEEEdouble();
  }
}
llvm::APFloat toAP(const Value &V) {
  return llvm::APFloat(semantics(V.T), llvm::APInt(V.T->bitWidth(), V.Bits));
}
Value fromAP(Type *T, const llvm::APFloat &F) {
  return Value::prim(T, F.bitcastToAPInt().getZExtValue());
}
/// A value computed in double, rounded to T.
Value roundedFromDouble(Type *T, double D) {
  llvm::APFloat F(D);
  bool LosesInfo = false;
  F.convert(semantics(T), llvm::APFloat::rmNearestTiesToEven, &LosesInfo);
  return fromAP(T, F);
}
/// Float64 log10 as the host computes it: glibc's log10 is up to 1.5 ulp
/// off, so on x86 the host takes log10l (x87 extended), rounded once.
double log10Host(double D) {
#if defined(__x86_64__) || defined(__i386__)
  return double(std::log10((long double)D));
#else
  return std::log10(D);
#endif
}

/// A libm function of one argument at T's precision: double for Float64,
/// float for Float32, float rounded to half for Float16 (as LLVM lowers the
/// half intrinsics: promote, call the float function, truncate).
template <typename F64, typename F32>
Value libm1(const Value &X, F64 D, F32 S) {
  if (X.T->bitWidth() == 64)
    return roundedFromDouble(X.T, D(toAP(X).convertToDouble()));
  bool LosesInfo = false;
  llvm::APFloat F = toAP(X);
  F.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven, &LosesInfo);
  return roundedFromDouble(X.T, S(F.convertToFloat()));
}
/// A libm function of a Float64 (floatArith widens a narrower float for
/// the builtins the host computes in Float64: float32InFloat64).
template <typename F64> Value libm64(const Value &X, F64 D) {
  return roundedFromDouble(X.T, D(toAP(X).convertToDouble()));
}
float asFloat(const Value &X) {
  bool LosesInfo = false;
  llvm::APFloat F = toAP(X);
  F.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven, &LosesInfo);
  return F.convertToFloat();
}

Value boolValue(bool B) {
  return Value::prim(TypeContext::get().boolTy(), B ? 1 : 0);
}

Thrown exception(std::string Name) {
  return Thrown{std::move(Name), {}, 0, {}};
}

/// What the host device's prism_throw_detail reports for the same value.
std::string showErrorText(const Value &Exc) {
  std::optional<ShowErrorTemplate> T = showErrorTemplate(Exc.T);
  if (!T)
    return {};
  std::vector<uint64_t> Values;
  for (const std::vector<unsigned> &Path : T->Paths) {
    const Value *V = &Exc;
    for (unsigned Field : Path) {
      if (Field >= V->Fields.size())
        return {};
      V = &V->Fields[Field];
    }
    Values.push_back(V->Bits);
  }
  return formatShowError(T->Text, Values);
}

Fault fault(std::string Message) { return Fault{std::move(Message), {}, 0}; }

/// Loads a primitive of type T from checked memory.
/// The fields of a struct or tuple type (a tuple's are its parameters).
std::span<Type *const> fieldsOf(const Type *T) {
  return T->isTuple() ? T->params() : T->fieldTypes();
}

/// Julia's (C's) alignment of a value in memory: a struct's is its widest
/// field's.
uint64_t alignOf(const Type *T) {
  if (T->isPrimitive())
    return std::max<uint64_t>(1, (T->bitWidth() + 7) / 8);
  uint64_t A = 1;
  if (T->isStruct() || T->isTuple())
    for (const Type *F : fieldsOf(T))
      A = std::max(A, alignOf(F));
  return A;
}

/// Bytes one element takes in an array (sizeof), 0 when it has no layout.
uint64_t sizeOf(const Type *T) { return T->juliaSizeOf().value_or(0); }

/// A value of type T from memory at Addr: a struct or tuple field by field,
/// each at its alignment (as the compiled code lays it out).
BuiltinOutcome load(Memory &Mem, Type *T, uint64_t Addr, const char *What) {
  if (T->isSingleton())
    return Value::singleton(T);
  if (T->isStruct() || T->isTuple()) {
    Value V;
    V.T = T;
    uint64_t Off = 0;
    for (Type *F : fieldsOf(T)) {
      Off = llvm::alignTo(Off, alignOf(F));
      BuiltinOutcome FV = load(Mem, F, Addr + Off, What);
      if (!std::holds_alternative<Value>(FV))
        return FV;
      V.Fields.push_back(std::move(std::get<Value>(FV)));
      Off += sizeOf(F);
    }
    return V;
  }
  if (!T->isPrimitive())
    return fault(std::string(What) + " of " + withArticle(T->str()) +
                 ": the interpreter reads memory of concrete types only");
  unsigned Bytes = (T->bitWidth() + 7) / 8;
  uint8_t *P = Mem.check(Addr, Bytes);
  if (!P)
    return fault(std::string(What) + ": " + Mem.describe(Addr, Bytes));
  uint64_t Bits = 0;
  std::memcpy(&Bits, P, Bytes); // little-endian host
  return Value::prim(T, Bits & mask(T->isBool() ? 8 : T->bitWidth()));
}
std::optional<Fault> store(Memory &Mem, const Value &V, uint64_t Addr,
                           const char *What) {
  if (V.T->isSingleton())
    return std::nullopt;
  if (V.T->isStruct() || V.T->isTuple()) {
    std::span<Type *const> Fields = fieldsOf(V.T);
    if (V.Fields.size() != Fields.size())
      return fault(std::string(What) + " of " + withArticle(V.T->str()) +
                   " with " + std::to_string(V.Fields.size()) + " fields");
    uint64_t Off = 0;
    for (size_t K = 0; K < Fields.size(); ++K) {
      Off = llvm::alignTo(Off, alignOf(Fields[K]));
      if (auto F = store(Mem, V.Fields[K], Addr + Off, What))
        return F;
      Off += sizeOf(Fields[K]);
    }
    return std::nullopt;
  }
  if (!V.T->isPrimitive())
    return fault(std::string(What) + " of " + withArticle(V.T->str()) +
                 ": the interpreter writes memory of concrete types only");
  unsigned Bytes = (V.T->bitWidth() + 7) / 8;
  uint8_t *P = Mem.check(Addr, Bytes);
  if (!P)
    return fault(std::string(What) + ": " + Mem.describe(Addr, Bytes));
  std::memcpy(P, &V.Bits, Bytes);
  return std::nullopt;
}

/// The constant inference knows for argument K (0-based after the callee).
const std::optional<ConstValue> *argConst(const TypedCode &Code, unsigned I,
                                          unsigned K) {
  if (I < Code.ArgTypes.size() && K + 1 < Code.ArgTypes[I].size() &&
      Code.ArgTypes[I][K + 1].Const)
    return &Code.ArgTypes[I][K + 1].Const;
  return nullptr;
}

/// The type a `Type{T}` value stands for.
Type *typeArg(const Value &V) {
  return V.T && V.T->isTypeType() ? V.T->param(0) : nullptr;
}

BuiltinOutcome intArith(Builtin B, const std::vector<Value> &A) {
  Type *T = A[0].T;
  unsigned W = width(T);
  uint64_t M = mask(W);
  uint64_t X = A[0].Bits & M, Y = A.size() > 1 ? A[1].Bits & M : 0;
  auto R = [&](uint64_t V) { return Value::prim(T, V & M); };
  switch (B) {
  case Builtin::AddInt: return R(X + Y);
  case Builtin::SubInt: return R(X - Y);
  case Builtin::MulInt: return R(X * Y);
  case Builtin::NegInt: return R(0 - X);
  case Builtin::AndInt: return R(X & Y);
  case Builtin::OrInt: return R(X | Y);
  case Builtin::XorInt: return R(X ^ Y);
  case Builtin::NotInt: return R(~X);
  case Builtin::SDivInt: case Builtin::SRemInt: {
    int64_t SX = sext(X, W), SY = sext(Y, W);
    if (SY == 0)
      return fault(std::string(builtinName(B)) + " by zero (the prelude throws "
                   "DivideError before dividing)");
    if (SY == -1 && SX == sext(1ull << (W - 1), W))
      return fault(std::string(builtinName(B)) + " of typemin by -1 overflows");
    return R(static_cast<uint64_t>(B == Builtin::SDivInt ? SX / SY : SX % SY));
  }
  case Builtin::UDivInt: case Builtin::URemInt:
    if (Y == 0)
      return fault(std::string(builtinName(B)) + " by zero (the prelude throws "
                   "DivideError before dividing)");
    return R(B == Builtin::UDivInt ? X / Y : X % Y);
  case Builtin::ShlInt: case Builtin::LShrInt: case Builtin::AShrInt: {
    // The count is read as unsigned; at or past the width everything is
    // shifted out (an arithmetic shift fills with the sign).
    uint64_t N = A[1].Bits & mask(width(A[1].T));
    if (B == Builtin::AShrInt) {
      int64_t SX = sext(X, W);
      return R(static_cast<uint64_t>(N >= W ? (SX < 0 ? -1 : 0) : SX >> N));
    }
    if (N >= W)
      return R(0);
    return R(B == Builtin::ShlInt ? X << N : X >> N);
  }
  case Builtin::CtpopInt:
  case Builtin::CtlzInt:
  case Builtin::CttzInt:
  case Builtin::BswapInt:
  case Builtin::BitreverseInt:
    return R(foldIntUnary(B, X, W));
  case Builtin::EqInt: return boolValue(X == Y);
  case Builtin::NeInt: return boolValue(X != Y);
  case Builtin::SltInt: return boolValue(sext(X, W) < sext(Y, W));
  case Builtin::SleInt: return boolValue(sext(X, W) <= sext(Y, W));
  case Builtin::UltInt: return boolValue(X < Y);
  case Builtin::UleInt: return boolValue(X <= Y);
  default:
    return fault(std::string("not an integer builtin: ") + builtinName(B));
  }
}

BuiltinOutcome floatArithAP(Builtin B, const std::vector<Value> &A);

/// An x86 FPU's NaN made from operands that are not NaN (`0/0`, `Inf - Inf`)
/// is the negative "default NaN" (0xfff8...), where APFloat makes the
/// positive one; the host's compiled code computes x86's, so the reference
/// does too (`signbit(0.0 / 0.0)` is true there, as in Julia on x86-64).
BuiltinOutcome floatArith(Builtin B, const std::vector<Value> &A) {
  if (A.size() == 1 && A[0].T->bitWidth() < 64 && float32InFloat64(B)) {
    // In Float64, rounded to Float32 (then to a Float16's own precision).
    bool LosesInfo = false;
    llvm::APFloat W = toAP(A[0]);
    W.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
              &LosesInfo);
    BuiltinOutcome R =
        floatArithAP(B, {Value::prim(TypeContext::get().float64(),
                                     W.bitcastToAPInt().getZExtValue())});
    if (Value *V = std::get_if<Value>(&R))
      return roundedFromDouble(A[0].T, float(toAP(*V).convertToDouble()));
    return R;
  }
  BuiltinOutcome R = floatArithAP(B, A);
#if defined(__x86_64__) || defined(__i386__)
  switch (B) {
  case Builtin::AddFloat:
  case Builtin::SubFloat:
  case Builtin::MulFloat:
  case Builtin::DivFloat:
  case Builtin::RemFloat:
  case Builtin::FmaFloat:
  case Builtin::MuladdFloat: {
    Value *V = std::get_if<Value>(&R);
    if (!V || !toAP(*V).isNaN())
      break;
    for (const Value &Op : A)
      if (toAP(Op).isNaN())
        return R;
    V->Bits |= uint64_t(1) << (V->T->bitWidth() - 1);
    break;
  }
  default:
    break;
  }
#endif
  return R;
}

BuiltinOutcome floatArithAP(Builtin B, const std::vector<Value> &A) {
  Type *T = A[0].T;
  const auto RM = llvm::APFloat::rmNearestTiesToEven;
  llvm::APFloat X = toAP(A[0]);
  auto Y = [&](unsigned K) { return toAP(A[K]); };
  switch (B) {
  case Builtin::AddFloat: X.add(Y(1), RM); return fromAP(T, X);
  case Builtin::SubFloat: X.subtract(Y(1), RM); return fromAP(T, X);
  case Builtin::MulFloat: X.multiply(Y(1), RM); return fromAP(T, X);
  case Builtin::DivFloat: X.divide(Y(1), RM); return fromAP(T, X);
  case Builtin::RemFloat: X.mod(Y(1)); return fromAP(T, X); // C's fmod
  case Builtin::NegFloat: X.changeSign(); return fromAP(T, X);
  case Builtin::FmaFloat: X.fusedMultiplyAdd(Y(1), Y(2), RM); return fromAP(T, X);
  case Builtin::MuladdFloat:
    // Julia lets muladd fuse or not. Every compiled target here fuses it
    // where the hardware has FMA (x86-64 since Haswell, NVIDIA, AMD), as
    // Julia on such a CPU does, so the oracle fuses too. Differential tests
    // still do not generate muladd: a host without FMA would not fuse.
    // Float16 fuses on the host only where the CPU has half-precision FMA
    // (AVX512-FP16, Sapphire Rapids on): elsewhere LLVM splits it into a
    // multiply and an add, each rounded.
    if (&X.getSemantics() == &llvm::APFloat::IEEEhalf() && !hostHalfFma()) {
      X.multiply(Y(1), RM);
      X.add(Y(2), RM);
      return fromAP(T, X);
    }
    X.fusedMultiplyAdd(Y(1), Y(2), RM);
    return fromAP(T, X);
  case Builtin::AbsFloat: X.clearSign(); return fromAP(T, X);
  case Builtin::CopysignFloat: X.copySign(Y(1)); return fromAP(T, X);
  case Builtin::FloorLlvm: X.roundToIntegral(llvm::APFloat::rmTowardNegative); return fromAP(T, X);
  case Builtin::CeilLlvm: X.roundToIntegral(llvm::APFloat::rmTowardPositive); return fromAP(T, X);
  case Builtin::TruncLlvm: X.roundToIntegral(llvm::APFloat::rmTowardZero); return fromAP(T, X);
  case Builtin::RintLlvm: X.roundToIntegral(RM); return fromAP(T, X);
  case Builtin::SqrtLlvm:
    return libm1(A[0], [](double D) { return std::sqrt(D); },
                 [](float F) { return std::sqrt(F); });
  case Builtin::ExpFloat:
    return libm1(A[0], [](double D) { return std::exp(D); },
                 [](float F) { return std::exp(F); });
  case Builtin::LogFloat:
    return libm64(A[0], [](double D) { return std::log(D); });
  case Builtin::SinFloat:
    return libm64(A[0], [](double D) { return std::sin(D); });
  case Builtin::CosFloat:
    return libm64(A[0], [](double D) { return std::cos(D); });
  case Builtin::Exp2Float:
    return libm1(A[0], [](double D) { return std::exp2(D); },
                 [](float F) { return std::exp2(F); });
  case Builtin::Log2Float:
    return libm64(A[0], [](double D) { return std::log2(D); });
  case Builtin::Log10Float:
    return libm64(A[0], [](double D) { return log10Host(D); });
  case Builtin::TanFloat:
    return libm64(A[0], [](double D) { return std::tan(D); });
  case Builtin::AtanFloat:
    return libm1(A[0], [](double D) { return std::atan(D); },
                 [](float F) { return std::atan(F); });
  case Builtin::TanhFloat:
    return libm1(
        A[0], [](double D) { return std::tanh(D); },
        [](float F) { return std::tanh(F); });
  case Builtin::SinhFloat:
    return libm1(
        A[0], [](double D) { return std::sinh(D); },
        [](float F) { return std::sinh(F); });
  case Builtin::CoshFloat:
    return libm1(
        A[0], [](double D) { return std::cosh(D); },
        [](float F) { return std::cosh(F); });
  case Builtin::AsinFloat:
    return libm1(
        A[0], [](double D) { return std::asin(D); },
        [](float F) { return std::asin(F); });
  case Builtin::AcosFloat:
    return libm1(
        A[0], [](double D) { return std::acos(D); },
        [](float F) { return std::acos(F); });
  case Builtin::CbrtFloat:
    return libm64(A[0], [](double D) { return std::cbrt(D); });
  case Builtin::Expm1Float:
    return libm1(
        A[0], [](double D) { return std::expm1(D); },
        [](float F) { return std::expm1(F); });
  case Builtin::Log1pFloat:
    return libm1(
        A[0], [](double D) { return std::log1p(D); },
        [](float F) { return std::log1p(F); });
  case Builtin::PowFloat:
    if (T->bitWidth() == 64)
      return roundedFromDouble(T, std::pow(X.convertToDouble(), Y(1).convertToDouble()));
    return roundedFromDouble(T, std::pow(asFloat(A[0]), asFloat(A[1])));
  case Builtin::Atan2Float:
    if (T->bitWidth() == 64)
      return roundedFromDouble(T, std::atan2(X.convertToDouble(), Y(1).convertToDouble()));
    return roundedFromDouble(T, std::atan2(asFloat(A[0]), asFloat(A[1])));
  default:
    return fault(std::string("not a float builtin: ") + builtinName(B));
  }
}

BuiltinOutcome floatCompare(Builtin B, const std::vector<Value> &A) {
  llvm::APFloat::cmpResult C = toAP(A[0]).compare(toAP(A[1]));
  switch (B) {
  case Builtin::EqFloat: return boolValue(C == llvm::APFloat::cmpEqual);
  case Builtin::NeFloat: return boolValue(C != llvm::APFloat::cmpEqual); // unordered: true
  case Builtin::LtFloat: return boolValue(C == llvm::APFloat::cmpLessThan);
  case Builtin::LeFloat:
    return boolValue(C == llvm::APFloat::cmpLessThan || C == llvm::APFloat::cmpEqual);
  default:
    return fault(std::string("not a float comparison: ") + builtinName(B));
  }
}

/// An out-of-range float to integer (`unsafe_trunc(Int8, 1000.0)`; the
/// checked conversions throw InexactError before): LLVM's poison, Julia's
/// "arbitrary value". The interpreter gives the one baseline x86-64
/// computes (the host's too, but for AVX-512's unsigned conversions, which
/// give all ones): cvttsd2si's 32- or 64-bit result (the "integer
/// indefinite" 0x80...0 when out of its range), truncated to the width;
/// UInt64 combines the conversions of x and x - 2^63 as LLVM's lowering
/// does.
uint64_t x86TruncOutOfRange(bool Signed, unsigned ToW, double X) {
  auto Cvt = [](double D, unsigned W) -> int64_t {
    double Lim = std::ldexp(1.0, int(W) - 1);
    if (!(D >= -Lim && D < Lim))
      return W == 64 ? INT64_MIN : INT32_MIN;
    return int64_t(D);
  };
  if (Signed)
    return uint64_t(Cvt(X, ToW == 64 ? 64 : 32));
  if (ToW < 64)
    return uint64_t(Cvt(X, 64));
  int64_t A = Cvt(X, 64), B = Cvt(X - std::ldexp(1.0, 63), 64);
  return uint64_t(A | (B & (A >> 63)));
}

BuiltinOutcome conversion(Builtin B, Type *To, const Value &V) {
  if (!To)
    return fault(std::string(builtinName(B)) + " without a target type");
  unsigned FromW = width(V.T), ToW = width(To);
  switch (B) {
  case Builtin::SextInt:
    return Value::prim(To, static_cast<uint64_t>(sext(V.Bits, FromW)) & mask(ToW));
  case Builtin::ZextInt: case Builtin::TruncInt:
    return Value::prim(To, V.Bits & mask(FromW) & mask(ToW));
  case Builtin::SitoFp: case Builtin::UitoFp: {
    llvm::APFloat F(semantics(To));
    F.convertFromAPInt(llvm::APInt(FromW, V.Bits & mask(FromW)),
                       B == Builtin::SitoFp, llvm::APFloat::rmNearestTiesToEven);
    return fromAP(To, F);
  }
  case Builtin::FptoSi: case Builtin::FptoUi: {
    llvm::APSInt I(ToW, B == Builtin::FptoUi);
    bool Exact = false;
    if (toAP(V).convertToInteger(I, llvm::APFloat::rmTowardZero, &Exact) &
        llvm::APFloat::opInvalidOp)
      return Value::prim(To, x86TruncOutOfRange(B == Builtin::FptoSi, ToW,
                                                toAP(V).convertToDouble()) &
                                 mask(ToW));
    return Value::prim(To, I.getZExtValue() & mask(ToW));
  }
  case Builtin::Fptrunc: case Builtin::Fpext: {
    llvm::APFloat F = toAP(V);
    bool LosesInfo = false;
    F.convert(semantics(To), llvm::APFloat::rmNearestTiesToEven, &LosesInfo);
    return fromAP(To, F);
  }
  case Builtin::Bitcast:
    if (To->isPrimitive() && V.T->isPrimitive() && To->bitWidth() == V.T->bitWidth())
      return Value::prim(To, V.Bits);
    return fault("bitcast from " + V.T->str() + " to " + To->str() +
                 ": the sizes differ");
  default:
    return fault(std::string("not a conversion: ") + builtinName(B));
  }
}

} // namespace

bool egal(const Value &A, const Value &B) {
  if (A.T != B.T || A.Fields.size() != B.Fields.size())
    return false;
  if (A.T && A.T->isPrimitive() && A.Bits != B.Bits)
    return false;
  for (size_t I = 0; I < A.Fields.size(); ++I)
    if (!egal(A.Fields[I], B.Fields[I]))
      return false;
  return true;
}

Value constantValue(const ConstValue &C) {
  TypeContext &TC = TypeContext::get();
  switch (C.K) {
  case ConstValue::Nothing: return Value::singleton(TC.nothing());
  case ConstValue::Bool: case ConstValue::Int: case ConstValue::Float:
    return Value::prim(C.Ty, C.Bits);
  case ConstValue::TypeVal: return Value::singleton(TC.typeOfType(C.TypeValue));
  case ConstValue::Func: return Value::singleton(C.Ty ? C.Ty : TC.functionType(C.Fn));
  case ConstValue::Sym: return Value();
  case ConstValue::Instance: return Value::singleton(C.Ty);
  }
  return Value();
}

BuiltinOutcome evalBuiltin(Builtin B, const TypedCode &Code, unsigned I,
                           const std::vector<Value> &A, BuiltinContext &Ctx) {
  TypeContext &TC = TypeContext::get();
  const Stmt &S = Code.Code[I];
  const LatticeType &Result = Code.SSATypes[I];
  auto Need = [&](size_t N) -> std::optional<Fault> {
    if (A.size() < N)
      return fault(std::string(builtinName(B)) + " expects " + std::to_string(N) +
                   " arguments");
    return std::nullopt;
  };
  switch (B) {
  //===--- Core ---===//
  case Builtin::GetField: {
    if (auto F = Need(2))
      return *F;
    const Value &X = A[0];
    if (!X.T || !(X.T->isStruct() || X.T->isTuple()))
      return fault("getfield of " +
                   (X.T ? withArticle(X.T->str()) : std::string("?")));
    int Field = -1;
    const IRValue &FArg = S.Args[2];
    if (FArg.K == IRValue::Const && FArg.C.K == ConstValue::Sym)
      Field = X.T->fieldIndex(FArg.C.Name);
    else if (auto *C = argConst(Code, I, 1); C && (*C)->K == ConstValue::Sym)
      Field = X.T->fieldIndex((*C)->Name);
    else if (A[1].T && A[1].T->isInteger()) {
      int64_t K = sext(A[1].Bits, width(A[1].T));
      if (K < 1 || K > static_cast<int64_t>(X.Fields.size())) {
        Thrown E = exception("BoundsError");
        E.Detail = formatShowError(
            tupleBoundsErrorTemplate(X.T->str(), A[1].T->str()), {A[1].Bits});
        return E;
      }
      Field = static_cast<int>(K - 1);
    }
    if (Field < 0 || Field >= static_cast<int>(X.Fields.size()))
      return fault("getfield of an unknown field of " + X.T->str());
    return X.Fields[Field];
  }
  case Builtin::TupleNew: {
    Value V;
    std::vector<Type *> Ts;
    for (const Value &E : A)
      Ts.push_back(E.T);
    V.T = Result.T && Result.T->isConcrete() ? Result.T : TC.tuple(Ts);
    V.Fields = A;
    return V;
  }
  case Builtin::New: {
    if (auto F = Need(1))
      return *F;
    Type *T = typeArg(A[0]);
    if (!T)
      return fault("new without a type");
    Value V;
    V.T = T;
    V.Fields.assign(A.begin() + 1, A.end());
    if (V.Fields.size() != T->fieldTypes().size() && !T->isTuple())
      return fault("new(" + T->str() + ") with " + std::to_string(V.Fields.size()) +
                   " fields");
    return V;
  }
  case Builtin::Egal:
    if (auto F = Need(2))
      return *F;
    return boolValue(egal(A[0], A[1]));
  case Builtin::TypeOf:
    if (auto F = Need(1))
      return *F;
    return Value::singleton(TC.typeOfType(A[0].T));
  case Builtin::IsA: {
    if (auto F = Need(2))
      return *F;
    Type *T = typeArg(A[1]);
    if (!T)
      return fault("isa with a non-type");
    return boolValue(isSubtype(A[0].T, T));
  }
  case Builtin::Throw: {
    if (auto F = Need(1))
      return *F;
    Type *ET = A[0].T;
    Thrown E = exception(ET && ET->isDataType() ? ET->name()->Name.string()
                                                : std::string("Exception"));
    E.Detail = showErrorText(A[0]);
    return E;
  }
  case Builtin::BoundsCheck:
    // Inference decided it per instance (false in an @inbounds callee).
    if (Result.Const)
      return Value::prim(TC.boolTy(), Result.Const->Bits ? 1 : 0);
    return boolValue(true);
  case Builtin::TypeAssert: {
    if (auto F = Need(2))
      return *F;
    Type *T = typeArg(A[1]);
    if (!T)
      return fault("typeassert with a non-type");
    if (!isSubtype(A[0].T, T)) {
      Thrown E = exception("TypeError");
      E.Detail = typeAssertErrorText(T->str(), A[0].T->str());
      return E;
    }
    return A[0];
  }
  case Builtin::ApplyType:
  case Builtin::TypeJoin:
    if (Result.Const)
      return constantValue(*Result.Const);
    return fault(std::string(builtinName(B)) + " that inference did not fold");
  case Builtin::SizeOf: {
    if (auto F = Need(1))
      return *F;
    Type *T = typeArg(A[0]);
    std::optional<uint64_t> S = T ? T->juliaSizeOf() : std::nullopt;
    if (!S)
      return fault("sizeof_type of a type without a definite size");
    return Value::prim(TC.int64(), *S);
  }
  case Builtin::NFields:
    if (auto F = Need(1))
      return *F;
    return Value::prim(TC.int64(), A[0].Fields.size());

  case Builtin::AddInt: case Builtin::SubInt: case Builtin::MulInt:
  case Builtin::SDivInt: case Builtin::UDivInt: case Builtin::SRemInt:
  case Builtin::URemInt: case Builtin::AndInt: case Builtin::OrInt:
  case Builtin::XorInt: case Builtin::ShlInt: case Builtin::LShrInt:
  case Builtin::AShrInt: case Builtin::EqInt: case Builtin::NeInt:
  case Builtin::SltInt: case Builtin::SleInt: case Builtin::UltInt:
  case Builtin::UleInt:
    if (auto F = Need(2))
      return *F;
    return intArith(B, A);
  case Builtin::NegInt: case Builtin::NotInt: case Builtin::CtpopInt:
  case Builtin::CtlzInt:
  case Builtin::CttzInt:
  case Builtin::BswapInt:
  case Builtin::BitreverseInt:
    if (auto F = Need(1))
      return *F;
    return intArith(B, A);

  case Builtin::AddFloat: case Builtin::SubFloat: case Builtin::MulFloat:
  case Builtin::DivFloat: case Builtin::RemFloat: case Builtin::CopysignFloat:
  case Builtin::PowFloat:
  case Builtin::Atan2Float:
    if (auto F = Need(2))
      return *F;
    return floatArith(B, A);
  case Builtin::FmaFloat: case Builtin::MuladdFloat:
    if (auto F = Need(3))
      return *F;
    return floatArith(B, A);
  case Builtin::NegFloat: case Builtin::SqrtLlvm: case Builtin::AbsFloat:
  case Builtin::FloorLlvm: case Builtin::CeilLlvm: case Builtin::TruncLlvm:
  case Builtin::RintLlvm: case Builtin::ExpFloat: case Builtin::LogFloat:
  case Builtin::SinFloat: case Builtin::CosFloat: case Builtin::Exp2Float:
  case Builtin::Log2Float:
  case Builtin::Log10Float:
  case Builtin::TanFloat:
  case Builtin::AtanFloat:
  case Builtin::TanhFloat:
  case Builtin::SinhFloat:
  case Builtin::CoshFloat:
  case Builtin::AsinFloat:
  case Builtin::AcosFloat:
  case Builtin::CbrtFloat:
  case Builtin::Expm1Float:
  case Builtin::Log1pFloat:
    if (auto F = Need(1))
      return *F;
    return floatArith(B, A);
  case Builtin::EqFloat: case Builtin::NeFloat: case Builtin::LtFloat:
  case Builtin::LeFloat:
    if (auto F = Need(2))
      return *F;
    return floatCompare(B, A);

  case Builtin::SextInt: case Builtin::ZextInt: case Builtin::TruncInt:
  case Builtin::FptoSi: case Builtin::FptoUi: case Builtin::SitoFp:
  case Builtin::UitoFp: case Builtin::Fptrunc: case Builtin::Fpext:
  case Builtin::Bitcast:
    if (auto F = Need(2))
      return *F;
    return conversion(B, typeArg(A[0]), A[1]);

  //===--- Pointers (1-based element indices) ---===//
  case Builtin::PointerRef: case Builtin::PointerSet: {
    bool IsSet = B == Builtin::PointerSet;
    if (auto F = Need(IsSet ? 3 : 2))
      return *F;
    Type *ET = A[0].T->isPointer() ? A[0].T->param(0) : nullptr;
    if (!ET)
      return fault(std::string(builtinName(B)) + " of " +
                   withArticle(A[0].T->str()));
    const Value &Idx = A[IsSet ? 2 : 1];
    int64_t K = sext(Idx.Bits, width(Idx.T));
    uint64_t Bytes = sizeOf(ET);
    uint64_t Addr = A[0].Bits + static_cast<uint64_t>(K - 1) * Bytes;
    if (!IsSet)
      return load(*Ctx.Mem, ET, Addr, "pointerref");
    if (auto F = store(*Ctx.Mem, A[1], Addr, "pointerset"))
      return *F;
    return A[0];
  }
  case Builtin::PointerAdd:
    if (auto F = Need(2))
      return *F;
    return Value::prim(A[0].T, A[0].Bits + A[1].Bits);
  case Builtin::AtomicAdd: {
    if (auto F = Need(2))
      return *F;
    Type *ET = A[0].T->isPointer() ? A[0].T->param(0) : nullptr;
    if (!ET)
      return fault("atomic_add of " + withArticle(A[0].T->str()));
    BuiltinOutcome Old = load(*Ctx.Mem, ET, A[0].Bits, "atomic_add");
    if (!std::holds_alternative<Value>(Old))
      return Old;
    BuiltinOutcome Sum =
        ET->isFloat() ? floatArith(Builtin::AddFloat, {std::get<Value>(Old), A[1]})
                      : intArith(Builtin::AddInt, {std::get<Value>(Old), A[1]});
    if (!std::holds_alternative<Value>(Sum))
      return Sum;
    if (auto F = store(*Ctx.Mem, std::get<Value>(Sum), A[0].Bits, "atomic_add"))
      return *F;
    return Old;
  }

  //===--- Device indices (0-based, Int32) ---===//
  case Builtin::ThreadIdxX: case Builtin::ThreadIdxY: case Builtin::ThreadIdxZ:
    return Value::prim(TC.int32(), Ctx.ThreadIdx[unsigned(B) - unsigned(Builtin::ThreadIdxX)]);
  case Builtin::BlockIdxX: case Builtin::BlockIdxY: case Builtin::BlockIdxZ:
    return Value::prim(TC.int32(), Ctx.BlockIdx[unsigned(B) - unsigned(Builtin::BlockIdxX)]);
  case Builtin::BlockDimX: case Builtin::BlockDimY: case Builtin::BlockDimZ:
    return Value::prim(TC.int32(), Ctx.BlockDim[unsigned(B) - unsigned(Builtin::BlockDimX)]);
  case Builtin::GridDimX: case Builtin::GridDimY: case Builtin::GridDimZ:
    return Value::prim(TC.int32(), Ctx.GridDim[unsigned(B) - unsigned(Builtin::GridDimX)]);
  case Builtin::SyncThreads:
    return fault("sync_threads is handled by the scheduler"); // not reached
  case Builtin::SharedArray: {
    if (auto F = Need(2))
      return *F;
    Type *ET = typeArg(A[0]);
    if (!ET || !ET->juliaSizeOf())
      return fault("shared_array of an element type without a memory layout");
    int64_t N = sext(A[1].Bits, width(A[1].T));
    if (N < 0 || N > (int64_t(1) << 24))
      return fault("shared_array of " + std::to_string(N) + " elements");
    return Value::prim(TC.ptr(ET),
                       Ctx.SharedArray(uint64_t(N) * sizeOf(ET), sizeOf(ET)));
  }
  case Builtin::BpfLoadByte: case Builtin::BpfLoadHalf: case Builtin::BpfLoadWord:
    return fault(std::string(builtinName(B)) +
                 ": the interpreter runs host semantics; BPF packet loads run on "
                 "the bpf device");
  case Builtin::None: case Builtin::NumBuiltins:
  case Builtin::SetField: // an inference error: never runs
    break;
  }
  return fault(std::string("unknown builtin ") + builtinName(B));
}

} // namespace prism::interp
