/// \file
/// What each edit did: the methods it (re)defined, the CodeInstances whose
/// world range it ended (and why: which edge), and the jobs that recompiled
/// because of it — newest first, from the snapshot's log.
#pragma once

#include "ViewContext.h"

namespace prism::views {

class InvalidationsView {
public:
  void draw(ViewContext &Ctx, bool *Open);
  void drawContent(ViewContext &Ctx);
  /// Method and instance rows submitted in the last frame (tests: only the
  /// rows on screen are).
  unsigned rowsDrawn() const { return RowsDrawn; }

private:
  uint64_t NewestSeen = 0; ///< opens the newest entry when it arrives
  unsigned RowsDrawn = 0;
};

} // namespace prism::views
