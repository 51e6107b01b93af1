#include "codegen/LineMap.h"

#include <gtest/gtest.h>

using namespace prism;

namespace {

LineOrigin origin(std::initializer_list<SourceFrame> Frames) {
  LineOrigin O;
  O.Frames = Frames;
  return O;
}

} // namespace

// Code inlined from the prelude names the user's line it came from.
TEST(LineMap, DescribesAnOriginDownToTheUsersLine) {
  EXPECT_EQ(describeOrigin({}), "");
  EXPECT_EQ(describeOrigin(origin({{"saxpy!", "/w/saxpy.jl", 11, 5}})),
            "saxpy.jl:11");
  EXPECT_EQ(describeOrigin(origin({{"getindex", "prelude/80_array.jl", 88, 1},
                                   {"saxpy!", "/w/saxpy.jl", 11, 5}})),
            "80_array.jl:88 getindex, inlined into saxpy! at saxpy.jl:11");
  EXPECT_EQ(describeOrigin(origin({{"-", "prelude/30_int.jl", 7, 1},
                                   {"-", "prelude/30_int.jl", 27, 1},
                                   {"saxpy!", "/w/saxpy.jl", 9, 5},
                                   {"outer", "/w/saxpy.jl", 20, 5}})),
            "30_int.jl:7 -, inlined into - at 30_int.jl:27, within saxpy! at "
            "saxpy.jl:9, within outer at saxpy.jl:20");
  // A launch wrapper around the entry (artificial) adds nothing.
  EXPECT_EQ(
      describeOrigin(origin({{"unsafe_load", "prelude/80_array.jl", 4, 1},
                             {"accept", "/w/filter.jl", 10, 5},
                             {"julia_accept", "/w/filter.jl", 6, 1, true}})),
      "80_array.jl:4 unsafe_load, inlined into accept at filter.jl:10");
  // The entry's own line inside such a wrapper is just that line.
  EXPECT_EQ(
      describeOrigin(origin({{"accept", "/w/filter.jl", 7, 5},
                             {"julia_accept", "/w/filter.jl", 6, 1, true}})),
      "filter.jl:7");
}

// User code inlined into user code: the chain runs out to the entry, so
// that the two copies of `sq` are told apart.
TEST(LineMap, DescribesUserCodeInlinedIntoUserCode) {
  EXPECT_EQ(describeOrigin(origin({{"*", "prelude/40_float.jl", 6, 46},
                                   {"sq", "/w/t5.jl", 1, 18},
                                   {"two", "/w/t5.jl", 3, 9}})),
            "40_float.jl:6 *, inlined into sq at t5.jl:1, within two at "
            "t5.jl:3");
  EXPECT_EQ(describeOrigin(origin({{"*", "prelude/40_float.jl", 6, 46},
                                   {"sq", "/w/t5.jl", 1, 18},
                                   {"two", "/w/t5.jl", 4, 9},
                                   {"jfptr_two", "/w/t5.jl", 2, 1, true}})),
            "40_float.jl:6 *, inlined into sq at t5.jl:1, within two at "
            "t5.jl:4");
}

// code_llvm's text: a comment before the instructions of each new line,
// none for lines without a location, and each function starts afresh.
TEST(LineMap, AnnotatesIRInstructions) {
  std::string IR = "define void @f() {\n"
                   "top:\n"
                   "  %0 = add i64 1, 2\n"
                   "  %1 = add i64 %0, 2\n"
                   "  %2 = zext i32 0 to i64\n"
                   "  ret void\n"
                   "}\n"
                   "define void @g() {\n"
                   "  ret void\n"
                   "}\n";
  LineOrigin A = origin({{"f", "/w/a.jl", 3, 1}});
  LineOrigin B = origin({{"f", "/w/a.jl", 4, 1}});
  std::vector<LineOrigin> Lines = {{}, {}, A, A, {}, B, {}, {}, B, {}};
  EXPECT_EQ(annotateIR(IR, Lines), "define void @f() {\n"
                                   "top:\n"
                                   "  ; a.jl:3\n"
                                   "  %0 = add i64 1, 2\n"
                                   "  %1 = add i64 %0, 2\n"
                                   "  %2 = zext i32 0 to i64\n"
                                   "  ; a.jl:4\n"
                                   "  ret void\n"
                                   "}\n"
                                   "define void @g() {\n"
                                   "  ; a.jl:4\n"
                                   "  ret void\n"
                                   "}\n");
}
