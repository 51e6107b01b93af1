#include "support/Irrational.h"

#include <gtest/gtest.h>

using namespace prism;

namespace {

uint64_t bitsOf(std::string_view Sym, const llvm::fltSemantics &Sem) {
  std::optional<llvm::APFloat> X = irrationalValue(Sym, Sem);
  EXPECT_TRUE(X.has_value()) << Sym;
  return X ? X->bitcastToAPInt().getZExtValue() : 0;
}

} // namespace

// The nearest float of each precision: the bits core/prelude/
// 45_irrational.jl writes for `Float64(π)`, `Float32(π)`, `Float16(π)`.
TEST(Irrational, RoundsOnceToNearest) {
  EXPECT_EQ(bitsOf("π", llvm::APFloat::IEEEdouble()), 0x400921fb54442d18u);
  EXPECT_EQ(bitsOf("π", llvm::APFloat::IEEEsingle()), 0x40490fdbu);
  EXPECT_EQ(bitsOf("π", llvm::APFloat::IEEEhalf()), 0x4248u);
  EXPECT_EQ(bitsOf("ℯ", llvm::APFloat::IEEEdouble()), 0x4005bf0a8b145769u);
  EXPECT_EQ(bitsOf("ℯ", llvm::APFloat::IEEEsingle()), 0x402df854u);
  EXPECT_EQ(bitsOf("ℯ", llvm::APFloat::IEEEhalf()), 0x4170u);
  EXPECT_FALSE(irrationalValue("φ", llvm::APFloat::IEEEdouble()));
  EXPECT_FALSE(irrationalValue("", llvm::APFloat::IEEEdouble()));
}

TEST(Irrational, SymbolOfTypeName) {
  EXPECT_EQ(irrationalSymbolOf("Irrational{:π}"), "π");
  EXPECT_EQ(irrationalSymbolOf("Irrational{:ℯ}"), "ℯ");
  EXPECT_FALSE(irrationalSymbolOf("Irrational{:}"));
  EXPECT_FALSE(irrationalSymbolOf("Irrational"));
  EXPECT_FALSE(irrationalSymbolOf("Vec2"));
}
