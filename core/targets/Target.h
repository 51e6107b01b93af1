/// \file
/// The `Target` interface: everything a backend customises, one file per
/// target (ptx, gcn, bpf, native), following GPUCompiler.jl's hooks
/// (llvm_triple, llvm_datalayout, llvm_machine, finish_module!,
/// optimize_module!, validate_ir, mcgen). Defaults live in the base class;
/// a target overrides only what differs.
#pragma once

#include "lang/IR.h"
#include "optim/WarpLanes.h"
#include "support/Diagnostic.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Module;
class Function;
class Instruction;
class TargetMachine;
class PassBuilder;
class Value;
class IRBuilderBase;
class LLVMContext;
class Type;
} // namespace llvm

namespace prism {

class CompilerConfig;
struct ResourceUsage;

/// Address spaces a target assigns to the kernel language's memories.
/// How annotated assembly writes source comments (Target::asmSourceComments).
struct AsmCommentStyle {
  const char *Leader; ///< `;`, `//`
  bool AsciiOnly;     ///< other characters written as `U+XXXX`
};

/// Named metadata of `!{ptr @shmem, !DILocation}` pairs: where each static
/// shared array was declared (a global has no line of its own), for the
/// shared-memory limit's diagnostic.
inline constexpr const char *SharedArraysMetadata = "prism.shared_arrays";

struct AddressSpaces {
  unsigned Generic = 0, Global = 0, Shared = 0, Constant = 0, Private = 0;
};

class Target {
public:
  virtual ~Target();
  /// "ptx", "gcn", "bpf", "native".
  virtual const char *name() const = 0;
  virtual std::string triple(const CompilerConfig &C) const = 0;
  /// Default CPU/arch when the config names none ("sm_80", "gfx90a", host).
  virtual std::string defaultArch() const = 0;
  virtual std::string features(const CompilerConfig &C) const { return ""; }
  virtual bool kernelByDefault() const { return false; }
  virtual AddressSpaces addressSpaces() const { return {}; }
  /// The lanes of a warp and how they read memory, for the divergence and
  /// access-pattern remarks on \p Arch (empty: the default arch); none
  /// when the target has no warps the analyses know.
  virtual std::optional<WarpModel> warpModel(llvm::StringRef Arch = "") const {
    return std::nullopt;
  }

  /// What the language may use on this target.
  virtual bool supportsFloat() const { return true; }
  virtual bool supportsDeviceIntrinsics() const { return true; }
  virtual bool supportsSharedMemory() const { return true; }
  virtual bool supportsCalls() const { return true; }
  virtual bool supportsAtomics() const { return true; }

  /// Rejects a config this target cannot compile for (an unknown `--arch`)
  /// with a "config" diagnostic; called by CompilerConfig::create once the
  /// arch is fixed. Default: everything is accepted.
  virtual llvm::Error checkConfig(const CompilerConfig &C) const {
    return llvm::Error::success();
  }
  /// The TargetMachine for the config (created once per config).
  virtual llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
  createTargetMachine(const CompilerConfig &C) const;

  // Codegen hooks (see codegen/). `KernelState` is the hidden per-thread
  // state argument of the function being emitted when usesKernelState() is
  // true, null otherwise.
  /// 0-based thread/block index or dimension as an i32.
  virtual llvm::Value *emitDeviceIndex(llvm::IRBuilderBase &B, Builtin Which,
                                       llvm::Value *KernelState) const;
  virtual void emitBarrier(llvm::IRBuilderBase &B,
                           llvm::Value *KernelState) const;
  /// `shared_array(T, n)`: a pointer (generic address space) to `N` elements
  /// of `EltTy` in block-shared memory. Each call site gets its own array;
  /// `Offset` is its byte offset in the kernel's shared segment (targets that
  /// carve shared memory from a runtime buffer use it; the default makes a
  /// module-level `[N x T]` global in the Shared address space instead,
  /// and records its source line in SharedArraysMetadata).
  virtual llvm::Value *emitSharedArray(llvm::IRBuilderBase &B,
                                       llvm::Type *EltTy, uint64_t N,
                                       uint64_t Offset,
                                       llvm::Value *KernelState) const;
  /// Math builtins (sqrt, exp, ...) on a float value; default: LLVM intrinsics.
  virtual llvm::Value *emitMath(llvm::IRBuilderBase &B, Builtin Which,
                                llvm::ArrayRef<llvm::Value *> Args) const;
  /// A call to the math function `Name` (`__nv_tan`; `__nv_tanf` for
  /// Float32 arguments, and a Float16 one computed in Float32, rounded back,
  /// as Julia does), declared once per module; Decorate adds attributes.
  static llvm::Value *
  emitMathCall(llvm::IRBuilderBase &B, llvm::StringRef Name,
               llvm::ArrayRef<llvm::Value *> Args,
               llvm::function_ref<void(llvm::Function &, llvm::CallInst &)>
                   Decorate = {});
  /// The C library's `Name` (`tan`) through emitMathCall, declared pure:
  /// math with no LLVM intrinsic.
  static llvm::Value *emitLibmCall(llvm::IRBuilderBase &B, llvm::StringRef Name,
                                   llvm::ArrayRef<llvm::Value *> Args);
  /// Ends a throw path after the runtime report (default: llvm.trap + unreachable).
  virtual void emitTrap(llvm::IRBuilderBase &B) const;
  /// Whether a throw passes the exception's scalars (prism_throw_detail)
  /// for its showerror text: only where a runtime reads them in-process,
  /// since on a GPU they would cost registers on every throw path.
  virtual bool throwsPassValues() const { return false; }
  /// I (an i32 device index read) with `!range [Lo, End)`: the hardware's
  /// limits, which let `threadIdx().x` (id + 1) stay non-negative and a
  /// bounds check's lower half fold away. Returns I.
  static llvm::Instruction *withRange(llvm::Instruction *I, uint32_t Lo,
                                      uint32_t End);

  /// True when device intrinsics read a hidden state argument instead of
  /// hardware registers (GPUCompiler's kernel_state_type): functions that
  /// use thread indices, barriers or shared memory, and their callers, then
  /// take a leading `ptr %state` parameter.
  virtual bool usesKernelState() const { return false; }
  /// True when the entry additionally gets a uniform C-callable launch
  /// wrapper (`void jfptr_NAME(ptr state, ptr args, ptr ret)`, see
  /// NativeTarget.h) for a host runtime that calls it without libffi.
  virtual bool wantsLaunchWrapper() const { return false; }
  /// BPF packet loads (`bpf_load_byte` ...) are available.
  virtual bool supportsPacketLoads() const { return false; }
  /// The object's line info names the user's line of each instruction (the
  /// first frame outside the prelude) rather than the innermost inlined one:
  /// what reads it is a loader that knows no inlining (the BPF verifier's
  /// log and its rejection).
  virtual bool objectLinesAtUserCode() const { return false; }
  /// Whether the object's debug info needs a subprogram for every function,
  /// which a line-tables-only unit gives only to functions with inlined
  /// calls: the host's stack trace names each compiled frame from it (a
  /// recursion whose body inlines nothing had no name, and no frame).
  virtual bool objectNamesEveryFunction() const { return false; }
  /// Whether final IR may call the declared, non-intrinsic function `Name`
  /// (runtime hooks, libm on the host). Anything else is "call to an
  /// unknown function".
  virtual bool isKnownExternal(llvm::StringRef Name) const;

  /// The symbol the assembly gives an LLVM function name (what a loader
  /// such as cuModuleGetFunction must be passed). PTX identifiers cannot
  /// hold `!`, so ptx maps `julia_saxpy!` to `julia_saxpy_`. Default: the
  /// name itself.
  virtual std::string asmSymbol(llvm::StringRef IRName) const {
    return IRName.str();
  }
  /// After emission: calling convention of the entry, kernel annotations,
  /// launch bounds (GPUCompiler's finish_module!). GPU kernels change the
  /// entry's signature (aggregates `byval`/`byref`), which replaces the
  /// llvm::Function under the same name: `Entry` is dangling afterwards,
  /// look the entry up by its symbol instead.
  virtual llvm::Error finishModule(llvm::Module &M, llvm::Function *Entry,
                                   const CompilerConfig &C) const {
    return llvm::Error::success();
  }
  /// Link device libraries (libdevice) lazily, only what is used.
  virtual llvm::Error linkLibraries(llvm::Module &M,
                                    const CompilerConfig &C) const {
    return llvm::Error::success();
  }
  /// Target-specific pipeline tuning (extension-point callbacks).
  virtual void tunePipeline(llvm::PassBuilder &PB, const CompilerConfig &C) const {}
  /// Restrictions on final LLVM IR, gathered (validate_ir).
  virtual void validateModule(const llvm::Module &M, const CompilerConfig &C,
                              std::vector<Diagnostic> &Out) const {}
  /// Assembly text (mcgen). Backend failures come back as Errors.
  virtual llvm::Expected<std::string> emitAsm(llvm::Module &M,
                                              llvm::TargetMachine &TM) const;
  /// Line information as `.loc` directives only (no DWARF sections, no
  /// debug-mode marker). PTX: a line-tables compile unit makes NVPTX print
  /// `.target sm_XX, debug`, and ptxas then compiles without optimisation.
  virtual bool lineInfoAsDirectives() const { return false; }
  /// How the annotated assembly writes its source comments (`; saxpy.jl:11`):
  /// `;` as Julia's code_native prints them where that is the assembler's
  /// comment leader too (gcn); otherwise the assembler's (PTX `//`, x86 and
  /// bpf `#`), so that the annotated text still assembles.
  virtual AsmCommentStyle asmSourceComments() const { return {";", false}; }
  /// True when the "object" is the assembly text itself (PTX, which the
  /// driver JIT-compiles), so there is nothing separate to emit.
  virtual bool objectIsAsm() const { return false; }
  virtual llvm::Expected<std::string> emitObject(llvm::Module &M,
                                                 llvm::TargetMachine &TM) const;
  /// Registers, spills, shared memory... from the asm (and tools like ptxas).
  virtual void resourceUsage(const std::string &Asm, const CompilerConfig &C,
                             ResourceUsage &Out) const;
  /// Whether resourceUsage runs an external tool (ptxas: a process, tens
  /// of milliseconds), which a live session runs after showing the code.
  virtual bool resourceUsageRunsATool() const { return false; }
};

/// The target for a name, or an Error ("unknown target `x`", "AMDGPU not
/// built into this LLVM") — never a crash.
llvm::Expected<const Target *> lookupTarget(llvm::StringRef Name);

} // namespace prism
