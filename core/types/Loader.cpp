#include "types/Loader.h"
#include "types/NameSuggestion.h"

#include "lang/Lexer.h"
#include "lang/LiteralType.h"
#include "lang/Lowering.h"
#include "lang/Parser.h"
#include "prelude/Embedded.h"
#include "support/Irrational.h"
#include "types/ShowError.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <set>

namespace prism {

/// Limits on integer type parameters, so that a signature like
/// `NTuple{10^12, Int}` is an error and not an allocation of that size.
constexpr int64_t MaxArrayRank = 8;

namespace {

DiagLoc locOf(const SourceFileRef &File, SrcRange R) {
  return DiagLoc::fromRange(File, R);
}

llvm::Error typeError(const SourceFileRef &File, SrcRange R, std::string Msg,
                      const char *Kind = "type") {
  return makeDiagError(Diagnostic::error(Kind, std::move(Msg), locOf(File, R)));
}

/// `undefined type name`, with what was likely meant: a near type name
/// (`float32`), or DeviceArray for Julia's and CUDA.jl's array types.
llvm::Error undefinedTypeName(const GlobalEnv &Env, const SourceFileRef &File,
                              SrcRange R, llvm::StringRef Name) {
  if (Name == "Vararg")
    return typeError(File, R,
                     "`Vararg` (varargs) is not supported: write a method "
                     "for each number of arguments, or take a tuple "
                     "(`t::NTuple{N,Int}`)",
                     "unsupported");
  Diagnostic D = Diagnostic::error(
      "undefined", "undefined type name `" + Name.str() + "`", locOf(File, R));
  if (std::string Advice = arrayTypeAdvice(Name); !Advice.empty())
    D.note(Advice);
  else if (std::string Near = nearestTypeName(Env, Name); !Near.empty())
    D.note("did you mean `" + Near + "`?");
  return makeDiagError(std::move(D));
}

/// A field type is acceptable if it is concrete once its TypeVars are
/// (`x::T`, `p::Ptr{T}`, `dims::NTuple{N,Int}`), but never `Real` or a Union.
bool concreteOnceBound(Type *T) {
  if (T->isTypeVar() || T->isIntValue())
    return true;
  if (!T->hasTypeVars())
    return T->isConcrete();
  if (!T->isDataType())
    return false;
  TypeContext &C = TypeContext::get();
  if (T->name() == C.ntupleName())
    return concreteOnceBound(T->param(1));
  if (T->isTuple()) {
    for (Type *E : T->params())
      if (!concreteOnceBound(E))
        return false;
    return true;
  }
  return !T->isAbstract();
}

ConstValue literalValue(const ast::Node &N) {
  TypeContext &C = TypeContext::get();
  ConstValue V;
  V.Bits = N.Bits;
  using L = ast::LitType;
  switch (N.Lit) {
  case L::Bool: V.K = ConstValue::Bool; V.Ty = C.boolTy(); break;
  case L::Int8: V.K = ConstValue::Int; V.Ty = C.int8(); break;
  case L::Int16: V.K = ConstValue::Int; V.Ty = C.int16(); break;
  case L::Int32: V.K = ConstValue::Int; V.Ty = C.int32(); break;
  case L::Int64: V.K = ConstValue::Int; V.Ty = C.int64(); break;
  case L::UInt8: V.K = ConstValue::Int; V.Ty = C.uint8(); break;
  case L::UInt16: V.K = ConstValue::Int; V.Ty = C.uint16(); break;
  case L::UInt32: V.K = ConstValue::Int; V.Ty = C.uint32(); break;
  case L::UInt64: V.K = ConstValue::Int; V.Ty = C.uint64(); break;
  case L::Float16: V.K = ConstValue::Float; V.Ty = C.float16(); break;
  case L::Float32: V.K = ConstValue::Float; V.Ty = C.float32(); break;
  case L::Float64: V.K = ConstValue::Float; V.Ty = C.float64(); break;
  }
  return V;
}

const llvm::fltSemantics &floatSemantics(Type *T) {
  switch (T->bitWidth()) {
  case 16:
    return llvm::APFloat::IEEEhalf();
  case 32:
    return llvm::APFloat::IEEEsingle();
  default:
    return llvm::APFloat::IEEEdouble();
  }
}

/// A Float constant as an APFloat of its own precision.
llvm::APFloat floatConst(const ConstValue &V) {
  unsigned W = V.Ty->bitWidth();
  return llvm::APFloat(floatSemantics(V.Ty), llvm::APInt(W, V.Bits));
}

/// Whether V is one of Base's irrationals (an Instance of `Irrational{:π}`),
/// which a precision rounds once from its exact value.
bool isIrrational(const ConstValue &V) {
  return irrationalValue(V.irrationalSymbol(), llvm::APFloat::IEEEdouble())
      .has_value();
}

/// V as a float of type T, rounded to nearest as Julia's `T(V)`: a float,
/// an Int64 or an irrational. None for anything else.
std::optional<llvm::APFloat> floatIn(const ConstValue &V, Type *T) {
  const auto RM = llvm::APFloat::rmNearestTiesToEven;
  llvm::APFloat X(floatSemantics(T));
  if (V.K == ConstValue::Float) {
    X = floatConst(V);
    bool LosesInfo = false;
    X.convert(floatSemantics(T), RM, &LosesInfo);
  } else if (V.K == ConstValue::Int || V.K == ConstValue::Bool) {
    bool Signed = V.Ty->isSignedInt();
    X.convertFromAPInt(
        llvm::APInt(64, Signed ? uint64_t(V.asSigned()) : V.Bits, Signed),
        Signed, RM);
  } else if (V.K == ConstValue::Instance) {
    std::optional<llvm::APFloat> I =
        irrationalValue(V.irrationalSymbol(), floatSemantics(T));
    if (!I)
      return std::nullopt;
    X = *I;
  } else {
    return std::nullopt;
  }
  return X;
}

/// An integer or Bool constant's exact value.
__int128 intOf(const ConstValue &V) {
  return V.Ty->isSignedInt() ? __int128(V.asSigned()) : __int128(V.Bits);
}

/// X wrapped to T's width, as Julia's integer arithmetic wraps.
ConstValue wrappedInt(Type *T, __int128 X) {
  unsigned W = T->bitWidth();
  ConstValue V;
  V.K = T->isBool() ? ConstValue::Bool : ConstValue::Int;
  V.Ty = T;
  V.Bits = W == 64 ? uint64_t(X) : uint64_t(X) & ((uint64_t(1) << W) - 1);
  return V;
}

/// X as a constant of the integer (or Bool) type T; none if it does not fit
/// (Julia's InexactError).
std::optional<ConstValue> intValue(Type *T, __int128 X) {
  unsigned W = T->bitWidth();
  __int128 Lo = 0, Hi = 1; // Bool
  if (!T->isBool()) {
    Lo = T->isSignedInt() ? -(__int128(1) << (W - 1)) : 0;
    Hi = T->isSignedInt() ? (__int128(1) << (W - 1)) - 1
                          : (__int128(1) << W) - 1;
  }
  if (X < Lo || X > Hi)
    return std::nullopt;
  return wrappedInt(T, X);
}

/// V converted to the integer (or Bool) type T as Julia's `T(V)`: exact or
/// none (InexactError): `Int32(8)`, `UInt8(3.0)`, `Int(true)`.
std::optional<ConstValue> intIn(const ConstValue &V, Type *T) {
  if (V.K == ConstValue::Int || V.K == ConstValue::Bool)
    return intValue(T, intOf(V));
  if (V.K != ConstValue::Float)
    return std::nullopt;
  llvm::APFloat X = floatConst(V);
  llvm::APSInt I(128, /*isUnsigned=*/false);
  bool Exact = false;
  if (X.convertToInteger(I, llvm::APFloat::rmTowardZero, &Exact) !=
          llvm::APFloat::opOK ||
      !Exact)
    return std::nullopt;
  const uint64_t *Words = I.getRawData(); // two: 128 bits
  return intValue(T, __int128((unsigned __int128)(Words[1]) << 64 | Words[0]));
}

/// The type integer arithmetic on A and B computes in, as Julia promotes:
/// the wider, or the unsigned of two of one width (Bool is the narrowest).
Type *promotedInt(const ConstValue &A, const ConstValue &B) {
  Type *TA = A.K == ConstValue::Bool ? TypeContext::get().int64() : A.Ty;
  Type *TB = B.K == ConstValue::Bool ? TypeContext::get().int64() : B.Ty;
  if (A.K == ConstValue::Bool && B.K != ConstValue::Bool)
    TA = TB;
  if (B.K == ConstValue::Bool && A.K != ConstValue::Bool)
    TB = TA;
  if (TA->bitWidth() != TB->bitWidth())
    return TA->bitWidth() > TB->bitWidth() ? TA : TB;
  return TA->isUnsignedInt() ? TA : TB;
}

bool isInteger(const ConstValue &V) {
  return V.K == ConstValue::Bool || V.K == ConstValue::Int;
}

ConstValue floatValue(Type *T, const llvm::APFloat &X) {
  ConstValue V;
  V.K = ConstValue::Float;
  V.Ty = T;
  V.Bits = X.bitcastToAPInt().getZExtValue();
  return V;
}

/// The type mixed constant arithmetic computes in, as Julia promotes: the
/// widest float operand's, else Float64 (`1 / 2`, `2 * π`).
Type *promotedFloat(const ConstValue &A, const ConstValue &B) {
  Type *T = nullptr;
  for (const ConstValue *V : {&A, &B})
    if (V->K == ConstValue::Float && (!T || V->Ty->bitWidth() > T->bitWidth()))
      T = V->Ty;
  return T ? T : TypeContext::get().float64();
}

ConstValue typeConst(Type *T) {
  ConstValue V;
  V.K = ConstValue::TypeVal;
  V.TypeValue = T;
  V.Ty = TypeContext::get().typeOfType(T);
  return V;
}

/// Gathers diagnostics from many independent definitions.
struct ErrorSink {
  std::vector<Diagnostic> Diags;
  void take(llvm::Error E) {
    if (!E)
      return;
    auto Ds = takeDiagnostics(std::move(E));
    Diags.insert(Diags.end(), Ds.begin(), Ds.end());
  }
  /// Takes E's diagnostics; whether there were none.
  bool ok(llvm::Error E) {
    if (!E)
      return true;
    take(std::move(E));
    return false;
  }
  template <typename T> bool ok(llvm::Expected<T> &V) {
    if (V)
      return true;
    take(V.takeError());
    return false;
  }
};

/// Whether the type expression \p N names \p Name anywhere in it.
bool mentions(const ast::Node &N, Symbol Name) {
  if (N.Kind == ast::NodeKind::Ident && N.Name == Name)
    return true;
  return llvm::any_of(
      N.Kids, [&](const ast::Node *K) { return K && mentions(*K, Name); });
}

class FileLoader {
public:
  FileLoader(GlobalEnv &Env, std::shared_ptr<const ast::ParsedFile> F,
             bool IsPrelude)
      : Env(Env), PF(std::move(F)), File(PF->File), IsPrelude(IsPrelude) {}

  llvm::Expected<LoadResult> run() {
    // A file that does not load shows every error, the functions' own too.
    if (PF->hasErrors())
      Errors.Diags = PF->errorsWithDeferred();
    // Types and constants first, in the file's order as Julia defines them
    // (a field may be `NTuple{N,Int}` of a `const N` above it), so that
    // signatures may mention types defined further down the file; then
    // methods.
    // Types whose definition failed: their later uses are not errors of
    // their own (one wrong field, not one error per method that names it).
    // A name used before its own definition (a field of a type defined
    // further down) is an error of its own, kept: only errors after the
    // failed definition are dropped.
    std::set<std::string> Broken;
    auto DropFollowOns = [&](size_t From) {
      auto Follows = [&](const Diagnostic &D) {
        for (const std::string &Name : Broken)
          if (D.Message == "undefined type name `" + Name + "`")
            return true;
        return false;
      };
      Errors.Diags.erase(std::remove_if(Errors.Diags.begin() + From,
                                        Errors.Diags.end(), Follows),
                         Errors.Diags.end());
    };
    for (const ast::TopLevel &D : PF->Defs) {
      size_t From = Errors.Diags.size();
      if (auto *const *A = std::get_if<ast::AbstractDef *>(&D)) {
        if (!Errors.ok(loadAbstract(**A)))
          Broken.insert((*A)->Name.string());
      } else if (auto *const *S = std::get_if<ast::StructDef *>(&D)) {
        bool Ok = Errors.ok(loadStruct(**S));
        DropFollowOns(From);
        if (!Ok)
          Broken.insert((*S)->Name.string());
      } else if (auto *const *C = std::get_if<ast::ConstDef *>(&D)) {
        Errors.take(loadConst(**C));
      }
    }
    size_t From = Errors.Diags.size();
    for (const ast::TopLevel &D : PF->Defs)
      if (auto *const *Fn = std::get_if<ast::FunctionDef *>(&D))
        Errors.take(loadFunction(**Fn));
    DropFollowOns(From);
    if (!Errors.Diags.empty())
      return makeDiagError(std::move(Errors.Diags));
    return std::move(Result);
  }

private:
  GlobalEnv &Env;
  std::shared_ptr<const ast::ParsedFile> PF;
  SourceFileRef File;
  bool IsPrelude;
  /// This file's constants so far, to refuse a redefinition as Julia does.
  std::map<std::string, std::pair<SrcRange, ConstValue>, std::less<>> Consts;
  /// Functions and types by name; see definitionNamed.
  std::optional<std::map<std::string, SrcRange, std::less<>>> NamedDefs;
  ErrorSink Errors;
  LoadResult Result;

  World nextWorld() {
    World W = Env.nextWorld();
    if (!Result.FirstWorld)
      Result.FirstWorld = W;
    Result.LastWorld = W;
    return W;
  }

  std::string textOf(SrcRange R) const {
    std::string_view T = File->text();
    if (R.End > T.size() || R.Begin > R.End)
      return "";
    return std::string(T.substr(R.Begin, R.End - R.Begin));
  }

  /// `where {T<:Real, S<:T}` / `struct S{T,N}`: TypeVars in order, each
  /// bound evaluated with the earlier ones in scope.
  llvm::Expected<std::vector<Type *>> makeVars(const std::vector<ast::WhereVar> &Ws,
                                               std::span<Type *const> Outer = {}) {
    std::vector<Type *> Vars(Outer.begin(), Outer.end());
    std::vector<Type *> Own;
    for (const ast::WhereVar &W : Ws) {
      Type *Lo = nullptr, *Hi = nullptr;
      if (W.Upper) {
        auto T = evalTypeExpr(Env, *W.Upper, File, Vars);
        if (!T)
          return T.takeError();
        Hi = *T;
      }
      if (W.Lower) {
        auto T = evalTypeExpr(Env, *W.Lower, File, Vars);
        if (!T)
          return T.takeError();
        Lo = *T;
      }
      Type *V = TypeContext::get().typeVar(W.Name, Lo, Hi);
      Vars.push_back(V);
      Own.push_back(V);
    }
    return Own;
  }

  llvm::Expected<Type *> superOf(ast::Node *Super, std::span<Type *const> Vars) {
    if (!Super)
      return TypeContext::get().any();
    auto T = evalTypeExpr(Env, *Super, File, Vars);
    if (!T)
      return T.takeError();
    if (!(*T)->isAny() && !(*T)->isAbstract())
      return typeError(File, Super->Range,
                       "invalid subtyping: can only subtype abstract types, not `" +
                           (*T)->str() + "`");
    return *T;
  }

  /// Same name defined before: identical redefinitions are allowed (as in
  /// Julia), different ones are errors.
  llvm::Expected<TypeName *> existingType(Symbol Name, const TypeName &Proto,
                                          SrcRange R) {
    TypeName *Old = Env.lookupType(Name);
    if (!Old)
      return nullptr;
    if (!Old->File)
      return typeError(File, R, "cannot redefine builtin type `" +
                                    Name.string() + "`");
    bool Same = Old->Kind == Proto.Kind && Old->Params.size() == Proto.Params.size() &&
                Old->FieldNames == Proto.FieldNames &&
                Old->FieldTypes.size() == Proto.FieldTypes.size();
    if (Same) {
      // Compare field and super patterns with the new parameters renamed to
      // the old ones.
      TypeContext &C = TypeContext::get();
      for (size_t I = 0; Same && I < Proto.FieldTypes.size(); ++I)
        Same = C.substitute(Proto.FieldTypes[I], Proto.Params, Old->Params) ==
               Old->FieldTypes[I];
      Same = Same && C.substitute(Proto.Super, Proto.Params, Old->Params) == Old->Super;
    }
    if (!Same) {
      Diagnostic D = Diagnostic::error(
          "redefinition",
          "invalid redefinition of " +
              std::string(Proto.Kind == TypeNameKind::Abstract ? "abstract type `"
                                                                : "struct `") +
              Name.string() + "` with different " +
              (Proto.Kind == TypeNameKind::Abstract ? "parameters" : "fields"),
          locOf(File, R));
      D.note("previous definition here", locOf(Old->File, Old->Range));
      return makeDiagError(std::move(D));
    }
    return Old;
  }

  llvm::Error loadAbstract(const ast::AbstractDef &D) {
    auto Vars = makeVars(D.Params);
    if (!Vars)
      return Vars.takeError();
    auto Super = superOf(D.Super, *Vars);
    if (!Super)
      return Super.takeError();
    TypeName Proto;
    Proto.Name = D.Name;
    Proto.Kind = TypeNameKind::Abstract;
    Proto.Params = *Vars;
    Proto.Super = *Super;
    Proto.File = File;
    Proto.Range = D.Range;
    auto Old = existingType(D.Name, Proto, D.Range);
    if (!Old)
      return Old.takeError();
    if (!*Old)
      Env.defineType(TypeContext::get().createTypeName(std::move(Proto)));
    nextWorld();
    return llvm::Error::success();
  }

  llvm::Error loadStruct(const ast::StructDef &D) {
    auto Vars = makeVars(D.Params);
    if (!Vars)
      return Vars.takeError();
    auto Super = superOf(D.Super, *Vars);
    if (!Super)
      return Super.takeError();
    TypeName Proto;
    Proto.Name = D.Name;
    Proto.Kind = TypeNameKind::Struct;
    Proto.Params = *Vars;
    Proto.Super = *Super;
    Proto.File = File;
    Proto.Range = D.Range;
    ErrorSink FieldErrors;
    for (const ast::Param &P : D.Fields) {
      Type *FT = TypeContext::get().any();
      if (P.Type && mentions(*P.Type, D.Name)) {
        // Julia would store it by reference; kernel structs are values.
        FieldErrors.take(typeError(
            File, P.Range,
            "struct `" + D.Name.string() + "` cannot contain itself (field `" +
                P.Name.string() +
                "`): a kernel's structs are values stored inline, with no "
                "references to build a linked structure from"));
        continue;
      }
      if (P.Type) {
        auto T = evalTypeExpr(Env, *P.Type, File, *Vars);
        if (!FieldErrors.ok(T))
          continue;
        FT = *T;
      }
      if (!concreteOnceBound(FT)) {
        FieldErrors.take(typeError(
            File, P.Range,
            "field `" + P.Name.string() + "` of struct `" + D.Name.string() +
                "` has non-concrete type `" + FT->str() +
                "`; field types must be concrete after substitution"));
        continue;
      }
      Proto.FieldNames.push_back(P.Name);
      Proto.FieldTypes.push_back(FT);
    }
    if (!FieldErrors.Diags.empty())
      return makeDiagError(std::move(FieldErrors.Diags));
    auto Old = existingType(D.Name, Proto, D.Range);
    if (!Old)
      return Old.takeError();
    TypeName *N = *Old;
    if (!N) {
      N = TypeContext::get().createTypeName(std::move(Proto));
      Env.defineType(N);
    }
    nextWorld();
    addDefaultConstructors(N, D);
    return llvm::Error::success();
  }

  /// IR computing a type pattern's value from the static parameters:
  /// constants for closed types, `apply_type(Name, ...)` otherwise.
  IRValue emitType(CodeInfo &CI, Type *T, std::span<Type *const> Vars, SrcRange R) {
    if (!T->hasTypeVars())
      return IRValue::constant(typeConst(T));
    if (T->isTypeVar()) {
      for (size_t I = 0; I < Vars.size(); ++I)
        if (Vars[I] == T)
          return IRValue::staticParam(static_cast<uint32_t>(I));
      assert(false && "field pattern mentions a foreign TypeVar");
    }
    assert(T->isDataType() && "field patterns are DataTypes or TypeVars");
    Stmt S;
    S.K = StmtKind::Call;
    S.Range = R;
    S.Args.push_back(IRValue::global(Symbol::get("apply_type")));
    TypeName *N = T->name();
    S.Args.push_back(IRValue::constant(typeConst(TypeContext::get().bareType(N))));
    for (Type *P : T->params()) {
      if (P->isIntValue()) {
        ConstValue V;
        V.K = ConstValue::Int;
        V.Ty = TypeContext::get().int64();
        V.Bits = static_cast<uint64_t>(P->intValue());
        S.Args.push_back(IRValue::constant(V));
      } else {
        S.Args.push_back(emitType(CI, P, Vars, R));
      }
    }
    CI.Code.push_back(std::move(S));
    return IRValue::ssa(static_cast<uint32_t>(CI.Code.size() - 1));
  }

  /// Julia's default constructors: `S(f1::F1, ...) where {P...}` calling
  /// `new`, and one converting each argument to its field type: `S(f1, ...)`
  /// for a plain struct (unless every field is `Any`), `S{P...}(f1, ...)`
  /// for a parametric one.
  void addDefaultConstructors(TypeName *N, const ast::StructDef &D) {
    TypeContext &C = TypeContext::get();
    GenericFunction *Ctor = Env.constructorFunction(N);
    Type *Bare = C.bareType(N);
    bool AllAny = llvm::all_of(N->FieldTypes, [&](Type *F) { return F == C.any(); });
    bool Plain = N->Params.empty();
    // Julia defines `S(fields) where {P...}` only where the fields decide
    // every parameter (`struct Tg{T} x::Int64 end` has none: `Tg(1)` is no
    // method, and `Tg{Float32}(1)` works).
    auto Mentions = [](auto &Self, Type *T, Type *Var) -> bool {
      if (T == Var)
        return true;
      if (!T || !T->hasTypeVars() || T->isTypeVar())
        return false;
      for (Type *P : T->params())
        if (Self(Self, P, Var))
          return true;
      return false;
    };
    const bool FieldsDecideParams = llvm::all_of(N->Params, [&](Type *P) {
      return llvm::any_of(N->FieldTypes,
                          [&](Type *F) { return Mentions(Mentions, F, P); });
    });
    for (int Variant = 0; Variant < (Plain && AllAny ? 1 : 2); ++Variant) {
      bool Converting = Variant == 1;
      if (!Converting && !Plain && !FieldsDecideParams)
        continue;
      // Fresh variables per method: each method owns its where-variables.
      // A bound may mention earlier parameters (`S{T, U<:T}`).
      std::vector<Type *> Vars;
      for (size_t I = 0; I < N->Params.size(); ++I) {
        std::span<Type *const> Earlier(N->Params.data(), I);
        Type *P = N->Params[I];
        Vars.push_back(C.typeVar(P->varName(), C.substitute(P->lowerBound(), Earlier, Vars),
                                 C.substitute(P->upperBound(), Earlier, Vars)));
      }
      auto M = std::make_unique<Method>();
      M->Name = N->Name;
      M->Sparams = Vars;
      M->Sig.push_back(Converting && !Plain ? C.typeOfType(C.apply(N, Vars))
                                            : C.typeOfType(Bare));
      std::vector<Type *> FieldPats;
      for (Type *F : N->FieldTypes)
        FieldPats.push_back(C.substitute(F, N->Params, Vars));
      for (Type *F : FieldPats)
        M->Sig.push_back(Converting ? C.any() : F);
      M->ArgNames = N->FieldNames;

      auto CI = std::make_shared<CodeInfo>();
      CI->File = File;
      CI->FunctionName = N->Name;
      CI->Range = D.Range;
      CI->NumArgs = static_cast<uint32_t>(N->FieldNames.size());
      CI->Slots.push_back({Symbol::get("#self#"), false});
      for (Symbol F : N->FieldNames)
        CI->Slots.push_back({F, true});
      for (Type *V : Vars)
        CI->StaticParamNames.push_back(V->varName());
      std::vector<IRValue> FieldVals;
      for (size_t I = 0; I < FieldPats.size(); ++I) {
        IRValue Arg = IRValue::slot(static_cast<uint32_t>(I + 1));
        if (!Converting) {
          FieldVals.push_back(Arg);
          continue;
        }
        IRValue TyV = emitType(*CI, FieldPats[I], Vars, D.Range);
        Stmt S;
        S.K = StmtKind::Call;
        S.Range = D.Range;
        S.Args = {IRValue::global(Symbol::get("convert")), TyV, Arg};
        CI->Code.push_back(std::move(S));
        FieldVals.push_back(IRValue::ssa(static_cast<uint32_t>(CI->Code.size() - 1)));
      }
      IRValue STy = emitType(*CI, C.apply(N, Vars), Vars, D.Range);
      Stmt New;
      New.K = StmtKind::Call;
      New.Range = D.Range;
      New.Args.push_back(IRValue::global(Symbol::get("new")));
      New.Args.push_back(STy);
      New.Args.insert(New.Args.end(), FieldVals.begin(), FieldVals.end());
      CI->Code.push_back(std::move(New));
      Stmt Ret;
      Ret.K = StmtKind::Return;
      Ret.Range = D.Range;
      Ret.Args.push_back(IRValue::ssa(static_cast<uint32_t>(CI->Code.size() - 1)));
      CI->Code.push_back(std::move(Ret));

      M->Lowered = std::move(CI);
      M->Parsed = PF;
      M->File = File;
      M->Range = D.Range;
      M->SourceText = textOf(D.Range);
      M->IsPrelude = IsPrelude;
      addMethod(Ctor, std::move(M));
    }
  }

  void addMethod(GenericFunction *F, std::unique_ptr<Method> M) {
    M->PrimaryWorld = nextWorld();
    Method *Raw = M.get();
    if (Method *Old = F->addMethod(std::move(M))) {
      Result.Replaced.push_back(Old);
      // Julia warns when a file defines a method twice, and when it
      // overwrites one of Base's.
      if (!IsPrelude &&
          (Old->IsPrelude || llvm::is_contained(Result.Added, Old)))
        Result.Warnings.push_back(overwriteWarning(*Raw, *Old));
    }
    Result.Added.push_back(Raw);
  }

  /// `A ^ B` with a float (or irrational) operand, as the prelude computes
  /// it: in the promoted precision through `pow` (`2.0^3`, `2^0.5`, `π^2`),
  /// `ℯ^x` as `exp(x)`. Float16 computes in Float32 and rounds once, as
  /// LLVM lowers `pow.f16` on the targets here.
  llvm::Expected<ConstValue> floatPower(const ast::Node &E, const ConstValue &A,
                                        const ConstValue &B) {
    Type *T = promotedFloat(A, B);
    std::optional<llvm::APFloat> XA = floatIn(A, T), YB = floatIn(B, T);
    if (!XA || !YB)
      return typeError(File, E.Range, "unsupported constant expression",
                       "const");
    if (XA->isNegative() && !XA->isZero() && !YB->isInteger())
      return typeError(File, E.Range,
                       "DomainError: `^` of a negative float to a "
                       "non-integer power",
                       "const");
    bool IsE = A.K == ConstValue::Instance && A.irrationalSymbol() == "ℯ";
    bool LosesInfo = false;
    const auto RM = llvm::APFloat::rmNearestTiesToEven;
    llvm::APFloat R(0.0);
    if (A.K == ConstValue::Instance && !IsE && isInteger(B)) {
      // The prelude's `^(::AbstractIrrational, ::Integer)`: Base's
      // power_by_squaring of the Float64; a literal negative power is
      // literal_pow's `inv(x)^-p`, any other a DomainError.
      double X = XA->convertToDouble();
      __int128 P = intOf(B);
      if (P < 0) {
        if (E.Kids[2]->Kind != ast::NodeKind::Literal)
          return typeError(File, E.Range,
                           "DomainError: `^` of an irrational to a negative "
                           "power; write `float(x)^...`",
                           "const");
        X = 1.0 / X;
        P = -P;
      }
      return floatValue(T, llvm::APFloat(powerBySquaring(X, uint64_t(P))));
    }
    if (T->bitWidth() == 64) {
      double Y = YB->convertToDouble();
      R = llvm::APFloat(IsE ? std::exp(Y) : std::pow(XA->convertToDouble(), Y));
    } else {
      XA->convert(llvm::APFloat::IEEEsingle(), RM, &LosesInfo);
      YB->convert(llvm::APFloat::IEEEsingle(), RM, &LosesInfo);
      float Y = YB->convertToFloat();
      R = llvm::APFloat(IsE ? std::exp(Y) : std::pow(XA->convertToFloat(), Y));
      R.convert(floatSemantics(T), RM, &LosesInfo);
    }
    return floatValue(T, R);
  }

  /// Base's power_by_squaring of a Float64, product for product.
  static double powerBySquaring(double X, uint64_t P) {
    if (P == 0)
      return 1.0;
    if (P == 1)
      return X;
    if (P == 2)
      return X * X;
    unsigned T = __builtin_ctzll(P) + 1;
    P >>= T;
    for (unsigned K = 1; K < T; ++K)
      X *= X;
    double Y = X;
    while (P > 0) {
      T = __builtin_ctzll(P) + 1;
      P >>= T;
      for (unsigned K = 0; K < T; ++K)
        X *= X;
      Y *= X;
    }
    return Y;
  }

  /// `x^p` with a literal p from -2 to 3 and x a hardware number (not Bool
  /// or Float16), as the prelude's `literal_pow` computes it: products
  /// rounded one at a time (`1.1^3`), `inv(2)^2` for `2^-2`.
  std::optional<ConstValue> literalPow(const ConstValue &X, int64_t P) {
    // Base's literal_pow fallback for other negative powers: an integer's
    // is its Float64's (`2^-3 == 0.125`), a Bool's `inv(x)^-p`.
    Type *F64 = TypeContext::get().float64();
    if (P < 0 && X.K == ConstValue::Bool)
      return floatValue(F64, llvm::APFloat(intOf(X) ? 1.0 : HUGE_VAL));
    if (P < -2 && X.K == ConstValue::Int)
      return floatValue(F64,
                        llvm::APFloat(std::pow(double(intOf(X)), double(P))));
    if (P < -2 || P > 3 || X.K == ConstValue::Bool ||
        (X.K == ConstValue::Float && X.Ty->bitWidth() == 16) ||
        (X.K != ConstValue::Int && X.K != ConstValue::Float))
      return std::nullopt;
    if (X.K == ConstValue::Int && P >= 0) {
      uint64_t R = 1; // wraps as the integer type does
      for (int64_t I = 0; I < P; ++I)
        R *= uint64_t(intOf(X));
      return wrappedInt(X.Ty, __int128(int64_t(R)));
    }
    // A float power, or an integer's inverse (a Float64).
    Type *T = X.K == ConstValue::Float ? X.Ty : TypeContext::get().float64();
    const auto RM = llvm::APFloat::rmNearestTiesToEven;
    llvm::APFloat One = *floatIn(wrappedInt(TypeContext::get().int64(), 1), T);
    llvm::APFloat B = *floatIn(X, T);
    if (P < 0) { // inv(x)
      llvm::APFloat I = One;
      I.divide(B, RM);
      B = I;
    }
    llvm::APFloat R = One;
    for (int64_t I = 0; I < (P < 0 ? -P : P); ++I) {
      if (I == 0)
        R = B;
      else
        R.multiply(B, RM);
    }
    return floatValue(T, R);
  }

  /// Both operands of a binary call `op(a, b)`.
  llvm::Expected<std::pair<ConstValue, ConstValue>>
  evalOperands(const ast::Node &E) {
    auto A = evalConst(*E.Kids[1]);
    if (!A)
      return A.takeError();
    auto B = evalConst(*E.Kids[2]);
    if (!B)
      return B.takeError();
    return std::make_pair(std::move(*A), std::move(*B));
  }

  /// An integer `÷ % << >> >>> & | ⊻` of constants, as Julia computes it;
  /// `÷` and `%` of a signed and an unsigned integer, whose rules are not
  /// the promoted type's, are refused.
  llvm::Expected<ConstValue> intOperation(const ast::Node &E,
                                          std::string_view Op,
                                          const ConstValue &A,
                                          const ConstValue &B) {
    TypeContext &C = TypeContext::get();
    __int128 X = intOf(A), Y = intOf(B);
    if (Op == "<<" || Op == ">>" || Op == ">>>") {
      // The result has x's type; a count past the width, or a negative one
      // (the other direction), as Julia's.
      Type *T = A.K == ConstValue::Bool ? C.int64() : A.Ty;
      int W = int(T->bitWidth());
      bool Left = Op == "<<";
      if (Y < 0) {
        Y = -Y;
        Left = !Left;
      }
      bool Arith = Op == ">>" || (Op == "<<" && !Left);
      if (Left)
        return wrappedInt(T, Y >= W ? 0 : X << int(Y));
      if (Arith && T->isSignedInt())
        return wrappedInt(T, Y >= W ? (X < 0 ? -1 : 0) : X >> int(Y));
      unsigned __int128 U =
          (unsigned __int128)X & ((((unsigned __int128)1) << W) - 1);
      return wrappedInt(T, Y >= W ? 0 : __int128(U >> int(Y)));
    }
    if (Op == "&" || Op == "|" || Op == "⊻") {
      Type *T = A.K == ConstValue::Bool && B.K == ConstValue::Bool
                    ? C.boolTy()
                    : promotedInt(A, B);
      return wrappedInt(T, Op == "&" ? (X & Y) : Op == "|" ? (X | Y) : (X ^ Y));
    }
    if (A.K == ConstValue::Bool && B.K == ConstValue::Bool) {
      // Base's div and rem of two Bools: Bools, y or a DivideError.
      if (!Y)
        return typeError(File, E.Range, "DivideError: integer division error",
                         "const");
      return wrappedInt(C.boolTy(), Op == "÷" ? X : 0);
    }
    Type *TA = A.K == ConstValue::Bool ? C.int64() : A.Ty;
    Type *TB = B.K == ConstValue::Bool ? C.int64() : B.Ty;
    if (TA->isSignedInt() != TB->isSignedInt())
      return typeError(
          File, E.Range,
          "`" + std::string(Op) +
              "` of a signed and an unsigned integer in a "
              "constant is not supported (Julia's rules for it are not the "
              "promoted type's); convert one first: `" +
              std::string(Op) + "` of two " + TB->str() + "s",
          "const");
    Type *T = promotedInt(A, B);
    __int128 Min = T->isSignedInt() ? -(__int128(1) << (T->bitWidth() - 1)) : 0;
    if (Y == 0 || (Op == "÷" && Y == -1 && X == Min))
      return typeError(File, E.Range, "DivideError: integer division error",
                       "const");
    return wrappedInt(T, Op == "÷" ? X / Y : X % Y); // both truncate, as Julia
  }

  /// `typemax(T)`, `typemin(T)`, `zero(T)`, `one(T)` of a number type.
  std::optional<ConstValue> typeBound(std::string_view Fn, Type *T) {
    if (T->isInteger() || T->isBool()) {
      unsigned W = T->isBool() ? 1 : T->bitWidth();
      bool Signed = T->isSignedInt();
      __int128 Max =
          Signed ? (__int128(1) << (W - 1)) - 1 : (__int128(1) << W) - 1;
      __int128 Min = Signed ? -(__int128(1) << (W - 1)) : 0;
      __int128 V = Fn == "typemax"   ? Max
                   : Fn == "typemin" ? Min
                   : Fn == "zero"    ? 0
                                     : 1;
      return wrappedInt(T, V);
    }
    if (T->isFloat()) {
      llvm::APFloat X =
          Fn == "typemax" || Fn == "typemin"
              ? llvm::APFloat::getInf(floatSemantics(T), Fn == "typemin")
              : llvm::APFloat(floatSemantics(T), Fn == "zero" ? 0 : 1);
      return floatValue(T, X);
    }
    return std::nullopt;
  }

  llvm::Expected<ConstValue> evalConst(const ast::Node &E) {
    TypeContext &C = TypeContext::get();
    switch (E.Kind) {
    case ast::NodeKind::Literal:
      return literalValue(E);
    case ast::NodeKind::Ident: {
      if (E.Name.str() == "nothing") {
        ConstValue V;
        V.K = ConstValue::Nothing;
        V.Ty = C.nothing();
        return V;
      }
      if (const ConstValue *V = Env.lookupConst(E.Name))
        return *V;
      if (GenericFunction *F = Env.lookupFunction(E.Name)) {
        ConstValue V;
        V.K = ConstValue::Func;
        V.Fn = F;
        V.Ty = F->type();
        return V;
      }
      break;
    }
    case ast::NodeKind::Quote:
      return typeError(File, E.Range,
                       "a symbol is only a type parameter here (`Irrational{:" +
                           E.Name.string() + "}`), not a constant",
                       "const");
    case ast::NodeKind::Call:
      // The instance of a fieldless struct: `const π = Irrational{:π}()`.
      if (E.Kids.size() == 1) {
        auto T = evalTypeExpr(Env, *E.Kids[0], File);
        // Not a type but a function (`f()`): the message below says what a
        // constant may be.
        if (!T) {
          llvm::consumeError(T.takeError());
          break;
        }
        if (!(*T)->isStruct() || !(*T)->isConcrete() ||
            !(*T)->fieldTypes().empty()) {
          std::string Msg =
              "a constant may construct only a struct without fields, and `";
          Msg += (*T)->str() + "` is not one";
          return typeError(File, E.Range, std::move(Msg), "const");
        }
        ConstValue V;
        V.K = ConstValue::Instance;
        V.Ty = *T;
        return V;
      }
      // Negation: `-Inf32`, `-N`.
      if (E.Kids.size() == 2 && E.Kids[0]->Kind == ast::NodeKind::Ident &&
          E.Kids[0]->Name.str() == "-") {
        auto A = evalConst(*E.Kids[1]);
        if (!A)
          return A.takeError();
        if (A->K == ConstValue::Float || isIrrational(*A)) {
          Type *T = A->K == ConstValue::Float ? A->Ty : C.float64(); // `-π`
          llvm::APFloat X = *floatIn(*A, T);
          X.changeSign();
          return floatValue(T, X);
        }
        // `-true` is -1 (an Int64); an integer keeps its type, wrapping.
        if (isInteger(*A))
          return wrappedInt(A->K == ConstValue::Bool ? C.int64() : A->Ty,
                            -intOf(*A));
      }
      if (E.Kids.size() == 3 && E.Kids[0]->Kind == ast::NodeKind::Ident) {
        std::string_view Op = E.Kids[0]->Name.str();
        if (Op == "+" || Op == "-" || Op == "*" || Op == "/" || Op == "^") {
          auto Operands = evalOperands(E);
          if (!Operands)
            return Operands.takeError();
          const ConstValue *A = &Operands->first, *B = &Operands->second;
          if (Op == "^" && E.Kids[2]->Kind == ast::NodeKind::Literal &&
              E.Kids[2]->Lit == ast::LitType::Int64)
            if (std::optional<ConstValue> R =
                    literalPow(*A, int64_t(E.Kids[2]->Bits)))
              return *R;
          // Integers wrap at their promoted width, as in Julia: `2^10`,
          // `Int32(4) * 2` (an Int64), `0xff + 0x01` (0x00).
          if (isInteger(*A) && isInteger(*B) && Op == "^") {
            if (B->Ty->isSignedInt() && B->asSigned() < 0) {
              // Base's power_by_squaring: 1 and -1 have integer inverses.
              __int128 X = intOf(*A);
              if (X == 1 || (X == -1 && (B->asSigned() & 1)))
                return *A;
              if (X == -1)
                return wrappedInt(A->Ty, 1);
              std::string Base(textOf(E.Kids[1]->Range));
              return typeError(File, E.Range,
                               "DomainError: `^` of an integer to a negative "
                               "power; write `float(" +
                                   Base + ")^...` for a float",
                               "const");
            }
            uint64_t R = 1, Base = uint64_t(intOf(*A));
            for (uint64_t N = uint64_t(intOf(*B)); N; N >>= 1) {
              if (N & 1)
                R *= Base;
              Base *= Base;
            }
            if (A->K == ConstValue::Bool) // `true^2` is true
              return *intValue(A->Ty, R != 0);
            return wrappedInt(A->Ty, __int128(int64_t(R)));
          }
          if (isInteger(*A) && isInteger(*B) && Op != "/") {
            __int128 X = intOf(*A), Y = intOf(*B);
            return wrappedInt(promotedInt(*A, *B), Op == "+"   ? X + Y
                                                   : Op == "-" ? X - Y
                                                               : X * Y);
          }
          if (Op == "^")
            return floatPower(E, *A, *B);
          // Otherwise promoted as Julia does, then IEEE-rounded in that
          // precision: the prelude's `const Inf32 = 1f0 / 0f0`, `2 * π`.
          Type *T = promotedFloat(*A, *B);
          std::optional<llvm::APFloat> XA = floatIn(*A, T), YB = floatIn(*B, T);
          if (XA && YB) {
            llvm::APFloat X = *XA, Y = *YB;
            const auto RM = llvm::APFloat::rmNearestTiesToEven;
            if (Op == "+")
              X.add(Y, RM);
            else if (Op == "-")
              X.subtract(Y, RM);
            else if (Op == "*")
              X.multiply(Y, RM);
            else
              X.divide(Y, RM);
            return floatValue(T, X);
          }
        }
      }
      // Integer division, shifts and bits, as Julia computes them:
      // `const HALF = N ÷ 2`, `const MASK = (1 << k) - 1`, `N % 3`.
      if (E.Kids.size() == 3 && E.Kids[0]->Kind == ast::NodeKind::Ident) {
        std::string_view Op = E.Kids[0]->Name.str();
        static const std::string_view IntOps[] = {"÷",   "%", "<<", ">>",
                                                  ">>>", "&", "|",  "⊻"};
        if (llvm::is_contained(IntOps, Op)) {
          auto Operands = evalOperands(E);
          if (!Operands)
            return Operands.takeError();
          const ConstValue *A = &Operands->first, *B = &Operands->second;
          if (isInteger(*A) && isInteger(*B))
            return intOperation(E, Op, *A, *B);
        }
      }
      // `typemax(Int32)`, `typemin(T)`, `zero(Float32)`, `one(T)`.
      if (E.Kids.size() == 2 && E.Kids[0]->Kind == ast::NodeKind::Ident) {
        std::string_view Fn = E.Kids[0]->Name.str();
        if (Fn == "typemax" || Fn == "typemin" || Fn == "zero" || Fn == "one") {
          auto T = evalTypeExpr(Env, *E.Kids[1], File);
          if (!T)
            llvm::consumeError(T.takeError());
          else if (std::optional<ConstValue> V = typeBound(Fn, *T))
            return *V;
        }
      }
      // A number converted to a number type: `Float32(π)`, `Float16(Inf)`,
      // `Int32(8)`, `UInt8(0x10 + 1)`, `T(2)` of `const T = Int32`.
      if (E.Kids.size() == 2 && E.Kids[0]->Kind == ast::NodeKind::Ident) {
        Type *ToT = nullptr;
        if (auto T = evalTypeExpr(Env, *E.Kids[0], File))
          ToT = *T;
        else
          llvm::consumeError(T.takeError());
        if (ToT && (ToT->isFloat() || ToT->isInteger() || ToT->isBool())) {
          auto A = evalConst(*E.Kids[1]);
          if (!A)
            return A.takeError();
          if (ToT->isFloat()) {
            if (std::optional<llvm::APFloat> X = floatIn(*A, ToT))
              return floatValue(ToT, *X);
          } else if (std::optional<ConstValue> V = intIn(*A, ToT)) {
            return *V;
          } else if (A->K == ConstValue::Int || A->K == ConstValue::Bool ||
                     A->K == ConstValue::Float || isIrrational(*A)) {
            // The value as Julia's showerror prints it: `255`, `Inf`.
            ast::LitType L;
            bool Primitive =
                A->K != ConstValue::Instance && litTypeOf(A->Ty, L);
            return typeError(
                File, E.Range,
                inexactErrorText(
                    ToT->str(), Primitive ? printLiteral(L, A->Bits) : A->str(),
                    A->K == ConstValue::Int && ToT->isInteger(),
                    A->Ty->bitWidth(), ToT->bitWidth()),
                "const");
          }
        }
      }
      break;
    default:
      break;
    }
    // Otherwise it must be a type (`const CuDeviceArray = DeviceArray`).
    auto T = evalTypeExpr(Env, E, File);
    if (!T) {
      llvm::consumeError(T.takeError());
      std::string Why =
          E.Kind == ast::NodeKind::Ident
              ? "UndefVarError: `" + E.Name.string() +
                    "` not defined; a constant can use only the constants, "
                    "functions and types defined above it"
          : E.Kind == ast::NodeKind::Tuple
              ? "a `const` holds a number, a type or a function, not a "
                "tuple; a function returns one as a constant: `weights() = "
                "(0.25f0, 0.5f0)`, then `weights()[i]`"
              : "unsupported constant expression; expected a literal, a "
                "constant, a type, `+ - * / ^` on numbers, `÷ % << >> >>> "
                "& | ⊻` on integers, `-x`, `typemax(T)`, `typemin(T)`, "
                "`zero(T)`, `one(T)`, or a conversion such as `Int32(x)` or "
                "`Float32(x)`";
      return typeError(File, E.Range, std::move(Why), "const");
    }
    return typeConst(*T);
  }

  /// Where this file defines a function (not a callable struct's method) or
  /// a type named \p Name, if it does. Indexed once, on the first const.
  const SrcRange *definitionNamed(Symbol Name) {
    if (!NamedDefs) {
      NamedDefs.emplace();
      for (const ast::TopLevel &TL : PF->Defs) {
        if (auto *const *Fn = std::get_if<ast::FunctionDef *>(&TL);
            Fn && !(*Fn)->CalleeType)
          NamedDefs->try_emplace((*Fn)->Name.string(), (*Fn)->SigRange);
        else if (auto *const *S = std::get_if<ast::StructDef *>(&TL))
          NamedDefs->try_emplace((*S)->Name.string(), (*S)->Range);
        else if (auto *const *A = std::get_if<ast::AbstractDef *>(&TL))
          NamedDefs->try_emplace((*A)->Name.string(), (*A)->Range);
      }
    }
    auto It = NamedDefs->find(Name.string());
    return It == NamedDefs->end() ? nullptr : &It->second;
  }

  llvm::Error loadConst(const ast::ConstDef &D) {
    if (!D.Value)
      return typeError(File, D.Range, "const without a value", "const");
    // A name this file gives a function or a type already has a value
    // (Julia: "cannot declare g constant; it already has a value").
    if (const SrcRange *Other = definitionNamed(D.Name)) {
      Diagnostic Diag =
          Diagnostic::error("const",
                            "cannot declare `" + D.Name.string() +
                                "` constant; it already has a value",
                            locOf(File, D.Range));
      Diag.note("`" + D.Name.string() + "` is defined here",
                locOf(File, *Other));
      return makeDiagError(std::move(Diag));
    }
    auto V = evalConst(*D.Value);
    if (!V)
      return V.takeError();
    // The same value again is harmless (Julia too); another is an error,
    // since code compiled with the first value would keep it.
    auto [It, New] = Consts.try_emplace(D.Name.string(), D.Range, *V);
    if (!New && !(It->second.second == *V)) {
      Diagnostic Diag = Diagnostic::error(
          "const", "invalid redefinition of constant `" + D.Name.string() + "`",
          locOf(File, D.Range));
      Diag.note("first defined here", locOf(File, It->second.first));
      return makeDiagError(std::move(Diag));
    }
    Env.defineConst(D.Name, *V);
    nextWorld();
    return llvm::Error::success();
  }

  /// A bare parametric name as an argument's type (`a::DeviceArray`,
  /// `t::Tuple`) is a UnionAll of that argument alone, Julia's
  /// `DeviceArray{T,N} where {T,N}`. The name's own parameter variables are
  /// shared by every mention, so two such arguments had to agree
  /// (`f(a::Tuple, b::Tuple)` matched only tuples of one length): each
  /// argument gets anonymous variables of its own (`#T`, printed bare),
  /// which dispatch binds like a method's `where` variables.
  static Type *withOwnVariables(Type *T) {
    TypeContext &C = TypeContext::get();
    if (!T->isDataType() || !T->hasTypeVars())
      return T;
    TypeName *N = T->name();
    // The name's own variables left in it: all of a bare name, the rest
    // of a partial one (`DeviceArray{T}` is `DeviceArray{T,N} where N`).
    std::vector<Type *> Vars;
    if (T == C.anyTuple())
      Vars.push_back(T->param(0));
    else if (T->params().size() == N->Params.size())
      for (size_t I = 0; I < N->Params.size(); ++I)
        if (T->param(I) == N->Params[I])
          Vars.push_back(N->Params[I]);
    if (Vars.empty())
      return T;
    std::vector<Type *> Own;
    for (Type *V : Vars) {
      std::string Name(V->varName().str());
      if (Name.empty() || Name[0] != '#')
        Name.insert(Name.begin(), '#');
      Own.push_back(
          C.typeVar(Symbol::get(Name), V->lowerBound(), V->upperBound()));
    }
    return C.substitute(T, Vars, Own);
  }

  llvm::Error loadFunction(const ast::FunctionDef &D) {
    TypeContext &C = TypeContext::get();
    auto Vars = makeVars(D.Where);
    if (!Vars)
      return Vars.takeError();
    auto M = std::make_unique<Method>();
    M->Name = D.Name;
    M->Sparams = *Vars;
    GenericFunction *F = nullptr;
    if (D.CalleeType) {
      // `Point{T}(x) where T` / `(::Type{T})(x) where T`.
      auto CT = evalTypeExpr(Env, *D.CalleeType, File, *Vars);
      if (!CT)
        return CT.takeError();
      if (!(*CT)->isTypeType())
        return typeError(File, D.CalleeType->Range,
                         "only constructor methods (`(::Type{T})(x)`) may have a "
                         "callee type, not `" + (*CT)->str() + "`");
      Type *Of = (*CT)->param(0);
      // Methods on a variable callee (`(::Type{T})(x) where T`) go to the
      // table of `Type` itself.
      F = Env.constructorFunction(Of->isDataType() ? Of->name() : C.typeTypeName());
      M->Sig.push_back(*CT);
      if (!M->Name)
        M->Name = F->Name;
    } else if (TypeName *N = Env.lookupType(D.Name); N && !Env.lookupFunction(D.Name)) {
      // `Float32(x::Int64) = ...`: a method of the constructor table.
      F = Env.constructorFunction(N);
      M->Sig.push_back(C.typeOfType(C.bareType(N)));
    } else {
      F = Env.getOrCreateFunction(D.Name);
      if (F->K == GenericFunction::BuiltinFn)
        return typeError(File, D.SigRange,
                         "cannot add methods to the builtin function `" +
                             D.Name.string() + "`",
                         "redefinition");
      M->Sig.push_back(F->type());
    }
    ErrorSink ParamErrors;
    for (const ast::Param &P : D.Params) {
      Type *T = C.any();
      if (P.Type) {
        auto PT = evalTypeExpr(Env, *P.Type, File, *Vars);
        if (!ParamErrors.ok(PT))
          continue;
        T = withOwnVariables(*PT);
      }
      M->Sig.push_back(T);
      M->ArgNames.push_back(P.Name);
    }
    if (!ParamErrors.Diags.empty())
      return makeDiagError(std::move(ParamErrors.Diags));
    std::vector<Symbol> SparamNames;
    for (Type *V : *Vars)
      SparamNames.push_back(V->varName());
    auto Lowered = lowerMethod(D, File, SparamNames);
    if (!Lowered && !D.Unsupported.empty()) {
      // What lowering says of a body the parser already found unsupported
      // is a follow-on: the method is defined with an empty body, and
      // compiling it reports the parser's errors.
      llvm::consumeError(Lowered.takeError());
      ast::FunctionDef Empty = D;
      ast::Node Block{ast::NodeKind::Block,
                      D.Body ? D.Body->Range : D.Range,
                      Symbol(),
                      ast::LitType::Int64,
                      0,
                      {}};
      Empty.Body = &Block;
      Lowered = lowerMethod(Empty, File, SparamNames);
    }
    if (!Lowered)
      return Lowered.takeError();
    M->Lowered = std::move(*Lowered);
    M->Inline = D.Inline;
    M->NoInline = D.NoInline;
    M->PropagateInbounds = D.PropagateInbounds;
    M->Parsed = PF;
    M->Def = &D;
    M->File = File;
    M->Range = D.Range;
    M->SourceText = textOf(D.Range);
    M->IsPrelude = IsPrelude;
    addMethod(F, std::move(M));
    return llvm::Error::success();
  }
};

} // namespace

llvm::Expected<Type *> evalTypeExpr(GlobalEnv &Env, const ast::Node &E,
                                    const SourceFileRef &File,
                                    std::span<Type *const> TypeVarsInScope) {
  TypeContext &C = TypeContext::get();
  auto Eval = [&](const ast::Node &N) {
    return evalTypeExpr(Env, N, File, TypeVarsInScope);
  };
  switch (E.Kind) {
  case ast::NodeKind::Literal:
    // Julia's `Tag{true}` and `Tag{0x03}` differ from `Tag{1}` and `Tag{3}`;
    // Prism's value parameters are Int64s only.
    if (E.Lit != ast::LitType::Int64) {
      static const char *const Names[] = {
          "Bool",   "Int8",   "Int16",  "Int32",   "Int64",   "UInt8",
          "UInt16", "UInt32", "UInt64", "Float16", "Float32", "Float64"};
      return typeError(File, E.Range,
                       "a type parameter is an Int64, a type or a symbol; "
                       "this literal is of type " +
                           std::string(Names[static_cast<int>(E.Lit)]) +
                           ", which Prism's types do not keep");
    }
    return C.intValue(static_cast<int64_t>(E.Bits));
  case ast::NodeKind::Quote:
    return C.symbolValue(E.Name);
  case ast::NodeKind::Ident: {
    // Innermost variables shadow outer ones and global names.
    for (auto It = TypeVarsInScope.rbegin(); It != TypeVarsInScope.rend(); ++It)
      if ((*It)->varName() == E.Name)
        return *It;
    std::string_view S = E.Name.str();
    if (S == "Any")
      return C.any();
    if (S == "nothing")
      return C.nothing();
    if (TypeName *N = Env.lookupType(E.Name))
      return C.bareType(N);
    if (const ConstValue *V = Env.lookupConst(E.Name)) {
      if (V->K == ConstValue::TypeVal)
        return V->TypeValue;
      if (V->K == ConstValue::Int)
        return C.intValue(V->asSigned());
    }
    // Julia's AbstractVector{T} = AbstractArray{T,1} and AbstractMatrix,
    // and CUDA.jl's CuDeviceVector and CuDeviceMatrix: the element type
    // stays the name's own variable, as in a bare `DeviceArray`.
    static const std::tuple<std::string_view, std::string_view, int> Aliases[] =
        {{"AbstractVector", "AbstractArray", 1},
         {"AbstractMatrix", "AbstractArray", 2},
         {"CuDeviceVector", "DeviceArray", 1},
         {"CuDeviceMatrix", "DeviceArray", 2}};
    for (const auto &[Alias, Target, Rank] : Aliases)
      if (S == Alias)
        if (TypeName *N = Env.lookupType(Symbol::get(std::string(Target))))
          if (N->Params.size() == 2) {
            std::vector<Type *> Ps{N->Params[0], C.intValue(Rank)};
            return C.apply(N, Ps);
          }
    return undefinedTypeName(Env, File, E.Range, E.Name.str());
  }
  case ast::NodeKind::Curly: {
    const ast::Node &Base = *E.Kids[0];
    std::vector<Type *> Ps;
    for (size_t I = 1; I < E.Kids.size(); ++I) {
      auto P = Eval(*E.Kids[I]);
      if (!P)
        return P.takeError();
      Ps.push_back(*P);
    }
    auto CountError = [&](std::string Name, size_t Expected) {
      return typeError(File, E.Range,
                       "wrong number of type parameters for `" + Name +
                           "`: expected " + std::to_string(Expected) + ", got " +
                           std::to_string(Ps.size()));
    };
    if (Base.Kind == ast::NodeKind::Ident) {
      std::string_view S = Base.Name.str();
      if (S == "Union")
        return C.unionOf(Ps);
      if (S == "Tuple")
        return C.tuple(Ps);
    }
    auto BT = Eval(Base);
    if (!BT)
      return BT.takeError();
    Type *B = *BT;
    if (!B->isDataType() || !B->hasTypeVars())
      return CountError(B->str(), 0);
    TypeName *N = B->name();
    if (N == C.ntupleName()) {
      if (Ps.size() != 2)
        return CountError("NTuple", 2);
      if (!Ps[0]->isIntValue() && !Ps[0]->isTypeVar())
        return typeError(File, E.Kids[1]->Range,
                         "NTuple length must be an integer, not `" + Ps[0]->str() + "`");
      if (Ps[0]->isIntValue() && Ps[0]->intValue() < 0)
        return typeError(File, E.Kids[1]->Range, "NTuple length must be non-negative");
      if (Ps[0]->isIntValue() && Ps[0]->intValue() > MaxTupleLength)
        return typeError(File, E.Kids[1]->Range,
                         "NTuple length " + std::to_string(Ps[0]->intValue()) +
                             " is over Prism's limit of " +
                             std::to_string(MaxTupleLength));
      return C.apply(N, Ps);
    }
    // `B` is the UnionAll over the name's own parameters (possibly an alias).
    if (Ps.size() > N->Params.size())
      return CountError(N->Name.string(), N->Params.size());
    // Julia allows partial application (`DeviceArray{Float32}`): the rest
    // stay the name's own variables.
    for (size_t I = Ps.size(); I < N->Params.size(); ++I)
      Ps.push_back(B->param(I));
    for (size_t I = 0; I < N->Params.size(); ++I) {
      Type *P = Ps[I];
      // An array's rank sizes tuples of dimensions: keep it small and sane.
      if (N->Name.str() == "DeviceArray" && I == 1 && P->isIntValue() &&
          (P->intValue() < 0 || P->intValue() > MaxArrayRank))
        return typeError(File, E.Kids[I + 1]->Range,
                         "array rank must be 0.." + std::to_string(MaxArrayRank) +
                             ", not " + std::to_string(P->intValue()));
      Type *Hi = N->Params[I]->upperBound();
      if (!P->isTypeVar() && !P->isValueParam() && !Hi->isAny() &&
          !isSubtype(P, Hi))
        return typeError(File, E.Kids[I + 1]->Range,
                         "type parameter `" + P->str() + "` of `" + N->Name.string() +
                             "` is not a subtype of its bound `" + Hi->str() + "`");
    }
    Type *R = C.apply(N, Ps);
    if (std::string Error = nonConcreteFieldError(R); !Error.empty())
      return typeError(File, E.Range, std::move(Error));
    return R;
  }
  case ast::NodeKind::Call:
    // `typeof(f)`: the singleton type of a function.
    if (E.Kids.size() == 2 && E.Kids[0]->Kind == ast::NodeKind::Ident &&
        E.Kids[0]->Name.str() == "typeof" && E.Kids[1]->Kind == ast::NodeKind::Ident) {
      if (GenericFunction *F = Env.lookupFunction(E.Kids[1]->Name))
        return F->type();
      // A constant's type: `x::typeof(C)` of `const C = Int32(3)`.
      if (const ConstValue *V = Env.lookupConst(E.Kids[1]->Name))
        if (V->Ty && V->K != ConstValue::TypeVal)
          return V->Ty;
      return typeError(File, E.Kids[1]->Range,
                       "undefined function `" + E.Kids[1]->Name.string() + "`",
                       "undefined");
    }
    break;
  default:
    break;
  }
  return typeError(File, E.Range, "invalid type expression");
}

std::string nonConcreteFieldError(Type *R) {
  // The rule every field type obeys at the definition, checked once the
  // parameters are known.
  if (!R->isDataType() || !R->isStruct() || R->hasTypeVars())
    return "";
  const std::vector<Symbol> &Names = R->name()->FieldNames;
  for (size_t I = 0; I < R->fieldTypes().size(); ++I)
    if (Type *F = R->fieldTypes()[I]; !F->isConcrete())
      return "field `" +
             (I < Names.size() ? Names[I].string() : std::to_string(I + 1)) +
             "` of `" + R->str() + "` would have non-concrete type `" +
             F->str() + "`; field types must be concrete after substitution";
  return "";
}

Diagnostic overwriteWarning(const Method &New, const Method &Old) {
  DiagLoc At = Old.location();
  std::string Where = llvm::sys::path::filename(At.FileName).str() + ":" +
                      std::to_string(At.Line);
  Diagnostic D = Diagnostic::error(
      "redefinition",
      "method definition `" + New.signatureString() +
          (Old.IsPrelude ? "` overwrites the prelude's (Base's) at " + Where +
                               ", for every caller, the prelude's own too"
                         : "` overwrites the one at " + Where +
                               ", which is never called"),
      New.location());
  D.Sev = Severity::Warning;
  D.note("the overwritten definition", At);
  return D;
}

llvm::Expected<LoadResult> loadFile(GlobalEnv &Env,
                                    std::shared_ptr<const ast::ParsedFile> F,
                                    bool IsPrelude) {
  assert(F && "loadFile of null");
  return FileLoader(Env, std::move(F), IsPrelude).run();
}

llvm::Error loadPrelude(GlobalEnv &Env) {
  std::vector<Diagnostic> All;
  for (const EmbeddedFile &EF : embeddedPreludeFiles()) {
    auto SF = SourceFile::create(EF.Name, std::string(EF.Data, EF.Size));
    auto R = loadFile(Env, parseFile(SF), /*IsPrelude=*/true);
    if (!R) {
      auto Ds = takeDiagnostics(R.takeError());
      All.insert(All.end(), Ds.begin(), Ds.end());
    }
  }
  if (!All.empty())
    return makeDiagError(std::move(All));
  return llvm::Error::success();
}

llvm::Expected<ParsedSignature> parseSignature(GlobalEnv &Env,
                                               std::string_view Sig) {
  auto SF = SourceFile::create("<signature>", std::string(Sig));
  auto PF = std::make_shared<ast::ParsedFile>(SF);
  ast::Node *E = parseExpression(*PF);
  std::vector<Diagnostic> Errs;
  for (const Diagnostic &D : PF->Diags)
    if (D.Sev == Severity::Error)
      Errs.push_back(D);
  if (!Errs.empty())
    return makeDiagError(std::move(Errs));
  // `123(Int)` parses as `123 * Int` (a numeric literal coefficient).
  bool StartsWithNumber =
      E && E->Range.Begin < Sig.size() && std::isdigit(Sig[E->Range.Begin]);
  if (!E || E->Kind != ast::NodeKind::Call || E->Kids.empty() ||
      E->Kids[0]->Kind != ast::NodeKind::Ident || StartsWithNumber)
    return typeError(SF, E ? E->Range : SrcRange{0, static_cast<uint32_t>(Sig.size())},
                     "expected a signature like `f(Float32, DeviceArray{Float32,1})`",
                     "usage");
  ParsedSignature Out;
  Symbol Name = E->Kids[0]->Name;
  if (GenericFunction *F = Env.lookupFunction(Name)) {
    Out.Func = F;
    Out.Callee = F->type();
  } else if (TypeName *N = Env.lookupType(Name)) {
    Out.Func = Env.constructorFunction(N);
    Out.Callee = TypeContext::get().typeOfType(TypeContext::get().bareType(N));
  } else {
    Diagnostic D = Diagnostic::error(
        "undefined", "undefined function `" + Name.string() + "`",
        locOf(SF, E->Kids[0]->Range));
    if (std::string Near = nearestFunctionName(Env, Name.str()); !Near.empty())
      D.note("did you mean `" + Near + "`?");
    return makeDiagError(std::move(D));
  }
  for (size_t I = 1; I < E->Kids.size(); ++I) {
    // `f(::Float32)`, as Prism and Julia print a signature, and `f(a::
    // Float32)`, a method's header pasted whole: the names are left out.
    const ast::Node *Arg = E->Kids[I];
    if (Arg->Kind == ast::NodeKind::TypeAssert && Arg->Kids.size() == 1)
      Arg = Arg->Kids[0];
    else if (Arg->Kind == ast::NodeKind::TypeAssert && Arg->Kids.size() == 2 &&
             Arg->Kids[0]->Kind == ast::NodeKind::Ident)
      Arg = Arg->Kids[1];
    // `map!(square, ...)`: a function where its type belongs.
    if (Arg->Kind == ast::NodeKind::Ident && !Env.lookupType(Arg->Name) &&
        !Env.lookupConst(Arg->Name) && Env.lookupFunction(Arg->Name)) {
      Errs.push_back(
          Diagnostic::error("type",
                            "`" + Arg->Name.string() +
                                "` is a function, not a type: a signature "
                                "names its type, `typeof(" +
                                Arg->Name.string() + ")`",
                            DiagLoc::fromRange(SF, Arg->Range)));
      continue;
    }
    auto T = evalTypeExpr(Env, *Arg, SF);
    if (!T) {
      auto Ds = takeDiagnostics(T.takeError());
      Errs.insert(Errs.end(), Ds.begin(), Ds.end());
      continue;
    }
    // `g(1)`: a value where an argument type belongs (values are only type
    // parameters, as in `NTuple{3,Int}`).
    if ((*T)->isValueParam()) {
      Errs.push_back(Diagnostic::error(
          "type",
          "`" + (*T)->str() +
              "` is a value, not a type: a signature lists argument types (`" +
              ((*T)->isIntValue() ? "Int64" : "Symbol") + "`, not `" +
              (*T)->str() + "`)",
          DiagLoc::fromRange(SF, Arg->Range)));
      continue;
    }
    Out.ArgTypes.push_back(*T);
  }
  if (!Errs.empty())
    return makeDiagError(std::move(Errs));
  return Out;
}

} // namespace prism
