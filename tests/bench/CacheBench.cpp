// The compile cache: the hit a kernel launch pays (one and two threads) and
// the miss (a full compile of saxpy to PTX and to host code), each with the
// allocations per iteration from Prism's counting allocator.
//
//   cold: a fresh CompilerConfig (new TargetMachine) and a fresh inference
//         engine each iteration: everything but process-wide LLVM set-up.
//   warm: config and inferred code reused; codegen, the optimiser and the
//         backend run in full every iteration (a new LLVMContext each time).
#include "cache/CompileCache.h"
#include "infer/Inference.h"
#include "lang/Parser.h"
#include "support/Allocation.h"
#include "types/Loader.h"

#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

using namespace prism;

namespace {

constexpr const char *SaxpySig =
    "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})";

/// saxpy.jl loaded once per process.
struct Program {
  GlobalEnv Env;
  FunctionSpec Saxpy;

  Program() {
    if (llvm::Error E = loadPrelude(Env))
      fail(std::move(E));
    std::ifstream In(std::string(PRISM_EXAMPLES_DIR) + "/saxpy.jl");
    std::stringstream SS;
    SS << In.rdbuf();
    auto Loaded = loadFile(Env, parseFile(SourceFile::create("saxpy.jl", SS.str())));
    if (!Loaded)
      fail(Loaded.takeError());
    auto Sig = parseSignature(Env, SaxpySig);
    if (!Sig)
      fail(Sig.takeError());
    Saxpy = {Sig->Func, TypeContext::get().tuple(Sig->ArgTypes)};
  }
  [[noreturn]] static void fail(llvm::Error E) {
    for (const Diagnostic &D : takeDiagnostics(std::move(E)))
      llvm::errs() << renderDiagnostic(D, {false, false});
    std::exit(1);
  }
  static Program &get() {
    static Program P;
    return P;
  }
};

CompilerConfigRef config(const char *Target) {
  CompilerConfigOptions O;
  O.Target = Target;
  auto C = CompilerConfig::create(O);
  if (!C)
    Program::fail(C.takeError());
  return *C;
}

void setAllocs(benchmark::State &S, const AllocationScope &Scope) {
  S.counters["allocs_per_iter"] = benchmark::Counter(
      static_cast<double>(Scope.elapsed().Count) /
          static_cast<double>(S.iterations()),
      benchmark::Counter::kAvgThreads);
}

/// One cache shared by every thread of the hit benchmark.
struct HitFixture {
  InferenceEngine Engine{Program::get().Env};
  CompileCache Cache{Engine};
  CompilerConfigRef Config = config("ptx");
  HitFixture() {
    const FunctionSpec &S = Program::get().Saxpy;
    auto A = Cache.cachedCompilation(*Config, S.Func, S.ArgTuple);
    if (!A)
      Program::fail(A.takeError());
  }
  static HitFixture &get() {
    static HitFixture F;
    return F;
  }
};

void BM_CacheHit(benchmark::State &S) {
  HitFixture &F = HitFixture::get();
  const FunctionSpec &Spec = Program::get().Saxpy;
  const CompilerConfig &C = *F.Config;
  AllocationScope Scope;
  for (auto _ : S) {
    auto A = F.Cache.cachedCompilation(C, Spec.Func, Spec.ArgTuple);
    benchmark::DoNotOptimize(A);
    if (!A) {
      llvm::consumeError(A.takeError());
      S.SkipWithError("cache lookup failed");
      break;
    }
  }
  setAllocs(S, Scope);
}
BENCHMARK(BM_CacheHit)->Threads(1)->Threads(2)->UseRealTime();

void BM_CacheMiss(benchmark::State &S, const char *Target, bool Cold) {
  Program &P = Program::get();
  CompilerConfigRef Warm = config(Target);
  InferenceEngine WarmEngine(P.Env);
  // The first compile of the process warms LLVM (pass registries, the
  // target's lazily built tables); it is not what this measures.
  {
    CompileCache Cache(WarmEngine);
    auto A = Cache.cachedCompilation(*Warm, P.Saxpy.Func, P.Saxpy.ArgTuple);
    if (!A)
      Program::fail(A.takeError());
  }
  AllocationScope Scope;
  for (auto _ : S) {
    CompilerConfigRef C = Cold ? config(Target) : Warm;
    std::unique_ptr<InferenceEngine> Fresh;
    if (Cold)
      Fresh = std::make_unique<InferenceEngine>(P.Env);
    CompileCache Cache(Cold ? *Fresh : WarmEngine);
    auto A = Cache.cachedCompilation(*C, P.Saxpy.Func, P.Saxpy.ArgTuple);
    if (!A) {
      llvm::consumeError(A.takeError());
      S.SkipWithError("compile failed");
      break;
    }
    benchmark::DoNotOptimize(*A);
  }
  setAllocs(S, Scope);
}
/// Inference alone, as a cold compile pays it: a fresh engine infers saxpy
/// and everything it calls, then the typed optimiser inlines for codegen.
/// The engine's teardown is inside the loop: a cold compile pays it too.
void BM_InferCold(benchmark::State &S) {
  Program &P = Program::get();
  FunctionSpec Specs[] = {P.Saxpy};
  AllocationScope Scope;
  for (auto _ : S) {
    InferenceEngine Engine(P.Env);
    auto R = Engine.inferToplevel(Specs, P.Env.currentWorld());
    if (!R) {
      llvm::consumeError(R.takeError());
      S.SkipWithError("inference failed");
      break;
    }
    benchmark::DoNotOptimize(Engine.optimizeForCodegen(*R));
  }
  setAllocs(S, Scope);
}
BENCHMARK(BM_InferCold)->Unit(benchmark::kMicrosecond);

BENCHMARK_CAPTURE(BM_CacheMiss, ptx_cold, "ptx", true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CacheMiss, ptx_warm, "ptx", false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CacheMiss, native_cold, "native", true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CacheMiss, native_warm, "native", false)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
