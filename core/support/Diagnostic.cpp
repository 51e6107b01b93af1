#include "support/Diagnostic.h"

#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/raw_ostream.h"

namespace prism {

char DiagnosticError::ID = 0;

DiagLoc DiagLoc::fromRange(const SourceFileRef &F, SrcRange R) {
  DiagLoc L;
  L.File = F;
  if (!F)
    return L;
  L.FileName = F->name();
  LineCol B = F->lineCol(R.Begin);
  LineCol E = F->lineCol(R.End > R.Begin ? R.End : R.Begin);
  L.Line = B.Line;
  L.Col = B.Col;
  L.EndLine = E.Line;
  L.EndCol = E.Col;
  return L;
}

std::string DiagLoc::str() const {
  if (!Line)
    return FileName;
  // Column 0: optimised code merged two places on the line.
  return FileName + ":" + std::to_string(Line) +
         (Col ? ":" + std::to_string(Col) : std::string());
}

static const char *severityName(Severity S) {
  switch (S) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "error";
}

/// Source text as it may go to a terminal: control bytes (a binary file's
/// NULs and escape codes) become `?`.
static void putSafe(llvm::raw_ostream &OS, std::string_view Text) {
  const auto *P = reinterpret_cast<const llvm::UTF8 *>(Text.data());
  const auto *End = P + Text.size();
  while (P < End) {
    unsigned char U = *P;
    if (U >= 0x80) {
      // A valid UTF-8 character is kept; a stray byte (a binary file's)
      // is a `?` like a control character, never raw bytes on a terminal.
      unsigned N = llvm::getNumBytesForUTF8(U);
      if (N <= size_t(End - P) && llvm::isLegalUTF8Sequence(P, P + N)) {
        OS.write(reinterpret_cast<const char *>(P), N);
        P += N;
      } else {
        OS << '?';
        ++P;
      }
      continue;
    }
    OS << ((U < 0x20 && U != '\t') || U == 0x7f ? '?' : char(U));
    ++P;
  }
}

/// The excerpt under a diagnostic: the line clipped to a window around the
/// caret (a 10 MB line must not become 30 MB of stderr), with `...` where
/// it was cut, and a caret with tildes to the end of the range.
static void renderSourceLine(llvm::raw_ostream &OS, const DiagLoc &L,
                             const RenderOptions &Opts) {
  if (!Opts.ShowSource || !L.File || !L.Line)
    return;
  constexpr uint32_t Before = 60, Width = 160;
  std::string_view Text = L.File->lineText(L.Line);
  // A blank line (the end of the file, where an `end` was missing) shows
  // nothing a caret could point at.
  if (Text.find_first_not_of(" \t\r") == std::string_view::npos)
    return;
  const uint32_t First = L.Col > Before ? L.Col - Before : 1;
  const uint32_t Last = First + Width; // exclusive, in columns
  // Byte offsets of columns First and Last (a column is a code point).
  size_t B = Text.size(), E = Text.size();
  uint32_t Col = 1;
  for (size_t I = 0; I <= Text.size(); ++I) {
    if (I < Text.size() && (static_cast<unsigned char>(Text[I]) & 0xC0) == 0x80)
      continue;
    if (Col == First)
      B = I;
    if (Col == Last) {
      E = I;
      break;
    }
    ++Col;
  }
  if (B > Text.size())
    B = Text.size();
  std::string_view Shown = Text.substr(B, E - B);
  const bool CutLeft = B > 0, CutRight = E < Text.size();
  OS << "  " << (CutLeft ? "..." : "");
  putSafe(OS, Shown);
  OS << (CutRight ? "..." : "") << "\n  " << (CutLeft ? "   " : "");
  Col = First;
  for (size_t I = 0; I < Shown.size() && Col < L.Col; ++I) {
    if ((static_cast<unsigned char>(Shown[I]) & 0xC0) == 0x80)
      continue;
    OS << (Shown[I] == '\t' ? '\t' : ' ');
    ++Col;
  }
  if (Opts.Color)
    OS.changeColor(llvm::raw_ostream::GREEN, true);
  OS << '^';
  uint32_t End = (L.EndLine == L.Line) ? L.EndCol : L.Col + 1;
  for (uint32_t C = L.Col + 1; C < End && C < Last; ++C)
    OS << '~';
  if (Opts.Color)
    OS.resetColor();
  OS << '\n';
}

/// A message clipped to a readable length: each line (one naming a 1 MB
/// token) and the whole (a loader's log in a note). Line breaks are kept:
/// logs and verifier output are multi-line on purpose.
static void putMessage(llvm::raw_ostream &OS, const std::string &Msg) {
  constexpr size_t MaxLine = 1000, MaxTotal = 64 * 1024;
  auto Cut = [&](size_t At) {
    while (At > 0 && (static_cast<unsigned char>(Msg[At]) & 0xC0) == 0x80)
      --At;
    return At;
  };
  size_t Pos = 0, Written = 0;
  while (Pos <= Msg.size()) {
    size_t End = Msg.find('\n', Pos);
    if (End == std::string::npos)
      End = Msg.size();
    size_t Len = End - Pos;
    if (Written + std::min(Len, MaxLine) > MaxTotal) {
      OS << "... (" << (Msg.size() - Pos) << " more bytes)";
      return;
    }
    if (Len > MaxLine) {
      size_t Keep = Cut(Pos + MaxLine) - Pos;
      putSafe(OS, std::string_view(Msg).substr(Pos, Keep));
      OS << "... (" << (Len - Keep) << " more bytes)";
      Written += Keep;
    } else {
      putSafe(OS, std::string_view(Msg).substr(Pos, Len));
      Written += Len;
    }
    if (End == Msg.size())
      return;
    OS << '\n';
    Pos = End + 1;
  }
}

void renderDiagnostic(llvm::raw_ostream &OS, const Diagnostic &D,
                      const RenderOptions &Opts) {
  auto Header = [&](const DiagLoc &L, Severity S, const std::string &Msg) {
    if (Opts.Color)
      OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
    if (!L.FileName.empty())
      OS << L.str() << ": ";
    if (Opts.Color)
      OS.changeColor(S == Severity::Error     ? llvm::raw_ostream::RED
                     : S == Severity::Warning ? llvm::raw_ostream::MAGENTA
                                              : llvm::raw_ostream::CYAN,
                     true);
    OS << severityName(S) << ": ";
    if (Opts.Color)
      OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
    putMessage(OS, Msg);
    if (Opts.Color)
      OS.resetColor();
    OS << '\n';
  };
  Header(D.Loc, D.Sev, D.Message);
  renderSourceLine(OS, D.Loc, Opts);
  for (const DiagNote &N : D.Notes) {
    Header(N.Loc, Severity::Note, N.Message);
    renderSourceLine(OS, N.Loc, Opts);
  }
  if (!D.Backtrace.empty()) {
    OS << "Stacktrace:\n";
    unsigned I = 1;
    for (const BacktraceFrame &F : D.Backtrace) {
      OS << " [" << I++ << "] " << F.str() << "\n";
      if (F.OmittedAfter)
        OS << "     " << F.omittedText() << "\n";
    }
  }
}

std::string BacktraceFrame::str() const {
  std::string S = Function + " at " + Loc.str();
  if (Inlined)
    S += " [inlined]";
  if (Repeats > 1)
    S += " (repeats " + std::to_string(Repeats) + " times)";
  return S;
}

std::string BacktraceFrame::omittedText() const {
  return "\u22ee " + std::to_string(OmittedAfter) +
         (OmittedAfter == 1 ? " more call" : " more calls") + " not listed";
}

void collapseRepeats(std::vector<BacktraceFrame> &Stack) {
  std::vector<BacktraceFrame> Out;
  for (BacktraceFrame &F : Stack) {
    if (!Out.empty()) {
      BacktraceFrame &P = Out.back();
      if (!P.OmittedAfter && P.Function == F.Function &&
          P.Loc.FileName == F.Loc.FileName && P.Loc.Line == F.Loc.Line &&
          P.Loc.Col == F.Loc.Col && P.Inlined == F.Inlined) {
        P.Repeats += F.Repeats;
        P.OmittedAfter = F.OmittedAfter;
        continue;
      }
    }
    Out.push_back(std::move(F));
  }
  Stack = std::move(Out);
}

std::string renderDiagnostic(const Diagnostic &D, const RenderOptions &Opts) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  renderDiagnostic(OS, D, Opts);
  return S;
}

void DiagnosticError::log(llvm::raw_ostream &OS) const {
  for (const Diagnostic &D : Diags)
    renderDiagnostic(OS, D, RenderOptions{false, false});
}

std::error_code DiagnosticError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

std::vector<Diagnostic> takeDiagnostics(llvm::Error E) {
  std::vector<Diagnostic> Out;
  llvm::handleAllErrors(
      std::move(E),
      [&](const DiagnosticError &DE) {
        Out.insert(Out.end(), DE.diagnostics().begin(),
                   DE.diagnostics().end());
      },
      [&](const llvm::ErrorInfoBase &EI) {
        Out.push_back(Diagnostic::error("internal", EI.message(), {}));
      });
  return Out;
}

std::string withArticle(std::string_view Noun) {
  bool Vowel = !Noun.empty() && std::string_view("AEIOaeio").find(Noun[0]) !=
                                    std::string_view::npos;
  return (Vowel ? "an " : "a ") + std::string(Noun);
}

void placeInUserCode(Diagnostic &D,
                     bool (*Library)(std::string_view FileName)) {
  if (D.Loc.FileName.empty() || !Library(D.Loc.FileName))
    return;
  for (const BacktraceFrame &F : D.Backtrace)
    if (!F.Loc.FileName.empty() && F.Loc.known() && !Library(F.Loc.FileName)) {
      D.Loc = F.Loc;
      return;
    }
}

} // namespace prism
