// `prism report`'s cache section, and the on-disk cache across processes:
// the second process loads what the first wrote; a corrupted entry is
// detected, discarded and recompiled.
#include "CliTestUtil.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sys/stat.h>

using namespace prism::test;

namespace {

const char *Saxpy =
    "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})";

/// The `cache` object of `prism report --json`.
llvm::json::Object reportCache(const std::vector<std::string> &Extra) {
  std::vector<std::string> Args = {"report", example("saxpy.jl"), Saxpy,
                                   "--target", "ptx", "--json"};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  CommandResult R = runPrism(Args);
  EXPECT_EQ(R.ExitCode, 0) << R.Err;
  auto J = llvm::json::parse(R.Out);
  if (!J) {
    ADD_FAILURE() << llvm::toString(J.takeError()) << "\n" << R.Out;
    return {};
  }
  const llvm::json::Object *C = J->getAsObject()->getObject("cache");
  EXPECT_NE(C, nullptr) << R.Out;
  return C ? *C : llvm::json::Object{};
}

std::vector<std::string> entriesIn(const std::string &Dir) {
  std::vector<std::string> Out;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::StringRef(It->path()).endswith(".pco"))
      Out.push_back(It->path());
  return Out;
}

} // namespace

TEST(CacheCli, ReportMeasuresAnAllocationFreeHit) {
  llvm::json::Object C = reportCache({});
  EXPECT_EQ(C.getInteger("compiles"), 1);
  EXPECT_EQ(C.getInteger("misses"), 1);
  EXPECT_GT(*C.getInteger("hits"), 0);
  EXPECT_EQ(C.getNumber("allocs_per_hit"), 0.0);
  EXPECT_GT(*C.getNumber("hit_ns"), 0.0);
  EXPECT_GT(*C.getNumber("compile_ms"), 0.0);
  EXPECT_EQ(C.getObject("disk")->getBoolean("enabled"), false);
}

TEST(CacheCli, DiskCacheAcrossProcessesAndCorruption) {
  llvm::SmallString<128> Tmp;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("prism-cli-cache", Tmp));
  std::string Dir = std::string(Tmp) + "/cache";

  // First process: compiles and writes one private entry.
  llvm::json::Object First = reportCache({"--cache-dir", Dir});
  const llvm::json::Object *D1 = First.getObject("disk");
  ASSERT_NE(D1, nullptr);
  EXPECT_EQ(D1->getBoolean("hit"), false);
  EXPECT_EQ(D1->getInteger("writes"), 1);
  std::vector<std::string> Files = entriesIn(Dir);
  ASSERT_EQ(Files.size(), 1u);
  struct stat St;
  ASSERT_EQ(::stat(Dir.c_str(), &St), 0);
  EXPECT_EQ(St.st_mode & 0777, 0700u);
  ASSERT_EQ(::stat(Files[0].c_str(), &St), 0);
  EXPECT_EQ(St.st_mode & 0777, 0600u);

  // Second process: loads it instead of compiling.
  llvm::json::Object Second = reportCache({"--cache-dir", Dir});
  EXPECT_EQ(Second.getObject("disk")->getBoolean("hit"), true);
  EXPECT_EQ(Second.getObject("disk")->getInteger("writes"), 0);
  EXPECT_EQ(Second.getInteger("misses"), 1);
  EXPECT_EQ(Second.getInteger("compiles"), 0) << "a load counted as a compile";

  // Corrupt it: the third process detects it, recompiles and rewrites.
  {
    std::fstream F(Files[0], std::ios::in | std::ios::out | std::ios::binary);
    F.seekp(200);
    F.put('\x13');
  }
  llvm::json::Object Third = reportCache({"--cache-dir", Dir});
  const llvm::json::Object *D3 = Third.getObject("disk");
  EXPECT_EQ(D3->getBoolean("hit"), false);
  EXPECT_EQ(D3->getInteger("corrupt"), 1);
  EXPECT_EQ(D3->getInteger("writes"), 1);
  llvm::json::Object Fourth = reportCache({"--cache-dir", Dir});
  EXPECT_EQ(Fourth.getObject("disk")->getBoolean("hit"), true);

  llvm::sys::fs::remove_directories(Tmp);
}

TEST(CacheCli, UnusableCacheDirectoryStillReports) {
  llvm::json::Object C = reportCache({"--cache-dir", "/proc/prism-no-cache"});
  EXPECT_EQ(C.getInteger("compiles"), 1);
  auto Err = C.getObject("disk")->getString("error");
  ASSERT_TRUE(Err.has_value());
  EXPECT_NE(Err->find("cannot create cache directory"), llvm::StringRef::npos);
}
