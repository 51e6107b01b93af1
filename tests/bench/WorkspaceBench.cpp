// Incremental recompile: ten watched jobs; an edit to a leaf function used
// by one of them reloads that definition, invalidates through backedges and
// recompiles exactly that job. The time is from the edit until the
// workspace is idle again; the counter code_published_ms is from the edit
// until the first snapshot with the recompiled code (for ptx, ptxas then
// measures its resource figures, which arrive in a later snapshot). The
// recompiled-job count is a counter too (it must read 1), and so is what
// each edit leaves allocated: old worlds keep their methods and
// CodeInstances, as Julia's do.
#include "workspace/JobCompile.h"
#include "workspace/Workspace.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <malloc.h>

using namespace prism;

namespace {

/// Resident set size in KiB (/proc/self/statm's second field, in pages).
double residentKiB() {
  std::ifstream In("/proc/self/statm");
  double Size = 0, Resident = 0;
  In >> Size >> Resident;
  return Resident * 4.0;
}

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
  using Clock = std::chrono::steady_clock;
  // Set on the worker thread by the first publish that shows job0
  // recompiled (Compiles reached Want).
  std::atomic<uint64_t> Want{0};
  std::atomic<int64_t> CodeAt{0};
  WS.setOnPublish([&] {
    if (CodeAt.load() != 0)
      return;
    auto Snap = WS.snapshot();
    for (const JobState &J : Snap->Jobs)
      if (J.Spec.Signature == "job0(Int64)" && J.Status == JobStatus::Ok &&
          J.Compiles == Want.load())
        CodeAt.store(Clock::now().time_since_epoch().count());
  });
  int Variant = 1;
  uint64_t Recompiled = 0, Edits = 0;
  double CodeMs = 0;
  double Rss0 = residentKiB();
  double Heap0 = mallinfo2().uordblks / 1024.0;
  for (auto _ : S) {
    for (const JobState &J : WS.snapshot()->Jobs)
      if (J.Spec.Signature == "job0(Int64)")
        Want.store(J.Compiles + 1);
    CodeAt.store(0);
    auto T0 = Clock::now();
    WS.setSource(program(Variant++));
    WS.waitIdle();
    if (int64_t At = CodeAt.load())
      CodeMs += std::chrono::duration<double, std::milli>(Clock::duration(At) -
                                                          T0.time_since_epoch())
                    .count();
    auto Snap = WS.snapshot();
    if (!Snap->Log.empty())
      Recompiled += Snap->Log.back().Recompiled.size();
    ++Edits;
  }
  WS.setOnPublish(nullptr);
  S.counters["heap_kib_per_edit"] =
      (mallinfo2().uordblks / 1024.0 - Heap0) / static_cast<double>(Edits);
  S.counters["rss_kib_per_edit"] =
      (residentKiB() - Rss0) / static_cast<double>(Edits);
  S.counters["jobs_recompiled_per_edit"] =
      static_cast<double>(Recompiled) / static_cast<double>(Edits);
  S.counters["code_published_ms"] = CodeMs / static_cast<double>(Edits);
  llvm::sys::fs::remove_directories(Dir);
}
BENCHMARK_CAPTURE(BM_EditLeafRecompilesOneJob, native, "native")
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_EditLeafRecompilesOneJob, ptx, "ptx")
    ->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
