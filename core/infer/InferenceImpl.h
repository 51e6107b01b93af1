/// \file
/// The inference engine's internals shared by its source files: the
/// MethodInstance table, the inference stack with its cycle bookkeeping,
/// and the per-instance inference state (`Frame`). Internal to infer/.
///
/// Concurrency: all inference runs under `InferLock` (one thread infers at
/// a time, so a MethodInstance is inferred once and recursion across threads
/// cannot deadlock). Finished CodeInstances are immutable and are read
/// without that lock (each MethodInstance guards its own cache list).
#pragma once

#include "infer/Inference.h"
#include "infer/Lattice.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <span>
#include <unordered_map>

namespace prism {

/// Argument types nested deeper than this mean a recursion whose argument
/// types grow without bound (`f(x) = f((x,))`): reported, not followed.
constexpr unsigned MaxArgTypeDepth = 12;
/// Nesting depth of a type's parameters, counted up to Limit + 1.
unsigned typeDepth(Type *T, unsigned Limit);

namespace infer {

/// Inference nests at most this deep (C++ recursion); deeper means a
/// signature that grows without bound, reported as a diagnostic.
constexpr unsigned MaxInferDepth = 400;
/// Constant propagation nests at most this deep.
constexpr unsigned MaxConstDepth = 8;
/// Fixed-point iterations of a recursive cycle before widening.
constexpr unsigned MaxCycleIterations = 12;

struct MIKey {
  Method *M = nullptr;
  std::vector<Type *> Sig;
  bool InBounds = false;
  std::vector<std::optional<LatticeType>> ConstArgs;
};
/// An MIKey's fields, not owned: the table is searched with one, so
/// finding an existing instance allocates nothing.
struct MIKeyRef {
  Method *M = nullptr;
  std::span<Type *const> Sig;
  bool InBounds = false;
  std::span<const std::optional<LatticeType>> ConstArgs;
  MIKeyRef(Method *M, std::span<Type *const> Sig, bool InBounds,
           std::span<const std::optional<LatticeType>> ConstArgs)
      : M(M), Sig(Sig), InBounds(InBounds), ConstArgs(ConstArgs) {}
  MIKeyRef(const MIKey &K) : MIKeyRef(K.M, K.Sig, K.InBounds, K.ConstArgs) {}
};
struct MIKeyHash {
  using is_transparent = void;
  size_t operator()(MIKeyRef K) const;
};
struct MIKeyEq {
  using is_transparent = void;
  bool operator()(MIKeyRef A, MIKeyRef B) const;
};

/// A method lookup: the function and the argument types, callee type
/// first. DispatchKeyRef is the same without owning the types.
struct DispatchKey {
  GenericFunction *F = nullptr;
  std::vector<Type *> Sig;
};
struct DispatchKeyRef {
  GenericFunction *F = nullptr;
  std::span<Type *const> Sig;
  DispatchKeyRef(GenericFunction *F, std::span<Type *const> Sig) : F(F), Sig(Sig) {}
  DispatchKeyRef(const DispatchKey &K) : F(K.F), Sig(K.Sig) {}
};
struct DispatchKeyHash {
  using is_transparent = void;
  size_t operator()(DispatchKeyRef K) const;
};
struct DispatchKeyEq {
  using is_transparent = void;
  bool operator()(DispatchKeyRef A, DispatchKeyRef B) const {
    return A.F == B.F &&
           std::equal(A.Sig.begin(), A.Sig.end(), B.Sig.begin(), B.Sig.end());
  }
};

/// The inference state of one MethodInstance while it is being inferred.
struct Frame {
  MethodInstance *MI = nullptr;
  const CodeInfo *Src = nullptr;
  World W = 0;
  unsigned ConstDepth = 0;
  size_t StackIndex = 0;

  // Per statement (lowered numbering).
  /// Slots at entry, at the first statement of each basic block only.
  std::vector<std::optional<std::vector<LatticeType>>> States;
  std::vector<bool> Reached; ///< whether some path reaches the statement
  std::vector<LatticeType> SSATypes;
  std::vector<MethodInstance *> Invokes;
  std::vector<Builtin> Builtins;
  std::vector<std::vector<LatticeType>> ArgTypes;
  std::vector<std::vector<MethodInstance *>> StmtEdges;
  std::vector<std::vector<Diagnostic>> StmtErrors;
  /// (function, signature) lookups that found no method: adding one later
  /// must invalidate this code too.
  std::vector<std::pair<GenericFunction *, std::vector<Type *>>> FailedLookups;
  /// Global names that were undefined: defining one later invalidates too.
  std::vector<Symbol> UndefinedNames;

  LatticeType Return;
  World MinWorld = 0, MaxWorld = WorldInfinity;
  bool NeedsConstArgs = false;

  // Cycle bookkeeping: the lowest stack index whose in-progress result this
  // frame used; StackIndex itself when it used none.
  size_t CycleHead = 0;
  bool ReferencedRecursively = false;
  /// Errors about the frame as a whole (a recursion that did not converge).
  std::vector<Diagnostic> FrameErrors;

  void reset(size_t NumStmts);
  void narrowWorlds(World Min, World Max) {
    MinWorld = std::max(MinWorld, Min);
    MaxWorld = std::min(MaxWorld, Max);
  }
};

/// A CodeInstance finished inside a recursive cycle whose head is still
/// iterating: visible to the cycle, published when the head converges.
struct ProvisionalCI {
  std::unique_ptr<CodeInstance> CI;
  size_t Head = 0;
  /// When it was parked (Impl::ProvisionalSeq): a frame that iterates again
  /// drops every result parked since it started, whatever its head, since
  /// each may have used the frame's old approximation.
  uint64_t Seq = 0;
  std::vector<std::pair<GenericFunction *, std::vector<Type *>>> FailedLookups;
  std::vector<Symbol> UndefinedNames;
};

} // namespace infer

struct InferenceEngine::Impl {
  Impl(GlobalEnv &Env, CheckBounds Bounds) : Env(Env), Bounds(Bounds) {}
  GlobalEnv &Env;
  const CheckBounds Bounds;

  /// Whether `boundscheck()` is false in MI: under @inbounds (Auto), never
  /// (Yes), always (No).
  bool boundsChecksOff(const MethodInstance &MI) const {
    return Bounds == CheckBounds::No ||
           (Bounds == CheckBounds::Auto && MI.InBounds);
  }

  /// Serialises inference (see the file comment).
  std::recursive_mutex InferLock;

  std::mutex TableLock; ///< guards MIs, ByFunc, BoundsCheckUse, Missing*
  std::unordered_map<infer::MIKey, std::unique_ptr<MethodInstance>,
                     infer::MIKeyHash, infer::MIKeyEq>
      MIs;
  std::unordered_map<GenericFunction *, std::vector<MethodInstance *>> ByFunc;
  std::unordered_map<const Method *, bool> BoundsCheckUse;
  /// Failed lookups by function, for invalidation when a method is added.
  std::unordered_map<GenericFunction *,
                     std::vector<std::pair<std::vector<Type *>, CodeInstance *>>>
      Missing;
  /// CodeInstances that used an undefined global name, by name.
  std::unordered_map<Symbol, std::vector<CodeInstance *>> MissingNames;

  /// Method lookups in DispatchWorld (under InferLock), as Julia caches
  /// them per method table: a kernel calls `+(Float32, Float32)` thousands
  /// of times, and each lookup matches the signature against every method
  /// of `+`. inferToplevel empties the table when it starts in another world
  /// or the environment's world moved (never during an inference, so the
  /// references lookup returns stay valid throughout it).
  World DispatchWorld = 0;
  World DispatchEnvWorld = 0;
  std::unordered_map<infer::DispatchKey, LookupResult, infer::DispatchKeyHash,
                     infer::DispatchKeyEq>
      Dispatch;
  const LookupResult &lookup(GenericFunction *GF, std::span<Type *const> Sig,
                             World W);

  // Inference stack (under InferLock).
  std::vector<infer::Frame *> Stack;
  std::unordered_map<MethodInstance *, infer::ProvisionalCI> Provisional;
  uint64_t ProvisionalSeq = 0;

  std::mutex OptLock;
  std::unordered_map<const CodeInstance *, std::shared_ptr<const TypedCode>>
      Optimized;
  /// readsMaybeUnassigned of each callee the inliner looked at: asked at
  /// every call site, and each answer is a dataflow analysis.
  std::unordered_map<const CodeInstance *, bool> MaybeUnassignedReads;

  MethodInstance *
  internMI(Method *M, std::span<Type *const> Sig,
           std::span<Type *const> Sparams, bool InBounds,
           std::vector<std::optional<LatticeType>> ConstArgs = {});
  bool usesBoundsCheck(const Method *M);

  /// The result of calling MI from Caller: a cached, provisional or
  /// in-progress (cycle) result, or a fresh inference. Returns the CI when
  /// one exists (null while MI is on the stack).
  LatticeType callMI(infer::Frame &Caller, MethodInstance *MI,
                     CodeInstance **OutCI, unsigned ConstDepth,
                     std::string *Error);
  /// Infers MI to a fixed point and publishes (or parks) its CodeInstance.
  CodeInstance *inferMI(MethodInstance *MI, World W, unsigned ConstDepth);
  /// Runs the abstract interpreter over one frame (AbstractInterp.cpp).
  void interpret(infer::Frame &F);
  /// Builds the CodeInstance of a finished frame.
  std::unique_ptr<CodeInstance> finishFrame(infer::Frame &F);
  void publish(std::unique_ptr<CodeInstance> CI,
               const std::vector<std::pair<GenericFunction *,
                                           std::vector<Type *>>> &Failed,
               const std::vector<Symbol> &Undefined);

  /// A global name as a value (function, type, const or builtin); nullopt
  /// when undefined.
  std::optional<LatticeType> resolveGlobal(Symbol Name,
                                           const SourceFileRef &File);
};

} // namespace prism
