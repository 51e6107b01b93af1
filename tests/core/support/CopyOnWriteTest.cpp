// Copy on write: copies share a value until one writes it; the other
// keeps what it had.
#include "support/CopyOnWrite.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace prism;

namespace {

TEST(CopyOnWrite, CopiesShareUntilOneWrites) {
  CopyOnWrite<std::vector<std::string>> A;
  EXPECT_TRUE(A.empty()); // nothing allocated yet, still readable
  A.push_back("ld.global");
  A.push_back("st.global");
  CopyOnWrite<std::vector<std::string>> B = A;
  EXPECT_TRUE(B.sharesWith(A));
  EXPECT_EQ(&B.get(), &A.get());
  EXPECT_EQ(B[1], "st.global");

  B.push_back("bar.sync"); // B detaches; A keeps its two
  EXPECT_FALSE(B.sharesWith(A));
  EXPECT_EQ(A.size(), 2u);
  EXPECT_EQ(B.size(), 3u);
  EXPECT_EQ(B[2], "bar.sync");

  // The sole owner writes in place.
  const std::string *Before = &B.get()[0];
  B.mut()[0] = "ld.shared";
  EXPECT_EQ(&B.get()[0], Before);
  EXPECT_EQ(A[0], "ld.global");

  std::vector<std::string> Seen(A.begin(), A.end());
  EXPECT_EQ(Seen, (std::vector<std::string>{"ld.global", "st.global"}));
}

} // namespace
