//===- ProgramGenerator.cpp - random well-typed kernel-language programs --===//
//
// The generator keeps a model of the prelude's typing rules (promotion,
// which methods exist for which types, which conversions may throw) and
// builds every expression for a wanted type, so the programs it prints infer
// to concrete types everywhere. Dynamic work is bounded by a budget: each
// statement costs the product of the trip-count bounds of the loops around
// it, and a call costs the callee's own (bounded) cost.
//
// Determinism: C++ leaves the order in which the operands of `+` (and the
// arguments of a call) are evaluated unspecified, so an expression that
// draws random numbers in two operands would generate different programs
// under different compilers. Every such concatenation goes through `Cat{}`,
// a braced list, whose elements are evaluated left to right.
//
//===----------------------------------------------------------------------===//

#include "ProgramGenerator.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace prism::difftest {
namespace {

/// Concatenation with the pieces evaluated in order (see the file comment).
struct Cat {
  std::string S;
  Cat(std::initializer_list<std::string> L) {
    for (const std::string &X : L)
      S += X;
  }
  operator std::string() const { return S; }
};

//===-- Scalars and the prelude's promotion rules -------------------------===//

enum Sc : int {
  SBool,
  SI8,
  SI16,
  SI32,
  SI64,
  SU8,
  SU16,
  SU32,
  SU64,
  SF16,
  SF32,
  SF64,
  NumSc,
  SNone = -1
};

const char *const ScName[NumSc] = {"Bool",   "Int8",    "Int16",   "Int32",
                                   "Int64",  "UInt8",   "UInt16",  "UInt32",
                                   "UInt64", "Float16", "Float32", "Float64"};

bool isInt(int S) { return S >= SI8 && S <= SU64; }
bool isSignedInt(int S) { return S >= SI8 && S <= SI64; }
bool isUnsignedInt(int S) { return S >= SU8 && S <= SU64; }
bool isFloat(int S) { return S >= SF16 && S <= SF64; }
int bitsOf(int S) {
  switch (S) {
  case SBool:
    return 1;
  case SI8:
  case SU8:
    return 8;
  case SI16:
  case SU16:
  case SF16:
    return 16;
  case SI32:
  case SU32:
  case SF32:
    return 32;
  default:
    return 64;
  }
}
int toUnsigned(int S) { return isSignedInt(S) ? S + 4 : S; }
int toSigned(int S) { return isUnsignedInt(S) ? S - 4 : S; }

/// promote_type as 10_promotion.jl defines it; SNone where the prelude has
/// no rule (Int16 with UInt16).
int promoteSc(int A, int B) {
  if (A == B)
    return A;
  if (A == SBool)
    return B;
  if (B == SBool)
    return A;
  if (isFloat(A) && isFloat(B))
    return bitsOf(A) > bitsOf(B) ? A : B;
  if (isFloat(A))
    return A;
  if (isFloat(B))
    return B;
  auto Rule = [](int T, int S) -> int {
    switch (T) {
    case SI16:
      return (S == SI8 || S == SU8) ? SI16 : SNone;
    case SI32:
      return (S == SI8 || S == SI16 || S == SU8 || S == SU16) ? SI32 : SNone;
    case SI64:
      return (S == SI8 || S == SI16 || S == SI32 || S == SU8 || S == SU16 ||
              S == SU32)
                 ? SI64
                 : SNone;
    case SU8:
      return S == SI8 ? SU8 : SNone;
    case SU16:
      return (S == SI8 || S == SU8) ? SU16 : SNone;
    case SU32:
      return (S == SI8 || S == SI16 || S == SI32 || S == SU8 || S == SU16)
                 ? SU32
                 : SNone;
    case SU64:
      return (isInt(S) && S != SU64) ? SU64 : SNone;
    default:
      return SNone;
    }
  };
  int R = Rule(A, B);
  return R != SNone ? R : Rule(B, A);
}

/// Whether `convert(To, x::From)` (what `promote` does) never throws. (The
/// prelude converts with a checked conversion, so a negative signed value
/// promoted to an unsigned type throws InexactError, unlike Julia.)
bool safeConv(int From, int To) {
  if (From == To || From == SBool)
    return true;
  if (isFloat(To))
    return !isFloat(From) || bitsOf(From) <= bitsOf(To);
  if (isInt(From) && isInt(To)) {
    if (isSignedInt(To))
      return bitsOf(From) < bitsOf(To);
    return isUnsignedInt(From) && bitsOf(From) < bitsOf(To);
  }
  return false;
}

//===-- Types -------------------------------------------------------------===//

enum class TK { Scalar, Tuple, Struct, Array, Param, Abstract, FuncRef };
/// Abstract argument annotations of generic-function methods.
enum class AK { Signed, Unsigned, Integer, AbstractFloat, Real, Any };
const char *const AKName[] = {"Signed",        "Unsigned", "Integer",
                              "AbstractFloat", "Real",     "Any"};

struct Type {
  TK K = TK::Scalar;
  /// Scalar: the scalar; Array: the element; Param: the class (SI64 for
  /// `T<:Integer`, SF64 for `T<:AbstractFloat`); FuncRef: `S -> S`.
  int S = SI64;
  AK A = AK::Any;
  std::vector<int> Elems; ///< Tuple elements
  int Struct = -1;
  int Dims = 1; ///< Array
  bool operator==(const Type &O) const {
    return K == O.K && S == O.S && A == O.A && Elems == O.Elems &&
           Struct == O.Struct && Dims == O.Dims;
  }
};

struct StructDef {
  std::string Name;
  std::vector<std::pair<std::string, int>> Fields;
};

/// Whether a concrete scalar argument matches an annotation.
bool absMatches(AK A, int S) {
  switch (A) {
  case AK::Signed:
    return isSignedInt(S);
  case AK::Unsigned:
    return isUnsignedInt(S);
  case AK::Integer:
    return S == SBool || isInt(S);
  case AK::AbstractFloat:
    return isFloat(S);
  case AK::Real:
  case AK::Any:
    return true;
  }
  return false;
}

//===-- Functions ---------------------------------------------------------===//

struct Method {
  std::vector<int> Params; ///< type ids
  int Ret = SI64;
};

struct Func {
  enum Kind { Plain, Poly, Family, Rec } K = Plain;
  std::string Name;
  std::vector<Method> Methods; ///< one unless a Family
  int PolyClass = SI64;        ///< Poly: SI64 (T<:Integer) or SF64
  uint64_t Weight = 1;         ///< bound on the statements one call runs
  bool WritesArrays = false;
  bool Tree = false;   ///< Rec: two recursive calls per level
  bool Called = false; ///< some generated code calls it
  bool Unary = false;  ///< a cheap `f(x::S)::S` that may be passed as a value
};

/// The bound on the cost of a call through a function-valued argument.
constexpr uint64_t FuncRefWeight = 30;

struct Var {
  Var(std::string N, int T, bool M = true)
      : Name(std::move(N)), Ty(T), Mutable(M) {}
  std::string Name;
  int Ty;
  bool Mutable = true;
  bool Writable = false; ///< arrays: may be stored to
  std::string SafeFor;   ///< an in-range index of this array
  int64_t KnownLen = -1; ///< arrays: the length when known statically
};

constexpr unsigned MaxArrayLen = 48;
constexpr unsigned MaxKernelInLen = 40;

/// The most specific method of a family for concrete scalar arguments; -1
/// when none applies or the call is ambiguous.
int dispatch(const Func &F, const std::vector<int> &Args,
             const std::vector<Type> &Types) {
  auto Applicable = [&](const Method &M) {
    for (size_t I = 0; I < Args.size(); ++I) {
      const Type &P = Types[M.Params[I]];
      if (P.K == TK::Scalar ? P.S != Args[I] : !absMatches(P.A, Args[I]))
        return false;
    }
    return true;
  };
  auto SubAnn = [&](int A, int B) { // annotation A <: annotation B
    const Type &X = Types[A], &Y = Types[B];
    if (A == B || (Y.K == TK::Abstract && Y.A == AK::Any))
      return true;
    if (Y.K == TK::Scalar)
      return false;
    if (X.K == TK::Scalar)
      return absMatches(Y.A, X.S);
    switch (Y.A) {
    case AK::Real:
      return X.A != AK::Any;
    case AK::Integer:
      return X.A == AK::Signed || X.A == AK::Unsigned;
    default:
      return false;
    }
  };
  std::vector<int> App;
  for (size_t I = 0; I < F.Methods.size(); ++I)
    if (Applicable(F.Methods[I]))
      App.push_back((int)I);
  for (int M : App) {
    bool Best = true;
    for (int O : App) {
      if (O == M)
        continue;
      for (size_t I = 0; I < Args.size() && Best; ++I)
        if (!SubAnn(F.Methods[M].Params[I], F.Methods[O].Params[I]))
          Best = false;
    }
    if (Best)
      return M;
  }
  return -1;
}

//===-- The generator -----------------------------------------------------===//

class Gen {
public:
  Gen(uint64_t Seed, const GenOptions &O) : R(Seed), Opt(O) {
    for (int S = 0; S < NumSc; ++S) {
      Type T;
      T.S = S;
      Types.push_back(T);
      // No Bool with floats: `false * x` is copysign(0, x), whose sign for
      // a NaN x is not reproducible.
      for (int P = 0; P < NumSc; ++P)
        if (promoteSc(P, S) == S && safeConv(P, S) &&
            !(P == SBool && isFloat(S)))
          Partners[S].push_back(P);
    }
  }
  GeneratedProgram run();

private:
  std::mt19937_64 R;
  GenOptions Opt;
  std::vector<Type> Types;
  /// Types P whose mixed arithmetic with S gives S without a throwing
  /// conversion.
  std::vector<int> Partners[NumSc];
  std::vector<StructDef> Structs;
  std::vector<Func> Funcs;
  std::string Src;
  std::vector<Var> Globals; ///< `const` definitions

  // The function being generated.
  std::vector<Var> Vars;
  std::string Text;
  unsigned Indent = 0;
  int RetTy = SI64;
  int PolyParam = -1; ///< the type id of `T` in a `where` method
  unsigned LoopDepth = 0;
  uint64_t Mult = 1, Weight = 0, Budget = 100;
  unsigned NextVar = 0;
  size_t NCallable = 0;
  bool KernelEntry = false, InGuard = false, AllowEarlyReturn = true;
  std::string GuardIdx;
  int OutElem = SF32;
  int BaseDepth = 3;
  unsigned MaxParamLen = MaxArrayLen;
  unsigned Inbounds = 0; ///< generating inside an `@inbounds` expression

  //===-- Randomness (our own helpers: identical on every library) --------===//
  uint64_t below(uint64_t N) { return N ? R() % N : 0; }
  int64_t range(int64_t Lo, int64_t Hi) {
    return Lo + (int64_t)below((uint64_t)(Hi - Lo) + 1);
  }
  bool pct(unsigned P) { return below(100) < P; }
  template <class T> const T &pick(const std::vector<T> &V) {
    return V[below(V.size())];
  }
  template <class T, size_t N> const T &pick(const T (&A)[N]) {
    return A[below(N)];
  }
  /// An index drawn by the weights.
  size_t weighted(const std::vector<unsigned> &W) {
    unsigned Sum = 0;
    for (unsigned X : W)
      Sum += X;
    if (!Sum)
      return 0;
    unsigned Pt = (unsigned)below(Sum);
    for (size_t I = 0; I < W.size(); ++I) {
      if (Pt < W[I])
        return I;
      Pt -= W[I];
    }
    return W.size() - 1;
  }

  //===-- Types -----------------------------------------------------------===//
  int intern(const Type &T) {
    for (size_t I = 0; I < Types.size(); ++I)
      if (Types[I] == T)
        return (int)I;
    Types.push_back(T);
    return (int)Types.size() - 1;
  }
  int tupleTy(std::vector<int> Elems) {
    Type T;
    T.K = TK::Tuple;
    T.Elems = std::move(Elems);
    return intern(T);
  }
  int arrayTy(int Elem, int Dims = 1) {
    Type T;
    T.K = TK::Array;
    T.S = Elem;
    T.Dims = Dims;
    return intern(T);
  }
  int funcRefTy(int S) {
    Type T;
    T.K = TK::FuncRef;
    T.S = S;
    return intern(T);
  }
  int paramTy(int Class) {
    Type T;
    T.K = TK::Param;
    T.S = Class;
    return intern(T);
  }
  int absTy(AK A) {
    Type T;
    T.K = TK::Abstract;
    T.A = A;
    return intern(T);
  }
  int structTy(int Idx) {
    Type T;
    T.K = TK::Struct;
    T.Struct = Idx;
    return intern(T);
  }
  const Type &ty(int Id) const { return Types[Id]; }
  bool isScalar(int Id) const { return ty(Id).K == TK::Scalar; }
  bool isOpaque(int Id) const {
    return ty(Id).K == TK::Param || ty(Id).K == TK::Abstract;
  }
  /// The scalar's name, sometimes by its alias (`Int`, `UInt`).
  std::string scName(int S) {
    if ((S == SI64 || S == SU64) && pct(10))
      return S == SI64 ? "Int" : "UInt";
    return ScName[S];
  }
  std::string tyName(int Id) {
    const Type &T = ty(Id);
    switch (T.K) {
    case TK::Scalar:
      return scName(T.S);
    case TK::Tuple: {
      std::string S = "Tuple{";
      for (size_t I = 0; I < T.Elems.size(); ++I)
        S += (I ? ", " : "") + tyName(T.Elems[I]);
      return S + "}";
    }
    case TK::Struct:
      return Structs[T.Struct].Name;
    case TK::Array:
      return std::string(pct(15) ? "CuDeviceArray{" : "DeviceArray{") +
             ScName[T.S] + "," + std::to_string(T.Dims) + "}";
    case TK::Param:
      return "T";
    case TK::Abstract:
      return AKName[(int)T.A];
    case TK::FuncRef:
      return "Any";
    }
    return "Any";
  }
  /// The access paths (field access, constant indexing) below a value of
  /// type Id that lead to values of type Target.
  void paths(const std::string &Base, int Id, int Target,
             std::vector<std::string> &Out, int Depth = 0) {
    const Type &T = ty(Id);
    if (Depth > 0 && Id == Target)
      Out.push_back(Base);
    if (Depth >= 3)
      return;
    if (T.K == TK::Tuple) {
      for (size_t I = 0; I < T.Elems.size(); ++I) {
        std::string P = Base + "[" + std::to_string(I + 1) + "]";
        if (I == 0 && pct(20))
          P = "first(" + Base + ")";
        else if (I + 1 == T.Elems.size() && pct(20))
          P = "last(" + Base + ")";
        paths(P, T.Elems[I], Target, Out, Depth + 1);
      }
    } else if (T.K == TK::Struct) {
      for (auto &F : Structs[T.Struct].Fields)
        paths(Base + "." + F.first, F.second, Target, Out, Depth + 1);
    }
  }
  /// A random scalar type for a new value.
  int randScalar(bool AllowBool = true) {
    static const std::vector<unsigned> W = {6, 6, 5, 8, 14, 6,
                                            5, 6, 6, 4, 10, 10};
    for (;;) {
      int S = (int)weighted(W);
      if (S != SBool || AllowBool)
        return S;
    }
  }
  int randInt() {
    static const int I[] = {SI8, SI16, SI32, SI64, SI64,
                            SI64, SU8, SU16, SU32, SU64};
    return pick(I);
  }
  int randFloat() {
    static const int F[] = {SF16, SF32, SF32, SF64, SF64};
    return pick(F);
  }
  /// Mostly the type of a scalar (or array element) in scope, so that
  /// expressions mix in live values rather than constants.
  int liveOf(bool (*Pred)(int), int Fallback) {
    if (pct(65)) {
      std::vector<int> C;
      for (const Var &V : Vars)
        if ((ty(V.Ty).K == TK::Scalar || ty(V.Ty).K == TK::Array) &&
            Pred(ty(V.Ty).S))
          C.push_back(ty(V.Ty).S);
      if (!C.empty())
        return pick(C);
    }
    return Fallback;
  }
  static bool anyScalar(int) { return true; }
  int liveScalar() {
    int F = randScalar();
    return liveOf(anyScalar, F);
  }
  int liveInt() {
    int F = randInt();
    return liveOf(isInt, F);
  }
  /// A sign source whose sign is reproducible (never a float: a NaN's sign
  /// bit is not).
  int liveNonFloat() {
    int F = randInt();
    return liveOf([](int S) { return !isFloat(S); }, F);
  }
  int liveFloat() {
    int F = randFloat();
    return liveOf(isFloat, F);
  }
  int randTupleTy() {
    std::vector<int> E;
    unsigned N = (unsigned)range(2, 3);
    for (unsigned I = 0; I < N; ++I)
      E.push_back(randScalar());
    return tupleTy(E);
  }
  /// A type for a variable, a parameter or a return value.
  int randValueTy(bool AllowComposite = true) {
    if (AllowComposite && pct(12))
      return randTupleTy();
    if (AllowComposite && !Structs.empty() && pct(12))
      return structTy((int)below(Structs.size()));
    return randScalar();
  }

  //===-- Literals --------------------------------------------------------===//
  /// A value of an integer type, as a two's-complement bit pattern
  /// sign-extended to 64 bits.
  int64_t drawInt(int S) {
    int B = bitsOf(S);
    bool Sg = isSignedInt(S);
    int64_t Min = Sg ? (B == 64 ? INT64_MIN : -(int64_t(1) << (B - 1))) : 0;
    uint64_t UMax = B == 64 ? ~0ull : ((1ull << B) - 1);
    if (Sg)
      UMax >>= 1;
    unsigned K = (unsigned)below(100);
    if (K < 45)
      return Sg ? range(-10, 10) : range(0, 20);
    if (K < 62) {
      int64_t V = Sg ? range(-1000, 1000) : range(0, 2000);
      if (V < Min)
        V = Min;
      if (V > 0 && (uint64_t)V > UMax)
        V = (int64_t)UMax;
      return V;
    }
    if (K < 85) {
      switch (below(7)) {
      case 0:
        return Min;
      case 1:
        return (int64_t)UMax;
      case 2:
        return Min + 1;
      case 3:
        return (int64_t)(UMax - 1);
      case 4:
        return (int64_t)(1ull << below(Sg ? B - 1 : B));
      case 5:
        return (int64_t)((1ull << below(Sg ? B - 1 : B)) - 1);
      default:
        return Sg ? -1 : 0;
      }
    }
    uint64_t Bits = R();
    if (B < 64) {
      Bits &= (1ull << B) - 1;
      if (Sg && (Bits >> (B - 1)))
        Bits |= ~0ull << B;
    }
    return (int64_t)Bits;
  }
  static std::string hex(uint64_t V, int Digits) {
    char Buf[32];
    std::snprintf(Buf, sizeof Buf, "0x%0*llx", Digits, (unsigned long long)V);
    return Buf;
  }
  /// An integer literal of type S; in an expression (not ForCall) a negative
  /// one is parenthesised.
  std::string intLit(int S, int64_t V, bool ForCall = false) {
    if (isUnsignedInt(S)) {
      uint64_t U = (uint64_t)V;
      uint64_t Max = bitsOf(S) == 64 ? ~0ull : (1ull << bitsOf(S)) - 1;
      if (!ForCall && U == 0 && pct(5))
        return std::string("zero(") + ScName[S] + ")";
      if (!ForCall && U == Max && pct(8))
        return std::string("typemax(") + ScName[S] + ")";
      if (U <= (uint64_t)INT64_MAX && pct(30))
        return scName(S) + "(" + std::to_string(U) + ")";
      return hex(U, bitsOf(S) / 4);
    }
    if (S == SI64) {
      if (V == INT64_MIN) // the CALL parser reads no typemin(Int64)
        return ForCall ? "-9223372036854775807" : "typemin(Int64)";
      std::string N = std::to_string(V);
      return (V < 0 && !ForCall) ? "(" + N + ")" : N;
    }
    if (S == SBool)
      return V ? "true" : "false";
    int64_t Min = -(int64_t(1) << (bitsOf(S) - 1));
    if (!ForCall && V == Min && pct(30))
      return std::string("typemin(") + ScName[S] + ")";
    if (!ForCall && V == -Min - 1 && pct(30))
      return std::string("typemax(") + ScName[S] + ")";
    if (!ForCall && pct(15))
      return "(" + std::to_string(V) + " % " + ScName[S] + ")";
    return std::string(ScName[S]) + "(" + std::to_string(V) + ")";
  }
  /// A float literal as Julia Float64 text (a decimal with an optional
  /// exponent); Neg says whether to negate it.
  std::string drawFloatText(int S, bool &Neg) {
    Neg = pct(35);
    unsigned K = (unsigned)below(100);
    if (K < 40) {
      static const char *const Fr[] = {"0", "25", "5", "75", "125", "375"};
      return Cat{std::to_string(range(0, 12)), ".", pick(Fr)};
    }
    if (K < 58) {
      static const char *const D[] = {"0.1",     "0.2",     "0.3", "3.14159",
                                      "2.71828", "1.1",     "0.7", "123.456",
                                      "1.0",     "0.0",     "99.9", "1000.0"};
      return pick(D);
    }
    if (K < 85) {
      int MaxE = S == SF16 ? 4 : S == SF32 ? 30 : 200;
      return Cat{std::to_string(range(1, 9)), ".",
                 std::to_string(range(0, 999)), "e",
                 std::to_string(range(-MaxE, MaxE))};
    }
    static const char *const X16[] = {"65504.0", "6.0e-5", "1.0e4", "0.0"};
    static const char *const X32[] = {"3.4028235e38", "1.0e-38", "1.0e-45",
                                      "16777216.0", "0.0"};
    static const char *const X64[] = {"1.7976931348623157e308", "1.0e-308",
                                      "5.0e-324", "9.007199254740992e15",
                                      "0.0"};
    if (S == SF16)
      return pick(X16);
    if (S == SF32)
      return pick(X32);
    return pick(X64);
  }
  std::string floatLit(int S, bool ForCall = false) {
    bool Neg;
    std::string T = drawFloatText(S, Neg);
    std::string L;
    if (S == SF16)
      return "Float16(" + std::string(Neg ? "-" : "") + T + ")";
    if (S == SF64) {
      L = T;
    } else {
      size_t E = T.find('e');
      L = E == std::string::npos ? T + "f0"
                                 : T.substr(0, E) + "f" + T.substr(E + 1);
    }
    if (Neg)
      L = "-" + L;
    return (Neg && !ForCall) ? "(" + L + ")" : L;
  }
  std::string lit(int S) {
    if (S == SBool)
      return pct(50) ? "true" : "false";
    if (pct(isFloat(S) ? 4 : 3))
      return std::string(pct(50) ? "zero(" : "one(") + ScName[S] + ")";
    if (isFloat(S))
      return floatLit(S);
    int64_t V = drawInt(S);
    return intLit(S, V);
  }
  std::string callLit(int S) {
    if (S == SBool)
      return pct(50) ? "true" : "false";
    if (isFloat(S))
      return floatLit(S, true);
    int64_t V = drawInt(S);
    return intLit(S, V, true);
  }
  /// The literal 1 of type S.
  static std::string one(int S) {
    if (isUnsignedInt(S))
      return hex(1, bitsOf(S) / 4);
    if (S == SI64)
      return "1";
    return std::string(ScName[S]) + "(1)";
  }

  //===-- Scopes ----------------------------------------------------------===//
  std::string fresh(const char *Prefix) {
    return Prefix + std::to_string(++NextVar);
  }
  void line(const std::string &S) {
    Text.append(Indent * 4, ' ');
    Text += S;
    Text += '\n';
  }
  size_t mark() const { return Vars.size(); }
  void popTo(size_t M) { Vars.erase(Vars.begin() + (long)M, Vars.end()); }
  uint64_t left() const { return Weight >= Budget ? 0 : Budget - Weight; }

  //===-- Expressions -----------------------------------------------------===//
  std::string expr(int Ty, int D);
  std::string scalar(int S, int D);
  std::string leafScalar(int S, int D);
  std::string intProd(int S, int D);
  std::string floatProd(int S, int D);
  std::string boolProd(int D);
  std::string identityCmp(int D);
  std::string paramExpr(int D);
  std::string compositeExpr(int Ty, int D);
  std::string callExpr(int Ty, int D, int Force = -1);
  std::vector<std::string> funcRefArgs(int S);
  std::string subscript(const Var &A, bool Safe, int D);
  std::string dimIndex(const Var &A, int Dim, bool Safe, int D);
  std::string arrayRead(const Var &A, int D);
  std::string indexExpr(const Var &A, bool Safe, int D);
  std::string coerce(const std::string &E, int From, int To);
  std::string floatToInt(int S, int D);
  std::string mixVars(int S);
  int pickPartner(int S) { return pick(Partners[S]); }
  std::pair<int, int> operandPair(int S) {
    if (pct(55))
      return {S, S};
    int O = pickPartner(S);
    return pct(50) ? std::make_pair(S, O) : std::make_pair(O, S);
  }
  /// A divisor that is rarely zero (`b | 1`), or occasionally any value.
  std::string safeDivisor(int S, int D) {
    std::string B = scalar(S, D);
    if (isFloat(S) || pct(4))
      return B;
    if (S == SBool)
      return "true";
    return "(" + B + " | " + one(S) + ")";
  }
  unsigned leafPct(int D) const {
    return D >= BaseDepth ? 10 : D <= 1 ? 65 : 35;
  }

  //===-- Statements ------------------------------------------------------===//
  void block(unsigned N);
  void stmt();
  void stmtNewVar();
  bool stmtAssign();
  bool stmtUpdate();
  void stmtIf();
  bool stmtFor();
  bool stmtWhile();
  bool stmtArrayStore();
  bool stmtArrayLoop();
  bool stmtDestructure();
  void stmtGuardUpdate();
  bool stmtCall();
  void stmtIfJump(bool EarlyReturn);

  //===-- Program parts ---------------------------------------------------===//
  void genStruct();
  void genConst();
  void beginFunc(uint64_t FnBudget);
  std::string paramList(const Method &M, const std::vector<std::string> &Names);
  void genPlain();
  void genPoly();
  void genFamily();
  void genRec();
  void genApply();
  void callUncalled();
  void genEntry(GeneratedProgram &P);
  void emitFunc(const std::string &Header, const std::string &Body,
                const std::string &ShortExpr);
  std::string finalReturn(int Ty);
  std::string arrayCallArg(int Elem, unsigned Len, bool Zeros,
                           unsigned Cols = 0);
};

//===-- Expressions -------------------------------------------------------===//

std::string Gen::expr(int Ty, int D) {
  switch (ty(Ty).K) {
  case TK::Scalar:
    return scalar(ty(Ty).S, D);
  case TK::Param:
    return paramExpr(D);
  case TK::Tuple:
  case TK::Struct:
    return compositeExpr(Ty, D);
  default:
    break;
  }
  return "nothing";
}

/// E (of scalar type From, evaluated more than once) as a value of type To,
/// never throwing.
std::string Gen::coerce(const std::string &E, int From, int To) {
  if (From == To)
    return E;
  if (isFloat(To))
    return std::string(ScName[To]) + "(" + E + ")";
  if (To == SBool)
    return isFloat(From) ? "(" + E + " < zero(" + E + "))" : "isodd(" + E + ")";
  if (isFloat(From))
    return "(isnan(" + E + ") ? " + one(To) + " : trunc(" + ScName[To] +
           ", clamp(" + E + ", 0.0, 100.0)))";
  return "(" + E + " % " + ScName[To] + ")";
}

/// A float converted to the integer type S, in range by a clamp; NaN (which
/// throws InexactError) is mostly guarded.
std::string Gen::floatToInt(int S, int D) {
  int F = liveFloat();
  std::string X = scalar(F, D);
  static const char *const Fn[] = {"trunc", "round", "floor", "ceil"};
  const char *Lo, *Hi;
  switch (S) {
  case SI8:
    Lo = "-100.0", Hi = "100.0";
    break;
  case SI16:
    Lo = "-30000.0", Hi = "30000.0";
    break;
  case SI32:
    Lo = "-2.0e9", Hi = "2.0e9";
    break;
  case SI64:
    Lo = "-9.0e18", Hi = "9.0e18";
    break;
  case SU8:
    Lo = "0.0", Hi = "250.0";
    break;
  case SU16:
    Lo = "0.0", Hi = "65000.0";
    break;
  case SU32:
    Lo = "0.0", Hi = "4.0e9";
    break;
  default:
    Lo = "0.0", Hi = "1.8e19";
    break;
  }
  std::string C = Cat{pick(Fn), "(", ScName[S], ", clamp(", X, ", ", Lo,
                      ", ", Hi, "))"};
  if (pct(85))
    return "(isnan(" + X + ") ? " + one(S) + " : " + C + ")";
  return C;
}

std::string Gen::leafScalar(int S, int D) {
  std::vector<std::function<std::string()>> C;
  std::vector<unsigned> W;
  C.push_back([this, S] { return lit(S); });
  W.push_back(Vars.empty() ? 10 : S == SBool ? 1 : 2);
  // Any scalar variable converted to S keeps values live (not constants).
  std::vector<const Var *> Scalars;
  for (const Var &V : Vars)
    if (ty(V.Ty).K == TK::Scalar && ty(V.Ty).S != S)
      Scalars.push_back(&V);
  if (!Scalars.empty()) {
    C.push_back([this, S, Scalars] {
      const Var *V = pick(Scalars);
      // Float-to-integer conversions read badly in bulk: prefer others.
      for (int Try = 0; Try < 3 && isFloat(ty(V->Ty).S) && isInt(S); ++Try)
        V = pick(Scalars);
      return coerce(V->Name, ty(V->Ty).S, S);
    });
    W.push_back(3);
  }
  for (const Var &V : Vars) {
    const Type &T = ty(V.Ty);
    if (T.K == TK::Scalar && T.S == S) {
      std::string N = V.Name;
      C.push_back([N] { return N; });
      W.push_back(6);
    } else if (T.K == TK::Tuple || T.K == TK::Struct) {
      std::vector<std::string> P;
      paths(V.Name, V.Ty, S, P);
      for (auto &X : P) {
        C.push_back([X] { return X; });
        W.push_back(3);
      }
    } else if (T.K == TK::Array && T.S == S && D >= 1 &&
               !(KernelEntry && V.Writable)) {
      const Var *A = &V; // Vars does not change while an expression is built
      C.push_back([this, A, D] { return arrayRead(*A, D - 1); });
      W.push_back(4);
    } else if (T.K == TK::Param || T.K == TK::Abstract) {
      // An opaque value is used through a conversion to a known type.
      bool IntLike = (T.K == TK::Param && T.S == SI64) ||
                     (T.K == TK::Abstract &&
                      (T.A == AK::Signed || T.A == AK::Unsigned ||
                       T.A == AK::Integer));
      std::string N = V.Name;
      if (isFloat(S)) {
        C.push_back([N, S] { return std::string(ScName[S]) + "(" + N + ")"; });
        W.push_back(5);
      } else if (S == SBool) {
        C.push_back([this, N, IntLike] {
          if (IntLike && pct(50))
            return std::string(pct(50) ? "isodd(" : "iseven(") + N + ")";
          if (IntLike && pct(50))
            return "signbit(" + N + ")";
          if (pct(50))
            return "(" + N + " < zero(" + N + "))";
          return "iszero(" + N + ")";
        });
        W.push_back(3);
      } else if (IntLike) {
        C.push_back([N, S] { return "(" + N + " % " + ScName[S] + ")"; });
        W.push_back(5);
      }
    }
  }
  return C[weighted(W)]();
}

std::string Gen::indexExpr(const Var &A, bool Safe, int D) {
  for (const Var &V : Vars)
    if (V.SafeFor == A.Name && pct(60))
      return V.Name;
  if (pct(12))
    return pct(50) ? "1"
                   : (pct(50) ? "firstindex(" + A.Name + ")"
                              : "lastindex(" + A.Name + ")");
  int S = liveInt();
  if (KernelEntry && pct(50)) {
    for (const Var &V : Vars)
      if (V.Name == GuardIdx || V.Name == "t") {
        S = ty(V.Ty).S;
        break;
      }
  }
  std::string E = scalar(S, std::max(0, D));
  if (!Safe && !Inbounds && pct(8))
    return "((" + E + " & 15) + 1)"; // may be out of bounds: BoundsError
  if (A.KnownLen > 0 && pct(30))
    return "(mod(" + E + ", " + std::to_string(A.KnownLen) + ") + 1)";
  if (pct(20))
    return "clamp(" + E + ", 1, length(" + A.Name + "))";
  return "(mod(" + E + ", length(" + A.Name + ")) + 1)";
}

std::string Gen::dimIndex(const Var &A, int Dim, bool Safe, int D) {
  if (pct(10))
    return "1";
  int S = liveInt();
  std::string E = scalar(S, std::max(0, D));
  std::string Sz = "size(" + A.Name + ", " + std::to_string(Dim) + ")";
  if (!Safe && !Inbounds && pct(8))
    return "((" + E + " & 3) + 1)";
  if (pct(25))
    return "clamp(" + E + ", 1, " + Sz + ")";
  return "(mod(" + E + ", " + Sz + ") + 1)";
}

/// `i` or, for a matrix, sometimes `i, j`; in range when Safe.
std::string Gen::subscript(const Var &A, bool Safe, int D) {
  if (ty(A.Ty).Dims == 2 && pct(60))
    return Cat{dimIndex(A, 1, Safe, D), ", ", dimIndex(A, 2, Safe, D)};
  return indexExpr(A, Safe, D);
}

std::string Gen::arrayRead(const Var &A, int D) {
  // `@inbounds` covers its whole expression: every index under it must be
  // in range.
  if (pct(35)) {
    ++Inbounds;
    std::string S = subscript(A, true, D);
    --Inbounds;
    return "(@inbounds " + A.Name + "[" + S + "])";
  }
  return A.Name + "[" + subscript(A, Inbounds > 0, D) + "]";
}

std::string Gen::scalar(int S, int D) {
  if (PolyParam >= 0 && pct(8)) {
    // Now and then a detour through the method's type parameter.
    if (isFloat(S))
      return std::string(ScName[S]) + "(" + paramExpr(D - 1) + ")";
    if (ty(PolyParam).S == SI64 && isInt(S))
      return "(" + paramExpr(D - 1) + " % " + ScName[S] + ")";
  }
  if (D <= 0 || pct(leafPct(D)))
    return leafScalar(S, D);
  for (int Try = 0; Try < 4; ++Try) {
    std::string E = isFloat(S)    ? floatProd(S, D)
                    : S == SBool ? boolProd(D)
                                 : intProd(S, D);
    if (!E.empty())
      return E;
  }
  return leafScalar(S, D);
}

std::string Gen::intProd(int S, int D) {
  enum { Arith, Bit, Shift, Div, Unary, MinMax, Cond, Conv, Pow, Call,
         Assert, Len, BoolArith, Bits, FromFloat, Mix, Ident };
  bool I64 = S == SI64;
  std::vector<unsigned> W = {22, 10, 8, 7, 8, 6, 6, 12, 2, 10, 1,
                             I64 ? 4u : 0u, I64 ? 2u : 0u, I64 ? 3u : 0u,
                             3, 2, 4};
  int D1 = D - 1;
  switch (weighted(W)) {
  case Arith: {
    auto [A, B] = operandPair(S);
    static const char *const Op[] = {" + ", " - ", " * "};
    return Cat{"(", scalar(A, D1), pick(Op), scalar(B, D1), ")"};
  }
  case Bit: {
    auto [A, B] = operandPair(S);
    if (pct(15)) {
      // A rotate (LLVM forms a funnel shift from it).
      std::string X = leafScalar(S, 0);
      int K = (int)range(1, bitsOf(S) - 1);
      return "((" + X + " << " + std::to_string(K) + ") | (" + X + " >>> " +
             std::to_string(bitsOf(S) - K) + "))";
    }
    if (pct(15))
      return Cat{"xor(", scalar(A, D1), ", ", scalar(B, D1), ")"};
    static const char *const Op[] = {" & ", " | ", " ⊻ "};
    return Cat{"(", scalar(A, D1), pick(Op), scalar(B, D1), ")"};
  }
  case Shift: {
    static const char *const Op[] = {" << ", " >> ", " >>> "};
    std::string N;
    if (pct(55)) {
      int T = pct(60) ? SI64 : randInt();
      int64_t Max = std::min<int64_t>(
          bitsOf(S) + 2, isSignedInt(T) && bitsOf(T) == 8 ? 127 : 255);
      int64_t V = range(0, Max);
      N = intLit(T, V);
    } else {
      int T = liveInt();
      N = scalar(T, D1);
    }
    return Cat{"(", scalar(S, D1), pick(Op), N, ")"};
  }
  case Div: {
    auto [A, B] = operandPair(S);
    if (B == SBool)
      B = S;
    std::string X = scalar(A, D1);
    std::string Y = safeDivisor(B, D1);
    static const char *const Fn[] = {"div(", "rem(", "mod(", "fld(", "cld("};
    switch (below(7)) {
    case 0:
      return "(" + X + " ÷ " + Y + ")";
    case 1:
      return "(" + X + " % " + Y + ")";
    default:
      return Cat{pick(Fn), X, ", ", Y, ")"};
    }
  }
  case Unary: {
    std::string X = scalar(S, D1);
    switch (below(isSignedInt(S) ? 7 : 4)) {
    case 0:
      return "(-" + X + ")";
    case 1:
      return "(~" + X + ")";
    case 2:
      return "abs(" + X + ")";
    case 3:
      return "sign(" + X + ")";
    case 4: {
      int Y = liveNonFloat();
      return "flipsign(" + X + ", " + scalar(Y, D1) + ")";
    }
    case 5: {
      int Y = liveNonFloat();
      return "copysign(" + X + ", " + scalar(Y, D1) + ")";
    }
    default:
      return "abs(" + X + ")";
    }
  }
  case MinMax: {
    if (pct(25)) {
      int64_t A = drawInt(S);
      int64_t B = drawInt(S);
      bool Lt = isUnsignedInt(S) ? (uint64_t)A < (uint64_t)B : A < B;
      if (!Lt)
        std::swap(A, B);
      return Cat{"clamp(", scalar(S, D1), ", ", intLit(S, A), ", ",
                 intLit(S, B), ")"};
    }
    auto [A, B] = operandPair(S);
    return Cat{pct(50) ? "min(" : "max(", scalar(A, D1), ", ", scalar(B, D1),
               ")"};
  }
  case Cond: {
    std::string C = scalar(SBool, D1);
    if (pct(50))
      return Cat{"ifelse(", C, ", ", scalar(S, D1), ", ", scalar(S, D1), ")"};
    return Cat{"(", C, " ? ", scalar(S, D1), " : ", scalar(S, D1), ")"};
  }
  case Conv: {
    unsigned K = (unsigned)below(100);
    if (K < 40) {
      int F = pct(15) ? SBool : liveInt();
      return Cat{"(", scalar(F, D1), " % ", scName(S), ")"};
    }
    if (K < 60) {
      // T(x & mask) with the mask in range of both types: never throws.
      int F = liveInt();
      int MaxBits = std::min(isSignedInt(S) ? bitsOf(S) - 1 : bitsOf(S),
                             isSignedInt(F) ? bitsOf(F) - 1 : bitsOf(F));
      int Bits = (int)range(1, std::min(MaxBits, 12));
      return Cat{scName(S), "(", scalar(F, D1), " & ",
                 intLit(F, (int64_t(1) << Bits) - 1), ")"};
    }
    if (K < 68 && bitsOf(S) > 8) {
      int F = isSignedInt(S) ? toUnsigned(S) : toSigned(S);
      return std::string(isSignedInt(S) ? "signed(" : "unsigned(") +
             scalar(F, D1) + ")";
    }
    if (K < 85) {
      int F = pickPartner(S);
      if (F == S)
        return "(" + scalar(S, D1) + "::" + ScName[S] + ")";
      if (pct(20))
        return Cat{"convert(", scName(S), ", ", scalar(F, D1), ")"};
      return Cat{scName(S), "(", scalar(F, D1), ")"};
    }
    if (K < 89) {
      // May throw InexactError.
      int F = liveInt();
      return Cat{scName(S), "(", scalar(F, D1), ")"};
    }
    return std::string(pct(50) ? "typemax(" : "typemin(") + ScName[S] + ")";
  }
  case Pow: {
    int T = pct(70) ? SI64 : randInt();
    int64_t P = range(0, 5);
    return Cat{"(", scalar(S, D1), " ^ ", intLit(T, P), ")"};
  }
  case Call:
    return callExpr(S, D1);
  case Assert:
    return "(" + scalar(S, D1) + ")::" + ScName[S];
  case Len: {
    std::vector<std::string> C;
    for (const Var &V : Vars) {
      if (ty(V.Ty).K == TK::Array) {
        C.push_back("length(" + V.Name + ")");
        C.push_back("size(" + V.Name + ", 1)");
      } else if (ty(V.Ty).K == TK::Tuple) {
        C.push_back("length(" + V.Name + ")");
      }
    }
    return C.empty() ? "" : pick(C);
  }
  case BoolArith:
    return Cat{"(", scalar(SBool, D1), pct(50) ? " + " : " - ",
               scalar(SBool, D1), ")"};
  case Bits: {
    static const char *const Fn[] = {"count_ones(", "leading_zeros(",
                                     "trailing_zeros("};
    int T = liveInt();
    return Cat{pick(Fn), scalar(T, D1), ")"};
  }
  case FromFloat:
    return floatToInt(S, D1);
  case Mix:
    return mixVars(S);
  case Ident: {
    // Wrapping arithmetic that only looks like the identity.
    std::string A = leafScalar(S, 0);
    int64_t V = range(1, 7);
    std::string K = intLit(S, V);
    switch (below(6)) {
    case 0:
      return "((" + A + " + " + K + ") - " + K + ")";
    case 1:
      return "((" + A + " * " + K + ") ÷ " + K + ")";
    case 2:
      return "((" + A + " << " + K + ") >> " + K + ")";
    case 3:
      return "((" + A + " >>> " + K + ") << " + K + ")";
    case 4:
      return "max(" + A + ", (" + A + " + " + K + "))";
    default:
      return "((" + A + " ⊻ " + scalar(S, D1) + ") ⊻ " + A + ")";
    }
  }
  }
  return "";
}

std::string Gen::floatProd(int S, int D) {
  enum { Arith, IntDiv, Unary, MinMax, Cond, Conv, Rem, Math, Fma, Call, Mix };
  std::vector<unsigned> W = {25, S == SF64 ? 4u : 0u, 12, 6, 6, 10,
                             4,  2,                  1,  10, 2};
  int D1 = D - 1;
  switch (weighted(W)) {
  case Arith: {
    auto [A, B] = operandPair(S);
    static const char *const Op[] = {" + ", " - ", " * ", " / "};
    return Cat{"(", scalar(A, D1), pick(Op), scalar(B, D1), ")"};
  }
  case IntDiv: {
    // Integer / integer is a Float64, for any two integer types.
    int A = liveInt();
    int B = liveInt();
    return Cat{"(", scalar(A, D1), " / ", scalar(B, D1), ")"};
  }
  case Unary: {
    std::string X = scalar(S, D1);
    static const char *const Fn[] = {"(-", "abs(", "floor(", "ceil(",
                                     "round(", "trunc(", "sign("};
    switch (below(10)) {
    case 0:
      return "sqrt(abs(" + X + "))";
    case 1: {
      int Y = liveNonFloat();
      return "copysign(" + X + ", " + scalar(Y, D1) + ")";
    }
    case 2: {
      int Y = liveNonFloat();
      return "flipsign(" + X + ", " + scalar(Y, D1) + ")";
    }
    default:
      return pick(Fn) + X + ")";
    }
  }
  case MinMax: {
    auto [A, B] = operandPair(S);
    if (pct(20))
      return Cat{"clamp(", scalar(S, D1), ", ", lit(S), ", ", lit(S), ")"};
    return Cat{pct(50) ? "min(" : "max(", scalar(A, D1), ", ", scalar(B, D1),
               ")"};
  }
  case Cond: {
    std::string C = scalar(SBool, D1);
    if (pct(50))
      return Cat{"ifelse(", C, ", ", scalar(S, D1), ", ", scalar(S, D1), ")"};
    return Cat{"(", C, " ? ", scalar(S, D1), " : ", scalar(S, D1), ")"};
  }
  case Conv: {
    int F = liveScalar();
    if (F == S)
      return "(" + scalar(S, D1) + ")::" + ScName[S];
    if (S == SF64 && !isFloat(F) && pct(20))
      return "float(" + scalar(F, D1) + ")";
    return std::string(ScName[S]) + "(" + scalar(F, D1) + ")";
  }
  case Rem: {
    // fmod and friends; a zero divisor gives NaN, no throw.
    auto [A, B] = operandPair(S);
    static const char *const Fn[] = {"rem(", "mod(", "div(", "fld(", "cld("};
    if (pct(20))
      return Cat{"(", scalar(A, D1), " % ", scalar(B, D1), ")"};
    return Cat{pick(Fn), scalar(A, D1), ", ", scalar(B, D1), ")"};
  }
  case Math: {
    static const char *const Fn[] = {"sin(", "cos(", "exp("};
    if (pct(25))
      return "log(abs(" + scalar(S, D1) + ") + one(" + ScName[S] + "))";
    return Cat{pick(Fn), scalar(S, D1), ")"};
  }
  case Fma:
    return Cat{"fma(", scalar(S, D1), ", ", scalar(S, D1), ", ", scalar(S, D1),
               ")"};
  case Call:
    return callExpr(S, D1);
  case Mix:
    return mixVars(S);
  }
  return "";
}

std::string Gen::boolProd(int D) {
  enum { Cmp, Logic, Pred, Conv, Cond, Call, ParamCmp, Ident };
  std::vector<unsigned> W = {30, 14, 8, 3, 3, 5, PolyParam >= 0 ? 6u : 0u, 6};
  int D1 = D - 1;
  static const char *const CmpOp[] = {" == ", " != ", " < ",
                                      " <= ", " > ",  " >= "};
  switch (weighted(W)) {
  case Cmp: {
    // Any two scalar types compare (signed against unsigned by value).
    int A = liveScalar();
    int B = pct(55) ? A : liveScalar();
    if (A == B && !isFloat(A) && pct(5))
      return Cat{"(", scalar(A, D1), " === ", scalar(B, D1), ")"};
    return Cat{"(", scalar(A, D1), pick(CmpOp), scalar(B, D1), ")"};
  }
  case Logic: {
    std::string X = scalar(SBool, D1);
    static const char *const Op[] = {" && ", " || ", " & ", " | ", " ⊻ ",
                                     " != "};
    switch (below(8)) {
    case 0:
      return "(!" + X + ")";
    case 1:
      return "xor(" + X + ", " + scalar(SBool, D1) + ")";
    default:
      return Cat{"(", X, pick(Op), scalar(SBool, D1), ")"};
    }
  }
  case Pred: {
    if (pct(40)) {
      static const char *const Fn[] = {"isnan(", "isinf(", "isfinite(",
                                       "isinteger("};
      int T = liveFloat();
      return Cat{pick(Fn), scalar(T, D1), ")"};
    }
    if (pct(50)) {
      int T = liveInt();
      return Cat{pct(50) ? "iseven(" : "isodd(", scalar(T, D1), ")"};
    }
    static const char *const Fn[] = {"iszero(", "isone(", "signbit("};
    int T = liveScalar();
    if (isFloat(T)) // signbit(NaN) is not reproducible
      return Cat{pct(50) ? "iszero(" : "isone(", scalar(T, D1), ")"};
    return Cat{pick(Fn), scalar(T, D1), ")"};
  }
  case Conv: {
    int T = liveInt();
    return "(" + scalar(T, D1) + " % Bool)";
  }
  case Cond: {
    std::string C = scalar(SBool, D1);
    return Cat{"ifelse(", C, ", ", scalar(SBool, D1), ", ", scalar(SBool, D1),
               ")"};
  }
  case Call:
    return callExpr(SBool, D1);
  case ParamCmp:
    return Cat{"(", paramExpr(D1), pick(CmpOp), paramExpr(D1), ")"};
  case Ident:
    return identityCmp(D1);
  }
  return "";
}

/// Comparisons that algebra says are constant but wrapping integers and IEEE
/// floats do not: they catch folds that assume no overflow, no NaN or no
/// signed zero.
std::string Gen::identityCmp(int D) {
  int S = liveScalar();
  if (S == SBool)
    S = liveInt();
  std::string A = leafScalar(S, 0);
  if (isFloat(S)) {
    std::string Z = std::string("zero(") + ScName[S] + ")";
    std::string O = std::string("one(") + ScName[S] + ")";
    switch (below(9)) {
    case 0:
      return "(" + A + " == " + A + ")";
    case 1:
      return "(isnan(" + A + ") || ((" + A + " + " + Z + ") === " + A + "))";
    case 2:
      return "((" + A + " - " + A + ") == " + Z + ")";
    case 3:
      return "((" + A + " * " + Z + ") == " + Z + ")";
    case 4:
      return "(isnan(" + A + ") || ((" + A + " * " + O + ") === " + A + "))";
    case 5:
      return "(" + A + " <= " + A + ")";
    case 6:
      return "(isnan(" + A + ") || ((-(-" + A + ")) === " + A + "))";
    case 7:
      return "(isnan(" + A + ") || (" + std::string(ScName[S]) + "(Float64(" +
             A + ")) === " + A + "))";
    default:
      return "((" + A + " / " + A + ") == " + O + ")";
    }
  }
  int64_t V = range(1, 5);
  std::string K = intLit(S, V);
  std::string B = scalar(S, D);
  switch (below(9)) {
  case 0:
    return "((" + A + " + " + K + ") > " + A + ")";
  case 1:
    return "((" + A + " - " + K + ") < " + A + ")";
  case 2:
    return "(abs(" + A + ") >= zero(" + ScName[S] + "))";
  case 3:
    return "((-" + A + ") == " + A + ")";
  case 4:
    return "(((" + A + " * " + K + ") ÷ " + K + ") == " + A + ")";
  case 5:
    return "(((" + A + " + " + B + ") - " + B + ") == " + A + ")";
  case 6:
    return "(((" + A + " << " + K + ") >> " + K + ") == " + A + ")";
  case 7:
    return "((" + A + " + " + A + ") >= " + A + ")";
  default:
    return "(((" + A + " % Int8) % " + ScName[S] + ") == " + A + ")";
  }
}

/// An expression of the current method's type parameter `T`, built only
/// from operations that keep the type T for every T in its class.
std::string Gen::paramExpr(int D) {
  bool IsInt = ty(PolyParam).S == SI64;
  int D1 = D - 1;
  if (D <= 0 || pct(leafPct(D))) {
    std::vector<std::string> C;
    for (const Var &V : Vars)
      if (V.Ty == PolyParam)
        C.push_back(V.Name);
    if (!C.empty() && pct(75))
      return pick(C);
    if (IsInt) {
      switch (below(6)) {
      case 0:
        return "zero(T)";
      case 1:
        return "one(T)";
      case 2:
        return pct(50) ? "typemax(T)" : "typemin(T)";
      default:
        return "T(" + std::to_string(range(0, 100)) + ")";
      }
    }
    switch (below(4)) {
    case 0:
      return "zero(T)";
    case 1:
      return "one(T)";
    default: {
      bool Neg;
      std::string X = drawFloatText(SF16, Neg);
      return "T(" + std::string(Neg ? "-" : "") + X + ")";
    }
    }
  }
  auto Call = [&](const char *Op) -> std::string {
    std::string E = callExpr(PolyParam, D1);
    if (!E.empty())
      return E;
    return Cat{"(", paramExpr(D1), Op, paramExpr(D1), ")"};
  };
  if (IsInt) {
    static const char *const Arith[] = {" + ", " - ", " * "};
    static const char *const BitOp[] = {" & ", " | ", " ⊻ "};
    static const char *const ShOp[] = {" << ", " >> ", " >>> "};
    static const char *const DivFn[] = {"div(", "rem(", "mod(", "fld(",
                                        "cld("};
    static const char *const Un[] = {"(-", "(~", "abs("};
    switch (below(11)) {
    case 0:
    case 1:
      return Cat{"(", paramExpr(D1), pick(Arith), paramExpr(D1), ")"};
    case 2:
      return Cat{"(", paramExpr(D1), pick(BitOp), paramExpr(D1), ")"};
    case 3:
      return Cat{"(", paramExpr(D1), pick(ShOp),
                 std::to_string(range(0, 9)), ")"};
    case 4:
      return Cat{pick(DivFn), paramExpr(D1), ", (", paramExpr(D1),
                 " | one(T)))"};
    case 5:
      return Cat{pick(Un), paramExpr(D1), ")"};
    case 6:
      return Cat{pct(50) ? "min(" : "max(", paramExpr(D1), ", ",
                 paramExpr(D1), ")"};
    case 7:
      return Cat{"ifelse(", scalar(SBool, D1), ", ", paramExpr(D1), ", ",
                 paramExpr(D1), ")"};
    case 8: {
      int F = pct(20) ? SBool : liveInt();
      return "(" + scalar(F, D1) + " % T)";
    }
    case 9:
      return Call(" + ");
    default:
      return Cat{"(", scalar(SBool, D1), " ? ", paramExpr(D1), " : ",
                 paramExpr(D1), ")"};
    }
  }
  static const char *const Arith[] = {" + ", " - ", " * ", " / "};
  static const char *const Un[] = {"(-",    "abs(",   "floor(",
                                   "ceil(", "round(", "trunc("};
  switch (below(9)) {
  case 0:
  case 1:
  case 2:
    return Cat{"(", paramExpr(D1), pick(Arith), paramExpr(D1), ")"};
  case 3:
    return Cat{pick(Un), paramExpr(D1), ")"};
  case 4:
    return "sqrt(abs(" + paramExpr(D1) + "))";
  case 5:
    return Cat{pct(50) ? "min(" : "max(", paramExpr(D1), ", ", paramExpr(D1),
               ")"};
  case 6:
    return Cat{"ifelse(", scalar(SBool, D1), ", ", paramExpr(D1), ", ",
               paramExpr(D1), ")"};
  case 7: {
    int F = liveScalar();
    return "T(" + scalar(F, D1) + ")";
  }
  default:
    return Call(" * ");
  }
}

std::string Gen::compositeExpr(int Ty, int D) {
  const Type &T = ty(Ty);
  std::vector<std::string> Existing;
  for (const Var &V : Vars) {
    if (V.Ty == Ty)
      Existing.push_back(V.Name);
    else if (ty(V.Ty).K == TK::Tuple || ty(V.Ty).K == TK::Struct)
      paths(V.Name, V.Ty, Ty, Existing);
  }
  if (!Existing.empty() && pct(D <= 0 ? 90 : 40))
    return pick(Existing);
  if (D > 0 && pct(20)) {
    std::string E = callExpr(Ty, D - 1);
    if (!E.empty())
      return E;
  }
  int D1 = std::max(0, D - 1);
  bool Tup = T.K == TK::Tuple;
  std::string S = Tup ? "(" : Structs[T.Struct].Name + "(";
  size_t N = Tup ? T.Elems.size() : Structs[T.Struct].Fields.size();
  for (size_t I = 0; I < N; ++I) {
    int E = Tup ? ty(Ty).Elems[I] : Structs[ty(Ty).Struct].Fields[I].second;
    // A struct's default constructor converts its arguments to the field
    // types (Julia's `P(a, b) = new(convert(A, a), convert(B, b))`).
    if (!Tup && ty(E).K == TK::Scalar && pct(15)) {
      int From = liveScalar();
      if (From != ty(E).S && safeConv(From, ty(E).S)) {
        S += (I ? ", " : "") + scalar(From, D1);
        continue;
      }
    }
    S += (I ? ", " : "") + expr(E, D1);
  }
  return S + ")";
}

/// Several live variables folded into one value of type S (makes their
/// values observable).
std::string Gen::mixVars(int S) {
  std::vector<const Var *> C;
  for (const Var &V : Vars)
    if (isScalar(V.Ty))
      C.push_back(&V);
  if (C.empty())
    return "";
  std::string E;
  unsigned N = (unsigned)range(2, 4);
  for (unsigned I = 0; I < N; ++I) {
    const Var *V = pick(C);
    std::string X = coerce(V->Name, ty(V->Ty).S, S);
    if (E.empty())
      E = X;
    else if (S == SBool)
      E = "(" + E + " ⊻ " + X + ")";
    else if (isFloat(S))
      E = "(" + E + " + " + X + ")";
    else
      E = "(" + E + (pct(50) ? " ⊻ " : " + ") + X + ")";
  }
  return E;
}

/// The values that may be passed where a function `S -> S` is expected.
std::vector<std::string> Gen::funcRefArgs(int S) {
  std::vector<std::string> C;
  for (size_t I = 0; I < NCallable; ++I) {
    const Func &F = Funcs[I];
    if (F.Unary && F.Methods[0].Params[0] == S && F.Methods[0].Ret == S &&
        F.Weight <= FuncRefWeight)
      C.push_back(F.Name);
  }
  for (const Var &V : Vars)
    if (ty(V.Ty).K == TK::FuncRef && ty(V.Ty).S == S)
      C.push_back(V.Name);
  C.push_back("identity");
  C.push_back("abs");
  C.push_back("sign");
  if (isFloat(S)) {
    C.push_back("floor");
    C.push_back("trunc");
  }
  return C;
}

/// A call returning type Ty (of Funcs[Force] when given); "" when nothing
/// fits in scope and budget.
std::string Gen::callExpr(int Ty, int D, int Force) {
  struct Cand {
    size_t F;
    int Method;
    int Subst;  ///< Poly: the scalar (or param) type T stands for
    int VarIdx; ///< a call through a function-valued variable
  };
  std::vector<Cand> C;
  uint64_t Left = left();
  if (Force < 0 && isScalar(Ty) && Mult * FuncRefWeight <= Left)
    for (size_t I = 0; I < Vars.size(); ++I)
      if (ty(Vars[I].Ty).K == TK::FuncRef && ty(Vars[I].Ty).S == ty(Ty).S)
        C.push_back({0, 0, -1, (int)I});
  auto ArrayOk = [&](const Func &F, const Var &V, int P) {
    return V.Ty == P && (!F.WritesArrays || V.Writable) &&
           !(KernelEntry && V.Writable);
  };
  for (size_t I = 0; I < NCallable; ++I) {
    const Func &F = Funcs[I];
    if (Force >= 0 && I != (size_t)Force)
      continue;
    if (Mult * F.Weight > Left || (KernelEntry && F.WritesArrays))
      continue;
    for (size_t MI = 0; MI < F.Methods.size(); ++MI) {
      const Method &M = F.Methods[MI];
      int Subst = -1;
      if (F.K == Func::Poly && ty(M.Ret).K == TK::Param) {
        if (Ty == PolyParam && ty(PolyParam).S == F.PolyClass)
          Subst = PolyParam;
        else if (isScalar(Ty) && (F.PolyClass == SI64 ? isInt(ty(Ty).S)
                                                      : isFloat(ty(Ty).S)))
          Subst = Ty;
        else
          continue;
      } else if (M.Ret != Ty) {
        continue;
      }
      // Array parameters need an array of that type in scope.
      bool Ok = true;
      for (int P : M.Params) {
        if (ty(P).K != TK::Array)
          continue;
        bool Found = false;
        for (const Var &V : Vars)
          Found |= ArrayOk(F, V, P);
        Ok &= Found;
      }
      if (Ok)
        C.push_back({I, (int)MI, Subst, -1});
    }
  }
  if (C.empty())
    return "";
  Cand X = pick(C);
  int D1 = std::max(0, D);
  if (X.VarIdx >= 0) {
    Weight += Mult * FuncRefWeight;
    std::string Name = Vars[X.VarIdx].Name;
    return Name + "(" + scalar(ty(Ty).S, D1) + ")";
  }
  Func &F = Funcs[X.F];
  const Method *M = &F.Methods[X.Method];
  std::vector<int> ArgTys;
  if (F.K == Func::Family) {
    // Argument types for the target method; dispatch may pick a more
    // specific method, which must return the same type.
    bool Found = false;
    for (int Try = 0; Try < 8 && !Found; ++Try) {
      ArgTys.clear();
      for (int P : M->Params) {
        if (isScalar(P)) {
          ArgTys.push_back(ty(P).S);
          continue;
        }
        std::vector<int> Ok;
        for (int S = 0; S < NumSc; ++S)
          if (absMatches(ty(P).A, S))
            Ok.push_back(S);
        int L = liveScalar(); // prefer the types of live values
        ArgTys.push_back(absMatches(ty(P).A, L) && pct(60) ? L : pick(Ok));
      }
      int Sel = dispatch(F, ArgTys, Types);
      Found = Sel >= 0 && F.Methods[Sel].Ret == Ty;
    }
    if (!Found)
      return "";
  }
  Weight += Mult * F.Weight;
  F.Called = true;
  if (F.K == Func::Poly && X.Subst < 0) {
    // The return type is concrete; T is free.
    X.Subst = F.PolyClass == SI64 ? liveInt() : liveFloat();
    if (PolyParam >= 0 && ty(PolyParam).S == F.PolyClass && pct(30))
      X.Subst = PolyParam;
  }
  std::string S = F.Name + "(";
  for (size_t I = 0; I < M->Params.size(); ++I) {
    if (I)
      S += ", ";
    int P = M->Params[I];
    if (F.K == Func::Rec && I == 0) {
      // The recursion depth: small, or an argument masked to be small.
      int64_t MaxN = F.Tree ? 3 : 7;
      if (pct(50)) {
        S += std::to_string(range(0, MaxN));
      } else {
        int T = liveInt();
        S += "Int64(" + scalar(T, std::min(D1, 1)) + " & " +
             std::to_string(MaxN) + ")";
      }
      continue;
    }
    if (F.K == Func::Family) {
      S += scalar(ArgTys[I], D1);
      continue;
    }
    const Type &PT = ty(P);
    if (PT.K == TK::Array) {
      std::vector<std::string> A; // the same array may be passed twice
      for (const Var &V : Vars)
        if (ArrayOk(F, V, P))
          A.push_back(V.Name);
      S += pick(A);
    } else if (PT.K == TK::FuncRef) {
      S += pick(funcRefArgs(PT.S));
    } else if (PT.K == TK::Param) {
      S += X.Subst == PolyParam ? paramExpr(D1) : expr(X.Subst, D1);
    } else {
      S += expr(P, D1);
    }
  }
  return S + ")";
}

//===-- Statements --------------------------------------------------------===//

void Gen::block(unsigned N) {
  for (unsigned I = 0; I < N; ++I) {
    if (Weight + Mult > Budget)
      break;
    stmt();
  }
}

void Gen::stmt() {
  Weight += Mult;
  enum { NewVar, Assign, Update, If, For, While, Store, Destr, BreakCont,
         EarlyRet, CallStmt, Guard, ArrLoop };
  bool HasWritable = false;
  for (const Var &V : Vars)
    if (ty(V.Ty).K == TK::Array && V.Writable && !KernelEntry)
      HasWritable = true;
  std::vector<unsigned> W = {26,
                             12,
                             16,
                             10,
                             7,
                             4,
                             HasWritable ? 9u : 0u,
                             4,
                             LoopDepth ? 5u : 0u,
                             AllowEarlyReturn ? 2u : 0u,
                             HasWritable ? 3u : 0u,
                             InGuard ? 12u : 0u,
                             5};
  for (int Try = 0; Try < 6; ++Try) {
    switch (weighted(W)) {
    case NewVar:
      stmtNewVar();
      return;
    case Assign:
      if (stmtAssign())
        return;
      break;
    case Update:
      if (stmtUpdate())
        return;
      break;
    case If:
      stmtIf();
      return;
    case For:
      if (stmtFor())
        return;
      break;
    case While:
      if (stmtWhile())
        return;
      break;
    case Store:
      if (stmtArrayStore())
        return;
      break;
    case Destr:
      if (stmtDestructure())
        return;
      break;
    case BreakCont:
      stmtIfJump(false);
      return;
    case EarlyRet:
      stmtIfJump(true);
      return;
    case CallStmt:
      if (stmtCall())
        return;
      break;
    case Guard:
      stmtGuardUpdate();
      return;
    case ArrLoop:
      if (stmtArrayLoop())
        return;
      break;
    }
  }
  stmtNewVar();
}

/// `if c; break|continue|return ...; end`.
void Gen::stmtIfJump(bool EarlyReturn) {
  line("if " + scalar(SBool, 2));
  ++Indent;
  if (!EarlyReturn)
    line(pct(50) ? "break" : "continue");
  else if (KernelEntry)
    line(pct(50) ? "return nothing" : "return");
  else
    line("return " + expr(RetTy, BaseDepth - 1));
  --Indent;
  line("end");
}

void Gen::stmtNewVar() {
  int T = PolyParam >= 0 && pct(30) ? PolyParam : randValueTy();
  std::string E = expr(T, BaseDepth);
  std::string N = fresh("v");
  line(N + " = " + E);
  Vars.push_back({N, T});
}

bool Gen::stmtAssign() {
  std::vector<const Var *> C;
  for (const Var &V : Vars)
    if (V.Mutable && ty(V.Ty).K != TK::Array && ty(V.Ty).K != TK::Abstract &&
        ty(V.Ty).K != TK::FuncRef)
      C.push_back(&V);
  if (C.empty())
    return false;
  const Var *V = pick(C);
  std::string N = V->Name;
  int T = V->Ty;
  line(N + " = " + expr(T, BaseDepth));
  return true;
}

bool Gen::stmtUpdate() {
  std::vector<const Var *> C;
  for (const Var &V : Vars)
    if (V.Mutable && (isScalar(V.Ty) || V.Ty == PolyParam))
      C.push_back(&V);
  if (C.empty())
    return false;
  const Var *V = pick(C);
  std::string N = V->Name;
  int D = BaseDepth - 1;
  if (V->Ty == PolyParam) {
    static const char *const IOp[] = {" += ", " -= ", " *= ",
                                      " &= ", " |= ", " ⊻= "};
    static const char *const FOp[] = {" += ", " -= ", " *= ", " /= "};
    std::string Op = ty(PolyParam).S == SI64 ? pick(IOp) : pick(FOp);
    line(N + Op + paramExpr(D));
    return true;
  }
  int S = ty(V->Ty).S;
  if (S == SBool) {
    static const char *const Op[] = {" &= ", " |= ", " ⊻= "};
    line(Cat{N, pick(Op), scalar(SBool, D)});
    return true;
  }
  if (isFloat(S)) {
    static const char *const Op[] = {" += ", " -= ", " *= ", " /= "};
    int P = pickPartner(S);
    line(Cat{N, pick(Op), scalar(P, D)});
    return true;
  }
  static const char *const Arith[] = {" += ", " -= ", " *= "};
  static const char *const BitOp[] = {" &= ", " |= ", " ⊻= "};
  static const char *const ShOp[] = {" <<= ", " >>= ", " >>>= "};
  switch (below(10)) {
  case 0:
  case 1:
  case 2: {
    int P = pickPartner(S);
    line(Cat{N, pick(Arith), scalar(P, D)});
    return true;
  }
  case 3:
  case 4: {
    int P = pickPartner(S);
    line(Cat{N, pick(BitOp), scalar(P, D)});
    return true;
  }
  case 5:
  case 6: {
    int T = pct(50) ? SI64 : randInt();
    int64_t K = range(0, std::min(bitsOf(S) + 1, 100));
    line(Cat{N, pick(ShOp), intLit(T, K)});
    return true;
  }
  case 7: {
    int P = pickPartner(S);
    if (P == SBool)
      P = S;
    line(Cat{N, pct(50) ? " ÷= " : " %= ", safeDivisor(P, D)});
    return true;
  }
  default:
    line(N + " = " + scalar(S, BaseDepth));
    return true;
  }
}

void Gen::stmtIf() {
  auto Body = [&] {
    ++Indent;
    size_t M = mark();
    block((unsigned)range(1, 3));
    popTo(M);
    --Indent;
  };
  // A chain of equality tests on one integer (LLVM turns it into a switch).
  std::vector<const Var *> Ints;
  for (const Var &V : Vars)
    if (isScalar(V.Ty) && isInt(ty(V.Ty).S))
      Ints.push_back(&V);
  if (!Ints.empty() && pct(20)) {
    const Var *X = pick(Ints);
    std::string N = X->Name;
    int S = ty(X->Ty).S;
    unsigned Cases = (unsigned)range(2, 5);
    int64_t Base = isSignedInt(S) ? range(-3, 3) : range(0, 4);
    for (unsigned I = 0; I < Cases; ++I) {
      Base += range(1, 3);
      std::string Cond = "(" + N + " == " + intLit(S, Base) + ")";
      if (pct(20))
        Cond = "(" + Cond + " || (" + N + " == " + intLit(S, Base + 10) + "))";
      line((I ? "elseif " : "if ") + Cond);
      Body();
    }
    if (pct(60)) {
      line("else");
      Body();
    }
    line("end");
    return;
  }
  line("if " + scalar(SBool, BaseDepth));
  Body();
  while (pct(25)) {
    line("elseif " + scalar(SBool, BaseDepth - 1));
    Body();
  }
  if (pct(50)) {
    line("else");
    Body();
  }
  line("end");
}

bool Gen::stmtFor() {
  if (LoopDepth >= 3)
    return false;
  uint64_t Allowed = left() / (Mult * 3 + 1);
  if (Allowed < 2)
    return false;
  int64_t MaxTrip = (int64_t)std::min<uint64_t>(Allowed, 10);
  std::string I = fresh("i");
  std::string Range;
  std::string SafeFor;
  int LoopTy = SI64;
  int64_t Trip = 0;
  std::vector<const Var *> Arrays;
  for (const Var &V : Vars)
    if (ty(V.Ty).K == TK::Array)
      Arrays.push_back(&V);
  switch (below(7)) {
  case 0:
  case 1:
    Trip = range(1, MaxTrip);
    Range = "1:" + std::to_string(Trip);
    break;
  case 2: {
    Trip = range(1, MaxTrip);
    int64_t Lo = range(-3, 3);
    Range = std::to_string(Lo) + ":" + std::to_string(Lo + Trip - 1);
    break;
  }
  case 3:
    Trip = range(1, MaxTrip);
    Range = std::to_string(Trip) + ":-1:1";
    break;
  case 4: {
    int64_t Step = range(2, 3);
    Trip = range(1, MaxTrip);
    int64_t Extra = range(0, Step - 1);
    Range = "1:" + std::to_string(Step) + ":" +
            std::to_string(Step * (Trip - 1) + 1 + Extra);
    if (pct(30))
      Range = std::to_string(Step * (Trip - 1)) + ":-" +
              std::to_string(Step) + ":0";
    break;
  }
  case 5:
    if (!Arrays.empty()) {
      const Var *A = pick(Arrays);
      int64_t Len = A->KnownLen > 0 ? A->KnownLen : (int64_t)MaxParamLen;
      if (Len <= MaxTrip) {
        Trip = Len;
        SafeFor = A->Name;
        Range = pct(70) ? "1:length(" + A->Name + ")"
                        : "lastindex(" + A->Name + "):-1:1";
        break;
      }
      if (MaxTrip >= 2) {
        Trip = range(2, MaxTrip);
        SafeFor = A->Name;
        Range = "1:min(length(" + A->Name + "), " + std::to_string(Trip) + ")";
        break;
      }
    }
    [[fallthrough]];
  default: {
    int64_t Mask = 1;
    while (Mask * 2 + 1 <= MaxTrip)
      Mask = Mask * 2 + 1;
    Trip = Mask;
    int T = liveInt();
    if (isSignedInt(T) && T != SI64 && pct(50)) {
      // A range of T counts in T: the loop variable is a T, not an Int64.
      std::string Name = ScName[T];
      Range = Name + "(1):(" + scalar(T, 1) + " & " + Name + "(" +
              std::to_string(Mask) + "))";
      LoopTy = T;
      break;
    }
    Range = "1:Int64(" + scalar(T, 1) + " & " + std::to_string(Mask) + ")";
    break;
  }
  }
  line("for " + I + " in " + Range);
  ++Indent;
  size_t M = mark();
  Var LV{I, LoopTy, false};
  LV.SafeFor = SafeFor;
  Vars.push_back(LV);
  uint64_t SavedMult = Mult;
  Mult *= (uint64_t)std::max<int64_t>(Trip, 1);
  ++LoopDepth;
  block((unsigned)range(1, 4));
  --LoopDepth;
  Mult = SavedMult;
  popTo(M);
  --Indent;
  line("end");
  return true;
}

bool Gen::stmtWhile() {
  if (LoopDepth >= 3)
    return false;
  uint64_t Allowed = left() / (Mult * 3 + 1);
  if (Allowed < 2)
    return false;
  int64_t Trip = range(1, (int64_t)std::min<uint64_t>(Allowed, 8));
  std::string W = fresh("w");
  line(W + " = 0");
  // The counter is read-only to other statements: the loop terminates.
  Vars.push_back({W, SI64, false});
  bool Forever = pct(35);
  line(Forever ? std::string("while true")
               : "while " + W + " < " + std::to_string(Trip));
  ++Indent;
  line(W + " += 1");
  if (Forever) {
    line("if " + W + " > " + std::to_string(Trip) + " || " +
         scalar(SBool, 2));
    ++Indent;
    line("break");
    --Indent;
    line("end");
  }
  size_t M = mark();
  uint64_t SavedMult = Mult;
  Mult *= (uint64_t)Trip + 1;
  ++LoopDepth;
  block((unsigned)range(1, 4));
  --LoopDepth;
  Mult = SavedMult;
  popTo(M);
  --Indent;
  line("end");
  return true;
}

bool Gen::stmtArrayStore() {
  std::vector<const Var *> C;
  for (const Var &V : Vars)
    if (ty(V.Ty).K == TK::Array && V.Writable && !KernelEntry)
      C.push_back(&V);
  if (C.empty())
    return false;
  const Var *A = pick(C);
  int S = ty(A->Ty).S;
  bool InB = pct(35);
  Inbounds += InB;
  std::string Idx = subscript(*A, InB, BaseDepth - 1);
  std::string L = A->Name + "[" + Idx + "]";
  std::string Op = " = ";
  std::string E;
  if (S != SBool && pct(30)) {
    static const char *const Ops[] = {" += ", " -= ", " *= "};
    Op = pick(Ops);
    E = scalar(S, BaseDepth - 1);
  } else {
    E = scalar(S, BaseDepth);
  }
  Inbounds -= InB;
  line((InB ? "@inbounds " : "") + L + Op + E);
  return true;
}

/// The loops a vectoriser looks for: an element-wise map, a reduction, a
/// zip of two arrays (possibly the same one), a prefix scan.
bool Gen::stmtArrayLoop() {
  if (LoopDepth >= 2)
    return false;
  std::vector<const Var *> Readable;
  for (const Var &V : Vars)
    if (ty(V.Ty).K == TK::Array && ty(V.Ty).S != SBool &&
        !(KernelEntry && V.Writable))
      Readable.push_back(&V);
  if (Readable.empty())
    return false;
  // Copies: the loop's own variables may reallocate Vars.
  const Var A = *pick(Readable);
  const Var B = *pick(Readable);
  int64_t Len = A.KnownLen > 0 ? A.KnownLen : (int64_t)MaxParamLen;
  if ((uint64_t)Len * Mult * 3 > left())
    return false;
  int S = ty(A.Ty).S;
  std::string I = fresh("i");
  std::string X = fresh("x");
  size_t M = mark();
  uint64_t SavedMult = Mult;
  unsigned Kind = A.Writable && !KernelEntry ? (unsigned)below(4) : 1;
  auto Enter = [&](const std::string &Range, bool Safe) {
    line("for " + I + " in " + Range);
    ++Indent;
    Var LV{I, SI64, false};
    if (Safe)
      LV.SafeFor = A.Name;
    Vars.push_back(LV);
    Mult *= (uint64_t)Len;
    ++LoopDepth;
  };
  auto Leave = [&] {
    --LoopDepth;
    Mult = SavedMult;
    --Indent;
    line("end");
  };
  std::string AI = A.Name + "[" + I + "]";
  switch (Kind) {
  case 0: { // map
    Enter(pct(80) ? "1:length(" + A.Name + ")"
                  : "1:lastindex(" + A.Name + ")",
          true);
    line(X + " = @inbounds " + AI);
    Vars.push_back({X, S, false});
    ++Inbounds;
    std::string E = scalar(S, 2);
    --Inbounds;
    line("@inbounds " + AI + " = " + E);
    Leave();
    break;
  }
  case 1: { // reduction into a new variable
    static const char *const IOp[] = {" + ", " * ", " ⊻ ", " & ", " | "};
    static const char *const FOp[] = {" + ", " * "};
    std::string Acc = fresh("v");
    line(Acc + " = " + lit(S));
    Enter("1:length(" + A.Name + ")", true);
    std::string El = pct(70) ? "(@inbounds " + AI + ")" : AI;
    if (pct(25))
      line(Cat{Acc, " = ", pct(50) ? "max(" : "min(", Acc, ", ", El, ")"});
    else
      line(Acc + " = " + Acc + (isFloat(S) ? pick(FOp) : pick(IOp)) + El);
    Leave();
    popTo(M);
    Vars.push_back({Acc, S});
    return true;
  }
  case 2: { // zip with another array, possibly the same one
    int SB = ty(B.Ty).S;
    Enter("1:min(length(" + A.Name + "), length(" + B.Name + "))", false);
    std::string Rhs = coerce("(@inbounds " + B.Name + "[" + I + "])", SB, S);
    static const char *const Op[] = {" + ", " - ", " * "};
    line("@inbounds " + AI + " = " + AI + pick(Op) + Rhs);
    Leave();
    break;
  }
  default: { // prefix scan
    Enter("2:length(" + A.Name + ")", true);
    static const char *const Op[] = {" + ", " * ", " - "};
    line("@inbounds " + AI + " = " + A.Name + "[" + I + " - 1]" + pick(Op) +
         "(@inbounds " + AI + ")");
    Leave();
    break;
  }
  }
  popTo(M);
  return true;
}

bool Gen::stmtDestructure() {
  // Swap two variables of one type, or unpack a tuple into new variables.
  if (pct(25)) {
    for (size_t Try = 0; Try < 4 && !Vars.empty(); ++Try) {
      const Var &A = pick(Vars);
      if (!A.Mutable || ty(A.Ty).K == TK::Array || isOpaque(A.Ty) ||
          ty(A.Ty).K == TK::FuncRef)
        continue;
      for (const Var &B : Vars)
        if (&B != &A && B.Ty == A.Ty && B.Mutable) {
          line(A.Name + ", " + B.Name + " = " + B.Name + ", " + A.Name);
          return true;
        }
    }
  }
  int T = randTupleTy();
  std::string E = expr(T, BaseDepth);
  std::string L;
  std::vector<Var> New;
  for (int El : ty(T).Elems) {
    std::string N = fresh("v");
    L += (L.empty() ? "" : ", ") + N;
    New.push_back({N, El});
  }
  line(L + " = " + E);
  for (auto &V : New)
    Vars.push_back(V);
  return true;
}

/// In a kernel, inside `if i <= length(out)`: this thread's own element.
void Gen::stmtGuardUpdate() {
  std::string Out = "out[" + GuardIdx + "]";
  int S = OutElem;
  if (S == SBool) {
    line(Out + " = " + scalar(SBool, BaseDepth));
    return;
  }
  switch (below(3)) {
  case 0:
    line(Out + " = " + scalar(S, BaseDepth));
    return;
  case 1: {
    static const char *const Op[] = {" + ", " - ", " * "};
    line(Cat{Out, " = ", Out, pick(Op), scalar(S, BaseDepth - 1)});
    return;
  }
  default: {
    std::string E = mixVars(S);
    line(Out + " = " + (E.empty() ? scalar(S, BaseDepth) : E));
    return;
  }
  }
}

/// A call for its effect on arrays.
bool Gen::stmtCall() {
  std::vector<size_t> C;
  for (size_t I = 0; I < NCallable; ++I)
    if (Funcs[I].WritesArrays && Mult * Funcs[I].Weight <= left())
      C.push_back(I);
  if (C.empty())
    return false;
  size_t F = pick(C);
  std::string E = callExpr(Funcs[F].Methods[0].Ret, BaseDepth - 1, (int)F);
  if (E.empty())
    return false;
  line(E);
  return true;
}

//===-- Program parts -----------------------------------------------------===//

void Gen::genStruct() {
  StructDef S;
  S.Name = "S" + std::to_string(Structs.size() + 1);
  unsigned N = (unsigned)range(1, 4);
  static const char *const FieldNames[] = {"a",  "b",  "c", "d",
                                           "lo", "hi", "x", "y"};
  unsigned Base = (unsigned)below(4);
  for (unsigned I = 0; I < N; ++I) {
    int T;
    if (!Structs.empty() && pct(12))
      T = structTy((int)below(Structs.size()));
    else if (pct(15))
      T = randTupleTy();
    else
      T = randScalar();
    S.Fields.push_back({FieldNames[(Base + I) % 8], T});
  }
  Structs.push_back(S);
  Src += "struct " + S.Name + "\n";
  for (auto &F : S.Fields)
    Src += "    " + F.first + "::" + tyName(F.second) + "\n";
  Src += "end\n\n";
}

/// `const` definitions: literals, and Int64 arithmetic on earlier ones.
void Gen::genConst() {
  static const int Ty[] = {SI64, SI64, SF64, SF32, SU8,
                           SU16, SU32, SU64, SBool};
  int S = pick(Ty);
  std::string N = "K" + std::to_string(Globals.size() + 1);
  std::string E;
  if (S == SI64) {
    std::vector<std::string> Prev;
    for (const Var &G : Globals)
      if (G.Ty == SI64)
        Prev.push_back(G.Name);
    if (!Prev.empty() && pct(50)) {
      std::string P = pick(Prev);
      E = Cat{P, pct(50) ? " * " : " + ", std::to_string(range(-9, 9))};
    } else {
      int64_t V = drawInt(SI64);
      E = V == INT64_MIN ? "1" : intLit(SI64, V, true);
    }
  } else if (isUnsignedInt(S)) {
    E = hex((uint64_t)drawInt(S), bitsOf(S) / 4);
  } else {
    E = callLit(S);
  }
  Src += "const " + N + " = " + E + "\n";
  Globals.push_back({N, S, false});
}

void Gen::beginFunc(uint64_t FnBudget) {
  Vars.clear();
  Text.clear();
  Indent = 1;
  PolyParam = -1;
  LoopDepth = 0;
  Mult = 1;
  Weight = 0;
  Budget = FnBudget;
  NextVar = 0;
  InGuard = false;
  KernelEntry = false;
  AllowEarlyReturn = true;
  Inbounds = 0;
  MaxParamLen = Opt.Kernel ? MaxKernelInLen : MaxArrayLen;
  BaseDepth = (int)range(2, 4);
  for (const Var &G : Globals)
    Vars.push_back(G);
}

std::string Gen::paramList(const Method &M,
                           const std::vector<std::string> &Names) {
  std::string S;
  for (size_t I = 0; I < M.Params.size(); ++I) {
    const Type &T = ty(M.Params[I]);
    if (I)
      S += ", ";
    if ((T.K == TK::Abstract && T.A == AK::Any && pct(70)) ||
        T.K == TK::FuncRef)
      S += Names[I];
    else
      S += Names[I] + "::" + tyName(M.Params[I]);
  }
  return S;
}

void Gen::emitFunc(const std::string &Header, const std::string &Body,
                   const std::string &ShortExpr) {
  std::string Ann = pct(15) ? "@inline " : pct(15) ? "@noinline " : "";
  if (Body.empty() && pct(60)) {
    Src += Ann + Header + " = " + ShortExpr + "\n\n";
    return;
  }
  Src += Ann + "function " + Header + "\n" + Body + "    return " + ShortExpr +
         "\nend\n\n";
}

/// The value a function returns at its end; prefers live variables, so that
/// more of the computation is observable.
std::string Gen::finalReturn(int Ty) {
  if (isScalar(Ty)) {
    std::vector<std::string> C;
    for (const Var &V : Vars)
      if (V.Ty == Ty && V.Name[0] == 'v')
        C.push_back(V.Name);
    if (!C.empty() && pct(40))
      return pick(C);
    if (pct(40)) {
      std::string M = mixVars(ty(Ty).S);
      if (!M.empty())
        return M;
    }
  }
  if (ty(Ty).K == TK::Tuple) {
    std::string S = "(";
    for (size_t I = 0; I < ty(Ty).Elems.size(); ++I)
      S += (I ? ", " : "") + finalReturn(ty(Ty).Elems[I]);
    return S + ")";
  }
  return expr(Ty, BaseDepth);
}

void Gen::genPlain() {
  Func F;
  F.Name = "f" + std::to_string(Funcs.size() + 1);
  Method M;
  unsigned NP = (unsigned)range(1, 3);
  std::vector<std::string> Names;
  beginFunc(40 + below(40));
  bool Writes = !Opt.Kernel && pct(60);
  for (unsigned I = 0; I < NP; ++I) {
    int T;
    bool PrevArray = I > 0 && ty(M.Params.back()).K == TK::Array;
    if (pct(15) || (PrevArray && pct(50))) {
      // Two array parameters of one type may receive the same array.
      if (PrevArray && pct(70)) {
        T = M.Params.back();
      } else {
        int E = randScalar(false);
        T = arrayTy(E, pct(20) ? 2 : 1);
      }
      F.WritesArrays = Writes;
    } else {
      T = randValueTy();
    }
    M.Params.push_back(T);
    Names.push_back("p" + std::to_string(I + 1));
    Var V{Names.back(), T};
    V.Writable = ty(T).K == TK::Array && F.WritesArrays;
    Vars.push_back(V);
  }
  M.Ret = randValueTy();
  RetTy = M.Ret;
  std::string Header = F.Name + "(" + paramList(M, Names) + ")";
  if (pct(30))
    Header += "::" + tyName(M.Ret);
  unsigned N =
      pct(25) ? 0 : (unsigned)range(1, std::max(2u, Opt.MaxStmts / 2));
  block(N);
  std::string Ret = finalReturn(M.Ret);
  F.Methods.push_back(M);
  F.Weight = Weight + 1;
  F.Unary = M.Params.size() == 1 && isScalar(M.Params[0]) &&
            M.Params[0] == M.Ret && M.Ret != SBool;
  emitFunc(Header, Text, Ret);
  Funcs.push_back(F);
}

/// `g(x::T, ...) where {T<:Integer}` (or AbstractFloat).
void Gen::genPoly() {
  Func F;
  F.Name = "g" + std::to_string(Funcs.size() + 1);
  F.K = Func::Poly;
  F.PolyClass = pct(55) ? SI64 : SF64;
  beginFunc(30 + below(30));
  PolyParam = paramTy(F.PolyClass);
  Method M;
  unsigned NP = (unsigned)range(1, 3);
  std::vector<std::string> Names;
  for (unsigned I = 0; I < NP; ++I) {
    int T = (I == 0 || pct(50)) ? PolyParam : randScalar();
    M.Params.push_back(T);
    Names.push_back("x" + std::to_string(I + 1));
    Vars.push_back({Names.back(), T});
  }
  M.Ret = pct(75) ? PolyParam : randScalar();
  RetTy = M.Ret;
  std::string Header =
      F.Name + "(" + paramList(M, Names) + ") where {T<:" +
      (F.PolyClass == SI64 ? "Integer" : "AbstractFloat") + "}";
  unsigned N = pct(30) ? 0 : (unsigned)range(1, 4);
  block(N);
  std::string Ret =
      M.Ret == PolyParam ? paramExpr(BaseDepth) : finalReturn(M.Ret);
  F.Methods.push_back(M);
  F.Weight = Weight + 1;
  emitFunc(Header, Text, Ret);
  Funcs.push_back(F);
  PolyParam = -1;
}

/// A generic function with several methods on concrete and abstract
/// argument types; calls are generated only where dispatch is unambiguous.
void Gen::genFamily() {
  Func F;
  F.Name = "h" + std::to_string(Funcs.size() + 1);
  F.K = Func::Family;
  unsigned Arity = (unsigned)range(1, 2);
  unsigned NM = (unsigned)range(2, 4);
  static const AK Abs[] = {AK::Signed,        AK::Unsigned, AK::Integer,
                           AK::AbstractFloat, AK::Real,     AK::Any};
  uint64_t MaxW = 1;
  std::string Out;
  for (unsigned K = 0; K < NM; ++K) {
    Method M;
    for (int Try = 0; Try < 10; ++Try) {
      M.Params.clear();
      for (unsigned I = 0; I < Arity; ++I)
        M.Params.push_back(pct(45) ? randScalar() : absTy(pick(Abs)));
      bool Dup = false;
      for (auto &O : F.Methods)
        Dup |= O.Params == M.Params;
      if (!Dup)
        break;
      M.Params.clear();
    }
    if (M.Params.empty())
      continue;
    M.Ret = pct(40) && !F.Methods.empty() ? F.Methods[0].Ret : randScalar();
    beginFunc(20 + below(20));
    std::vector<std::string> Names;
    for (unsigned I = 0; I < Arity; ++I) {
      Names.push_back("y" + std::to_string(I + 1));
      Var V{Names.back(), M.Params[I]};
      V.Mutable = isScalar(M.Params[I]);
      Vars.push_back(V);
    }
    RetTy = M.Ret;
    std::string Header = F.Name + "(" + paramList(M, Names) + ")";
    unsigned N = pct(50) ? 0 : (unsigned)range(1, 3);
    block(N);
    std::string Ret = finalReturn(M.Ret);
    MaxW = std::max<uint64_t>(MaxW, Weight + 1);
    F.Methods.push_back(M);
    std::string Saved = std::move(Src);
    Src.clear();
    emitFunc(Header, Text, Ret);
    Out += Src;
    Src = std::move(Saved);
  }
  F.Weight = MaxW;
  Src += Out;
  Funcs.push_back(F);
}

/// Bounded recursion on an explicit depth argument `n` (the callers pass a
/// small constant or a masked value).
void Gen::genRec() {
  Func F;
  F.Name = "r" + std::to_string(Funcs.size() + 1);
  F.K = Func::Rec;
  F.Tree = pct(30);
  int X = pct(20) ? randValueTy() : randScalar(false);
  Method M;
  M.Params = {SI64, X};
  M.Ret = X;
  beginFunc(6);
  BaseDepth = 2;
  AllowEarlyReturn = false;
  RetTy = X;
  Vars.push_back({"n", SI64, false});
  Vars.push_back({"x", X, false});
  std::string Base = expr(X, 2);
  std::string Arg = expr(X, 2);
  std::string Header = F.Name + "(n::Int64, x::" + tyName(X) + ")";
  std::string Body;
  uint64_t Calls = 9;
  if (F.Tree) {
    std::string Arg2 = expr(X, 1);
    Vars.push_back({"u", X, false});
    Vars.push_back({"w", X, false});
    std::string Comb = expr(X, 2);
    Body = "    if n <= 0\n        return " + Base + "\n    end\n" + "    u = " +
           F.Name + "(n - 1, " + Arg + ")\n" + "    w = " + F.Name +
           "(n - 2, " + Arg2 + ")\n" + "    return " + Comb + "\n";
    Calls = 16;
  } else if (pct(40)) {
    Vars.push_back({"u", X, false});
    std::string Comb = expr(X, 2);
    Body = "    if n <= 0\n        return " + Base + "\n    end\n" + "    u = " +
           F.Name + "(n - 1, " + Arg + ")\n" + "    return " + Comb + "\n";
  } else {
    // r(n, x) = n <= 0 ? base : _r(r(n - 1, arg), x, n)
    Vars.push_back({"u", X, false});
    std::string Comb = expr(X, 2);
    std::string XT = tyName(X);
    Src += "_" + F.Name + "(u::" + XT + ", x::" + XT + ", n::Int64) = " +
           Comb + "\n\n";
    Body = "    return n <= 0 ? " + Base + " : _" + F.Name + "(" + F.Name +
           "(n - 1, " + Arg + "), x, n)\n";
  }
  Src += "function " + Header + "\n" + Body + "end\n\n";
  F.Methods.push_back(M);
  F.Weight = (Weight + 4) * Calls;
  Funcs.push_back(F);
}

/// A cheap `uK(x::S)` and `apK(f, x::S)`, which calls its function-valued
/// argument (resolved statically per `typeof(f)`).
void Gen::genApply() {
  int S = randScalar(false);
  {
    Func U;
    U.Name = "u" + std::to_string(Funcs.size() + 1);
    U.Unary = true;
    Method M;
    M.Params = {S};
    M.Ret = S;
    beginFunc(12);
    Vars.push_back({"x", S});
    RetTy = S;
    block(pct(50) ? 0 : (unsigned)range(1, 2));
    std::string Ret = expr(S, BaseDepth);
    U.Methods.push_back(M);
    U.Weight = Weight + 1;
    emitFunc(U.Name + "(x::" + std::string(ScName[S]) + ")", Text, Ret);
    Funcs.push_back(U);
    NCallable = Funcs.size();
  }
  Func F;
  F.Name = "ap" + std::to_string(Funcs.size() + 1);
  Method M;
  M.Params = {funcRefTy(S), S};
  M.Ret = pct(70) ? S : randValueTy();
  beginFunc(60 + below(60));
  Vars.push_back({"f", M.Params[0], false});
  Vars.push_back({"x", S});
  RetTy = M.Ret;
  Weight += FuncRefWeight; // the call below
  line("y = f(" + expr(S, BaseDepth - 1) + ")");
  Vars.push_back({"y", S});
  block((unsigned)range(0, 3));
  std::string Ret = finalReturn(M.Ret);
  F.Methods.push_back(M);
  F.Weight = Weight + 1;
  emitFunc(F.Name + "(f, x::" + std::string(ScName[S]) + ")", Text, Ret);
  Funcs.push_back(F);
}

/// Calls (from the entry) most helpers nothing has called yet.
void Gen::callUncalled() {
  for (size_t I = 0; I < NCallable; ++I) {
    if (Funcs[I].Called || pct(15))
      continue;
    const Method &M = pick(Funcs[I].Methods);
    int Ty = M.Ret;
    if (ty(Ty).K == TK::Param)
      Ty = Funcs[I].PolyClass == SI64 ? liveInt() : liveFloat();
    std::string E = callExpr(Ty, BaseDepth - 1, (int)I);
    if (E.empty())
      continue;
    std::string N = fresh("v");
    line(N + " = " + E);
    Vars.push_back({N, Ty});
  }
}

std::string Gen::arrayCallArg(int Elem, unsigned Len, bool Zeros,
                              unsigned Cols) {
  if (Cols) {
    std::string Dims =
        std::to_string(Len / Cols) + ", " + std::to_string(Cols);
    if (Zeros)
      return std::string("zeros(") + ScName[Elem] + ", " + Dims + ")";
    return "reshape(" + arrayCallArg(Elem, Len, false, 0) + ", " + Dims + ")";
  }
  std::string N = std::to_string(Len);
  if (Zeros)
    return std::string("zeros(") + ScName[Elem] + ", " + N + ")";
  if (Elem != SBool && pct(8))
    return "fill(" + callLit(Elem) + ", " + N + ")";
  if (isInt(Elem) && Elem != SI8 && Elem != SU8 && pct(8))
    return std::string("collect(") + ScName[Elem] + ", 1:" + N + ")";
  std::string S = std::string(ScName[Elem]) + "[";
  for (unsigned I = 0; I < Len; ++I) {
    std::string L;
    if (isFloat(Elem)) {
      bool Neg;
      L = drawFloatText(Elem, Neg);
      if (Neg)
        L = "-" + L;
    } else if (Elem == SBool) {
      L = pct(50) ? "true" : "false";
    } else {
      int64_t V = drawInt(Elem);
      if (isUnsignedInt(Elem))
        L = hex((uint64_t)V, bitsOf(Elem) / 4);
      else
        L = V == INT64_MIN ? "-9223372036854775807" : std::to_string(V);
    }
    S += (I ? ", " : "") + L;
  }
  return S + "]";
}

void Gen::genEntry(GeneratedProgram &P) {
  beginFunc(Opt.Kernel ? 100 : 2500);
  std::vector<std::string> Params, Args;
  if (Opt.Kernel) {
    P.Threads = (unsigned)range(1, 32);
    P.Blocks = pct(40) ? (unsigned)range(2, 3) : 1;
    unsigned Total = P.Threads * P.Blocks;
    Budget = std::max<uint64_t>(60, 4000 / Total);
    KernelEntry = true;
    OutElem = pct(5) ? SBool : randScalar(false);
    unsigned OutLen = pct(75) ? Total : (unsigned)range(1, Total + 4);
    Params.push_back("out::DeviceArray{" + std::string(ScName[OutElem]) +
                     ",1}");
    bool Zeros = pct(70);
    Args.push_back(arrayCallArg(OutElem, OutLen, Zeros));
    Var O{"out", arrayTy(OutElem), false};
    O.Writable = true;
    O.KnownLen = OutLen;
    Vars.push_back(O);
  }
  unsigned NScalars = (unsigned)range(1, 4);
  unsigned NArrays = (unsigned)range(0, Opt.Kernel ? 2 : 3);
  unsigned NTuples = pct(12) ? 1 : 0;
  NCallable = Funcs.size();
  std::vector<size_t> Unary;
  for (size_t I = 0; I < Funcs.size(); ++I)
    if (Funcs[I].Unary && Funcs[I].Weight <= FuncRefWeight)
      Unary.push_back(I);
  // Parameter kinds: 0 scalar, 1 array, 2 tuple, 3 function.
  std::vector<int> Order;
  if (!Unary.empty() && pct(40))
    Order.push_back(3);
  Order.insert(Order.end(), NScalars, 0);
  Order.insert(Order.end(), NArrays, 1);
  Order.insert(Order.end(), NTuples, 2);
  for (size_t I = Order.size(); I > 1; --I)
    std::swap(Order[I - 1], Order[below(I)]);
  unsigned PN = 0, AN = 0;
  for (int K : Order) {
    if (K == 0) {
      int S = randScalar();
      std::string N = "p" + std::to_string(++PN);
      Params.push_back(N + "::" + tyName(S));
      Args.push_back(callLit(S));
      Vars.push_back({N, S});
    } else if (K == 1) {
      int S = randScalar();
      if (S == SBool && pct(50))
        S = SF32;
      unsigned Len = (unsigned)(Opt.Kernel ? range(1, MaxKernelInLen)
                                : pct(75) ? range(1, 16)
                                          : range(17, MaxArrayLen));
      unsigned Cols = 0;
      if (pct(20)) {
        Cols = (unsigned)range(1, 4);
        Len = Cols * (unsigned)range(1, 4);
      }
      std::string N = "a" + std::to_string(++AN);
      int T = arrayTy(S, Cols ? 2 : 1);
      Params.push_back(N + "::" + tyName(T));
      Args.push_back(arrayCallArg(S, Len, false, Cols));
      Var V{N, T, false};
      V.Writable = !Opt.Kernel;
      V.KnownLen = Len;
      Vars.push_back(V);
    } else if (K == 3) {
      Func &F = Funcs[pick(Unary)];
      std::string N = "fn" + std::to_string(++PN);
      Params.push_back(N);
      Args.push_back(F.Name);
      F.Called = true;
      Vars.push_back({N, funcRefTy(F.Methods[0].Ret), false});
    } else {
      int T = randTupleTy();
      std::string N = "p" + std::to_string(++PN);
      Params.push_back(N + "::" + tyName(T));
      std::string A = "(";
      for (size_t I = 0; I < ty(T).Elems.size(); ++I)
        A += (I ? ", " : "") + callLit(ty(T).Elems[I]);
      Args.push_back(A + ")");
      Vars.push_back({N, T});
    }
  }
  std::string Name = Opt.Kernel ? "entry!" : "entry";
  std::string Header = "function " + Name + "(";
  P.Call = Name + "(";
  for (size_t I = 0; I < Params.size(); ++I) {
    Header += (I ? ", " : "") + Params[I];
    P.Call += (I ? ", " : "") + Args[I];
  }
  Header += ")";
  P.Call += ")";

  unsigned Lo = std::max(2u, Opt.MaxStmts / 2);
  unsigned N = (unsigned)range(Lo, std::max(Lo, Opt.MaxStmts));
  if (!Opt.Kernel) {
    // A scalar or a tuple of scalars.
    if (pct(45)) {
      RetTy = randScalar();
    } else {
      std::vector<int> E;
      unsigned K = (unsigned)range(2, 5);
      for (unsigned I = 0; I < K; ++I)
        E.push_back(randScalar());
      RetTy = tupleTy(E);
    }
    block(N);
    callUncalled();
    Text += "    return " + finalReturn(RetTy) + "\n";
    Src += Header + "\n" + Text + "end\n";
    return;
  }

  // A kernel: thread indices, maybe shared memory (written by every thread
  // before the barrier, read after it), statements, then the guarded write
  // of this thread's own element. No early return before the barrier.
  RetTy = -1;
  line("t = threadIdx().x");
  Vars.push_back({"t", SI32, false});
  if (P.Blocks > 1 || pct(30)) {
    line("gi = (blockIdx().x - 1) * blockDim().x + t");
    Vars.push_back({"gi", SI64, false});
    GuardIdx = "gi";
  } else {
    GuardIdx = "t";
  }
  if (pct(20)) {
    line("bd = blockDim().x");
    Vars.push_back({"bd", SI32, false});
  }
  if (pct(40)) {
    int U = randScalar(false);
    std::string E = scalar(U, BaseDepth);
    line("sh = CuStaticSharedArray(" + std::string(ScName[U]) + ", " +
         std::to_string(P.Threads) + ")");
    line("sh[t] = " + E);
    line("sync_threads()");
    Var V{"sh", arrayTy(U), false};
    V.KnownLen = P.Threads;
    Vars.push_back(V);
  }
  AllowEarlyReturn = pct(30);
  block(N / 2);
  callUncalled();
  line("if " + GuardIdx + " <= length(out)");
  ++Indent;
  size_t M = mark();
  InGuard = true;
  std::string First = mixVars(OutElem);
  if (First.empty() || pct(30))
    First = scalar(OutElem, BaseDepth);
  line("out[" + GuardIdx + "] = " + First);
  block((unsigned)range(1, std::max(2u, N / 2)));
  stmtGuardUpdate();
  InGuard = false;
  popTo(M);
  --Indent;
  line("end");
  line(pct(50) ? "return nothing" : "return");
  Src += Header + "\n" + Text + "end\n";
}

GeneratedProgram Gen::run() {
  GeneratedProgram P;
  Src = "# generated by prism_gen\n\n";
  unsigned NStructs = pct(60) ? (unsigned)range(1, 2) : 0;
  for (unsigned I = 0; I < NStructs; ++I)
    genStruct();
  unsigned NConsts = (unsigned)range(0, 2);
  for (unsigned I = 0; I < NConsts; ++I)
    genConst();
  if (NConsts)
    Src += "\n";
  unsigned NHelpers = (unsigned)range(0, Opt.MaxHelpers);
  for (unsigned I = 0; I < NHelpers; ++I) {
    NCallable = Funcs.size();
    if (pct(12)) {
      genApply();
      continue;
    }
    switch (below(8)) {
    case 0:
    case 1:
    case 2:
      genPlain();
      break;
    case 3:
    case 4:
      genFamily();
      break;
    case 5:
    case 6:
      genPoly();
      break;
    default:
      genRec();
      break;
    }
  }
  genEntry(P);
  P.Source = Src;
  return P;
}

} // namespace

GeneratedProgram generateProgram(uint64_t Seed, const GenOptions &O) {
  Gen G(Seed * 0x9E3779B97F4A7C15ull + (O.Kernel ? 1 : 0), O);
  return G.run();
}

} // namespace prism::difftest
