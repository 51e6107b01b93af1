/// \file
/// What every reflection command does first: load the prelude and the user's
/// file into a fresh GlobalEnv, and resolve the SIG argument. Diagnostics are
/// printed to stderr (coloured on a terminal) with the exit status to use.
#pragma once

#include "infer/CodeInstance.h"
#include "types/Loader.h"
#include "types/Method.h"

#include <memory>
#include <optional>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace prism::app {

struct LoadedProgram {
  std::unique_ptr<GlobalEnv> Env;
  LoadResult Loaded;
};

/// Loads prelude + FILE. On failure prints diagnostics and sets ExitCode.
std::optional<LoadedProgram> loadProgram(const std::string &File, int &ExitCode);

/// Parses SIG against the program; on failure prints and sets ExitCode.
std::optional<FunctionSpec> resolveSignature(LoadedProgram &P,
                                             const std::string &Sig,
                                             int &ExitCode);

/// Whether to colour OS: a terminal, unless NO_COLOR is set (no-color.org).
bool wantsColor(llvm::raw_ostream &OS);
/// Prints diagnostics to stderr, coloured when stderr is a terminal.
void printDiagnostics(const std::vector<Diagnostic> &Ds);
/// Names the request argument ("<signature>", "CALL") that errors without
/// a place of their own are reported at (1:1), as CLI.md wants every error
/// located.
void setRequestSource(std::string Name);
/// Prints an error's diagnostics and returns ExitProgramError.
int reportError(llvm::Error E);
/// Keeps an error printed without a Diagnostic for printJsonFailure, with
/// the notes printed after it.
void recordError(std::string Kind, std::string Message,
                 const std::vector<std::string> &Notes = {});
/// `--json` when the command failed before printing its object: on stdout
/// `{"ok": false, "exit_status": N, "diagnostics": [...]}`, every
/// diagnostic printed so far (stderr still has them as text).
void printJsonFailure(int ExitCode);

} // namespace prism::app
