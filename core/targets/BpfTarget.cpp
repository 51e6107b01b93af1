// The bpf target. See BpfTarget.h for the program ABI shared with the bpf
// device; this file also holds the late IR pass that turns loads through
// the packet marker into legacy packet loads.
#include "targets/BpfTarget.h"

#include "cache/CompilerConfig.h"
#include "cache/JobReport.h"
#include "codegen/Runtime.h"
#include "optim/LLVMInit.h"
#include "validate/Validator.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/Utils/Local.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsBPF.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <set>

namespace prism {

namespace {

/// Stands for the packet inside a program: `ptr @prism_bpf_packet(ptr skb)`.
/// It touches no memory, so the optimiser treats packet loads as ordinary
/// loads from an opaque base (distinct from the `skb->len` context load,
/// which must stay a direct context access); PacketLoweringPass removes it.
/// The `prism_` prefix keeps it a known external for the generic checks;
/// validateModule reports any use that survives lowering.
constexpr const char *PacketMarkerName = "prism_bpf_packet";

llvm::Function *packetMarker(llvm::Module &M) {
  llvm::LLVMContext &Ctx = M.getContext();
  llvm::Type *Ptr = llvm::PointerType::get(Ctx, 0);
  auto *F = llvm::cast<llvm::Function>(
      M.getOrInsertFunction(PacketMarkerName,
                            llvm::FunctionType::get(Ptr, {Ptr}, false))
          .getCallee());
  F->setDoesNotAccessMemory();
  F->setDoesNotThrow();
  F->setWillReturn();
  return F;
}

/// Takes what a socket filter is given: (pointer[, integer]).
bool takesPacket(const llvm::Function &F) {
  llvm::FunctionType *FT = F.getFunctionType();
  if (FT->isVarArg() || FT->getNumParams() < 1 || FT->getNumParams() > 2 ||
      !FT->getParamType(0)->isPointerTy())
    return false;
  return FT->getNumParams() == 1 || FT->getParamType(1)->isIntegerTy();
}

/// The entry shapes that become a socket-filter program: a packet taker
/// returning an integer the kernel's u32 verdict holds (Bool included).
/// A wider result would be cut to 32 bits; `prism run` refuses it too.
bool isProgramShape(const llvm::Function &F) {
  llvm::Type *R = F.getReturnType();
  return takesPacket(F) && R->isIntegerTy() && R->getIntegerBitWidth() <= 32;
}

bool isProgram(const llvm::Function &F) {
  return !F.isDeclaration() && F.getSection() == BpfProgramSection;
}

//===----------------------------------------------------------------------===//
// Bit counts (after optimisation)
//===----------------------------------------------------------------------===//

/// LLVM 16's BPF backend selects no `llvm.ctlz`/`llvm.cttz` ("Cannot
/// select: ctlz" and an abort on i32, a crash on i64) but expands
/// `llvm.ctpop`. The emitter writes `leading_zeros`/`trailing_zeros` as
/// those intrinsics, and LoopIdiomRecognize forms them from shift loops
/// (BPF's cost model calls them cheap), so whatever is left at the end of
/// the pipeline is rewritten in terms of ctpop, branch-free, with Julia's
/// result for zero (the bit width): ctlz(x) = W - ctpop(x smeared right),
/// cttz(x) = ctpop(~x & (x - 1)). Not at emission: InstCombine folds the
/// latter back into cttz.
bool expandBitCounts(llvm::Module &M) {
  llvm::SmallVector<llvm::Function *, 4> Decls;
  llvm::SmallVector<llvm::CallInst *, 8> Calls;
  for (llvm::Function &F : M)
    if (F.getIntrinsicID() == llvm::Intrinsic::ctlz ||
        F.getIntrinsicID() == llvm::Intrinsic::cttz) {
      Decls.push_back(&F);
      for (llvm::User *U : F.users())
        if (auto *Call = llvm::dyn_cast<llvm::CallInst>(U);
            Call && Call->getCalledFunction() == &F &&
            Call->getType()->isIntegerTy())
          Calls.push_back(Call);
    }
  for (llvm::CallInst *Call : Calls) {
    llvm::IRBuilder<> B(Call);
    llvm::Value *X = Call->getArgOperand(0);
    llvm::Type *T = X->getType();
    unsigned W = T->getIntegerBitWidth();
    llvm::Value *V;
    if (Call->getIntrinsicID() == llvm::Intrinsic::ctlz) {
      for (unsigned S = 1; S < W; S *= 2)
        X = B.CreateOr(X, B.CreateLShr(X, S));
      V = B.CreateSub(llvm::ConstantInt::get(T, W),
                      B.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, X));
    } else {
      V = B.CreateUnaryIntrinsic(
          llvm::Intrinsic::ctpop,
          B.CreateAnd(B.CreateNot(X),
                      B.CreateSub(X, llvm::ConstantInt::get(T, 1))));
    }
    Call->replaceAllUsesWith(V);
    Call->eraseFromParent();
  }
  for (llvm::Function *F : Decls)
    if (F->use_empty())
      F->eraseFromParent();
  return !Calls.empty();
}

struct BitCountExpansionPass : llvm::PassInfoMixin<BitCountExpansionPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &) {
    return expandBitCounts(M) ? llvm::PreservedAnalyses::none()
                              : llvm::PreservedAnalyses::all();
  }
};

//===----------------------------------------------------------------------===//
// Packet lowering (after inlining)
//===----------------------------------------------------------------------===//

/// Replaces an integer load of `Width` bits at byte offset `Off` (i64) of
/// the packet by legacy packet loads. LD_ABS/LD_IND return network order
/// (the kernel byte-swaps half and word loads), so wider values are swapped
/// back to the little-endian meaning the source language gives them.
llvm::Value *emitPacketLoad(llvm::IRBuilderBase &B, llvm::Value *Skb,
                            llvm::Value *Off, unsigned Width) {
  auto Load = [&](llvm::Intrinsic::ID ID, llvm::Value *O) -> llvm::Value * {
    return B.CreateIntrinsic(ID, {}, {Skb, O});
  };
  auto Swapped = [&](llvm::Intrinsic::ID ID, llvm::Value *O,
                     unsigned Bits) -> llvm::Value * {
    llvm::Value *V = B.CreateTrunc(Load(ID, O), B.getIntNTy(Bits));
    return B.CreateUnaryIntrinsic(llvm::Intrinsic::bswap, V);
  };
  switch (Width) {
  case 8:
    return B.CreateTrunc(Load(llvm::Intrinsic::bpf_load_byte, Off),
                         B.getInt8Ty());
  case 16:
    return Swapped(llvm::Intrinsic::bpf_load_half, Off, 16);
  case 32:
    return Swapped(llvm::Intrinsic::bpf_load_word, Off, 32);
  case 64: {
    llvm::Value *Lo = Swapped(llvm::Intrinsic::bpf_load_word, Off, 32);
    llvm::Value *Hi = Swapped(llvm::Intrinsic::bpf_load_word,
                              B.CreateAdd(Off, B.getInt64(4)), 32);
    return B.CreateOr(B.CreateZExt(Lo, B.getInt64Ty()),
                      B.CreateShl(B.CreateZExt(Hi, B.getInt64Ty()), 32));
  }
  default:
    llvm_unreachable("not a packet load width");
  }
}

bool isLowerableLoad(const llvm::LoadInst &L) {
  if (!L.isSimple() || !L.getType()->isIntegerTy())
    return false;
  unsigned W = L.getType()->getIntegerBitWidth();
  return W == 8 || W == 16 || W == 32 || W == 64;
}

/// Rewrites loads reachable from each marker call through GEPs.
bool lowerPacketLoads(llvm::Module &M) {
  llvm::Function *Marker = M.getFunction(PacketMarkerName);
  if (!Marker)
    return false;
  const llvm::DataLayout &DL = M.getDataLayout();
  bool Changed = false;
  for (llvm::User *U : llvm::make_early_inc_range(Marker->users())) {
    auto *Call = llvm::dyn_cast<llvm::CallInst>(U);
    if (!Call || Call->getCalledFunction() != Marker)
      continue;
    llvm::Value *Skb = Call->getArgOperand(0);
    llvm::Type *I64 = llvm::Type::getInt64Ty(M.getContext());
    // (pointer derived from the packet, its byte offset as an i64)
    llvm::SmallVector<std::pair<llvm::Value *, llvm::Value *>, 8> Work;
    Work.push_back({Call, llvm::ConstantInt::get(I64, 0)});
    llvm::SmallVector<llvm::WeakTrackingVH, 8> MaybeDead;
    while (!Work.empty()) {
      auto [Ptr, Off] = Work.pop_back_val();
      for (llvm::User *PU : llvm::make_early_inc_range(Ptr->users())) {
        if (auto *GEP = llvm::dyn_cast<llvm::GetElementPtrInst>(PU)) {
          if (GEP->getPointerOperand() != Ptr)
            continue;
          llvm::IRBuilder<> B(GEP);
          llvm::Value *Step = llvm::emitGEPOffset(&B, DL, GEP);
          Step = B.CreateSExtOrTrunc(Step, I64);
          llvm::Value *Sum = B.CreateAdd(Off, Step);
          MaybeDead.push_back(Sum);
          MaybeDead.push_back(GEP);
          Work.push_back({GEP, Sum});
          continue;
        }
        auto *L = llvm::dyn_cast<llvm::LoadInst>(PU);
        if (!L || L->getPointerOperand() != Ptr || !isLowerableLoad(*L))
          continue; // validateModule reports it
        llvm::IRBuilder<> B(L);
        llvm::Value *V = emitPacketLoad(B, Skb, Off,
                                        L->getType()->getIntegerBitWidth());
        L->replaceAllUsesWith(V);
        L->eraseFromParent();
        Changed = true;
      }
    }
    // Offsets computed for pointers nobody loads from, GEPs and the marker
    // itself are dead now unless something else uses them.
    MaybeDead.push_back(Call);
    llvm::RecursivelyDeleteTriviallyDeadInstructionsPermissive(MaybeDead);
  }
  return Changed;
}

/// A throw inside a program cannot reach any runtime: it drops the packet
/// (returns 0), as a socket filter that bails out does. Only the shape the
/// emitter produces is rewritten — `call @prism_throw(...)` followed by
/// nothing but a trap and `unreachable`.
bool lowerProgramThrows(llvm::Module &M) {
  llvm::Function *Hook = M.getFunction(ThrowHookName);
  if (!Hook)
    return false;
  bool Changed = false;
  llvm::SmallPtrSet<llvm::GlobalVariable *, 8> Strings;
  for (llvm::User *U : llvm::make_early_inc_range(Hook->users())) {
    auto *Call = llvm::dyn_cast<llvm::CallInst>(U);
    if (!Call || Call->getCalledFunction() != Hook ||
        !isProgram(*Call->getFunction()))
      continue;
    llvm::Function &F = *Call->getFunction();
    bool OnlyTrap = true;
    for (llvm::Instruction *I = Call->getNextNode(); I; I = I->getNextNode()) {
      auto *II = llvm::dyn_cast<llvm::IntrinsicInst>(I);
      OnlyTrap &= llvm::isa<llvm::UnreachableInst>(I) ||
                  (II && (II->getIntrinsicID() == llvm::Intrinsic::trap ||
                          llvm::isa<llvm::DbgInfoIntrinsic>(II)));
    }
    if (!OnlyTrap)
      continue;
    for (llvm::Value *A : Call->args())
      if (auto *GV = llvm::dyn_cast<llvm::GlobalVariable>(A->stripPointerCasts()))
        Strings.insert(GV);
    llvm::BasicBlock *BB = Call->getParent();
    llvm::DebugLoc Loc = Call->getDebugLoc();
    while (&BB->back() != Call)
      BB->back().eraseFromParent();
    Call->eraseFromParent();
    llvm::IRBuilder<> B(BB);
    B.SetCurrentDebugLocation(Loc);
    B.CreateRet(llvm::ConstantInt::get(F.getReturnType(), 0));
    Changed = true;
  }
  // The exception's strings would otherwise become a `.rodata` map.
  for (llvm::GlobalVariable *GV : Strings)
    if (GV->hasLocalLinkage() && GV->use_empty())
      GV->eraseFromParent();
  if (Hook->use_empty())
    Hook->eraseFromParent();
  return Changed;
}

struct PacketLoweringPass : llvm::PassInfoMixin<PacketLoweringPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &) {
    bool Changed = lowerPacketLoads(M);
    Changed |= lowerProgramThrows(M);
    return Changed ? llvm::PreservedAnalyses::none()
                   : llvm::PreservedAnalyses::all();
  }
};

//===----------------------------------------------------------------------===//
// Wide multiplications (after optimisation)
//===----------------------------------------------------------------------===//

/// `mul iN` for 64 < N <= 128 in 64-bit arithmetic. The BPF backend makes
/// it a call of compiler-rt's __multi3, which it then rejects ("A call to
/// built-in function '__multi3' is not supported"), and the optimiser
/// writes such products itself: IndVarSimplify replaces a loop's sum
/// (`s += i`) by its closed form, n(n-1)/2, which ScalarEvolution computes
/// in 65 bits so that the product cannot overflow before the halving.
/// a*b mod 2^128 from 64-bit halves, the high half of lo(a)*lo(b) from
/// 32-bit quarters (whose products fit in 64 bits); the backend folds the
/// halves an extension made zero.
bool expandWideMuls(llvm::Module &M) {
  llvm::SmallVector<llvm::Instruction *, 4> Muls;
  for (llvm::Function &F : M)
    for (llvm::Instruction &I : llvm::instructions(F))
      if (I.getOpcode() == llvm::Instruction::Mul &&
          I.getType()->isIntegerTy() &&
          I.getType()->getIntegerBitWidth() > 64 &&
          I.getType()->getIntegerBitWidth() <= 128)
        Muls.push_back(&I);
  for (llvm::Instruction *Mul : Muls) {
    llvm::IRBuilder<> B(Mul);
    llvm::Type *I64 = B.getInt64Ty(), *I128 = B.getInt128Ty();
    auto Halves = [&](llvm::Value *V) {
      V = B.CreateZExt(V, I128);
      return std::pair(B.CreateTrunc(V, I64),
                       B.CreateTrunc(B.CreateLShr(V, 64), I64));
    };
    auto [AL, AH] = Halves(Mul->getOperand(0));
    auto [BL, BH] = Halves(Mul->getOperand(1));
    llvm::Value *Mask = B.getInt64(0xffffffff);
    llvm::Value *A0 = B.CreateAnd(AL, Mask), *A1 = B.CreateLShr(AL, 32);
    llvm::Value *B0 = B.CreateAnd(BL, Mask), *B1 = B.CreateLShr(BL, 32);
    llvm::Value *P00 = B.CreateMul(A0, B0), *P01 = B.CreateMul(A0, B1);
    llvm::Value *P10 = B.CreateMul(A1, B0), *P11 = B.CreateMul(A1, B1);
    llvm::Value *Mid =
        B.CreateAdd(B.CreateAdd(B.CreateLShr(P00, 32), B.CreateAnd(P01, Mask)),
                    B.CreateAnd(P10, Mask));
    llvm::Value *Hi =
        B.CreateAdd(B.CreateAdd(P11, B.CreateLShr(P01, 32)),
                    B.CreateAdd(B.CreateLShr(P10, 32), B.CreateLShr(Mid, 32)));
    Hi = B.CreateAdd(Hi, B.CreateAdd(B.CreateMul(AL, BH), B.CreateMul(AH, BL)));
    llvm::Value *Wide = B.CreateOr(B.CreateZExt(B.CreateMul(AL, BL), I128),
                                   B.CreateShl(B.CreateZExt(Hi, I128), 64));
    Mul->replaceAllUsesWith(B.CreateTrunc(Wide, Mul->getType()));
    Mul->eraseFromParent();
  }
  return !Muls.empty();
}

struct WideMulExpansionPass : llvm::PassInfoMixin<WideMulExpansionPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &) {
    return expandWideMuls(M) ? llvm::PreservedAnalyses::none()
                             : llvm::PreservedAnalyses::all();
  }
};

//===----------------------------------------------------------------------===//
// The target
//===----------------------------------------------------------------------===//

class BpfTarget final : public Target {
public:
  const char *name() const override { return "bpf"; }
  std::string triple(const CompilerConfig &) const override {
    return "bpfel-unknown-none";
  }
  std::string defaultArch() const override { return "v3"; }

  bool supportsFloat() const override { return false; }
  bool supportsDeviceIntrinsics() const override { return false; }
  bool supportsSharedMemory() const override { return false; }
  bool supportsPacketLoads() const override { return true; }
  /// The BPF assembler's comment leader (`;` separates statements there).
  AsmCommentStyle asmSourceComments() const override { return {"#", false}; }
  bool objectLinesAtUserCode() const override { return true; }

  llvm::Error checkConfig(const CompilerConfig &C) const override {
    // LLVM only warns on stderr about an unknown CPU and then ignores it;
    // a typo in --arch must be a config error instead.
    // (Called before the config's triple is filled in; ours is fixed.)
    initializeLLVMTargets();
    std::string Err, Triple = triple(C);
    const llvm::Target *T = llvm::TargetRegistry::lookupTarget(Triple, Err);
    if (!T) // reported when the TargetMachine is created
      return llvm::Error::success();
    std::unique_ptr<llvm::MCSubtargetInfo> STI(
        T->createMCSubtargetInfo(Triple, "", ""));
    if (!STI || STI->isCPUStringValid(C.arch()))
      return llvm::Error::success();
    std::vector<std::string> Known;
    for (const char *CPU : {"v1", "v2", "v3", "v4"})
      if (STI->isCPUStringValid(CPU))
        Known.push_back(CPU);
    return makeDiagError(Diagnostic::error(
        "config",
        "unknown BPF CPU `" + C.arch() + "` (this LLVM knows " +
            llvm::join(Known, ", ") + ")",
        {}));
  }

  void emitTrap(llvm::IRBuilderBase &B) const override {
    // BPF has no trap instruction; inside a program the throw path becomes
    // `return 0` (PacketLoweringPass), elsewhere it simply ends.
    B.CreateUnreachable();
  }

  llvm::Error finishModule(llvm::Module &M, llvm::Function *Entry,
                           const CompilerConfig &C) const override;

  void tunePipeline(llvm::PassBuilder &PB,
                    const CompilerConfig &) const override {
    // After IndVarSimplify and everything else that could make a product
    // wider than 64 bits.
    PB.registerOptimizerLastEPCallback(
        [](llvm::ModulePassManager &MPM, llvm::OptimizationLevel) {
          MPM.addPass(WideMulExpansionPass());
        });
    // Last, so that everything is inlined into the program and the loads
    // sit on GEPs of the marker (also at O0, after the always-inliner).
    PB.registerOptimizerLastEPCallback(
        [&PB](llvm::ModulePassManager &MPM, llvm::OptimizationLevel Level) {
          // At O0 local variables stay in allocas; a packet pointer kept
          // in one could not be traced to its loads. mem2reg is added by
          // name so that LLVM's own PassModel<PromotePass> is used: an
          // instance of that template in this binary would be exported and
          // interposed into Mesa's libLLVM in the GUI process (a crash).
          if (Level == llvm::OptimizationLevel::O0)
            llvm::cantFail(PB.parsePassPipeline(MPM, "function(mem2reg)"));
          MPM.addPass(PacketLoweringPass());
          MPM.addPass(BitCountExpansionPass());
        });
  }

  void validateModule(const llvm::Module &M, const CompilerConfig &C,
                      std::vector<Diagnostic> &Out) const override;

  llvm::Expected<std::string> emitAsm(llvm::Module &M,
                                      llvm::TargetMachine &TM) const override;

  void resourceUsage(const std::string &Asm, const CompilerConfig &C,
                     ResourceUsage &Out) const override;
};

/// BTF (emitted by the BPF backend whenever there is debug info) needs a
/// return-type slot in every subroutine type; the emitter's shared type
/// for all functions is the empty `!{}`. Give defined functions `void ()`.
void fixSubroutineTypes(llvm::Module &M) {
  llvm::DISubroutineType *VoidFn = nullptr;
  for (llvm::Function &F : M) {
    llvm::DISubprogram *SP = F.getSubprogram();
    if (!SP || !SP->getType() || SP->getType()->getTypeArray().size() != 0)
      continue;
    if (!VoidFn)
      VoidFn = llvm::DISubroutineType::get(
          M.getContext(), llvm::DINode::FlagZero, 0,
          llvm::MDTuple::get(M.getContext(), {nullptr}));
    // DINode hides replaceOperandWith; a distinct subprogram's operands
    // may be set in place (operand 4 is the type, see getRawType()).
    static_cast<llvm::MDNode *>(SP)->replaceOperandWith(4, VoidFn);
  }
}

llvm::Error BpfTarget::finishModule(llvm::Module &M, llvm::Function *Entry,
                                    const CompilerConfig &) const {
  llvm::LLVMContext &Ctx = M.getContext();
  fixSubroutineTypes(M);
  // Keep it simple for the verifier (and for packet lowering, which needs
  // the packet pointer and its loads in one function): inline everything.
  for (llvm::Function &F : M)
    if (!F.isDeclaration() && &F != Entry) {
      F.removeFnAttr(llvm::Attribute::NoInline);
      F.addFnAttr(llvm::Attribute::AlwaysInline);
    }
  if (!Entry || !isProgramShape(*Entry))
    return llvm::Error::success();

  // The program takes the entry's name (the device looks it up by the
  // symbol the compile result reports); the entry becomes its body.
  std::string Name = Entry->getName().str();
  Entry->setName(Name + ".body");
  Entry->setLinkage(llvm::GlobalValue::InternalLinkage);
  Entry->removeFnAttr(llvm::Attribute::NoInline);
  Entry->addFnAttr(llvm::Attribute::AlwaysInline);

  llvm::Type *I32 = llvm::Type::getInt32Ty(Ctx);
  llvm::Type *Ptr = llvm::PointerType::get(Ctx, 0);
  llvm::Function *Prog = llvm::Function::Create(
      llvm::FunctionType::get(I32, {Ptr}, false),
      llvm::GlobalValue::ExternalLinkage, Name, M);
  Prog->setSection(BpfProgramSection);
  Prog->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::Argument *Skb = Prog->getArg(0);
  Skb->setName("skb");
  llvm::IRBuilder<> B(llvm::BasicBlock::Create(Ctx, "top", Prog));
  if (llvm::DISubprogram *SP = Entry->getSubprogram()) {
    // The call must carry a location for the inliner, and BTF line info
    // (the verifier log's source notes) needs the program's subprogram.
    llvm::DIBuilder DIB(M, /*AllowUnresolved=*/false, SP->getUnit());
    llvm::DISubprogram *PSP = DIB.createFunction(
        SP->getFile(), Name, Name, SP->getFile(), SP->getLine(),
        SP->getType(), SP->getScopeLine(), llvm::DINode::FlagArtificial,
        llvm::DISubprogram::SPFlagDefinition |
            llvm::DISubprogram::SPFlagOptimized);
    Prog->setSubprogram(PSP);
    DIB.finalizeSubprogram(PSP);
    B.SetCurrentDebugLocation(llvm::DILocation::get(Ctx, SP->getLine(), 0, PSP));
  }
  llvm::FunctionType *FT = Entry->getFunctionType();
  llvm::SmallVector<llvm::Value *, 2> Args;
  Args.push_back(B.CreateCall(packetMarker(M), {Skb}, "pkt"));
  if (FT->getNumParams() == 2) {
    // struct __sk_buff { __u32 len; ... }: a context read the verifier
    // allows for socket filters.
    llvm::Value *Len = B.CreateAlignedLoad(I32, Skb, llvm::Align(4), "len");
    Args.push_back(B.CreateZExtOrTrunc(Len, FT->getParamType(1)));
  }
  llvm::CallInst *Result = B.CreateCall(Entry, Args);
  B.CreateRet(B.CreateZExtOrTrunc(Result, I32));

  // The kernel refuses GPL-only helpers without it; libbpf reads the
  // "license" section.
  llvm::Constant *Text = llvm::ConstantDataArray::getString(Ctx, "GPL");
  auto *License = new llvm::GlobalVariable(
      M, Text->getType(), /*isConstant=*/false,
      llvm::GlobalValue::ExternalLinkage, Text, BpfLicenseSymbol);
  License->setSection(BpfLicenseSection);
  License->setAlignment(llvm::Align(1));
  llvm::appendToUsed(M, {License});
  return llvm::Error::success();
}

void BpfTarget::validateModule(const llvm::Module &M, const CompilerConfig &,
                               std::vector<Diagnostic> &Out) const {
  std::set<std::pair<std::string, uint32_t>> Seen;
  auto Report = [&](const llvm::Instruction &I, const std::string &Message) {
    Diagnostic D = Diagnostic::error("target-restriction", Message, {});
    locateInstruction(I, D);
    if (Seen.insert({D.Loc.FileName, D.Loc.Line}).second)
      Out.push_back(std::move(D));
  };
  // LLVM 16's BPF backend cannot select signed division (it aborts with
  // "Cannot select: sdiv"); BPF ISA v4's sdiv is newer than this LLVM.
  for (const llvm::Function &F : M)
    for (const llvm::BasicBlock &BB : F)
      for (const llvm::Instruction &I : BB)
        if (I.getOpcode() == llvm::Instruction::SDiv ||
            I.getOpcode() == llvm::Instruction::SRem)
          Report(I, "signed integer division is not supported on the bpf "
                    "target: divide unsigned integers (e.g. UInt64) instead");
  // An entry that takes a packet but returns more than a verdict holds
  // stays a plain function (finishModule): say why no program appears.
  for (const llvm::Function &F : M)
    if (!F.isDeclaration() && F.hasExternalLinkage() && !isProgram(F) &&
        takesPacket(F) && !isProgramShape(F) &&
        !F.getName().startswith("prism_")) {
      llvm::Type *R = F.getReturnType();
      if (!R->isIntegerTy() && !R->isVoidTy())
        continue;
      const llvm::DISubprogram *SP = F.getSubprogram();
      Diagnostic D = Diagnostic::error(
          "target-restriction",
          "`" + (SP ? SP->getName() : F.getName()).str() +
              "` takes a packet but returns " +
              (R->isVoidTy() ? std::string("nothing")
                             : "a " + std::to_string(R->getIntegerBitWidth()) +
                                   "-bit integer") +
              ", which is no UInt32 verdict: it is compiled as a plain "
              "function, not a socket-filter program (return a UInt32, an "
              "Int32 or a Bool)",
          {});
      D.Sev = Severity::Warning;
      if (SP) {
        D.Loc.FileName = SP->getFilename().str();
        D.Loc.Line = SP->getLine();
        D.Loc.Col = 1;
      }
      Out.push_back(std::move(D));
    }
  const llvm::Function *Marker = M.getFunction(PacketMarkerName);
  if (!Marker)
    return;
  // Whatever lowering left on the packet pointer is something a socket
  // filter cannot do.
  llvm::SmallVector<const llvm::Value *, 8> Work(Marker->users().begin(),
                                                 Marker->users().end());
  while (!Work.empty()) {
    const llvm::Value *P = Work.pop_back_val();
    for (const llvm::User *U : P->users()) {
      const auto *I = llvm::dyn_cast<llvm::Instruction>(U);
      if (!I)
        continue;
      if (const auto *GEP = llvm::dyn_cast<llvm::GetElementPtrInst>(I)) {
        if (GEP->getPointerOperand() == P)
          Work.push_back(GEP);
        continue;
      }
      if (llvm::isa<llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst>(I))
        Report(*I, "atomic operations on packet data are not supported on "
                   "the bpf target");
      else if (const auto *S = llvm::dyn_cast<llvm::StoreInst>(I))
        Report(*I, S->getPointerOperand() == P
                       ? "a socket filter cannot write to the packet"
                       : "the packet pointer cannot be stored on the bpf "
                         "target");
      else if (llvm::isa<llvm::LoadInst>(I))
        Report(*I, "only integer loads of 1, 2, 4 or 8 bytes can read the "
                   "packet on the bpf target");
      else
        Report(*I, "the packet pointer can only be read at an offset "
                   "(`unsafe_load(pkt, i)`) on the bpf target");
    }
  }
}

unsigned bpfStackBytesImpl(llvm::StringRef Asm) {
  unsigned Max = 0;
  for (size_t P = Asm.find("(r10 - "); P != llvm::StringRef::npos;
       P = Asm.find("(r10 - ", P + 1)) {
    llvm::StringRef Digits = Asm.substr(P + 7);
    Digits = Digits.take_while([](char Ch) { return llvm::isDigit(Ch); });
    unsigned N = 0;
    if (!Digits.getAsInteger(10, N))
      Max = std::max(Max, N);
  }
  return Max;
}

llvm::Expected<std::string> BpfTarget::emitAsm(llvm::Module &M,
                                               llvm::TargetMachine &TM) const {
  llvm::Expected<std::string> Asm = Target::emitAsm(M, TM);
  if (!Asm)
    return Asm;
  unsigned Stack = bpfStackBytesImpl(*Asm);
  if (Stack <= BpfStackLimit)
    return Asm;
  // The backend only says "stack limit exceeded" with no source line; name
  // the program (or the first function) instead.
  DiagLoc Loc;
  const llvm::Function *Where = nullptr;
  for (const llvm::Function &F : M) {
    if (F.isDeclaration())
      continue;
    if (isProgram(F)) {
      Where = &F;
      break;
    }
    if (!Where)
      Where = &F;
  }
  if (Where)
    if (const llvm::DISubprogram *SP = Where->getSubprogram()) {
      Loc.FileName = SP->getFilename().str();
      Loc.Line = SP->getLine();
      Loc.Col = 1;
    }
  return makeDiagError(Diagnostic::error(
      "target-restriction",
      "the BPF stack is limited to " + std::to_string(BpfStackLimit) +
          " bytes, but `" + (Where ? Where->getName().str() : "?") +
          "` needs " + std::to_string(Stack) +
          " (large tuples or arrays indexed at run time live on the stack)",
      Loc));
}

void BpfTarget::resourceUsage(const std::string &Asm, const CompilerConfig &,
                              ResourceUsage &Out) const {
  // Instructions in 8-byte slots, as the verifier counts them: `ll`
  // (a 64-bit immediate load, lddw) takes two.
  int Count = 0;
  llvm::StringRef Rest(Asm);
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    Line = Line.split('#').first.trim(); // `#` starts a BPF asm comment
    if (Line.empty() || Line.startswith(".") || Line.endswith(":"))
      continue;
    Count += Line.endswith(" ll") ? 2 : 1;
  }
  Out.Instructions = Count;
  Out.StackBytes = static_cast<int>(bpfStackBytesImpl(Asm));
  if (Out.Source.empty())
    Out.Source = "bpf asm";
}

} // namespace

unsigned bpfStackBytes(llvm::StringRef Asm) { return bpfStackBytesImpl(Asm); }

const Target &bpfTarget() {
  static const BpfTarget T;
  return T;
}

} // namespace prism
