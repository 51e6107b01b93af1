// The ptx throw-site table, as PTX comments. See PtxThrowSites.h.
#include "targets/PtxThrowSites.h"

#include "llvm/ADT/StringExtras.h"

namespace prism {

namespace {

constexpr llvm::StringLiteral Prefix = "// prism.throw ";

/// `Key=` followed by digits at the front of S: consumes both and the
/// space after.
bool takeNumber(llvm::StringRef &S, llvm::StringRef Key, int64_t &Out) {
  if (!S.consume_front(Key))
    return false;
  llvm::StringRef Digits = S.take_while([](char C) {
    return llvm::isDigit(C) || C == '-';
  });
  if (Digits.getAsInteger(10, Out))
    return false;
  S = S.drop_front(Digits.size()).ltrim(' ');
  return true;
}

} // namespace

std::string formatThrowSites(llvm::ArrayRef<PtxThrowSite> Sites) {
  if (Sites.empty())
    return "";
  std::string S =
      "// Throw sites. A throwing thread stores site << 48 | thread << 32 |\n"
      "// block (linear indices) through prism_exception_info, then traps;\n"
      "// the cuda device reads the record back from host memory.\n";
  for (const PtxThrowSite &T : Sites)
    S += std::string(Prefix) + "site=" + std::to_string(T.Id) +
         " kind=" + std::to_string(T.Kind) + " line=" + std::to_string(T.Line) +
         " type=" + T.TypeName + " file=" + T.File + "\n";
  return S;
}

std::vector<PtxThrowSite> parseThrowSites(llvm::StringRef Ptx) {
  std::vector<PtxThrowSite> Out;
  size_t At = 0;
  while ((At = Ptx.find(Prefix, At)) != llvm::StringRef::npos) {
    llvm::StringRef Line = Ptx.substr(At + Prefix.size());
    Line = Line.take_until([](char C) { return C == '\n'; });
    At += Prefix.size() + Line.size();
    Line = Line.rtrim("\r");
    int64_t Id = 0, Kind = 0, LineNo = 0;
    if (!takeNumber(Line, "site=", Id) || !takeNumber(Line, "kind=", Kind) ||
        !takeNumber(Line, "line=", LineNo) || !Line.consume_front("type="))
      continue;
    // Type names may hold spaces (`Tuple{Int64, Int64}`); the file is last.
    size_t FileAt = Line.find(" file=");
    if (FileAt == llvm::StringRef::npos)
      continue;
    PtxThrowSite T;
    T.Id = uint32_t(Id);
    T.Kind = int32_t(Kind);
    T.Line = int32_t(LineNo);
    T.TypeName = Line.take_front(FileAt).str();
    T.File = Line.drop_front(FileAt + 6).str();
    Out.push_back(std::move(T));
  }
  return Out;
}

} // namespace prism
