/// \file
/// Lowering: one method's AST to the flat lowered IR (`CodeInfo`), as
/// Julia's `code_lowered` shows it.
#pragma once

#include "lang/AST.h"
#include "lang/IR.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <span>

namespace prism {

/// The longest tuple: an `NTuple{N, T}` in a type, and a tuple literal
/// (compiling a longer one takes minutes, growing faster than its length).
constexpr int64_t MaxTupleLength = 1024;

/// Lowers a function body. `StaticParams` are the `where` variable names
/// (they lower to IRValue::StaticParam). Errors (e.g. `break` outside a
/// loop, assignment to a field of an immutable struct) are diagnostics.
///
/// Conventions (see Lowering.cpp for the full list): slot 0 is `#self#`,
/// slots 1..N the arguments, then one slot per distinct local name in order
/// of first assignment, then temporaries (named `#temp#`). Operators and
/// unresolved names are IRValue::Global; `x.f` is `getfield(x, :f)`,
/// `a[i]` `getindex(a, i)`, `a[i] = v` `setindex!(a, v, i)`, `(a, b)`
/// `tuple(a, b)`, `x::T` `typeassert(x, T)`, `S{T}` `apply_type(S, T)`.
llvm::Expected<std::shared_ptr<CodeInfo>>
lowerMethod(const ast::FunctionDef &Def, const SourceFileRef &File,
            std::span<const Symbol> StaticParams);

/// The constant a literal denotes, typed through TypeContext (`1` Int64,
/// `1.0f0` Float32, `0x1f` UInt8, `true` Bool).
ConstValue literalConstant(ast::LitType T, uint64_t Bits);

} // namespace prism
