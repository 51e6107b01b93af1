#include "devices/Device.h"

#include "codegen/Runtime.h"
#include "prelude/Embedded.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace prism {

LoadedKernel::~LoadedKernel() = default;
Device::~Device() = default;

Diagnostic deviceDiagnostic(std::string Kind, std::string Message,
                            llvm::StringRef Log) {
  Diagnostic D = Diagnostic::error(std::move(Kind), std::move(Message), {});
  Log = Log.rtrim();
  if (!Log.empty()) {
    // A verifier log on a rejected path can run to thousands of lines; the
    // reason and the offending instruction are at its end. The caller keeps
    // the whole log through load()'s Log argument.
    constexpr size_t MaxLines = 60;
    llvm::SmallVector<llvm::StringRef, 0> Lines;
    Log.split(Lines, '\n');
    std::string Text;
    if (Lines.size() > MaxLines) {
      Text = "... (" + std::to_string(Lines.size() - MaxLines) +
             " earlier lines)\n";
      Lines.erase(Lines.begin(), Lines.end() - MaxLines);
    }
    Text += llvm::join(Lines, "\n");
    D.note("log:\n" + Text);
  }
  return D;
}

std::string dim3Text(const uint32_t D[3]) {
  return "(" + std::to_string(D[0] + 1) + ", " + std::to_string(D[1] + 1) +
         ", " + std::to_string(D[2] + 1) + ")";
}

std::string formatShowError(llvm::StringRef Template,
                            llvm::ArrayRef<uint64_t> Values) {
  std::string Out;
  size_t Next = 0;
  while (!Template.empty()) {
    size_t At = Template.find("%{");
    size_t End = At == llvm::StringRef::npos ? At : Template.find('}', At);
    if (End == llvm::StringRef::npos) {
      Out += Template;
      break;
    }
    Out += Template.take_front(At);
    // `%{T}` is the value as `show` writes it, `%{print:T}` as `print`.
    llvm::StringRef Name = Template.slice(At + 2, End);
    bool Print = Name.consume_front("print:");
    std::optional<ScalarKind> K = scalarKindFromName(Name);
    if (K && Next < Values.size()) {
      HostValue V = HostValue::scalar(*K, Values[Next]);
      Out += Print ? printedScalar(V) : V.str();
    } else {
      Out += "?";
    }
    ++Next;
    Template = Template.drop_front(End + 1);
  }
  return Out;
}

std::string userFunction(llvm::ArrayRef<BacktraceFrame> Stack,
                         llvm::StringRef Entry) {
  for (const BacktraceFrame &F : Stack)
    if (!isPreludePath(F.Loc.FileName))
      return F.Function;
  return Entry.str();
}

Diagnostic thrownDiagnostic(const ThrownException &E, Dim3 Grid, Dim3 Block,
                            llvm::StringRef Entry) {
  std::string Msg = E.TypeName;
  if (E.Fault && E.Fault->What != ThrownException::MemoryFault::Unknown)
    Msg += std::string(E.Fault->What == ThrownException::MemoryFault::Write
                           ? " (a write to"
                           : " (a read of") +
           " address 0x" + llvm::utohexstr(E.Fault->Address) + ")";
  // A throw without a place of its own (a stack overflow), or placed in
  // the prelude (at -O0 nothing is inlined, so the throw's own function is
  // the prelude's checked_convert), is where its innermost user frame was.
  std::string File = E.File;
  uint32_t Line = uint32_t(std::max(E.Line, 0)), Col = E.Col;
  if (File.empty() || isPreludePath(File))
    for (const BacktraceFrame &F : E.Stack)
      if (!isPreludePath(F.Loc.FileName) && F.Loc.Line) {
        File = F.Loc.FileName;
        Line = F.Loc.Line;
        Col = F.Loc.Col;
        break;
      }
  if (!File.empty())
    Msg += " at " + llvm::sys::path::filename(File).str() + ":" +
           std::to_string(Line);
  if (E.HasThread && (Grid.count() > 1 || Block.count() > 1))
    Msg += " (thread " + dim3Text(E.Thread) + " of block " + dim3Text(E.Block) + ")";
  Msg += " in `" + userFunction(E.Stack, Entry) + "`";
  Diagnostic D = deviceDiagnostic("launch", std::move(Msg));
  D.Backtrace = E.Stack;
  collapseRepeats(D.Backtrace);
  if (!File.empty() && Line > 0) {
    D.Loc.FileName = File;
    D.Loc.Line = Line;
    D.Loc.Col = Col ? Col : 1;
  }
  if (E.Fault) {
    D.note("compiled code accessed memory outside every array of the launch: "
           "an index out of range under `@inbounds` (or --check-bounds=no), "
           "or an empty array's data; nothing checks these, and the launch "
           "stopped at the fault. `--device interp` names the access");
    return D;
  }
  // Julia's showerror line names the kind too.
  if (!E.Detail.empty()) {
    D.note(E.Detail);
    return D;
  }
  // Julia's showerror of an exception that holds no values.
  if (static_cast<ThrowKind>(E.Kind) == ThrowKind::DivideError) {
    D.note("DivideError: integer division error");
    return D;
  }
  // Julia's showerror prints nothing past the name; the stack says more.
  if (static_cast<ThrowKind>(E.Kind) == ThrowKind::StackOverflowError)
    return D;
  // The prelude's ArgumentError holds no message: the place of its throw
  // says which it is.
  if (static_cast<ThrowKind>(E.Kind) == ThrowKind::ArgumentError) {
    // The innermost prelude frame (the throw itself is placed at the
    // user's line).
    llvm::StringRef From, Function;
    for (const BacktraceFrame &F : E.Stack)
      if (isPreludePath(F.Loc.FileName)) {
        From = llvm::sys::path::filename(F.Loc.FileName);
        Function = F.Function;
        break;
      }
    D.note(Function == "tail"
               ? "ArgumentError: Cannot call tail on an empty tuple."
           : From == "70_tuple.jl"
               ? "ArgumentError: the prelude compares tuples of up to 16 "
                 "elements"
           : From == "40_float.jl"
               ? "ArgumentError: reinterpret between types of different sizes"
           // Base says "range step" for a float range (twiceprecision.jl).
           : Function == "floatrange"
               ? "ArgumentError: range step cannot be zero"
               : "ArgumentError: step cannot be zero");
    return D;
  }
  D.note(std::string("exception kind: ") +
         throwKindName(static_cast<ThrowKind>(E.Kind)));
  return D;
}

llvm::json::Object deviceJSON(const Device &D) {
  llvm::json::Object Props;
  for (const DeviceProperty &P : D.properties())
    Props[P.first] = P.second;
  llvm::json::Object O{{"name", D.name()},
                       {"target", D.target()},
                       {"available", D.available()},
                       {"description", D.description()},
                       {"properties", std::move(Props)}};
  if (!D.available())
    O["reason"] = D.unavailableReason();
  return O;
}

std::string setupNote(const LaunchResult &R, bool Standalone) {
  if (R.Setup.empty())
    return "";
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::format("%.3f ms of ", R.SetupMs);
  if (Standalone)
    OS << llvm::format("the %.3f ms ", R.TimeMs);
  else
    OS << "it ";
  OS << R.Setup;
  return S;
}

std::string propertiesLine(const std::vector<DeviceProperty> &Ps) {
  std::string S;
  for (const auto &[Name, Value] : Ps)
    S += (S.empty() ? "" : " · ") + Name + " " + Value;
  return S;
}

} // namespace prism
