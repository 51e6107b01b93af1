/// \file
/// Splitting a local into the variables it really is (Julia's SSA
/// conversion, for the one case that matters here). A slot assigned values
/// of different types (`i = threadIdx().x` then `i = i + 1`, an Int32 and
/// an Int64) has a Union type, but if no read can see both kinds of
/// assignment it is two variables, each of a concrete type. Internal to
/// infer/.
#pragma once

#include "infer/CodeInstance.h"

#include <span>

namespace prism::infer {

/// Splits every slot of non-concrete type whose assignments fall into
/// separate webs (the assignments reaching a common read are one web) into
/// one slot per web, appended after the existing slots with the same name.
/// The web holding an argument's entry value, or else the first
/// assignment, keeps the slot. Sig is the instance's signature (the
/// arguments' types).
void splitSlotWebs(TypedCode &Code, std::span<Type *const> Sig);

} // namespace prism::infer
