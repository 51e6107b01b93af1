// The gcn target (GPUCompiler's gcn.jl). See GcnTarget.h.
#include "targets/GcnTarget.h"

#include "targets/ArchHint.h"

#include "cache/CompilerConfig.h"
#include "cache/JobReport.h"
#include "codegen/Runtime.h"
#include "optim/LLVMInit.h"
#include "validate/Validator.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Target/TargetMachine.h"

#include <set>
#include <tuple>

namespace prism {

namespace {

constexpr const char *GcnTriple = "amdgcn-amd-amdhsa";

/// Byte offsets in the HSA kernel dispatch packet (hsa_kernel_dispatch_packet_t).
constexpr unsigned WorkgroupSizeOffset = 4; ///< u16 x, y, z
constexpr unsigned GridSizeOffset = 12;     ///< u32 x, y, z

/// Whether LLVM's AMDGPU backend knows `Arch` as a processor.
llvm::Error checkArch(llvm::StringRef Arch) {
  initializeLLVMTargets();
  std::string Err;
  const llvm::Target *T = llvm::TargetRegistry::lookupTarget(GcnTriple, Err);
  if (!T)
    return makeDiagError(Diagnostic::error(
        "backend",
        "the gcn target (amdgcn-amd-amdhsa) is not built into this LLVM: " +
            Err,
        {}));
  std::unique_ptr<llvm::MCSubtargetInfo> STI(
      T->createMCSubtargetInfo(GcnTriple, "", ""));
  if (!Arch.startswith("gfx") || !STI || !STI->isCPUStringValid(Arch))
    return makeDiagError(Diagnostic::error(
        "config",
        "the gcn target does not support --arch `" + Arch.str() +
            "`: expected an AMD GPU processor LLVM 16 knows, such as gfx90a, "
            "gfx908, gfx1030 or gfx1100" +
            otherTargetsArchHint(Arch, "gcn"),
        {}));
  return llvm::Error::success();
}

/// The wavefront size LLVM compiles \p Arch for: 64 before gfx10 (GCN,
/// CDNA: gfx90a), 32 from gfx10 on (RDNA), the backend's default there
/// unless `+wavefrontsize64` is asked for, which Prism never does.
unsigned wavefrontSize(llvm::StringRef Arch) {
  llvm::StringRef Number = Arch.drop_front(3).drop_back(2); // gfx|10|30
  unsigned Major = 0;
  return !Number.getAsInteger(10, Major) && Major >= 10 ? 32 : 64;
}

class GcnTarget final : public Target {
public:
  const char *name() const override { return "gcn"; }
  std::string triple(const CompilerConfig &) const override { return GcnTriple; }
  std::string defaultArch() const override { return "gfx90a"; }
  bool kernelByDefault() const override { return true; }
  AddressSpaces addressSpaces() const override {
    AddressSpaces AS;
    AS.Generic = 0; // flat
    AS.Global = 1;
    AS.Shared = 3;  // LDS
    AS.Constant = 4;
    AS.Private = 5; // scratch
    return AS;
  }

  llvm::Error checkConfig(const CompilerConfig &C) const override {
    if (C.minThreads() && C.maxThreads() && C.minThreads() > C.maxThreads())
      return makeDiagError(Diagnostic::error(
          "config",
          "--minthreads " + std::to_string(C.minThreads()) +
              " exceeds --maxthreads " + std::to_string(C.maxThreads()) +
              " (on gcn they bound amdgpu-flat-work-group-size)",
          {}));
    return checkArch(C.arch());
  }

  llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
  createTargetMachine(const CompilerConfig &C) const override {
    if (llvm::Error E = checkArch(C.arch()))
      return E;
    auto TM = Target::createTargetMachine(C);
    // Verbose asm carries the backend's per-kernel info comments
    // (`; NumVgprs:` ...), which people read next to the code.
    if (TM)
      (*TM)->Options.MCOptions.AsmVerbose = true;
    return TM;
  }

  std::optional<WarpModel> warpModel(llvm::StringRef Arch) const override {
    WarpModel M;
    using namespace llvm::Intrinsic;
    M.ThreadIdx = {amdgcn_workitem_id_x, amdgcn_workitem_id_y,
                   amdgcn_workitem_id_z};
    M.BlockIdx = {amdgcn_workgroup_id_x, amdgcn_workgroup_id_y,
                  amdgcn_workgroup_id_z};
    M.BlockDimRead = blockDimRead;
    M.WarpSize = wavefrontSize(Arch.empty() ? defaultArch() : Arch);
    M.Warp = "wavefront";
    // gfx9 (GCN, CDNA; wave64): a wavefront's global access is served in
    // the vector L1's 64-byte lines, and the LDS's 32 banks of 4 bytes
    // serve a wave64 in two halves of 32 lanes. RDNA's wave32 and its
    // LDS are another model, not made.
    M.ModelsMemory = M.WarpSize == 64;
    M.GlobalAS = 1;
    M.SharedAS = 3;
    M.GenericAS = 0;
    M.SectorBytes = 64;
    M.Sector = "cache line";
    M.BankLanes = 32;
    return M;
  }

  llvm::Value *emitDeviceIndex(llvm::IRBuilderBase &B, Builtin Which,
                               llvm::Value *) const override {
    // HIP's limits, as the ptx target gives CUDA's: a thread index below
    // 1024, a block index below 2^31 - 1 (maxGridSize, as CUDA's).
    auto Id = [&](llvm::Intrinsic::ID ID, uint64_t End) {
      return withRange(B.CreateIntrinsic(ID, {}, {}), 0, End);
    };
    switch (Which) {
    case Builtin::ThreadIdxX:
      return Id(llvm::Intrinsic::amdgcn_workitem_id_x, MaxWorkgroupSize);
    case Builtin::ThreadIdxY:
      return Id(llvm::Intrinsic::amdgcn_workitem_id_y, MaxWorkgroupSize);
    case Builtin::ThreadIdxZ:
      return Id(llvm::Intrinsic::amdgcn_workitem_id_z, MaxWorkgroupSize);
    case Builtin::BlockIdxX:
      return Id(llvm::Intrinsic::amdgcn_workgroup_id_x, INT32_MAX);
    case Builtin::BlockIdxY:
      return Id(llvm::Intrinsic::amdgcn_workgroup_id_y, INT32_MAX);
    case Builtin::BlockIdxZ:
      return Id(llvm::Intrinsic::amdgcn_workgroup_id_z, INT32_MAX);
    case Builtin::BlockDimX: return workgroupSize(B, 0);
    case Builtin::BlockDimY: return workgroupSize(B, 1);
    case Builtin::BlockDimZ: return workgroupSize(B, 2);
    case Builtin::GridDimX: return gridBlocks(B, 0);
    case Builtin::GridDimY: return gridBlocks(B, 1);
    case Builtin::GridDimZ: return gridBlocks(B, 2);
    default:
      llvm_unreachable("not a device index builtin");
    }
  }

  void emitBarrier(llvm::IRBuilderBase &B, llvm::Value *) const override {
    // s_barrier alone only synchronises execution; the fences make the
    // block's LDS and global writes visible across it (HIP __syncthreads).
    llvm::SyncScope::ID WG = B.getContext().getOrInsertSyncScopeID("workgroup");
    B.CreateFence(llvm::AtomicOrdering::Release, WG);
    B.CreateIntrinsic(llvm::Intrinsic::amdgcn_s_barrier, {}, {});
    B.CreateFence(llvm::AtomicOrdering::Acquire, WG);
  }

  void validateModule(const llvm::Module &M, const CompilerConfig &,
                      std::vector<Diagnostic> &Out) const override {
    // LLVM 16's AMDGPU backend selects exp, exp2, log, log2, log10, sin,
    // cos and pow only for Float32 and Float16, and has nothing for the
    // C library's functions (LibmOnlyFn: tan, atan, tanh, ...): those need
    // ROCm's device library (ocml), which Prism does not link. Without this
    // check the backend aborts ("Cannot select: fsin") or the call stays
    // unresolved. One error per function per source line (inlined copies
    // repeat).
    std::set<std::tuple<std::string, uint32_t, std::string>> Seen;
    for (const llvm::Function &F : M)
      for (const llvm::BasicBlock &BB : F)
        for (const llvm::Instruction &I : BB) {
          std::string Name, Why;
          if (const char *N = unselectableMath(I)) {
            Name = N;
            Why = "` of a Float64 is not supported on the gcn target: LLVM's "
                  "AMDGPU backend has no double-precision " +
                  std::string(Name == "^" ? "pow" : Name) +
                  ", and Prism does not link ROCm's device library; use "
                  "Float32";
          } else if (const char *N = libmOnlyMath(I)) {
            Name = N;
            Why = "` is not supported on the gcn target: LLVM's AMDGPU "
                  "backend has no " +
                  Name + ", and Prism does not link ROCm's device library";
          } else {
            continue;
          }
          Diagnostic D = Diagnostic::error("target-restriction",
                                           "`" + Name + Why, {});
          locateInstruction(I, D);
          if (Seen.insert({D.Loc.FileName, D.Loc.Line, Name}).second)
            Out.push_back(std::move(D));
        }
  }

  /// The user-facing name of a double-precision math intrinsic the backend
  /// cannot select; null for anything else.
  static const char *unselectableMath(const llvm::Instruction &I) {
    const auto *II = llvm::dyn_cast<llvm::IntrinsicInst>(&I);
    if (!II || !II->getType()->isDoubleTy())
      return nullptr;
    static constexpr std::pair<llvm::Intrinsic::ID, const char *>
        Unselectable[] = {{llvm::Intrinsic::exp, "exp"},
                          {llvm::Intrinsic::exp2, "exp2"},
                          {llvm::Intrinsic::log, "log"},
                          {llvm::Intrinsic::log2, "log2"},
                          {llvm::Intrinsic::log10, "log10"},
                          {llvm::Intrinsic::sin, "sin"},
                          {llvm::Intrinsic::cos, "cos"},
                          {llvm::Intrinsic::pow, "^"}};
    for (const auto &[ID, N] : Unselectable)
      if (II->getIntrinsicID() == ID)
        return N;
    return nullptr;
  }

  /// The name of a math function that only a C library provides (no LLVM
  /// intrinsic: Target::emitLibmCall), called by I; null otherwise.
  static const char *libmOnlyMath(const llvm::Instruction &I) {
    const auto *Call = llvm::dyn_cast<llvm::CallInst>(&I);
    const llvm::Function *F = Call ? Call->getCalledFunction() : nullptr;
    if (!F || !F->isDeclaration())
      return nullptr;
    const LibmOnlyFn *L = libmOnlyByC(F->getName().str());
    return L ? L->Julia : nullptr;
  }

  bool isKnownExternal(llvm::StringRef Name) const override {
    // Reported by validateModule, with the reason.
    return libmOnlyByC(Name.str()) || Target::isKnownExternal(Name);
  }

  llvm::Error finishModule(llvm::Module &M, llvm::Function *Entry,
                           const CompilerConfig &C) const override {
    if (!Entry || !C.kernel())
      return llvm::Error::success();
    llvm::Function *K =
        passAggregatesByReference(*Entry, AggregateArgABI::ByRefConstant);
    K->setCallingConv(llvm::CallingConv::AMDGPU_KERNEL);
    if (C.maxThreads() || C.minThreads()) {
      unsigned Max = C.maxThreads() ? C.maxThreads() : 1024;
      unsigned Min = C.minThreads() ? C.minThreads() : 1; // ≤ Max: checkConfig
      K->addFnAttr("amdgpu-flat-work-group-size",
                   std::to_string(Min) + "," + std::to_string(Max));
    }
    return llvm::Error::success();
  }

  llvm::Expected<std::string> emitAsm(llvm::Module &M,
                                      llvm::TargetMachine &TM) const override {
    dropThrowReports(M);
    llvm::Expected<std::string> Asm = Target::emitAsm(M, TM);
    if (Asm)
      *Asm = quoteKernelDescriptorNames(*Asm);
    return Asm;
  }

  /// An HSA code object (ld.lld -shared) when ld.lld is installed, else the
  /// relocatable ELF the backend wrote.
  llvm::Expected<std::string>
  emitObject(llvm::Module &M, llvm::TargetMachine &TM) const override {
    dropThrowReports(M);
    llvm::Expected<std::string> Obj = Target::emitObject(M, TM);
    if (!Obj || !findLld())
      return Obj;
    return linkHsaCodeObject(*Obj);
  }

  void resourceUsage(const std::string &Asm, const CompilerConfig &C,
                     ResourceUsage &Out) const override;

private:
  static llvm::Value *dispatchField(llvm::IRBuilderBase &B, unsigned Offset,
                                    llvm::Type *T) {
    llvm::Value *Packet =
        B.CreateIntrinsic(llvm::Intrinsic::amdgcn_dispatch_ptr, {}, {});
    llvm::Value *P = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Packet, Offset);
    auto *L = B.CreateAlignedLoad(T, P, llvm::Align(T->getPrimitiveSizeInBits() / 8));
    // The packet does not change while the kernel runs.
    L->setMetadata(llvm::LLVMContext::MD_invariant_load,
                   llvm::MDNode::get(B.getContext(), {}));
    return L;
  }
  /// Which dimension of the workgroup size \p I loads from the dispatch
  /// packet (what workgroupSize emits), if it does.
  static std::optional<unsigned> blockDimRead(const llvm::Instruction &I) {
    const auto *L = llvm::dyn_cast<llvm::LoadInst>(&I);
    if (!L || !L->getType()->isIntegerTy(16))
      return std::nullopt;
    llvm::APInt Offset(64, 0);
    const llvm::Value *Base =
        L->getPointerOperand()->stripAndAccumulateConstantOffsets(
            L->getModule()->getDataLayout(), Offset, /*AllowNonInbounds=*/true);
    const auto *Packet = llvm::dyn_cast<llvm::IntrinsicInst>(Base);
    if (!Packet ||
        Packet->getIntrinsicID() != llvm::Intrinsic::amdgcn_dispatch_ptr)
      return std::nullopt;
    uint64_t Off = Offset.getZExtValue();
    if (Off < WorkgroupSizeOffset || Off >= WorkgroupSizeOffset + 6 || Off % 2)
      return std::nullopt;
    return unsigned(Off - WorkgroupSizeOffset) / 2;
  }
  /// LLVM 16's AMDGPU printer writes `.amdhsa_kernel julia_saxpy!` with the
  /// name bare, though it quotes the same symbol everywhere else, and an
  /// assembler reads `!` as the end of it: quoted here, the text assembles.
  static std::string quoteKernelDescriptorNames(const std::string &Asm) {
    static constexpr llvm::StringLiteral Directive = ".amdhsa_kernel ";
    std::string Out;
    Out.reserve(Asm.size() + 16);
    llvm::StringRef Rest = Asm;
    while (!Rest.empty()) {
      auto [Line, Tail] = Rest.split('\n');
      Rest = Tail;
      llvm::StringRef T = Line.ltrim();
      llvm::StringRef Name = T.startswith(Directive)
                                 ? T.drop_front(Directive.size()).trim()
                                 : llvm::StringRef();
      if (!Name.empty() && !Name.startswith("\"") &&
          !llvm::all_of(Name, [](char C) {
            return llvm::isAlnum(C) || C == '_' || C == '.' || C == '$';
          })) {
        Out.append(Line.begin(), T.begin());
        Out += Directive;
        Out += "\"" + Name.str() + "\"";
      } else {
        Out += Line;
      }
      if (Line.end() != Asm.data() + Asm.size()) // it ended in a newline
        Out += '\n';
    }
    return Out;
  }

  static llvm::Value *workgroupSize(llvm::IRBuilderBase &B, unsigned Dim) {
    return B.CreateZExt(
        withRange(llvm::cast<llvm::Instruction>(dispatchField(
                      B, WorkgroupSizeOffset + 2 * Dim, B.getInt16Ty())),
                  1, MaxWorkgroupSize + 1),
        B.getInt32Ty());
  }
  /// HIP's largest workgroup (threads in all dimensions together).
  static constexpr uint64_t MaxWorkgroupSize = 1024;
  static llvm::Value *gridBlocks(llvm::IRBuilderBase &B, unsigned Dim) {
    // HSA's grid size counts work-items; CUDA's gridDim counts blocks.
    llvm::Value *Items = dispatchField(B, GridSizeOffset + 4 * Dim, B.getInt32Ty());
    return B.CreateUDiv(Items, workgroupSize(B, Dim));
  }

  /// Without a host-call buffer there is nowhere to report to, so the
  /// report is dropped and the trap that follows ends the wavefront. The
  /// calls are removed rather than given an empty callee: any call makes the
  /// backend budget scratch for a call stack (ScratchSize 16384).
  static void dropThrowReports(llvm::Module &M) {
    llvm::Function *F = M.getFunction(ThrowHookName);
    if (!F || !F->isDeclaration())
      return;
    for (llvm::User *U : llvm::make_early_inc_range(F->users()))
      if (auto *Call = llvm::dyn_cast<llvm::CallInst>(U);
          Call && Call->getCalledFunction() == F && Call->use_empty())
        Call->eraseFromParent();
    if (F->use_empty())
      F->eraseFromParent();
  }
};

/// The integer after `Key` on a line (`; NumVgprs: 12`).
std::optional<int> numberAfter(llvm::StringRef Line, llvm::StringRef Key) {
  size_t P = Line.find(Key);
  if (P == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Rest = Line.drop_front(P + Key.size()).ltrim();
  Rest = Rest.take_while([](char C) { return llvm::isDigit(C); });
  int V = 0;
  if (Rest.empty() || Rest.getAsInteger(10, V))
    return std::nullopt;
  return V;
}

void GcnTarget::resourceUsage(const std::string &Asm, const CompilerConfig &C,
                              ResourceUsage &Out) const {
  Out.Instructions = countAsmInstructions(Asm, /*Semicolons=*/false);
  // The entry's figures: the backend prints them after each function, so
  // take the first block after the entry kernel's label.
  llvm::StringRef A(Asm);
  std::string Kernel;
  if (size_t P = A.find(".amdhsa_kernel "); P != llvm::StringRef::npos)
    Kernel = A.drop_front(P + 15).take_until([](char C) { return C == '\n'; })
                 .trim().trim('"').str();
  size_t Start = 0;
  if (!Kernel.empty()) {
    for (std::string Label : {Kernel + ":", "\"" + Kernel + "\":"}) {
      size_t P = A.find("\n" + Label);
      if (P != llvm::StringRef::npos) {
        Start = P;
        break;
      }
    }
  }
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  A.drop_front(Start).split(Lines, '\n');
  // Each figure once: the first occurrence after the entry's label.
  auto Take = [](llvm::StringRef L, llvm::StringRef Key,
                 std::optional<int> &Field) {
    if (!Field)
      Field = numberAfter(L, Key);
  };
  // Spills to scratch memory, as ptxas counts them: the bytes of each
  // spill store and reload in the entry's code, once per site. The backend
  // marks them (`; 4-byte Folded Spill`); an SGPR spilled into a VGPR lane
  // (v_writelane) is no memory access and is left out.
  int SpillBytes = 0, ReloadBytes = 0;
  bool Verbose = false;
  for (llvm::StringRef L : Lines) {
    if (L.contains("; -- End function"))
      break;
    bool Spill = L.contains("-byte Folded Spill"),
         Reload = L.contains("-byte Folded Reload");
    llvm::StringRef Op = L.trim().take_until([](char C) { return C == ' '; });
    Verbose |= L.contains("; %bb.");
    if ((!Spill && !Reload) || !(Op.contains("store") || Op.contains("load")))
      continue;
    size_t Dash = L.find("-byte Folded");
    size_t Semi = L.rfind(';', Dash);
    int Bytes = 0;
    if (Semi != llvm::StringRef::npos &&
        !L.slice(Semi + 1, Dash).trim().getAsInteger(10, Bytes))
      (Spill ? SpillBytes : ReloadBytes) += Bytes;
  }
  if (Verbose) {
    Out.Spills = SpillBytes;
    Out.SpillLoads = ReloadBytes;
  }
  for (llvm::StringRef L : Lines) {
    L = L.trim();
    if (!L.startswith(";"))
      continue;
    Take(L, "NumVgprs:", Out.VGPRs);
    Take(L, "NumSgprs:", Out.SGPRs);
    Take(L, "NumAgprs:", Out.AGPRs);
    Take(L, "ScratchSize:", Out.ScratchBytes);
    Take(L, "LDSByteSize:", Out.LDSBytes);
    Take(L, "Occupancy:", Out.WavesPerSIMD);
    if (Out.VGPRs && Out.SGPRs && Out.ScratchBytes && Out.LDSBytes &&
        Out.WavesPerSIMD)
      break;
  }
  // Without verbose asm there are no comments; the HSA metadata and the
  // kernel descriptor still hold the figures.
  auto TakeAnywhere = [&A](llvm::StringRef Key, std::optional<int> &Field) {
    if (Field)
      return;
    if (size_t P = A.find(Key); P != llvm::StringRef::npos)
      Field = numberAfter(A.drop_front(P).take_until([](char C) {
        return C == '\n';
      }), Key);
  };
  TakeAnywhere(".vgpr_count:", Out.VGPRs);
  TakeAnywhere(".sgpr_count:", Out.SGPRs);
  TakeAnywhere(".amdhsa_private_segment_fixed_size", Out.ScratchBytes);
  TakeAnywhere(".amdhsa_group_segment_fixed_size", Out.LDSBytes);
  bool Found = Out.VGPRs || Out.SGPRs;
  Out.Source = "gcn asm " + C.arch();
  if (!Found)
    Out.Note = "the backend printed no register figures";
}

} // namespace

std::optional<std::string> findLld() {
  return findTool({"ld.lld-16", "ld.lld"}, {"/usr/lib/llvm-16/bin"});
}

llvm::Expected<std::string> linkHsaCodeObject(llvm::StringRef Object) {
  std::optional<std::string> Lld = findLld();
  if (!Lld)
    return makeDiagError(
        Diagnostic::error("backend", "ld.lld not found", {}));
  llvm::Expected<std::string> In = writeTempFile("o", Object);
  if (!In)
    return In.takeError();
  std::string OutPath = *In + ".hsaco";
  ToolRun R = runTool(*Lld, {"-shared", *In, "-o", OutPath});
  llvm::sys::fs::remove(*In);
  std::string Linked;
  if (auto Buf = llvm::MemoryBuffer::getFile(OutPath))
    Linked = (*Buf)->getBuffer().str();
  llvm::sys::fs::remove(OutPath);
  if (R.ExitCode != 0 || Linked.empty())
    return makeDiagError(Diagnostic::error(
        "backend",
        "linking the HSA code object failed: " +
            (R.Message.empty() ? R.Output : R.Message),
        {}));
  return Linked;
}

const Target &gcnTarget() {
  static const GcnTarget T;
  return T;
}

} // namespace prism
