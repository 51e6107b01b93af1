#include "CliTestUtil.h"

#include <gtest/gtest.h>

using namespace prism::test;

TEST(Cli, Version) {
  auto R = runPrism({"--version"});
  EXPECT_EQ(R.ExitCode, 0);
  EXPECT_NE(R.Out.find("prism "), std::string::npos);
  EXPECT_NE(R.Out.find("LLVM 16"), std::string::npos);
  // The allocator malloc really resolves to (checked at run time).
#ifdef PRISM_HAVE_MIMALLOC
  EXPECT_NE(R.Out.find(", mimalloc 2."), std::string::npos) << R.Out;
#else
  EXPECT_NE(R.Out.find(", glibc malloc)"), std::string::npos) << R.Out;
#endif
}

TEST(Cli, HelpForEveryCommand) {
  for (const char *Cmd : {"code_lowered", "devices", "gui", "code_typed", "code_llvm", "report"}) {
    auto R = runPrism({Cmd, "--help"});
    EXPECT_EQ(R.ExitCode, 0) << Cmd;
    EXPECT_NE(R.Out.find("Usage"), std::string::npos) << Cmd;
  }
}

TEST(Cli, BadUsageExitsTwo) {
  EXPECT_EQ(runPrism({"no_such_command"}).ExitCode, 2);
  EXPECT_EQ(runPrism({"code_lowered"}).ExitCode, 2);
  EXPECT_EQ(runPrism({"devices", "--bogus"}).ExitCode, 2);
}

TEST(Cli, DevicesListsHost) {
  auto R = runPrism({"devices"});
  EXPECT_EQ(R.ExitCode, 0);
  EXPECT_NE(R.Out.find("host: available"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("bpf:"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("cuda:"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("interp: available"), std::string::npos) << R.Out;
}

TEST(Cli, DevicesJson) {
  auto R = runPrism({"devices", "--json"});
  EXPECT_EQ(R.ExitCode, 0);
  EXPECT_NE(R.Out.find("\"devices\""), std::string::npos);
  EXPECT_NE(R.Out.find("\"name\": \"host\""), std::string::npos);
  EXPECT_NE(R.Out.find("\"name\": \"interp\""), std::string::npos) << R.Out;
}

// `prism` alone is the GUI, so a gui option without the word goes to it:
// without a display the screenshot fails as `prism gui --screenshot` does,
// not as an unknown option.
TEST(Cli, GuiOptionsWithoutTheWordGoToTheGui) {
  auto R = runPrism({"--screenshot", "/nonexistent/out.png"},
                    {"DISPLAY=", "WAYLAND_DISPLAY="});
  EXPECT_NE(R.ExitCode, 0);
  EXPECT_EQ(R.Err.find("not expected"), std::string::npos) << R.Err;
  if (R.Err.find("this build has no GUI") == std::string::npos) {
    EXPECT_NE(R.ExitCode, 2) << R.Err;
    EXPECT_NE(R.Err.find("screenshot"), std::string::npos) << R.Err;
  }
  // Unknown options are still bad usage, and --help stays the top level's.
  EXPECT_EQ(runPrism({"--bogus"}).ExitCode, 2);
  auto H = runPrism({"--help"});
  EXPECT_EQ(H.ExitCode, 0);
  EXPECT_NE(H.Out.find("code_typed"), std::string::npos) << H.Out;
}
