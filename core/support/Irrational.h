/// \file
/// Base's irrational constants (`π`, `ℯ`) where a value is needed outside
/// compiled code: a `const` computed by the loader and a CALL's `Float32(π)`.
/// Each is its exact value rounded once into the precision asked for, as
/// Julia's `Float32(π)` is. (Compiled code takes the prelude's per-precision
/// bits, core/prelude/45_irrational.jl; IrrationalTest holds both to the
/// same bits.)
#pragma once

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string_view>

namespace prism {

/// The symbol of an `Irrational{:s}` type's printed name (`π` of
/// `Irrational{:π}`); none for any other name.
std::optional<std::string_view> irrationalSymbolOf(std::string_view TypeName);

/// The irrational named by Symbol (`π`, `ℯ`) rounded to nearest, ties to
/// even, in Sem; none if Symbol names none of Base's irrationals.
std::optional<llvm::APFloat> irrationalValue(std::string_view Symbol,
                                             const llvm::fltSemantics &Sem);

} // namespace prism
