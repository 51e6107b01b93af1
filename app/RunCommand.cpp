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

#include "devices/CallRunner.h"
#include "support/JsonOutput.h"
#include "support/SourceRead.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace prism::app {

CompilerConfigOptions makeConfigOptions(const CommandOptions &O);

namespace {

/// Prints a device error. A throw's location from debug info names the
/// file as the compiler saw it; when that is FILE, point at the statement's
/// first column of FILE as the user wrote its path.
int reportDeviceError(std::vector<Diagnostic> Ds, const CommandOptions &O) {
  for (Diagnostic &D : Ds) {
    if (!D.Loc.known() || D.Loc.File)
      continue;
    if (llvm::sys::path::filename(D.Loc.FileName) !=
        llvm::sys::path::filename(O.File))
      continue;
    D.Loc.FileName = O.File;
    if (D.Loc.Col > 1)
      continue; // a column of its own (a fault's, from the line table)
    if (auto Buf = readSourceFile(O.File)) {
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
      S += (I ? ", " : "") + arrayElementStr(E);
    }
  }
  if (N > Shown)
    S += ", ...";
  S += "]";
  // The shape, unless the element count already says it (a vector).
  std::string Dims;
  if (A.dims().size() != 1) {
    for (int64_t D : A.dims())
      Dims += (Dims.empty() ? "" : "×") + std::to_string(D);
    Dims += ", ";
  }
  char Buf[40];
  if (!isFloatKind(A.scalarKind()) && std::abs(Sum) < 0x1p53)
    std::snprintf(Buf, sizeof Buf, "%.0f", Sum); // integers: exact
  else if (std::isnan(Sum) || std::isinf(Sum)) // as Julia prints them
    std::snprintf(Buf, sizeof Buf, "%s",
                  std::isnan(Sum) ? "NaN"
                  : Sum > 0       ? "Inf"
                                  : "-Inf");
  else
    std::snprintf(Buf, sizeof Buf,
                  Sum == double(int64_t(Sum)) && std::abs(Sum) < 1e15 ? "%.1f"
                                                                      : "%.9g",
                  Sum);
  return S + "  (" + Dims + std::to_string(N) +
         (N == 1 ? " element" : " elements") + ", checksum " + Buf + ")";
}

/// The loaded kernel's facts as JSON: integers as numbers, the rest as text.
llvm::json::Object loadJSON(const RunOutcome &Out) {
  llvm::json::Object Facts;
  for (const auto &[Name, Value] : Out.KernelFacts) {
    int64_t N;
    if (!llvm::StringRef(Value).getAsInteger(10, N))
      Facts[Name] = N;
    else
      Facts[Name] = Value;
  }
  return llvm::json::Object{{"facts", std::move(Facts)}, {"log", Out.LoadLog}};
}

/// `  loaded: registers 24 · local bytes 0 · ...` and the loader's log,
/// indented, its first lines only (`--json` has all of it).
void printLoad(const RunOutcome &Out) {
  constexpr size_t ShownLogLines = 12;
  if (!Out.KernelFacts.empty())
    llvm::outs() << "  loaded: " << propertiesLine(Out.KernelFacts) << "\n";
  llvm::StringRef Log = llvm::StringRef(Out.LoadLog).rtrim();
  if (Log.empty())
    return;
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Log.split(Lines, '\n');
  llvm::outs() << "  load log:\n";
  for (size_t I = 0; I < Lines.size() && I < ShownLogLines; ++I)
    llvm::outs() << "    " << Lines[I].rtrim() << "\n";
  if (Lines.size() > ShownLogLines)
    llvm::outs() << "    ... " << Lines.size() - ShownLogLines
                 << " more lines (--json has the whole log)\n";
}

} // namespace

int runRun(const CommandOptions &O) {
  auto Grid = parseDim3(O.Blocks);
  auto Block = parseDim3(O.Threads);
  if (!Grid || !Block) {
    const char *Msg =
        "--blocks/--threads take X[,Y[,Z]] with positive integers";
    llvm::errs() << "prism run: " << Msg << "\n";
    recordError("usage", Msg);
    return ExitUsage;
  }
  int RC = ExitOk;
  auto Program = loadProgram(O.File, RC);
  if (!Program)
    return RC;

  RunRequest R;
  R.Device = O.Device;
  R.Call = O.Call;
  R.Grid = *Grid;
  R.Block = *Block;
  R.Seed = O.Seed;
  R.TargetGiven = O.TargetGiven;
  R.Config = makeConfigOptions(O); // Kernel unset: by target and return type
  InferenceEngine Engine(*Program->Env, O.Bounds);
  setRequestSource("CALL");
  // Compiled host code cannot be stopped from outside its thread, so an
  // endless loop ends the process instead: a watchdog reports it and exits.
  // The first of the watchdog and the finished call to take Reporter owns
  // stderr and the diagnostics list from then on; the watchdog exits while
  // holding it, so the two never print over each other.
  static std::mutex Reporter;
  static bool Finished = false;
  // The clock starts when the call does: compiling and loading it (which
  // may take longer than the call) is not what the limit is for.
  if (O.Timeout > 0)
    R.BeforeRun = [Seconds = O.Timeout, Json = O.Json] {
      std::thread([Seconds, Json] {
        std::this_thread::sleep_for(std::chrono::duration<double>(Seconds));
        std::lock_guard<std::mutex> Lock(Reporter);
        if (Finished)
          return;
        std::string Msg = "error: the call did not finish within " +
                          llvm::formatv("{0}", Seconds).str() +
                          " s (--timeout); an endless loop?";
        llvm::errs() << Msg << "\n";
        if (Json) {
          recordError("timeout", Msg.substr(7));
          printJsonFailure(ExitDevice);
        }
        llvm::outs().flush();
        llvm::errs().flush();
        std::_Exit(ExitDevice);
      }).detach();
    };
  RunOutcome Out = runCall(*Program->Env, Engine, R);
  {
    std::lock_guard<std::mutex> Lock(Reporter);
    Finished = true;
  }
  switch (Out.Status) {
  case RunStatus::Ok:
    break;
  case RunStatus::UsageError:
    printDiagnostics(Out.Diagnostics);
    return ExitUsage;
  case RunStatus::ProgramError:
    printDiagnostics(Out.Diagnostics);
    return ExitProgramError;
  case RunStatus::DeviceError:
    return reportDeviceError(std::move(Out.Diagnostics), O);
  }
  const LaunchResult &Run = Out.Launch;
  if (O.Json) {
    llvm::json::Object J =
        runResultJSON(O.Device, Run.Return, Run.Args, Run.TimeMs);
    J["load"] = loadJSON(Out);
    J["signature"] = Out.Signature;
    if (!Run.Setup.empty()) {
      J["setup_ms"] = Run.SetupMs;
      J["setup"] = Run.Setup;
    }
    printJSON(llvm::outs(), llvm::json::Value(std::move(J)));
    return ExitOk;
  }
  llvm::outs() << O.Call << " on " << O.Device;
  // A plain call on one thread is an ordinary function call; a kernel's
  // header keeps its shape, which shows a forgotten --threads.
  const bool OneThread = Grid->count() == 1 && Block->count() == 1;
  if (Out.Kernel || !OneThread || Out.ReadsThreadIndex)
    llvm::outs() << " (" << Grid->X << "," << Grid->Y << "," << Grid->Z
                 << " blocks × " << Block->X << "," << Block->Y << ","
                 << Block->Z << " threads)";
  llvm::outs() << "\n";
  if (OneThread && Out.ReadsThreadIndex)
    llvm::outs() << "  note: it reads the thread index but ran as one "
                    "thread; give the launch with --threads N (and --blocks "
                    "M)\n";
  if (!Run.Return.isNothing() || !Out.Kernel)
    llvm::outs() << "  return: " << Run.Return.str() << "\n";
  for (size_t I = 0; I < Run.Args.size(); ++I)
    if (Run.Args[I].isArray())
      llvm::outs() << "  arg " << I + 1 << ": " << arraySummary(Run.Args[I])
                   << "\n";
  std::string Setup = setupNote(Run);
  llvm::outs() << llvm::formatv("  time: {0:f3} ms ({1}{2})\n", Run.TimeMs,
                                Run.TimeSource, Setup.empty() ? "" : "; " + Setup);
  printLoad(Out);
  return ExitOk;
}

} // namespace prism::app
