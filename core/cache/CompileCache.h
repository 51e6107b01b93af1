/// \file
/// `CompileCache`: GPUCompiler's `cached_compilation`, built so that the
/// check done on every kernel launch costs a few nanoseconds and allocates
/// nothing.
///
/// The key is (config, function, argument tuple): the function and the
/// argument tuple are interned pointers and the config carries a hash
/// computed once, so a lookup hashes three words and never a string. The
/// table is open-addressed and read without a lock (slots are atomic
/// pointers to entries that are never freed while the cache lives; growth
/// publishes a new table and retires the old one). Each entry points to its
/// current artefact, which records the root CodeInstance it was compiled
/// from: the artefact is returned only while that CodeInstance is valid in
/// the caller's world, and invalidation caps the root of every dependent
/// job through backedges, so a stale artefact is never returned.
///
/// A miss takes the entry's lock: the first thread compiles (inference →
/// optionally the disk cache → LLVM → the optional linker), the others wait
/// for that one result; a failure is handed to every waiter and not cached.
#pragma once

#include "cache/CompilerConfig.h"
#include "cache/DiskCache.h"
#include "support/Allocation.h"
#include "types/Method.h"

#include "llvm/Support/Error.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace prism {

class CodeInstance;
class InferenceEngine;
class Type;

/// What the cache hands out. Immutable once published; lives as long as
/// the cache (replaced artefacts are retired, not freed).
struct CachedArtefact {
  std::string Asm;             ///< the backend's assembly (PTX for ptx)
  std::vector<uint8_t> Object; ///< relocatable object (not for ptx)
  std::string EntrySymbol, LaunchSymbol;
  uint64_t SharedBytes = 0;
  /// What the cache's linker made of it (e.g. a loaded kernel); null
  /// without a linker.
  std::shared_ptr<const void> Linked;

  const CodeInstance *Root = nullptr; ///< the job's entry, for validity
  World MinWorld = 0;                 ///< first world of the closure
  bool FromDisk = false;              ///< loaded from the disk cache

  /// True while the code is what world W would compile.
  bool validIn(World W) const;
};

/// Figures for one entry or, summed, for the cache.
struct CacheEntryStats {
  uint64_t Hits = 0;          ///< answered by the lock-free path
  uint64_t Misses = 0;        ///< calls that took the slow path
  /// Compiles started (successful or not); a miss the disk cache answered
  /// is a DiskHit instead.
  uint64_t Compiles = 0;
  uint64_t Failures = 0;      ///< compiles that failed
  uint64_t Invalidations = 0; ///< artefacts found stale after a world bump
  uint64_t DiskHits = 0;      ///< compiles answered by the disk cache
  double LastCompileMs = 0;
  AllocationStats LastCompileAllocs;
};

struct CacheStats : CacheEntryStats {
  size_t Entries = 0;
  DiskCacheStats Disk; ///< summed over the disk caches in use
  std::string DiskError; ///< why a configured disk cache is not in use
};

struct CompileCacheOptions {
  /// Emit a relocatable object next to the assembly (targets with one).
  bool EmitObject = true;
  /// Turns an artefact into something loaded (GPUCompiler's `linker`); runs
  /// once per compile, its failure is the compile's failure.
  std::function<llvm::Expected<std::shared_ptr<const void>>(
      const CachedArtefact &, const CompilerConfig &)>
      Linker;
};

class CompileCache {
public:
  explicit CompileCache(InferenceEngine &Engine, CompileCacheOptions Opts = {});
  ~CompileCache();
  CompileCache(const CompileCache &) = delete;
  CompileCache &operator=(const CompileCache &) = delete;

  /// The artefact for (Config, F, ArgTuple) in the engine's current world.
  /// `Config` must be owned by a CompilerConfigRef (CompilerConfig::create
  /// guarantees it); `ArgTuple` is the interned `Tuple{...}` of the
  /// argument types.
  llvm::Expected<const CachedArtefact *>
  cachedCompilation(const CompilerConfig &Config, GenericFunction *F,
                    Type *ArgTuple);
  /// The same, in world W. A compile this call makes stops early when
  /// `Cancel` is raised (another thread's newer edit) and returns a
  /// "cancelled" error; the entry stays as it was, the compile uncounted,
  /// and the next lookup compiles again.
  llvm::Expected<const CachedArtefact *>
  cachedCompilation(const CompilerConfig &Config, GenericFunction *F,
                    Type *ArgTuple, World W,
                    const std::atomic<bool> *Cancel = nullptr);

  /// Figures of one entry (all zero when there is none).
  CacheEntryStats entryStats(const CompilerConfig &Config, GenericFunction *F,
                             Type *ArgTuple) const;
  CacheStats stats() const;

  InferenceEngine &engine() { return Engine; }

  struct Entry;
  struct Table;

private:
  Entry *find(uint64_t Hash, const CompilerConfig &C, GenericFunction *F,
              Type *Args) const;
  Entry *findOrInsert(uint64_t Hash, const CompilerConfig &C,
                      GenericFunction *F, Type *Args);
  llvm::Expected<const CachedArtefact *>
  slowPath(Entry &E, World W, const std::atomic<bool> *Cancel);
  llvm::Expected<std::unique_ptr<CachedArtefact>>
  compileEntry(Entry &E, World W, const std::atomic<bool> *Cancel);
  DiskCache *diskCacheFor(const CompilerConfig &C, std::string &Error);

  InferenceEngine &Engine;
  CompileCacheOptions Opts;
  std::atomic<Table *> Current;
  mutable std::mutex InsertLock; // guards growth, Entries, Tables, Disks
  std::vector<std::unique_ptr<Entry>> Entries;
  /// Every table ever published: readers may still probe a replaced one.
  std::vector<std::unique_ptr<Table>> Tables;
  std::vector<std::pair<std::string, std::unique_ptr<DiskCache>>> Disks;
  std::string DiskError; ///< why a disk cache could not be opened
};

} // namespace prism
