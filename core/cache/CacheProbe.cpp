#include "cache/CacheProbe.h"

#include "infer/Inference.h"
#include "support/Allocation.h"

#include <chrono>

namespace prism {

llvm::Error probeCache(CompileCache &Cache, const CompilerConfig &Config,
                       const FunctionSpec &Spec, unsigned Probes,
                       CacheFigures &Out, const std::atomic<bool> *Cancel) {
  auto First =
      Cache.cachedCompilation(Config, Spec.Func, Spec.ArgTuple,
                              Cache.engine().env().currentWorld(), Cancel);
  if (!First)
    return First.takeError();
  Out.FromDisk = (*First)->FromDisk;

  // The hits: no allocation may happen between the two snapshots.
  uint64_t Failed = 0;
  AllocationScope Allocs;
  auto Start = std::chrono::steady_clock::now();
  for (unsigned I = 0; I < Probes; ++I) {
    auto A = Cache.cachedCompilation(Config, Spec.Func, Spec.ArgTuple);
    if (!A) {
      llvm::consumeError(A.takeError());
      ++Failed;
    }
  }
  auto End = std::chrono::steady_clock::now();
  AllocationStats Used = Allocs.elapsed();
  if (Probes) {
    Out.HitNs = std::chrono::duration<double, std::nano>(End - Start).count() /
                Probes;
    Out.AllocsPerHit = static_cast<double>(Used.Count) / Probes;
  }
  Out.HitProbes = Probes - Failed;

  CacheEntryStats E = Cache.entryStats(Config, Spec.Func, Spec.ArgTuple);
  Out.Measured = true;
  Out.Hits = E.Hits;
  Out.Misses = E.Misses;
  Out.Compiles = E.Compiles;
  Out.Invalidations = E.Invalidations;
  Out.LastCompileMs = E.LastCompileMs;
  Out.LastCompileAllocs = E.LastCompileAllocs;
  CacheStats All = Cache.stats();
  Out.DiskDir = Config.diskCacheDir();
  Out.DiskError = All.DiskError;
  Out.DiskWrites = All.Disk.Writes;
  Out.DiskCorrupt = All.Disk.Corrupt;
  Out.DiskWriteErrors = All.Disk.WriteErrors;
  Out.DiskWriteError = All.Disk.LastWriteError;
  return llvm::Error::success();
}

} // namespace prism
