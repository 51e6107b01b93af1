#include "codegen/DebugInfo.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

namespace prism {

DebugInfoEmitter::DebugInfoEmitter(
    llvm::Module &M, llvm::DICompileUnit::DebugEmissionKind Kind,
    bool EveryFunction)
    : M(M), DIB(M) {
  // The verifier and every backend require these module flags.
  M.addModuleFlag(llvm::Module::Warning, "Dwarf Version", 4);
  M.addModuleFlag(llvm::Module::Warning, "Debug Info Version",
                  llvm::DEBUG_METADATA_VERSION);
  llvm::DIFile *Unknown = DIB.createFile("<prism>", "");
  CU = DIB.createCompileUnit(
      llvm::dwarf::DW_LANG_Julia, Unknown, "prism", /*isOptimized=*/true, "",
      0, "", Kind, /*DWOId=*/0, /*SplitDebugInlining=*/true,
      /*DebugInfoForProfiling=*/EveryFunction);
  EmptyFnType = DIB.createSubroutineType(DIB.getOrCreateTypeArray({}));
}

DebugInfoEmitter::~DebugInfoEmitter() = default;

llvm::DIFile *DebugInfoEmitter::file(const SourceFileRef &F) {
  if (!F)
    return CU->getFile();
  auto [It, Inserted] = Files.try_emplace(F.get(), nullptr);
  if (Inserted)
    It->second = DIB.createFile(F->name(), "");
  return It->second;
}

llvm::DISubprogram *DebugInfoEmitter::subprogram(llvm::Function &Fn,
                                                 llvm::StringRef Name,
                                                 const SourceFileRef &File,
                                                 SrcRange Range,
                                                 bool LocalToUnit,
                                                 bool Artificial) {
  unsigned Line = File && Range.valid() ? File->lineCol(Range.Begin).Line : 0;
  auto SPFlags = llvm::DISubprogram::SPFlagDefinition |
                 llvm::DISubprogram::SPFlagOptimized;
  if (LocalToUnit)
    SPFlags |= llvm::DISubprogram::SPFlagLocalToUnit;
  llvm::DIFile *F = file(File);
  llvm::DISubprogram *SP = DIB.createFunction(
      F, Name, Fn.getName(), F, Line, EmptyFnType, Line,
      Artificial ? llvm::DINode::FlagArtificial : llvm::DINode::FlagZero,
      SPFlags);
  Fn.setSubprogram(SP);
  return SP;
}

llvm::DISubprogram *DebugInfoEmitter::inlinedSubprogram(
    llvm::StringRef Name, const SourceFileRef &File, SrcRange Range) {
  unsigned Line = File && Range.valid() ? File->lineCol(Range.Begin).Line : 0;
  llvm::DIFile *F = file(File);
  return DIB.createFunction(F, Name, "", F, Line, EmptyFnType, Line,
                            llvm::DINode::FlagZero,
                            llvm::DISubprogram::SPFlagDefinition |
                                llvm::DISubprogram::SPFlagOptimized |
                                llvm::DISubprogram::SPFlagLocalToUnit);
}

llvm::DILocation *DebugInfoEmitter::location(llvm::DISubprogram *Scope,
                                             const SourceFileRef &File,
                                             SrcRange Range,
                                             llvm::DILocation *InlinedAt) {
  unsigned Line = 0, Col = 0;
  if (File && Range.valid()) {
    LineCol LC = File->lineCol(Range.Begin);
    Line = LC.Line;
    Col = LC.Col;
  }
  llvm::DIScope *S = Scope;
  // A statement from another file than its function (macro-like prelude
  // code) gets a lexical block file so the DILocation names the right file.
  if (File && Scope && Scope->getFile() != file(File))
    S = DIB.createLexicalBlockFile(Scope, file(File));
  return llvm::DILocation::get(M.getContext(), Line, Col, S, InlinedAt);
}

void DebugInfoEmitter::finalize() { DIB.finalize(); }

} // namespace prism
