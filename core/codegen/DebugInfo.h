/// \file
/// Debug info for emitted code: one DICompileUnit per module, a DIFile per
/// source file, a DISubprogram per function (name = the Julia function,
/// linkage name = the LLVM symbol) and a DILocation per statement from its
/// source range. LLVM's inliner turns these into `inlinedAt` chains, which is
/// what lets every later stage map code back to source through inlining.
#pragma once

#include "llvm/IR/DebugInfoMetadata.h"

#include "support/SourceFile.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/DebugLoc.h"

#include <memory>

namespace prism {

class DebugInfoEmitter {
public:
  /// The compile unit's emission kind: FullDebug, LineTablesOnly, or
  /// DebugDirectivesOnly (PTX: `.loc` lines without `.target ..., debug`,
  /// which would make ptxas compile unoptimised debug code).
  /// EveryFunction: a subprogram DIE for each function, where LLVM gives a
  /// line-tables-only unit DIEs only for those with inlined calls (the
  /// unit's debugInfoForProfiling flag, which changes nothing else here).
  DebugInfoEmitter(llvm::Module &M, llvm::DICompileUnit::DebugEmissionKind Kind,
                   bool EveryFunction = false);
  ~DebugInfoEmitter();

  llvm::DIFile *file(const SourceFileRef &F);
  /// A subprogram for a function defined at `Range` of `File`.
  llvm::DISubprogram *subprogram(llvm::Function &Fn, llvm::StringRef Name,
                                 const SourceFileRef &File, SrcRange Range,
                                 bool LocalToUnit, bool Artificial = false);
  /// A subprogram for a function that only exists inlined (Prism's typed
  /// inliner put its code into its callers): the scope of its statements.
  llvm::DISubprogram *inlinedSubprogram(llvm::StringRef Name,
                                        const SourceFileRef &File,
                                        SrcRange Range);
  /// The location of `Range` in `File` inside `Scope` (line 0 when unknown),
  /// inlined at `InlinedAt` when given.
  llvm::DILocation *location(llvm::DISubprogram *Scope,
                             const SourceFileRef &File, SrcRange Range,
                             llvm::DILocation *InlinedAt = nullptr);
  /// Finalises the DIBuilder; call once after all functions are emitted.
  void finalize();

private:
  llvm::Module &M;
  llvm::DIBuilder DIB;
  llvm::DICompileUnit *CU = nullptr;
  llvm::DenseMap<const SourceFile *, llvm::DIFile *> Files;
  llvm::DISubroutineType *EmptyFnType = nullptr;
};

} // namespace prism
