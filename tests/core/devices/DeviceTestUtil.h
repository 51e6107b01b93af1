/// \file
/// Helpers for the device tests: diagnostics as text, temporary
/// directories, and running real tools (clang-16, ptxas).
#pragma once

#include "devices/HostValue.h"
#include "support/Diagnostic.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <dirent.h>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace prism {
/// gtest prints HostValues in failure messages through this.
inline void PrintTo(const HostValue &V, std::ostream *OS) {
  *OS << V.typeName() << " " << V.str();
}
} // namespace prism

namespace prism::test {

/// Every diagnostic of E, one per line as `kind: message` plus notes.
inline std::string diagText(llvm::Error E) {
  std::string S;
  for (const Diagnostic &D : takeDiagnostics(std::move(E))) {
    S += D.Kind + ": " + D.Message + "\n";
    for (const DiagNote &N : D.Notes)
      S += "note: " + N.Message + "\n";
  }
  return S;
}

/// The first diagnostic of E (E is consumed).
inline Diagnostic firstDiag(llvm::Error E) {
  std::vector<Diagnostic> Ds = takeDiagnostics(std::move(E));
  return Ds.empty() ? Diagnostic{} : Ds.front();
}

/// A directory removed (with its files) when the object dies.
class TempDir {
public:
  TempDir() {
    llvm::SmallString<128> P;
    if (!llvm::sys::fs::createUniqueDirectory("prism-devices-test", P))
      Path = std::string(P);
  }
  ~TempDir() {
    if (!Path.empty())
      llvm::sys::fs::remove_directories(Path);
  }
  const std::string &path() const { return Path; }
  std::string file(llvm::StringRef Name) const {
    llvm::SmallString<128> P(Path);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  }
  std::string write(llvm::StringRef Name, llvm::StringRef Text) const {
    std::string F = file(Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(F, EC);
    OS << Text;
    return F;
  }

private:
  std::string Path;
};

inline std::optional<std::string> findTool(llvm::StringRef Name,
                                           llvm::ArrayRef<llvm::StringRef> Extra = {}) {
  if (auto P = llvm::sys::findProgramByName(Name))
    return *P;
  if (auto P = llvm::sys::findProgramByName(Name, Extra))
    return *P;
  return std::nullopt;
}

/// Runs Tool with Args; stdout+stderr go to Output. Returns the exit code.
inline int runTool(const std::string &Tool, std::vector<std::string> Args,
                   const TempDir &Dir, std::string &Output) {
  std::vector<llvm::StringRef> Argv{Tool};
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::string Log = Dir.file("tool-output.txt");
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(Log),
                                                llvm::StringRef(Log)};
  std::string Err;
  int RC = llvm::sys::ExecuteAndWait(Tool, Argv, std::nullopt, Redirects, 120,
                                     0, &Err);
  if (auto B = llvm::MemoryBuffer::getFile(Log))
    Output = (*B)->getBuffer().str();
  Output += Err;
  return RC;
}

inline std::vector<uint8_t> readBytes(const std::string &File) {
  auto B = llvm::MemoryBuffer::getFile(File);
  if (!B)
    return {};
  llvm::StringRef S = (*B)->getBuffer();
  return std::vector<uint8_t>(S.begin(), S.end());
}

/// Open file descriptors of this process.
inline int countOpenFds() {
  int N = 0;
  if (DIR *D = opendir("/proc/self/fd")) {
    while (dirent *E = readdir(D))
      if (E->d_name[0] != '.')
        ++N;
    closedir(D);
  }
  return N - 1; // the directory stream itself
}

} // namespace prism::test
