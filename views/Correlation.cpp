#include "Correlation.h"

#include <algorithm>
#include <cmath>

namespace prism::views {

static std::string_view baseName(std::string_view Path) {
  size_t Slash = Path.find_last_of('/');
  return Slash == std::string_view::npos ? Path : Path.substr(Slash + 1);
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
