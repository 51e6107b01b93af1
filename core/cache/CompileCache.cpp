// The compile cache: a lock-free read path over an open-addressed table of
// immortal entries, and a per-entry slow path that compiles once.
#include "cache/CompileCache.h"

#include "cache/Compiler.h"
#include "infer/Inference.h"
#include "support/Diagnostic.h"
#include "support/Timer.h"
#include "targets/Target.h"

#include <algorithm>
#include <chrono>

namespace prism {

namespace {

/// Hits are counted on every launch, possibly from many threads: a counter
/// per thread shard keeps them off one contended cache line.
constexpr unsigned NumShards = 8;
struct alignas(64) PaddedCounter {
  std::atomic<uint64_t> V{0};
};

unsigned shardIndex() {
  static std::atomic<unsigned> Next{0};
  thread_local unsigned Index =
      Next.fetch_add(1, std::memory_order_relaxed) % NumShards;
  return Index;
}

/// Three words in, one well-mixed word out (no strings touched).
inline uint64_t keyHash(uint64_t ConfigHash, const void *F, const void *Args) {
  uint64_t H = ConfigHash;
  H ^= reinterpret_cast<uintptr_t>(F) * 0x9E3779B97F4A7C15ull;
  H ^= reinterpret_cast<uintptr_t>(Args) * 0xC2B2AE3D27D4EB4Full;
  H ^= H >> 29;
  H *= 0xBF58476D1CE4E5B9ull;
  H ^= H >> 32;
  return H;
}

} // namespace

bool CachedArtefact::validIn(World W) const {
  return MinWorld <= W && Root &&
         W <= Root->MaxWorld.load(std::memory_order_acquire);
}

struct CompileCache::Entry {
  uint64_t Hash;
  GenericFunction *F;
  Type *Args;
  CompilerConfigRef Config;
  std::atomic<const CachedArtefact *> Artefact{nullptr};
  PaddedCounter Hits[NumShards];

  // The slow path; everything below is guarded by Lock.
  std::mutex Lock;
  std::condition_variable Done;
  bool Compiling = false;
  uint64_t Generation = 0;
  bool LastFailed = false;
  World LastFailedWorld = 0;
  std::vector<Diagnostic> LastFailure;
  std::vector<std::unique_ptr<CachedArtefact>> Published; ///< oldest first
  CacheEntryStats Slow; ///< all figures but Hits

  bool matches(uint64_t H, const CompilerConfig &C, GenericFunction *Fn,
               Type *A) const {
    return Hash == H && F == Fn && Args == A &&
           (Config.get() == &C || *Config == C);
  }
  uint64_t hits() const {
    uint64_t N = 0;
    for (const PaddedCounter &S : Hits)
      N += S.V.load(std::memory_order_relaxed);
    return N;
  }
};

/// A power-of-two array of slots; a null slot ends a probe.
struct CompileCache::Table {
  explicit Table(size_t Capacity)
      : Mask(Capacity - 1), Slots(new std::atomic<Entry *>[Capacity]) {
    for (size_t I = 0; I < Capacity; ++I)
      Slots[I].store(nullptr, std::memory_order_relaxed);
  }
  size_t capacity() const { return Mask + 1; }
  /// Insertion (under InsertLock only).
  void insert(Entry *E) {
    for (size_t I = E->Hash & Mask;; I = (I + 1) & Mask)
      if (!Slots[I].load(std::memory_order_relaxed)) {
        Slots[I].store(E, std::memory_order_release);
        ++Count;
        return;
      }
  }
  size_t Mask;
  size_t Count = 0;
  std::unique_ptr<std::atomic<Entry *>[]> Slots;
};

CompileCache::CompileCache(InferenceEngine &Engine, CompileCacheOptions Opts)
    : Engine(Engine), Opts(std::move(Opts)) {
  auto T = std::make_unique<Table>(64);
  Current.store(T.get(), std::memory_order_release);
  Tables.push_back(std::move(T));
}

CompileCache::~CompileCache() = default;

CompileCache::Entry *CompileCache::find(uint64_t H, const CompilerConfig &C,
                                        GenericFunction *F, Type *Args) const {
  const Table *T = Current.load(std::memory_order_acquire);
  for (size_t I = H & T->Mask;; I = (I + 1) & T->Mask) {
    Entry *E = T->Slots[I].load(std::memory_order_acquire);
    if (!E)
      return nullptr;
    if (E->matches(H, C, F, Args))
      return E;
  }
}

CompileCache::Entry *CompileCache::findOrInsert(uint64_t H,
                                                const CompilerConfig &C,
                                                GenericFunction *F, Type *Args) {
  std::lock_guard<std::mutex> G(InsertLock);
  if (Entry *E = find(H, C, F, Args))
    return E;
  Table *T = Current.load(std::memory_order_relaxed);
  if ((T->Count + 1) * 2 > T->capacity()) {
    // Readers may still be probing the old table: it is kept, not freed.
    auto Bigger = std::make_unique<Table>(T->capacity() * 2);
    for (const std::unique_ptr<Entry> &Old : Entries)
      Bigger->insert(Old.get());
    T = Bigger.get();
    Tables.push_back(std::move(Bigger));
    Current.store(T, std::memory_order_release);
  }
  auto E = std::make_unique<Entry>();
  E->Hash = H;
  E->F = F;
  E->Args = Args;
  E->Config = C.shared_from_this();
  T->insert(E.get());
  Entries.push_back(std::move(E));
  return Entries.back().get();
}

llvm::Expected<const CachedArtefact *>
CompileCache::cachedCompilation(const CompilerConfig &C, GenericFunction *F,
                                Type *Args) {
  return cachedCompilation(C, F, Args, Engine.env().currentWorld());
}

llvm::Expected<const CachedArtefact *>
CompileCache::cachedCompilation(const CompilerConfig &C, GenericFunction *F,
                                Type *Args, World W,
                                const std::atomic<bool> *Cancel) {
  uint64_t H = keyHash(C.hash(), F, Args);
  Entry *E = find(H, C, F, Args);
  if (E) [[likely]] {
    const CachedArtefact *A = E->Artefact.load(std::memory_order_acquire);
    if (A && A->validIn(W)) [[likely]] {
      E->Hits[shardIndex()].V.fetch_add(1, std::memory_order_relaxed);
      return A;
    }
  } else {
    E = findOrInsert(H, C, F, Args);
  }
  return slowPath(*E, W, Cancel);
}

llvm::Expected<const CachedArtefact *>
CompileCache::slowPath(Entry &E, World W, const std::atomic<bool> *Cancel) {
  std::unique_lock<std::mutex> L(E.Lock);
  ++E.Slow.Misses;
  for (;;) {
    const CachedArtefact *A = E.Artefact.load(std::memory_order_acquire);
    if (A && A->validIn(W))
      return A; // compiled by another thread while this one queued
    // An older world (a launch that started before an edit) may still be
    // served by an artefact this entry replaced.
    for (auto It = E.Published.rbegin(); It != E.Published.rend(); ++It)
      if ((*It)->validIn(W))
        return It->get();
    if (E.Compiling) {
      uint64_t Gen = E.Generation;
      E.Done.wait(L, [&] { return E.Generation != Gen; });
      if (E.LastFailed && E.LastFailedWorld == W)
        return makeDiagError(E.LastFailure);
      continue;
    }
    // Stale for this world because the code changed after it was compiled
    // (not merely asked about an older world).
    if (A && W >= A->MinWorld && !A->validIn(W))
      ++E.Slow.Invalidations;
    E.Compiling = true;
    ++E.Slow.Compiles;
    L.unlock();

    AllocationScope Allocs;
    auto Start = std::chrono::steady_clock::now();
    auto Compiled = compileEntry(E, W, Cancel);
    double Ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - Start)
                    .count();
    AllocationStats Used = Allocs.elapsed();

    L.lock();
    E.Compiling = false;
    ++E.Generation;
    if (!Compiled && Cancel && Cancel->load(std::memory_order_relaxed)) {
      // Not a result: the entry stays as it was and a waiting thread
      // compiles it itself.
      --E.Slow.Compiles;
      E.Done.notify_all();
      return Compiled.takeError();
    }
    E.Slow.LastCompileMs = Ms;
    E.Slow.LastCompileAllocs = Used;
    if (!Compiled) {
      ++E.Slow.Failures;
      E.LastFailed = true;
      E.LastFailedWorld = W;
      E.LastFailure = takeDiagnostics(Compiled.takeError());
      E.Done.notify_all();
      return makeDiagError(E.LastFailure);
    }
    E.LastFailed = false;
    E.LastFailure.clear();
    // Read back from the disk cache: a miss, but no compile.
    if ((*Compiled)->FromDisk) {
      ++E.Slow.DiskHits;
      --E.Slow.Compiles;
    }
    const CachedArtefact *New = Compiled->get();
    E.Published.push_back(std::move(*Compiled));
    E.Artefact.store(New, std::memory_order_release);
    E.Done.notify_all();
    return New;
  }
}

DiskCache *CompileCache::diskCacheFor(const CompilerConfig &C,
                                      std::string &Error) {
  std::lock_guard<std::mutex> G(InsertLock);
  for (auto &[Dir, Disk] : Disks)
    if (Dir == C.diskCacheDir())
      return Disk.get();
  auto Disk = DiskCache::open(C.diskCacheDir());
  if (!Disk) {
    std::vector<Diagnostic> Ds = takeDiagnostics(Disk.takeError());
    Error = DiskError = Ds.empty() ? "cannot open the disk cache" : Ds[0].Message;
    return nullptr;
  }
  Disks.emplace_back(C.diskCacheDir(), std::move(*Disk));
  return Disks.back().second.get();
}

llvm::Expected<std::unique_ptr<CachedArtefact>>
CompileCache::compileEntry(Entry &E, World W,
                           const std::atomic<bool> *Cancel) {
  const CompilerConfig &C = *E.Config;
  FunctionSpec Spec{E.F, E.Args};
  FunctionSpec Specs[] = {Spec};
  auto Inferred = Engine.inferToplevel(Specs, W);
  if (!Inferred)
    return Inferred.takeError();
  if (Inferred->Roots.empty() || !Inferred->Roots[0]->Code)
    return makeDiagError(
        Diagnostic::error("internal", "inference returned no code", {}));

  auto A = std::make_unique<CachedArtefact>();
  A->Root = Inferred->Roots[0];
  for (const CodeInstance *CI : Inferred->All)
    A->MinWorld = std::max(A->MinWorld, CI->MinWorld);

  // The disk cache is an accelerator: when its directory is unusable the
  // compile still succeeds (the reason shows in the stats).
  DiskCache *Disk = nullptr;
  ContentKey Key{};
  if (C.diskCache()) {
    std::string Error;
    Disk = diskCacheFor(C, Error);
    if (Disk) {
      Key = jobContentKey(*Inferred, C, Spec);
      if (std::optional<DiskArtefact> D = Disk->load(Key)) {
        A->Asm = std::move(D->Asm);
        A->Object = std::move(D->Object);
        A->EntrySymbol = std::move(D->EntrySymbol);
        A->LaunchSymbol = std::move(D->LaunchSymbol);
        A->SharedBytes = D->SharedBytes;
        A->FromDisk = true;
      }
    }
  }

  if (!A->FromDisk) {
    CompilerJob Job{Spec, E.Config, W};
    CompileOptions O;
    O.StageText = false;
    O.Remarks = false;
    O.Resources = false;
    O.RawAsm = true;
    O.KeepModule = false;
    O.EmitObject = Opts.EmitObject && !C.target().objectIsAsm();
    O.Cancel = Cancel;
    CompileResult R =
        compileInferred(*Inferred, Job, Stage::Asm, {}, O, &Engine);
    if (!R.ok()) {
      std::vector<Diagnostic> Errors;
      for (const Diagnostic &D : R.Report->Diagnostics)
        if (D.Sev == Severity::Error)
          Errors.push_back(D);
      return makeDiagError(std::move(Errors));
    }
    A->Asm = std::move(R.Report->stage(Stage::Asm).Text);
    A->Object = std::move(R.Object);
    A->EntrySymbol = std::move(R.EntrySymbol);
    A->LaunchSymbol = std::move(R.LaunchSymbol);
    A->SharedBytes = R.SharedBytes;
    if (Disk) {
      DiskArtefact D{A->Asm, A->Object, A->EntrySymbol, A->LaunchSymbol,
                     A->SharedBytes};
      // A failed write (full disk, read-only directory) is counted in the
      // disk stats and otherwise harmless.
      llvm::consumeError(Disk->store(Key, D));
    }
  }

  if (Opts.Linker) {
    auto Linked = Opts.Linker(*A, C);
    if (!Linked)
      return Linked.takeError();
    A->Linked = std::move(*Linked);
  }
  return A;
}

CacheEntryStats CompileCache::entryStats(const CompilerConfig &C,
                                         GenericFunction *F, Type *Args) const {
  Entry *E = find(keyHash(C.hash(), F, Args), C, F, Args);
  if (!E)
    return {};
  std::lock_guard<std::mutex> G(E->Lock);
  CacheEntryStats S = E->Slow;
  S.Hits = E->hits();
  return S;
}

CacheStats CompileCache::stats() const {
  CacheStats S;
  std::vector<Entry *> All;
  std::vector<DiskCache *> DiskList;
  {
    std::lock_guard<std::mutex> G(InsertLock);
    S.DiskError = DiskError;
    for (const std::unique_ptr<Entry> &E : Entries)
      All.push_back(E.get());
    for (const auto &D : Disks)
      DiskList.push_back(D.second.get());
  }
  S.Entries = All.size();
  for (Entry *E : All) {
    std::lock_guard<std::mutex> G(E->Lock);
    S.Hits += E->hits();
    S.Misses += E->Slow.Misses;
    S.Compiles += E->Slow.Compiles;
    S.Failures += E->Slow.Failures;
    S.Invalidations += E->Slow.Invalidations;
    S.DiskHits += E->Slow.DiskHits;
    if (E->Slow.Compiles || E->Slow.DiskHits) {
      S.LastCompileMs = E->Slow.LastCompileMs;
      S.LastCompileAllocs = E->Slow.LastCompileAllocs;
    }
  }
  for (DiskCache *D : DiskList) {
    DiskCacheStats DS = D->stats();
    S.Disk.Hits += DS.Hits;
    S.Disk.Misses += DS.Misses;
    S.Disk.Writes += DS.Writes;
    S.Disk.Corrupt += DS.Corrupt;
    S.Disk.Evictions += DS.Evictions;
    S.Disk.WriteErrors += DS.WriteErrors;
    if (!DS.LastWriteError.empty())
      S.Disk.LastWriteError = DS.LastWriteError;
  }
  return S;
}

} // namespace prism
