#include "optim/CostlyArithmetic.h"
#include "prelude/Embedded.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <tuple>

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

/// Double precision's throughput on an arch: 1/Divisor of Float32's, and
/// the sentence that says so.
struct Float64Rate {
  unsigned Divisor;
  std::string Text;
};

Float64Rate float64Rate(llvm::StringRef Target, llvm::StringRef Arch) {
  auto Of = [](unsigned D, llvm::StringRef On) {
    return Float64Rate{
        D, (D == 1 ? std::string("at the Float32 rate")
                   : "at 1/" + std::to_string(D) + " of the Float32 rate") +
               " on " + On.str()};
  };
  if (Target == "gcn") {
    if (Arch == "gfx90a")
      return Of(1, "gfx90a (Instinct MI200)");
    if (Arch == "gfx908")
      return Of(2, "gfx908 (Instinct MI100)");
    if (Arch == "gfx906")
      return Of(2, "gfx906 (Instinct MI50 and MI60; 1/4 on Radeon VII)");
    if (Arch == "gfx900")
      return Of(16, "gfx900 (Radeon Vega)");
    if (Arch.startswith("gfx94"))
      return Of(2, Arch.str() + " (Instinct MI300)");
    if (Arch.startswith("gfx10") || Arch.startswith("gfx11"))
      return Of(16, Arch.str() + " (Radeon RDNA GPUs)");
    return {16, "at 1/16 of the Float32 rate on Radeon GPUs (at the Float32 "
                "rate itself on Instinct MI200, 1/2 on MI100 and MI300)"};
  }
  // Code for an arch also runs on the GPUs of later minor versions of it,
  // whose rates may differ.
  if (Arch == "sm_70")
    return Of(2, "sm_70 (V100); 1/32 on the Turing GPUs that also run it");
  if (Arch == "sm_75")
    return Of(32, "sm_75 (Turing: GeForce RTX 20 series, T4)");
  if (Arch == "sm_80")
    return Of(2, "an A100 (sm_80), and 1/64 on the GeForce and workstation "
                 "GPUs that also run sm_80 code (sm_86, sm_89)");
  if (Arch == "sm_86")
    return Of(64, "sm_86 (GeForce RTX 30 series, RTX A-series)");
  if (Arch == "sm_89")
    return Of(64, "sm_89 (GeForce RTX 40 series, L4, L40)");
  if (Arch == "sm_90")
    return Of(2, "an H100 (sm_90)");
  return {64, "at 1/64 of the Float32 rate on GeForce-class NVIDIA GPUs (1/2 "
              "on A100 and H100)"};
}

/// Whether F reads, writes or takes a double: then Float64 arithmetic in
/// it is the kernel's own precision, not an accident.
bool usesFloat64Data(const llvm::Function &F) {
  for (const llvm::Argument &A : F.args())
    if (A.getType()->isDoubleTy())
      return true;
  for (const llvm::Instruction &I : llvm::instructions(F))
    if ((llvm::isa<llvm::LoadInst>(I) && I.getType()->isDoubleTy()) ||
        (llvm::isa<llvm::StoreInst>(I) &&
         I.getOperand(0)->getType()->isDoubleTy()))
      return true;
  return false;
}

/// A double constant as Julia prints it and as the Float32 literal to
/// write instead (`0.1` and `0.1f0`, `1.0e10` and `1.0f10`); no Float32
/// literal for a value beyond Float32's range.
std::pair<std::string, std::string> juliaLiterals(const llvm::ConstantFP &C) {
  // The shortest digits that read back as this double (0.1, not
  // 0.1000000000000000055511151231257827), in Julia's form: a mantissa
  // with a point, an exponent without `+` or leading zeros.
  char Buf[40];
  const double D = C.getValueAPF().convertToDouble();
  for (int Digits = 1; Digits <= 17; ++Digits) {
    std::snprintf(Buf, sizeof Buf, "%.*g", Digits, D);
    if (std::strtod(Buf, nullptr) == D)
      break;
  }
  std::string G = Buf, Mantissa = G, Exponent;
  if (size_t E = G.find('e'); E != std::string::npos) {
    Mantissa = G.substr(0, E);
    Exponent = std::to_string(std::atoi(G.c_str() + E + 1));
  }
  if (Mantissa.find('.') == std::string::npos)
    Mantissa += ".0";
  std::string Julia64 = Exponent.empty() ? Mantissa : Mantissa + "e" + Exponent;
  std::string Julia32;
  if (std::fabs(D) <= 3.4028234663852886e38)
    Julia32 = Mantissa + "f" + (Exponent.empty() ? "0" : Exponent);
  return {Julia64, Julia32};
}

/// The name of the function whose code \p I is, innermost (an inlined
/// callee's), and whether that is the prelude's.
std::pair<llvm::StringRef, bool> innermostFunction(const llvm::Instruction &I) {
  const llvm::DILocation *L = I.getDebugLoc().get();
  if (!L)
    return {"", false};
  const llvm::DISubprogram *SP = L->getScope()->getSubprogram();
  return {SP ? SP->getName() : llvm::StringRef(),
          isPreludePath(L->getFilename().str())};
}

/// Whether a Float64 constant that \p I uses can be a literal of the
/// user's line: I is the user's code, or a prelude operator that the
/// user's `x * 0.1` inlined. A constant inside `exp` or `sin` (their
/// polynomial's coefficients), or libdevice's, is the library's own.
bool mayBeUsersLiteral(const llvm::Instruction &I,
                       const LibraryCallSites *Library) {
  if (Library && Library->contains(I))
    return false;
  auto [Name, Prelude] = innermostFunction(I);
  if (!Prelude)
    return true;
  if (Name.empty())
    return false;
  return !(std::isalpha(static_cast<unsigned char>(Name[0])) ||
           Name[0] == '_') ||
         Name == "muladd" || Name == "fma" || Name == "min" || Name == "max" ||
         Name == "convert" || Name == "promote";
}

/// The Float64 constant in the double arithmetic that computes \p V, where
/// the user may have written it (`x[i] * 0.1`: `0.1`), as juliaLiterals
/// gives it; empty when there is none. Phis are variables, not literals.
std::pair<std::string, std::string>
float64LiteralIn(const llvm::Value *V, const LibraryCallSites *Library) {
  llvm::SmallPtrSet<const llvm::Value *, 16> Seen;
  llvm::SmallVector<const llvm::Value *, 16> Work{V};
  while (!Work.empty() && Seen.size() < 32) {
    const auto *I = llvm::dyn_cast<llvm::Instruction>(Work.pop_back_val());
    if (!I || !I->getType()->isDoubleTy() || llvm::isa<llvm::PHINode>(I) ||
        !Seen.insert(I).second)
      continue;
    for (const llvm::Use &Op : I->operands()) {
      const auto *C = llvm::dyn_cast<llvm::ConstantFP>(Op.get());
      if (C && C->getType()->isDoubleTy() && C->getValueAPF().isFinite() &&
          mayBeUsersLiteral(*I, Library))
        return juliaLiterals(*C);
      Work.push_back(Op.get());
    }
  }
  return {};
}

/// The same for what a widened value meets: the instructions that use it.
std::pair<std::string, std::string>
float64LiteralMet(const llvm::FPExtInst &Ext, const LibraryCallSites *Library) {
  for (const llvm::User *U : Ext.users())
    if (auto L = float64LiteralIn(U, Library); !L.first.empty())
      return L;
  return {};
}

/// A Float64 variable that a value meets or comes from: a phi (a loop's
/// accumulator) that starts as a Float64 constant, as Julia's `acc = 0.0`,
/// found through the double arithmetic and phis around it (an unrolled
/// loop adds to the sum of the copy before). Its start as juliaLiterals
/// gives it; not its name, which the IR does not keep reliably.
struct Float64Variable {
  std::string Start, Start32;
};
std::optional<Float64Variable> float64VariableOf(const llvm::Value *V) {
  llvm::SmallPtrSet<const llvm::Value *, 16> Seen;
  llvm::SmallVector<const llvm::Value *, 16> Work{V};
  while (!Work.empty() && Seen.size() < 32) {
    const llvm::Value *X = Work.pop_back_val();
    if (!X->getType()->isDoubleTy() || !Seen.insert(X).second)
      continue;
    if (const auto *Phi = llvm::dyn_cast<llvm::PHINode>(X)) {
      for (const llvm::Value *In : Phi->incoming_values()) {
        const auto *C = llvm::dyn_cast<llvm::ConstantFP>(In);
        if (!C || !C->getValueAPF().isFinite())
          continue;
        // The phi's name is no guide: LLVM keeps one slot's name for a
        // phi that merged others (`acc2.slot` for the Float64 `acc`).
        Float64Variable F;
        std::tie(F.Start, F.Start32) = juliaLiterals(*C);
        return F;
      }
      for (const llvm::Value *In : Phi->incoming_values())
        Work.push_back(In);
    } else if (const auto *B = llvm::dyn_cast<llvm::BinaryOperator>(X)) {
      Work.push_back(B->getOperand(0));
      Work.push_back(B->getOperand(1));
    }
  }
  return std::nullopt;
}

/// "It meets a Float64 variable that starts as `0.0`..." and the fix.
std::string float64VariableText(const Float64Variable &F, const char *Verb) {
  std::string Fix = F.Start32.empty() ? "zero(Float32)" : F.Start32;
  return std::string(Verb) + " a Float64 variable that starts as `" + F.Start +
         "` (an accumulator, `acc = " + F.Start + "`): start it as `" + Fix +
         "`";
}

/// A Float64 argument of the function in the double arithmetic that
/// computes \p V: its name.
std::string float64ArgumentIn(const llvm::Value *V) {
  llvm::SmallPtrSet<const llvm::Value *, 16> Seen;
  llvm::SmallVector<const llvm::Value *, 16> Work{V};
  while (!Work.empty() && Seen.size() < 32) {
    const llvm::Value *X = Work.pop_back_val();
    if (!X->getType()->isDoubleTy() || !Seen.insert(X).second)
      continue;
    if (const auto *A = llvm::dyn_cast<llvm::Argument>(X); A && A->hasName())
      return A->getName().str();
    if (const auto *I = llvm::dyn_cast<llvm::Instruction>(X))
      for (const llvm::Use &Op : I->operands())
        Work.push_back(Op.get());
  }
  return {};
}

/// Whether \p Ext is `Float64(x)` written in the user's code: the prelude's
/// Float64 constructor inlined into the user's function itself (promotion
/// reaches it through convert and promote).
bool isExplicitFloat64(const llvm::FPExtInst &Ext) {
  const llvm::DILocation *L = Ext.getDebugLoc().get();
  return innermostFunction(Ext).first == "Float64" && L && L->getInlinedAt() &&
         !isPreludePath(L->getInlinedAt()->getFilename().str());
}

/// Whether the double arithmetic that computes \p V starts from an
/// explicit `Float64(x)` (through a math function's inlined code).
bool fromExplicitFloat64(const llvm::Value *V) {
  llvm::SmallPtrSet<const llvm::Value *, 32> Seen;
  llvm::SmallVector<const llvm::Value *, 32> Work{V};
  while (!Work.empty() && Seen.size() < 96) {
    const auto *I = llvm::dyn_cast<llvm::Instruction>(Work.pop_back_val());
    if (!I || !Seen.insert(I).second)
      continue;
    if (const auto *Ext = llvm::dyn_cast<llvm::FPExtInst>(I))
      if (isExplicitFloat64(*Ext))
        return true;
    for (const llvm::Use &Op : I->operands())
      if (Op->getType()->isDoubleTy() || Op->getType()->isIntegerTy())
        Work.push_back(Op.get());
  }
  return false;
}

/// Whether a literal as juliaLiterals prints it is a value Float32 holds
/// exactly (`0.25`, `3.0`; not `0.1`).
bool exactInFloat32(const std::string &Literal) {
  double D = std::strtod(Literal.c_str(), nullptr);
  return double(float(D)) == D;
}

/// Whether the double arithmetic that computes \p V starts from an integer
/// (`n / 3`: an integer `/` is Float64).
bool fromInteger(const llvm::Value *V) {
  llvm::SmallPtrSet<const llvm::Value *, 16> Seen;
  llvm::SmallVector<const llvm::Value *, 16> Work{V};
  while (!Work.empty() && Seen.size() < 32) {
    const auto *I = llvm::dyn_cast<llvm::Instruction>(Work.pop_back_val());
    if (!I || !I->getType()->isDoubleTy() || !Seen.insert(I).second)
      continue;
    if (llvm::isa<llvm::SIToFPInst>(I) || llvm::isa<llvm::UIToFPInst>(I))
      return true;
    for (const llvm::Use &Op : I->operands())
      Work.push_back(Op.get());
  }
  return false;
}

constexpr const char *FromIntegerText =
    "a Float64 made from an integer (`/` of two integers is a Float64, as "
    "is an integer with a Float64): write `Float32(n) / 3f0`, or `÷` for an "
    "integer result";

/// What made a Float32 value meet double precision, most specific first,
/// and the fix.
std::string widenedBecause(const llvm::FPExtInst &Ext,
                           const LibraryCallSites *Library) {
  if (isExplicitFloat64(Ext))
    return "`Float64(...)` on this line does this: without it the value "
           "stays Float32 (keep it where the precision is needed)";
  auto [Literal, Instead] = float64LiteralMet(Ext, Library);
  auto LiteralText = [&, &Literal = Literal, &Instead = Instead] {
    return "The Float64 literal `" + Literal + "` it meets does this: write " +
           (Instead.empty() ? std::string() : "`" + Instead + "`, or ") +
           "`Float32(...)`";
  };
  // A constant that Float32 holds exactly may be the user's `0.25f0`,
  // widened with the rest: an argument or a variable is the likelier cause.
  if (!Literal.empty() && !exactInFloat32(Literal))
    return LiteralText();
  for (const llvm::User *U : Ext.users())
    if (std::string Arg = float64ArgumentIn(U); !Arg.empty())
      return "It meets the Float64 argument `" + Arg +
             "`: pass a Float32, or convert it once with `Float32(" + Arg +
             ")`";
  for (const llvm::User *U : Ext.users())
    if (const auto *I = llvm::dyn_cast<llvm::Instruction>(U))
      for (const llvm::Use &Op : I->operands())
        if (Op.get() != &Ext)
          if (std::optional<Float64Variable> Var = float64VariableOf(Op.get()))
            return float64VariableText(*Var, "It meets");
  for (const llvm::User *U : Ext.users())
    if (fromInteger(U))
      return std::string("It meets ") + FromIntegerText;
  if (!Literal.empty())
    return LiteralText();
  return "A Float64 literal, variable or argument it meets does this "
         "(`x[i] * 0.1`, `acc = 0.0`): write `0.1f0`, `0.0f0`, or "
         "`Float32(...)`";
}

/// What made the value narrowed back to Float32 a Float64, and the fix.
std::string narrowedBecause(const llvm::FPTruncInst &Trunc,
                            const LibraryCallSites *Library) {
  const llvm::Value *V = Trunc.getOperand(0);
  auto [Literal, Instead] = float64LiteralIn(V, Library);
  auto LiteralText = [&, &Literal = Literal, &Instead = Instead] {
    return "It comes from arithmetic with the Float64 literal `" + Literal +
           "`: write " +
           (Instead.empty() ? std::string() : "`" + Instead + "`, or ") +
           "`Float32(...)`";
  };
  // As widenedBecause: a constant Float32 holds exactly is the weakest clue.
  if (!Literal.empty() && !exactInFloat32(Literal))
    return LiteralText();
  if (std::string Arg = float64ArgumentIn(V); !Arg.empty())
    return "It comes from the Float64 argument `" + Arg +
           "`: pass a Float32, or convert it once with `Float32(" + Arg + ")`";
  if (std::optional<Float64Variable> Var = float64VariableOf(V))
    return float64VariableText(*Var, "It comes from");
  if (fromExplicitFloat64(V))
    return "It comes from `Float64(...)` on this line: without it the value "
           "stays Float32 (keep it where the precision is needed)";
  if (fromInteger(V))
    return std::string("It comes from ") + FromIntegerText;
  if (!Literal.empty())
    return LiteralText();
  return "A Float64 literal, `Float64(...)` or `/` of two integers (a "
         "Float64) in Float32 code does this: write `0.5f0`, `Float32(...)`";
}

} // namespace

LibraryCallSites::LibraryCallSites(const llvm::Module &M) {
  for (const llvm::Function &F : M)
    for (const llvm::Instruction &I : llvm::instructions(F)) {
      const auto *Call = llvm::dyn_cast<llvm::CallBase>(&I);
      const llvm::Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      const llvm::DILocation *L = I.getDebugLoc().get();
      if (Callee && L && !Callee->isDeclaration() && !Callee->getSubprogram())
        Sites.insert({L->getScope(), L->getLine(), L->getColumn()});
    }
}

bool LibraryCallSites::contains(const llvm::Instruction &I) const {
  const llvm::DILocation *L = I.getDebugLoc().get();
  return L && Sites.count({L->getScope(), L->getLine(), L->getColumn()});
}

std::vector<CostlyOp> findCostlyArithmetic(const llvm::Function &F,
                                           llvm::StringRef Target,
                                           llvm::StringRef Arch,
                                           const LibraryCallSites *Library) {
  std::vector<CostlyOp> Out;
  // Built on the first division: whether it runs in a loop.
  std::optional<llvm::DominatorTree> DT;
  std::optional<llvm::LoopInfo> Loops;
  const Float64Rate Rate = float64Rate(Target, Arch);
  const bool Float64Data = usesFloat64Data(F);
  for (const llvm::Instruction &I : llvm::instructions(F)) {
    if (Out.size() >= MaxCostlyOpsPerFunction)
      break;
    if (Library && Library->contains(I))
      continue;
    CostlyOp Op;
    Op.Inst = &I;
    Op.Costly = Rate.Divisor > 1;
    if (const auto *Ext = llvm::dyn_cast<llvm::FPExtInst>(&I)) {
      if (!Ext->getType()->isDoubleTy() ||
          !isNarrowFloat(Ext->getSrcTy()))
        continue;
      Op.What = CostlyOp::Kind::Float64Widened;
      Op.Message = std::string(juliaFloatName(Ext->getSrcTy())) +
                   " value widened to Float64: what it meets runs in double "
                   "precision, " +
                   Rate.Text + ", in two registers per value. " +
                   widenedBecause(*Ext, Library);
    } else if (const auto *Trunc = llvm::dyn_cast<llvm::FPTruncInst>(&I)) {
      if (!Trunc->getSrcTy()->isDoubleTy() || !isNarrowFloat(Trunc->getType()))
        continue;
      Op.What = CostlyOp::Kind::Float64Narrowed;
      Op.Message = std::string("Float64 value narrowed to ") +
                   juliaFloatName(Trunc->getType()) +
                   ": it was computed in double precision, " + Rate.Text +
                   ". " + narrowedBecause(*Trunc, Library);
    } else if (llvm::isa<llvm::SIToFPInst>(I) ||
               llvm::isa<llvm::UIToFPInst>(I)) {
      if (!I.getType()->isDoubleTy() || Float64Data)
        continue;
      Op.What = CostlyOp::Kind::Float64FromInteger;
      Op.Message =
          "integer converted to Float64 in a kernel whose memory holds no "
          "Float64: the arithmetic it meets runs in double precision, " +
          Rate.Text +
          ". A Float64 literal with an integer (`i * 0.5`) or `/` of two "
          "integers does this: write `i * 0.5f0`, `Float32(i) / 2f0`, or "
          "`÷` for an integer result";
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
      // Before a loop, outside it, it runs once per thread while the loop
      // runs many times (a block-stride loop's trip count): said, not
      // missed. In a kernel without loops it may be most of the work.
      if (!Loops) {
        DT.emplace(const_cast<llvm::Function &>(F));
        Loops.emplace(*DT);
      }
      // A copy outside the loop of one inside it (an unrolled loop's
      // epilogue) shares its location: it is the loop's division too.
      auto InALoop = [&](const llvm::Instruction &D) {
        return Loops->getLoopFor(D.getParent()) != nullptr;
      };
      bool InLoop = Loops->empty() || InALoop(I);
      if (!InLoop && I.getDebugLoc())
        for (const llvm::Instruction &Other : llvm::instructions(F))
          if (&Other != &I && Other.getOpcode() == Opc &&
              Other.getDebugLoc().get() == I.getDebugLoc().get() &&
              InALoop(Other)) {
            InLoop = true;
            break;
          }
      Op.Costly = InLoop;
      Op.Message =
          std::string("64-bit integer ") + (Div ? "division" : "remainder") +
          " by a value known only at run time: GPUs have no divide "
          "instruction, and the subroutine for a 64-bit one is several times "
          "longer than for 32 bits (LLVM adds a test that takes the 32-bit "
          "one when both operands fit, at the cost of a branch). " +
          (InLoop ? std::string("Int32 operands, or a power of two known at "
                                "compile time, avoid it")
                  : std::string("It runs once per thread, outside the "
                                "function's loops (a range's length, a "
                                "loop's trip count), so it costs little "
                                "beside them"));
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
  case Kind::Float64FromInteger:
    return "Float64FromInteger";
  case Kind::WideDivision:
    return "WideDivision";
  }
  return "";
}

} // namespace prism
