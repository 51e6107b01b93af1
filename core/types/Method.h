/// \file
/// Generic functions, methods, method tables with world ages, and the global
/// environment (bindings) that a program's definitions live in.
///
/// As in Julia, every definition gets the next world: a `Method` is visible
/// in worlds [PrimaryWorld, DeletedWorld). Replacing a method (same function,
/// same signature) ends the old one's range and starts the new one's.
/// Dispatch picks the most specific applicable method in a given world.
#pragma once

#include "lang/IR.h"
#include "support/Diagnostic.h"
#include "support/SourceFile.h"
#include "support/Symbol.h"
#include "types/Type.h"

#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <span>
#include <unordered_map>
#include <vector>

namespace prism {

namespace ast {
struct FunctionDef;
class ParsedFile;
} // namespace ast

using World = uint64_t;
constexpr World WorldInfinity = std::numeric_limits<World>::max();

class Method {
public:
  GenericFunction *Func = nullptr;
  Symbol Name;
  /// Full signature including the callee: `[typeof(f), T1, T2...]` or
  /// `[Type{Float32}, Float64]` for a conversion method. May mention Sparams.
  std::vector<Type *> Sig;
  /// The `where` variables (TypeVars), in declaration order.
  std::vector<Type *> Sparams;
  std::vector<Symbol> ArgNames; ///< without #self#
  bool Inline = false, NoInline = false;
  /// `@propagate_inbounds`: an @inbounds call of it is @inbounds inside.
  bool PropagateInbounds = false;
  /// Lowered body (Julia lowers at definition time).
  std::shared_ptr<const CodeInfo> Lowered;
  /// Keeps the AST alive for views that want it.
  std::shared_ptr<const ast::ParsedFile> Parsed;
  const ast::FunctionDef *Def = nullptr;
  SourceFileRef File;
  SrcRange Range;
  /// The definition's source text (content key for the disk cache and for
  /// deciding whether an edit changed this method).
  std::string SourceText;
  World PrimaryWorld = 0;
  std::atomic<World> DeletedWorld{WorldInfinity};
  bool IsPrelude = false;

  bool visibleIn(World W) const {
    return PrimaryWorld <= W && W < DeletedWorld.load(std::memory_order_acquire);
  }
  /// `f(::Float32, ::DeviceArray{Float32, 1})` as Julia prints methods.
  std::string signatureString() const;
  DiagLoc location() const { return DiagLoc::fromRange(File, Range); }
};

struct MethodMatch {
  Method *M = nullptr;
  std::vector<Type *> SparamValues; ///< bindings of M->Sparams, same order
  /// The world range in which this lookup gives the same answer.
  World MinWorld = 0, MaxWorld = WorldInfinity;
};

enum class LookupStatus { Found, NoMethod, Ambiguous };

struct LookupResult {
  LookupStatus Status = LookupStatus::NoMethod;
  MethodMatch Match;
  /// NoMethod: closest candidates (same arity first); Ambiguous: the two (or
  /// more) equally specific methods.
  std::vector<Method *> Candidates;
};

class GenericFunction {
public:
  enum Kind : uint8_t { Generic, BuiltinFn };
  Symbol Name;
  Kind K = Generic;
  Builtin BuiltinId = Builtin::None;
  /// For constructor/conversion tables: the type name whose calls this
  /// function's methods implement (`Float32(x)`, `Point(1, 2)`).
  TypeName *ConstructorOf = nullptr;

  /// Dispatch on concrete argument types (callee type first) in world W.
  LookupResult lookup(std::span<Type *const> ArgTypes, World W) const;
  /// Every method visible in W (for views and for "closest candidates").
  std::vector<Method *> methodsIn(World W) const;
  /// Adds M (M->PrimaryWorld already set); returns the method it replaces
  /// (same signature, visible before) after capping its DeletedWorld.
  Method *addMethod(std::unique_ptr<Method> M);
  Type *type() const; ///< typeof(f)

private:
  friend class TypeContext;
  mutable std::mutex Lock;
  std::vector<std::unique_ptr<Method>> Methods; ///< all, including deleted ones
  /// typeof(f), created on first use. Kept here rather than in a map keyed
  /// by address: types outlive functions, and a freed function's address
  /// may be reused by a new one that must get a type of its own.
  mutable std::atomic<Type *> SelfType{nullptr};
};

/// A and B have the same signature up to renaming of `where` variables:
/// defining B replaces A.
bool sameSignature(const Method &A, const Method &B);

/// `A` strictly more specific than `B` (Julia's `morespecific`): A's
/// signature is a subtype of B's (where-variables by their bounds, B's bound
/// as needed) and not the other way round. Used by dispatch and ambiguity
/// detection.
bool isMoreSpecific(const Method &A, const Method &B);

/// `f(::Float32, ::Int64)` as Julia prints a call in a MethodError; the
/// callee type prints as `f` for typeof(f) and `Point{Float32}` for
/// Type{Point{Float32}} (constructor calls). ArgTypes exclude the callee.
std::string callSignatureString(Type *CalleeT, std::span<Type *const> ArgTypes,
                                Symbol Name);

/// The user-facing error of a failed lookup (R.Status != Found): kind
/// "no-method" (`no method matching f(::Float32, ::Int64)` with the closest
/// candidates as notes, each with its file:line) or "ambiguous"
/// (`f(::Int64, ::Int64) is ambiguous`, naming every candidate with its
/// file:line and Julia's "possible fix" hint). ArgTypes include the callee.
Diagnostic dispatchDiagnostic(const GenericFunction &F,
                              std::span<Type *const> ArgTypes,
                              const LookupResult &R, DiagLoc CallSite);

/// The bindings of a program: functions, types and constants by name, and
/// the world counter. The Workspace owns one; the prelude is loaded first.
class GlobalEnv {
public:
  GlobalEnv();
  World currentWorld() const { return WorldCounter.load(std::memory_order_acquire); }
  /// Advances the world and returns the new one (each definition gets one).
  World nextWorld() { return WorldCounter.fetch_add(1, std::memory_order_acq_rel) + 1; }

  /// Function binding, created on first use.
  GenericFunction *getOrCreateFunction(Symbol Name);
  GenericFunction *lookupFunction(Symbol Name) const;
  /// The constructor table of a type name (`Float32(x)` dispatches here).
  /// Its methods' callee type is `Type{Float32}`, `Type{Point}` (bare
  /// UnionAll: the default `Point(x::T, y::T) where T`) or `Type{Point{T}}`
  /// (`Point{T}(x, y) where T`). Methods whose callee is a variable
  /// (`(::Type{T})(x) where {T<:Number}`) live in the table of `Type`
  /// itself: constructorFunction(TypeContext::get().typeTypeName()).
  GenericFunction *constructorFunction(TypeName *N);
  /// The table a call dispatches in, from the callee's type: typeof(f) →
  /// f; Type{X} → X's constructor table; null otherwise. When the
  /// constructor table answers NoMethod, a caller should retry in the
  /// `Type` table (see constructorFunction).
  GenericFunction *callTable(Type *CalleeT);
  TypeName *lookupType(Symbol Name) const;   ///< user, prelude and builtin types
  void defineType(TypeName *N);
  const ConstValue *lookupConst(Symbol Name) const;
  void defineConst(Symbol Name, ConstValue V);
  /// All generic functions (for views and the "add job" dialog).
  std::vector<GenericFunction *> functions() const;
  /// All type names bound (user, prelude and builtin), for suggestions.
  std::vector<TypeName *> typeNames() const;

private:
  std::atomic<World> WorldCounter{1};
  mutable std::mutex Lock;
  std::unordered_map<Symbol, std::unique_ptr<GenericFunction>> Functions;
  std::unordered_map<TypeName *, std::unique_ptr<GenericFunction>> Constructors;
  std::unordered_map<Symbol, TypeName *> Types;
  std::unordered_map<Symbol, ConstValue> Consts;
};

} // namespace prism
