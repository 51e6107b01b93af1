// Reading the GNU build ID note of the loaded binary; see BuildId.h.
#include "support/BuildId.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <elf.h>
#include <link.h>

#include <cstdint>
#include <string>

namespace prism {

namespace {

constexpr size_t noteAlign(size_t N) { return (N + 3) & ~size_t(3); }

/// The NT_GNU_BUILD_ID descriptor in a PT_NOTE segment, as hex.
std::string buildIdInNotes(const char *Begin, size_t Size) {
  const char *P = Begin, *End = Begin + Size;
  while (P + sizeof(ElfW(Nhdr)) <= End) {
    const auto *N = reinterpret_cast<const ElfW(Nhdr) *>(P);
    const char *Name = P + sizeof(ElfW(Nhdr));
    const char *Desc = Name + noteAlign(N->n_namesz);
    if (Desc + N->n_descsz > End)
      break;
    if (N->n_type == NT_GNU_BUILD_ID && N->n_namesz == 4 &&
        llvm::StringRef(Name, 3) == "GNU") {
      std::string Hex;
      llvm::raw_string_ostream OS(Hex);
      for (uint32_t I = 0; I < N->n_descsz; ++I)
        OS << llvm::format_hex_no_prefix(
            static_cast<unsigned char>(Desc[I]), 2);
      return OS.str();
    }
    P = Desc + noteAlign(N->n_descsz);
  }
  return "";
}

struct Search {
  uintptr_t Address; ///< an address inside the object we want
  std::string Id;
};

int visitObject(dl_phdr_info *Info, size_t, void *Data) {
  auto &S = *static_cast<Search *>(Data);
  bool Contains = false;
  for (int I = 0; I < Info->dlpi_phnum && !Contains; ++I) {
    const ElfW(Phdr) &Ph = Info->dlpi_phdr[I];
    uintptr_t Lo = Info->dlpi_addr + Ph.p_vaddr;
    Contains = Ph.p_type == PT_LOAD && S.Address >= Lo &&
               S.Address < Lo + Ph.p_memsz;
  }
  if (!Contains)
    return 0;
  for (int I = 0; I < Info->dlpi_phnum && S.Id.empty(); ++I) {
    const ElfW(Phdr) &Ph = Info->dlpi_phdr[I];
    if (Ph.p_type == PT_NOTE)
      S.Id = buildIdInNotes(
          reinterpret_cast<const char *>(Info->dlpi_addr + Ph.p_vaddr),
          Ph.p_memsz);
  }
  return 1; // found the object: stop
}

} // namespace

llvm::StringRef buildId() {
  static const std::string Id = [] {
    Search S{reinterpret_cast<uintptr_t>(&visitObject), ""};
    dl_iterate_phdr(visitObject, &S);
    return S.Id;
  }();
  return Id;
}

} // namespace prism
