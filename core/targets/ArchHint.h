/// \file
/// An --arch that belongs to another target (`--arch sm_80` without
/// `--target ptx`): what to add, for the "does not support --arch" error.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>

namespace prism {

/// "; `sm_80` is a ptx architecture (--target ptx)", or empty when
/// \p Arch looks like none of the GPU targets' or is \p ThisTarget's own.
inline std::string otherTargetsArchHint(llvm::StringRef Arch,
                                        llvm::StringRef ThisTarget) {
  llvm::StringRef Other = Arch.startswith("sm_")    ? "ptx"
                          : Arch.startswith("gfx")  ? "gcn"
                          : Arch.startswith("compute_") ? "ptx"
                                                    : "";
  if (Other.empty() || Other == ThisTarget)
    return "";
  return "; `" + Arch.str() + "` is a " + Other.str() +
         " architecture (--target " + Other.str() + ")";
}

} // namespace prism
