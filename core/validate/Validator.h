/// \file
/// Validation before the backend (GPUCompiler's `check_invocation`,
/// `validate_ir` and InvalidIRError): every problem is gathered and reported
/// together, each as a Diagnostic with a kind, a message, the source line
/// and the call backtrace (`[1] getindex at prelude/70_array.jl:12`,
/// `[2] saxpy! at saxpy.jl:5`).
///
/// Two levels:
///  - typed IR (before emission; emission requires it to pass): values whose
///    type is not concrete (naming the variable, its type and line), calls
///    that could not be resolved statically, calls of undefined functions,
///    target restrictions on builtins and floats, kernel return types;
///  - final LLVM IR (before asm): calls to unknown external functions,
///    target restrictions on what optimisation left, and the target's own
///    `validateModule` hook. Locations come from `!dbg` inlining chains.
///
/// Kinds (stable tags): "non-concrete", "dynamic-call", "undefined-function",
/// "type-error", "target-restriction", "kernel-return", "unknown-function".
#pragma once

#include "infer/Inference.h"
#include "support/Diagnostic.h"

#include <vector>

namespace llvm {
class DILocation;
class Module;
class Instruction;
} // namespace llvm

namespace prism {

class CompilerConfig;
class GlobalEnv;

/// Checks the CodeInstance closure (R.Roots[0] is the job's entry). `Env`
/// (optional) tells an undefined global from a dynamic call.
std::vector<Diagnostic> validateTyped(const InferResult &R,
                                      const CompilerConfig &C,
                                      const GlobalEnv *Env = nullptr);

/// Checks the final (optimised) LLVM module.
std::vector<Diagnostic> validateLLVM(const llvm::Module &M,
                                     const CompilerConfig &C);

/// Location and inlining backtrace of an instruction from its `!dbg`
/// chain (innermost frame first); an unknown location when it has none.
void locateInstruction(const llvm::Instruction &I, Diagnostic &D);
/// The same from a location itself (a backend error's).
void locateDebugLoc(const llvm::DILocation *L, Diagnostic &D);

} // namespace prism
