// Every teaching example does what its header says (issue: teaching set):
//   # job: SIG [--no-kernel]     compiles for every target of `# targets:`
//   # fails: T...                ...except these, where failing is the lesson:
//                                exit 1 with a diagnostic on a line of the file
//   # run: CALL [opts]           runs on the host device (exit 0)
//   # run-fails: CALL [opts] => Kind   fails on the host with that exception
#include "CliTestUtil.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

using namespace prism::test;

namespace {

struct Header {
  std::vector<std::pair<std::string, bool>> Jobs; ///< signature, no-kernel
  std::vector<std::string> Targets, Fails;
  std::vector<std::string> Runs;                  ///< call and options
  std::vector<std::pair<std::string, std::string>> RunFails; ///< run, kind
};

std::vector<std::string> words(llvm::StringRef S) {
  llvm::SmallVector<llvm::StringRef, 8> W;
  S.split(W, ' ', -1, false);
  return {W.begin(), W.end()};
}

/// `CALL --threads 8` → {CALL, --threads, 8}: the call is everything up to
/// its balancing parenthesis.
std::vector<std::string> callAndOptions(llvm::StringRef S) {
  int Depth = 0;
  size_t End = S.size();
  for (size_t I = 0; I < S.size(); ++I)
    if (S[I] == '(')
      ++Depth;
    else if (S[I] == ')' && --Depth == 0) {
      End = I + 1;
      break;
    }
  std::vector<std::string> Out{S.take_front(End).str()};
  for (std::string &W : words(S.drop_front(End)))
    Out.push_back(W);
  return Out;
}

Header parseHeader(llvm::StringRef Text) {
  Header H;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    if (!L.startswith("#"))
      continue;
    L = L.drop_front(1).trim();
    if (L.consume_front("job:")) {
      L = L.trim();
      bool NoKernel = L.consume_back("--no-kernel");
      H.Jobs.push_back({L.trim().str(), NoKernel});
    } else if (L.consume_front("targets:")) {
      H.Targets = words(L);
    } else if (L.consume_front("fails:")) {
      H.Fails = words(L);
    } else if (L.consume_front("run-fails:")) {
      auto [Run, Kind] = L.rsplit("=>");
      H.RunFails.push_back({Run.trim().str(), Kind.trim().str()});
    } else if (L.consume_front("run:")) {
      H.Runs.push_back(L.trim().str());
    }
  }
  if (H.Targets.empty())
    H.Targets = H.Fails;
  return H;
}

std::vector<std::string> exampleFiles() {
  std::vector<std::string> Out;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(PRISM_EXAMPLES_DIR, EC), End;
       It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).endswith(".jl"))
      Out.push_back(It->path());
  std::sort(Out.begin(), Out.end());
  return Out;
}

class Example : public ::testing::TestWithParam<std::string> {};

TEST_P(Example, DoesWhatItsHeaderSays) {
  const std::string &File = GetParam();
  auto Buf = llvm::MemoryBuffer::getFile(File);
  ASSERT_TRUE(!!Buf) << File;
  Header H = parseHeader((*Buf)->getBuffer());
  ASSERT_FALSE(H.Jobs.empty()) << File << " declares no `# job:`";
  ASSERT_FALSE(H.Targets.empty()) << File << " declares no `# targets:`";
  std::string Base = llvm::sys::path::filename(File).str();

  for (const auto &[Sig, NoKernel] : H.Jobs)
    for (const std::string &T : H.Targets) {
      bool MustFail =
          std::find(H.Fails.begin(), H.Fails.end(), T) != H.Fails.end();
      std::vector<std::string> Args = {"code_native", File, Sig, "--target", T};
      if (NoKernel)
        Args.push_back("--no-kernel");
      CommandResult R = runPrism(Args);
      if (MustFail) {
        EXPECT_EQ(R.ExitCode, 1) << Sig << " on " << T << "\n" << R.Err;
        EXPECT_NE(R.Err.find(Base + ":"), std::string::npos)
            << Sig << " on " << T << ": the diagnostic must name a line of "
            << Base << "\n" << R.Err;
      } else {
        EXPECT_EQ(R.ExitCode, 0) << Sig << " on " << T << "\n" << R.Err;
        EXPECT_FALSE(R.Out.empty()) << Sig << " on " << T;
      }
    }

  for (const std::string &Run : H.Runs) {
    std::vector<std::string> Args = {"run", File};
    for (std::string &A : callAndOptions(Run))
      Args.push_back(A);
    CommandResult R = runPrism(Args);
    EXPECT_EQ(R.ExitCode, 0) << "run " << Run << "\n" << R.Err;
  }
  for (const auto &[Run, Kind] : H.RunFails) {
    std::vector<std::string> Args = {"run", File};
    for (std::string &A : callAndOptions(Run))
      Args.push_back(A);
    CommandResult R = runPrism(Args);
    EXPECT_EQ(R.ExitCode, 3) << "run " << Run << "\n" << R.Err;
    EXPECT_NE(R.Err.find(Kind), std::string::npos)
        << "run " << Run << " should fail with " << Kind << "\n" << R.Err;
    EXPECT_NE(R.Err.find(Base + ":"), std::string::npos) << R.Err;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Examples, Example, ::testing::ValuesIn(exampleFiles()),
    [](const ::testing::TestParamInfo<std::string> &I) {
      std::string N = llvm::sys::path::stem(I.param).str();
      for (char &C : N)
        if (!isalnum(static_cast<unsigned char>(C)))
          C = '_';
      return N;
    });

} // namespace
