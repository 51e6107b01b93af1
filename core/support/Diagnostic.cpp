#include "support/Diagnostic.h"

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
  return FileName + ":" + std::to_string(Line) + ":" + std::to_string(Col);
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

static void renderSourceLine(llvm::raw_ostream &OS, const DiagLoc &L,
                             const RenderOptions &Opts) {
  if (!Opts.ShowSource || !L.File || !L.Line)
    return;
  std::string_view Text = L.File->lineText(L.Line);
  OS << "  " << Text << "\n  ";
  // Caret under the start column, tildes to the end of the range on that line.
  uint32_t Col = 1, I = 0;
  for (; I < Text.size() && Col < L.Col; ++I) {
    if ((static_cast<unsigned char>(Text[I]) & 0xC0) == 0x80)
      continue;
    OS << (Text[I] == '\t' ? '\t' : ' ');
    ++Col;
  }
  if (Opts.Color)
    OS.changeColor(llvm::raw_ostream::GREEN, true);
  OS << '^';
  uint32_t End = (L.EndLine == L.Line) ? L.EndCol : L.Col + 1;
  for (uint32_t C = L.Col + 1; C < End; ++C)
    OS << '~';
  if (Opts.Color)
    OS.resetColor();
  OS << '\n';
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
    OS << Msg;
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
    for (const BacktraceFrame &F : D.Backtrace)
      OS << " [" << I++ << "] " << F.Function << " at " << F.Loc.str() << '\n';
  }
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

} // namespace prism
