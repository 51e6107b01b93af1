//===- Inference.cpp - MethodInstances, the inference stack, toplevel -----===//
//
// Interning of MethodInstances, inference of one instance to a fixed point
// (with recursion handled as Julia does: a callee already on the stack
// answers with its current approximation and the cycle's head iterates until
// that approximation is stable), publication of CodeInstances with their
// backedges, and the batch entry point that returns the closed set codegen
// needs.
//
//===----------------------------------------------------------------------===//

#include "infer/InferenceImpl.h"
#include "infer/SlotWebs.h"
#include "lang/AST.h"
#include "prelude/Embedded.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <atomic>
#include <unordered_set>

namespace prism {

using namespace infer;

namespace infer {

bool MIKeyEq::operator()(MIKeyRef A, MIKeyRef B) const {
  if (A.M != B.M || A.InBounds != B.InBounds ||
      !std::equal(A.Sig.begin(), A.Sig.end(), B.Sig.begin(), B.Sig.end()) ||
      A.ConstArgs.size() != B.ConstArgs.size())
    return false;
  for (size_t I = 0; I < A.ConstArgs.size(); ++I) {
    if (A.ConstArgs[I].has_value() != B.ConstArgs[I].has_value())
      return false;
    if (A.ConstArgs[I] && !(*A.ConstArgs[I] == *B.ConstArgs[I]))
      return false;
  }
  return true;
}

namespace {
size_t mixHash(size_t H, size_t V) {
  return H ^ (V + 0x9e3779b97f4a7c15ULL + (H << 6) + (H >> 2));
}

/// Hashes what operator== compares: the type, the constant, the fields.
size_t hashLattice(size_t H, const LatticeType &L) {
  H = mixHash(H, std::hash<const void *>()(L.T));
  if (L.Const)
    H = mixHash(H, (size_t(L.Const->K) << 56) ^ L.Const->Bits ^
                       std::hash<const void *>()(L.Const->Name.opaque()));
  if (L.Fields)
    for (const LatticeType &F : *L.Fields)
      H = hashLattice(H, F);
  return H;
}
} // namespace

size_t MIKeyHash::operator()(MIKeyRef K) const {
  size_t H = std::hash<const void *>()(K.M);
  for (Type *T : K.Sig)
    H = mixHash(H, std::hash<const void *>()(T));
  H = mixHash(H, K.InBounds);
  for (const auto &C : K.ConstArgs)
    if (C)
      H = hashLattice(H, *C);
  return H;
}

size_t DispatchKeyHash::operator()(DispatchKeyRef K) const {
  return llvm::hash_combine(K.F, llvm::hash_combine_range(K.Sig.begin(), K.Sig.end()));
}

void Frame::reset(size_t N) {
  States.assign(N, std::nullopt);
  Reached.assign(N, false);
  SSATypes.assign(N, LatticeType());
  Invokes.assign(N, nullptr);
  Builtins.assign(N, Builtin::None);
  ArgTypes.assign(N, {});
  StmtEdges.assign(N, {});
  StmtErrors.assign(N, {});
  FailedLookups.clear();
  UndefinedNames.clear();
  NeedsConstArgs = false;
  MinWorld = 0;
  MaxWorld = WorldInfinity;
}

} // namespace infer

namespace {
TypeContext &ctx() { return TypeContext::get(); }

/// The callee type a spec's function is called with.
Type *calleeTypeOf(GenericFunction *F) {
  if (F->ConstructorOf)
    return ctx().typeOfType(ctx().bareType(F->ConstructorOf));
  return F->type();
}

LatticeType resultOf(const CodeInstance &CI) {
  LatticeType L(CI.ReturnType ? CI.ReturnType : ctx().bottom());
  L.Const = CI.ReturnConst;
  L.Fields = CI.ReturnFields;
  return L;
}
} // namespace

MethodInstance *InferenceEngine::Impl::internMI(
    Method *M, std::span<Type *const> Sig, std::span<Type *const> Sparams,
    bool InBounds, std::vector<std::optional<LatticeType>> ConstArgs) {
  std::lock_guard<std::mutex> G(TableLock);
  auto It = MIs.find(MIKeyRef(M, Sig, InBounds, ConstArgs));
  if (It != MIs.end())
    return It->second.get();
  MIKey K{M, {Sig.begin(), Sig.end()}, InBounds, std::move(ConstArgs)};
  auto MI = std::make_unique<MethodInstance>();
  MI->Def = M;
  MI->Sig = K.Sig;
  MI->SparamValues.assign(Sparams.begin(), Sparams.end());
  MI->InBounds = InBounds;
  MI->ConstArgs = K.ConstArgs;
  MethodInstance *Raw = MI.get();
  ByFunc[M->Func].push_back(Raw);
  MIs.emplace(std::move(K), std::move(MI));
  return Raw;
}

const LookupResult &InferenceEngine::Impl::lookup(GenericFunction *GF,
                                                  std::span<Type *const> Sig,
                                                  World W) {
  assert(W == DispatchWorld && "inferToplevel sets the lookup table's world");
  auto It = Dispatch.find(DispatchKeyRef(GF, Sig));
  if (It == Dispatch.end())
    It = Dispatch
             .emplace(DispatchKey{GF, {Sig.begin(), Sig.end()}}, GF->lookup(Sig, W))
             .first;
  return It->second;
}

bool InferenceEngine::Impl::usesBoundsCheck(const Method *M) {
  {
    std::lock_guard<std::mutex> G(TableLock);
    auto It = BoundsCheckUse.find(M);
    if (It != BoundsCheckUse.end())
      return It->second;
  }
  // A @propagate_inbounds method passes the promise on to what it calls.
  bool Uses = M->PropagateInbounds;
  if (M->Lowered)
    for (const Stmt &S : M->Lowered->Code) {
      if (S.K != StmtKind::Call || S.Args.empty())
        continue;
      const IRValue &C = S.Args[0];
      if ((C.K == IRValue::Global && C.Name.str() == "boundscheck") ||
          (C.K == IRValue::Const && C.C.K == ConstValue::Func && C.C.Fn &&
           C.C.Fn->BuiltinId == Builtin::BoundsCheck))
        Uses = true;
    }
  std::lock_guard<std::mutex> G(TableLock);
  BoundsCheckUse[M] = Uses;
  return Uses;
}

LatticeType InferenceEngine::Impl::callMI(Frame &Caller, MethodInstance *MI,
                                          CodeInstance **OutCI,
                                          unsigned ConstDepth,
                                          std::string *Error) {
  *OutCI = nullptr;
  if (CodeInstance *CI = MI->cachedIn(Caller.W)) {
    Caller.narrowWorlds(CI->MinWorld, CI->MaxWorld.load());
    *OutCI = CI;
    return resultOf(*CI);
  }
  auto PIt = Provisional.find(MI);
  if (PIt != Provisional.end()) {
    Caller.CycleHead = std::min(Caller.CycleHead, PIt->second.Head);
    *OutCI = PIt->second.CI.get();
    return resultOf(*PIt->second.CI);
  }
  for (size_t K = 0; K < Stack.size(); ++K)
    if (Stack[K]->MI == MI) {
      // Recursion: answer with the current approximation; the head of the
      // cycle iterates until it no longer changes.
      Stack[K]->ReferencedRecursively = true;
      Caller.CycleHead = std::min(Caller.CycleHead, K);
      return Stack[K]->Return.T ? Stack[K]->Return : bottomLattice();
    }
  if (Stack.size() >= MaxInferDepth) {
    // Name the method, not the instance: its signature may be huge.
    *Error = "inference of " + MI->Def->signatureString() + " nests " +
             std::to_string(MaxInferDepth) +
             " calls deep (a recursion whose argument types grow without "
             "bound?)";
    return bottomLattice();
  }
  CodeInstance *CI = inferMI(MI, Caller.W, ConstDepth);
  auto P2 = Provisional.find(MI);
  if (P2 != Provisional.end())
    Caller.CycleHead = std::min(Caller.CycleHead, P2->second.Head);
  else
    Caller.narrowWorlds(CI->MinWorld, CI->MaxWorld.load());
  *OutCI = CI;
  return resultOf(*CI);
}

CodeInstance *InferenceEngine::Impl::inferMI(MethodInstance *MI, World W,
                                             unsigned ConstDepth) {
  assert(MI->Def && MI->Def->Lowered && "method without lowered code");
  Frame F;
  F.MI = MI;
  F.Src = MI->Def->Lowered.get();
  F.W = W;
  F.ConstDepth = ConstDepth;
  F.StackIndex = Stack.size();
  Stack.push_back(&F);

  LatticeType Seed = bottomLattice();
  const uint64_t StartSeq = ProvisionalSeq;
  for (unsigned Iter = 0;; ++Iter) {
    // Results parked by an earlier iteration were computed from a stale
    // approximation of this frame: those whose cycle this frame heads, and
    // any parked since it started (f3 of f1 → f2 → f3 → {f1, f2} is headed
    // by f1, but used f2's approximation when f2 iterates).
    for (auto It = Provisional.begin(); It != Provisional.end();)
      It = It->second.Head >= F.StackIndex || It->second.Seq >= StartSeq
               ? Provisional.erase(It)
               : std::next(It);
    F.Return = Seed;
    F.CycleHead = F.StackIndex;
    F.ReferencedRecursively = false;
    interpret(F);
    if (!F.ReferencedRecursively || F.Return == Seed)
      break;
    Seed = join(Seed, F.Return);
    if (Iter + 1 >= MaxCycleIterations / 2)
      Seed = widenConst(Seed);
    if (Iter + 1 >= MaxCycleIterations) {
      // A pathological recursion: stop with the top of the lattice and say so.
      F.FrameErrors.push_back(Diagnostic::error(
          "inference",
          "type inference of recursive " + MI->str() +
              " did not converge; its result is widened to Any",
          MI->Def->location()));
      Seed = anyLattice();
      F.Return = Seed;
      F.CycleHead = F.StackIndex;
      interpret(F);
      F.Return = anyLattice();
      break;
    }
  }
  Stack.pop_back();
  // A body with constructs the language lacks (splatting, `@assert`): its
  // parse errors are this method's, and its code is not what was written,
  // so nothing inferred from it is said; a call of it does not return.
  if (const ast::FunctionDef *D = MI->Def->Def; D && !D->Unsupported.empty()) {
    for (std::vector<Diagnostic> &E : F.StmtErrors)
      E.clear();
    F.FrameErrors.insert(F.FrameErrors.begin(), D->Unsupported.begin(),
                         D->Unsupported.end());
    F.Return = bottomLattice();
  }

  std::unique_ptr<CodeInstance> CI = finishFrame(F);
  CodeInstance *Raw = CI.get();
  if (F.CycleHead < F.StackIndex) {
    // Part of a cycle whose head is still iterating: park it (and the
    // members that depended on it) under that head.
    for (auto &[K, P] : Provisional)
      if (P.Head >= F.StackIndex)
        P.Head = F.CycleHead;
    Provisional[MI] =
        ProvisionalCI{std::move(CI), F.CycleHead, ProvisionalSeq++,
                      F.FailedLookups, F.UndefinedNames};
    return Raw;
  }
  // Converged: publish the cycle's members with it.
  std::vector<ProvisionalCI> Members;
  for (auto It = Provisional.begin(); It != Provisional.end();) {
    if (It->second.Head >= F.StackIndex) {
      Members.push_back(std::move(It->second));
      It = Provisional.erase(It);
    } else {
      ++It;
    }
  }
  publish(std::move(CI), F.FailedLookups, F.UndefinedNames);
  for (ProvisionalCI &P : Members)
    publish(std::move(P.CI), P.FailedLookups, P.UndefinedNames);
  return Raw;
}

std::unique_ptr<CodeInstance> InferenceEngine::Impl::finishFrame(Frame &F) {
  const CodeInfo &Src = *F.Src;
  const Method &M = *F.MI->Def;
  auto CI = std::make_unique<CodeInstance>();
  CI->MI = F.MI;
  CI->MinWorld = std::max(F.MinWorld, M.PrimaryWorld);
  World Deleted = M.DeletedWorld.load();
  World Max = F.MaxWorld;
  if (Deleted != WorldInfinity)
    Max = std::min(Max, Deleted - 1);
  CI->MaxWorld.store(Max);
  LatticeType Ret = F.Return.T ? F.Return : bottomLattice();
  CI->ReturnType = Ret.T;
  CI->ReturnConst = Ret.Const;
  CI->ReturnFields = Ret.Fields;
  CI->NeedsConstArgs = F.NeedsConstArgs;

  auto TC = std::make_shared<TypedCode>();
  size_t N = Src.Code.size();
  TC->Code = Src.Code;
  TC->Slots = Src.Slots;
  TC->NumArgs = Src.NumArgs;
  TC->File = Src.File;
  TC->SSATypes.resize(N, bottomLattice());
  // The frame is finished: its per-statement results move to the code.
  TC->Invokes = std::move(F.Invokes);
  TC->Builtins = std::move(F.Builtins);
  TC->ArgTypes = std::move(F.ArgTypes);
  TC->SlotFirstAssign.assign(Src.Slots.size(), UINT32_MAX);
  std::vector<LatticeType> SlotL(Src.Slots.size(), bottomLattice());
  for (size_t I = 0; I < SlotL.size() && I < F.MI->Sig.size() && I <= Src.NumArgs; ++I)
    SlotL[I] = LatticeType(F.MI->Sig[I]);

  llvm::SmallPtrSet<MethodInstance *, 16> SeenEdge;
  for (size_t PC = 0; PC < N; ++PC) {
    Stmt &S = TC->Code[PC];
    if (!F.Reached[PC]) {
      // Never reached: not inferred, and removed so codegen never sees it.
      // Its only errors are names defined nowhere, found after the first.
      for (Diagnostic &D : F.StmtErrors[PC])
        CI->Errors.push_back(std::move(D));
      S.K = StmtKind::Nop;
      S.Args.clear();
      TC->Invokes[PC] = nullptr;
      TC->Builtins[PC] = Builtin::None;
      TC->ArgTypes[PC].clear();
      continue;
    }
    for (Diagnostic &D : F.StmtErrors[PC])
      CI->Errors.push_back(std::move(D));
    for (MethodInstance *E : F.StmtEdges[PC])
      if (SeenEdge.insert(E).second)
        CI->Edges.push_back(E);
    switch (S.K) {
    case StmtKind::Call:
      TC->SSATypes[PC] = F.SSATypes[PC].T ? F.SSATypes[PC] : bottomLattice();
      break;
    case StmtKind::Assign:
      TC->SSATypes[PC] = F.SSATypes[PC].T ? F.SSATypes[PC] : bottomLattice();
      if (S.Slot < SlotL.size() && !TC->SSATypes[PC].isBottom()) {
        SlotL[S.Slot] = join(SlotL[S.Slot], TC->SSATypes[PC]);
        if (TC->SlotFirstAssign[S.Slot] == UINT32_MAX && S.Slot > Src.NumArgs)
          TC->SlotFirstAssign[S.Slot] = PC;
      }
      break;
    case StmtKind::GotoIfNot: {
      // A constant condition decides the branch at compile time.
      const auto &C = TC->ArgTypes[PC];
      if (!C.empty() && C[0].Const && C[0].Const->K == ConstValue::Bool) {
        if (C[0].Const->Bits) {
          S.K = StmtKind::Nop;
          S.Args.clear();
        } else {
          S.K = StmtKind::Goto;
          S.Args.clear();
        }
        TC->ArgTypes[PC].clear();
      }
      break;
    }
    default:
      break;
    }
  }
  TC->SlotTypes.reserve(SlotL.size());
  for (const LatticeType &L : SlotL)
    TC->SlotTypes.push_back(L.T ? L.T : ctx().bottom());
  splitSlotWebs(*TC, F.MI->Sig);
  for (Diagnostic &D : F.FrameErrors)
    CI->Errors.push_back(std::move(D));
  CI->Code = std::move(TC);
  return CI;
}

void InferenceEngine::Impl::publish(
    std::unique_ptr<CodeInstance> CI,
    const std::vector<std::pair<GenericFunction *, std::vector<Type *>>> &Failed,
    const std::vector<Symbol> &Undefined) {
  MethodInstance *MI = CI->MI;
  CodeInstance *Raw = MI->addCodeInstance(std::move(CI));
  for (MethodInstance *Callee : Raw->Edges)
    Callee->addBackedge(Raw);
  if (!Failed.empty() || !Undefined.empty()) {
    std::lock_guard<std::mutex> G(TableLock);
    for (const auto &[GF, Sig] : Failed)
      Missing[GF].emplace_back(Sig, Raw);
    for (Symbol Name : Undefined)
      MissingNames[Name].push_back(Raw);
  }
}

static std::atomic<uint64_t> EngineSerials{0};

InferenceEngine::InferenceEngine(GlobalEnv &Env, CheckBounds Bounds)
    : Env(Env), P(std::make_unique<Impl>(Env, Bounds)),
      Serial(EngineSerials.fetch_add(1, std::memory_order_relaxed) + 1) {}
InferenceEngine::~InferenceEngine() = default;

CheckBounds InferenceEngine::checkBounds() const { return P->Bounds; }

const char *checkBoundsName(CheckBounds C) {
  switch (C) {
  case CheckBounds::Auto:
    return "auto";
  case CheckBounds::Yes:
    return "yes";
  case CheckBounds::No:
    return "no";
  }
  return "auto";
}

const char *checkBoundsMeaning(CheckBounds C) {
  switch (C) {
  case CheckBounds::Auto:
    return "skipped inside @inbounds";
  case CheckBounds::Yes:
    return "everywhere, @inbounds too";
  case CheckBounds::No:
    return "nowhere (all @inbounds)";
  }
  return "";
}

MethodInstance *InferenceEngine::methodInstance(Method *M,
                                                std::span<Type *const> Sig,
                                                std::span<Type *const> Sparams,
                                                bool InBounds) {
  return P->internMI(M, Sig, Sparams, InBounds);
}

namespace {
/// Where in Parent the call to Callee is (for backtraces).
DiagLoc callSiteIn(const CodeInstance &Parent, const MethodInstance *Callee) {
  const TypedCode &C = *Parent.Code;
  for (size_t PC = 0; PC < C.Code.size(); ++PC)
    if (C.Invokes[PC] == Callee)
      return DiagLoc::fromRange(C.File, C.Code[PC].Range);
  return Parent.MI->Def->location();
}
} // namespace

llvm::Expected<InferResult>
InferenceEngine::inferToplevel(std::span<const FunctionSpec> Specs, World W) {
  std::lock_guard<std::recursive_mutex> G(P->InferLock);
  // Lookups of another world, or made before methods were added or deleted
  // (they moved the bounds of each answer's world range), start afresh.
  if (W != P->DispatchWorld || P->Env.currentWorld() != P->DispatchEnvWorld) {
    P->Dispatch.clear();
    P->DispatchWorld = W;
    P->DispatchEnvWorld = P->Env.currentWorld();
  }
  InferResult Result;
  Result.W = W;
  Result.Bounds = P->Bounds;
  std::vector<Diagnostic> Diags;

  for (const FunctionSpec &Spec : Specs) {
    assert(Spec.Func && Spec.ArgTuple && "incomplete FunctionSpec");
    std::vector<Type *> Sig{calleeTypeOf(Spec.Func)};
    for (Type *T : Spec.ArgTuple->params())
      Sig.push_back(T);
    // The same limit as a call's (a 40-deep NTuple{2, ...} in a SIG is
    // 2^40 elements, which printing alone would not survive).
    if (llvm::any_of(Sig, [](Type *T) {
          return typeDepth(T, MaxArgTypeDepth) > MaxArgTypeDepth;
        })) {
      Diags.push_back(Diagnostic::error(
          "inference",
          "an argument type of `" + Spec.Func->Name.string() +
              "` nests more than " + std::to_string(MaxArgTypeDepth) +
              " levels deep, past Prism's limit",
          {}));
      continue;
    }
    const LookupResult &LR = P->lookup(Spec.Func, Sig, W);
    if (LR.Status != LookupStatus::Found) {
      Diags.push_back(dispatchDiagnostic(*Spec.Func, Sig, LR, {}));
      continue;
    }
    MethodInstance *MI =
        P->internMI(LR.Match.M, Sig, LR.Match.SparamValues, false);
    CodeInstance *CI = MI->cachedIn(W);
    if (!CI)
      CI = P->inferMI(MI, W, 0);
    Result.Roots.push_back(CI);
  }

  // The closure through Edges, callers before callees (depth-first preorder
  // from each root in order), each once.
  std::unordered_map<CodeInstance *, CodeInstance *> Parent;
  std::unordered_set<CodeInstance *> Seen;
  std::vector<CodeInstance *> Todo(Result.Roots.rbegin(), Result.Roots.rend());
  while (!Todo.empty()) {
    CodeInstance *CI = Todo.back();
    Todo.pop_back();
    if (!Seen.insert(CI).second)
      continue;
    Result.All.push_back(CI);
    for (auto It = CI->Edges.rbegin(); It != CI->Edges.rend(); ++It) {
      CodeInstance *Callee = (*It)->cachedIn(W);
      if (!Callee)
        Callee = P->inferMI(*It, W, 0);
      if (!Seen.count(Callee)) {
        Parent.emplace(Callee, CI);
        Todo.push_back(Callee);
      }
    }
  }

  for (CodeInstance *CI : Result.All)
    for (const Diagnostic &E : CI->Errors) {
      Diagnostic D = E;
      D.Backtrace.push_back({std::string(CI->MI->Def->Name.str()), E.Loc});
      for (CodeInstance *C = CI; Parent.count(C); C = Parent[C]) {
        CodeInstance *Up = Parent[C];
        D.Backtrace.push_back(
            {std::string(Up->MI->Def->Name.str()), callSiteIn(*Up, C->MI)});
      }
      placeInUserCode(D, isPreludePath);
      Diags.push_back(std::move(D));
    }
  if (!Diags.empty())
    return makeDiagError(std::move(Diags));
  return Result;
}

} // namespace prism
