/// \file
/// The on-disk artefact cache (opt-in per CompilerConfig).
///
/// An entry is keyed by a SHA-256 content hash of the job: the source text
/// and location of every method in its CodeInstance closure, the layouts
/// of the types its code handles and the constants folded in, the config's
/// codegen key, the signature, and the LLVM and Prism versions. So a hit in
/// a new process skips LLVM entirely, and an edit to any method the kernel
/// reaches (or an upgrade) simply misses.
///
/// Files are written atomically (a private temp file, fsync, rename) with
/// mode 0600 in a 0700 directory, carry a checksum of their payload, and
/// are verified on every read: a truncated, corrupted or foreign file is
/// removed and reported as a miss, never loaded. Nothing read from a file
/// is used as a path. The directory is bounded in size; the least recently
/// used entries are evicted.
#pragma once

#include "llvm/Support/Error.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace prism {

class CompilerConfig;
struct FunctionSpec;
struct InferResult;

/// A SHA-256 digest identifying a job's content.
using ContentKey = std::array<uint8_t, 32>;

/// The job's content key (see the file comment for what goes in).
ContentKey jobContentKey(const InferResult &R, const CompilerConfig &C,
                         const FunctionSpec &Spec);
std::string toHex(const ContentKey &K);

/// What one cache file holds: everything needed to load the kernel again.
struct DiskArtefact {
  std::string Asm;
  std::vector<uint8_t> Object;
  std::string EntrySymbol, LaunchSymbol;
  uint64_t SharedBytes = 0;
};

/// Encodes / decodes the file format (exposed for tests and the fuzzer).
/// decode() never trusts the input: every length is bounds-checked.
std::string encodeDiskArtefact(const ContentKey &K, const DiskArtefact &A);
/// Fails with a one-line reason ("bad magic", "checksum mismatch", ...).
llvm::Expected<DiskArtefact> decodeDiskArtefact(const ContentKey &K,
                                                llvm::StringRef Bytes);

struct DiskCacheStats {
  uint64_t Hits = 0, Misses = 0, Writes = 0, Corrupt = 0, Evictions = 0,
           WriteErrors = 0;
  std::string LastWriteError; ///< the message of the latest failed store
};

class DiskCache {
public:
  static constexpr uint64_t DefaultMaxBytes = 256ull << 20;

  /// Creates the directory (0700) if needed. Fails (kind "cache") when it
  /// cannot be created or is not a directory we own.
  static llvm::Expected<std::unique_ptr<DiskCache>>
  open(const std::string &Dir, uint64_t MaxBytes = DefaultMaxBytes);

  /// The artefact stored under K, or nothing. A bad file is deleted.
  std::optional<DiskArtefact> load(const ContentKey &K);
  /// Stores atomically, then evicts down to the size bound. An error (full
  /// disk, unwritable directory) leaves no partial file behind.
  llvm::Error store(const ContentKey &K, const DiskArtefact &A);

  const std::string &dir() const { return Dir; }
  std::string pathFor(const ContentKey &K) const;
  DiskCacheStats stats() const;
  /// Total bytes of entries on disk now.
  uint64_t sizeOnDisk() const;

private:
  DiskCache(std::string Dir, uint64_t MaxBytes)
      : Dir(std::move(Dir)), MaxBytes(MaxBytes) {}
  llvm::Error storeFile(const ContentKey &K, const DiskArtefact &A);
  void evict();

  std::string Dir;
  uint64_t MaxBytes;
  std::mutex EvictLock;
  mutable std::mutex ErrorLock;
  std::string LastWriteError;
  std::atomic<uint64_t> Hits{0}, Misses{0}, Writes{0}, Corrupt{0},
      Evictions{0}, WriteErrors{0};
};

} // namespace prism
