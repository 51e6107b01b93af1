// Syntax colouring of IR and assembly lines.
#include "Syntax.h"
#include "support/TextLines.h"

#include <gtest/gtest.h>

#include <string>

using namespace prism;
using namespace prism::views;

namespace {

/// "kind:text" for every token, space separated.
std::string tokens(std::string_view Line, Syntax S) {
  std::vector<Token> T;
  tokenizeLine(Line, S, T);
  static const char *Names[] = {"text",   "kw",  "type", "comment", "value",
                                "global", "num", "str",  "label",   "meta",
                                "op",     "reg", "dir",  "unstable"};
  std::string Out;
  for (const Token &X : T) {
    if (!Out.empty())
      Out += ' ';
    Out += Names[int(X.Kind)];
    Out += ':';
    Out += Line.substr(X.Begin, X.End - X.Begin);
  }
  return Out;
}

} // namespace

TEST(Syntax, LLVMIRInstruction) {
  EXPECT_EQ(tokens("  %13 = load float, ptr addrspace(1) %12, align 4, !dbg !13",
                   Syntax::LLVMIR),
            "value:%13 kw:load type:float type:ptr kw:addrspace num:1 "
            "value:%12 kw:align num:4 meta:!dbg meta:!13");
}

TEST(Syntax, LLVMIRDefineAndComment) {
  EXPECT_EQ(tokens("define void @julia_f(i64 %0) #0 { ; entry", Syntax::LLVMIR),
            "kw:define type:void global:@julia_f type:i64 value:%0 meta:#0 "
            "comment:; entry");
  EXPECT_EQ(tokens("L12:                ; preds = %top", Syntax::LLVMIR),
            "label:L12 comment:; preds = %top");
  EXPECT_EQ(tokens("  %5 = fadd contract float 1.5e+00, %4", Syntax::LLVMIR),
            "value:%5 kw:fadd kw:contract type:float num:1.5e+00 value:%4");
}

TEST(Syntax, PTX) {
  EXPECT_EQ(tokens("\tld.global.f32 \t%f2, [%rd6];", Syntax::PTX),
            "op:ld.global.f32 reg:%f2 reg:%rd6");
  EXPECT_EQ(tokens("\t@%p1 bra \t$L__BB0_2;", Syntax::PTX),
            "reg:%p1 op:bra label:$L__BB0_2");
  EXPECT_EQ(tokens(".visible .entry julia_saxpy(", Syntax::PTX),
            "dir:.visible dir:.entry text:julia_saxpy");
  EXPECT_EQ(tokens("$L__BB0_2:", Syntax::PTX), "label:$L__BB0_2");
  EXPECT_EQ(tokens("\tret; // done", Syntax::PTX), "op:ret comment:// done");
}

TEST(Syntax, GCN) {
  EXPECT_EQ(tokens("\ts_load_dwordx4 s[0:3], s[4:5], 0x0", Syntax::GCN),
            "op:s_load_dwordx4 reg:s num:0 num:3 reg:s num:4 num:5 num:0x0");
  EXPECT_EQ(tokens("\tv_fma_f32 v1, s2, v0, v1 ; fused", Syntax::GCN),
            "op:v_fma_f32 reg:v1 reg:s2 reg:v0 reg:v1 comment:; fused");
}

TEST(Syntax, X86AndBPF) {
  EXPECT_EQ(tokens("\tvfmadd213ss\t(%rdi,%rax,4), %xmm0, %xmm1 # fma", Syntax::X86),
            "op:vfmadd213ss reg:%rdi reg:%rax num:4 reg:%xmm0 reg:%xmm1 "
            "comment:# fma");
  EXPECT_EQ(tokens(".LBB0_2:", Syntax::X86), "label:.LBB0_2");
  EXPECT_EQ(tokens("\tjne\t.LBB0_2", Syntax::X86), "op:jne label:.LBB0_2");
  EXPECT_EQ(tokens("\tr0 = *(u32 *)(r1 + 4)", Syntax::BPF),
            "reg:r0 text:u32 reg:r1 num:4");
}

TEST(Syntax, TypedIR) {
  EXPECT_EQ(tokens("│   %13 = invoke Main.axpy(a::Float32, %11::Float32)::Float32 # l7",
                   Syntax::Julia),
            "text:│ value:%13 kw:invoke type:Main.axpy text:a type:Float32 value:%11 "
            "type:Float32 type:Float32 comment:# l7");
}

// What code_warntype marks: an annotation inference left non-concrete.
TEST(Syntax, TypedIRMarksNonConcreteAnnotations) {
  EXPECT_EQ(tokens("│   %4 = Base.add(acc::Union{Float32, Int64}, 1)::Any",
                   Syntax::Julia),
            "text:│ value:%4 type:Base.add text:acc "
            "unstable:Union{Float32, Int64} num:1 unstable:Any");
  // Not an annotation: a name, as in `Union{...}` constructed by a call.
  EXPECT_EQ(tokens("  Union", Syntax::Julia), "type:Union");
}

TEST(Syntax, StageSyntaxFollowsTarget) {
  EXPECT_EQ(syntaxFor(Stage::Asm, "ptx"), Syntax::PTX);
  EXPECT_EQ(syntaxFor(Stage::Asm, "gcn"), Syntax::GCN);
  EXPECT_EQ(syntaxFor(Stage::Asm, "bpf"), Syntax::BPF);
  EXPECT_EQ(syntaxFor(Stage::Asm, "native"), Syntax::X86);
  EXPECT_EQ(syntaxFor(Stage::LLVMOpt, "ptx"), Syntax::LLVMIR);
  EXPECT_EQ(syntaxFor(Stage::Typed, "ptx"), Syntax::Julia);
}

TEST(TextLines, SplitsAndFinds) {
  std::string Text = "define void @f() {\r\n  ret void\n}\nlast";
  TextLines L(Text);
  ASSERT_EQ(L.size(), 4u);
  EXPECT_EQ(L.line(0), "define void @f() {");
  EXPECT_EQ(L.line(1), "  ret void");
  EXPECT_EQ(L.line(3), "last");
  EXPECT_EQ(L.line(9), "");
  EXPECT_EQ(L.longestLine(), 19u);
  EXPECT_EQ(findLines(L, "VOID"), (std::vector<uint32_t>{0, 1}));
  EXPECT_TRUE(findLines(L, "").empty());
  EXPECT_EQ(findInLine("abcABCabc", "bc"), (std::vector<uint32_t>{1, 4, 7}));
  EXPECT_TRUE(TextLines("").empty());
  EXPECT_EQ(TextLines("a\n").size(), 1u);
}
