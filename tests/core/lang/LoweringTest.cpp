#include "LangTestUtil.h"
#include "lang/Lowering.h"
#include "types/Type.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace prism;
using namespace prism::ast;
using prism::testing::diagText;
using prism::testing::parseString;

namespace {

std::vector<Symbol> whereNames(const FunctionDef &F) {
  std::vector<Symbol> S;
  for (const WhereVar &W : F.Where)
    S.push_back(W.Name);
  return S;
}

/// Lowers the only (or the named) function of Src; returns printLowered or
/// the diagnostics as "L:C: message".
std::string lowered(const std::string &Src, const char *Name = nullptr) {
  auto F = parseString(Src);
  std::string D = diagText(*F);
  if (!D.empty())
    return "parse error: " + D;
  for (auto &Def : F->Defs) {
    auto *Fn = std::get_if<FunctionDef *>(&Def);
    if (!Fn || (Name && (*Fn)->Name.str() != Name))
      continue;
    auto W = whereNames(**Fn);
    auto CI = lowerMethod(**Fn, F->File, W);
    if (!CI) {
      std::string S;
      for (const Diagnostic &Dg : takeDiagnostics(CI.takeError()))
        S += std::to_string(Dg.Loc.Line) + ":" + std::to_string(Dg.Loc.Col) +
             ": " + Dg.Message + "\n";
      return S;
    }
    return printLowered(**CI);
  }
  return "no function";
}

std::shared_ptr<CodeInfo> lowerOnly(const std::string &Src) {
  auto F = parseString(Src);
  EXPECT_EQ(diagText(*F), "");
  auto *Fn = std::get<FunctionDef *>(F->Defs.at(0));
  auto W = whereNames(*Fn);
  auto CI = lowerMethod(*Fn, F->File, W);
  if (!CI) {
    ADD_FAILURE() << llvm::toString(CI.takeError());
    return nullptr;
  }
  return *CI;
}

TEST(Lowering, EveryExampleMethodLowers) {
  unsigned Methods = 0;
  for (auto &E : std::filesystem::directory_iterator(PRISM_EXAMPLES_DIR)) {
    if (E.path().extension() != ".jl")
      continue;
    auto F = parseString(prism::testing::readFileText(E.path().string()),
                         E.path().filename().string());
    ASSERT_EQ(diagText(*F), "") << E.path();
    for (auto &Def : F->Defs) {
      auto *Fn = std::get_if<FunctionDef *>(&Def);
      if (!Fn)
        continue;
      ++Methods;
      auto W = whereNames(**Fn);
      auto CI = lowerMethod(**Fn, F->File, W);
      ASSERT_TRUE(bool(CI)) << E.path() << ": " << llvm::toString(CI.takeError());
      // Every statement has a source range inside the definition.
      for (const Stmt &S : (*CI)->Code) {
        EXPECT_TRUE(S.Range.valid()) << E.path();
        EXPECT_GE(S.Range.Begin, (*Fn)->Range.Begin);
        EXPECT_LE(S.Range.End, (*Fn)->Range.End);
      }
      EXPECT_EQ((*CI)->Code.back().K, StmtKind::Return);
    }
  }
  EXPECT_GE(Methods, 8u);
}

TEST(Lowering, SaxpyGolden) {
  EXPECT_EQ(lowered(prism::testing::exampleText("saxpy.jl")), R"(CodeInfo(
1 ─  %1 = Main.blockIdx()
│    %2 = Core.getfield(%1, :x)
│    %3 = Main.:-(%2, 1)
│    %4 = Main.blockDim()
│    %5 = Core.getfield(%4, :x)
│    %6 = Main.:*(%3, %5)
│    %7 = Main.threadIdx()
│    %8 = Core.getfield(%7, :x)
│    %9 = Main.:+(%6, %8)
│         i = %9
│   %11 = Main.length(y)
│   %12 = Main.:(<=)(i, %11)
└──       goto #3 if not %12
2 ─ %14 = Main.getindex(x, i)
│   %15 = Main.:*(a, %14)
│   %16 = Main.getindex(y, i)
│   %17 = Main.:+(%15, %16)
│   %18 = Main.setindex!(y, %17, i)
└──       goto #3
3 ─       return nothing
))");
}

TEST(Lowering, ReduceGolden) {
  EXPECT_EQ(lowered(prism::testing::exampleText("reduce.jl")), R"(CodeInfo(
 1 ─  %1 = Main.CuStaticSharedArray(Main.Float32, 256)
│          tmp = %1
│     %3 = Main.threadIdx()
│     %4 = Core.getfield(%3, :x)
│          t = %4
│     %6 = Main.blockIdx()
│     %7 = Core.getfield(%6, :x)
│     %8 = Main.:-(%7, 1)
│     %9 = Main.blockDim()
│    %10 = Core.getfield(%9, :x)
│    %11 = Main.:*(%8, %10)
│    %12 = Main.:+(%11, t)
│          i = %12
│    %14 = Main.length(x)
│    %15 = Main.:(<=)(i, %14)
└───       goto #3 if not %15
 2 ─ %17 = Main.getindex(x, i)
│          @_8 = %17
└───       goto #4
 3 ─       @_8 = 0.0f0
 4 ─ %21 = Main.setindex!(tmp, @_8, t)
│    %22 = Core.sync_threads()
│    %23 = Main.blockDim()
│    %24 = Core.getfield(%23, :x)
│    %25 = Main.:÷(%24, 2)
└───       s = %25
 5 ─ %27 = Main.:>(s, 0)
└───       goto #9 if not %27
 6 ─ %29 = Main.:(<=)(t, s)
└───       goto #8 if not %29
 7 ─ %31 = Main.getindex(tmp, t)
│    %32 = Main.:+(t, s)
│    %33 = Main.getindex(tmp, %32)
│    %34 = Main.:+(%31, %33)
│    %35 = Main.setindex!(tmp, %34, t)
└───       goto #8
 8 ─ %37 = Core.sync_threads()
│    %38 = Main.:÷(s, 2)
│          s = %38
└───       goto #5
 9 ─ %41 = Main.:(==)(t, 1)
└───       goto #11 if not %41
10 ─ %43 = Main.getindex(tmp, 1)
│    %44 = Main.blockIdx()
│    %45 = Core.getfield(%44, :x)
│    %46 = Main.setindex!(out, %43, %45)
└───       goto #11
11 ─       return nothing
))");
}


TEST(Lowering, ErrorsAreDiagnostics) {
  EXPECT_EQ(lowered("function f(x)\n  break\nend"), "2:3: `break` outside a loop\n");
  EXPECT_EQ(lowered("function f(x)\n  if x\n    continue\n  end\nend"),
            "3:5: `continue` outside a loop\n");
  // `p.x = 1` lowers to setfield!, which inference reports (InferTest).
  EXPECT_NE(
      lowered("function f(p)\n  p.x = 1\nend").find("setfield!(p, :x, 1)"),
      std::string::npos);
  EXPECT_NE(
      lowered("function f(p)\n  p.x += 1\nend").find("setfield!(p, :x, %"),
      std::string::npos);
  EXPECT_EQ(lowered("f(x::T) where {T} = (T = 1)"),
            "1:22: cannot assign to static parameter `T`\n");
  // Any other iterable goes through the prelude's protocol, evaluated once.
  EXPECT_NE(lowered("f(t) = for x in t\nend").find("Main.range_start(@_3)"),
            std::string::npos);
  EXPECT_EQ(lowered("f(x) = g(y = 1)"), "1:10: keyword arguments are not supported\n");
  // Several errors in one method are reported together.
  EXPECT_EQ(lowered("function f(x)\n  break\n  continue\nend"),
            "2:3: `break` outside a loop\n3:3: `continue` outside a loop\n");
}

TEST(Lowering, ArgumentAssignmentIsASlot) {
  EXPECT_EQ(lowered("function f(x)\n  x = x + 1\n  return x\nend"), R"(CodeInfo(
1 ─ %1 = Main.:+(x, 1)
│        x = %1
└──      return x
))");
}

TEST(Lowering, SlotsConstantsAndStaticParams) {
  auto CI = lowerOnly("function f(a::T, b) where {T}\n  c = 0x1f\n  d = 1.5f0\n"
                      "  c, e = (d, true)\n  return T\nend");
  ASSERT_TRUE(CI);
  std::vector<std::string> Names;
  for (auto &S : CI->Slots)
    Names.push_back(S.Name.string());
  EXPECT_EQ(Names, (std::vector<std::string>{"#self#", "a", "b", "c", "d", "e"}));
  EXPECT_EQ(CI->NumArgs, 2u);
  EXPECT_TRUE(CI->Slots[1].IsArgument);
  EXPECT_FALSE(CI->Slots[3].IsArgument);
  TypeContext &TC = TypeContext::get();
  const Stmt &C = CI->Code[0];
  ASSERT_EQ(C.K, StmtKind::Assign);
  EXPECT_EQ(C.Args[0].K, IRValue::Const);
  EXPECT_EQ(C.Args[0].C.Ty, TC.uint8());
  EXPECT_EQ(C.Args[0].C.str(), "0x1f");
  EXPECT_EQ(CI->Code[1].Args[0].C.Ty, TC.float32());
  EXPECT_EQ(CI->Code[1].Args[0].C.asDouble(), 1.5);
  EXPECT_EQ(CI->Code.back().K, StmtKind::Return);
  EXPECT_EQ(CI->Code.back().Args[0].K, IRValue::StaticParam);
  EXPECT_EQ(printLowered(*CI), R"(CodeInfo(
1 ─      c = 0x1f
│        d = 1.5f0
│   %3 = Core.tuple(d, true)
│   %4 = Core.getfield(%3, 1)
│        c = %4
│   %6 = Core.getfield(%3, 2)
│        e = %6
└──      return T
))");
}

TEST(Lowering, ForLoopWithBreakContinue) {
  EXPECT_EQ(
      lowered("function f(n)\n  s = 0\n  for i in 1:n\n    i == 2 && continue\n"
              "    i > 5 && break\n    s += i\n  end\n  s\nend"),
      R"(CodeInfo(
 1 ─       s = 0
│     %2 = Main.promote(1, n)
│     %3 = Core.getfield(%2, 1)
│          @_4 = %3
└───  %5 = Core.getfield(%2, 2)
 2 ─  %6 = Main.:(<=)(@_4, %5)
└───       goto #10 if not %6
 3 ─       i = @_4
│     %9 = Main.:(==)(i, 2)
└───       goto #5 if not %9
 4 ─       goto #8
 5 ─ %12 = Main.:>(i, 5)
└───       goto #7 if not %12
 6 ─       goto #10
 7 ─ %15 = Main.:+(s, i)
└───       s = %15
 8 ─ %17 = Main.:<(@_4, %5)
└───       goto #10 if not %17
 9 ─ %19 = Main.oftype(@_4, 1)
│    %20 = Main.:+(@_4, %19)
│          @_4 = %20
└───       goto #2
10 ─       return s
))");
}

// Julia's scopes: a loop body is a scope, so a name first assigned in it,
// and the loop variable, do not exist after the loop; a name the function
// assigns outside the loop is the same variable inside it.
TEST(Lowering, LoopBodiesAreScopes) {
  std::string L =
      lowered("function f(n)\n  s = 0\n  for i in 1:n\n"
              "    t = i\n    s = t\n  end\n  return i + t + s\nend");
  EXPECT_NE(L.find("Main.:+(Main.i, Main.t)"), std::string::npos) << L;
  EXPECT_NE(L.find("Main.:+(%"), std::string::npos) << L;
  EXPECT_NE(L.find(", s)"), std::string::npos) << L;
  // The loop variable is new even where the function has a local of that
  // name (Julia without `outer`): the outer `i` keeps its value.
  std::string O = lowered("function f(n)\n  i = 0\n  for i in 1:n\n"
                          "    g(i)\n  end\n  return i\nend");
  EXPECT_NE(O.find("i@_3 = 0"), std::string::npos) << O;
  EXPECT_NE(O.find("return i@_3"), std::string::npos) << O;
  EXPECT_NE(O.find("Main.g(i@_5)"), std::string::npos) << O;
}

// `x^p` with an integer literal p is Julia's literal_pow, so that `x^3` can
// multiply and `2^-1` can be `inv(2)`; any other power is a call of `^`.
TEST(Lowering, LiteralPowers) {
  std::string L = lowered("f(x) = x^-1");
  EXPECT_NE(L.find("Core.apply_type(Main.Val, -1)"), std::string::npos) << L;
  EXPECT_NE(L.find("Main.literal_pow(Main.:^, x, %2)"), std::string::npos) << L;
  std::string P = lowered("f(x, n) = x^n + x^2.0");
  EXPECT_EQ(P.find("literal_pow"), std::string::npos) << P;
}

// A loop body's own local is new in each iteration (Julia's NewvarNode,
// after the loop variable), unless every iteration assigns it before
// anything can read it.
TEST(Lowering, LoopLocalsAreNewInEachIteration) {
  std::string F = lowered("function f(n)\n  s = 0\n  for i in 1:n\n"
                          "    if i == 1\n      x = 10\n    end\n"
                          "    s += x\n  end\n  return s\nend");
  size_t Var = F.find("i = @_4"), New = F.find("Core.NewvarNode(:(x))");
  ASSERT_NE(New, std::string::npos) << F;
  EXPECT_LT(Var, New) << F;
  // `while` bodies too; `y` is read (`y += 1`) before it is assigned.
  std::string W = lowered("function f(n)\n  while n > 0\n    y += 1\n"
                          "    n -= 1\n  end\nend");
  EXPECT_NE(W.find("Core.NewvarNode(:(y))"), std::string::npos) << W;
  // Assigned first, at the body's top level (through `@inbounds` too):
  // no NewvarNode, as in Julia's lowering.
  for (const char *Body : {"    t = i * 2\n    s += t\n",
                           "    @inbounds t = a[i]\n    s += t\n"}) {
    std::string G = lowered(std::string("function g(a, n)\n  s = 0\n"
                                        "  for i in 1:n\n") +
                            Body + "  end\n  return s\nend");
    EXPECT_EQ(G.find("NewvarNode"), std::string::npos) << G;
  }
  // Mentioned before its assignment (inside an `if`): one is needed.
  std::string H = lowered("function h(n)\n  for i in 1:n\n"
                          "    if i > 1\n      g(t)\n    end\n    t = i\n"
                          "  end\nend");
  EXPECT_NE(H.find("Core.NewvarNode(:(t))"), std::string::npos) << H;
}

TEST(Lowering, SteppedForLoop) {
  // The step is checked first: a zero step is Julia's ArgumentError.
  EXPECT_EQ(lowered("function f(n)\n  for i in n:-1:1\n    g(i)\n  end\nend"),
            R"(CodeInfo(
1 ─  %1 = Main.steprange(n, -1, 1)
│    %2 = Main.range_start(%1)
└──       @_3 = %2
2 ─  %4 = Main.range_done(%1, @_3)
│    %5 = Main.:!(%4)
└──       goto #4 if not %5
3 ─  %7 = Main.range_value(%1, @_3)
│         i = %7
│    %9 = Main.g(i)
│   %10 = Main.range_next(%1, @_3)
│         @_3 = %10
└──       goto #2
4 ─       return nothing
))");
}

TEST(Lowering, ShortCircuitValuesAndReturnType) {
  EXPECT_EQ(lowered("f(a, b)::Bool = a < b || a == 0"), R"(CodeInfo(
1 ─ %1 = Main.:<(a, b)
└──      goto #3 if not %1
2 ─      @_4 = true
└──      goto #4
3 ─ %5 = Main.:(==)(a, 0)
└──      @_4 = %5
4 ─ %7 = Main.convert(Main.Bool, @_4)
└──      return %7
))");
}

TEST(Lowering, InboundsBoundscheckAndMisc) {
  auto CI = lowerOnly("function f(a, i)\n  @inbounds a[i] += 1\n  @boundscheck check(i)\n"
                      "  v = a.x::Int32\n  w = S{Float32}(v)\n  return\nend");
  ASSERT_TRUE(CI);
  unsigned InBounds = 0;
  for (const Stmt &S : CI->Code)
    InBounds += (S.Flags & SF_InBounds) != 0;
  EXPECT_EQ(InBounds, 3u); // getindex, +, setindex! and nothing else
  EXPECT_EQ(printLowered(*CI), R"(CodeInfo(
1 ─  %1 = Main.getindex(a, i)
│    %2 = Main.:+(%1, 1)
│    %3 = Main.setindex!(a, %2, i)
│    %4 = Core.boundscheck()
└──       goto #3 if not %4
2 ─  %6 = Main.check(i)
3 ─  %7 = Core.getfield(a, :x)
│    %8 = Core.typeassert(%7, Main.Int32)
│         v = %8
│   %10 = Core.apply_type(Main.S, Main.Float32)
│   %11 = (%10)(v)
│         w = %11
└──       return nothing
))");
}

// A chain is `&&`, and a condition's `&&` is jumps, as Julia lowers it:
// each test goes straight to the else branch (no Bool temporary tested
// again, which would hide what each test narrows).
TEST(Lowering, ComparisonChainAndTernaryValue) {
  EXPECT_EQ(lowered("f(a, b, c) = a < b <= c ? 1 : 2"), R"(CodeInfo(
1 ─ %1 = Main.:<(a, b)
└──      goto #4 if not %1
2 ─ %3 = Main.:(<=)(b, c)
└──      goto #4 if not %3
3 ─      @_5 = 1
└──      goto #5
4 ─      @_5 = 2
5 ─      return @_5
))");
  // A computed middle operand runs once, its value used by both calls
  // (Julia's expand-compare-chain); it ran twice.
  EXPECT_EQ(lowered("h(a, x) = 0 < g(a) < x ? 1 : 2"), R"(CodeInfo(
1 ─ %1 = Main.g(a)
│   %2 = Main.:<(0, %1)
└──      goto #4 if not %2
2 ─ %4 = Main.:<(%1, x)
└──      goto #4 if not %4
3 ─      @_4 = 1
└──      goto #5
4 ─      @_4 = 2
5 ─      return @_4
))");
  // `||`: a true left side jumps over the right one, into the body.
  EXPECT_EQ(lowered("g(a, b) = a || b ? 1 : 2"), R"(CodeInfo(
1 ─      goto #3 if not a
2 ─      goto #4
3 ─      goto #5 if not b
4 ─      @_4 = 1
└──      goto #6
5 ─      @_4 = 2
6 ─      return @_4
))");
}

TEST(Lowering, ConstValueBasics) {
  ConstValue A = literalConstant(LitType::Int32, uint64_t(-5) & 0xFFFFFFFF);
  EXPECT_EQ(A.asSigned(), -5);
  EXPECT_EQ(A.asDouble(), -5.0);
  EXPECT_EQ(A.str(), "-5");
  ConstValue B = literalConstant(LitType::UInt16, 0xFFFF);
  EXPECT_EQ(B.asDouble(), 65535.0);
  EXPECT_EQ(B.str(), "0xffff");
  EXPECT_TRUE(literalConstant(LitType::Float64, 0x3FF0000000000000ull) ==
              literalConstant(LitType::Float64, 0x3FF0000000000000ull));
  EXPECT_FALSE(literalConstant(LitType::Int64, 1) == literalConstant(LitType::Int32, 1));
  EXPECT_EQ(literalConstant(LitType::Float64, 0x3EE4F8B588E368F1ull).str(), "1.0e-5");
  EXPECT_EQ(literalConstant(LitType::Float16, 0x3C00).str(), "Float16(1.0)");
  EXPECT_EQ(literalConstant(LitType::Bool, 1).str(), "true");
  ConstValue S;
  S.K = ConstValue::Sym;
  S.Name = Symbol::get("x");
  EXPECT_EQ(S.str(), ":x");
  EXPECT_EQ(ConstValue().str(), "nothing");
}

} // namespace
