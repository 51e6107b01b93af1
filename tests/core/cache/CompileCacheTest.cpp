// The compile cache: an allocation-free hit, config identity, compile-once
// under concurrency, failures not cached, invalidation of exactly the
// dependents (GPUCompiler's `cached_compilation` tests, and more).
#include "core/infer/InferTestUtil.h"

#include "cache/CompileCache.h"
#include "support/Allocation.h"

#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <thread>

using namespace prism;

namespace {

class CompileCacheTest : public prism::testing::InferTest {
protected:
  CompilerConfigRef config(CompilerConfigOptions O = {}) {
    auto C = CompilerConfig::create(O);
    EXPECT_TRUE(!!C);
    return C ? *C : nullptr;
  }

  static const CachedArtefact *get(CompileCache &Cache, const CompilerConfig &C,
                                   const FunctionSpec &S) {
    auto A = Cache.cachedCompilation(C, S.Func, S.ArgTuple);
    if (!A) {
      ADD_FAILURE() << prism::testing::renderAll(A.takeError());
      return nullptr;
    }
    return *A;
  }
};

TEST_F(CompileCacheTest, HitAllocatesNothingAndReturnsTheSameArtefact) {
  loadExample("saxpy.jl");
  CompileCache Cache(Engine);
  auto C = config();
  FunctionSpec S =
      spec("saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  const CachedArtefact *First = get(Cache, *C, S);
  ASSERT_NE(First, nullptr);
  EXPECT_FALSE(First->Asm.empty());
  EXPECT_FALSE(First->Object.empty());
  EXPECT_FALSE(First->EntrySymbol.empty());

  ASSERT_TRUE(allocationCountingActive());
  const CachedArtefact *Again = nullptr;
  AllocationScope Scope;
  for (int I = 0; I < 1000; ++I) {
    auto A = Cache.cachedCompilation(*C, S.Func, S.ArgTuple);
    Again = A ? *A : nullptr;
    if (!A)
      llvm::consumeError(A.takeError());
  }
  AllocationStats Used = Scope.elapsed();
  EXPECT_EQ(Used.Count, 0u) << "bytes " << Used.Bytes;
  EXPECT_EQ(Again, First);

  CacheEntryStats St = Cache.entryStats(*C, S.Func, S.ArgTuple);
  EXPECT_EQ(St.Hits, 1000u);
  EXPECT_EQ(St.Misses, 1u);
  EXPECT_EQ(St.Compiles, 1u);
  EXPECT_GT(St.LastCompileMs, 0);
  EXPECT_GT(St.LastCompileAllocs.Count, 0u);
}

TEST_F(CompileCacheTest, ConfigIdentity) {
  loadText("k.jl", "f(x) = x * 2\n");
  CompileCache Cache(Engine);
  FunctionSpec S = spec("f(Int64)");
  auto Base = config();
  const CachedArtefact *A = get(Cache, *Base, S);

  // An equal config built from scratch is the same entry.
  auto Same = config();
  ASSERT_NE(Same.get(), Base.get());
  EXPECT_EQ(get(Cache, *Same, S), A);

  // A config that differs in any one field is a different entry.
  std::vector<CompilerConfigOptions> Variants(6);
  Variants[0].OptLevel = 1;
  Variants[1].DebugInfo = DebugInfoLevel::None;
  Variants[2].AlwaysInline = true;
  Variants[3].EntryName = "custom_entry";
  Variants[4].Arch = "x86-64";
  Variants[5].Features = "+avx2";
  for (const CompilerConfigOptions &V : Variants) {
    auto C = config(V);
    const CachedArtefact *B = get(Cache, *C, S);
    EXPECT_NE(B, A);
    EXPECT_EQ(get(Cache, *C, S), B);
  }
  EXPECT_EQ(Cache.stats().Entries, 1u + Variants.size());
  EXPECT_EQ(Cache.stats().Compiles, 1u + Variants.size());
}

TEST_F(CompileCacheTest, InvalidatesExactlyTheDependents) {
  loadText("k.jl", "leaf(x) = x + 1\n"
                   "uses_leaf(x) = leaf(x) * 2\n"
                   "independent(x) = x * 3\n");
  CompileCache Cache(Engine);
  auto C = config();
  FunctionSpec Dep = spec("uses_leaf(Int64)");
  FunctionSpec Ind = spec("independent(Int64)");
  const CachedArtefact *D1 = get(Cache, *C, Dep);
  const CachedArtefact *I1 = get(Cache, *C, Ind);
  ASSERT_TRUE(D1 && I1);

  LoadResult L = loadText("k2.jl", "leaf(x) = x - 1\n");
  Engine.invalidate(L);
  EXPECT_FALSE(D1->validIn(Env.currentWorld()));

  const CachedArtefact *D2 = get(Cache, *C, Dep);
  ASSERT_NE(D2, nullptr);
  EXPECT_NE(D2, D1);
  EXPECT_NE(D2->Root, D1->Root);
  EXPECT_EQ(get(Cache, *C, Ind), I1) << "an unaffected entry keeps hitting";

  CacheEntryStats DS = Cache.entryStats(*C, Dep.Func, Dep.ArgTuple);
  EXPECT_EQ(DS.Compiles, 2u);
  EXPECT_EQ(DS.Invalidations, 1u);
  CacheEntryStats IS = Cache.entryStats(*C, Ind.Func, Ind.ArgTuple);
  EXPECT_EQ(IS.Compiles, 1u);
  EXPECT_EQ(IS.Invalidations, 0u);
  EXPECT_EQ(IS.Hits, 1u);

  // The old world still gets the old artefact.
  auto Old = Cache.cachedCompilation(*C, Dep.Func, Dep.ArgTuple,
                                     L.Added[0]->PrimaryWorld - 1);
  ASSERT_TRUE(!!Old);
  EXPECT_EQ(*Old, D1);
}

TEST_F(CompileCacheTest, ConcurrentMissCompilesOnce) {
  loadExample("saxpy.jl");
  CompileCache Cache(Engine);
  auto C = config();
  FunctionSpec S =
      spec("saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  constexpr int N = 8;
  std::barrier Start(N);
  std::vector<const CachedArtefact *> Got(N);
  std::vector<std::thread> Threads;
  for (int T = 0; T < N; ++T)
    Threads.emplace_back([&, T] {
      Start.arrive_and_wait();
      auto A = Cache.cachedCompilation(*C, S.Func, S.ArgTuple);
      Got[T] = A ? *A : nullptr;
      if (!A)
        llvm::consumeError(A.takeError());
    });
  for (std::thread &T : Threads)
    T.join();
  for (const CachedArtefact *A : Got) {
    ASSERT_NE(A, nullptr);
    EXPECT_EQ(A, Got[0]);
  }
  EXPECT_EQ(Cache.entryStats(*C, S.Func, S.ArgTuple).Compiles, 1u);
}

TEST_F(CompileCacheTest, FailureReachesEveryWaiterAndIsNotCached) {
  loadText("k.jl", "broken(x) = missing_helper(x) + 1\n");
  CompileCache Cache(Engine);
  auto C = config();
  FunctionSpec S = spec("broken(Int64)");
  constexpr int N = 6;
  std::barrier Start(N);
  std::atomic<int> Failed{0};
  std::vector<std::thread> Threads;
  for (int T = 0; T < N; ++T)
    Threads.emplace_back([&] {
      Start.arrive_and_wait();
      auto A = Cache.cachedCompilation(*C, S.Func, S.ArgTuple);
      if (!A) {
        std::string Msg = prism::testing::renderAll(A.takeError());
        if (Msg.find("missing_helper") != std::string::npos)
          ++Failed;
      }
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Failed.load(), N);
  CacheEntryStats St = Cache.entryStats(*C, S.Func, S.ArgTuple);
  EXPECT_GE(St.Compiles, 1u);
  EXPECT_EQ(St.Failures, St.Compiles);
  EXPECT_EQ(St.Hits, 0u);

  // Defining the helper makes the same key compile: the failure was not kept.
  LoadResult L = loadText("k2.jl", "missing_helper(x) = x * 2\n");
  Engine.invalidate(L);
  const CachedArtefact *A = get(Cache, *C, S);
  EXPECT_NE(A, nullptr);
}

// A compile stopped by its cancel flag (the workspace's newer edit) is not
// a result: neither counted nor kept as a failure, and the next lookup
// compiles.
TEST_F(CompileCacheTest, ACancelledCompileIsNotAResult) {
  loadText("k.jl", "f(x) = x * 2\n");
  CompileCache Cache(Engine);
  auto C = config();
  FunctionSpec S = spec("f(Int64)");
  std::atomic<bool> Cancel{true};
  auto A = Cache.cachedCompilation(*C, S.Func, S.ArgTuple,
                                   Env.currentWorld(), &Cancel);
  ASSERT_FALSE(A);
  EXPECT_NE(prism::testing::renderAll(A.takeError()).find("cancelled"),
            std::string::npos);
  CacheEntryStats St = Cache.entryStats(*C, S.Func, S.ArgTuple);
  EXPECT_EQ(St.Compiles, 0u);
  EXPECT_EQ(St.Failures, 0u);
  Cancel = false;
  EXPECT_NE(get(Cache, *C, S), nullptr);
  EXPECT_EQ(Cache.entryStats(*C, S.Func, S.ArgTuple).Compiles, 1u);
}

TEST_F(CompileCacheTest, LinkerRunsOncePerCompile) {
  loadText("k.jl", "f(x) = x * 2\n");
  std::atomic<int> Links{0};
  CompileCacheOptions O;
  O.Linker = [&](const CachedArtefact &A, const CompilerConfig &)
      -> llvm::Expected<std::shared_ptr<const void>> {
    ++Links;
    return std::make_shared<const std::string>(A.EntrySymbol);
  };
  CompileCache Cache(Engine, O);
  auto C = config();
  FunctionSpec S = spec("f(Int64)");
  const CachedArtefact *A = get(Cache, *C, S);
  ASSERT_NE(A, nullptr);
  ASSERT_NE(A->Linked, nullptr);
  EXPECT_EQ(*static_cast<const std::string *>(A->Linked.get()), A->EntrySymbol);
  get(Cache, *C, S);
  EXPECT_EQ(Links.load(), 1);
}

TEST_F(CompileCacheTest, PtxArtefactIsTheAssembly) {
  loadExample("saxpy.jl");
  CompileCache Cache(Engine);
  CompilerConfigOptions O;
  O.Target = "ptx";
  auto C = config(O);
  FunctionSpec S =
      spec("saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  const CachedArtefact *A = get(Cache, *C, S);
  ASSERT_NE(A, nullptr);
  EXPECT_NE(A->Asm.find(".entry"), std::string::npos);
  EXPECT_TRUE(A->Object.empty());
}

// 16 threads × 100 000 lookups over 50 jobs, with a redefinition between
// phases: every (job, world) is compiled exactly once, and after each
// invalidation no stale artefact is returned.
TEST_F(CompileCacheTest, StressWithRedefinitions) {
  constexpr int Jobs = 50, Threads = 16, Lookups = 100000, Redefinitions = 4;
  std::string Src = "leaf(x) = x + 1\n";
  for (int J = 0; J < Jobs; ++J) {
    // Even jobs call leaf, odd ones do not.
    Src += "job" + std::to_string(J) + "(x) = " +
           (J % 2 == 0 ? "leaf(x) * " : "x * ") + std::to_string(J + 1) + "\n";
  }
  loadText("jobs.jl", Src);
  CompileCache Cache(Engine);
  CompilerConfigOptions CO;
  CO.OptLevel = 1;
  auto C = config(CO);
  std::vector<FunctionSpec> Specs;
  for (int J = 0; J < Jobs; ++J)
    Specs.push_back(spec("job" + std::to_string(J) + "(Int64)"));
  GenericFunction *Leaf = Env.lookupFunction(Symbol::get("leaf"));
  ASSERT_NE(Leaf, nullptr);

  std::atomic<int> Errors{0}, Stale{0};
  constexpr int PerPhase = Lookups / (Redefinitions + 1);
  std::barrier Sync(Threads + 1);
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back([&, T] {
      for (int Phase = 0; Phase <= Redefinitions; ++Phase) {
        Sync.arrive_and_wait(); // the main thread finished redefining
        World W = Env.currentWorld();
        for (int I = 0; I < PerPhase; ++I) {
          const FunctionSpec &S = Specs[(I * 7 + T) % Jobs];
          auto A = Cache.cachedCompilation(*C, S.Func, S.ArgTuple, W);
          if (!A) {
            llvm::consumeError(A.takeError());
            ++Errors;
            continue;
          }
          // The code it was built from must be current: valid now, and
          // calling the leaf method visible now.
          const CachedArtefact *Art = *A;
          bool Ok = Art->validIn(W);
          for (MethodInstance *MI : Art->Root->Code->Invokes)
            if (MI && MI->Def->Func == Leaf)
              Ok &= MI->Def->visibleIn(W);
          if (!Ok)
            ++Stale;
        }
        Sync.arrive_and_wait(); // phase done
      }
    });
  for (int Phase = 0; Phase <= Redefinitions; ++Phase) {
    if (Phase > 0) {
      LoadResult L = loadText("leaf" + std::to_string(Phase) + ".jl",
                              "leaf(x) = x + " + std::to_string(Phase + 1) + "\n");
      Engine.invalidate(L);
    }
    Sync.arrive_and_wait();
    Sync.arrive_and_wait();
  }
  for (std::thread &T : Pool)
    T.join();

  EXPECT_EQ(Errors.load(), 0);
  EXPECT_EQ(Stale.load(), 0);
  for (int J = 0; J < Jobs; ++J) {
    CacheEntryStats St =
        Cache.entryStats(*C, Specs[J].Func, Specs[J].ArgTuple);
    uint64_t Expected = J % 2 == 0 ? Redefinitions + 1 : 1;
    EXPECT_EQ(St.Compiles, Expected) << "job" << J;
    EXPECT_EQ(St.Invalidations, Expected - 1) << "job" << J;
  }
  CacheStats All = Cache.stats();
  EXPECT_EQ(All.Hits + All.Misses, uint64_t(Threads) * PerPhase * (Redefinitions + 1));
}

} // namespace
