// `prism run FILE CALL`: evaluate CALL's arguments on the host, compile the
// function for the device's target, load it there, launch it over
// --blocks × --threads and print what came back (CLI.md).
//
// Which functions are kernels: on GPU targets (ptx) a function that returns
// `nothing` is compiled as a kernel, anything else as a device function
// (which the GPU cannot launch; the device says so). On the host every
// function is compiled as an ordinary function unless `--kernel` is given,
// so its return value comes back whatever the grid: `fib(20)` prints 6765,
// and `saxpy!` with `--blocks 4 --threads 256` runs 1024 threads of it. On
// bpf the program is never a kernel (it returns its verdict).
#include "Commands.h"
#include "ProgramLoader.h"

#include "cache/Compiler.h"
#include "targets/Target.h"
#include "devices/CallParser.h"
#include "devices/DeviceRegistry.h"
#include "types/Type.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>

namespace prism::app {

llvm::Expected<CompilerConfigRef> makeConfig(const CommandOptions &O);

namespace {

/// `X[,Y[,Z]]` → Dim3; none when malformed or zero.
std::optional<Dim3> parseDim3(llvm::StringRef S) {
  Dim3 D;
  if (S.empty())
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

/// The type of an argument as a signature names it. Arrays are
/// DeviceArrays, except on bpf where the packet is a pointer.
std::string argTypeName(const HostValue &V, llvm::StringRef Target) {
  if (V.isArray() && Target == "bpf")
    return std::string("Ptr{") + scalarName(V.scalarKind()) + "}";
  return V.typeName();
}

/// A value of type T (its shape), for reading the return value back.
std::optional<HostValue> shapeOf(Type *T) {
  if (T->isNothing())
    return HostValue();
  if (T->isTuple()) {
    std::vector<HostValue> Elts;
    for (Type *E : T->params()) {
      auto S = shapeOf(E);
      if (!S)
        return std::nullopt;
      Elts.push_back(std::move(*S));
    }
    return HostValue::tuple(std::move(Elts));
  }
  if (T->isPrimitive())
    if (auto K = scalarKindFromName(T->str()))
      return HostValue::scalar(*K, 0);
  return std::nullopt;
}

/// Prints a device error. A throw's location from debug info names the
/// file as the compiler saw it; when that is FILE, point at the statement's
/// first column of FILE as the user wrote its path.
int reportDeviceError(llvm::Error E, const CommandOptions &O) {
  std::vector<Diagnostic> Ds = takeDiagnostics(std::move(E));
  for (Diagnostic &D : Ds) {
    if (!D.Loc.known() || D.Loc.File)
      continue;
    if (llvm::sys::path::filename(D.Loc.FileName) !=
        llvm::sys::path::filename(O.File))
      continue;
    D.Loc.FileName = O.File;
    if (auto Buf = llvm::MemoryBuffer::getFile(O.File, /*IsText=*/true)) {
      llvm::SmallVector<llvm::StringRef, 0> Lines;
      (*Buf)->getBuffer().split(Lines, '\n');
      if (D.Loc.Line <= Lines.size()) {
        llvm::StringRef L = Lines[D.Loc.Line - 1];
        size_t Col = L.find_first_not_of(" \t");
        D.Loc.Col = Col == llvm::StringRef::npos ? 1 : uint32_t(Col + 1);
      }
    }
  }
  printDiagnostics(Ds);
  return ExitDevice;
}

/// `Float32[3.0, 3.0, ...] (1000 elements, sum 3000.0)`.
std::string arraySummary(const HostValue &A) {
  constexpr int64_t Shown = 8;
  std::string S = std::string(scalarName(A.scalarKind())) + "[";
  int64_t N = A.numElements();
  double Sum = 0;
  for (int64_t I = 0; I < N; ++I) {
    HostValue E = A.element(I);
    Sum += E.asDouble();
    if (I < Shown) {
      // Inside `Float32[...]` the elements need no `f0` suffix (as Julia).
      std::string T = E.str();
      if (A.scalarKind() == ScalarKind::Float32 && llvm::StringRef(T).endswith("f0"))
        T.resize(T.size() - 2);
      S += (I ? ", " : "") + T;
    }
  }
  if (N > Shown)
    S += ", ...";
  S += "]";
  std::string Dims;
  for (int64_t D : A.dims())
    Dims += (Dims.empty() ? "" : "×") + std::to_string(D);
  char Buf[40];
  std::snprintf(Buf, sizeof Buf,
                Sum == double(int64_t(Sum)) && std::abs(Sum) < 1e15 ? "%.1f"
                                                                     : "%.9g",
                Sum);
  return S + "  (" + Dims + ", " + std::to_string(N) + " elements, checksum " +
         Buf + ")";
}

} // namespace

int runRun(const CommandOptions &O) {
  auto Grid = parseDim3(O.Blocks);
  auto Block = parseDim3(O.Threads);
  if (!Grid || !Block) {
    llvm::errs() << "prism run: --blocks/--threads take X[,Y[,Z]] with "
                    "positive integers\n";
    return ExitUsage;
  }

  DeviceRegistry &Registry = DeviceRegistry::get();
  Device *Dev = Registry.find(O.Device);
  if (!Dev) {
    llvm::errs() << "prism run: unknown device `" << O.Device << "` (known: "
                 << llvm::join(Registry.names(), ", ") << ")\n";
    return ExitUsage;
  }
  std::string Target = Dev->target().str();
  if (O.TargetGiven && O.Target != Target) {
    llvm::errs() << "prism run: the " << O.Device << " device runs `"
                 << Target << "` code; --target " << O.Target
                 << " does not apply\n";
    return ExitUsage;
  }

  int RC = ExitOk;
  auto Program = loadProgram(O.File, RC);
  if (!Program)
    return RC;
  GlobalEnv &Env = *Program->Env;
  auto Call = parseCall(O.Call, O.Seed, [&](llvm::StringRef Name) {
    return Env.lookupFunction(Symbol::get(Name.str())) != nullptr;
  });
  if (!Call) {
    printDiagnostics(takeDiagnostics(Call.takeError()));
    return ExitUsage;
  }

  std::string Sig = Call->Function + "(";
  for (size_t I = 0; I < Call->Args.size(); ++I)
    Sig += (I ? ", " : "") + argTypeName(Call->Args[I], Target);
  Sig += ")";
  auto Spec = resolveSignature(*Program, Sig, RC);
  if (!Spec)
    return RC;

  // Infer first: the return type decides kernel-ness on GPUs and how the
  // host reads the result back.
  InferenceEngine Engine(Env);
  auto Inferred = Engine.inferToplevel({&*Spec, 1}, Env.currentWorld());
  if (!Inferred)
    return reportError(Inferred.takeError());
  Type *RetT = Inferred->Roots.at(0)->ReturnType;

  CommandOptions CO = O;
  CO.Target = Target;
  if (CO.Arch.empty() && Target != "native")
    CO.Arch = Dev->defaultArch();
  bool IsNothing = RetT && RetT->isNothing();
  if (Target == "native") {
    CO.Kernel = O.Kernel;
    CO.NoKernel = !O.Kernel;
  } else if (Target == "bpf") {
    CO.Kernel = false;
    CO.NoKernel = true;
  } else if (!O.Kernel && !O.NoKernel) {
    CO.Kernel = IsNothing;
    CO.NoKernel = !IsNothing;
  }
  auto Config = makeConfig(CO);
  if (!Config) {
    reportError(Config.takeError());
    return ExitUsage;
  }

  CompilerJob Job{*Spec, *Config, Env.currentWorld()};
  CompileOptions Opts;
  Opts.EmitObject = Target != "ptx";
  Opts.RawAsm = true; // the device wants what the backend printed
  CompileResult Result = compile(Engine, Job, Stage::Asm, {}, Opts);
  printDiagnostics(Result.Report->Diagnostics);
  if (!Result.ok())
    return ExitProgramError;

  DeviceArtefact A;
  A.Target = Target;
  // The backend may rename symbols (PTX has no `!` in names).
  A.Entry = (*Config)->target().asmSymbol(Result.EntrySymbol);
  if (Target == "ptx")
    A.Asm = Result.Report->stage(Stage::Asm).Text;
  A.Object = std::move(Result.Object);
  A.SharedBytes = Result.SharedBytes;
  if (Target == "native" && !(*Config)->kernel()) {
    auto Shape = RetT ? shapeOf(RetT) : std::nullopt;
    if (!Shape) {
      llvm::errs() << "prism run: `" << Call->Function << "` returns "
                   << (RetT ? RetT->str() : std::string("?"))
                   << "; the host can show scalars and tuples of them\n";
      return ExitDevice;
    }
    A.ReturnShape = std::move(*Shape);
  }

  auto DevRef = Registry.lookup(O.Device);
  if (!DevRef)
    return reportDeviceError(DevRef.takeError(), O);
  std::string Log;
  auto Loaded = DevRef->load(A, Log);
  if (!Loaded)
    return reportDeviceError(Loaded.takeError(), O);
  // A socket filter on a packet socket sees the whole frame at offset 0, but
  // BPF_PROG_TEST_RUN consumes an Ethernet header before the program runs:
  // prepend a dummy one so the frame given in the call is what the program
  // reads (and `len` is its length).
  std::vector<HostValue> DevArgs = Call->Args;
  if (O.Device == "bpf")
    for (HostValue &V : DevArgs)
      if (V.isArray() && V.scalarKind() == ScalarKind::UInt8) {
        std::vector<uint8_t> Frame(14, 0);
        Frame.insert(Frame.end(), V.bytes().begin(), V.bytes().end());
        int64_t N = static_cast<int64_t>(Frame.size());
        V = HostValue::array(ScalarKind::UInt8, {N}, std::move(Frame));
      }
  auto Run = DevRef->launch(**Loaded, *Grid, *Block, DevArgs);
  if (!Run)
    return reportDeviceError(Run.takeError(), O);
  if (O.Device == "bpf")
    Run->Args = Call->Args; // report the frame as given, not the padded one

  if (O.Json) {
    llvm::outs() << llvm::formatv(
                        "{0:2}", llvm::json::Value(runResultJSON(
                                     O.Device, Run->Return, Run->Args,
                                     Run->TimeMs)))
                 << "\n";
    return ExitOk;
  }
  llvm::outs() << O.Call << " on " << O.Device << " (" << Grid->X << ","
               << Grid->Y << "," << Grid->Z << " blocks × " << Block->X << ","
               << Block->Y << "," << Block->Z << " threads)\n";
  if (!Run->Return.isNothing() || !(*Config)->kernel())
    llvm::outs() << "  return: " << Run->Return.str() << "\n";
  for (size_t I = 0; I < Run->Args.size(); ++I)
    if (Run->Args[I].isArray())
      llvm::outs() << "  arg " << I + 1 << ": " << arraySummary(Run->Args[I])
                   << "\n";
  llvm::outs() << llvm::formatv("  time: {0:f3} ms ({1})\n", Run->TimeMs,
                                Run->TimeSource);
  return ExitOk;
}

} // namespace prism::app
