#include "LangTestUtil.h"
#include "lang/Lexer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

using namespace prism;
using namespace prism::ast;
using prism::testing::allDiagnostics;
using prism::testing::diagText;
using prism::testing::parseString;

namespace {

/// Parses `f() = EXPR` and returns the S-expression of EXPR.
std::string exprOf(const std::string &Src) {
  auto F = parseString("f() = " + Src + "\n");
  EXPECT_EQ(diagText(*F), "") << Src;
  if (F->Defs.size() != 1)
    return "<no def>";
  auto *Fn = std::get<FunctionDef *>(F->Defs[0]);
  return dumpAST(Fn->Body->Kids[0]);
}

/// Parses a function body and returns the S-expression of the body Block.
std::string bodyOf(const std::string &Body) {
  auto F = parseString("function f()\n" + Body + "\nend\n");
  EXPECT_EQ(diagText(*F), "") << Body;
  if (F->Defs.size() != 1)
    return "<no def>";
  return dumpAST(std::get<FunctionDef *>(F->Defs[0])->Body);
}

std::string defOf(const std::string &Src) {
  auto F = parseString(Src);
  EXPECT_EQ(diagText(*F), "") << Src;
  std::string S;
  for (auto &D : F->Defs)
    S += (S.empty() ? "" : "\n") + dumpAST(D);
  return S;
}

TEST(Parser, EveryExampleParsesCleanly) {
  unsigned N = 0;
  for (auto &E : std::filesystem::directory_iterator(PRISM_EXAMPLES_DIR)) {
    if (E.path().extension() != ".jl")
      continue;
    ++N;
    auto F = parseString(prism::testing::readFileText(E.path().string()),
                         E.path().filename().string());
    EXPECT_EQ(diagText(*F), "") << E.path();
    EXPECT_FALSE(F->Defs.empty()) << E.path();
  }
  EXPECT_GE(N, 6u);
}

TEST(Parser, EmptyFileHasNoErrors) {
  EXPECT_EQ(diagText(*parseString("")), "");
  EXPECT_EQ(diagText(*parseString("\n\n# only a comment\n#= block =#\n")), "");
  EXPECT_TRUE(parseString("")->Defs.empty());
}

struct PrecCase {
  const char *Src, *Expected;
};

TEST(Parser, PrecedenceAndAssociativity) {
  const PrecCase Cases[] = {
      {"a + b * c", "(call + a (call * b c))"},
      {"a * b + c", "(call + (call * a b) c)"},
      {"a - b - c", "(call - (call - a b) c)"},
      {"a / b / c", "(call / (call / a b) c)"},
      {"a ^ b ^ c", "(call ^ a (call ^ b c))"},
      {"-2^2", "(call - (call ^ 2 2))"},
      {"-x^2", "(call - (call ^ x 2))"},
      {"2^-3", "(call ^ 2 -3)"},
      {"-a * b", "(call * (call - a) b)"},
      {"-1", "-1"},
      {"- 1", "(call - 1)"},
      {"-1.5f0", "-1.5f0"},
      // Numeric literal coefficients: tighter than `*`, looser than `^`.
      {"2x", "(call * 2 x)"},
      {"2π * r", "(call * (call * 2 π) r)"},
      {"2x^2", "(call * 2 (call ^ x 2))"},
      {"1/2x", "(call / 1 (call * 2 x))"},
      {"-2x", "(call * -2 x)"},
      {"1.5(a + b)", "(call * 1.5 (call + a b))"},
      // typemin(Int64): 2^63 fits only negated.
      {"-9223372036854775808", "-9223372036854775808"},
      {"-009223372036854775808", "-9223372036854775808"},
      {"!a && b", "(&& (call ! a) b)"},
      {"a || b && c", "(|| a (&& b c))"},
      {"a && b && c", "(&& a (&& b c))"},
      {"a || b || c", "(|| a (|| b c))"},
      {"a < b <= c", "(&& (call < a b) (call <= b c))"},
      {"a < b < c < d", "(&& (call < a b) (&& (call < b c) (call < c d)))"},
      {"a == b", "(call == a b)"},
      {"a != b", "(call != a b)"},
      {"a !== b", "(call !== a b)"},
      {"a === b", "(call === a b)"},
      {"a ≤ b", "(call <= a b)"},
      {"a ≠ b", "(call != a b)"},
      {"a + b == c * d", "(call == (call + a b) (call * c d))"},
      {"a & b | c", "(call | (call & a b) c)"},
      {"a | b & c", "(call | a (call & b c))"},
      {"a ⊻ b", "(call ⊻ a b)"},
      {"a << 2 + b", "(call + (call << a 2) b)"},
      {"a * b << c", "(call * a (call << b c))"},
      {"x >>> 3", "(call >>> x 3)"},
      {"x >> 1 == 0", "(call == (call >> x 1) 0)"},
      {"a ÷ b % c", "(call % (call ÷ a b) c)"},
      {"x % Int32", "(call % x Int32)"},
      {"~x & y", "(call & (call ~ x) y)"},
      {"c ? a : b", "(? c a b)"},
      {"c ? a : d ? e : f", "(? c a (? d e f))"},
      {"a < b ? x + 1 : y", "(? (call < a b) (call + x 1) y)"},
      {"x::Int32 + 1", "(call + (:: x Int32) 1)"},
      {"1:n", "(: 1 n)"},
      {"1:2:n", "(: 1 2 n)"},
      {"a+1:b-1", "(: (call + a 1) (call - b 1))"},
      {"x.y.z", "(. (. x y) z)"},
      {"blockIdx().x - 1", "(call - (. (call blockIdx) x) 1)"},
      {"a[i, j]", "(ref a i j)"},
      {"a[i][j]", "(ref (ref a i) j)"},
      {"S{T}(x)", "(call (curly S T) x)"},
      {"DeviceArray{Float32,1}", "(curly DeviceArray Float32 1)"},
      {"(a, b)", "(tuple a b)"},
      {"(a,)", "(tuple a)"},
      {"()", "(tuple)"},
      {"(a)", "a"},
      {"((a + b)) * c", "(call * (call + a b) c)"},
      {"map(+, x)", "(call map + x)"},
      {"(==)", "=="},
      {"+(a, b)", "(call + a b)"},
      {"!(x)", "(call ! x)"},
      {"f(x)(y)", "(call (call f x) y)"},
      {"a +\n b", "(call + a b)"},
      {"f(a,\n  b)", "(call f a b)"},
      {"x isa Int", "(call isa x Int)"},
      {"1_000", "1000"},
  };
  for (const PrecCase &C : Cases)
    EXPECT_EQ(exprOf(C.Src), C.Expected) << C.Src;
}

TEST(Parser, Statements) {
  EXPECT_EQ(bodyOf("x = 1; y = 2"), "(block (= x 1) (= y 2))");
  EXPECT_EQ(bodyOf("a, b = t"), "(block (= (tuple a b) t))");
  EXPECT_EQ(bodyOf("(a, b) = (b, a)"), "(block (= (tuple a b) (tuple b a)))");
  EXPECT_EQ(bodyOf("x += 1\ny ÷= 2\nz ⊻= w\nq <<= 1"),
            "(block (+= x 1) (÷= y 2) (⊻= z w) (<<= q 1))");
  EXPECT_EQ(bodyOf("a[i] = v"), "(block (= (ref a i) v))");
  EXPECT_EQ(bodyOf("a[i, j] += v"), "(block (+= (ref a i j) v))");
  EXPECT_EQ(bodyOf("@inbounds y[i] = a * x[i]"),
            "(block (@inbounds (= (ref y i) (call * a (ref x i)))))");
  EXPECT_EQ(bodyOf("@inbounds begin\n x = a[1]\nend"),
            "(block (@inbounds (block (= x (ref a 1)))))");
  EXPECT_EQ(bodyOf("@inbounds for i in 1:n\n s += a[i]\nend"),
            "(block (@inbounds (for i (: 1 n) (block (+= s (ref a i))))))");
  EXPECT_EQ(bodyOf("@boundscheck check(i)"), "(block (@boundscheck (call check i)))");
  EXPECT_EQ(bodyOf("if a\n x\nelseif b\n y\nelse\n z\nend"),
            "(block (if a (block x) (if b (block y) (block z))))");
  EXPECT_EQ(bodyOf("if a x end"), "(block (if a (block x)))");
  EXPECT_EQ(bodyOf("while i < n\n i += 1\n if i == 3\n continue\n end\n break\nend"),
            "(block (while (call < i n) (block (+= i 1) (if (call == i 3) "
            "(block (continue))) (break))))");
  EXPECT_EQ(bodyOf("for i in 1:2:n\nend"), "(block (for i (: 1 2 n) (block)))");
  EXPECT_EQ(bodyOf("for i = a:b\nend"), "(block (for i (: a b) (block)))");
  EXPECT_EQ(bodyOf("for i ∈ a:b\nend"), "(block (for i (: a b) (block)))");
  EXPECT_EQ(bodyOf("return"), "(block (return))");
  EXPECT_EQ(bodyOf("return a, b"), "(block (return (tuple a b)))");
  EXPECT_EQ(bodyOf("x > 0 || return 1"), "(block (|| (call > x 0) (return 1)))");
  EXPECT_EQ(bodyOf("begin\n x\n y\nend"), "(block (block x y))");
  EXPECT_EQ(bodyOf("x = if c 1 else 2 end"), "(block (= x (if c (block 1) (block 2))))");
  EXPECT_EQ(bodyOf("y = x::Float32"), "(block (= y (:: x Float32)))");
  EXPECT_EQ(bodyOf("a = b = 1"), "(block (= a (= b 1)))");
  EXPECT_EQ(bodyOf("#= a #= nested =# comment =# x"), "(block x)");
  EXPECT_EQ(bodyOf("saxpy!(a, x)\nsetindex!(a, v, i)\nb = a!=c"),
            "(block (call saxpy! a x) (call setindex! a v i) (= b (call != a c)))");
  EXPECT_EQ(bodyOf("αβ = 1; x₁ = αβ"), "(block (= αβ 1) (= x₁ αβ))");
}

TEST(Parser, Definitions) {
  EXPECT_EQ(defOf("square(x) = x * x"),
            "(function square (params x) (block (call * x x)))");
  EXPECT_EQ(defOf("function f(a::T, b) where {T<:Real}\n a\nend"),
            "(function f (params (:: a T) b) (where (<: T Real)) (block a))");
  EXPECT_EQ(defOf("f(x::T) where T = x"),
            "(function f (params (:: x T)) (where T) (block x))");
  EXPECT_EQ(defOf("f(x)::Float32 = x"),
            "(function f (params x) (returns Float32) (block x))");
  EXPECT_EQ(defOf("function g(x)::T where {T}\n x\nend"),
            "(function g (params x) (where T) (returns T) (block x))");
  EXPECT_EQ(defOf("+(a::T, b::T) where {T} = add_int(a, b)"),
            "(function + (params (:: a T) (:: b T)) (where T) (block (call add_int a b)))");
  EXPECT_EQ(defOf("function ==(a, b)\n a === b\nend"),
            "(function == (params a b) (block (call === a b)))");
  EXPECT_EQ(defOf("(==)(a, b) = a === b"),
            "(function == (params a b) (block (call === a b)))");
  EXPECT_EQ(defOf("÷(a, b) = div(a, b)"),
            "(function ÷ (params a b) (block (call div a b)))");
  EXPECT_EQ(defOf("!(x::Bool) = not_int(x)"),
            "(function ! (params (:: x Bool)) (block (call not_int x)))");
  EXPECT_EQ(defOf("Float32(x::Int64) = sitofp(Float32, x)"),
            "(function Float32 (params (:: x Int64)) (block (call sitofp Float32 x)))");
  EXPECT_EQ(defOf("(::Type{T})(x) where {T} = convert(T, x)"),
            "(function _ (callee (curly Type T)) (params x) (where T) "
            "(block (call convert T x)))");
  EXPECT_EQ(defOf("zero(::Type{Float32}) = 0.0f0"),
            "(function zero (params (:: (curly Type Float32))) (block 0.0f0))");
  EXPECT_EQ(defOf("Point{T}(x::T) where {T} = new(Point{T}, x)"),
            "(function Point (callee (curly Type (curly Point T))) (params (:: x T)) "
            "(where T) (block (call new (curly Point T) x)))");
  EXPECT_EQ(defOf("@inline f(x) = x\n@noinline function g()\nend"),
            "(function @inline f (params x) (block x))\n"
            "(function @noinline g (params) (block))");
  EXPECT_EQ(defOf("struct P{T,N} <: Super{T,N}\n  field::T; other::NTuple{N,Int}\nend"),
            "(struct P (params T N) (<: (curly Super T N)) "
            "(fields (:: field T) (:: other (curly NTuple N Int))))");
  EXPECT_EQ(defOf("struct Empty end"), "(struct Empty (params) (fields))");
  EXPECT_EQ(defOf("struct S x; y::Int end"), "(struct S (params) (fields x (:: y Int)))");
  EXPECT_EQ(defOf("abstract type Shape{T} <: Any end"),
            "(abstract Shape (params T) (<: Any))");
  EXPECT_EQ(defOf("abstract type Number end"), "(abstract Number (params))");
  EXPECT_EQ(defOf("const N = 16"), "(const N 16)");
  EXPECT_EQ(defOf("const M = -N * 2"), "(const M (call * (call - N) 2))");
  EXPECT_EQ(defOf("f(x) where {T<:Real, S} = x"),
            "(function f (params x) (where (<: T Real) S) (block x))");
}

struct LitCase {
  const char *Src;
  LitType Type;
  uint64_t Bits;
  const char *Printed;
};

TEST(Parser, LiteralTyping) {
  const LitCase Cases[] = {
      {"1", LitType::Int64, 1, "1"},
      {"1_000_000", LitType::Int64, 1000000, "1000000"},
      {"9223372036854775807", LitType::Int64, 9223372036854775807ull, "9223372036854775807"},
      {"1.0", LitType::Float64, 0x3FF0000000000000ull, "1.0"},
      {"1.", LitType::Float64, 0x3FF0000000000000ull, "1.0"},
      {".5", LitType::Float64, 0x3FE0000000000000ull, "0.5"},
      {"1e-3", LitType::Float64, 0x3F50624DD2F1A9FCull, "0.001"},
      {"1e10", LitType::Float64, 0x4202A05F20000000ull, "1.0e10"},
      {"2.5E2", LitType::Float64, 0x406F400000000000ull, "250.0"},
      {"1.0f0", LitType::Float32, 0x3F800000, "1.0f0"},
      {"1f0", LitType::Float32, 0x3F800000, "1.0f0"},
      {"1.5f-3", LitType::Float32, 0x3AC49BA6, "0.0015f0"},
      {"0.1f0", LitType::Float32, 0x3DCCCCCD, "0.1f0"},
      {"1.0f10", LitType::Float32, 0x501502F9, "1.0f10"},
      {"0x1f", LitType::UInt8, 0x1f, "0x1f"},
      {"0x1", LitType::UInt8, 1, "0x01"},
      {"0x001", LitType::UInt16, 1, "0x0001"},
      {"0x0800", LitType::UInt16, 0x800, "0x0800"},
      {"0x12345", LitType::UInt32, 0x12345, "0x00012345"},
      {"0xdeadbeef", LitType::UInt32, 0xdeadbeef, "0xdeadbeef"},
      {"0x123456789", LitType::UInt64, 0x123456789ull, "0x0000000123456789"},
      {"0xffff_ffff_ffff_ffff", LitType::UInt64, ~0ull, "0xffffffffffffffff"},
      {"0b101", LitType::UInt8, 5, "0x05"},
      {"0b111111111", LitType::UInt16, 511, "0x01ff"},
      {"0o17", LitType::UInt8, 15, "0x0f"},
      // Hex floats are Float64 and need the binary exponent.
      {"0x1p3", LitType::Float64, 0x4020000000000000ull, "8.0"},
      {"0x1.8p1", LitType::Float64, 0x4008000000000000ull, "3.0"},
      {"0x.8p-1", LitType::Float64, 0x3FD0000000000000ull, "0.25"},
      {"0x1P+2", LitType::Float64, 0x4010000000000000ull, "4.0"},
      {"true", LitType::Bool, 1, "true"},
      {"false", LitType::Bool, 0, "false"},
      {"-7", LitType::Int64, uint64_t(-7), "-7"},
      {"-2.0", LitType::Float64, 0xC000000000000000ull, "-2.0"},
  };
  for (const LitCase &C : Cases) {
    auto F = parseString(std::string("f() = ") + C.Src);
    ASSERT_EQ(diagText(*F), "") << C.Src;
    const Node *N = std::get<FunctionDef *>(F->Defs[0])->Body->Kids[0];
    ASSERT_EQ(N->Kind, NodeKind::Literal) << C.Src;
    EXPECT_EQ(int(N->Lit), int(C.Type)) << C.Src;
    EXPECT_EQ(N->Bits, C.Bits) << C.Src;
    EXPECT_EQ(formatLiteral(N->Lit, N->Bits), C.Printed) << C.Src;
  }
}

// Float16 has no literal syntax; Julia prints its values as `Float16(1.5)`
// and names its specials.
TEST(Parser, Float16PrintsAsJulia) {
  EXPECT_EQ(formatLiteral(LitType::Float16, 0x3E00), "Float16(1.5)");
  EXPECT_EQ(formatLiteral(LitType::Float16, 0x7C00), "Inf16");
  EXPECT_EQ(formatLiteral(LitType::Float16, 0xFC00), "-Inf16");
  EXPECT_EQ(formatLiteral(LitType::Float16, 0x7E00), "NaN16");
  // Positional below 1e3 only (Julia's Ryu for Float16), shortest digits.
  EXPECT_EQ(formatLiteral(LitType::Float16, 0x63CE), "Float16(999.0)");
  EXPECT_EQ(formatLiteral(LitType::Float16, 0x70E1), "Float16(9.99e3)");
  EXPECT_EQ(formatLiteral(LitType::Float16, 0x7BFF), "Float16(6.55e4)");
  EXPECT_EQ(formatLiteral(LitType::Float16, 0x1419), "Float16(0.001)");
}

struct BadCase {
  const char *Src;
  const char *Expected; ///< "line:col: message" of the first diagnostic
};

TEST(Parser, BaseFunctionsAreExtendedAsInJulia) {
  // The prelude holds Base's and CUDA.jl's functions under their plain
  // names: a qualified name is the plain one, and `import`/`using` of
  // those modules parse and do nothing.
  EXPECT_EQ(defOf("Base.:+(a::V, b::V) = a"),
            "(function + (params (:: a V) (:: b V)) (block a))");
  EXPECT_EQ(defOf("function Base.:*(a::V, s)\n a\nend"),
            "(function * (params (:: a V) s) (block a))");
  EXPECT_EQ(defOf("Base.zero(::Type{V}) = V()"),
            "(function zero (params (:: (curly Type V))) (block (call V)))");
  EXPECT_EQ(defOf("Base.:(==)(a::V, b::V) = true"),
            "(function == (params (:: a V) (:: b V)) (block true))");
  EXPECT_EQ(exprOf("CUDA.threadIdx().x + Base.:-(1)"),
            "(call + (. (call threadIdx) x) (call - 1))");
  EXPECT_EQ(exprOf("Base.Math.sqrt(Core.Intrinsics.abs_float(2.0))"),
            "(call sqrt (call abs_float 2.0))");
  // A module's macro is the plain macro; CUDA.jl's `@atomic a[i] += v` is
  // the language's atomic_add!.
  EXPECT_EQ(defOf("Base.@noinline f(x) = x"),
            "(function @noinline f (params x) (block x))");
  EXPECT_EQ(
      bodyOf("CUDA.@atomic a[i] += 1\n@atomic a[j] -= x"),
      "(block (call atomic_add! a i 1) (call atomic_add! a j (call - x)))");
  EXPECT_EQ(bodyOf("Base.@inbounds a[i] = 1"),
            "(block (@inbounds (= (ref a i) 1)))");
  // Docstrings, as copied Julia code has them, document nothing here.
  EXPECT_EQ(defOf("\"Adds one.\"\nf(x) = x + 1"),
            "(function f (params x) (block (call + x 1)))");
  EXPECT_EQ(defOf("\"\"\"\n    g()\n\nA \"quoted\" word.\n\"\"\"\nfunction "
                  "g()\n 1\nend\n"
                  "\"A type.\"\nstruct S\n x::Int\nend"),
            "(function g (params) (block 1))\n(struct S (params) (fields (:: x "
            "Int)))");
  EXPECT_EQ(defOf("import Base: +, -, zero\nusing CUDA\nimport Base.+\n"
                  "using Base.Math, CUDA\nf() = 1"),
            "(function f (params) (block 1))");
  const BadCase Cases[] = {
      {"using LinearAlgebra\n",
       "1:7: `using LinearAlgebra`: the kernel language has no packages; its "
       "functions are Base's and CUDA.jl's (the prelude), which need no "
       "`using`"},
      {"import Base: \n", "1:14: expected a name to import, found end of line"},
      {"import Base zero\n", "1:13: extra token `zero` after `import`"},
      {"f(a) = CUDA.@atomic a[1] *= 2\n",
       "1:21: `@atomic` takes `a[i] += v` or `a[i] -= v` (one index): the "
       "kernel language's atomics are atomic_add!"},
      {"f(a) = @atomic a[1, 2] += 2\n", "1:16: `@atomic` takes"},
      {"f(p) = p.:x\n",
       "1:8: `.:x` names a module's function; the modules here are Base, "
       "Core and CUDA"},
  };
  for (const BadCase &C : Cases) {
    auto F = parseString(C.Src);
    EXPECT_THAT(diagText(*F), ::testing::HasSubstr(C.Expected)) << C.Src;
  }
}

TEST(Parser, MalformedInputsReportLineColAndMessage) {
  const BadCase Cases[] = {
      // Unterminated constructs.
      {"function f(x)\n  x + 1\n",
       "3:1: expected `end` to close `function` started at 1:1"},
      {"function f(x)\n  if x\n    1\n",
       "4:1: expected `end` to close `if` started at 2:3"},
      {"function f(x)\n  while x\n",
       "3:1: expected `end` to close `while` started at 2:3"},
      {"function f(x)\n  for i in 1:3\n",
       "3:1: expected `end` to close `for` started at 2:3"},
      {"function f(x)\n  begin\n",
       "3:1: expected `end` to close `begin` started at 2:3"},
      {"struct S\n  x::Int\n",
       "3:1: expected `end` to close `struct` started at 1:1"},
      {"function f()\n  x = 1\nfunction g()\nend\n",
       "3:1: expected `end` to close `function` started at 1:1"},
      {"f(x) = (x + 1", "1:14: expected `)` to close `(` at 1:8"},
      {"f(x) = g(x, 1", "1:14: expected `)` to close `(` at 1:9"},
      {"f(x) = a[1", "1:11: expected `]` to close `[` at 1:9"},
      {"f() = 1\n#= never closed\n",
       "3:1: unterminated block comment started at 2:1"},
      {"f() = 1 #= a #= b =#\n",
       "2:1: unterminated block comment started at 1:9"},
      {"abstract type A\n",
       "2:1: expected `end` to close `abstract` started at 1:1"},
      // Bad literals.
      {"f() = 0x", "1:7: invalid numeric literal `0x`"},
      {"f() = 0xg1", "1:7: invalid numeric literal `0xg1`"},
      {"f() = 0x1.8", "1:7: invalid numeric literal `0x1.8`"},
      {"f() = 0x1p", "1:7: invalid numeric literal `0x1p`"},
      {"f() = 0b102", "1:7: invalid numeric literal `0b102`"},
      {"f() = 1__0", "1:7: invalid numeric literal `1__0`"},
      {"f() = 1_", "1:7: invalid numeric literal `1_`"},
      {"f() = 1.2.3", "1:7: invalid numeric literal `1.2.3`"},
      {"f() = 99999999999999999999",
       "1:7: integer literal `99999999999999999999` does not fit in Int64"
       " (Julia reads it as an Int128, which kernels do not have)"},
      {"f() = 9223372036854775808",
       "1:7: integer literal `9223372036854775808` does not fit in Int64"
       " (Julia reads it as an Int128, which kernels do not have); as a UInt64 "
       "write `0x8000000000000000`"},
      {"f() = - 9223372036854775808",
       "1:9: integer literal `9223372036854775808` does not fit in Int64"
       " (Julia reads it as an Int128, which kernels do not have); as a UInt64 "
       "write `0x8000000000000000`"},
      {"f() = -9223372036854775808^2",
       "1:8: integer literal `9223372036854775808` does not fit in Int64"
       " (Julia reads it as an Int128, which kernels do not have); as a UInt64 "
       "write `0x8000000000000000`"},
      {"f() = 0x1_0000_0000_0000_0000",
       "1:7: numeric literal `0x1_0000_0000_0000_0000` does not fit in UInt64"},
      {"f() = 1e999", "1:7: numeric constant `1e999` is too large for Float64"},
      {"f() = 1.5im",
       "1:7: complex numbers (`1.5im`) are not in the kernel language; kernels "
       "compute on real numbers (a complex value as two floats)"},
      // Stray tokens.
      {"f(x) = x + )", "1:12: unexpected `)`"},
      {")", "1:1: unexpected `)`"},
      {"end", "1:1: unexpected `end`"},
      {"function f()\n  x = 1 2\nend",
       "2:9: extra token `2` after end of expression"},
      {"function f()\n  x = \nend", "3:1: unexpected `end`"},
      {"f() = x +", "1:10: unexpected end of file"},
      {"function f()\n  else\nend", "2:3: unexpected `else`"},
      {"f() = a ? b",
       "1:12: expected `:` in `?:` expression, found end of file"},
      {"f() = \"str\"", "1:7: string literals are not supported"},
      {"\"not a docstring\"\n", "1:1: string literals are not supported"},
      {"\"\"\"\nnever closed\nf(x) = x\n",
       "1:1: unterminated string literal started here"},
      {"f() = 'a'", "1:7: character literals are not supported"},
      {"f() = $x", "1:7: unexpected character `$`"},
      {"x + 1",
       "1:1: expected a definition at top level (`function`, `struct`, "
       "`abstract type` or `const`); code is not executed at top level"},
      {"using Foo", "1:7: `using Foo`: the kernel language has no packages; "
                    "its functions are Base's and CUDA.jl's (the prelude), "
                    "which need no `using`"},
      {"mutable struct S\n x\nend",
       "1:1: mutable structs are not supported (structs are immutable)"},
      {"f(x) = f (x)", "1:10: space before `(` not allowed in a call"},
      {"f(x) = x.(1)", "1:10: broadcasting (`f.(x)`) is not supported"},
      {"f(x) = @foo x", "1:8: unknown macro `@foo`"},
      {"function f(x, x)\nend", "1:15: function argument name not unique: `x`"},
      {"f(x = 1, y) = x", "1:10: optional positional arguments must occur at end"},
      {"f((a, b) = 1) = a",
       "1:3: invalid parameter; expected `name = value` or `name::Type = value`"},
      {"const 1 = 2", "1:7: expected `const NAME = value`"},
      {"struct S\n  f(x) = x\nend",
       "2:3: inner constructors are not supported; define an outer constructor "
       "method instead"},
      {"f(x) = [1, 2]", "1:8: array literals are not supported"},
      {"f(x) = a[end]",
       "1:10: `end` inside indexing is not supported: write `length(a)` or "
       "`size(a, d)`"},
      {"function f()\n  for (a, 1) in t\n  end\nend",
       "2:11: expected loop variables `(a, b)` after `for`, found `1`"},
      {"function f()\n  for 1 in t\n  end\nend",
       "2:7: expected a loop variable after `for`, found `1`"},
      {"@inline struct S end", "1:9: unexpected `struct`"},
      // Encoding and garbage.
      {"f() = 1\n\xff\xfe", "2:1: invalid UTF-8 byte 0xff"},
      {"f(x) = x \xc3\x28", "1:10: invalid UTF-8 byte 0xc3"},
  };
  for (const BadCase &C : Cases) {
    auto F = parseString(C.Src);
    std::vector<Diagnostic> All = allDiagnostics(*F);
    ASSERT_FALSE(All.empty()) << C.Src;
    const Diagnostic &D = All[0];
    EXPECT_EQ(std::to_string(D.Loc.Line) + ":" + std::to_string(D.Loc.Col) +
                  ": " + D.Message,
              C.Expected)
        << "input: " << C.Src << "\nall diagnostics:\n" << diagText(*F);
  }
  // Binary garbage with NUL bytes: diagnostics, no crash.
  auto G = parseString(std::string("\0\x01\x02function\x7f", 12));
  ASSERT_FALSE(G->Diags.empty());
  EXPECT_EQ(diagText(*G).substr(0, 32), "1:1: not a text file: a NUL byte");
}

// Closures: one error at the construct, which is parsed whole so that the
// rest of the file parses as usual (the next error is still found).
TEST(Parser, ClosuresAreOneClearErrorEach) {
  auto F = parseString("f(x) = map(y -> y + 1, x)\n"
                       "g(x) = x -> y -> x + y\n"
                       "function h(x)\n"
                       "    function inner(y)\n"
                       "        function deeper(z)\n"
                       "        end\n"
                       "        return y + x\n"
                       "    end\n"
                       "    return inner(1)\n"
                       "end\n"
                       "k(x) = x +\n");
  std::vector<std::string> Got;
  std::vector<Diagnostic> All = allDiagnostics(*F);
  for (const Diagnostic &D : All)
    Got.push_back(std::to_string(D.Loc.Line) + ":" + std::to_string(D.Loc.Col) +
                  ": " + D.Message.substr(0, 30));
  EXPECT_THAT(Got, ::testing::ElementsAre(
                       "1:14: anonymous functions (`x -> ...",
                       "2:10: anonymous functions (`x -> ...",
                       "4:5: a function cannot be defined i",
                       "12:1: unexpected end of file"))
      << diagText(*F);
  EXPECT_NE(All[2].Message.find("define `inner` at the top level"),
            std::string::npos);
  // The closures are f's and g's own errors; the file's are the others.
  EXPECT_EQ(F->Diags.size(), 2u) << diagText(*F);
  // The nested definitions are not definitions of the file.
  EXPECT_EQ(F->Defs.size(), 3u);
}

TEST(Parser, RecoveryReportsEveryIndependentError) {
  const char *Src = "function a(x)\n"
                    "  y = x + )\n"       // error 1
                    "  return y\n"
                    "end\n"
                    "\n"
                    "b(x) = 0x\n"          // error 2
                    "\n"
                    "function c(x)\n"
                    "  if x\n"
                    "    break 1\n"        // error 3
                    "  end\n"
                    "end\n"
                    "d(x) = x\n";
  auto F = parseString(Src);
  EXPECT_EQ(diagText(*F), "2:11: unexpected `)`\n"
                          "6:8: invalid numeric literal `0x`\n"
                          "10:11: extra token `1` after end of expression\n");
  // The definitions around the errors are still there.
  std::vector<std::string> Names;
  for (auto &D : F->Defs)
    if (auto *Fn = std::get_if<FunctionDef *>(&D))
      Names.push_back((*Fn)->Name.string());
  EXPECT_EQ(Names, (std::vector<std::string>{"a", "b", "c", "d"}));
}

// An unsupported construct is one error: keyword arguments skip to the
// closing parenthesis, and an unsupported block (`try`, `module`) through
// its own `end`, which then closes nothing else.
TEST(Parser, UnsupportedConstructsAreOneErrorEach) {
  auto F = parseString("function kw(x; s = (1, 2))\n  x\nend\n"
                       "function l(x)\n  try y = x + 1\n    a[end] + y\n"
                       "  end\nend\n"
                       "module M\nf() = begin\n 1\nend\nend\n"
                       "g(x) = x\n");
  EXPECT_EQ(diagText(*F),
            "1:14: keyword arguments are not supported\n"
            "5:3: `try` is not supported in the kernel language\n"
            "9:1: `module` is not supported in the kernel language\n");
  std::vector<std::string> Names;
  for (auto &D : F->Defs)
    if (auto *Fn = std::get_if<FunctionDef *>(&D))
      Names.push_back((*Fn)->Name.string());
  EXPECT_EQ(Names, (std::vector<std::string>{"kw", "l", "g"}));
}

TEST(Parser, MissingEndRecoversAtNextDefinition) {
  auto F = parseString("function f()\n  if x\n    y\nfunction g()\n  z\nend\n"
                       "h(x) = x +\n");
  EXPECT_EQ(diagText(*F), "4:1: expected `end` to close `if` started at 2:3\n"
                          "8:1: unexpected end of file\n");
  ASSERT_EQ(F->Defs.size(), 1u);
  EXPECT_EQ(std::get<FunctionDef *>(F->Defs[0])->Name.str(), "g");
}

TEST(Parser, DeepNestingIsADiagnostic) {
  std::string Deep = "f() = " + std::string(10000, '(') + "1" + std::string(10000, ')');
  auto F = parseString(Deep);
  ASSERT_EQ(F->Diags.size(), 1u);
  EXPECT_EQ(F->Diags[0].Message, "expression nested too deeply");

  // Spaced: `--` is Julia's invalid operator, not two minuses.
  std::string Unary = "f() = ";
  for (int I = 0; I < 10000; ++I)
    Unary += "- ";
  Unary += "x";
  EXPECT_EQ(parseString(Unary)->Diags.at(0).Message, "expression nested too deeply");

  // A long `-` chain nests; a `+` chain is one wide call, as in Julia.
  std::string Chain = "f() = x";
  for (int I = 0; I < 5000; ++I)
    Chain += " - x";
  EXPECT_EQ(parseString(Chain)->Diags.at(0).Message, "expression nested too deeply");
  std::string Sum = "f() = x";
  for (int I = 0; I < 5000; ++I)
    Sum += " + x";
  auto S = parseString(Sum);
  EXPECT_TRUE(S->Diags.empty());

  std::string Pow = "f() = x";
  for (int I = 0; I < 5000; ++I)
    Pow += "^x";
  EXPECT_EQ(parseString(Pow)->Diags.at(0).Message, "expression nested too deeply");

  std::string Ifs = "function f()\n";
  for (int I = 0; I < 3000; ++I)
    Ifs += "if x\n";
  EXPECT_EQ(parseString(Ifs)->Diags.at(0).Message, "expression nested too deeply");

  // Moderate nesting is fine.
  std::string Ok = "f() = " + std::string(100, '(') + "1" + std::string(100, ')');
  EXPECT_EQ(diagText(*parseString(Ok)), "");
}

TEST(Parser, LargeInputIsLinear) {
  std::string Big;
  for (int I = 0; I < 20000; ++I)
    Big += "f" + std::to_string(I) + "(x) = x * " + std::to_string(I) + " + 1\n";
  auto F = parseString(Big);
  EXPECT_EQ(F->Diags.size(), 0u);
  EXPECT_EQ(F->Defs.size(), 20000u);
  // Many errors stop at a cap instead of growing without bound.
  std::string Bad(200000, ')');
  EXPECT_LE(parseString(Bad)->Diags.size(), 102u);
  std::string Junk(100000, '\x01');
  EXPECT_LE(parseString(Junk)->Diags.size(), 52u);
}

// `:π` is a symbol at the start of an operand; after one, `:` is a range.
TEST(Parser, SymbolsAreQuotedNames) {
  EXPECT_EQ(exprOf("Irrational{:π}()"), "(call (curly Irrational :π))");
  EXPECT_EQ(exprOf("a:b"), "(: a b)");
  EXPECT_EQ(exprOf("c ? a : b"), "(? c a b)");
  EXPECT_EQ(defOf("f(::Irrational{:ℯ}) = 1"),
            "(function f (params (:: (curly Irrational :ℯ))) (block 1))");
}

TEST(Parser, ParseExpressionForSignatures) {
  ParsedFile Out(SourceFile::create("<sig>", "saxpy!(Float32, DeviceArray{Float32,1})"));
  Node *N = parseExpression(Out);
  EXPECT_TRUE(Out.Diags.empty());
  EXPECT_EQ(dumpAST(N), "(call saxpy! Float32 (curly DeviceArray Float32 1))");

  ParsedFile Bad(SourceFile::create("<sig>", "f(Int) extra"));
  parseExpression(Bad);
  ASSERT_EQ(Bad.Diags.size(), 1u);
  EXPECT_EQ(Bad.Diags[0].Message, "extra token `extra` after end of expression");

  ParsedFile Spaced(SourceFile::create("<sig>", "f (Int)"));
  parseExpression(Spaced);
  ASSERT_EQ(Spaced.Diags.size(), 1u);
  EXPECT_EQ(Spaced.Diags[0].Message, "space before `(` not allowed in a call");
}

TEST(Parser, SourceRanges) {
  auto F = parseString("function f(x)\n  y = x + 1\nend\n");
  auto *Fn = std::get<FunctionDef *>(F->Defs[0]);
  const Node *Assign = Fn->Body->Kids[0];
  LineCol B = F->File->lineCol(Assign->Range.Begin);
  LineCol E = F->File->lineCol(Assign->Range.End);
  EXPECT_EQ(B.Line, 2u);
  EXPECT_EQ(B.Col, 3u);
  EXPECT_EQ(E.Col, 12u);
  EXPECT_EQ(F->File->text().substr(Fn->SigRange.Begin,
                                   Fn->SigRange.End - Fn->SigRange.Begin),
            "f(x)");
}

} // namespace
