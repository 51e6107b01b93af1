/// \file
/// What every panel receives each frame: the snapshot (read-only), the sink
/// for commands, the theme, the monospace font, the key bindings, and the
/// cross-panel correlation state (which source line is hovered or pinned).
/// Panels never talk to each other directly; they meet here.
#pragma once

#include "Correlation.h"
#include "Theme.h"
#include "ViewModel.h"

#include <imgui.h>

#include <cstdint>
#include <vector>

namespace prism::views {

/// Key codes for the shortcuts. ImGui 1.86 indexes io.KeysDown by the
/// platform backend's codes; the app fills these from GLFW, and the
/// defaults (ASCII letters, no function keys) suit a headless test.
struct KeyBindings {
  int F = 'F', S = 'S', R = 'R', J = 'J', O = 'O', Q = 'Q';
  int F1 = -1, F3 = -1;
  int Equal = '=', Minus = '-';
  bool pressed(int Key, bool Repeat = false) const {
    return Key >= 0 && ImGui::IsKeyPressed(Key, Repeat);
  }
};

/// Correlation highlights shared by the Source view and the stage panes.
/// Panels read the previous frame's state and write the next one, so the
/// drawing order of panels never matters.
class LinkState {
public:
  /// Source line (1-based) under the mouse in the Source view; 0 = none.
  uint32_t hoveredSource() const { return Cur.HoveredSource; }
  /// Source lines of the output line under the mouse in some pane.
  const std::vector<LineLink> &hoveredOrigins() const {
    return Cur.HoveredOrigins;
  }
  /// The source line the user clicked (sticky until clicked again).
  uint32_t pinnedSource() const { return Pinned; }
  /// Set on the frame a new line was pinned: panes scroll to its output.
  bool pinChanged() const { return Cur.PinChanged; }
  /// The source line whose output the panes should light: hover wins.
  uint32_t litSource() const {
    if (Cur.HoveredSource)
      return Cur.HoveredSource;
    if (!Cur.HoveredOrigins.empty())
      return Cur.HoveredOrigins.front().Line;
    return Pinned;
  }

  void hoverSource(uint32_t Line) { Next.HoveredSource = Line; }
  void hoverOutput(std::vector<LineLink> Origins) {
    Next.HoveredOrigins = std::move(Origins);
  }
  /// Pins a source line; Toggle unpins it when it is already pinned.
  void pinSource(uint32_t Line, bool Toggle = false) {
    Pinned = (Toggle && Pinned == Line) ? 0 : Line;
    Next.PinChanged = Pinned != 0;
  }
  void clearPin() { Pinned = 0; }
  /// Called once per frame after all panels drew.
  void endFrame() {
    Cur = std::move(Next);
    Next = {};
  }

private:
  struct FrameState {
    uint32_t HoveredSource = 0;
    std::vector<LineLink> HoveredOrigins;
    bool PinChanged = false;
  };
  FrameState Cur, Next;
  uint32_t Pinned = 0;
};

struct ViewContext {
  const GuiSnapshot &Snap;
  CommandSink &Sink;
  LinkState &Links;
  const Palette &Colors;
  const KeyBindings &Keys;
  ImFont *Mono = nullptr; ///< null: ImGui's default font (itself monospace)

  const JobEntry *selectedJob() const { return Snap.selectedJob(); }
  const JobReport *selectedReport() const {
    const JobEntry *J = selectedJob();
    return J && J->Report ? J->Report.get() : nullptr;
  }
};

/// Centred grey text for an empty panel ("no job yet — ...").
void drawEmptyState(const char *Message, const char *Detail = nullptr);

/// Text that ends with "…" where it would pass the right edge of the
/// available width (a table cell), with the whole of it as the tooltip.
void textElided(const std::string &Text);

/// A job's short label: "saxpy! · ptx sm_80 -O2".
std::string jobLabel(const JobEntry &J);

/// The status bar's left part: the selected job, its status and a
/// non-default --check-bounds. The bar adds the Workspace's last message.
std::string statusBarJobText(const GuiSnapshot &Snap);

} // namespace prism::views
