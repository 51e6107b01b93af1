/// \file
/// The kernel language's lexer: UTF-8 source text to a flat token vector.
///
/// The whole file is tokenised up front (linear time, no backtracking), so the
/// parser can look ahead freely. Newlines are tokens: the parser decides where
/// they end a statement (outside brackets, not after a binary operator).
/// Comments never become tokens. Lexical errors (bad numeric literals,
/// invalid UTF-8, unterminated block comments, stray characters) are appended
/// to the diagnostic list and the offending bytes are skipped, so lexing
/// always finishes.
#pragma once

#include "lang/AST.h"
#include "support/Diagnostic.h"

#include <string_view>
#include <vector>

namespace prism {

enum class Tok : uint8_t {
  Eof,
  Newline,
  Ident,   ///< identifiers (Unicode allowed, trailing `!` included)
  Keyword, ///< function end if elseif else while for in break continue
           ///< return struct mutable abstract const begin where local global
  Number,  ///< numeric literal (Lit, Bits), also `true`/`false`
  Op,    ///< operators: `+`, `==`, `+=`, `::`, `<:`, `.`, `?`, `:`, `=`, `...`
  Macro, ///< `@name` (Text is the name without `@`)
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Semicolon,
  String,  ///< a string literal, `"..."` or `"""..."""`: only a docstring
           ///< is allowed, which the parser skips
  Invalid, ///< a construct the lexer already reported (a character literal):
           ///< parsed as an expression so that no second error follows
};

struct Token {
  Tok Kind = Tok::Eof;
  /// Set when whitespace or a comment separates this token from the previous
  /// one (Julia rejects `f (x)` but accepts `f(x)`).
  bool SpaceBefore = false;
  ast::LitType Lit = ast::LitType::Int64;
  uint32_t Begin = 0, End = 0;
  uint64_t Bits = 0;
  /// The token's spelling, normalised for operators (`≤` is `<=`, `≠` is
  /// `!=`, `∈` is `in`); points into the source or into static storage.
  std::string_view Text;

  SrcRange range() const { return {Begin, End}; }
  bool is(Tok K) const { return Kind == K; }
  bool isOp(std::string_view S) const { return Kind == Tok::Op && Text == S; }
  bool isKw(std::string_view S) const { return Kind == Tok::Keyword && Text == S; }
};

/// Tokenises File. The result always ends with an Eof token.
std::vector<Token> lex(const SourceFileRef &File, std::vector<Diagnostic> &Diags);

/// Julia's spelling of a literal: `1`, `0x1f`, `1.0f0`, `1.0e-5`, `true`.
std::string formatLiteral(ast::LitType T, uint64_t Bits);
/// A value as Julia's `print` writes it, which exception messages use:
/// unsigned integers in decimal (`255`), floats without their type's marks
/// (`2.5`, `1.0e10`, `Inf` for 2.5f0, 1.0f10, Inf32).
std::string printLiteral(ast::LitType T, uint64_t Bits);
/// The error for a decimal literal past Int64 (Digits without `_`), with
/// the UInt64 hex spelling where it has one.
std::string tooBigForInt64(std::string_view Text, std::string_view Digits);

} // namespace prism
