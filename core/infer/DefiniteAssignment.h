/// \file
/// Definite assignment over typed IR: per statement, the slots assigned on
/// every path that reaches it (arguments at entry). A read of any other slot
/// may find no value, which Julia reports as an UndefVarError; codegen
/// guards exactly those reads, and the typed inliner leaves functions with
/// such reads alone (inlined into a loop, their "assigned" flags would
/// survive from one call to the next).
#pragma once

#include "infer/CodeInstance.h"

#include "llvm/ADT/BitVector.h"

#include <vector>

namespace prism {

/// One bit vector per statement (and one for the end), over Code.Slots.
std::vector<llvm::BitVector> definitelyAssigned(const TypedCode &Code);

/// Whether some statement reads a slot that may be unassigned there.
bool readsMaybeUnassigned(const TypedCode &Code);

} // namespace prism
