// Defaults of the Target hooks (GPUCompiler's fallbacks): LLVM intrinsics for
// math, llvm.trap for throws, shared memory as module globals, legacy-PM
// mcgen for asm and objects.
#include "targets/Target.h"

#include "cache/CompilerConfig.h"
#include "cache/JobReport.h"
#include "optim/LLVMInit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

namespace prism {

Target::~Target() = default;

static llvm::CodeGenOpt::Level codeGenLevel(unsigned OptLevel,
                                            llvm::StringRef Target) {
  switch (OptLevel) {
  case 0:
    // LLVM 16's AMDGPU backend at CodeGenOpt::None (the fast register
    // allocator) aborts on a frame past 4 KiB ("cannot scavenge register
    // without an emergency spill slot") and crashes on long straight-line
    // code; its -O1 code generation has neither problem.
    return Target == "gcn" ? llvm::CodeGenOpt::Less : llvm::CodeGenOpt::None;
  case 1:
    return llvm::CodeGenOpt::Less;
  case 3:
    return llvm::CodeGenOpt::Aggressive;
  default:
    return llvm::CodeGenOpt::Default;
  }
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
Target::createTargetMachine(const CompilerConfig &C) const {
  initializeLLVMTargets();
  std::string Err;
  const llvm::Target *T = llvm::TargetRegistry::lookupTarget(C.triple(), Err);
  if (!T)
    return makeDiagError(Diagnostic::error(
        "backend",
        std::string("the ") + name() + " target (" + C.triple() +
            ") is not built into this LLVM: " + Err,
        {}));
  llvm::TargetOptions Options;
  std::unique_ptr<llvm::TargetMachine> TM(T->createTargetMachine(
      C.triple(), C.arch(), C.features(), Options, llvm::Reloc::PIC_,
      std::nullopt, codeGenLevel(C.optLevel(), name())));
  if (!TM)
    return makeDiagError(Diagnostic::error(
        "backend", "could not create a target machine for " + C.triple(), {}));
  return TM;
}

llvm::Value *Target::emitDeviceIndex(llvm::IRBuilderBase &, Builtin,
                                     llvm::Value *) const {
  llvm_unreachable("validation rejects device indices on this target");
}

void Target::emitBarrier(llvm::IRBuilderBase &, llvm::Value *) const {
  llvm_unreachable("validation rejects barriers on this target");
}

llvm::Value *Target::emitSharedArray(llvm::IRBuilderBase &B,
                                     llvm::Type *EltTy, uint64_t N, uint64_t,
                                     llvm::Value *) const {
  llvm::Module &M = *B.GetInsertBlock()->getModule();
  AddressSpaces AS = addressSpaces();
  auto *ArrTy = llvm::ArrayType::get(EltTy, N);
  // Each call site is its own array, as CuStaticSharedArray is in CUDA.jl.
  auto *GV = new llvm::GlobalVariable(
      M, ArrTy, /*isConstant=*/false, llvm::GlobalValue::InternalLinkage,
      llvm::UndefValue::get(ArrTy), "shmem", nullptr,
      llvm::GlobalValue::NotThreadLocal, AS.Shared);
  GV->setAlignment(llvm::Align(16));
  if (llvm::DebugLoc Loc = B.getCurrentDebugLocation())
    M.getOrInsertNamedMetadata(SharedArraysMetadata)
        ->addOperand(
            llvm::MDNode::get(B.getContext(), {llvm::ValueAsMetadata::get(GV),
                                               Loc.getAsMDNode()}));
  llvm::Type *GenericPtr = llvm::PointerType::get(B.getContext(), AS.Generic);
  return B.CreatePointerBitCastOrAddrSpaceCast(GV, GenericPtr);
}

llvm::Value *Target::emitMath(llvm::IRBuilderBase &B, Builtin Which,
                              llvm::ArrayRef<llvm::Value *> Args) const {
  if (const LibmOnlyFn *L = libmOnly(Which))
    return emitLibmCall(B, L->C, Args);
  llvm::Intrinsic::ID ID = llvm::Intrinsic::not_intrinsic;
  switch (Which) {
  case Builtin::SqrtLlvm: ID = llvm::Intrinsic::sqrt; break;
  case Builtin::AbsFloat: ID = llvm::Intrinsic::fabs; break;
  case Builtin::CopysignFloat: ID = llvm::Intrinsic::copysign; break;
  case Builtin::FloorLlvm: ID = llvm::Intrinsic::floor; break;
  case Builtin::CeilLlvm: ID = llvm::Intrinsic::ceil; break;
  case Builtin::TruncLlvm: ID = llvm::Intrinsic::trunc; break;
  case Builtin::RintLlvm: ID = llvm::Intrinsic::rint; break;
  case Builtin::ExpFloat: ID = llvm::Intrinsic::exp; break;
  case Builtin::LogFloat: ID = llvm::Intrinsic::log; break;
  case Builtin::SinFloat: ID = llvm::Intrinsic::sin; break;
  case Builtin::CosFloat: ID = llvm::Intrinsic::cos; break;
  case Builtin::PowFloat: ID = llvm::Intrinsic::pow; break;
  case Builtin::Exp2Float: ID = llvm::Intrinsic::exp2; break;
  case Builtin::Log2Float: ID = llvm::Intrinsic::log2; break;
  case Builtin::Log10Float: ID = llvm::Intrinsic::log10; break;
  case Builtin::FmaFloat: ID = llvm::Intrinsic::fma; break;
  case Builtin::MuladdFloat: ID = llvm::Intrinsic::fmuladd; break;
  default:
    llvm_unreachable("not a math builtin");
  }
  llvm::CallInst *Call = B.CreateIntrinsic(ID, {Args[0]->getType()}, Args);
  // LLVM folds transcendental calls on constants with the compiler's own
  // double-precision libm, rounded; at run time the device's libm (glibc's
  // cosf, a GPU's instructions) may differ in the last bit. `nobuiltin`
  // keeps the call, so a result does not depend on -O or on how much of
  // the input was constant (the interpreter calls the host's libm too).
  switch (Which) {
  case Builtin::ExpFloat:
  case Builtin::LogFloat:
  case Builtin::SinFloat:
  case Builtin::CosFloat:
  case Builtin::PowFloat:
  case Builtin::Exp2Float:
  case Builtin::Log2Float:
  case Builtin::Log10Float:
    Call->addFnAttr(llvm::Attribute::NoBuiltin);
    break;
  default:
    break;
  }
  return Call;
}

llvm::Value *Target::emitMathCall(
    llvm::IRBuilderBase &B, llvm::StringRef Name,
    llvm::ArrayRef<llvm::Value *> Args,
    llvm::function_ref<void(llvm::Function &, llvm::CallInst &)> Decorate) {
  llvm::Type *T = Args[0]->getType();
  if (T->isHalfTy()) {
    llvm::SmallVector<llvm::Value *, 2> Wide;
    for (llvm::Value *X : Args)
      Wide.push_back(B.CreateFPExt(X, B.getFloatTy()));
    return B.CreateFPTrunc(emitMathCall(B, Name, Wide, Decorate), T);
  }
  std::string Fn = Name.str() + (T->isFloatTy() ? "f" : "");
  llvm::Module &M = *B.GetInsertBlock()->getModule();
  llvm::SmallVector<llvm::Type *, 2> Params(Args.size(), T);
  llvm::FunctionCallee F =
      M.getOrInsertFunction(Fn, llvm::FunctionType::get(T, Params, false));
  llvm::CallInst *Call = B.CreateCall(F, Args);
  if (auto *Decl = llvm::dyn_cast<llvm::Function>(F.getCallee());
      Decl && Decorate)
    Decorate(*Decl, *Call);
  return Call;
}

llvm::Value *Target::emitLibmCall(llvm::IRBuilderBase &B, llvm::StringRef Name,
                                  llvm::ArrayRef<llvm::Value *> Args) {
  auto Pure = [](llvm::Function &Decl, llvm::CallInst &Call) {
    // Pure and total, as libm's are with errno ignored: calls on the same
    // value are shared and hoisted out of loops.
    Decl.setDoesNotAccessMemory();
    Decl.setDoesNotThrow();
    Decl.setWillReturn();
    // As for the intrinsics below: not folded by LLVM's own libm.
    Call.addFnAttr(llvm::Attribute::NoBuiltin);
  };
  return emitMathCall(B, Name, Args, Pure);
}

llvm::Instruction *Target::withRange(llvm::Instruction *I, uint32_t Lo,
                                     uint32_t End) {
  unsigned Bits = I->getType()->getIntegerBitWidth();
  I->setMetadata(
      llvm::LLVMContext::MD_range,
      llvm::MDBuilder(I->getContext())
          .createRange(llvm::APInt(Bits, Lo), llvm::APInt(Bits, End)));
  return I;
}

void Target::emitTrap(llvm::IRBuilderBase &B) const {
  B.CreateIntrinsic(llvm::Intrinsic::trap, {}, {});
  B.CreateUnreachable();
}

bool Target::isKnownExternal(llvm::StringRef Name) const {
  return Name.startswith("prism_");
}

static llvm::Expected<std::string> runMCGen(llvm::Module &M,
                                            llvm::TargetMachine &TM,
                                            llvm::CodeGenFileType Kind) {
  llvm::SmallString<0> Buffer;
  llvm::raw_svector_ostream OS(Buffer);
  llvm::legacy::PassManager PM;
  if (TM.addPassesToEmitFile(PM, OS, nullptr, Kind))
    return makeDiagError(Diagnostic::error(
        "backend",
        std::string("this target cannot emit ") +
            (Kind == llvm::CGFT_AssemblyFile ? "assembly" : "objects"),
        {}));
  PM.run(M);
  return std::string(Buffer.str());
}

llvm::Expected<std::string> Target::emitAsm(llvm::Module &M,
                                            llvm::TargetMachine &TM) const {
  return runMCGen(M, TM, llvm::CGFT_AssemblyFile);
}

llvm::Expected<std::string> Target::emitObject(llvm::Module &M,
                                               llvm::TargetMachine &TM) const {
  return runMCGen(M, TM, llvm::CGFT_ObjectFile);
}

void Target::resourceUsage(const std::string &Asm, const CompilerConfig &,
                           ResourceUsage &Out) const {
  // Instructions: lines that are not blank, labels, directives or comments.
  int Count = 0;
  llvm::StringRef Rest(Asm);
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    Line = Line.trim();
    if (Line.empty() || Line.startswith(".") || Line.startswith("#") ||
        Line.startswith(";") || Line.startswith("//") || Line.endswith(":") ||
        Line.startswith("{") || Line.startswith("}"))
      continue;
    ++Count;
  }
  Out.Instructions = Count;
  if (Out.Source.empty())
    Out.Source = std::string(name()) + " asm";
}

} // namespace prism
