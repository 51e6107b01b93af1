#include "devices/CallParser.h"

#include "DeviceTestUtil.h"

#include <gtest/gtest.h>

using namespace prism;

namespace {

/// One row: a CALL string and the expected function and `str()` of every
/// argument (joined with " | ").
struct Row {
  const char *Call;
  const char *Function;
  const char *Args;
};

std::string argsText(const ParsedCall &C) {
  std::string S;
  for (size_t I = 0; I < C.Args.size(); ++I)
    S += (I ? " | " : "") + C.Args[I].typeName() + " " + C.Args[I].str();
  return S;
}

} // namespace

TEST(CallParser, Table) {
  const Row Rows[] = {
      {"f()", "f", ""},
      {"f(1)", "f", "Int64 1"},
      {"f(2.0f0, 2.0, 0x08, true)", "f",
       "Float32 2.0f0 | Float64 2.0 | UInt8 0x08 | Bool true"},
      {"f(-3, -1.5f0)", "f", "Int64 -3 | Float32 -1.5f0"},
      // As in Julia: `-true === -1`, and negation keeps an integer's type.
      {"f(-true, +true, -Int8(3), -UInt8(1))", "f",
       "Int64 -1 | Int64 1 | Int8 -3 | UInt8 0xff"},
      {"f(0x0800, 0x00000001)", "f", "UInt16 0x0800 | UInt32 0x00000001"},
      {"f(UInt32(60), Float32(0.5), Int8(-2))", "f",
       "UInt32 0x0000003c | Float32 0.5f0 | Int8 -2"},
      {"f(nothing, (1, 2.0f0))", "f",
       "Nothing nothing | Tuple{Int64,Float32} (1, 2.0f0)"},
      {"saxpy!(2.0f0, ones(Float32, 3), zeros(Float32, 3))", "saxpy!",
       "Float32 2.0f0 | DeviceArray{Float32,1} Float32[1.0, 1.0, 1.0] | "
       "DeviceArray{Float32,1} Float32[0.0, 0.0, 0.0]"},
      {"f(zeros(Int32, 2, 2))", "f",
       "DeviceArray{Int32,2} Int32[0, 0, 0, 0] (dims 2 2)"},
      {"f(zeros(Int32, (1, 3)))", "f",
       "DeviceArray{Int32,2} Int32[0, 0, 0] (dims 1 3)"},
      {"f(zeros(2))", "f", "DeviceArray{Float64,1} Float64[0.0, 0.0]"},
      {"f(fill(7, 3))", "f", "DeviceArray{Int64,1} Int64[7, 7, 7]"},
      {"f(fill(0.5f0, 1, 2))", "f",
       "DeviceArray{Float32,2} Float32[0.5, 0.5] (dims 1 2)"},
      {"f(collect(Float32, 1:4))", "f",
       "DeviceArray{Float32,1} Float32[1.0, 2.0, 3.0, 4.0]"},
      {"f(collect(1:2:7))", "f", "DeviceArray{Int64,1} Int64[1, 3, 5, 7]"},
      {"f(collect(Int32, 3:-1:1))", "f", "DeviceArray{Int32,1} Int32[3, 2, 1]"},
      {"f(collect(Int32, 3:1))", "f", "DeviceArray{Int32,1} Int32[]"},
      {"f(reshape(collect(Int32, 1:6), 2, 3))", "f",
       "DeviceArray{Int32,2} Int32[1, 2, 3, 4, 5, 6] (dims 2 3)"},
      {"f(UInt8[0x00, 0x01, 255])", "f",
       "DeviceArray{UInt8,1} UInt8[0x00, 0x01, 0xff]"},
      {"f(Float32[1, 2.5])", "f", "DeviceArray{Float32,1} Float32[1.0, 2.5]"},
      {"f(Int[])", "f", "DeviceArray{Int64,1} Int64[]"},
  };
  for (const Row &R : Rows) {
    SCOPED_TRACE(R.Call);
    auto C = parseCall(R.Call);
    if (!C) {
      ADD_FAILURE() << test::diagText(C.takeError());
      continue;
    }
    EXPECT_EQ(C->Function, R.Function);
    EXPECT_EQ(argsText(*C), R.Args);
  }
}

TEST(CallParser, ErrorsPointIntoTheCall) {
  struct ErrRow {
    const char *Call;
    unsigned Col;
    const char *Message; // substring
  };
  const ErrRow Rows[] = {
      {"f(UInt8[0x00, 256])", 15, "InexactError: trunc(UInt8, 256)"},
      {"f(zeros(Float32, -1))", 18, "invalid array dimension -1"},
      {"f(x)", 3, "unknown name `x`"},
      {"f(1:3)", 3, "use `collect(1:3)`"},
      {"f(Float32[Float32])", 11, "expected a number here"},
      {"f(sin(1.0))", 3, "`sin` is not a host-side constructor"},
      {"f(reshape(zeros(4), 3))", 3, "DimensionMismatch"},
      {"f(Int8(2.5))", 3, "InexactError: Int8(2.5)"},
      {"f(zeros(Float32, 1.5))", 18, "expected an integer"},
      {"1 + 2", 1, "CALL must call a function by name"},
      {"[1, 2]", 0, ""},
      {"f(1,", 0, ""}, // a parse error, located by the parser
  };
  for (const ErrRow &R : Rows) {
    SCOPED_TRACE(R.Call);
    auto C = parseCall(R.Call);
    ASSERT_FALSE(bool(C));
    Diagnostic D = test::firstDiag(C.takeError());
    EXPECT_NE(D.Message.find(R.Message), std::string::npos) << D.Message;
    EXPECT_EQ(D.Loc.FileName.empty() ? "" : D.Loc.FileName, "CALL");
    if (R.Col) {
      EXPECT_EQ(D.Loc.Line, 1u);
      EXPECT_EQ(D.Loc.Col, R.Col);
    }
  }
}

TEST(CallParser, FunctionsOfTheProgramAreValues) {
  auto IsFunction = [](llvm::StringRef N) { return N == "square"; };
  auto C = parseCall("map!(square, zeros(Float32, 2), ones(Float32, 2))", 0,
                     IsFunction);
  ASSERT_TRUE(bool(C)) << test::diagText(C.takeError());
  ASSERT_EQ(C->Args.size(), 3u);
  EXPECT_TRUE(C->Args[0].isFunction());
  EXPECT_EQ(C->Args[0].typeName(), "typeof(square)");
  auto Typo = parseCall("map!(sqare, zeros(Float32, 2))", 0, IsFunction);
  ASSERT_FALSE(bool(Typo));
  EXPECT_NE(test::diagText(Typo.takeError()).find("unknown name `sqare`"),
            std::string::npos);
}

TEST(CallParser, ConstantsOfTheProgramAndOfBase) {
  auto ConstOf = [](llvm::StringRef N) -> std::optional<CallConstant> {
    if (N == "N")
      return CallConstant{HostValue::fromInt(ScalarKind::Int64, 1024), {}};
    if (N == "π" || N == "ℯ")
      return CallConstant{
          HostValue::record("Irrational{:" + N.str() + "}", {}, {}), {}};
    if (N == "T")
      return CallConstant{HostValue(), ScalarKind::Int32};
    // Base's float constants, which the prelude defines.
    if (N == "Inf32")
      return CallConstant{HostValue::scalar(ScalarKind::Float32, 0x7f800000),
                          {}};
    if (N == "Inf")
      return CallConstant{
          HostValue::scalar(ScalarKind::Float64, 0x7ff0000000000000), {}};
    if (N == "NaN")
      return CallConstant{
          HostValue::scalar(ScalarKind::Float64, 0x7ff8000000000000), {}};
    return std::nullopt;
  };
  auto C = parseCall("f(N, π, Float32(π), -π, Float16[π, N], Float64(ℯ), "
                     "Float32[1, Inf32], T(2), zeros(T, 2), T[3], NaN, -Inf, "
                     "T, (Float32, 1))",
                     0, nullptr, nullptr, ConstOf);
  ASSERT_TRUE(bool(C)) << test::diagText(C.takeError());
  // Each precision is the exact value rounded once (Float16(π) is 3.140625;
  // Julia shows Float16(1024) as 1.024e3).
  EXPECT_EQ(
      argsText(*C),
      "Int64 1024 | Irrational{:π} π | Float32 3.1415927f0 | "
      "Float64 -3.141592653589793 | "
      "DeviceArray{Float16,1} Float16[3.14, 1.024e3] | "
      "Float64 2.718281828459045 | "
      "DeviceArray{Float32,1} Float32[1.0, Inf] | Int32 2 | "
      "DeviceArray{Int32,1} Int32[0, 0] | DeviceArray{Int32,1} Int32[3] | "
      "Float64 NaN | Float64 -Inf | Type{Int32} Int32 | "
      "Tuple{Type{Float32},Int64} (Float32, 1)");

  struct ErrRow {
    const char *Call;
    unsigned Col;
    const char *Message;
  };
  const ErrRow Rows[] = {
      {"f(Int64(π))", 3, "InexactError: Int64(π)"},
      {"f(fill(π, 2))", 8,
       "`π` is irrational: give it a precision here, as "
       "in `Float64(π)`"},
      {"f(UInt8(N))", 3, "InexactError: trunc(UInt8, 1024)"},
      {"f(M)", 3, "unknown name `M`"},
      {"f(fill(T, 2))", 8, "expected a number here, got `T`"},
      {"f(zeros(Float32, N+1))", 18,
       "`N+1`: a CALL does not compute; write the value"},
  };
  for (const ErrRow &R : Rows) {
    SCOPED_TRACE(R.Call);
    auto E = parseCall(R.Call, 0, nullptr, nullptr, ConstOf);
    ASSERT_FALSE(bool(E));
    Diagnostic D = test::firstDiag(E.takeError());
    EXPECT_NE(D.Message.find(R.Message), std::string::npos) << D.Message;
    EXPECT_EQ(D.Loc.Col, R.Col);
  }
}

TEST(CallParser, RandIsSeededAndInRange) {
  auto A = parseCall("f(rand(Float32, 1000), rand(UInt8, 4))", 42);
  auto B = parseCall("f(rand(Float32, 1000), rand(UInt8, 4))", 42);
  auto C = parseCall("f(rand(Float32, 1000), rand(UInt8, 4))", 43);
  ASSERT_TRUE(A && B && C);
  EXPECT_EQ(A->Args, B->Args);
  EXPECT_NE(A->Args[0], C->Args[0]);
  double Sum = 0;
  for (int64_t I = 0; I < 1000; ++I) {
    double V = A->Args[0].element(I).asDouble();
    EXPECT_GE(V, 0.0);
    EXPECT_LT(V, 1.0);
    Sum += V;
  }
  EXPECT_NEAR(Sum / 1000, 0.5, 0.05);
}

// The program's structs are built as Julia's default constructor builds
// them: each field converted to its declared type, and a field that is not
// a scalar given a value of its very type (the device reads the layout).
TEST(CallParser, StructsOfTheProgramAreBuiltFieldByField) {
  auto StructOf = [](llvm::StringRef N) -> std::optional<StructShape> {
    if (N == "Vec2")
      return StructShape{"Vec2", {"x", "y"}, {"Float32", "Float32"}, ""};
    if (N == "Seg")
      return StructShape{"Seg", {"a", "n"}, {"Vec2", "Tuple{Int64, Bool}"}, ""};
    if (N == "Count")
      return StructShape{"Count", {"k"}, {"UInt8"}, ""};
    if (N == "Box")
      return StructShape{"Box", {}, {}, "`Box` has type parameters"};
    return std::nullopt;
  };
  auto C = parseCall("f(Seg(Vec2(1, 0.1), (3, true)))", 0, nullptr, StructOf);
  ASSERT_TRUE(bool(C)) << test::diagText(C.takeError());
  ASSERT_EQ(C->Args.size(), 1u);
  EXPECT_EQ(C->Args[0].str(), "Seg(Vec2(1.0f0, 0.1f0), (3, true))");
  EXPECT_EQ(C->Args[0].typeName(), "Seg");

  struct Bad {
    const char *Call, *Message;
  } Cases[] = {
      {"f(Vec2(1))", "`Vec2` has 2 fields (x, y); the call gives 1"},
      {"f(Count(256))", "InexactError: trunc(UInt8, 256)"},
      {"f(Vec2((1, 2), 3))", "field `x` of `Vec2` is `::Float32`; the call "
                             "gives `Tuple{Int64,Int64}`"},
      {"f(Seg(Vec2(1, 2), (3, 4)))",
       "field `n` of `Seg` is `::Tuple{Int64, Bool}`; the call gives "
       "`Tuple{Int64,Int64}`"},
      {"f(Seg((1, 2), (3, true)))", "field `a` of `Seg` is `::Vec2`"},
      {"f(Box(1))", "`Box` has type parameters"},
      {"f(Nope(1))", "`Nope` is not a host-side constructor"},
  };
  for (const Bad &B : Cases) {
    auto R = parseCall(B.Call, 0, nullptr, StructOf);
    ASSERT_FALSE(bool(R)) << B.Call;
    std::string Text = test::diagText(R.takeError());
    EXPECT_NE(Text.find(B.Message), std::string::npos) << B.Call << "\n"
                                                       << Text;
  }
}
