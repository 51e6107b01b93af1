// Shared by the GPU targets: the kernel argument ABI rewrite and running the
// vendor tools. See GpuSupport.h.
#include "targets/GpuSupport.h"

#include "support/Diagnostic.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace prism {

llvm::Function *passAggregatesByReference(llvm::Function &F,
                                          AggregateArgABI ABI) {
  llvm::Module &M = *F.getParent();
  llvm::LLVMContext &Ctx = F.getContext();
  const llvm::DataLayout &DL = M.getDataLayout();
  // byval lives in the stack's address space (0 on NVPTX); AMD's byref
  // kernel arguments must be in the constant address space.
  const unsigned AS = ABI == AggregateArgABI::ByVal ? DL.getAllocaAddrSpace() : 4;

  std::vector<llvm::Type *> Params;
  bool AnyAggregate = false;
  for (llvm::Argument &A : F.args()) {
    bool Agg = A.getType()->isAggregateType();
    AnyAggregate |= Agg;
    Params.push_back(Agg ? llvm::PointerType::get(Ctx, AS) : A.getType());
  }
  // A kernel that calls itself would need every call site rewritten too;
  // keep the plain ABI rather than half-rewrite it.
  if (!AnyAggregate || !F.use_empty() || F.isDeclaration())
    return &F;

  auto *FT = llvm::FunctionType::get(F.getReturnType(), Params, F.isVarArg());
  llvm::Function *NF = llvm::Function::Create(FT, F.getLinkage(),
                                              F.getAddressSpace(), "", &M);
  NF->copyAttributesFrom(&F);
  llvm::AttributeList Old = F.getAttributes();
  std::vector<llvm::AttributeSet> ParamAttrs;
  for (llvm::Argument &A : F.args()) {
    llvm::Type *T = A.getType();
    if (!T->isAggregateType()) {
      ParamAttrs.push_back(Old.getParamAttrs(A.getArgNo()));
      continue;
    }
    llvm::AttrBuilder AB(Ctx);
    if (ABI == AggregateArgABI::ByVal)
      AB.addByValAttr(T);
    else
      AB.addByRefAttr(T);
    AB.addAlignmentAttr(DL.getABITypeAlign(T));
    ParamAttrs.push_back(llvm::AttributeSet::get(Ctx, AB));
  }
  NF->setAttributes(llvm::AttributeList::get(Ctx, Old.getFnAttrs(),
                                             Old.getRetAttrs(), ParamAttrs));
  NF->takeName(&F);
  // The body keeps its debug locations, so the DISubprogram moves with it.
  llvm::SmallVector<std::pair<unsigned, llvm::MDNode *>, 4> MDs;
  F.getAllMetadata(MDs);
  F.clearMetadata();
  for (auto &[Kind, Node] : MDs)
    NF->setMetadata(Kind, Node);
  NF->splice(NF->begin(), &F);

  llvm::BasicBlock &Entry = NF->getEntryBlock();
  llvm::IRBuilder<> B(&Entry, Entry.begin());
  for (llvm::Argument &OldA : F.args()) {
    llvm::Argument *NewA = NF->getArg(OldA.getArgNo());
    NewA->takeName(&OldA);
    llvm::Type *T = OldA.getType();
    if (!T->isAggregateType()) {
      OldA.replaceAllUsesWith(NewA);
      continue;
    }
    llvm::Value *V = B.CreateAlignedLoad(T, NewA, DL.getABITypeAlign(T),
                                         NewA->getName() + ".val");
    OldA.replaceAllUsesWith(V);
  }
  F.eraseFromParent();
  return NF;
}

std::optional<std::string> findTool(llvm::ArrayRef<llvm::StringRef> Names,
                                    llvm::ArrayRef<std::string> ExtraDirs) {
  for (llvm::StringRef Name : Names)
    if (llvm::ErrorOr<std::string> P = llvm::sys::findProgramByName(Name))
      return *P;
  for (const std::string &Dir : ExtraDirs) {
    if (Dir.empty())
      continue;
    for (llvm::StringRef Name : Names) {
      llvm::SmallString<256> P(Dir);
      llvm::sys::path::append(P, Name);
      if (llvm::sys::fs::can_execute(P))
        return std::string(P.str());
    }
  }
  return std::nullopt;
}

static std::string readAndRemove(const llvm::SmallString<128> &Path) {
  std::string Text;
  if (auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true))
    Text = (*Buf)->getBuffer().str();
  llvm::sys::fs::remove(Path);
  return Text;
}

ToolRun runTool(llvm::StringRef Program, llvm::ArrayRef<std::string> Args,
                unsigned TimeoutSeconds) {
  ToolRun R;
  llvm::SmallString<128> OutPath, ErrPath;
  if (llvm::sys::fs::createTemporaryFile("prism-tool", "out", OutPath) ||
      llvm::sys::fs::createTemporaryFile("prism-tool", "err", ErrPath)) {
    R.Message = "cannot create temporary files for " + Program.str();
    return R;
  }
  std::vector<llvm::StringRef> Argv{Program};
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(OutPath), llvm::StringRef(ErrPath)};
  std::string ErrMsg;
  bool ExecFailed = false;
  int RC = llvm::sys::ExecuteAndWait(Program, Argv, std::nullopt, Redirects,
                                     TimeoutSeconds, 0, &ErrMsg, &ExecFailed);
  R.Output = readAndRemove(OutPath) + readAndRemove(ErrPath);
  if (ExecFailed || RC < 0) {
    R.Message = ErrMsg.empty() ? Program.str() + " did not finish" : ErrMsg;
    return R;
  }
  R.ExitCode = RC;
  return R;
}

llvm::Expected<std::string> writeTempFile(llvm::StringRef Suffix,
                                          llvm::StringRef Contents) {
  int FD = -1;
  llvm::SmallString<128> Path;
  if (std::error_code EC =
          llvm::sys::fs::createTemporaryFile("prism", Suffix, FD, Path))
    return makeDiagError(Diagnostic::error(
        "backend", "cannot create a temporary file: " + EC.message(), {}));
  llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
  OS << Contents;
  OS.close();
  if (OS.has_error()) {
    OS.clear_error();
    llvm::sys::fs::remove(Path);
    return makeDiagError(Diagnostic::error(
        "backend", "cannot write " + Path.str().str(), {}));
  }
  return std::string(Path.str());
}

int countAsmInstructions(llvm::StringRef Asm, bool Semicolons) {
  int Count = 0;
  bool InMetadata = false;
  llvm::StringRef Rest = Asm;
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    llvm::StringRef T = Line.trim();
    // GCN: the HSA metadata (YAML) and kernel descriptor are not code.
    if (T.startswith(".amdgpu_metadata") || T.startswith(".amdhsa_kernel ")) {
      InMetadata = true;
      continue;
    }
    if (T.startswith(".end_amdgpu_metadata") ||
        T.startswith(".end_amdhsa_kernel")) {
      InMetadata = false;
      continue;
    }
    if (InMetadata)
      continue;
    // Trailing comments: `//` in PTX, `;` in GCN.
    size_t C = Semicolons ? T.find("//") : T.find(';');
    if (C != llvm::StringRef::npos)
      T = T.take_front(C).rtrim();
    if (T.empty() || T.startswith(".") || T.startswith("#") ||
        T.endswith(":") || T == "{" || T == "}")
      continue;
    if (Semicolons && !T.endswith(";"))
      continue; // a line inside a multi-line statement (call operands)
    ++Count;
  }
  return Count;
}

} // namespace prism
