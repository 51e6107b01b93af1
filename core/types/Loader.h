/// \file
/// Loading definitions into a GlobalEnv: structs and abstract types become
/// TypeNames, `const`s bindings, functions Methods (signatures evaluated,
/// bodies lowered), each definition in the next world. Also the parsing of
/// `SIG` strings (`'saxpy!(Float32, DeviceArray{Float32,1})'`) into a
/// function plus argument types.
#pragma once

#include "lang/AST.h"
#include "support/Diagnostic.h"
#include "types/Method.h"

#include "llvm/Support/Error.h"

#include <string_view>
#include <vector>

namespace prism {

struct LoadResult {
  std::vector<Method *> Added;    ///< new methods (including replacements)
  std::vector<Method *> Replaced; ///< methods whose range was ended
  World FirstWorld = 0, LastWorld = 0;
  /// A method defined twice in one load: the second overwrites the first,
  /// which Julia warns about (an edit replacing a method of an earlier
  /// load is what editing is, and no warning).
  std::vector<Diagnostic> Warnings;
};

/// The error of a struct type whose field is not concrete once its
/// parameters are bound (`W{Real}` of `struct W{T}; x::T; end`): field
/// types must be concrete after substitution. Empty when R is fine or not
/// a fully bound struct.
std::string nonConcreteFieldError(Type *R);

/// Julia's warning that defining New overwrote Old (same signature): a
/// method defined twice in one file, or one of the prelude's (Base's).
Diagnostic overwriteWarning(const Method &New, const Method &Old);

/// Loads every definition of a parsed file; gathers all errors (parse errors
/// included) into one DiagnosticError.
llvm::Expected<LoadResult> loadFile(GlobalEnv &Env,
                                    std::shared_ptr<const ast::ParsedFile> F,
                                    bool IsPrelude = false);

/// Parses and loads the embedded prelude (core/prelude/*.jl).
llvm::Error loadPrelude(GlobalEnv &Env);

/// A function plus its argument types (the callee's type is not included).
struct ParsedSignature {
  GenericFunction *Func = nullptr;
  std::vector<Type *> ArgTypes;
  /// The callee's type: typeof(f), or `Type{Float32}` / `Type{Point}` (the
  /// bare UnionAll) when the name is a type (a constructor call, dispatched
  /// in Env.constructorFunction(N)).
  Type *Callee = nullptr;
  /// [Callee, ArgTypes...]: what GenericFunction::lookup takes.
  std::vector<Type *> lookupTypes() const {
    std::vector<Type *> V{Callee};
    V.insert(V.end(), ArgTypes.begin(), ArgTypes.end());
    return V;
  }
};

/// Parses `name(T1, T2, ...)` against Env's bindings. Errors name the
/// position inside the string.
llvm::Expected<ParsedSignature> parseSignature(GlobalEnv &Env,
                                               std::string_view Sig);

/// Evaluates a type expression AST (`DeviceArray{Float32,1}`, `NTuple{3,Int}`,
/// `Union{Int32,Float32}`) with the given TypeVars in scope.
llvm::Expected<Type *> evalTypeExpr(GlobalEnv &Env, const ast::Node &E,
                                    const SourceFileRef &File,
                                    std::span<Type *const> TypeVarsInScope = {});

} // namespace prism
