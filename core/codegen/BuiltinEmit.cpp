// One case per Builtin: the intrinsics the prelude is written over, emitted
// with Julia's semantics (wrapping integer arithmetic, shifts that saturate
// at the bit width, floats without fast-math flags, 1-based pointer
// indexing with the element's alignment).
#include "codegen/EmitterImpl.h"
#include "types/ShowError.h"

#include "types/Type.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsBPF.h"

namespace prism {

llvm::Expected<llvm::Value *> FunctionEmitter::emitBuiltin(unsigned I) {
  const Builtin Bi = Code.Builtins[I];
  const Stmt &S = Code.Code[I];
  const LatticeType &Result = Code.SSATypes[I];
  Type *RT = Result.T;
  const unsigned NArgs = S.Args.size() - 1; // Args[0] is the callee
  auto Arg = [&](unsigned K) { return value(I, K + 1); };
  auto ArgT = [&](unsigned K) { return argType(I, K + 1); };
  auto Need = [&](unsigned K) -> llvm::Error {
    if (NArgs < K)
      return internal(I, std::string(builtinName(Bi)) + " expects " +
                             std::to_string(K) + " arguments");
    return llvm::Error::success();
  };
  auto ResultLT = [&]() { return RT ? MS.TL.regType(RT) : nullptr; };
  /// Integer view of a value (pointers compare and compute as integers).
  auto AsInt = [&](llvm::Value *V) -> llvm::Value * {
    if (V && V->getType()->isPointerTy())
      return B.CreatePtrToInt(V, B.getIntNTy(MS.DL.getPointerSizeInBits(
                                     V->getType()->getPointerAddressSpace())));
    return V;
  };

  // Pure builtins whose value inference already knows are just constants.
  switch (Bi) {
  case Builtin::Throw: case Builtin::PointerSet: case Builtin::AtomicAdd:
  case Builtin::SyncThreads: case Builtin::SharedArray:
  case Builtin::BpfLoadByte: case Builtin::BpfLoadHalf: case Builtin::BpfLoadWord:
  case Builtin::PointerRef:
    break;
  default:
    // getfield at a run-time index may throw BoundsError whatever it
    // reads (`(nothing, nothing)[i]` is Const(nothing)).
    if (Bi == Builtin::GetField && S.Args.size() > 2 &&
        S.Args[2].K != IRValue::Const &&
        !(argLattice(I, 2) && argLattice(I, 2)->Const))
      break;
    if (Result.Const && RT && !RT->isBottom()) {
      if (RT->isSingleton() || MS.TL.isGhost(RT))
        return nullptr;
      if (llvm::Value *C = constant(*Result.Const, RT))
        return C;
    }
    break;
  }

  switch (Bi) {
  //===--- Core ---===//
  case Builtin::GetField: {
    if (auto E = Need(2))
      return E;
    Type *XT = ArgT(0);
    llvm::Value *X = Arg(0);
    const LatticeType *FL = argLattice(I, 2);
    std::optional<ConstValue> FC = FL && FL->Const ? FL->Const
                                   : S.Args[2].K == IRValue::Const
                                       ? std::optional(S.Args[2].C)
                                       : std::nullopt;
    std::span<Type *const> Fields =
        XT->isTuple() ? XT->params() : XT->fieldTypes();
    if (!FC) {
      // A run-time index: Julia's bounds check (getfield throws
      // BoundsError) comes first, whatever the fields hold: none (the
      // empty tuple, a fieldless struct: inference says Union{}) or values
      // of no size (`(nothing, nothing)[i]`).
      if (!ArgT(1)->isInteger())
        return internal(I, "getfield with a run-time field name");
      llvm::Value *Idx = Arg(1);
      const uint64_t N = Fields.size();
      const std::string Template =
          tupleBoundsErrorTemplate(XT->str(), ArgT(1)->str());
      if (N == 0) {
        emitThrow(I, "BoundsError", nullptr, nullptr, Template, {Idx});
        return nullptr;
      }
      llvm::Value *Zero =
          B.CreateSub(Idx, llvm::ConstantInt::get(Idx->getType(), 1));
      llvm::Value *InRange =
          B.CreateICmpULT(Zero, llvm::ConstantInt::get(Idx->getType(), N));
      llvm::BasicBlock *Ok = llvm::BasicBlock::Create(Ctx(), "getfield.ok", &F);
      llvm::BasicBlock *Bad =
          llvm::BasicBlock::Create(Ctx(), "getfield.oob", &F);
      B.CreateCondBr(InRange, Ok, Bad);
      B.SetInsertPoint(Bad);
      emitThrow(I, "BoundsError", nullptr, nullptr, Template, {Idx});
      B.SetInsertPoint(Ok);
      if (!RT || MS.TL.isGhost(RT))
        return nullptr;
      if (!X)
        return internal(I, "getfield of a value without a representation");
      if (!(XT->isTuple() && MS.TL.isArrayTuple(XT))) {
        // A struct or tuple whose fields inference found all of the
        // result's one concrete type (P(a::Int64, b::Int64)): a select
        // per field.
        llvm::Value *V = nullptr;
        for (uint64_t K = N; K-- > 0;) {
          int FI = MS.TL.fieldIndex(XT, static_cast<int>(K));
          if (Fields[K] != RT || FI < 0)
            return internal(I, "getfield at a run-time index of fields of "
                               "different types");
          llvm::Value *FV =
              fromMem(B.CreateExtractValue(X, {unsigned(FI)}), RT);
          V = !V ? FV
                 : B.CreateSelect(B.CreateICmpEQ(Zero, llvm::ConstantInt::get(
                                                           Idx->getType(), K)),
                                  FV, V);
        }
        return V;
      }
      // An NTuple: through memory.
      llvm::IRBuilder<> EntryB(Top, Top->begin());
      llvm::AllocaInst *Tmp =
          EntryB.CreateAlloca(X->getType(), nullptr, "tuple");
      B.CreateStore(X, Tmp);
      llvm::Value *P =
          B.CreateInBoundsGEP(X->getType(), Tmp, {B.getInt64(0), Zero});
      Type *ET = XT->param(0);
      return fromMem(B.CreateLoad(MS.TL.memType(ET), P), ET);
    }
    if (!RT || MS.TL.isGhost(RT))
      return nullptr;
    int Field = -1;
    if (FC->K == ConstValue::Sym)
      Field = XT->fieldIndex(FC->Name);
    else if (FC->K == ConstValue::Int)
      Field = static_cast<int>(FC->asSigned()) - 1;
    int Idx = Field < 0 ? -1 : MS.TL.fieldIndex(XT, Field);
    if (Idx < 0 || !X)
      return internal(I, "getfield of an unknown field");
    Type *FT = XT->isTuple() ? XT->param(Field) : XT->fieldTypes()[Field];
    return fromMem(B.CreateExtractValue(X, {unsigned(Idx)}), FT);
  }
  case Builtin::TupleNew:
  case Builtin::New: {
    if (!RT || MS.TL.isGhost(RT))
      return nullptr;
    unsigned First = Bi == Builtin::New ? 2 : 1;
    std::span<Type *const> Fields =
        RT->isTuple() ? RT->params() : RT->fieldTypes();
    if (S.Args.size() - First != Fields.size())
      return internal(I, "field count mismatch constructing " + RT->str());
    llvm::Value *Agg = llvm::PoisonValue::get(MS.TL.memType(RT));
    for (unsigned K = 0; K < Fields.size(); ++K) {
      int Idx = MS.TL.fieldIndex(RT, K);
      if (Idx < 0)
        continue;
      llvm::Value *V = value(I, First + K);
      if (!V)
        return internal(I, "missing field value");
      Agg = B.CreateInsertValue(Agg, toMem(V, Fields[K]), {unsigned(Idx)});
    }
    return Agg;
  }
  case Builtin::Egal: {
    if (auto E = Need(2))
      return E;
    Type *TA = ArgT(0), *TB = ArgT(1);
    if (TA != TB)
      return B.getFalse();
    if (MS.TL.isGhost(TA))
      return B.getTrue();
    return emitEgal(Arg(0), Arg(1), TA);
  }
  case Builtin::IsA: {
    if (auto E = Need(2))
      return E;
    Type *Of = ArgT(1);
    Type *Test = Of && Of->isTypeType() ? Of->param(0) : nullptr;
    return B.getInt1(Test && isSubtype(ArgT(0), Test));
  }
  case Builtin::TypeOf:
  case Builtin::ApplyType:
  case Builtin::TypeJoin:
    return nullptr;
  case Builtin::TypeAssert:
    if (auto E = Need(1))
      return E;
    // Values are concretely typed here, so an assertion either always holds
    // or, typed Bottom by inference, always fails: a TypeError.
    if (RT && RT->isBottom()) {
      Type *Of = ArgT(1);
      Type *Expected = Of && Of->isTypeType() ? Of->param(0) : Of;
      emitThrow(I, "TypeError", nullptr, nullptr,
                Expected ? typeAssertErrorText(Expected->str(), ArgT(0)->str())
                         : std::string());
      return nullptr;
    }
    return Arg(0);
  case Builtin::SizeOf: {
    // Inference made it a constant; this is the fallback for code it did
    // not fold.
    Type *T = ArgT(0);
    std::optional<uint64_t> S =
        T->isTypeType() ? T->param(0)->juliaSizeOf() : std::nullopt;
    return B.getInt64(S.value_or(0));
  }
  case Builtin::NFields: {
    Type *T = ArgT(0);
    size_t N = T->isTuple() ? T->params().size() : T->fieldTypes().size();
    return B.getInt64(N);
  }
  case Builtin::BoundsCheck:
    // Inference types it Const in every instance; this is the fallback for
    // hand-built code: false in @inbounds instances and regions.
    return B.getInt1(!(instanceOf(I)->InBounds || (S.Flags & SF_InBounds)));
  case Builtin::Throw:
    emitThrow(I, NArgs ? ArgT(0) : nullptr, NArgs ? Arg(0) : nullptr);
    return nullptr;

  //===--- Integer arithmetic ---===//
  case Builtin::AddInt: case Builtin::SubInt: case Builtin::MulInt:
  case Builtin::SDivInt: case Builtin::UDivInt: case Builtin::SRemInt:
  case Builtin::URemInt: case Builtin::AndInt: case Builtin::OrInt:
  case Builtin::XorInt: {
    if (auto E = Need(2))
      return E;
    llvm::Value *X = Arg(0), *Y = Arg(1);
    llvm::Instruction::BinaryOps Op;
    switch (Bi) {
    case Builtin::AddInt: Op = llvm::Instruction::Add; break;
    case Builtin::SubInt: Op = llvm::Instruction::Sub; break;
    case Builtin::MulInt: Op = llvm::Instruction::Mul; break;
    // Division by zero and typemin÷-1 are checked by the prelude (DivideError).
    case Builtin::SDivInt: Op = llvm::Instruction::SDiv; break;
    case Builtin::UDivInt: Op = llvm::Instruction::UDiv; break;
    case Builtin::SRemInt: Op = llvm::Instruction::SRem; break;
    case Builtin::URemInt: Op = llvm::Instruction::URem; break;
    case Builtin::AndInt: Op = llvm::Instruction::And; break;
    case Builtin::OrInt: Op = llvm::Instruction::Or; break;
    default: Op = llvm::Instruction::Xor; break;
    }
    // Wrapping: no nsw/nuw flags, as Julia.
    llvm::Value *V = B.CreateBinOp(Op, AsInt(X), AsInt(Y));
    llvm::Type *LT = ResultLT();
    if (LT && LT->isPointerTy())
      V = B.CreateIntToPtr(V, LT);
    return V;
  }
  case Builtin::NegInt:
    return B.CreateNeg(Arg(0));
  case Builtin::NotInt:
    return B.CreateNot(Arg(0));
  case Builtin::ShlInt: case Builtin::LShrInt: case Builtin::AShrInt: {
    if (auto E = Need(2))
      return E;
    llvm::Value *X = Arg(0), *Y = Arg(1);
    unsigned W = X->getType()->getIntegerBitWidth();
    unsigned YW = Y->getType()->getIntegerBitWidth();
    // Julia: the shift count is unsigned and a count >= the width gives 0
    // (or the sign for ashr) instead of LLVM's poison.
    llvm::Value *TooBig = B.CreateICmpUGE(Y, llvm::ConstantInt::get(Y->getType(), W));
    llvm::Value *Count = YW == W ? Y : B.CreateZExtOrTrunc(Y, X->getType());
    if (Bi == Builtin::AShrInt) {
      llvm::Value *Sat = B.CreateSelect(
          TooBig, llvm::ConstantInt::get(X->getType(), W - 1), Count);
      return B.CreateAShr(X, Sat);
    }
    llvm::Value *Sh = Bi == Builtin::ShlInt ? B.CreateShl(X, Count)
                                            : B.CreateLShr(X, Count);
    return B.CreateSelect(TooBig, llvm::ConstantInt::get(X->getType(), 0), Sh);
  }
  case Builtin::EqInt: case Builtin::NeInt: case Builtin::SltInt:
  case Builtin::SleInt: case Builtin::UltInt: case Builtin::UleInt: {
    if (auto E = Need(2))
      return E;
    llvm::CmpInst::Predicate P;
    switch (Bi) {
    case Builtin::EqInt: P = llvm::CmpInst::ICMP_EQ; break;
    case Builtin::NeInt: P = llvm::CmpInst::ICMP_NE; break;
    case Builtin::SltInt: P = llvm::CmpInst::ICMP_SLT; break;
    case Builtin::SleInt: P = llvm::CmpInst::ICMP_SLE; break;
    case Builtin::UltInt: P = llvm::CmpInst::ICMP_ULT; break;
    default: P = llvm::CmpInst::ICMP_ULE; break;
    }
    return B.CreateICmp(P, AsInt(Arg(0)), AsInt(Arg(1)));
  }
  case Builtin::CtpopInt:
    return B.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, Arg(0));
  case Builtin::CtlzInt:
  case Builtin::CttzInt:
    return B.CreateBinaryIntrinsic(
        Bi == Builtin::CtlzInt ? llvm::Intrinsic::ctlz : llvm::Intrinsic::cttz,
        Arg(0), B.getFalse());
  case Builtin::BswapInt:
    // llvm.bswap needs whole 16-bit units; one byte is its own swap.
    if (Arg(0)->getType()->getIntegerBitWidth() % 16)
      return Arg(0);
    return B.CreateUnaryIntrinsic(llvm::Intrinsic::bswap, Arg(0));
  case Builtin::BitreverseInt:
    return B.CreateUnaryIntrinsic(llvm::Intrinsic::bitreverse, Arg(0));

  //===--- Float arithmetic (no fast-math) ---===//
  case Builtin::AddFloat: return B.CreateFAdd(Arg(0), Arg(1));
  case Builtin::SubFloat: return B.CreateFSub(Arg(0), Arg(1));
  case Builtin::MulFloat: return B.CreateFMul(Arg(0), Arg(1));
  case Builtin::DivFloat: return B.CreateFDiv(Arg(0), Arg(1));
  case Builtin::RemFloat: return B.CreateFRem(Arg(0), Arg(1));
  case Builtin::NegFloat: return B.CreateFNeg(Arg(0));
  case Builtin::EqFloat: return B.CreateFCmpOEQ(Arg(0), Arg(1));
  case Builtin::NeFloat: return B.CreateFCmpUNE(Arg(0), Arg(1));
  case Builtin::LtFloat: return B.CreateFCmpOLT(Arg(0), Arg(1));
  case Builtin::LeFloat: return B.CreateFCmpOLE(Arg(0), Arg(1));
  case Builtin::FmaFloat: case Builtin::MuladdFloat:
  case Builtin::SqrtLlvm: case Builtin::AbsFloat: case Builtin::CopysignFloat:
  case Builtin::FloorLlvm: case Builtin::CeilLlvm: case Builtin::TruncLlvm:
  case Builtin::RintLlvm: case Builtin::ExpFloat: case Builtin::LogFloat:
  case Builtin::SinFloat: case Builtin::CosFloat: case Builtin::PowFloat:
  case Builtin::Exp2Float: case Builtin::Log2Float: case Builtin::Log10Float:
  case Builtin::TanFloat:
  case Builtin::AtanFloat:
  case Builtin::Atan2Float:
  case Builtin::TanhFloat:
  case Builtin::SinhFloat:
  case Builtin::CoshFloat:
  case Builtin::AsinFloat:
  case Builtin::AcosFloat:
  case Builtin::CbrtFloat:
  case Builtin::Expm1Float:
  case Builtin::Log1pFloat: {
    std::vector<llvm::Value *> Args;
    for (unsigned K = 0; K < NArgs; ++K)
      Args.push_back(Arg(K));
    if (Args.empty() || !Args[0])
      return internal(I, "math builtin without operands");
    return MS.Tgt.emitMath(B, Bi, Args);
  }

  //===--- Conversions: Args[1] is the target type ---===//
  case Builtin::SextInt: case Builtin::ZextInt: case Builtin::TruncInt:
  case Builtin::FptoSi: case Builtin::FptoUi: case Builtin::SitoFp:
  case Builtin::UitoFp: case Builtin::Fptrunc: case Builtin::Fpext:
  case Builtin::Bitcast: {
    if (auto E = Need(2))
      return E;
    llvm::Value *V = Arg(1);
    llvm::Type *To = ResultLT();
    if (!V || !To)
      return internal(I, "conversion without a value");
    switch (Bi) {
    case Builtin::SextInt: return B.CreateSExt(V, To);
    case Builtin::ZextInt: return B.CreateZExt(V, To);
    case Builtin::TruncInt: return B.CreateTrunc(V, To);
    case Builtin::FptoSi: return B.CreateFPToSI(V, To);
    case Builtin::FptoUi: return B.CreateFPToUI(V, To);
    case Builtin::SitoFp: return B.CreateSIToFP(V, To);
    case Builtin::UitoFp: return B.CreateUIToFP(V, To);
    case Builtin::Fptrunc: return B.CreateFPTrunc(V, To);
    case Builtin::Fpext: return B.CreateFPExt(V, To);
    default:
      if (To->isPointerTy() && V->getType()->isIntegerTy())
        return B.CreateIntToPtr(V, To);
      if (To->isIntegerTy() && V->getType()->isPointerTy())
        return B.CreatePtrToInt(V, To);
      if (To == V->getType())
        return V;
      return B.CreateBitCast(V, To);
    }
  }

  //===--- Pointers ---===//
  case Builtin::PointerRef: case Builtin::PointerSet: {
    bool IsSet = Bi == Builtin::PointerSet;
    if (auto E = Need(IsSet ? 3 : 2))
      return E;
    Type *PT = ArgT(0);
    Type *ET = PT && PT->isPointer() ? PT->param(0) : nullptr;
    llvm::Type *MemT = ET ? MS.TL.memType(ET) : nullptr;
    if (!MemT)
      return IsSet ? Arg(0) : nullptr;
    llvm::Value *Idx = Arg(IsSet ? 2 : 1);
    // 1-based element index, as Julia's pointerref.
    llvm::Value *Off = B.CreateSub(Idx, llvm::ConstantInt::get(Idx->getType(), 1));
    llvm::Value *P = B.CreateInBoundsGEP(MemT, Arg(0), Off);
    llvm::Align A = MS.DL.getABITypeAlign(MemT);
    if (IsSet) {
      B.CreateAlignedStore(toMem(Arg(1), ET), P, A);
      return Arg(0);
    }
    return fromMem(B.CreateAlignedLoad(MemT, P, A), ET);
  }
  case Builtin::PointerAdd:
    return B.CreateGEP(B.getInt8Ty(), Arg(0), Arg(1));
  case Builtin::AtomicAdd: {
    if (auto E = Need(2))
      return E;
    llvm::Value *V = Arg(1);
    bool IsFloat = V->getType()->isFloatingPointTy();
    return B.CreateAtomicRMW(
        IsFloat ? llvm::AtomicRMWInst::FAdd : llvm::AtomicRMWInst::Add, Arg(0),
        V, MS.DL.getABITypeAlign(V->getType()),
        llvm::AtomicOrdering::SequentiallyConsistent);
  }

  //===--- Device API ---===//
  case Builtin::ThreadIdxX: case Builtin::ThreadIdxY: case Builtin::ThreadIdxZ:
  case Builtin::BlockIdxX: case Builtin::BlockIdxY: case Builtin::BlockIdxZ:
  case Builtin::BlockDimX: case Builtin::BlockDimY: case Builtin::BlockDimZ:
  case Builtin::GridDimX: case Builtin::GridDimY: case Builtin::GridDimZ: {
    llvm::Value *V = MS.Tgt.emitDeviceIndex(B, Bi, State);
    llvm::Type *LT = ResultLT();
    return LT && LT != V->getType() ? B.CreateSExtOrTrunc(V, LT) : V;
  }
  case Builtin::SyncThreads:
    MS.Tgt.emitBarrier(B, State);
    MS.EmitsBarrier = true;
    return nullptr;
  case Builtin::SharedArray: {
    Type *ET = RT && RT->isPointer() ? RT->param(0) : nullptr;
    const LatticeType *NL = argLattice(I, 2);
    std::optional<ConstValue> NC =
        NL && NL->Const ? NL->Const
        : NArgs >= 2 && S.Args[2].K == IRValue::Const
            ? std::optional(S.Args[2].C)
            : std::nullopt;
    if (!ET || !MS.TL.memType(ET))
      return internal(I, "shared_array of a zero-size element type");
    if (!NC || NC->K != ConstValue::Int || NC->asSigned() < 0)
      return makeDiagError(Diagnostic::error(
          "invalid-ir",
          "the size of a shared array must be a compile-time constant",
          locOf(I)));
    llvm::Type *EltT = MS.TL.memType(ET);
    uint64_t N = NC->asSigned();
    // Validation refuses more than 1 GiB; this keeps the byte count exact.
    if (N > (uint64_t(1) << 40) /
                std::max<uint64_t>(1, MS.DL.getTypeAllocSize(EltT)))
      return internal(I, "shared array too large to emit");
    uint64_t Offset = llvm::alignTo(MS.SharedBytes, 16);
    MS.SharedBytes = Offset + N * MS.DL.getTypeAllocSize(EltT);
    return MS.Tgt.emitSharedArray(B, EltT, N, Offset, State);
  }

  //===--- BPF packet loads ---===//
  case Builtin::BpfLoadByte: case Builtin::BpfLoadHalf: case Builtin::BpfLoadWord: {
    if (auto E = Need(2))
      return E;
    llvm::Intrinsic::ID ID = Bi == Builtin::BpfLoadByte ? llvm::Intrinsic::bpf_load_byte
                             : Bi == Builtin::BpfLoadHalf ? llvm::Intrinsic::bpf_load_half
                                                          : llvm::Intrinsic::bpf_load_word;
    llvm::Value *Off = B.CreateSExtOrTrunc(Arg(1), B.getInt64Ty());
    llvm::Value *V = B.CreateIntrinsic(ID, {}, {Arg(0), Off});
    llvm::Type *LT = ResultLT();
    return LT && LT != V->getType() ? B.CreateZExtOrTrunc(V, LT) : V;
  }

  case Builtin::None:
  case Builtin::NumBuiltins:
  case Builtin::SetField: // an inference error: never emitted
    break;
  }
  return internal(I, std::string("unsupported builtin ") + builtinName(Bi));
}

} // namespace prism
