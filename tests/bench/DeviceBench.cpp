// The host device's launch path, in steady state: an empty kernel launched
// again and again in one process (argument marshalling, the grid runtime,
// results read back), with the allocations of each launch. `scripts/bench`
// reports the 1×1 figure against the ≤ 2 µs target; the first launch of a
// fresh `prism run` process is a separate row there. Also what the cuda
// worker process (CudaWorker.h) costs apart from the driver: starting and
// stopping one, and a request's round trip over its socket, measured with
// a driver library that does not exist so that they run on any machine.
#include "cache/Compiler.h"
#include "devices/CudaWorker.h"
#include "devices/HostDevice.h"
#include "infer/Inference.h"
#include "lang/Parser.h"
#include "support/Allocation.h"
#include "types/Loader.h"

#include <benchmark/benchmark.h>

#include <cstring>

using namespace prism;

namespace {

[[noreturn]] void fail(llvm::Error E) {
  for (const Diagnostic &D : takeDiagnostics(std::move(E)))
    llvm::errs() << renderDiagnostic(D, {false, false});
  std::exit(1);
}

/// A kernel compiled for the native target and loaded on the host device.
struct HostKernel {
  GlobalEnv Env;
  std::unique_ptr<InferenceEngine> Engine;
  std::unique_ptr<Device> Host = createHostDevice();
  std::unique_ptr<LoadedKernel> K;

  HostKernel(const char *File, const char *Source, const char *Signature) {
    if (llvm::Error E = loadPrelude(Env))
      fail(std::move(E));
    auto Loaded = loadFile(Env, parseFile(SourceFile::create(File, Source)));
    if (!Loaded)
      fail(Loaded.takeError());
    Engine = std::make_unique<InferenceEngine>(Env);
    auto Sig = parseSignature(Env, Signature);
    if (!Sig)
      fail(Sig.takeError());
    CompilerConfigOptions CO;
    CO.Target = "native";
    auto C = CompilerConfig::create(CO);
    if (!C)
      fail(C.takeError());
    CompilerJob Job{{Sig->Func, TypeContext::get().tuple(Sig->ArgTypes)}, *C,
                    Env.currentWorld()};
    CompileOptions Opts;
    Opts.EmitObject = true;
    CompileResult R = compile(*Engine, Job, Stage::Asm, {}, Opts);
    if (!R.ok()) {
      llvm::errs() << Signature << " does not compile\n";
      std::exit(1);
    }
    DeviceArtefact A;
    A.Target = "native";
    A.Entry = R.EntrySymbol;
    A.Object = R.Object;
    std::string Log;
    auto L = Host->load(A, Log);
    if (!L)
      fail(L.takeError());
    K = std::move(*L);
  }
};

HostKernel &emptyKernel() {
  static HostKernel E("empty.jl",
                      "function empty!(a::DeviceArray{Float32,1})\n"
                      "    return nothing\nend\n",
                      "empty!(DeviceArray{Float32,1})");
  return E;
}

/// assets/examples/saxpy.jl's kernel.
HostKernel &saxpyKernel() {
  static HostKernel E(
      "saxpy.jl",
      "function saxpy!(a, x, y)\n"
      "    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x\n"
      "    if i <= length(y)\n"
      "        @inbounds y[i] = a * x[i] + y[i]\n"
      "    end\n"
      "    return nothing\n"
      "end\n",
      "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  return E;
}

/// Launches K once untimed (the first launch starts the runtime and, with
/// several blocks, the thread pool), then once per benchmark iteration,
/// handing each result to Record.
template <typename RecordFn>
void launchRepeatedly(benchmark::State &S, HostKernel &E, Dim3 Grid, Dim3 Block,
                      std::vector<HostValue> &Args, RecordFn Record) {
  if (auto R = E.Host->launch(*E.K, Grid, Block, Args); !R)
    fail(R.takeError());
  for (auto _ : S) {
    auto R = E.Host->launch(*E.K, Grid, Block, Args);
    if (!R) {
      llvm::consumeError(R.takeError());
      S.SkipWithError("launch failed");
      break;
    }
    Record(*R);
  }
}

void BM_HostLaunchEmpty(benchmark::State &S) {
  HostKernel &E = emptyKernel();
  std::vector<uint8_t> Bytes(4 * 16);
  std::vector<HostValue> Args = {
      HostValue::array(ScalarKind::Float32, {16}, std::move(Bytes))};
  Dim3 Grid{uint32_t(S.range(0)), 1, 1}, Block{uint32_t(S.range(1)), 1, 1};
  AllocationScope Scope;
  launchRepeatedly(S, E, Grid, Block, Args,
                   [](const LaunchResult &R) { benchmark::DoNotOptimize(R); });
  S.counters["allocs_per_iter"] =
      double(Scope.elapsed().Count) / double(std::max<int64_t>(1, S.iterations()));
}
BENCHMARK(BM_HostLaunchEmpty)
    ->Args({1, 1})
    ->Args({1, 256})
    ->Args({64, 256})
    ->Args({16384, 1024})
    ->ArgNames({"blocks", "threads"})
    ->Unit(benchmark::kMicrosecond);

/// saxpy over 2^24 Float32 as `prism run` launches it (16384 blocks of 1024
/// threads), in steady state: the launch's own time (HostDevice's TimeMs,
/// without the copies of the arrays in and out), for scripts/bench to set
/// against the C loop.
void BM_HostSaxpy(benchmark::State &S) {
  HostKernel &E = saxpyKernel();
  const size_t N = size_t(1) << 24;
  std::vector<uint8_t> Ones(N * 4);
  for (size_t I = 0; I < N; ++I) {
    float One = 1.0f;
    std::memcpy(&Ones[I * 4], &One, 4);
  }
  std::vector<HostValue> Args = {
      HostValue::fromDouble(ScalarKind::Float32, 2.0),
      HostValue::array(ScalarKind::Float32, {int64_t(N)}, Ones),
      HostValue::array(ScalarKind::Float32, {int64_t(N)}, Ones)};
  Dim3 Grid{uint32_t(N / 1024), 1, 1}, Block{1024, 1, 1};
  launchRepeatedly(S, E, Grid, Block, Args,
                   [&](const LaunchResult &R) { S.SetIterationTime(R.TimeMs / 1e3); });
  S.counters["GB_per_s"] = benchmark::Counter(
      double(3 * 4 * N) * double(S.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_HostSaxpy)->UseManualTime()->Unit(benchmark::kMillisecond);

CudaDeviceOptions workerWithoutDriver() {
  CudaDeviceOptions O;
  O.Library = "libcuda-prism-bench-missing.so.1";
  return O;
}

/// posix_spawn of prism-cuda-worker, its hello, then closing the socket
/// and reaping the process: what each `prism run --device cuda` pays
/// before cuInit.
void BM_CudaWorkerStartStop(benchmark::State &S) {
  for (auto _ : S) {
    auto W = CudaWorkerClient::start(workerWithoutDriver());
    if (!W) {
      llvm::consumeError(W.takeError());
      S.SkipWithError("the worker did not start");
      break;
    }
    benchmark::DoNotOptimize(W->get());
  }
}
BENCHMARK(BM_CudaWorkerStartStop)->Unit(benchmark::kMillisecond);

/// One launch request carrying a Float32 array of range(0) elements, and
/// the worker's answer (an error: it has no driver, so no kernel): the
/// arguments' trip into the worker, which a real launch also makes back.
void BM_CudaWorkerRequest(benchmark::State &S) {
  auto W = CudaWorkerClient::start(workerWithoutDriver());
  if (!W) {
    llvm::consumeError(W.takeError());
    S.SkipWithError("the worker did not start");
    return;
  }
  size_t N = size_t(S.range(0));
  std::vector<HostValue> Args = {
      HostValue::array(ScalarKind::Float32, {int64_t(N)}, std::vector<uint8_t>(N * 4))};
  for (auto _ : S) {
    auto R = (*W)->launch(1, "bench", {1, 1, 1}, {1, 1, 1}, Args);
    if (R || (*W)->lost()) {
      llvm::consumeError(R.takeError());
      S.SkipWithError("the worker answered unexpectedly");
      break;
    }
    llvm::consumeError(R.takeError());
  }
  S.SetBytesProcessed(int64_t(S.iterations()) * int64_t(N * 4));
}
BENCHMARK(BM_CudaWorkerRequest)
    ->Arg(0)
    ->Arg(1 << 24)
    ->ArgName("floats")
    ->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
