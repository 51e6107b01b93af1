// `prism run` on the host device: output shape, exit statuses.
#include "CliTestUtil.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <optional>

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
  // What the device said when it loaded the code: integers are numbers.
  const llvm::json::Object *Load = O->getObject("load");
  ASSERT_TRUE(Load) << R.Out;
  const llvm::json::Object *Facts = Load->getObject("facts");
  ASSERT_TRUE(Facts) << R.Out;
  EXPECT_EQ(Facts->getString("launch wrapper"), "jfptr_saxpy!");
  EXPECT_EQ(Facts->getInteger("shared bytes"), 0);
  EXPECT_GT(Facts->getInteger("object bytes").value_or(0), 0);
  EXPECT_TRUE(Load->getString("log"));
}

TEST(RunCli, TextNamesWhatWasLoaded) {
  auto R = runPrism({"run", example("reduce.jl"),
                     "block_sum!(zeros(Float32, 1), ones(Float32, 256))",
                     "--threads", "256"});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_NE(R.Out.find("  loaded: launch wrapper jfptr_block_sum! · shared "
                       "bytes 1024 · "),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("threads run as fibers (sync_threads)"),
            std::string::npos)
      << R.Out;
}

TEST(RunCli, AFirstFiberLaunchSaysWhatItsTimeIncludes) {
  // A fresh process creates its fiber stacks in its first synchronising
  // launch: the time says how much of it that was.
  auto R = runPrism({"run", example("reduce.jl"),
                     "block_sum!(zeros(Float32, 2), ones(Float32, 512))",
                     "--blocks", "2", "--threads", "256", "--json"});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  auto J = llvm::json::parse(R.Out);
  ASSERT_TRUE(!!J) << llvm::toString(J.takeError()) << "\n" << R.Out;
  const llvm::json::Object *O = J->getAsObject();
  ASSERT_TRUE(O);
  std::optional<llvm::StringRef> Setup = O->getString("setup");
  ASSERT_TRUE(Setup) << R.Out;
  EXPECT_TRUE(Setup->endswith(" fiber stacks, once per worker thread")) << Setup->str();
  EXPECT_GT(O->getNumber("setup_ms").value_or(0), 0.0) << R.Out;
  EXPECT_LE(O->getNumber("setup_ms").value_or(0), O->getNumber("time_ms").value_or(0));

  auto T = runPrism({"run", example("reduce.jl"),
                     "block_sum!(zeros(Float32, 2), ones(Float32, 512))",
                     "--blocks", "2", "--threads", "256"});
  ASSERT_EQ(T.ExitCode, 0) << T.Err;
  EXPECT_NE(T.Out.find(" fiber stacks, once per worker thread)"), std::string::npos)
      << T.Out;
  EXPECT_NE(T.Out.find("(wall clock; "), std::string::npos) << T.Out;

  // Without barriers there are no fibers, and nothing to say.
  auto S = runPrism({"run", example("saxpy.jl"),
                     "saxpy!(2.0f0, ones(Float32, 64), ones(Float32, 64))",
                     "--threads", "64", "--json"});
  ASSERT_EQ(S.ExitCode, 0) << S.Err;
  EXPECT_EQ(S.Out.find("setup"), std::string::npos) << S.Out;
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
  EXPECT_NE(R.Err.find(File + ":13:12: error: BoundsError at "),
            std::string::npos)
      << R.Err;
  EXPECT_NE(R.Err.find("error: BoundsError"), std::string::npos) << R.Err;

  R = runPrism({"run", File, "narrow(100000)"});
  EXPECT_EQ(R.ExitCode, 3) << R.Out << R.Err;
  EXPECT_NE(R.Err.find(File + ":17:18: error: InexactError at "),
            std::string::npos)
      << R.Err;
}

// `a[t] = b[t]` at -O2: two throws on one line, each at its own column
// (the column comes from the call's operands; the throw hook is nomerge).
TEST(RunCli, ThrowColumnIsTheAccessThatThrewOnEveryDevice) {
  std::string File = std::string(PRISM_TESTS_DIR) + "/cli/data/copy.jl";
  for (const char *Device : {"host", "interp"}) {
    auto R = runPrism({"run", File, "cp!(zeros(Float32, 8), ones(Float32, 4))",
                       "--threads", "5", "--device", Device});
    EXPECT_EQ(R.ExitCode, 3) << Device << R.Err;
    EXPECT_NE(R.Err.find(File + ":4:12: error: BoundsError"), std::string::npos)
        << Device << R.Err;
    EXPECT_NE(R.Err.find("4-element DeviceArray{Float32, 1} at index [5]"),
              std::string::npos)
        << Device << R.Err;
    R = runPrism({"run", File, "cp!(zeros(Float32, 3), ones(Float32, 4))",
                  "--threads", "4", "--device", Device});
    EXPECT_NE(R.Err.find(File + ":4:5: error: BoundsError"), std::string::npos)
        << Device << R.Err;
  }
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

// filter.jl on the Linux BPF VM: an IPv4 frame is accepted with its length,
// an ARP frame dropped. Needs root or CAP_BPF; skips with the reason if not.
TEST(RunCli, FilterOnTheBpfDevice) {
  std::string File = example("filter.jl");
  const std::string Ipv4 =
      "UInt8[0xff,0xff,0xff,0xff,0xff,0xff,0x00,0x11,0x22,0x33,0x44,0x55,"
      "0x08,0x00,0x45,0x00,0x00,0x14,0x00,0x00,0x00,0x00,0x40,0x11,0x00,0x00,"
      "0x0a,0x00,0x00,0x01,0x0a,0x00,0x00,0x02]";
  const std::string Arp =
      "UInt8[0xff,0xff,0xff,0xff,0xff,0xff,0x00,0x11,0x22,0x33,0x44,0x55,"
      "0x08,0x06,0x00,0x01,0x08,0x00,0x06,0x04,0x00,0x01]";
  auto R = runPrism({"run", File, "accept_ipv4(" + Ipv4 + ", UInt32(34))",
                     "--device", "bpf", "--json"});
  if (R.ExitCode == 3 && R.Err.find("unavailable") != std::string::npos)
    GTEST_SKIP() << "bpf device unavailable: " << R.Err;
  ASSERT_EQ(R.ExitCode, 0) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("\"return\": 34"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("\"device\": \"bpf\""), std::string::npos) << R.Out;
  // The verifier's log is kept on success too, with its statistics.
  EXPECT_NE(R.Out.find("processed "), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("\"verified instructions\": "), std::string::npos)
      << R.Out;

  R = runPrism({"run", File, "accept_ipv4(" + Arp + ", UInt32(22))", "--device",
                "bpf", "--json"});
  ASSERT_EQ(R.ExitCode, 0) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("\"return\": 0"), std::string::npos) << R.Out;
}

// A struct comes back as Julia shows it, on the host and on the reference
// interpreter alike, and as {"type", "fields"} in JSON.
TEST(RunCli, StructReturnPrintsAsJuliaShowsIt) {
  std::string File = std::string(PRISM_TESTS_DIR) + "/cli/data/structret.jl";
  for (const char *Device : {"host", "interp"}) {
    auto R = runPrism({"run", File, "tag(1.5f0, 3)", "--device", Device});
    EXPECT_EQ(R.ExitCode, 0) << Device << ": " << R.Err;
    EXPECT_NE(R.Out.find("return: Tagged{Tuple{Int64, Bool}}(Vec2(1.5f0, -1.5f0), (3, true))"),
              std::string::npos)
        << Device << ": " << R.Out;
  }
  auto R = runPrism({"run", File, "tag(1.5f0, 3)", "--json"});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  auto J = llvm::json::parse(R.Out);
  ASSERT_TRUE(!!J) << llvm::toString(J.takeError()) << "\n" << R.Out;
  const llvm::json::Object *Ret = J->getAsObject()->getObject("return");
  ASSERT_TRUE(Ret) << R.Out;
  EXPECT_EQ(Ret->getString("type"), "Tagged{Tuple{Int64, Bool}}");
  const llvm::json::Object *V = Ret->getObject("fields")->getObject("v");
  ASSERT_TRUE(V) << R.Out;
  EXPECT_EQ(V->getObject("fields")->getNumber("y"), -1.5);
}

// structs.jl's `rotate` takes a Vec2: the CALL builds it, the host and the
// interpreter pass it, and both return the rotated Vec2.
TEST(RunCli, StructArgumentsAreBuiltInTheCall) {
  for (const char *Device : {"host", "interp"}) {
    auto R = runPrism({"run", example("structs.jl"),
                       "rotate(Vec2(1, 0.5f0), 0f0, 1f0)", "--device", Device});
    EXPECT_EQ(R.ExitCode, 0) << Device << ": " << R.Err;
    EXPECT_NE(R.Out.find("return: Vec2(-0.5f0, 1.0f0)"), std::string::npos)
        << Device << ": " << R.Out;
  }
  auto R =
      runPrism({"run", example("structs.jl"), "rotate(Vec2(1), 0f0, 1f0)"});
  EXPECT_EQ(R.ExitCode, 2) << R.Out;
  EXPECT_NE(
      R.Err.find(
          "CALL:1:8: error: `Vec2` has 2 fields (x, y); the call gives 1"),
      std::string::npos)
      << R.Err;
}
