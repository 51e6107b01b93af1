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
#include "types/Method.h"
#include "types/Type.h"

#include <atomic>
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

class MethodInstance {
public:
  Method *Def = nullptr;
  /// Full concrete signature including the callee type.
  std::vector<Type *> Sig;
  std::vector<Type *> SparamValues;
  /// Specialised for an `@inbounds` call site (its `boundscheck()` is false);
  /// only set for methods whose bodies call `boundscheck`.
  bool InBounds = false;

  /// `saxpy!(::Float32, ::DeviceArray{Float32, 1}, ...)`
  std::string str() const;

  /// Backedges: CodeInstances that call this MethodInstance.
  void addBackedge(CodeInstance *Caller);
  std::vector<CodeInstance *> backedges() const;
  /// The CodeInstance valid in world W, if one is cached.
  CodeInstance *cachedIn(World W) const;

private:
  friend class InferenceEngine;
  mutable std::mutex Lock;
  std::vector<CodeInstance *> Backedges;
  std::vector<std::unique_ptr<CodeInstance>> Cache;
};

/// A lattice element: a type, possibly with a known constant value.
struct LatticeType {
  Type *T = nullptr;
  std::optional<ConstValue> Const;
  std::string str() const; ///< `Int64`, `Const(256)`, `Union{Float32, Int64}`
};

/// One frame of an inlining stack (outermost caller first).
struct InlineFrame {
  MethodInstance *MI = nullptr;
  SrcRange CallSite; ///< range in the caller's file
  SourceFileRef File;
};

/// Typed IR: the lowered code with a type for every statement and slot and,
/// for every call, the builtin it is or the MethodInstance it invokes.
struct TypedCode {
  std::vector<Stmt> Code;
  std::vector<SlotInfo> Slots;
  std::vector<LatticeType> SSATypes;   ///< per statement
  std::vector<Type *> SlotTypes;       ///< per slot (joined over assignments)
  std::vector<MethodInstance *> Invokes; ///< per statement; null if not an invoke
  std::vector<Builtin> Builtins;       ///< per statement; Builtin::None if not a builtin call
  /// Optimised typed IR only: the inlining stack of each statement and the
  /// file its range refers to.
  std::vector<std::vector<InlineFrame>> InlineStacks;
  std::vector<SourceFileRef> StmtFiles;
  uint32_t NumArgs = 0;
  SourceFileRef File;
};

class CodeInstance {
public:
  MethodInstance *MI = nullptr;
  World MinWorld = 0;
  std::atomic<World> MaxWorld{WorldInfinity};
  Type *ReturnType = nullptr;
  std::optional<ConstValue> ReturnConst;
  std::shared_ptr<const TypedCode> Code;
  /// The callees this code invokes (deduplicated, in first-use order).
  std::vector<MethodInstance *> Edges;

  bool validIn(World W) const {
    return MinWorld <= W && W <= MaxWorld.load(std::memory_order_acquire);
  }
};

} // namespace prism
