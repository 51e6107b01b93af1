// The prelude (core/prelude/*.jl, embedded at build time): every file must
// be clean kernel-language source.
#include "lang/Lexer.h"
#include "lang/Parser.h"
#include "prelude/Embedded.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

using namespace prism;

namespace {

SourceFileRef sourceOf(const EmbeddedFile &F) {
  return SourceFile::create(F.Name, std::string(F.Data, F.Size));
}

std::string render(const std::vector<Diagnostic> &Diags) {
  std::string Out;
  for (const Diagnostic &D : Diags)
    Out += renderDiagnostic(D) + "\n";
  return Out;
}

TEST(Prelude, FilesAreEmbeddedInLoadOrder) {
  auto Files = embeddedPreludeFiles();
  ASSERT_GE(Files.size(), 10u);
  EXPECT_EQ(std::string_view(Files.front().Name), "prelude/00_core.jl");
  for (size_t I = 1; I < Files.size(); ++I)
    EXPECT_LT(std::string_view(Files[I - 1].Name), std::string_view(Files[I].Name));
}

TEST(Prelude, EveryFileLexesCleanly) {
  for (const EmbeddedFile &F : embeddedPreludeFiles()) {
    std::vector<Diagnostic> Diags;
    std::vector<Token> Toks = lex(sourceOf(F), Diags);
    EXPECT_TRUE(Diags.empty()) << F.Name << ":\n" << render(Diags);
    EXPECT_GT(Toks.size(), 1u) << F.Name;
  }
}

TEST(Prelude, EveryFileParsesCleanly) {
  for (const EmbeddedFile &F : embeddedPreludeFiles()) {
    auto Parsed = parseFile(sourceOf(F));
    ASSERT_TRUE(Parsed) << F.Name;
    EXPECT_TRUE(Parsed->Diags.empty()) << F.Name << ":\n" << render(Parsed->Diags);
    EXPECT_FALSE(Parsed->Defs.empty()) << F.Name;
  }
}

} // namespace
