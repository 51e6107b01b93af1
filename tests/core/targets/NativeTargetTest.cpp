#include "targets/NativeTarget.h"

#include "cache/CompilerConfig.h"
#include "cache/JobReport.h"
#include "targets/HostInfo.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

#include <gtest/gtest.h>

using namespace prism;

TEST(NativeTarget, RegistryAndHostFacts) {
  auto T = lookupTarget("native");
  ASSERT_TRUE(!!T);
  EXPECT_STREQ((*T)->name(), "native");
  EXPECT_EQ((*T)->defaultArch(), hostInfo().CPU);
  EXPECT_FALSE((*T)->kernelByDefault());
  EXPECT_TRUE((*T)->usesKernelState());
  EXPECT_TRUE((*T)->isKnownExternal("prism_throw"));
  EXPECT_TRUE((*T)->isKnownExternal("sinf"));
  EXPECT_FALSE((*T)->isKnownExternal("system"));
  auto Bad = lookupTarget("nope");
  ASSERT_FALSE(!!Bad);
  llvm::consumeError(Bad.takeError());
}

TEST(NativeTarget, LaunchSymbol) {
  EXPECT_EQ(nativeLaunchSymbol("julia_saxpy!"), "jfptr_saxpy!");
  EXPECT_EQ(nativeLaunchSymbol("my_kernel"), "jfptr_my_kernel");
}

TEST(NativeTarget, StateLayoutMatchesTheCStruct) {
  // Codegen indexes { [3 x i32] x4, ptr, ptr } by field number.
  EXPECT_EQ(offsetof(NativeKernelState, ThreadIdx), 0u);
  EXPECT_EQ(offsetof(NativeKernelState, BlockIdx), 12u);
  EXPECT_EQ(offsetof(NativeKernelState, BlockDim), 24u);
  EXPECT_EQ(offsetof(NativeKernelState, GridDim), 36u);
  EXPECT_EQ(offsetof(NativeKernelState, SharedMem), 48u);
  EXPECT_EQ(offsetof(NativeKernelState, Runtime), 56u);
}

TEST(NativeTarget, EmitsAsmAndObject) {
  auto C = CompilerConfig::create({});
  ASSERT_TRUE(!!C);
  auto TM = (*C)->targetMachine();
  ASSERT_TRUE(!!TM);
  llvm::LLVMContext Ctx;
  llvm::Module M("m", Ctx);
  M.setTargetTriple((*C)->triple());
  M.setDataLayout((*TM)->createDataLayout());
  auto *F = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getInt32Ty(Ctx), false),
      llvm::GlobalValue::ExternalLinkage, "forty_two", M);
  llvm::IRBuilder<> B(llvm::BasicBlock::Create(Ctx, "top", F));
  B.CreateRet(B.getInt32(42));
  auto Asm = (*C)->target().emitAsm(M, **TM);
  ASSERT_TRUE(!!Asm);
  EXPECT_NE(Asm->find("forty_two"), std::string::npos);
  auto Obj = (*C)->target().emitObject(M, **TM);
  ASSERT_TRUE(!!Obj);
  EXPECT_EQ(Obj->substr(1, 3), "ELF");
  ResourceUsage RU;
  (*C)->target().resourceUsage(*Asm, **C, RU);
  ASSERT_TRUE(RU.Instructions.has_value());
  EXPECT_GE(*RU.Instructions, 1);
}
