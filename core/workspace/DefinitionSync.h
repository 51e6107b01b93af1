/// \file
/// Keeps a GlobalEnv's methods what loading the open file from scratch would
/// make them, while loading only what an edit changed (Revise's rule: the
/// file is the truth). A definition whose text is new is loaded; the
/// methods of a definition that left the file are deleted; a definition
/// that a later one in the file overwrites stays overwritten.
#pragma once

#include "types/Loader.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace prism {

class DefinitionSync {
public:
  /// Brings Env in line with F (parsed without errors). The result lists
  /// every method added and every method replaced or deleted, in the
  /// worlds they happened, for invalidation; both are empty when the edit
  /// changed no definition. On a load error nothing is deleted and the
  /// error is returned.
  llvm::Expected<LoadResult> apply(GlobalEnv &Env,
                                   std::shared_ptr<const ast::ParsedFile> F);

  /// Julia's warnings for the file as it stands: a method defined twice in
  /// it, or one that overwrites the prelude's.
  const std::vector<Diagnostic> &warnings() const { return Warnings; }

  /// The methods the last apply deleted: their definitions left the file.
  const std::vector<Method *> &deleted() const { return LastDeleted; }

private:
  /// The definitions loaded, by defText (line and text), with the methods
  /// each added (none for types and constants: those are never deleted).
  std::map<std::string, std::vector<Method *>> Loaded;
  /// Parsed files whose nodes loaded methods point into; kept alive.
  std::vector<std::shared_ptr<const ast::ParsedFile>> Keep;
  std::vector<Diagnostic> Warnings;
  std::vector<Method *> LastDeleted;

  /// Loads F's definitions Defs (indices, in order), records the methods
  /// each added and adds the load to Into.
  llvm::Error load(GlobalEnv &Env,
                   const std::shared_ptr<const ast::ParsedFile> &F,
                   const std::vector<size_t> &Defs, LoadResult &Into);
  void findWarnings(const std::vector<std::string> &Keys);
};

} // namespace prism
