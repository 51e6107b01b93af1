/// \file
/// The one printer of every `--json` output. It is llvm::json's layout (two
/// spaces, keys sorted) except for numbers with a fraction: llvm::json
/// writes `%.17g` (`37.240118000000002`, `0.10000000149011612` for a
/// Float32 0.1), where a script wants the shortest text that reads back to
/// the same double (`37.240118`), and a negative zero keeps its sign.
#pragma once

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace prism {

/// V's text, indented by Indent spaces per level (0: on one line).
std::string formatJSON(const llvm::json::Value &V, unsigned Indent = 2);

/// Prints V indented by two, then a newline.
void printJSON(llvm::raw_ostream &OS, const llvm::json::Value &V);

/// The shortest decimal that reads back as D (`0.1`, `1.0e-7` style left
/// to std::to_chars: `1e-07`); "-0.0" for a negative zero.
std::string shortestDecimal(double D);

/// The double nearest the shortest decimal that reads back as X in X's own
/// precision, so that a Float32 or Float16 value prints as it reads (`0.1`,
/// not `0.10000000149011612`).
double shortestAsDouble(const llvm::APFloat &X);

} // namespace prism
