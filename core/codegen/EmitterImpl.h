/// \file
/// Private to codegen/: the per-module and per-function emission state
/// shared by Emitter.cpp (control flow, calls, signatures) and
/// BuiltinEmit.cpp (one case per Builtin).
#pragma once

#include "cache/CompilerConfig.h"
#include "codegen/DebugInfo.h"
#include "codegen/Emitter.h"
#include "codegen/TypeLowering.h"
#include "infer/CodeInstance.h"
#include "targets/Target.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <memory>
#include <vector>

namespace prism {

/// What every function emitter shares.
struct ModuleState {
  llvm::LLVMContext &Ctx;
  llvm::Module &M;
  const CompilerConfig &Config;
  const Target &Tgt;
  const llvm::DataLayout &DL;
  TypeLowering TL;
  std::unique_ptr<DebugInfoEmitter> DI; ///< null for --debuginfo=none
  llvm::DenseMap<MethodInstance *, CodeInstance *> Instances;
  /// The typed code emitted for each instance (optimised or its own).
  llvm::DenseMap<CodeInstance *, const TypedCode *> Codes;
  /// Scopes of instances that only exist inlined by the typed inliner.
  llvm::DenseMap<MethodInstance *, llvm::DISubprogram *> InlinedScopes;
  llvm::DenseMap<CodeInstance *, llvm::Function *> Functions;
  llvm::DenseSet<CodeInstance *> NeedsState; ///< take the hidden state argument
  /// Some function calls sync_threads(): a host block runs as fibers, so
  /// the block loop (`jfptr_block_NAME`) would never run.
  bool EmitsBarrier = false;
  /// Call sites emitted so far of each function that allocates shared
  /// memory (CuStaticSharedArray), itself or through its callees: each call
  /// site gets its own copy, hence its own allocations, as CUDA.jl's
  /// inlined allocations do, whatever was inlined (-O0 inlines nothing).
  llvm::DenseMap<CodeInstance *, unsigned> SharedAllocSites;
  /// allocatesShared's answers, and the copies being emitted (a recursion
  /// calls the function it is in rather than copying it without end).
  llvm::DenseMap<CodeInstance *, bool> AllocatesShared;
  llvm::DenseSet<CodeInstance *> CopiesInProgress;
  uint64_t SharedBytes = 0;
  llvm::StringMap<llvm::Constant *> Strings;

  ModuleState(llvm::LLVMContext &Ctx, llvm::Module &M, const CompilerConfig &C,
              const llvm::DataLayout &DL)
      : Ctx(Ctx), M(M), Config(C), Tgt(C.target()), DL(DL),
        TL(Ctx, C.target().addressSpaces().Generic) {}

  /// A NUL-terminated string constant as a generic-address-space pointer.
  llvm::Constant *stringConstant(llvm::StringRef S);
  llvm::FunctionCallee throwHook();
  llvm::FunctionCallee throwDetailHook();
  const TypedCode &codeOf(CodeInstance &CI) const {
    const TypedCode *C = Codes.lookup(&CI);
    return C ? *C : *CI.Code;
  }
  llvm::DISubprogram *inlinedScope(MethodInstance *MI);
  /// Whether CI's code, or code it calls, allocates shared memory.
  bool allocatesShared(CodeInstance &CI);
};

class FunctionEmitter {
public:
  FunctionEmitter(ModuleState &MS, CodeInstance &CI, llvm::Function &F)
      : MS(MS), CI(CI), Code(MS.codeOf(CI)), F(F), B(MS.Ctx) {}

  llvm::Error emit();

private:
  llvm::LLVMContext &Ctx() const { return MS.Ctx; }
  llvm::BasicBlock *blockAt(uint32_t Stmt) const {
    return Stmt < Blocks.size() ? Blocks[Stmt] : nullptr;
  }
  friend struct BuiltinEmitter;

  // Values.
  Type *argType(unsigned Stmt, unsigned Arg) const;
  const LatticeType *argLattice(unsigned Stmt, unsigned Arg) const;
  llvm::Value *value(unsigned Stmt, unsigned Arg);
  llvm::Value *constant(const ConstValue &C, Type *T);
  /// Register value → memory representation (Bool: i1 → i8) and back.
  llvm::Value *toMem(llvm::Value *V, Type *T);
  llvm::Value *fromMem(llvm::Value *V, Type *T);

  // Statements.
  llvm::Error emitCall(unsigned I);
  llvm::Expected<llvm::Value *> emitInvoke(unsigned I);
  llvm::Expected<llvm::Value *> emitBuiltin(unsigned I);
  /// A throw path: report to the runtime, then trap. Exc, the exception's
  /// value, gives its showerror text on targets that pass it.
  void emitThrow(unsigned I, Type *ExcType, llvm::Value *Exc = nullptr);
  /// Throws the exception named TypeName (`TypeError`) at statement I.
  /// Text, when given, is its showerror template (no exception value has
  /// it), with TextValues the scalars for its placeholders.
  void emitThrow(unsigned I, std::string_view TypeName, Type *ExcType = nullptr,
                 llvm::Value *Exc = nullptr, std::string_view Text = {},
                 llvm::ArrayRef<llvm::Value *> TextValues = {});
  /// `prism_throw_detail`: the column, and Exc's scalars where it has a
  /// showerror template, or the template Text with TextValues.
  void emitThrowDetail(unsigned Col, Type *ExcType, llvm::Value *Exc,
                       std::string_view Text = {},
                       llvm::ArrayRef<llvm::Value *> TextValues = {});
  /// Where a throw at statement I is reported: the innermost frame of its
  /// inlining stack outside the prelude, as the interpreter reports it.
  struct ThrowPlace {
    std::string File;
    LineCol LC;
  };
  ThrowPlace throwPlaceOf(unsigned I) const;
  llvm::Value *emitEgal(llvm::Value *A, llvm::Value *B, Type *T);
  llvm::Error internal(unsigned I, const std::string &Message) const;
  DiagLoc locOf(unsigned I) const;
  /// The file statement I's range refers to (an inlined callee's, maybe).
  SourceFileRef fileOf(unsigned I) const;
  /// The instance whose body statement I comes from (through inlining).
  MethodInstance *instanceOf(unsigned I) const;
  /// Statement I's location, with an inlinedAt chain for inlined code.
  llvm::DILocation *debugLocOf(unsigned I);
  /// Before a read of Slot at statement I: throws UndefVarError when the
  /// slot may be unassigned there and is.
  void checkAssigned(unsigned I, unsigned Slot);

  ModuleState &MS;
  CodeInstance &CI;
  const TypedCode &Code;
  llvm::Function &F;
  llvm::IRBuilder<> B;
  llvm::DISubprogram *SP = nullptr;
  llvm::Value *State = nullptr;
  std::vector<llvm::AllocaInst *> Slots;
  /// (statement, slot) of each read that may find the slot unassigned.
  llvm::DenseSet<std::pair<unsigned, unsigned>> MaybeUnassigned;
  /// Per slot: its "assigned" flag, where some read may find it unassigned.
  std::vector<llvm::AllocaInst *> SlotFlags;
  std::vector<llvm::Value *> SSA;
  std::vector<llvm::BasicBlock *> Blocks; ///< per statement: block it starts, or null
  llvm::BasicBlock *Top = nullptr;
  /// debugLocOf's last inlining chain: runs of statements share a stack.
  const InlineStack *LastStack = nullptr;
  llvm::DILocation *LastAt = nullptr;
  llvm::DISubprogram *LastScope = nullptr;
};

} // namespace prism
