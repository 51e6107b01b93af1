//===- HostMath.h - How the host computes math of narrow floats -*- C++ -*-===//
///
/// \file
/// Julia computes sin, cos, tan, the logarithms and cbrt of a Float32 in
/// Float64 (its kernels), nearly always the correctly rounded result; the
/// host's compiled code (NativeTarget::emitMath) and the interpreter do the
/// same, by this one rule. A Float16 goes through Float32.
///
//===----------------------------------------------------------------------===//
#pragma once

#include "lang/IR.h"

namespace prism {

/// Whether the host computes math builtin B of a Float32 in Float64.
bool float32InFloat64(Builtin B);

} // namespace prism
