/// \file
/// Helpers for the type-system tests: builtin types by name and the
/// prelude's `DeviceArray{T,N}` built by hand (so that these tests do not
/// depend on the parser or the prelude).
#pragma once

#include "types/Method.h"
#include "types/Type.h"

#include <string_view>
#include <vector>

namespace prism::testutil {

inline TypeContext &ctx() { return TypeContext::get(); }

/// A builtin type by name; parametric names give their UnionAll (`Ptr`).
inline Type *ty(const char *Name) {
  if (std::string_view(Name) == "Any")
    return ctx().any(); // Any is a TypeKind, not a TypeName
  TypeName *N = ctx().builtinName(Symbol::get(Name));
  return N ? ctx().bareType(N) : nullptr;
}

inline Type *tup(std::vector<Type *> Es) { return ctx().tuple(Es); }
inline Type *uni(std::vector<Type *> Ms) { return ctx().unionOf(Ms); }
inline Type *tv(const char *Name, Type *Upper = nullptr) {
  return ctx().typeVar(Symbol::get(Name), nullptr, Upper);
}

/// `struct DeviceArray{T,N} <: AbstractArray{T,N} ptr::Ptr{T};
/// dims::NTuple{N,Int} end`, created once per process.
inline TypeName *deviceArrayName() {
  static TypeName *DA = [] {
    TypeContext &C = ctx();
    TypeName Proto;
    Proto.Name = Symbol::get("DeviceArray");
    Proto.Kind = TypeNameKind::Struct;
    Type *T = C.typeVar(Symbol::get("T"));
    Type *N = C.typeVar(Symbol::get("N"));
    Proto.Params = {T, N};
    Type *AAParams[] = {T, N};
    Proto.Super = C.apply(C.builtinName(Symbol::get("AbstractArray")), AAParams);
    Proto.FieldNames = {Symbol::get("ptr"), Symbol::get("dims")};
    Type *NT[] = {N, C.int64()};
    Proto.FieldTypes = {C.ptr(T), C.apply(C.ntupleName(), NT)};
    return C.createTypeName(std::move(Proto));
  }();
  return DA;
}

inline Type *devArray(Type *Elt, int64_t Dims) {
  Type *Ps[] = {Elt, ctx().intValue(Dims)};
  return ctx().apply(deviceArrayName(), Ps);
}
inline Type *devArray(Type *Elt, Type *Dims) {
  Type *Ps[] = {Elt, Dims};
  return ctx().apply(deviceArrayName(), Ps);
}
inline Type *absArray(Type *Elt, Type *Dims) {
  Type *Ps[] = {Elt, Dims};
  return ctx().apply(ctx().builtinName(Symbol::get("AbstractArray")), Ps);
}

} // namespace prism::testutil
