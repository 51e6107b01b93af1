#include "ProgramLoader.h"

#include "CommandOptions.h"
#include "lang/Parser.h"
#include "support/JsonOutput.h"
#include "support/SourceRead.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace prism::app {

namespace {
/// Where an error that names no place came from: the SIG or CALL argument
/// (an error about the request as a whole, such as no method matching it).
std::string RequestSource;

/// Every diagnostic printed, kept for `--json`'s failure object.
std::vector<Diagnostic> &printedDiagnostics() {
  static std::vector<Diagnostic> Printed;
  return Printed;
}

std::string fileNameOf(const DiagLoc &L) {
  if (!L.FileName.empty())
    return L.FileName;
  return L.File ? L.File->name() : "";
}

llvm::json::Object locationJSON(const DiagLoc &L) {
  // Every key is always there (README): null where a diagnostic has no
  // place, such as a bad option.
  llvm::json::Object O{{"file", nullptr}, {"line", nullptr}, {"col", nullptr}};
  if (std::string F = fileNameOf(L); !F.empty())
    O["file"] = F;
  if (L.known()) {
    O["line"] = int64_t(L.Line);
    O["col"] = int64_t(L.Col);
  }
  return O;
}
} // namespace

void setRequestSource(std::string Name) { RequestSource = std::move(Name); }

void recordError(std::string Kind, std::string Message,
                 const std::vector<std::string> &Notes) {
  Diagnostic D = Diagnostic::error(std::move(Kind), std::move(Message), {});
  for (llvm::StringRef N : Notes) {
    N.consume_front("note: ");
    D.note(N.str());
  }
  printedDiagnostics().push_back(std::move(D));
}

void printJsonFailure(int ExitCode) {
  llvm::json::Array Diags;
  for (const Diagnostic &D : printedDiagnostics()) {
    llvm::json::Object O = locationJSON(D.Loc);
    O["severity"] = D.Sev == Severity::Error     ? "error"
                    : D.Sev == Severity::Warning ? "warning"
                                                 : "note";
    O["kind"] = D.Kind;
    O["message"] = D.Message;
    llvm::json::Array Notes;
    for (const DiagNote &N : D.Notes) {
      llvm::json::Object NO = locationJSON(N.Loc);
      NO["message"] = N.Message;
      Notes.push_back(std::move(NO));
    }
    O["notes"] = std::move(Notes);
    if (!D.Backtrace.empty()) {
      llvm::json::Array Frames;
      for (const BacktraceFrame &F : D.Backtrace) {
        llvm::json::Object FO = locationJSON(F.Loc);
        FO["function"] = F.Function;
        FO["inlined"] = F.Inlined;
        if (F.Repeats > 1)
          FO["repeats"] = int64_t(F.Repeats);
        if (F.OmittedAfter)
          FO["omitted_after"] = int64_t(F.OmittedAfter);
        Frames.push_back(std::move(FO));
      }
      O["stacktrace"] = std::move(Frames);
    }
    Diags.push_back(std::move(O));
  }
  llvm::json::Object J{{"ok", false},
                       {"exit_status", ExitCode},
                       {"diagnostics", std::move(Diags)}};
  printJSON(llvm::outs(), llvm::json::Value(std::move(J)));
}

bool wantsColor(llvm::raw_ostream &OS) {
  const char *NoColor = std::getenv("NO_COLOR");
  return OS.has_colors() && !(NoColor && *NoColor);
}

void printDiagnostics(const std::vector<Diagnostic> &Ds) {
  RenderOptions Opts;
  Opts.Color = wantsColor(llvm::errs());
  // Errors stop at the parser's own limit; warnings (a method redefined
  // two thousand times) would print without one.
  constexpr size_t MaxWarnings = 100;
  size_t Warnings = 0, Dropped = 0;
  for (const Diagnostic &D : Ds) {
    if (D.Sev == Severity::Warning && ++Warnings > MaxWarnings) {
      ++Dropped;
      continue;
    }
    printedDiagnostics().push_back(D);
    // CLI.md: every error is FILE:LINE:COL: error: ... An unavailable
    // device is a fact about this machine, not about the request.
    if (D.Sev == Severity::Error && D.Loc.FileName.empty() && !D.Loc.known() &&
        !RequestSource.empty() && D.Kind != "usage" && D.Kind != "config" &&
        D.Kind != "internal" && D.Kind != "device-unavailable") {
      Diagnostic Placed = D;
      Placed.Loc.FileName = RequestSource;
      Placed.Loc.Line = Placed.Loc.Col = 1;
      printedDiagnostics().back() = Placed;
      renderDiagnostic(llvm::errs(), Placed, Opts);
      continue;
    }
    renderDiagnostic(llvm::errs(), D, Opts);
  }
  if (Dropped)
    llvm::errs() << "note: " << Dropped << " more warning"
                 << (Dropped == 1 ? "" : "s") << " not shown\n";
}

int reportError(llvm::Error E) {
  printDiagnostics(takeDiagnostics(std::move(E)));
  return ExitProgramError;
}

std::optional<LoadedProgram> loadProgram(const std::string &File,
                                         int &ExitCode) {
  auto Buf = readSourceFile(File);
  if (!Buf) {
    llvm::errs() << "prism: cannot read " << File << ": "
                 << Buf.getError().message() << "\n";
    // `prism code_typed 'f(Int)' f.jl`: the order is FILE, then SIG/CALL.
    std::vector<std::string> Notes;
    if (llvm::StringRef(File).rtrim().endswith(")") &&
        File.find('(') != std::string::npos) {
      Notes.push_back("`" + File +
                      "` looks like a SIG or CALL: FILE comes first (prism "
                      "COMMAND FILE SIG, prism run FILE CALL)");
      llvm::errs() << "note: " << Notes.back() << "\n";
    }
    recordError("usage",
                "cannot read " + File + ": " + Buf.getError().message(), Notes);
    ExitCode = ExitUsage;
    return std::nullopt;
  }
  LoadedProgram P;
  P.Env = std::make_unique<GlobalEnv>();
  if (llvm::Error E = loadPrelude(*P.Env)) {
    llvm::errs() << "prism: internal error: the prelude does not load\n";
    ExitCode = reportError(std::move(E));
    return std::nullopt;
  }
  auto Source = SourceFile::create(File, (*Buf)->getBuffer().str());
  std::shared_ptr<const ast::ParsedFile> Parsed = parseFile(Source);
  auto Loaded = loadFile(*P.Env, Parsed);
  if (!Loaded) {
    ExitCode = reportError(Loaded.takeError());
    return std::nullopt;
  }
  // An empty file (or one of comments only): every SIG and CALL will name
  // an undefined function, so say why once.
  if (Loaded->Added.empty()) {
    Diagnostic D = Diagnostic::error(
        "empty-program",
        "`" + File + "` defines no functions or types (is it the right file?)",
        {});
    D.Sev = Severity::Warning;
    D.Loc.FileName = File;
    Loaded->Warnings.push_back(std::move(D));
  }
  printDiagnostics(Loaded->Warnings);
  P.Loaded = std::move(*Loaded);
  return P;
}

std::optional<FunctionSpec> resolveSignature(LoadedProgram &P,
                                             const std::string &Sig,
                                             int &ExitCode) {
  setRequestSource("<signature>");
  auto S = parseSignature(*P.Env, Sig);
  if (!S) {
    // A SIG that cannot be read, or that names no function or type, is a
    // mistake in the request, not in the program (as a CALL's is).
    printDiagnostics(takeDiagnostics(S.takeError()));
    ExitCode = ExitUsage;
    return std::nullopt;
  }
  FunctionSpec Spec;
  Spec.Func = S->Func;
  Spec.ArgTuple = TypeContext::get().tuple(S->ArgTypes);
  return Spec;
}

} // namespace prism::app
