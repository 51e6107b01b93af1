/// \file
/// The kernel language's types, hash-consed so that type equality is pointer
/// equality (as Julia's `===` on concrete types).
///
/// A `Type` is one of:
///  - `Any`, `Union{}` (Bottom);
///  - a `DataType`: a `TypeName` applied to parameters (`Int64`,
///    `Ptr{Float32}`, `Tuple{Int64,Float32}`, `DeviceArray{Float32,1}`,
///    `Type{Float32}`, `typeof(square)`, abstract `Real`,
///    `AbstractArray{T,N}`);
///  - a `Union` of two or more types (flattened, sorted, deduplicated);
///  - a `TypeVar` (a `where` variable with lower/upper bounds), appearing only
///    inside method signatures and TypeName field/super patterns;
///  - an integer value used as a type parameter (the `1` in
///    `DeviceArray{Float32,1}`, the `N` of `NTuple{N,T}` once bound);
///  - a symbol used as a type parameter (the `:π` in `Irrational{:π}`).
///
/// `NTuple{N,T}` is not a TypeName: it is `Tuple{T, T, ...}` (N times), as in
/// Julia. `Int` and `UInt` are aliases of `Int64`/`UInt64`.
///
/// All types live for the whole process in one thread-safe `TypeContext`.
#pragma once

#include "support/SourceFile.h"
#include "support/Symbol.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace prism {

class Type;
class TypeName;
class GenericFunction;

enum class TypeKind : uint8_t {
  Any,
  Bottom,
  DataType,
  Union,
  TypeVar,
  IntValue,
  SymbolValue
};

/// What a family of DataTypes is.
enum class TypeNameKind : uint8_t {
  Abstract,  ///< `abstract type Real <: Number end`
  Primitive, ///< Bool, Int8..UInt64, Float16/32/64, Ptr{T}
  Struct,    ///< user and prelude structs (immutable); Nothing is a fieldless struct
  Tuple,     ///< Tuple{...}: any number of parameters, covariant
  TypeType,  ///< Type{T}: the type of the value T
  Function,  ///< typeof(f): zero-size singleton of a generic function
};

/// A family of DataTypes sharing a name and parameter list.
class TypeName {
public:
  Symbol Name;
  TypeNameKind Kind = TypeNameKind::Struct;
  /// Declared parameters (`T`, `N` of `DeviceArray{T,N}`), as TypeVars.
  std::vector<Type *> Params;
  /// Supertype pattern, may mention Params (`AbstractArray{T,N}`); null for Any.
  Type *Super = nullptr;
  /// Struct fields: names and type patterns (may mention Params).
  std::vector<Symbol> FieldNames;
  std::vector<Type *> FieldTypes;
  /// Primitive types: size in bits, and numeric class.
  uint32_t BitWidth = 0;
  bool IsSigned = false, IsFloat = false, IsPointer = false, IsBool = false;
  /// For Kind == Function: the function whose singleton type this is.
  GenericFunction *Func = nullptr;
  /// Where it was defined (null for builtin types).
  SourceFileRef File;
  SrcRange Range;
};

class Type {
public:
  TypeKind kind() const { return K; }
  bool isAny() const { return K == TypeKind::Any; }
  bool isBottom() const { return K == TypeKind::Bottom; }
  bool isDataType() const { return K == TypeKind::DataType; }
  bool isUnion() const { return K == TypeKind::Union; }
  bool isTypeVar() const { return K == TypeKind::TypeVar; }
  bool isIntValue() const { return K == TypeKind::IntValue; }
  bool isSymbolValue() const { return K == TypeKind::SymbolValue; }
  /// A value used as a type parameter (`1`, `:π`), not a type.
  bool isValueParam() const { return isIntValue() || isSymbolValue(); }

  // DataType
  TypeName *name() const { return Name; }
  std::span<Type *const> params() const { return Params; }
  Type *param(unsigned I) const { return Params[I]; }
  /// Instantiated supertype (null for Any's direct children via Any).
  Type *super() const { return Super; }
  /// Instantiated field types of a struct (empty otherwise).
  std::span<Type *const> fieldTypes() const { return Fields; }
  std::span<const Symbol> fieldNames() const;
  /// Index of a field by name, or -1.
  int fieldIndex(Symbol Field) const;

  // Union
  std::span<Type *const> members() const { return Params; }

  // TypeVar
  Symbol varName() const { return VarName; }
  Type *lowerBound() const { return Lower; }
  Type *upperBound() const { return Upper; }

  // IntValue
  int64_t intValue() const { return IntVal; }
  // SymbolValue
  Symbol symbolValue() const { return VarName; }

  // Classification helpers (DataType only; false otherwise).
  bool isAbstract() const;
  bool isPrimitive() const;
  bool isStruct() const;
  bool isTuple() const;
  bool isTypeType() const; ///< Type{T}
  bool isFunctionType() const;
  bool isInteger() const;  ///< Bool excluded
  bool isSignedInt() const;
  bool isUnsignedInt() const;
  bool isFloat() const;
  bool isBool() const;
  bool isPointer() const;  ///< Ptr{T}
  bool isNothing() const;
  /// Concrete: may be the type of a runtime value (no TypeVars, not abstract,
  /// not a Union; Tuple of concrete types; Type{T} for concrete-enough T).
  bool isConcrete() const { return Concrete; }
  /// Contains a TypeVar somewhere.
  bool hasTypeVars() const { return HasVars; }
  /// Zero-size singleton (Nothing, typeof(f), Type{T}, fieldless structs).
  bool isSingleton() const;
  unsigned bitWidth() const;
  /// Julia's sizeof: the bytes of a concrete primitive, struct or tuple,
  /// its fields laid out as Julia does (each at a multiple of its own
  /// alignment, the whole padded to the largest); none for other types.
  std::optional<uint64_t> juliaSizeOf() const;

  /// Julia's printing: `Int64`, `DeviceArray{Float32, 1}`,
  /// `Union{Float32, Int64}`, `typeof(square)`, `Type{Float32}`.
  std::string str() const;

private:
  friend class TypeContext;
  TypeKind K = TypeKind::Any;
  bool Concrete = false, HasVars = false;
  TypeName *Name = nullptr;
  std::vector<Type *> Params; ///< DataType params or Union members
  Type *Super = nullptr;
  std::vector<Type *> Fields;
  Symbol VarName;
  Type *Lower = nullptr, *Upper = nullptr;
  int64_t IntVal = 0;
  uint64_t Hash = 0;
};

/// The process-wide type universe. Every factory interns: structurally equal
/// requests return the same pointer. Thread-safe.
class TypeContext {
public:
  static TypeContext &get();

  Type *any();
  Type *bottom();
  Type *boolTy();
  Type *int8(); Type *int16(); Type *int32(); Type *int64();
  Type *uint8(); Type *uint16(); Type *uint32(); Type *uint64();
  Type *float16(); Type *float32(); Type *float64();
  Type *nothing();
  Type *intValue(int64_t V);
  Type *symbolValue(Symbol S); ///< the `:π` of `Irrational{:π}`
  Type *ptr(Type *Elt);
  Type *tuple(std::span<Type *const> Elts);
  Type *ntuple(unsigned N, Type *Elt) {
    std::vector<Type *> E(N, Elt);
    return tuple(E);
  }
  Type *typeOfType(Type *T); ///< Type{T}
  Type *unionOf(std::span<Type *const> Members);
  Type *unionOf(Type *A, Type *B) {
    Type *M[] = {A, B};
    return unionOf(M);
  }
  /// Apply a TypeName to parameters, substituting into super and field
  /// patterns. Parameter count must match (asserts).
  Type *apply(TypeName *N, std::span<Type *const> Params);
  /// A fresh TypeVar (not interned: each `where T` is its own variable).
  Type *typeVar(Symbol Name, Type *Lower = nullptr, Type *Upper = nullptr);

  /// Builtin type names: "Number", "Real", "Integer", "Signed",
  /// "Unsigned", "AbstractFloat", "AbstractArray", "Bool", "Int8".."UInt64",
  /// "Float16".."Float64", "Nothing", "Ptr", "Tuple", "Type", "Function",
  /// plus aliases "Int"/"UInt" and the internal "NTuple". Null when unknown
  /// and for "Any" and "Union" (not TypeNames: use any() / unionOf()).
  TypeName *builtinName(Symbol Name);
  /// Registers a user/prelude type name (struct or abstract type).
  TypeName *createTypeName(TypeName Proto);
  /// The singleton type typeof(F), created on first request.
  Type *functionType(GenericFunction *F);

  /// The internal `NTuple` name: `NTuple{N,T}` with N a TypeVar (field
  /// patterns such as `dims::NTuple{N,Int}`, signatures such as
  /// `length(t::NTuple{N,T}) where {N,T}`). Applying it to an IntValue N
  /// yields the plain `Tuple{T, T, ...}`, so concrete types never mention it.
  TypeName *ntupleName();
  TypeName *tupleName();
  TypeName *typeTypeName();
  /// Bare `Tuple` (any tuple): `NTuple{#N, Any}` with an anonymous N.
  Type *anyTuple();
  /// The UnionAll of a name as a type: `DeviceArray{T,N}` over the name's own
  /// parameter TypeVars, `Type{#T}` for bare `Type`. Non-parametric names
  /// give the plain DataType.
  Type *bareType(TypeName *N);

  /// Substitute TypeVars (by pointer) with the given bindings.
  Type *substitute(Type *T, std::span<Type *const> Vars,
                   std::span<Type *const> Values);

private:
  TypeContext();
  struct Impl;
  Impl *P;
};

/// Julia's `<:` (A and B may be abstract, Unions, Any, Bottom). Invariance of
/// DataType parameters, covariance of Tuple, `Type{T} <: Type`,
/// `Bool <: Integer`. TypeVars that occur in B but not in A are existential
/// (`DeviceArray{Float32,1} <: DeviceArray` where bare `DeviceArray` is
/// `DeviceArray{T,N}` over the name's own parameters); TypeVars of A stand
/// for any type within their bounds.
bool isSubtype(Type *A, Type *B);
/// Julia's typejoin-free `Union` join used by inference: returns A ∪ B as a
/// normalized Union (or the wider one when one is a subtype of the other).
Type *typeJoin(Type *A, Type *B);
/// Julia's `typejoin`: the least common supertype (`Signed` for Int8 and
/// Int64, `Real` for Int64 and Float64, `Tuple{Int64, Real}` elementwise).
Type *commonSuper(Type *A, Type *B);
/// Type intersection (Bottom when disjoint); conservative where exactness
/// would need full Julia subtyping.
Type *typeIntersect(Type *A, Type *B);

/// `A <: B && B <: A` (pointer equality for types without TypeVars, thanks to
/// interning; needed for signatures whose `where` variables are distinct
/// TypeVar objects).
bool typeEqual(Type *A, Type *B);

/// Dispatch matching: `Tuple{Args...} <: Tuple{Pattern...} where {Sparams...}`.
/// Args are usually concrete; TypeVars in Args (a method signature compared
/// for specificity) stand for any type within their bounds. TypeVars of
/// Pattern are bound as Julia does: invariantly inside parameters
/// (`DeviceArray{T,1}`), covariantly at top level and in tuples (checked
/// against their bounds), and with the diagonal rule (`f(a::T, b::T)`: T
/// must be concrete and equal). On success and if SparamValues is non-null,
/// it receives the value of each Sparams entry (null when left unbound, as
/// `T` of `f(t::NTuple{N,T})` for an empty tuple).
bool matchTypes(std::span<Type *const> Args, std::span<Type *const> Pattern,
                std::span<Type *const> Sparams,
                std::vector<Type *> *SparamValues = nullptr);

/// Julia's typeintersect of a call's argument types with a method's
/// signature, as abstract call inference needs it: the argument types that
/// may reach that method. Unknown where this cannot compute it exactly (a
/// variable inside a parameter, `x::T` meeting `v::Vector{T}`); callers
/// then assume nothing.
struct SignatureMeet {
  enum { Disjoint, Unknown, Found } Kind;
  std::vector<Type *> Types; ///< when Found
};
SignatureMeet intersectSignature(std::span<Type *const> Sig,
                                 std::span<Type *const> Pattern,
                                 std::span<Type *const> Sparams);

} // namespace prism
