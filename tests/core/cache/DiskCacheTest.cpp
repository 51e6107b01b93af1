// The on-disk cache: file format integrity, permissions, corruption,
// eviction, and a compile answered from disk by a fresh engine.
#include "core/infer/InferTestUtil.h"

#include "cache/CompileCache.h"
#include "cache/DiskCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <fstream>
#include <fcntl.h>
#include <sys/stat.h>

using namespace prism;

namespace {

/// A fresh private directory, removed afterwards.
struct TempDir {
  std::string Path;
  TempDir() {
    llvm::SmallString<128> P;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("prism-disk-cache", P));
    Path = std::string(P) + "/cache"; // created by DiskCache::open
  }
  ~TempDir() {
    llvm::sys::fs::remove_directories(llvm::sys::path::parent_path(Path));
  }
};

ContentKey keyOf(char C) {
  ContentKey K;
  K.fill(static_cast<uint8_t>(C));
  return K;
}

DiskArtefact sample() {
  DiskArtefact A;
  A.Asm = ".text\nret\n";
  A.Object = {0x7f, 'E', 'L', 'F', 1, 2, 3};
  A.EntrySymbol = "julia_f_1";
  A.LaunchSymbol = "jfptr_f_1";
  A.SharedBytes = 1024;
  return A;
}

mode_t modeOf(const std::string &Path) {
  struct stat St;
  EXPECT_EQ(::stat(Path.c_str(), &St), 0) << Path;
  return St.st_mode & 0777;
}

TEST(DiskCacheFormat, RoundTrip) {
  ContentKey K = keyOf('a');
  std::string Bytes = encodeDiskArtefact(K, sample());
  auto A = decodeDiskArtefact(K, Bytes);
  ASSERT_TRUE(!!A) << llvm::toString(A.takeError());
  EXPECT_EQ(A->Asm, sample().Asm);
  EXPECT_EQ(A->Object, sample().Object);
  EXPECT_EQ(A->EntrySymbol, "julia_f_1");
  EXPECT_EQ(A->LaunchSymbol, "jfptr_f_1");
  EXPECT_EQ(A->SharedBytes, 1024u);
}

TEST(DiskCacheFormat, EveryCorruptionAndTruncationIsDetected) {
  ContentKey K = keyOf('b');
  std::string Bytes = encodeDiskArtefact(K, sample());
  for (size_t I = 0; I < Bytes.size(); ++I) {
    std::string Bad = Bytes;
    Bad[I] = static_cast<char>(Bad[I] ^ 0x5a);
    auto A = decodeDiskArtefact(K, Bad);
    EXPECT_FALSE(!!A) << "flipped byte " << I;
    if (!A)
      llvm::consumeError(A.takeError());
    auto T = decodeDiskArtefact(K, llvm::StringRef(Bytes).take_front(I));
    EXPECT_FALSE(!!T) << "truncated to " << I;
    if (!T)
      llvm::consumeError(T.takeError());
  }
  auto Other = decodeDiskArtefact(keyOf('c'), Bytes);
  ASSERT_FALSE(!!Other);
  EXPECT_NE(llvm::toString(Other.takeError()).find("key mismatch"),
            std::string::npos);
}

TEST(DiskCache, ExistingDirectoryKeepsItsModeUnlessOthersCanWrite) {
  TempDir D;
  ASSERT_EQ(::mkdir(D.Path.c_str(), 0755), 0);
  ASSERT_EQ(::chmod(D.Path.c_str(), 0755), 0); // whatever the umask
  auto Cache = DiskCache::open(D.Path);
  ASSERT_TRUE(!!Cache) << llvm::toString(Cache.takeError());
  EXPECT_EQ(modeOf(D.Path), 0755u);

  ASSERT_EQ(::chmod(D.Path.c_str(), 0775), 0);
  auto Shared = DiskCache::open(D.Path);
  ASSERT_FALSE(!!Shared);
  EXPECT_NE(llvm::toString(Shared.takeError()).find("writable by other users"),
            std::string::npos);
  EXPECT_EQ(modeOf(D.Path), 0775u);
}

TEST(DiskCache, StoreLoadPermissionsAndCorruption) {
  TempDir D;
  auto Cache = DiskCache::open(D.Path);
  ASSERT_TRUE(!!Cache) << llvm::toString(Cache.takeError());
  EXPECT_EQ(modeOf(D.Path), 0700u);

  ContentKey K = keyOf('d');
  EXPECT_FALSE((*Cache)->load(K).has_value());
  ASSERT_FALSE(!!(*Cache)->store(K, sample()));
  std::string File = (*Cache)->pathFor(K);
  EXPECT_EQ(modeOf(File), 0600u);
  auto Back = (*Cache)->load(K);
  ASSERT_TRUE(Back.has_value());
  EXPECT_EQ(Back->Asm, sample().Asm);

  // Flip one byte in the middle of the file: detected, removed, a miss.
  {
    std::fstream F(File, std::ios::in | std::ios::out | std::ios::binary);
    F.seekp(100);
    F.put('\x42');
  }
  EXPECT_FALSE((*Cache)->load(K).has_value());
  EXPECT_FALSE(llvm::sys::fs::exists(File));
  DiskCacheStats S = (*Cache)->stats();
  EXPECT_EQ(S.Hits, 1u);
  EXPECT_EQ(S.Corrupt, 1u);
  EXPECT_EQ(S.Writes, 1u);
}

TEST(DiskCache, UnusableDirectoryIsAnError) {
  auto Relative = DiskCache::open("relative/dir");
  ASSERT_FALSE(!!Relative);
  llvm::consumeError(Relative.takeError());
  TempDir D;
  std::string FileNotDir = llvm::sys::path::parent_path(D.Path).str() + "/f";
  std::ofstream(FileNotDir) << "x";
  auto NotDir = DiskCache::open(FileNotDir);
  ASSERT_FALSE(!!NotDir);
  EXPECT_NE(llvm::toString(NotDir.takeError()).find("not a directory"),
            std::string::npos);
}

TEST(DiskCache, SizeIsBoundedOldestEvictedFirst) {
  TempDir D;
  std::string One = encodeDiskArtefact(keyOf('x'), sample());
  uint64_t Bound = One.size() * 4 + One.size() / 2; // room for four
  auto Cache = DiskCache::open(D.Path, Bound);
  ASSERT_TRUE(!!Cache);
  for (char C = 'a'; C < 'a' + 10; ++C) {
    ASSERT_FALSE(!!(*Cache)->store(keyOf(C), sample()));
    // Distinct modification times, oldest first.
    struct timespec Times[2] = {{0, UTIME_OMIT}, {1000 + C, 0}};
    ::utimensat(AT_FDCWD, (*Cache)->pathFor(keyOf(C)).c_str(), Times, 0);
  }
  EXPECT_LE((*Cache)->sizeOnDisk(), Bound);
  EXPECT_GT((*Cache)->stats().Evictions, 0u);
  EXPECT_TRUE((*Cache)->load(keyOf('a' + 9)).has_value()) << "newest kept";
  EXPECT_FALSE((*Cache)->load(keyOf('a')).has_value()) << "oldest evicted";
}

/// Two independent engines over the same program, as two processes would be.
class DiskCacheCompile : public prism::testing::InferTest {};

TEST_F(DiskCacheCompile, FreshEngineLoadsFromDisk) {
  TempDir D;
  const char *Src = "leaf(x) = x + 1\nkern(x) = leaf(x) * 2\n";
  CompilerConfigOptions O;
  O.DiskCache = true;
  O.DiskCacheDir = D.Path;
  auto C = CompilerConfig::create(O);
  ASSERT_TRUE(!!C);
  EXPECT_EQ((*C)->diskCacheDir(), D.Path);

  loadText("k.jl", Src);
  std::string FirstAsm;
  {
    CompileCache Cache(Engine);
    FunctionSpec S = spec("kern(Int64)");
    auto A = Cache.cachedCompilation(**C, S.Func, S.ArgTuple);
    ASSERT_TRUE(!!A) << prism::testing::renderAll(A.takeError());
    EXPECT_FALSE((*A)->FromDisk);
    FirstAsm = (*A)->Asm;
    EXPECT_EQ(Cache.stats().Disk.Writes, 1u);
  }

  // A second "process": new env, new engine, new cache, same source.
  GlobalEnv Env2;
  ASSERT_FALSE(!!loadPrelude(Env2));
  auto P = parseFile(SourceFile::create("k.jl", Src));
  ASSERT_TRUE(!!loadFile(Env2, P));
  InferenceEngine Engine2(Env2);
  CompileCache Cache2(Engine2);
  auto Sig = parseSignature(Env2, "kern(Int64)");
  ASSERT_TRUE(!!Sig);
  Type *Args = TypeContext::get().tuple(Sig->ArgTypes);
  auto B = Cache2.cachedCompilation(**C, Sig->Func, Args);
  ASSERT_TRUE(!!B) << prism::testing::renderAll(B.takeError());
  EXPECT_TRUE((*B)->FromDisk);
  EXPECT_EQ((*B)->Asm, FirstAsm);
  EXPECT_EQ(Cache2.stats().DiskHits, 1u);

  // An edit to a method the kernel reaches changes the content key.
  auto P3 = parseFile(SourceFile::create("k3.jl", "leaf(x) = x + 5\n"));
  auto L = loadFile(Env2, P3);
  ASSERT_TRUE(!!L);
  Engine2.invalidate(*L);
  auto E = Cache2.cachedCompilation(**C, Sig->Func, Args);
  ASSERT_TRUE(!!E);
  EXPECT_FALSE((*E)->FromDisk);
  EXPECT_EQ(Cache2.stats().Disk.Writes, 1u);
}

/// Compiles `Sig` of `Src` in a fresh environment (a new process, as far
/// as the caches know) with the disk cache in `Dir`: whether the artefact
/// came from disk.
bool compiledFromDisk(const CompilerConfig &C, const char *Src,
                      const char *Sig) {
  GlobalEnv Env;
  EXPECT_FALSE(!!loadPrelude(Env));
  auto P = parseFile(SourceFile::create("k.jl", Src));
  EXPECT_TRUE(!!loadFile(Env, P));
  InferenceEngine Engine(Env);
  CompileCache Cache(Engine);
  auto S = parseSignature(Env, Sig);
  EXPECT_TRUE(!!S);
  if (!S)
    return false;
  auto A = Cache.cachedCompilation(C, S->Func,
                                   TypeContext::get().tuple(S->ArgTypes));
  EXPECT_TRUE(!!A) << prism::testing::renderAll(A.takeError());
  return A && (*A)->FromDisk;
}

// The methods' text is the same, the code is not: a `const` binding's
// value and a struct's field order are part of the key (both were served
// stale from disk).
TEST_F(DiskCacheCompile, ConstantsAndStructLayoutsAreInTheKey) {
  TempDir D;
  CompilerConfigOptions O;
  O.DiskCache = true;
  O.DiskCacheDir = D.Path;
  auto C = CompilerConfig::create(O);
  ASSERT_TRUE(!!C);
  const char *K3 = "const K = 3\nf(x::Int64) = x * K\n";
  const char *K5 = "const K = 5\nf(x::Int64) = x * K\n";
  EXPECT_FALSE(compiledFromDisk(**C, K3, "f(Int64)"));
  EXPECT_FALSE(compiledFromDisk(**C, K5, "f(Int64)"));
  EXPECT_TRUE(compiledFromDisk(**C, K5, "f(Int64)"));
  const char *AB = "g(s::S) = s.b\nstruct S\n  a::Int32\n  b::Int64\nend\n";
  const char *BA = "g(s::S) = s.b\nstruct S\n  b::Int64\n  a::Int32\nend\n";
  EXPECT_FALSE(compiledFromDisk(**C, AB, "g(S)"));
  EXPECT_FALSE(compiledFromDisk(**C, BA, "g(S)"));
  EXPECT_TRUE(compiledFromDisk(**C, AB, "g(S)"));
}

TEST_F(DiskCacheCompile, UnusableDirectoryStillCompiles) {
  CompilerConfigOptions O;
  O.DiskCache = true;
  O.DiskCacheDir = "/proc/prism-cannot-exist";
  auto C = CompilerConfig::create(O);
  ASSERT_TRUE(!!C);
  loadText("k.jl", "f(x) = x + 1\n");
  CompileCache Cache(Engine);
  FunctionSpec S = spec("f(Int64)");
  auto A = Cache.cachedCompilation(**C, S.Func, S.ArgTuple);
  ASSERT_TRUE(!!A);
  EXPECT_NE(Cache.stats().DiskError.find("cannot create cache directory"),
            std::string::npos)
      << Cache.stats().DiskError;
}

} // namespace
