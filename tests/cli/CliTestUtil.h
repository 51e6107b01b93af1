/// \file
/// Runs the real `prism` binary and captures its output and exit status.
#pragma once

#include <string>
#include <vector>

namespace prism::test {

struct CommandResult {
  int ExitCode = -1;
  std::string Out; ///< stdout
  std::string Err; ///< stderr
};

/// Runs `prism` with the given arguments (no shell involved), in this
/// process's environment plus `Env` ("NAME=value" entries, which win).
CommandResult runPrism(const std::vector<std::string> &Args,
                       const std::vector<std::string> &Env = {});

inline std::string example(const std::string &Name) {
  return std::string(PRISM_EXAMPLES_DIR) + "/" + Name;
}

} // namespace prism::test
