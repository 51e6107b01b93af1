/// \file
/// LLVM IR emission (Julia's codegen, `jl_emit_code` over a batch): takes the
/// closed set of CodeInstances that inference returned and emits one
/// llvm::Module with one function per CodeInstance, without ever calling
/// back into inference. Functions are named like Julia's (`julia_square_2`);
/// the entry takes the config's entry name or `julia_<name>` and is the only
/// externally visible function (plus the native launch wrapper).
///
/// The input must have passed validation (validate/Validator.h): every value
/// has a concrete type and every call is resolved. Violations here are
/// compiler bugs, reported as "internal" diagnostics rather than crashes.
#pragma once

#include "infer/Inference.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
class DataLayout;
class Function;
class LLVMContext;
class Module;
} // namespace llvm

namespace prism {

class CompilerConfig;

struct EmittedModule {
  std::unique_ptr<llvm::Module> M;
  llvm::Function *Entry = nullptr;
  /// Native only: `void jfptr_NAME(ptr state, ptr args, ptr ret)`.
  llvm::Function *LaunchWrapper = nullptr;
  std::string EntrySymbol;
  /// Bytes of block-shared memory the code uses (sum over call sites of
  /// `shared_array`, each 16-byte aligned).
  uint64_t SharedBytes = 0;
};

/// The default entry symbol for a function name: `julia_saxpy!`.
std::string defaultEntrySymbol(llvm::StringRef FunctionName);

/// Emits the module for `R` (R.Roots[0] is the entry). `DL`/triple come from
/// the config's TargetMachine.
llvm::Expected<EmittedModule> emitModule(llvm::LLVMContext &Ctx,
                                         const InferResult &R,
                                         const CompilerConfig &C,
                                         const llvm::DataLayout &DL,
                                         llvm::StringRef Triple);

/// After optimisation: rewrites the `file`/`line` arguments of every
/// `prism_throw` call to the innermost user (non-prelude) frame of its
/// `!dbg` inlining chain, so the runtime reports the user's line.
void retargetThrowLocations(llvm::Module &M);

/// Gives every instruction the location of its first inlining frame outside
/// the prelude (for Target::objectLinesAtUserCode): `+` inlined into the
/// user's loop is located on the loop's line.
void locateAtUserCode(llvm::Module &M);

} // namespace prism
