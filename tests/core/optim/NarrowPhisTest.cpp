// NarrowPhisPass: 64-bit phis proven to hold 32-bit values (by known bits
// or SCEV's range) become extensions of 32-bit phis, the functions compute
// what they computed, and phis without such a proof stay 64-bit.
#include "core/optim/ParseIR.h"
#include "core/optim/RunPass.h"

#include "optim/LLVMInit.h"
#include "optim/NarrowPhis.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

using namespace llvm;

namespace {

// Each function takes two i32s (zero- or sign-extended as the body says)
// and returns an i64, so that a JIT-compiled original and its narrowed
// copy can be compared. `SUFFIX` is replaced per copy.
constexpr const char *Functions = R"IR(
; `s = n; while s > 0; acc += s; s ÷= 2`: a shift recurrence from a
; zero-extended start (known bits); the sum may need 33 bits and stays.
define i64 @halving.SUFFIX(i32 %n, i32 %unused) {
entry:
  %s0 = zext i32 %n to i64
  %empty = icmp eq i64 %s0, 0
  br i1 %empty, label %exit, label %loop
loop:
  %s = phi i64 [ %s0, %entry ], [ %s.next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  %acc.next = add i64 %acc, %s
  %s.next = lshr i64 %s, 1
  %done = icmp eq i64 %s.next, 0
  br i1 %done, label %exit, label %loop
exit:
  %r = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  ret i64 %r
}

; A merge of two sign-extended values: signed fit (SCEV's signed range).
define i64 @signed_merge.SUFFIX(i32 %a, i32 %b) {
entry:
  %pick = icmp slt i32 %a, %b
  br i1 %pick, label %left, label %right
left:
  %aw = sext i32 %a to i64
  br label %join
right:
  %bw = sext i32 %b to i64
  br label %join
join:
  %v = phi i64 [ %aw, %left ], [ %bw, %right ]
  %r = mul i64 %v, 5
  ret i64 %r
}

; `for k in -8:8; acc += k * x`: negative values, a signed range (SCEV).
define i64 @centred.SUFFIX(i32 %x, i32 %unused) {
entry:
  %xw = zext i32 %x to i64
  br label %loop
loop:
  %k = phi i64 [ -8, %entry ], [ %k.next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  %term = mul i64 %k, %xw
  %acc.next = add i64 %acc, %term
  %k.next = add nsw i64 %k, 1
  %done = icmp eq i64 %k.next, 9
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %acc.next
}

; `for k in 1:16; acc += k * x`: an affine recurrence bounded by its trip
; count (SCEV's range).
define i64 @counted.SUFFIX(i32 %x, i32 %unused) {
entry:
  %xw = sext i32 %x to i64
  br label %loop
loop:
  %k = phi i64 [ 1, %entry ], [ %k.next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  %term = mul i64 %k, %xw
  %acc.next = add i64 %acc, %term
  %k.next = add nuw nsw i64 %k, 1
  %done = icmp eq i64 %k.next, 17
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %acc.next
}

; A switch reaching %join twice from %entry: the narrowed phi must take
; one value from it.
define i64 @switch.SUFFIX(i32 %a, i32 %sel) {
entry:
  %w = zext i32 %a to i64
  switch i32 %sel, label %other [ i32 0, label %join
                                  i32 1, label %join ]
other:
  br label %join
join:
  %v = phi i64 [ %w, %entry ], [ %w, %entry ], [ 7, %other ]
  %r = mul i64 %v, 3
  ret i64 %r
}

; Nothing proves these fit: a start from a 64-bit product, a count to a
; 64-bit bound.
define i64 @wide.SUFFIX(i32 %a, i32 %b) {
entry:
  %aw = zext i32 %a to i64
  %bw = zext i32 %b to i64
  %s0 = mul i64 %aw, %bw
  br label %loop
loop:
  %s = phi i64 [ %s0, %entry ], [ %s.next, %loop ]
  %s.next = lshr i64 %s, 3
  %done = icmp ult i64 %s, 8
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %s0
}

define i64 @unbounded.SUFFIX(i32 %a, i32 %b) {
entry:
  %aw = zext i32 %a to i64
  %n = shl i64 %aw, 20
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %k.next = add nuw nsw i64 %k, 1
  %done = icmp uge i64 %k.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %k.next
}
)IR";

std::string copyNamed(StringRef Suffix) {
  std::string S = Functions;
  for (size_t At = S.find("SUFFIX"); At != std::string::npos;
       At = S.find("SUFFIX", At))
    S.replace(At, 6, Suffix.str());
  return S;
}

/// Runs NarrowPhisPass on the functions named `*.narrowed`.
void narrowCopies(Module &M) {
  prism::test::runOnFunctions(M, prism::NarrowPhisPass(), [](const Function &F) {
    return F.getName().endswith(".narrowed");
  });
}

/// The bit widths of F's integer phis, in order.
std::string phiWidths(const Function &F) {
  std::string S;
  for (const BasicBlock &BB : F)
    for (const PHINode &P : BB.phis())
      if (P.getType()->isIntegerTy())
        S += (S.empty() ? "" : " ") + P.getName().str() + ":" +
             std::to_string(P.getType()->getIntegerBitWidth());
  return S;
}

/// The extension that replaced phi `Name` in F: "zext", "sext" or "".
std::string extensionOf(const Function &F, StringRef Name) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (I.getName() == Name && isa<CastInst>(I))
        return I.getOpcodeName();
  return "";
}

using Fn = int64_t (*)(int32_t, int32_t);

} // namespace

TEST(NarrowPhis, NarrowsPhisProvenToFitAndLeavesTheRest) {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = prism::test::parseIR(Ctx, copyNamed("narrowed"));
  ASSERT_TRUE(M);
  narrowCopies(*M);
  auto Widths = [&](StringRef F) {
    return phiWidths(*M->getFunction((F + ".narrowed").str()));
  };
  EXPECT_EQ(Widths("halving"), "s.narrow:32 acc:64 r:64");
  EXPECT_EQ(extensionOf(*M->getFunction("halving.narrowed"), "s"), "zext");
  EXPECT_EQ(Widths("signed_merge"), "v.narrow:32");
  EXPECT_EQ(extensionOf(*M->getFunction("signed_merge.narrowed"), "v"),
            "sext");
  EXPECT_EQ(Widths("centred"), "k.narrow:32 acc:64");
  EXPECT_EQ(extensionOf(*M->getFunction("centred.narrowed"), "k"), "sext");
  EXPECT_EQ(Widths("counted"), "k.narrow:32 acc:64");
  EXPECT_EQ(Widths("switch"), "v.narrow:32");
  EXPECT_EQ(Widths("wide"), "s:64");
  EXPECT_EQ(Widths("unbounded"), "k:64");
}

// The narrowed functions compute what the originals compute, at the edges
// of the 32-bit ranges too.
TEST(NarrowPhis, NarrowedFunctionsComputeWhatTheyComputed) {
  prism::initializeLLVMTargets();
  auto Ctx = std::make_unique<LLVMContext>();
  std::unique_ptr<Module> M = prism::test::parseIR(
      *Ctx, copyNamed("original") + copyNamed("narrowed"));
  ASSERT_TRUE(M);
  narrowCopies(*M);
  auto J = orc::LLJITBuilder().create();
  ASSERT_TRUE(!!J) << toString(J.takeError());
  ASSERT_FALSE(
      !!(*J)->addIRModule(orc::ThreadSafeModule(std::move(M), std::move(Ctx))));
  const int32_t Edges[] = {0,          1,         2,          3,
                           7,          255,       256,        1023,
                           65535,      INT32_MAX, INT32_MIN,  -1,
                           -2,         -256,      0x40000000, -0x40000000};
  for (const char *Name :
       {"halving", "signed_merge", "centred", "counted", "switch", "wide"}) {
    SCOPED_TRACE(Name);
    auto O = (*J)->lookup(std::string(Name) + ".original");
    auto N = (*J)->lookup(std::string(Name) + ".narrowed");
    ASSERT_TRUE(O && N);
    auto *Original = O->toPtr<Fn>();
    auto *Narrowed = N->toPtr<Fn>();
    for (int32_t A : Edges)
      for (int32_t B : {0, 1, 2, 5, -1})
        EXPECT_EQ(Narrowed(A, B), Original(A, B)) << A << ", " << B;
  }
}
