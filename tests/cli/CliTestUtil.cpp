#include "CliTestUtil.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <optional>

extern char **environ;

namespace prism::test {

static std::string slurp(llvm::StringRef Path) {
  auto B = llvm::MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : std::string();
}

CommandResult runPrism(const std::vector<std::string> &Args,
                       const std::vector<std::string> &Env) {
  llvm::SmallString<128> OutPath, ErrPath;
  llvm::sys::fs::createTemporaryFile("prism-out", "txt", OutPath);
  llvm::sys::fs::createTemporaryFile("prism-err", "txt", ErrPath);
  std::vector<llvm::StringRef> Argv{PRISM_BINARY};
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, OutPath.str(),
                                                ErrPath.str()};
  std::optional<std::vector<llvm::StringRef>> Environment;
  if (!Env.empty()) {
    Environment.emplace();
    auto Overridden = [&](llvm::StringRef Entry) {
      for (const std::string &E : Env)
        if (Entry.split('=').first == llvm::StringRef(E).split('=').first)
          return true;
      return false;
    };
    for (char **P = environ; *P; ++P)
      if (!Overridden(*P))
        Environment->push_back(*P);
    Environment->insert(Environment->end(), Env.begin(), Env.end());
  }
  CommandResult R;
  R.ExitCode = llvm::sys::ExecuteAndWait(
      PRISM_BINARY, Argv,
      Environment ? std::optional<llvm::ArrayRef<llvm::StringRef>>(*Environment)
                  : std::nullopt,
      Redirects, /*SecondsToWait=*/120);
  R.Out = slurp(OutPath);
  R.Err = slurp(ErrPath);
  llvm::sys::fs::remove(OutPath);
  llvm::sys::fs::remove(ErrPath);
  return R;
}

} // namespace prism::test
