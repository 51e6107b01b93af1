#include "support/Allocation.h"

namespace prism::detail {
// Plain thread_local PODs: initial-exec TLS, no constructor, safe to touch
// from operator new at any point of a thread's life.
thread_local uint64_t AllocCount = 0;
thread_local uint64_t AllocBytes = 0;
thread_local uint64_t FreeCount = 0;
bool CountingLinked = false;
} // namespace prism::detail

namespace prism {
AllocationStats threadAllocationStats() {
  return {detail::AllocCount, detail::AllocBytes, detail::FreeCount};
}
bool allocationCountingActive() { return detail::CountingLinked; }
} // namespace prism
