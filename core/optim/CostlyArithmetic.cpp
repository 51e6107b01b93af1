#include "optim/CostlyArithmetic.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace prism {

namespace {

/// "Float32", "Float16" for the narrow side of a conversion.
const char *juliaFloatName(const llvm::Type *T) {
  if (T->isHalfTy())
    return "Float16";
  return "Float32";
}

bool isNarrowFloat(const llvm::Type *T) {
  return T->isFloatTy() || T->isHalfTy();
}

} // namespace

/// How much slower double precision is, on the target's vendor's GPUs.
std::string float64Rate(llvm::StringRef Target) {
  if (Target == "gcn")
    return "at 1/16 of the Float32 rate on Radeon GPUs (the same rate on "
           "Instinct MI200, 1/2 on MI300)";
  return "at 1/64 of the Float32 rate on GeForce-class NVIDIA GPUs (1/2 on "
         "A100 and H100)";
}

std::vector<CostlyOp> findCostlyArithmetic(const llvm::Function &F,
                                           llvm::StringRef Target) {
  std::vector<CostlyOp> Out;
  const std::string Rate = float64Rate(Target);
  for (const llvm::Instruction &I : llvm::instructions(F)) {
    if (Out.size() >= MaxCostlyOpsPerFunction)
      break;
    CostlyOp Op;
    Op.Inst = &I;
    if (const auto *Ext = llvm::dyn_cast<llvm::FPExtInst>(&I)) {
      if (!Ext->getType()->isDoubleTy() ||
          !isNarrowFloat(Ext->getSrcTy()))
        continue;
      Op.What = CostlyOp::Kind::Float64Widened;
      Op.Message = std::string(juliaFloatName(Ext->getSrcTy())) +
                   " value widened to Float64: what it meets runs in double "
                   "precision, " +
                   Rate +
                   ", in two registers per value. A Float64 literal does "
                   "this (`x[i] * 1.5`): write `1.5f0`, or `Float32(...)`";
    } else if (const auto *Trunc = llvm::dyn_cast<llvm::FPTruncInst>(&I)) {
      if (!Trunc->getSrcTy()->isDoubleTy() || !isNarrowFloat(Trunc->getType()))
        continue;
      Op.What = CostlyOp::Kind::Float64Narrowed;
      Op.Message = std::string("Float64 value narrowed to ") +
                   juliaFloatName(Trunc->getType()) +
                   ": it was computed in double precision, " + Rate +
                   ". A Float64 literal or `Float64(...)` in Float32 code "
                   "does this: write `0.5f0`, `Float32(...)`";
    } else if (const auto *Bin = llvm::dyn_cast<llvm::BinaryOperator>(&I)) {
      unsigned Opc = Bin->getOpcode();
      if (Opc != llvm::Instruction::SDiv && Opc != llvm::Instruction::UDiv &&
          Opc != llvm::Instruction::SRem && Opc != llvm::Instruction::URem)
        continue;
      if (!Bin->getType()->isIntegerTy(64) ||
          llvm::isa<llvm::Constant>(Bin->getOperand(1)))
        continue;
      bool Div = Opc == llvm::Instruction::SDiv || Opc == llvm::Instruction::UDiv;
      Op.What = CostlyOp::Kind::WideDivision;
      Op.Message =
          std::string("64-bit integer ") + (Div ? "division" : "remainder") +
          " by a value known only at run time: GPUs have no divide "
          "instruction, and the subroutine for a 64-bit one is several times "
          "longer than for 32 bits (LLVM adds a test that takes the 32-bit "
          "one when both operands fit, at the cost of a branch). Int32 "
          "operands, or a power of two known at compile time, avoid it";
    } else {
      continue;
    }
    Out.push_back(std::move(Op));
  }
  return Out;
}

const char *CostlyOp::name() const {
  switch (What) {
  case Kind::Float64Widened:
    return "Float64Widened";
  case Kind::Float64Narrowed:
    return "Float64Narrowed";
  case Kind::WideDivision:
    return "WideDivision";
  }
  return "";
}

} // namespace prism
