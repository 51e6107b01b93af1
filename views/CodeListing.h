/// \file
/// The virtualised, syntax-coloured text widget under every stage pane and
/// diff: only the visible rows are tokenised and drawn (ImGuiListClipper),
/// so a 20 000-line module scrolls at display rate. Rows can carry a
/// background tint, a gutter marker and an extra gutter column; the widget
/// reports the hovered and clicked rows and leaves their meaning to the
/// caller.
#pragma once

#include "DiffModel.h"
#include "Syntax.h"
#include "Theme.h"
#include "support/TextLines.h"

#include <imgui.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prism::views {

struct RowStyle {
  ImU32 Background = 0; ///< tint behind the row (0: none)
  ImU32 Marker = 0;     ///< a bar at the gutter's right edge (0: none)
  ImU32 TextOverride = 0; ///< draw the whole row in this colour (diff)
};

/// A row marked on the vertical scrollbar (an overview ruler, as editors
/// draw one): where the lit, found or changed rows are in a listing taller
/// than its view.
struct OverviewMark {
  uint32_t Row = 0;
  ImU32 Color = 0;
};

struct CodeListing {
  const TextLines *Lines = nullptr;
  Syntax Lang = Syntax::Plain;
  bool LineNumbers = true;
  /// Optional per-row styling.
  std::function<RowStyle(uint32_t Row)> StyleOf;
  /// Optional extra gutter text per row (source line, diff sign); the column
  /// is ExtraChars characters wide.
  std::function<std::string(uint32_t Row)> ExtraGutter;
  int ExtraChars = 0;
  /// Optional line-number override (diffs number old/new lines): returns
  /// 0 to leave the number blank.
  std::function<uint32_t(uint32_t Row)> NumberOf;
  std::string_view Find; ///< highlight occurrences (case-insensitive)
  int32_t CurrentRow = -1; ///< the find result in focus, drawn stronger
  int32_t SelectedRow = -1;
  /// Bring this row into view: a third from the top when it is off screen,
  /// or exactly at the top when ScrollToTop (restoring a saved position).
  int32_t ScrollTo = -1;
  bool ScrollToTop = false;
  /// Marks drawn over the vertical scrollbar, in row order or not; later
  /// marks draw over earlier ones.
  const std::vector<OverviewMark> *Overview = nullptr;
};

struct CodeListingResult {
  int32_t HoveredRow = -1;
  int32_t ClickedRow = -1;
  uint32_t FirstVisible = 0, LastVisible = 0; ///< rows drawn this frame
  /// Rows wholly inside the view (a row cut off at an edge is drawn but
  /// not seen): what "already on screen" means for scrolling to a line.
  uint32_t FirstWhole = 0, LastWhole = 0;
};

/// Draws the listing into a child region of the given size (0: fill).
CodeListingResult drawCodeListing(const char *Id, const CodeListing &L,
                                  const Palette &P, ImFont *Mono,
                                  ImVec2 Size = ImVec2(0, 0));

} // namespace prism::views

namespace prism::views {

/// A diff as a listing: added rows green, removed rows red, hunk headers
/// blue, with old and new line numbers in the gutter. Lines must index
/// D.Text.
CodeListingResult drawDiffListing(const char *Id, const DiffText &D,
                                  const TextLines &Lines, Syntax Lang,
                                  const Palette &P, ImFont *Mono,
                                  ImVec2 Size = ImVec2(0, 0));

} // namespace prism::views
