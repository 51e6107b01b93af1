/// \file
/// Which source line a machine address of a loaded native object belongs
/// to, read from the object's own line tables: the host device names the
/// line of a fault in compiled code with it.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace prism {

struct ObjectSourceLine {
  std::string File; ///< as the line table names it (`saxpy.jl`)
  uint32_t Line = 0;
  uint32_t Col = 0;     ///< 0 when the table has none
  std::string Function; ///< the frame's function (its DWARF name)
};

/// The source of address PC in a relocatable object loaded into this
/// process, whose symbol Symbol the JIT placed at SymbolAddress (the
/// symbol's section places the rest). Of the frames inlined at PC, the
/// innermost one outside the prelude: where the user's code was when a
/// prelude function it called faulted. None when PC is outside that
/// section or the object has no line table for it.
std::optional<ObjectSourceLine>
sourceLineOfAddress(llvm::ArrayRef<uint8_t> Object, llvm::StringRef Symbol,
                    uint64_t SymbolAddress, uint64_t PC);

} // namespace prism
