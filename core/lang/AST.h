/// \file
/// The syntax tree of the kernel language, shaped like Julia's `Expr`:
/// expressions and statements are generic `Node`s (a kind, a source range,
/// children, and a name or literal), top-level definitions are small structs.
/// Every node keeps its source range. Nodes are arena-allocated and owned by
/// the `ParsedFile` that produced them.
#pragma once

#include "support/Diagnostic.h"
#include "support/SourceFile.h"
#include "support/Symbol.h"

#include "llvm/Support/Allocator.h"

#include <cstdint>
#include <memory>
#include <variant>
#include <vector>

namespace prism::ast {

/// The type a numeric literal has, as Julia types it (`1` Int64, `1.0f0`
/// Float32, `0x1f` UInt8 by digit count, `true` Bool).
enum class LitType : uint8_t {
  Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64,
  Float16, Float32, Float64
};

enum class NodeKind : uint8_t {
  // Leaves.
  Literal,    ///< Lit/Bits
  Ident,      ///< Name (also operators used as values: `+`, and `nothing`)
  // Expressions.
  Call,       ///< Kids[0] callee, Kids[1..] arguments (operators are calls)
  Curly,      ///< Kids[0] base, Kids[1..] parameters: `DeviceArray{Float32,1}`
  Dot,        ///< Kids[0] object, Name field: `x.f`
  Index,      ///< Kids[0] array, Kids[1..] indices: `a[i, j]`
  Tuple,      ///< Kids elements: `(a, b)`, `(a,)`, `()`
  Ternary,    ///< Kids cond, then, else: `c ? a : b`
  And,        ///< Kids lhs, rhs: `a && b`
  Or,         ///< Kids lhs, rhs: `a || b`
  Assign,     ///< Kids lhs, rhs; lhs is Ident, Index, Dot or Tuple (destructuring)
  OpAssign,   ///< Name operator ("+", "÷", "<<"...), Kids lhs, rhs: `a += b`
  TypeAssert, ///< Kids expr, type: `x::T`
  Range,      ///< Kids start, stop or start, step, stop: `a:b`, `a:s:b`
  Macro,      ///< Name "inbounds"/"boundscheck"/"inline"/"noinline", Kids args
  // Statements.
  Block,      ///< Kids statements (`begin ... end`, function bodies, branches)
  If,         ///< Kids cond, then-Block[, else: Block or nested If for elseif]
  While,      ///< Kids cond, body-Block
  For,        ///< Name loop variable, Kids iterable (usually Range), body-Block
  Break,
  Continue,
  Return,     ///< Kids [value]; bare `return` has no kids
};

struct Node {
  NodeKind Kind;
  SrcRange Range;
  Symbol Name;            ///< Ident, Dot field, OpAssign operator, Macro, For var
  LitType Lit = LitType::Int64;
  uint64_t Bits = 0;      ///< Literal: integer bits, or the float's bits at its width
  std::vector<Node *> Kids;
};

/// `name::Type` in a parameter list or a struct body; Name may be empty for
/// `::Type{T}`; Type may be null (untyped means `::Any`).
struct Param {
  Symbol Name;
  Node *Type = nullptr;
  SrcRange Range;
};

/// `T<:Real` in `where {T<:Real}` or a struct's `{T,N}`.
struct WhereVar {
  Symbol Name;
  Node *Upper = nullptr; ///< null means Any
  Node *Lower = nullptr; ///< null means Union{}
  SrcRange Range;
};

struct FunctionDef {
  /// The function's name: an identifier, an operator (`+`, `==`), or a type
  /// name for constructor/conversion methods (`Float32(x::Int64) = ...`).
  Symbol Name;
  /// For `(::Type{T})(x) where {T} = ...` style definitions: the callee's
  /// type expression; null for ordinary named functions.
  Node *CalleeType = nullptr;
  std::vector<Param> Params;
  std::vector<WhereVar> Where;
  Node *ReturnType = nullptr; ///< `f(x)::T = ...`
  Node *Body = nullptr;       ///< a Block
  bool Inline = false, NoInline = false, ShortForm = false;
  SrcRange Range;    ///< the whole definition
  SrcRange SigRange; ///< `name(args...) where {...}`
};

struct StructDef {
  Symbol Name;
  std::vector<WhereVar> Params;
  Node *Super = nullptr;
  std::vector<Param> Fields;
  SrcRange Range;
};

struct AbstractDef {
  Symbol Name;
  std::vector<WhereVar> Params;
  Node *Super = nullptr;
  SrcRange Range;
};

struct ConstDef {
  Symbol Name;
  Node *Value = nullptr;
  SrcRange Range;
};

using TopLevel = std::variant<FunctionDef *, StructDef *, AbstractDef *, ConstDef *>;

/// The result of parsing one file: definitions in source order plus every
/// diagnostic found (parsing recovers, so there may be several).
class ParsedFile {
public:
  explicit ParsedFile(SourceFileRef F) : File(std::move(F)) {}
  SourceFileRef File;
  std::vector<TopLevel> Defs;
  std::vector<Diagnostic> Diags;
  bool hasErrors() const;

  template <typename T, typename... Args> T *make(Args &&...A) {
    T *P = Alloc.Allocate<T>();
    new (P) T{std::forward<Args>(A)...};
    Owned.push_back([P] { P->~T(); });
    return P;
  }
  ~ParsedFile() {
    for (auto &D : Owned)
      D();
  }

private:
  llvm::BumpPtrAllocator Alloc;
  std::vector<std::function<void()>> Owned;
};

} // namespace prism::ast
