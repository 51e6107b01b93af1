/// \file
/// Arithmetic in a GPU kernel that costs far more than it looks, found in
/// optimised LLVM IR, for the `prism-arith` remarks:
///
///  - Float64 mixed into Float32 code: an `fpext` of a Float32 (or
///    Float16) value to double, or an `fptrunc` of a double back. A Float64
///    literal (`x[i] * 1.5`) or `Float64(...)` does it; the arithmetic in
///    between runs in double precision, at 1/64 of the Float32 rate on
///    GeForce-class NVIDIA GPUs and 1/16 on Radeon ones. A kernel that is
///    all Float64 has neither
///    and is left alone: that is a choice, not an accident.
///  - 64-bit integer division and remainder by a value known only at run
///    time (`÷`, `%`, `div`, `rem`, `fld`, `mod` of Int64). GPUs have no
///    integer divide instruction: the backend expands one into a
///    subroutine, and a 64-bit one is several times longer than a 32-bit
///    one. LLVM turns division by a constant into multiplications, so
///    those are not reported.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <string>
#include <vector>

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace prism {

struct CostlyOp {
  enum class Kind : unsigned char {
    Float64Widened,  ///< fpext float/half → double
    Float64Narrowed, ///< fptrunc double → float/half
    WideDivision,    ///< sdiv/udiv/srem/urem i64 by a non-constant
  };
  const llvm::Instruction *Inst = nullptr;
  Kind What = Kind::Float64Widened;
  std::string Message; ///< one line, for a remark
  /// The remark's identifier: Float64Widened, Float64Narrowed,
  /// WideDivision.
  const char *name() const;
};

/// Reporting every such operation of a huge kernel tells no more than the
/// first ones.
constexpr size_t MaxCostlyOpsPerFunction = 256;

/// The costly operations of \p F, in instruction order; \p Target
/// ("ptx", "gcn") picks the vendor whose Float64 rates the messages quote.
std::vector<CostlyOp> findCostlyArithmetic(const llvm::Function &F,
                                           llvm::StringRef Target);

} // namespace prism
