#include "lang/Lexer.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringRef.h"

#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <string>

namespace prism {

namespace {

/// Decodes one UTF-8 code point at P (N bytes available). Returns its length,
/// or 0 when the bytes are not valid UTF-8 (overlong forms, surrogates and
/// values past U+10FFFF included).
unsigned decodeUtf8(const unsigned char *P, size_t N, uint32_t &CP) {
  if (N == 0)
    return 0;
  unsigned char C = P[0];
  if (C < 0x80) {
    CP = C;
    return 1;
  }
  unsigned Len;
  uint32_t Min;
  if ((C & 0xE0) == 0xC0) {
    Len = 2, CP = C & 0x1F, Min = 0x80;
  } else if ((C & 0xF0) == 0xE0) {
    Len = 3, CP = C & 0x0F, Min = 0x800;
  } else if ((C & 0xF8) == 0xF0) {
    Len = 4, CP = C & 0x07, Min = 0x10000;
  } else {
    return 0;
  }
  if (N < Len)
    return 0;
  for (unsigned I = 1; I < Len; ++I) {
    if ((P[I] & 0xC0) != 0x80)
      return 0;
    CP = (CP << 6) | (P[I] & 0x3F);
  }
  if (CP < Min || CP > 0x10FFFF || (CP >= 0xD800 && CP <= 0xDFFF))
    return 0;
  return Len;
}

/// Non-ASCII code points that are operators, not identifier characters.
bool isUnicodeOperator(uint32_t CP) {
  switch (CP) {
  case 0x00F7: // ÷
  case 0x00D7: // ×
  case 0x22BB: // ⊻
  case 0x2264: // ≤
  case 0x2265: // ≥
  case 0x2260: // ≠
  case 0x2208: // ∈
  case 0x2209: // ∉
  case 0x2261: // ≡
  case 0x00AC: // ¬
  case 0x221A: // √
  case 0x2262: // ≢
  // Operators of Julia's that the kernel language does not have: lexed as
  // operators so that the parser can name them.
  case 0x00B1: // ±
  case 0x2213: // ∓
  case 0x2218: // ∘
  case 0x22C5: // ⋅
  case 0x2295: // ⊕
  case 0x2297: // ⊗
  case 0x222A: // ∪
  case 0x2229: // ∩
  case 0x2248: // ≈
  case 0x2286: // ⊆
  case 0x2282: // ⊂
    return true;
  default:
    return false;
  }
}

/// Invisible format characters (Unicode's Cf: zero-width spaces and joiners,
/// bidirectional overrides, the soft hyphen): Julia rejects them, and in a
/// name they would make two names that look alike differ.
bool isInvisibleFormatCP(uint32_t CP) {
  return CP == 0x00AD || CP == 0x061C || CP == 0x180E ||
         (CP >= 0x200B && CP <= 0x200F) || (CP >= 0x202A && CP <= 0x202E) ||
         (CP >= 0x2060 && CP <= 0x206F) || CP == 0xFEFF ||
         (CP >= 0xFFF9 && CP <= 0xFFFB) || CP == 0xE0001 ||
         (CP >= 0xE0020 && CP <= 0xE007F);
}

bool isIdentStartCP(uint32_t CP) {
  if (CP < 0x80)
    return (CP >= 'a' && CP <= 'z') || (CP >= 'A' && CP <= 'Z') || CP == '_';
  if (isInvisibleFormatCP(CP))
    return false;
  // Latin-1 controls and the no-break space are not identifier characters.
  return CP >= 0xA1 && !isUnicodeOperator(CP);
}

bool isDigit(char C) { return C >= '0' && C <= '9'; }
bool isHexDigit(char C) {
  return isDigit(C) || (C >= 'a' && C <= 'f') || (C >= 'A' && C <= 'F');
}

// string_views: a lexer compares against these at every name and operator.
constexpr std::string_view Keywords[] = {
    "function", "end",    "if",       "elseif",  "else",   "while",
    "for",      "in",     "break",    "continue", "return", "struct",
    "mutable",  "abstract", "const",  "begin",   "where",  "local",
    "global",   "module", "using",    "import",  "let",    "do",
    "try",      "catch",  "finally",  "quote",   "macro",  "primitive",
    "export",   "baremodule"};

/// Operators, longest first so that a linear scan finds the longest match.
constexpr std::string_view Operators[] = {
    ">>>=", "===", "!==", ">>>", "<<=", ">>=", "...", "-->", "==", "!=",
    "<=",   ">=",  "&&",  "||",  "<<",  ">>",  "+=",  "-=",  "*=", "/=",
    "%=",   "&=",  "|=",  "^=",  "::",  "<:",  ">:",  "->",  "|>", "<|",
    "//",   "..",  "++",  "--",  "+",   "-",   "*",   "/",   "%",  "^",
    "<",    ">",   "=",   "!",   "~",   "&",   "|",   "?",   ":",  "."};

class Lexer {
public:
  Lexer(const SourceFileRef &File, std::vector<Diagnostic> &Diags)
      : File(File), Src(File->text()), Diags(Diags) {}

  std::vector<Token> run();

private:
  const SourceFileRef &File;
  std::string_view Src;
  std::vector<Diagnostic> &Diags;
  std::vector<Token> Toks;
  size_t Pos = 0;
  bool Space = false;
  unsigned NumErrors = 0;
  bool GaveUp = false;

  static constexpr unsigned MaxErrors = 50;

  void error(uint32_t B, uint32_t E, std::string Msg) {
    if (GaveUp)
      return;
    if (++NumErrors > MaxErrors) {
      Diags.push_back(Diagnostic::error(
          "parse", "too many errors in this file; giving up",
          DiagLoc::fromRange(File, {B, E})));
      GaveUp = true;
      return;
    }
    Diags.push_back(Diagnostic::error("parse", std::move(Msg),
                                      DiagLoc::fromRange(File, {B, E})));
  }

  char peekc(size_t Off = 0) const {
    return Pos + Off < Src.size() ? Src[Pos + Off] : '\0';
  }
  /// The code point at byte offset At (0 when invalid or at the end).
  uint32_t cpAt(size_t At, unsigned *Len = nullptr) const {
    uint32_t CP = 0;
    unsigned L = At < Src.size()
                     ? decodeUtf8(reinterpret_cast<const unsigned char *>(Src.data()) + At,
                                  Src.size() - At, CP)
                     : 0;
    if (Len)
      *Len = L;
    return L ? CP : 0;
  }
  bool identStartAt(size_t At) const { return isIdentStartCP(cpAt(At)); }
  bool identContAt(size_t At) const {
    uint32_t CP = cpAt(At);
    return isIdentStartCP(CP) || (CP >= '0' && CP <= '9');
  }

  void push(Tok K, uint32_t B, std::string_view Text) {
    Token T;
    T.Kind = K;
    T.Begin = B;
    T.End = Pos;
    T.Text = Text;
    T.SpaceBefore = Space;
    Toks.push_back(T);
    Space = false;
  }

  void blockComment();
  void number();
  bool hexFloat(uint32_t Start, uint32_t DigBegin);
  void identifier();
  bool unicodeOperator(uint32_t CP, unsigned Len);
  /// Whether the last token ends a value (a name, a number, `)`, `]`, an
  /// adjoint), so that what follows is a binary or postfix operator.
  bool afterValue() const {
    if (Toks.empty())
      return false;
    const Token &T = Toks.back();
    return T.is(Tok::Ident) || T.is(Tok::Number) || T.is(Tok::RParen) ||
           T.is(Tok::RBracket) || T.isOp("'");
  }
};

void Lexer::blockComment() {
  uint32_t Start = Pos;
  Pos += 2;
  unsigned Depth = 1;
  while (Pos < Src.size()) {
    if (Src[Pos] == '#' && peekc(1) == '=') {
      ++Depth;
      Pos += 2;
    } else if (Src[Pos] == '=' && peekc(1) == '#') {
      Pos += 2;
      if (--Depth == 0)
        return;
    } else {
      ++Pos;
    }
  }
  LineCol LC = File->lineCol(Start);
  error(Src.size(), Src.size(),
        "unterminated block comment started at " + std::to_string(LC.Line) +
            ":" + std::to_string(LC.Col));
}

/// Julia's hex float literal after `0x` and its integer digits:
/// `0x1.8p3`, `0x.8p-1`. Always a Float64; the binary exponent is required
/// (without it `0x1.8` is not a number). Consumes it and returns true, or
/// leaves Pos alone.
bool Lexer::hexFloat(uint32_t Start, uint32_t DigBegin) {
  size_t Q = Pos;
  bool Mantissa = Q > DigBegin;
  if (Q < Src.size() && Src[Q] == '.')
    for (++Q; Q < Src.size() && (isHexDigit(Src[Q]) || Src[Q] == '_'); ++Q)
      Mantissa |= Src[Q] != '_';
  if (!Mantissa || Q >= Src.size() || (Src[Q] != 'p' && Src[Q] != 'P'))
    return false;
  size_t E = Q + 1;
  if (E < Src.size() && (Src[E] == '+' || Src[E] == '-'))
    ++E;
  size_t ExpBegin = E;
  while (E < Src.size() && isDigit(Src[E]))
    ++E;
  if (E == ExpBegin)
    return false;
  Pos = E;
  std::string_view Text = Src.substr(Start, Pos - Start);
  std::string Clean;
  for (char C : Text)
    if (C != '_')
      Clean += C;
  double D = std::strtod(Clean.c_str(), nullptr);
  if (std::isinf(D))
    error(Start, Pos, "numeric constant `" + std::string(Text) +
                          "` is too large for Float64");
  push(Tok::Number, Start, Text);
  uint64_t B;
  std::memcpy(&B, &D, 8);
  Toks.back().Lit = ast::LitType::Float64;
  Toks.back().Bits = B;
  return true;
}

void Lexer::number() {
  uint32_t Start = Pos;
  Token T;
  T.Kind = Tok::Number;
  bool Bad = false;

  auto checkUnderscores = [&](std::string_view Digits) {
    // Julia allows `_` only between two digits.
    for (size_t I = 0; I < Digits.size(); ++I)
      if (Digits[I] == '_' &&
          (I == 0 || I + 1 == Digits.size() || Digits[I + 1] == '_' ||
           Digits[I - 1] == '.' || Digits[I + 1] == '.'))
        return false;
    return true;
  };
  // Swallows the rest of a malformed literal so that one bad literal gives
  // one diagnostic.
  auto swallow = [&] {
    while (Pos < Src.size() && (identContAt(Pos) || Src[Pos] == '.'))
      Pos += std::max(1u, [&] { unsigned L; cpAt(Pos, &L); return L; }());
  };

  char P1 = peekc(1);
  if (peekc() == '0' && (P1 == 'x' || P1 == 'b' || P1 == 'o')) {
    unsigned Radix = P1 == 'x' ? 16 : P1 == 'b' ? 2 : 8;
    Pos += 2;
    size_t DigBegin = Pos;
    auto isRadixDigit = [&](char C) {
      return Radix == 16 ? isHexDigit(C) : Radix == 8 ? (C >= '0' && C <= '7')
                                                      : (C == '0' || C == '1');
    };
    while (Pos < Src.size() && (isRadixDigit(Src[Pos]) || Src[Pos] == '_'))
      ++Pos;
    std::string_view Digits = Src.substr(DigBegin, Pos - DigBegin);
    if (Radix == 16 && hexFloat(Start, DigBegin))
      return;
    if (Pos < Src.size() && (identContAt(Pos) || Src[Pos] == '.')) {
      swallow();
      Bad = true;
    }
    if (Digits.empty() || Bad || !checkUnderscores(Digits)) {
      error(Start, Pos,
            "invalid numeric literal `" +
                std::string(Src.substr(Start, Pos - Start)) + "`");
      T.Lit = ast::LitType::UInt8;
      push(Tok::Number, Start, Src.substr(Start, Pos - Start));
      Toks.back().Lit = ast::LitType::UInt8;
      return;
    }
    unsigned NDigits = 0;
    uint64_t V = 0;
    bool Overflow = false;
    unsigned BitsPerDigit = Radix == 16 ? 4 : Radix == 8 ? 3 : 1;
    for (char C : Digits) {
      if (C == '_')
        continue;
      ++NDigits;
      unsigned D = isDigit(C) ? C - '0' : (C | 0x20) - 'a' + 10;
      if (V >> (64 - BitsPerDigit))
        Overflow = true;
      V = (V << BitsPerDigit) | D;
    }
    // Hex and binary literals are typed by how many digits are written
    // (leading zeros count); octal by the value, as Julia does.
    unsigned Bits = Radix == 8 ? (V ? 64 - __builtin_clzll(V) : 1)
                               : NDigits * BitsPerDigit;
    if (Overflow || Bits > 64) {
      error(Start, Pos,
            "numeric literal `" + std::string(Src.substr(Start, Pos - Start)) +
                "` does not fit in UInt64");
      V = 0;
      Bits = 64;
    }
    ast::LitType L = Bits <= 8    ? ast::LitType::UInt8
                     : Bits <= 16 ? ast::LitType::UInt16
                     : Bits <= 32 ? ast::LitType::UInt32
                                  : ast::LitType::UInt64;
    push(Tok::Number, Start, Src.substr(Start, Pos - Start));
    Toks.back().Lit = L;
    Toks.back().Bits = V;
    return;
  }

  // Decimal: digits [. digits] [(e|E|f) [+-] digits]
  bool IsFloat = false, IsF32 = false;
  while (Pos < Src.size() && (isDigit(Src[Pos]) || Src[Pos] == '_'))
    ++Pos;
  if (peekc() == '.' && peekc(1) != '.') {
    char N = peekc(1);
    if (isDigit(N)) {
      IsFloat = true;
      ++Pos;
      while (Pos < Src.size() && (isDigit(Src[Pos]) || Src[Pos] == '_'))
        ++Pos;
    } else if (!identStartAt(Pos + 1) && N != '(' && N != '[' &&
               !(N == '*' || N == '/' || N == '+' || N == '-' || N == '^' ||
                 N == '=' || N == '<' || N == '>' || N == '&' || N == '|' ||
                 N == '%' || N == '\\')) {
      // `1.` is the Float64 1.0; `1.x` and the (unsupported) broadcast
      // operators `1.+` are left for the parser to reject.
      IsFloat = true;
      ++Pos;
    }
  }
  char E = peekc();
  if ((E == 'e' || E == 'E' || E == 'f') &&
      (isDigit(peekc(1)) ||
       ((peekc(1) == '+' || peekc(1) == '-') && isDigit(peekc(2))))) {
    IsFloat = true;
    IsF32 = E == 'f';
    Pos += 2;
    while (Pos < Src.size() && isDigit(Src[Pos]))
      ++Pos;
  }
  std::string_view Text = Src.substr(Start, Pos - Start);
  if (Pos < Src.size() && (Src[Pos] == '.' && isDigit(peekc(1)))) {
    swallow();
    error(Start, Pos,
          "invalid numeric literal `" +
              std::string(Src.substr(Start, Pos - Start)) + "`");
    push(Tok::Number, Start, Src.substr(Start, Pos - Start));
    return;
  }
  if (Pos < Src.size() && identStartAt(Pos)) {
    // `2x` is multiplication by juxtaposition, as in Julia: the number is
    // lexed alone, and the parser sees the name right after it.
    size_t IdBegin = Pos;
    bool Underscore = Src[Pos] == '_';
    size_t IdEnd = Pos;
    for (unsigned L = 1; IdEnd < Src.size() && identContAt(IdEnd); IdEnd += L)
      cpAt(IdEnd, &L);
    std::string_view Id = Src.substr(IdBegin, IdEnd - IdBegin);
    if (Underscore || Id == "im") {
      swallow();
      std::string Whole(Src.substr(Start, Pos - Start));
      if (Underscore)
        error(Start, Pos, "invalid numeric literal `" + Whole + "`");
      else // `1 * im` would fail too: there is no `im`
        error(Start, Pos,
              "complex numbers (`" + Whole +
                  "`) are not in the kernel language; kernels compute on "
                  "real numbers (a complex value as two floats)");
      push(Tok::Number, Start, Text);
      return;
    }
  }
  if (!checkUnderscores(Text)) {
    error(Start, Pos, "invalid numeric literal `" + std::string(Text) + "`");
    push(Tok::Number, Start, Text);
    return;
  }
  std::string Clean;
  for (char C : Text)
    if (C != '_')
      Clean += C == 'f' ? 'e' : C;
  push(Tok::Number, Start, Text);
  Token &Out = Toks.back();
  if (!IsFloat) {
    uint64_t V = 0;
    bool Overflow = false;
    for (char C : Clean) {
      if (V > (uint64_t(INT64_MAX) - (C - '0')) / 10)
        Overflow = true;
      V = V * 10 + (C - '0');
    }
    // 2^63 is left to the parser: negated (`-9223372036854775808`) it is
    // typemin(Int64), as Julia reads it; alone it does not fit.
    uint64_t Magnitude = V;
    bool Is2To63 = false;
    if (Overflow) {
      Magnitude = 0;
      for (char C : Clean)
        Magnitude = Magnitude * 10 + (C - '0');
      Is2To63 = Magnitude == uint64_t(INT64_MAX) + 1 &&
                Clean.find_first_not_of('0') + 19 == Clean.size();
    }
    if (Is2To63) {
      V = Magnitude;
    } else if (Overflow) {
      error(Start, Pos, tooBigForInt64(Text, Clean));
      V = 0;
    }
    Out.Lit = ast::LitType::Int64;
    Out.Bits = V;
    return;
  }
  if (IsF32) {
    float F = std::strtof(Clean.c_str(), nullptr);
    if (std::isinf(F))
      error(Start, Pos, "numeric constant `" + std::string(Text) +
                            "` is too large for Float32");
    uint32_t B;
    std::memcpy(&B, &F, 4);
    Out.Lit = ast::LitType::Float32;
    Out.Bits = B;
  } else {
    double D = std::strtod(Clean.c_str(), nullptr);
    if (std::isinf(D))
      error(Start, Pos, "numeric constant `" + std::string(Text) +
                            "` is too large for Float64");
    uint64_t B;
    std::memcpy(&B, &D, 8);
    Out.Lit = ast::LitType::Float64;
    Out.Bits = B;
  }
}

void Lexer::identifier() {
  uint32_t Start = Pos;
  while (Pos < Src.size()) {
    unsigned L = 0;
    uint32_t CP = cpAt(Pos, &L);
    if (L && (isIdentStartCP(CP) || (CP >= '0' && CP <= '9'))) {
      Pos += L;
      continue;
    }
    // A `!` belongs to the name (`saxpy!`) unless it starts `!=`/`!==`.
    if (CP == '!' && peekc(1) != '=') {
      ++Pos;
      continue;
    }
    break;
  }
  std::string_view Text = Src.substr(Start, Pos - Start);
  if (Text == "true" || Text == "false") {
    push(Tok::Number, Start, Text);
    Toks.back().Lit = ast::LitType::Bool;
    Toks.back().Bits = Text == "true";
    return;
  }
  for (std::string_view K : Keywords)
    if (Text == K) {
      push(Tok::Keyword, Start, Text);
      return;
    }
  push(Tok::Ident, Start, Text);
}

bool Lexer::unicodeOperator(uint32_t CP, unsigned Len) {
  uint32_t Start = Pos;
  const char *Name = nullptr;
  const char *Upd = nullptr;
  Tok K = Tok::Op;
  switch (CP) {
  case 0x00F7: Name = "÷"; Upd = "÷="; break;
  case 0x22BB: Name = "⊻"; Upd = "⊻="; break;
  case 0x2264: Name = "<="; break;
  case 0x2265: Name = ">="; break;
  case 0x2260: Name = "!="; break;
  case 0x2261: Name = "==="; break;
  case 0x2262:
    Name = "!==";
    break;
  case 0x221A:
    Name = "√";
    break;
  case 0x2208: Name = "in"; K = Tok::Keyword; break;
  case 0x2209:
    Name = "∉";
    break;
  default:
    if (!isUnicodeOperator(CP))
      return false;
    Pos += Len;
    push(Tok::Op, Start, Src.substr(Start, Len));
    return true;
  }
  Pos += Len;
  if (Upd && peekc() == '=' && peekc(1) != '=') {
    ++Pos;
    push(Tok::Op, Start, Upd);
    return true;
  }
  push(K, Start, Name);
  return true;
}

std::vector<Token> Lexer::run() {
  // A UTF-8 byte order mark is not part of the program.
  if (Src.substr(0, 3) == "\xEF\xBB\xBF")
    Pos = 3;
  // Source text has no NUL bytes; a file with one is binary (an object
  // file, an image), and lexing it would give a screenful of nonsense.
  if (size_t Nul = Src.find('\0'); Nul != std::string_view::npos) {
    error(uint32_t(Nul), uint32_t(Nul + 1),
          "not a text file: a NUL byte at offset " + std::to_string(Nul) +
              " (is this a binary file?)");
    Pos = uint32_t(Src.size());
  }
  while (Pos < Src.size() && !GaveUp) {
    char C = Src[Pos];
    uint32_t Start = Pos;
    if (C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v') {
      ++Pos;
      Space = true;
      continue;
    }
    if (C == '\n') {
      ++Pos;
      if (Toks.empty() || !Toks.back().is(Tok::Newline))
        push(Tok::Newline, Start, "\n");
      Space = true;
      continue;
    }
    if (C == '#') {
      Space = true;
      if (peekc(1) == '=') {
        blockComment();
        continue;
      }
      while (Pos < Src.size() && Src[Pos] != '\n')
        ++Pos;
      continue;
    }
    if (isDigit(C) || (C == '.' && isDigit(peekc(1)))) {
      number();
      continue;
    }
    unsigned Len = 0;
    uint32_t CP = cpAt(Pos, &Len);
    if (Len == 0) {
      // One error for the whole bad sequence: the lead byte and the
      // continuation bytes after it that do not make a character.
      std::string Bytes;
      do {
        char Buf[8];
        std::snprintf(Buf, sizeof Buf, "%s0x%02x", Bytes.empty() ? "" : " ",
                      unsigned(uint8_t(Src[Pos])));
        Bytes += Buf;
        ++Pos;
      } while (Pos < Src.size() && Pos - Start < 4 &&
               (uint8_t(Src[Pos]) & 0xC0) == 0x80);
      std::string Lead = Bytes.substr(0, 4);
      error(Start, Pos, "invalid UTF-8 byte " + Lead +
                            (Pos - Start > 1 ? " (in the sequence " + Bytes + ")" : ""));
      push(Tok::Invalid, Start, Src.substr(Start, Pos - Start));
      continue;
    }
    if (isIdentStartCP(CP)) {
      identifier();
      continue;
    }
    if (CP >= 0x80 && unicodeOperator(CP, Len))
      continue;
    switch (C) {
    case '(': ++Pos; push(Tok::LParen, Start, "("); continue;
    case ')': ++Pos; push(Tok::RParen, Start, ")"); continue;
    case '[': ++Pos; push(Tok::LBracket, Start, "["); continue;
    case ']': ++Pos; push(Tok::RBracket, Start, "]"); continue;
    case '{': ++Pos; push(Tok::LBrace, Start, "{"); continue;
    case '}': ++Pos; push(Tok::RBrace, Start, "}"); continue;
    case ',': ++Pos; push(Tok::Comma, Start, ","); continue;
    case ';': ++Pos; push(Tok::Semicolon, Start, ";"); continue;
    case '@': {
      ++Pos;
      size_t NameBegin = Pos;
      if (identStartAt(Pos)) {
        bool S = Space;
        identifier();
        // identifier() pushed the name; fold it into one Macro token.
        Token NameTok = Toks.back();
        Toks.pop_back();
        Space = S;
        push(Tok::Macro, Start, Src.substr(NameBegin, Pos - NameBegin));
        (void)NameTok;
      } else if (Pos < Src.size() && Src[Pos] == '.') {
        ++Pos; // `@.`, broadcasting: the parser names it
        push(Tok::Macro, Start, ".");
      } else {
        error(Start, Pos, "expected a macro name after `@`");
      }
      continue;
    }
    case '"':
      if (Src.substr(Pos, 3) == "\"\"\"") {
        // A triple-quoted string (a docstring) runs to its closing quotes.
        size_t Close = Src.find("\"\"\"", Pos + 3);
        if (Close == std::string_view::npos) {
          error(Start, Start + 3, "unterminated string literal started here");
          Pos = Src.size();
          push(Tok::Invalid, Start, Src.substr(Start, Pos - Start));
          continue;
        }
        Pos = Close + 3;
        push(Tok::String, Start, Src.substr(Start, Pos - Start));
        continue;
      }
      // The parser decides: a docstring, or an error.
      ++Pos;
      while (Pos < Src.size() && Src[Pos] != '"' && Src[Pos] != '\n')
        Pos += Src[Pos] == '\\' && Pos + 1 < Src.size() && Src[Pos + 1] != '\n'
                   ? 2
                   : 1;
      if (peekc() == '"')
        ++Pos;
      push(Tok::String, Start, Src.substr(Start, Pos - Start));
      continue;
    case '\'': {
      // Right after a value, `'` is Julia's postfix adjoint (`x'`, `a[i]'`),
      // not a character literal: the parser names it.
      if (!Toks.empty() && Toks.back().End == Start && afterValue()) {
        ++Pos;
        push(Tok::Op, Start, Src.substr(Start, 1));
        continue;
      }
      // Skip to the closing quote on this line so the rest of the line
      // does not produce a cascade of errors.
      ++Pos;
      while (Pos < Src.size() && Src[Pos] != C && Src[Pos] != '\n')
        Pos += Src[Pos] == '\\' && Pos + 1 < Src.size() && Src[Pos + 1] != '\n' ? 2 : 1;
      if (peekc() == C)
        ++Pos;
      error(Start, Pos, "character literals are not supported");
      push(Tok::Invalid, Start, Src.substr(Start, Pos - Start));
      continue;
    }
    default:
      break;
    }
    bool Matched = false;
    for (std::string_view Op : Operators) {
      size_t L = Op.size();
      if (Op[0] == C && Src.substr(Pos, L) == Op) {
        Pos += L;
        push(Tok::Op, Start, Src.substr(Start, L));
        Matched = true;
        break;
      }
    }
    if (Matched)
      continue;
    std::string Desc;
    if (CP >= 0x21 && CP < 0x7F) {
      Desc = std::string("`") + C + "`";
    } else {
      char Buf[16];
      std::snprintf(Buf, sizeof Buf, "U+%04X", unsigned(CP));
      Desc = Buf;
      if (CP >= 0x80)
        Desc += " `" + std::string(Src.substr(Pos, Len)) + "`";
    }
    error(Start, Start + Len, "unexpected character " + Desc);
    Pos += Len;
  }
  Pos = Src.size();
  Token T;
  T.Kind = Tok::Eof;
  T.Begin = T.End = Src.size();
  T.SpaceBefore = true;
  Toks.push_back(T);
  return std::move(Toks);
}

/// The shortest decimal digits that read back as V, with the decimal
/// exponent of the first digit (V = 0.D1D2... * 10^(Exp+1)).
/// V rounded to Float16 and back (round to nearest even).
double viaHalf(double V) {
  llvm::APFloat A(V);
  bool LosesInfo = false;
  A.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven, &LosesInfo);
  A.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &LosesInfo);
  return A.convertToDouble();
}

template <typename F>
void shortestDigits(F V, std::string &Digits, int &Exp, bool IsHalf = false) {
  char Buf[64];
  for (int P = 1; P <= 17; ++P) {
    std::snprintf(Buf, sizeof Buf, "%.*e", P - 1, double(V));
    F Back = IsHalf ? F(viaHalf(std::strtod(Buf, nullptr)))
             : sizeof(F) == 4 ? F(std::strtof(Buf, nullptr))
                              : F(std::strtod(Buf, nullptr));
    if (Back == V)
      break;
  }
  Digits.clear();
  char *P = Buf;
  for (; *P && *P != 'e'; ++P)
    if (isDigit(*P))
      Digits += *P;
  Exp = *P == 'e' ? std::atoi(P + 1) : 0;
  while (Digits.size() > 1 && Digits.back() == '0')
    Digits.pop_back();
}

/// Julia's printing of a float; IsHalf: V is a Float16's value (shortest
/// digits that read back as that Float16).
std::string formatFloat(double V, bool IsF32, bool IsHalf = false) {
  if (std::isnan(V))
    return IsF32 ? "NaN32" : "NaN";
  if (std::isinf(V))
    return std::string(V < 0 ? "-" : "") + (IsF32 ? "Inf32" : "Inf");
  std::string Out = std::signbit(V) ? "-" : "";
  V = std::fabs(V);
  if (V == 0)
    return Out + (IsF32 ? "0.0f0" : "0.0");
  std::string D;
  int E;
  if (IsF32)
    shortestDigits<float>(float(V), D, E);
  else
    shortestDigits<double>(V, D, E, IsHalf);
  // Julia prints positional notation for 1e-5 < |v| < 1e6 (1e3 for a
  // Float16: `Float16(9.99e3)`), else scientific.
  if (E > -5 && E < (IsHalf ? 3 : 6)) {
    if (E >= 0) {
      std::string Int = D.substr(0, std::min<size_t>(D.size(), E + 1));
      while (Int.size() < size_t(E + 1))
        Int += '0';
      std::string Frac = D.size() > size_t(E + 1) ? D.substr(E + 1) : "0";
      Out += Int + "." + Frac;
    } else {
      Out += "0." + std::string(-E - 1, '0') + D;
    }
    return Out + (IsF32 ? "f0" : "");
  }
  Out += D.substr(0, 1) + "." + (D.size() > 1 ? D.substr(1) : "0");
  return Out + (IsF32 ? "f" : "e") + std::to_string(E);
}

float halfToFloat(uint16_t H) {
  uint32_t Sign = (H >> 15) & 1, Exp = (H >> 10) & 0x1F, Man = H & 0x3FF;
  float V;
  if (Exp == 0)
    V = std::ldexp(float(Man), -24);
  else if (Exp == 31)
    V = Man ? NAN : INFINITY;
  else
    V = std::ldexp(float(Man | 0x400), int(Exp) - 25);
  return Sign ? -V : V;
}

} // namespace

std::vector<Token> lex(const SourceFileRef &File, std::vector<Diagnostic> &Diags) {
  return Lexer(File, Diags).run();
}

std::string tooBigForInt64(std::string_view Text, std::string_view Digits) {
  // Julia reads it as an Int128 (or a BigInt); one that fits in 64 bits
  // unsigned is written in hex, which Julia reads as a UInt64.
  uint64_t V = 0;
  bool FitsU64 = true;
  for (char C : Digits) {
    unsigned D = unsigned(C - '0');
    if (V > (UINT64_MAX - D) / 10)
      FitsU64 = false;
    V = V * 10 + D;
  }
  std::string Msg = "integer literal `" + std::string(Text) +
                    "` does not fit in Int64 (Julia reads it as an Int128, "
                    "which kernels do not have)";
  if (FitsU64) {
    char Hex[24];
    std::snprintf(Hex, sizeof Hex, "0x%016llx", (unsigned long long)V);
    Msg += "; as a UInt64 write `" + std::string(Hex) + "`";
  }
  return Msg;
}

std::string printLiteral(ast::LitType T, uint64_t Bits) {
  using ast::LitType;
  switch (T) {
  case LitType::UInt8:
    return std::to_string(Bits & 0xFF);
  case LitType::UInt16:
    return std::to_string(Bits & 0xFFFF);
  case LitType::UInt32:
    return std::to_string(Bits & 0xFFFFFFFF);
  case LitType::UInt64:
    return std::to_string(Bits);
  case LitType::Float16:
  case LitType::Float32: {
    float F;
    if (T == LitType::Float16) {
      F = halfToFloat(uint16_t(Bits));
    } else {
      uint32_t B = uint32_t(Bits);
      std::memcpy(&F, &B, 4);
    }
    if (std::isnan(F))
      return "NaN";
    if (std::isinf(F))
      return F < 0 ? "-Inf" : "Inf";
    if (T == LitType::Float16)
      return formatFloat(F, false, true);
    // Positional `2.5f0` drops its suffix; scientific `1.0f10` is `1.0e10`.
    std::string S = formatFloat(F, true);
    if (llvm::StringRef(S).endswith("f0"))
      S.resize(S.size() - 2);
    else if (size_t At = S.find('f'); At != std::string::npos)
      S[At] = 'e';
    return S;
  }
  default:
    return formatLiteral(T, Bits);
  }
}

std::string formatLiteral(ast::LitType T, uint64_t Bits) {
  using ast::LitType;
  char Buf[40];
  switch (T) {
  case LitType::Bool:
    return Bits ? "true" : "false";
  case LitType::Int8:
    return std::to_string(int8_t(Bits));
  case LitType::Int16:
    return std::to_string(int16_t(Bits));
  case LitType::Int32:
    return std::to_string(int32_t(Bits));
  case LitType::Int64:
    return std::to_string(int64_t(Bits));
  case LitType::UInt8:
    std::snprintf(Buf, sizeof Buf, "0x%02x", unsigned(Bits & 0xFF));
    return Buf;
  case LitType::UInt16:
    std::snprintf(Buf, sizeof Buf, "0x%04x", unsigned(Bits & 0xFFFF));
    return Buf;
  case LitType::UInt32:
    std::snprintf(Buf, sizeof Buf, "0x%08x", unsigned(Bits & 0xFFFFFFFF));
    return Buf;
  case LitType::UInt64:
    std::snprintf(Buf, sizeof Buf, "0x%016llx", (unsigned long long)Bits);
    return Buf;
  case LitType::Float16: {
    // Julia names the specials (`NaN16`, `-Inf16`), wraps the rest.
    float F = halfToFloat(uint16_t(Bits));
    if (std::isnan(F))
      return "NaN16";
    if (std::isinf(F))
      return F < 0 ? "-Inf16" : "Inf16";
    return "Float16(" + formatFloat(F, false, true) + ")";
  }
  case LitType::Float32: {
    uint32_t B = uint32_t(Bits);
    float F;
    std::memcpy(&F, &B, 4);
    return formatFloat(F, true);
  }
  case LitType::Float64: {
    double D;
    std::memcpy(&D, &Bits, 8);
    return formatFloat(D, false);
  }
  }
  return "?";
}

} // namespace prism
