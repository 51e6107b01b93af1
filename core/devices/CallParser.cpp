#include "devices/CallParser.h"

#include "lang/AST.h"
#include "lang/Lowering.h"
#include "lang/Parser.h"
#include "support/Irrational.h"
#include "types/ShowError.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cctype>
#include <cmath>
#include <random>

namespace prism {

namespace {

using ast::Node;
using ast::NodeKind;

ScalarKind kindOfLiteral(ast::LitType L) {
  switch (L) {
  case ast::LitType::Bool: return ScalarKind::Bool;
  case ast::LitType::Int8: return ScalarKind::Int8;
  case ast::LitType::Int16: return ScalarKind::Int16;
  case ast::LitType::Int32: return ScalarKind::Int32;
  case ast::LitType::Int64: return ScalarKind::Int64;
  case ast::LitType::UInt8: return ScalarKind::UInt8;
  case ast::LitType::UInt16: return ScalarKind::UInt16;
  case ast::LitType::UInt32: return ScalarKind::UInt32;
  case ast::LitType::UInt64: return ScalarKind::UInt64;
  case ast::LitType::Float16: return ScalarKind::Float16;
  case ast::LitType::Float32: return ScalarKind::Float32;
  case ast::LitType::Float64: return ScalarKind::Float64;
  }
  return ScalarKind::Int64;
}

/// What an argument sub-expression evaluates to: a value, a type (the `T`
/// of `zeros(T, ...)`), or an integer range.
struct Evaluated {
  enum { Value, TypeArg, Range } What = Value;
  HostValue V;
  ScalarKind T = ScalarKind::Int64;
  int64_t Start = 0, Step = 1, Stop = 0;
};

/// Julia's `convert(To, V)` on scalars: exact for integers (InexactError
/// when out of range or not integral), rounding between floats.
std::optional<HostValue> convertScalar(const HostValue &V, ScalarKind To) {
  ScalarKind From = V.scalarKind();
  if (From == To)
    return V;
  if (isFloatKind(To))
    return HostValue::fromDouble(To, isFloatKind(From) ? V.asDouble()
                                     : isSignedKind(From)
                                         ? double(V.asInt())
                                         : double(V.asUInt()));
  unsigned Bits = scalarBytes(To) * 8;
  if (isFloatKind(From)) {
    double D = V.asDouble();
    if (!std::isfinite(D) || D != std::trunc(D))
      return std::nullopt;
    double Lo = To == ScalarKind::Bool ? 0
                : isSignedKind(To)     ? -std::ldexp(1.0, Bits - 1)
                                       : 0;
    double Hi = To == ScalarKind::Bool ? 2
                : isSignedKind(To)     ? std::ldexp(1.0, Bits - 1)
                                       : std::ldexp(1.0, Bits);
    if (D < Lo || D >= Hi)
      return std::nullopt;
    return isSignedKind(To) ? HostValue::fromInt(To, int64_t(D))
                            : HostValue::scalar(To, uint64_t(D));
  }
  // Integer (or Bool) to integer (or Bool), compared in 128 bits.
  __int128 I = isSignedKind(From) ? __int128(V.asInt()) : __int128(V.asUInt());
  __int128 Lo = 0, Hi = 1;
  if (To != ScalarKind::Bool) {
    Lo = isSignedKind(To) ? -(__int128(1) << (Bits - 1)) : 0;
    Hi = isSignedKind(To) ? (__int128(1) << (Bits - 1)) - 1
                          : (__int128(1) << Bits) - 1;
  }
  if (I < Lo || I > Hi)
    return std::nullopt;
  return HostValue::scalar(To, uint64_t(I));
}

const llvm::fltSemantics &floatSemantics(ScalarKind K) {
  switch (K) {
  case ScalarKind::Float16:
    return llvm::APFloat::IEEEhalf();
  case ScalarKind::Float32:
    return llvm::APFloat::IEEEsingle();
  default:
    return llvm::APFloat::IEEEdouble();
  }
}

/// Tuples in a CALL nest at most as deep as inference follows types.
constexpr unsigned MaxTupleNesting = 12;

class CallEvaluator {
public:
  CallEvaluator(const SourceFileRef &File, uint64_t Seed,
                IsFunctionFn IsFunction, StructOfFn StructOf, ConstOfFn ConstOf)
      : File(File), Rng(Seed), IsFunction(IsFunction), StructOf(StructOf),
        ConstOf(ConstOf) {}

  llvm::Expected<ParsedCall> call(const Node &N) {
    if (N.Kind != NodeKind::Call || N.Kids.empty() ||
        N.Kids[0]->Kind != NodeKind::Ident)
      return error(N,
                   "CALL must be a function call with literal, constant "
                   "or array arguments, e.g. `saxpy!(2.0f0, ones(Float32, 4), "
                   "zeros(Float32, 4))`");
    ParsedCall C;
    C.Function = N.Kids[0]->Name.string();
    C.FunctionLoc = DiagLoc::fromRange(File, N.Kids[0]->Range);
    // Operators are calls too (`1 + 2`), but not something to run.
    if (C.Function.empty() || std::ispunct(static_cast<unsigned char>(C.Function[0])))
      return error(N, "CALL must call a function by name, e.g. "
                      "`saxpy!(2.0f0, ones(Float32, 4), zeros(Float32, 4))`; "
                      "an operator (`" +
                          C.Function +
                          "`) runs through a "
                          "function of the program, such as `f(a, b) = a " +
                          C.Function + " b`");
    for (size_t I = 1; I < N.Kids.size(); ++I) {
      auto V = value(*N.Kids[I]);
      if (!V)
        return V.takeError();
      C.Args.push_back(std::move(*V));
    }
    return C;
  }

private:
  unsigned TupleDepth = 0; ///< tuples being evaluated, outermost first
  llvm::Error error(const Node &N, std::string Message) {
    return makeDiagError(
        Diagnostic::error("call", std::move(Message),
                          DiagLoc::fromRange(File, N.Range)));
  }

  std::string text(const Node &N) const {
    if (!File || N.Range.End > File->text().size())
      return "";
    return std::string(
        File->text().substr(N.Range.Begin, N.Range.End - N.Range.Begin));
  }

  /// A sub-expression that must be a value (not a type or a range).
  llvm::Expected<HostValue> value(const Node &N) {
    auto E = eval(N);
    if (!E)
      return E.takeError();
    // A type is a value too, the singleton of `Type{Float32}`: `zero(Float32)`.
    if (E->What == Evaluated::TypeArg)
      return HostValue::type(scalarName(E->T));
    if (E->What == Evaluated::Range)
      return error(N, "a range (`" + text(N) + "`) is not an argument; "
                      "use `collect(" + text(N) + ")`");
    return std::move(E->V);
  }

  llvm::Expected<HostValue> scalar(const Node &N) {
    return number(N, /*Irrational=*/false);
  }

  /// A number: a scalar or, where a conversion takes it, one of Base's
  /// irrationals (`Float32(π)`).
  llvm::Expected<HostValue> number(const Node &N, bool Irrational = true) {
    auto V = value(N);
    if (V && V->irrationalSymbol() && !Irrational)
      return error(N, "`" + text(N) +
                          "` is irrational: give it a precision "
                          "here, as in `Float64(" +
                          text(N) + ")`");
    if (V && !V->isScalar() && !V->irrationalSymbol())
      return error(N, "expected a number here, got `" + text(N) + "`");
    return V;
  }

  llvm::Expected<int64_t> integer(const Node &N) {
    auto V = scalar(N);
    if (!V)
      return V.takeError();
    if (isFloatKind(V->scalarKind()) || V->scalarKind() == ScalarKind::Bool)
      return error(N, "expected an integer, got `" + text(N) + "`");
    return V->asInt();
  }

  llvm::Expected<ScalarKind> typeArg(const Node &N) {
    auto E = eval(N);
    if (!E)
      return E.takeError();
    if (E->What != Evaluated::TypeArg)
      return error(N, "expected an element type such as `Float32`, got `" +
                          text(N) + "`");
    return E->T;
  }

  llvm::Expected<HostValue> convert(const Node &N, const HostValue &V,
                                    ScalarKind To) {
    if (std::optional<std::string_view> S = V.irrationalSymbol()) {
      // Rounded once from the exact value, as Julia's `Float32(π)`.
      if (isFloatKind(To))
        if (auto X = irrationalValue(*S, floatSemantics(To)))
          return HostValue::scalar(To, X->bitcastToAPInt().getZExtValue());
      return error(N, std::string("InexactError: ") + scalarName(To) + "(" +
                          V.str() + ")");
    }
    if (auto C = convertScalar(V, To))
      return *C;
    auto IsInt = [](ScalarKind K) {
      return !isFloatKind(K) && K != ScalarKind::Bool;
    };
    return error(N,
                 inexactErrorText(
                     scalarName(To), V.isScalar() ? printedScalar(V) : V.str(),
                     V.isScalar() && IsInt(V.scalarKind()) && IsInt(To),
                     scalarBytes(V.scalarKind()) * 8, scalarBytes(To) * 8));
  }

  /// Dims from Kids[From..]: integers, or a single tuple of integers.
  llvm::Expected<std::vector<int64_t>> dims(const Node &Call, size_t From) {
    std::vector<const Node *> DimNodes;
    for (size_t I = From; I < Call.Kids.size(); ++I)
      DimNodes.push_back(Call.Kids[I]);
    if (DimNodes.size() == 1 && DimNodes[0]->Kind == NodeKind::Tuple) {
      const Node *T = DimNodes[0];
      DimNodes.assign(T->Kids.begin(), T->Kids.end());
    }
    std::vector<int64_t> Dims;
    for (const Node *D : DimNodes) {
      auto V = integer(*D);
      if (!V)
        return V.takeError();
      if (*V < 0)
        return error(*D, "invalid array dimension " + std::to_string(*V));
      Dims.push_back(*V);
    }
    if (Dims.empty())
      return error(Call, "`" + text(*Call.Kids[0]) + "` needs dimensions");
    // 2^26 elements (512 MiB of Float64): 2^24-element saxpy fits four
    // times over, and a typo of a digit cannot ask the host for gigabytes
    // (the call fuzzer found `ones(032, 18888888)`: 4.8 GB).
    constexpr int64_t MaxElements = int64_t(1) << 26;
    int64_t N = 1;
    for (int64_t D : Dims) {
      if (D && N > MaxElements / D)
        return error(Call, "array too large for a host-side argument (at most " +
                               std::to_string(MaxElements) + " elements)");
      N *= D;
    }
    return Dims;
  }

  HostValue randomScalar(ScalarKind K) {
    uint64_t R = Rng();
    switch (K) {
    case ScalarKind::Float64:
      return HostValue::fromDouble(K, double(R >> 11) * 0x1.0p-53);
    case ScalarKind::Float32:
      return HostValue::fromDouble(K, double(float(R >> 40) * 0x1.0p-24f));
    case ScalarKind::Float16:
      return HostValue::fromDouble(K, double(R >> 53) * 0x1.0p-11);
    case ScalarKind::Bool:
      return HostValue::scalar(K, R >> 63);
    default:
      return HostValue::scalar(K, R); // masked to the width
    }
  }

  llvm::Expected<HostValue> arrayOf(ScalarKind Elt, std::vector<int64_t> Dims,
                                    llvm::function_ref<llvm::Expected<HostValue>(int64_t)> Elem) {
    HostValue A = HostValue::zeros(Elt, std::move(Dims));
    for (int64_t I = 0, N = A.numElements(); I < N; ++I) {
      auto V = Elem(I);
      if (!V)
        return V.takeError();
      A.setElement(I, *V);
    }
    return A;
  }

  llvm::Expected<Evaluated> eval(const Node &N) {
    Evaluated E;
    switch (N.Kind) {
    case NodeKind::Literal:
      E.V = HostValue::scalar(kindOfLiteral(N.Lit), N.Bits);
      return E;
    case NodeKind::Ident: {
      llvm::StringRef Name = N.Name.str();
      if (auto K = scalarKindFromName(Name)) {
        E.What = Evaluated::TypeArg;
        E.T = *K;
        return E;
      }
      if (Name == "nothing")
        return E; // HostValue() is nothing
      if (ConstOf)
        if (std::optional<CallConstant> C = ConstOf(Name)) {
          if (C->Type) {
            E.What = Evaluated::TypeArg;
            E.T = *C->Type;
          } else {
            E.V = std::move(C->Value);
          }
          return E;
        }
      if (IsFunction && IsFunction(Name)) {
        E.V = HostValue::function(Name.str());
        return E;
      }
      if (StructOf && StructOf(Name))
        return error(N, "`" + Name.str() +
                            "` is a struct type: a CALL passes its values (`" +
                            Name.str() +
                            "(...)`), but not the type, and arrays only of "
                            "numbers (`zeros(Float32, 4)`), not of structs");
      return error(N, "unknown name `" + Name.str() +
                          "` in CALL (arguments are literals, constants "
                          "of the program, structs or array constructors)");
    }
    case NodeKind::Tuple: {
      // The program's limits on tuples hold here too: a 5000-element one
      // took 18 s to compile, past them.
      if (int64_t(N.Kids.size()) > MaxTupleLength)
        return error(N, "a tuple has at most " +
                            std::to_string(MaxTupleLength) +
                            " elements (Prism's limit, as in a program); "
                            "this one has " +
                            std::to_string(N.Kids.size()));
      if (TupleDepth >= MaxTupleNesting)
        return error(N, "tuples nest at most " +
                            std::to_string(MaxTupleNesting) +
                            " levels deep (Prism's limit, as in a program)");
      ++TupleDepth;
      std::vector<HostValue> Elts;
      for (const Node *K : N.Kids) {
        auto V = value(*K);
        if (!V) {
          --TupleDepth;
          return V.takeError();
        }
        Elts.push_back(std::move(*V));
      }
      --TupleDepth;
      E.V = HostValue::tuple(std::move(Elts));
      return E;
    }
    case NodeKind::Range: {
      std::vector<int64_t> Parts;
      for (const Node *K : N.Kids) {
        auto V = integer(*K);
        if (!V)
          return V.takeError();
        Parts.push_back(*V);
      }
      E.What = Evaluated::Range;
      E.Start = Parts.front();
      E.Stop = Parts.back();
      E.Step = Parts.size() == 3 ? Parts[1] : 1;
      if (E.Step == 0)
        return error(N, "range step cannot be zero");
      return E;
    }
    case NodeKind::Index:
      return typedArrayLiteral(N);
    case NodeKind::Call:
      return callExpr(N);
    case NodeKind::Assign:
      // `k!(a, threads=256)`, as if it were CUDA.jl's `@cuda threads=256`.
      if (const Node &L = *N.Kids[0];
          L.Kind == NodeKind::Ident &&
          (L.Name.str() == "threads" || L.Name.str() == "blocks")) {
        // The option's own form: `--threads 16,16` for `threads=(16, 16)`.
        const Node &R = *N.Kids[1];
        std::string Shape;
        if (R.Kind == NodeKind::Tuple)
          for (const Node *K : R.Kids)
            Shape += (Shape.empty() ? "" : ",") + text(*K);
        else
          Shape = text(R);
        bool Plain = !Shape.empty() && llvm::all_of(Shape, [](char C) {
          return llvm::isDigit(C) || C == ',';
        });
        return error(N, "`" + text(N) +
                            "`: a launch's shape is not an argument; give it "
                            "as an option, `--" +
                            std::string(L.Name.str()) + " " +
                            (Plain ? Shape : std::string("X[,Y[,Z]]")) + "`");
      }
      [[fallthrough]];
    default:
      return error(N, "`" + text(N) +
                          "` is not allowed in CALL (arguments are literals, "
                          "constants of the program, structs or array "
                          "constructors)");
    }
  }

  /// `T[v1, v2, ...]`: a vector of T, each value converted.
  llvm::Expected<Evaluated> typedArrayLiteral(const Node &N) {
    auto T = typeArg(*N.Kids[0]);
    if (!T)
      return T.takeError();
    std::vector<int64_t> Dims{int64_t(N.Kids.size() - 1)};
    auto A = arrayOf(*T, Dims, [&](int64_t I) -> llvm::Expected<HostValue> {
      const Node &K = *N.Kids[I + 1];
      auto V = number(K);
      if (!V)
        return V.takeError();
      return convert(K, *V, *T);
    });
    if (!A)
      return A.takeError();
    Evaluated E;
    E.V = std::move(*A);
    return E;
  }

  llvm::Expected<Evaluated> callExpr(const Node &N) {
    if (N.Kids[0]->Kind != NodeKind::Ident)
      return error(N, "`" + text(N) + "` is not allowed in CALL");
    llvm::StringRef F = N.Kids[0]->Name.str();
    size_t NArgs = N.Kids.size() - 1;
    auto Arg = [&](size_t I) -> const Node & { return *N.Kids[I + 1]; };
    Evaluated E;

    // Conversions: `UInt32(60)`, `Float32(0.5)`, `T(2)` of `const T = Int32`.
    std::optional<ScalarKind> K = scalarKindFromName(F);
    if (!K && ConstOf)
      if (std::optional<CallConstant> C = ConstOf(F))
        K = C->Type;
    if (K) {
      if (NArgs != 1)
        return error(N, "`" + F.str() + "(x)` takes one value");
      auto V = number(Arg(0));
      if (!V)
        return V.takeError();
      auto C = convert(N, *V, *K);
      if (!C)
        return C.takeError();
      E.V = std::move(*C);
      return E;
    }
    // Unary minus/plus on something the parser did not fold into a literal.
    if ((F == "-" || F == "+") && NArgs == 1) {
      auto V = number(Arg(0));
      if (!V)
        return V.takeError();
      // `-π` is a Float64 and `-true` an Int64 (-1), as in Julia.
      if (V->irrationalSymbol())
        V = convert(Arg(0), *V, ScalarKind::Float64);
      else if (V->scalarKind() == ScalarKind::Bool)
        V = convert(Arg(0), *V, ScalarKind::Int64);
      if (!V)
        return V.takeError();
      ScalarKind K = V->scalarKind();
      if (F == "+")
        E.V = *V;
      else if (isFloatKind(K))
        E.V = HostValue::fromDouble(K, -V->asDouble());
      else
        E.V = HostValue::scalar(K, uint64_t(0) - V->bits());
      return E;
    }

    if (F == "zeros" || F == "ones" || F == "rand") {
      // The element type is optional, as in Julia (Float64 by default).
      ScalarKind T = ScalarKind::Float64;
      size_t DimsFrom = 1;
      if (NArgs >= 1) {
        auto First = eval(Arg(0));
        if (!First)
          return First.takeError();
        if (First->What == Evaluated::TypeArg) {
          T = First->T;
          DimsFrom = 2;
        }
      }
      auto D = dims(N, DimsFrom);
      if (!D)
        return D.takeError();
      HostValue One = *convertScalar(HostValue::fromInt(ScalarKind::Int64, 1), T);
      auto A = arrayOf(T, *D, [&](int64_t) -> llvm::Expected<HostValue> {
        if (F == "rand")
          return randomScalar(T);
        return F == "ones" ? One : HostValue::scalar(T, 0);
      });
      if (!A)
        return A.takeError();
      E.V = std::move(*A);
      return E;
    }
    if (F == "fill") {
      if (NArgs < 2)
        return error(N, "`fill(v, dims...)` needs a value and dimensions");
      auto V = scalar(Arg(0));
      if (!V)
        return V.takeError();
      auto D = dims(N, 2);
      if (!D)
        return D.takeError();
      E.V = *arrayOf(V->scalarKind(), *D,
                     [&](int64_t) -> llvm::Expected<HostValue> { return *V; });
      return E;
    }
    if (F == "collect") {
      ScalarKind T = ScalarKind::Int64;
      const Node *RangeNode = nullptr;
      if (NArgs == 2) {
        auto K = typeArg(Arg(0));
        if (!K)
          return K.takeError();
        T = *K;
        RangeNode = &Arg(1);
      } else if (NArgs == 1) {
        RangeNode = &Arg(0);
      } else {
        return error(N, "`collect` takes `(T, a:b)` or `(a:b)`");
      }
      auto R = eval(*RangeNode);
      if (!R)
        return R.takeError();
      if (R->What != Evaluated::Range)
        return error(*RangeNode, "expected a range such as `1:16`");
      // In unsigned arithmetic: `-5:typemax(Int)` spans more than an
      // Int64 holds, which wrapped to a negative length.
      uint64_t Span = R->Step > 0 ? uint64_t(R->Stop) - uint64_t(R->Start)
                                  : uint64_t(R->Start) - uint64_t(R->Stop);
      uint64_t Step = R->Step > 0 ? uint64_t(R->Step) : -uint64_t(R->Step);
      bool Empty = R->Step > 0 ? R->Stop < R->Start : R->Start < R->Stop;
      uint64_t Count = Empty ? 0 : Span / Step + 1; // 0 when it wraps: 2^64
      if (!Empty && (Count == 0 || Count > (uint64_t(1) << 32)))
        return error(*RangeNode, "range too long for a host-side argument");
      int64_t Len = int64_t(Count);
      auto A = arrayOf(T, {Len}, [&](int64_t I) -> llvm::Expected<HostValue> {
        return convert(*RangeNode,
                       HostValue::fromInt(ScalarKind::Int64, R->Start + I * R->Step),
                       T);
      });
      if (!A)
        return A.takeError();
      E.V = std::move(*A);
      return E;
    }
    if (F == "reshape") {
      if (NArgs < 2)
        return error(N, "`reshape(A, dims...)` needs an array and dimensions");
      auto A = value(Arg(0));
      if (!A)
        return A.takeError();
      if (!A->isArray())
        return error(Arg(0), "`reshape` needs an array");
      auto D = dims(N, 2);
      if (!D)
        return D.takeError();
      int64_t Count = 1;
      for (int64_t X : *D)
        Count *= X;
      if (Count != A->numElements())
        return error(N, "DimensionMismatch: cannot reshape array of length " +
                            std::to_string(A->numElements()) + " into " +
                            std::to_string(Count) + " elements");
      // Column-major data is unchanged by a reshape.
      E.V = HostValue::array(A->scalarKind(), *D,
                             std::vector<uint8_t>(A->bytes().begin(),
                                                  A->bytes().end()));
      return E;
    }
    if (StructOf)
      if (std::optional<StructShape> S = StructOf(F))
        return structValue(N, *S);
    // Base's typemax/typemin of a number type (`typemax(Int32)`): values,
    // as Julia computes them once (the floats' are the infinities).
    if ((F == "typemax" || F == "typemin") && N.Kids.size() == 2) {
      auto T = eval(*N.Kids[1]);
      if (!T)
        return T.takeError();
      if (T->What == Evaluated::TypeArg && T->T != ScalarKind::Bool) {
        const ScalarKind K = T->T;
        const bool Max = F == "typemax";
        if (isFloatKind(K)) {
          E.V = HostValue::fromDouble(K, Max ? HUGE_VAL : -HUGE_VAL);
          return E;
        }
        const unsigned Bits = scalarBytes(K) * 8;
        uint64_t V;
        if (isSignedKind(K))
          V = Max ? (uint64_t(1) << (Bits - 1)) - 1 : uint64_t(1) << (Bits - 1);
        else
          V = Max ? (Bits == 64 ? ~uint64_t(0) : (uint64_t(1) << Bits) - 1) : 0;
        E.V = HostValue::scalar(K, V);
        return E;
      }
    }
    if (std::ispunct(static_cast<unsigned char>(F.front())))
      return error(N, "`" + text(N) +
                          "`: a CALL does not compute; write the value, or "
                          "compute it in the program (a `const`, or in the "
                          "function)");
    return error(*N.Kids[0],
                 "`" + F.str() +
                     "` is not a host-side constructor (use zeros, ones, "
                     "fill, rand, collect, reshape, T[...], a conversion or "
                     "one of the program's structs)");
  }

  static std::string fieldMismatch(const StructShape &S, size_t I,
                                   const HostValue &V) {
    return "field `" + S.FieldNames[I] + "` of `" + S.TypeName +
           "` is `::" + S.FieldTypes[I] + "`; the call gives `" + V.typeName() +
           "`";
  }

  /// `Vec2(1.0f0, 2)`: an instance of the program's struct, each field
  /// converted to its declared type as Julia's default constructor does.
  /// A field that is not a scalar must be given a value of its very type:
  /// the device reads the argument with the struct's layout.
  llvm::Expected<Evaluated> structValue(const Node &N, const StructShape &S) {
    if (!S.Why.empty())
      return error(*N.Kids[0], S.Why);
    size_t NArgs = N.Kids.size() - 1;
    if (NArgs != S.FieldNames.size()) {
      std::string Fields;
      for (const std::string &F : S.FieldNames)
        Fields += (Fields.empty() ? "" : ", ") + F;
      return error(N, "`" + S.TypeName + "` has " +
                          std::to_string(S.FieldNames.size()) + " field" +
                          (S.FieldNames.size() == 1 ? "" : "s") +
                          (Fields.empty() ? "" : " (" + Fields + ")") +
                          "; the call gives " + std::to_string(NArgs));
    }
    auto Plain = [](llvm::StringRef T) {
      std::string Out;
      for (char C : T)
        if (C != ' ')
          Out += C;
      return Out;
    };
    std::vector<HostValue> Fields;
    for (size_t I = 0; I < NArgs; ++I) {
      const Node &A = *N.Kids[I + 1];
      auto V = value(A);
      if (!V)
        return V.takeError();
      if (auto K = scalarKindFromName(S.FieldTypes[I])) {
        if (!V->isScalar() && !V->irrationalSymbol())
          return error(A, fieldMismatch(S, I, *V));
        auto C = convert(A, *V, *K);
        if (!C)
          return C.takeError();
        Fields.push_back(std::move(*C));
        continue;
      }
      if (Plain(V->typeName()) != Plain(S.FieldTypes[I]))
        return error(A, fieldMismatch(S, I, *V));
      Fields.push_back(std::move(*V));
    }
    Evaluated E;
    E.V = HostValue::record(S.TypeName, S.FieldNames, std::move(Fields));
    return E;
  }

  SourceFileRef File;
  std::mt19937_64 Rng;
  IsFunctionFn IsFunction;
  StructOfFn StructOf;
  ConstOfFn ConstOf;
};

} // namespace

llvm::Expected<ParsedCall>
evaluateCall(const ast::Node &Call, const SourceFileRef &File, uint64_t Seed,
             IsFunctionFn IsFunction, StructOfFn StructOf, ConstOfFn ConstOf) {
  return CallEvaluator(File, Seed, IsFunction, StructOf, ConstOf).call(Call);
}

llvm::Expected<ParsedCall> parseCall(llvm::StringRef Call, uint64_t Seed,
                                     IsFunctionFn IsFunction,
                                     StructOfFn StructOf, ConstOfFn ConstOf) {
  SourceFileRef File = SourceFile::create("CALL", Call.str());
  ast::ParsedFile Parsed(File);
  ast::Node *Root = parseExpression(Parsed);
  if (Parsed.hasErrors() || !Root) {
    if (Parsed.Diags.empty())
      return makeDiagError(Diagnostic::error("parse", "cannot parse CALL", {}));
    // What the kernel language lacks, a CALL may still have in another form.
    for (Diagnostic &D : Parsed.Diags) {
      if (D.Code == DiagCode::ArrayLiteral)
        D.note("in a CALL, a vector names its element type: `Int64[1, 2, 3]`, "
               "`Float32[1, 2]`");
    }
    return makeDiagError(std::move(Parsed.Diags));
  }
  return evaluateCall(*Root, File, Seed, IsFunction, StructOf, ConstOf);
}

} // namespace prism
