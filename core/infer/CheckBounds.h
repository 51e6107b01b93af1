/// \file
/// Julia's `--check-bounds`: whether `@boundscheck` blocks (the array
/// accesses' bounds checks) run. A mode of the whole InferenceEngine, as
/// Julia's is of the whole process. Kept apart from Inference.h so that the
/// GUI's view model can name it without the compiler's headers.
#pragma once

#include <cstdint>

namespace prism {

enum class CheckBounds : uint8_t {
  Auto, ///< checked, unless the access sits inside `@inbounds`
  Yes,  ///< always checked, `@inbounds` or not
  No,   ///< never checked (as if every access were `@inbounds`)
};

/// Every mode, in menu order.
inline constexpr CheckBounds AllCheckBounds[] = {CheckBounds::Auto,
                                                 CheckBounds::Yes,
                                                 CheckBounds::No};

/// "auto", "yes", "no".
const char *checkBoundsName(CheckBounds C);
/// What the mode does, for menus: "skipped inside @inbounds", ...
const char *checkBoundsMeaning(CheckBounds C);

} // namespace prism
