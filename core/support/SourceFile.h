/// \file
/// A source buffer with its name and a line table, shared by every stage that
/// needs to turn a byte offset into `line:col`.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace prism {

/// Half-open byte range [Begin, End) inside one SourceFile.
struct SrcRange {
  uint32_t Begin = 0;
  uint32_t End = 0;
  bool valid() const { return End >= Begin && (Begin | End) != 0; }
};

struct LineCol {
  uint32_t Line = 0; ///< 1-based; 0 means unknown.
  uint32_t Col = 0;  ///< 1-based, in Unicode code points.
};

class SourceFile {
public:
  SourceFile(std::string Name, std::string Text);

  const std::string &name() const { return Name; }
  std::string_view text() const { return Text; }
  /// 1-based line and code-point column of a byte offset.
  LineCol lineCol(uint32_t Offset) const;
  /// The text of a 1-based line without its newline.
  std::string_view lineText(uint32_t Line) const;
  uint32_t lineCount() const { return LineStarts.size(); }

  static std::shared_ptr<const SourceFile> create(std::string Name,
                                                  std::string Text) {
    return std::make_shared<const SourceFile>(std::move(Name), std::move(Text));
  }

private:
  std::string Name;
  std::string Text;
  std::vector<uint32_t> LineStarts;
};

using SourceFileRef = std::shared_ptr<const SourceFile>;

} // namespace prism
