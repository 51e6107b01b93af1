#include "devices/CallRunner.h"

#include "devices/CallParser.h"
#include "devices/DeviceRegistry.h"
#include "interp/Interpreter.h"
#include "prelude/Embedded.h"
#include "targets/NativeTarget.h"
#include "targets/Target.h"
#include "types/Loader.h"
#include "types/NameSuggestion.h"
#include "types/Type.h"
#include "validate/Validator.h"

#include <algorithm>

namespace prism {

namespace {

/// The type of an argument as a signature names it. Arrays are
/// DeviceArrays, except on bpf where the packet is a pointer.
std::string argTypeName(const HostValue &V, llvm::StringRef Target) {
  if (V.isArray() && Target == "bpf")
    return std::string("Ptr{") + scalarName(V.scalarKind()) + "}";
  return V.typeName();
}

/// A value of type T (its shape), for reading the return value back.
std::optional<HostValue> shapeOf(Type *T) {
  // Union{}: the function never returns (it always throws); run it anyway
  // and let the launch report the exception.
  if (T->isNothing() || T->isBottom())
    return HostValue();
  // A function is its own singleton: nothing to read, its name to show.
  if (T->isFunctionType() && T->name()->Func)
    return HostValue::function(T->name()->Func->Name.string());
  // So is a type (`f() = Float32` returns `Type{Float32}`).
  if (T->isTypeType() && T->param(0)->isDataType())
    return HostValue::type(T->param(0)->str());
  // A struct is lowered like the tuple of its fields.
  if (T->isTuple() ||
      (T->isStruct() && T->isConcrete() && !T->isFunctionType())) {
    std::vector<HostValue> Elts;
    for (Type *E : T->isTuple() ? T->params() : T->fieldTypes()) {
      auto S = shapeOf(E);
      if (!S)
        return std::nullopt;
      Elts.push_back(std::move(*S));
    }
    return aggregateOf(T, std::move(Elts));
  }
  if (T->isPrimitive())
    if (auto K = scalarKindFromName(T->str()))
      return HostValue::scalar(*K, 0);
  return std::nullopt;
}

/// A constant of the program or of Base as a CALL names it: `N` of
/// `const N = 1024`, `Inf32`, `π` (the instance of `Irrational{:π}`), a
/// function constant, a number type (`const T = Float32`).
std::optional<CallConstant> constArgument(const GlobalEnv &Env,
                                          llvm::StringRef Name) {
  const ConstValue *C = Env.lookupConst(Symbol::get(Name.str()));
  if (!C)
    return std::nullopt;
  auto Value = [](std::optional<HostValue> V) -> std::optional<CallConstant> {
    if (!V)
      return std::nullopt;
    return CallConstant{std::move(*V), std::nullopt};
  };
  switch (C->K) {
  case ConstValue::Bool:
  case ConstValue::Int:
  case ConstValue::Float:
    if (auto K = scalarKindFromName(C->Ty->str()))
      return Value(HostValue::scalar(*K, C->Bits));
    return std::nullopt;
  case ConstValue::Func:
    return Value(HostValue::function(C->Fn->Name.string()));
  case ConstValue::Instance:
    return Value(shapeOf(C->Ty)); // a fieldless struct: its only value
  case ConstValue::TypeVal:
    if (C->TypeValue)
      if (auto K = scalarKindFromName(C->TypeValue->str()))
        return CallConstant{HostValue(), *K};
    return std::nullopt;
  default:
    return std::nullopt; // symbols are no arguments
  }
}

/// A struct of the program as a CALL may build it: concrete fields that
/// are scalars, tuples or structs of them (else the reason it cannot).
std::optional<StructShape> structShape(const GlobalEnv &Env,
                                       llvm::StringRef Name) {
  TypeName *N = Env.lookupType(Symbol::get(Name.str()));
  if (!N || N->Kind != TypeNameKind::Struct)
    return std::nullopt;
  // The prelude's structs (DeviceArray, the exceptions) are not the
  // program's: arrays have their constructors.
  if (N->File && llvm::StringRef(N->File->name()).startswith("prelude/"))
    return std::nullopt;
  StructShape S;
  S.TypeName = Name.str();
  if (!N->Params.empty()) {
    S.Why = "`" + S.TypeName +
            "` has type parameters; a CALL builds structs with concrete "
            "field types only";
    return S;
  }
  for (size_t I = 0; I < N->FieldNames.size(); ++I) {
    Type *FT = N->FieldTypes[I];
    if (!FT->isConcrete() || !shapeOf(FT) || FT->isNothing()) {
      S.Why = "`" + S.TypeName + "` cannot be built in a CALL: its field `" +
              std::string(N->FieldNames[I].str()) + "::" + FT->str() +
              "` is not a number, or a tuple or struct of numbers";
      return S;
    }
    S.FieldNames.emplace_back(N->FieldNames[I].str());
    S.FieldTypes.push_back(FT->str());
  }
  return S;
}

RunOutcome failure(RunStatus S, std::vector<Diagnostic> Ds) {
  RunOutcome O;
  O.Status = S;
  O.Diagnostics = std::move(Ds);
  return O;
}
RunOutcome failure(RunStatus S, llvm::Error E) {
  return failure(S, takeDiagnostics(std::move(E)));
}
RunOutcome failure(RunStatus S, std::string Kind, std::string Message) {
  return failure(S, {Diagnostic::error(std::move(Kind), std::move(Message), {})});
}

/// A failed launch's diagnostic names the function whose line threw,
/// AtLine (empty when the line is not in the program's own code). A device
/// without frames (cuda) names the entry symbol (`julia_shift!`, PTX's
/// `julia_shift_`), which the user knows as Launched. Where optimisation
/// merged two throws of one inlined callee, the line table has lost the
/// throw's place (its frames have line 0): it is put back as the innermost
/// user frame, as the interpreter lists it.
void nameThrowingFunction(Diagnostic &D, const std::string &AtLine,
                          llvm::StringRef Entry, llvm::StringRef Launched) {
  size_t In = D.Message.rfind(" in `");
  if (In == std::string::npos || D.Message.back() != '`')
    return;
  llvm::StringRef Named =
      llvm::StringRef(D.Message).drop_front(In + 5).drop_back();
  std::string Name = !AtLine.empty()  ? AtLine
                     : Named == Entry ? Launched.str()
                                      : Named.str();
  D.Message.replace(In, std::string::npos, " in `" + Name + "`");
  if (AtLine.empty() || D.Backtrace.empty() ||
      llvm::any_of(D.Backtrace, [&](const BacktraceFrame &F) {
        return F.Loc.FileName == D.Loc.FileName && F.Loc.Line == D.Loc.Line;
      }))
    return;
  auto User = llvm::find_if(D.Backtrace, [](const BacktraceFrame &F) {
    return !isPreludePath(F.Loc.FileName);
  });
  if (User != D.Backtrace.end() && User->Function == AtLine && !User->Loc.Line)
    User->Loc = D.Loc;
  else
    D.Backtrace.insert(User, {AtLine, D.Loc, User != D.Backtrace.end()});
}

/// "no method matching" for a CALL whose function has one method of that
/// many arguments: which arguments do not fit it, and what a Julia user
/// most often meant (`ones(1000)` is a Float64 array, `2.0` a Float64).
void addMismatchNotes(Diagnostic &D, const ParsedSignature &Call, World W) {
  if (D.Sev != Severity::Error ||
      !llvm::StringRef(D.Message).startswith("no method matching") ||
      !Call.Func)
    return;
  const Method *Only = nullptr;
  for (const Method *M : Call.Func->methodsIn(W))
    if (M->Sig.size() == Call.ArgTypes.size() + 1 && !M->IsPrelude) {
      if (Only)
        return; // several: Julia's candidates list says enough
      Only = M;
    }
  if (!Only)
    return;
  TypeContext &C = TypeContext::get();
  for (size_t I = 0; I < Call.ArgTypes.size(); ++I) {
    Type *Arg = Call.ArgTypes[I], *Want = Only->Sig[I + 1];
    // A parameter of the method's own (`a::T`) is decided by the other
    // arguments: Julia's candidate list says enough there.
    if (Want->hasTypeVars() || isSubtype(Arg, Want))
      continue;
    std::string Note = "argument " + std::to_string(I + 1) + " is " +
                       Arg->str() + ", where the method takes " + Want->str();
    auto ElementOf = [](Type *T) -> Type * {
      return T->isDataType() && T->name() &&
                     T->name()->Name.str() == "DeviceArray" &&
                     !T->params().empty()
                 ? T->params()[0]
                 : nullptr;
    };
    Type *ArgElt = ElementOf(Arg), *WantElt = ElementOf(Want);
    if (ArgElt == C.float64() && WantElt && WantElt != C.float64())
      Note += ": `ones(n)` and `zeros(n)` make Float64 arrays, as in Julia; "
              "give the element type: `ones(" +
              WantElt->str() + ", n)`";
    else if (Arg == C.float64() && Want == C.float32())
      Note += ": `2.0` is a Float64 literal; write `2.0f0`";
    else if (Arg == C.int64() && Want->isDataType() && Want->isInteger())
      Note +=
          ": an integer literal is an Int64; write `" + Want->str() + "(...)`";
    D.note(std::move(Note));
  }
}

/// Whether any code of the call's closure reads the thread or block index
/// or shape (the prelude's threadIdx() and friends are in the closure).
bool readsThreadIndex(const InferResult &R) {
  for (const CodeInstance *CI : R.All)
    if (CI->Code)
      for (Builtin B : CI->Code->Builtins)
        switch (B) {
        case Builtin::ThreadIdxX:
        case Builtin::ThreadIdxY:
        case Builtin::ThreadIdxZ:
        case Builtin::BlockIdxX:
        case Builtin::BlockIdxY:
        case Builtin::BlockIdxZ:
        case Builtin::BlockDimX:
        case Builtin::BlockDimY:
        case Builtin::BlockDimZ:
        case Builtin::GridDimX:
        case Builtin::GridDimY:
        case Builtin::GridDimZ:
          return true;
        default:
          break;
        }
  return false;
}

} // namespace

std::string functionAtLine(const GlobalEnv &Env, llvm::StringRef File,
                           uint32_t Line) {
  if (File.empty() || !Line)
    return {};
  for (GenericFunction *F : Env.functions())
    for (Method *M : F->methodsIn(Env.currentWorld())) {
      if (M->IsPrelude || !M->File || M->File->name() != File ||
          !M->Range.valid())
        continue;
      if (M->File->lineCol(M->Range.Begin).Line <= Line &&
          Line <=
              M->File->lineCol(std::max(M->Range.Begin, M->Range.End - 1)).Line)
        return M->Name.string();
    }
  return {};
}

std::optional<Dim3> parseDim3(llvm::StringRef S) {
  Dim3 D;
  if (S.trim().empty())
    return D;
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  S.split(Parts, ',');
  if (Parts.size() > 3)
    return std::nullopt;
  uint32_t *Out[3] = {&D.X, &D.Y, &D.Z};
  for (size_t I = 0; I < Parts.size(); ++I) {
    uint32_t V = 0;
    if (Parts[I].trim().getAsInteger(10, V) || V == 0)
      return std::nullopt;
    *Out[I] = V;
  }
  return D;
}

std::string blockShapeError(const Dim3 &Block) {
  // Both of CUDA's limits in one message: 1024 threads in all, and at most
  // 1024, 1024 and 64 in x, y and z.
  if (Block.X > 1024 || Block.Y > 1024 || Block.Z > 64)
    return "--threads: a block has at most " +
           std::to_string(NativeMaxThreadsPerBlock) +
           " threads, at most 1024, 1024 and 64 in x, y and z (CUDA's "
           "limits, kept on every device); got " +
           std::to_string(Block.X) + "," + std::to_string(Block.Y) + "," +
           std::to_string(Block.Z);
  if (Block.count() > NativeMaxThreadsPerBlock)
    return "--threads: a block has at most " +
           std::to_string(NativeMaxThreadsPerBlock) +
           " threads (CUDA's limit, kept on every device); got " +
           std::to_string(Block.count());
  return {};
}

RunOutcome runCall(GlobalEnv &Env, InferenceEngine &Engine, const RunRequest &R,
                   CompileCache *Cache) {
  // CUDA's grid limits, applied everywhere so that a call behaves the same
  // on every device (and a typo cannot start 10^15 host threads); each
  // device checks its own block limit.
  if (R.Grid.Y > 65535 || R.Grid.Z > 65535 || R.Grid.X > 0x7fffffffu)
    return failure(RunStatus::UsageError, "usage",
                   "--blocks: at most 2147483647 in x and 65535 in y and z");
  if (std::string Why = blockShapeError(R.Block); !Why.empty())
    return failure(RunStatus::UsageError, "usage", std::move(Why));
  // A launch bound is a promise to the compiler; a GPU refuses a launch
  // that breaks it, and so does every device here.
  if (R.Config.MinThreads && R.Block.count() != R.Config.MinThreads)
    return failure(RunStatus::UsageError, "usage",
                   "a block of " + std::to_string(R.Block.count()) +
                       " threads breaks the launch bound --minthreads " +
                       std::to_string(R.Config.MinThreads) +
                       " (.reqntid: blocks of exactly that many threads)");
  if (R.Config.MaxThreads && R.Block.count() > R.Config.MaxThreads)
    return failure(RunStatus::UsageError, "usage",
                   "a block of " + std::to_string(R.Block.count()) +
                       " threads breaks the launch bound --maxthreads " +
                       std::to_string(R.Config.MaxThreads));
  DeviceRegistry &Registry = DeviceRegistry::get();
  // The reference interpreter is not a Device (it runs typed IR, not an
  // artefact) but is run like one, with the host's semantics.
  const bool Interp = R.Device == InterpDeviceName;
  Device *Dev = Interp ? nullptr : Registry.find(R.Device);
  if (!Dev && !Interp) {
    std::string Known;
    for (const std::string &N : Registry.names())
      Known += (Known.empty() ? "" : ", ") + N;
    return failure(RunStatus::UsageError, "usage",
                   "unknown device `" + R.Device + "` (known: " + Known + ", " +
                       InterpDeviceName + ")");
  }
  std::string Target = Interp ? "native" : Dev->target().str();
  // A compile option the device has no use for.
  auto DoesNotApply = [&](const std::string &Option) {
    return failure(
        RunStatus::UsageError, "usage",
        (Interp ? std::string("the interp device interprets the "
                              "typed IR with the host's semantics "
                              "and compiles nothing")
                : "the " + R.Device + " device runs `" + Target + "` code") +
            "; " + Option + " does not apply");
  };
  if (R.TargetGiven && R.Config.Target != Target)
    return DoesNotApply("--target " + R.Config.Target);
  if (Interp && !R.Config.Arch.empty())
    return DoesNotApply("--arch " + R.Config.Arch);

  auto Call = parseCall(
      R.Call, R.Seed,
      [&](llvm::StringRef Name) {
        return Env.lookupFunction(Symbol::get(Name.str())) != nullptr;
      },
      [&](llvm::StringRef Name) { return structShape(Env, Name); },
      [&](llvm::StringRef Name) { return constArgument(Env, Name); });
  if (!Call)
    return failure(RunStatus::UsageError, Call.takeError());

  // A socket filter needs its packet; without one the entry is not a
  // program (and libbpf must not be handed a plain function).
  if (Target == "bpf" &&
      std::none_of(Call->Args.begin(), Call->Args.end(), [](const HostValue &V) {
        return V.isArray() && V.scalarKind() == ScalarKind::UInt8;
      }))
    return failure(
        RunStatus::UsageError, "usage",
        "the bpf device runs a program on a packet: pass a "
        "`UInt8[...]` argument (the frame after its Ethernet header, "
        "which Prism puts back)");

  if (Target == "bpf" && R.Config.Kernel.value_or(false))
    return failure(RunStatus::UsageError, "usage",
                   "--kernel does not apply to the bpf target: a BPF "
                   "program's entry returns its verdict (a UInt32), not "
                   "`nothing` as a kernel does");
  if (Target == "bpf" && (R.Grid.count() > 1 || R.Block.count() > 1))
    return failure(RunStatus::UsageError, "usage",
                   "a BPF program runs once on one packet; --blocks/--threads "
                   "do not apply");

  // The program's length argument is the kernel's skb->len, the packet's
  // length: a different value in the call would be silently replaced.
  if (Target == "bpf" && Call->Args.size() == 2 && Call->Args[0].isArray() &&
      Call->Args[1].isScalar() && !isFloatKind(Call->Args[1].scalarKind()) &&
      Call->Args[1].scalarKind() != ScalarKind::Bool) {
    uint64_t Given = Call->Args[1].bits();
    uint64_t Length = Call->Args[0].bytes().size();
    if (Given != Length)
      return failure(RunStatus::UsageError, "usage",
                     "on the bpf device the program's second argument is the "
                     "packet's length (the kernel's skb->len, " +
                         std::to_string(Length) + " here); the call gives " +
                         std::to_string(Given));
  }

  // Said at the CALL, not at the signature built from it below.
  Symbol Callee = Symbol::get(Call->Function);
  if (!Env.lookupFunction(Callee) && !Env.lookupType(Callee)) {
    Diagnostic D = Diagnostic::error(
        "undefined", "undefined function `" + Call->Function + "`",
        Call->FunctionLoc);
    if (std::string Near = nearestFunctionName(Env, Call->Function);
        !Near.empty())
      D.note("did you mean `" + Near + "`?");
    return failure(RunStatus::UsageError, {std::move(D)});
  }
  std::string Sig = Call->Function + "(";
  for (size_t I = 0; I < Call->Args.size(); ++I)
    Sig += (I ? ", " : "") + argTypeName(Call->Args[I], Target);
  Sig += ")";
  auto Parsed = parseSignature(Env, Sig);
  if (!Parsed)
    return failure(RunStatus::UsageError, Parsed.takeError());
  FunctionSpec Spec{Parsed->Func, TypeContext::get().tuple(Parsed->ArgTypes)};

  // Infer first: the return type decides kernel-ness on GPUs and how the
  // host reads the result back.
  auto Inferred = Engine.inferToplevel({&Spec, 1}, Env.currentWorld());
  if (!Inferred) {
    std::vector<Diagnostic> Ds = takeDiagnostics(Inferred.takeError());
    if (!Ds.empty())
      addMismatchNotes(Ds.front(), *Parsed, Env.currentWorld());
    return failure(RunStatus::ProgramError, makeDiagError(std::move(Ds)));
  }
  Type *RetT = Inferred->Roots.at(0)->ReturnType;
  const bool ReadsThreadIndex = readsThreadIndex(*Inferred);
  // A socket filter's shape, in the program's own types: the kernel
  // returns a u32, which a wider integer or a Nothing does not fit.
  if (Target == "bpf") {
    const std::vector<Type *> &A = Parsed->ArgTypes;
    const bool ArgsFit = (A.size() == 1 || A.size() == 2) &&
                         A[0]->isPointer() &&
                         (A.size() == 1 || A[1]->isInteger());
    const bool ReturnFits =
        RetT &&
        (RetT->isBool() || (RetT->isInteger() && RetT->bitWidth() <= 32));
    if (!ArgsFit || !ReturnFits)
      return failure(
          RunStatus::UsageError,
          {Diagnostic::error(
              "usage",
              "`" + Call->Function +
                  "` is not a BPF socket-filter program: a program takes "
                  "(pkt::Ptr{UInt8}[, len::UInt32]) and returns an integer of "
                  "at most 32 bits or a Bool (the kernel's return value is a "
                  "UInt32); this one " +
                  (!ArgsFit ? "takes " + Spec.str()
                            : "returns " + (RetT ? RetT->str()
                                                 : std::string("nothing"))),
              Call->FunctionLoc)});
  }
  if (Interp) {
    RunOutcome Out;
    Out.Signature = Spec.str();
    Out.ReadsThreadIndex = ReadsThreadIndex;
    // The host's semantics: a function unless --kernel says otherwise.
    Out.Kernel = R.Config.Kernel.value_or(false);
    // What the compiler rejects (a dynamic call, a kernel that returns a
    // value, a shared array of run-time size) the oracle rejects too, with
    // the same diagnostics, instead of running it.
    CompilerConfigOptions CO = R.Config;
    CO.Target = "native";
    CO.Kernel = Out.Kernel;
    auto Config = CompilerConfig::create(CO);
    if (!Config)
      return failure(RunStatus::UsageError, Config.takeError());
    std::vector<Diagnostic> Invalid = validateTyped(*Inferred, **Config, &Env);
    if (!Invalid.empty())
      return failure(RunStatus::ProgramError,
                     makeDiagError(std::move(Invalid)));
    if (R.BeforeRun)
      R.BeforeRun();
    auto Run = interpret(*Inferred->Roots[0], Inferred->W, Call->Args, R.Grid,
                         R.Block);
    if (!Run)
      return failure(RunStatus::DeviceError, Run.takeError());
    Out.Launch = std::move(*Run);
    return Out;
  }

  CompilerConfigOptions CO = R.Config;
  CO.Target = Target;
  if (CO.Arch.empty() && Target != "native")
    CO.Arch = Dev->defaultArch();
  bool IsNothing = RetT && RetT->isNothing();
  if (Target == "native")
    CO.Kernel = CO.Kernel.value_or(false);
  else if (Target == "bpf")
    CO.Kernel = false;
  else if (!CO.Kernel)
    CO.Kernel = IsNothing;
  auto Config = CompilerConfig::create(CO);
  if (!Config)
    return failure(RunStatus::UsageError, Config.takeError());

  std::optional<CompileCache> Private;
  if (!Cache)
    Cache = &Private.emplace(Engine);
  uint64_t HitsBefore = Cache->entryStats(**Config, Spec.Func, Spec.ArgTuple).Hits;
  auto Compiled = Cache->cachedCompilation(**Config, Spec.Func, Spec.ArgTuple);
  if (!Compiled)
    return failure(RunStatus::ProgramError, Compiled.takeError());
  const CachedArtefact &C = **Compiled;

  RunOutcome Out;
  Out.Signature = Spec.str();
  Out.Kernel = (*Config)->kernel();
  Out.ReadsThreadIndex = ReadsThreadIndex;
  Out.Root = C.Root;
  Out.Compiled = CO;
  Out.Compiled->Kernel = Out.Kernel;
  // A failure past here still names the code that was compiled (and ran).
  auto Failed = [&Out](RunOutcome F) {
    F.Signature = Out.Signature;
    F.Kernel = Out.Kernel;
    F.ReadsThreadIndex = Out.ReadsThreadIndex;
    F.Compiled = Out.Compiled;
    F.CacheHit = Out.CacheHit;
    return F;
  };
  Out.CacheHit =
      Cache->entryStats(**Config, Spec.Func, Spec.ArgTuple).Hits > HitsBefore;

  DeviceArtefact A;
  A.Target = Target;
  // The backend may rename symbols (PTX has no `!` in names).
  A.Entry = (*Config)->target().asmSymbol(C.EntrySymbol);
  if (Target == "ptx")
    A.Asm = C.Asm;
  A.Object = C.Object;
  A.SharedBytes = C.SharedBytes;
  if (Target == "native" && !Out.Kernel) {
    auto Shape = RetT ? shapeOf(RetT) : std::nullopt;
    if (!Shape)
      // The call asks for what the host cannot show: usage (CLI.md's 2),
      // not a device failure.
      return Failed(
          failure(RunStatus::UsageError, "argument",
                  "`" + Call->Function + "` returns " +
                      (RetT ? RetT->str() : std::string("?")) +
                      "; the host can show scalars, functions, types, and "
                      "tuples and structs of them"));
    A.ReturnShape = std::move(*Shape);
  }

  auto DevRef = Registry.lookup(R.Device);
  if (!DevRef)
    return Failed(failure(RunStatus::DeviceError, DevRef.takeError()));
  auto Loaded = DevRef->load(A, Out.LoadLog);
  if (!Loaded)
    return Failed(failure(RunStatus::DeviceError, Loaded.takeError()));
  Out.KernelFacts = (*Loaded)->attributes();
  // A socket filter on a packet socket sees the whole frame at offset 0, but
  // BPF_PROG_TEST_RUN consumes an Ethernet header before the program runs:
  // prepend a dummy one so the frame given in the call is what the program
  // reads (and `len` is its length).
  std::vector<HostValue> DevArgs = Call->Args;
  if (R.Device == "bpf")
    for (HostValue &V : DevArgs)
      if (V.isArray() && V.scalarKind() == ScalarKind::UInt8) {
        std::vector<uint8_t> Frame(14, 0);
        Frame.insert(Frame.end(), V.bytes().begin(), V.bytes().end());
        int64_t N = static_cast<int64_t>(Frame.size());
        V = HostValue::array(ScalarKind::UInt8, {N}, std::move(Frame));
      }
  if (R.BeforeRun)
    R.BeforeRun();
  auto Run = DevRef->launch(**Loaded, R.Grid, R.Block, DevArgs);
  if (!Run) {
    std::vector<Diagnostic> Ds = takeDiagnostics(Run.takeError());
    for (Diagnostic &D : Ds) {
      nameThrowingFunction(D, functionAtLine(Env, D.Loc.FileName, D.Loc.Line),
                           A.Entry, Spec.Func->Name.str());
      // A fault found after the launch (a write past an array) has no line
      // of its own: it points at the function that ran, not at the CALL.
      if (D.Kind == "fault" && !D.Loc.known() && C.Root && C.Root->MI->Def)
        D.Loc = C.Root->MI->Def->location();
    }
    return Failed(failure(RunStatus::DeviceError, std::move(Ds)));
  }
  if (R.Device == "bpf") {
    Run->Args = Call->Args; // report the frame as given, not the padded one
    // The kernel's u32, read as the program's own return type (Int8's -3,
    // a Bool's true).
    if (std::optional<ScalarKind> K = scalarKindFromName(RetT->str());
        K && Run->Return.isScalar()) {
      uint64_t Bits = Run->Return.bits() & 0xffffffffu;
      unsigned W = RetT->bitWidth();
      if (RetT->isBool())
        Run->Return = HostValue::fromDouble(*K, Bits != 0);
      else if (RetT->isSignedInt() && W < 64)
        Run->Return =
            HostValue::fromInt(*K, int64_t(Bits << (64 - W)) >> (64 - W));
      else
        Run->Return = HostValue::fromInt(*K, int64_t(Bits));
    }
  }
  Out.KernelFacts.insert(Out.KernelFacts.end(), Run->Facts.begin(),
                         Run->Facts.end());
  Out.Launch = std::move(*Run);
  return Out;
}

} // namespace prism
