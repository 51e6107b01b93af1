#include "cache/Remarks.h"

#include "llvm/IR/Module.h"

#include "cache/LineCorrelation.h"
#include "codegen/LineMap.h"
#include "codegen/Runtime.h"
#include "optim/CostlyArithmetic.h"
#include "prelude/Embedded.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Support/Path.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace prism {

bool remarkPassWanted(llvm::StringRef Pass) {
  return Pass != "size-info" && Pass != "stack-frame-layout";
}

namespace {

/// A remark carries only file, line and column; the code it is about
/// (an instruction, or a block: a loop's header) has the full inlining
/// chain. The block's instruction at the remark's position is the one.
const llvm::DILocation *locationIn(const llvm::BasicBlock *BB, unsigned Line,
                                   unsigned Col) {
  if (!BB)
    return nullptr;
  const llvm::DILocation *SameLine = nullptr;
  for (const llvm::Instruction &I : *BB) {
    const llvm::DILocation *L = I.getDebugLoc().get();
    if (!L || L->getLine() != Line)
      continue;
    if (L->getColumn() == Col)
      return L;
    if (!SameLine)
      SameLine = L;
  }
  return SameLine;
}

/// The full location of a remark, or null when only file:line is known.
const llvm::DILocation *
remarkLocation(const llvm::DiagnosticInfoOptimizationBase &R) {
  unsigned Line = R.getLocation().getLine(), Col = R.getLocation().getColumn();
  if (const auto *IR = llvm::dyn_cast<llvm::DiagnosticInfoIROptimization>(&R)) {
    const llvm::Value *V = IR->getCodeRegion();
    if (const auto *I = llvm::dyn_cast_or_null<llvm::Instruction>(V))
      if (const llvm::DILocation *L = I->getDebugLoc().get())
        return L;
    if (const auto *BB = llvm::dyn_cast_or_null<llvm::BasicBlock>(V))
      return locationIn(BB, Line, Col);
    return nullptr;
  }
  if (const auto *MIR =
          llvm::dyn_cast<llvm::DiagnosticInfoMIROptimization>(&R))
    if (const llvm::MachineBasicBlock *MBB = MIR->getBlock())
      return locationIn(MBB->getBasicBlock(), Line, Col);
  return nullptr;
}

RemarkKind kindOf(const llvm::DiagnosticInfoOptimizationBase &R) {
  if (R.isPassed())
    return RemarkKind::Passed;
  if (R.isMissed())
    return RemarkKind::Missed;
  return RemarkKind::Analysis; // also the FP-commute and aliasing analyses
}

/// An argument LLVM printed as a float in `%e` form (regalloc's "total
/// copies cost 1.593750e+01") as people write it ("15.9"); anything else
/// as it is.
std::string readableNumber(llvm::StringRef Val) {
  llvm::StringRef Mantissa =
      Val.ltrim('-').take_until([](char C) { return C == 'e'; });
  if (Mantissa.size() == Val.ltrim('-').size() || Mantissa.count('.') != 1 ||
      !llvm::all_of(Mantissa,
                    [](char C) { return llvm::isDigit(C) || C == '.'; }))
    return Val.str();
  double D = 0;
  if (Val.getAsDouble(D) || !std::isfinite(D))
    return Val.str();
  char Buf[64];
  if (D == std::trunc(D) && std::fabs(D) < 1e15)
    std::snprintf(Buf, sizeof Buf, "%.0f", D);
  else if (std::fabs(D) >= 0.1)
    std::snprintf(Buf, sizeof Buf, "%.1f", D);
  else
    std::snprintf(Buf, sizeof Buf, "%.2g", D);
  return Buf;
}

/// The user's lines that the prelude code at \p File:\p Line:\p Col was
/// inlined into in \p F (`reduce.jl:11 or 16`): an argument of a remark
/// (GVN's "in favor of store (80_array.jl:7)") carries only its innermost
/// place, which every inlined copy shares; \p Opcode (`store`), when the
/// argument names one, narrows the candidates, and so do \p Objects: a
/// store must write one of them. Empty when none is found.
std::string
userLinesOf(const llvm::Function &F, llvm::StringRef File, unsigned Line,
            unsigned Col, llvm::StringRef Opcode,
            const llvm::SmallPtrSetImpl<const llvm::Value *> &Objects) {
  std::map<std::string, std::set<unsigned>> Lines;
  for (const llvm::Instruction *I : instructionsAt(F, File, Line, Col)) {
    if (!Opcode.empty() && Opcode != I->getOpcodeName())
      continue;
    if (const auto *St = llvm::dyn_cast<llvm::StoreInst>(I);
        St && !Objects.empty() &&
        !Objects.count(llvm::getUnderlyingObject(St->getPointerOperand())))
      continue;
    const llvm::DILocation *L = I->getDebugLoc().get();
    while (L->getInlinedAt())
      L = L->getInlinedAt();
    if (!isPreludePath(L->getFilename()))
      Lines[llvm::sys::path::filename(L->getFilename()).str()].insert(
          L->getLine());
  }
  std::string S;
  for (const auto &[Name, Set] : Lines) {
    if (!S.empty())
      S += " or ";
    S += Name + ":";
    size_t K = 0;
    for (unsigned N : Set)
      S += (K++ ? " or " : "") + std::to_string(N);
  }
  return S;
}

/// What the loads at \p File:\p Line:\p Col read (their pointers'
/// underlying objects): a store that GVN says a load was not replaced by
/// can only be one that writes the same object (`reduce.jl:11 or 16`, not
/// the store into another array on line 22).
llvm::SmallPtrSet<const llvm::Value *, 4> loadedObjects(const llvm::Function &F,
                                                        llvm::StringRef File,
                                                        unsigned Line,
                                                        unsigned Col) {
  llvm::SmallPtrSet<const llvm::Value *, 4> Objects;
  for (const llvm::Instruction *I : instructionsAt(F, File, Line, Col))
    if (const auto *Ld = llvm::dyn_cast<llvm::LoadInst>(I))
      Objects.insert(llvm::getUnderlyingObject(Ld->getPointerOperand()));
  return Objects;
}

/// The whole message, with the arguments LLVM keeps out of getMsg() (GVN's
/// "because it is clobbered by ..."), and where an instruction it names is
/// (in a tagged module through \p Tags; prelude code at the user's lines
/// it was inlined into).
std::string messageOf(const llvm::DiagnosticInfoOptimizationBase &R,
                      std::span<const llvm::DILocation *const> Tags) {
  std::string S;
  const llvm::DiagnosticLocation &Own = R.getLocation();
  for (const llvm::DiagnosticInfoOptimizationBase::Argument &A : R.getArgs()) {
    S += readableNumber(A.Val);
    // Not where a callee is defined, nor the remark's own place again
    // (LICM's "hoisting load" names the load the remark is about).
    if (!A.Loc.isValid() || A.Key == "Callee" || A.Key == "Caller")
      continue;
    bool Elsewhere = !Own.isValid() || A.Loc.getLine() != Own.getLine() ||
                     A.Loc.getColumn() != Own.getColumn() ||
                     A.Loc.getRelativePath() != Own.getRelativePath();
    if (!Elsewhere)
      continue;
    std::string File = A.Loc.getRelativePath().str();
    unsigned Line = A.Loc.getLine();
    if (Line >= LocationTagBase) {
      const llvm::DILocation *Tagged = untagLine(Line, Tags);
      if (!Tagged)
        continue;
      while (Tagged->getInlinedAt() && isPreludePath(Tagged->getFilename()))
        Tagged = Tagged->getInlinedAt();
      File = Tagged->getFilename().str();
      Line = Tagged->getLine();
    } else if (isPreludePath(File)) {
      llvm::StringRef Named = llvm::StringRef(A.Val).trim();
      if (Named.contains(' '))
        Named = "";
      llvm::SmallPtrSet<const llvm::Value *, 4> Objects;
      if (Named == "store" && Own.isValid() && Own.getLine() < LocationTagBase)
        Objects = loadedObjects(R.getFunction(), Own.getRelativePath(),
                                Own.getLine(), Own.getColumn());
      std::string User = userLinesOf(R.getFunction(), File, Line,
                                     A.Loc.getColumn(), Named, Objects);
      if (User.empty() && !Objects.empty()) // none writes what it reads
        User = userLinesOf(R.getFunction(), File, Line, A.Loc.getColumn(),
                           Named, llvm::SmallPtrSet<const llvm::Value *, 1>());
      if (!User.empty()) {
        S += " (" + User + ")";
        continue;
      }
    }
    S += " (" + llvm::sys::path::filename(File).str() + ":" +
         std::to_string(Line) + ")";
  }
  return llvm::StringRef(S).trim().str();
}

std::string placeOf(const SourceFrame &F) {
  return F.File + ":" + std::to_string(F.Line);
}

} // namespace

bool remarkFrom(const llvm::DiagnosticInfo &DI, Stage At,
                std::span<const llvm::DILocation *const> Tags,
                OptRemark &Out) {
  const auto *R = llvm::dyn_cast<llvm::DiagnosticInfoOptimizationBase>(&DI);
  if (!R || !remarkPassWanted(R->getPassName()))
    return false;
  // The asm printer's per-block opcode histograms: a table, not a remark
  // (its per-function instruction count stays).
  if (R->getRemarkName() == "InstructionMix")
    return false;
  // A call of a declaration (the throw hook, an intrinsic) is never
  // inlinable: not a decision, and one remark per throw site.
  if (R->getPassName() == "inline" && R->getRemarkName() == "NoDefinition")
    return false;
  Out = OptRemark();
  Out.Kind = kindOf(*R);
  Out.At = At;
  Out.Pass = R->getPassName().str();
  Out.Name = R->getRemarkName().str();
  Out.Message = messageOf(*R, Tags);
  // The inliner appends the call site's own inlining chain
  // (` at callsite f:1:9 @ g:0:18 @ ...;`): the frames say it better.
  if (size_t Cut = Out.Message.find(" at callsite "); Cut != std::string::npos)
    Out.Message.resize(Cut);
  // Forced, not decided: the prelude's always-inline helpers (dozens per
  // kernel) and the native launch wrappers.
  if (Out.Pass == "inline" &&
      llvm::StringRef(Out.Message).endswith(": always inline attribute"))
    return false;
  Out.Function = R->getFunction().getName().str();

  const llvm::DILocation *L = remarkLocation(*R);
  unsigned Line = L ? L->getLine() : R->getLocation().getLine();
  // In a module tagged for asm annotation a line is an index of Tags.
  if (Line >= LocationTagBase)
    L = untagLine(Line, Tags);
  if (L) {
    Out.Origin = lineOriginOf(L);
  } else if (R->isLocationAvailable() && Line < LocationTagBase) {
    const llvm::DISubprogram *SP = R->getFunction().getSubprogram();
    Out.Origin.Frames.push_back({SP ? SP->getName().str() : Out.Function,
                                 R->getLocation().getRelativePath().str(),
                                 Line, R->getLocation().getColumn()});
  }
  return true;
}

namespace {
/// I's source location, or where LLVM merged two lines into line 0 (a
/// load hoisted out of both arms of an `if`), the nearest real one: its
/// address's, else the closest instruction's in its block before it, then
/// after it.
const llvm::DILocation *sourceLocationOf(const llvm::Instruction &I) {
  auto Real = [](const llvm::Instruction *X) -> const llvm::DILocation * {
    const llvm::DILocation *L = X ? X->getDebugLoc().get() : nullptr;
    return L && L->getLine() ? L : nullptr;
  };
  if (const llvm::DILocation *L = Real(&I))
    return L;
  if (const llvm::Value *Ptr = llvm::getLoadStorePointerOperand(&I))
    if (const llvm::DILocation *L =
            Real(llvm::dyn_cast<llvm::Instruction>(Ptr)))
      return L;
  for (const llvm::Instruction *X = I.getPrevNode(); X; X = X->getPrevNode())
    if (const llvm::DILocation *L = Real(X))
      return L;
  for (const llvm::Instruction *X = I.getNextNode(); X; X = X->getNextNode())
    if (const llvm::DILocation *L = Real(X))
      return L;
  return I.getDebugLoc().get();
}

/// A remark of one of Prism's own analyses on instruction \p I of \p F.
OptRemark analysisRemark(RemarkKind Kind, const char *Pass, const char *Name,
                         std::string Message, const llvm::Function &F,
                         const llvm::Instruction *I,
                         llvm::StringRef JobFunction) {
  OptRemark R;
  R.Kind = Kind;
  R.At = Stage::LLVMOpt;
  R.Pass = Pass;
  R.Name = Name;
  R.Message = std::move(Message);
  R.Function = F.getName().str();
  if (const llvm::DILocation *L = I ? sourceLocationOf(*I) : nullptr)
    R.Origin = lineOriginOf(L);
  trimToJob(R, JobFunction);
  return R;
}

/// The note that an analysis stopped after its first \p Max findings in F.
OptRemark limitRemark(const char *Pass, size_t Max, const char *What,
                      const llvm::Function &F, llvm::StringRef JobFunction) {
  return analysisRemark(RemarkKind::Analysis, Pass, "Limit",
                        "only the first " + std::to_string(Max) + " " + What +
                            " of `" + F.getName().str() + "` were analysed",
                        F, nullptr, JobFunction);
}
} // namespace

void addAccessRemarks(llvm::Module &M, const WarpModel &W,
                      llvm::StringRef JobFunction, std::vector<OptRemark> &Out) {
  for (llvm::Function &F : M) {
    std::vector<MemoryAccess> Accesses = analyseMemoryAccesses(F, W);
    if (Accesses.size() >= MaxAccessesPerFunction)
      Out.push_back(limitRemark("prism-access", MaxAccessesPerFunction,
                                "memory accesses", F, JobFunction));
    for (const MemoryAccess &A : Accesses)
      Out.push_back(analysisRemark(A.Judged == MemoryAccess::Verdict::Poor
                                       ? RemarkKind::Missed
                                       : RemarkKind::Analysis,
                                   "prism-access", A.name(), A.Message, F,
                                   A.Inst, JobFunction));
  }
}

void addArithmeticRemarks(llvm::Module &M, llvm::StringRef Target,
                          llvm::StringRef Arch, const LibraryCallSites *Library,
                          llvm::StringRef JobFunction,
                          std::vector<OptRemark> &Out) {
  for (llvm::Function &F : M) {
    std::vector<CostlyOp> Ops = findCostlyArithmetic(F, Target, Arch, Library);
    if (Ops.size() >= MaxCostlyOpsPerFunction)
      Out.push_back(limitRemark("prism-arith", MaxCostlyOpsPerFunction,
                                "costly operations", F, JobFunction));
    for (const CostlyOp &Op : Ops)
      Out.push_back(analysisRemark(
          Op.Costly ? RemarkKind::Missed : RemarkKind::Analysis, "prism-arith",
          Op.name(), Op.Message, F, Op.Inst, JobFunction));
  }
}

void addThrowSiteRemarks(llvm::Module &M, llvm::StringRef JobFunction,
                         std::vector<OptRemark> &Out) {
  const llvm::Function *Hook = M.getFunction(ThrowHookName);
  if (!Hook)
    return;
  std::set<std::tuple<int32_t, std::string, std::string, int32_t>> Seen;
  for (llvm::Function &F : M) {
    std::optional<llvm::DominatorTree> DT;
    std::optional<llvm::LoopInfo> Loops;
    for (const llvm::Instruction &I : llvm::instructions(F)) {
      const auto *Call = llvm::dyn_cast<llvm::CallBase>(&I);
      if (!Call || Call->getCalledFunction() != Hook)
        continue;
      ThrowCallInfo Info = readThrowCall(*Call);
      // One remark per source place: a launch wrapper's inlined copy of a
      // check is the same check.
      if (!Seen.insert(Info.key()).second)
        continue;
      if (!Loops) {
        DT.emplace(F);
        Loops.emplace(*DT);
      }
      // The throw's block leaves the loop; the check that branches to it
      // is in the loop when a predecessor is.
      bool InLoop = llvm::any_of(
          llvm::predecessors(I.getParent()),
          [&](const llvm::BasicBlock *P) { return Loops->getLoopFor(P); });
      std::string Kind = Info.TypeName.empty()
                             ? throwKindName(ThrowKind(Info.Kind))
                             : Info.TypeName;
      std::string Message =
          "a check that can throw " + Kind +
          " stays in the optimised code: a compare and a branch to a block "
          "that reports it" +
          (InLoop ? std::string(", on every iteration of a loop") : "") +
          (Kind == "BoundsError"
               ? std::string(" (`@inbounds` or --check-bounds=no removes it)")
               : std::string());
      Out.push_back(analysisRemark(RemarkKind::Analysis, "prism-throw",
                                   "ThrowSite", std::move(Message), F, &I,
                                   JobFunction));
    }
  }
}

namespace {
bool isBarrier(const llvm::Instruction &I) {
  const auto *CB = llvm::dyn_cast<llvm::CallBase>(&I);
  const llvm::Function *Callee = CB ? CB->getCalledFunction() : nullptr;
  if (!Callee)
    return false;
  switch (Callee->getIntrinsicID()) {
  case llvm::Intrinsic::nvvm_barrier0:
  case llvm::Intrinsic::amdgcn_s_barrier:
    return true;
  default:
    return Callee->getName() == SyncThreadsHookName;
  }
}

/// Whether every thread that enters From passes Barrier's block before it
/// returns. Paths that throw end the launch and do not count (else a
/// bounds check would put each barrier after it under a branch).
bool mustPass(const llvm::BasicBlock *From, const llvm::BasicBlock *Barrier) {
  llvm::SmallPtrSet<const llvm::BasicBlock *, 16> Seen;
  llvm::SmallVector<const llvm::BasicBlock *, 16> Work{From};
  while (!Work.empty()) {
    const llvm::BasicBlock *BB = Work.pop_back_val();
    if (BB == Barrier || !Seen.insert(BB).second)
      continue;
    if (llvm::isa<llvm::ReturnInst>(BB->getTerminator()))
      return false;
    llvm::append_range(Work, llvm::successors(BB));
  }
  return true;
}

/// Whether the branch decides if a thread passes Bar, or how often: on one
/// side every thread passes it, on the other some may return without (the
/// barrier is control dependent on the branch). A loop's exit test with
/// the barrier in its body is one.
bool decidesBarrier(const llvm::BranchInst &Br, const llvm::Instruction &Bar) {
  std::optional<bool> First;
  for (const llvm::BasicBlock *Succ : llvm::successors(&Br)) {
    bool Passes = mustPass(Succ, Bar.getParent());
    if (First && *First != Passes)
      return true;
    First = Passes;
  }
  return false;
}
} // namespace

void addDivergenceRemarks(llvm::Module &M, const WarpModel &W,
                          llvm::StringRef JobFunction,
                          std::vector<OptRemark> &Out) {
  for (llvm::Function &F : M) {
    std::vector<BranchDivergence> Branches = analyseBranches(F, W);
    // A barrier that only some threads of a block reach hangs the block or
    // synchronises the wrong threads, whatever the warps do: every
    // thread-dependent branch counts, warp-uniform ones too.
    std::vector<const llvm::Instruction *> Barriers;
    if (!Branches.empty())
      for (const llvm::Instruction &I : llvm::instructions(F))
        if (isBarrier(I))
          Barriers.push_back(&I);
    for (const llvm::Instruction *Bar : Barriers)
      for (const BranchDivergence &B : Branches) {
        if (!decidesBarrier(llvm::cast<llvm::BranchInst>(*B.Inst), *Bar))
          continue;
        std::string Line;
        if (const llvm::DebugLoc &DL = B.Inst->getDebugLoc())
          Line = " (line " + std::to_string(DL.getLine()) + ")";
        Out.push_back(analysisRemark(
            RemarkKind::Missed, "prism-divergence", "BarrierUnderBranch",
            "sync_threads() under a branch on the thread index" + Line +
                ": threads that skip it leave the rest of the block "
                "waiting, or synchronise the wrong threads (--device "
                "interp stops at it)",
            F, Bar, JobFunction));
        break; // one remark a barrier, naming the first such branch
      }
    if (Branches.size() >= MaxBranchesPerFunction)
      Out.push_back(analysisRemark(
          RemarkKind::Analysis, "prism-divergence", "Limit",
          "only the first " + std::to_string(MaxBranchesPerFunction) +
              " thread-dependent branches of `" + F.getName().str() +
              "` were judged",
          F, nullptr, JobFunction));
    for (const BranchDivergence &B : Branches) {
      // The branch's own line; the condition's when the branch has none.
      const llvm::Instruction *At = B.Inst;
      if (!At->getDebugLoc())
        if (const auto *C = llvm::dyn_cast<llvm::Instruction>(
                llvm::cast<llvm::BranchInst>(At)->getCondition()))
          At = C;
      Out.push_back(analysisRemark(
          B.Judged == BranchDivergence::Verdict::Divergent
              ? RemarkKind::Missed
              : RemarkKind::Analysis,
          "prism-divergence", B.name(), B.Message, F, At, JobFunction));
    }
  }
}

namespace {
/// What makes two remarks one (groupRemarks): kind, pass, text, function
/// and frames, so an unrolled loop's copies of one remark are one.
std::string remarkGroupKey(const OptRemark &R) {
  std::string K = std::string(remarkKindName(R.Kind)) + '\0' + R.Pass + '\0' +
                  R.Message + '\0' + R.Function;
  for (const SourceFrame &F : R.Origin.Frames)
    K += '\0' + F.File + ':' + std::to_string(F.Line) + ':' +
         std::to_string(F.Col);
  return K;
}

/// Counts the remarks of \p Pass by name into the fields \p Names gives.
template <typename Counts>
Counts countByName(
    const std::vector<OptRemark> &Remarks, llvm::StringRef Pass,
    std::initializer_list<std::pair<llvm::StringRef, size_t Counts::*>> Names) {
  Counts C;
  // Once per source place: LLVM's unrolled copies of one access are one.
  std::unordered_set<std::string> Seen;
  for (const OptRemark &R : Remarks)
    if (R.Pass == Pass && Seen.insert(remarkGroupKey(R)).second)
      for (const auto &[Name, Field] : Names)
        if (R.Name == Name) {
          ++(C.*Field);
          break;
        }
  return C;
}
} // namespace

BranchCounts countBranchRemarks(const std::vector<OptRemark> &Remarks) {
  using C = BranchCounts;
  return countByName<C>(Remarks, "prism-divergence",
                        {{"DivergentBranch", &C::Divergent},
                         {"PartlyDivergentBranch", &C::PartlyDivergent},
                         {"WarpUniformBranch", &C::WarpUniform},
                         {"BoundaryBranch", &C::Boundary},
                         {"DataDependentBranch", &C::DataDependent},
                         {"ThreadDependentBranch", &C::Unknown}});
}

AccessCounts countAccessRemarks(const std::vector<OptRemark> &Remarks) {
  using C = AccessCounts;
  return countByName<C>(Remarks, "prism-access",
                        {{"Coalesced", &C::Coalesced},
                         {"Uncoalesced", &C::Uncoalesced},
                         {"ConflictFree", &C::ConflictFree},
                         {"BankConflict", &C::BankConflicts},
                         {"Broadcast", &C::Broadcast},
                         {"RuntimeStride", &C::RuntimeStride}});
}

ArithmeticCounts countArithmeticRemarks(const std::vector<OptRemark> &Remarks) {
  using C = ArithmeticCounts;
  return countByName<C>(Remarks, "prism-arith",
                        {{"Float64Widened", &C::Float64},
                         {"Float64Narrowed", &C::Float64},
                         {"Float64FromInteger", &C::Float64},
                         {"WideDivision", &C::WideDivisions}});
}

void addInliningRemarks(const InferResult &R, std::vector<OptRemark> &Out) {
  auto Name = [](const MethodInstance *MI) {
    return MI && MI->Def ? MI->Def->Name.string() : std::string();
  };
  auto Frame = [](std::string Fn, const SourceFileRef &F, SrcRange At) {
    LineCol LC = F && At.valid() ? F->lineCol(At.Begin) : LineCol{};
    return SourceFrame{std::move(Fn), F ? F->name() : "", LC.Line, LC.Col};
  };
  for (size_t I = 0; I < R.All.size(); ++I) {
    std::string Root = Name(R.All[I]->MI);
    for (const InlineDecision &D : R.codeOf(I).Inlining) {
      OptRemark M;
      M.Kind = D.Inlined ? RemarkKind::Passed : RemarkKind::Missed;
      M.At = Stage::TypedOpt;
      M.Pass = "typed-inline";
      M.Name = D.Inlined ? "Inlined" : "NotInlined";
      M.Message = std::string(D.Inlined ? "inlined `" : "not inlined `") +
                  (D.Callee ? D.Callee->str() : "?") + "`: " + D.why();
      M.Function = Root;
      // Innermost first: the call in the function it is written in, then
      // each call site it was inlined through.
      const InlineStack &St = D.Stack;
      M.Origin.Frames.push_back(
          Frame(St.empty() ? Root : Name(St.back().MI), D.File, D.CallSite));
      for (size_t K = St.size(); K-- > 0;)
        M.Origin.Frames.push_back(
            Frame(K == 0 ? Root : Name(St[K - 1].MI), St[K].File, St[K].CallSite));
      if (D.Inlined && isPreludePath(M.Origin.Frames.front().File))
        continue;
      Out.push_back(std::move(M));
    }
  }
}

void trimToJob(OptRemark &R, llvm::StringRef JobFunction) {
  std::vector<SourceFrame> &Fr = R.Origin.Frames;
  for (size_t I = Fr.size(); I-- > 0;)
    if (Fr[I].Function == JobFunction) {
      Fr.resize(I + 1);
      return;
    }
}

std::vector<RemarkGroup> groupRemarks(const std::vector<OptRemark> &Remarks) {
  std::vector<RemarkGroup> Groups;
  std::unordered_map<std::string, size_t> Index;
  for (const OptRemark &R : Remarks) {
    auto [It, New] = Index.try_emplace(remarkGroupKey(R), Groups.size());
    if (New)
      Groups.push_back({&R, 0});
    ++Groups[It->second].Count;
  }
  return Groups;
}

uint32_t remarkLineInFile(const OptRemark &R, std::string_view OpenFile) {
  const std::vector<SourceFrame> &Fr = R.Origin.Frames;
  for (size_t I = Fr.size(); I-- > 0;)
    if (Fr[I].Line && sameSourceFile(Fr[I].File, OpenFile))
      return Fr[I].Line;
  return 0;
}

std::string formatRemark(const OptRemark &R, size_t Count) {
  static constexpr std::array<const char *, 3> Flags = {
      "-Rpass", "-Rpass-missed", "-Rpass-analysis"};
  std::string S;
  const std::vector<SourceFrame> &Fr = R.Origin.Frames;
  if (!Fr.empty()) {
    const SourceFrame &Own = Fr.back();
    // A function-level remark has the subprogram's line and no column:
    // print `file:line:` as GNU tools do rather than a column 0.
    S += Own.File + ":" + std::to_string(Own.Line) + ":";
    if (Own.Col)
      S += std::to_string(Own.Col) + ":";
    S += " ";
  } else {
    S += R.Function + ": ";
  }
  S += "remark: " + R.Message + " [" +
       Flags[static_cast<size_t>(R.Kind)] + "=" + R.Pass + "]";
  // On the host the kernel is inlined into its launch wrappers too, each
  // a copy LLVM optimises on its own: say which copy, or the lines repeat.
  if (llvm::StringRef(R.Function).startswith("jfptr_"))
    S += " in " + R.Function;
  if (Count > 1)
    S += " (x" + std::to_string(Count) + ")";
  if (Fr.size() > 1) {
    S += "\n  inlined from " + Fr[0].Function + " at " + placeOf(Fr[0]);
    for (size_t I = 1; I + 1 < Fr.size(); ++I)
      S += " via " + Fr[I].Function + " at " + placeOf(Fr[I]);
  }
  return S;
}

std::string summarizeRemarks(const std::vector<OptRemark> &Remarks) {
  std::array<size_t, 3> Count = countRemarks(Remarks);
  std::string S;
  for (RemarkKind K : AllRemarkKinds) {
    size_t N = Count[static_cast<size_t>(K)];
    if (!N)
      continue;
    if (!S.empty())
      S += ", ";
    S += std::string(remarkKindName(K)) + " " + std::to_string(N);
  }
  return S.empty() ? "none" : S;
}

} // namespace prism
