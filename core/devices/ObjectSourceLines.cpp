// Address → source line for native objects the host JIT loaded.
#include "devices/ObjectSourceLines.h"

#include "prelude/Embedded.h"

#include "llvm/DebugInfo/DIContext.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

namespace prism {

std::optional<ObjectSourceLine>
sourceLineOfAddress(llvm::ArrayRef<uint8_t> Object, llvm::StringRef Symbol,
                    uint64_t SymbolAddress, uint64_t PC) {
  llvm::MemoryBufferRef Ref(
      llvm::StringRef(reinterpret_cast<const char *>(Object.data()),
                      Object.size()),
      "kernel");
  auto Obj = llvm::object::ObjectFile::createObjectFile(Ref);
  if (!Obj) {
    llvm::consumeError(Obj.takeError());
    return std::nullopt;
  }
  // Where the JIT put Symbol's section: everything compiled is in one
  // text section, whose offsets the line table uses.
  std::optional<llvm::object::SectionRef> Section;
  uint64_t Offset = 0;
  for (const llvm::object::SymbolRef &S : (*Obj)->symbols()) {
    llvm::Expected<llvm::StringRef> Name = S.getName();
    if (!Name) {
      llvm::consumeError(Name.takeError());
      continue;
    }
    if (*Name != Symbol)
      continue;
    auto Sec = S.getSection();
    auto Value = S.getValue();
    if (!Sec || !Value || *Sec == (*Obj)->section_end()) {
      if (!Sec)
        llvm::consumeError(Sec.takeError());
      if (!Value)
        llvm::consumeError(Value.takeError());
      return std::nullopt;
    }
    const uint64_t Base = SymbolAddress - (*Value - (*Sec)->getAddress());
    if (PC < Base || PC - Base >= (*Sec)->getSize())
      return std::nullopt;
    Section = **Sec;
    Offset = (*Sec)->getAddress() + (PC - Base);
    break;
  }
  if (!Section)
    return std::nullopt;

  // The context applies the object's relocations to its debug sections.
  std::unique_ptr<llvm::DWARFContext> Ctx = llvm::DWARFContext::create(
      **Obj, llvm::DWARFContext::ProcessDebugRelocations::Process, nullptr, "",
      [](llvm::Error E) { llvm::consumeError(std::move(E)); },
      [](llvm::Error E) { llvm::consumeError(std::move(E)); });
  llvm::DILineInfoSpecifier Spec(
      llvm::DILineInfoSpecifier::FileLineInfoKind::RelativeFilePath,
      llvm::DILineInfoSpecifier::FunctionNameKind::ShortName);
  llvm::DIInliningInfo Frames =
      Ctx->getInliningInfoForAddress({Offset, Section->getIndex()}, Spec);
  // Frame 0 is the innermost.
  std::optional<ObjectSourceLine> Outermost;
  for (uint32_t I = 0; I < Frames.getNumberOfFrames(); ++I) {
    const llvm::DILineInfo &F = Frames.getFrame(I);
    if (F.Line == 0 || F.FileName == llvm::DILineInfo::BadString)
      continue;
    ObjectSourceLine L{F.FileName, F.Line, F.Column, F.FunctionName};
    if (!isPreludePath(F.FileName))
      return L;
    Outermost = std::move(L);
  }
  return Outermost;
}

} // namespace prism
