#include "workspace/JobCompile.h"

#include "cache/CacheProbe.h"
#include "cache/Compiler.h"
#include "infer/Inference.h"
#include "targets/Target.h"
#include "types/Loader.h"

#include <map>
#include <mutex>
#include <tuple>

namespace prism {

namespace {

/// Configs keyed by the options that shape them; shared by every job.
class ConfigPool {
public:
  llvm::Expected<CompilerConfigRef> get(const JobSpec &S) {
    auto Key = std::make_tuple(S.Target, S.Arch, S.OptLevel, S.Kernel,
                               S.AlwaysInline, S.MaxThreads, S.MinThreads,
                               S.BlocksPerSM, S.MaxRegs);
    std::lock_guard<std::mutex> G(Lock);
    auto It = Pool.find(Key);
    if (It != Pool.end())
      return It->second;
    auto C = CompilerConfig::create(S.configOptions());
    if (!C)
      return C.takeError();
    Pool.emplace(Key, *C);
    return *C;
  }

private:
  using Key = std::tuple<std::string, std::string, unsigned, bool, bool,
                         unsigned, unsigned, unsigned, unsigned>;
  std::mutex Lock;
  std::map<Key, CompilerConfigRef> Pool;
};

CompiledJob failed(const JobSpec &S, llvm::Error E) {
  auto R = std::make_shared<JobReport>();
  R->Signature = S.Signature;
  R->Target = S.Target;
  R->Arch = S.Arch;
  // The arch the job would have compiled for, as a successful one shows.
  if (R->Arch.empty()) {
    if (llvm::Expected<const Target *> T = lookupTarget(S.Target))
      R->Arch = (*T)->defaultArch();
    else
      llvm::consumeError(T.takeError());
  }
  R->OptLevel = S.OptLevel;
  R->Diagnostics = takeDiagnostics(std::move(E));
  CompiledJob J;
  J.Report = std::move(R);
  return J;
}

/// A compile cache per inference engine (the Workspace has one engine per
/// --check-bounds mode). Engines are told apart by serial: a new one may
/// reuse the address of one destroyed.
class CachePool {
public:
  CompileCache &cacheFor(InferenceEngine &Engine) {
    std::lock_guard<std::mutex> G(Lock);
    std::unique_ptr<CompileCache> &C = Caches[Engine.serial()];
    if (!C)
      C = std::make_unique<CompileCache>(Engine);
    return *C;
  }

private:
  std::mutex Lock;
  std::map<uint64_t, std::unique_ptr<CompileCache>> Caches;
};

/// Lookups timed per compile for the Cache tab (well under a millisecond).
constexpr unsigned CacheProbes = 10000;

} // namespace

JobCompiler makeDriverJobCompiler() {
  auto Configs = std::make_shared<ConfigPool>();
  auto State = std::make_shared<CachePool>();
  return [Configs, State](const JobSpec &S, GlobalEnv &Env,
                          InferenceEngine &Engine, World W,
                          const std::atomic<bool> &Cancel) -> CompiledJob {
    auto Sig = parseSignature(Env, S.Signature);
    if (!Sig)
      return failed(S, Sig.takeError());
    auto Config = Configs->get(S);
    if (!Config)
      return failed(S, Config.takeError());
    FunctionSpec Spec{Sig->Func, TypeContext::get().tuple(Sig->ArgTypes)};
    auto Inferred = Engine.inferToplevel({&Spec, 1}, W);
    if (!Inferred)
      return failed(S, Inferred.takeError());
    CompileOptions Opts;
    Opts.Snapshots = true;
    // The Pipeline panel can show every pass that ran ("changed" unticked);
    // those that changed nothing cost a list entry, no text.
    Opts.KeepUnchangedPasses = true;
    Opts.TypedOptimized = true;
    Opts.Cancel = &Cancel;
    Opts.DeferResources = true; // ptxas runs after the code is shown
    Opts.Block = S.Block;
    CompilerJob Job{Spec, *Config, W};
    // Through the engine (not compileInferred) so that the optimised typed
    // IR stage is produced too; inference answers from its cache here.
    CompileResult R = compile(Engine, Job, Stage::Asm, {}, Opts);
    CompiledJob Out;
    Out.Report = R.Report;
    Out.Used.assign(Inferred->All.begin(), Inferred->All.end());
    if (!R.ok())
      return Out;
    // What a launch of this job would pay: its entry in the compile cache,
    // which compiles the job again on its own (the launch path's compile,
    // without the views' snapshots). Left, like ptxas, for after the code
    // is shown: it doubled the time from an edit to the new code.
    R.Report->Cache.Pending = true;
    if (!R.DeferredAsm.empty())
      Out.Finish.push_back([Config = *Config,
                            Asm = std::move(R.DeferredAsm)](JobReport &Report) {
        measureResources(*Config, Asm, Report.Resources);
        return true;
      });
    // The cache's compile stops when an edit arrives (it may take as long
    // as the job's own); the step is then run again.
    Out.Finish.push_back([Config = *Config, State, &Engine, Spec,
                          &Cancel](JobReport &Report) {
      if (llvm::Error E = probeCache(State->cacheFor(Engine), *Config, Spec,
                                     CacheProbes, Report.Cache, &Cancel)) {
        llvm::consumeError(std::move(E)); // the stages above show why
        if (Cancel.load(std::memory_order_relaxed))
          return false;
      }
      Report.Cache.Pending = false;
      return true;
    });
    return Out;
  };
}

} // namespace prism
