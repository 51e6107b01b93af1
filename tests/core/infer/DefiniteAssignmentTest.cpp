// Definite assignment over typed IR: which reads may find a slot unassigned,
// and the same answers whatever order statements are asked about.
#include "core/infer/InferTestUtil.h"

#include "infer/DefiniteAssignment.h"

#include <gtest/gtest.h>

using namespace prism;

namespace {

const char *Program = R"(
function one_branch(c)
    if c
        v = 7
    end
    return v
end
function both_branches(c)
    if c
        v = 1
    else
        v = 2
    end
    return v
end
function last_in_loop(n)
    i = 0
    if n > 100
        w = -1 # a local of the function, which the loop assigns
    end
    while i < n
        w = i
        i += 1
    end
    return w
end
function sum_to(n)
    s = 0
    for k in 1:n
        s += k
    end
    return s
end
)";

class DefiniteAssignmentTest : public prism::testing::InferTest {
protected:
  const TypedCode &code(const std::string &Sig) {
    CodeInstance *CI = infer(Sig);
    EXPECT_TRUE(CI && CI->Code) << Sig;
    return *CI->Code;
  }
};

TEST_F(DefiniteAssignmentTest, ReadsAfterEveryPathAssignsAreSafe) {
  loadText("assign.jl", Program);
  EXPECT_TRUE(readsMaybeUnassigned(code("one_branch(Bool)")));
  EXPECT_FALSE(readsMaybeUnassigned(code("both_branches(Bool)")));
  EXPECT_TRUE(readsMaybeUnassigned(code("last_in_loop(Int)")));
  EXPECT_FALSE(readsMaybeUnassigned(code("sum_to(Int)")));
}

TEST_F(DefiniteAssignmentTest, AnswersDoNotDependOnTheOrderOfQuestions) {
  loadText("assign.jl", Program);
  for (const char *Sig : {"one_branch(Bool)", "both_branches(Bool)",
                          "last_in_loop(Int)", "sum_to(Int)"}) {
    const TypedCode &Code = code(Sig);
    const size_t N = Code.Code.size(), NS = Code.Slots.size();
    DefiniteAssignment Forward(Code);
    std::vector<std::vector<bool>> Expected(N + 1, std::vector<bool>(NS));
    for (size_t PC = 0; PC <= N; ++PC)
      for (unsigned S = 0; S < NS; ++S)
        Expected[PC][S] = Forward.assigned(PC, S);
    // Arguments are assigned at entry.
    for (unsigned S = 0; S <= Code.NumArgs && S < NS; ++S)
      EXPECT_TRUE(Expected[0][S]) << Sig << " slot " << S;
    DefiniteAssignment Backward(Code);
    for (size_t PC = N + 1; PC-- > 0;)
      for (unsigned S = 0; S < NS; ++S)
        EXPECT_EQ(Backward.assigned(PC, S), Expected[PC][S])
            << Sig << " statement " << PC << " slot " << S;
    DefiniteAssignment Strided(Code);
    for (size_t Step : {size_t(3), size_t(1)})
      for (size_t PC = 0; PC <= N; PC += Step)
        for (unsigned S = 0; S < NS; ++S)
          EXPECT_EQ(Strided.assigned(PC, S), Expected[PC][S])
              << Sig << " statement " << PC << " slot " << S;
  }
}

} // namespace
