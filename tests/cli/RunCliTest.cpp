// `prism run` on the host device: output shape, exit statuses.
#include "CliTestUtil.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

using namespace prism::test;

TEST(RunCli, FibReturnsItsValue) {
  auto R = runPrism({"run", example("loops.jl"), "fib(20)"});
  EXPECT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_NE(R.Out.find("return: 6765"), std::string::npos) << R.Out;
}

TEST(RunCli, SaxpyJson) {
  auto R = runPrism({"run", example("saxpy.jl"),
                     "saxpy!(2.0f0, ones(Float32, 1000), ones(Float32, 1000))",
                     "--blocks", "4", "--threads", "256", "--json"});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  auto J = llvm::json::parse(R.Out);
  ASSERT_TRUE(!!J) << llvm::toString(J.takeError()) << "\n" << R.Out;
  const llvm::json::Object *O = J->getAsObject();
  ASSERT_TRUE(O);
  EXPECT_EQ(O->getString("device"), "host");
  ASSERT_TRUE(O->get("return"));
  EXPECT_EQ(*O->get("return"), llvm::json::Value(nullptr));
  EXPECT_TRUE(O->getNumber("time_ms"));
  const llvm::json::Array *Args = O->getArray("args");
  ASSERT_TRUE(Args);
  ASSERT_EQ(Args->size(), 3u);
  EXPECT_EQ((*Args)[0].getAsNumber(), 2.0);
  const llvm::json::Object *Y = (*Args)[2].getAsObject();
  ASSERT_TRUE(Y);
  EXPECT_EQ(Y->getString("type"), "DeviceArray{Float32,1}");
  const llvm::json::Array *Data = Y->getArray("data");
  ASSERT_TRUE(Data);
  ASSERT_EQ(Data->size(), 1000u);
  for (const llvm::json::Value &V : *Data)
    ASSERT_EQ(V.getAsNumber(), 3.0);
}

TEST(RunCli, ReduceText) {
  auto R = runPrism({"run", example("reduce.jl"),
                     "block_sum!(zeros(Float32, 4), ones(Float32, 1000))",
                     "--blocks", "4", "--threads", "256"});
  EXPECT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_NE(R.Out.find("Float32[256.0, 256.0, 256.0, 232.0]"), std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("checksum 1000"), std::string::npos) << R.Out;
}

TEST(RunCli, ThrowExitsThreeWithKindAndLine) {
  std::string File = example("exceptions.jl");
  auto R = runPrism({"run", File, "shift!(ones(Float32, 8))", "--threads", "8"});
  EXPECT_EQ(R.ExitCode, 3) << R.Out << R.Err;
  EXPECT_NE(R.Err.find(File + ":13:5: error: BoundsError at "),
            std::string::npos)
      << R.Err;
  EXPECT_NE(R.Err.find("error: BoundsError"), std::string::npos) << R.Err;

  R = runPrism({"run", File, "narrow(100000)"});
  EXPECT_EQ(R.ExitCode, 3) << R.Out << R.Err;
  EXPECT_NE(R.Err.find(File + ":17:1: error: InexactError at "),
            std::string::npos)
      << R.Err;
}

TEST(RunCli, UsageAndProgramErrors) {
  // Bad grid shape, unknown device: usage.
  EXPECT_EQ(runPrism({"run", example("loops.jl"), "fib(20)", "--threads", "0"})
                .ExitCode,
            2);
  EXPECT_EQ(runPrism({"run", example("loops.jl"), "fib(20)", "--device", "tpu"})
                .ExitCode,
            2);
  // No method for these argument types: a program error.
  EXPECT_EQ(runPrism({"run", example("loops.jl"), "fib(1.5)"}).ExitCode, 1);
}
