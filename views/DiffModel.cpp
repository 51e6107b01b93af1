#include "DiffModel.h"

#include <charconv>

namespace prism::views {

static void addRow(DiffText &D, DiffText::RowKind K, std::string_view Text,
                   uint32_t Old, uint32_t New) {
  D.Text.append(Text);
  D.Text.push_back('\n');
  D.Kinds.push_back(K);
  D.OldNo.push_back(Old);
  D.NewNo.push_back(New);
  D.NumAdded += K == DiffText::Added;
  D.NumRemoved += K == DiffText::Removed;
}

DiffText diffTextFromLines(const std::vector<DiffLine> &Lines) {
  DiffText D;
  for (const DiffLine &L : Lines) {
    auto K = L.K == DiffLine::Added     ? DiffText::Added
             : L.K == DiffLine::Removed ? DiffText::Removed
                                        : DiffText::Same;
    addRow(D, K, L.Text, L.OldLine >= 0 ? L.OldLine + 1 : 0,
           L.NewLine >= 0 ? L.NewLine + 1 : 0);
  }
  return D;
}

static uint32_t parseStart(std::string_view S) {
  // "-12,5" or "+7" → 12 / 7
  uint32_t V = 0;
  if (S.size() > 1)
    std::from_chars(S.data() + 1, S.data() + S.size(), V);
  return V;
}

DiffText diffTextFromUnified(std::string_view U) {
  DiffText D;
  uint32_t Old = 0, New = 0;
  while (!U.empty()) {
    size_t NL = U.find('\n');
    std::string_view L = U.substr(0, NL);
    U = NL == std::string_view::npos ? std::string_view() : U.substr(NL + 1);
    if (L.starts_with("--- ") || L.starts_with("+++ ")) {
      addRow(D, DiffText::Header, L, 0, 0);
    } else if (L.starts_with("@@")) {
      size_t Minus = L.find('-'), Plus = L.find('+');
      if (Minus != std::string_view::npos)
        Old = parseStart(L.substr(Minus, L.find(' ', Minus) - Minus));
      if (Plus != std::string_view::npos)
        New = parseStart(L.substr(Plus, L.find(' ', Plus) - Plus));
      addRow(D, DiffText::Hunk, L, 0, 0);
    } else if (!L.empty() && L[0] == '+') {
      addRow(D, DiffText::Added, L.substr(1), 0, New++);
    } else if (!L.empty() && L[0] == '-') {
      addRow(D, DiffText::Removed, L.substr(1), Old++, 0);
    } else {
      addRow(D, DiffText::Same, L.empty() ? L : L.substr(1), Old++, New++);
    }
  }
  return D;
}

bool diffChangesCode(std::string_view U) {
  while (!U.empty()) {
    size_t NL = U.find('\n');
    std::string_view L = U.substr(0, NL);
    U = NL == std::string_view::npos ? std::string_view() : U.substr(NL + 1);
    if (L.empty() || (L[0] != '+' && L[0] != '-') || L.starts_with("--- ") ||
        L.starts_with("+++ "))
      continue;
    std::string_view Body = L.substr(1);
    size_t First = Body.find_first_not_of(" \t");
    if (First == std::string_view::npos || Body[First] == ';')
      continue;
    // An attribute group (`attributes #0 = { mustprogress ... }`) is what
    // the comments above each function name: no code either.
    if (!Body.substr(First).starts_with("attributes #"))
      return true;
  }
  return false;
}

} // namespace prism::views
