/// \file
/// Which source lines a machine address of a loaded native object belongs
/// to, read from the object's own line tables: the host device names the
/// line of a fault in compiled code with it, and the frames of a throw.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class DWARFContext;
class MemoryBuffer;
namespace object {
class ObjectFile;
}
} // namespace llvm

namespace prism {

struct ObjectSourceLine {
  std::string File; ///< as the line table names it (`saxpy.jl`)
  uint32_t Line = 0;
  uint32_t Col = 0;     ///< 0 when the table has none
  std::string Function; ///< the frame's function (its DWARF name)
  /// Whether this frame was inlined into the next one at the same address.
  bool Inlined = false;
};

/// The line tables of a relocatable object loaded into this process, whose
/// symbol Symbol the JIT placed at SymbolAddress. Everything compiled is
/// in one text section, which that symbol locates.
class ObjectSourceLines {
public:
  /// None when the object cannot be read or has no such symbol.
  static std::unique_ptr<ObjectSourceLines>
  create(llvm::ArrayRef<uint8_t> Object, llvm::StringRef Symbol,
         uint64_t SymbolAddress);
  ~ObjectSourceLines();

  /// Where the text section lies in memory: [textBegin, textEnd).
  uint64_t textBegin() const { return Begin; }
  uint64_t textEnd() const { return End; }

  /// The frames inlined at address PC, innermost first (a frame of merged
  /// code has line 0); empty outside the text section or where the table
  /// has no line.
  std::vector<ObjectSourceLine> frames(uint64_t PC) const;

  /// Of frames(PC), the innermost one outside the prelude (where the user's
  /// code was when a prelude function it called faulted), else the
  /// outermost; none when there is no frame.
  std::optional<ObjectSourceLine> userLine(uint64_t PC) const;

private:
  ObjectSourceLines() = default;
  std::unique_ptr<llvm::MemoryBuffer> Buffer;
  std::unique_ptr<llvm::object::ObjectFile> Obj;
  unsigned SectionIndex = 0;
  uint64_t SectionAddress = 0; ///< the section's address in the object
  uint64_t Begin = 0, End = 0;
  /// Read on the first query: most launches never ask.
  mutable std::unique_ptr<llvm::DWARFContext> Ctx;
};

} // namespace prism
