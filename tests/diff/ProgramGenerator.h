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
/// the kind of the exception (a few percent of programs).
///
/// What they exercise: arithmetic, bit operations, shifts, `div`/`rem`/`mod`/
/// `fld`/`cld`, comparisons (also signed against unsigned, int against float)
/// and conversions (`T(x)`, `x % T`, `trunc(T, x)`, `round`, `floor`, `ceil`,
/// `signed`, `unsigned`, `convert`) over Bool, Int8..Int64, UInt8..UInt64 and
/// Float16/32/64 with mixed-type promotion; `sqrt`, `abs`, `min`/`max`/`clamp`,
/// `copysign`, `fma`, `sin`/`cos`/`exp`/`log` (rarely); `ifelse`, `?:`, `&&`,
/// `||`; identities that only hold without overflow or NaN (`x + 1 > x`);
/// if/elseif/else (also switch-like chains), `for` over ranges with steps,
/// `while` with `break`/`continue`, early returns; tuples (construction,
/// constant indexing, `first`/`last`, destructuring, swaps), immutable
/// structs (nested, with tuple fields); helper functions with several
/// methods on concrete and abstract types (called only where dispatch is
/// unambiguous), `where {T<:Integer}` methods, bounded recursion, functions
/// passed as values (also from the CALL); `const`s; 1-d and 2-d
/// `DeviceArray` arguments read and written with checked and `@inbounds`
/// indexing (the latter always in range; the same array may be passed twice
/// to one helper), and vectorisable map/reduce/zip/scan loops. Kernels use
/// `threadIdx`/`blockIdx`/`blockDim`, optionally shared memory with
/// `sync_threads()`, and write only their own `out[i]`.
///
/// Not reproducible, so never observed: a NaN's sign (`signbit`, `copysign`
/// and `flipsign` take their sign from integers; no `false * x` on floats;
/// `===` on floats is guarded by `isnan`). NaN payloads can still reach the
/// results: a bit-for-bit comparison should treat all NaNs of a type alike.
///
/// The generator is self-contained (standard library only) and deterministic
/// per seed on every standard library and compiler: it draws from
/// std::mt19937_64 through its own helpers (never the <random>
/// distributions) and in a sequenced order.
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
