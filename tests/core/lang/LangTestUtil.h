/// \file
/// Helpers shared by the lexer/parser/lowering tests: parse a string, render
/// its diagnostics as `line:col: message`, read an example kernel.
#pragma once

#include "lang/Parser.h"

#include <fstream>
#include <sstream>
#include <string>

namespace prism::testing {

inline std::shared_ptr<ast::ParsedFile> parseString(std::string Text,
                                                    std::string Name = "test.jl") {
  return parseFile(SourceFile::create(std::move(Name), std::move(Text)));
}

/// Every diagnostic, the functions' own errors (FunctionDef::Unsupported)
/// among them, in file order.
inline std::vector<Diagnostic> allDiagnostics(const ast::ParsedFile &F) {
  return F.allWithDeferred();
}

/// `L:C: message` for every diagnostic, one per line.
inline std::string diagText(const ast::ParsedFile &F) {
  std::string S;
  for (const Diagnostic &D : allDiagnostics(F))
    S += std::to_string(D.Loc.Line) + ":" + std::to_string(D.Loc.Col) + ": " +
         D.Message + "\n";
  return S;
}

inline std::string readFileText(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

inline std::string exampleText(const std::string &Name) {
  return readFileText(std::string(PRISM_EXAMPLES_DIR) + "/" + Name);
}

} // namespace prism::testing
