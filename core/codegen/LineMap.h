/// \file
/// Source-line maps for printed LLVM IR and assembly: one `LineOrigin` per
/// output line, following `inlinedAt` chains, so views can colour IR and asm
/// by the source line they came from — including code inlined from the
/// prelude (what Compiler Explorer's mapping gets wrong).
///
///  - LLVM IR: printed with an AssemblyAnnotationWriter that records, for
///    each instruction, the output line it lands on and its DILocation.
///  - Assembly: `.loc` directives carry only a line and a column, never the
///    inlining chain, and one prelude line inlined twice would be ambiguous.
///    So the module that is code-generated for reading is first tagged
///    (`tagLocations`): every distinct DILocation gets a unique line number
///    from which the annotator recovers the full chain exactly. Untagged
///    asm falls back to matching (file, line, column). `annotateAsm` rewrites
///    the text as
///    `code_native` shows it: directives for debug info dropped, and a
///    comment `; saxpy.jl:5` (or `; 70_array.jl:12 getindex, inlined into
///    saxpy! at saxpy.jl:5`) before the instructions of each new line.
#pragma once

#include "cache/JobReport.h"

#include "llvm/ADT/StringRef.h"

#include <span>
#include <string>
#include <vector>

namespace llvm {
class DILocation;
class Function;
class Instruction;
class Module;
} // namespace llvm

namespace prism {

/// The frames of a DILocation, innermost first.
LineOrigin lineOriginOf(const llvm::DILocation *L);

/// The instructions of \p F whose own (innermost) place is
/// \p File:\p Line:\p Col, in order: what a diagnostic's or a remark
/// argument's location names, which carries no inlining chain. Each
/// inlined copy of that code is one of them.
std::vector<const llvm::Instruction *> instructionsAt(const llvm::Function &F,
                                                      llvm::StringRef File,
                                                      unsigned Line,
                                                      unsigned Col);

/// Prints `M` and returns one origin per line of the result.
std::string printModuleWithLines(const llvm::Module &M,
                                 std::vector<LineOrigin> &Lines);

struct AsmAnnotation {
  std::string Text;             ///< code_native text
  std::vector<LineOrigin> Lines; ///< one per line of Text
};

/// Replaces every instruction's DILocation in M by a copy whose line is
/// `LocationTagBase + i`, and returns the originals by i. Only for a module
/// whose asm is annotated, never for one whose asm is shown raw.
constexpr unsigned LocationTagBase = 1u << 30;
std::vector<const llvm::DILocation *> tagLocations(llvm::Module &M);
/// The original location behind a tag line, or null when \p Line is no
/// tag (or one Tags does not know).
inline const llvm::DILocation *
untagLine(unsigned Line, std::span<const llvm::DILocation *const> Tags) {
  return Line >= LocationTagBase && Line - LocationTagBase < Tags.size()
             ? Tags[Line - LocationTagBase]
             : nullptr;
}

/// `saxpy.jl:5`, `70_array.jl:12 getindex, inlined into saxpy! at
/// saxpy.jl:5`, or deeper `30_int.jl:7 -, inlined into - at 30_int.jl:27,
/// within saxpy! at saxpy.jl:9`: how code_native and code_llvm name an
/// output line's origin. Every user frame further out follows, up to the
/// entry (`40_float.jl:6 *, inlined into sq at t5.jl:1, within two at
/// t5.jl:3`).
std::string describeOrigin(const LineOrigin &O);

/// Printed LLVM IR (`Text`, with one origin per line in `Lines`) as
/// code_llvm shows it: a comment `; saxpy.jl:5` before the instructions of
/// each new source line of a function, as Julia's code_llvm annotates.
std::string annotateIR(llvm::StringRef Text,
                       const std::vector<LineOrigin> &Lines);

/// `Raw` is the backend's asm for `M` (the module that was code-generated,
/// before MC lowering). `Comment` is the target's comment leader. `Tags`:
/// what tagLocations returned for M, when it was tagged. `AsciiOnly`: the
/// comments write any other character as `U+XXXX` (ptxas reads nothing else).
AsmAnnotation
annotateAsm(const std::string &Raw, const llvm::Module &M,
            const std::string &Comment = ";",
            const std::vector<const llvm::DILocation *> &Tags = {},
            bool AsciiOnly = false);

} // namespace prism
