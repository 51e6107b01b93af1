/// \file
/// The GUI's first panel: the source of the open file and what Prism knows
/// so far. Renders a read-only snapshot; changes nothing.
#pragma once

#include <string>

namespace prism::views {

struct ShellSnapshot {
  std::string FileName;
  std::string Source;
  std::string HostSummary;
};

class ShellView {
public:
  void draw(const ShellSnapshot &S);
};

} // namespace prism::views
