/// \file
/// The prelude's `.jl` sources, embedded into the binary at build time by
/// cmake/EmbedFiles.cmake from core/prelude/*.jl.
#pragma once

#include <cstddef>
#include <span>

namespace prism {

struct EmbeddedFile {
  const char *Name; ///< "prelude/base.jl"
  const char *Data;
  std::size_t Size;
};

std::span<const EmbeddedFile> embeddedPreludeFiles();

} // namespace prism
