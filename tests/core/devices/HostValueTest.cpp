#include "devices/HostValue.h"
#include "support/JsonOutput.h"

#include <gtest/gtest.h>

using namespace prism;

static std::string json(const llvm::json::Value &V) { return formatJSON(V, 0); }

TEST(HostValue, ScalarsKeepTheirKindAndBits) {
  HostValue F = HostValue::fromDouble(ScalarKind::Float32, 2.5);
  EXPECT_EQ(F.typeName(), "Float32");
  EXPECT_EQ(F.bits(), 0x40200000u);
  EXPECT_EQ(F.str(), "2.5f0");
  EXPECT_EQ(HostValue::fromInt(ScalarKind::Int8, -1).bits(), 0xffu);
  EXPECT_EQ(HostValue::fromInt(ScalarKind::Int8, -1).asInt(), -1);
  EXPECT_EQ(HostValue::scalar(ScalarKind::UInt8, 8).str(), "0x08");
  EXPECT_EQ(HostValue::fromInt(ScalarKind::Int64, 300).str(), "300");
  EXPECT_EQ(HostValue::fromDouble(ScalarKind::Float64, 0.1).str(), "0.1");
  EXPECT_EQ(HostValue::fromDouble(ScalarKind::Float32, 0.1).str(), "0.1f0");
  EXPECT_EQ(HostValue::fromDouble(ScalarKind::Float64, 1).str(), "1.0");
  EXPECT_EQ(HostValue::fromDouble(ScalarKind::Float16, 1.5).bits(), 0x3e00u);
  EXPECT_EQ(HostValue::fromDouble(ScalarKind::Float16, 1.5).asDouble(), 1.5);
  EXPECT_EQ(HostValue::scalar(ScalarKind::Bool, 1).str(), "true");
}

TEST(HostValue, ArraysAreColumnMajorBytes) {
  HostValue A = HostValue::zeros(ScalarKind::Int32, {2, 3});
  EXPECT_EQ(A.typeName(), "DeviceArray{Int32,2}");
  EXPECT_EQ(A.numElements(), 6);
  EXPECT_EQ(A.bytes().size(), 24u);
  A.setElement(1, HostValue::fromInt(ScalarKind::Int32, 7)); // A[2,1]
  EXPECT_EQ(A.bytes()[4], 7);
  EXPECT_EQ(A.element(1).asInt(), 7);
}

TEST(HostValue, JsonShapeOfRunOutput) {
  HostValue X = HostValue::zeros(ScalarKind::Float32, {2});
  X.setElement(0, HostValue::fromDouble(ScalarKind::Float32, 1.5));
  X.setElement(1, HostValue::fromDouble(ScalarKind::Float32, -2));
  HostValue Tup = HostValue::tuple({HostValue::fromInt(ScalarKind::Int64, 1),
                                    HostValue::scalar(ScalarKind::Bool, 0)});
  llvm::json::Object O = runResultJSON(
      "cuda", HostValue(), {HostValue::fromDouble(ScalarKind::Float32, 2), X, Tup},
      0.25);
  EXPECT_EQ(json(llvm::json::Value(std::move(O))),
            R"({"args":[2,{"data":[1.5,-2],"dims":[2],"type":"DeviceArray{Float32,1}"},)"
            R"([1,false]],"device":"cuda","return":null,"time_ms":0.25})");
}

TEST(HostValue, JsonNumbers) {
  EXPECT_EQ(json(toJSON(HostValue::scalar(ScalarKind::UInt64, ~0ull))),
            "18446744073709551615");
  EXPECT_EQ(json(toJSON(HostValue::fromInt(ScalarKind::Int16, -3))), "-3");
  EXPECT_EQ(json(toJSON(HostValue::scalar(ScalarKind::UInt32, 60))), "60");
  EXPECT_EQ(json(toJSON(HostValue::fromDouble(ScalarKind::Float64, 0.5))), "0.5");
  EXPECT_EQ(json(toJSON(HostValue::scalar(ScalarKind::Bool, 1))), "true");
  // A narrow float reads as it prints in Julia, not as its double's digits.
  EXPECT_EQ(json(toJSON(HostValue::fromDouble(ScalarKind::Float32, 0.1))),
            "0.1");
  EXPECT_EQ(json(toJSON(HostValue::fromDouble(ScalarKind::Float16, 0.1))),
            "0.1");
  EXPECT_EQ(json(toJSON(HostValue::fromDouble(ScalarKind::Float32, 1.0f / 3))),
            "0.33333334");
  EXPECT_EQ(json(toJSON(HostValue::fromDouble(ScalarKind::Float64, -0.0))),
            "-0.0");
  // JSON has no NaN or infinities: Julia's names, apart from nothing's null.
  EXPECT_EQ(json(toJSON(HostValue::fromDouble(ScalarKind::Float64, NAN))),
            "\"NaN\"");
  EXPECT_EQ(json(toJSON(HostValue::fromDouble(ScalarKind::Float32, -INFINITY))),
            "\"-Inf\"");
  EXPECT_EQ(json(toJSON(HostValue::fromDouble(ScalarKind::Float64, INFINITY))),
            "\"Inf\"");
  EXPECT_EQ(json(toJSON(HostValue())), "null");
  EXPECT_EQ(json(toJSON(HostValue::function("square"))), "\"square\"");
  // A type is a value too (`Type{Float32}`), named as Julia prints it.
  HostValue T = HostValue::type("Float32");
  EXPECT_TRUE(T.isGhost());
  EXPECT_EQ(T.typeName(), "Type{Float32}");
  EXPECT_EQ(T.str(), "Float32");
  EXPECT_EQ(json(toJSON(T)), "\"Float32\"");
  EXPECT_NE(T, HostValue::function("Float32"));
  // An irrational (a record without fields) gives its value to scripts.
  EXPECT_EQ(json(toJSON(HostValue::record("Irrational{:π}", {}, {}))),
            R"({"type":"Irrational{:π}","value":3.141592653589793})");
  HostValue M = HostValue::zeros(ScalarKind::UInt8, {2, 2});
  EXPECT_EQ(json(toJSON(M)),
            R"({"data":[0,0,0,0],"dims":[2,2],"type":"DeviceArray{UInt8,2}"})");
}

TEST(HostValue, RecordPrintsAsJuliaShowsAStruct) {
  HostValue P = HostValue::record(
      "Pair", {"x", "n"},
      {HostValue::fromDouble(ScalarKind::Float32, 1.5),
       HostValue::fromInt(ScalarKind::Int64, 2)});
  EXPECT_TRUE(P.isRecord());
  EXPECT_TRUE(P.isTuple()); // laid out and decoded as its fields' tuple
  EXPECT_EQ(P.str(), "Pair(1.5f0, 2)");
  EXPECT_EQ(P.typeName(), "Pair");
  // One field: no tuple comma; no fields: the singleton's constructor call.
  HostValue One = HostValue::record("Box", {"v"}, {HostValue::fromInt(ScalarKind::Int8, 3)});
  EXPECT_EQ(One.str(), "Box(3)");
  EXPECT_EQ(HostValue::record("Empty", {}, {}).str(), "Empty()");
  EXPECT_EQ(json(toJSON(P)), R"({"fields":{"n":2,"x":1.5},"type":"Pair"})");
  // withElements keeps the type and field names (the host device decodes
  // a return value into its shape this way).
  HostValue Q = P.withElements({HostValue::fromDouble(ScalarKind::Float32, -1),
                                HostValue::fromInt(ScalarKind::Int64, 7)});
  EXPECT_EQ(Q.str(), "Pair(-1.0f0, 7)");
  EXPECT_FALSE(Q == P);
  EXPECT_FALSE(HostValue::tuple({HostValue::fromInt(ScalarKind::Int8, 3)}) == One);
}

// Inside `T[...]` Julia says the element type once.
TEST(HostValue, ArrayElementsPrintWithoutTheirType) {
  EXPECT_EQ(arrayElementStr(HostValue::scalar(ScalarKind::Float16, 0x3E00)), "1.5");
  EXPECT_EQ(arrayElementStr(HostValue::scalar(ScalarKind::Float16, 0x7C00)), "Inf");
  EXPECT_EQ(arrayElementStr(HostValue::scalar(ScalarKind::Float32, 0x7FC00000)), "NaN");
  EXPECT_EQ(arrayElementStr(HostValue::fromDouble(ScalarKind::Float32, 2)), "2.0");
  EXPECT_EQ(arrayElementStr(HostValue::scalar(ScalarKind::UInt8, 8)), "0x08");
  HostValue A = HostValue::zeros(ScalarKind::Float16, {2});
  A.setElement(1, HostValue::scalar(ScalarKind::Float16, 0xFC00));
  EXPECT_EQ(A.str(), "Float16[0.0, -Inf]");
}
