/// \file
/// `CompilerConfig`: the static part of a compiler job (GPUCompiler's
/// CompilerConfig) — target, kernel flag, entry name, optimisation and debug
/// levels, always_inline, launch bounds, and the target's triple/arch/CPU
/// features. It is built once and then shared: the expensive facts (host
/// feature detection, the TargetMachine) are computed at most once per
/// config, never per job. The config is immutable and fully hashed, so a
/// cache can key on it without touching strings on the hot path.
#pragma once

#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace llvm {
class TargetMachine;
class DataLayout;
} // namespace llvm

namespace prism {

class Target;

/// How much debug information codegen attaches (`--debuginfo`).
enum class DebugInfoLevel : uint8_t {
  None,       ///< no debug info at all
  LineTables, ///< DISubprograms and a DILocation per statement (default)
  Full,       ///< full DWARF emission kind (same metadata, richer DWARF)
};

/// What a user asks for; turned into an immutable CompilerConfig by create().
struct CompilerConfigOptions {
  std::string Target = "native"; ///< "native", "ptx", "gcn", "bpf"
  std::string Arch;              ///< CPU / sm_XX / gfxNNN; empty: the target default
  std::string Features;          ///< extra LLVM features appended to the target's
  std::optional<bool> Kernel;    ///< unset: the target's default (ptx/gcn kernels)
  std::string EntryName;         ///< LLVM symbol of the entry; empty: `julia_<name>`
  unsigned OptLevel = 2;         ///< 0..3
  DebugInfoLevel DebugInfo = DebugInfoLevel::LineTables;
  bool AlwaysInline = false;
  /// Launch bounds (0 = unset), as GPUCompiler's PTX params.
  unsigned MaxThreads = 0, MinThreads = 0, BlocksPerSM = 0, MaxRegs = 0;
  std::string LibdevicePath; ///< ptx: libdevice.10.bc; empty: search the toolkit
  /// Opt-in on-disk cache of compiled artefacts (CompileCache). The
  /// directory defaults to `$XDG_CACHE_HOME/prism` (`~/.cache/prism`).
  bool DiskCache = false;
  std::string DiskCacheDir;
};

class CompilerConfig : public std::enable_shared_from_this<CompilerConfig> {
public:
  /// Validates the options (unknown target, bad opt level) and computes the
  /// target facts once. Errors are diagnostics of kind "config".
  static llvm::Expected<std::shared_ptr<const CompilerConfig>>
  create(const CompilerConfigOptions &Opts);

  CompilerConfig(const CompilerConfig &) = delete;
  CompilerConfig &operator=(const CompilerConfig &) = delete;
  ~CompilerConfig();

  const prism::Target &target() const { return *Tgt; }
  const std::string &targetName() const { return Opts.Target; }
  const std::string &triple() const { return Triple; }
  /// The CPU / architecture actually used (the target default when unset).
  const std::string &arch() const { return Arch; }
  const std::string &features() const { return Features; }
  bool kernel() const { return Kernel; }
  /// Empty when the entry takes its default name `julia_<name>`.
  const std::string &entryName() const { return Opts.EntryName; }
  unsigned optLevel() const { return Opts.OptLevel; }
  DebugInfoLevel debugInfo() const { return Opts.DebugInfo; }
  bool alwaysInline() const { return Opts.AlwaysInline; }
  unsigned maxThreads() const { return Opts.MaxThreads; }
  unsigned minThreads() const { return Opts.MinThreads; }
  unsigned blocksPerSM() const { return Opts.BlocksPerSM; }
  unsigned maxRegs() const { return Opts.MaxRegs; }
  const std::string &libdevicePath() const { return Opts.LibdevicePath; }
  const CompilerConfigOptions &options() const { return Opts; }
  bool diskCache() const { return Opts.DiskCache; }
  /// The disk cache directory (the default resolved); empty without one.
  const std::string &diskCacheDir() const { return DiskDir; }

  /// Every field that affects generated code, in a fixed unambiguous
  /// encoding (the disk cache's content key uses it).
  const std::string &codegenKey() const { return CodegenKey; }

  /// A stable 64-bit content hash of every field (stable across runs, so the
  /// disk cache may use it too). Computed once at construction.
  uint64_t hash() const { return Hash; }
  /// Field-wise equality (the hash first).
  friend bool operator==(const CompilerConfig &A, const CompilerConfig &B);
  /// `native x86-64-v3 O2 kernel` — for reports and logs.
  std::string str() const;

  /// The target machine, created on first use (thread-safe, once). LLVM
  /// TargetMachines are not safe for concurrent code generation, so users
  /// hold targetMachineLock() while running passes or emitting code with it.
  llvm::Expected<llvm::TargetMachine *> targetMachine() const;
  std::mutex &targetMachineLock() const { return TMUseLock; }

private:
  explicit CompilerConfig(CompilerConfigOptions Opts);

  CompilerConfigOptions Opts;
  const prism::Target *Tgt = nullptr;
  std::string Triple, Arch, Features, CodegenKey, DiskDir;
  bool Kernel = false;
  uint64_t Hash = 0;

  mutable std::once_flag TMOnce;
  mutable std::unique_ptr<llvm::TargetMachine> TM;
  mutable std::string TMError;
  mutable std::mutex TMUseLock;
};

using CompilerConfigRef = std::shared_ptr<const CompilerConfig>;

} // namespace prism

template <> struct std::hash<prism::CompilerConfig> {
  size_t operator()(const prism::CompilerConfig &C) const noexcept {
    return static_cast<size_t>(C.hash());
  }
};
