// The ptx target (GPUCompiler's ptx.jl). See PtxTarget.h.
#include "targets/PtxTarget.h"

#include "targets/ArchHint.h"

#include "cache/CompilerConfig.h"
#include "cache/JobReport.h"
#include "codegen/Runtime.h"
#include "optim/NarrowPhis.h"
#include "targets/PtxThrowSites.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <cstdlib>
#include <map>
#include <tuple>
#include <mutex>

namespace prism {

namespace {

/// Supported architectures and the PTX ISA each is given: the lowest that
/// knows the architecture, but at least 7.0 so every arch reads the same
/// `.version` (LLVM 16 stops at 7.8, which sm_89/sm_90 need).
struct PtxArch {
  const char *Arch;
  const char *Feature;
};
constexpr PtxArch PtxArchs[] = {
    {"sm_75", "+ptx70"}, {"sm_80", "+ptx70"}, {"sm_86", "+ptx71"},
    {"sm_87", "+ptx74"}, {"sm_89", "+ptx78"}, {"sm_90", "+ptx78"},
};

llvm::Error archError(llvm::StringRef Arch) {
  std::string Known;
  for (const PtxArch &A : PtxArchs)
    Known += std::string(Known.empty() ? "" : ", ") + A.Arch;
  return makeDiagError(Diagnostic::error(
      "config",
      "the ptx target does not support --arch `" + Arch.str() +
          "`: expected one of " + Known +
          " (CUDA 13's ptxas rejects older architectures, LLVM 16 knows no "
          "newer ones)" +
          otherTargetsArchHint(Arch, "ptx"),
      {}));
}

std::string envOr(const char *Name) {
  const char *V = std::getenv(Name);
  return V ? V : "";
}

/// libdevice bitcode per path, read once per process: every job parses its
/// own (lazy) module from the same buffer.
const llvm::MemoryBuffer *libdeviceBuffer(const std::string &Path) {
  static std::mutex Lock;
  static std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> Cache;
  std::lock_guard<std::mutex> G(Lock);
  auto It = Cache.find(Path);
  if (It == Cache.end()) {
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    It = Cache.emplace(Path, Buf ? std::move(*Buf) : nullptr).first;
  }
  return It->second.get();
}

/// Shared, constant and local addresses in 32 bits, as nvcc emits them
/// (`mov.u32 %r1, shmem; st.shared.f32 [%r1], ...`): those windows are
/// small, and a 64-bit pointer into one costs a register pair. The data
/// layout says so (`p3:32:32-p4:32:32-p5:32:32`); LLVM 16's NVPTX target
/// machine takes it only from its command-line option `nvptx-short-ptr`
/// (what clang's `-fcuda-short-ptr` sets), read when a target machine is
/// created, so it is set once, before the first.
void useShortPointers() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    auto &Options = llvm::cl::getRegisteredOptions();
    auto It = Options.find("nvptx-short-ptr");
    if (It != Options.end())
      It->second->addOccurrence(0, "nvptx-short-ptr", "true");
  });
}

bool isPtxIdentChar(char C) {
  return llvm::isAlnum(C) || C == '_' || C == '$';
}

class PtxTarget final : public Target {
public:
  const char *name() const override { return "ptx"; }
  std::string triple(const CompilerConfig &) const override {
    return "nvptx64-nvidia-cuda";
  }
  std::string defaultArch() const override { return "sm_80"; }
  std::string features(const CompilerConfig &C) const override {
    // An unsupported arch gets no feature; createTargetMachine reports it.
    return ptxFeatureForArch(C.arch()).value_or("");
  }
  bool kernelByDefault() const override { return true; }
  AddressSpaces addressSpaces() const override {
    AddressSpaces AS;
    AS.Generic = 0;
    AS.Global = 1;
    AS.Shared = 3;
    AS.Constant = 4;
    AS.Private = 5;
    return AS;
  }
  std::optional<WarpModel> warpModel(llvm::StringRef) const override {
    WarpModel M; // 32 threads, 32-byte sectors, 32 banks of 4 bytes
    using namespace llvm::Intrinsic;
    M.ThreadIdx = {nvvm_read_ptx_sreg_tid_x, nvvm_read_ptx_sreg_tid_y,
                   nvvm_read_ptx_sreg_tid_z};
    M.BlockDim = {nvvm_read_ptx_sreg_ntid_x, nvvm_read_ptx_sreg_ntid_y,
                  nvvm_read_ptx_sreg_ntid_z};
    M.BlockIdx = {nvvm_read_ptx_sreg_ctaid_x, nvvm_read_ptx_sreg_ctaid_y,
                  nvvm_read_ptx_sreg_ctaid_z};
    M.GlobalAS = 1;
    M.SharedAS = 3;
    M.GenericAS = 0;
    return M;
  }

  llvm::Error checkConfig(const CompilerConfig &C) const override {
    if (!ptxFeatureForArch(C.arch()))
      return archError(C.arch());
    // ptxas rejects a kernel with both .reqntid and .maxntid, and a
    // required block size is already its maximum. (gcn takes the pair as
    // amdgpu-flat-work-group-size's range.)
    if (C.minThreads() && C.maxThreads())
      return makeDiagError(Diagnostic::error(
          "config",
          "--minthreads " + std::to_string(C.minThreads()) +
              " (.reqntid, blocks of exactly that many threads) and "
              "--maxthreads " +
              std::to_string(C.maxThreads()) +
              " (.maxntid) cannot both be given for ptx: ptxas rejects a "
              "kernel with both, and the required block size is already its "
              "maximum",
          {}));
    if (C.blocksPerSM() && !C.minThreads() && !C.maxThreads())
      return makeDiagError(Diagnostic::error(
          "config",
          "--blocks-per-sm " + std::to_string(C.blocksPerSM()) +
              " (.minnctapersm) needs --maxthreads or --minthreads: ptxas "
              "ignores it without .maxntid or .reqntid",
          {}));
    return llvm::Error::success();
  }

  llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
  createTargetMachine(const CompilerConfig &C) const override {
    if (!ptxFeatureForArch(C.arch()))
      return archError(C.arch());
    useShortPointers();
    return Target::createTargetMachine(C);
  }

  llvm::Value *emitDeviceIndex(llvm::IRBuilderBase &B, Builtin Which,
                               llvm::Value *) const override {
    // CUDA's limits as `!range` (what NVVMIntrRange would add, but LLVM 16
    // leaves that pass out of NVPTX's pipeline): with them InstCombine
    // knows `blockIdx().x` (ctaid + 1) cannot wrap, and folds the Int64
    // index arithmetic Julia's `Int` brings into fewer 64-bit operations.
    constexpr uint64_t MaxGridX = (uint64_t(1) << 31) - 1;
    using namespace llvm::Intrinsic;
    struct Sreg {
      ID Intrinsic;
      uint64_t Lo, Hi; // [Lo, Hi)
    } R;
    switch (Which) {
    case Builtin::ThreadIdxX: R = {nvvm_read_ptx_sreg_tid_x, 0, 1024}; break;
    case Builtin::ThreadIdxY: R = {nvvm_read_ptx_sreg_tid_y, 0, 1024}; break;
    case Builtin::ThreadIdxZ: R = {nvvm_read_ptx_sreg_tid_z, 0, 64}; break;
    case Builtin::BlockIdxX: R = {nvvm_read_ptx_sreg_ctaid_x, 0, MaxGridX}; break;
    case Builtin::BlockIdxY: R = {nvvm_read_ptx_sreg_ctaid_y, 0, 65535}; break;
    case Builtin::BlockIdxZ: R = {nvvm_read_ptx_sreg_ctaid_z, 0, 65535}; break;
    case Builtin::BlockDimX: R = {nvvm_read_ptx_sreg_ntid_x, 1, 1025}; break;
    case Builtin::BlockDimY: R = {nvvm_read_ptx_sreg_ntid_y, 1, 1025}; break;
    case Builtin::BlockDimZ: R = {nvvm_read_ptx_sreg_ntid_z, 1, 65}; break;
    case Builtin::GridDimX: R = {nvvm_read_ptx_sreg_nctaid_x, 1, MaxGridX + 1}; break;
    case Builtin::GridDimY: R = {nvvm_read_ptx_sreg_nctaid_y, 1, 65536}; break;
    case Builtin::GridDimZ: R = {nvvm_read_ptx_sreg_nctaid_z, 1, 65536}; break;
    default:
      llvm_unreachable("not a device index builtin");
    }
    return withRange(B.CreateIntrinsic(R.Intrinsic, {}, {}), R.Lo, R.Hi);
  }

  void emitBarrier(llvm::IRBuilderBase &B, llvm::Value *) const override {
    // bar.sync 0: also orders shared and global memory within the block.
    B.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
  }

  llvm::Value *emitMath(llvm::IRBuilderBase &B, Builtin Which,
                        llvm::ArrayRef<llvm::Value *> Args) const override {
    // NVPTX has no instructions (and no libm) for these; libdevice has them.
    const char *Base = nullptr;
    switch (Which) {
    case Builtin::ExpFloat: Base = "exp"; break;
    case Builtin::LogFloat: Base = "log"; break;
    case Builtin::SinFloat: Base = "sin"; break;
    case Builtin::CosFloat: Base = "cos"; break;
    case Builtin::PowFloat: Base = "pow"; break;
    case Builtin::Exp2Float: Base = "exp2"; break;
    case Builtin::Log2Float: Base = "log2"; break;
    case Builtin::Log10Float:
      Base = "log10";
      break;
    default:
      if (const LibmOnlyFn *L = libmOnly(Which)) {
        Base = L->C;
        break;
      }
      return Target::emitMath(B, Which, Args);
    }
    llvm::Type *T = Args[0]->getType();
    if (!T->isHalfTy() && !T->isFloatTy() && !T->isDoubleTy())
      return Target::emitMath(B, Which, Args);
    return emitMathCall(B, std::string("__nv_") + Base, Args);
  }

  void tunePipeline(llvm::PassBuilder &PB,
                    const CompilerConfig &) const override {
    // At the end of function simplification, InstCombine right after it:
    // a loop over 32-bit values (a block size, a thread index) computes in
    // 32-bit registers. (On gcn InstCombine widens such a loop back, since
    // AMD's start values arrive as extensions of 16-bit loads; there a
    // uniform 64-bit value costs a scalar register pair, not two VGPRs.)
    PB.registerScalarOptimizerLateEPCallback(
        [](llvm::FunctionPassManager &FPM, llvm::OptimizationLevel) {
          FPM.addPass(NarrowPhisPass());
        });
  }

  llvm::Error finishModule(llvm::Module &M, llvm::Function *Entry,
                           const CompilerConfig &C) const override {
    if (Entry && C.kernel())
      markKernel(M, *passAggregatesByReference(*Entry, AggregateArgABI::ByVal),
                 C);
    // libdevice's __nvvm_reflect("__CUDA_FTZ") reads this: IEEE denormals,
    // as Julia's Float32 semantics require.
    if (!M.getModuleFlag("nvvm-reflect-ftz"))
      M.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t(0));
    // The driver has no separate link step yet; libraries must be in before
    // the optimiser runs (NVVMReflect, inlining), so link them here.
    return linkLibraries(M, C);
  }

  llvm::Error linkLibraries(llvm::Module &M,
                            const CompilerConfig &C) const override {
    bool Needed = false;
    for (const llvm::Function &F : M)
      Needed |= F.isDeclaration() && F.getName().startswith("__nv_");
    if (!Needed)
      return llvm::Error::success(); // also makes a second call a no-op
    std::optional<std::string> Path = findLibdevice(C.libdevicePath());
    const llvm::MemoryBuffer *Buf = Path ? libdeviceBuffer(*Path) : nullptr;
    if (!Buf)
      return makeDiagError(Diagnostic::error(
          "config",
          "this code needs libdevice (exp, log, sin, cos, tan, atan, atan2, "
          "exp2, log2, log10 or pow on the ptx target) but libdevice.10.bc "
          "was not found: set CUDA_HOME or the "
          "libdevice path",
          {}));
    auto Lib = llvm::getLazyBitcodeModule(Buf->getMemBufferRef(),
                                          M.getContext());
    if (!Lib)
      return makeDiagError(Diagnostic::error(
          "backend",
          "cannot read " + *Path + ": " + llvm::toString(Lib.takeError()), {}));
    // libdevice says `nvptx64-nvidia-gpulibs` and an older layout; ours win
    // (as CUDA.jl does) so the linker has nothing to warn about.
    (*Lib)->setTargetTriple(M.getTargetTriple());
    (*Lib)->setDataLayout(M.getDataLayout());
    llvm::Linker L(M);
    bool Failed = L.linkInModule(
        std::move(*Lib), llvm::Linker::LinkOnlyNeeded,
        [](llvm::Module &Dst, const llvm::StringSet<> &Linked) {
          // What came from libdevice is private to this module.
          llvm::internalizeModule(Dst, [&Linked](const llvm::GlobalValue &GV) {
            return !GV.hasName() || !Linked.count(GV.getName());
          });
        });
    if (Failed)
      return makeDiagError(Diagnostic::error(
          "backend", "linking libdevice (" + *Path + ") failed", {}));
    return llvm::Error::success();
  }

  std::string asmSymbol(llvm::StringRef IRName) const override {
    return ptxSymbol(IRName);
  }

  llvm::Expected<std::string> emitAsm(llvm::Module &M,
                                      llvm::TargetMachine &TM) const override {
    std::vector<PtxThrowSite> Sites = prepareForCodegen(M);
    std::string Broken;
    llvm::raw_string_ostream OS(Broken);
    if (llvm::verifyModule(M, &OS))
      return makeDiagError(Diagnostic::error(
          "backend", "the ptx throw lowering broke the module: " + Broken, {}));
    llvm::Expected<std::string> Asm = Target::emitAsm(M, TM);
    if (!Asm)
      return Asm;
    return finishAsm(*Asm, formatThrowSites(Sites));
  }

  /// NVPTX emits no ELF objects: the PTX text is what the CUDA driver loads
  /// (and JIT-compiles), so it is the object, as in GPUCompiler's mcgen.
  llvm::Expected<std::string>
  emitObject(llvm::Module &M, llvm::TargetMachine &TM) const override {
    return emitAsm(M, TM);
  }
  bool objectIsAsm() const override { return true; }
  bool lineInfoAsDirectives() const override { return true; }
  /// PTX's own comment, in ASCII (ptxas rejects any other byte, even in a
  /// comment): the annotated text still assembles.
  AsmCommentStyle asmSourceComments() const override { return {"//", true}; }

  bool resourceUsageRunsATool() const override { return true; }

  void resourceUsage(const std::string &Asm, const CompilerConfig &C,
                     ResourceUsage &Out) const override;

private:
  static void markKernel(llvm::Module &M, llvm::Function &F,
                         const CompilerConfig &C) {
    F.setCallingConv(llvm::CallingConv::PTX_Kernel);
    llvm::LLVMContext &Ctx = M.getContext();
    llvm::NamedMDNode *Ann = M.getOrInsertNamedMetadata("nvvm.annotations");
    auto Add = [&](const char *Key, unsigned Value) {
      llvm::Metadata *Ops[] = {
          llvm::ValueAsMetadata::get(&F), llvm::MDString::get(Ctx, Key),
          llvm::ConstantAsMetadata::get(
              llvm::ConstantInt::get(llvm::Type::getInt32Ty(Ctx), Value))};
      Ann->addOperand(llvm::MDNode::get(Ctx, Ops));
    };
    Add("kernel", 1);
    // Launch bounds are one-dimensional here; y and z are 1 as in CUDA.
    if (C.maxThreads()) {
      Add("maxntidx", C.maxThreads());
      Add("maxntidy", 1);
      Add("maxntidz", 1);
    }
    if (C.minThreads()) {
      Add("reqntidx", C.minThreads());
      Add("reqntidy", 1);
      Add("reqntidz", 1);
    }
    if (C.blocksPerSM())
      Add("minctasm", C.blocksPerSM());
    if (C.maxRegs())
      Add("maxnreg", C.maxRegs());
  }

  /// NVPTX prints the `.file` table after the last function, where a
  /// one-pass reader (the `.loc` → source line annotation) meets the
  /// numbers before their names. PTX allows `.file` anywhere at module
  /// scope, so the table moves up to just after the module header, and
  /// `Preamble` (the throw-site comments) follows it.
  static std::string finishAsm(const std::string &Asm,
                               const std::string &Preamble) {
    std::string Files, Rest;
    size_t HeaderEnd = std::string::npos;
    llvm::StringRef Text(Asm);
    while (!Text.empty()) {
      auto [Line, Tail] = Text.split('\n');
      Text = Tail;
      if (Line.trim().startswith(".file")) {
        Files += Line.str() + "\n";
        continue;
      }
      Rest += Line.str() + "\n";
      if (HeaderEnd == std::string::npos &&
          Line.trim().startswith(".address_size"))
        HeaderEnd = Rest.size();
    }
    if (HeaderEnd == std::string::npos)
      return Asm;
    Rest.insert(HeaderEnd, Files + (Preamble.empty() ? "" : "\n" + Preamble));
    return Rest;
  }

  /// On the module about to be code-generated (a clone of the report's):
  /// turn throws into exception records (PtxThrowSites.h) and make every
  /// symbol a valid PTX identifier (the NVPTX printer aborts on `!`).
  static std::vector<PtxThrowSite> prepareForCodegen(llvm::Module &M) {
    std::vector<PtxThrowSite> Sites = lowerThrows(M);
    for (llvm::GlobalObject &GO : M.global_objects()) {
      if (auto *F = llvm::dyn_cast<llvm::Function>(&GO); F && F->isIntrinsic())
        continue;
      if (!GO.hasName() || llvm::all_of(GO.getName(), isPtxIdentChar))
        continue;
      GO.setName(ptxSymbol(GO.getName()));
    }
    return Sites;
  }

  /// Every `prism_throw(kind, type, file, line)` becomes a branch to its
  /// function's one report block, which stores the record (site, thread)
  /// through `prism_exception_info`, fences at system scope and traps.
  /// Done after optimisation, so that retargetThrowLocations could still
  /// rewrite the file/line operands and the calls' arguments are constants;
  /// without a call the throw path costs the kernel no ABI registers.
  static std::vector<PtxThrowSite> lowerThrows(llvm::Module &M) {
    llvm::Function *Hook = M.getFunction(ThrowHookName);
    if (!Hook || !Hook->isDeclaration() || Hook->arg_size() != 4)
      return {};
    // A throw never continues, so only the first call of a block counts;
    // the rest of the block goes with it.
    llvm::MapVector<llvm::Function *, std::vector<llvm::CallInst *>> Throws;
    for (llvm::Function &F : M)
      for (llvm::BasicBlock &BB : F)
        for (llvm::Instruction &I : BB)
          if (auto *CI = llvm::dyn_cast<llvm::CallInst>(&I);
              CI && CI->getCalledFunction() == Hook) {
            Throws[&F].push_back(CI);
            break;
          }
    if (Throws.empty())
      return {};

    llvm::LLVMContext &Ctx = M.getContext();
    llvm::Type *Ptr = llvm::PointerType::get(Ctx, 0);
    llvm::Type *I64 = llvm::Type::getInt64Ty(Ctx);
    // Where the record goes when the launcher set no address: the pointer
    // starts out at this sink, so the report block stores without a null
    // test (a select of two addresses there cost map! two registers).
    auto *Sink = new llvm::GlobalVariable(
        M, I64, false, llvm::GlobalValue::InternalLinkage,
        llvm::ConstantInt::get(I64, 0), "prism_exception_sink", nullptr,
        llvm::GlobalValue::NotThreadLocal, /*AddressSpace=*/1);
    Sink->setAlignment(llvm::Align(8));
    auto *Info = new llvm::GlobalVariable(
        M, Ptr, /*isConstant=*/false, llvm::GlobalValue::ExternalLinkage,
        llvm::ConstantExpr::getAddrSpaceCast(Sink, Ptr), PtxExceptionGlobal,
        nullptr, llvm::GlobalValue::NotThreadLocal,
        /*AddressSpace=*/1, /*isExternallyInitialized=*/true);
    Info->setAlignment(llvm::Align(8));

    std::vector<PtxThrowSite> Sites;
    std::map<std::tuple<int32_t, std::string, std::string, int32_t>, uint32_t> Ids;
    llvm::SmallPtrSet<llvm::GlobalVariable *, 8> Strings;
    auto SiteOf = [&](llvm::CallInst &CI) -> uint32_t {
      ThrowCallInfo T = readThrowCall(CI);
      for (unsigned A : {1u, 2u})
        if (auto *GV = llvm::dyn_cast<llvm::GlobalVariable>(
                CI.getArgOperand(A)->stripPointerCasts()))
          Strings.insert(GV);
      auto [It, New] = Ids.try_emplace(T.key(), 0);
      if (New && Sites.size() < MaxThrowSites) {
        It->second = uint32_t(Sites.size() + 1);
        Sites.push_back({It->second, T.Kind, T.TypeName, T.File, T.Line});
      }
      return It->second;
    };

    for (auto &[F, Calls] : Throws) {
      llvm::BasicBlock *Report =
          llvm::BasicBlock::Create(Ctx, "prism_throw_report", F);
      llvm::IRBuilder<> B(Report);
      if (llvm::DISubprogram *SP = F->getSubprogram())
        B.SetCurrentDebugLocation(llvm::DILocation::get(Ctx, 0, 0, SP));
      llvm::Type *I32 = B.getInt32Ty();
      llvm::PHINode *Site = B.CreatePHI(I32, Calls.size(), "site");
      for (llvm::CallInst *CI : Calls) {
        llvm::BasicBlock *BB = CI->getParent();
        Site->addIncoming(llvm::ConstantInt::get(I32, SiteOf(*CI)), BB);
        // The block ends at the throw: drop what follows it, and this
        // block from the successors it had.
        for (llvm::BasicBlock *Succ : llvm::successors(BB))
          Succ->removePredecessor(BB);
        while (&BB->back() != CI) {
          llvm::Instruction &Dead = BB->back();
          if (!Dead.use_empty())
            Dead.replaceAllUsesWith(llvm::PoisonValue::get(Dead.getType()));
          Dead.eraseFromParent();
        }
        llvm::BranchInst::Create(Report, BB)->setDebugLoc(CI->getDebugLoc());
        CI->eraseFromParent();
      }
      // The thread's linear index in its block (< 1024) and its block's in
      // the grid (modulo 2^32), x fastest, in 32-bit arithmetic. One
      // volatile asm block reads the special registers afresh: the backend
      // would otherwise reuse the kernel's own reads, keeping them live
      // across the whole kernel for the sake of this cold block.
      auto *IdxTy = llvm::StructType::get(Ctx, {B.getInt32Ty(), B.getInt32Ty()});
      auto *IdxFnTy = llvm::FunctionType::get(IdxTy, false);
      llvm::Value *Idx = B.CreateCall(
          IdxFnTy,
          llvm::InlineAsm::get(
              IdxFnTy,
              "{\n\t.reg .u32 %a, %b, %c;\n"
              "\tmov.u32 %a, %tid.z;\n\tmov.u32 %b, %ntid.y;\n\tmov.u32 %c, %tid.y;\n"
              "\tmad.lo.u32 %a, %a, %b, %c;\n"
              "\tmov.u32 %b, %ntid.x;\n\tmov.u32 %c, %tid.x;\n"
              "\tmad.lo.u32 $0, %a, %b, %c;\n"
              "\tmov.u32 %a, %ctaid.z;\n\tmov.u32 %b, %nctaid.y;\n\tmov.u32 %c, %ctaid.y;\n"
              "\tmad.lo.u32 %a, %a, %b, %c;\n"
              "\tmov.u32 %b, %nctaid.x;\n\tmov.u32 %c, %ctaid.x;\n"
              "\tmad.lo.u32 $1, %a, %b, %c;\n\t}",
              "=r,=r", /*hasSideEffects=*/true),
          {}, "index");
      llvm::Value *Thread = B.CreateExtractValue(Idx, 0, "thread");
      llvm::Value *Block = B.CreateExtractValue(Idx, 1, "block");
      llvm::Value *Word = B.CreateOr(
          B.CreateOr(B.CreateShl(B.CreateZExt(Site, I64), ThrowSiteShift),
                     B.CreateShl(B.CreateZExt(Thread, I64), ThrowThreadShift)),
          B.CreateZExt(Block, I64));
      llvm::Value *Dst = B.CreateLoad(Ptr, Info, "record");
      B.CreateAlignedStore(Word, Dst, llvm::Align(8), /*isVolatile=*/true);
      B.CreateIntrinsic(llvm::Intrinsic::nvvm_membar_sys, {}, {});
      B.CreateIntrinsic(llvm::Intrinsic::trap, {}, {});
      B.CreateUnreachable();
    }
    if (Hook->use_empty())
      Hook->eraseFromParent();
    // The type and file strings now live in the site table only.
    for (llvm::GlobalVariable *GV : Strings) {
      GV->removeDeadConstantUsers();
      if (GV->hasLocalLinkage() && GV->use_empty())
        GV->eraseFromParent();
    }
    return Sites;
  }
};

/// `N bytes smem` → N: the integer right before `Suffix` in `Line`.
std::optional<int> numberBefore(llvm::StringRef Line, llvm::StringRef Suffix) {
  size_t P = Line.find(Suffix);
  if (P == llvm::StringRef::npos)
    return std::nullopt;
  size_t B = P;
  while (B > 0 && llvm::isDigit(Line[B - 1]))
    --B;
  int V = 0;
  if (B == P || Line.slice(B, P).getAsInteger(10, V))
    return std::nullopt;
  return V;
}

void PtxTarget::resourceUsage(const std::string &Asm, const CompilerConfig &C,
                              ResourceUsage &Out) const {
  Out.Instructions = countAsmInstructions(Asm, /*Semicolons=*/true);
  ToolRun R = runPtxas(Asm, C.arch());
  if (R.ExitCode != 0) {
    Out.Note = !R.Message.empty() ? R.Message
                                  : "ptxas failed: " + R.Output.substr(0, 500);
    if (Out.Source.empty())
      Out.Source = "ptx asm";
    return;
  }
  // The entry's block of `ptxas -v` output (a non-kernel module has none:
  // then the first function's figures are taken).
  std::string Entry;
  llvm::StringRef A(Asm);
  if (size_t P = A.find(".entry "); P != llvm::StringRef::npos) {
    llvm::StringRef Rest = A.drop_front(P + 7).ltrim();
    Entry = Rest.take_while(isPtxIdentChar).str();
  }
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  llvm::StringRef(R.Output).split(Lines, '\n');
  bool InEntry = Entry.empty(), StackNext = false, Done = false;
  int ConstBytes = 0;
  bool SawUsed = false;
  std::string Warnings;
  for (llvm::StringRef L : Lines) {
    // `ptxas warning : For entry julia_k adjusting per thread register
    // count of 16 to lower bound of 24`: why the figures differ from the
    // launch bounds asked for.
    if (L.consume_front("ptxas warning :")) {
      Warnings += (Warnings.empty() ? "ptxas: " : "; ") + L.trim().str();
      continue;
    }
    if (Done)
      continue;
    if (L.contains("Compiling entry function")) {
      if (InEntry && SawUsed)
        break; // the next kernel's figures
      InEntry = Entry.empty() || L.contains("'" + Entry + "'");
      continue;
    }
    if (!InEntry)
      continue;
    if (L.contains("Function properties for ")) {
      llvm::StringRef Fn = L.substr(L.find("Function properties for ") + 24).trim();
      StackNext = Entry.empty() || Fn == Entry;
      continue;
    }
    if (StackNext && L.contains("bytes stack frame")) {
      StackNext = false;
      Out.StackBytes = numberBefore(L, " bytes stack frame");
      // Bytes spilled to local memory, and read back.
      Out.Spills = numberBefore(L, " bytes spill stores");
      Out.SpillLoads = numberBefore(L, " bytes spill loads");
      continue;
    }
    if (L.contains("Used ") && L.contains(" registers")) {
      SawUsed = true;
      Out.Registers = numberBefore(L, " registers");
      // ptxas leaves out `0 bytes smem` (and lmem) when there is none.
      Out.SharedBytes = numberBefore(L, " bytes smem").value_or(0);
      Out.LocalBytes = numberBefore(L, " bytes lmem").value_or(0);
      // A thread's local memory is its stack frame (spills, a tuple indexed
      // at run time) and any lmem beside it, as the driver's
      // CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES counts it; ptxas 12 and later
      // print no lmem for ABI code, only the frame.
      if (Out.StackBytes)
        *Out.LocalBytes += *Out.StackBytes;
      // `380 bytes cmem[0], 8 bytes cmem[2]`: all constant banks.
      llvm::StringRef Rest = L;
      while (auto N = numberBefore(Rest, " bytes cmem[")) {
        ConstBytes += *N;
        Rest = Rest.drop_front(Rest.find(" bytes cmem[") + 12);
      }
      Out.ConstBytes = ConstBytes;
      Done = !Entry.empty();
    }
  }
  Out.Source = "ptxas -v " + C.arch();
  if (!SawUsed)
    Out.Note = "ptxas -v reported no figures for " +
               (Entry.empty() ? std::string("this module") : Entry);
  else
    Out.Note = Warnings;
}

} // namespace

std::optional<std::string> ptxFeatureForArch(llvm::StringRef Arch) {
  for (const PtxArch &A : PtxArchs)
    if (Arch == A.Arch)
      return std::string(A.Feature);
  return std::nullopt;
}

std::string ptxSymbol(llvm::StringRef Name) {
  std::string S = Name.str();
  for (char &C : S)
    if (!isPtxIdentChar(C))
      C = '_';
  if (!S.empty() && llvm::isDigit(S[0]))
    S.insert(S.begin(), '_');
  return S;
}

std::optional<std::string> findPtxas() {
  std::string Cuda = envOr("CUDA_HOME");
  return findTool({"ptxas"}, {Cuda.empty() ? "" : Cuda + "/bin",
                              "/usr/local/cuda/bin", "/usr/lib/cuda/bin"});
}

std::optional<std::string> findLibdevice(llvm::StringRef ConfiguredPath) {
  std::vector<std::string> Candidates;
  if (!ConfiguredPath.empty())
    Candidates.push_back(ConfiguredPath.str());
  for (const char *Env : {"CUDA_HOME", "CUDA_PATH"})
    if (std::string Dir = envOr(Env); !Dir.empty())
      Candidates.push_back(Dir + "/nvvm/libdevice/libdevice.10.bc");
  Candidates.push_back("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
  Candidates.push_back("/usr/lib/cuda/nvvm/libdevice/libdevice.10.bc");
  Candidates.push_back("/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc");
  for (const std::string &P : Candidates)
    if (llvm::sys::fs::exists(P))
      return P;
  return std::nullopt;
}

ToolRun runPtxas(llvm::StringRef Ptx, llvm::StringRef Arch) {
  std::optional<std::string> Ptxas = findPtxas();
  if (!Ptxas) {
    ToolRun R;
    R.Message = "ptxas not found";
    return R;
  }
  llvm::Expected<std::string> Path = writeTempFile("ptx", Ptx);
  if (!Path) {
    ToolRun R;
    R.Message = llvm::toString(Path.takeError());
    return R;
  }
  ToolRun R = runTool(*Ptxas, {"-v", "--gpu-name", Arch.str(), "-o",
                               "/dev/null", *Path});
  llvm::sys::fs::remove(*Path);
  return R;
}

const Target &ptxTarget() {
  static const PtxTarget T;
  return T;
}

} // namespace prism
