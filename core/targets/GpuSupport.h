/// \file
/// Pieces the GPU targets (ptx, gcn) share: the kernel argument ABI rewrite
/// (GPUCompiler's `lower_byval` / AMD's `byref`), finding and running the
/// vendor tools (ptxas, ld.lld) with a timeout, and the device runtime's
/// `prism_throw` body, which only exists once a module is code-generated.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace prism {

/// How a kernel receives aggregate (struct, tuple) arguments.
enum class AggregateArgABI {
  /// `ptr byval(%T) align N`: NVPTX lowers it to a `.param` array and, since
  /// the pointers it holds came from the host, marks pointers loaded from it
  /// as global (NVPTXLowerArgs) — hence `ld.global` for DeviceArray data.
  ByVal,
  /// `ptr addrspace(4) byref(%T) align N`: the argument stays in the kernarg
  /// segment and is read with scalar loads; AMDGPUPromoteKernelArguments
  /// then treats the pointers loaded from it as global.
  ByRefConstant,
};

/// Rewrites the kernel `Entry` so that every first-class aggregate parameter
/// is passed by reference as `ABI` says, loading the aggregate at the top of
/// the body (SROA/InstCombine turn that into field loads). The body, name,
/// attributes and DISubprogram move to the new function and `Entry` is
/// erased, so the caller must use the returned function. Entries that are
/// called from the module itself (recursive kernels) are left alone.
llvm::Function *passAggregatesByReference(llvm::Function &Entry,
                                          AggregateArgABI ABI);

/// The first of `Names` found in `$PATH`, then in `ExtraDirs`.
std::optional<std::string> findTool(llvm::ArrayRef<llvm::StringRef> Names,
                                    llvm::ArrayRef<std::string> ExtraDirs);

/// The outcome of one external tool run.
struct ToolRun {
  int ExitCode = -1;   ///< -1 when it did not finish (crash, timeout)
  std::string Output;  ///< stdout and stderr, in that order
  std::string Message; ///< why it did not run or finish, else empty
};

/// Runs `Program Args...` (Args excludes argv[0]) with stdin closed, its
/// output captured through temporary files, and a wall-clock limit.
ToolRun runTool(llvm::StringRef Program, llvm::ArrayRef<std::string> Args,
                unsigned TimeoutSeconds = 60);

/// Writes `Contents` to a fresh temporary file `prism-XXXXXX.<Suffix>`
/// and returns its path; the caller removes it.
llvm::Expected<std::string> writeTempFile(llvm::StringRef Suffix,
                                          llvm::StringRef Contents);

/// Counts instruction lines of GPU assembly: lines that are not blank,
/// comments, labels, directives or braces; for PTX (`Semicolons`) a
/// statement counts once at its terminating `;` (calls span lines). GCN
/// metadata blocks (`.amdgpu_metadata`, `.amdhsa_kernel`) are skipped.
int countAsmInstructions(llvm::StringRef Asm, bool Semicolons);

} // namespace prism
