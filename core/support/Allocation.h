/// \file
/// Allocation counting, Prism's equivalent of Julia's `@allocated`.
///
/// The global `operator new`/`delete` family is replaced (Allocation.cpp, linked
/// into every executable through the `prism_alloc` object library) by versions
/// that bump thread-local counters. An `AllocationScope` snapshots the counters
/// of the current thread on construction, so what it reports is exactly what
/// this thread allocated inside it, regardless of other threads.
#pragma once

#include <cstdint>

namespace prism {

struct AllocationStats {
  uint64_t Count = 0; ///< Number of allocations.
  uint64_t Bytes = 0; ///< Bytes requested by those allocations.
  uint64_t Frees = 0; ///< Number of deallocations.
};

/// The running totals of the calling thread.
AllocationStats threadAllocationStats();

/// True when the counting operator new is linked into this program.
bool allocationCountingActive();

class AllocationScope {
public:
  AllocationScope() : Start(threadAllocationStats()) {}
  /// Allocations made by this thread since construction.
  AllocationStats elapsed() const {
    AllocationStats Now = threadAllocationStats();
    return {Now.Count - Start.Count, Now.Bytes - Start.Bytes,
            Now.Frees - Start.Frees};
  }

private:
  AllocationStats Start;
};

} // namespace prism
