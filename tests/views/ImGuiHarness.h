/// \file
/// ImGui without a window for the view tests: a context with a display
/// size and a built font atlas, frames run with NewFrame/Render and no
/// renderer backend. `rasterize` draws the last frame's draw data into an
/// RGBA image in software so that a test can write a PNG of what a panel
/// looks like (no GPU, no GLFW).
#pragma once

#include <imgui.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace prism::views::test {

class ImGuiHarness {
public:
  /// Uses DejaVu Sans/Mono when installed (as the app does), else ImGui's
  /// built-in font.
  explicit ImGuiHarness(ImVec2 Display = ImVec2(1600, 1000));
  ~ImGuiHarness();
  ImGuiHarness(const ImGuiHarness &) = delete;
  ImGuiHarness &operator=(const ImGuiHarness &) = delete;

  /// Runs one frame: NewFrame, Body, Render.
  void frame(const std::function<void()> &Body);
  ImFont *mono() const { return Mono; }

  /// Software-renders the last frame (RGBA, DisplaySize) and writes a PNG.
  bool writePng(const std::string &Path) const;

private:
  ImGuiContext *Ctx = nullptr;
  ImFont *Mono = nullptr;
  unsigned char *AtlasPixels = nullptr;
  int AtlasW = 0, AtlasH = 0;
};

} // namespace prism::views::test
