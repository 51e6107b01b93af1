#include "Correlation.h"

#include <algorithm>
#include <cmath>

namespace prism::views {

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
      bool Seen = std::any_of(OutLinks.begin() + First, OutLinks.end(),
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

Rgb sourceLineColor(uint32_t SrcLine) {
  // Golden-ratio hue steps spread consecutive lines around the colour wheel;
  // alternating saturation separates the few hues that land close together.
  double Hue = std::fmod(0.07 + SrcLine * 0.6180339887498949, 1.0);
  float S = (SrcLine & 1) ? 0.55f : 0.75f, V = 0.95f;
  float H6 = float(Hue * 6.0);
  int Sector = int(H6) % 6;
  float F = H6 - std::floor(H6);
  float P = V * (1 - S), Q = V * (1 - S * F), T = V * (1 - S * (1 - F));
  switch (Sector) {
  case 0:
    return {V, T, P};
  case 1:
    return {Q, V, P};
  case 2:
    return {P, V, T};
  case 3:
    return {P, Q, V};
  case 4:
    return {T, P, V};
  default:
    return {V, P, Q};
  }
}

std::string formatInliningStack(const LineOrigin &O) {
  std::string Out;
  for (size_t I = 0; I < O.Frames.size(); ++I) {
    const SourceFrame &F = O.Frames[I];
    if (I)
      Out += '\n';
    Out += '[' + std::to_string(I + 1) + "] ";
    Out += F.Function.empty() ? std::string("?") : F.Function;
    Out += " at ";
    Out += F.File.empty() ? std::string("?")
                          : std::string(baseName(F.File));
    Out += ':' + std::to_string(F.Line);
    if (F.Col)
      Out += ':' + std::to_string(F.Col);
    if (I + 1 < O.Frames.size())
      Out += "  (inlined)";
  }
  return Out;
}

} // namespace prism::views
