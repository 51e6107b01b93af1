/// \file
/// The `Target` interface: everything a backend customises, one file per
/// target (ptx, gcn, bpf, native), following GPUCompiler.jl's hooks
/// (llvm_triple, llvm_datalayout, llvm_machine, finish_module!,
/// optimize_module!, validate_ir, mcgen). Defaults live in the base class;
/// a target overrides only what differs.
#pragma once

#include "lang/IR.h"
#include "support/Diagnostic.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
class Function;
class TargetMachine;
class PassBuilder;
class Value;
class IRBuilderBase;
class LLVMContext;
} // namespace llvm

namespace prism {

class CompilerConfig;
struct ResourceUsage;

/// Address spaces a target assigns to the kernel language's memories.
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

  /// What the language may use on this target.
  virtual bool supportsFloat() const { return true; }
  virtual bool supportsDeviceIntrinsics() const { return true; }
  virtual bool supportsSharedMemory() const { return true; }
  virtual bool supportsCalls() const { return true; }
  virtual bool supportsAtomics() const { return true; }

  /// The TargetMachine for the config (created once per config).
  virtual llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
  createTargetMachine(const CompilerConfig &C) const;

  // Codegen hooks (see codegen/): device intrinsics, math and traps.
  /// 0-based thread/block index or dimension as an i32.
  virtual llvm::Value *emitDeviceIndex(llvm::IRBuilderBase &B, Builtin Which) const;
  virtual void emitBarrier(llvm::IRBuilderBase &B) const;
  /// Math builtins (sqrt, exp, ...) on a float value; default: LLVM intrinsics.
  virtual llvm::Value *emitMath(llvm::IRBuilderBase &B, Builtin Which,
                                llvm::ArrayRef<llvm::Value *> Args) const;
  /// Ends a throw path after the runtime report (default: llvm.trap + unreachable).
  virtual void emitTrap(llvm::IRBuilderBase &B) const;

  /// After emission: calling convention of the entry, kernel annotations,
  /// launch bounds (GPUCompiler's finish_module!).
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
  virtual llvm::Expected<std::string> emitObject(llvm::Module &M,
                                                 llvm::TargetMachine &TM) const;
  /// Registers, spills, shared memory... from the asm (and tools like ptxas).
  virtual void resourceUsage(const std::string &Asm, const CompilerConfig &C,
                             ResourceUsage &Out) const;
};

/// The target for a name, or an Error ("unknown target `x`", "AMDGPU not
/// built into this LLVM") — never a crash.
llvm::Expected<const Target *> lookupTarget(llvm::StringRef Name);

} // namespace prism
