// IRFingerprint: every edit a pass makes that the IR printer shows changes
// the fingerprint; an edit undone, or none, leaves it as it was.
#include "core/optim/ParseIR.h"

#include "optim/IRFingerprint.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <gtest/gtest.h>

#include <functional>

using namespace prism;
using namespace llvm;

namespace {

constexpr const char *IR = R"IR(
@g = global i32 7

define i32 @f(i32 %a, i32 %b, ptr %p) !dbg !4 {
entry:
  %s = add i32 %a, %b
  %m = mul i32 %s, %a
  call void @llvm.dbg.value(metadata i32 %s, metadata !8, metadata !DIExpression()), !dbg !9
  %u = add i32 %a, 1
  call void @llvm.dbg.value(metadata i32 %u, metadata !8, metadata !DIExpression()), !dbg !9
  %c = icmp slt i32 %m, 10
  %v = load i32, ptr %p, align 4
  br i1 %c, label %yes, label %no

yes:
  store i32 %v, ptr %p, align 4
  br label %no

no:
  %r = phi i32 [ %m, %entry ], [ %v, %yes ]
  ret i32 %r
}

declare void @llvm.dbg.value(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "t", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.jl", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !5, unit: !0, retainedNodes: !7)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!7 = !{}
!8 = !DILocalVariable(name: "s", scope: !4, file: !1, line: 2, type: !10)
!9 = !DILocation(line: 2, column: 1, scope: !4)
!10 = !DIBasicType(name: "Int32", size: 32, encoding: DW_ATE_signed)
)IR";

class IRFingerprintTest : public ::testing::Test {
protected:
  LLVMContext Ctx;
  std::unique_ptr<Module> M = test::parseIR(Ctx, IR);
  Function &F = *M->getFunction("f");

  Instruction &named(StringRef Name) {
    for (Instruction &I : instructions(F))
      if (I.getName() == Name)
        return I;
    ADD_FAILURE() << "no instruction %" << Name.str();
    return *F.getEntryBlock().getTerminator();
  }
  template <typename T> T &first() {
    for (Instruction &I : instructions(F))
      if (auto *X = dyn_cast<T>(&I))
        return *X;
    ADD_FAILURE() << "no such instruction";
    std::abort();
  }

  /// Applies Edit and requires that both the function's and the module's
  /// fingerprints changed, the same as the printed text.
  void expectSeen(const char *What, const std::function<void()> &Edit) {
    SCOPED_TRACE(What);
    uint64_t FnBefore = fingerprintFunction(F);
    uint64_t ModBefore = fingerprintModule(*M);
    std::string TextBefore = print();
    Edit();
    ASSERT_NE(print(), TextBefore) << "the edit changed nothing visible";
    EXPECT_NE(fingerprintFunction(F), FnBefore);
    EXPECT_NE(fingerprintModule(*M), ModBefore);
  }

  std::string print() {
    std::string S;
    raw_string_ostream OS(S);
    F.print(OS);
    return S;
  }
};

} // namespace

TEST_F(IRFingerprintTest, StableWhenNothingChanges) {
  ASSERT_TRUE(M);
  EXPECT_EQ(fingerprintFunction(F), fingerprintFunction(F));
  EXPECT_EQ(fingerprintModule(*M), fingerprintModule(*M));
  // Renaming and renaming back is no change.
  uint64_t Before = fingerprintFunction(F);
  named("s").setName("t");
  EXPECT_NE(fingerprintFunction(F), Before);
  named("t").setName("s");
  EXPECT_EQ(fingerprintFunction(F), Before);
}

// The two edits LLVM 16's passes make while reporting that they preserved
// every analysis: IndVarSimplify's nsw, Reassociate's operand order.
TEST_F(IRFingerprintTest, SeesFlagsAndOperandOrder) {
  ASSERT_TRUE(M);
  expectSeen("nsw", [&] { named("s").setHasNoSignedWrap(true); });
  expectSeen("operands swapped",
             [&] { cast<BinaryOperator>(named("m")).swapOperands(); });
}

TEST_F(IRFingerprintTest, SeesStateOutsideOperands) {
  ASSERT_TRUE(M);
  expectSeen("alignment", [&] { first<LoadInst>().setAlignment(Align(16)); });
  expectSeen("volatile", [&] { first<StoreInst>().setVolatile(true); });
  expectSeen("predicate",
             [&] { first<ICmpInst>().setPredicate(CmpInst::ICMP_SLE); });
  expectSeen("a name", [&] { named("v").setName("loaded"); });
  expectSeen("an argument's name", [&] { F.getArg(0)->setName("x"); });
  expectSeen("a block's name", [&] { F.getEntryBlock().setName("start"); });
  expectSeen("metadata", [&] {
    named("loaded").setMetadata(LLVMContext::MD_invariant_load,
                                MDNode::get(Ctx, {}));
  });
  expectSeen("a debug location", [&] {
    named("s").setDebugLoc(DILocation::get(Ctx, 5, 2, F.getSubprogram()));
  });
  expectSeen("function attributes", [&] { F.addFnAttr(Attribute::NoUnwind); });
  expectSeen("a phi's incoming block", [&] {
    PHINode &P = first<PHINode>();
    BasicBlock *A = P.getIncomingBlock(0), *B = P.getIncomingBlock(1);
    Value *VA = P.getIncomingValue(0), *VB = P.getIncomingValue(1);
    P.setIncomingBlock(0, B);
    P.setIncomingValue(0, VB);
    P.setIncomingBlock(1, A);
    P.setIncomingValue(1, VA);
  });
  expectSeen("an instruction removed",
             [&] { first<StoreInst>().eraseFromParent(); });
}

// RAUW rewrites the ValueAsMetadata under a debug intrinsic in place: the
// intrinsic's operand (a MetadataAsValue) keeps its address, but it prints
// the new value. %u's only use is a dbg.value.
TEST_F(IRFingerprintTest, SeesAValueReplacedUnderADebugIntrinsic) {
  ASSERT_TRUE(M);
  Instruction &U = named("u");
  ASSERT_EQ(U.getNumUses(), 0u) << "debug uses are not uses";
  expectSeen("dbg.value's value", [&] { U.replaceAllUsesWith(F.getArg(1)); });
}

TEST_F(IRFingerprintTest, ModuleSeesGlobals) {
  ASSERT_TRUE(M);
  GlobalVariable &G = *M->getGlobalVariable("g");
  uint64_t Before = fingerprintModule(*M);
  G.setConstant(true);
  EXPECT_NE(fingerprintModule(*M), Before);
  Before = fingerprintModule(*M);
  G.setInitializer(ConstantInt::get(Type::getInt32Ty(Ctx), 8));
  EXPECT_NE(fingerprintModule(*M), Before);
  Before = fingerprintModule(*M);
  G.setLinkage(GlobalValue::InternalLinkage);
  EXPECT_NE(fingerprintModule(*M), Before);
}
