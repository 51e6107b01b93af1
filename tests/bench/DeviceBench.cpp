// The host device's launch path, in steady state: an empty kernel launched
// again and again in one process (argument marshalling, the grid runtime,
// results read back), with the allocations of each launch. `scripts/bench`
// reports the 1×1 figure against the ≤ 2 µs target; the first launch of a
// fresh `prism run` process is a separate row there.
#include "cache/Compiler.h"
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

/// `empty!(a)` compiled for the native target and loaded on the host device.
struct EmptyKernel {
  GlobalEnv Env;
  std::unique_ptr<InferenceEngine> Engine;
  std::unique_ptr<Device> Host = createHostDevice();
  std::unique_ptr<LoadedKernel> K;

  EmptyKernel() {
    if (llvm::Error E = loadPrelude(Env))
      fail(std::move(E));
    auto Loaded = loadFile(Env, parseFile(SourceFile::create(
                                    "empty.jl", "function empty!(a::DeviceArray{Float32,1})\n"
                                                "    return nothing\nend\n")));
    if (!Loaded)
      fail(Loaded.takeError());
    Engine = std::make_unique<InferenceEngine>(Env);
    auto Sig = parseSignature(Env, "empty!(DeviceArray{Float32,1})");
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
      llvm::errs() << "empty! does not compile\n";
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
  static EmptyKernel &get() {
    static EmptyKernel E;
    return E;
  }
};

void BM_HostLaunchEmpty(benchmark::State &S) {
  EmptyKernel &E = EmptyKernel::get();
  std::vector<uint8_t> Bytes(4 * 16);
  std::vector<HostValue> Args = {
      HostValue::array(ScalarKind::Float32, {16}, std::move(Bytes))};
  Dim3 Grid{uint32_t(S.range(0)), 1, 1}, Block{uint32_t(S.range(1)), 1, 1};
  // The first launch starts the runtime (and, with several blocks, the
  // thread pool); what is measured is every launch after it.
  if (auto R = E.Host->launch(*E.K, Grid, Block, Args); !R)
    fail(R.takeError());
  AllocationScope Scope;
  for (auto _ : S) {
    auto R = E.Host->launch(*E.K, Grid, Block, Args);
    if (!R) {
      llvm::consumeError(R.takeError());
      S.SkipWithError("launch failed");
      break;
    }
    benchmark::DoNotOptimize(*R);
  }
  S.counters["allocs_per_iter"] =
      double(Scope.elapsed().Count) / double(std::max<int64_t>(1, S.iterations()));
}
BENCHMARK(BM_HostLaunchEmpty)
    ->Args({1, 1})
    ->Args({1, 256})
    ->Args({64, 256})
    ->ArgNames({"blocks", "threads"})
    ->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
