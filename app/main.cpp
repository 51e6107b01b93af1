// prism: a thin main over the core libraries. Subcommands follow
// ../shared/CLI.md (Julia's reflection names).
#include "CommandOptions.h"
#include "Commands.h"
#include "ProgramLoader.h"

#include "targets/ArchHint.h"

#include <CLI/CLI.hpp>

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#ifdef PRISM_HAVE_MIMALLOC
#include <mimalloc.h>
#endif

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <new>
#include <vector>

using namespace prism::app;

namespace {
const char *SaxpySig =
    "'saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})'";

std::string example(const std::string &Cmd, const std::string &Rest) {
  return "\nExample:\n  prism " + Cmd + " assets/examples/saxpy.jl " + Rest +
         "\n";
}

/// Notes for options that other commands take but the one written does
/// not (`code_typed --target ptx`): which commands take it, and why this
/// one does not where that is worth saying. \p Written is the command
/// line after `prism`, in order.
std::vector<std::string>
misplacedOptionNotes(CLI::App &App, const std::vector<std::string> &Written) {
  std::vector<std::string> Notes;
  if (Written.empty())
    return Notes;
  CLI::App *Cmd = nullptr;
  for (CLI::App *S : App.get_subcommands({}))
    if (S->get_name() == Written.front())
      Cmd = S;
  if (!Cmd)
    return Notes;
  static const std::pair<const char *, const char *> Why[] = {
      {"--target", "typed IR is the same for every target"},
      {"--arch", "typed IR is the same for every target"},
      {"--threads", "it is a launch's shape; a compile-time bound on the "
                    "block is --maxthreads"},
      {"--blocks", "it is a launch's shape"}};
  for (size_t I = 1; I < Written.size(); ++I) {
    llvm::StringRef A(Written[I]);
    if (A == "--")
      break;
    if (!A.startswith("--") || A.size() < 3)
      continue;
    std::string Name = A.take_until([](char C) { return C == '='; }).str();
    if (Cmd->get_option_no_throw(Name))
      continue;
    std::vector<std::string> Takers;
    for (CLI::App *S : App.get_subcommands({}))
      if (S->get_option_no_throw(Name))
        Takers.push_back(S->get_name());
    if (Takers.empty())
      continue;
    std::string Note =
        "note: `" + Name + "` is not an option of `" + Cmd->get_name() + "`";
    for (const auto &[Opt, Reason] : Why)
      if (Name == Opt && (Cmd->get_name().rfind("code_", 0) == 0 ||
                          Cmd->get_name() == "pipeline"))
        Note += std::string(" (") + Reason + ")";
    Note += "; ";
    for (size_t K = 0; K < Takers.size() && K < 5; ++K)
      Note += (K ? ", " : "") + Takers[K];
    Note += Takers.size() > 5    ? ", ... take it"
            : Takers.size() == 1 ? " takes it"
                                 : " take it";
    Notes.push_back(std::move(Note));
  }
  return Notes;
}
} // namespace

/// The allocator malloc resolves to: mimalloc only when a block malloc
/// returned is really in its heap (linked first, it replaces glibc's).
static std::string allocatorName() {
#ifdef PRISM_HAVE_MIMALLOC
  void *P = std::malloc(16);
  bool Ours = mi_is_in_heap_region(P);
  std::free(P);
  if (Ours) {
    int V = mi_version(); // 209 for 2.0.9
    return "mimalloc " + std::to_string(V / 100) + "." +
           std::to_string(V / 10 % 10) + "." + std::to_string(V % 10);
  }
#endif
  return "glibc malloc";
}

int main(int argc, char **argv) {
  CLI::App App{"Prism: see inside a GPU kernel compiler.\n\n"
               "  prism code_typed assets/examples/saxpy.jl " +
                   std::string(SaxpySig),
               "prism"};
  App.set_version_flag("--version", std::string("prism ") + PRISM_VERSION +
                                        " (LLVM " LLVM_VERSION_STRING ", " +
                                        allocatorName() + ")");
  App.require_subcommand(0, 1);
  // An option given twice takes its last value (`-O2 -O3` is -O3), as
  // compilers and Julia's own command line do; subcommands inherit this.
  App.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  App.footer("Run `prism COMMAND --help` for a command's options, "
             "`prism help TOPIC` for what a stage is. Without a command, "
             "`prism [gui options]` is `prism gui [options]` on the built-in "
             "example.");
  CommandOptions O;
  std::function<int()> Action;
  auto On = [&](CLI::App *Cmd, int (*Fn)(const CommandOptions &)) {
    Cmd->callback([&, Fn] { Action = [&, Fn] { return Fn(O); }; });
  };

  auto *Gui = App.add_subcommand("gui", "the desktop GUI");
  Gui->add_option("FILE", O.File, "kernel-language source file");
  Gui->add_option("--job", O.Job, "signature of a job to watch");
  addCheckBounds(*Gui, O);
  Gui->add_option("--target", O.Target,
                  "target of that job (default: the first the file's "
                  "`# targets:` line names for it, else ptx)")
      ->check(CLI::IsMember({"ptx", "gcn", "bpf", "native"}));
  Gui->add_flag("--kernel", O.Kernel,
                "compile that job as a kernel (default for ptx/gcn)");
  Gui->add_flag("--no-kernel", O.NoKernel,
                "compile that job as a device function");
  Gui->add_option("--screenshot", O.Screenshot,
                  "render frames, write a PNG and exit");
  Gui->add_option("--frames", O.Frames, "frames to render before the screenshot");
  Gui->add_option("--bench-frames", O.BenchFrames,
                  "render N frames and print frame-time statistics");
  Gui->add_option("--run", O.Call,
                  "run this call once the jobs compiled (Devices panel)");
  Gui->add_option("--device", O.Device, "device of --run (default host)");
  Gui->add_flag("--bench-scroll", O.BenchScroll,
                "with --bench-frames: scroll every stage pane 37 lines a frame");
  Gui->add_flag("--bench-edit", O.BenchEdit,
                "with --bench-frames: edit the source every 20 frames, so that "
                "jobs recompile while frames are measured");
  Gui->add_option("--then-edit", O.ThenEdit,
                  "after the jobs compiled and --run's call ran, replace the "
                  "source by this file's text, as an edit would (see what it "
                  "invalidates, recompiles and leaves stale)");
  Gui->add_option("--compare", O.Compare,
                  "also run --run's call on this device (interp, host) and "
                  "show whether the results agree");
  addCheckBoundsOption(
      *Gui, "--compare-check-bounds",
      [&O](prism::CheckBounds M) { O.CompareBounds = M; },
      "with --job: also watch that job in this --check-bounds mode and open "
      "Compare on the two (what the bounds checks cost)");
  Gui->add_option("--blocks", O.Blocks, "grid shape of --run");
  Gui->add_option("--threads", O.Threads, "block shape of --run");
  Gui->add_flag("--show-remarks", O.ShowRemarks,
                "open the Pipeline panel on its Remarks tab");
  Gui->add_flag("--show-resources", O.ShowResources,
                "open the Stats panel on its Resources tab (registers, "
                "occupancy)");
  Gui->add_flag("--show-history", O.ShowHistory,
                "open the Stats panel on its History tab (each compile's "
                "time, allocations and instructions in this session)");
  Gui->add_flag("--show-cache", O.ShowCache,
                "open the Stats panel on its Cache tab (hits, the miss's "
                "compile, allocations per hit)");
  Gui->add_option("--pin-line", O.PinLine,
                  "pin this source line, as a click on it would: every stage "
                  "lights and scrolls to the code it became")
      ->check(CLI::Validator(
          [](std::string &S) -> std::string {
            unsigned V = 0;
            if (llvm::StringRef(S).getAsInteger(10, V) || V == 0)
              return "a source line number, 1 or more, got " + S;
            return {};
          },
          "LINE"));
  Gui->add_flag("--list-windows", O.ListWindows,
                "print the titles of the windows drawn in the last frame, "
                "and the jobs (signature | target kernel/function | status)");
  Gui->footer("\nExample:\n  xvfb-run -a prism gui assets/examples/saxpy.jl "
              "--job " + std::string(SaxpySig) +
              " --target ptx --screenshot out.png\n");
  Gui->callback([&, Gui] {
    O.TargetGiven = Gui->get_option("--target")->count() > 0;
    Action = [&] { return runGui(O); };
  });

  auto *Lowered = App.add_subcommand("code_lowered", "lowered IR of a method");
  addFileAndSig(*Lowered, O);
  Lowered->footer(example("code_lowered", SaxpySig));
  On(Lowered, runCodeLowered);

  auto *Typed = App.add_subcommand("code_typed", "typed IR after inference");
  addFileAndSig(*Typed, O);
  Typed->add_option("--optimize", O.Optimize,
                    "yes: inlined typed IR (default); no: as inferred")
      ->check(CLI::IsMember({"yes", "no"}));
  addDebugInfo(*Typed, O);
  addCheckBounds(*Typed, O);
  Typed->footer(example("code_typed", SaxpySig + std::string(" --optimize=no")));
  On(Typed, runCodeTyped);

  auto *Warn = App.add_subcommand("code_warntype",
                                  "typed IR with non-concrete types marked");
  addFileAndSig(*Warn, O);
  addCheckBounds(*Warn, O);
  Warn->footer("\nExample:\n  prism code_warntype assets/examples/unstable.jl "
               "'sum_row(DeviceArray{Float32,2}, Int)'\n");
  On(Warn, runCodeWarntype);

  auto *Llvm = App.add_subcommand("code_llvm", "LLVM IR of a job");
  addFileAndSig(*Llvm, O);
  addTargetOptions(*Llvm, O, /*TargetRequired=*/false);
  Llvm->add_flag("--raw", O.Raw, "the whole module with all metadata");
  Llvm->add_option("--optimize", O.Optimize,
                   "yes: after the pipeline (default); no: as emitted")
      ->check(CLI::IsMember({"yes", "no"}));
  Llvm->add_flag("--dump-module", O.DumpModule, "print the whole module");
  addDebugInfo(*Llvm, O);
  Llvm->footer(example("code_llvm", SaxpySig + std::string(" --target ptx")));
  On(Llvm, runCodeLlvm);

  auto *Native = App.add_subcommand("code_native", "assembly of a job");
  addFileAndSig(*Native, O);
  addTargetOptions(*Native, O, /*TargetRequired=*/true);
  Native->add_flag("--raw", O.Raw, "everything the backend printed");
  Native->add_flag("--dump-module", O.DumpModule, "every function of the module");
  addDebugInfo(*Native, O);
  Native->footer(example("code_native", SaxpySig + std::string(" --target ptx --arch sm_90")));
  On(Native, runCodeNative);

  for (const char *T : {"ptx", "gcn", "bpf"}) {
    std::string Name = std::string("code_") + T;
    auto *Alias = App.add_subcommand(
        Name, std::string("= code_native --target ") + T);
    addFileAndSig(*Alias, O);
    addTargetOptions(*Alias, O, /*TargetRequired=*/false,
                     "; the command's own (another is an error)");
    Alias->add_flag("--raw", O.Raw, "everything the backend printed");
    Alias->add_flag("--dump-module", O.DumpModule, "every function of the module");
    addDebugInfo(*Alias, O);
    if (std::string(T) == "bpf")
      Alias->footer("\nExample:\n  prism code_bpf assets/examples/filter.jl "
                    "'accept_ipv4(Ptr{UInt8}, UInt32)'\n");
    else
      Alias->footer(example(Name, SaxpySig));
    std::string Tgt = T;
    Alias->callback([&, Tgt, Alias] {
      if (Alias->get_option("--target")->count() && O.Target != Tgt) {
        std::string Given = O.Target;
        Action = [Tgt, Given] {
          llvm::errs() << "prism code_" << Tgt << ": error: --target " << Given
                       << " contradicts the command, which compiles for " << Tgt
                       << " (use code_native --target " << Given << ")\n";
          return ExitUsage;
        };
        return;
      }
      O.Target = Tgt;
      Action = [&] { return runCodeNative(O); };
    });
  }

  auto *Pipe = App.add_subcommand(
      "pipeline", "every pass that changed the IR, with a diff");
  addFileAndSig(*Pipe, O);
  addTargetOptions(*Pipe, O, /*TargetRequired=*/false);
  Pipe->add_option("--pass", O.PipelinePass,
                   "only passes whose name contains this, in any case "
                   "(instcombine, sroa, loop)");
  Pipe->add_option("--function", O.PipelineFunction,
                   "only changes to functions whose name contains this "
                   "([module] for module passes)");
  Pipe->add_option("--grep", O.PipelineGrep,
                   "only passes that changed how many lines contain this "
                   "(which pass made the fma, which dropped a throw)");
  Pipe->add_flag("--summary", O.PipelineSummary,
                 "one line a pass: lines added and removed, no diff");
  Pipe->add_flag("--json", O.Json,
                 "stable JSON output: the passes shown, with their counts "
                 "and (without --summary) their diffs");
  Pipe->add_flag("--all", O.PipelineAll,
                 "also the passes that ran and changed nothing: the whole "
                 "pipeline in order");
  Pipe->footer(example("pipeline", SaxpySig + std::string(" --target ptx")) +
               "  prism pipeline assets/examples/saxpy.jl " + SaxpySig +
               " --target ptx --summary --pass instcombine\n");
  On(Pipe, runPipeline);

  auto *Remarks = App.add_subcommand(
      "remarks", "what LLVM's passes did and did not do, and why "
                 "(optimisation remarks, at their source lines)");
  addFileAndSig(*Remarks, O);
  addTargetOptions(*Remarks, O, /*TargetRequired=*/false);
  Remarks->add_option("--kind", O.RemarkKinds,
                      "only passed | missed | analysis (repeatable)")
      ->check(CLI::IsMember({"passed", "missed", "analysis"}));
  Remarks->add_option("--pass", O.RemarkPasses,
                      "only the remarks of this pass: LLVM's (licm, gvn, "
                      "loop-vectorize, regalloc, ...) or Prism's "
                      "(prism-access, prism-divergence, prism-arith, "
                      "prism-throw, typed-inline) (repeatable)");
  Remarks->add_option("--threads", O.Threads,
                      "block shape X[,Y[,Z]] of the launch: how warps are laid "
                      "out for the prism-access and prism-divergence remarks "
                      "(ptx and gcn; default: a block in x only, its first 8 "
                      "warps or waves)");
  Remarks->add_flag("--json", O.Json, "stable JSON output");
  Remarks->footer(example("remarks", SaxpySig + std::string(" --target ptx --kind missed")));
  On(Remarks, runRemarks);

  auto *Report = App.add_subcommand(
      "report", "all stages: timings, allocations, cache, resources");
  addFileAndSig(*Report, O);
  addTargetOptions(*Report, O, /*TargetRequired=*/false);
  Report->add_flag("--json", O.Json, "stable JSON output");
  Report->add_option("--threads", O.Threads,
                     "block shape X[,Y[,Z]]: the occupancy of that launch, "
                     "and the warps the access and divergence counts assume "
                     "(ptx and gcn)");
  Report->add_flag("--disk-cache", O.DiskCache,
                   "also use the on-disk compile cache ($XDG_CACHE_HOME/prism)");
  Report->add_option("--cache-dir", O.CacheDir,
                     "use the on-disk compile cache in this directory");
  Report->footer(example("report", SaxpySig + std::string(" --target ptx --json")));
  On(Report, runReport);

  auto *Run = App.add_subcommand(
      "run", "compile a call for a device, run it and print the result");
  Run->add_option("FILE", O.File, "kernel-language source file (.jl)")
      ->required();
  Run->add_option("CALL", O.Call,
                  "a call whose arguments are literals, constants (the "
                  "program's, π, Inf32), number types, structs and arrays "
                  "(zeros, ones, fill, rand, Float32[...]), e.g. "
                  "'saxpy!(2.0f0, ones(Float32, 1000), ones(Float32, 1000))'")
      ->required();
  Run->add_option("--device", O.Device,
                  "host (default) | bpf | cuda | interp (the reference interpreter)");
  Run->add_option("--blocks", O.Blocks, "grid shape X[,Y[,Z]] (default 1)");
  Run->add_option("--threads", O.Threads, "block shape X[,Y[,Z]] (default 1)");
  Run->add_option("--seed", O.Seed, "seed of rand() in CALL (default 0)")
      ->check(CLI::Validator( // -1 would wrap around to 2^64 - 1
          [](std::string &S) -> std::string {
            uint64_t V = 0;
            if (llvm::StringRef(S).getAsInteger(10, V))
              return "an integer from 0 to 2^64 - 1, got " + S;
            return {};
          },
          "UINT"));
  Run->add_option("--timeout", O.Timeout,
                  "seconds after which a call that has not finished (an "
                  "endless loop) is reported and prism exits 3 (default: no "
                  "limit)")
      ->check(CLI::Validator(
          [](std::string &S) -> std::string {
            // The watchdog sleeps for a std::chrono duration, which a
            // huge value (`inf`, 1e30) overflows into one that has passed.
            double V = 0;
            if (llvm::StringRef(S).getAsDouble(V) || !(V > 0) || V > 1e6)
              return "a positive number of seconds, at most 1000000 (leave "
                     "--timeout out for no limit), got " +
                     S;
            return {};
          },
          "SECONDS"));
  Run->add_flag("--json", O.Json, "stable JSON output");
  addTargetOptions(*Run, O, /*TargetRequired=*/false,
                   "; default the --device's (native on host and interp)");
  Run->footer("\nExample:\n  prism run assets/examples/saxpy.jl "
              "'saxpy!(2.0f0, ones(Float32, 1000), ones(Float32, 1000))' "
              "--blocks 4 --threads 256\n");
  Run->callback([&, Run] {
    O.TargetGiven = Run->get_option("--target")->count() > 0;
    Action = [&] { return runRun(O); };
  });

  auto *Devices = App.add_subcommand(
      "devices", "what each device is, or why it is unavailable");
  Devices->add_flag("--json", O.Json, "stable JSON output");
  Devices->footer("\nExample:\n  prism devices --json\n");
  On(Devices, runDevices);

  auto *Help = App.add_subcommand("help", "explain a stage or concept");
  Help->add_option("TOPIC", O.Sig, helpTopicList());
  Help->footer("\nExample:\n  prism help world-age\n");
  On(Help, runHelp);

  // `prism` alone opens the GUI, so `prism --screenshot out.png` (or any
  // other option of `gui` without the word) means `prism gui ...`.
  std::vector<std::string> Args(argv + 1, argv + argc);
  if (!Args.empty() && llvm::StringRef(Args.front()).startswith("-") &&
      Args.front() != "-h" && Args.front() != "--help" &&
      Args.front() != "--version")
    Args.insert(Args.begin(), "gui");
  // A word that names no command: say so, with the nearest command, rather
  // than CLI11's "arguments were not expected" over the whole line.
  if (!Args.empty() && !llvm::StringRef(Args.front()).startswith("-")) {
    llvm::StringRef Word = Args.front();
    std::string Nearest;
    unsigned Best = ~0u;
    // A suggestion only for a near miss: a third of the word may be wrong.
    const unsigned Max = std::max<unsigned>(1, unsigned(Word.size() / 3));
    for (const CLI::App *Cmd : App.get_subcommands({})) {
      unsigned D =
          Word.edit_distance(Cmd->get_name(), /*AllowReplacements=*/true,
                             /*MaxEditDistance=*/Max);
      if (D == 0) {
        Nearest.clear();
        Best = 0;
        break;
      }
      if (D < Best && D <= Max) {
        Best = D;
        Nearest = Cmd->get_name();
      }
    }
    if (Best != 0) {
      llvm::errs() << "prism: error: unknown command `" << Word << "`";
      if (Word.endswith(".jl"))
        llvm::errs() << "; to open it in the GUI: prism gui " << Word;
      else if (!Nearest.empty())
        llvm::errs() << "; did you mean `" << Nearest << "`?";
      llvm::errs() << " (prism --help lists the commands)\n";
      return ExitUsage;
    }
  }
  std::vector<std::string> Misplaced = misplacedOptionNotes(App, Args);
  // After `--` every word is FILE, SIG or CALL: an option there is not one.
  if (auto Dashes = llvm::find(Args, "--"); Dashes != Args.end())
    for (auto It = std::next(Dashes); It != Args.end(); ++It)
      if (llvm::StringRef(*It).startswith("-") &&
          !llvm::StringRef(*It).startswith("-(") && *It != "--")
        Misplaced.push_back("note: `" + *It +
                            "` comes after `--`, where every word is FILE, "
                            "SIG or CALL: put options before `--`");
  // `code_native --arch sm_80` without --target: which target it names.
  for (size_t I = 0; I + 1 < Args.size(); ++I)
    if (Args[I] == "--arch" && !llvm::is_contained(Args, "--target"))
      if (std::string Hint = prism::otherTargetsArchHint(Args[I + 1], "");
          !Hint.empty())
        Misplaced.push_back("note: " + Hint.substr(2));
  std::reverse(Args.begin(), Args.end()); // CLI11 takes them last first
  // parse() consumes Args: whether --json was asked is read first.
  const bool WantsJson = llvm::is_contained(Args, "--json");
  // An operator's SIG (`-(Int64, Int64)`) or a CALL (`-(1, 2)`) reads as an
  // option: say how to pass it.
  const auto Dashed = llvm::find_if(Args, [](const std::string &A) {
    return llvm::StringRef(A).startswith("-(");
  });
  const std::string DashedArg = Dashed == Args.end() ? "" : *Dashed;
  // CUDA's and other tools' names for the launch shape.
  static const std::pair<const char *, const char *> ShapeOptions[] = {
      {"--grid", "--blocks X,Y,Z (CUDA.jl's `blocks=`)"},
      {"--block", "--threads X,Y,Z (CUDA.jl's `threads=`)"},
      {"--griddim", "--blocks X,Y,Z (CUDA.jl's `blocks=`)"},
      {"--blockdim", "--threads X,Y,Z (CUDA.jl's `threads=`)"}};
  std::vector<std::string> ShapeNotes;
  for (const std::string &A : llvm::reverse(Args)) // as written
    for (const auto &[Name, Instead] : ShapeOptions)
      if (llvm::StringRef(A).lower() == Name ||
          llvm::StringRef(A).lower().rfind(std::string(Name) + "=", 0) == 0)
        ShapeNotes.push_back("note: `" + A.substr(0, A.find('=')) +
                             "` is not an option here; the launch shape is " +
                             Instead);
  try {
    App.parse(Args);
  } catch (const CLI::ParseError &E) {
    int RC;
    std::string What = E.what();
    if (dynamic_cast<const CLI::ExtrasError *>(&E)) {
      // CLI11 lists the unexpected words last first; say them as written.
      std::vector<std::string> Left = App.remaining(/*recurse=*/true);
      What = (Left.size() > 1 ? "The following arguments were not expected:"
                              : "The following argument was not expected:");
      for (const std::string &W : Left)
        What += " " + W;
      std::cerr << What << "\nRun with --help for more information.\n";
      RC = E.get_exit_code();
    } else {
      RC = App.exit(E);
    }
    if (RC == 0) { // --help, --version: printed on std::cout
      std::cout.flush();
      if (!std::cout) {
        llvm::errs() << "prism: error: cannot write the output\n";
        return ExitDevice;
      }
      return ExitOk;
    }
    std::vector<std::string> Notes;
    if (!DashedArg.empty())
      Notes.push_back("note: `" + DashedArg +
                      "` starts with `-`, which reads as an option; put `--` "
                      "before it: prism ... FILE -- '" +
                      DashedArg + "'");
    llvm::append_range(Notes, ShapeNotes);
    llvm::append_range(Notes, Misplaced);
    for (const std::string &N : Notes)
      llvm::errs() << N << "\n";
    // A script that asked for --json reads why (and the notes) on stdout too.
    if (WantsJson) {
      recordError("usage", What, Notes);
      printJsonFailure(ExitUsage);
    }
    return ExitUsage;
  }
  if (!Action)
    Action = [&] { return runGui(O); };
  // A file-size limit (RLIMIT_FSIZE) must turn into a failed write (EFBIG,
  // reported where it happens), not kill the process with SIGXFSZ.
  std::signal(SIGXFSZ, SIG_IGN);
  // An allocation inside LLVM that fails (a huge function) reports through
  // this handler, which must not return; without it LLVM prints "LLVM
  // ERROR: out of memory" and aborts. Prism's own exit: status 3, and the
  // JSON failure object a --json script reads.
  static bool JsonWanted = false;
  JsonWanted = O.Json;
  llvm::install_bad_alloc_error_handler([](void *, const char *, bool) {
    llvm::errs() << "prism: error: out of memory\n";
    if (JsonWanted) {
      recordError("memory", "out of memory");
      printJsonFailure(ExitDevice);
    }
    llvm::outs().flush();
    llvm::errs().flush();
    std::_Exit(ExitDevice);
  });
  try {
    // stdout may be a file already written to: what this command printed
    // is what it added.
    const uint64_t OutBefore = llvm::outs().tell();
    int RC = Action();
    // A script reading --json gets an object on failure too.
    if (O.Json && RC != ExitOk && llvm::outs().tell() == OutBefore)
      printJsonFailure(RC);
    // A full disk: say so, instead of LLVM's fatal error from outs()'s
    // destructor.
    llvm::outs().flush();
    if (llvm::outs().has_error()) {
      llvm::errs() << "prism: error: cannot write the output: "
                   << llvm::outs().error().message() << "\n";
      llvm::outs().clear_error();
      return RC == ExitOk ? ExitDevice : RC;
    }
    return RC;
  } catch (const std::bad_alloc &) {
    // Host-side buffers (a call's arrays, a huge program) that do not fit.
    llvm::errs() << "prism: error: out of memory\n";
    if (O.Json) {
      recordError("memory", "out of memory");
      printJsonFailure(ExitDevice);
    }
    return ExitDevice;
  }
}
