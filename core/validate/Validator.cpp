#include "validate/Validator.h"

#include "cache/CompilerConfig.h"
#include "infer/DefiniteAssignment.h"
#include "prelude/Embedded.h"
#include "targets/Occupancy.h"
#include "targets/Target.h"
#include "types/Method.h"
#include "types/Type.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace prism {

namespace {

std::vector<Diagnostic> coalesceRestrictions(std::vector<Diagnostic> In);

/// Call paths from the entry, for backtraces: who first called each
/// instance, and from which statement.
struct CallGraph {
  struct Edge {
    CodeInstance *Caller = nullptr;
    unsigned Stmt = 0;
  };
  llvm::DenseMap<CodeInstance *, Edge> Parent;

  explicit CallGraph(const InferResult &R) {
    llvm::DenseMap<MethodInstance *, CodeInstance *> ByMI;
    for (CodeInstance *CI : R.All)
      ByMI[CI->MI] = CI;
    std::vector<CodeInstance *> Work(R.Roots.begin(), R.Roots.end());
    llvm::DenseSet<CodeInstance *> Seen(R.Roots.begin(), R.Roots.end());
    for (size_t K = 0; K < Work.size(); ++K) {
      CodeInstance *CI = Work[K];
      const TypedCode &C = *CI->Code;
      for (unsigned I = 0; I < C.Invokes.size(); ++I)
        if (CodeInstance *Callee = C.Invokes[I] ? ByMI.lookup(C.Invokes[I]) : nullptr)
          if (Seen.insert(Callee).second) {
            Parent[Callee] = {CI, I};
            Work.push_back(Callee);
          }
    }
  }
};

std::string functionName(const CodeInstance &CI) {
  return CI.MI && CI.MI->Def ? CI.MI->Def->Name.string() : "?";
}

DiagLoc stmtLoc(const CodeInstance &CI, unsigned I) {
  const TypedCode &C = *CI.Code;
  SourceFileRef F = I < C.StmtFiles.size() && C.StmtFiles[I] ? C.StmtFiles[I] : C.File;
  return DiagLoc::fromRange(F, I < C.Code.size() ? C.Code[I].Range : SrcRange{});
}

DiagLoc methodLoc(const CodeInstance &CI) {
  if (CI.MI && CI.MI->Def)
    return CI.MI->Def->location();
  return {};
}

/// The kernel-language call that reads device intrinsic \p B.
std::string deviceCallOf(Builtin B) {
  switch (B) {
  case Builtin::ThreadIdxX:
  case Builtin::ThreadIdxY:
  case Builtin::ThreadIdxZ:
    return "threadIdx()";
  case Builtin::BlockIdxX:
  case Builtin::BlockIdxY:
  case Builtin::BlockIdxZ:
    return "blockIdx()";
  case Builtin::BlockDimX:
  case Builtin::BlockDimY:
  case Builtin::BlockDimZ:
    return "blockDim()";
  case Builtin::GridDimX:
  case Builtin::GridDimY:
  case Builtin::GridDimZ:
    return "gridDim()";
  case Builtin::SyncThreads:
    return "sync_threads()";
  default:
    return builtinName(B);
  }
}

class TypedValidator {
public:
  TypedValidator(const InferResult &R, const CompilerConfig &C,
                 const GlobalEnv *Env)
      : R(R), Config(C), Tgt(C.target()), Env(Env), Graph(R) {}

  std::vector<Diagnostic> run() {
    for (CodeInstance *CI : R.All)
      if (CI->Code)
        check(*CI);
    if (Config.kernel() && !R.Roots.empty())
      checkKernel(*R.Roots[0]);
    dropUnplacedPreludeErrors();
    return coalesceRestrictions(std::move(Out));
  }

private:
  /// A prelude method that no user code calls statically (inference
  /// looked at it for a dynamic call, which is reported at the user's
  /// line) has no user call to place its errors at: they would be
  /// reported at prelude lines. When the user's code has errors, those
  /// say what is wrong, and these are left out.
  void dropUnplacedPreludeErrors() {
    auto Unplaced = [](const Diagnostic &D) {
      return isPreludePath(D.Loc.FileName) &&
             llvm::all_of(D.Backtrace, [](const BacktraceFrame &F) {
               return isPreludePath(F.Loc.FileName);
             });
    };
    if (llvm::all_of(Out, Unplaced))
      return;
    llvm::erase_if(Out, Unplaced);
  }

  void report(const CodeInstance &CI, DiagLoc Loc, std::string Kind,
              std::string Message, std::vector<DiagNote> Notes = {}) {
    Diagnostic D = Diagnostic::error(std::move(Kind), std::move(Message), Loc);
    D.Notes = std::move(Notes);
    D.Backtrace.push_back({functionName(CI), Loc});
    const CodeInstance *Cur = &CI;
    llvm::DenseSet<const CodeInstance *> Seen{Cur};
    for (auto It = Graph.Parent.find(const_cast<CodeInstance *>(Cur));
         It != Graph.Parent.end();
         It = Graph.Parent.find(const_cast<CodeInstance *>(Cur))) {
      Cur = It->second.Caller;
      if (!Seen.insert(Cur).second)
        break;
      D.Backtrace.push_back({functionName(*Cur), stmtLoc(*Cur, It->second.Stmt)});
    }
    placeInUserCode(D, isPreludePath);
    Out.push_back(std::move(D));
  }

  static bool isFloatType(Type *T) { return T && T->isDataType() && T->isFloat(); }

  void check(const CodeInstance &CI) {
    const TypedCode &C = *CI.Code;
    checkSlots(CI);
    std::set<uint32_t> FloatLines;
    for (unsigned I = 0; I < C.Code.size(); ++I) {
      const Stmt &S = C.Code[I];
      Type *T = I < C.SSATypes.size() ? C.SSATypes[I].T : nullptr;
      if (S.K == StmtKind::GotoIfNot) {
        Type *CT = I < C.ArgTypes.size() && !C.ArgTypes[I].empty()
                       ? C.ArgTypes[I][0].T
                       : nullptr;
        if (CT && !CT->isBottom() && !CT->isBool())
          report(CI, stmtLoc(CI, I), "type-error",
                 "non-boolean (" + CT->str() + ") used in boolean context");
      }
      if (!Tgt.supportsFloat() && S.K != StmtKind::Nop) {
        bool UsesFloat = isFloatType(T);
        if (I < C.ArgTypes.size())
          for (const LatticeType &L : C.ArgTypes[I])
            UsesFloat |= isFloatType(L.T);
        uint32_t Line = stmtLoc(CI, I).Line;
        if (UsesFloat && FloatLines.insert(Line).second)
          report(CI, stmtLoc(CI, I), "target-restriction",
                 std::string("floating-point values are not supported on the ") +
                     Tgt.name() + " target");
      }
      if (S.K != StmtKind::Call)
        continue;
      Builtin Bi = I < C.Builtins.size() ? C.Builtins[I] : Builtin::None;
      MethodInstance *MI = I < C.Invokes.size() ? C.Invokes[I] : nullptr;
      if (Bi == Builtin::None && !MI) {
        // A read of a local no path has assigned throws UndefVarError
        // there (codegen emits it); the call is never made.
        if (!neverAssignedRead(C, I))
          checkUnresolved(CI, I);
        continue;
      }
      if (Bi != Builtin::None)
        checkBuiltin(CI, I, Bi);
      if (Bi != Builtin::None && T && !T->isBottom() && !T->isConcrete() &&
          !(T->isTypeType()))
        report(CI, stmtLoc(CI, I), "non-concrete",
               std::string("`") + builtinName(Bi) +
                   "` produces a value of non-concrete type " + T->str());
    }
    // A function returning a non-concrete type without a culprit slot
    // (several `return`s of different types).
    if (CI.ReturnType && !CI.ReturnType->isBottom() &&
        !CI.ReturnType->isConcrete() && !ReportedSlotIn.count(&CI)) {
      std::vector<DiagNote> Notes;
      for (unsigned I = 0; I < C.Code.size(); ++I)
        if (C.Code[I].K == StmtKind::Return && I < C.ArgTypes.size() &&
            !C.ArgTypes[I].empty() && C.ArgTypes[I][0].T)
          Notes.push_back(
              {"returns " + withArticle(C.ArgTypes[I][0].T->str()) + " here",
               stmtLoc(CI, I)});
      report(CI, methodLoc(CI), "non-concrete",
             "`" + functionName(CI) + "` returns a value of non-concrete type " +
                 CI.ReturnType->str(),
             std::move(Notes));
    }
  }

  void checkSlots(const CodeInstance &CI) {
    const TypedCode &C = *CI.Code;
    for (unsigned S = 1; S < C.Slots.size() && S < C.SlotTypes.size(); ++S) {
      Type *T = C.SlotTypes[S];
      if (!T || T->isBottom() || T->isConcrete())
        continue;
      // Where it is assigned, and with what: the notes explain the Union.
      std::vector<DiagNote> Notes;
      std::optional<unsigned> First;
      std::set<std::pair<uint32_t, Type *>> Seen;
      for (unsigned I = 0; I < C.Code.size(); ++I) {
        const Stmt &St = C.Code[I];
        if (St.K != StmtKind::Assign || St.Slot != S)
          continue;
        if (!First)
          First = I;
        Type *VT = I < C.ArgTypes.size() && !C.ArgTypes[I].empty()
                       ? C.ArgTypes[I][0].T
                       : (I < C.SSATypes.size() ? C.SSATypes[I].T : nullptr);
        DiagLoc L = stmtLoc(CI, I);
        if (VT && Seen.insert({L.Line, VT}).second)
          Notes.push_back({"assigned a value of type " + VT->str() + " here", L});
      }
      if (!First && S < C.SlotFirstAssign.size() &&
          C.SlotFirstAssign[S] != UINT32_MAX)
        First = C.SlotFirstAssign[S];
      std::string Name(C.Slots[S].Name.str());
      bool Temp = Name.empty() || Name[0] == '#';
      DiagLoc Loc = First ? stmtLoc(CI, *First) : methodLoc(CI);
      report(CI, Loc, "non-concrete",
             (Temp ? std::string("a temporary value")
                   : "variable `" + Name + "`") +
                 " has non-concrete type " + T->str() +
                 "; every value must have a concrete type",
             std::move(Notes));
      ReportedSlotIn.insert(&CI);
    }
  }

  void checkUnresolved(const CodeInstance &CI, unsigned I) {
    const TypedCode &C = *CI.Code;
    const Stmt &S = C.Code[I];
    auto ArgT = [&](unsigned K) -> Type * {
      return I < C.ArgTypes.size() && K < C.ArgTypes[I].size() ? C.ArgTypes[I][K].T
                                                               : nullptr;
    };
    std::string Name = "?";
    const LatticeType *Callee =
        I < C.ArgTypes.size() && !C.ArgTypes[I].empty() ? &C.ArgTypes[I][0] : nullptr;
    if (!S.Args.empty() && S.Args[0].K == IRValue::Global) {
      Name = S.Args[0].Name.string();
      bool Bound = Callee && Callee->T && !Callee->T->isBottom();
      if (Env && !Bound && !Env->lookupFunction(S.Args[0].Name) &&
          !Env->lookupType(S.Args[0].Name) && !Env->lookupConst(S.Args[0].Name)) {
        report(CI, stmtLoc(CI, I), "undefined-function",
               "call to an undefined function `" + Name + "`");
        return;
      }
    } else if (Callee && Callee->Const && Callee->Const->K == ConstValue::Func &&
               Callee->Const->Fn) {
      Name = Callee->Const->Fn->Name.string();
    } else if (Callee && Callee->T && Callee->T->isFunctionType() &&
               Callee->T->name()->Func) {
      Name = Callee->T->name()->Func->Name.string();
    }
    std::string Args;
    for (unsigned K = 1; K < S.Args.size(); ++K) {
      Type *T = ArgT(K);
      Args += (K > 1 ? ", " : "") + std::string("::") + (T ? T->str() : "Any");
    }
    // A callee that is itself not one function (`pick(b)(x)` where pick
    // returns `sq` or `abs`): its type is what is not concrete.
    if (Name == "?") {
      Type *CalleeT = Callee ? Callee->T : nullptr;
      report(CI, stmtLoc(CI, I), "dynamic-call",
             "dynamic function invocation: the function called, of type " +
                 std::string(CalleeT ? CalleeT->str() : "Any") + ", on `(" +
                 Args +
                 ")` cannot be resolved statically (the callee's type is not "
                 "concrete)");
      return;
    }
    report(CI, stmtLoc(CI, I), "dynamic-call",
           "dynamic function invocation: `" + Name + "(" + Args +
               ")` cannot be resolved statically (an argument type is not "
               "concrete)");
  }

  void checkBuiltin(const CodeInstance &CI, unsigned I, Builtin Bi) {
    auto Restrict = [&](const std::string &What) {
      report(CI, stmtLoc(CI, I), "target-restriction",
             What + " is not supported on the " + Tgt.name() + " target");
    };
    switch (Bi) {
    case Builtin::ThreadIdxX: case Builtin::ThreadIdxY: case Builtin::ThreadIdxZ:
    case Builtin::BlockIdxX: case Builtin::BlockIdxY: case Builtin::BlockIdxZ:
    case Builtin::BlockDimX: case Builtin::BlockDimY: case Builtin::BlockDimZ:
    case Builtin::GridDimX: case Builtin::GridDimY: case Builtin::GridDimZ:
    case Builtin::SyncThreads:
      // Named as the user wrote it: threadIdx() reads three intrinsics.
      if (!Tgt.supportsDeviceIntrinsics())
        report(CI, stmtLoc(CI, I), "target-restriction",
               "`" + deviceCallOf(Bi) + "` is not supported on the " +
                   Tgt.name() + " target: a " + Tgt.name() +
                   " program is a single thread, with no block or grid");
      break;
    case Builtin::SharedArray: {
      if (!Tgt.supportsSharedMemory()) {
        Restrict("shared memory");
        break;
      }
      const TypedCode &C = *CI.Code;
      bool Const = I < C.ArgTypes.size() && C.ArgTypes[I].size() > 2 &&
                   C.ArgTypes[I][2].Const;
      Const |= C.Code[I].Args.size() > 2 && C.Code[I].Args[2].K == IRValue::Const;
      if (!Const) {
        report(CI, stmtLoc(CI, I), "non-constant",
               "the size of a shared array must be a compile-time constant");
        break;
      }
      // A constant, but one no block can hold: negative, or more bytes
      // than any memory (which would wrap the byte count).
      const ConstValue *N = C.ArgTypes[I].size() > 2 && C.ArgTypes[I][2].Const
                                ? &*C.ArgTypes[I][2].Const
                                : &C.Code[I].Args[2].C;
      Type *ElT = C.ArgTypes[I].size() > 1 && C.ArgTypes[I][1].T &&
                          C.ArgTypes[I][1].T->isTypeType() &&
                          !C.ArgTypes[I][1].T->params().empty()
                      ? C.ArgTypes[I][1].T->param(0)
                      : nullptr;
      if (N->K != ConstValue::Int)
        break;
      int64_t Count = N->asSigned();
      std::optional<uint64_t> Size = ElT ? ElT->juliaSizeOf() : std::nullopt;
      constexpr uint64_t MaxBytes = uint64_t(1) << 30;
      if (Count < 0)
        report(CI, stmtLoc(CI, I), "invalid-size",
               "the size of a shared array must not be negative (it is " +
                   std::to_string(Count) + ")");
      else if (Size && *Size && uint64_t(Count) > MaxBytes / *Size)
        report(CI, stmtLoc(CI, I), "invalid-size",
               "a shared array of " + std::to_string(Count) + " " + ElT->str() +
                   " values is larger than any block's shared "
                   "memory (over 1 GiB; a GPU block has at most 228 KiB)");
      break;
    }
    case Builtin::AtomicAdd:
      if (!Tgt.supportsAtomics())
        Restrict("atomic operations");
      break;
    case Builtin::BpfLoadByte: case Builtin::BpfLoadHalf: case Builtin::BpfLoadWord:
      if (!Tgt.supportsPacketLoads())
        Restrict(std::string("the packet load `") + builtinName(Bi) + "`");
      break;
    default:
      break;
    }
  }

  void checkKernel(const CodeInstance &Root) {
    Type *RT = Root.ReturnType;
    if (RT && !RT->isBottom() && !RT->isNothing()) {
      const TypedCode &C = *Root.Code;
      DiagLoc Loc = methodLoc(Root);
      for (unsigned I = 0; I < C.Code.size(); ++I)
        if (C.Code[I].K == StmtKind::Return) {
          Loc = stmtLoc(Root, I);
          break;
        }
      report(Root, Loc, "kernel-return",
             "kernel returns a value of type " + RT->str() +
                 "; kernels must return `nothing`");
    }
  }

  const InferResult &R;
  const CompilerConfig &Config;
  const Target &Tgt;
  const GlobalEnv *Env;
  CallGraph Graph;
  llvm::DenseSet<const CodeInstance *> ReportedSlotIn;
  std::vector<Diagnostic> Out;
};

/// Where the user's code made the call that led to D: the first frame of
/// its backtrace outside the prelude.
const DiagLoc *userFrame(const Diagnostic &D) {
  for (const BacktraceFrame &F : D.Backtrace) {
    std::string File = F.Loc.File ? F.Loc.File->name() : F.Loc.FileName;
    if (!isPreludePath(File))
      return &F.Loc;
  }
  return nullptr;
}

/// A program that does not fit a target at all (saxpy! for bpf) breaks the
/// same restriction in every prelude function it reaches: one float error
/// per arithmetic helper, one intrinsic per dimension of `blockIdx()`.
/// Restrictions are merged per line of the user's code that led to them:
/// one error for each message there, and the device calls of one line
/// named together (``blockIdx()` and `threadIdx()` are not supported``).
/// The first keeps its place and backtrace; every other kind of error is
/// left as it is.
std::vector<Diagnostic> coalesceRestrictions(std::vector<Diagnostic> In) {
  std::vector<Diagnostic> Out;
  std::map<std::tuple<std::string, uint32_t, std::string>, size_t> Seen;
  std::map<size_t, std::vector<std::string>> Names;
  for (Diagnostic &D : In) {
    const DiagLoc *U = userFrame(D);
    if (D.Kind != "target-restriction" || !U) {
      Out.push_back(std::move(D));
      continue;
    }
    // "`blockIdx()` is not supported on ...": the calls of one line named
    // in one message.
    std::string Key = D.Message, Name;
    llvm::StringRef M = D.Message;
    if (M.startswith("`") && M.contains("` is not supported on the ")) {
      auto [N, Rest] = M.drop_front().split('`');
      Name = N.str();
      Key = Rest.str();
    }
    std::string File = U->File ? U->File->name() : U->FileName;
    auto [It, New] = Seen.try_emplace({File, U->Line, Key}, Out.size());
    if (New) {
      if (!Name.empty())
        Names[Out.size()].push_back(Name);
      Out.push_back(std::move(D));
    } else if (!Name.empty() && !llvm::is_contained(Names[It->second], Name)) {
      Names[It->second].push_back(Name);
    }
  }
  for (auto &[I, Ns] : Names) {
    if (Ns.size() < 2)
      continue;
    std::string List;
    for (size_t K = 0; K < Ns.size(); ++K)
      List += std::string(K == 0               ? ""
                          : K + 1 == Ns.size() ? " and "
                                               : ", ") +
              "`" + Ns[K] + "`";
    std::string Rest = llvm::StringRef(Out[I].Message)
                           .drop_front()
                           .split('`')
                           .second.str(); // " is not supported on ..."
    Out[I].Message = List + " are" + Rest.substr(3);
  }
  return Out;
}

/// The first instruction with a source line that uses `V`, through
/// constant expressions (a shared array's address cast).
const llvm::Instruction *firstLocatedUser(const llvm::Value *V) {
  for (const llvm::User *U : V->users()) {
    if (const auto *I = llvm::dyn_cast<llvm::Instruction>(U)) {
      if (I->getDebugLoc())
        return I;
    } else if (llvm::isa<llvm::ConstantExpr>(U)) {
      if (const llvm::Instruction *I = firstLocatedUser(U))
        return I;
    }
  }
  return nullptr;
}

/// Static shared memory (LDS) past what a block may declare: ptxas rejects
/// the kernel ("uses too much shared data") and the AMDGPU backend stops
/// ("local memory exceeds limit"), neither at a source line. Said at the
/// array whose declaration crosses the limit.
void checkStaticShared(const llvm::Module &M, const CompilerConfig &C,
                       std::vector<Diagnostic> &Out) {
  const Target &Tgt = C.target();
  llvm::StringRef Name = Tgt.name();
  std::optional<MultiprocessorLimits> L = Name == "ptx"   ? smLimits(C.arch())
                                          : Name == "gcn" ? cuLimits(C.arch())
                                                          : std::nullopt;
  if (!L)
    return;
  const unsigned Shared = Tgt.addressSpaces().Shared;
  const llvm::DataLayout &DL = M.getDataLayout();
  uint64_t Bytes = 0;
  const llvm::GlobalVariable *Crossing = nullptr;
  for (const llvm::GlobalVariable &GV : M.globals()) {
    if (GV.getAddressSpace() != Shared || !GV.hasInitializer())
      continue; // an external one would be dynamic shared memory
    Bytes = llvm::alignTo(Bytes, GV.getAlign().valueOrOne()) +
            DL.getTypeAllocSize(GV.getValueType());
    if (Bytes > uint64_t(L->SharedPerBlock)) {
      Crossing = &GV;
      break;
    }
  }
  if (!Crossing)
    return;
  const bool Amd = L->Amd;
  Diagnostic D = Diagnostic::error(
      "target-restriction",
      llvm::formatv("{1} reaches {0} bytes with this array, more than the "
                    "{2} ({3} KiB) a {4} may declare on {5}; {6} rejects the "
                    "kernel. Use smaller arrays or element types",
                    Bytes, Amd ? "LDS" : "static shared memory",
                    L->SharedPerBlock, L->SharedPerBlock / 1024, L->blockWord(),
                    C.arch(), Amd ? "the AMDGPU backend" : "ptxas")
          .str(),
      {});
  const llvm::DILocation *Declared = nullptr;
  if (const llvm::NamedMDNode *N = M.getNamedMetadata(SharedArraysMetadata))
    for (const llvm::MDNode *Pair : N->operands())
      if (Pair->getNumOperands() == 2)
        if (const auto *V = llvm::dyn_cast_or_null<llvm::ValueAsMetadata>(
                Pair->getOperand(0)))
          if (V->getValue() == Crossing)
            Declared =
                llvm::dyn_cast_or_null<llvm::DILocation>(Pair->getOperand(1));
  if (Declared)
    locateDebugLoc(Declared, D);
  else if (const llvm::Instruction *I = firstLocatedUser(Crossing))
    locateInstruction(*I, D);
  Out.push_back(std::move(D));
}

/// Places D at F's definition (its `function` line), for a problem of the
/// whole function rather than of one of its lines.
void locateDefinition(const llvm::Function &F, Diagnostic &D) {
  if (const llvm::DISubprogram *SP = F.getSubprogram()) {
    D.Loc.FileName = SP->getFilename().str();
    D.Loc.Line = SP->getLine();
    D.Loc.Col = 1;
  }
}

/// LLVM 16's AMDGPU backend cannot compile unoptimised code with a stack
/// object past 4 KiB (an 8 KiB tuple argument kept whole): addressing it
/// needs a scavenged register and an emergency spill slot it did not
/// reserve, and the process aborts ("cannot scavenge register"). Many
/// small objects are fine. Said at the function, with the level that
/// compiles it.
void checkGcnUnoptimisedFrame(const llvm::Module &M, const CompilerConfig &C,
                              std::vector<Diagnostic> &Out) {
  if (llvm::StringRef(C.target().name()) != "gcn" || C.optLevel() != 0)
    return;
  constexpr uint64_t MaxObjectBytes = 4096;
  const llvm::DataLayout &DL = M.getDataLayout();
  for (const llvm::Function &F : M) {
    uint64_t Bytes = 0;
    for (const llvm::Instruction &I : llvm::instructions(F))
      if (const auto *A = llvm::dyn_cast<llvm::AllocaInst>(&I))
        if (std::optional<llvm::TypeSize> S = A->getAllocationSize(DL))
          Bytes = std::max<uint64_t>(Bytes, S->getFixedValue());
    if (Bytes <= MaxObjectBytes)
      continue;
    Diagnostic D = Diagnostic::error(
        "target-restriction",
        llvm::formatv("at -O0 this function keeps a {0}-byte value on the "
                      "stack, more than LLVM 16's AMDGPU backend compiles "
                      "unoptimised ({1}: past it, it aborts); compile with "
                      "-O1 or above",
                      Bytes, MaxObjectBytes)
            .str(),
        {});
    locateDefinition(F, D);
    Out.push_back(std::move(D));
  }
}

/// A PTX kernel's arguments live in its parameter space, 4352 bytes
/// (0x1100) on every arch this LLVM targets: past it ptxas rejects the
/// kernel ("uses too much parameter space"), at no source line. Said at the
/// kernel's definition.
void checkParameterSpace(const llvm::Module &M, const CompilerConfig &C,
                         std::vector<Diagnostic> &Out) {
  if (llvm::StringRef(C.target().name()) != "ptx")
    return;
  constexpr uint64_t MaxParamBytes = 4352;
  const llvm::DataLayout &DL = M.getDataLayout();
  for (const llvm::Function &F : M) {
    if (F.isDeclaration() ||
        F.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      continue;
    uint64_t Bytes = 0;
    for (const llvm::Argument &A : F.args()) {
      llvm::Type *T = A.hasByValAttr() ? A.getParamByValType() : A.getType();
      Bytes =
          llvm::alignTo(Bytes, DL.getABITypeAlign(T)) + DL.getTypeAllocSize(T);
    }
    if (Bytes <= MaxParamBytes)
      continue;
    Diagnostic D = Diagnostic::error(
        "target-restriction",
        llvm::formatv("the kernel's arguments take {0} bytes of parameter "
                      "space, more than the {1} PTX gives a kernel; ptxas "
                      "rejects it. Pass large tuples and structs in a "
                      "DeviceArray",
                      Bytes, MaxParamBytes)
            .str(),
        {});
    locateDefinition(F, D);
    Out.push_back(std::move(D));
  }
}

} // namespace

std::vector<Diagnostic> validateTyped(const InferResult &R,
                                      const CompilerConfig &C,
                                      const GlobalEnv *Env) {
  return TypedValidator(R, C, Env).run();
}

void locateInstruction(const llvm::Instruction &I, Diagnostic &D) {
  locateDebugLoc(I.getDebugLoc().get(), D);
}

void locateDebugLoc(const llvm::DILocation *L, Diagnostic &D) {
  bool First = true;
  for (; L; L = L->getInlinedAt()) {
    DiagLoc Loc;
    Loc.FileName = L->getFilename().str();
    Loc.Line = L->getLine();
    Loc.Col = L->getColumn();
    const llvm::DISubprogram *SP = L->getScope()->getSubprogram();
    // A launch wrapper or BPF program around the entry is no frame of the
    // source.
    if (SP && SP->isArtificial() && !First)
      continue;
    std::string Fn = SP ? SP->getName().str() : "?";
    if (First)
      D.Loc = Loc;
    First = false;
    D.Backtrace.push_back({Fn, Loc});
  }
  // Code inlined from the prelude is the user's call that reached it.
  placeInUserCode(D, isPreludePath);
}

std::vector<Diagnostic> validateLLVM(const llvm::Module &M,
                                     const CompilerConfig &C) {
  std::vector<Diagnostic> Out;
  const Target &Tgt = C.target();
  llvm::StringSet<> ReportedCallee;
  std::set<std::pair<std::string, uint32_t>> FloatLines;
  for (const llvm::Function &F : M) {
    for (const llvm::Instruction &I : llvm::instructions(F)) {
      if (auto *Call = llvm::dyn_cast<llvm::CallBase>(&I)) {
        const llvm::Function *Callee = Call->getCalledFunction();
        if (!Callee) {
          if (!Call->isInlineAsm()) {
            Diagnostic D = Diagnostic::error(
                "unknown-function", "call through a function pointer", {});
            locateInstruction(I, D);
            Out.push_back(std::move(D));
          }
        } else if (Callee->isDeclaration() && !Callee->isIntrinsic() &&
                   !Tgt.isKnownExternal(Callee->getName())) {
          if (ReportedCallee.insert(Callee->getName()).second) {
            Diagnostic D = Diagnostic::error(
                "unknown-function",
                "call to an unknown function `" + Callee->getName().str() + "`",
                {});
            locateInstruction(I, D);
            Out.push_back(std::move(D));
          }
        } else if (!Tgt.supportsCalls() && !Callee->isDeclaration()) {
          Diagnostic D = Diagnostic::error(
              "target-restriction",
              std::string("calls are not supported on the ") + Tgt.name() +
                  " target (`" + Callee->getName().str() + "` was not inlined)",
              {});
          locateInstruction(I, D);
          Out.push_back(std::move(D));
        }
      }
      if (!Tgt.supportsFloat() && !llvm::isa<llvm::DbgInfoIntrinsic>(I)) {
        bool UsesFloat = I.getType()->isFPOrFPVectorTy();
        for (const llvm::Value *Op : I.operands())
          UsesFloat |= Op->getType()->isFPOrFPVectorTy();
        if (UsesFloat) {
          Diagnostic D = Diagnostic::error(
              "target-restriction",
              std::string("floating-point values are not supported on the ") +
                  Tgt.name() + " target",
              {});
          locateInstruction(I, D);
          if (FloatLines.insert({D.Loc.FileName, D.Loc.Line}).second)
            Out.push_back(std::move(D));
        }
      }
    }
  }
  Tgt.validateModule(M, C, Out);
  checkStaticShared(M, C, Out);
  checkParameterSpace(M, C, Out);
  checkGcnUnoptimisedFrame(M, C, Out);
  return Out;
}

} // namespace prism
