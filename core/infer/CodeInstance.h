/// \file
/// MethodInstances, CodeInstances and typed IR — the output of inference and
/// the only input of codegen (which never calls back into inference).
///
/// A `MethodInstance` is a method specialised on concrete argument types
/// (interned: one object per (method, signature, inbounds)). A
/// `CodeInstance` is the result of inferring one MethodInstance, valid for
/// worlds [MinWorld, MaxWorld]; it holds the typed IR, the return type and
/// `Edges`, the callee MethodInstances its calls resolved to. Callees record
/// backedges to their callers, so redefining a method caps exactly the
/// dependents' MaxWorld (Julia's invalidation).
#pragma once

#include "lang/IR.h"
#include "support/Diagnostic.h"
#include "types/Method.h"
#include "types/Type.h"

#include "llvm/ADT/SetVector.h"

#include <atomic>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace prism {

class CodeInstance;

/// The dynamic part of a job: a function and its argument types (callee
/// type excluded). Argument types are interned, so the tuple type is the key.
struct FunctionSpec {
  GenericFunction *Func = nullptr;
  Type *ArgTuple = nullptr; ///< Tuple{T1, T2, ...}
  friend bool operator==(const FunctionSpec &A, const FunctionSpec &B) {
    return A.Func == B.Func && A.ArgTuple == B.ArgTuple;
  }
  std::string str() const; ///< `saxpy!(Float32, DeviceArray{Float32, 1}, ...)`
};

/// A lattice element: a type, possibly with a known constant value.
///
/// `T` is never null in results (Bottom = `Union{}` means "no value": the
/// statement does not return or is unreachable). `Const` is set when the
/// value is known at compile time; singleton types (`Type{Float32}`,
/// `typeof(square)`, `Nothing`) always carry their constant. `Fields` is
/// Julia's PartialStruct: for a tuple/struct some of whose fields are known
/// constants, one lattice element per field (so `getfield` on it folds).
struct LatticeType {
  Type *T = nullptr;
  std::optional<ConstValue> Const;
  std::shared_ptr<const std::vector<LatticeType>> Fields;

  LatticeType() = default;
  explicit LatticeType(Type *T) : T(T) {}
  LatticeType(Type *T, ConstValue C) : T(T), Const(std::move(C)) {}
  bool isBottom() const;
  friend bool operator==(const LatticeType &A, const LatticeType &B);
  friend bool operator!=(const LatticeType &A, const LatticeType &B) {
    return !(A == B);
  }
  std::string str() const; ///< `Int64`, `Const(256)`, `Union{Float32, Int64}`
};

class MethodInstance {
public:
  Method *Def = nullptr;
  /// Full concrete signature including the callee type.
  std::vector<Type *> Sig;
  std::vector<Type *> SparamValues;
  /// Specialised for an `@inbounds` call site (its `boundscheck()` is false);
  /// only set for methods whose bodies call `boundscheck`.
  bool InBounds = false;
  /// Constant-specialised instances (constant propagation whose result the
  /// caller keeps, e.g. `CuStaticSharedArray(Float32, 256)` whose body needs
  /// the constant `256`): one entry per element of Sig, set where the
  /// argument is a known constant or a partially constant tuple or struct
  /// (the dims `(16, 16)` of a 2-d shared array). Empty for ordinary
  /// instances.
  std::vector<std::optional<LatticeType>> ConstArgs;
  bool isConstSpecialized() const { return !ConstArgs.empty(); }

  /// `saxpy!(::Float32, ::DeviceArray{Float32, 1}, ...)`; constant arguments
  /// print as `256::Int64`, partially constant ones as
  /// `(16, 16)::Tuple{Int64, Int64}`.
  std::string str() const;

  /// Backedges: CodeInstances that call this MethodInstance.
  void addBackedge(CodeInstance *Caller);
  std::vector<CodeInstance *> backedges() const;
  /// The CodeInstance valid in world W, if one is cached.
  CodeInstance *cachedIn(World W) const;
  /// Every CodeInstance ever inferred for this instance, oldest first.
  std::vector<CodeInstance *> codeInstances() const;
  /// Takes ownership of a finished CodeInstance (inference only).
  CodeInstance *addCodeInstance(std::unique_ptr<CodeInstance> CI);

private:
  friend class InferenceEngine;
  mutable std::mutex Lock;
  /// A set as well as a list: a prelude method called from thousands of
  /// functions would otherwise make adding its backedges quadratic.
  llvm::SetVector<CodeInstance *> Backedges;
  std::vector<std::unique_ptr<CodeInstance>> Cache;
};

/// One frame of an inlining stack (outermost caller first). A statement
/// that came from inlining `getindex` into `saxpy!` has the stack
/// `[{MI = getindex(...), CallSite = the `x[i]` range, File = saxpy.jl}]`;
/// its own Range/StmtFile point into getindex's file.
struct InlineFrame {
  MethodInstance *MI = nullptr; ///< the instance that was inlined
  SrcRange CallSite;            ///< range of the call in the caller's file
  SourceFileRef File;           ///< the caller's file
};

/// An inlining stack: the frames a statement was inlined through, outermost
/// caller first. Immutable and shared, like LLVM's `inlinedAt` chains: the
/// statements (and decisions) inlined through one call hold the same
/// stack, so copying one copies a pointer.
class InlineStack {
public:
  InlineStack() = default;
  explicit InlineStack(std::vector<InlineFrame> Fs)
      : Frames(Fs.empty() ? nullptr
                          : std::make_shared<const std::vector<InlineFrame>>(
                                std::move(Fs))) {}
  /// Outer's frames, then Here, then Inner's.
  static InlineStack nest(const InlineStack &Outer, const InlineFrame &Here,
                          const InlineStack &Inner) {
    std::vector<InlineFrame> F;
    F.reserve(Outer.size() + 1 + Inner.size());
    F.insert(F.end(), Outer.begin(), Outer.end());
    F.push_back(Here);
    F.insert(F.end(), Inner.begin(), Inner.end());
    return InlineStack(std::move(F));
  }

  bool empty() const { return !Frames; }
  size_t size() const { return Frames ? Frames->size() : 0; }
  const InlineFrame &operator[](size_t I) const { return (*Frames)[I]; }
  const InlineFrame &front() const { return Frames->front(); }
  const InlineFrame &back() const { return Frames->back(); }
  const InlineFrame *begin() const { return Frames ? Frames->data() : nullptr; }
  const InlineFrame *end() const { return begin() + size(); }
  std::reverse_iterator<const InlineFrame *> rbegin() const {
    return std::reverse_iterator<const InlineFrame *>(end());
  }
  std::reverse_iterator<const InlineFrame *> rend() const {
    return std::reverse_iterator<const InlineFrame *>(begin());
  }
  /// The shared frames' address (null when empty): equal for copies of one
  /// stack, so a pass can key a table on it.
  const void *identity() const { return Frames.get(); }

private:
  std::shared_ptr<const std::vector<InlineFrame>> Frames; ///< null when empty
};

/// Why the typed-IR inliner did or did not inline a call.
enum class InlineReason : uint8_t {
  DeclaredInline,
  DeclaredNoInline,
  NestedTooDeep,
  CodeHasErrors,
  Recursive,
  ReadsMaybeUnassigned,
  WithinThreshold, ///< InlineDecision::Cost statements, small enough
  OverThreshold,   ///< InlineDecision::Cost statements, too many
};

/// One call the typed-IR inliner looked at, and what it decided (for
/// remarks: Julia's inlining is invisible in LLVM's). Located like a
/// statement: its range in File, inside the inlining stack Stack.
struct InlineDecision {
  MethodInstance *Callee = nullptr;
  bool Inlined = false;
  InlineReason Reason = InlineReason::DeclaredInline;
  uint32_t Cost = 0; ///< the callee's optimised statements, when judged by size
  SrcRange CallSite; ///< the call's range in File
  SourceFileRef File;
  InlineStack Stack;
  /// "declared @inline", "31 statements, over the threshold of 24 (@inline
  /// would force it)", ...
  std::string why() const;
};

/// Typed IR: the lowered code with a type for every statement and slot and,
/// for every call, the builtin it is or the MethodInstance it invokes.
///
/// Conventions (codegen relies on them):
///  - Statement numbering is the lowered code's; unreachable statements
///    (never reached by inference) are replaced by `Nop`. A `GotoIfNot` on a
///    constant condition is folded into `Goto` (false) or `Nop` (true), so a
///    Nop region is never entered.
///  - A Call whose SSATypes entry is Bottom never returns (throw, or a
///    callee that always throws): emit it, then `unreachable`.
///  - SSATypes of Assign is the assigned value's type; of Goto, GotoIfNot,
///    Return and Nop it is Bottom (they have no value).
///  - Invokes[i] set: a static call of that MethodInstance (arguments are
///    Args[1..]; Args[0] is the callee value, a singleton that is not passed).
///    Builtins[i] set: the builtin call (`new`: Args[1] is the type).
///    Neither set on a Call: a dynamic call (some argument type not concrete);
///    validation reports it.
///  - Globals and static parameters in Args are resolved in ArgTypes (their
///    Const); a Const lattice on any value may be emitted as that constant.
///  - InBounds instances (MethodInstance::InBounds) type `boundscheck()` as
///    Const(false), others as Const(true); the dead branch is Nop'd.
struct TypedCode {
  std::vector<Stmt> Code;
  std::vector<SlotInfo> Slots;
  std::vector<LatticeType> SSATypes;   ///< per statement
  std::vector<Type *> SlotTypes;       ///< per slot (joined over assignments)
  std::vector<MethodInstance *> Invokes; ///< per statement; null if not an invoke
  std::vector<Builtin> Builtins;       ///< per statement; Builtin::None if not a builtin call
  /// Per statement and argument (Args[0..]): the lattice type of the value as
  /// inference saw it (globals and static parameters are resolved here: a
  /// Const for functions, types and `const` bindings).
  std::vector<std::vector<LatticeType>> ArgTypes;
  /// Per slot: the first statement assigning it (UINT32_MAX for arguments
  /// and never-assigned slots), for code_warntype's locals list.
  std::vector<uint32_t> SlotFirstAssign;
  /// Optimised typed IR only: the inlining stack of each statement and the
  /// file its range refers to.
  std::vector<InlineStack> InlineStacks;
  std::vector<SourceFileRef> StmtFiles;
  /// Optimised typed IR only: every inlining decision made for it, those
  /// of the callees it inlined included (their stacks extended).
  std::vector<InlineDecision> Inlining;
  uint32_t NumArgs = 0;
  SourceFileRef File;
};

/// A call inference proved never returns (it throws): flow stops after it.
inline bool neverReturns(const TypedCode &C, size_t PC) {
  return C.Code[PC].K == StmtKind::Call && PC < C.SSATypes.size() &&
         C.SSATypes[PC].T && C.SSATypes[PC].T->isBottom();
}

/// Basic-block starts of typed code (lang/IR.h's blockStarts): a call that
/// never returns ends its block.
inline std::vector<bool> blockStarts(const TypedCode &C) {
  return blockStarts(C.Code, [&](size_t PC) { return neverReturns(C, PC); });
}

class CodeInstance {
public:
  MethodInstance *MI = nullptr;
  World MinWorld = 0;
  std::atomic<World> MaxWorld{WorldInfinity};
  Type *ReturnType = nullptr;
  std::optional<ConstValue> ReturnConst;
  /// The returned tuple's or struct's known fields (Julia's PartialStruct:
  /// `tile() = (16, 16)` returns two constants), for callers' constant
  /// propagation; null when nothing is known field by field.
  std::shared_ptr<const std::vector<LatticeType>> ReturnFields;
  std::shared_ptr<const TypedCode> Code;
  /// The callees this code invokes (deduplicated, in first-use order).
  std::vector<MethodInstance *> Edges;
  /// User errors found while inferring this instance (no method, undefined
  /// name...). inferToplevel reports them with the call chain as backtrace.
  std::vector<Diagnostic> Errors;
  /// The body used a constant argument where only a constant works (e.g.
  /// `shared_array(T, n)`), so constant-specialised callers must keep it.
  bool NeedsConstArgs = false;

  bool validIn(World W) const {
    return MinWorld <= W && W <= MaxWorld.load(std::memory_order_acquire);
  }
};

} // namespace prism
