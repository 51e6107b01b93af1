#include "codegen/LineMap.h"

#include "prelude/Embedded.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/AssemblyAnnotationWriter.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FormattedStream.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <tuple>

namespace prism {

static std::string frameFunction(const llvm::DILocation *L) {
  if (const llvm::DISubprogram *SP = L->getScope()->getSubprogram())
    return SP->getName().str();
  return "";
}

std::vector<const llvm::Instruction *> instructionsAt(const llvm::Function &F,
                                                      llvm::StringRef File,
                                                      unsigned Line,
                                                      unsigned Col) {
  std::vector<const llvm::Instruction *> Out;
  for (const llvm::Instruction &I : llvm::instructions(F))
    if (const llvm::DILocation *L = I.getDebugLoc().get();
        L && L->getLine() == Line && L->getColumn() == Col &&
        L->getFilename() == File)
      Out.push_back(&I);
  return Out;
}

LineOrigin lineOriginOf(const llvm::DILocation *L) {
  LineOrigin O;
  for (; L; L = L->getInlinedAt()) {
    // Line 0 is LLVM's "no line" (a location merged from two lines): the
    // caller's line, where there is one, is still the place.
    if (O.Frames.empty() && L->getLine() == 0)
      continue;
    const llvm::DISubprogram *SP = L->getScope()->getSubprogram();
    O.Frames.push_back({frameFunction(L), L->getFilename().str(), L->getLine(),
                        L->getColumn(), SP && SP->isArtificial()});
  }
  return O;
}

namespace {

/// Records which output line each instruction and function header is
/// printed on. The printer writes straight into the string (the
/// formatted stream is flushed first), so counting newlines incrementally
/// gives the line without a second pass.
class LineRecorder : public llvm::AssemblyAnnotationWriter {
public:
  LineRecorder(const std::string &Out) : Out(Out) {}

  void emitFunctionAnnot(const llvm::Function *F,
                         llvm::formatted_raw_ostream &OS) override {
    if (const llvm::DISubprogram *SP = F->getSubprogram()) {
      LineOrigin O;
      O.Frames.push_back({SP->getName().str(), SP->getFilename().str(),
                          SP->getLine(), 0});
      record(OS, std::move(O), /*Header=*/true);
    }
  }
  void emitInstructionAnnot(const llvm::Instruction *I,
                            llvm::formatted_raw_ostream &OS) override {
    if (const llvm::DILocation *L = I->getDebugLoc().get())
      record(OS, lineOriginOf(L), /*Header=*/false);
  }

  struct Entry {
    size_t Line;
    LineOrigin Origin;
    /// A function's: the printer writes its `; Function Attrs:` comment
    /// lines after the annotation, then `define`, which the origin is for.
    bool Header;
  };
  std::vector<Entry> Recorded;

private:
  void record(llvm::formatted_raw_ostream &OS, LineOrigin O, bool Header) {
    OS.flush();
    for (; Scanned < Out.size(); ++Scanned)
      if (Out[Scanned] == '\n')
        ++Line;
    Recorded.push_back({Line, std::move(O), Header});
  }

  const std::string &Out;
  size_t Scanned = 0;
  size_t Line = 0;
};

} // namespace

std::string printModuleWithLines(const llvm::Module &M,
                                 std::vector<LineOrigin> &Lines) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  LineRecorder Rec(Text);
  M.print(OS, &Rec);
  OS.flush();
  size_t NumLines = 0;
  for (char C : Text)
    NumLines += C == '\n';
  if (!Text.empty() && Text.back() != '\n')
    ++NumLines;
  Lines.assign(NumLines, {});
  std::vector<size_t> Starts{0};
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      Starts.push_back(I + 1);
  for (LineRecorder::Entry &E : Rec.Recorded) {
    size_t Line = E.Line;
    // Past the function's comment lines, onto `define`.
    while (E.Header && Line + 1 < NumLines && Starts[Line] < Text.size() &&
           Text[Starts[Line]] == ';')
      ++Line;
    if (Line < Lines.size())
      Lines[Line] = std::move(E.Origin);
  }
  return Text;
}

//===----------------------------------------------------------------------===//
// Assembly
//===----------------------------------------------------------------------===//

static std::string baseName(llvm::StringRef Path) {
  size_t Slash = Path.rfind('/');
  return (Slash == llvm::StringRef::npos ? Path : Path.substr(Slash + 1)).str();
}

std::string describeOrigin(const LineOrigin &O) {
  // A launch wrapper the entry was inlined into (the BPF program around
  // it) is no frame of the source: the entry's own line is the place.
  size_t N = O.Frames.size();
  while (N > 1 && O.Frames[N - 1].Artificial)
    --N;
  if (N == 0)
    return "";
  const SourceFrame &In = O.Frames.front();
  std::string S = baseName(In.File) + ":" + std::to_string(In.Line);
  if (N > 1) {
    const SourceFrame &Caller = O.Frames[1];
    S += " " + In.Function + ", inlined into " + Caller.Function + " at " +
         baseName(Caller.File) + ":" + std::to_string(Caller.Line);
  }
  // Further out, each user frame up to the entry: the user's line it all
  // came from, and what tells apart two copies of one inlined user function
  // (`sq` inlined at lines 3 and 4). The prelude's frames in between and a
  // launch wrapper around the entry add nothing.
  for (size_t I = 2; I < N; ++I) {
    const SourceFrame &User = O.Frames[I];
    if (User.Artificial || isPreludePath(User.File))
      continue;
    S += ", within " + User.Function + " at " + baseName(User.File) + ":" +
         std::to_string(User.Line);
  }
  return S;
}

std::string annotateIR(llvm::StringRef Text,
                       const std::vector<LineOrigin> &Lines) {
  std::string Out;
  Out.reserve(Text.size() + Text.size() / 4);
  std::string Last;
  size_t I = 0;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    bool Instruction = Line.startswith("  ") && !Line.ltrim().startswith(";");
    if (Line.startswith("define "))
      Last.clear(); // each function starts afresh
    if (Instruction && I < Lines.size()) {
      std::string Origin = describeOrigin(Lines[I]);
      if (!Origin.empty() && Origin != Last) {
        Out += "  ; " + Origin + "\n";
        Last = std::move(Origin);
      }
    }
    Out += Line;
    Out += '\n';
    Text = Rest;
    ++I;
  }
  return Out;
}

static llvm::StringRef unquote(llvm::StringRef S) {
  S = S.trim();
  if (S.size() >= 2 && S.front() == '"' && S.back() == '"')
    return S.drop_front().drop_back();
  return S;
}

std::vector<const llvm::DILocation *> tagLocations(llvm::Module &M) {
  std::vector<const llvm::DILocation *> Tags;
  llvm::DenseMap<const llvm::DILocation *, unsigned> Index;
  for (llvm::Function &F : M)
    for (llvm::Instruction &I : llvm::instructions(F)) {
      const llvm::DILocation *L = I.getDebugLoc().get();
      if (!L || L->getLine() == 0)
        continue;
      auto [It, New] = Index.try_emplace(L, Tags.size());
      if (New)
        Tags.push_back(L);
      I.setDebugLoc(llvm::DILocation::get(
          M.getContext(), LocationTagBase + It->second, 0, L->getScope(),
          L->getInlinedAt(), L->isImplicitCode()));
    }
  return Tags;
}

/// S with every character outside ASCII as `U+XXXX` (`≤` → `U+2264`).
static std::string asciiOnly(llvm::StringRef S) {
  std::string Out;
  Out.reserve(S.size());
  for (size_t I = 0; I < S.size();) {
    unsigned char C = S[I];
    if (C < 0x80) {
      Out += char(C);
      ++I;
      continue;
    }
    llvm::UTF32 CP = 0;
    const auto *Begin = reinterpret_cast<const llvm::UTF8 *>(S.data() + I);
    const auto *Src = Begin;
    llvm::UTF32 *Dst = &CP;
    if (llvm::ConvertUTF8toUTF32(
            &Src, reinterpret_cast<const llvm::UTF8 *>(S.end()), &Dst, Dst + 1,
            llvm::strictConversion) == llvm::conversionOK ||
        Dst != &CP) {
      Out += "U+" + llvm::utohexstr(CP, /*LowerCase=*/false, /*Width=*/4);
      I += size_t(Src - Begin);
    } else {
      Out += '?'; // not UTF-8
      ++I;
    }
  }
  return Out;
}

AsmAnnotation annotateAsm(const std::string &Raw, const llvm::Module &M,
                          const std::string &Comment,
                          const std::vector<const llvm::DILocation *> &Tags,
                          bool AsciiOnly) {
  // (file, line, col) → every distinct full DILocation with that position,
  // in module order. `.loc` names only the innermost position, and one
  // prelude line inlined twice (threadIdx's and blockIdx's `+ 1`) has two
  // inlining chains: the asm follows the IR's order closely, so the match
  // is the first candidate at or after the previous match.
  using Key = std::tuple<std::string, unsigned, unsigned>;
  struct Candidate {
    size_t Order;
    const llvm::DILocation *Loc;
  };
  std::map<Key, std::vector<Candidate>> ByPos;
  size_t Order = 0;
  for (const llvm::Function &F : M)
    for (const llvm::Instruction &I : llvm::instructions(F)) {
      ++Order;
      const llvm::DILocation *L = I.getDebugLoc().get();
      if (!L)
        continue;
      // By base name: `.file` may split a path into directory and name.
      std::vector<Candidate> &C =
          ByPos[Key{baseName(L->getFilename()), L->getLine(), L->getColumn()}];
      if (C.empty() || C.back().Loc != L)
        C.push_back({Order, L});
    }
  size_t Cursor = 0;
  auto Match = [&Cursor](const std::vector<Candidate> &C) {
    const Candidate *Best = &C.back();
    for (const Candidate &X : C)
      if (X.Order >= Cursor) {
        Best = &X;
        break;
      }
    Cursor = Best->Order;
    return Best->Loc;
  };

  AsmAnnotation Out;
  std::map<unsigned, std::string> Files; // .file number → name
  LineOrigin Current;
  std::string LastDescribed;
  llvm::StringRef Rest(Raw);
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    llvm::StringRef T = Line.trim();
    if (T.startswith(".file")) {
      // `.file 1 "dir" "name"` / `.file 1 "name"` (DWARF 5: `.file 0 ...`).
      llvm::StringRef Args = T.drop_front(5).trim();
      unsigned No = 0;
      if (!Args.consumeInteger(10, No)) {
        llvm::SmallVector<llvm::StringRef, 4> Parts;
        Args.trim().split(Parts, ' ', -1, false);
        std::string Name;
        if (Parts.size() >= 2 && Parts[1].startswith("\""))
          Name = unquote(Parts[1]).str();
        else if (!Parts.empty())
          Name = unquote(Parts[0]).str();
        Files[No] = Name;
        continue;
      }
      // `.file "name"` (the compilation unit) falls through and is kept.
    }
    if (T.startswith(".loc")) {
      llvm::StringRef Args = T.drop_front(4).trim();
      unsigned FileNo = 0, LineNo = 0, Col = 0;
      Args.consumeInteger(10, FileNo);
      Args = Args.trim();
      Args.consumeInteger(10, LineNo);
      Args = Args.trim();
      Args.consumeInteger(10, Col);
      if (LineNo == 0) {
        Current = {};
        continue;
      }
      std::string File = Files.count(FileNo) ? Files[FileNo] : "";
      auto It = ByPos.find(Key{baseName(File), LineNo, Col});
      if (const llvm::DILocation *Tagged = untagLine(LineNo, Tags)) {
        Current = lineOriginOf(Tagged);
      } else if (It != ByPos.end()) {
        Current = lineOriginOf(Match(It->second));
      } else {
        Current = {};
        Current.Frames.push_back({"", File, LineNo, Col});
      }
      std::string D = describeOrigin(Current);
      if (D != LastDescribed) {
        Out.Text +=
            "\t" + Comment + " " + (AsciiOnly ? asciiOnly(D) : D) + "\n";
        Out.Lines.push_back(Current);
        LastDescribed = D;
      }
      continue;
    }
    // Call-frame and debug-section noise is not what people read asm for.
    // (`.Lfunc_endN:` stays: the function's `.size` refers to it.)
    if (T.startswith(".cfi_") || T.startswith(".Ltmp") ||
        T.startswith(".Ldebug") || T.startswith(".Lcu_") ||
        T.startswith(".Linfo_") || T.startswith(".Lsection_") ||
        T.startswith(".Lline_table")) {
      continue;
    }
    if (T.startswith(".section") && T.contains(".debug_")) {
      // Everything after the first debug section is DWARF tables.
      break;
    }
    bool IsLabel = T.endswith(":");
    // A new function starts: re-announce the line. (PTX's local labels are
    // `$L__...`; its functions end with `}`, below.)
    if (IsLabel && !T.startswith(".L") && !T.startswith("$L"))
      LastDescribed.clear();
    // A function's last location must not carry over its end into the next
    // function's header (PTX closes a function with `}` at column 0; every
    // backend labels the end `.Lfunc_endN` / `$L__func_endN`).
    if (Line == "}" || T.startswith(".Lfunc_end") ||
        T.startswith("$L__func_end")) {
      Current = {};
      LastDescribed.clear();
    }
    // Blank lines, lone braces and the backend's own comments are not code.
    bool NotCode = T.empty() || T == "{" || T == "}" || T == ")" ||
                   T.startswith("//") || T.startswith("#") || T.startswith(";");
    Out.Text += Line.str() + "\n";
    Out.Lines.push_back(IsLabel || NotCode || T.startswith(".") ? LineOrigin{}
                                                                : Current);
  }
  return Out;
}

} // namespace prism
