// Replacement global allocation functions that count per thread. Built as the
// `prism_alloc` object library so every executable gets them unconditionally.
#include "support/Allocation.h"

#include <cstdlib>
#include <new>

namespace prism::detail {
extern thread_local uint64_t AllocCount;
extern thread_local uint64_t AllocBytes;
extern thread_local uint64_t FreeCount;
extern bool CountingLinked;
namespace {
struct MarkLinked {
  MarkLinked() { CountingLinked = true; }
} Marker;
} // namespace
} // namespace prism::detail

using namespace prism::detail;

static void *countedAlloc(std::size_t Size) {
  ++AllocCount;
  AllocBytes += Size;
  return std::malloc(Size ? Size : 1);
}

static void *countedAlignedAlloc(std::size_t Size, std::align_val_t Align) {
  ++AllocCount;
  AllocBytes += Size;
  std::size_t A = static_cast<std::size_t>(Align);
  if (A < sizeof(void *))
    A = sizeof(void *);
  void *P = nullptr;
  if (posix_memalign(&P, A, Size ? Size : 1) != 0)
    return nullptr;
  return P;
}

static void countedFree(void *P) {
  if (!P)
    return;
  ++FreeCount;
  std::free(P);
}

void *operator new(std::size_t Size) {
  if (void *P = countedAlloc(Size))
    return P;
  throw std::bad_alloc();
}
void *operator new[](std::size_t Size) {
  if (void *P = countedAlloc(Size))
    return P;
  throw std::bad_alloc();
}
void *operator new(std::size_t Size, const std::nothrow_t &) noexcept {
  return countedAlloc(Size);
}
void *operator new[](std::size_t Size, const std::nothrow_t &) noexcept {
  return countedAlloc(Size);
}
void *operator new(std::size_t Size, std::align_val_t A) {
  if (void *P = countedAlignedAlloc(Size, A))
    return P;
  throw std::bad_alloc();
}
void *operator new[](std::size_t Size, std::align_val_t A) {
  if (void *P = countedAlignedAlloc(Size, A))
    return P;
  throw std::bad_alloc();
}
void *operator new(std::size_t Size, std::align_val_t A,
                   const std::nothrow_t &) noexcept {
  return countedAlignedAlloc(Size, A);
}
void *operator new[](std::size_t Size, std::align_val_t A,
                     const std::nothrow_t &) noexcept {
  return countedAlignedAlloc(Size, A);
}
void operator delete(void *P) noexcept { countedFree(P); }
void operator delete[](void *P) noexcept { countedFree(P); }
void operator delete(void *P, std::size_t) noexcept { countedFree(P); }
void operator delete[](void *P, std::size_t) noexcept { countedFree(P); }
void operator delete(void *P, const std::nothrow_t &) noexcept {
  countedFree(P);
}
void operator delete[](void *P, const std::nothrow_t &) noexcept {
  countedFree(P);
}
void operator delete(void *P, std::align_val_t) noexcept { countedFree(P); }
void operator delete[](void *P, std::align_val_t) noexcept { countedFree(P); }
void operator delete(void *P, std::size_t, std::align_val_t) noexcept {
  countedFree(P);
}
void operator delete[](void *P, std::size_t, std::align_val_t) noexcept {
  countedFree(P);
}
