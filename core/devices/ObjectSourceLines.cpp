// Address → source lines for native objects the host JIT loaded.
#include "devices/ObjectSourceLines.h"

#include "prelude/Embedded.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/DebugInfo/DIContext.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

namespace prism {

ObjectSourceLines::~ObjectSourceLines() = default;

std::unique_ptr<ObjectSourceLines>
ObjectSourceLines::create(llvm::ArrayRef<uint8_t> Object,
                          llvm::StringRef Symbol, uint64_t SymbolAddress) {
  std::unique_ptr<ObjectSourceLines> L(new ObjectSourceLines);
  L->Buffer = llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(reinterpret_cast<const char *>(Object.data()),
                      Object.size()),
      "kernel");
  auto Obj = llvm::object::ObjectFile::createObjectFile(*L->Buffer);
  if (!Obj) {
    llvm::consumeError(Obj.takeError());
    return nullptr;
  }
  L->Obj = std::move(*Obj);
  // Where the JIT put Symbol's section.
  for (const llvm::object::SymbolRef &S : L->Obj->symbols()) {
    llvm::Expected<llvm::StringRef> Name = S.getName();
    if (!Name) {
      llvm::consumeError(Name.takeError());
      continue;
    }
    if (*Name != Symbol)
      continue;
    auto Sec = S.getSection();
    auto Value = S.getValue();
    if (!Sec || !Value || *Sec == L->Obj->section_end()) {
      if (!Sec)
        llvm::consumeError(Sec.takeError());
      if (!Value)
        llvm::consumeError(Value.takeError());
      return nullptr;
    }
    L->SectionIndex = (*Sec)->getIndex();
    L->SectionAddress = (*Sec)->getAddress();
    L->Begin = SymbolAddress - (*Value - L->SectionAddress);
    L->End = L->Begin + (*Sec)->getSize();
    return L;
  }
  return nullptr;
}

std::vector<ObjectSourceLine> ObjectSourceLines::frames(uint64_t PC) const {
  std::vector<ObjectSourceLine> Out;
  if (PC < Begin || PC >= End)
    return Out;
  // The context applies the object's relocations to its debug sections.
  if (!Ctx)
    Ctx = llvm::DWARFContext::create(
        *Obj, llvm::DWARFContext::ProcessDebugRelocations::Process, nullptr, "",
        [](llvm::Error E) { llvm::consumeError(std::move(E)); },
        [](llvm::Error E) { llvm::consumeError(std::move(E)); });
  llvm::DILineInfoSpecifier Spec(
      llvm::DILineInfoSpecifier::FileLineInfoKind::RelativeFilePath,
      llvm::DILineInfoSpecifier::FunctionNameKind::ShortName);
  llvm::DIInliningInfo Frames = Ctx->getInliningInfoForAddress(
      {SectionAddress + (PC - Begin), SectionIndex}, Spec);
  // Frame 0 is the innermost; every frame but the last is inlined. A frame
  // at line 0 is code optimisation merged from two places (two throws of
  // one callee inlined twice): its function is known, its line is not.
  const uint32_t N = Frames.getNumberOfFrames();
  for (uint32_t I = 0; I < N; ++I) {
    const llvm::DILineInfo &F = Frames.getFrame(I);
    if (F.FunctionName == llvm::DILineInfo::BadString ||
        F.FileName == llvm::DILineInfo::BadString)
      continue;
    Out.push_back(
        {F.FileName, F.Line, F.Line ? F.Column : 0, F.FunctionName, I + 1 < N});
  }
  return Out;
}

std::optional<ObjectSourceLine> ObjectSourceLines::userLine(uint64_t PC) const {
  std::vector<ObjectSourceLine> Fs = frames(PC);
  llvm::erase_if(Fs, [](const ObjectSourceLine &F) { return F.Line == 0; });
  for (ObjectSourceLine &F : Fs)
    if (!isPreludePath(F.File))
      return std::move(F);
  if (Fs.empty())
    return std::nullopt;
  return std::move(Fs.back());
}

} // namespace prism
