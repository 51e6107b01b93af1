// Module and function emission: signatures, slots, control flow, calls,
// the throw path and the native launch wrapper. Builtins are in
// BuiltinEmit.cpp.
#include "codegen/EmitterImpl.h"

#include "codegen/Runtime.h"
#include "infer/DefiniteAssignment.h"
#include "optim/GuardSplit.h"
#include "targets/NativeTarget.h"
#include "types/ShowError.h"
#include "types/Type.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"

#include <functional>

namespace prism {

//===----------------------------------------------------------------------===//
// Module state
//===----------------------------------------------------------------------===//

llvm::Constant *ModuleState::stringConstant(llvm::StringRef S) {
  auto [It, Inserted] = Strings.try_emplace(S, nullptr);
  if (!Inserted)
    return It->second;
  AddressSpaces AS = Tgt.addressSpaces();
  llvm::Constant *Init = llvm::ConstantDataArray::getString(Ctx, S);
  auto *GV = new llvm::GlobalVariable(
      M, Init->getType(), /*isConstant=*/true,
      llvm::GlobalValue::PrivateLinkage, Init, ".str", nullptr,
      llvm::GlobalValue::NotThreadLocal, AS.Constant);
  GV->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  GV->setAlignment(llvm::Align(1));
  It->second = llvm::ConstantExpr::getPointerBitCastOrAddrSpaceCast(
      GV, llvm::PointerType::get(Ctx, AS.Generic));
  return It->second;
}

llvm::FunctionCallee ModuleState::throwHook() {
  llvm::Type *Ptr = llvm::PointerType::get(Ctx, Tgt.addressSpaces().Generic);
  llvm::Type *I32 = llvm::Type::getInt32Ty(Ctx);
  llvm::FunctionCallee FC = M.getOrInsertFunction(
      ThrowHookName,
      llvm::FunctionType::get(llvm::Type::getVoidTy(Ctx),
                              {I32, Ptr, Ptr, I32}, false));
  if (auto *Fn = llvm::dyn_cast<llvm::Function>(FC.getCallee())) {
    Fn->addFnAttr(llvm::Attribute::Cold);
    Fn->addFnAttr(llvm::Attribute::NoUnwind);
    // Each throw keeps its own call, so its return address still maps to
    // its own source line and inlined frames: tail merging would share
    // one call between two throws of a line and merge their locations.
    Fn->addFnAttr(llvm::Attribute::NoMerge);
  }
  return FC;
}

llvm::FunctionCallee ModuleState::throwDetailHook() {
  llvm::Type *Ptr = llvm::PointerType::get(Ctx, Tgt.addressSpaces().Generic);
  llvm::FunctionCallee FC = M.getOrInsertFunction(
      ThrowDetailHookName,
      llvm::FunctionType::get(
          llvm::Type::getVoidTy(Ctx),
          {Ptr, llvm::Type::getInt32Ty(Ctx), llvm::Type::getInt32Ty(Ctx)},
          /*isVarArg=*/true));
  if (auto *Fn = llvm::dyn_cast<llvm::Function>(FC.getCallee())) {
    Fn->addFnAttr(llvm::Attribute::Cold);
    Fn->addFnAttr(llvm::Attribute::NoUnwind);
  }
  return FC;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::string defaultEntrySymbol(llvm::StringRef FunctionName) {
  return "julia_" + FunctionName.str();
}

static bool isDeviceStateBuiltin(Builtin Bi) {
  switch (Bi) {
  case Builtin::ThreadIdxX: case Builtin::ThreadIdxY: case Builtin::ThreadIdxZ:
  case Builtin::BlockIdxX: case Builtin::BlockIdxY: case Builtin::BlockIdxZ:
  case Builtin::BlockDimX: case Builtin::BlockDimY: case Builtin::BlockDimZ:
  case Builtin::GridDimX: case Builtin::GridDimY: case Builtin::GridDimZ:
  case Builtin::SyncThreads: case Builtin::SharedArray:
    return true;
  default:
    return false;
  }
}

/// Which instances need the hidden state argument: those using a device
/// builtin, and transitively their callers (a fixpoint, for recursion).
static void computeNeedsState(ModuleState &MS, const InferResult &R) {
  if (!MS.Tgt.usesKernelState())
    return;
  for (CodeInstance *CI : R.All)
    for (Builtin Bi : MS.codeOf(*CI).Builtins)
      if (isDeviceStateBuiltin(Bi)) {
        MS.NeedsState.insert(CI);
        break;
      }
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (CodeInstance *CI : R.All) {
      if (MS.NeedsState.contains(CI))
        continue;
      for (MethodInstance *Callee : MS.codeOf(*CI).Invokes) {
        CodeInstance *C = Callee ? MS.Instances.lookup(Callee) : nullptr;
        if (C && MS.NeedsState.contains(C)) {
          MS.NeedsState.insert(CI);
          Changed = true;
          break;
        }
      }
    }
  }
}

static Symbol functionName(const CodeInstance &CI) {
  if (CI.MI && CI.MI->Def)
    return CI.MI->Def->Name;
  return Symbol::get("anonymous");
}

/// The scalars an LLVM value of type \p T holds, saturating at \p Cap.
static uint64_t scalarCount(llvm::Type *T, uint64_t Cap) {
  if (auto *S = llvm::dyn_cast<llvm::StructType>(T)) {
    uint64_t N = 0;
    for (llvm::Type *E : S->elements())
      if ((N += scalarCount(E, Cap)) >= Cap)
        return Cap;
    return N;
  }
  if (auto *A = llvm::dyn_cast<llvm::ArrayType>(T)) {
    uint64_t E = scalarCount(A->getElementType(), Cap);
    if (E && A->getNumElements() > Cap / E)
      return Cap;
    return std::min(Cap, A->getNumElements() * E);
  }
  return 1;
}

/// Values passed or returned whole hold at most this many scalars: LLVM's
/// instruction selection gives a node at most 65535 operands (and crashes
/// past it), and it slows down long before (a million-scalar tuple took
/// 24 s and 1.5 GB). Julia passes such values by reference.
constexpr uint64_t MaxScalarsByValue = 16384;

/// An error when an instance takes or returns a value too large to pass
/// whole (MaxScalarsByValue).
static llvm::Error checkValueSizes(ModuleState &MS, CodeInstance &CI) {
  auto Check = [&](Type *T, const char *Role) -> llvm::Error {
    llvm::Type *LT = T ? MS.TL.regType(T) : nullptr;
    if (!LT)
      return llvm::Error::success();
    uint64_t N = scalarCount(LT, MaxScalarsByValue + 1);
    if (N <= MaxScalarsByValue)
      return llvm::Error::success();
    return makeDiagError(Diagnostic::error(
        "codegen",
        "`" + functionName(CI).string() + "` " + Role + " a value of type " +
            T->str() + ", more than " + std::to_string(MaxScalarsByValue) +
            " scalars, the most Prism passes whole (LLVM's code generator "
            "handles at most 65535 in one value and slows down long "
            "before); pass a DeviceArray instead",
        CI.MI->Def ? CI.MI->Def->location() : DiagLoc{}));
  };
  for (size_t I = 1; I < CI.MI->Sig.size(); ++I)
    if (llvm::Error E = Check(CI.MI->Sig[I], "takes"))
      return E;
  if (CI.ReturnType && !CI.ReturnType->isBottom())
    return Check(CI.ReturnType, "returns");
  return llvm::Error::success();
}

/// The LLVM signature of an instance: [state], then every non-ghost
/// argument (the callee itself included, for callable values), returning the
/// register type or void (ghosts, Bottom).
static llvm::FunctionType *signatureOf(ModuleState &MS, CodeInstance &CI) {
  std::vector<llvm::Type *> Params;
  if (MS.NeedsState.contains(&CI))
    Params.push_back(llvm::PointerType::get(MS.Ctx, 0));
  for (Type *T : CI.MI->Sig)
    if (llvm::Type *LT = MS.TL.regType(T))
      Params.push_back(LT);
  llvm::Type *Ret = nullptr;
  if (CI.ReturnType && !CI.ReturnType->isBottom())
    Ret = MS.TL.regType(CI.ReturnType);
  if (!Ret)
    Ret = llvm::Type::getVoidTy(MS.Ctx);
  return llvm::FunctionType::get(Ret, Params, false);
}

static void setInlineAttributes(ModuleState &MS, CodeInstance &CI,
                                llvm::Function &F) {
  const Method *Def = CI.MI->Def;
  // An explicit @noinline wins over the config's always_inline: it is the
  // user's statement about this one function (and LLVM forbids both).
  if (Def && Def->NoInline)
    F.addFnAttr(llvm::Attribute::NoInline);
  else if ((Def && Def->Inline) || MS.Config.alwaysInline())
    F.addFnAttr(llvm::Attribute::AlwaysInline);
}

//===----------------------------------------------------------------------===//
// FunctionEmitter
//===----------------------------------------------------------------------===//

llvm::DISubprogram *ModuleState::inlinedScope(MethodInstance *MI) {
  auto [It, Inserted] = InlinedScopes.try_emplace(MI, nullptr);
  if (Inserted) {
    const Method *Def = MI->Def;
    It->second = DI->inlinedSubprogram(Def ? Def->Name.str() : "anonymous",
                                       Def ? Def->File : nullptr,
                                       Def ? Def->Range : SrcRange{});
  }
  return It->second;
}

SourceFileRef FunctionEmitter::fileOf(unsigned I) const {
  if (I < Code.StmtFiles.size() && Code.StmtFiles[I])
    return Code.StmtFiles[I];
  return Code.File;
}

MethodInstance *FunctionEmitter::instanceOf(unsigned I) const {
  if (I < Code.InlineStacks.size() && !Code.InlineStacks[I].empty())
    return Code.InlineStacks[I].back().MI;
  return CI.MI;
}

llvm::DILocation *FunctionEmitter::debugLocOf(unsigned I) {
  SrcRange Range = I < Code.Code.size() ? Code.Code[I].Range : SrcRange{};
  if (I >= Code.InlineStacks.size() || Code.InlineStacks[I].empty())
    return MS.DI->location(SP, fileOf(I), Range);
  const InlineStack &Stack = Code.InlineStacks[I];
  auto SameFrame = [](const InlineFrame &A, const InlineFrame &B) {
    return A.MI == B.MI && A.File == B.File &&
           A.CallSite.Begin == B.CallSite.Begin;
  };
  if (!LastStack || (LastStack->identity() != Stack.identity() &&
                     !std::equal(Stack.begin(), Stack.end(), LastStack->begin(),
                                 LastStack->end(), SameFrame))) {
    // Outermost frame first: each call site lies in the scope of the frame
    // before it, and the statement itself in the innermost callee's.
    LastAt = nullptr;
    LastScope = SP;
    for (const InlineFrame &Fr : Stack) {
      LastAt = MS.DI->location(LastScope, Fr.File, Fr.CallSite, LastAt);
      LastScope = MS.inlinedScope(Fr.MI);
    }
    LastStack = &Stack;
  }
  return MS.DI->location(LastScope, fileOf(I), Range, LastAt);
}

DiagLoc FunctionEmitter::locOf(unsigned I) const {
  return DiagLoc::fromRange(fileOf(I), I < Code.Code.size()
                                           ? Code.Code[I].Range
                                           : SrcRange{});
}

llvm::Error FunctionEmitter::internal(unsigned I,
                                      const std::string &Message) const {
  return makeDiagError(Diagnostic::error(
      "internal", "codegen: " + Message + " in " + CI.MI->str(), locOf(I)));
}

const LatticeType *FunctionEmitter::argLattice(unsigned Stmt,
                                               unsigned Arg) const {
  if (Stmt < Code.ArgTypes.size() && Arg < Code.ArgTypes[Stmt].size() &&
      Code.ArgTypes[Stmt][Arg].T)
    return &Code.ArgTypes[Stmt][Arg];
  return nullptr;
}

Type *FunctionEmitter::argType(unsigned Stmt, unsigned Arg) const {
  if (const LatticeType *L = argLattice(Stmt, Arg))
    return L->T;
  // Hand-built typed code may omit ArgTypes: derive from the value.
  const IRValue &V = Code.Code[Stmt].Args[Arg];
  switch (V.K) {
  case IRValue::SSA:
    return Code.SSATypes[V.Index].T;
  case IRValue::Slot:
    return Code.SlotTypes[V.Index];
  case IRValue::Const:
    return V.C.Ty;
  case IRValue::StaticParam: {
    Type *P = instanceOf(Stmt)->SparamValues[V.Index];
    if (P && P->isIntValue())
      return TypeContext::get().int64();
    return P ? TypeContext::get().typeOfType(P) : nullptr;
  }
  default:
    return nullptr;
  }
}

llvm::Value *FunctionEmitter::constant(const ConstValue &C, Type *T) {
  llvm::Type *LT = MS.TL.regType(T);
  if (!LT)
    return nullptr;
  switch (C.K) {
  case ConstValue::Bool:
  case ConstValue::Int:
    if (LT->isPointerTy())
      return C.Bits == 0
                 ? static_cast<llvm::Constant *>(
                       llvm::ConstantPointerNull::get(
                           llvm::cast<llvm::PointerType>(LT)))
                 : llvm::ConstantExpr::getIntToPtr(
                       llvm::ConstantInt::get(B.getInt64Ty(), C.Bits), LT);
    if (LT->isIntegerTy())
      return llvm::ConstantInt::get(LT, C.Bits);
    break;
  case ConstValue::Float:
    if (LT->isHalfTy())
      return llvm::ConstantFP::get(
          Ctx(), llvm::APFloat(llvm::APFloat::IEEEhalf(),
                               llvm::APInt(16, C.Bits & 0xffff)));
    if (LT->isFloatTy())
      return llvm::ConstantFP::get(
          Ctx(), llvm::APFloat(llvm::APFloat::IEEEsingle(),
                               llvm::APInt(32, C.Bits & 0xffffffffu)));
    if (LT->isDoubleTy())
      return llvm::ConstantFP::get(
          Ctx(), llvm::APFloat(llvm::APFloat::IEEEdouble(),
                               llvm::APInt(64, C.Bits)));
    break;
  default:
    break;
  }
  return nullptr;
}

llvm::Value *FunctionEmitter::value(unsigned Stmt, unsigned Arg) {
  const IRValue &V = Code.Code[Stmt].Args[Arg];
  if (V.K == IRValue::Slot)
    checkAssigned(Stmt, V.Index);
  Type *T = argType(Stmt, Arg);
  if (!T || MS.TL.isGhost(T))
    return nullptr;
  // A value inference knows exactly is emitted as that constant.
  if (const LatticeType *L = argLattice(Stmt, Arg); L && L->Const)
    if (llvm::Value *C = constant(*L->Const, T))
      return C;
  switch (V.K) {
  case IRValue::SSA:
    return V.Index < SSA.size() ? SSA[V.Index] : nullptr;
  case IRValue::Slot:
    if (V.Index < Slots.size() && Slots[V.Index])
      return B.CreateLoad(Slots[V.Index]->getAllocatedType(), Slots[V.Index],
                          Code.Slots[V.Index].Name.str());
    return nullptr;
  case IRValue::Const:
    return constant(V.C, T);
  case IRValue::StaticParam: {
    Type *P = instanceOf(Stmt)->SparamValues[V.Index];
    if (P && P->isIntValue())
      return B.getInt64(P->intValue());
    return nullptr;
  }
  default:
    return nullptr;
  }
}

llvm::Value *FunctionEmitter::toMem(llvm::Value *V, Type *T) {
  if (V && T->isBool())
    return B.CreateZExt(V, B.getInt8Ty());
  return V;
}

llvm::Value *FunctionEmitter::fromMem(llvm::Value *V, Type *T) {
  if (V && T->isBool())
    return B.CreateTrunc(V, B.getInt1Ty());
  return V;
}

void FunctionEmitter::checkAssigned(unsigned I, unsigned Slot) {
  if (Slot >= SlotFlags.size() || !SlotFlags[Slot] ||
      !MaybeUnassigned.erase({I, Slot})) // once per statement
    return;
  llvm::Value *Set = B.CreateLoad(B.getInt1Ty(), SlotFlags[Slot]);
  llvm::BasicBlock *Ok = llvm::BasicBlock::Create(Ctx(), "assigned", &F);
  llvm::BasicBlock *Undef = llvm::BasicBlock::Create(Ctx(), "undefvar", &F);
  B.CreateCondBr(Set, Ok, Undef);
  B.SetInsertPoint(Undef);
  emitThrow(I, "UndefVarError", nullptr, nullptr,
            Slot < Code.Slots.size()
                ? undefVarErrorText(Code.Slots[Slot].Name.str())
                : std::string());
  if (!B.GetInsertBlock()->getTerminator())
    B.CreateUnreachable();
  B.SetInsertPoint(Ok);
}

llvm::Error FunctionEmitter::emit() {
  const size_t N = Code.Code.size();
  Top = llvm::BasicBlock::Create(Ctx(), "top", &F);
  B.SetInsertPoint(Top);
  if (MS.DI) {
    const Method *Def = CI.MI->Def;
    SourceFileRef File = Code.File ? Code.File : (Def ? Def->File : nullptr);
    SP = MS.DI->subprogram(F, functionName(CI).str(), File,
                           Def ? Def->Range : SrcRange{},
                           F.hasLocalLinkage());
    B.SetCurrentDebugLocation(
        MS.DI->location(SP, File, Def ? Def->Range : SrcRange{}));
  }

  // Parameters → argument slots; every other slot gets an alloca in the
  // entry block (SROA/mem2reg turn them into SSA values).
  unsigned ParamNo = 0;
  if (MS.NeedsState.contains(&CI)) {
    State = F.getArg(ParamNo++);
    State->setName("state");
  }
  // Slots read where they may be unassigned get a flag, set by every
  // assignment and checked by those reads.
  DefiniteAssignment Assigned(Code);
  SlotFlags.assign(Code.Slots.size(), nullptr);
  for (size_t I = 0; I < N; ++I) {
    const Stmt &St = Code.Code[I];
    if (St.K == StmtKind::Nop)
      continue;
    for (const IRValue &A : St.Args) {
      if (A.K != IRValue::Slot || A.Index >= SlotFlags.size() ||
          Assigned.assigned(I, A.Index))
        continue;
      MaybeUnassigned.insert({unsigned(I), A.Index});
      if (!SlotFlags[A.Index]) {
        SlotFlags[A.Index] = B.CreateAlloca(
            B.getInt1Ty(), nullptr, Code.Slots[A.Index].Name.string() + ".assigned");
        B.CreateStore(B.getFalse(), SlotFlags[A.Index]);
      }
    }
  }
  // Inlined code leaves many slots unused (its arguments became values).
  std::vector<bool> Used(Code.Slots.size(), false);
  for (const Stmt &St : Code.Code) {
    if (St.K == StmtKind::Assign && St.Slot < Used.size())
      Used[St.Slot] = true;
    for (const IRValue &A : St.Args)
      if (A.K == IRValue::Slot && A.Index < Used.size())
        Used[A.Index] = true;
  }
  Slots.assign(Code.Slots.size(), nullptr);
  for (unsigned S = 0; S < Code.Slots.size(); ++S) {
    bool IsArg = S <= Code.NumArgs && S < CI.MI->Sig.size();
    if (!IsArg && !Used[S])
      continue;
    Type *T = S <= Code.NumArgs && S < CI.MI->Sig.size() ? CI.MI->Sig[S]
                                                          : Code.SlotTypes[S];
    llvm::Type *LT = T ? MS.TL.regType(T) : nullptr;
    if (!LT)
      continue;
    std::string Name = Code.Slots[S].Name.string();
    Slots[S] = B.CreateAlloca(LT, nullptr, Name + ".slot");
    if (S <= Code.NumArgs && S < CI.MI->Sig.size()) {
      llvm::Argument *A = F.getArg(ParamNo++);
      A->setName(Name);
      B.CreateStore(A, Slots[S]);
    }
  }

  // Basic blocks start at jump targets and after terminators.
  Blocks.assign(N + 1, nullptr);
  for (size_t I = 0; I < N; ++I)
    if ((Code.Code[I].K == StmtKind::Goto ||
         Code.Code[I].K == StmtKind::GotoIfNot) &&
        Code.Code[I].Label > N)
      return internal(I, "jump target out of range");
  std::vector<bool> Leader = blockStarts(Code);
  // `top` only holds allocas and argument stores; the body starts after it.
  llvm::BasicBlock *Body = llvm::BasicBlock::Create(Ctx(), "L0", &F);
  Blocks[0] = Body;
  for (size_t I = 1; I <= N; ++I)
    if (Leader[I])
      Blocks[I] = llvm::BasicBlock::Create(Ctx(), "L" + std::to_string(I), &F);
  B.CreateBr(Body);
  B.SetInsertPoint(Body);

  SSA.assign(N, nullptr);
  for (size_t I = 0; I < N; ++I) {
    if (I > 0 && Blocks[I]) {
      if (!B.GetInsertBlock()->getTerminator())
        B.CreateBr(Blocks[I]);
      B.SetInsertPoint(Blocks[I]);
    }
    const Stmt &S = Code.Code[I];
    if (MS.DI)
      B.SetCurrentDebugLocation(debugLocOf(I));
    // `if c; g(x); end; x = 1` with c true: Julia throws when the line
    // runs; nothing after it in this block is reached.
    if (S.K != StmtKind::Nop)
      if (std::optional<unsigned> Slot = neverAssignedRead(Code, I)) {
        if (!B.GetInsertBlock()->getTerminator()) {
          emitThrow(I, "UndefVarError", nullptr, nullptr,
                    undefVarErrorText(Code.Slots[*Slot].Name.str()));
          if (!B.GetInsertBlock()->getTerminator())
            B.CreateUnreachable();
        }
        continue;
      }
    switch (S.K) {
    case StmtKind::Nop:
      break;
    case StmtKind::Call:
      if (llvm::Error E = emitCall(I))
        return E;
      break;
    case StmtKind::Assign: {
      llvm::Value *V = value(I, 0);
      if (S.Slot < Slots.size() && Slots[S.Slot] && V)
        B.CreateStore(V, Slots[S.Slot]);
      if (S.Slot < SlotFlags.size() && SlotFlags[S.Slot])
        B.CreateStore(B.getTrue(), SlotFlags[S.Slot]);
      SSA[I] = V;
      break;
    }
    case StmtKind::NewVar: // a loop-local's new iteration: unassigned
      if (S.Slot < SlotFlags.size() && SlotFlags[S.Slot])
        B.CreateStore(B.getFalse(), SlotFlags[S.Slot]);
      break;
    case StmtKind::Goto:
      B.CreateBr(blockAt(S.Label));
      break;
    case StmtKind::GotoIfNot: {
      llvm::Value *Cond = value(I, 0);
      if (!Cond || !Cond->getType()->isIntegerTy(1))
        return internal(I, "branch condition is not a Bool");
      B.CreateCondBr(Cond, blockAt(I + 1), blockAt(S.Label));
      break;
    }
    case StmtKind::Return: {
      if (F.getReturnType()->isVoidTy()) {
        B.CreateRetVoid();
        break;
      }
      llvm::Value *V = S.Args.empty() ? nullptr : value(I, 0);
      if (!V || V->getType() != F.getReturnType())
        return internal(I, "returned value does not match the return type");
      B.CreateRet(V);
      break;
    }
    }
  }
  // Falling off the end (or jumping there) cannot happen in valid code.
  if (N > 0 && Blocks[N]) {
    if (!B.GetInsertBlock()->getTerminator())
      B.CreateBr(Blocks[N]);
    B.SetInsertPoint(Blocks[N]);
  }
  if (!B.GetInsertBlock()->getTerminator())
    B.CreateUnreachable();
  return llvm::Error::success();
}

llvm::Error FunctionEmitter::emitCall(unsigned I) {
  // A read that may find no value throws UndefVarError even where the
  // call's result is known without it (`y isa Int` folds to true, and the
  // builtin then reads nothing), as Julia's does.
  for (const IRValue &A : Code.Code[I].Args)
    if (A.K == IRValue::Slot)
      checkAssigned(I, A.Index);
  llvm::Expected<llvm::Value *> V = nullptr;
  if (I < Code.Builtins.size() && Code.Builtins[I] != Builtin::None)
    V = emitBuiltin(I);
  else if (I < Code.Invokes.size() && Code.Invokes[I])
    V = emitInvoke(I);
  else
    return internal(I, "unresolved call reached codegen");
  if (!V)
    return V.takeError();
  SSA[I] = *V;
  Type *T = Code.SSATypes[I].T;
  if (T && T->isBottom()) {
    if (!B.GetInsertBlock()->getTerminator())
      B.CreateUnreachable();
    SSA[I] = nullptr;
  }
  return llvm::Error::success();
}

bool ModuleState::allocatesShared(CodeInstance &CI) {
  auto Known = AllocatesShared.find(&CI);
  if (Known != AllocatesShared.end())
    return Known->second;
  AllocatesShared[&CI] = false; // a cycle back here adds nothing
  const TypedCode &C = codeOf(CI);
  bool Allocates = llvm::is_contained(C.Builtins, Builtin::SharedArray);
  for (size_t I = 0; !Allocates && I < C.Invokes.size(); ++I)
    if (MethodInstance *MI = C.Invokes[I])
      if (CodeInstance *Callee = Instances.lookup(MI))
        Allocates = allocatesShared(*Callee);
  AllocatesShared[&CI] = Allocates;
  return Allocates;
}

llvm::Expected<llvm::Value *> FunctionEmitter::emitInvoke(unsigned I) {
  MethodInstance *MI = Code.Invokes[I];
  CodeInstance *Callee = MS.Instances.lookup(MI);
  if (!Callee)
    return internal(I, "no CodeInstance for " + MI->str());
  llvm::Function *Fn = MS.Functions.lookup(Callee);
  if (!MS.CopiesInProgress.contains(Callee) && MS.allocatesShared(*Callee)) {
    // Two `CuStaticSharedArray(Float32, 256)` calls are two arrays, and so
    // are two calls of `buf() = CuStaticSharedArray(...)`: every call site
    // after the first calls a copy emitted with fresh allocations (whose
    // own calls of such functions are copied in turn).
    unsigned Site = MS.SharedAllocSites[Callee]++;
    if (Site > 0) {
      llvm::Function *Copy = llvm::Function::Create(
          Fn->getFunctionType(), llvm::GlobalValue::InternalLinkage,
          Fn->getName() + ".site" + std::to_string(Site), Fn->getParent());
      Copy->copyAttributesFrom(Fn);
      MS.CopiesInProgress.insert(Callee);
      FunctionEmitter FE(MS, *Callee, *Copy);
      llvm::Error E = FE.emit();
      MS.CopiesInProgress.erase(Callee);
      if (E)
        return std::move(E);
      Fn = Copy;
    }
  }
  std::vector<llvm::Value *> Args;
  if (MS.NeedsState.contains(Callee))
    Args.push_back(State);
  const Stmt &S = Code.Code[I];
  for (unsigned A = 0; A < MI->Sig.size(); ++A) {
    if (!MS.TL.regType(MI->Sig[A]))
      continue;
    llvm::Value *V = A < S.Args.size() ? value(I, A) : nullptr;
    if (!V)
      return internal(I, "missing argument " + std::to_string(A));
    Args.push_back(V);
  }
  if (Args.size() != Fn->arg_size())
    return internal(I, "argument count mismatch calling " + MI->str());
  for (unsigned A = 0; A < Args.size(); ++A)
    if (Args[A]->getType() != Fn->getArg(A)->getType())
      return internal(I, "argument type mismatch calling " + MI->str());
  llvm::CallInst *Call = B.CreateCall(Fn, Args);
  if (Fn->getReturnType()->isVoidTy())
    return nullptr;
  // A call whose result inference knows is still emitted (for its
  // effects); users see the constant.
  if (const LatticeType &L = Code.SSATypes[I]; L.Const && L.T)
    if (llvm::Value *C = constant(*L.Const, L.T))
      return C;
  return Call;
}

void FunctionEmitter::emitThrow(unsigned I, Type *ExcType, llvm::Value *Exc) {
  emitThrow(I,
            ExcType && ExcType->isDataType() ? ExcType->name()->Name.string()
                                             : std::string("Exception"),
            ExcType, Exc);
}

FunctionEmitter::ThrowPlace FunctionEmitter::throwPlaceOf(unsigned I) const {
  auto IsPrelude = [](const MethodInstance *MI) {
    return MI && MI->Def && MI->Def->IsPrelude;
  };
  auto At = [](SourceFileRef F, SrcRange R) {
    ThrowPlace P;
    if (F) {
      P.File = F->name();
      if (R.valid())
        P.LC = F->lineCol(R.Begin);
    }
    return P;
  };
  SrcRange Range = Code.Code[I].Range;
  if (!IsPrelude(instanceOf(I)) || I >= Code.InlineStacks.size())
    return At(fileOf(I), Range);
  // Innermost frame outwards: frame K's call site lies in the body of the
  // frame before it (the function itself for the outermost).
  const InlineStack &Stack = Code.InlineStacks[I];
  for (size_t K = Stack.size(); K-- > 0;) {
    const MethodInstance *Caller = K ? Stack[K - 1].MI : CI.MI;
    if (!IsPrelude(Caller))
      return At(Stack[K].File, Stack[K].CallSite);
  }
  return At(fileOf(I), Range); // prelude all the way out
}

void FunctionEmitter::emitThrow(unsigned I, std::string_view TypeNameView,
                                Type *ExcType, llvm::Value *Exc,
                                std::string_view Text,
                                llvm::ArrayRef<llvm::Value *> TextValues) {
  std::string TypeName(TypeNameView);
  ThrowKind Kind = throwKindForTypeName(TypeName);
  ThrowPlace P = throwPlaceOf(I);
  if (MS.Tgt.throwsPassValues())
    emitThrowDetail(P.LC.Col, ExcType, Exc, Text, TextValues);
  B.CreateCall(MS.throwHook(),
               {B.getInt32(static_cast<int32_t>(Kind)),
                MS.stringConstant(TypeName),
                MS.stringConstant(P.File.empty() ? "<unknown>" : P.File),
                B.getInt32(P.LC.Line)});
  MS.Tgt.emitTrap(B);
}

void FunctionEmitter::emitThrowDetail(
    unsigned Col, Type *ExcType, llvm::Value *Exc, std::string_view Text,
    llvm::ArrayRef<llvm::Value *> TextValues) {
  // The exception's scalars, each as the zero-extended bits of its type;
  // none when it has no template or a layout this does not know.
  std::optional<ShowErrorTemplate> T;
  if (!Text.empty())
    T = ShowErrorTemplate{std::string(Text), {}};
  else
    T = showErrorTemplate(ExcType);
  // A fieldless exception has no value here; a template that reads one
  // cannot be filled.
  if (T && !Exc && !T->Paths.empty())
    T.reset();
  llvm::SmallVector<llvm::Value *, MaxShowErrorValues> Values;
  for (size_t P = 0; T && P < T->Paths.size(); ++P) {
    llvm::Value *V = Exc;
    Type *At = ExcType;
    for (unsigned Field : T->Paths[P]) {
      int Idx = MS.TL.fieldIndex(At, Field);
      if (Idx < 0 || !V->getType()->isAggregateType()) {
        V = nullptr;
        break;
      }
      V = B.CreateExtractValue(V, {unsigned(Idx)});
      At = At->isTuple() ? At->param(Field) : At->fieldTypes()[Field];
    }
    if (V && V->getType()->isFloatingPointTy())
      V = B.CreateBitCast(V,
                          B.getIntNTy(V->getType()->getPrimitiveSizeInBits()));
    if (!V || !V->getType()->isIntegerTy()) {
      T.reset();
      break;
    }
    Values.push_back(B.CreateZExtOrTrunc(V, B.getInt64Ty()));
  }
  for (llvm::Value *V : TextValues)
    if (T && V->getType()->isIntegerTy())
      Values.push_back(B.CreateZExtOrTrunc(V, B.getInt64Ty()));
  llvm::SmallVector<llvm::Value *, 3 + MaxShowErrorValues> Args;
  if (T)
    Args.push_back(MS.stringConstant(T->Text));
  else
    Args.push_back(llvm::ConstantPointerNull::get(
        llvm::PointerType::get(MS.Ctx, MS.Tgt.addressSpaces().Generic)));
  Args.push_back(B.getInt32(Col));
  Args.push_back(B.getInt32(T ? Values.size() : 0));
  if (T)
    Args.append(Values.begin(), Values.end());
  B.CreateCall(MS.throwDetailHook(), Args);
}

llvm::Value *FunctionEmitter::emitEgal(llvm::Value *A, llvm::Value *Bv,
                                       Type *T) {
  llvm::Type *LT = A->getType();
  if (LT->isIntegerTy())
    return B.CreateICmpEQ(A, Bv);
  if (LT->isPointerTy())
    return B.CreateICmpEQ(A, Bv);
  if (LT->isFloatingPointTy()) {
    // `===` on floats compares bits (NaN === NaN, -0.0 !== 0.0).
    llvm::Type *IT = B.getIntNTy(LT->getPrimitiveSizeInBits());
    return B.CreateICmpEQ(B.CreateBitCast(A, IT), B.CreateBitCast(Bv, IT));
  }
  // Aggregates: field by field.
  std::span<Type *const> Fields = T->isTuple() ? T->params() : T->fieldTypes();
  llvm::Value *All = B.getTrue();
  for (unsigned FIdx = 0; FIdx < Fields.size(); ++FIdx) {
    int Idx = MS.TL.fieldIndex(T, FIdx);
    if (Idx < 0)
      continue;
    llvm::Value *EA = B.CreateExtractValue(A, {unsigned(Idx)});
    llvm::Value *EB = B.CreateExtractValue(Bv, {unsigned(Idx)});
    All = B.CreateAnd(All, emitEgal(EA, EB, Fields[FIdx]));
  }
  return All;
}

//===----------------------------------------------------------------------===//
// Launch wrapper (native)
//===----------------------------------------------------------------------===//

/// `void jfptr_NAME(ptr state, ptr args, ptr ret)`: loads each source-level
/// argument from `args[i]`, calls the entry, stores the result to `ret`.
/// PerBlock (kernels): `jfptr_block_NAME` with the same signature calls the
/// entry for every thread of the block, setting the state's threadIdx.
static llvm::Function *emitLaunchWrapper(ModuleState &MS, CodeInstance &CI,
                                         llvm::Function &Entry, bool PerBlock) {
  llvm::LLVMContext &Ctx = MS.Ctx;
  llvm::Type *Ptr = llvm::PointerType::get(Ctx, 0);
  auto *FT = llvm::FunctionType::get(llvm::Type::getVoidTy(Ctx),
                                     {Ptr, Ptr, Ptr}, false);
  std::string Name = Entry.getName().str();
  auto *W = llvm::Function::Create(
      FT, llvm::GlobalValue::ExternalLinkage,
      PerBlock ? nativeBlockLaunchSymbol(Name) : nativeLaunchSymbol(Name), MS.M);
  W->getArg(0)->setName("state");
  W->getArg(1)->setName("args");
  W->getArg(2)->setName("ret");
  W->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilder<> B(llvm::BasicBlock::Create(Ctx, "top", W));
  if (MS.DI) {
    const Method *Def = CI.MI->Def;
    SourceFileRef File = CI.Code->File ? CI.Code->File
                                       : (Def ? Def->File : nullptr);
    llvm::DISubprogram *SP =
        MS.DI->subprogram(*W, W->getName(), File,
                          Def ? Def->Range : SrcRange{}, false, true);
    B.SetCurrentDebugLocation(
        MS.DI->location(SP, File, Def ? Def->Range : SrcRange{}));
  }
  std::vector<llvm::Value *> Args;
  if (MS.NeedsState.contains(&CI))
    Args.push_back(W->getArg(0));
  const std::vector<Type *> &Sig = CI.MI->Sig;
  for (unsigned A = 0; A < Sig.size(); ++A) {
    llvm::Type *MemT = MS.TL.memType(Sig[A]);
    if (!MemT)
      continue;
    if (A == 0) {
      // A callable value as the entry itself has no slot in `args`.
      Args.push_back(llvm::PoisonValue::get(MS.TL.regType(Sig[0])));
      continue;
    }
    llvm::Value *Slot = B.CreateConstInBoundsGEP1_64(Ptr, W->getArg(1), A - 1);
    llvm::Value *P = B.CreateAlignedLoad(Ptr, Slot, llvm::Align(8));
    llvm::Value *V = B.CreateAlignedLoad(MemT, P,
                                         MS.DL.getABITypeAlign(MemT));
    if (Sig[A]->isBool())
      V = B.CreateTrunc(V, B.getInt1Ty());
    Args.push_back(V);
  }
  if (PerBlock) {
    // The kernel's bounds guard inside the thread loop is worth splitting
    // the loop at (GuardSplitPass).
    W->addFnAttr(GuardSplitPass::Attr);
    // for z, for y, for x (x innermost, as CUDA numbers threads): each
    // thread's index goes to the state, where the entry reads it.
    llvm::Value *State = W->getArg(0);
    const Builtin DimOf[3] = {Builtin::BlockDimX, Builtin::BlockDimY,
                              Builtin::BlockDimZ};
    llvm::Value *Dims[3];
    for (unsigned D = 0; D < 3; ++D)
      Dims[D] = MS.Tgt.emitDeviceIndex(B, DimOf[D], State);
    std::function<void(int)> Nest = [&](int D) {
      if (D < 0) {
        B.CreateCall(&Entry, Args)->addFnAttr(llvm::Attribute::AlwaysInline);
        return;
      }
      llvm::BasicBlock *Pre = B.GetInsertBlock();
      const char *Axis[3] = {"x", "y", "z"};
      auto *Body = llvm::BasicBlock::Create(Ctx, std::string("thread.") + Axis[D], W);
      auto *Exit = llvm::BasicBlock::Create(Ctx, std::string("done.") + Axis[D], W);
      B.CreateBr(Body);
      B.SetInsertPoint(Body);
      llvm::PHINode *IV = B.CreatePHI(B.getInt32Ty(), 2, Axis[D]);
      IV->addIncoming(B.getInt32(0), Pre);
      storeNativeThreadIdx(B, State, unsigned(D), IV);
      Nest(D - 1);
      llvm::Value *Next = B.CreateAdd(IV, B.getInt32(1), "", true, true);
      IV->addIncoming(Next, B.GetInsertBlock());
      B.CreateCondBr(B.CreateICmpULT(Next, Dims[D]), Body, Exit);
      B.SetInsertPoint(Exit);
    };
    Nest(2);
    B.CreateRetVoid();
    return W;
  }
  llvm::CallInst *Call = B.CreateCall(&Entry, Args);
  // The wrapper exists to be called by the runtime; the entry's body
  // belongs inside it, whatever the inliner's cost model says.
  Call->addFnAttr(llvm::Attribute::AlwaysInline);
  if (!Entry.getReturnType()->isVoidTy() && !MS.Config.kernel()) {
    llvm::Value *V = Call;
    if (CI.ReturnType->isBool())
      V = B.CreateZExt(V, B.getInt8Ty());
    B.CreateAlignedStore(V, W->getArg(2),
                         MS.DL.getABITypeAlign(V->getType()));
  }
  B.CreateRetVoid();
  return W;
}

//===----------------------------------------------------------------------===//
// emitModule
//===----------------------------------------------------------------------===//

llvm::Expected<EmittedModule> emitModule(llvm::LLVMContext &Ctx,
                                         const InferResult &R,
                                         const CompilerConfig &C,
                                         const llvm::DataLayout &DL,
                                         llvm::StringRef Triple) {
  if (R.Roots.empty())
    return makeDiagError(
        Diagnostic::error("internal", "codegen: no root instance", {}));
  CodeInstance *Root = R.Roots[0];
  EmittedModule Out;
  Out.EntrySymbol = C.entryName().empty()
                        ? defaultEntrySymbol(functionName(*Root).str())
                        : C.entryName();
  Out.M = std::make_unique<llvm::Module>(Out.EntrySymbol, Ctx);
  llvm::Module &M = *Out.M;
  M.setTargetTriple(Triple);
  M.setDataLayout(DL);

  ModuleState MS(Ctx, M, C, DL);
  if (C.debugInfo() != DebugInfoLevel::None)
    MS.DI = std::make_unique<DebugInfoEmitter>(
        M, C.debugInfo() == DebugInfoLevel::Full
               ? llvm::DICompileUnit::FullDebug
           : C.target().lineInfoAsDirectives()
               ? llvm::DICompileUnit::DebugDirectivesOnly
               : llvm::DICompileUnit::LineTablesOnly,
        C.target().objectNamesEveryFunction());
  for (size_t I = 0; I < R.All.size(); ++I) {
    MS.Instances[R.All[I]->MI] = R.All[I];
    if (I < R.Codes.size() && R.Codes[I])
      MS.Codes[R.All[I]] = R.Codes[I].get();
  }
  if (!MS.Instances.count(Root->MI))
    MS.Instances[Root->MI] = Root;
  computeNeedsState(MS, R);

  // Declare every function first so that calls (recursion included) can
  // refer to them; then emit the bodies.
  std::vector<CodeInstance *> Order;
  Order.push_back(Root);
  for (CodeInstance *CI : R.All)
    if (CI != Root)
      Order.push_back(CI);
  unsigned Counter = 0;
  // Remembered for retargetThrowLocations: which files are Base, including
  // those of prelude code the typed inliner put into user functions.
  llvm::StringSet<> PreludeFiles;
  for (CodeInstance *CI : Order) {
    if (!CI->Code)
      continue;
    if (CI->MI->Def && CI->MI->Def->IsPrelude && CI->Code->File)
      PreludeFiles.insert(CI->Code->File->name());
    const TypedCode &Code = MS.codeOf(*CI);
    for (size_t I = 0; I < Code.InlineStacks.size(); ++I)
      if (!Code.InlineStacks[I].empty()) {
        const Method *Def = Code.InlineStacks[I].back().MI->Def;
        SourceFileRef F = I < Code.StmtFiles.size() && Code.StmtFiles[I]
                              ? Code.StmtFiles[I] : Def->File;
        if (Def->IsPrelude && F)
          PreludeFiles.insert(F->name());
      }
  }
  if (!PreludeFiles.empty()) {
    llvm::NamedMDNode *N = M.getOrInsertNamedMetadata("prism.prelude_files");
    std::vector<llvm::StringRef> Sorted;
    for (const auto &E : PreludeFiles)
      Sorted.push_back(E.getKey());
    llvm::sort(Sorted);
    for (llvm::StringRef Name : Sorted)
      N->addOperand(llvm::MDNode::get(Ctx, llvm::MDString::get(Ctx, Name)));
  }
  for (CodeInstance *CI : Order) {
    if (!CI->Code)
      return makeDiagError(Diagnostic::error(
          "internal", "codegen: " + CI->MI->str() + " has no typed code", {}));
    if (llvm::Error E = checkValueSizes(MS, *CI))
      return E;
    bool IsEntry = CI == Root;
    std::string Name = IsEntry ? Out.EntrySymbol
                               : "julia_" + functionName(*CI).string() + "_" +
                                     std::to_string(++Counter);
    llvm::Function *F = llvm::Function::Create(
        signatureOf(MS, *CI),
        IsEntry ? llvm::GlobalValue::ExternalLinkage
                : llvm::GlobalValue::InternalLinkage,
        Name, M);
    // Throws never unwind: they end in the runtime and a trap.
    F->addFnAttr(llvm::Attribute::NoUnwind);
    setInlineAttributes(MS, *CI, *F);
    MS.Functions[CI] = F;
  }
  for (CodeInstance *CI : Order) {
    FunctionEmitter FE(MS, *CI, *MS.Functions[CI]);
    if (llvm::Error E = FE.emit())
      return E;
  }
  Out.Entry = MS.Functions[Root];
  if (C.target().wantsLaunchWrapper()) {
    Out.LaunchWrapper = emitLaunchWrapper(MS, *Root, *Out.Entry, false);
    // Functions returning nothing are what the host grid launches over
    // many threads (kernels, whether or not the config says so), in a loop
    // unless a barrier makes the threads fibers.
    if (Out.Entry->getReturnType()->isVoidTy() && !MS.EmitsBarrier)
      emitLaunchWrapper(MS, *Root, *Out.Entry, true);
  }
  if (MS.DI)
    MS.DI->finalize();
  Out.SharedBytes = MS.SharedBytes;
  if (llvm::Error E = C.target().finishModule(M, Out.Entry, C))
    return E;
  return Out;
}

//===----------------------------------------------------------------------===//
// Throw locations after optimisation
//===----------------------------------------------------------------------===//

/// The files of prelude functions, as the emitter recorded them.
static llvm::StringSet<> preludeFiles(const llvm::Module &M) {
  llvm::StringSet<> Prelude;
  if (llvm::NamedMDNode *N = M.getNamedMetadata("prism.prelude_files"))
    for (llvm::MDNode *Op : N->operands())
      if (auto *S = llvm::dyn_cast<llvm::MDString>(Op->getOperand(0)))
        Prelude.insert(S->getString());
  return Prelude;
}

void locateAtUserCode(llvm::Module &M) {
  llvm::StringSet<> Prelude = preludeFiles(M);
  if (Prelude.empty())
    return;
  for (llvm::Function &F : M)
    for (llvm::Instruction &I : llvm::instructions(F))
      for (const llvm::DILocation *L = I.getDebugLoc().get(); L;
           L = L->getInlinedAt()) {
        // A user frame without a line (a location merged from two lines)
        // says nothing either: its caller's line is the place.
        if (Prelude.contains(L->getFilename()) || L->getLine() == 0)
          continue;
        // A frame of the chain is a location of its own: its scope and
        // inlinedAt stay consistent with the function's subprogram.
        if (L != I.getDebugLoc().get())
          I.setDebugLoc(llvm::DebugLoc(L));
        break;
      }
}

void retargetThrowLocations(llvm::Module &M) {
  llvm::Function *Hook = M.getFunction(ThrowHookName);
  if (!Hook)
    return;
  llvm::StringSet<> Prelude = preludeFiles(M);
  for (llvm::User *U : llvm::make_early_inc_range(Hook->users())) {
    auto *Call = llvm::dyn_cast<llvm::CallInst>(U);
    if (!Call || Call->getCalledFunction() != Hook || Call->arg_size() != 4)
      continue;
    // The emitter placed the throws the typed inliner inlined (and a merged
    // call's column operand is a phi not to overwrite); what is still in
    // the prelude is code LLVM inlined, placed here from debug info.
    if (!Prelude.contains(readThrowCall(*Call).File))
      continue;
    // Innermost frame outwards: the first frame outside the prelude.
    for (const llvm::DILocation *L = Call->getDebugLoc().get(); L;
         L = L->getInlinedAt()) {
      if (Prelude.contains(L->getFilename()))
        continue;
      if (L->getLine() == 0)
        break;
      llvm::IRBuilder<> B(Call);
      // Same address space as the string the emitter made.
      llvm::Value *OldFile = Call->getArgOperand(2);
      unsigned StrAS = 0;
      if (auto *GV = llvm::dyn_cast<llvm::GlobalVariable>(
              OldFile->stripPointerCasts()))
        StrAS = GV->getAddressSpace();
      llvm::Constant *Str =
          B.CreateGlobalStringPtr(L->getFilename(), ".str", StrAS, &M);
      if (OldFile->getType() != Str->getType())
        Str = llvm::ConstantExpr::getPointerBitCastOrAddrSpaceCast(
            Str, OldFile->getType());
      Call->setArgOperand(2, Str);
      Call->setArgOperand(3, B.getInt32(L->getLine()));
      // The column travels in the detail call just before (native only).
      if (auto *Detail =
              llvm::dyn_cast_or_null<llvm::CallInst>(Call->getPrevNode());
          Detail && Detail->getCalledFunction() &&
          Detail->getCalledFunction()->getName() == ThrowDetailHookName &&
          Detail->arg_size() >= 3)
        Detail->setArgOperand(1, B.getInt32(L->getColumn()));
      break;
    }
  }
}

} // namespace prism
