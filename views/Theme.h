/// \file
/// Dark and light themes: the ImGui style plus the colours Prism's own
/// drawing uses (syntax tokens, diff lines, job status, correlation tints),
/// so that every panel changes together when the user switches theme.
#pragma once

#include "Correlation.h"
#include "Syntax.h"
#include "ViewModel.h"

#include <imgui.h>

namespace prism::views {

enum class ThemeKind : uint8_t { Dark, Light };

struct Palette {
  bool Dark = true;
  ImU32 Tokens[int(TokenKind::Unstable) + 1] = {};
  ImU32 Text = 0, Muted = 0, LineNumber = 0, LineNumberHot = 0;
  ImU32 HoverRow = 0, SelectedRow = 0, FindMatch = 0, FindCurrent = 0;
  ImU32 DiffAddedBg = 0, DiffRemovedBg = 0, DiffAddedText = 0,
        DiffRemovedText = 0, DiffHunk = 0;
  ImU32 Ok = 0, Failed = 0, Busy = 0, Stale = 0, Warning = 0, Error = 0;
  ImU32 GutterBg = 0;
  float TintAlpha = 0.22f; ///< background tint of correlated lines
  float MapAlpha = 0.07f;  ///< faint per-source-line tint of every mapped line

  ImU32 token(TokenKind K) const { return Tokens[int(K)]; }
  ImU32 jobStatus(JobStatus S) const;
  /// The correlation colour of a source line at an opacity.
  ImU32 sourceLine(uint32_t SrcLine, float Alpha) const;
};

/// Sets ImGui's style colours and metrics and returns the matching palette.
const Palette &applyTheme(ThemeKind K);
const Palette &palette(ThemeKind K);

} // namespace prism::views
