/// \file
/// A Csmith-style generator of random kernel-language programs for
/// differential testing: every program is well typed (each call resolves to
/// one method with concrete argument types), terminates quickly (its dynamic
/// work is bounded by construction), and avoids operations whose result is
/// not reproducible bit for bit (`muladd`, `@fastmath`, uninitialised memory,
/// data races, out-of-range `@inbounds` accesses, `unsafe_trunc`).
///
/// Programs may still throw on purpose (a checked out-of-range `a[i]`, a
/// division by zero, an inexact conversion): those runs are compared too, by
/// the kind of the exception.
///
/// The generator is self-contained (standard library only) and deterministic
/// per seed on every standard library: it draws from std::mt19937_64 through
/// its own helpers, never through the <random> distributions.
#pragma once

#include <cstdint>
#include <string>

namespace prism::difftest {

struct GenOptions {
  /// Generate a kernel `entry!(out, ins...)` run over several threads (each
  /// thread writes only its own `out[i]`) instead of a function `entry(...)`
  /// returning a scalar or a tuple of scalars.
  bool Kernel = false;
  /// Rough size knob: the number of statements in a function body.
  unsigned MaxStmts = 12;
  /// Helper functions (and generic function families) besides the entry.
  unsigned MaxHelpers = 3;
};

struct GeneratedProgram {
  std::string Source; ///< kernel-language source text (a whole file)
  std::string Call;   ///< a `prism run` CALL string: `entry(3, Int8(-5), Float32[1.0])`
  unsigned Threads = 1; ///< threads in one block (kernels)
  unsigned Blocks = 1;  ///< blocks in the grid (kernels)
};

/// The program for one seed; the same seed and options give the same text.
GeneratedProgram generateProgram(uint64_t Seed, const GenOptions &O = {});

} // namespace prism::difftest
