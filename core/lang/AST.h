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
#include <functional>
#include <memory>
#include <string>
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
  Literal, ///< Lit/Bits
  Ident,   ///< Name (also operators used as values: `+`, and `nothing`)
  Quote,   ///< Name: a symbol, `:π` (a type parameter in `Irrational{:π}`)
  // Expressions.
  Call,    ///< Kids[0] callee, Kids[1..] arguments (operators are calls)
  Curly,   ///< Kids[0] base, Kids[1..] parameters: `DeviceArray{Float32,1}`
  Dot,     ///< Kids[0] object, Name field: `x.f`
  Index,   ///< Kids[0] array, Kids[1..] indices: `a[i, j]`
  Tuple,   ///< Kids elements: `(a, b)`, `(a,)`, `()`
  Ternary, ///< Kids cond, then, else: `c ? a : b`
  And,     ///< Kids lhs, rhs: `a && b`
  Or,      ///< Kids lhs, rhs: `a || b`
  Assign,  ///< Kids lhs, rhs; lhs is Ident, Index, Dot or Tuple (destructuring)
  OpAssign,   ///< Name operator ("+", "÷", "<<"...), Kids lhs, rhs: `a += b`
  TypeAssert, ///< Kids expr, type: `x::T`
  Range,      ///< Kids start, stop or start, step, stop: `a:b`, `a:s:b`
  Macro,      ///< Name "inbounds"/"boundscheck"/"inline"/"noinline", Kids args
  // Statements.
  Block, ///< Kids statements (`begin ... end`, function bodies, branches)
  If,    ///< Kids cond, then-Block[, else: Block or nested If for elseif]
  While, ///< Kids cond, body-Block
  /// Name loop variable, Kids iterable (usually Range), body-Block and, for
  /// `for (i, x) in it`, a Tuple of the names taken apart from the hidden
  /// Name. Bits = 1 on the inner loops of `for i in a, j in b`, whose
  /// `break` leaves the outer one too.
  For,
  Break,
  Continue,
  Return, ///< Kids [value]; bare `return` has no kids
  /// `let a = 1, (b, c) = t, d; body end`: Kids[0] a Block of the
  /// bindings (a name or names, or an Assign to them), Kids[1] the body
  /// Block, a scope of its own.
  Let,
  /// `local x`, `local a, b = t`, `local x += 1`: Kids[0] the declaration
  /// (a name or a Tuple of names, or an Assign/OpAssign to them); the names
  /// are the enclosing scope's own.
  Local,
  // Only in signatures, and the parser's recovery.
  Where, ///< Kids[0] signature, Kids[1..] vars (Ident, or Call `<:`/`>:`)
  Error, ///< placeholder for a construct that failed to parse
};

struct Node {
  NodeKind Kind;
  SrcRange Range;
  Symbol Name;            ///< Ident, Dot field, OpAssign operator, Macro, For var
  LitType Lit = LitType::Int64;
  uint64_t Bits = 0;      ///< Literal: integer bits, or the float's bits at its width
  std::vector<Node *> Kids;
  /// Height of this subtree (a leaf is 1). The parser bounds it so that
  /// recursive passes over the tree (lowering, printing) cannot overflow
  /// the stack.
  uint32_t Height = 1;
};

// Conventions the parser follows (later passes rely on them):
//  - operators are Calls whose callee is an Ident spelled as in Julia
//    (`+`, `==`, `!=`, `÷`, `⊻`, `<<`, `<:`, unary `-` has one argument);
//    `≤ ≥ ≠ ≡` are normalised to `<= >= != ===`;
//  - a comparison chain `a < b <= c` becomes And(Call(<,a,b), Call(<=,b,c))
//    (the middle operand node is shared by both calls);
//  - `-1`, `-1.5f0` (minus directly before a literal, not before `^`) are
//    negative literals, as in Julia;
//  - TypeAssert with a single kid is the anonymous `::T` of a parameter list;
//  - `true`/`false` are Bool Literals, `nothing` is an Ident;
//  - a function body, `begin` block, loop body and branch is a Block;
//    `elseif` is an If nested as the else-part of the outer If;
//  - Macro `@inbounds`/`@boundscheck` has one kid (the annotated expression).

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
  /// type expression (`Type{T}`; Name is then empty). For `Point{T}(x)`
  /// definitions Name is `Point` and CalleeType the synthesized
  /// `Type{Point{T}}`. Null for ordinary named functions.
  Node *CalleeType = nullptr;
  std::vector<Param> Params;
  std::vector<WhereVar> Where;
  Node *ReturnType = nullptr; ///< `f(x)::T = ...`
  Node *Body = nullptr;       ///< a Block
  bool Inline = false, NoInline = false, ShortForm = false;
  /// `Base.@propagate_inbounds`: an `@inbounds` caller's promise reaches
  /// the calls in its body (implies @inline).
  bool PropagateInbounds = false;
  SrcRange Range;    ///< the whole definition
  SrcRange SigRange; ///< `name(args...) where {...}`
  /// Errors of constructs in the body that the kernel language lacks
  /// (splatting, `@assert`): compiling the function reports them, and the
  /// rest of the file loads.
  std::vector<Diagnostic> Unsupported;
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
  /// The errors, with the functions' own (FunctionDef::Unsupported) among
  /// them in file order: what to show when the file does not load anyway.
  std::vector<Diagnostic> errorsWithDeferred() const;
  /// The same with the warnings too: every diagnostic of the file.
  std::vector<Diagnostic> allWithDeferred() const;

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

/// A compact S-expression of an expression, for tests and debugging:
/// `(call + a (call * b c))`, `(= (ref a i) 1)`, `(if c (block ...))`.
std::string dumpAST(const Node *N);
/// The same for one top-level definition:
/// `(function f (params x (:: y Int)) (where (<: T Real)) (block ...))`.
std::string dumpAST(const TopLevel &D);

} // namespace prism::ast
