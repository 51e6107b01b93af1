#include "LineCorrelation.h"

#include <algorithm>

namespace prism {

static std::string_view baseName(std::string_view Path) {
  size_t Slash = Path.find_last_of('/');
  return Slash == std::string_view::npos ? Path : Path.substr(Slash + 1);
}

bool sameSourceFile(std::string_view FrameFile, std::string_view OpenFile) {
  if (FrameFile.empty() || OpenFile.empty())
    return false;
  if (FrameFile == OpenFile)
    return true;
  // Both absolute and different: two different files of the same name.
  if (FrameFile.front() == '/' && OpenFile.front() == '/')
    return false;
  return baseName(FrameFile) == baseName(OpenFile);
}

LineMap::LineMap(const std::vector<LineOrigin> &Origins,
                 std::string_view OpenFile) {
  OutStart.reserve(Origins.size() + 1);
  for (uint32_t Out = 0; Out < Origins.size(); ++Out) {
    OutStart.push_back(OutLinks.size());
    const auto &Frames = Origins[Out].Frames;
    size_t First = OutLinks.size();
    for (uint32_t Depth = 0; Depth < Frames.size(); ++Depth) {
      const SourceFrame &F = Frames[Depth];
      if (F.Line == 0 || !sameSourceFile(F.File, OpenFile))
        continue;
      // Recursion inlined into itself can repeat a line; keep the innermost.
      bool Seen =
          std::any_of(OutLinks.begin() + First, OutLinks.end(),
                      [&](const LineLink &L) { return L.Line == F.Line; });
      if (Seen)
        continue;
      OutLinks.push_back({F.Line, Depth});
      if (BySource.size() <= F.Line)
        BySource.resize(F.Line + 1);
      BySource[F.Line].push_back({Out, Depth});
    }
    if (OutLinks.size() != First)
      ++Mapped;
  }
  OutStart.push_back(OutLinks.size());
}

const std::vector<LineLink> &LineMap::outputLinesFor(uint32_t SrcLine) const {
  static const std::vector<LineLink> None;
  return SrcLine < BySource.size() ? BySource[SrcLine] : None;
}

std::vector<LineLink> LineMap::sourceLinesOf(uint32_t OutLine) const {
  if (OutLine + 1 >= OutStart.size())
    return {};
  return {OutLinks.begin() + OutStart[OutLine],
          OutLinks.begin() + OutStart[OutLine + 1]};
}

uint32_t LineMap::primarySourceLine(uint32_t OutLine) const {
  if (OutLine + 1 >= OutStart.size() ||
      OutStart[OutLine] == OutStart[OutLine + 1])
    return 0;
  return OutLinks[OutStart[OutLine]].Line;
}

std::vector<uint32_t> LineMap::sourceLinesWithOutput() const {
  std::vector<uint32_t> Lines;
  for (uint32_t L = 1; L < BySource.size(); ++L)
    if (!BySource[L].empty())
      Lines.push_back(L);
  return Lines;
}

} // namespace prism
