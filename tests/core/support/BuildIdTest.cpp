// buildId(): the GNU build ID note of the running binary, read from its
// loaded program headers, is the one LLVM's ELF reader finds in the file.
#include "support/BuildId.h"

#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>

namespace {

/// The build ID in the ELF file at Path, read with LLVM's ELF reader.
std::string buildIdInFile(llvm::StringRef Path) {
  auto Bin = llvm::object::ObjectFile::createObjectFile(Path);
  if (!Bin) {
    ADD_FAILURE() << llvm::toString(Bin.takeError());
    return "";
  }
  auto *Elf =
      llvm::dyn_cast<llvm::object::ELF64LEObjectFile>(Bin->getBinary());
  if (!Elf) {
    ADD_FAILURE() << "not a 64-bit little-endian ELF file";
    return "";
  }
  const auto &File = Elf->getELFFile();
  auto Phdrs = File.program_headers();
  if (!Phdrs) {
    ADD_FAILURE() << llvm::toString(Phdrs.takeError());
    return "";
  }
  for (const auto &Ph : *Phdrs) {
    if (Ph.p_type != llvm::ELF::PT_NOTE)
      continue;
    llvm::Error Err = llvm::Error::success();
    for (const auto &Note : File.notes(Ph, Err))
      if (Note.getType() == llvm::ELF::NT_GNU_BUILD_ID &&
          Note.getName() == "GNU") {
        std::string Hex;
        llvm::raw_string_ostream OS(Hex);
        for (uint8_t B : Note.getDesc())
          OS << llvm::format_hex_no_prefix(B, 2);
        llvm::consumeError(std::move(Err));
        return OS.str();
      }
    EXPECT_FALSE(!!Err) << llvm::toString(std::move(Err));
  }
  return "";
}

} // namespace

TEST(BuildId, IsTheNoteInTheRunningBinary) {
  const std::string InFile = buildIdInFile("/proc/self/exe");
  ASSERT_FALSE(InFile.empty()) << "the test binary has no build ID; the "
                                  "build links with -Wl,--build-id";
  EXPECT_EQ(prism::buildId(), InFile);
  // Cached: the same answer, the same storage.
  EXPECT_EQ(prism::buildId().data(), prism::buildId().data());
}
