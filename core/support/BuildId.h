/// \file
/// The GNU build ID of the binary Prism's code was linked into: a hash the
/// linker computes over the code (`--build-id`), different for every
/// build that differs. The on-disk compile cache puts it in its keys, so a
/// rebuilt Prism whose code generator changed never reads artefacts that
/// another build wrote under the same version number.
#pragma once

#include "llvm/ADT/StringRef.h"

namespace prism {

/// The build ID as lowercase hex, or "" when the binary has none. Read
/// once from the loaded program headers (no file I/O).
llvm::StringRef buildId();

} // namespace prism
