#include "support/SourceRead.h"

#include "llvm/Support/FileSystem.h"

#include <string>

namespace prism {

llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>>
readSourceFile(const llvm::Twine &Path) {
  namespace fs = llvm::sys::fs;
  llvm::Expected<fs::file_t> F = fs::openNativeFileForRead(Path);
  if (!F)
    return llvm::errorToErrorCode(F.takeError());
  struct Closer {
    fs::file_t F;
    ~Closer() { fs::closeFile(F); }
  } Close{*F};
  fs::file_status St;
  if (std::error_code EC = fs::status(*F, St))
    return EC;
  if (St.type() == fs::file_type::directory_file)
    return std::make_error_code(std::errc::is_a_directory);
  if (St.type() == fs::file_type::regular_file) {
    if (St.getSize() > MaxSourceFileBytes)
      return std::make_error_code(std::errc::file_too_large);
    return llvm::MemoryBuffer::getOpenFile(*F, Path, St.getSize(),
                                           /*RequiresNullTerminator=*/true,
                                           /*IsVolatile=*/false);
  }
  // A pipe or a character device: read in chunks, at most the limit.
  std::string Text;
  char Chunk[1 << 16];
  while (true) {
    llvm::Expected<size_t> N = fs::readNativeFile(*F, Chunk);
    if (!N)
      return llvm::errorToErrorCode(N.takeError());
    if (*N == 0)
      break;
    Text.append(Chunk, *N);
    if (Text.size() > MaxSourceFileBytes)
      return std::make_error_code(std::errc::file_too_large);
  }
  return llvm::MemoryBuffer::getMemBufferCopy(Text, Path);
}

} // namespace prism
