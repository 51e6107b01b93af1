/// \file
/// The prelude's `.jl` sources, embedded into the binary at build time by
/// cmake/EmbedFiles.cmake from core/prelude/*.jl.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace prism {

struct EmbeddedFile {
  const char *Name; ///< "prelude/base.jl"
  const char *Data;
  std::size_t Size;
};

std::span<const EmbeddedFile> embeddedPreludeFiles();

/// Whether a source path is the prelude's, as line tables, diagnostics and
/// inlining stacks name it (`prelude/40_float.jl`, EmbeddedFile::Name).
inline bool isPreludePath(std::string_view Path) {
  return Path.starts_with("prelude/");
}

} // namespace prism
