// The reference interpreter against results known from Julia's semantics
// (not against the compiled code: tests/diff/ does that).
#include "devices/CallRunner.h"
#include "interp/Interpreter.h"
#include "lang/Parser.h"
#include "types/Loader.h"

#include <gtest/gtest.h>

namespace prism {
namespace {

struct Program {
  std::unique_ptr<GlobalEnv> Env = std::make_unique<GlobalEnv>();
  std::unique_ptr<InferenceEngine> Engine;

  explicit Program(const std::string &Source) {
    EXPECT_FALSE(static_cast<bool>(loadPrelude(*Env)));
    auto Loaded = loadFile(*Env, parseFile(SourceFile::create("t.jl", Source)));
    EXPECT_TRUE(static_cast<bool>(Loaded));
    if (!Loaded)
      llvm::consumeError(Loaded.takeError());
    Engine = std::make_unique<InferenceEngine>(*Env);
  }

  RunOutcome run(const std::string &Call, Dim3 Grid = {}, Dim3 Block = {},
                 const char *Device = InterpDeviceName) {
    RunRequest R;
    R.Device = Device;
    R.Call = Call;
    R.Grid = Grid;
    R.Block = Block;
    return runCall(*Env, *Engine, R);
  }
  /// The returned value as text, or the first diagnostic's message.
  std::string value(const std::string &Call, const char *Device = InterpDeviceName) {
    RunOutcome O = run(Call, {}, {}, Device);
    if (!O.ok())
      return O.Diagnostics.empty() ? "?" : O.Diagnostics[0].Message;
    return O.Launch.Return.str();
  }
  /// Each call's value, the same on the interpreter and the host.
  void expectValues(
      std::initializer_list<std::pair<const char *, const char *>> Cases) {
    for (const char *Device : {InterpDeviceName, "host"})
      for (const auto &[Call, Value] : Cases)
        EXPECT_EQ(value(Call, Device), Value) << Call << " on " << Device;
  }
};

TEST(InterpreterTest, IntegersWrapAtTheirWidth) {
  Program P("f(x::Int8) = x + Int8(1)\n"
            "g(x::UInt16) = x * x\n"
            "h(x::Int64) = -x\n");
  EXPECT_EQ(P.value("f(Int8(127))"), "-128");
  EXPECT_EQ(P.value("g(UInt16(300))"), "0x5f90"); // 90000 mod 65536
  EXPECT_EQ(P.value("h(-9223372036854775807)"), "9223372036854775807");
}

// What the program generator found against Julia; the interpreter and the
// host agree on each (they share the lowering and the prelude).
TEST(InterpreterTest, RangesComparisonsAndConstructorsFollowJulia) {
  Program P("function s32(n::Int32)\n  s = Int32(0)\n  for i in Int32(1):n\n"
            "    s += i\n  end\n  return s\nend\n"
            "function tomax()\n  c = 0\n  for i in Int8(125):typemax(Int8)\n"
            "    c += 1\n  end\n  return c\nend\n"
            "function halves()\n  s = 0.0\n  for x in 1.0:2.5\n    s += x\n  end\n"
            "  return s\nend\n"
            "eq(x::Int64, y::Float64) = x == y\n"
            "lt(x::Int64, y::Float64) = y < x\n"
            "struct P\n  a::Int8\n  b::Float64\nend\n"
            "mk(x::Int64) = P(x, 2).b + P(x, 2).a\n"
            "function swaps(p::Int8)\n  v = Int8(0)\n  for i in 1:2\n"
            "    v, p = p, v\n  end\n  return p\nend\n");
  for (const char *Device : {InterpDeviceName, "host"}) {
    SCOPED_TRACE(Device);
    // An Int32 range counts in Int32: s stays an Int32 (wrapping at 2^31).
    EXPECT_EQ(P.value("s32(Int32(5))", Device), "15");
    EXPECT_EQ(P.value("s32(Int32(70000))", Device), "-1844932296");
    // A range that ends at typemax stops there instead of wrapping.
    EXPECT_EQ(P.value("tomax()", Device), "3");
    EXPECT_EQ(P.value("halves()", Device), "3.0");
    // 2^53 + 1 is not 2.0^53, although it rounds to it.
    EXPECT_EQ(P.value("eq(9007199254740993, 9007199254740992.0)", Device), "false");
    EXPECT_EQ(P.value("eq(9007199254740992, 9007199254740992.0)", Device), "true");
    EXPECT_EQ(P.value("lt(9007199254740993, 9007199254740992.0)", Device), "true");
    EXPECT_EQ(P.value("eq(9223372036854775807, 9.223372036854775807e18)", Device),
              "false");
    // Found by the generator: inference kept the first iteration's
    // Const(0) for `p` (the tuple's type widened, the slot state did not).
    EXPECT_EQ(P.value("swaps(Int8(24))", Device), "24");
    // The default constructor converts to the field types.
    EXPECT_EQ(P.value("mk(3)", Device), "5.0");
    EXPECT_NE(P.value("mk(300)", Device).find("InexactError"), std::string::npos);
  }
}

// Base compares a 32-bit integer with a Float32 (a 16-bit one with a
// Float16, a 64-bit one with a Float16) exactly, through a float that
// holds both, not after rounding the integer; isless of a float and an
// integer is `<`, as Base's isless(::AbstractFloat, ::Real).
TEST(InterpreterTest, NarrowIntegersCompareExactlyWithFloats) {
  Program P(
      "c32(a::Int32, b::Float32) = (a == b, a < b, b < a, a <= b, b <= a)\n"
      "cu32(a::UInt32, b::Float32) = (a == b, a < b, b < a)\n"
      "c16(a::Int16, b::Float16) = (a == b, a < b, b < a)\n"
      "c64(a::Int64, b::Float16) = (a == b, b < a)\n"
      "il(a::Float32, b::Int32) = (isless(a, b), isless(b, a), isequal(b, a))\n"
      "ilm(a::Float32, b::Float64) = (isless(a, b), isless(-0.0f0, 0.0))\n");
  for (const char *Device : {InterpDeviceName, "host"}) {
    SCOPED_TRACE(Device);
    // 16777217 rounds to 16777216f0, but is not equal to it.
    EXPECT_EQ(P.value("c32(Int32(16777217), 16777216f0)", Device),
              "(false, false, true, false, true)");
    EXPECT_EQ(P.value("c32(Int32(16777216), 16777216f0)", Device),
              "(true, false, false, true, true)");
    EXPECT_EQ(P.value("c32(Int32(2147483647), 2.1474836f9)", Device),
              "(false, true, false, true, false)");
    EXPECT_EQ(P.value("cu32(UInt32(16777217), 16777216f0)", Device),
              "(false, false, true)");
    EXPECT_EQ(P.value("c16(Int16(2049), Float16(2048))", Device),
              "(false, false, true)");
    EXPECT_EQ(P.value("c64(2049, Float16(2048))", Device), "(false, true)");
    EXPECT_EQ(P.value("il(16777216f0, Int32(16777217))", Device),
              "(true, false, false)");
    EXPECT_EQ(P.value("ilm(0.1f0, 0.1)", Device), "(false, true)");
  }
}

// Tuples order lexicographically (a prefix first), with `<` and `==` or
// isless and isequal; Bools shift as Ints; count_zeros.
TEST(InterpreterTest, TupleOrderBoolShiftsAndCountZeros) {
  Program P(
      "lt(a::Int, b::Int) = ((1, a) < (1, b), (1,) < (1, 0), (2,) < (1, 5),"
      " (a, 2) <= (a, 2), isless((1, NaN), (1, 2.0)), isless((1, 2.0), (1, "
      "NaN)))\n"
      "sh(b::Bool, n::Int) = (b << 1, n << b, b >>> 1, Int32(5) >> true)\n"
      "cz(x::UInt8) = count_zeros(x)\n");
  for (const char *Device : {InterpDeviceName, "host"}) {
    SCOPED_TRACE(Device);
    EXPECT_EQ(P.value("lt(2, 3)", Device),
              "(true, true, false, true, false, true)");
    EXPECT_EQ(P.value("sh(true, 3)", Device), "(2, 6, 0, 2)");
    EXPECT_EQ(P.value("cz(0x0f)", Device), "4");
  }
}

// `for x in it` beyond ranges: an array's elements, eachindex and axes
// (Base.OneTo), a tuple's elements, a number; the iterable is evaluated
// once, so reassigning it in the body does not change the walk.
TEST(InterpreterTest, ForWalksArraysTuplesAndIndexRanges) {
  Program P(
      "function s(a::DeviceArray{Float32,1})\n  t = 0f0\n  for x in a\n"
      "    t += x\n  end\n  return t\nend\n"
      "function e(a::DeviceArray{Float32,1})\n  t = 0f0\n"
      "  for i in eachindex(a)\n    t += i * a[i]\n  end\n  return t\nend\n"
      "function tu(n::Int)\n  t = 0\n  for x in (n, 2n, 3n)\n    t += x\n"
      "  end\n  return t\nend\n"
      "function nu(n::Int)\n  t = 0\n  for x in n\n    t += x\n  end\n"
      "  return t\nend\n"
      "function ax(a::DeviceArray{Float32,2})\n  c = 0\n  for j in axes(a, 2)\n"
      "    for i in axes(a, 1)\n      c += j\n    end\n  end\n  return c\nend\n"
      "function once(n::Int)\n  t = (1, 2, 3)\n  c = 0\n  for x in t\n"
      "    t = (0, 0, 0)\n    c += x\n  end\n  return c\nend\n");
  for (const char *Device : {InterpDeviceName, "host"}) {
    SCOPED_TRACE(Device);
    EXPECT_EQ(P.value("s(ones(Float32, 3))", Device), "3.0f0");
    EXPECT_EQ(P.value("e(ones(Float32, 3))", Device), "6.0f0");
    EXPECT_EQ(P.value("tu(2)", Device), "12");
    EXPECT_EQ(P.value("nu(5)", Device), "5");
    EXPECT_EQ(P.value("ax(ones(Float32, 2, 3))", Device), "12");
    EXPECT_EQ(P.value("once(0)", Device), "6");
  }
}

// `for (i, x) in enumerate(a)`, zip, and several loop variables in one
// `for`, where `break` leaves them all and `continue` goes to the next of
// the innermost, as in Julia.
TEST(InterpreterTest, ForDestructuresAndNestsAsJuliaDoes) {
  Program P(
      "function en(a::DeviceArray{Float32,1})\n  t = 0f0\n"
      "  for (i, x) in enumerate(a)\n    t += i * x\n  end\n  return t\nend\n"
      "function zz(a::DeviceArray{Float32,1}, b::DeviceArray{Float32,1})\n"
      "  t = 0f0\n  for (x, y) in zip(a, b)\n    t += x * y\n  end\n"
      "  return t\nend\n"
      "function nest(n::Int)\n  c = 0\n  for i in 1:n, j in 1:i\n"
      "    c += j\n  end\n  return c\nend\n"
      "function brk(n::Int)\n  c = 0\n  for i in 1:n, j in 1:n\n"
      "    if i * j > 6\n      break\n    end\n    c += 1\n  end\n"
      "  return c\nend\n"
      "function cont(n::Int)\n  c = 0\n  for i in 1:n, j in 1:n\n"
      "    j == 2 && continue\n    c += 10i + j\n  end\n  return c\nend\n"
      "function own(a::DeviceArray{Float32,1})\n  i = 7\n  x = 1\n"
      "  for (i, x) in enumerate(a)\n  end\n  return (i, x)\nend\n"
      "nanle() = ((NaN,) <= (NaN,), (1, NaN) <= (1, 2.0), (1, 2) <= (1, 2))\n"
      "zeq() = (isequal(0, -0.0), isequal(-0f0, Int32(0)), isequal(0, 0.0),"
      " isequal((0,), (-0.0,)))\n");
  for (const char *Device : {InterpDeviceName, "host"}) {
    SCOPED_TRACE(Device);
    EXPECT_EQ(P.value("en(ones(Float32, 4))", Device), "10.0f0");
    EXPECT_EQ(P.value("zz(ones(Float32, 3), ones(Float32, 5))", Device),
              "3.0f0");
    EXPECT_EQ(P.value("nest(3)", Device), "10");
    EXPECT_EQ(P.value("brk(4)", Device), "7");
    EXPECT_EQ(P.value("cont(3)", Device), "132");
    // The pattern's names are the loop's own, as a loop variable is.
    EXPECT_EQ(P.value("own(ones(Float32, 2))", Device), "(7, 1)");
    // Base's generic `<=` (`<` or `==`): NaN makes it false.
    EXPECT_EQ(P.value("nanle()", Device), "(false, false, true)");
    // isequal of an integer and a float tells -0.0 from 0.
    EXPECT_EQ(P.value("zeq()", Device), "(false, false, true, false)");
  }
}

TEST(InterpreterTest, DivisionThrowsAsJuliaDoes) {
  Program P("q(a::Int32, b::Int32) = div(a, b)\n"
            "r(a::Int64, b::Int64) = rem(a, b)\n"
            "m(a::Int64, b::Int64) = mod(a, b)\n");
  EXPECT_EQ(P.value("q(Int32(7), Int32(-2))"), "-3");
  EXPECT_EQ(P.value("r(-7, 2)"), "-1");
  EXPECT_EQ(P.value("m(-7, 2)"), "1");
  EXPECT_NE(P.value("q(Int32(1), Int32(0))").find("DivideError"), std::string::npos);
  EXPECT_NE(P.value("q(Int32(-2147483648), Int32(-1))").find("DivideError"),
            std::string::npos);
}

TEST(InterpreterTest, ShiftsSaturateAtTheWidth) {
  Program P("s(x::Int8, n::Int64) = x >> n\n"
            "l(x::UInt32, n::Int64) = x << n\n");
  EXPECT_EQ(P.value("s(Int8(-64), 3)"), "-8");
  EXPECT_EQ(P.value("s(Int8(-64), 100)"), "-1");
  EXPECT_EQ(P.value("l(UInt32(1), 31)"), "0x80000000");
  EXPECT_EQ(P.value("l(UInt32(1), 32)"), "0x00000000");
  EXPECT_EQ(P.value("l(UInt32(8), -2)"), "0x00000002");
}

TEST(InterpreterTest, FloatsRoundAtTheirOwnPrecision) {
  Program P("a(x::Float32, y::Float32) = x + y\n"
            "h(x::Float16, y::Float16) = x * y\n"
            "n(x::Float64) = x != x\n"
            "c(x::Float64) = Int32(x)\n");
  EXPECT_EQ(P.value("a(16777216.0f0, 1.0f0)"), "1.6777216f7"); // 2^24 + 1 rounds
  EXPECT_EQ(P.value("h(Float16(0.1), Float16(3.0))"), "Float16(0.2998)");
  EXPECT_EQ(P.value("n(0.0)"), "false");
  EXPECT_EQ(P.value("c(3.0)"), "3");
  EXPECT_NE(P.value("c(3.5)").find("InexactError"), std::string::npos);
  EXPECT_NE(P.value("c(1.0e10)").find("InexactError"), std::string::npos);
}

TEST(InterpreterTest, StructsTuplesAndDispatch) {
  Program P("struct P2\n x::Int64\n y::Float64\nend\n"
            "k(a::Int64) = 1\nk(a::Float64) = 2\n"
            "f(p::P2) = (k(p.x) + k(p.y), p.x * 2, (p.y, p.x)[2])\n"
            "g(x::Int64) = f(P2(x, 1.5))\n");
  EXPECT_EQ(P.value("g(21)"), "(3, 42, 21)");
}

TEST(InterpreterTest, RecursionAndLoops) {
  Program P("fib(n::Int64) = n < 2 ? n : fib(n - 1) + fib(n - 2)\n"
            "function s(n::Int64)\n t = 0\n for i in 1:n\n"
            "  i == 3 && continue\n  i > 7 && break\n  t += i\n end\n return t\nend\n"
            "deep(n::Int64) = n == 0 ? 0 : 1 + deep(n - 1)\n");
  EXPECT_EQ(P.value("fib(15)"), "610");
  EXPECT_EQ(P.value("s(100)"), "25"); // 1+2+4+5+6+7
  EXPECT_EQ(P.value("deep(100)"), "100");
  // Far deeper than the interpreter's stack: an exception, not a crash.
  EXPECT_NE(P.value("deep(1000000)").find("StackOverflowError"), std::string::npos);
}

TEST(InterpreterTest, KernelsRunEveryThreadAndReadArraysBack) {
  Program P("function k!(a::DeviceArray{Float32,1}, x::Float32)\n"
            " i = (blockIdx().x - 1) * blockDim().x + threadIdx().x\n"
            " if i <= length(a)\n  a[i] = a[i] * x + i\n end\n return nothing\nend\n");
  RunOutcome O = P.run("k!(ones(Float32, 10), 2.0f0)", {3, 1, 1}, {4, 1, 1});
  ASSERT_TRUE(O.ok()) << (O.Diagnostics.empty() ? "" : O.Diagnostics[0].Message);
  ASSERT_EQ(O.Launch.Args.size(), 2u);
  EXPECT_EQ(O.Launch.Args[0].str(),
            "Float32[3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0]");
}

TEST(InterpreterTest, BarriersOrderSharedMemory) {
  // Each thread writes its slot, then reads its neighbour's: correct only
  // if every write happened before any read.
  Program P("function rot!(out::DeviceArray{Int32,1})\n"
            " s = CuStaticSharedArray(Int32, 8)\n i = threadIdx().x\n"
            " s[i] = Int32(i * 10)\n sync_threads()\n"
            " out[i] = s[i % 8 + 1]\n return nothing\nend\n");
  RunOutcome O = P.run("rot!(zeros(Int32, 8))", {}, {8, 1, 1});
  ASSERT_TRUE(O.ok()) << (O.Diagnostics.empty() ? "" : O.Diagnostics[0].Message);
  EXPECT_EQ(O.Launch.Args[0].str(), "Int32[20, 30, 40, 50, 60, 70, 80, 10]");
}

// Every CuStaticSharedArray call site is its own array, though they all run
// the prelude's one shared_array: two of one type and size (a tiled
// matmul's As and Bs), and one in a @noinline helper, do not alias. The
// helper allocates itself (CuStaticSharedArray inlines into it), so each
// of its call sites is an array of its own, as the compiled code copies
// it per site. The host agrees.
TEST(InterpreterTest, EachSharedArrayCallSiteIsItsOwnArray) {
  Program P(
      "@noinline function slot(t, x, write::Bool)\n"
      " c = CuStaticSharedArray(Float32, 4)\n"
      " if write\n  c[t] = x\n end\n return c[t]\nend\n"
      "function two!(out::DeviceArray{Float32,1})\n"
      " a = CuStaticSharedArray(Float32, 4)\n"
      " b = CuStaticSharedArray(Float32, 4)\n t = threadIdx().x\n"
      " a[t] = 1f0\n b[t] = 2f0\n sync_threads()\n"
      " slot(t, Float32(t + 4), t > 0)\n"
      " out[t] = a[t] + 10f0 * b[t] + 100f0 * slot(t, Float32(t), t < 0) + "
      "1000f0 * a[t]\n"
      " return nothing\nend\n");
  for (const char *Device : {InterpDeviceName, "host"}) {
    RunOutcome O = P.run("two!(zeros(Float32, 4))", {}, {4, 1, 1}, Device);
    ASSERT_TRUE(O.ok()) << Device << ": "
                        << (O.Diagnostics.empty() ? ""
                                                  : O.Diagnostics[0].Message);
    EXPECT_EQ(O.Launch.Args[0].str(), "Float32[1021.0, 1021.0, 1021.0, 1021.0]")
        << Device;
  }
}

// CUDA's rule: a barrier under a branch only where the branch goes the same
// way in the whole block. The interpreter stops at one that some threads
// skip, or that threads reach at different sync_threads() calls.
TEST(InterpreterTest, ABarrierSomeThreadsSkipFailsTheLaunch) {
  Program P("function skip!(a::DeviceArray{Float32,1})\n"
            " t = threadIdx().x\n if t <= 2\n  sync_threads()\n end\n"
            " a[t] = 1.0f0\n return nothing\nend\n"
            "function two!(a::DeviceArray{Float32,1})\n"
            " t = threadIdx().x\n if t <= 2\n  sync_threads()\n else\n"
            "  sync_threads()\n end\n a[t] = 1.0f0\n return nothing\nend\n");
  RunOutcome O = P.run("skip!(zeros(Float32, 4))", {}, {4, 1, 1});
  ASSERT_FALSE(O.ok());
  const Diagnostic &D = O.Diagnostics[0];
  EXPECT_NE(D.Message.find("sync_threads() not reached by every thread of the "
                           "block: thread (3, 1, 1) returned without it"),
            std::string::npos)
      << D.Message;
  EXPECT_EQ(D.Loc.Line, 4u);
  EXPECT_EQ(D.Loc.Col, 3u);
  ASSERT_FALSE(D.Notes.empty());
  EXPECT_NE(D.Notes[0].Message.find("CUDA's rule"), std::string::npos);

  O = P.run("two!(zeros(Float32, 4))", {}, {4, 1, 1});
  ASSERT_FALSE(O.ok());
  EXPECT_NE(O.Diagnostics[0].Message.find(
                "thread (3, 1, 1) waits at another sync_threads()"),
            std::string::npos)
      << O.Diagnostics[0].Message;

  // All threads at one barrier, each time: fine, however many rounds.
  O = P.run("skip!(zeros(Float32, 2))", {}, {2, 1, 1});
  EXPECT_TRUE(O.ok()) << (O.Diagnostics.empty() ? ""
                                                : O.Diagnostics[0].Message);
}

TEST(InterpreterTest, ExceptionsAreLocatedInTheUsersCode) {
  Program P("function get(a::DeviceArray{Float32,1}, i::Int64)\n"
            " return a[i]\nend\n");
  RunOutcome O = P.run("get(ones(Float32, 4), 5)");
  ASSERT_FALSE(O.ok());
  EXPECT_EQ(O.Diagnostics[0].Message.rfind("BoundsError at t.jl:2", 0), 0u)
      << O.Diagnostics[0].Message;
  EXPECT_EQ(O.Diagnostics[0].Loc.Line, 2u);
}

TEST(InterpreterTest, IslessIsBasesTotalOrderAndMaxFallsBackOnIt) {
  // Julia's values: NaN after every number, -0.0 before 0.0, mixed types
  // promoted; max/min/minmax of a struct use its isless.
  Program P("struct P\n    v::Float64\nend\n"
            "Base.isless(a::P, b::P) = isless(a.v, b.v)\n"
            "bigger(a::P, b::P) = max(a, b).v\n"
            "smaller(a::P, b::P) = min(a, b).v\n"
            "lt(x::Float64, y::Float64) = isless(x, y)\n"
            "lt32(x::Float32, y::Float32) = isless(x, y)\n"
            "ltmix(x::Int64, y::Float64) = isless(x, y)\n"
            "lti(x::Int64, y::UInt8) = isless(x, y)\n"
            "mm(x::Int64, y::Int64) = minmax(x, y)\n"
            "mf(x::Float64, y::Float64) = minmax(x, y)\n");
  P.expectValues({
      {"bigger(P(1.0), P(2.5))", "2.5"},
      {"smaller(P(1.0), P(2.5))", "1.0"},
      {"lt(NaN, 1.0)", "false"},
      {"lt(1.0, NaN)", "true"},
      {"lt(NaN, NaN)", "false"},
      {"lt(-0.0, 0.0)", "true"},
      {"lt(0.0, -0.0)", "false"},
      {"lt(-Inf, NaN)", "true"},
      {"lt32(-0f0, 0f0)", "true"},
      {"ltmix(1, NaN)", "true"},
      {"ltmix(2, 1.5)", "false"},
      {"lti(-1, 0x01)", "true"},
      {"mm(3, 1)", "(1, 3)"},
      {"mf(NaN, 1.0)", "(NaN, NaN)"},
      {"mf(2.0, -1.0)", "(-1.0, 2.0)"},
  });
}

TEST(InterpreterTest, MixedSignDivisionAndIntegerFmaAreBases) {
  // Julia's `mod(x::Signed, y::Unsigned) = rem(y + unsigned(rem(x, y)), y)`:
  // the result has rem's (promoted) type. div, rem, fld and cld divide the
  // magnitudes and put the sign back (promoting -7 to UInt64 threw an
  // InexactError). An integer fma is exact; it recursed through the
  // promoting fallback.
  Program P("m1(x::Int64, y::UInt8) = mod(x, y)\n"
            "m2(x::UInt8, y::Int64) = mod(x, y)\n"
            "q(x, y) = (div(x, y), rem(x, y), fld(x, y), cld(x, y))\n"
            "f1(x::Int64) = fma(x, 2, 3)\n"
            "f2(x::Int32) = fma(x, Int32(2), 0x03)\n");
  P.expectValues({
      {"m1(-7, 0x03)", "0x0000000000000002"},
      {"m1(7, 0x03)", "0x0000000000000001"},
      {"m2(0x07, -3)", "-2"},
      {"m2(0x07, 3)", "1"},
      {"q(-7, UInt64(3))", "(-2, -1, -3, -2)"},
      {"q(7, UInt64(2))", "(3, 1, 3, 4)"},
      {"q(Int8(-7), 0x03)", "(-2, -1, -3, -2)"},
      {"q(0x07, Int8(-3))", "(0xfe, 0x01, 0xfd, 0xfe)"},
      {"f1(3)", "9"},
      {"f2(Int32(-3))", "-3"},
  });
}

TEST(InterpreterTest, MuladdFusesAsTheCompiledTargetsDo) {
  // a*a is 1 + 2^-26 + 2^-54 exactly; rounded first, the sum is 0.0.
  // The host fuses only on a CPU with FMA, so only the interp is checked.
  Program P("ma(a::Float64, c::Float64) = (muladd(a, a, c), a * a + c, fma(a, "
            "a, c))\n");
  EXPECT_EQ(P.value("ma(1.0000000074505806, -1.0000000149011612)"),
            "(5.551115123125783e-17, 0.0, 5.551115123125783e-17)");
}

TEST(InterpreterTest, FloatEdgeCasesFollowJulia) {
  // A reviewer's findings: ±Inf is an even exponent and NaN gives NaN, not a
  // DomainError; an odd integer exponent above maxintfloat keeps the sign;
  // -Inf16 does not fit Int32 (typemin(Int32) is -Inf16); clamp compares,
  // so -0.0 stays; isequal on tuples is element-wise isequal.
  Program P("pf(x::Float64, y::Float64) = x^y\n"
            "pf32(x::Float32, y::Float32) = x^y\n"
            "pi(x::Float64, n::Int64) = x^n\n"
            "pi32(x::Float32, n::Int64) = x^n\n"
            "t16(x::Float16) = trunc(Int32, x)\n"
            "cl(x::Float64) = clamp(x, 0.0, 1.0)\n"
            "cli(x::Int64) = clamp(x, 0x01, 3.0f0)\n"
            "eqn() = (isequal((NaN, 1), (NaN, 1)), isequal((0.0,), (-0.0,)), (NaN,) == (NaN,))\n");
  P.expectValues({
      {"pf(-2.0, Inf)", "Inf"},
      {"pf(-0.5, -Inf)", "Inf"},
      {"pf(-2.0, NaN)", "NaN"},
      {"pf32(-2.0f0, Inf32)", "Inf32"},
      {"pf(-2.0, 0.5)", "DomainError at t.jl:1 in `pf`"},
      {"pi(-1.0, 9007199254740993)", "-1.0"},
      {"pi(-2.0, 3)", "-8.0"},
      {"pi32(-1.0f0, 16777217)", "-1.0f0"},
      {"t16(-Inf16)", "InexactError at t.jl:5 in `t16`"},
      {"t16(Float16(-1000.5))", "-1000"},
      {"cl(-0.0)", "-0.0"},
      {"cl(NaN)", "NaN"},
      {"cl(7.0)", "1.0"},
      {"cli(-5)", "1.0f0"},
      {"eqn()", "(true, false, false)"},
  });
}

TEST(InterpreterTest, ShowErrorTextIsJuliasAndTheSameOnTheHost) {
  // What Julia's showerror prints, with the values of the throwing thread:
  // the interpreter reads them from the exception, the host device's
  // compiled code passes them to prism_throw_detail.
  Program P("get(a::DeviceArray{Float32,1}, i::Int64) = a[i]\n"
            "get2(a::DeviceArray{Int32,2}, i::Int64, j::Int64) = a[i, j]\n"
            "getu(a::DeviceArray{Float32,1}, i::UInt8) = a[i]\n"
            "dim(a::DeviceArray{Float32,1}, d::Int64) = size(a, d)\n"
            "narrow(x::Float32) = Int16(x)\n"
            "wide(x::Int64) = UInt8(x)\n"
            "half(x::Int64) = x ÷ 0\n"
            "asint(x::Float64) = (x::Int64) + 1\n"
            "tget(t::NTuple{3,Int64}, i::Int64) = t[i]\n"
            "tget4(t::NTuple{4,Float32}, i::Int64) = t[i]\n");
  auto Note = [&](const std::string &Call, const char *Device) {
    RunOutcome O = P.run(Call, {}, {}, Device);
    if (O.ok() || O.Diagnostics.empty())
      return std::string("(no error)");
    const Diagnostic &D = O.Diagnostics[0];
    return D.Notes.empty() ? std::string("(no note)") : D.Notes[0].Message;
  };
  auto Where = [&](const std::string &Call, const char *Device) {
    RunOutcome O = P.run(Call, {}, {}, Device);
    if (O.ok() || O.Diagnostics.empty())
      return std::string("(no error)");
    const DiagLoc &L = O.Diagnostics[0].Loc;
    return std::to_string(L.Line) + ":" + std::to_string(L.Col);
  };
  for (const char *Device : {InterpDeviceName, "host"}) {
    SCOPED_TRACE(Device);
    EXPECT_EQ(
        Note("get(ones(Float32, 4), 5)", Device),
        "BoundsError: attempt to access 4-element DeviceArray{Float32, 1} "
        "at index [5]");
    EXPECT_EQ(
        Note("get(ones(Float32, 4), -1)", Device),
        "BoundsError: attempt to access 4-element DeviceArray{Float32, 1} "
        "at index [-1]");
    EXPECT_EQ(Note("get2(zeros(Int32, 3, 2), 1, 3)", Device),
              "BoundsError: attempt to access 3×2 DeviceArray{Int32, 2} "
              "at index [1, 3]");
    EXPECT_EQ(
        Note("getu(ones(Float32, 4), UInt8(9))", Device),
        "BoundsError: attempt to access 4-element DeviceArray{Float32, 1} "
        "at index [0x09]");
    EXPECT_EQ(Note("dim(ones(Float32, 4), 0)", Device),
              "BoundsError: attempt to access Tuple{Int64} at index [0]");
    // showerror prints the value (`print`): no `f0`, an index is shown.
    EXPECT_EQ(Note("narrow(1.0f5)", Device), "InexactError: Int16(100000.0)");
    EXPECT_EQ(Note("wide(-1)", Device), "InexactError: trunc(UInt8, -1)");
    // The column of the access that threw, not of its statement.
    EXPECT_EQ(Where("get(ones(Float32, 4), 5)", Device), "1:44");
    EXPECT_EQ(Where("get2(zeros(Int32, 3, 2), 1, 3)", Device), "2:53");
    // No values: Julia's fixed text.
    EXPECT_EQ(Note("half(1)", Device), "DivideError: integer division error");
    EXPECT_EQ(Note("asint(1.5)", Device),
              "TypeError: in typeassert, expected Int64, got a value of type "
              "Float64");
    EXPECT_EQ(Note("tget((1, 2, 3), 4)", Device),
              "BoundsError: attempt to access Tuple{Int64, Int64, Int64} at "
              "index [4]");
    EXPECT_EQ(Note("tget4((1f0, 2f0, 3f0, 4f0), 0)", Device),
              "BoundsError: attempt to access NTuple{4, Float32} at index [0]");
  }
}

TEST(InterpreterTest, AThrowListsItsCallsAsJuliasStacktraceDoes) {
  // Julia names the function the throw's line is in and lists every call
  // that led there, prelude frames first. The host walks compiled code's
  // frames (calls that were not inlined) and reads each one's inlined
  // frames from the line table; a sync_threads kernel runs on fibers.
  Program P("@noinline function inner(x::Float64)\n" // 1
            "    return Int32(x)\n"                  // 2
            "end\n"
            "@noinline function middle(x::Float64)\n" // 4
            "    return inner(x) + Int32(1)\n"        // 5
            "end\n"
            "function outer(x::Float64)\n" // 7
            "    return middle(x * 2.0)\n" // 8
            "end\n"
            "function synced!(a::DeviceArray{Float64,1})\n" // 10
            "    sync_threads()\n"
            "    a[1] = middle(a[threadIdx().x])\n" // 12
            "    return nothing\n"
            "end\n");
  struct Case {
    const char *Call;
    Dim3 Block;
    const char *Outer;
    unsigned OuterLine;
  };
  for (const Case &C :
       {Case{"outer(1.5e10)", {}, "outer", 8},
        Case{"synced!(fill(3e10, 4))", {4, 1, 1}, "synced!", 12}})
    for (const char *Device : {InterpDeviceName, "host"}) {
      SCOPED_TRACE(std::string(Device) + " " + C.Call);
      RunOutcome O = P.run(C.Call, {}, C.Block, Device);
      ASSERT_FALSE(O.ok());
      const Diagnostic &D = O.Diagnostics[0];
      EXPECT_NE(D.Message.find("InexactError at t.jl:2"), std::string::npos)
          << D.Message;
      EXPECT_NE(D.Message.find("in `inner`"), std::string::npos) << D.Message;
      ASSERT_FALSE(D.Backtrace.empty());
      EXPECT_EQ(D.Backtrace.front().Loc.FileName.rfind("prelude/", 0), 0u)
          << D.Backtrace.front().Loc.FileName;
      std::vector<std::string> User;
      for (const BacktraceFrame &F : D.Backtrace)
        if (F.Loc.FileName.rfind("prelude/", 0) != 0)
          User.push_back(F.Function + ":" + std::to_string(F.Loc.Line));
      EXPECT_EQ(User,
                (std::vector<std::string>{"inner:2", "middle:5",
                                          C.Outer + std::string(":") +
                                              std::to_string(C.OuterLine)}));
      // Neither @noinline callee was inlined, and the outermost call is
      // the user's, not the launch wrapper's.
      for (const BacktraceFrame &F : D.Backtrace) {
        if (F.Loc.FileName.rfind("prelude/", 0) != 0) {
          EXPECT_FALSE(F.Inlined) << F.Function;
        }
      }
      std::string Text = renderDiagnostic(D, {false, false});
      EXPECT_NE(Text.find("Stacktrace:\n [1] "), std::string::npos) << Text;
    }
}

TEST(InterpreterTest, AThrowsLineNamesItsFunctionForDevicesWithoutFrames) {
  // cuda reports a throw's file and line only; the function named is the
  // one whose definition spans that line.
  Program P("@noinline function inner(x::Float64)\n" // 1
            "    return Int32(x)\n"                  // 2
            "end\n"                                  // 3
            "outer(x::Float64) = inner(x)\n"         // 4
            "\n");
  EXPECT_EQ(functionAtLine(*P.Env, "t.jl", 1), "inner");
  EXPECT_EQ(functionAtLine(*P.Env, "t.jl", 2), "inner");
  EXPECT_EQ(functionAtLine(*P.Env, "t.jl", 3), "inner");
  EXPECT_EQ(functionAtLine(*P.Env, "t.jl", 4), "outer");
  EXPECT_EQ(functionAtLine(*P.Env, "t.jl", 5), "");
  EXPECT_EQ(functionAtLine(*P.Env, "other.jl", 2), "");
  // Prelude lines are never the user's function.
  EXPECT_EQ(functionAtLine(*P.Env, "prelude/50_convert.jl", 88), "");
}

TEST(InterpreterTest, InboundsOutOfRangeIsAFaultNotACrash) {
  Program P("function get(a::DeviceArray{Float32,1}, i::Int64)\n"
            " @inbounds return a[i]\nend\n");
  auto Fault = [&](const char *Call) {
    RunOutcome O = P.run(Call);
    EXPECT_FALSE(O.ok()) << Call;
    return O.Diagnostics.empty() ? std::string() : O.Diagnostics[0].Message;
  };
  auto Has = [](const std::string &S, const char *Part) {
    return S.find(Part) != std::string::npos;
  };
  std::string M = Fault("get(ones(Float32, 4), 1000000)");
  EXPECT_TRUE(Has(M, "out-of-bounds access to index 1000000 of argument 1 "
                     "`a`, which has 4 elements"))
      << M;
  M = Fault("get(ones(Float32, 4), 0)");
  EXPECT_TRUE(Has(M, "index 0 of argument 1 `a`, which has 4 elements")) << M;
  M = Fault("get(ones(Float32, 4), 35184372088832)");
  EXPECT_TRUE(Has(M, "invalid memory access: address 0x")) << M;
  EXPECT_TRUE(Has(M, "is outside every array of the launch")) << M;

  // One past the end faults even when the host allocator placed another
  // array right after this one: every array has its own address range.
  Program Q(
      "function over!(a::DeviceArray{Float32,1}, b::DeviceArray{Float32,1})\n"
      " t = threadIdx().x\n @inbounds a[t] = b[t + 1]\n return nothing\nend\n"
      "function get2(a::DeviceArray{Int32,2}, i::Int64)\n"
      " @inbounds return a[i]\nend\n");
  RunOutcome O =
      Q.run("over!(zeros(Float32, 4), ones(Float32, 4))", {1, 1, 1}, {4, 1, 1});
  ASSERT_FALSE(O.ok());
  EXPECT_TRUE(Has(O.Diagnostics[0].Message,
                  "index 5 of argument 2 `b`, which has 4 elements"))
      << O.Diagnostics[0].Message;
  O = Q.run("get2(zeros(Int32, 3, 2), 7)");
  ASSERT_FALSE(O.ok());
  EXPECT_TRUE(Has(O.Diagnostics[0].Message,
                  "linear index 7 of argument 1 `a`, a 3×2 array, which has "
                  "6 elements"))
      << O.Diagnostics[0].Message;
}

// Julia's lowering: `f(a, b = 1, c = b + a)` is three methods, the shorter
// ones calling the next with the default evaluated in their own scope.
TEST(InterpreterTest, OptionalArgumentsAreForwardingMethods) {
  Program P("f(a, b = 1, c = b + a) = (a, b, c)\n"
            "g(x::T, y::T = zero(T)) where {T} = x * y + x\n"
            "h(::Int32, n = 2) = n\n"
            "struct Pt\n  x::Int\n  y::Int\nend\n"
            "Pt(x) = Pt(x, 0)\n"
            "k(p = Pt(3)) = p.x + p.y\n");
  P.expectValues({{"f(1)", "(1, 1, 2)"},
                  {"f(1, 5)", "(1, 5, 6)"},
                  {"f(1, 5, 0)", "(1, 5, 0)"},
                  {"g(3)", "3"},
                  {"g(2.5)", "2.5"},
                  {"g(2, 5)", "12"},
                  {"h(Int32(1))", "2"},
                  {"k()", "3"}});
  GenericFunction *F = P.Env->lookupFunction(Symbol::get("f"));
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(F->methodsIn(P.Env->currentWorld()).size(), 3u);
}

// Base's functions added to the prelude: the C library's (the same call on
// both devices), Base's own algorithms (eps, nextfloat, hypot) and LLVM's
// bswap and bitreverse.
TEST(InterpreterTest, MoreOfBaseFollowsJulia) {
  Program P("t(x) = (tanh(x), sinh(x), cosh(x), expm1(x))\n"
            "a(x) = (asin(x), acos(x), log1p(x))\n"
            "e(x) = (eps(x), nextfloat(x), prevfloat(x))\n"
            "b(x) = (bswap(x), bitreverse(x), ntoh(x), leading_ones(x), "
            "trailing_ones(x))\n"
            "m(x) = (x in (1, 2.0, 3), x ∈ (5,), in(x, (1, x)), x ∉ (1, 2), "
            "x in ())\n"
            "ma(a, x) = (x in a, x ∉ a)\n"
            "vd(::Val{N}) where {N} = N\n"
            "v() = vd(Val(3))\n");
  P.expectValues(
      {{"t(2)", "(0.9640275800758169, 3.626860407847019, 3.7621956910836314, "
                "6.38905609893065)"},
       {"t(0.5f0)", "(0.46211717f0, 0.5210953f0, 1.127626f0, 0.6487213f0)"},
       {"cbrt(-27.0)", "-3.0"},
       {"cbrt(8f0)", "2.0f0"},
       {"cbrt(2.0)", "1.2599210498948732"},
       {"cbrt(1.37000501f0)", "1.1106418f0"}, // cbrtf says 1.110642f0
       {"a(0.5)", "(0.5235987755982989, 1.0471975511965979, "
                  "0.4054651081081644)"},
       {"hypot(3, 4)", "5.0"},
       {"hypot(1e300, 1e300)", "1.4142135623730952e300"},
       {"hypot(1e-310, 1e-310)", "1.4142135623731e-310"},
       {"hypot(1f0, 2)", "2.236068f0"},
       {"hypot(Inf, NaN)", "Inf"},
       {"hypot(NaN, 1.0)", "NaN"},
       {"e(1.0)", "(2.220446049250313e-16, 1.0000000000000002, "
                  "0.9999999999999999)"},
       {"e(-0.0)", "(5.0e-324, 5.0e-324, -5.0e-324)"},
       {"e(Inf)", "(NaN, Inf, 1.7976931348623157e308)"},
       {"e(-Inf)", "(NaN, -1.7976931348623157e308, -Inf)"},
       {"e(Float16(1))",
        "(Float16(0.000977), Float16(1.001), Float16(0.9995))"},
       {"b(0x1234)", "(0x3412, 0x2c48, 0x3412, 0, 0)"},
       {"b(Int32(1))", "(16777216, -2147483648, 16777216, 0, 1)"},
       {"b(0x0f)", "(0x0f, 0xf0, 0x0f, 0, 4)"},
       {"m(2)", "(true, false, true, false, false)"},
       {"m(1.5)", "(false, false, true, true, false)"},
       {"ma(Int32[1, 2], 2)", "(true, false)"},
       {"ma(Float32[1, 2], 3)", "(false, true)"},
       {"v()", "3"}});
  // Julia's DomainError messages; a Float16 computes in Float32.
  for (const char *Device : {InterpDeviceName, "host"}) {
    RunOutcome O = P.run("a(2.0)", {}, {}, Device);
    ASSERT_FALSE(O.ok());
    std::string All;
    for (const Diagnostic &D : O.Diagnostics)
      for (const auto &N : D.Notes)
        All += N.Message + "\n";
    EXPECT_NE(All.find("asin(x) is not defined for |x| > 1."),
              std::string::npos)
        << All;
  }
}

// What a review found against Julia 1.10 on x86-64: the NaN of 0/0 is the
// negative default NaN, `π^n` squares the Float64 (Base's Number method),
// a constant `1^-5` is 1, and sin, cos, tan and the logarithms of a Float32
// compute in Float64 (glibc's sinf and log10f were an ulp off), log10 of a
// Float64 in extended precision (glibc's was 1.5 ulp off).
TEST(InterpreterTest, NaNSignsPowersAndLogarithmsFollowJulia) {
  Program P("sbn(x, y) = signbit(x / y)\n"
            "nb(x, y) = reinterpret(UInt64, x - y)\n"
            "p4() = π^4\n"
            "pn(n) = π^n\n"
            "neg() = (π^-2, ℯ^-1, ℯ^2)\n"
            "const K1 = 1^-5\nconst K2 = (-1)^-3\n"
            "const K3 = π^4\nconst K4 = π^-2\n"
            "k() = (K1, K2, K3, K4)\n"
            "l10(x) = log10(x)\n"
            "sn(x) = sin(x)\n");
  P.expectValues(
      {{"sbn(0.0, 0.0)", "true"},
       {"nb(Inf, Inf)", "0xfff8000000000000"},
       {"nb(NaN, 1.0)", "0x7ff8000000000000"},
       {"p4()", "97.40909103400243"},
       {"pn(8)", "9488.531016070572"},
       {"neg()", "(0.10132118364233779, 0.36787944117144233, "
                 "7.38905609893065)"},
       {"l10(0.5914571516914465)", "-0.22807671250351852"},
       {"l10(0.5928533f0)", "-0.22705275f0"},
       {"sn(0.24424285f0)", "0.2418217f0"},
       // A negative literal power of an integer is a Float64
       // (Base's literal_pow), so 1^-5 is 1.0.
       {"k()", "(1.0, -1.0, 97.40909103400243, 0.10132118364233779)"}});
  std::string E = P.value("pn(-1)");
  EXPECT_NE(E.find("DomainError"), std::string::npos) << E;
}

// `@propagate_inbounds`: an @inbounds call reaches the accesses inside;
// without @inbounds they are checked.
TEST(InterpreterTest, PropagateInboundsCarriesTheCallersPromise) {
  Program P("Base.@propagate_inbounds getp(a, i) = a[i]\n"
            "function k(a)\n  @inbounds return getp(a, 3)\nend\n"
            "k2(a) = getp(a, 3)\n");
  EXPECT_NE(P.value("k2(Float32[1, 2])", "host").find("BoundsError"),
            std::string::npos);
  // Unchecked: the interpreter's memory check reports the read instead.
  std::string V = P.value("k(Float32[1, 2])");
  EXPECT_EQ(V.find("BoundsError"), std::string::npos) << V;
  EXPECT_NE(V.find("out-of-bounds"), std::string::npos) << V;
}

// `let` and `local` are scopes as in Julia: a binding's value is computed
// before it exists, the body's names are its own and new each time it runs,
// and `local` makes a name new in its scope even where an enclosing one has
// it.
TEST(InterpreterTest, LetAndLocalAreJuliasScopes) {
  Program P(
      "function f(x)\n  y = let a = x, b = a + 1\n    a * b\n  end\n"
      "  return y\nend\n"
      "function g(x)\n  s = 0\n  for i in 1:3\n    local t = i * x\n"
      "    s += t\n  end\n  return s\nend\n"
      "function h(x)\n  let x = x + 1\n    x *= 2\n  end\n  return x\nend\n"
      "function k(n)\n  acc = 0\n  for i in 1:n\n    let j\n"
      "      if i > 1\n        j = i\n      else\n        j = 0\n      end\n"
      "      acc += j\n    end\n  end\n  return acc\nend\n"
      "function sh(x)\n  t = 10\n  for i in 1:2\n    local t = i\n  end\n"
      "  return t\nend\n");
  P.expectValues({{"f(3)", "12"},
                  {"g(2)", "12"},
                  {"h(5)", "5"},
                  {"k(4)", "9"},
                  {"sh(1)", "10"}});
}

TEST(InterpreterTest, NonTerminatingProgramsHitTheStepLimit) {
  Program P("function spin(x::Int64)\n while x > 0\n x = x + 1\n end\n return x\nend\n");
  auto Inferred = [&] {
    auto Parsed = parseSignature(*P.Env, "spin(Int64)");
    EXPECT_TRUE(static_cast<bool>(Parsed));
    FunctionSpec Spec{Parsed->Func, TypeContext::get().tuple(Parsed->ArgTypes)};
    return P.Engine->inferToplevel({&Spec, 1}, P.Env->currentWorld());
  }();
  ASSERT_TRUE(static_cast<bool>(Inferred));
  InterpOptions Opts;
  Opts.MaxSteps = 10000;
  auto R = interpret(*Inferred->Roots[0], Inferred->W,
                     {HostValue::fromInt(ScalarKind::Int64, 1)}, {}, {}, Opts);
  ASSERT_FALSE(static_cast<bool>(R));
  std::string Msg = takeDiagnostics(R.takeError())[0].Message;
  EXPECT_NE(Msg.find("limit of 10000 statements"), std::string::npos) << Msg;
}

// `unsafe_trunc` out of range is LLVM's poison and Julia's "arbitrary
// value": the interpreter gives baseline x86-64's (it stopped with a
// fault). The values are clang-16's for the same casts without AVX-512,
// whose unsigned conversions give all ones instead: the host agrees on
// the signed ones and UInt8 on any x86-64.
TEST(InterpreterTest, UnsafeTruncOutOfRangeIsWhatTheHostComputes) {
  Program P("s64(x) = unsafe_trunc(Int64, x)\n"
            "s32(x) = unsafe_trunc(Int32, x)\n"
            "s8(x) = unsafe_trunc(Int8, x)\n"
            "u8(x) = unsafe_trunc(UInt8, x)\n"
            "u32(x) = unsafe_trunc(UInt32, x)\n"
            "u64(x) = unsafe_trunc(UInt64, x)\n");
  P.expectValues({
      {"s64(1e20)", "-9223372036854775808"},
      {"s64(NaN)", "-9223372036854775808"},
      {"s32(3e9)", "-2147483648"},
      {"s8(1000.0)", "-24"},
      {"s8(3e9)", "0"},
      {"u8(300.0)", "0x2c"},
      {"u8(-1.0)", "0xff"},
      {"u64(1.5e19)", "0xd02ab486cedc0000"}, // in range
  });
  EXPECT_EQ(P.value("u32(5e9)"), "0x2a05f200");
  EXPECT_EQ(P.value("u32(-3e9)"), "0x4d2fa200");
  EXPECT_EQ(P.value("u64(1e20)"), "0x8000000000000000");
  EXPECT_EQ(P.value("u64(-1.0)"), "0xffffffffffffffff");
  EXPECT_EQ(P.value("u64(NaN)"), "0x8000000000000000");
}

// Base's one-argument operators return their argument.
TEST(InterpreterTest, OneArgumentOperatorsAreIdentity) {
  Program P("m(x) = *(x)\nan(x) = &(x)\nor(x) = |(x)\nxo(x) = xor(x)\n");
  P.expectValues({{"m(2.5)", "2.5"},
                  {"an(5)", "5"},
                  {"or(0x07)", "0x07"},
                  {"xo(-3)", "-3"}});
}

// Base's methods fold `&`, `|` and `xor` of three or four arguments left
// (methods, so a program's own three-argument method wins, and `xor` passed
// as a value takes three); `min(x)` and `max(x)` are x.
TEST(InterpreterTest, ManyArgumentBitOperatorsFoldLeft) {
  Program P("x4(a, b, c, d) = xor(a, b, c, d)\no3(a, b, c) = |(a, b, c)\n"
            "an3(a, b, c) = &(a, b, c)\nmn(x) = min(x)\nmx(x) = max(x)\n"
            "struct K\n  v::Int\nend\nBase.:&(a::K, b::K) = K(a.v & b.v)\n"
            "Base.:&(a::K, b::K, c::K) = K(999)\n"
            "k3() = (&(K(7), K(6), K(12))).v\n"
            "ap(f, a, b, c) = f(a, b, c)\nx3() = ap(xor, 1, 2, 4)\n");
  P.expectValues({{"x4(1, 2, 4, 8)", "15"},
                  {"k3()", "999"}, // the program's own method
                  {"x3()", "7"},   // xor passed as a value
                  {"o3(1, 2, 0x04)", "7"},
                  {"an3(7, 6, -1)", "6"},
                  {"mn(3)", "3"},
                  {"mx(2.5)", "2.5"}});
}

// A `break` in a `while`'s condition leaves that loop, as Julia's
// expand-while puts the condition inside the loop's break block; a
// `continue` there belongs to the enclosing loop.
TEST(InterpreterTest, BreakInAWhileConditionLeavesThatLoop) {
  Program P(
      "function f(n)\n  x = 0\n  k = 0\n  for j in 1:3\n"
      "    while x < n && (x < 100 || break)\n      x += 1\n      k += 1\n"
      "    end\n    x = 0\n  end\n  return k\nend\n"
      "function w(n)\n  x = 0\n  while x < n && (x != 3 || break)\n"
      "    x += 1\n  end\n  x\nend\n"
      "function h(n)\n  s = 0\n  for i in 1:n\n"
      "    while (i == 2 && continue; false)\n    end\n    s += i\n"
      "  end\n  return s\nend\n");
  P.expectValues(
      {{"f(5)", "15"}, {"w(10)", "3"}, {"w(2)", "2"}, {"h(4)", "8"}});
}

// Found against Julia 1.10's Base: a negative literal power of an integer
// is its Float64's (literal_pow), `false + -0.0` keeps the negative zero,
// and gcd works on the magnitudes with OverflowError where it cannot fit.
TEST(InterpreterTest, LiteralPowersBoolZerosAndGcdAreBases) {
  Program P("p3(x) = x^-3\np5(x) = x^-5\nbm1(x) = x^-1\n"
            "ba(b, x) = b + x\nab(x, b) = x + b\ng(a, b) = gcd(a, b)\n");
  P.expectValues({{"p3(2)", "0.125"},
                  {"p3(Int32(-2))", "-0.125"},
                  {"p5(10)", "1.0e-5"},
                  {"bm1(true)", "1.0"},
                  {"ba(false, -0.0)", "-0.0"},
                  {"ab(-0.0f0, false)", "-0.0f0"},
                  {"ba(true, -0.0)", "1.0"},
                  {"g(typemin(Int8), Int8(6))", "2"},
                  {"g(Int8(-128), Int8(-64))", "64"},
                  {"g(12, -18)", "6"},
                  {"g(0, 0)", "0"}});
  for (const char *Device : {InterpDeviceName, "host"}) {
    RunOutcome O = P.run("g(typemin(Int64), 0)", {}, {}, Device);
    ASSERT_FALSE(O.ok()) << Device;
    ASSERT_FALSE(O.Diagnostics.empty() || O.Diagnostics[0].Notes.empty());
    EXPECT_EQ(O.Diagnostics[0].Notes[0].Message,
              "OverflowError: checked arithmetic: cannot compute |x| for x = "
              "-9223372036854775808::Int64")
        << Device;
    O = P.run("g(typemin(Int8), typemin(Int8))", {}, {}, Device);
    ASSERT_FALSE(O.ok() || O.Diagnostics.empty() ||
                 O.Diagnostics[0].Notes.empty());
    EXPECT_EQ(O.Diagnostics[0].Notes[0].Message,
              "OverflowError: gcd(-128, -128) overflows")
        << Device;
  }
}

// Base's convert of a tuple to a tuple type, element by element: what a
// struct's tuple field does with `(1, 2)`; `T<:Tuple` holds every tuple.
TEST(InterpreterTest, TuplesConvertElementByElement) {
  Program P("struct Q2\n  v::NTuple{2, Float64}\nend\n"
            "struct Q3\n  v::Tuple{Int8, Float32}\nend\n"
            "mq2() = Q2((1, 2)).v\nmq3() = Q3((1, 2)).v\n"
            "same() = convert(Tuple{Int, Int}, (1, 2))\n"
            "isT(::Type{T}) where {T<:Tuple} = true\nisT(x) = false\n"
            "k() = (isT(Tuple{Int, Int}), isT(Int))\n");
  P.expectValues({{"mq2()", "(1.0, 2.0)"},
                  {"mq3()", "(1, 2.0f0)"},
                  {"same()", "(1, 2)"},
                  {"k()", "(true, false)"}});
}

// A read of a local that may be unassigned throws UndefVarError even where
// inference knows the call's result without the value (`y isa Int`): the
// host's compiled code dropped the read and returned true.
TEST(InterpreterTest, AnUnassignedReadThrowsEvenWhenTheResultIsKnown) {
  Program P("function p7(x::Int)\n  if x > 0\n    y = 3\n  end\n"
            "  return y isa Int\nend\n");
  for (const char *Device : {InterpDeviceName, "host"}) {
    SCOPED_TRACE(Device);
    EXPECT_EQ(P.value("p7(1)", Device), "true");
    EXPECT_NE(P.value("p7(0)", Device).find("UndefVarError"), std::string::npos);
  }
}

// Arguments are evaluated left to right: an argument that reads a local
// sees its value before a later argument assigns it, as in Julia.
TEST(InterpreterTest, ArgumentsReadLocalsBeforeLaterArgumentsAssignThem) {
  Program P("function s1()\n  x = 1\n  x + (x = 2)\nend\n"
            "function s2()\n  a = 5\n  a -= a -= 1\n  a\nend\n"
            "function s3()\n  x = 1\n  (x, x += 10, x)\nend\n"
            "f2(a, b) = a * 10 + b\n"
            "function s4()\n  x = 1\n  f2(x, (x = 3; 7))\nend\n"
            "function s6()\n  x = 2\n  x * (x += 1) * x\nend\n"
            "function s7()\n  s = 0\n  i = 1\n"
            "  for k in i:(i = 4)\n    s += k\n  end\n  s\nend\n");
  P.expectValues({{"s1()", "3"},
                  {"s2()", "1"},
                  {"s3()", "(1, 11, 11)"},
                  {"s4()", "17"},
                  {"s6()", "18"},
                  {"s7()", "10"}});
}

} // namespace
} // namespace prism
