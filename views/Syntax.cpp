#include "Syntax.h"

#include <algorithm>
#include <iterator>
#include <cctype>

namespace prism::views {

Syntax syntaxFor(Stage S, std::string_view Target) {
  switch (S) {
  case Stage::Typed:
  case Stage::TypedOpt:
    return Syntax::Julia;
  case Stage::LLVMRaw:
  case Stage::LLVMOpt:
    return Syntax::LLVMIR;
  case Stage::Asm:
    if (Target == "ptx")
      return Syntax::PTX;
    if (Target == "gcn")
      return Syntax::GCN;
    if (Target == "bpf")
      return Syntax::BPF;
    return Syntax::X86;
  case Stage::NumStages:
    break;
  }
  return Syntax::Plain;
}

static bool isIdentStart(char C) {
  return std::isalpha((unsigned char)C) || C == '_' || C == '$' ||
         (unsigned char)C >= 0x80;
}
static bool isIdentChar(char C) {
  return std::isalnum((unsigned char)C) || C == '_' || C == '$' || C == '.' ||
         C == '!' || (unsigned char)C >= 0x80;
}

template <size_t N>
static bool oneOf(std::string_view W, const std::string_view (&Set)[N]) {
  return std::find(std::begin(Set), std::end(Set), W) != std::end(Set);
}

static constexpr std::string_view LLVMKeywords[] = {
    "define", "declare", "ret", "br", "switch", "unreachable", "call",
    "tail", "musttail", "notail", "invoke", "load", "store", "alloca",
    "getelementptr", "inbounds", "phi", "select", "icmp", "fcmp", "add",
    "fadd", "sub", "fsub", "mul", "fmul", "udiv", "sdiv", "fdiv", "urem",
    "srem", "frem", "shl", "lshr", "ashr", "and", "or", "xor", "trunc",
    "zext", "sext", "fptrunc", "fpext", "fptoui", "fptosi", "uitofp",
    "sitofp", "ptrtoint", "inttoptr", "bitcast", "addrspacecast",
    "extractvalue", "insertvalue", "extractelement", "insertelement",
    "shufflevector", "atomicrmw", "cmpxchg", "fence", "fneg", "freeze",
    "eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle",
    "oeq", "one", "ogt", "oge", "olt", "ole", "ord", "uno", "ueq", "une",
    "to", "nsw", "nuw", "exact", "fast", "contract", "align", "private",
    "internal", "external", "dso_local", "local_unnamed_addr", "nounwind",
    "target", "datalayout", "triple", "addrspace", "noalias", "nocapture",
    "readonly", "writeonly", "byval", "byref", "attributes", "source_filename",
    "distinct", "undef", "poison", "null", "zeroinitializer", "true", "false"};

static constexpr std::string_view JuliaKeywords[] = {
    "function", "end", "return", "if", "else", "elseif", "while", "for",
    "in", "begin", "let", "local", "global", "const", "struct", "mutable",
    "goto", "invoke", "nothing", "true", "false", "where"};

static bool isLLVMType(std::string_view W) {
  if (W.size() >= 2 && W[0] == 'i' &&
      std::all_of(W.begin() + 1, W.end(),
                  [](char C) { return std::isdigit((unsigned char)C); }))
    return true;
  static constexpr std::string_view Types[] = {
      "void", "half", "bfloat", "float", "double", "fp128", "ptr", "label",
      "metadata", "token", "x86_fp80"};
  return oneOf(W, Types);
}

static bool isRegister(std::string_view W, Syntax S) {
  auto Digits = [](std::string_view D) {
    return !D.empty() && std::all_of(D.begin(), D.end(), [](char C) {
      return std::isdigit((unsigned char)C);
    });
  };
  switch (S) {
  case Syntax::GCN:
    if (W == "vcc" || W == "exec" || W == "scc" || W == "m0" ||
        W == "vcc_lo" || W == "vcc_hi" || W == "exec_lo" || W == "exec_hi" ||
        W == "off")
      return true;
    return W.size() >= 2 && (W[0] == 'v' || W[0] == 's' || W[0] == 'a') &&
           Digits(W.substr(1));
  case Syntax::BPF:
    return W.size() >= 2 && (W[0] == 'r' || W[0] == 'w') && Digits(W.substr(1));
  default:
    return false;
  }
}

void tokenizeLine(std::string_view L, Syntax S, std::vector<Token> &Out) {
  Out.clear();
  if (S == Syntax::Plain)
    return;
  const bool Asm = S == Syntax::PTX || S == Syntax::GCN || S == Syntax::BPF ||
                   S == Syntax::X86;
  bool SeenMnemonic = false; // asm: the first word of a statement
  size_t I = 0, N = L.size();
  auto Push = [&](size_t B, size_t E, TokenKind K) {
    Out.push_back({uint32_t(B), uint32_t(E), K});
  };
  while (I < N) {
    char C = L[I];
    if (C == ' ' || C == '\t' || C == ',' || C == '(' || C == ')' ||
        C == '[' || C == ']' || C == '{' || C == '}' || C == '=' ||
        C == '*' || C == '<' || C == '>' || C == '+' || C == '-' ||
        C == '|' || C == ':') {
      ++I;
      continue;
    }
    // Comments.
    bool Comment = false;
    switch (S) {
    case Syntax::LLVMIR:
      Comment = C == ';';
      break;
    case Syntax::Julia:
      Comment = C == '#';
      break;
    case Syntax::PTX:
      Comment = C == '/' && I + 1 < N && L[I + 1] == '/';
      break;
    case Syntax::GCN:
    case Syntax::BPF:
      Comment = C == ';' || (C == '/' && I + 1 < N && L[I + 1] == '/') ||
                (S == Syntax::BPF && C == '#');
      break;
    case Syntax::X86: // the host's: `#` on x86, `//` on AArch64
      Comment = C == '#' || (C == '/' && I + 1 < N && L[I + 1] == '/');
      break;
    default:
      break;
    }
    if (Comment) {
      Push(I, N, TokenKind::Comment);
      return;
    }
    if (C == ';') { // statement separator in asm
      SeenMnemonic = false;
      ++I;
      continue;
    }
    if (C == '"') {
      size_t E = I + 1;
      while (E < N && L[E] != '"')
        E += L[E] == '\\' ? 2 : 1;
      E = std::min(E + 1, N);
      Push(I, E, TokenKind::String);
      I = E;
      continue;
    }
    // Sigils: %value / %register, @global / @%p predicate, !metadata, #attr.
    if (C == '%' || C == '@' || C == '!' || (C == '#' && S == Syntax::LLVMIR)) {
      size_t E = I + 1;
      if (E < N && L[E] == '"') { // %"quoted name"
        ++E;
        while (E < N && L[E] != '"')
          ++E;
        E = std::min(E + 1, N);
      } else {
        while (E < N && (isIdentChar(L[E]) || L[E] == '-'))
          ++E;
      }
      if (E == I + 1) {
        ++I;
        continue;
      }
      TokenKind K = TokenKind::Value;
      if (C == '@')
        K = (S == Syntax::PTX) ? TokenKind::Register : TokenKind::Global;
      else if (C == '!' || C == '#')
        K = TokenKind::Metadata;
      else if (Asm)
        K = TokenKind::Register;
      Push(I, E, K);
      I = E;
      continue;
    }
    if (std::isdigit((unsigned char)C) ||
        (C == '.' && I + 1 < N && std::isdigit((unsigned char)L[I + 1]))) {
      size_t E = I + 1;
      while (E < N && (std::isalnum((unsigned char)L[E]) || L[E] == '.' ||
                       ((L[E] == '+' || L[E] == '-') &&
                        (L[E - 1] == 'e' || L[E - 1] == 'E'))))
        ++E;
      Push(I, E, TokenKind::Number);
      I = E;
      continue;
    }
    if (isIdentStart(C) || C == '.') {
      size_t E = I + 1;
      while (E < N && isIdentChar(L[E]))
        ++E;
      std::string_view W = L.substr(I, E - I);
      bool IsLabel = E < N && L[E] == ':' && (E + 1 >= N || L[E + 1] != ':');
      TokenKind K = TokenKind::Text;
      if (IsLabel && (S != Syntax::Julia)) {
        K = TokenKind::Label;
      } else if (S == Syntax::LLVMIR) {
        if (oneOf(W, LLVMKeywords))
          K = TokenKind::Keyword;
        else if (isLLVMType(W))
          K = TokenKind::Type;
      } else if (S == Syntax::Julia) {
        bool Annotation = I >= 2 && L[I - 1] == ':' && L[I - 2] == ':';
        if (Annotation && (W == "Any" || W == "Union")) {
          // The whole `Union{...}`, braces balanced.
          K = TokenKind::Unstable;
          for (int Depth = 0; W == "Union" && E < N; ++E) {
            Depth += L[E] == '{';
            if (L[E] == '}' && --Depth <= 0) {
              ++E;
              break;
            }
            if (Depth == 0)
              break;
          }
        } else if (oneOf(W, JuliaKeywords))
          K = TokenKind::Keyword;
        else if (std::isupper((unsigned char)W[0]))
          K = TokenKind::Type;
        else if (I > 0 && L[I - 1] == '@')
          K = TokenKind::Global;
      } else if (Asm) {
        if (W[0] == '.' && (W.size() > 1 && std::isalpha((unsigned char)W[1]))) {
          bool LocalLabel = W.size() > 2 && (W[1] == 'L' || W[1] == 'l') &&
                            (W.substr(1, 3) == "LBB" || W[1] == 'L');
          K = (SeenMnemonic && LocalLabel) ? TokenKind::Label
                                           : TokenKind::Directive;
          if (!SeenMnemonic && !LocalLabel)
            SeenMnemonic = true; // `.reg .f32 %f<4>;`: operands follow
        } else if (S == Syntax::BPF && isRegister(W, S)) {
          K = TokenKind::Register; // `r0 = *(u32 *)(r1 + 4)`: no mnemonic
          SeenMnemonic = true;
        } else if (!SeenMnemonic) {
          K = TokenKind::Mnemonic;
          SeenMnemonic = true;
        } else if (isRegister(W, S) ||
                   (S == Syntax::GCN && E < N && L[E] == '[' &&
                    (W == "v" || W == "s" || W == "a"))) {
          K = TokenKind::Register;
        } else if (W[0] == '$' || W.substr(0, 3) == "LBB") {
          K = TokenKind::Label;
        }
      }
      Push(I, E, K);
      I = E;
      continue;
    }
    ++I;
  }
}

} // namespace prism::views
