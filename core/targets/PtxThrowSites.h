/// \file
/// How a ptx kernel tells the host which exception it threw, and where.
///
/// GPUCompiler prints the exception with `vprintf` and traps. A `vprintf`
/// call is an ABI call with a local argument buffer, which costs the whole
/// kernel registers (map!: 24 against 12 without it), and its text reaches
/// the host's stdout, not the launcher. Prism follows CUDA.jl's exception
/// flag instead, made to carry the exception:
///
///  - At code generation every `prism_throw(kind, type, file, line)` call
///    becomes a numbered *throw site*. The throwing thread stores one 64-bit
///    record, `site << 48 | thread << 32 | block`, through the pointer held
///    in the module's `prism_exception_info` global, fences at system scope
///    and traps. One aligned 64-bit store is atomic, so when several threads
///    throw the host still reads one whole record.
///  - The PTX carries the site table as comments, readable by a person and
///    by the loader:
///      // prism.throw site=1 kind=1 line=15 type=BoundsError file=map.jl
///  - The cuda device points `prism_exception_info` at mapped, pinned host
///    memory: the trap destroys the context, but the record is already in
///    host memory, where the launcher reads it and names the exception, its
///    source line and the thread, as the host device does.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace prism {

/// The module global (`.visible .global .u64`) holding the record's address.
/// It starts out at the module's own `prism_exception_sink`, so a kernel
/// launched by a loader that sets no address still stores and traps.
inline constexpr const char *PtxExceptionGlobal = "prism_exception_info";

/// The record: the site number in the top 16 bits, then the throwing
/// thread's linear index in its block (16 bits; blocks hold at most 1024
/// threads), then its block's linear index in the grid (32 bits, modulo
/// 2^32). Linear indices count x fastest. All 32-bit arithmetic, for it
/// runs in the kernel: 64-bit index math there cost ptxas registers.
inline constexpr unsigned ThrowSiteShift = 48;
inline constexpr unsigned ThrowThreadShift = 32;
/// Sites are numbered from 1; 0 means "a throw beyond the table's range".
inline constexpr uint32_t MaxThrowSites = (1u << 16) - 1;

/// One throw site of a PTX module.
struct PtxThrowSite {
  uint32_t Id = 0;      ///< 1-based
  int32_t Kind = 0;     ///< a ThrowKind
  std::string TypeName; ///< `BoundsError`
  std::string File;     ///< as debug info names it; empty when unknown
  int32_t Line = 0;     ///< 0 when unknown
};

/// The comment block the PTX carries (one `// prism.throw` line a site).
std::string formatThrowSites(llvm::ArrayRef<PtxThrowSite> Sites);

/// The sites listed in `Ptx`'s comment block, in order; none for PTX that
/// Prism did not write.
std::vector<PtxThrowSite> parseThrowSites(llvm::StringRef Ptx);

/// A record split into its fields.
struct ThrowRecord {
  uint32_t Site = 0;   ///< 0: unknown site
  uint32_t Thread = 0; ///< linear index of the thread in its block
  uint32_t Block = 0;  ///< linear index of the block in the grid
};
inline ThrowRecord decodeThrowRecord(uint64_t Word) {
  return {uint32_t(Word >> ThrowSiteShift),
          uint32_t(Word >> ThrowThreadShift) & 0xffff, uint32_t(Word)};
}

} // namespace prism
