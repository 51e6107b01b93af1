// The annotated assembly (code_native without --raw: source comments, no
// debug directives) is still text its assembler reads: each target writes
// its source comments with the assembler's comment leader and keeps the
// labels its directives refer to (`.size` ends at `.Lfunc_endN`).
#include "core/targets/GpuTestUtil.h"

#include "targets/GpuSupport.h"
#include "targets/HostInfo.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"

using namespace prism;
using namespace prism::testing;

namespace {

class AnnotatedAsmTest : public GpuJobTest {
protected:
  /// Compiles Sig for Target with source comments and assembles the text
  /// with llvm-mc (McArgs name the triple and CPU).
  void assembles(const std::string &Target, const std::string &Sig,
                 std::vector<std::string> McArgs, const char *Comment) {
    SCOPED_TRACE(Target + " " + Sig);
    std::optional<std::string> Mc =
        findTool({"llvm-mc-16", "llvm-mc"}, {"/usr/lib/llvm-16/bin"});
    if (!Mc)
      GTEST_SKIP() << "llvm-mc not found";
    GpuJobOptions O;
    O.RawAsm = false;
    CompileResult R = compileFor(Target, Sig, Stage::Asm, O);
    ASSERT_TRUE(R.ok()) << diags(*R.Report);
    const std::string &Asm = text(R, Stage::Asm);
    // The annotation is there: a source comment, and no `.loc`.
    EXPECT_TRUE(contains(Asm, std::string("\t") + Comment + " ")) << Asm;
    EXPECT_FALSE(contains(Asm, ".loc\t")) << Asm;
    llvm::Expected<std::string> Path = writeTempFile("s", Asm);
    ASSERT_TRUE(!!Path) << llvm::toString(Path.takeError());
    McArgs.insert(McArgs.end(), {"-filetype=obj", *Path, "-o", *Path + ".o"});
    ToolRun Run = runTool(*Mc, McArgs);
    EXPECT_EQ(Run.ExitCode, 0) << Run.Message << Run.Output << Asm;
    llvm::sys::fs::remove(*Path);
    llvm::sys::fs::remove(*Path + ".o");
  }
};

} // namespace

TEST_F(AnnotatedAsmTest, GcnAssembles) {
  for (const ExampleKernel &K : GpuExampleKernels) {
    loadExample(K.File);
    assembles("gcn", K.Sig, {"-triple=amdgcn-amd-amdhsa", "-mcpu=gfx90a"}, ";");
  }
}

TEST_F(AnnotatedAsmTest, NativeAssembles) {
  if (!llvm::StringRef(hostInfo().Triple).startswith("x86_64"))
    GTEST_SKIP() << "the host is not x86-64: " << hostInfo().Triple;
  loadExample("saxpy.jl");
  loadExample("reduce.jl");
  // `;` would separate statements on x86: the comments are `#`.
  assembles("native", GpuExampleKernels[0].Sig,
            {"-triple=" + hostInfo().Triple}, "#");
  assembles("native", GpuExampleKernels[2].Sig,
            {"-triple=" + hostInfo().Triple}, "#");
}

TEST_F(AnnotatedAsmTest, BpfAssembles) {
  loadExample("filter.jl");
  assembles("bpf", "accept_ipv4(Ptr{UInt8}, UInt32)", {"-triple=bpfel"}, "#");
}
