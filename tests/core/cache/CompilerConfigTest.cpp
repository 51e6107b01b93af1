#include "cache/CompilerConfig.h"
#include "targets/HostInfo.h"

#include "llvm/Target/TargetMachine.h"

#include <gtest/gtest.h>

using namespace prism;

TEST(CompilerConfig, HashAndEquality) {
  CompilerConfigOptions O;
  auto A = CompilerConfig::create(O);
  auto B = CompilerConfig::create(O);
  ASSERT_TRUE(!!A && !!B);
  EXPECT_EQ((*A)->hash(), (*B)->hash());
  EXPECT_TRUE(**A == **B);
  O.OptLevel = 3;
  auto C = CompilerConfig::create(O);
  ASSERT_TRUE(!!C);
  EXPECT_NE((*A)->hash(), (*C)->hash());
  EXPECT_FALSE(**A == **C);
  O.OptLevel = 2;
  O.MaxThreads = 256;
  auto D = CompilerConfig::create(O);
  ASSERT_TRUE(!!D);
  EXPECT_NE((*A)->hash(), (*D)->hash());
}

TEST(CompilerConfig, NativeFactsComeFromHostInfo) {
  auto C = CompilerConfig::create({});
  ASSERT_TRUE(!!C);
  EXPECT_EQ((*C)->triple(), hostInfo().Triple);
  EXPECT_EQ((*C)->arch(), hostInfo().CPU);
  EXPECT_EQ((*C)->features(), hostInfo().Features);
  EXPECT_FALSE((*C)->kernel());
}

TEST(CompilerConfig, TargetMachineIsCreatedOnce) {
  auto C = CompilerConfig::create({});
  ASSERT_TRUE(!!C);
  auto TM1 = (*C)->targetMachine();
  auto TM2 = (*C)->targetMachine();
  ASSERT_TRUE(!!TM1 && !!TM2);
  EXPECT_EQ(*TM1, *TM2);
  EXPECT_EQ((*TM1)->getTargetCPU(), hostInfo().CPU);
}

TEST(CompilerConfig, BadOptionsAreErrors) {
  CompilerConfigOptions O;
  O.Target = "quantum";
  auto C = CompilerConfig::create(O);
  ASSERT_FALSE(!!C);
  EXPECT_NE(llvm::toString(C.takeError()).find("unknown target `quantum`"),
            std::string::npos);
  O.Target = "native";
  O.OptLevel = 7;
  auto D = CompilerConfig::create(O);
  ASSERT_FALSE(!!D);
  llvm::consumeError(D.takeError());
}
