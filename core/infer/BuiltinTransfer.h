/// \file
/// Transfer functions of the builtins (`add_int`, `getfield`, `new`, ...):
/// the result lattice of a builtin call from its arguments' lattices, with
/// constant folding where all inputs are constants. Internal to infer/.
#pragma once

#include "infer/Lattice.h"

#include <span>
#include <string>

namespace prism::infer {

struct BuiltinResult {
  LatticeType R;
  /// A user error (wrong argument count, no such field, ...); R is Bottom.
  std::string Error;
  /// A constant argument was needed here (e.g. `shared_array`'s `n`).
  bool UsedRequiredConst = false;
};

/// Args excludes the callee. InBounds: `boundscheck()` is false in the
/// enclosing MethodInstance (an @inbounds specialisation, or
/// `--check-bounds=no`).
BuiltinResult transferBuiltin(Builtin B, std::span<const LatticeType> Args,
                              bool InBounds);

} // namespace prism::infer
