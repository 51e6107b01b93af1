// The --json printer: llvm::json's layout, but numbers with a fraction in
// their shortest round-trip form.
#include "support/JsonOutput.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace prism;

TEST(JsonOutput, FractionsAreTheShortestTextThatReadsBack) {
  EXPECT_EQ(formatJSON(37.240118000000002, 0), "37.240118");
  EXPECT_EQ(formatJSON(0.1, 0), "0.1");
  EXPECT_EQ(formatJSON(1e-7, 0), "1e-07");
  EXPECT_EQ(formatJSON(-0.0, 0), "-0.0");
  // Whole but past 17 digits: still the shortest, not `%.17g`'s.
  EXPECT_EQ(formatJSON(1.23456789012345e17, 0), "1.23456789012345e+17");
  EXPECT_EQ(formatJSON(9.87654321098765e18, 0), "9.87654321098765e+18");
  EXPECT_EQ(std::strtod(formatJSON(M_PI, 0).c_str(), nullptr), M_PI);
  // Integers, and doubles without a fraction, are llvm::json's.
  EXPECT_EQ(formatJSON(int64_t(-3), 0), "-3");
  EXPECT_EQ(formatJSON(uint64_t(~0ull), 0), "18446744073709551615");
  EXPECT_EQ(formatJSON(2.0, 0), "2");
}

TEST(JsonOutput, KeysAreSortedAndIndented) {
  llvm::json::Value V = llvm::json::Object{
      {"b", llvm::json::Array{1, 0.5}}, {"a", "x"}, {"c", nullptr}};
  EXPECT_EQ(formatJSON(V, 0), R"({"a":"x","b":[1,0.5],"c":null})");
  EXPECT_EQ(formatJSON(V),
            "{\n  \"a\": \"x\",\n  \"b\": [\n    1,\n    0.5\n  ],\n"
            "  \"c\": null\n}");
}

TEST(JsonOutput, NarrowFloatsBecomeTheDoubleOfTheirShortestDecimal) {
  EXPECT_EQ(shortestAsDouble(llvm::APFloat(0.1f)), 0.1);
  llvm::APFloat H(llvm::APFloat::IEEEhalf(),
                  llvm::APInt(16, 0x2E66)); // Float16(0.1)
  EXPECT_EQ(shortestAsDouble(H), 0.1);
  llvm::APFloat Big(llvm::APFloat::IEEEhalf(), llvm::APInt(16, 0x67CE)); // 1998
  EXPECT_EQ(shortestAsDouble(Big), 1998.0);
  EXPECT_EQ(shortestAsDouble(llvm::APFloat(0.1)), 0.1);
  EXPECT_TRUE(std::isinf(
      shortestAsDouble(llvm::APFloat::getInf(llvm::APFloat::IEEEsingle()))));
}
