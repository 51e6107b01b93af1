//===- CacheReaderFuzzer.cpp - libFuzzer target over the disk cache reader -===//
//
// Cache files are untrusted input: any byte string must be rejected or
// decoded without crashing, and whatever decodes must re-encode to exactly
// the same bytes (so nothing was silently skipped or misread).
//
//===----------------------------------------------------------------------===//

#include "cache/DiskCache.h"

#include <cstdint>
#include <string>

using namespace prism;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // The first 32 bytes pick the key the reader expects; the rest is the file.
  ContentKey K{};
  size_t N = Size < K.size() ? Size : K.size();
  for (size_t I = 0; I < N; ++I)
    K[I] = Data[I];
  llvm::StringRef File(reinterpret_cast<const char *>(Data) + N, Size - N);
  auto A = decodeDiskArtefact(K, File);
  if (!A) {
    llvm::consumeError(A.takeError());
    return 0;
  }
  if (encodeDiskArtefact(K, *A) != File)
    __builtin_trap();
  return 0;
}
