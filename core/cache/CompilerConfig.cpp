#include "cache/CompilerConfig.h"

#include "support/Diagnostic.h"
#include "targets/Target.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Target/TargetMachine.h"

#include <cstdlib>
#include <unistd.h>

namespace prism {

static llvm::Error configError(std::string Message) {
  return makeDiagError(Diagnostic::error("config", std::move(Message), {}));
}

/// Every field, in a fixed order and unambiguous encoding: the hash and the
/// equality both derive from it, so they can never disagree.
static std::string canonicalKey(const CompilerConfigOptions &O,
                                const std::string &Triple,
                                const std::string &Arch,
                                const std::string &Features, bool Kernel) {
  std::string K;
  auto Add = [&K](const std::string &S) {
    K += std::to_string(S.size());
    K += ':';
    K += S;
    K += ';';
  };
  Add(O.Target);
  Add(Triple);
  Add(Arch);
  Add(Features);
  Add(std::to_string(Kernel));
  Add(O.EntryName);
  Add(std::to_string(O.OptLevel));
  Add(std::to_string(static_cast<int>(O.DebugInfo)));
  Add(std::to_string(O.AlwaysInline));
  Add(std::to_string(O.MaxThreads));
  Add(std::to_string(O.MinThreads));
  Add(std::to_string(O.BlocksPerSM));
  Add(std::to_string(O.MaxRegs));
  Add(O.LibdevicePath);
  return K;
}

/// `$XDG_CACHE_HOME/prism`, else `$HOME/.cache/prism`, else a directory
/// under the system temp dir (still private: the cache makes it 0700).
static std::string defaultDiskCacheDir() {
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X == '/')
    return std::string(X) + "/prism";
  if (const char *H = std::getenv("HOME"); H && *H)
    return std::string(H) + "/.cache/prism";
  llvm::SmallString<128> Tmp;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Tmp);
  return std::string(Tmp) + "/prism-cache-" + std::to_string(::getuid());
}

llvm::Expected<std::shared_ptr<const CompilerConfig>>
CompilerConfig::create(const CompilerConfigOptions &Opts) {
  if (Opts.OptLevel > 3)
    return configError("optimisation level must be 0..3, got " +
                       std::to_string(Opts.OptLevel));
  auto TgtOr = lookupTarget(Opts.Target);
  if (!TgtOr)
    return TgtOr.takeError();

  // .maxnreg and .minnctapersm exist only in PTX: another target would
  // drop them without a word.
  if ((Opts.MaxRegs || Opts.BlocksPerSM) && Opts.Target != "ptx")
    return configError(std::string(Opts.MaxRegs
                                       ? "--maxregs (.maxnreg)"
                                       : "--blocks-per-sm (.minnctapersm)") +
                       " is a PTX launch bound; the " + Opts.Target +
                       " target has no such bound");
  // A BPF program is one run of one function on one packet: no threads
  // to bound.
  if (Opts.Target == "bpf" && (Opts.MaxThreads || Opts.MinThreads))
    return configError(
        std::string(Opts.MaxThreads ? "--maxthreads" : "--minthreads") +
        " is a launch bound of GPU kernels; a bpf program has "
        "no threads to bound");
  std::shared_ptr<CompilerConfig> C(new CompilerConfig(Opts));
  C->Tgt = *TgtOr;
  C->Kernel = Opts.Kernel.value_or(C->Tgt->kernelByDefault());
  C->Arch = Opts.Arch.empty() ? C->Tgt->defaultArch() : Opts.Arch;
  if (llvm::Error E = C->Tgt->checkConfig(*C))
    return E;
  // Triple and features may depend on the arch (e.g. the PTX ISA version),
  // so they are asked after it is fixed. For the host they come from the
  // cached HostInfo: this is the only place they are queried.
  C->Triple = C->Tgt->triple(*C);
  C->Features = C->Tgt->features(*C);
  if (!Opts.Features.empty())
    C->Features += (C->Features.empty() ? "" : ",") + Opts.Features;
  C->CodegenKey =
      canonicalKey(C->Opts, C->Triple, C->Arch, C->Features, C->Kernel);
  if (Opts.DiskCache)
    C->DiskDir = Opts.DiskCacheDir.empty() ? defaultDiskCacheDir()
                                           : Opts.DiskCacheDir;
  // The cache settings make a different config (GPUCompiler: any field),
  // but not different code, so they stay out of the codegen key.
  C->Hash = llvm::xxHash64(C->CodegenKey + "disk:" + C->DiskDir);
  return std::shared_ptr<const CompilerConfig>(std::move(C));
}

CompilerConfig::CompilerConfig(CompilerConfigOptions Opts)
    : Opts(std::move(Opts)) {}

CompilerConfig::~CompilerConfig() = default;

bool operator==(const CompilerConfig &A, const CompilerConfig &B) {
  if (&A == &B)
    return true;
  return A.Hash == B.Hash && A.CodegenKey == B.CodegenKey &&
         A.DiskDir == B.DiskDir;
}

std::string CompilerConfig::str() const {
  std::string S = Opts.Target + " " + Arch + " O" + std::to_string(Opts.OptLevel);
  if (Kernel)
    S += " kernel";
  if (Opts.AlwaysInline)
    S += " always_inline";
  return S;
}

llvm::Expected<llvm::TargetMachine *> CompilerConfig::targetMachine() const {
  std::call_once(TMOnce, [this] {
    auto TMOr = Tgt->createTargetMachine(*this);
    if (TMOr)
      TM = std::move(*TMOr);
    else
      TMError = llvm::toString(TMOr.takeError());
  });
  if (!TM)
    return makeDiagError(Diagnostic::error("backend", TMError, {}));
  return TM.get();
}

} // namespace prism
