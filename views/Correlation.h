/// \file
/// How the views show a line correlation (cache/LineCorrelation.h): a
/// stable colour per source line and the inlining stack as a tooltip.
#pragma once

#include "cache/LineCorrelation.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace prism::views {

/// A stable colour per source line (Compiler Explorer's idea): neighbouring
/// lines get clearly different hues, the same line always the same one.
struct Rgb {
  float R = 0, G = 0, B = 0;
};
Rgb sourceLineColor(uint32_t SrcLine);

/// The inlining stack as a tooltip shows it, one frame a line:
/// `getindex at base.jl:12:5 (inlined)` ... `saxpy! at saxpy.jl:5:19`.
std::string formatInliningStack(const LineOrigin &O);

} // namespace prism::views
