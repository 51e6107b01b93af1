/// \file
/// Options shared by the `prism` subcommands, as ../shared/CLI.md lists them.
#pragma once

#include "infer/CheckBounds.h"

#include <functional>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace prism::app {

/// Exit statuses of the command-line contract.
enum ExitCode : int {
  ExitOk = 0,
  ExitProgramError = 1, ///< the program has errors (diagnostics printed)
  ExitUsage = 2,        ///< bad usage
  ExitDevice = 3,       ///< device or run-time failure
};

struct CommandOptions {
  std::string File;
  std::string Sig;
  std::string Target = "native";
  bool TargetGiven = false;
  std::string Arch;
  std::string Optimize = "yes";
  std::string DebugInfo = "source";
  bool Raw = false;
  bool DumpModule = false;
  bool Json = false;
  /// remarks: only these kinds ("passed", "missed", "analysis"; empty:
  /// all) and only passes with these names (empty: all).
  std::vector<std::string> RemarkKinds;
  std::vector<std::string> RemarkPasses; ///< remarks --pass (repeatable)
  /// pipeline: only passes and functions whose names contain these (any
  /// case; empty: all), only passes that added or removed a line holding
  /// PipelineGrep, and one line a pass instead of its diff.
  std::string PipelinePass, PipelineFunction, PipelineGrep;
  bool PipelineSummary = false;
  bool PipelineAll = false; ///< also the passes that changed nothing
  bool Kernel = false;
  bool NoKernel = false;
  int MaxThreads = 0, MinThreads = 0, BlocksPerSM = 0, MaxRegs = 0;
  int OptLevel = 2;
  bool AlwaysInline = false;
  prism::CheckBounds Bounds = prism::CheckBounds::Auto; ///< --check-bounds
  // report: the on-disk compile cache
  std::string CacheDir;
  bool DiskCache = false;
  // run
  std::string Call;
  std::string Device = "host";
  std::string Compare; ///< gui: also run --run on this device and compare
  bool BenchScroll = false; ///< gui --bench-frames: scroll the stage panes
  bool ShowRemarks = false; ///< gui: open the Pipeline panel's Remarks tab
  bool ShowResources = false; ///< gui: open the Stats panel's Resources tab
  bool ShowCache = false;     ///< gui: open the Stats panel's Cache tab
  bool ShowHistory = false;   ///< gui: open the Stats panel's History tab
  unsigned PinLine = 0;       ///< gui: pin this source line (0: none)
  bool BenchEdit = false;   ///< gui --bench-frames: edit every 20 frames
  std::string ThenEdit;     ///< gui: a file whose text replaces the source
  std::string Blocks, Threads;
  unsigned long long Seed = 0;
  /// run: seconds before an unfinished call is abandoned (0: no limit).
  double Timeout = 0;
  // gui
  std::string Job, Screenshot;
  /// gui --job: also watch the job in this mode, Compare open on the two.
  std::optional<prism::CheckBounds> CompareBounds;
  int Frames = 0, BenchFrames = 0;
  bool ListWindows = false;
};

/// Adds `--check-bounds=yes|no|auto` (Julia's) to a subcommand.
void addCheckBounds(CLI::App &Cmd, CommandOptions &O);
/// An option named Name taking auto|yes|no; Set receives the mode.
void addCheckBoundsOption(CLI::App &Cmd, const std::string &Name,
                          std::function<void(prism::CheckBounds)> Set,
                          const std::string &Help);

/// Adds `--target/--arch/-O/--kernel/.../--check-bounds` to a subcommand.
/// `--debuginfo=source|none`.
void addDebugInfo(CLI::App &Cmd, CommandOptions &O);
void addTargetOptions(CLI::App &Cmd, CommandOptions &O, bool TargetRequired,
                      const char *Default = "; default native, whatever "
                                            "the file's `# targets:` says");
void addFileAndSig(CLI::App &Cmd, CommandOptions &O, const char *SigName = "SIG",
                   const char *SigHelp = "function signature, e.g. 'saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})'");

} // namespace prism::app
