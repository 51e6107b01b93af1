#include "Signatures.h"

#include <cctype>

namespace prism::views {

static std::string_view trim(std::string_view S) {
  while (!S.empty() && std::isspace((unsigned char)S.front()))
    S.remove_prefix(1);
  while (!S.empty() && std::isspace((unsigned char)S.back()))
    S.remove_suffix(1);
  return S;
}

std::vector<std::string> suggestSignatures(std::string_view Src) {
  std::vector<std::string> Out;
  size_t Pos = 0;
  while ((Pos = Src.find("function", Pos)) != std::string_view::npos) {
    bool WordStart = Pos == 0 || !(std::isalnum((unsigned char)Src[Pos - 1]) ||
                                   Src[Pos - 1] == '_');
    Pos += 8;
    if (!WordStart || Pos >= Src.size() || !std::isspace((unsigned char)Src[Pos]))
      continue;
    size_t NameBegin = Pos;
    while (NameBegin < Src.size() && Src[NameBegin] == ' ')
      ++NameBegin;
    size_t Open = Src.find('(', NameBegin);
    size_t EOL = Src.find('\n', NameBegin);
    if (Open == std::string_view::npos || Open > EOL)
      continue;
    std::string_view Name = trim(Src.substr(NameBegin, Open - NameBegin));
    if (Name.empty())
      continue;
    // Split the arguments at depth-0 commas.
    std::vector<std::string_view> Args;
    int Depth = 0;
    size_t ArgBegin = Open + 1, I = Open + 1;
    bool Closed = false;
    for (; I < Src.size(); ++I) {
      char C = Src[I];
      if (C == '(' || C == '{' || C == '[')
        ++Depth;
      else if (C == '}' || C == ']')
        --Depth;
      else if (C == ')') {
        if (Depth == 0) {
          Closed = true;
          break;
        }
        --Depth;
      } else if (C == ',' && Depth == 0) {
        Args.push_back(trim(Src.substr(ArgBegin, I - ArgBegin)));
        ArgBegin = I + 1;
      } else if (C == ';' && Depth == 0) {
        break; // keyword arguments: not a SIG we can write
      }
    }
    if (!Closed)
      continue;
    std::string_view Last = trim(Src.substr(ArgBegin, I - ArgBegin));
    if (!Last.empty() || !Args.empty())
      Args.push_back(Last);
    std::string Sig(Name);
    Sig += '(';
    bool Ok = true;
    for (size_t K = 0; K < Args.size() && Ok; ++K) {
      size_t Colons = Args[K].find("::");
      if (Colons == std::string_view::npos) {
        Ok = false;
        break;
      }
      if (K)
        Sig += ", ";
      Sig += trim(Args[K].substr(Colons + 2));
    }
    Sig += ')';
    if (Ok)
      Out.push_back(std::move(Sig));
    Pos = I;
  }
  return Out;
}

bool sameSignature(std::string_view A, std::string_view B) {
  size_t I = 0, J = 0;
  for (;;) {
    while (I < A.size() && A[I] == ' ')
      ++I;
    while (J < B.size() && B[J] == ' ')
      ++J;
    if (I == A.size() || J == B.size())
      return I == A.size() && J == B.size();
    if (A[I++] != B[J++])
      return false;
  }
}

} // namespace prism::views
