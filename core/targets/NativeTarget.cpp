// The host CPU target. See NativeTarget.h for the ABI shared with the host
// grid runtime.
#include "targets/NativeTarget.h"

#include "targets/ArchHint.h"

#include "cache/CompilerConfig.h"
#include "codegen/Runtime.h"
#include "lang/HostMath.h"
#include "optim/GuardSplit.h"
#include "optim/LLVMInit.h"
#include "targets/HostInfo.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/TargetParser/Triple.h"

namespace prism {

/// NativeKernelState as an LLVM struct (see NativeStateField).
static llvm::StructType *stateType(llvm::LLVMContext &Ctx);

namespace {

class NativeTarget final : public Target {
public:
  const char *name() const override { return "native"; }
  std::string triple(const CompilerConfig &) const override {
    return hostInfo().Triple;
  }
  std::string defaultArch() const override { return hostInfo().CPU; }
  std::string features(const CompilerConfig &C) const override {
    // Host features describe the host CPU only; another --arch gets that
    // CPU's own defaults.
    return C.arch() == hostInfo().CPU ? hostInfo().Features : "";
  }

  bool usesKernelState() const override { return true; }
  bool wantsLaunchWrapper() const override { return true; }

  /// An unknown CPU makes LLVM print warnings and then abort (a 64-bit
  /// triple on a subtarget without 64-bit mode): reject it up front.
  llvm::Error checkConfig(const CompilerConfig &C) const override {
    initializeLLVMTargets();
    std::string Err;
    const llvm::Target *T =
        llvm::TargetRegistry::lookupTarget(hostInfo().Triple, Err);
    if (!T)
      return makeDiagError(Diagnostic::error("config", Err, {}));
    std::unique_ptr<llvm::MCSubtargetInfo> STI(
        T->createMCSubtargetInfo(hostInfo().Triple, "", ""));
    if (!STI || !STI->isCPUStringValid(C.arch()))
      return makeDiagError(Diagnostic::error(
          "config",
          "the native target does not support --arch `" + C.arch() +
              "`: expected a CPU LLVM 16 knows for " + hostInfo().Triple +
              ", such as " + hostInfo().CPU + ", x86-64-v3 or skylake" +
              otherTargetsArchHint(C.arch(), "native"),
          {}));
    // A 32-bit x86 CPU (i386, pentium4) is valid, but LLVM aborts on it
    // with a 64-bit triple ("64-bit code requested on a subtarget that
    // doesn't support it").
    if (llvm::Triple(hostInfo().Triple).getArch() == llvm::Triple::x86_64) {
      std::unique_ptr<llvm::MCSubtargetInfo> CPU(
          T->createMCSubtargetInfo(hostInfo().Triple, C.arch(), ""));
      if (!CPU || !CPU->checkFeatures("+64bit"))
        return makeDiagError(Diagnostic::error(
            "config",
            "the native target does not support --arch `" + C.arch() +
                "`: it is a 32-bit CPU, and the host triple " +
                hostInfo().Triple + " is 64-bit; use a 64-bit CPU such as " +
                hostInfo().CPU + ", x86-64 or x86-64-v3",
            {}));
    }
    return llvm::Error::success();
  }

  llvm::Value *emitDeviceIndex(llvm::IRBuilderBase &B, Builtin Which,
                               llvm::Value *State) const override {
    assert(State && "device index without kernel state");
    unsigned Field = 0, Dim = 0;
    switch (Which) {
    case Builtin::ThreadIdxX: Field = NSF_ThreadIdx; Dim = 0; break;
    case Builtin::ThreadIdxY: Field = NSF_ThreadIdx; Dim = 1; break;
    case Builtin::ThreadIdxZ: Field = NSF_ThreadIdx; Dim = 2; break;
    case Builtin::BlockIdxX: Field = NSF_BlockIdx; Dim = 0; break;
    case Builtin::BlockIdxY: Field = NSF_BlockIdx; Dim = 1; break;
    case Builtin::BlockIdxZ: Field = NSF_BlockIdx; Dim = 2; break;
    case Builtin::BlockDimX: Field = NSF_BlockDim; Dim = 0; break;
    case Builtin::BlockDimY: Field = NSF_BlockDim; Dim = 1; break;
    case Builtin::BlockDimZ: Field = NSF_BlockDim; Dim = 2; break;
    case Builtin::GridDimX: Field = NSF_GridDim; Dim = 0; break;
    case Builtin::GridDimY: Field = NSF_GridDim; Dim = 1; break;
    case Builtin::GridDimZ: Field = NSF_GridDim; Dim = 2; break;
    default:
      llvm_unreachable("not a device index builtin");
    }
    llvm::Value *P = B.CreateConstInBoundsGEP2_32(
        stateType(B.getContext()), State, 0, Field);
    P = B.CreateConstInBoundsGEP2_32(
        llvm::ArrayType::get(B.getInt32Ty(), 3), P, 0, Dim);
    auto *L = B.CreateAlignedLoad(B.getInt32Ty(), P, llvm::Align(4));
    // The runtime never changes the state during a launch, except the
    // thread index, which a block wrapper's loop sets for each thread.
    if (Field != NSF_ThreadIdx)
      L->setMetadata(llvm::LLVMContext::MD_invariant_load,
                     llvm::MDNode::get(B.getContext(), {}));
    // What the runtime guarantees (HostDevice::launch checks it), as NVPTX
    // states it for %tid and %ntid: with it LLVM knows that `threadIdx().x
    // + 1` cannot overflow, and a block's loop has a small trip count.
    const uint32_t MaxBlock = NativeMaxThreadsPerBlock;
    uint32_t Lo = 0, Hi = uint32_t(INT32_MAX); // [Lo, Hi)
    switch (Field) {
    case NSF_ThreadIdx: Hi = MaxBlock; break;
    case NSF_BlockDim: Lo = 1; Hi = MaxBlock + 1; break;
    case NSF_GridDim: Lo = 1; Hi = uint32_t(INT32_MAX) + 1; break;
    default: break; // blockIdx: [0, INT32_MAX)
    }
    return withRange(L, Lo, Hi);
  }

  void emitBarrier(llvm::IRBuilderBase &B, llvm::Value *State) const override {
    assert(State && "barrier without kernel state");
    llvm::Module &M = *B.GetInsertBlock()->getModule();
    llvm::FunctionCallee F = M.getOrInsertFunction(
        SyncThreadsHookName, B.getVoidTy(), B.getPtrTy());
    if (auto *Fn = llvm::dyn_cast<llvm::Function>(F.getCallee()))
      Fn->addFnAttr(llvm::Attribute::NoUnwind);
    B.CreateCall(F, {State});
  }

  llvm::Value *emitSharedArray(llvm::IRBuilderBase &B, llvm::Type *, uint64_t,
                               uint64_t Offset,
                               llvm::Value *State) const override {
    assert(State && "shared memory without kernel state");
    llvm::Value *P = B.CreateConstInBoundsGEP2_32(stateType(B.getContext()),
                                                  State, 0, NSF_SharedMem);
    auto *Base = B.CreateAlignedLoad(B.getPtrTy(), P, llvm::Align(8));
    Base->setMetadata(llvm::LLVMContext::MD_invariant_load,
                      llvm::MDNode::get(B.getContext(), {}));
    return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, Offset);
  }

  void emitTrap(llvm::IRBuilderBase &B) const override {
    // prism_throw does not return on the host (it unwinds to the launcher);
    // a trap instruction would kill the process instead.
    B.CreateUnreachable();
  }

  bool throwsPassValues() const override { return true; }

  llvm::Error finishModule(llvm::Module &M, llvm::Function *,
                           const CompilerConfig &) const override {
    // Every frame keeps its frame pointer, as Julia's code does on Linux:
    // the host runtime walks the chain when a kernel throws, for the stack
    // trace of calls that were not inlined.
    for (llvm::Function &F : M)
      if (!F.isDeclaration())
        F.addFnAttr("frame-pointer", "all");
    return llvm::Error::success();
  }

  bool objectNamesEveryFunction() const override { return true; }

  AsmCommentStyle asmSourceComments() const override {
    // The assembler's own comment leader, so that the annotated text still
    // assembles (llvm-mca, a .s file): on x86 `;` separates statements.
    llvm::StringRef Triple = hostInfo().Triple;
    if (Triple.startswith("x86_64") || Triple.startswith("i686"))
      return {"#", false};
    if (Triple.startswith("aarch64"))
      return {"//", false};
    return Target::asmSourceComments();
  }

  llvm::Value *emitMath(llvm::IRBuilderBase &B, Builtin Which,
                        llvm::ArrayRef<llvm::Value *> Args) const override {
    llvm::Type *T = Args[0]->getType();
    // Julia computes sin, cos, tan and the logarithms of a Float32 in
    // Float64 (its kernels), nearly always the correctly rounded result,
    // where glibc's sinf and log10f are up to an ulp or two off (and its
    // cbrtf, even for cubes); a Float16 goes through Float32, as Julia's
    // does.
    if ((T->isFloatTy() || T->isHalfTy()) && float32InFloat64(Which)) {
      llvm::Value *F =
          T->isHalfTy() ? B.CreateFPExt(Args[0], B.getFloatTy()) : Args[0];
      llvm::Value *D = emitMath(B, Which, {B.CreateFPExt(F, B.getDoubleTy())});
      llvm::Value *R = B.CreateFPTrunc(D, B.getFloatTy());
      return T->isHalfTy() ? B.CreateFPTrunc(R, T) : R;
    }
    // glibc's log10 is up to 1.5 ulp off; in x87 extended precision
    // (log10l), rounded once, it is within an ulp, as Julia's is.
    if (Which == Builtin::Log10Float && T->isDoubleTy() &&
        llvm::Triple(hostInfo().Triple).isX86()) {
      llvm::Value *X =
          B.CreateFPExt(Args[0], llvm::Type::getX86_FP80Ty(B.getContext()));
      return B.CreateFPTrunc(Target::emitMath(B, Which, {X}), T);
    }
    return Target::emitMath(B, Which, Args);
  }

  bool isKnownExternal(llvm::StringRef Name) const override {
    if (Target::isKnownExternal(Name))
      return true;
    // libm entry points LLVM lowers math intrinsics to; the JIT resolves
    // them from the process.
    static const llvm::StringSet<> LibM = {
        "sin",  "cos",   "exp",    "log",    "pow",    "sqrt",   "fmod",
        "exp2", "log2",  "log10",  "sinf",   "cosf",   "expf",   "logf",
        "powf", "sqrtf", "fmodf",  "exp2f",  "log2f",  "log10f", "floor",
        "ceil", "trunc", "rint",   "floorf", "ceilf",  "truncf", "rintf",
        "fma",  "fmaf",  "log10l", "memcpy", "memset", "memmove"};
    return LibM.contains(Name) || libmOnlyByC(Name);
  }

  void tunePipeline(llvm::PassBuilder &PB, const CompilerConfig &) const override {
    // Before the vectoriser: a block wrapper's thread loop with the
    // kernel's bounds guard in it becomes a loop without the guard (and
    // one that skips the rest), so it vectorises without masks.
    PB.registerVectorizerStartEPCallback(
        [](llvm::FunctionPassManager &FPM, llvm::OptimizationLevel) {
          FPM.addPass(GuardSplitPass());
        });
  }

};

} // namespace

static llvm::StructType *stateType(llvm::LLVMContext &Ctx) {
  auto *I3 = llvm::ArrayType::get(llvm::Type::getInt32Ty(Ctx), 3);
  auto *P = llvm::PointerType::get(Ctx, 0);
  return llvm::StructType::get(Ctx, {I3, I3, I3, I3, P, P});
}

void storeNativeThreadIdx(llvm::IRBuilderBase &B, llvm::Value *State,
                          unsigned Dim, llvm::Value *V) {
  llvm::Value *P = B.CreateConstInBoundsGEP2_32(stateType(B.getContext()),
                                                State, 0, NSF_ThreadIdx);
  P = B.CreateConstInBoundsGEP2_32(llvm::ArrayType::get(B.getInt32Ty(), 3), P,
                                   0, Dim);
  B.CreateAlignedStore(V, P, llvm::Align(4));
}

std::string nativeBlockLaunchSymbol(const std::string &EntrySymbol) {
  llvm::StringRef S(EntrySymbol);
  S.consume_front("julia_");
  return "jfptr_block_" + S.str();
}

std::string nativeLaunchSymbol(const std::string &EntrySymbol) {
  llvm::StringRef S(EntrySymbol);
  S.consume_front("julia_");
  return "jfptr_" + S.str();
}

const Target &nativeTarget() {
  static const NativeTarget T;
  return T;
}

} // namespace prism
