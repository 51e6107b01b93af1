// prism: a thin main over the core libraries. Subcommands follow
// ../shared/CLI.md (Julia's reflection names).
#include "CommandOptions.h"
#include "Commands.h"

#include <CLI/CLI.hpp>

#include "llvm/Support/raw_ostream.h"

#include <functional>

using namespace prism::app;

int main(int argc, char **argv) {
  CLI::App App{"Prism: see inside a GPU kernel compiler.\n\n"
               "  prism code_typed assets/examples/saxpy.jl "
               "'saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})'",
               "prism"};
  App.set_version_flag("--version", std::string("prism ") + PRISM_VERSION +
                                        " (LLVM " LLVM_VERSION_STRING ")");
  App.require_subcommand(0, 1);
  CommandOptions O;
  std::function<int()> Action;

  auto *Gui = App.add_subcommand("gui", "the desktop GUI");
  Gui->add_option("FILE", O.File, "kernel-language source file");
  Gui->add_option("--job", O.Job, "signature of a job to watch");
  Gui->add_option("--target", O.Target, "target of that job");
  Gui->add_option("--screenshot", O.Screenshot,
                  "render frames, write a PNG and exit");
  Gui->add_option("--frames", O.Frames, "frames to render before the screenshot");
  Gui->add_option("--bench-frames", O.BenchFrames,
                  "render N frames and print frame-time statistics");
  Gui->callback([&] { Action = [&] { return runGui(O); }; });

  auto *Lowered = App.add_subcommand("code_lowered", "lowered IR of a method");
  addFileAndSig(*Lowered, O);
  Lowered->callback([&] { Action = [&] { return runCodeLowered(O); }; });

  auto *Devices = App.add_subcommand("devices", "what each device is, or why it is unavailable");
  Devices->add_flag("--json", O.Json, "stable JSON output");
  Devices->callback([&] { Action = [&] { return runDevices(O); }; });

  try {
    App.parse(argc, argv);
  } catch (const CLI::ParseError &E) {
    int RC = App.exit(E);
    return RC == 0 ? ExitOk : ExitUsage;
  }
  if (!Action)
    Action = [&] { return runGui(O); };
  return Action();
}
