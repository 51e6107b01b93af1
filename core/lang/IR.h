/// \file
/// The lowered IR (Julia's `CodeInfo`): a flat list of numbered statements
/// over slots (local variables; slot 0 is `#self#`, slots 1..N the
/// arguments), SSA values (results of earlier statements), literal
/// constants, static parameters (`T` of a `where` clause) and global names.
/// Control flow is `goto`/`gotoifnot` to statement indices. Every statement
/// keeps its source range.
///
/// The same structure is the input of inference; typed IR (infer/) adds a
/// type per statement and slot and the resolved callee of every call.
#pragma once

#include "support/SourceFile.h"
#include "support/Symbol.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace prism {

class Type;
class GenericFunction;

/// A compile-time constant: a literal, a type used as a value (`Float32`),
/// a function used as a value (`square`), `nothing`, or a field name.
struct ConstValue {
  enum Kind : uint8_t {
    Nothing,
    Bool,
    Int,
    Float,
    TypeVal,
    Func,
    Sym,
    Instance
  };
  Kind K = Nothing;
  /// The constant's own type: Int64, UInt8, Float32, Bool, Nothing,
  /// Type{Float32}, typeof(square), the struct of an Instance (the only
  /// value of a fieldless struct: `π` of `Irrational{:π}`). Null for Sym.
  Type *Ty = nullptr;
  /// Int/Bool: the value's bits (two's complement, zero-extended to 64);
  /// Float: the IEEE bits at the type's width (Float32 in the low 32 bits).
  uint64_t Bits = 0;
  Type *TypeValue = nullptr;     ///< TypeVal
  GenericFunction *Fn = nullptr; ///< Func
  Symbol Name;                   ///< Sym

  double asDouble() const;       ///< Float (any width) or Int, as a double
  int64_t asSigned() const;      ///< Int sign-extended from its width
  friend bool operator==(const ConstValue &A, const ConstValue &B);
  std::string str() const;       ///< Julia's printing: `1`, `1.0f0`, `0x1f`, `:x`
  /// An Instance of `Irrational{:s}`: its symbol (`π`); else empty.
  std::string_view irrationalSymbol() const;
};

struct IRValue {
  enum Kind : uint8_t { None, SSA, Slot, StaticParam, Const, Global };
  Kind K = None;
  uint32_t Index = 0; ///< SSA: statement index; Slot; StaticParam
  ConstValue C;       ///< Const
  Symbol Name;        ///< Global: an unresolved global name (`square`, `Float32`, `+`)

  static IRValue ssa(uint32_t I) { IRValue V; V.K = SSA; V.Index = I; return V; }
  static IRValue slot(uint32_t I) { IRValue V; V.K = Slot; V.Index = I; return V; }
  static IRValue staticParam(uint32_t I) { IRValue V; V.K = StaticParam; V.Index = I; return V; }
  static IRValue constant(ConstValue C) { IRValue V; V.K = Const; V.C = std::move(C); return V; }
  static IRValue global(Symbol N) { IRValue V; V.K = Global; V.Name = N; return V; }
};

enum class StmtKind : uint8_t {
  Call,      ///< %i = Args[0](Args[1..])  — Args[0] is the callee value
  Assign,    ///< slot Slot = Args[0]
  Goto,      ///< goto Label
  GotoIfNot, ///< gotoifnot Args[0] Label
  Return,    ///< return Args[0]
  Nop,       ///< removed statement (keeps numbering stable)
  /// Slot becomes unassigned (Julia's `NewvarNode`): a loop body's own
  /// local starts each iteration without a value, so a read before this
  /// iteration assigns it is an UndefVarError, not last iteration's value.
  NewVar,
};

enum StmtFlags : uint32_t {
  SF_None = 0,
  SF_InBounds = 1 << 0, ///< inside `@inbounds`: callees' `@boundscheck` blocks are elided
};

struct Stmt {
  StmtKind K = StmtKind::Nop;
  uint32_t Slot = 0;  ///< Assign target
  uint32_t Label = 0; ///< Goto/GotoIfNot target statement index
  uint32_t Flags = SF_None;
  std::vector<IRValue> Args;
  SrcRange Range;
};

struct SlotInfo {
  Symbol Name; ///< `#self#`, argument and local names; lowering temporaries start with '#'
  bool IsArgument = false;
};

/// Lowered code of one method body.
struct CodeInfo {
  std::vector<Stmt> Code;
  std::vector<SlotInfo> Slots;  ///< [0] = #self#, [1..NumArgs] arguments
  uint32_t NumArgs = 0;         ///< not counting #self#
  std::vector<Symbol> StaticParamNames;
  SourceFileRef File;
  Symbol FunctionName;
  SrcRange Range;               ///< the whole definition
};

/// Where basic blocks start in \p Code, as a flag per statement and one for
/// the end (N + 1 flags): the entry, every jump target (one past the end
/// counts as N), and the statement after every jump, return and call that
/// \p NeverReturns says throws. Lowering's printer, inference, the typed
/// optimiser and printer, definite assignment and codegen share this one
/// definition of a block.
std::vector<bool>
blockStarts(const std::vector<Stmt> &Code,
            llvm::function_ref<bool(size_t)> NeverReturns = nullptr);

/// Julia's `code_lowered` printing: `1 ─ %1 = Main.f(_2)` style numbered
/// statements, `goto #3 if not %2`, `return %5`.
std::string printLowered(const CodeInfo &CI);
/// A global name as Julia's IR prints its GlobalRef: `Main.f`, `Main.:*`,
/// `Core.tuple`.
std::string globalName(Symbol N);

/// The builtins that lowered code and the prelude call by name. They resolve
/// to `GenericFunction`s of kind Builtin; inference types them and codegen
/// emits them directly. Prelude code is written over these, as Julia's Base
/// sits on Core.Intrinsics.
// Rows of related builtins read better than one a line:
// clang-format off
enum class Builtin : uint16_t {
  None,
  // Core
  GetField,     ///< getfield(x, :f) / getfield(x, i::Int) (tuples and structs)
  /// setfield!(x, :f, v), from `x.f = v`: structs are immutable, so
  /// inference reports it (Julia throws when it runs).
  SetField,
  TupleNew,     ///< tuple(a, b, ...)
  New,          ///< new(T, fields...) — struct construction (T a Type constant)
  Egal,         ///< ===(a, b)
  TypeOf,       ///< typeof(x)
  IsA,          ///< isa(x, T)
  Throw,        ///< throw(err) — err a struct value like BoundsError(...)
  BoundsCheck,  ///< boundscheck() — false inside an @inbounds caller
  TypeAssert,   ///< typeassert(x, T) — `x::T` in an expression
  ApplyType,    ///< apply_type(S, P...) — `S{P...}` as a value (constant-folded)
  TypeJoin,     ///< typejoin(A, B) — Julia's Base.typejoin (constant-folded)
  NFields,      ///< nfields(x)
  SizeOf,       ///< sizeof_type(T) — Julia's Core.sizeof of a concrete type
  // Integer arithmetic (operands of one type)
  AddInt, SubInt, MulInt, NegInt, SDivInt, UDivInt, SRemInt, URemInt,
  AndInt, OrInt, XorInt, NotInt, ShlInt, LShrInt, AShrInt,
  EqInt, NeInt, SltInt, SleInt, UltInt, UleInt,
  CtpopInt, CtlzInt, CttzInt, BswapInt, BitreverseInt,
  // Float arithmetic
  AddFloat, SubFloat, MulFloat, DivFloat, RemFloat, NegFloat,
  FmaFloat, MuladdFloat, EqFloat, NeFloat, LtFloat, LeFloat,
  SqrtLlvm, AbsFloat, CopysignFloat, FloorLlvm, CeilLlvm, TruncLlvm, RintLlvm,
  ExpFloat, LogFloat, SinFloat, CosFloat, PowFloat,
  Exp2Float, Log2Float, Log10Float, TanFloat, AtanFloat, Atan2Float,
  // Only the C library has these (libdevice on ptx): LibmOnlyFn below.
  TanhFloat, SinhFloat, CoshFloat, AsinFloat, AcosFloat, CbrtFloat,
  Expm1Float, Log1pFloat,
  // Conversions: first argument is the target type (a Type constant)
  SextInt, ZextInt, TruncInt, FptoSi, FptoUi, SitoFp, UitoFp, Fptrunc, Fpext,
  Bitcast,
  // Pointers
  PointerRef,   ///< pointerref(p::Ptr{T}, i::Int) — 1-based element index
  PointerSet,   ///< pointerset(p::Ptr{T}, v::T, i::Int)
  PointerAdd,   ///< pointeradd(p::Ptr{T}, bytes::Int)
  AtomicAdd,    ///< atomic_add(p::Ptr{T}, v::T) → old value
  // Device API (0-based raw indices as Int32; absent on BPF)
  ThreadIdxX, ThreadIdxY, ThreadIdxZ,
  BlockIdxX, BlockIdxY, BlockIdxZ,
  BlockDimX, BlockDimY, BlockDimZ,
  GridDimX, GridDimY, GridDimZ,
  SyncThreads,
  SharedArray,  ///< shared_array(T, n) — compile-time n; returns Ptr{T} to shared memory
  // BPF packet loads (the packet is the program's context)
  BpfLoadByte, BpfLoadHalf, BpfLoadWord,
  NumBuiltins
};
// clang-format on

/// The name used in kernel-language source (`add_int`, `getfield`, ...).
const char *builtinName(Builtin B);
/// Lookup by source name; Builtin::None when unknown.
Builtin builtinByName(std::string_view Name);

/// A math builtin LLVM has no intrinsic for, computed by the C library
/// function `C` (`Cf` for Float32; libdevice's `__nv_C` on ptx).
struct LibmOnlyFn {
  Builtin B;
  const char *C;     ///< `tan`, `atan2`
  const char *Julia; ///< the function the user called (`atan` for atan2)
  unsigned Arity;
};
/// B's entry, or null when B is not such a builtin.
const LibmOnlyFn *libmOnly(Builtin B);
/// The entry whose C function is Name (`tanh` or `tanhf`), or null.
const LibmOnlyFn *libmOnlyByC(std::string_view Name);

/// A unary bit-counting or bit-permuting builtin (ctpop, ctlz, cttz, bswap,
/// bitreverse) of the W-bit integer X (zero-extended), as LLVM defines it.
uint64_t foldIntUnary(Builtin B, uint64_t X, unsigned W);

} // namespace prism
