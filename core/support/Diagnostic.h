/// \file
/// Diagnostics: the user's mistakes as data.
///
/// A `Diagnostic` has a severity, a kind (a stable short tag such as
/// "parse", "no-method", "invalid-ir"), a message, a source location, notes
/// and an inlining backtrace. Fallible core APIs return `llvm::Expected<T>`
/// whose error is a `DiagnosticError` carrying one or more diagnostics, so
/// that every problem found in one pass is reported together.
#pragma once

#include "support/SourceFile.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace prism {

enum class Severity { Error, Warning, Note };

/// The specific problem a diagnostic reports, for the few callers that react
/// to one rather than show it (a CALL says how it spells the same thing).
/// Most diagnostics have `None`; their message is for people only.
/// What kind of problem a diagnostic is, where code acts on it:
/// Unsupported is valid Julia the kernel language lacks (a function's own
/// error, not the file's).
enum class DiagCode : uint8_t { None, ArrayLiteral, Unsupported };

/// A resolved location: file plus 1-based line/col range.
struct DiagLoc {
  SourceFileRef File; ///< May be null when the location is only a name.
  std::string FileName;
  uint32_t Line = 0, Col = 0, EndLine = 0, EndCol = 0;

  static DiagLoc fromRange(const SourceFileRef &F, SrcRange R);
  bool known() const { return Line != 0; }
  /// "file:line:col", "file:line" when the column is unknown (0), or just
  /// the file name when the line is.
  std::string str() const;
};

struct DiagNote {
  std::string Message;
  DiagLoc Loc;
};

/// One frame of a backtrace (an inference error's chain of calls, or a
/// run-time throw's stack): the function and where it was.
struct BacktraceFrame {
  std::string Function;
  DiagLoc Loc;
  /// Compiled code: the frame was inlined into the next one, as Julia's
  /// stacktrace marks it `[inlined]`.
  bool Inlined = false;
  /// How many identical calls in a row this frame stands for (a
  /// recursion), as Julia's `(repeats N times)`.
  uint64_t Repeats = 1;
  /// Calls between this frame and the next (outer) one that the stack
  /// leaves out: a recursion deeper than a device lists.
  uint64_t OmittedAfter = 0;

  /// `down at rec.jl:7:12 [inlined] (repeats 64 times)`.
  std::string str() const;
  /// The line a stacktrace shows after a frame with OmittedAfter.
  std::string omittedText() const;
};

/// Merges consecutive identical frames into one with Repeats, as Julia
/// prints a recursion's stacktrace.
void collapseRepeats(std::vector<BacktraceFrame> &Stack);

struct Diagnostic {
  Severity Sev = Severity::Error;
  std::string Kind;
  DiagCode Code = DiagCode::None;
  std::string Message;
  DiagLoc Loc;
  std::vector<DiagNote> Notes;
  std::vector<BacktraceFrame> Backtrace;

  static Diagnostic error(std::string Kind, std::string Message, DiagLoc Loc) {
    Diagnostic D;
    D.Kind = std::move(Kind);
    D.Message = std::move(Message);
    D.Loc = std::move(Loc);
    return D;
  }
  Diagnostic &note(std::string Message, DiagLoc Loc = {}) {
    Notes.push_back({std::move(Message), std::move(Loc)});
    return *this;
  }
};

struct RenderOptions {
  bool Color = false;      ///< ANSI colours (only on a terminal).
  bool ShowSource = true;  ///< Print the source line and a caret.
};

/// Prints `FILE:LINE:COL: error: message`, the source line with a caret
/// underline, notes, and the backtrace as `[1] f at file:line`.
void renderDiagnostic(llvm::raw_ostream &OS, const Diagnostic &D,
                      const RenderOptions &Opts = {});
std::string renderDiagnostic(const Diagnostic &D,
                             const RenderOptions &Opts = {});

/// An llvm::Error payload holding a list of diagnostics.
class DiagnosticError : public llvm::ErrorInfo<DiagnosticError> {
public:
  static char ID;
  explicit DiagnosticError(std::vector<Diagnostic> Diags)
      : Diags(std::move(Diags)) {}
  const std::vector<Diagnostic> &diagnostics() const { return Diags; }
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::vector<Diagnostic> Diags;
};

inline llvm::Error makeDiagError(Diagnostic D) {
  std::vector<Diagnostic> V;
  V.push_back(std::move(D));
  return llvm::make_error<DiagnosticError>(std::move(V));
}
inline llvm::Error makeDiagError(std::vector<Diagnostic> Ds) {
  return llvm::make_error<DiagnosticError>(std::move(Ds));
}
/// Converts any error into diagnostics (non-diagnostic errors become one
/// diagnostic of kind "internal") and consumes it.
std::vector<Diagnostic> takeDiagnostics(llvm::Error E);

/// Puts D's primary location on the innermost frame of its backtrace in
/// the user's code, where Library(file name) says its own is not (an
/// error inside the prelude's CuStaticSharedArray is the user's call of
/// it; the stacktrace still names every frame).
void placeInUserCode(Diagnostic &D, bool (*Library)(std::string_view FileName));

/// A type name with its article as a message says it: "an Int64", "an
/// Any", "a Float32", "a UInt8" (said you-int).
std::string withArticle(std::string_view Noun);

} // namespace prism
