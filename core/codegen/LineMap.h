/// \file
/// Source-line maps for printed LLVM IR and assembly: one `LineOrigin` per
/// output line, following `inlinedAt` chains, so views can colour IR and asm
/// by the source line they came from — including code inlined from the
/// prelude (what Compiler Explorer's mapping gets wrong).
///
///  - LLVM IR: printed with an AssemblyAnnotationWriter that records, for
///    each instruction, the output line it lands on and its DILocation.
///  - Assembly: `.file`/`.loc` directives give the innermost position; the
///    inlining chain is recovered from the optimised module's DILocations
///    with the same (file, line, column). `annotateAsm` rewrites the text as
///    `code_native` shows it: directives for debug info dropped, and a
///    comment `; saxpy.jl:5` (or `; 70_array.jl:12 getindex, inlined into
///    saxpy! at saxpy.jl:5`) before the instructions of each new line.
#pragma once

#include "cache/JobReport.h"

#include <string>
#include <vector>

namespace llvm {
class DILocation;
class Module;
} // namespace llvm

namespace prism {

/// The frames of a DILocation, innermost first.
LineOrigin lineOriginOf(const llvm::DILocation *L);

/// Prints `M` and returns one origin per line of the result.
std::string printModuleWithLines(const llvm::Module &M,
                                 std::vector<LineOrigin> &Lines);

struct AsmAnnotation {
  std::string Text;             ///< code_native text
  std::vector<LineOrigin> Lines; ///< one per line of Text
};

/// `Raw` is the backend's asm for `M` (the module that was code-generated,
/// before MC lowering). `Comment` is the target's comment leader.
AsmAnnotation annotateAsm(const std::string &Raw, const llvm::Module &M,
                          const std::string &Comment = ";");

} // namespace prism
