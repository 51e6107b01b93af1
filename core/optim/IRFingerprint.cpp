//===- IRFingerprint.cpp - Hash of what the IR printer would show ---------===//
//
// Every field the AsmWriter prints for an instruction lives either in its
// operands (values, blocks, constants: hashed by address), its type, its
// name, its "optional data" (nsw/nuw/exact, fast-math flags, inbounds), its
// metadata, or in per-class state (alignment, predicates, orderings, the
// callee's type, shuffle masks, phi blocks...). The per-class state sits in
// Value's protected subclass data, so it is read here class by class.
//
// Metadata operands of debug intrinsics need care: a MetadataAsValue keeps
// its address when the value it wraps is replaced (RAUW rewrites the
// ValueAsMetadata in place), so the wrapped value is hashed, not the wrapper.
//
//===----------------------------------------------------------------------===//

#include "optim/IRFingerprint.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace prism;

namespace {

/// A fast order-dependent mix; the fingerprint only has to tell "the same"
/// from "changed" within one pipeline run, not resist an adversary.
class Mixer {
public:
  void add(uint64_t V) {
    H = (H ^ V) * 0x9E3779B97F4A7C15ULL;
    H ^= H >> 29;
  }
  void add(const void *P) { add(reinterpret_cast<uintptr_t>(P)); }
  void add(StringRef S) {
    add(S.size());
    if (!S.empty())
      add(static_cast<uint64_t>(hash_value(S)));
  }
  uint64_t value() const { return H; }

private:
  uint64_t H = 0xCBF29CE484222325ULL;
};

void addMetadataOperand(Mixer &X, const Metadata *MD) {
  X.add(MD);
  if (const auto *VAM = dyn_cast_or_null<ValueAsMetadata>(MD))
    X.add(VAM->getValue());
  else if (const auto *AL = dyn_cast_or_null<DIArgList>(MD))
    for (const ValueAsMetadata *Arg : AL->getArgs())
      X.add(Arg ? Arg->getValue() : nullptr);
}

void addOperand(Mixer &X, const Value *V) {
  X.add(V);
  if (const auto *MV = dyn_cast_or_null<MetadataAsValue>(V))
    addMetadataOperand(X, MV->getMetadata());
}

/// Metadata attachments other than !dbg, in the printer's order.
template <typename T> void addAttachments(Mixer &X, const T &Object) {
  SmallVector<std::pair<unsigned, MDNode *>, 4> MDs;
  Object.getAllMetadata(MDs);
  X.add(MDs.size());
  for (auto &[Kind, Node] : MDs) {
    X.add(Kind);
    X.add(Node);
  }
}

void addAlign(Mixer &X, MaybeAlign A) { X.add(A ? A->value() : 0); }

/// The state each instruction class keeps outside its operands.
void addClassState(Mixer &X, const Instruction &I) {
  if (const auto *C = dyn_cast<CmpInst>(&I)) {
    X.add(C->getPredicate());
  } else if (const auto *L = dyn_cast<LoadInst>(&I)) {
    addAlign(X, L->getAlign());
    X.add(L->isVolatile());
    X.add(static_cast<unsigned>(L->getOrdering()));
    X.add(L->getSyncScopeID());
  } else if (const auto *S = dyn_cast<StoreInst>(&I)) {
    addAlign(X, S->getAlign());
    X.add(S->isVolatile());
    X.add(static_cast<unsigned>(S->getOrdering()));
    X.add(S->getSyncScopeID());
  } else if (const auto *A = dyn_cast<AllocaInst>(&I)) {
    addAlign(X, A->getAlign());
    X.add(A->getAllocatedType());
    X.add(A->isUsedWithInAlloca());
    X.add(A->isSwiftError());
  } else if (const auto *CB = dyn_cast<CallBase>(&I)) {
    X.add(CB->getCallingConv());
    X.add(CB->getAttributes().getRawPointer());
    X.add(CB->getFunctionType());
    X.add(CB->getNumOperandBundles());
    for (unsigned B = 0; B < CB->getNumOperandBundles(); ++B)
      X.add(CB->getOperandBundleAt(B).getTagID());
    if (const auto *Call = dyn_cast<CallInst>(CB))
      X.add(static_cast<unsigned>(Call->getTailCallKind()));
  } else if (const auto *G = dyn_cast<GetElementPtrInst>(&I)) {
    X.add(G->getSourceElementType());
  } else if (const auto *P = dyn_cast<PHINode>(&I)) {
    for (const BasicBlock *BB : P->blocks())
      X.add(BB);
  } else if (const auto *SV = dyn_cast<ShuffleVectorInst>(&I)) {
    for (int M : SV->getShuffleMask())
      X.add(static_cast<uint64_t>(static_cast<int64_t>(M)));
  } else if (const auto *EV = dyn_cast<ExtractValueInst>(&I)) {
    for (unsigned Idx : EV->indices())
      X.add(Idx);
  } else if (const auto *IV = dyn_cast<InsertValueInst>(&I)) {
    for (unsigned Idx : IV->indices())
      X.add(Idx);
  } else if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    X.add(static_cast<unsigned>(RMW->getOperation()));
    X.add(static_cast<unsigned>(RMW->getOrdering()));
    X.add(RMW->getSyncScopeID());
    X.add(RMW->isVolatile());
    addAlign(X, RMW->getAlign());
  } else if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    X.add(static_cast<unsigned>(CX->getSuccessOrdering()));
    X.add(static_cast<unsigned>(CX->getFailureOrdering()));
    X.add(CX->getSyncScopeID());
    X.add(CX->isVolatile());
    X.add(CX->isWeak());
    addAlign(X, CX->getAlign());
  } else if (const auto *F = dyn_cast<FenceInst>(&I)) {
    X.add(static_cast<unsigned>(F->getOrdering()));
    X.add(F->getSyncScopeID());
  } else if (const auto *LP = dyn_cast<LandingPadInst>(&I)) {
    X.add(LP->isCleanup());
  }
}

void addInstruction(Mixer &X, const Instruction &I) {
  X.add(&I);
  X.add(I.getOpcode());
  X.add(I.getType());
  X.add(I.hasName() ? I.getName() : StringRef());
  X.add(I.getRawSubclassOptionalData());
  X.add(I.getNumOperands());
  for (const Value *Op : I.operand_values())
    addOperand(X, Op);
  X.add(I.getDebugLoc().getAsMDNode());
  if (I.hasMetadataOtherThanDebugLoc()) {
    SmallVector<std::pair<unsigned, MDNode *>, 4> MDs;
    I.getAllMetadataOtherThanDebugLoc(MDs);
    for (auto &[Kind, Node] : MDs) {
      X.add(Kind);
      X.add(Node);
    }
  }
  addClassState(X, I);
}

/// What the printer shows of any global object: its header line.
void addGlobalHeader(Mixer &X, const GlobalValue &GV) {
  X.add(&GV);
  X.add(GV.getName());
  X.add(GV.getValueType());
  X.add(GV.getLinkage());
  X.add(GV.getVisibility());
  X.add(GV.getDLLStorageClass());
  X.add(static_cast<unsigned>(GV.getUnnamedAddr()));
  X.add(GV.getThreadLocalMode());
  X.add(GV.isDSOLocal());
  X.add(GV.getAddressSpace());
  X.add(GV.getPartition());
  if (const auto *GO = dyn_cast<GlobalObject>(&GV)) {
    X.add(GO->getSection());
    addAlign(X, GO->getAlign());
    X.add(GO->getComdat());
    addAttachments(X, *GO);
  }
}

} // namespace

uint64_t prism::fingerprintFunction(const Function &F) {
  Mixer X;
  addGlobalHeader(X, F);
  X.add(F.getCallingConv());
  X.add(F.getAttributes().getRawPointer());
  X.add(F.hasGC() ? F.getGC() : StringRef());
  X.add(F.hasPersonalityFn() ? F.getPersonalityFn() : nullptr);
  X.add(F.hasPrefixData() ? F.getPrefixData() : nullptr);
  X.add(F.hasPrologueData() ? F.getPrologueData() : nullptr);
  X.add(F.isDeclaration());
  for (const Argument &A : F.args())
    X.add(A.hasName() ? A.getName() : StringRef());
  for (const BasicBlock &BB : F) {
    X.add(&BB);
    X.add(BB.hasName() ? BB.getName() : StringRef());
    for (const Instruction &I : BB)
      addInstruction(X, I);
  }
  return X.value();
}

uint64_t prism::fingerprintModule(const Module &M) {
  Mixer X;
  X.add(M.getModuleIdentifier());
  X.add(M.getSourceFileName());
  X.add(M.getDataLayoutStr());
  X.add(M.getTargetTriple());
  X.add(M.getModuleInlineAsm());
  for (const GlobalVariable &GV : M.globals()) {
    addGlobalHeader(X, GV);
    X.add(GV.isConstant());
    X.add(GV.isExternallyInitialized());
    X.add(GV.hasInitializer() ? GV.getInitializer() : nullptr);
    if (GV.hasAttributes()) // rare: no cheap identity for an AttributeSet
      X.add(StringRef(GV.getAttributes().getAsString()));
  }
  for (const GlobalAlias &GA : M.aliases()) {
    addGlobalHeader(X, GA);
    X.add(GA.getAliasee());
  }
  for (const GlobalIFunc &GI : M.ifuncs()) {
    addGlobalHeader(X, GI);
    X.add(GI.getResolver());
  }
  for (const Function &F : M)
    X.add(fingerprintFunction(F));
  for (const NamedMDNode &N : M.named_metadata()) {
    X.add(N.getName());
    X.add(N.getNumOperands());
    for (const MDNode *Op : N.operands())
      X.add(Op);
  }
  return X.value();
}

uint64_t prism::fingerprintModuleNumbering(const Module &M) {
  Mixer X;
  for (const Function &F : M) {
    X.add(&F);
    X.add(F.getAttributes().getRawPointer());
  }
  X.add(M.global_size());
  return X.value();
}
