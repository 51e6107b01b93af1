#include "support/Allocation.h"

#include <gtest/gtest.h>

#include <memory>
#include <thread>

using namespace prism;

TEST(AllocationScope, CountsOneNewInt) {
  ASSERT_TRUE(allocationCountingActive());
  AllocationScope S;
  int *P = new int(42);
  // Keep the compiler from eliding the new-expression (C++14 allows it).
  asm volatile("" : : "r"(P) : "memory");
  AllocationStats A = S.elapsed();
  delete P;
  EXPECT_EQ(A.Count, 1u);
  EXPECT_EQ(A.Bytes, 4u);
}

TEST(AllocationScope, CountsNothingForNothing) {
  AllocationScope S;
  AllocationStats A = S.elapsed();
  EXPECT_EQ(A.Count, 0u);
  EXPECT_EQ(A.Bytes, 0u);
}

TEST(AllocationScope, OtherThreadsDoNotLeakIn) {
  AllocationScope S;
  std::thread T([] {
    for (int I = 0; I < 1000; ++I)
      delete new long(I);
  });
  // Creating the thread itself allocates on this thread; measure after it.
  AllocationStats Before = S.elapsed();
  T.join();
  AllocationStats After = S.elapsed();
  EXPECT_LT(After.Count - Before.Count, 5u)
      << "the other thread's 1000 allocations leaked into this scope";
}

TEST(AllocationScope, CountsFreesAndArrays) {
#if defined(__SANITIZE_ADDRESS__) // gcc
  GTEST_SKIP() << "ASan's operator new replaces the counting one";
#elif defined(__has_feature) // clang
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "ASan's operator new replaces the counting one";
#endif
#endif
  AllocationScope S;
  auto V = std::make_unique<char[]>(100);
  V.reset();
  AllocationStats A = S.elapsed();
  EXPECT_EQ(A.Count, 1u);
  EXPECT_EQ(A.Bytes, 100u);
  EXPECT_EQ(A.Frees, 1u);
}
