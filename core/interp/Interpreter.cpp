// Frames, threads and the block scheduler of the reference interpreter.
#include "interp/Interpreter.h"

#include "codegen/Runtime.h"
#include "interp/InterpImpl.h"
#include "types/ShowError.h"

#include "llvm/Support/Path.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>

namespace prism {

using namespace interp;

namespace {

/// One activation: a CodeInstance's typed IR with its slots and SSA values.
struct Frame {
  CodeInstance *CI = nullptr;
  const TypedCode *Code = nullptr;
  std::vector<std::optional<Value>> Slots; ///< unset: not assigned yet
  std::vector<Value> SSA;
  uint32_t PC = 0;
};

/// Why a thread stopped running.
enum class ThreadState { Runnable, AtBarrier, Done };

struct Thread {
  uint32_t Idx[3] = {0, 0, 0};
  std::vector<Frame> Stack;
  ThreadState State = ThreadState::Runnable;
  Value Result;
};

/// A failed launch: an exception or a fault, located, with its thread.
struct Failure {
  bool IsException = false;
  std::string What; ///< exception type name, or the fault's message
  std::string Detail; ///< the exception's showerror text (ThrownException)
  std::string Note;   ///< a fault's explanation, when it has one
  std::string File;
  unsigned Line = 0, Col = 0;
  uint32_t Thread[3] = {0, 0, 0}, Block[3] = {0, 0, 0};
  /// The calls on the thread's stack, innermost first: of a deep
  /// recursion, the innermost MaxInnerFrames and the outermost
  /// MaxOuterFrames, the calls between counted as the gap's OmittedAfter.
  std::vector<BacktraceFrame> Stack;
};

/// The frames a failure's stacktrace lists of a deep recursion (it has
/// thousands), as the host device records them.
constexpr size_t MaxInnerFrames = 64, MaxOuterFrames = 16;

class Machine {
public:
  Machine(World W, const InterpOptions &Opts, Dim3 Grid, Dim3 Block)
      : W(W), Opts(Opts) {
    Ctx.Mem = &Mem;
    Ctx.BlockDim[0] = Block.X, Ctx.BlockDim[1] = Block.Y, Ctx.BlockDim[2] = Block.Z;
    Ctx.GridDim[0] = Grid.X, Ctx.GridDim[1] = Grid.Y, Ctx.GridDim[2] = Grid.Z;
    Ctx.SharedArray = [this](uint64_t Bytes, uint64_t ElemBytes) {
      // Each call path is its own array, as the compiled code copies a
      // function that allocates (CuStaticSharedArray, and a helper it
      // inlines into) per call site: two `CuStaticSharedArray(Float32, 4)`
      // in one kernel are two arrays, though both run the prelude's one
      // `shared_array`. (A @noinline helper that calls another such helper
      // is not copied: called twice, it shares one array where this path
      // gives two.)
      std::vector<std::pair<const TypedCode *, uint32_t>> Path;
      for (const Frame &F : Running->Stack)
        Path.emplace_back(F.Code, F.PC);
      SharedBuffer &S = Shared[std::move(Path)];
      if (S.Bytes.empty()) {
        S.Bytes.assign(Bytes ? Bytes : 1, 0);
        S.Base =
            Mem.map(S.Bytes.data(), Bytes, {"a shared array", ElemBytes, {}});
      }
      return S.Base;
    };
  }

  Memory Mem;
  std::optional<Failure> Failed;

  /// Runs every block of the grid, threads of a block round-robin between
  /// barriers. Returns thread (0,0,0) of block (0,0,0)'s result.
  Value runGrid(CodeInstance &Root, const std::vector<Value> &Args) {
    Value First;
    for (uint32_t BZ = 0; BZ < Ctx.GridDim[2] && !Failed; ++BZ)
      for (uint32_t BY = 0; BY < Ctx.GridDim[1] && !Failed; ++BY)
        for (uint32_t BX = 0; BX < Ctx.GridDim[0] && !Failed; ++BX) {
          Ctx.BlockIdx[0] = BX, Ctx.BlockIdx[1] = BY, Ctx.BlockIdx[2] = BZ;
          Value R = runBlock(Root, Args);
          if (BX == 0 && BY == 0 && BZ == 0)
            First = std::move(R);
        }
    return First;
  }

private:
  World W;
  InterpOptions Opts;
  BuiltinContext Ctx;
  uint64_t Steps = 0;
  struct SharedBuffer {
    std::vector<uint8_t> Bytes;
    uint64_t Base = 0; ///< its device address
  };
  /// By call path: each frame's code and statement, the kernel's first.
  std::map<std::vector<std::pair<const TypedCode *, uint32_t>>, SharedBuffer>
      Shared;
  const Thread *Running = nullptr; ///< the thread evaluating a builtin

  Value runBlock(CodeInstance &Root, const std::vector<Value> &Args) {
    for (auto &[Key, Buf] : Shared)
      Mem.unmap(Buf.Base);
    Shared.clear();
    std::deque<Thread> Threads;
    for (uint32_t Z = 0; Z < Ctx.BlockDim[2]; ++Z)
      for (uint32_t Y = 0; Y < Ctx.BlockDim[1]; ++Y)
        for (uint32_t X = 0; X < Ctx.BlockDim[0]; ++X) {
          Thread &T = Threads.emplace_back();
          T.Idx[0] = X, T.Idx[1] = Y, T.Idx[2] = Z;
          std::vector<Value> Call;
          Call.push_back(Value::singleton(
              TypeContext::get().functionType(Root.MI->Def->Func)));
          Call.insert(Call.end(), Args.begin(), Args.end());
          pushFrame(T, Root, Call);
        }
    // Round-robin: each runnable thread runs until it finishes or reaches
    // the barrier; when none is runnable, the barrier opens.
    for (;;) {
      bool Waiting = false;
      for (Thread &T : Threads) {
        if (T.State != ThreadState::Runnable)
          continue;
        run(T);
        if (Failed)
          return Value();
        Waiting |= T.State == ThreadState::AtBarrier;
      }
      if (!Waiting)
        break;
      if (!checkBarrier(Threads))
        return Value();
      for (Thread &T : Threads)
        if (T.State == ThreadState::AtBarrier)
          T.State = ThreadState::Runnable;
    }
    return std::move(Threads.front().Result);
  }

  /// Whether two threads wait at the same sync_threads(): the same
  /// statement in every frame (the top frame's PC is past the call).
  static bool sameBarrier(const Thread &A, const Thread &B) {
    return std::equal(A.Stack.begin(), A.Stack.end(), B.Stack.begin(),
                      B.Stack.end(), [](const Frame &X, const Frame &Y) {
                        return X.Code == Y.Code && X.PC == Y.PC;
                      });
  }

  /// With some thread of the block at a barrier, every other one must wait
  /// at the same sync_threads(): one that returned, or waits at another,
  /// leaves a GPU's block hung or synchronised wrongly (CUDA allows a
  /// barrier under a branch only where the branch goes the same way in
  /// the whole block). Fails the launch at the first waiter's barrier.
  bool checkBarrier(std::deque<Thread> &Threads) {
    Thread *Waiter = nullptr;
    const Thread *Other = nullptr;
    for (Thread &T : Threads)
      if (T.State == ThreadState::AtBarrier && !Waiter)
        Waiter = &T;
    for (const Thread &T : Threads)
      if (T.State == ThreadState::Done ||
          (T.State == ThreadState::AtBarrier && !sameBarrier(T, *Waiter))) {
        Other = &T;
        break;
      }
    if (!Other)
      return true;
    std::string What =
        "sync_threads() not reached by every thread of the block: thread " +
        dim3Text(Other->Idx) +
        (Other->State == ThreadState::Done
             ? " returned without it"
             : " waits at another sync_threads()");
    Frame &Top = Waiter->Stack.back();
    --Top.PC; // back on the sync_threads() call, to locate it
    fail(*Waiter, false, std::move(What), &Top);
    Failed->Note =
        "on a GPU the block would hang or synchronise the wrong threads: a "
        "barrier may sit under a branch only where the branch goes the same "
        "way in the whole block (CUDA's rule for __syncthreads)";
    return false;
  }

  void pushFrame(Thread &T, CodeInstance &CI, const std::vector<Value> &Call) {
    Frame F;
    F.CI = &CI;
    F.Code = CI.Code.get();
    F.Slots.resize(F.Code->Slots.size());
    for (size_t I = 0; I < Call.size() && I < F.Slots.size(); ++I)
      F.Slots[I] = Call[I];
    F.SSA.resize(F.Code->Code.size());
    T.Stack.push_back(std::move(F));
  }

  void fail(Thread &T, bool IsException, std::string What, const Frame *At,
            std::string File = {}, unsigned Line = 0) {
    Failure F;
    F.IsException = IsException;
    F.What = std::move(What);
    F.File = std::move(File);
    F.Line = Line;
    // Located as the compiled code reports it: in the innermost frame
    // outside the prelude (a BoundsError is the user's `a[i]`, not the
    // prelude's throw), else where it happened.
    if (At && F.File.empty()) {
      const Frame *Loc = At;
      for (auto It = T.Stack.rbegin(); It != T.Stack.rend(); ++It)
        if (!(It->CI->MI->Def && It->CI->MI->Def->IsPrelude)) {
          Loc = &*It;
          break;
        }
      DiagLoc L = stackFrame(*Loc).Loc;
      F.File = L.FileName;
      F.Line = L.Line;
      F.Col = L.Col;
    }
    const size_t N = T.Stack.size();
    const bool Cut = N > MaxInnerFrames + MaxOuterFrames;
    for (size_t K = 0; K < N; ++K) {
      if (Cut && K == MaxInnerFrames) {
        const size_t Omitted = N - MaxInnerFrames - MaxOuterFrames;
        F.Stack.back().OmittedAfter = Omitted;
        K += Omitted;
      }
      F.Stack.push_back(stackFrame(T.Stack[N - 1 - K]));
    }
    std::copy(T.Idx, T.Idx + 3, F.Thread);
    std::copy(Ctx.BlockIdx, Ctx.BlockIdx + 3, F.Block);
    Failed = std::move(F);
  }

  /// A frame as a stacktrace lists it: its function and the statement it
  /// is at (a caller's is the call).
  static BacktraceFrame stackFrame(const Frame &Fr) {
    BacktraceFrame B;
    const Method *Def = Fr.CI->MI->Def;
    B.Function = Def && Def->Func ? Def->Func->Name.string() : Fr.CI->MI->str();
    if (Fr.Code->File && !Fr.Code->Code.empty()) {
      const Stmt &S =
          Fr.Code->Code[std::min<size_t>(Fr.PC, Fr.Code->Code.size() - 1)];
      B.Loc.FileName = Fr.Code->File->name();
      if (S.Range.valid()) {
        LineCol LC = Fr.Code->File->lineCol(S.Range.Begin);
        B.Loc.Line = LC.Line;
        B.Loc.Col = LC.Col;
      }
    }
    return B;
  }

  /// The value of an IR operand in the top frame (nullopt: failed).
  std::optional<Value> operand(Thread &T, Frame &F, unsigned I, unsigned K) {
    const IRValue &V = F.Code->Code[I].Args[K];
    switch (V.K) {
    case IRValue::SSA:
      return F.SSA[V.Index];
    case IRValue::Slot:
      if (V.Index < F.Slots.size() && F.Slots[V.Index])
        return *F.Slots[V.Index];
      fail(T, true, "UndefVarError", &F);
      if (V.Index < F.Code->Slots.size())
        Failed->Detail = undefVarErrorText(F.Code->Slots[V.Index].Name.str());
      return std::nullopt;
    case IRValue::Const:
      return constantValue(V.C);
    case IRValue::StaticParam: case IRValue::Global:
      if (I < F.Code->ArgTypes.size() && K < F.Code->ArgTypes[I].size() &&
          F.Code->ArgTypes[I][K].Const)
        return constantValue(*F.Code->ArgTypes[I][K].Const);
      fail(T, false, "a global or static parameter inference did not resolve", &F);
      return std::nullopt;
    case IRValue::None:
      return Value::singleton(TypeContext::get().nothing());
    }
    return std::nullopt;
  }

  /// Runs T until it returns from its entry, reaches a barrier or fails.
  void run(Thread &T) {
    std::copy(T.Idx, T.Idx + 3, Ctx.ThreadIdx);
    while (!Failed) {
      Frame &F = T.Stack.back();
      const TypedCode &Code = *F.Code;
      if (F.PC >= Code.Code.size()) {
        fail(T, false, "control reached the end of the code without a return", &F);
        return;
      }
      if (++Steps > Opts.MaxSteps) {
        fail(T, false, "the interpreter's limit of " + std::to_string(Opts.MaxSteps) +
                           " statements was reached (does the program terminate?)",
             &F);
        return;
      }
      const unsigned I = F.PC;
      const Stmt &S = Code.Code[I];
      switch (S.K) {
      case StmtKind::Nop:
        ++F.PC;
        break;
      case StmtKind::Goto:
        F.PC = S.Label;
        break;
      case StmtKind::GotoIfNot: {
        auto C = operand(T, F, I, 0);
        if (!C)
          return;
        F.PC = (C->Bits & 1) ? I + 1 : S.Label;
        break;
      }
      case StmtKind::Assign: {
        auto V = operand(T, F, I, 0);
        if (!V)
          return;
        F.SSA[I] = *V;
        F.Slots[S.Slot] = std::move(*V);
        ++F.PC;
        break;
      }
      case StmtKind::NewVar: // a loop-local's new iteration: unassigned
        if (S.Slot < F.Slots.size())
          F.Slots[S.Slot].reset();
        ++F.PC;
        break;
      case StmtKind::Return: {
        auto V = operand(T, F, I, 0);
        if (!V)
          return;
        T.Stack.pop_back();
        if (T.Stack.empty()) {
          T.Result = std::move(*V);
          T.State = ThreadState::Done;
          return;
        }
        Frame &Caller = T.Stack.back();
        Caller.SSA[Caller.PC] = std::move(*V);
        ++Caller.PC;
        break;
      }
      case StmtKind::Call:
        if (!call(T, F, I))
          return;
        break;
      }
    }
  }

  /// Executes call statement I of the top frame. False when the thread
  /// stopped (barrier or failure).
  bool call(Thread &T, Frame &F, unsigned I) {
    const TypedCode &Code = *F.Code;
    const Stmt &S = Code.Code[I];
    Builtin B = I < Code.Builtins.size() ? Code.Builtins[I] : Builtin::None;
    MethodInstance *MI = I < Code.Invokes.size() ? Code.Invokes[I] : nullptr;
    if (B == Builtin::SyncThreads) {
      F.SSA[I] = Value::singleton(TypeContext::get().nothing());
      ++F.PC;
      T.State = ThreadState::AtBarrier;
      return false;
    }
    std::vector<Value> Args;
    Args.reserve(S.Args.size());
    for (unsigned K = B != Builtin::None ? 1 : 0; K < S.Args.size(); ++K) {
      auto V = operand(T, F, I, K);
      if (!V)
        return false;
      Args.push_back(std::move(*V));
    }
    if (B != Builtin::None) {
      Running = &T;
      BuiltinOutcome R = evalBuiltin(B, Code, I, Args, Ctx);
      if (auto *V = std::get_if<Value>(&R)) {
        F.SSA[I] = std::move(*V);
        ++F.PC;
        return true;
      }
      if (auto *E = std::get_if<Thrown>(&R)) {
        fail(T, true, E->TypeName, &F);
        Failed->Detail = std::move(E->Detail);
      } else
        fail(T, false, std::get<Fault>(R).Message, &F);
      return false;
    }
    if (!MI) {
      fail(T, false, "a dynamic call (its argument types are not concrete)", &F);
      return false;
    }
    CodeInstance *Callee = MI->cachedIn(W);
    if (!Callee || !Callee->Code) {
      fail(T, false, "no inferred code for " + MI->str() + " in this world", &F);
      return false;
    }
    if (T.Stack.size() >= Opts.MaxDepth) {
      // Placed as the host places it: at the recursion's call, not at
      // whichever call met the limit (`n == 0`, or `a[1]`'s prelude
      // frames). When the innermost user frame is a recursion's (its
      // method is below it), it and the prelude frames above it go; a
      // recursion inside the prelude keeps its frames, placed at the user's
      // call.
      size_t K = T.Stack.size();
      while (K > 0 && T.Stack[K - 1].CI->MI->Def &&
             T.Stack[K - 1].CI->MI->Def->IsPrelude)
        --K;
      if (K > 1) {
        const Method *User = T.Stack[K - 1].CI->MI->Def;
        if (std::any_of(
                T.Stack.begin(), T.Stack.begin() + (K - 1),
                [&](const Frame &Fr) { return Fr.CI->MI->Def == User; }))
          T.Stack.erase(T.Stack.begin() + (K - 1), T.Stack.end()); // F too
      }
      fail(T, true, "StackOverflowError", &T.Stack.back());
      return false;
    }
    pushFrame(T, *Callee, Args); // invalidates F
    return true;
  }
};

/// A host argument as a value of its signature type T.
/// Name says which argument it is, for faults (`argument 2 `b``).
llvm::Expected<Value> fromHost(const HostValue &H, Type *T,
                               std::vector<std::vector<uint8_t>> &Buffers,
                               Memory &Mem, const std::string &Name) {
  TypeContext &TC = TypeContext::get();
  switch (H.kind()) {
  case HostValue::Kind::Nothing:
  case HostValue::Kind::Function:
  case HostValue::Kind::Type:
    return Value::singleton(T);
  case HostValue::Kind::Scalar:
    return Value::prim(T, H.bits());
  case HostValue::Kind::Tuple: {
    Value V;
    V.T = T;
    for (size_t I = 0; I < H.elements().size(); ++I) {
      Type *ET = T->isTuple() ? T->param(I) : T->fieldTypes()[I];
      auto E = fromHost(H.elements()[I], ET, Buffers, Mem,
                        "element " + std::to_string(I + 1) + " of " + Name);
      if (!E)
        return E.takeError();
      V.Fields.push_back(std::move(*E));
    }
    return V;
  }
  case HostValue::Kind::Array: {
    // DeviceArray{T,N}: (ptr::Ptr{T}, dims::NTuple{N,Int}).
    if (!T->isStruct() || T->fieldTypes().size() != 2)
      return deviceError("argument", "an array argument of type " + T->str());
    std::vector<uint8_t> &Buf = Buffers.emplace_back(H.bytes().begin(), H.bytes().end());
    if (Buf.empty())
      Buf.reserve(1);
    Type *Elem = T->params().empty() ? nullptr : T->param(0);
    uint64_t ElemBytes =
        Elem && Elem->isPrimitive() ? (Elem->bitWidth() + 7) / 8 : 0;
    uint64_t Base =
        Mem.map(Buf.data(), H.bytes().size(),
                {Name, ElemBytes,
                 std::vector<int64_t>(H.dims().begin(), H.dims().end())});
    Value V;
    V.T = T;
    V.Fields.push_back(Value::prim(T->fieldTypes()[0], Base));
    Value Dims;
    Dims.T = T->fieldTypes()[1];
    for (int64_t D : H.dims())
      Dims.Fields.push_back(Value::prim(TC.int64(), static_cast<uint64_t>(D)));
    V.Fields.push_back(std::move(Dims));
    return V;
  }
  }
  return deviceError("argument", "an argument the interpreter cannot pass");
}

/// A result value as a host value (scalars, tuples of them, nothing).
std::optional<HostValue> toHost(const Value &V) {
  if (!V.T || V.T->isNothing())
    return HostValue();
  if (V.T->isFunctionType() && V.T->name()->Func)
    return HostValue::function(V.T->name()->Func->Name.string());
  if (V.T->isTypeType() && V.T->param(0)->isDataType())
    return HostValue::type(V.T->param(0)->str());
  if (V.T->isTuple() || (V.T->isStruct() && !V.T->isFunctionType())) {
    std::vector<HostValue> Elts;
    for (const Value &F : V.Fields) {
      auto E = toHost(F);
      if (!E)
        return std::nullopt;
      Elts.push_back(std::move(*E));
    }
    return aggregateOf(V.T, std::move(Elts));
  }
  if (V.T->isPrimitive())
    if (auto K = scalarKindFromName(V.T->str()))
      return HostValue::scalar(*K, V.Bits);
  return std::nullopt;
}

} // namespace

llvm::Expected<LaunchResult> interpret(CodeInstance &Root, World W,
                                       llvm::ArrayRef<HostValue> Args,
                                       Dim3 Grid, Dim3 Block,
                                       const InterpOptions &Opts) {
  if (!Root.Code || !Root.MI)
    return deviceError("load", "the entry has no inferred code");
  if (Block.count() == 0 || Grid.count() == 0)
    return deviceError("argument", "--blocks and --threads must be at least 1");
  if (Block.count() > 1024)
    return deviceError("argument", "a block has at most 1024 threads (CUDA's limit)");
  std::span<Type *const> Sig = Root.MI->Sig; // [0] is the callee type
  if (Sig.size() != Args.size() + 1)
    return deviceError("argument", "the call passes " + std::to_string(Args.size()) +
                                       " arguments to " + Root.MI->str());

  Machine M(W, Opts, Grid, Block);
  std::vector<std::vector<uint8_t>> Buffers;
  Buffers.reserve(Args.size());
  std::vector<Value> Vals;
  for (size_t I = 0; I < Args.size(); ++I) {
    std::string Name = "argument " + std::to_string(I + 1);
    const std::vector<Symbol> &ArgNames = Root.MI->Def->ArgNames;
    if (I < ArgNames.size() && !ArgNames[I].string().empty() &&
        ArgNames[I].str()[0] != '#')
      Name += " `" + ArgNames[I].string() + "`";
    auto V = fromHost(Args[I], Sig[I + 1], Buffers, M.Mem, Name);
    if (!V)
      return V.takeError();
    Vals.push_back(std::move(*V));
  }

  auto Start = std::chrono::steady_clock::now();
  Value Ret = M.runGrid(Root, Vals);
  double Ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - Start)
                  .count();

  if (M.Failed) {
    const Failure &F = *M.Failed;
    std::string Entry = Root.MI->Def->Func->Name.string();
    if (F.IsException) {
      ThrownException E;
      E.Kind = int32_t(throwKindForTypeName(F.What));
      E.TypeName = F.What;
      E.Detail = F.Detail;
      E.File = F.File;
      E.Line = int32_t(F.Line);
      E.Col = F.Col;
      std::copy(F.Thread, F.Thread + 3, E.Thread);
      std::copy(F.Block, F.Block + 3, E.Block);
      E.Stack = F.Stack;
      Diagnostic D = thrownDiagnostic(E, Grid, Block, Entry);
      return makeDiagError(std::move(D));
    }
    std::string Where = F.File.empty() ? std::string()
                                       : " at " + llvm::sys::path::filename(F.File).str() +
                                             ":" + std::to_string(F.Line);
    std::string Msg = "fault" + Where + ": " + F.What;
    if (Grid.count() * Block.count() > 1)
      Msg += " (thread " + dim3Text(F.Thread) + " of block " + dim3Text(F.Block) + ")";
    Msg += " in `" + userFunction(F.Stack, Entry) + "`";
    Diagnostic D = deviceDiagnostic("launch", std::move(Msg));
    if (!F.Note.empty())
      D.note(F.Note);
    D.Backtrace = F.Stack;
    collapseRepeats(D.Backtrace);
    if (!F.File.empty() && F.Line > 0) {
      D.Loc.FileName = F.File;
      D.Loc.Line = F.Line;
      D.Loc.Col = F.Col ? F.Col : 1;
    }
    return makeDiagError(std::move(D));
  }

  LaunchResult R;
  auto Host = toHost(Ret);
  if (!Host)
    return deviceError(
        "argument",
        "`" + Root.MI->str() + "` returns " + Ret.T->str() +
            "; the interpreter shows scalars, functions, types, and "
            "tuples and structs of them");
  R.Return = std::move(*Host);
  size_t B = 0;
  for (const HostValue &A : Args) {
    HostValue Out = A;
    if (A.isArray()) {
      std::copy(Buffers[B].begin(), Buffers[B].begin() + A.bytes().size(),
                Out.bytes().begin());
      ++B;
    }
    R.Args.push_back(std::move(Out));
  }
  R.TimeMs = Ms;
  R.TimeSource = "interpreter wall clock";
  return R;
}

} // namespace prism
