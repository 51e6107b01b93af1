/// \file
/// Arithmetic in a GPU kernel that costs far more than it looks, found in
/// optimised LLVM IR, for the `prism-arith` remarks:
///
///  - Float64 mixed into Float32 code: an `fpext` of a Float32 (or
///    Float16) value to double, or an `fptrunc` of a double back. A Float64
///    literal (`x[i] * 0.1`) or `Float64(...)` does it; the arithmetic in
///    between runs in double precision, at 1/64 of the Float32 rate on
///    GeForce-class NVIDIA GPUs and 1/16 on Radeon ones (the messages
///    quote the rate of the target's arch).
///  - An integer converted to Float64 in a kernel whose memory holds no
///    Float64 (`i * 0.5` on an index, `/` of two integers): double
///    precision that never meets a Float32 value, so the first rule misses
///    it. A kernel that is all Float64 has neither and is left alone: that
///    is a choice, not an accident.
///  - 64-bit integer division and remainder by a value known only at run
///    time (`÷`, `%`, `div`, `rem`, `fld`, `mod` of Int64). GPUs have no
///    integer divide instruction: the backend expands one into a
///    subroutine, and a 64-bit one is several times longer than a 32-bit
///    one. LLVM turns division by a constant into multiplications, so
///    those are not reported.
///
/// Library code the user did not write (libdevice's `sinf` keeps a Float64
/// path for huge arguments) is left out: LibraryCallSites marks it.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace llvm {
class DIScope;
class Function;
class Instruction;
class Module;
} // namespace llvm

namespace prism {

struct CostlyOp {
  enum class Kind : unsigned char {
    Float64Widened,     ///< fpext float/half → double
    Float64Narrowed,    ///< fptrunc double → float/half
    Float64FromInteger, ///< sitofp/uitofp to double, no double in memory
    WideDivision,       ///< sdiv/udiv/srem/urem i64 by a non-constant
  };
  const llvm::Instruction *Inst = nullptr;
  Kind What = Kind::Float64Widened;
  std::string Message; ///< one line, for a remark
  /// Whether it costs enough to be a missed remark: not Float64 on an arch
  /// that runs it at the Float32 rate (gfx90a), where it is analysis.
  bool Costly = true;
  /// The remark's identifier: Float64Widened, Float64Narrowed,
  /// Float64FromInteger, WideDivision.
  const char *name() const;
};

/// Where a module calls library code that has no debug info (libdevice's
/// `__nv_sinf`, ROCm's ocml): the inliner gives such code the call's
/// location, so after optimisation those locations (scope, line, column,
/// whatever the inlining around them) mark instructions the user did not
/// write. Taken before the optimiser runs.
class LibraryCallSites {
public:
  explicit LibraryCallSites(const llvm::Module &M);
  bool contains(const llvm::Instruction &I) const;

private:
  std::set<std::tuple<const llvm::DIScope *, unsigned, unsigned>> Sites;
};

/// Reporting every such operation of a huge kernel tells no more than the
/// first ones.
constexpr size_t MaxCostlyOpsPerFunction = 256;

/// The costly operations of \p F, in instruction order, less those of
/// \p Library; \p Target ("ptx", "gcn") and \p Arch ("sm_86", "gfx90a";
/// empty: the vendor's in general) pick the Float64 rate the messages
/// quote.
std::vector<CostlyOp> findCostlyArithmetic(const llvm::Function &F,
                                           llvm::StringRef Target,
                                           llvm::StringRef Arch,
                                           const LibraryCallSites *Library);

} // namespace prism
