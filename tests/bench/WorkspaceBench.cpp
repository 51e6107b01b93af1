// Incremental recompile: ten watched jobs; an edit to a leaf function used
// by one of them reloads that definition, invalidates through backedges and
// recompiles exactly that job. Measured from the edit to the published
// snapshot, with the recompiled-job count as a counter (it must read 1).
#include "workspace/JobCompile.h"
#include "workspace/Workspace.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <cstdlib>

using namespace prism;

namespace {

std::string program(int Variant) {
  std::string S;
  for (int J = 0; J < 10; ++J)
    S += "leaf" + std::to_string(J) + "(x) = x + " +
         std::to_string(J == 0 ? Variant : J) + "\n" + "job" +
         std::to_string(J) + "(x::Int64) = leaf" + std::to_string(J) +
         "(x) * 2\n";
  return S;
}

void BM_EditLeafRecompilesOneJob(benchmark::State &S, const char *Target) {
  llvm::SmallString<128> Dir, Path;
  llvm::sys::fs::createUniqueDirectory("prism-bench-ws", Dir);
  setenv("XDG_STATE_HOME", Dir.c_str(), 1);
  Path = Dir;
  Path += "/jobs.jl";
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << program(0);
  }
  Workspace WS(makeDriverJobCompiler());
  WS.openFile(std::string(Path));
  for (int J = 0; J < 10; ++J) {
    JobSpec Spec;
    Spec.Signature = "job" + std::to_string(J) + "(Int64)";
    Spec.Target = Target;
    Spec.Kernel = false;
    WS.addJob(Spec);
  }
  WS.waitIdle();
  int Variant = 1;
  uint64_t Recompiled = 0, Edits = 0;
  for (auto _ : S) {
    WS.setSource(program(Variant++));
    WS.waitIdle();
    auto Snap = WS.snapshot();
    if (!Snap->Log.empty())
      Recompiled += Snap->Log.back().Recompiled.size();
    ++Edits;
  }
  S.counters["jobs_recompiled_per_edit"] =
      static_cast<double>(Recompiled) / static_cast<double>(Edits);
  llvm::sys::fs::remove_directories(Dir);
}
BENCHMARK_CAPTURE(BM_EditLeafRecompilesOneJob, native, "native")
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_EditLeafRecompilesOneJob, ptx, "ptx")
    ->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
