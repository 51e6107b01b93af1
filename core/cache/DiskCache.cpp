// The on-disk cache: content key, file format, atomic store, verified load,
// LRU eviction by modification time.
//
// File layout (integers little-endian):
//   "PRISMAC1"          8-byte magic
//   u32 format version
//   32 bytes            content key (must equal the name's key)
//   u64 payload length
//   32 bytes            SHA-256 of the payload
//   payload: asm, object, entry symbol, launch symbol (each u64 length +
//            bytes), then u64 shared bytes
#include "cache/DiskCache.h"

#include "cache/CompilerConfig.h"
#include "infer/Inference.h"
#include "support/BuildId.h"
#include "support/Diagnostic.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <functional>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

namespace prism {

namespace {

constexpr char Magic[8] = {'P', 'R', 'I', 'S', 'M', 'A', 'C', '1'};
constexpr uint32_t FormatVersion = 1;
constexpr size_t HeaderSize = 8 + 4 + 32 + 8 + 32;
constexpr llvm::StringLiteral EntrySuffix = ".pco";

llvm::Error cacheError(std::string Message) {
  return makeDiagError(Diagnostic::error("cache", std::move(Message), {}));
}

void putU64(std::string &Out, uint64_t V) {
  for (int I = 0; I < 8; ++I)
    Out.push_back(static_cast<char>((V >> (8 * I)) & 0xff));
}

void putBytes(std::string &Out, llvm::StringRef B) {
  putU64(Out, B.size());
  Out.append(B.data(), B.size());
}

/// A bounds-checked reader over untrusted bytes.
struct Reader {
  llvm::StringRef In;
  bool Ok = true;

  uint64_t u64() {
    if (In.size() < 8) {
      Ok = false;
      return 0;
    }
    uint64_t V = 0;
    for (int I = 0; I < 8; ++I)
      V |= static_cast<uint64_t>(static_cast<uint8_t>(In[I])) << (8 * I);
    In = In.drop_front(8);
    return V;
  }
  uint32_t u32() {
    if (In.size() < 4) {
      Ok = false;
      return 0;
    }
    uint32_t V = 0;
    for (int I = 0; I < 4; ++I)
      V |= static_cast<uint32_t>(static_cast<uint8_t>(In[I])) << (8 * I);
    In = In.drop_front(4);
    return V;
  }
  llvm::StringRef bytes(size_t N) {
    if (In.size() < N) {
      Ok = false;
      return {};
    }
    llvm::StringRef B = In.take_front(N);
    In = In.drop_front(N);
    return B;
  }
  llvm::StringRef sized() { return bytes(u64()); }
};

ContentKey sha256(llvm::StringRef Bytes) {
  llvm::SHA256 H;
  H.update(Bytes);
  return H.final();
}

llvm::StringRef asRef(const ContentKey &K) {
  return {reinterpret_cast<const char *>(K.data()), K.size()};
}

/// Writes all of Data to FD, retrying short writes and EINTR.
bool writeAll(int FD, llvm::StringRef Data) {
  while (!Data.empty()) {
    ssize_t N = ::write(FD, Data.data(), Data.size());
    if (N < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    Data = Data.drop_front(static_cast<size_t>(N));
  }
  return true;
}

/// Reads a whole regular file (no symlinks followed), at most MaxBytes.
/// O_NONBLOCK: a FIFO in the entry's place must not block the open (it is
/// then refused as not a regular file); a regular file ignores the flag.
std::optional<std::string> readFile(const std::string &Path, uint64_t MaxBytes) {
  int FD = ::open(Path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (FD < 0)
    return std::nullopt;
  struct stat St;
  std::optional<std::string> Out;
  if (::fstat(FD, &St) == 0 && S_ISREG(St.st_mode) &&
      static_cast<uint64_t>(St.st_size) <= MaxBytes) {
    std::string Data(static_cast<size_t>(St.st_size), '\0');
    size_t Got = 0;
    while (Got < Data.size()) {
      ssize_t N = ::read(FD, Data.data() + Got, Data.size() - Got);
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        break;
      Got += static_cast<size_t>(N);
    }
    Data.resize(Got);
    Out = std::move(Data);
  }
  ::close(FD);
  return Out;
}

} // namespace

ContentKey jobContentKey(const InferResult &R, const CompilerConfig &C,
                         const FunctionSpec &Spec) {
  llvm::SHA256 H;
  auto Add = [&H](llvm::StringRef S) {
    std::string Len = std::to_string(S.size()) + ":";
    H.update(Len);
    H.update(S);
  };
  Add("prism-cache");
  Add(PRISM_VERSION);
  Add(LLVM_VERSION_STRING);
  // The version number does not change with every change to the code
  // generator; the build ID does.
  Add(buildId());
  Add(C.codegenKey());
  Add(checkBoundsName(R.Bounds));
  Add(Spec.str());
  // The closure in inference order (deterministic for the same program):
  // each instance and the text and position of its method, since line
  // numbers end up in the debug info of the artefact.
  // What the methods' text does not say is hashed too: the layout of every
  // type the code handles (a struct's fields reordered keep its name) and
  // the constants inference folded in (a `const` binding's new value).
  llvm::DenseSet<const Type *> SeenTypes;
  std::function<void(Type *)> AddType = [&](Type *T) {
    if (!T || !SeenTypes.insert(T).second)
      return;
    Add(T->str());
    if (T->isStruct()) {
      std::span<const Symbol> Names = T->fieldNames();
      for (size_t F = 0; F < T->fieldTypes().size(); ++F) {
        Add(F < Names.size() ? std::string(Names[F].str()) : "");
        AddType(T->fieldTypes()[F]);
      }
    } else if (T->isTuple()) {
      for (Type *P : T->params())
        AddType(P);
    }
  };
  std::function<void(const LatticeType &)> AddLattice =
      [&](const LatticeType &L) {
        AddType(L.T);
        if (L.Const)
          Add(L.Const->str());
        if (L.Fields)
          for (const LatticeType &F : *L.Fields)
            AddLattice(F);
      };
  for (const CodeInstance *CI : R.All) {
    const MethodInstance *MI = CI->MI;
    Add(MI->str());
    if (const Method *M = MI->Def) {
      Add(M->SourceText);
      if (M->File) {
        LineCol LC = M->File->lineCol(M->Range.Begin);
        Add(M->File->name());
        Add(std::to_string(LC.Line) + ":" + std::to_string(LC.Col));
      }
    }
    if (const TypedCode *Code = CI->Code.get()) {
      for (const LatticeType &L : Code->SSATypes)
        AddLattice(L);
      for (Type *T : Code->SlotTypes)
        AddType(T);
      for (const std::vector<LatticeType> &Args : Code->ArgTypes)
        for (const LatticeType &L : Args)
          AddLattice(L);
    }
  }
  return H.final();
}

std::string toHex(const ContentKey &K) {
  static const char Digits[] = "0123456789abcdef";
  std::string S;
  S.reserve(K.size() * 2);
  for (uint8_t B : K) {
    S.push_back(Digits[B >> 4]);
    S.push_back(Digits[B & 15]);
  }
  return S;
}

std::string encodeDiskArtefact(const ContentKey &K, const DiskArtefact &A) {
  std::string Payload;
  putBytes(Payload, A.Asm);
  putBytes(Payload, llvm::StringRef(reinterpret_cast<const char *>(A.Object.data()),
                                    A.Object.size()));
  putBytes(Payload, A.EntrySymbol);
  putBytes(Payload, A.LaunchSymbol);
  putU64(Payload, A.SharedBytes);

  std::string Out(Magic, sizeof(Magic));
  for (int I = 0; I < 4; ++I)
    Out.push_back(static_cast<char>((FormatVersion >> (8 * I)) & 0xff));
  Out += asRef(K);
  putU64(Out, Payload.size());
  Out += asRef(sha256(Payload));
  Out += Payload;
  return Out;
}

llvm::Expected<DiskArtefact> decodeDiskArtefact(const ContentKey &K,
                                                llvm::StringRef Bytes) {
  if (Bytes.size() < HeaderSize)
    return cacheError("truncated header");
  Reader In{Bytes};
  if (In.bytes(sizeof(Magic)) != llvm::StringRef(Magic, sizeof(Magic)))
    return cacheError("bad magic");
  if (In.u32() != FormatVersion)
    return cacheError("unknown format version");
  if (In.bytes(32) != asRef(K))
    return cacheError("key mismatch");
  uint64_t Len = In.u64();
  llvm::StringRef Sum = In.bytes(32);
  if (Len != In.In.size())
    return cacheError("payload length mismatch (truncated or extended)");
  if (Sum != asRef(sha256(In.In)))
    return cacheError("checksum mismatch");

  DiskArtefact A;
  A.Asm = In.sized().str();
  llvm::StringRef Obj = In.sized();
  A.Object.assign(Obj.bytes_begin(), Obj.bytes_end());
  A.EntrySymbol = In.sized().str();
  A.LaunchSymbol = In.sized().str();
  A.SharedBytes = In.u64();
  if (!In.Ok || !In.In.empty())
    return cacheError("malformed payload");
  return A;
}

llvm::Expected<std::unique_ptr<DiskCache>>
DiskCache::open(const std::string &Dir, uint64_t MaxBytes) {
  if (Dir.empty() || Dir[0] != '/')
    return cacheError("cache directory must be an absolute path: '" + Dir + "'");
  // Create each missing component; only the last one is ours to restrict.
  for (size_t P = 1; P <= Dir.size(); ++P) {
    if (P != Dir.size() && Dir[P] != '/')
      continue;
    std::string Part = Dir.substr(0, P);
    if (::mkdir(Part.c_str(), 0700) != 0 && errno != EEXIST)
      return cacheError("cannot create cache directory '" + Part +
                        "': " + std::strerror(errno));
  }
  struct stat St;
  if (::lstat(Dir.c_str(), &St) != 0 || !S_ISDIR(St.st_mode))
    return cacheError("cache path '" + Dir + "' is not a directory");
  if (St.st_uid != ::geteuid())
    return cacheError("cache directory '" + Dir + "' is owned by another user");
  // Entries are checksummed, not signed: a directory others can write to
  // would let them plant code that the host device runs. Its other
  // permissions are the user's to choose (a directory this creates is 0700).
  if (St.st_mode & (S_IWGRP | S_IWOTH))
    return cacheError("cache directory '" + Dir +
                      "' is writable by other users (chmod go-w it, or name "
                      "another)");
  if (::access(Dir.c_str(), W_OK | X_OK) != 0)
    return cacheError("cache directory '" + Dir +
                      "' is not writable: " + std::strerror(errno));
  return std::unique_ptr<DiskCache>(new DiskCache(Dir, MaxBytes));
}

std::string DiskCache::pathFor(const ContentKey &K) const {
  return Dir + "/" + toHex(K) + EntrySuffix.str();
}

std::optional<DiskArtefact> DiskCache::load(const ContentKey &K) {
  std::string Path = pathFor(K);
  std::optional<std::string> Bytes = readFile(Path, MaxBytes);
  if (!Bytes) {
    Misses.fetch_add(1, std::memory_order_relaxed);
    return std::nullopt;
  }
  llvm::Expected<DiskArtefact> A = decodeDiskArtefact(K, *Bytes);
  if (!A) {
    llvm::consumeError(A.takeError());
    ::unlink(Path.c_str());
    Corrupt.fetch_add(1, std::memory_order_relaxed);
    Misses.fetch_add(1, std::memory_order_relaxed);
    return std::nullopt;
  }
  // Touch for LRU eviction; failure only makes eviction less precise.
  ::utimensat(AT_FDCWD, Path.c_str(), nullptr, AT_SYMLINK_NOFOLLOW);
  Hits.fetch_add(1, std::memory_order_relaxed);
  return std::move(*A);
}

llvm::Error DiskCache::store(const ContentKey &K, const DiskArtefact &A) {
  llvm::Error E = storeFile(K, A);
  if (E) {
    std::vector<Diagnostic> Ds = takeDiagnostics(std::move(E));
    std::string Message = Ds.empty() ? "cannot write cache entry" : Ds[0].Message;
    {
      std::lock_guard<std::mutex> G(ErrorLock);
      LastWriteError = Message;
    }
    return cacheError(Message);
  }
  return llvm::Error::success();
}

llvm::Error DiskCache::storeFile(const ContentKey &K, const DiskArtefact &A) {
  std::string Bytes = encodeDiskArtefact(K, A);
  if (Bytes.size() > MaxBytes) {
    WriteErrors.fetch_add(1, std::memory_order_relaxed);
    return cacheError("artefact of " + std::to_string(Bytes.size()) +
                      " bytes exceeds the cache bound");
  }
  std::string Final = pathFor(K);
  static thread_local std::mt19937_64 Rng{std::random_device{}()};
  std::string Tmp = Final + ".tmp." + std::to_string(::getpid()) + "." +
                    std::to_string(Rng());
  int FD = ::open(Tmp.c_str(),
                  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (FD < 0) {
    WriteErrors.fetch_add(1, std::memory_order_relaxed);
    return cacheError("cannot write cache entry in '" + Dir +
                      "': " + std::strerror(errno));
  }
  bool Ok = writeAll(FD, Bytes) && ::fsync(FD) == 0;
  int Err = errno;
  Ok = (::close(FD) == 0) && Ok;
  if (!Ok || ::rename(Tmp.c_str(), Final.c_str()) != 0) {
    if (Ok)
      Err = errno;
    ::unlink(Tmp.c_str());
    WriteErrors.fetch_add(1, std::memory_order_relaxed);
    return cacheError("cannot write cache entry in '" + Dir +
                      "': " + std::strerror(Err));
  }
  Writes.fetch_add(1, std::memory_order_relaxed);
  evict();
  return llvm::Error::success();
}

namespace {
struct FileInfo {
  std::string Path;
  uint64_t Size;
  struct timespec MTime;
};

/// Entries (and stale temp files of crashed writers) in the directory.
std::vector<FileInfo> listEntries(const std::string &Dir) {
  std::vector<FileInfo> Out;
  DIR *D = ::opendir(Dir.c_str());
  if (!D)
    return Out;
  while (struct dirent *E = ::readdir(D)) {
    llvm::StringRef Name(E->d_name);
    if (!Name.endswith(EntrySuffix) && !Name.contains(".pco.tmp."))
      continue;
    std::string Path = Dir + "/" + Name.str();
    struct stat St;
    if (::lstat(Path.c_str(), &St) == 0 && S_ISREG(St.st_mode))
      Out.push_back({Path, static_cast<uint64_t>(St.st_size), St.st_mtim});
  }
  ::closedir(D);
  return Out;
}
} // namespace

uint64_t DiskCache::sizeOnDisk() const {
  uint64_t Total = 0;
  for (const FileInfo &F : listEntries(Dir))
    Total += F.Size;
  return Total;
}

void DiskCache::evict() {
  std::lock_guard<std::mutex> G(EvictLock);
  std::vector<FileInfo> Files = listEntries(Dir);
  uint64_t Total = 0;
  for (const FileInfo &F : Files)
    Total += F.Size;
  if (Total <= MaxBytes)
    return;
  std::sort(Files.begin(), Files.end(), [](const FileInfo &A, const FileInfo &B) {
    return std::tie(A.MTime.tv_sec, A.MTime.tv_nsec) <
           std::tie(B.MTime.tv_sec, B.MTime.tv_nsec);
  });
  // Down to 3/4 of the bound, so that eviction does not run on every store.
  uint64_t Target = MaxBytes / 4 * 3;
  struct timespec Now;
  ::clock_gettime(CLOCK_REALTIME, &Now);
  for (const FileInfo &F : Files) {
    if (Total <= Target)
      break;
    // Another writer's temp file is in flight unless it is old.
    if (llvm::StringRef(F.Path).contains(".pco.tmp.") &&
        Now.tv_sec - F.MTime.tv_sec < 600)
      continue;
    if (::unlink(F.Path.c_str()) == 0) {
      Total -= F.Size;
      Evictions.fetch_add(1, std::memory_order_relaxed);
    }
  }
}

DiskCacheStats DiskCache::stats() const {
  DiskCacheStats S;
  S.Hits = Hits.load(std::memory_order_relaxed);
  S.Misses = Misses.load(std::memory_order_relaxed);
  S.Writes = Writes.load(std::memory_order_relaxed);
  S.Corrupt = Corrupt.load(std::memory_order_relaxed);
  S.Evictions = Evictions.load(std::memory_order_relaxed);
  S.WriteErrors = WriteErrors.load(std::memory_order_relaxed);
  std::lock_guard<std::mutex> G(ErrorLock);
  S.LastWriteError = LastWriteError;
  return S;
}

} // namespace prism
