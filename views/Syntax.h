/// \file
/// Per-line syntax colouring of the texts Prism shows: typed IR, LLVM IR and
/// the four assembly dialects. A small hand-written scanner (no regex, no
/// allocation beyond the token vector) so that colouring the visible lines
/// of a pane costs microseconds each frame. Pure, no ImGui.
#pragma once

#include "cache/JobReport.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace prism::views {

enum class Syntax : uint8_t {
  Plain,
  Julia,   ///< kernel-language source and typed IR (`%3 = ... ::Float32`)
  LLVMIR,
  PTX,
  GCN,     ///< AMDGPU
  BPF,
  X86,     ///< AT&T syntax as LLVM prints it
};

enum class TokenKind : uint8_t {
  Text,
  Keyword,   ///< IR opcodes and keywords, Julia keywords
  Type,      ///< i32, float, ptr, Float32, DeviceArray{...}
  Comment,
  Value,     ///< %x, %12 (IR values, typed-IR SSA values)
  Global,    ///< @name
  Number,
  String,
  Label,     ///< `L1:`, `$L__BB0_2`, `.LBB0_1`
  Metadata,  ///< !dbg, !12, #0 attribute groups
  Mnemonic,  ///< asm instruction (`ld.global.f32`, `v_add_f32_e32`)
  Register,  ///< %r1, %rax, v0, s[4:5], r1
  Directive, ///< .reg, .loc, .section
  Unstable,  ///< typed IR's `::Any`, `::Union{...}` (code_warntype's red)
};

struct Token {
  uint32_t Begin = 0, End = 0; ///< byte range in the line
  TokenKind Kind = TokenKind::Text;
};

/// The syntax of a stage's text for a target ("ptx", "gcn", "bpf", "native").
Syntax syntaxFor(Stage S, std::string_view Target);

/// Splits one line into coloured tokens (appended to Out, which is cleared
/// first); the gaps between tokens are plain text.
void tokenizeLine(std::string_view Line, Syntax S, std::vector<Token> &Out);

} // namespace prism::views
