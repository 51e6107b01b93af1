/// \file
/// Reading a kernel source file, with a size limit: a device that never ends
/// (`/dev/zero`) would otherwise be read until memory runs out.
#pragma once

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorOr.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>

namespace prism {

/// The largest source file read: far above any kernel (the bad-input corpus
/// compiles a 10 MB one), far below what a parse of it would need.
constexpr uint64_t MaxSourceFileBytes = 64u << 20;

/// The file's text, like MemoryBuffer::getFile; a file over
/// MaxSourceFileBytes is std::errc::file_too_large, and a pipe or device is
/// read up to the limit (a FIFO keeps working).
llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>>
readSourceFile(const llvm::Twine &Path);

} // namespace prism
