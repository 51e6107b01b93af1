// The pipeline's snapshots reuse a function's text instead of printing it
// again when a pass preserved everything and the IR's fingerprint did not
// change. On every job of every example, on every target it names, each
// reused text must equal what a fresh print would have given.
#include "core/infer/InferTestUtil.h"

#include "cache/Compiler.h"
#include "optim/Pipeline.h"
#include "targets/Target.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <mutex>

using namespace prism;

namespace {

struct ExampleJobs {
  std::string File;
  std::vector<std::string> Sigs, Targets;
  std::vector<bool> Kernel; ///< per signature, on GPU targets
};

/// An example's `# job:` and `# targets:` header lines.
ExampleJobs readHeader(const std::filesystem::path &Path) {
  ExampleJobs J;
  J.File = Path.filename().string();
  auto Buf = llvm::MemoryBuffer::getFile(Path.string());
  if (!Buf)
    return J;
  llvm::StringRef Rest = (*Buf)->getBuffer();
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    if (!Line.consume_front("#"))
      break;
    Line = Line.trim();
    if (Line.consume_front("job:")) {
      Line = Line.trim();
      bool NoKernel = Line.consume_back(" --no-kernel");
      J.Sigs.push_back(Line.str());
      J.Kernel.push_back(!NoKernel);
    } else if (Line.consume_front("targets:")) {
      llvm::SmallVector<llvm::StringRef> Ts;
      Line.split(Ts, ' ', -1, false);
      for (llvm::StringRef T : Ts)
        J.Targets.push_back(T.str());
    }
  }
  if (J.Targets.empty())
    J.Targets.push_back("native");
  return J;
}

class SnapshotReuse : public prism::testing::InferTest {};

} // namespace

TEST_F(SnapshotReuse, EveryReusedTextIsWhatAFreshPrintGives) {
  std::vector<std::filesystem::path> Files;
  for (const auto &E : std::filesystem::directory_iterator(PRISM_EXAMPLES_DIR))
    if (E.path().extension() == ".jl")
      Files.push_back(E.path());
  std::sort(Files.begin(), Files.end());
  ASSERT_GE(Files.size(), 10u);

  unsigned Jobs = 0, Skipped = 0, Snapshots = 0;
  for (const auto &Path : Files) {
    ExampleJobs J = readHeader(Path);
    // A fresh environment per file: examples reuse function names.
    GlobalEnv FileEnv;
    ASSERT_FALSE(!!loadPrelude(FileEnv));
    {
      auto Buf = llvm::MemoryBuffer::getFile(Path.string());
      ASSERT_TRUE(!!Buf);
      auto Loaded = loadFile(FileEnv, parseFile(SourceFile::create(
                                          J.File, (*Buf)->getBuffer().str())));
      ASSERT_TRUE(!!Loaded)
          << J.File << ": " << prism::testing::renderAll(Loaded.takeError());
    }
    InferenceEngine FileEngine(FileEnv);
    for (size_t S = 0; S < J.Sigs.size(); ++S) {
      for (const std::string &T : J.Targets) {
        SCOPED_TRACE(J.File + ": " + J.Sigs[S] + " on " + T);
        CompilerConfigOptions CO;
        CO.Target = T;
        CO.Kernel = J.Kernel[S] && T != "native" && T != "bpf";
        auto C = CompilerConfig::create(CO);
        ASSERT_TRUE(!!C) << prism::testing::renderAll(C.takeError());
        auto Sig = parseSignature(FileEnv, J.Sigs[S]);
        ASSERT_TRUE(!!Sig) << prism::testing::renderAll(Sig.takeError());
        CompilerJob Job{
            FunctionSpec{Sig->Func, TypeContext::get().tuple(Sig->ArgTypes)},
            *C, FileEnv.currentWorld()};
        CompileResult R = compile(FileEngine, Job, Stage::LLVMRaw, {}, {});
        if (!R.ok() || !R.Module)
          continue; // unstable.jl's job fails on purpose, before LLVM.

        OptimizeOptions OO;
        OO.OptLevel = (*C)->optLevel();
        OO.CollectSnapshots = true;
        OO.VerifySkippedPrints = true;
        const CompilerConfig &Config = **C;
        OO.TuneHook = [&Config](llvm::PassBuilder &PB) {
          Config.target().tunePipeline(PB, Config);
        };
        auto TM = Config.targetMachine();
        ASSERT_TRUE(!!TM) << prism::testing::renderAll(TM.takeError());
        std::lock_guard<std::mutex> Lock(Config.targetMachineLock());
        auto Opt = optimizeModule(*R.Module, *TM, OO);
        ASSERT_TRUE(!!Opt) << prism::testing::renderAll(Opt.takeError());
        for (const std::string &M : Opt->SkippedPrintMismatches)
          ADD_FAILURE() << "reused a stale text: " << M;
        ++Jobs;
        Skipped += Opt->PrintsSkipped;
        Snapshots += Opt->Snapshots.size();
      }
    }
  }
  std::printf("[ reuse    ] %u jobs: %u snapshots recorded, %u prints "
              "skipped\n",
              Jobs, Snapshots, Skipped);
  EXPECT_GE(Jobs, 40u);
  // The skip is what the fingerprint is for: most pass runs change nothing.
  EXPECT_GT(Skipped, Snapshots);
}
