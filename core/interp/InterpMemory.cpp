// The interpreter's checked memory: device address ranges for the launch's
// arrays, and what a fault says about an access that missed them.
#include "InterpImpl.h"

#include "llvm/ADT/StringExtras.h"

namespace prism::interp {

namespace {
/// Regions are this far apart: an overflow shorter than half of it is
/// attributed to the nearest array and can never reach another one.
constexpr uint64_t Stride = uint64_t(1) << 36;
} // namespace

uint64_t Memory::map(uint8_t *Host, uint64_t Size, Label L) {
  uint64_t Base = Next;
  // Arrays larger than the stride get a gap of one stride after them.
  Next += ((Size + Stride - 1) / Stride + 1) * Stride;
  Regions.emplace(Base, Region{Host, Size, std::move(L)});
  return Base;
}

uint8_t *Memory::check(uint64_t Addr, uint64_t Size) const {
  auto It = Regions.upper_bound(Addr);
  if (It == Regions.begin())
    return nullptr;
  --It;
  uint64_t Offset = Addr - It->first;
  if (Offset > It->second.Size || Size > It->second.Size - Offset)
    return nullptr;
  return It->second.Host + Offset;
}

std::string Memory::describe(uint64_t Addr, uint64_t Size) const {
  // The nearest region: the one below the address or the one above it.
  const std::pair<const uint64_t, Region> *Near = nullptr;
  uint64_t Distance = ~uint64_t(0);
  auto Above = Regions.upper_bound(Addr);
  if (Above != Regions.end()) {
    Near = &*Above;
    Distance = Above->first - Addr;
  }
  if (Above != Regions.begin()) {
    auto Below = std::prev(Above);
    uint64_t End = Below->first + Below->second.Size;
    uint64_t D = Addr >= End ? Addr - End : 0;
    if (D <= Distance) {
      Near = &*Below;
      Distance = D;
    }
  }
  if (!Near || Distance >= Stride / 2)
    return "invalid memory access: address 0x" + llvm::utohexstr(Addr) +
           " is outside every array of the launch";

  const Region &R = Near->second;
  int64_t Offset = static_cast<int64_t>(Addr - Near->first);
  const char *Where = Offset < 0 ? "before its start" : "past its end";
  uint64_t E = R.L.ElemBytes;
  if (E && Size == E && Offset % int64_t(E) == 0) {
    // An element access: Julia's 1-based index, linear for an N-d array.
    int64_t Index = Offset / int64_t(E) + 1;
    uint64_t Count = R.Size / E;
    std::string Shape;
    if (R.L.Dims.size() > 1) {
      for (int64_t D : R.L.Dims)
        Shape += (Shape.empty() ? "" : "×") + std::to_string(D);
      Shape = ", a " + Shape + " array";
    }
    return std::string("out-of-bounds access to ") +
           (R.L.Dims.size() > 1 ? "linear index " : "index ") +
           std::to_string(Index) + " of " + R.L.Name + Shape + ", which has " +
           std::to_string(Count) + (Count == 1 ? " element" : " elements");
  }
  return "out-of-bounds access to " + std::to_string(Size) +
         " bytes at byte offset " + std::to_string(Offset) + " of " + R.L.Name +
         ", which has " + std::to_string(R.Size) + " bytes (" +
         (Offset >= 0 && uint64_t(Offset) < R.Size ? "across its end" : Where) +
         ")";
}

} // namespace prism::interp
