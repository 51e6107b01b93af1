/// \file
/// Reports and snapshots for the view tests, written the way the compiler
/// prints them: a saxpy kernel whose `axpy` helper (line 2) is inlined
/// into the kernel at line 7, with typed IR, LLVM IR (raw and optimised),
/// PTX, pass snapshots, figures and line origins through the inlining.
#pragma once

#include "ViewModel.h"

#include <string>

namespace prism::views::test {

/// The open file the sample reports refer to.
extern const char *const SaxpySource;
inline constexpr const char *SaxpyPath = "/work/examples/saxpy_inline.jl";

/// The sample job at an -O level (2 or 3 differ in their text and figures).
JobReportRef makeSaxpyReport(unsigned OptLevel = 2);

/// A snapshot with two jobs (ptx -O2 and -O3), devices, an invalidation
/// entry; the first job selected.
GuiSnapshot makeSnapshot();

/// A report whose optimised LLVM IR has N lines, each mapped to a source
/// line (every seventh through an inlined frame).
JobReportRef makeLargeReport(unsigned N);

} // namespace prism::views::test
