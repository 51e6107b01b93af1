#include "TextLines.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>

namespace prism {

TextLines::TextLines(std::string_view Text) : Text(Text) {
  if (Text.empty())
    return;
  Starts.reserve(std::count(Text.begin(), Text.end(), '\n') + 1);
  uint32_t Start = 0;
  while (Start < Text.size()) {
    const void *NL =
        std::memchr(Text.data() + Start, '\n', Text.size() - Start);
    uint32_t End =
        NL ? static_cast<const char *>(NL) - Text.data() : Text.size();
    Starts.push_back(Start);
    Longest = std::max(Longest, End - Start);
    Start = End + 1;
  }
}

std::string_view TextLines::line(uint32_t I) const {
  if (I >= Starts.size())
    return {};
  uint32_t Begin = Starts[I];
  uint32_t End = I + 1 < Starts.size() ? Starts[I + 1] - 1 : Text.size();
  std::string_view L = Text.substr(Begin, End - Begin);
  if (!L.empty() && L.back() == '\r')
    L.remove_suffix(1);
  return L;
}

static bool equalsAt(std::string_view Hay, size_t At, std::string_view Needle) {
  for (size_t K = 0; K < Needle.size(); ++K)
    if (std::tolower((unsigned char)Hay[At + K]) !=
        std::tolower((unsigned char)Needle[K]))
      return false;
  return true;
}

std::vector<uint32_t> findInLine(std::string_view Line,
                                 std::string_view Needle) {
  std::vector<uint32_t> Hits;
  if (Needle.empty() || Needle.size() > Line.size())
    return Hits;
  for (size_t I = 0; I + Needle.size() <= Line.size(); ++I)
    if (equalsAt(Line, I, Needle)) {
      Hits.push_back(I);
      I += Needle.size() - 1;
    }
  return Hits;
}

std::vector<uint32_t> findLines(const TextLines &Lines,
                                std::string_view Needle) {
  std::vector<uint32_t> Hits;
  if (Needle.empty())
    return Hits;
  for (uint32_t I = 0; I < Lines.size(); ++I) {
    std::string_view L = Lines.line(I);
    for (size_t J = 0; J + Needle.size() <= L.size(); ++J)
      if (equalsAt(L, J, Needle)) {
        Hits.push_back(I);
        break;
      }
  }
  return Hits;
}

std::optional<uint32_t> entryDefinitionLine(const TextLines &L, bool IsAsm,
                                            std::string_view Entry) {
  if (Entry.empty())
    return std::nullopt;
  std::string Renamed(Entry);
  for (char &C : Renamed)
    if (C == '!')
      C = '_';
  auto Has = [](std::string_view Line, std::string_view Needle) {
    return Line.find(Needle) != std::string_view::npos;
  };
  for (uint32_t I = 0; I < L.size(); ++I) {
    std::string_view Line = L.line(I);
    if (!IsAsm) {
      if (Line.rfind("define ", 0) == 0 &&
          (Has(Line, "@" + std::string(Entry) + "(") ||
           Has(Line, "@\"" + std::string(Entry) + "\"(")))
        return I;
      continue;
    }
    size_t First = Line.find_first_not_of(" \t");
    std::string_view T =
        First == std::string_view::npos ? "" : Line.substr(First);
    // A PTX function that returns a value names it after its return
    // parameter: `.visible .func  (.param .b64 func_retval0) julia_f(`.
    for (const std::string &Name : {std::string(Entry), Renamed})
      if (T.rfind(Name + ":", 0) == 0 || T.rfind("\"" + Name + "\":", 0) == 0 ||
          Has(T, ".entry " + Name) || Has(T, ".func " + Name) ||
          (Has(T, ".func ") && Has(T, ") " + Name + "(")))
        return I;
  }
  return std::nullopt;
}

} // namespace prism
