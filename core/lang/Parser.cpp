//===- Parser.cpp - recursive-descent parser for the kernel language ------===//
//
// Statements are expressions (as in Julia), parsed by recursive descent with a
// precedence-climbing loop for binary operators. Error recovery works at two
// levels: a statement with an error is skipped to the end of its line (so the
// enclosing `if`/`function` still finds its `end`), and a definition keyword
// at the start of a statement inside a body is taken as a missing `end` (so
// the next definition parses cleanly). One diagnostic is reported per
// statement (`Panic`) to avoid cascades.
//
//===----------------------------------------------------------------------===//

#include "lang/Parser.h"
#include "lang/Lexer.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <tuple>

namespace prism {

using namespace ast;

bool ParsedFile::hasErrors() const {
  return std::any_of(Diags.begin(), Diags.end(),
                     [](const Diagnostic &D) { return D.Sev == Severity::Error; });
}

/// The file's diagnostics (only its errors, with ErrorsOnly) and the
/// functions' own errors, in file order.
static std::vector<Diagnostic> withDeferred(const ParsedFile &F,
                                            bool ErrorsOnly) {
  std::vector<Diagnostic> All;
  for (const Diagnostic &D : F.Diags)
    if (!ErrorsOnly || D.Sev == Severity::Error)
      All.push_back(D);
  for (const TopLevel &T : F.Defs)
    if (auto *const *Fn = std::get_if<FunctionDef *>(&T))
      for (const Diagnostic &D : (*Fn)->Unsupported)
        // A forwarder of optional arguments shares its method's errors.
        if (std::none_of(All.begin(), All.end(), [&](const Diagnostic &A) {
              return A.Message == D.Message && A.Loc.Line == D.Loc.Line &&
                     A.Loc.Col == D.Loc.Col;
            }))
          All.push_back(D);
  std::stable_sort(All.begin(), All.end(),
                   [](const Diagnostic &A, const Diagnostic &B) {
                     return std::tie(A.Loc.Line, A.Loc.Col) <
                            std::tie(B.Loc.Line, B.Loc.Col);
                   });
  return All;
}

std::vector<Diagnostic> ParsedFile::errorsWithDeferred() const {
  return withDeferred(*this, /*ErrorsOnly=*/true);
}

std::vector<Diagnostic> ParsedFile::allWithDeferred() const {
  return withDeferred(*this, /*ErrorsOnly=*/false);
}

/// `f(xs...)` in a call (splatting) or a signature (varargs).
static const char *const SplatMessage =
    "splatting and varargs (`...`) are not supported: index the tuple "
    "instead (`p = promote(a, b); f(p[1], p[2])`), or write a method for "
    "each number of arguments";

namespace {

/// Bound on syntactic nesting and on the height of any expression tree, so
/// that neither the parser nor later recursive passes can overflow the stack.
constexpr unsigned MaxDepth = 512;
/// After this many diagnostics the rest of the file is not worth reading.
constexpr unsigned MaxDiags = 100;

// Binary precedence levels, lowest first (Julia's order).
enum Prec : int {
  PrecNone = -1,
  PrecOr = 1,       // ||            right
  PrecAnd,          // &&            right
  PrecComparison,   // == < <: ...   chained
  PrecRange,        // a:b, a:s:b
  PrecPlus,         // + - | ⊻       left
  PrecTimes,        // * / ÷ % &     left
  PrecShift,        // << >> >>>     left (tighter than `*` in Julia)
  PrecPower,        // ^             right, tighter than unary minus
};

int binaryPrec(const Token &T) {
  if (T.Kind == Tok::Keyword)
    return T.Text == "in" ? PrecComparison : PrecNone;
  if (T.Kind == Tok::Ident)
    return T.Text == "isa" ? PrecComparison : PrecNone;
  if (T.Kind != Tok::Op)
    return PrecNone;
  std::string_view S = T.Text;
  if (S == "||")
    return PrecOr;
  if (S == "&&")
    return PrecAnd;
  if (S == "==" || S == "!=" || S == "===" || S == "!==" || S == "<" ||
      S == "<=" || S == ">" || S == ">=" || S == "<:" || S == ">:" || S == "∉")
    return PrecComparison;
  if (S == ":")
    return PrecRange;
  if (S == "+" || S == "-" || S == "|" || S == "⊻")
    return PrecPlus;
  if (S == "<<" || S == ">>" || S == ">>>")
    return PrecShift;
  if (S == "*" || S == "/" || S == "÷" || S == "%" || S == "&")
    return PrecTimes;
  if (S == "^")
    return PrecPower;
  return PrecNone;
}

/// Julia's binary operators that the kernel language leaves out, at about
/// Julia's precedence, so that `x |> f` gets an error that names `|>`
/// rather than "extra token".
int unsupportedBinaryPrec(const Token &T) {
  if (T.Kind != Tok::Op)
    return PrecNone;
  std::string_view S = T.Text;
  if (S == "≈" || S == "⊆" || S == "⊂" || S == "-->")
    return PrecComparison;
  if (S == "|>" || S == "<|" || S == "..")
    return PrecRange;
  if (S == "++" || S == "--" || S == "±" || S == "∓" || S == "∪" || S == "⊕")
    return PrecPlus;
  if (S == "//" || S == "∘" || S == "⋅" || S == "×" || S == "∩" || S == "⊗")
    return PrecTimes;
  return PrecNone;
}

/// Why an operator of unsupportedBinaryPrec is not there, and what to write.
std::string unsupportedBinaryMessage(std::string_view S) {
  std::string Op = "`" + std::string(S) + "`";
  if (S == "|>" || S == "<|")
    return "the pipe operator " + Op +
           " is not supported: call the function, `f(x)`";
  if (S == "//")
    return "rationals (`//`) are not supported: a kernel has no Rational "
           "type; divide with `/` or `÷`";
  if (S == "..")
    return "`..` is not an operator of the kernel language: a range is `a:b`";
  if (S == "--")
    return "invalid operator `--` (in Julia too): to decrement, write `x -= 1`";
  if (S == "++")
    return "operator `++` is not supported (Julia defines no `++` "
           "either): to increment, write `x += 1`";
  return "operator " + Op + " is not supported in the kernel language";
}

bool isUpdatingOp(const Token &T) {
  if (T.Kind != Tok::Op || T.Text.size() < 2 || T.Text.back() != '=')
    return false;
  std::string_view S = T.Text;
  return S == "+=" || S == "-=" || S == "*=" || S == "/=" || S == "÷=" ||
         S == "%=" || S == "&=" || S == "|=" || S == "<<=" || S == ">>=" ||
         S == ">>>=" || S == "⊻=" || S == "^=";
}

/// Operators that may be used as a function name (`+(a, b) = ...`) or value.
bool isOperatorName(const Token &T) {
  return T.Kind == Tok::Op &&
         (binaryPrec(T) != PrecNone || T.Text == "!" || T.Text == "~") &&
         T.Text != ":" && T.Text != "&&" && T.Text != "||";
}

std::string describe(const Token &T) {
  switch (T.Kind) {
  case Tok::Eof:
    return "end of file";
  case Tok::Newline:
    return "end of line";
  default:
    return "`" + std::string(T.Text) + "`";
  }
}

/// The modules whose functions the prelude provides (`Base.zero`,
/// `CUDA.threadIdx`), each visible by its plain name.
static bool isPreludeModule(std::string_view Name) {
  return Name == "Base" || Name == "Core" || Name == "CUDA";
}

/// Submodules of those whose functions the prelude holds too
/// (`Base.Math.sqrt`, `Core.Intrinsics.sqrt_llvm`).
static bool isPreludeSubmodule(std::string_view Name) {
  return Name == "Math" || Name == "Intrinsics" || Name == "Checked" ||
         Name == "FastMath" || Name == "MathConstants";
}

class Parser {
public:
  Parser(ParsedFile &Out) : Out(Out), File(Out.File) {
    Toks = lex(File, Out.Diags);
    dropMacroModules();
  }

  void parseFile();
  Node *parseSingleExpression();

private:
  ParsedFile &Out;
  const SourceFileRef &File;
  std::vector<Token> Toks;
  size_t P = 0;
  /// Whether newlines are insignificant here (inside `()`, `[]`, `{}`).
  std::vector<bool> IgnoreNL{false};
  /// An error was reported in the current statement: stay quiet until the
  /// parser resynchronises.
  bool Panic = false;
  bool GaveUp = false;
  unsigned Depth = 0;
  bool DepthReported = false;
  /// Names the loops of `for (a, b) in it` destructure from.
  unsigned HiddenLoopVars = 0;
  /// Inside a ternary's middle operand `c ? a : b`, `:` ends `a`.
  bool NoRangeColon = false;
  uint32_t PrevEnd = 0;
  unsigned NumDiags = 0;

  // --- tokens -------------------------------------------------------------
  const Token &tok() {
    if (IgnoreNL.back())
      while (Toks[P].Kind == Tok::Newline)
        ++P;
    return Toks[P];
  }
  /// The token after the current one (newlines skipped where insignificant).
  const Token &peekNext() {
    tok();
    size_t Q = P + 1 < Toks.size() ? P + 1 : P;
    if (IgnoreNL.back())
      while (Toks[Q].Kind == Tok::Newline && Q + 1 < Toks.size())
        ++Q;
    return Toks[Q];
  }
  const Token &advance() {
    const Token &T = tok();
    if (T.Kind != Tok::Eof) {
      PrevEnd = T.End;
      ++P;
    }
    return T;
  }
  void skipNewlines() {
    while (Toks[P].Kind == Tok::Newline)
      ++P;
  }
  bool atLineStart() const {
    return P == 0 || Toks[P - 1].Kind == Tok::Newline;
  }
  bool atStatementEnd() {
    const Token &T = tok();
    return T.is(Tok::Newline) || T.is(Tok::Semicolon) || T.is(Tok::Eof) ||
           T.isKw("end") || T.isKw("else") || T.isKw("elseif");
  }
  /// Skips to the end of the statement, past brackets and what is in them
  /// (a macro call's arguments, `@cuprintf("x=%d\n", x)`).
  void skipToStatementEnd() {
    int Depth = 0;
    while (!tok().is(Tok::Eof) && (Depth > 0 || !atStatementEnd())) {
      const Token &T = advance();
      if (T.is(Tok::LParen) || T.is(Tok::LBracket) || T.is(Tok::LBrace))
        ++Depth;
      else if (T.is(Tok::RParen) || T.is(Tok::RBracket) || T.is(Tok::RBrace))
        --Depth;
    }
  }
  /// `Base.@inline`, `CUDA.@atomic`: a prelude module's macro is the plain
  /// macro, as `Base.zero` is `zero` (the tokens `Base` `.` go).
  void dropMacroModules() {
    std::vector<Token> Kept;
    Kept.reserve(Toks.size());
    for (size_t I = 0; I < Toks.size(); ++I) {
      if (I + 2 < Toks.size() && Toks[I].is(Tok::Ident) &&
          isPreludeModule(Toks[I].Text) && Toks[I + 1].isOp(".") &&
          !Toks[I + 1].SpaceBefore && Toks[I + 2].is(Tok::Macro) &&
          !Toks[I + 2].SpaceBefore) {
        Toks[I + 2].SpaceBefore = Toks[I].SpaceBefore;
        ++I;
        continue;
      }
      Kept.push_back(Toks[I]);
    }
    Toks = std::move(Kept);
  }
  /// Whether keyword K starts a block that `end` closes.
  static bool opensBlock(std::string_view K) {
    return K == "function" || K == "if" || K == "while" || K == "for" ||
           K == "let" || K == "begin" || K == "struct" || K == "try" ||
           K == "quote" || K == "do" || K == "macro" || K == "module" ||
           K == "baremodule" || K == "abstract" || K == "primitive";
  }
  /// `map(x) do i ... end` is an error, skipped through its `end` so that
  /// the block's body and `end` are not taken for the enclosing code.
  bool rejectDoBlock() {
    if (Panic || !tok().isKw("do"))
      return false;
    error(tok().range(), "`do` blocks (anonymous functions) are not "
                         "supported: define a named function and pass it");
    advance();
    skipThroughEnd();
    Panic = false;
    return true;
  }
  /// Skips an unsupported block's tokens through the `end` that closes it
  /// (an `end` inside brackets is an index, `a[end]`).
  void skipThroughEnd() {
    unsigned Depth = 1, Brackets = 0;
    while (!tok().is(Tok::Eof)) {
      const Token &T = advance();
      if (T.is(Tok::LParen) || T.is(Tok::LBracket) || T.is(Tok::LBrace))
        ++Brackets;
      else if (T.is(Tok::RParen) || T.is(Tok::RBracket) || T.is(Tok::RBrace))
        Brackets -= Brackets > 0;
      else if (Brackets == 0 && T.is(Tok::Keyword) && T.Text == "end") {
        if (--Depth == 0)
          return;
      } else if (Brackets == 0 && T.is(Tok::Keyword) && opensBlock(T.Text)) {
        ++Depth;
      }
    }
  }
  /// Skips to the closing bracket that ends the current list (nested ones
  /// skipped whole), leaving it to be consumed.
  void skipToListEnd() {
    unsigned Depth = 0;
    while (!tok().is(Tok::Eof)) {
      const Token &T = tok();
      if (T.is(Tok::LParen) || T.is(Tok::LBracket) || T.is(Tok::LBrace)) {
        ++Depth;
      } else if (T.is(Tok::RParen) || T.is(Tok::RBracket) ||
                 T.is(Tok::RBrace)) {
        if (Depth == 0)
          return; // Close, or a mismatched bracket the caller reports
        --Depth;
      }
      advance();
    }
  }
  static bool isDefinitionMacro(const Token &T) {
    return T.is(Tok::Macro) && (T.Text == "inline" || T.Text == "noinline" ||
                                T.Text == "propagate_inbounds");
  }
  bool isDefinitionStart(const Token &T) const {
    return T.isKw("function") || T.isKw("struct") || T.isKw("mutable") ||
           T.isKw("abstract") || T.isKw("const") || isDefinitionMacro(T);
  }

  struct NLScope {
    Parser &Ps;
    NLScope(Parser &Ps, bool Ignore) : Ps(Ps) { Ps.IgnoreNL.push_back(Ignore); }
    ~NLScope() { Ps.IgnoreNL.pop_back(); }
  };
  /// Counts syntactic nesting; `ok()` is false (and an error reported) past
  /// MaxDepth.
  struct DepthGuard {
    Parser &Ps;
    bool Ok;
    DepthGuard(Parser &Ps) : Ps(Ps), Ok(++Ps.Depth <= MaxDepth) {
      if (!Ok && !Ps.DepthReported) {
        Ps.DepthReported = true; // once per file, not once per level
        Ps.error(Ps.tok().range(), "expression nested too deeply");
      }
    }
    ~DepthGuard() { --Ps.Depth; }
  };

  // --- diagnostics --------------------------------------------------------
  Node *error(SrcRange R, std::string Msg, DiagCode Code = DiagCode::None) {
    if (!Panic && !GaveUp) {
      if (++NumDiags > MaxDiags) {
        Out.Diags.push_back(Diagnostic::error(
            "parse", "too many errors in this file; giving up",
            DiagLoc::fromRange(File, R)));
        GaveUp = true;
      } else {
        // Every error about valid Julia the kernel language lacks says "not
        // supported" (or names the macro): such an error in a function's
        // body is that function's own (deferUnsupported).
        if (Code == DiagCode::None &&
            (Msg.find("not supported") != std::string::npos ||
             Msg.rfind("unknown macro", 0) == 0))
          Code = DiagCode::Unsupported;
        Out.Diags.push_back(
            Diagnostic::error("parse", std::move(Msg), DiagLoc::fromRange(File, R)));
        Out.Diags.back().Code = Code;
      }
    }
    Panic = true;
    return errorNode(R);
  }
  /// An error after which parsing goes on as usual: the caller parses the
  /// offending construct whole, so there is nothing to resynchronise.
  void errorInPlace(SrcRange R, std::string Msg,
                    DiagCode Code = DiagCode::None) {
    bool WasPanic = Panic;
    error(R, std::move(Msg), Code);
    Panic = WasPanic;
  }
  Node *errorNode(SrcRange R) {
    Node *N = Out.make<Node>();
    N->Kind = NodeKind::Error;
    N->Range = R;
    return N;
  }
  Node *unexpected(const Token &T) {
    // The file ended inside brackets: the one left open is the news, and
    // its line has something to show (the end of the file has not).
    if (T.is(Tok::Eof)) {
      std::vector<size_t> Open;
      for (size_t Q = 0; Q < P && Q < Toks.size(); ++Q) {
        Tok K = Toks[Q].Kind;
        if (K == Tok::LParen || K == Tok::LBracket || K == Tok::LBrace)
          Open.push_back(Q);
        else if ((K == Tok::RParen || K == Tok::RBracket || K == Tok::RBrace) &&
                 !Open.empty())
          Open.pop_back();
      }
      if (!Open.empty()) {
        const Token &O = Toks[Open.back()];
        return error(O.range(), "`" + std::string(O.Text) +
                                    "` is never closed: the file ends first");
      }
    }
    return error(T.range(), "unexpected " + describe(T));
  }
  std::string where(uint32_t Offset) const {
    LineCol LC = File->lineCol(Offset);
    return std::to_string(LC.Line) + ":" + std::to_string(LC.Col);
  }
  /// The column of the first non-blank character of Offset's line.
  uint32_t indentOf(uint32_t Offset) const {
    std::string_view Text = File->text();
    size_t Begin = Text.rfind('\n', Offset ? Offset - 1 : 0);
    Begin = Begin == std::string_view::npos || Offset == 0 ? 0 : Begin + 1;
    size_t First = Text.find_first_not_of(" \t", Begin);
    return File->lineCol(uint32_t(std::min(First, size_t(Offset)))).Col;
  }
  /// `end` closing the construct that started with keyword token Start.
  bool expectEnd(const Token &Start) {
    if (tok().isKw("end")) {
      // An `end` indented less than its block's line probably belongs to
      // an outer block: remembered for a missing `end` found later.
      if (!Misindented &&
          File->lineCol(tok().Begin).Line != File->lineCol(Start.Begin).Line &&
          File->lineCol(tok().Begin).Col < indentOf(Start.Begin))
        Misindented = {Start.Text, Start.Begin, tok().Begin};
      advance();
      return true;
    }
    size_t Reported = Out.Diags.size();
    error(tok().range(), "expected `end` to close `" + std::string(Start.Text) +
                             "` started at " + where(Start.Begin));
    if (Misindented && Out.Diags.size() > Reported)
      Out.Diags.back().note(
          "the `end` at " + where(Misindented->End) + " closes the `" +
              std::string(Misindented->Keyword) + "` at " +
              where(Misindented->Start) +
              ", though it is indented as an outer block's: is an `end` "
              "missing before it?",
          DiagLoc::fromRange(
              File,
              {Misindented->Start,
               Misindented->Start + uint32_t(Misindented->Keyword.size())}));
    return false;
  }
  bool InArrowBody = false;      ///< parsing the body of a reported `->`
  bool InNestedFunction = false; ///< parsing a reported nested `function`
  struct MisindentedEnd {
    std::string_view Keyword;
    uint32_t Start, End;
  };
  std::optional<MisindentedEnd> Misindented;
  bool expect(Tok K, const char *What) {
    if (tok().is(K)) {
      advance();
      return true;
    }
    error(tok().range(), std::string("expected ") + What + ", found " + describe(tok()));
    return false;
  }
  /// Skips the rest of a broken statement: to the end of its line at
  /// bracket depth 0, stopping before `end`/`else`/`elseif` and before a
  /// definition keyword at the start of a line.
  void syncLine() {
    int Level = 0;
    while (true) {
      const Token &T = Toks[P];
      if (T.is(Tok::Eof))
        return; // keep Panic: the enclosing constructs are unclosed
      if (Level <= 0 && (T.is(Tok::Newline) || T.is(Tok::Semicolon)))
        break;
      if (atLineStart() && isDefinitionStart(T))
        return; // keep Panic: outer constructs would only repeat the error
      if (Level <= 0 && (T.isKw("end") || T.isKw("else") || T.isKw("elseif")))
        break;
      if (T.is(Tok::LParen) || T.is(Tok::LBracket) || T.is(Tok::LBrace))
        ++Level;
      else if (T.is(Tok::RParen) || T.is(Tok::RBracket) || T.is(Tok::RBrace))
        Level = std::max(0, Level - 1);
      ++P;
    }
    Panic = false;
  }

  // --- nodes --------------------------------------------------------------
  Node *mk(NodeKind K, SrcRange R, std::vector<Node *> Kids = {}) {
    Node *N = Out.make<Node>();
    N->Kind = K;
    N->Range = R;
    N->Kids = std::move(Kids);
    uint32_t H = 0;
    for (Node *Kid : N->Kids)
      H = std::max(H, Kid->Height);
    N->Height = H + 1;
    if (N->Height > MaxDepth) {
      if (DepthReported) {
        N->Kind = NodeKind::Error; // reported once already
        N->Kids.clear();
        return N;
      }
      DepthReported = true;
      return error(R, "expression nested too deeply");
    }
    return N;
  }
  Node *ident(Symbol Name, SrcRange R) {
    Node *N = mk(NodeKind::Ident, R);
    N->Name = Name;
    return N;
  }
  static SrcRange span(const Node *A, const Node *B) {
    return {A->Range.Begin, std::max(A->Range.End, B->Range.End)};
  }
  SrcRange from(uint32_t Begin) const { return {Begin, std::max(Begin, PrevEnd)}; }

  // --- expressions --------------------------------------------------------
  Node *parseAssign(bool AllowComma);
  Node *parseCommaList();
  Node *parseWhere();
  Node *parseWhereClauses(Node *E);
  Node *parseTernary();
  Node *parseBinary(int MinPrec);
  Node *parseUnary();
  Node *juxtapose(Node *Num);
  Node *parsePostfix(Node *Base);
  Node *parsePrimary();
  Node *parseParen();
  void parseList(Tok Close, const char *CloseText, std::vector<Node *> &Kids,
                 uint32_t OpenBegin);
  Node *parseMacro();
  Node *parseTypeOperand();

  // --- statements ---------------------------------------------------------
  Node *parseStatement() { return parseAssign(/*AllowComma=*/true); }
  Node *parseBlock(uint32_t Begin, bool AllowElse = false);
  Node *parseIf();
  Node *parseWhile();
  Node *parseFor();
  Node *parseBegin();
  Node *parseLet();
  Node *parseLocal();
  /// `a = 1, b` after `let` or `local`: names, or assignments to one.
  std::vector<Node *> parseDeclarations(const char *What);
  /// Reports a declaration that is not names or an assignment to them.
  bool checkDeclaration(const Node *D, const char *What);
  Node *parseReturn();

  // --- definitions --------------------------------------------------------
  void parseTopLevel();
  void parseDefinition();
  void deferUnsupported(size_t DiagsBefore, size_t DefsBefore);
  /// The macros before a definition: `@inline`, `@noinline`,
  /// `@propagate_inbounds`.
  struct DefMacros {
    bool Inline = false, NoInline = false, PropagateInbounds = false;
    bool any() const { return Inline || NoInline || PropagateInbounds; }
  };
  void parseFunction(DefMacros Macros, uint32_t Begin);
  void addDefaultForwarders(const FunctionDef &Full, Node *Callee,
                            const std::vector<Node *> &Defaults);
  bool makeFunction(Node *Sig, Node *Body, bool ShortForm, DefMacros Macros,
                    SrcRange Whole);
  void parseStruct(uint32_t Begin);
  void parseAbstract(uint32_t Begin);
  void parseConst(uint32_t Begin);
  /// `using CUDA`, `import Base: +, zero`, `import Base.+`: Base's and
  /// CUDA.jl's functions are the prelude's, visible everywhere and
  /// extended by any method of the same name, so these do nothing (Julia
  /// needs them to extend Base's functions). Another module is an error.
  void parseImport();
  bool toWhereVar(Node *N, WhereVar &V);
  bool parseTypeParams(std::vector<WhereVar> &Out);
};

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Node *Parser::parseAssign(bool AllowComma) {
  Node *L = AllowComma ? parseCommaList() : parseWhere();
  const Token &T = tok();
  if (T.isOp("=") || isUpdatingOp(T)) {
    std::string_view Op = T.Text;
    advance();
    skipNewlines();
    DepthGuard G(*this);
    if (!G.Ok)
      return errorNode(L->Range);
    Node *R = parseAssign(AllowComma);
    if (Op == "=")
      return mk(NodeKind::Assign, span(L, R), {L, R});
    Node *N = mk(NodeKind::OpAssign, span(L, R), {L, R});
    N->Name = Symbol::get(Op.substr(0, Op.size() - 1));
    return N;
  }
  return L;
}

Node *Parser::parseCommaList() {
  Node *First = parseWhere();
  if (!tok().is(Tok::Comma))
    return First;
  std::vector<Node *> Elts{First};
  while (tok().is(Tok::Comma)) {
    advance();
    if (atStatementEnd() || tok().isOp("="))
      break;
    Elts.push_back(parseWhere());
  }
  return mk(NodeKind::Tuple, from(First->Range.Begin), std::move(Elts));
}

Node *Parser::parseWhere() { return parseWhereClauses(parseTernary()); }

Node *Parser::parseWhereClauses(Node *E) {
  while (tok().isKw("where")) {
    advance();
    std::vector<Node *> Kids{E};
    if (tok().is(Tok::LBrace)) {
      uint32_t B = advance().Begin;
      parseList(Tok::RBrace, "}", Kids, B);
    } else {
      Kids.push_back(parseBinary(PrecComparison));
    }
    E = mk(NodeKind::Where, from(E->Range.Begin), std::move(Kids));
  }
  return E;
}

Node *Parser::parseTernary() {
  Node *C = parseBinary(PrecOr);
  if (!tok().isOp("?"))
    return C;
  advance();
  skipNewlines();
  DepthGuard G(*this);
  if (!G.Ok)
    return errorNode(C->Range);
  bool SavedNoRange = NoRangeColon;
  NoRangeColon = true;
  Node *A = parseTernary();
  NoRangeColon = SavedNoRange;
  if (!tok().isOp(":"))
    return error(tok().range(), "expected `:` in `?:` expression, found " +
                                    describe(tok()));
  advance();
  skipNewlines();
  Node *B = parseTernary();
  return mk(NodeKind::Ternary, span(C, B), {C, A, B});
}

Node *Parser::parseBinary(int MinPrec) {
  Symbol ChainOp; // `+` or `*` while L is a chain of it
  Node *L = parseUnary();
  while (true) {
    const Token &T = tok();
    if (T.isOp("->")) {
      // Parsed and dropped, so that what follows it parses as usual; one
      // error for `x -> y -> ...`.
      if (!InArrowBody)
        errorInPlace(T.range(),
                     "anonymous functions (`x -> ...`) are not supported: "
                     "kernels have no closures; define a named function at "
                     "the top level and pass it by name, as "
                     "`map!(square, ...)` does");
      advance();
      skipNewlines();
      DepthGuard G(*this); // `a -> b -> c -> ...` recurses here
      if (!G.Ok)
        return errorNode(L->Range);
      bool Was = InArrowBody;
      InArrowBody = true;
      Node *Body = parseBinary(PrecOr);
      InArrowBody = Was;
      return errorNode(span(L, Body));
    }
    if (int P = unsupportedBinaryPrec(T); P != PrecNone) {
      if (P < MinPrec)
        return L;
      errorInPlace(T.range(), unsupportedBinaryMessage(T.Text));
      advance();
      skipNewlines();
      Node *R = parseBinary(P + 1);
      L = errorNode(span(L, R));
      continue;
    }
    int Prec = binaryPrec(T);
    if (Prec == PrecNone || Prec < MinPrec)
      return L;
    if (Prec == PrecRange && NoRangeColon)
      return L;
    if (Prec == PrecComparison) {
      // Chains: `a < b <= c` means `(a < b) && (b <= c)`.
      std::vector<std::pair<Symbol, Node *>> Rest;
      std::vector<SrcRange> OpRanges;
      while (binaryPrec(tok()) == PrecComparison) {
        const Token &Op = advance();
        Symbol OpName = Symbol::get(Op.Text);
        OpRanges.push_back(Op.range());
        skipNewlines();
        Rest.push_back({OpName, parseBinary(PrecComparison + 1)});
      }
      std::vector<Node *> Calls;
      Node *Lhs = L;
      for (size_t I = 0; I < Rest.size(); ++I) {
        Node *Callee = ident(Rest[I].first, OpRanges[I]);
        Calls.push_back(mk(NodeKind::Call, span(Lhs, Rest[I].second),
                           {Callee, Lhs, Rest[I].second}));
        Lhs = Rest[I].second;
      }
      Node *Acc = Calls.back();
      for (size_t I = Calls.size() - 1; I-- > 0;)
        Acc = mk(NodeKind::And, span(Calls[I], Acc), {Calls[I], Acc});
      L = Acc;
      continue;
    }
    if (Prec == PrecRange) {
      advance();
      skipNewlines();
      Node *Mid = parseBinary(PrecRange + 1);
      if (tok().isOp(":") && !NoRangeColon) {
        advance();
        skipNewlines();
        Node *Last = parseBinary(PrecRange + 1);
        L = mk(NodeKind::Range, span(L, Last), {L, Mid, Last});
      } else {
        L = mk(NodeKind::Range, span(L, Mid), {L, Mid});
      }
      continue;
    }
    const Token &Op = advance();
    Symbol OpName = Symbol::get(Op.Text);
    SrcRange OpRange = Op.range();
    // `x ** 2`, Python's and Fortran's power: Julia's parser names `^`,
    // and the rest parses as that.
    if (Op.isOp("*") && tok().isOp("*") && tok().range().Begin == OpRange.End) {
      errorInPlace({OpRange.Begin, tok().range().End},
                   "use `x^y` instead of `x**y` for exponentiation");
      advance();
      OpName = Symbol::get("^");
      Prec = PrecPower;
    }
    skipNewlines();
    Node *R;
    if (Prec == PrecOr || Prec == PrecAnd || Prec == PrecPower) {
      DepthGuard G(*this);
      if (!G.Ok)
        return errorNode(L->Range);
      R = parseBinary(Prec);
    } else {
      R = parseBinary(Prec + 1);
    }
    if (Prec == PrecOr)
      L = mk(NodeKind::Or, span(L, R), {L, R});
    else if (Prec == PrecAnd)
      L = mk(NodeKind::And, span(L, R), {L, R});
    else if (OpName == ChainOp && L->Kind == NodeKind::Call) {
      // `a + b + c` is one call `+(a, b, c)`, as Julia parses it, so that
      // a long sum is wide rather than deep.
      L->Kids.push_back(R);
      L->Range = span(L, R);
      L->Height = std::max(L->Height, R->Height + 1);
    } else {
      L = mk(NodeKind::Call, span(L, R), {ident(OpName, OpRange), L, R});
      ChainOp = (Op.Text == "+" || Op.Text == "*") ? OpName : Symbol();
    }
  }
}

Node *Parser::parseUnary() {
  const Token &T = tok();
  if (T.is(Tok::Op)) {
    const Token &Next = peekNext();
    // An operator used as a value (`map(+, a)`, `(==)`) or called with
    // parentheses (`+(a, b)`, `!(x::Bool)`) is a plain name.
    if (isOperatorName(T) &&
        (Next.is(Tok::RParen) || Next.is(Tok::Comma) ||
         (Next.is(Tok::LParen) && !Next.SpaceBefore))) {
      advance();
      return parsePostfix(ident(Symbol::get(T.Text), T.range()));
    }
    if (T.Text == "--" || T.Text == "++") {
      // `--x`, `++x`: Julia's parser rejects both (C's increments).
      errorInPlace(T.range(), T.Text == "--"
                                  ? "invalid operator `--` (in Julia too): "
                                    "to decrement, write `x -= 1`; for a "
                                    "double negation, `-(-x)`"
                                  : "`++` is not a prefix operator (in "
                                    "Julia too): to increment, write `x += 1`");
      while (tok().isOp("--") || tok().isOp("++")) // one error for `----x`
        advance();
      return parseUnary();
    }
    if (T.Text == "<:" || T.Text == ">:")
      // `Box{<:Real}`: an anonymous type variable (Julia's UnionAll).
      return error(T.range(),
                   "`" + std::string(T.Text) +
                       "` without a left side (`Box{<:Real}`) is not "
                       "supported; name a static parameter: `f(x::Box{T}) "
                       "where {T<:Real}`");
    if (T.Text == "√") {
      // Julia's prefix square root: `√x` is `sqrt(x)`, binding as `-x`.
      uint32_t B = advance().Begin;
      DepthGuard G(*this);
      if (!G.Ok)
        return errorNode(from(B));
      Node *Operand = parseBinary(PrecPower);
      return mk(NodeKind::Call, {B, Operand->Range.End},
                {ident(Symbol::get("sqrt"), {B, B + 3}), Operand});
    }
    if (T.Text == "-" || T.Text == "+" || T.Text == "!" || T.Text == "~") {
      uint32_t B = T.Begin;
      std::string_view Op = T.Text;
      advance();
      // `-1` is a negative literal, but `-2^2` is `-(2^2)` as in Julia.
      if (Op == "-" && Next.is(Tok::Number) && !Next.SpaceBefore &&
          Next.Lit != LitType::Bool && Next.Lit != LitType::UInt8 &&
          Next.Lit != LitType::UInt16 && Next.Lit != LitType::UInt32 &&
          Next.Lit != LitType::UInt64 && !Toks[P + 1].isOp("^")) {
        const Token &Num = advance();
        Node *N = mk(NodeKind::Literal, from(B));
        N->Lit = Num.Lit;
        if (Num.Lit == LitType::Float32)
          N->Bits = Num.Bits ^ 0x80000000u;
        else if (Num.Lit == LitType::Float64)
          N->Bits = Num.Bits ^ 0x8000000000000000ull;
        else
          N->Bits = uint64_t(0) - Num.Bits; // wraps: 2^63 is typemin(Int64)
        return parsePostfix(juxtapose(N));
      }
      DepthGuard G(*this);
      if (!G.Ok)
        return errorNode(from(B));
      Node *Operand = parseBinary(PrecPower);
      return mk(NodeKind::Call, {B, Operand->Range.End},
                {ident(Symbol::get(Op), {B, B + uint32_t(Op.size())}), Operand});
    }
    if (T.Text == ":" && Next.is(Tok::Ident) && !Next.SpaceBefore) {
      // A symbol, `:π`: Julia's quoted name (here a type parameter).
      uint32_t B = advance().Begin;
      Node *Q = mk(NodeKind::Quote, {B, Next.End});
      Q->Name = Symbol::get(advance().Text);
      return parsePostfix(Q);
    }
    if (T.Text == "::") {
      // `::Type{T}`: an anonymous parameter (only valid in signatures).
      uint32_t B = advance().Begin;
      Node *Ty = parseTypeOperand();
      return mk(NodeKind::TypeAssert, from(B), {Ty});
    }
  }
  return parsePostfix(parsePrimary());
}

Node *Parser::parseTypeOperand() {
  // A type after `::` is a primary with its `{...}` and `.` suffixes.
  Node *Ty = parsePrimary();
  while (true) {
    const Token &T = tok();
    if (T.is(Tok::LBrace) && !T.SpaceBefore) {
      uint32_t B = advance().Begin;
      std::vector<Node *> Kids{Ty};
      parseList(Tok::RBrace, "}", Kids, B);
      Ty = mk(NodeKind::Curly, from(Ty->Range.Begin), std::move(Kids));
    } else if (T.isOp(".") && peekNext().is(Tok::Ident)) {
      advance();
      const Token &F = advance();
      Node *D = mk(NodeKind::Dot, from(Ty->Range.Begin), {Ty});
      D->Name = Symbol::get(F.Text);
      Ty = D;
    } else if (T.is(Tok::LParen) && !T.SpaceBefore &&
               Ty->Kind == NodeKind::Ident && Ty->Name.str() == "typeof") {
      // `f::typeof(g)`: the singleton type of a function.
      uint32_t B = advance().Begin;
      std::vector<Node *> Kids{Ty};
      parseList(Tok::RParen, ")", Kids, B);
      Ty = mk(NodeKind::Call, from(Ty->Range.Begin), std::move(Kids));
    } else {
      return Ty;
    }
  }
}

void Parser::parseList(Tok Close, const char *CloseText,
                       std::vector<Node *> &Kids, uint32_t OpenBegin) {
  NLScope NL(*this, true);
  bool SavedNoRange = NoRangeColon;
  NoRangeColon = false;
  DepthGuard G(*this);
  if (G.Ok) {
    while (!tok().is(Close)) {
      if (tok().is(Tok::Semicolon)) {
        errorInPlace(tok().range(), "keyword arguments are not supported");
        skipToListEnd();
        break;
      }
      Node *E = parseAssign(false);
      if (tok().isOp("...")) {
        // Reported in place, so that the function around it is still
        // defined and the error is only its own (deferUnsupported).
        errorInPlace(tok().range(), SplatMessage);
        E = errorNode(from(E->Range.Begin));
        advance();
      }
      if (tok().isKw("for")) {
        // `sum(x for x in a)`, `Float32[i for i in 1:n]`.
        errorInPlace(tok().range(), "generators and comprehensions (`f(x) "
                                    "for x in a`) are not supported: a kernel "
                                    "allocates no arrays; write a `for` loop");
        skipToListEnd();
        break;
      }
      Kids.push_back(E);
      if (Panic)
        break;
      if (tok().is(Tok::Comma)) {
        advance();
        continue;
      }
      if (!tok().is(Close)) {
        if (tok().is(Tok::Semicolon)) {
          errorInPlace(tok().range(), "keyword arguments are not supported");
          skipToListEnd();
        } else if (tok().is(Tok::Eof))
          error(tok().range(), std::string("expected `") + CloseText +
                                   "` to close `" +
                                   std::string(1, "([{"[Close == Tok::RParen ? 0 : Close == Tok::RBracket ? 1 : 2]) +
                                   "` at " + where(OpenBegin));
        else
          error(tok().range(), "expected `,` or `" + std::string(CloseText) +
                                   "`, found " + describe(tok()));
      }
      break;
    }
  }
  NoRangeColon = SavedNoRange;
  if (tok().is(Close))
    advance();
}

Node *Parser::parsePostfix(Node *Base) {
  while (true) {
    const Token &T = tok();
    uint32_t B = Base->Range.Begin;
    if (T.isOp("'")) {
      errorInPlace(T.range(), "the adjoint operator `x'` is not supported: "
                              "a kernel has no matrices to transpose");
      advance();
      Base = errorNode(from(B));
      continue;
    }
    if (T.is(Tok::LParen)) {
      if (T.SpaceBefore)
        return error(T.range(), "space before `(` not allowed in a call");
      uint32_t OB = advance().Begin;
      std::vector<Node *> Kids{Base};
      parseList(Tok::RParen, ")", Kids, OB);
      Base = mk(NodeKind::Call, from(B), std::move(Kids));
    } else if (T.is(Tok::LBracket)) {
      if (T.SpaceBefore)
        return error(T.range(), "space before `[` not allowed in indexing");
      uint32_t OB = advance().Begin;
      // What kernels cannot index with, found before parsing so that the
      // whole index is one error: `a[end]`, `a[begin]`, `t[2:end]`, a
      // slice `b[:, j]`. The error is past the brackets, so that an `end`
      // in them closes no block (and the `]` after it is no second error).
      auto Refuse = [&](SrcRange R, std::string Msg) {
        Node *E = error(R, std::move(Msg));
        skipToListEnd();
        if (tok().is(Tok::RBracket))
          advance();
        return E;
      };
      unsigned Dim = 1;
      unsigned Blocks = 0; // `a[let j = i; j end]`: that `end` closes the let
      for (size_t Q = P, Depth = 1; Q + 1 < Toks.size() && Depth; ++Q) {
        Tok K = Toks[Q].Kind;
        if (K == Tok::Eof)
          break;
        if (K == Tok::LBracket || K == Tok::LParen || K == Tok::LBrace)
          ++Depth;
        else if (K == Tok::RBracket || K == Tok::RParen || K == Tok::RBrace)
          --Depth;
        else if (Depth == 1 && K == Tok::Comma)
          ++Dim;
        else if (K == Tok::Keyword && opensBlock(Toks[Q].Text) &&
                 (!Toks[Q].isKw("begin") || Toks[Q + 1].is(Tok::Newline) ||
                  Toks[Q + 1].is(Tok::Semicolon)))
          ++Blocks;
        else if (Toks[Q].isKw("end") && Blocks)
          --Blocks;
        else if (Toks[Q].isKw("end"))
          return Refuse(Toks[Q].range(),
                        "`end` inside indexing is not supported: write "
                        "`length(a)` or `size(a, d)`");
        else if (Toks[Q].isKw("begin"))
          return Refuse(Toks[Q].range(),
                        "`begin` inside indexing is not supported: arrays "
                        "start at 1");
        else if (Depth == 1 && Toks[Q].isOp(":") &&
                 (Q == P || Toks[Q - 1].is(Tok::Comma)) &&
                 (Toks[Q + 1].is(Tok::Comma) || Toks[Q + 1].is(Tok::RBracket)))
          return Refuse(Toks[Q].range(),
                        "slices (`a[:, j]`) are not supported: a kernel "
                        "indexes one element at a time (a loop over `axes(a, " +
                            std::to_string(Dim) + ")`)");
      }
      std::vector<Node *> Kids{Base};
      parseList(Tok::RBracket, "]", Kids, OB);
      Base = mk(NodeKind::Index, from(B), std::move(Kids));
    } else if (T.is(Tok::LBrace) && !T.SpaceBefore) {
      uint32_t OB = advance().Begin;
      std::vector<Node *> Kids{Base};
      parseList(Tok::RBrace, "}", Kids, OB);
      Base = mk(NodeKind::Curly, from(B), std::move(Kids));
    } else if (T.isOp(".")) {
      advance();
      // `Base.:+`: a module's operator, quoted.
      bool Quoted = false;
      if (tok().isOp(":") && !peekNext().SpaceBefore &&
          (peekNext().is(Tok::Op) || peekNext().is(Tok::Ident))) {
        advance();
        Quoted = true;
      } else if (tok().isOp(":") && peekNext().is(Tok::LParen) &&
                 !peekNext().SpaceBefore && P + 3 < Toks.size() &&
                 Toks[P + 2].is(Tok::Op) && Toks[P + 3].is(Tok::RParen)) {
        // `Base.:(==)`: the operator in parentheses.
        advance();
        advance();
        Quoted = true;
      }
      const Token &F = tok();
      if (F.is(Tok::LParen))
        return error(F.range(), "broadcasting (`f.(x)`) is not supported");
      if (F.is(Tok::Op) && !Quoted)
        return error(F.range(), "broadcasting (`." + std::string(F.Text) +
                                    "`) is not supported: write the loop");
      if (!F.is(Tok::Ident) && !Quoted)
        return error(F.range(), "expected a field name after `.`, found " +
                                    describe(F));
      advance();
      if (Quoted && tok().is(Tok::RParen) && Toks[P - 2].is(Tok::LParen))
        advance();
      if (Base->Kind == NodeKind::Ident && isPreludeModule(Base->Name.str())) {
        // `Base.zero`, `Base.:+`, `CUDA.threadIdx`: the prelude holds these
        // modules' functions, each visible by its plain name, so a method
        // of `Base.:+` is a method of `+`, as in Julia. A submodule
        // (`Base.Math.sqrt`) is the module again.
        Base =
            ident(isPreludeSubmodule(F.Text) ? Base->Name : Symbol::get(F.Text),
                  from(B));
        continue;
      }
      if (Quoted)
        return error(from(B), "`.:" + std::string(F.Text) +
                                  "` names a module's function; the modules "
                                  "here are Base, Core and CUDA");
      Node *D = mk(NodeKind::Dot, from(B), {Base});
      D->Name = Symbol::get(F.Text);
      Base = D;
    } else if (T.isOp("::")) {
      advance();
      Node *Ty = parseTypeOperand();
      Base = mk(NodeKind::TypeAssert, from(B), {Base, Ty});
    } else if (T.isOp("...")) {
      errorInPlace(T.range(), SplatMessage);
      advance();
      Base = errorNode(from(B));
    } else {
      return Base;
    }
  }
}

Node *Parser::parseParen() {
  uint32_t B = advance().Begin;
  NLScope NL(*this, true);
  bool SavedNoRange = NoRangeColon;
  NoRangeColon = false;
  DepthGuard G(*this);
  Node *Result = nullptr;
  if (!G.Ok) {
    Result = errorNode(from(B));
  } else if (tok().is(Tok::RParen)) {
    advance();
    Result = mk(NodeKind::Tuple, from(B));
  } else {
    Node *E = parseAssign(false);
    if (tok().is(Tok::Comma)) {
      std::vector<Node *> Elts{E};
      while (tok().is(Tok::Comma) && !Panic) {
        advance();
        if (tok().is(Tok::RParen))
          break;
        Elts.push_back(parseAssign(false));
      }
      if (!expect(Tok::RParen, "`,` or `)`"))
        Result = errorNode(from(B));
      else
        Result = mk(NodeKind::Tuple, from(B), std::move(Elts));
    } else if (tok().is(Tok::RParen)) {
      advance();
      // `(y = 2x) > 0` assigns: a block, so that an operand or argument in
      // parentheses is never taken for a keyword argument `f(y = 2x)`.
      Result = E->Kind == NodeKind::Assign ? mk(NodeKind::Block, from(B), {E})
                                           : E;
    } else if (tok().is(Tok::Eof)) {
      Result = error(tok().range(), "expected `)` to close `(` at " + where(B));
    } else if (tok().is(Tok::Semicolon)) {
      // `(a = f(x); a + 1)`: a block of expressions, the last one's value.
      std::vector<Node *> Stmts{E};
      while (tok().is(Tok::Semicolon) && !Panic) {
        advance();
        if (tok().is(Tok::RParen))
          break;
        Stmts.push_back(parseAssign(false));
      }
      if (!expect(Tok::RParen, "`;` or `)`"))
        Result = errorNode(from(B));
      else
        Result = mk(NodeKind::Block, from(B), std::move(Stmts));
    } else if (File->lineCol(tok().Begin).Line != File->lineCol(B).Line) {
      // The `(` was left open and the next line's code read as its inside.
      Result = error(tok().range(), "expected `)` to close `(` at " + where(B) +
                                        ", found " + describe(tok()));
    } else {
      Result = unexpected(tok());
    }
  }
  NoRangeColon = SavedNoRange;
  return Result;
}

/// What to write instead of a CUDA.jl or Base macro the kernel language
/// does not have, for those that need more than "unknown macro".
static std::string macroMessage(std::string_view Name) {
  if (Name == "assert" || Name == "cuassert")
    return "`@" + std::string(Name) +
           "` is not supported (kernels have no strings): write "
           "`cond || throw(DomainError(x))`";
  if (Name == "cuprintf" || Name == "cuprintln" || Name == "cushow" ||
      Name == "printf" || Name == "show" || Name == "info" || Name == "warn" ||
      Name == "error" || Name == "debug")
    return "`@" + std::string(Name) +
           "` is not supported: kernels print nothing (no strings, no I/O); "
           "store the value in an array argument, which `prism run` prints";
  if (Name == "time" || Name == "elapsed" || Name == "btime" ||
      Name == "benchmark")
    return "`@" + std::string(Name) +
           "` times host code, which kernel files do not have: `prism run` "
           "prints a launch's time, `prism report` the compile's";
  return {};
}

/// "string literals are not supported", as the call it is an argument of
/// reads: printing, or error().
static std::string stringLiteralMessage(std::string_view Callee) {
  if (Callee == "error")
    return "`error(\"...\")` is not supported (kernels have no strings): "
           "throw a value instead, as `throw(DomainError(x))`";
  if (Callee == "println" || Callee == "print" || Callee == "printf" ||
      Callee == "show" || Callee == "display")
    return "printing is not supported: kernels have no strings and no I/O; "
           "store the value in an array argument, which `prism run` prints";
  return "string literals are not supported";
}

Node *Parser::parseMacro() {
  const Token &M = advance();
  uint32_t B = M.Begin;
  std::string_view Name = M.Text;
  if (Name == "inline" || Name == "noinline" || Name == "propagate_inbounds")
    return error(M.range(), "`@" + std::string(Name) +
                                "` must come before a function definition");
  DepthGuard G(*this);
  if (!G.Ok)
    return errorNode(M.range());
  if (Name == "simd") {
    // Julia's `@simd` permits the compiler to reorder a loop's iterations
    // (and reassociate its float sums); compiling the loop in order keeps
    // that promise, so the loop is just the loop.
    if (!tok().isKw("for"))
      errorInPlace(tok().range(), "`@simd` must come before a `for` loop");
    return parseAssign(false);
  }
  if (Name == "atomic") {
    // CUDA.jl's `@atomic a[i] += v` is `atomic_add!(a, i, v)`.
    if (atStatementEnd())
      return error(tok().range(), "expected an expression after `@atomic`");
    Node *E = parseAssign(false);
    if (E->Kind == NodeKind::Error)
      return E;
    std::string_view Op = E->Kind == NodeKind::OpAssign ? E->Name.str() : "";
    const Node *Lhs = E->Kind == NodeKind::OpAssign ? E->Kids[0] : nullptr;
    if ((Op != "+" && Op != "-") || Lhs->Kind != NodeKind::Index ||
        Lhs->Kids.size() != 2)
      return error(E->Range,
                   "`@atomic` takes `a[i] += v` or `a[i] -= v` (one index): "
                   "the kernel language's atomics are atomic_add!");
    Node *V = E->Kids[1];
    if (Op == "-")
      V = mk(NodeKind::Call, V->Range, {ident(Symbol::get("-"), E->Range), V});
    return mk(NodeKind::Call, from(B),
              {ident(Symbol::get("atomic_add!"), M.range()), Lhs->Kids[0],
               Lhs->Kids[1], V});
  }
  if (Name == ".") {
    errorInPlace(M.range(), "broadcasting (`@.`) is not supported: write "
                            "the loop");
    while (!atStatementEnd())
      advance();
    return errorNode(from(B));
  }
  if (Name == "cuda") {
    // CUDA.jl's host-side launch: a kernel file holds only kernels here.
    errorInPlace(M.range(),
                 "`@cuda` launches from host code, which kernel files do not "
                 "have: launch from the command line, `prism run FILE "
                 "'k!(args...)' --threads N --blocks M`");
    while (!atStatementEnd())
      advance();
    return errorNode(from(B));
  }
  if (std::string Why = macroMessage(Name); !Why.empty()) {
    // Printing and assertions: their arguments are strings and values on
    // one line, named by this one error.
    errorInPlace(M.range(), Why);
    skipToStatementEnd();
    return errorNode(from(B));
  }
  if (Name != "inbounds" && Name != "boundscheck") {
    // Parse what it applies to, so that the rest of the file still reads
    // as it is written (no errors at a later `end`).
    errorInPlace(M.range(), "unknown macro `@" + std::string(Name) + "`");
    if (!atStatementEnd())
      parseAssign(false);
    return errorNode(from(B));
  }
  Node *Arg;
  if (tok().is(Tok::LParen) && !tok().SpaceBefore) {
    // `@inbounds(a[i])`
    uint32_t OB = advance().Begin;
    std::vector<Node *> Args;
    parseList(Tok::RParen, ")", Args, OB);
    if (Args.size() != 1)
      return error(from(B), "`@" + std::string(Name) + "` takes one expression");
    Arg = Args[0];
  } else {
    if (atStatementEnd())
      return error(tok().range(), "expected an expression after `@" +
                                      std::string(Name) + "`");
    Arg = parseAssign(false);
  }
  Node *N = mk(NodeKind::Macro, from(B), {Arg});
  N->Name = Symbol::get(Name);
  return N;
}

/// Julia's numeric literal coefficient: `2x`, `2π`, `1.5(a + b)` multiply,
/// binding tighter than `*` and looser than `^` (`2x^2` is `2 * x^2`).
Node *Parser::juxtapose(Node *Num) {
  const Token &T = tok();
  if (T.SpaceBefore || !(T.is(Tok::Ident) || T.is(Tok::LParen)))
    return Num;
  DepthGuard G(*this);
  if (!G.Ok)
    return errorNode(Num->Range);
  Node *Operand = parseBinary(PrecPower);
  return mk(NodeKind::Call, {Num->Range.Begin, Operand->Range.End},
            {ident(Symbol::get("*"), Num->Range), Num, Operand});
}

Node *Parser::parsePrimary() {
  const Token &T = tok();
  switch (T.Kind) {
  case Tok::Number: {
    advance();
    if (T.Lit == LitType::Int64 && T.Bits == uint64_t(INT64_MAX) + 1)
      // The lexer's 2^63, not negated (Julia reads it as an Int128).
      return error(T.range(), tooBigForInt64(T.Text, "9223372036854775808"));
    Node *N = mk(NodeKind::Literal, T.range());
    N->Lit = T.Lit;
    N->Bits = T.Bits;
    return juxtapose(N);
  }
  case Tok::Ident:
    advance();
    return ident(Symbol::get(T.Text), T.range());
  case Tok::LParen:
    return parseParen();
  case Tok::LBracket: {
    // `[f(x) for x in a]`: a `for` inside the brackets, at their own depth.
    int Depth = 0;
    bool Comprehension = false;
    size_t Q = P;
    for (; Q < Toks.size() && Toks[Q].Kind != Tok::Eof; ++Q) {
      Tok K = Toks[Q].Kind;
      Depth += K == Tok::LBracket || K == Tok::LParen || K == Tok::LBrace;
      Depth -= K == Tok::RBracket || K == Tok::RParen || K == Tok::RBrace;
      if (Depth <= 0)
        break;
      Comprehension |= Depth == 1 && Toks[Q].isKw("for");
    }
    if (Depth > 0) // never closed: the file ends first
      return error(T.range(), "`[` is never closed: the file ends first");
    // Reported in place and skipped to its `]`, so that a short-form
    // function around it is still defined and the error is its own.
    if (Comprehension)
      errorInPlace(T.range(), "comprehensions are not supported: a kernel "
                              "allocates no arrays; write a `for` loop");
    else
      errorInPlace(T.range(), "array literals are not supported",
                   DiagCode::ArrayLiteral);
    P = Q + 1;
    PrevEnd = Toks[Q].End;
    return errorNode(from(T.Begin));
  }
  case Tok::Invalid:
    advance(); // the lexer reported it
    return mk(NodeKind::Error, T.range());
  case Tok::String: {
    // Reported here, where the parse goes on as if it were a value; as the
    // call it is the message of, where that is printing or error().
    std::string_view Callee =
        P >= 2 && Toks[P - 1].is(Tok::LParen) && Toks[P - 2].is(Tok::Ident)
            ? Toks[P - 2].Text
            : std::string_view();
    advance();
    errorInPlace(T.range(), stringLiteralMessage(Callee));
    return mk(NodeKind::Error, T.range());
  }
  case Tok::Macro:
    return parseMacro();
  case Tok::Keyword: {
    std::string_view K = T.Text;
    if (K == "in" && peekNext().is(Tok::LParen) && !peekNext().SpaceBefore) {
      // `in(x, t)` (and `∈(x, t)`): the function `in` called.
      advance();
      return parsePostfix(ident(Symbol::get("in"), T.range()));
    }
    if (K == "if")
      return parseIf();
    if (K == "while")
      return parseWhile();
    if (K == "for")
      return parseFor();
    if (K == "begin")
      return parseBegin();
    if (K == "let")
      return parseLet();
    if (K == "local")
      return parseLocal();
    if (K == "return")
      return parseReturn();
    if (K == "break" || K == "continue") {
      advance();
      return mk(K == "break" ? NodeKind::Break : NodeKind::Continue, T.range());
    }
    if (K == "end" || K == "else" || K == "elseif" || K == "where" ||
        K == "in" || K == "function" || K == "struct" || K == "abstract" ||
        K == "const" || K == "mutable")
      return unexpected(T);
    if (opensBlock(K)) {
      // `let ... end`: one error, and its `end` closes nothing else.
      advance();
      errorInPlace(T.range(), "`" + std::string(K) +
                                  "` is not supported in the kernel language");
      skipThroughEnd();
      return errorNode(from(T.Begin));
    }
    return error(T.range(), "`" + std::string(K) +
                                "` is not supported in the kernel language");
  }
  default:
    return unexpected(T);
  }
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

/// Statements up to (not including) `end`/`else`/`elseif`/EOF or a
/// definition keyword at the start of a statement (a missing `end`).
Node *Parser::parseBlock(uint32_t Begin, bool AllowElse) {
  NLScope NL(*this, false);
  std::vector<Node *> Stmts;
  while (!GaveUp) {
    while (tok().is(Tok::Newline) || tok().is(Tok::Semicolon))
      advance();
    const Token &T = tok();
    if (!AllowElse && (T.isKw("else") || T.isKw("elseif"))) {
      unexpected(T);
      advance();
      syncLine();
      if (Panic)
        break;
      continue;
    }
    if (T.isKw("function") && File->lineCol(T.Begin).Col > 1) {
      // An indented `function` inside a body is a nested definition (one
      // at column 1 more likely follows a missing `end`): say so, and
      // parse it to its `end` so that the rest of the body still parses.
      std::string Name = peekNext().is(Tok::Ident)
                             ? "`" + std::string(peekNext().Text) + "` "
                             : "";
      if (!InNestedFunction)
        errorInPlace(T.range(),
                     "a function cannot be defined inside another: "
                     "kernels have no closures; define " +
                         Name +
                         "at the top level and pass it what it uses as "
                         "arguments");
      DepthGuard G(*this); // nested definitions recurse here
      if (!G.Ok)
        break; // reported; Panic unwinds to the top level
      size_t Defs = Out.Defs.size();
      bool Was = InNestedFunction;
      InNestedFunction = true;
      parseFunction(DefMacros(), T.Begin);
      InNestedFunction = Was;
      Out.Defs.resize(Defs);
      continue;
    }
    if (T.is(Tok::Eof) || T.isKw("end") || T.isKw("else") ||
        T.isKw("elseif") || isDefinitionStart(T))
      break;
    Node *S = parseStatement();
    Stmts.push_back(S);
    if (rejectDoBlock())
      continue;
    if (!Panic && !atStatementEnd())
      error(tok().range(), "extra token " + describe(tok()) +
                               " after end of expression");
    if (Panic) {
      syncLine();
      if (Panic)
        break; // unwinding to the top level
    }
  }
  Node *B = errorNode({Begin, std::max(Begin, PrevEnd)});
  B->Kind = NodeKind::Block;
  B->Kids = std::move(Stmts);
  uint32_t H = 0;
  for (Node *K : B->Kids)
    H = std::max(H, K->Height);
  B->Height = H + 1;
  return B;
}

Node *Parser::parseIf() {
  NLScope NL(*this, false);
  DepthGuard G(*this);
  const Token &IfTok = advance();
  if (!G.Ok)
    return errorNode(IfTok.range());
  struct Arm {
    Node *Cond, *Body;
    uint32_t Begin;
  };
  std::vector<Arm> Arms;
  uint32_t ArmBegin = IfTok.Begin;
  Node *Else = nullptr;
  while (true) {
    Node *Cond = parseAssign(false);
    if (Panic) {
      syncLine();
      if (Panic)
        return errorNode(from(IfTok.Begin));
    }
    Node *Body = parseBlock(PrevEnd, /*AllowElse=*/true);
    Arms.push_back({Cond, Body, ArmBegin});
    if (Panic)
      return errorNode(from(IfTok.Begin));
    if (tok().isKw("elseif")) {
      ArmBegin = advance().Begin;
      continue;
    }
    if (tok().isKw("else")) {
      uint32_t ElseBegin = advance().Begin;
      // `else if` on one line is Julia's error too; going on as if it were
      // `elseif` matches the one `end` its author wrote.
      if (Toks[P].isKw("if")) {
        errorInPlace({ElseBegin, Toks[P].End},
                     "use `elseif` instead of `else if`");
        ArmBegin = ElseBegin;
        advance();
        continue;
      }
      Else = parseBlock(PrevEnd);
      if (Panic)
        return errorNode(from(IfTok.Begin));
    }
    break;
  }
  if (!expectEnd(IfTok))
    return errorNode(from(IfTok.Begin));
  Node *Result = Else;
  for (size_t I = Arms.size(); I-- > 0;) {
    std::vector<Node *> Kids{Arms[I].Cond, Arms[I].Body};
    if (Result)
      Kids.push_back(Result);
    Result = mk(NodeKind::If, from(I == 0 ? IfTok.Begin : Arms[I].Begin),
                std::move(Kids));
  }
  return Result;
}

Node *Parser::parseWhile() {
  NLScope NL(*this, false);
  DepthGuard G(*this);
  const Token &W = advance();
  if (!G.Ok)
    return errorNode(W.range());
  Node *Cond = parseAssign(false);
  if (Panic) {
    syncLine();
    if (Panic)
      return errorNode(from(W.Begin));
  }
  Node *Body = parseBlock(PrevEnd);
  if (Panic || !expectEnd(W))
    return errorNode(from(W.Begin));
  return mk(NodeKind::While, from(W.Begin), {Cond, Body});
}

Node *Parser::parseFor() {
  NLScope NL(*this, false);
  DepthGuard G(*this);
  const Token &F = advance();
  if (!G.Ok)
    return errorNode(F.range());
  // `for i in a, (j, x) in b`: each clause a variable or a tuple of them.
  struct Clause {
    Symbol Var;
    Node *Pattern = nullptr; ///< `(j, x)`, assigned from the hidden Var
    Node *Iter = nullptr;
  };
  std::vector<Clause> Clauses;
  while (!Panic) {
    Clause C;
    if (tok().is(Tok::Ident) && tok().Text == "outer" &&
        (peekNext().is(Tok::Ident) || peekNext().is(Tok::LParen))) {
      std::string Var = peekNext().is(Tok::Ident) ? std::string(peekNext().Text)
                                                  : std::string("x");
      error(tok().range(), "`for outer " + Var +
                               "` is not supported: assign the loop "
                               "variable to an outer one in the body");
      break;
    }
    if (tok().is(Tok::Ident)) {
      C.Var = Symbol::get(advance().Text);
    } else if (tok().is(Tok::LParen)) {
      // A hidden loop variable, taken apart into the pattern's names
      // (the For's third kid) at the start of each iteration.
      uint32_t B = advance().Begin;
      std::vector<Node *> Names;
      while (tok().is(Tok::Ident)) {
        const Token &T = advance();
        Names.push_back(ident(Symbol::get(T.Text), T.range()));
        if (!tok().is(Tok::Comma))
          break;
        advance();
      }
      if (tok().is(Tok::LParen)) {
        error(tok().range(), "nested loop-variable patterns (`for (i, (a, "
                             "b)) in ...`) are not supported");
        break;
      }
      if (Names.empty() || !tok().is(Tok::RParen)) {
        error(tok().range(), "expected loop variables `(a, b)` after `for`, "
                             "found " +
                                 describe(tok()));
        break;
      }
      advance();
      C.Pattern = mk(NodeKind::Tuple, from(B), std::move(Names));
      C.Var = Symbol::get("#for" + std::to_string(++HiddenLoopVars) + "#");
    } else {
      error(tok().range(),
            "expected a loop variable after `for`, found " + describe(tok()));
      break;
    }
    if (!tok().isKw("in") && !tok().isOp("=") && !tok().isOp("∈")) {
      error(tok().range(), "expected `in` after the loop variable, found " +
                               describe(tok()));
      break;
    }
    advance();
    C.Iter = parseAssign(false);
    Clauses.push_back(C);
    if (Panic || !tok().is(Tok::Comma))
      break;
    advance();
  }
  if (Panic) {
    syncLine();
    if (Panic)
      return errorNode(from(F.Begin));
  }
  Node *Body = parseBlock(PrevEnd);
  if (Panic || !expectEnd(F) || Clauses.empty())
    return errorNode(from(F.Begin));
  // Innermost first: each clause's loop holds the next; `break` anywhere
  // leaves them all (Bits = 1 on the inner ones), as in Julia.
  Node *N = nullptr;
  for (size_t I = Clauses.size(); I-- > 0;) {
    const Clause &C = Clauses[I];
    Node *Inner = N ? mk(NodeKind::Block, N->Range, {N}) : Body;
    std::vector<Node *> Kids{C.Iter, Inner};
    if (C.Pattern)
      Kids.push_back(C.Pattern); // new variables of the loop, as Name is
    Node *Loop = mk(NodeKind::For, from(F.Begin), std::move(Kids));
    Loop->Name = C.Var;
    if (N)
      N->Bits = 1;
    N = Loop;
  }
  return N;
}

Node *Parser::parseBegin() {
  NLScope NL(*this, false);
  DepthGuard G(*this);
  const Token &B = advance();
  if (!G.Ok)
    return errorNode(B.range());
  Node *Body = parseBlock(B.Begin);
  if (Panic || !expectEnd(B))
    return errorNode(from(B.Begin));
  Body->Range = from(B.Begin);
  return Body;
}

/// Whether D declares only names: `x`, `(a, b)`, `a, b`.
static bool declaresNames(const Node *D) {
  if (D->Kind == NodeKind::Ident)
    return true;
  if (D->Kind != NodeKind::Tuple || D->Kids.empty())
    return false;
  for (const Node *K : D->Kids)
    if (K->Kind != NodeKind::Ident)
      return false;
  return true;
}

bool Parser::checkDeclaration(const Node *D, const char *What) {
  const Node *Target =
      D->Kind == NodeKind::Assign || D->Kind == NodeKind::OpAssign ? D->Kids[0]
                                                                   : D;
  // `local x += 1` updates; a let binding only assigns.
  bool UpdateOk =
      D->Kind != NodeKind::OpAssign ||
      (Target->Kind == NodeKind::Ident && std::string_view(What) == "local");
  if (declaresNames(Target) && UpdateOk)
    return true;
  error(Target->Range,
        std::string("expected a name, names `(a, b)` or an assignment to "
                    "them after `") +
            What + "`" +
            (Target->Kind == NodeKind::TypeAssert
                 ? " (a typed local is not supported: write `x = T(...)`)"
                 : ""));
  return false;
}

std::vector<Node *> Parser::parseDeclarations(const char *What) {
  std::vector<Node *> Decls;
  while (!atStatementEnd() && !Panic) {
    Node *D = parseAssign(false);
    if (Panic || !checkDeclaration(D, What))
      return {};
    Decls.push_back(D);
    if (!tok().is(Tok::Comma))
      break;
    advance();
  }
  return Decls;
}

Node *Parser::parseLet() {
  NLScope NL(*this, false);
  DepthGuard G(*this);
  const Token &L = advance();
  if (!G.Ok)
    return errorNode(L.range());
  std::vector<Node *> Decls = parseDeclarations("let");
  if (Panic || (Decls.empty() && !atStatementEnd())) {
    // One error: the let's own `end` closes nothing else.
    Panic = false;
    skipThroughEnd();
    return errorNode(from(L.Begin));
  }
  Node *Bindings = mk(NodeKind::Block, L.range(), std::move(Decls));
  Node *Body = parseBlock(PrevEnd);
  if (Panic || !expectEnd(L))
    return errorNode(from(L.Begin));
  return mk(NodeKind::Let, from(L.Begin), {Bindings, Body});
}

Node *Parser::parseLocal() {
  const Token &L = advance();
  if (atStatementEnd())
    return error(tok().range(), "expected a name after `local`");
  // `local a, b = t` destructures, as Julia reads it: one declaration.
  Node *D = parseAssign(true);
  if (Panic || !checkDeclaration(D, "local"))
    return errorNode(from(L.Begin));
  return mk(NodeKind::Local, from(L.Begin), {D});
}

Node *Parser::parseReturn() {
  const Token &R = advance();
  if (atStatementEnd() || tok().is(Tok::RParen))
    return mk(NodeKind::Return, R.range());
  Node *V = parseAssign(true);
  return mk(NodeKind::Return, from(R.Begin), {V});
}

//===----------------------------------------------------------------------===//
// Definitions
//===----------------------------------------------------------------------===//

bool Parser::toWhereVar(Node *N, WhereVar &V) {
  V.Range = N->Range;
  if (N->Kind == NodeKind::Ident) {
    V.Name = N->Name;
    return true;
  }
  auto isBound = [](Node *C, const char *Op) {
    return C->Kind == NodeKind::Call && C->Kids.size() == 3 &&
           C->Kids[0]->Name == Symbol::get(Op);
  };
  if (isBound(N, "<:") && N->Kids[1]->Kind == NodeKind::Ident) {
    V.Name = N->Kids[1]->Name;
    V.Upper = N->Kids[2];
    return true;
  }
  if (isBound(N, ">:") && N->Kids[1]->Kind == NodeKind::Ident) {
    V.Name = N->Kids[1]->Name;
    V.Lower = N->Kids[2];
    return true;
  }
  // `Lo <: T <: Hi` (a comparison chain).
  if (N->Kind == NodeKind::And && isBound(N->Kids[0], "<:") &&
      isBound(N->Kids[1], "<:") && N->Kids[0]->Kids[2]->Kind == NodeKind::Ident &&
      N->Kids[0]->Kids[2] == N->Kids[1]->Kids[1]) {
    V.Name = N->Kids[0]->Kids[2]->Name;
    V.Lower = N->Kids[0]->Kids[1];
    V.Upper = N->Kids[1]->Kids[2];
    return true;
  }
  error(N->Range, "invalid type parameter; expected `T`, `T <: Upper` or `T >: Lower`");
  return false;
}

bool Parser::parseTypeParams(std::vector<WhereVar> &Vars) {
  if (!tok().is(Tok::LBrace) || tok().SpaceBefore)
    return true;
  uint32_t B = advance().Begin;
  std::vector<Node *> Kids;
  parseList(Tok::RBrace, "}", Kids, B);
  for (Node *K : Kids) {
    WhereVar V;
    if (!toWhereVar(K, V))
      return false;
    Vars.push_back(V);
  }
  return !Panic;
}

bool Parser::makeFunction(Node *Sig, Node *Body, bool ShortForm,
                          DefMacros Macros, SrcRange Whole) {
  FunctionDef *D = Out.make<FunctionDef>();
  D->Body = Body;
  D->ShortForm = ShortForm;
  D->Inline = Macros.Inline || Macros.PropagateInbounds;
  D->NoInline = Macros.NoInline;
  D->PropagateInbounds = Macros.PropagateInbounds;
  D->Range = Whole;
  D->SigRange = Sig->Range;
  Node *S = Sig;
  // `f(x)::R where {T} where {S}`: the outermost `where` lists come last in
  // Julia's nesting; keep source order (outer first) in D->Where.
  std::vector<Node *> Wheres;
  while (S->Kind == NodeKind::Where) {
    Wheres.push_back(S);
    S = S->Kids[0];
  }
  for (size_t I = Wheres.size(); I-- > 0;)
    for (size_t K = 1; K < Wheres[I]->Kids.size(); ++K) {
      WhereVar V;
      if (!toWhereVar(Wheres[I]->Kids[K], V))
        return false;
      D->Where.push_back(V);
    }
  if (S->Kind == NodeKind::TypeAssert && S->Kids.size() == 2) {
    D->ReturnType = S->Kids[1];
    S = S->Kids[0];
  }
  if (S->Kind != NodeKind::Call) {
    error(S->Range, "expected a function signature like `f(x)`");
    return false;
  }
  Node *Callee = S->Kids[0];
  switch (Callee->Kind) {
  case NodeKind::Ident:
    D->Name = Callee->Name;
    break;
  case NodeKind::Curly:
    // `Point{T}(x) where {T}`: a method of the callee value `Point{T}`,
    // whose type is `Type{Point{T}}`.
    if (Callee->Kids[0]->Kind != NodeKind::Ident) {
      error(Callee->Range, "invalid function name");
      return false;
    }
    D->Name = Callee->Kids[0]->Name;
    D->CalleeType = mk(NodeKind::Curly, Callee->Range,
                       {ident(Symbol::get("Type"), Callee->Range), Callee});
    break;
  case NodeKind::TypeAssert:
    if (Callee->Kids.size() == 1) {
      D->CalleeType = Callee->Kids[0];
      break;
    }
    error(Callee->Range, "methods of callable objects (`(f::F)(x)`) are not supported");
    return false;
  default:
    error(Callee->Range, "invalid function name");
    return false;
  }
  std::vector<Node *> Defaults; // of the trailing optional arguments
  for (size_t I = 1; I < S->Kids.size(); ++I) {
    Node *A = S->Kids[I];
    if (!Defaults.empty() && A->Kind != NodeKind::Assign) {
      error(A->Range, "optional positional arguments must occur at end");
      return false;
    }
    Param Pm;
    Pm.Range = A->Range;
    if (A->Kind == NodeKind::Ident) {
      Pm.Name = A->Name;
    } else if (A->Kind == NodeKind::TypeAssert && A->Kids.size() == 2 &&
               A->Kids[0]->Kind == NodeKind::Ident) {
      Pm.Name = A->Kids[0]->Name;
      Pm.Type = A->Kids[1];
    } else if (A->Kind == NodeKind::TypeAssert && A->Kids.size() == 1) {
      Pm.Type = A->Kids[0];
    } else if (A->Kind == NodeKind::Assign) {
      // `y = 1` or `y::T = 1`: an optional positional argument.
      Node *L = A->Kids[0];
      if (L->Kind == NodeKind::Ident) {
        Pm.Name = L->Name;
      } else if (L->Kind == NodeKind::TypeAssert && L->Kids.size() == 2 &&
                 L->Kids[0]->Kind == NodeKind::Ident) {
        Pm.Name = L->Kids[0]->Name;
        Pm.Type = L->Kids[1];
      } else if (L->Kind == NodeKind::TypeAssert && L->Kids.size() == 1) {
        Pm.Type = L->Kids[0]; // `::Type{X} = Float64`
      } else {
        error(L->Range, "invalid parameter; expected `name = value` or "
                        "`name::Type = value`");
        return false;
      }
      Defaults.push_back(A->Kids[1]);
    } else {
      error(A->Range, "invalid parameter; expected `name`, `name::Type` or `::Type`");
      return false;
    }
    for (const Param &Prev : D->Params)
      if (Pm.Name && Prev.Name == Pm.Name) {
        error(A->Range, "function argument name not unique: `" +
                            Pm.Name.string() + "`");
        return false;
      }
    for (const WhereVar &W : D->Where)
      if (Pm.Name && W.Name == Pm.Name) {
        error(A->Range, "function argument and static parameter name not distinct: `" +
                            Pm.Name.string() + "`");
        return false;
      }
    D->Params.push_back(Pm);
  }
  Out.Defs.push_back(D);
  if (!Defaults.empty()) {
    if (Callee->Kind == NodeKind::TypeAssert) {
      error(Defaults[0]->Range, "optional arguments of a `(::T)(...)` method "
                                "are not supported");
      return false;
    }
    // The forwarders pass every earlier argument on, so an unnamed one gets
    // a hidden name (printed `_2` in IR, left out of signatures).
    for (size_t I = 0; I < D->Params.size(); ++I)
      if (!D->Params[I].Name)
        D->Params[I].Name = Symbol::get("#arg" + std::to_string(I + 1) + "#");
    addDefaultForwarders(*D, Callee, Defaults);
  }
  return true;
}

static bool mentions(const Node *N, Symbol Name) {
  if (!N)
    return false;
  if (N->Kind == NodeKind::Ident && N->Name == Name)
    return true;
  for (const Node *K : N->Kids)
    if (mentions(K, Name))
      return true;
  return false;
}

// Julia's lowering of optional arguments: `f(a, b = 1, c = b)` is also the
// methods `f(a) = f(a, 1)` and `f(a, b) = f(a, b, b)`, so each default is
// evaluated in the caller's method with the earlier arguments in scope.
void Parser::addDefaultForwarders(const FunctionDef &Full, Node *Callee,
                                  const std::vector<Node *> &Defaults) {
  size_t First = Full.Params.size() - Defaults.size();
  for (size_t N = First; N < Full.Params.size(); ++N) {
    FunctionDef *D = Out.make<FunctionDef>();
    *D = Full;
    D->ReturnType = nullptr;
    D->Params.assign(Full.Params.begin(), Full.Params.begin() + N);
    // Static parameters the shorter signature no longer determines stay
    // out of it (Julia's forwarder would leave them undefined).
    D->Where.clear();
    for (const WhereVar &W : Full.Where) {
      bool Used = mentions(D->CalleeType, W.Name);
      for (const Param &P : D->Params)
        Used |= mentions(P.Type, W.Name);
      for (const WhereVar &K : D->Where)
        Used |= mentions(K.Upper, W.Name) || mentions(K.Lower, W.Name);
      if (Used)
        D->Where.push_back(W);
    }
    Node *Default = Defaults[N - First];
    // Julia's forwarder calls `#self#`, the function the method belongs to.
    std::vector<Node *> Args{ident(Symbol::get("#self#"), Callee->Range)};
    for (const Param &P : D->Params)
      Args.push_back(ident(P.Name, P.Range));
    Args.push_back(Default);
    Node *Call = mk(NodeKind::Call, Default->Range, std::move(Args));
    D->Body = mk(NodeKind::Block, Default->Range, {Call});
    D->ShortForm = true;
    Out.Defs.push_back(D);
  }
}

void Parser::parseFunction(DefMacros Macros, uint32_t Begin) {
  NLScope NL(*this, false);
  const Token &F = advance();
  if (tok().is(Tok::Ident) && peekNext().isKw("end")) {
    error(from(F.Begin), "a function declaration without methods "
                         "(`function f end`) is not supported");
    return;
  }
  // The signature is a call chain (`f(x)`, `Base.:+(a, b)`, `(f::F)(x)`)
  // with its `::T` and `where`, as Julia reads it: a body may follow on
  // its line (`function g(x) -x end` returns -x).
  Node *Sig = parseWhereClauses(parseUnary());
  bool SigComplete =
      Sig && (Sig->Kind == NodeKind::Call || Sig->Kind == NodeKind::Where ||
              Sig->Kind == NodeKind::TypeAssert);
  if (!Panic && !SigComplete && !atStatementEnd())
    error(tok().range(), "extra token " + describe(tok()) +
                             " after the function signature");
  bool SigOk = !Panic;
  if (Panic) {
    syncLine();
    if (Panic)
      return;
  }
  Node *Body = parseBlock(PrevEnd);
  if (Panic || !expectEnd(F))
    return;
  if (SigOk)
    makeFunction(Sig, Body, false, Macros, from(Begin));
}

void Parser::parseStruct(uint32_t Begin) {
  NLScope NL(*this, false);
  const Token &S = advance();
  StructDef *D = Out.make<StructDef>();
  if (!tok().is(Tok::Ident)) {
    error(tok().range(), "expected a struct name, found " + describe(tok()));
    return;
  }
  D->Name = Symbol::get(advance().Text);
  if (!parseTypeParams(D->Params))
    return;
  if (tok().isOp("<:")) {
    advance();
    D->Super = parseTypeOperand();
  }
  while (!GaveUp) {
    while (tok().is(Tok::Newline) || tok().is(Tok::Semicolon))
      advance();
    const Token &T = tok();
    if (T.isKw("end") || T.is(Tok::Eof) || isDefinitionStart(T))
      break;
    Node *F = parseAssign(false);
    if (!Panic) {
      Param Pm;
      Pm.Range = F->Range;
      if (F->Kind == NodeKind::Ident) {
        Pm.Name = F->Name;
      } else if (F->Kind == NodeKind::TypeAssert && F->Kids.size() == 2 &&
                 F->Kids[0]->Kind == NodeKind::Ident) {
        Pm.Name = F->Kids[0]->Name;
        Pm.Type = F->Kids[1];
      } else if (F->Kind == NodeKind::Assign) {
        error(F->Range, "inner constructors are not supported; define an "
                        "outer constructor method instead");
      } else {
        error(F->Range, "expected a field `name::Type`");
      }
      if (!Panic) {
        for (const Param &Prev : D->Fields)
          if (Prev.Name == Pm.Name)
            error(F->Range, "duplicate field name `" + Pm.Name.string() + "`");
        D->Fields.push_back(Pm);
      }
      if (!Panic && !atStatementEnd())
        error(tok().range(), "extra token " + describe(tok()) +
                                 " after end of expression");
    }
    if (Panic) {
      syncLine();
      if (Panic)
        return;
    }
  }
  if (!expectEnd(S))
    return;
  D->Range = from(Begin);
  Out.Defs.push_back(D);
}

void Parser::parseAbstract(uint32_t Begin) {
  NLScope NL(*this, false);
  const Token &A = advance();
  if (!(tok().is(Tok::Ident) && tok().Text == "type")) {
    error(tok().range(), "expected `type` after `abstract`");
    return;
  }
  advance();
  AbstractDef *D = Out.make<AbstractDef>();
  if (!tok().is(Tok::Ident)) {
    error(tok().range(), "expected a type name, found " + describe(tok()));
    return;
  }
  D->Name = Symbol::get(advance().Text);
  if (!parseTypeParams(D->Params))
    return;
  if (tok().isOp("<:")) {
    advance();
    D->Super = parseTypeOperand();
    if (Panic)
      return;
  }
  while (tok().is(Tok::Newline) || tok().is(Tok::Semicolon))
    advance();
  if (!expectEnd(A))
    return;
  D->Range = from(Begin);
  Out.Defs.push_back(D);
}

void Parser::parseConst(uint32_t Begin) {
  NLScope NL(*this, false);
  advance();
  Node *E = parseAssign(false);
  if (Panic)
    return;
  if (E->Kind != NodeKind::Assign || E->Kids[0]->Kind != NodeKind::Ident) {
    error(E->Range, "expected `const NAME = value`");
    return;
  }
  ConstDef *D = Out.make<ConstDef>();
  D->Name = E->Kids[0]->Name;
  D->Value = E->Kids[1];
  D->Range = from(Begin);
  Out.Defs.push_back(D);
}

void Parser::parseImport() {
  NLScope NL(*this, false);
  const std::string Kw(advance().Text);
  auto Name = [&](const Token &N) {
    return N.is(Tok::Ident) || N.is(Tok::Op) || N.is(Tok::Macro);
  };
  while (true) {
    const Token &M = tok();
    if (!M.is(Tok::Ident)) {
      error(M.range(),
            "expected a module name after `" + Kw + "`, found " + describe(M));
      return;
    }
    if (!isPreludeModule(M.Text)) {
      error(M.range(), "`" + Kw + " " + std::string(M.Text) +
                           "`: the kernel language has no packages; its "
                           "functions are Base's and CUDA.jl's (the prelude), "
                           "which need no `" +
                           Kw + "`");
      return;
    }
    advance();
    // A submodule or one name: `Base.Math`, `import Base.+`.
    while (tok().isOp(".")) {
      advance();
      if (!Name(tok())) {
        error(tok().range(),
              "expected a name after `.`, found " + describe(tok()));
        return;
      }
      advance();
    }
    if (tok().isOp(":")) {
      // `import Base: +, zero`.
      do {
        advance();
        if (!Name(tok())) {
          error(tok().range(),
                "expected a name to " + Kw + ", found " + describe(tok()));
          return;
        }
        advance();
      } while (tok().is(Tok::Comma));
      break;
    }
    if (!tok().is(Tok::Comma))
      break;
    advance();
  }
  if (!atStatementEnd())
    error(tok().range(),
          "extra token " + describe(tok()) + " after `" + Kw + "`");
}

void Parser::parseTopLevel() {
  size_t DiagsBefore = Out.Diags.size(), DefsBefore = Out.Defs.size();
  parseDefinition();
  deferUnsupported(DiagsBefore, DefsBefore);
}

/// Julia runs a file whose functions use splatting or `@assert`; the
/// kernel language lacks them, which is each such function's own error, as
/// an undefined name is: the file loads, its other functions compile and
/// run, and compiling this one reports the errors. A syntax error, or one
/// in the signature, still stops the file.
void Parser::deferUnsupported(size_t DiagsBefore, size_t DefsBefore) {
  if (Out.Diags.size() == DiagsBefore)
    return;
  std::vector<FunctionDef *> Fns;
  for (size_t I = DefsBefore; I < Out.Defs.size(); ++I)
    if (auto *const *F = std::get_if<FunctionDef *>(&Out.Defs[I]))
      Fns.push_back(*F);
  if (Fns.empty())
    return;
  LineCol SigEnd = File->lineCol(Fns.front()->SigRange.End);
  for (size_t I = DiagsBefore; I < Out.Diags.size(); ++I) {
    const Diagnostic &D = Out.Diags[I];
    bool Unsupported =
        D.Code == DiagCode::Unsupported || D.Code == DiagCode::ArrayLiteral;
    bool InBody = D.Loc.Line > SigEnd.Line ||
                  (D.Loc.Line == SigEnd.Line && D.Loc.Col > SigEnd.Col);
    if (D.Sev != Severity::Error || !Unsupported || !InBody)
      return;
  }
  std::vector<Diagnostic> Own(Out.Diags.begin() + DiagsBefore, Out.Diags.end());
  Out.Diags.resize(DiagsBefore);
  for (FunctionDef *F : Fns)
    F->Unsupported = Own;
}

void Parser::parseDefinition() {
  if (tok().is(Tok::String)) {
    // A docstring: Julia attaches it to the definition that follows; a
    // kernel has no use for it, so it goes.
    size_t Q = P + 1;
    while (Toks[Q].is(Tok::Newline))
      ++Q;
    if (isDefinitionStart(Toks[Q]) || Toks[Q].is(Tok::Ident))
      P = Q;
  }
  uint32_t Begin = tok().Begin;
  DefMacros Macros;
  while (isDefinitionMacro(tok())) {
    std::string_view M = tok().Text;
    Macros.Inline |= M == "inline";
    Macros.NoInline |= M == "noinline";
    Macros.PropagateInbounds |= M == "propagate_inbounds";
    advance();
    skipNewlines();
  }
  const Token &K = tok();
  if (K.isKw("function")) {
    parseFunction(Macros, Begin);
  } else if (!Macros.any() && K.isKw("struct")) {
    parseStruct(Begin);
  } else if (!Macros.any() && K.isKw("mutable")) {
    error(K.range(), "mutable structs are not supported (structs are immutable)");
  } else if (!Macros.any() && K.isKw("abstract")) {
    parseAbstract(Begin);
  } else if (!Macros.any() && K.isKw("const")) {
    parseConst(Begin);
  } else if (K.is(Tok::Keyword) &&
             (K.Text == "end" || K.Text == "else" || K.Text == "elseif" ||
              K.Text == "where" || K.Text == "struct" ||
              (K.Text == "in" && !peekNext().is(Tok::LParen)) ||
              K.Text == "abstract" || K.Text == "const")) {
    unexpected(K);
  } else if (!Macros.any() && (K.isKw("using") || K.isKw("import"))) {
    parseImport();
  } else if (K.is(Tok::Keyword) &&
             (K.Text == "module" || K.Text == "using" || K.Text == "import" ||
              K.Text == "export" || K.Text == "macro" ||
              K.Text == "primitive" || K.Text == "baremodule" ||
              K.Text == "try" || K.Text == "let" || K.Text == "quote" ||
              K.Text == "global" || K.Text == "local")) {
    // `let` and `local` exist inside functions: here the problem is
    // the place.
    std::string Why = K.Text == "let" || K.Text == "local"
                          ? "` at top level: only definitions live there "
                            "(code is not executed at top level); inside a "
                            "function it is supported"
                          : "` is not supported in the kernel language";
    if (opensBlock(K.Text)) {
      // `module ... end`, `let ... end`: skipped whole, one error.
      advance();
      errorInPlace(K.range(), "`" + std::string(K.Text) + Why);
      skipThroughEnd();
    } else {
      error(K.range(), "`" + std::string(K.Text) + Why);
    }
  } else {
    // Short form `f(x) = expr`; anything else is an error at top level.
    NLScope NL(*this, false);
    Node *E = parseAssign(true);
    if (Panic)
      return;
    if (E->Kind == NodeKind::Assign) {
      Node *Lhs = E->Kids[0];
      Node *Core = Lhs;
      while (Core->Kind == NodeKind::Where)
        Core = Core->Kids[0];
      if (Core->Kind == NodeKind::TypeAssert && Core->Kids.size() == 2)
        Core = Core->Kids[0];
      if (Core->Kind == NodeKind::Call) {
        Node *Body = mk(NodeKind::Block, E->Kids[1]->Range, {E->Kids[1]});
        if (Panic)
          return;
        makeFunction(Lhs, Body, true, Macros, from(Begin));
        if (rejectDoBlock())
          return;
        if (!Panic && !atStatementEnd())
          error(tok().range(), "extra token " + describe(tok()) +
                                   " after end of expression");
        return;
      }
    }
    error(E->Range, "expected a definition at top level (`function`, "
                    "`struct`, `abstract type` or `const`); code is not "
                    "executed at top level");
    return;
  }
  if (!Panic && !atStatementEnd())
    error(tok().range(), "extra token " + describe(tok()) + " after end of definition");
}

void Parser::parseFile() {
  while (!GaveUp) {
    while (tok().is(Tok::Newline) || tok().is(Tok::Semicolon))
      advance();
    if (tok().is(Tok::Eof))
      break;
    size_t Before = P;
    parseTopLevel();
    if (Panic) {
      // Skip what remains of the broken definition: to the next line that
      // starts with a definition keyword.
      Panic = false;
      while (!tok().is(Tok::Eof) && !(atLineStart() && isDefinitionStart(tok())))
        ++P;
    }
    if (P == Before && !Toks[P].is(Tok::Eof))
      ++P; // e.g. `mutable` reported without being consumed
  }
  std::stable_sort(Out.Diags.begin(), Out.Diags.end(),
                   [](const Diagnostic &A, const Diagnostic &B) {
                     return std::make_pair(A.Loc.Line, A.Loc.Col) <
                            std::make_pair(B.Loc.Line, B.Loc.Col);
                   });
}

Node *Parser::parseSingleExpression() {
  skipNewlines();
  NLScope NL(*this, true);
  if (tok().is(Tok::Eof))
    return error(tok().range(), "expected an expression");
  Node *E = parseAssign(true);
  if (!Panic && !tok().is(Tok::Eof))
    error(tok().range(), "extra token " + describe(tok()) + " after end of expression");
  return E;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

void dump(const Node *N, std::string &S) {
  if (!N) {
    S += "<null>";
    return;
  }
  auto kids = [&](const char *Head, size_t From = 0) {
    S += "(";
    S += Head;
    for (size_t I = From; I < N->Kids.size(); ++I) {
      S += " ";
      dump(N->Kids[I], S);
    }
    S += ")";
  };
  switch (N->Kind) {
  case NodeKind::Literal:
    S += formatLiteral(N->Lit, N->Bits);
    return;
  case NodeKind::Ident:
    S += N->Name.str();
    return;
  case NodeKind::Quote:
    S += ":" + N->Name.string();
    return;
  case NodeKind::Call: return kids("call");
  case NodeKind::Curly: return kids("curly");
  case NodeKind::Dot:
    S += "(. ";
    dump(N->Kids[0], S);
    S += " " + N->Name.string() + ")";
    return;
  case NodeKind::Index: return kids("ref");
  case NodeKind::Tuple: return kids("tuple");
  case NodeKind::Ternary: return kids("?");
  case NodeKind::And: return kids("&&");
  case NodeKind::Or: return kids("||");
  case NodeKind::Assign: return kids("=");
  case NodeKind::OpAssign: {
    std::string H = N->Name.string() + "=";
    return kids(H.c_str());
  }
  case NodeKind::TypeAssert: return kids("::");
  case NodeKind::Range: return kids(":");
  case NodeKind::Macro: {
    std::string H = "@" + N->Name.string();
    return kids(H.c_str());
  }
  case NodeKind::Block: return kids("block");
  case NodeKind::If: return kids("if");
  case NodeKind::While: return kids("while");
  case NodeKind::For:
    S += "(for " + N->Name.string();
    for (const Node *K : N->Kids) {
      S += " ";
      dump(K, S);
    }
    S += ")";
    return;
  case NodeKind::Break: S += "(break)"; return;
  case NodeKind::Continue: S += "(continue)"; return;
  case NodeKind::Return: return kids("return");
  case NodeKind::Let:
    return kids("let");
  case NodeKind::Local:
    return kids("local");
  case NodeKind::Where: return kids("where");
  case NodeKind::Error: S += "(error)"; return;
  }
}

void dumpVars(const std::vector<WhereVar> &Vs, const char *Head, std::string &S) {
  S += "(";
  S += Head;
  for (const WhereVar &V : Vs) {
    S += " ";
    if (!V.Upper && !V.Lower) {
      S += V.Name.str();
      continue;
    }
    S += "(";
    if (V.Lower) {
      S += ">: " + V.Name.string() + " ";
      dump(V.Lower, S);
      if (V.Upper)
        S += " ";
    }
    if (V.Upper) {
      S += "<: " + (V.Lower ? std::string() : V.Name.string() + " ");
      dump(V.Upper, S);
    }
    S += ")";
  }
  S += ")";
}

void dumpParams(const std::vector<Param> &Ps, const char *Head, std::string &S) {
  S += "(";
  S += Head;
  for (const Param &Pm : Ps) {
    S += " ";
    if (!Pm.Type) {
      S += Pm.Name.str();
      continue;
    }
    S += "(:: ";
    if (Pm.Name)
      S += Pm.Name.string() + " ";
    dump(Pm.Type, S);
    S += ")";
  }
  S += ")";
}

} // namespace

std::string ast::dumpAST(const Node *N) {
  std::string S;
  dump(N, S);
  return S;
}

std::string ast::dumpAST(const TopLevel &D) {
  std::string S;
  if (auto *const *F = std::get_if<FunctionDef *>(&D)) {
    const FunctionDef &Fn = **F;
    S += "(function ";
    if (Fn.Inline)
      S += "@inline ";
    if (Fn.NoInline)
      S += "@noinline ";
    if (Fn.PropagateInbounds)
      S += "@propagate_inbounds ";
    S += Fn.Name ? Fn.Name.string() : std::string("_");
    if (Fn.CalleeType) {
      S += " (callee ";
      dump(Fn.CalleeType, S);
      S += ")";
    }
    S += " ";
    dumpParams(Fn.Params, "params", S);
    if (!Fn.Where.empty()) {
      S += " ";
      dumpVars(Fn.Where, "where", S);
    }
    if (Fn.ReturnType) {
      S += " (returns ";
      dump(Fn.ReturnType, S);
      S += ")";
    }
    S += " ";
    dump(Fn.Body, S);
    S += ")";
  } else if (auto *const *St = std::get_if<StructDef *>(&D)) {
    S += "(struct " + (*St)->Name.string() + " ";
    dumpVars((*St)->Params, "params", S);
    if ((*St)->Super) {
      S += " (<: ";
      dump((*St)->Super, S);
      S += ")";
    }
    S += " ";
    dumpParams((*St)->Fields, "fields", S);
    S += ")";
  } else if (auto *const *A = std::get_if<AbstractDef *>(&D)) {
    S += "(abstract " + (*A)->Name.string() + " ";
    dumpVars((*A)->Params, "params", S);
    if ((*A)->Super) {
      S += " (<: ";
      dump((*A)->Super, S);
      S += ")";
    }
    S += ")";
  } else if (auto *const *C = std::get_if<ConstDef *>(&D)) {
    S += "(const " + (*C)->Name.string() + " ";
    dump((*C)->Value, S);
    S += ")";
  }
  return S;
}

std::shared_ptr<ParsedFile> parseFile(SourceFileRef File) {
  auto Out = std::make_shared<ParsedFile>(std::move(File));
  Parser(*Out).parseFile();
  return Out;
}

Node *parseExpression(ParsedFile &Out) { return Parser(Out).parseSingleExpression(); }

} // namespace prism
