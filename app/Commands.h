/// \file
/// The `prism` subcommands. Each returns an exit status per CLI.md.
#pragma once

#include "CommandOptions.h"

namespace prism::app {

int runDevices(const CommandOptions &O);
int runCodeLowered(const CommandOptions &O);
int runCodeTyped(const CommandOptions &O);
int runCodeWarntype(const CommandOptions &O);
int runCodeLlvm(const CommandOptions &O);
int runCodeNative(const CommandOptions &O);
int runPipeline(const CommandOptions &O);
int runReport(const CommandOptions &O);
int runRemarks(const CommandOptions &O);
int runHelp(const CommandOptions &O);
/// "lowered | typed | ...": every topic `prism help` knows.
std::string helpTopicList();
/// `prism run FILE CALL` (RunCommand.cpp).
int runRun(const CommandOptions &O);

/// The desktop GUI (GuiApp.cpp). Returns an exit status; without a display it
/// prints a clear message and returns ExitDevice.
int runGui(const CommandOptions &O);

} // namespace prism::app
