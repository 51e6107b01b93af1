#include "support/SourceFile.h"

#include <algorithm>

namespace prism {

SourceFile::SourceFile(std::string N, std::string T)
    : Name(std::move(N)), Text(std::move(T)) {
  LineStarts.push_back(0);
  for (uint32_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      LineStarts.push_back(I + 1);
}

LineCol SourceFile::lineCol(uint32_t Offset) const {
  if (Offset > Text.size())
    Offset = Text.size();
  auto It = std::upper_bound(LineStarts.begin(), LineStarts.end(), Offset);
  uint32_t Line = It - LineStarts.begin();
  uint32_t Start = LineStarts[Line - 1];
  // Columns count code points, not bytes: skip UTF-8 continuation bytes.
  uint32_t Col = 1;
  for (uint32_t I = Start; I < Offset; ++I)
    if ((static_cast<unsigned char>(Text[I]) & 0xC0) != 0x80)
      ++Col;
  return {Line, Col};
}

std::string_view SourceFile::lineText(uint32_t Line) const {
  if (Line == 0 || Line > LineStarts.size())
    return {};
  uint32_t Start = LineStarts[Line - 1];
  uint32_t End = Line < LineStarts.size() ? LineStarts[Line] : Text.size();
  while (End > Start && (Text[End - 1] == '\n' || Text[End - 1] == '\r'))
    --End;
  return std::string_view(Text).substr(Start, End - Start);
}

} // namespace prism
