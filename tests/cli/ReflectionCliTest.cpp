// The reflection commands of CLI.md run on the examples, as a user runs them.
#include "CliTestUtil.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>

using namespace prism::test;

namespace {
const char *Saxpy =
    "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})";

bool has(const std::string &S, const std::string &Sub) {
  return S.find(Sub) != std::string::npos;
}
} // namespace

TEST(ReflectionCli, CodeLowered) {
  auto R = runPrism({"code_lowered", example("saxpy.jl"), Saxpy});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_TRUE(has(R.Out, "CodeInfo(")) << R.Out;
  EXPECT_TRUE(has(R.Out, "getindex") || has(R.Out, "setindex!")) << R.Out;
  EXPECT_TRUE(has(R.Out, "return")) << R.Out;
}

TEST(ReflectionCli, CodeTypedShowsInvokesAndReturnType) {
  auto R = runPrism({"code_typed", example("saxpy.jl"), Saxpy, "--optimize=no"});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_TRUE(has(R.Out, "invoke")) << R.Out;
  EXPECT_TRUE(has(R.Out, "=> Nothing")) << R.Out;
}

TEST(ReflectionCli, CodeTypedOptimizedInlines) {
  auto R = runPrism({"code_typed", example("saxpy.jl"), Saxpy});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_TRUE(has(R.Out, "=> Nothing")) << R.Out;
}

TEST(ReflectionCli, CodeWarntypeMarksTheUnstableVariable) {
  auto R = runPrism({"code_warntype", example("unstable.jl"),
                     "sum_row(DeviceArray{Float32,2}, Int)"});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_TRUE(has(R.Out, "acc")) << R.Out;
  EXPECT_TRUE(has(R.Out, "Union{Float32, Int64}")) << R.Out;
}

TEST(ReflectionCli, CodeWarntypeListsAnAbstractArgument) {
  auto R = runPrism(
      {"code_warntype", example("dispatch.jl"), "total(Shape, Float64)"});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_TRUE(has(R.Out, "Non-concrete variables:\n  s::Shape  (argument: the "
                         "signature is abstract)"))
      << R.Out;
  // A concrete signature lists no argument.
  auto C = runPrism({"code_warntype", example("unstable.jl"),
                     "sum_row(DeviceArray{Float32,2}, Int)"});
  EXPECT_FALSE(has(C.Out, "(argument:")) << C.Out;
}

TEST(ReflectionCli, CodeLlvmNative) {
  auto R = runPrism({"code_llvm", example("saxpy.jl"), Saxpy});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_TRUE(has(R.Out, "define")) << R.Out;
  EXPECT_FALSE(has(R.Out, "alloca")) << R.Out;
}

TEST(ReflectionCli, CodeLlvmRawKeepsAllocas) {
  auto R = runPrism({"code_llvm", example("saxpy.jl"), Saxpy, "--optimize=no",
                     "--dump-module"});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_TRUE(has(R.Out, "alloca")) << R.Out;
}

// --dump-module without debug info still parses: the shared-array table
// (`!prism.shared_arrays`) named debug nodes that were dropped.
TEST(ReflectionCli, DumpModuleHasNoDanglingMetadata) {
  auto R =
      runPrism({"code_llvm", example("reduce.jl"),
                "block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})",
                "--target", "ptx", "--dump-module"});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  std::set<std::string> Defined, Used;
  std::istringstream In(R.Out);
  for (std::string Line; std::getline(In, Line);) {
    if (Line.size() > 1 && Line[0] == '!' && std::isdigit(Line[1]))
      Defined.insert(Line.substr(0, Line.find(' ')));
    for (size_t P = Line.find('!'); P != std::string::npos;
         P = Line.find('!', P + 1)) {
      size_t E = P + 1;
      while (E < Line.size() && std::isdigit(Line[E]))
        ++E;
      if (E > P + 1)
        Used.insert(Line.substr(P, E - P));
    }
  }
  EXPECT_TRUE(has(R.Out, "@shmem")) << R.Out;
  for (const std::string &U : Used)
    EXPECT_TRUE(Defined.count(U)) << U << " is used but not defined\n" << R.Out;
}

// LLVM prints `σ` as @"julia_\CF\83": still the function alone.
TEST(ReflectionCli, CodeLlvmOfANonAsciiNameIsTheFunction) {
  auto R = runPrism({"code_llvm",
                     std::string(PRISM_TESTS_DIR) + "/cli/data/unicode_name.jl",
                     "σ(Float32)", "--debuginfo=none"});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_TRUE(has(R.Out, "define float @\"julia_\\CF\\83\"(")) << R.Out;
  EXPECT_FALSE(has(R.Out, "ModuleID")) << R.Out;
  EXPECT_FALSE(has(R.Out, "jfptr")) << R.Out;
}

TEST(ReflectionCli, CodeNativeHost) {
  auto R = runPrism({"code_native", example("saxpy.jl"), Saxpy, "--target",
                     "native"});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_TRUE(has(R.Out, "ret")) << R.Out;
}

// Julia's debuginfo: by default the assembly carries its source lines
// (comments, and `.loc` under --raw); with none it is compiled without line
// tables and shows neither. The code itself is the same.
TEST(ReflectionCli, CodeNativeDebugInfoNoneDropsTheSourceLines) {
  for (const char *T : {"ptx", "native"}) {
    auto Src =
        runPrism({"code_native", example("saxpy.jl"), Saxpy, "--target", T});
    auto None = runPrism({"code_native", example("saxpy.jl"), Saxpy, "--target",
                          T, "--debuginfo=none"});
    auto RawNone = runPrism({"code_native", example("saxpy.jl"), Saxpy,
                             "--target", T, "--debuginfo=none", "--raw"});
    ASSERT_EQ(Src.ExitCode, 0) << Src.Err;
    ASSERT_EQ(None.ExitCode, 0) << None.Err;
    ASSERT_EQ(RawNone.ExitCode, 0) << RawNone.Err;
    EXPECT_TRUE(has(Src.Out, "saxpy.jl:")) << T << Src.Out;
    EXPECT_FALSE(has(None.Out, "saxpy.jl:")) << T << None.Out;
    EXPECT_FALSE(has(RawNone.Out, ".loc")) << T << RawNone.Out;
    EXPECT_TRUE(
        has(None.Out, T == std::string("ptx") ? "st.global.f32" : "ret"))
        << T << None.Out;
  }
  auto Bad =
      runPrism({"code_ptx", example("saxpy.jl"), Saxpy, "--debuginfo=full"});
  EXPECT_EQ(Bad.ExitCode, 2) << Bad.Out;
}

TEST(ReflectionCli, PipelineListsPassesWithDiffs) {
  auto R = runPrism({"pipeline", example("saxpy.jl"), Saxpy});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_TRUE(has(R.Out, "passes changed")) << R.Out;
  EXPECT_TRUE(has(R.Out, "SROAPass") || has(R.Out, "InstCombinePass")) << R.Out;
  EXPECT_TRUE(has(R.Out, "\n-")) << R.Out;
}

// --pass and --function narrow the list (any case, part of the name);
// --summary prints one line a pass with its counts; a filter that matches
// nothing names what there is.
TEST(ReflectionCli, PipelineFiltersAndSummarises) {
  auto S = runPrism({"pipeline", example("saxpy.jl"), Saxpy, "--target", "ptx",
                     "--summary", "--pass", "instcombine"});
  ASSERT_EQ(S.ExitCode, 0) << S.Err;
  EXPECT_TRUE(has(S.Out, "with a pass matching 'instcombine'")) << S.Out;
  EXPECT_TRUE(has(S.Out, "InstCombinePass on julia_saxpy!  +")) << S.Out;
  EXPECT_FALSE(has(S.Out, "SROAPass")) << S.Out;
  EXPECT_FALSE(has(S.Out, "\n---")) << "a summary has no diff\n" << S.Out;
  // The summary's counts are those of the full diff.
  auto F = runPrism({"pipeline", example("saxpy.jl"), Saxpy, "--target", "ptx",
                     "--pass", "instcombine"});
  ASSERT_EQ(F.ExitCode, 0) << F.Err;
  size_t First = F.Out.find(";; [");
  size_t Second = F.Out.find(";; [", First + 1);
  ASSERT_NE(First, std::string::npos) << F.Out;
  std::string Diff = F.Out.substr(First, Second - First);
  unsigned Added = 0, Removed = 0;
  for (size_t P = Diff.find('\n'); P != std::string::npos;
       P = Diff.find('\n', P + 1)) {
    if (Diff.compare(P + 1, 4, "+++ ") == 0 ||
        Diff.compare(P + 1, 4, "--- ") == 0)
      continue;
    Added += Diff.compare(P + 1, 1, "+") == 0;
    Removed += Diff.compare(P + 1, 1, "-") == 0;
  }
  EXPECT_TRUE(has(S.Out, "+" + std::to_string(Added) + " -" +
                             std::to_string(Removed) + "\n"))
      << Diff << S.Out;

  auto M = runPrism({"pipeline", example("saxpy.jl"), Saxpy, "--target", "ptx",
                     "--function", "[MODULE]", "--summary"});
  ASSERT_EQ(M.ExitCode, 0) << M.Err;
  EXPECT_TRUE(has(M.Out, "on [module]")) << M.Out;
  EXPECT_FALSE(has(M.Out, "on julia_saxpy!")) << M.Out;

  // --grep keeps the passes that changed how many lines hold the text: on
  // the host, the loop vectoriser is the one that makes <16 x float>.
  auto G = runPrism({"pipeline", example("saxpy.jl"), Saxpy, "--target",
                     "native", "--summary", "--grep", "x float>"});
  ASSERT_EQ(G.ExitCode, 0) << G.Err;
  EXPECT_TRUE(has(G.Out, "changing how many lines hold 'x float>'")) << G.Out;
  EXPECT_TRUE(has(G.Out, "LoopVectorizePass on jfptr_block_saxpy!")) << G.Out;
  EXPECT_FALSE(has(G.Out, "SROAPass")) << G.Out;
  for (size_t P = G.Out.find(";; ["); P != std::string::npos;
       P = G.Out.find(";; [", P + 1)) {
    std::string Line = G.Out.substr(P, G.Out.find('\n', P) - P);
    EXPECT_TRUE(has(Line, " with 'x float>')")) << Line;
    EXPECT_FALSE(has(Line, "(0 with")) << Line;
  }

  // --all: every pass that ran, in order, those that changed nothing as "=".
  auto A = runPrism({"pipeline", example("saxpy.jl"), Saxpy, "--target", "ptx",
                     "--summary", "--all"});
  ASSERT_EQ(A.ExitCode, 0) << A.Err;
  size_t Ran = 0;
  {
    size_t P = A.Out.find(" ran\n");
    ASSERT_NE(P, std::string::npos) << A.Out;
    size_t B = A.Out.rfind(' ', P - 1);
    Ran = std::stoul(A.Out.substr(B + 1, P - B - 1));
  }
  size_t Rows = 0, Unchanged = 0;
  for (size_t P = A.Out.find(";; ["); P != std::string::npos;
       P = A.Out.find(";; [", P + 1)) {
    std::string Line = A.Out.substr(P, A.Out.find('\n', P) - P);
    EXPECT_TRUE(has(Line, ";; [" + std::to_string(Rows) + "] ")) << Line;
    Unchanged += Line.size() >= 3 && Line.substr(Line.size() - 3) == "  =";
    ++Rows;
  }
  EXPECT_EQ(Rows, Ran) << A.Out;
  EXPECT_GT(Unchanged, Rows / 2) << "most pass runs change nothing";
  EXPECT_TRUE(has(A.Out, "InstCombinePass on julia_saxpy!  +")) << A.Out;

  auto None = runPrism({"pipeline", example("saxpy.jl"), Saxpy, "--target",
                        "ptx", "--pass", "instcombin3"});
  ASSERT_EQ(None.ExitCode, 0) << None.Err;
  EXPECT_TRUE(has(None.Out, "0 of them")) << None.Out;
  EXPECT_TRUE(has(None.Out, "passes that changed something: ")) << None.Out;
  EXPECT_TRUE(has(None.Out, "InstCombinePass")) << None.Out;
}

// --json: the same passes with the same counts, for scripts.
TEST(ReflectionCli, PipelineJsonMatchesTheText) {
  auto J = runPrism({"pipeline", example("saxpy.jl"), Saxpy, "--target", "ptx",
                     "--json", "--all", "--grep", "alloca"});
  ASSERT_EQ(J.ExitCode, 0) << J.Err;
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(J.Out);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError()) << J.Out;
  const llvm::json::Object *Root = V->getAsObject();
  ASSERT_TRUE(Root);
  EXPECT_EQ(Root->getString("target"), "ptx");
  const llvm::json::Array *Passes = Root->getArray("passes");
  ASSERT_TRUE(Passes && !Passes->empty()) << J.Out;
  auto T = runPrism({"pipeline", example("saxpy.jl"), Saxpy, "--target", "ptx",
                     "--summary", "--all", "--grep", "alloca"});
  ASSERT_EQ(T.ExitCode, 0) << T.Err;
  for (const llvm::json::Value &E : *Passes) {
    const llvm::json::Object *P = E.getAsObject();
    ASSERT_TRUE(P);
    // Each entry is a line of the text summary, with the same figures.
    std::string Line = llvm::formatv(
        ";; [{0}] {1} on {2}  +{3} -{4}", *P->getInteger("index"),
        *P->getString("pass"), *P->getString("function"),
        *P->getInteger("added"), *P->getInteger("removed"));
    EXPECT_TRUE(has(T.Out, Line)) << Line << "\n" << T.Out;
    EXPECT_NE(*P->getInteger("lines_with_grep"), 0) << Line;
    EXPECT_TRUE(P->getString("diff").has_value()) << Line;
  }
}

TEST(ReflectionCli, NativePipelineSplitsTheBlockLoopAtTheGuard) {
  // Prism's own pass, as a user finds it (docs/tour.md, `help pipeline`).
  auto R = runPrism({"pipeline", example("saxpy.jl"), Saxpy, "--target",
                     "native"});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_TRUE(has(R.Out, "GuardSplitPass on jfptr_block_saxpy!")) << R.Out;
  EXPECT_TRUE(has(R.Out, "guard.split.k")) << R.Out;
}

// The entry's LLVM name, and the PTX symbol the backend made of it.
TEST(ReflectionCli, ReportNamesTheEntryAsTheAssemblyDoes) {
  auto R = runPrism({"report", example("saxpy.jl"), Saxpy, "--target", "ptx"});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_TRUE(has(R.Out, "entry julia_saxpy! (julia_saxpy_ in the assembly)"))
      << R.Out;
  R = runPrism({"report", example("saxpy.jl"), Saxpy, "--target", "native"});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_TRUE(has(R.Out, "entry julia_saxpy!, world")) << R.Out;
  R = runPrism(
      {"report", example("saxpy.jl"), Saxpy, "--target", "ptx", "--json"});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_TRUE(has(R.Out, "\"entry\": \"julia_saxpy!\"")) << R.Out;
  EXPECT_TRUE(has(R.Out, "\"entry_symbol\": \"julia_saxpy_\"")) << R.Out;
}

TEST(ReflectionCli, ReportJson) {
  auto R = runPrism({"report", example("saxpy.jl"), Saxpy, "--json"});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  for (const char *Key : {"\"signature\"", "\"stages\"", "\"wall_ms\"",
                          "\"allocs\"", "\"resources\"", "\"cache\""})
    EXPECT_TRUE(has(R.Out, Key)) << Key << "\n" << R.Out;
  // saxpy guards its index itself: LLVM proves the bounds check away.
  EXPECT_TRUE(has(R.Out, "\"throw_sites\": 0")) << R.Out;
  // block_sum's three indexed lines, on the host (where the launch wrapper
  // holds inlined copies of the same checks) as on ptx.
  auto B = runPrism({"report", example("reduce.jl"),
                     "block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})"});
  ASSERT_EQ(B.ExitCode, 0) << B.Err;
  EXPECT_TRUE(has(B.Out, "  throw sites    3\n")) << B.Out;
}

// The occupancy table: occupancy.jl's 33 KiB of shared memory per block
// leaves room for 4 blocks on an A100 (164 KiB) and 6 on an H100 (228 KiB),
// so 256-thread blocks fill half and three quarters of the warp slots.
// ptxas is a process of its own: its time is the resources' `tool_ms`,
// not the asm stage's; its spill loads and its warnings (a `--maxregs`
// below its minimum) reach the report. A `ptxas` that prints figures of
// its own after a pause tells.
TEST(ReflectionCli, ReportTimesPtxasApartAndKeepsItsWarnings) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("prism-ptxas-slow", Dir));
  llvm::SmallString<128> Tool(Dir);
  llvm::sys::path::append(Tool, "ptxas");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Tool, EC);
    ASSERT_FALSE(EC);
    OS << "#!/bin/sh\nsleep 0.4\n"
          "echo \"ptxas warning : For entry julia_saxpy_ adjusting per thread "
          "register count of 16 to lower bound of 24\" >&2\n"
          "echo \"ptxas info    : Compiling entry function 'julia_saxpy_' for "
          "'sm_80'\" >&2\n"
          "echo \"ptxas info    : Function properties for julia_saxpy_\" >&2\n"
          "echo \"    8 bytes stack frame, 12 bytes spill stores, 20 bytes "
          "spill loads\" >&2\n"
          "echo \"ptxas info    : Used 24 registers, 380 bytes cmem[0]\" >&2\n"
          "exit 0\n";
  }
  llvm::sys::fs::setPermissions(Tool, llvm::sys::fs::all_read |
                                          llvm::sys::fs::all_exe |
                                          llvm::sys::fs::owner_write);
  const char *Path = std::getenv("PATH");
  std::vector<std::string> Env{"PATH=" + std::string(Dir) + ":" +
                                   (Path ? Path : "/usr/bin:/bin"),
                               "CUDA_HOME=" + std::string(Dir) + "/none"};
  auto R = runPrism(
      {"report", example("saxpy.jl"), Saxpy, "--target", "ptx", "--json"}, Env);
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(R.Out);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *Res = V->getAsObject()->getObject("resources");
  ASSERT_TRUE(Res);
  EXPECT_EQ(Res->getInteger("spills"), 12);
  EXPECT_EQ(Res->getInteger("spill_loads"), 20);
  ASSERT_TRUE(Res->getNumber("tool_ms"));
  EXPECT_GE(*Res->getNumber("tool_ms"), 400.0);
  EXPECT_TRUE(has(Res->getString("note").value_or("").str(),
                  "ptxas: For entry julia_saxpy_ adjusting per thread register "
                  "count of 16 to lower bound of 24"))
      << R.Out;
  for (const llvm::json::Value &S : *V->getAsObject()->getArray("stages"))
    if (S.getAsObject()->getString("stage") == "asm") {
      EXPECT_LT(*S.getAsObject()->getNumber("wall_ms"), 400.0)
          << "the asm stage counted ptxas";
    }
  auto Text =
      runPrism({"report", example("saxpy.jl"), Saxpy, "--target", "ptx"}, Env);
  EXPECT_TRUE(has(Text.Out, "  spills         12 bytes stored, 20 loaded\n"))
      << Text.Out;
  EXPECT_TRUE(has(Text.Out, "  resources (ptxas -v sm_80, ")) << Text.Out;
  llvm::sys::fs::remove_directories(Dir);
}

TEST(ReflectionCli, ReportPrintsOccupancyByBlockSize) {
  const std::string Sig =
      "chunk_sums!(DeviceArray{Float32,1}, DeviceArray{Float32,1})";
  auto A100 = runPrism({"report", example("occupancy.jl"), Sig, "--target",
                        "ptx", "--arch", "sm_80"});
  ASSERT_EQ(A100.ExitCode, 0) << A100.Err;
  if (has(A100.Out, "ptxas not found"))
    GTEST_SKIP() << "ptxas not found: no registers, no occupancy";
  EXPECT_TRUE(has(A100.Out, "  occupancy (sm_80 SM: 64 warps, 32 blocks, "
                            "65536 registers, 164 KiB shared memory):\n"))
      << A100.Out;
  EXPECT_TRUE(has(A100.Out, "      256      4     32        50%  shared memory\n"))
      << A100.Out;
  EXPECT_TRUE(has(A100.Out, "  highest: 100% from 512 threads per block\n"))
      << A100.Out;
  // --threads singles out one launch, in the shape `run` takes.
  auto At = runPrism({"report", example("occupancy.jl"), Sig, "--target", "ptx",
                      "--threads", "16,16"});
  ASSERT_EQ(At.ExitCode, 0) << At.Err;
  EXPECT_TRUE(has(At.Out, "  at 256 threads: 4 blocks, 32 of 64 warps (50%), "
                          "limited by shared memory\n"))
      << At.Out;
  EXPECT_EQ(runPrism({"report", example("occupancy.jl"), Sig, "--threads", "0"})
                .ExitCode,
            2);
  auto H100 = runPrism({"report", example("occupancy.jl"), Sig, "--target",
                        "ptx", "--arch", "sm_90", "--json"});
  ASSERT_EQ(H100.ExitCode, 0) << H100.Err;
  auto J = llvm::json::parse(H100.Out);
  ASSERT_TRUE(bool(J)) << llvm::toString(J.takeError());
  const llvm::json::Object *Occ = J->getAsObject()->getObject("occupancy");
  ASSERT_TRUE(Occ) << H100.Out;
  EXPECT_EQ(Occ->getInteger("max_warps_per_sm"), 64);
  const llvm::json::Array *Points = Occ->getArray("by_block_size");
  ASSERT_TRUE(Points && Points->size() == 32u) << H100.Out;
  const llvm::json::Object *At256 = (*Points)[7].getAsObject();
  EXPECT_EQ(At256->getInteger("threads"), 256);
  EXPECT_EQ(At256->getInteger("blocks_per_sm"), 6);
  EXPECT_EQ(At256->getNumber("occupancy"), 0.75);
}

// On an AMD CU the same 33 KiB tile leaves room for one workgroup in the
// 64 KiB of LDS: 256 threads are 4 waves, one per SIMD, of 32 slots.
TEST(ReflectionCli, ReportPrintsAmdOccupancyByWorkgroupSize) {
  const std::string Sig =
      "chunk_sums!(DeviceArray{Float32,1}, DeviceArray{Float32,1})";
  auto Gcn = runPrism({"report", example("occupancy.jl"), Sig, "--target",
                       "gcn", "--threads", "256"});
  ASSERT_EQ(Gcn.ExitCode, 0) << Gcn.Err;
  EXPECT_TRUE(has(Gcn.Out, "  waves/SIMD     4\n")) << Gcn.Out;
  EXPECT_TRUE(has(Gcn.Out, "  memory accesses of a wavefront: ")) << Gcn.Out;
  EXPECT_TRUE(has(Gcn.Out, "  occupancy (gfx90a CU: 4 SIMDs of 8 wave64s, 512 "
                           "VGPRs per SIMD lane, 16 barriers, 64 KiB LDS):\n"))
      << Gcn.Out;
  EXPECT_TRUE(has(Gcn.Out, "      256      1      4          1        13%  "
                           "LDS\n"))
      << Gcn.Out;
  EXPECT_TRUE(has(Gcn.Out, "  at 256 threads: 1 workgroup, 4 of 32 waves "
                           "(13%, 1 per SIMD), limited by LDS\n"))
      << Gcn.Out;
  auto J = runPrism({"report", example("occupancy.jl"), Sig, "--target", "gcn",
                     "--arch", "gfx908", "--json"});
  ASSERT_EQ(J.ExitCode, 0) << J.Err;
  auto V = llvm::json::parse(J.Out);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *Occ = V->getAsObject()->getObject("occupancy");
  ASSERT_TRUE(Occ) << J.Out;
  EXPECT_EQ(Occ->getInteger("max_warps_per_sm"), 40);
  const llvm::json::Array *Points = Occ->getArray("by_block_size");
  ASSERT_TRUE(Points && Points->size() == 16u) << J.Out;
  const llvm::json::Object *Last = Points->back().getAsObject();
  EXPECT_EQ(Last->getInteger("threads"), 1024);
  EXPECT_EQ(Last->getNumber("waves_per_simd"), 4.0);
  // RDNA: a WGP of 128 KiB keeps three 33 KiB workgroups.
  auto Rdna = runPrism({"report", example("occupancy.jl"), Sig, "--target",
                        "gcn", "--arch", "gfx1030", "--threads", "256"});
  ASSERT_EQ(Rdna.ExitCode, 0) << Rdna.Err;
  EXPECT_TRUE(has(Rdna.Out, "  at 256 threads: 3 workgroups, 24 of 64 waves "
                            "(38%, 6 per SIMD), limited by LDS\n"))
      << Rdna.Out;
  // Older GCN has no table; the backend's figure still shows.
  auto Old = runPrism({"report", example("occupancy.jl"), Sig, "--target",
                       "gcn", "--arch", "gfx803"});
  ASSERT_EQ(Old.ExitCode, 0) << Old.Err;
  EXPECT_TRUE(has(Old.Out, "occupancy: no table for gfx803")) << Old.Out;
  auto Host = runPrism({"report", example("occupancy.jl"), Sig, "--json"});
  ASSERT_EQ(Host.ExitCode, 0) << Host.Err;
  EXPECT_TRUE(has(Host.Out, "\"occupancy\": null")) << Host.Out;
}

// The access-pattern remarks, counted in the report once per source place:
// matmul's column-major row walks (A, B and C) and its transposed tiles
// (two stores, and one load that the unrolled inner loop copies).
TEST(ReflectionCli, ReportCountsMemoryAccessPatterns) {
  const std::string Sig = "matmul!(DeviceArray{Float32,2}, "
                          "DeviceArray{Float32,2}, DeviceArray{Float32,2})";
  auto R = runPrism({"report", example("matmul.jl"), Sig, "--target", "ptx"});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_TRUE(has(R.Out, "  memory accesses of a warp: global 0 coalesced, 3 "
                         "uncoalesced; shared 0 conflict-free, 3 with bank "
                         "conflicts;"))
      << R.Out;
  auto J = runPrism({"report", example("saxpy.jl"), Saxpy, "--target", "ptx",
                     "--json"});
  ASSERT_EQ(J.ExitCode, 0) << J.Err;
  auto V = llvm::json::parse(J.Out);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *A = V->getAsObject()->getObject("accesses");
  ASSERT_TRUE(A) << J.Out;
  EXPECT_EQ(A->getInteger("coalesced"), 3); // x[i], y[i] read, y[i] written
  EXPECT_EQ(A->getInteger("uncoalesced"), 0);
  // saxpy has no Float64 and no division.
  EXPECT_TRUE(has(J.Out, "\"arithmetic\": null")) << J.Out;
  // The host has no warps.
  auto H = runPrism({"report", example("saxpy.jl"), Saxpy, "--json"});
  EXPECT_TRUE(has(H.Out, "\"accesses\": null")) << H.Out;
}

// Branch divergence: block_sum's tree reduction splits warp 0 on its last
// five rounds once `--threads 256` gives the block (without it, `s` is a
// run-time bound); report counts the verdicts, and a malformed block is a
// usage error.
TEST(ReflectionCli, RemarksAndReportJudgeBranchDivergence) {
  const std::string Sum =
      "block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})";
  auto R = runPrism({"remarks", example("reduce.jl"), Sum, "--target", "ptx",
                     "--pass", "prism-divergence", "--threads", "256"});
  ASSERT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_TRUE(has(R.Out, "reduce.jl:15:9: remark: of the block's 8 warps, "
                         "warp 0 (threads 1–32) takes both sides of this "
                         "branch on iterations 4–8 of the loop's 8 (the bound "
                         "is then 16, 8, 4, 2, 1)"))
      << R.Out;
  auto U = runPrism({"remarks", example("reduce.jl"), Sum, "--target", "ptx",
                     "--pass", "prism-divergence"});
  ASSERT_EQ(U.ExitCode, 0) << U.Err;
  EXPECT_TRUE(has(U.Out, "reduce.jl:15:9: remark: branch comparing the "
                         "thread index with a value known only at run time"))
      << U.Out;
  auto T = runPrism({"report", example("reduce.jl"), Sum, "--target", "ptx",
                     "--threads", "256"});
  ASSERT_EQ(T.ExitCode, 0) << T.Err;
  EXPECT_TRUE(has(T.Out, "  branches on the thread index: 0 divergent in "
                         "every warp, 2 in some warps, 1 at a run-time bound"))
      << T.Out;
  auto J = runPrism({"report", example("reduce.jl"), Sum, "--target", "ptx",
                     "--threads", "256", "--json"});
  ASSERT_EQ(J.ExitCode, 0) << J.Err;
  auto V = llvm::json::parse(J.Out);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *B = V->getAsObject()->getObject("branches");
  ASSERT_TRUE(B) << J.Out;
  EXPECT_EQ(B->getInteger("partly_divergent"), 2);
  EXPECT_EQ(B->getInteger("divergent"), 0);
  // The block the counts assumed, and none without --threads.
  const llvm::json::Array *Block = V->getAsObject()->getArray("block");
  ASSERT_TRUE(Block) << J.Out;
  EXPECT_EQ(*Block, (llvm::json::Array{256, 1, 1}));
  auto NoBlock = runPrism({"report", example("reduce.jl"), Sum, "--target", "ptx", "--json"});
  ASSERT_EQ(NoBlock.ExitCode, 0) << NoBlock.Err;
  auto NV = llvm::json::parse(NoBlock.Out);
  ASSERT_TRUE(bool(NV)) << llvm::toString(NV.takeError());
  const llvm::json::Value *NB = NV->getAsObject()->get("block");
  ASSERT_TRUE(NB);
  EXPECT_EQ(NB->kind(), llvm::json::Value::Null);
  auto Bad = runPrism({"remarks", example("reduce.jl"), Sum, "--target", "ptx",
                       "--threads", "16,x"});
  EXPECT_EQ(Bad.ExitCode, 2);
  EXPECT_TRUE(has(Bad.Err, "--threads takes X[,Y[,Z]]")) << Bad.Err;
}

// Julia's --check-bounds on every compiling command: `no` removes
// block_sum's three checks, `yes` brings back those saxpy's @inbounds
// removed; code_typed shows the difference in the typed IR already; an
// unknown mode is a usage error.
TEST(ReflectionCli, CheckBoundsOverridesInbounds) {
  const std::string BlockSum =
      "block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})";
  auto Off = runPrism({"report", example("reduce.jl"), BlockSum,
                       "--check-bounds=no"});
  ASSERT_EQ(Off.ExitCode, 0) << Off.Err;
  EXPECT_TRUE(has(Off.Out, "  throw sites    0\n")) << Off.Out;
  EXPECT_TRUE(has(Off.Out, ", check-bounds=no, ")) << Off.Out; // the header
  auto On = runPrism({"report", example("saxpy.jl"), Saxpy, "--json",
                      "--check-bounds", "yes"});
  ASSERT_EQ(On.ExitCode, 0) << On.Err;
  EXPECT_FALSE(has(On.Out, "\"throw_sites\": 0")) << On.Out;
  EXPECT_TRUE(has(On.Out, "\"throw_sites\": ")) << On.Out;
  EXPECT_TRUE(has(On.Out, "\"check_bounds\": \"yes\"")) << On.Out;
  auto TypedOn = runPrism({"code_typed", example("saxpy.jl"), Saxpy,
                           "--check-bounds=yes"});
  ASSERT_EQ(TypedOn.ExitCode, 0) << TypedOn.Err;
  EXPECT_TRUE(has(TypedOn.Out, "BoundsError")) << TypedOn.Out;
  auto TypedAuto = runPrism({"code_typed", example("saxpy.jl"), Saxpy});
  ASSERT_EQ(TypedAuto.ExitCode, 0) << TypedAuto.Err;
  EXPECT_FALSE(has(TypedAuto.Out, "BoundsError")) << TypedAuto.Out;
  auto Bad = runPrism({"code_llvm", example("saxpy.jl"), Saxpy,
                       "--check-bounds=maybe"});
  EXPECT_EQ(Bad.ExitCode, 2) << Bad.Out << Bad.Err;
}

// `prism remarks`: LLVM's decisions at the kernel's lines, as clang's
// -Rpass prints them, filtered by kind and pass; `report` counts them.
TEST(ReflectionCli, RemarksListMissedOptimisationsAtKernelLines) {
  const std::string BlockSum =
      "block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})";
  auto Missed = runPrism({"remarks", example("reduce.jl"), BlockSum,
                          "--target", "ptx", "--kind", "missed"});
  ASSERT_EQ(Missed.ExitCode, 0) << Missed.Err;
  EXPECT_EQ(Missed.Out.rfind("; ", 0), 0u) << Missed.Out;
  // The shared-memory reload at the kernel's line 16, and why: the
  // sync_threads() of line 18 (a call that may write memory) in between.
  // The stores it could have reused: shared memory's (lines 11 and 16),
  // not line 22's into another array.
  EXPECT_TRUE(has(Missed.Out, "reduce.jl:16:13: remark: load of type float "
                              "not eliminated in favor of store (reduce.jl:11 "
                              "or 16) because"))
      << Missed.Out;
  EXPECT_TRUE(has(Missed.Out, "because it is clobbered by call (reduce.jl:18) "
                              "[-Rpass-missed=gvn]"))
      << Missed.Out;
  EXPECT_TRUE(has(Missed.Out, " distinct) for block_sum!(")) << Missed.Out;
  EXPECT_TRUE(has(Missed.Out, "  inlined from unsafe_load at ")) << Missed.Out;
  EXPECT_FALSE(has(Missed.Out, "[-Rpass=")) << Missed.Out;
  EXPECT_FALSE(has(Missed.Out, "[-Rpass-analysis=")) << Missed.Out;

  auto Json = runPrism({"remarks", example("reduce.jl"), BlockSum, "--target",
                        "ptx", "--pass", "gvn", "--json"});
  ASSERT_EQ(Json.ExitCode, 0) << Json.Err;
  EXPECT_TRUE(has(Json.Out, "\"pass\": \"gvn\"")) << Json.Out;
  EXPECT_FALSE(has(Json.Out, "\"pass\": \"licm\"")) << Json.Out;
  EXPECT_TRUE(has(Json.Out, "\"kind\": \"missed\"")) << Json.Out;
  EXPECT_TRUE(has(Json.Out, "\"line\": 16")) << Json.Out;

  auto Report = runPrism({"report", example("reduce.jl"), BlockSum, "--target",
                          "ptx", "--json"});
  ASSERT_EQ(Report.ExitCode, 0) << Report.Err;
  EXPECT_TRUE(has(Report.Out, "\"remarks\": {")) << Report.Out;
  EXPECT_TRUE(has(Report.Out, "\"missed\": ")) << Report.Out;

  auto Bad = runPrism({"remarks", example("reduce.jl"), BlockSum, "--kind",
                       "sometimes"});
  EXPECT_EQ(Bad.ExitCode, 2) << Bad.Out << Bad.Err;
}

// `code_ptx` prints assembly only, so it must not pay for a `ptxas -v`
// process (about 60 ms, a third of the command); `report` shows the figures
// and runs it. A `ptxas` first on PATH that only records its calls tells.
TEST(ReflectionCli, CodePtxRunsNoPtxasButReportDoes) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("prism-ptxas-spy", Dir));
  llvm::SmallString<128> Tool(Dir), Calls(Dir);
  llvm::sys::path::append(Tool, "ptxas");
  llvm::sys::path::append(Calls, "calls");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Tool, EC);
    ASSERT_FALSE(EC);
    OS << "#!/bin/sh\necho \"$@\" >> '" << Calls << "'\nexit 1\n";
  }
  llvm::sys::fs::setPermissions(Tool, llvm::sys::fs::all_read |
                                          llvm::sys::fs::all_exe |
                                          llvm::sys::fs::owner_write);
  const char *Path = std::getenv("PATH");
  std::vector<std::string> Env{"PATH=" + std::string(Dir) + ":" +
                               (Path ? Path : "/usr/bin:/bin")};

  auto R = runPrism({"code_ptx", example("saxpy.jl"), Saxpy}, Env);
  EXPECT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_TRUE(has(R.Out, ".entry julia_saxpy_")) << R.Out;
  EXPECT_FALSE(llvm::sys::fs::exists(Calls)) << "code_ptx ran ptxas";

  R = runPrism({"report", example("saxpy.jl"), Saxpy, "--target", "ptx"}, Env);
  EXPECT_EQ(R.ExitCode, 0) << R.Err;
  EXPECT_TRUE(llvm::sys::fs::exists(Calls)) << "report did not run ptxas";
  llvm::sys::fs::remove_directories(Dir);
}

TEST(ReflectionCli, UnstableKernelFailsWithTheVariableAndLine) {
  auto R = runPrism({"code_llvm", example("unstable.jl"),
                     "sum_row(DeviceArray{Float32,2}, Int)"});
  EXPECT_EQ(R.ExitCode, 1);
  EXPECT_TRUE(has(R.Err, "unstable.jl:")) << R.Err;
  EXPECT_TRUE(has(R.Err, "acc")) << R.Err;
}

TEST(ReflectionCli, NoMethodIsAProgramError) {
  auto R = runPrism({"code_typed", example("saxpy.jl"), "saxpy!(Int32)"});
  EXPECT_EQ(R.ExitCode, 1);
  EXPECT_TRUE(has(R.Err, "error:")) << R.Err;
}

TEST(ReflectionCli, MissingFileIsUsage) {
  EXPECT_EQ(runPrism({"code_typed", "/nonexistent.jl", "f(Int)"}).ExitCode, 2);
}

TEST(ReflectionCli, UnknownTargetIsUsage) {
  EXPECT_EQ(runPrism({"code_llvm", example("saxpy.jl"), Saxpy, "--target", "z80"})
                .ExitCode,
            2);
}

TEST(ReflectionCli, SyntaxErrorHasFileLineCol) {
  auto R = runPrism({"code_lowered", std::string(PRISM_TESTS_DIR) + "/cli/data/broken.jl",
                     "f(Int)"});
  EXPECT_EQ(R.ExitCode, 1);
  EXPECT_TRUE(has(R.Err, "broken.jl:2:")) << R.Err;
}

TEST(ReflectionCli, HelpTopics) {
  auto R = runPrism({"help", "world-age"});
  EXPECT_EQ(R.ExitCode, 0);
  EXPECT_TRUE(has(R.Out, "world")) << R.Out;
  // Paragraphs are filled to 79 columns.
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(R.Out).split(Lines, '\n');
  EXPECT_GT(Lines.size(), 4u) << R.Out;
  for (llvm::StringRef Line : Lines)
    EXPECT_LE(Line.size(), 79u) << Line.str();
  // A mistaken topic is an error, and all of it goes to stderr.
  auto Bad = runPrism({"help", "nonsense"});
  EXPECT_EQ(Bad.ExitCode, 2);
  EXPECT_EQ(Bad.Out, "");
  EXPECT_TRUE(has(Bad.Err, "no help topic `nonsense`")) << Bad.Err;
  EXPECT_TRUE(has(Bad.Err, "Topics: lowered")) << Bad.Err;
  auto E = runPrism({"help", "exceptions"});
  EXPECT_EQ(E.ExitCode, 0);
  EXPECT_TRUE(has(E.Out, "prism_exception_info")) << E.Out;
  EXPECT_TRUE(has(runPrism({"help"}).Out, " exceptions ")) << "listed";
  // `help --help` lists every topic `help` knows.
  std::string Usage = runPrism({"help", "--help"}).Out;
  for (const char *T :
       {"occupancy", "coalescing", "divergence", "exceptions", "interp"})
    EXPECT_TRUE(has(Usage, T)) << T << "\n" << Usage;
  EXPECT_TRUE(has(runPrism({"help", "interp"}).Out, "reference interpreter"));
  auto Occ = runPrism({"help", "occupancy"});
  EXPECT_EQ(Occ.ExitCode, 0);
  EXPECT_TRUE(has(Occ.Out, "register file")) << Occ.Out;
}

TEST(ReflectionCli, EveryCommandHasHelpWithAnExample) {
  for (const char *Cmd : {"code_lowered", "code_typed", "code_warntype",
                          "code_llvm", "code_native", "code_ptx", "code_gcn",
                          "code_bpf", "pipeline", "report", "devices", "gui",
                          "help"}) {
    auto R = runPrism({Cmd, "--help"});
    EXPECT_EQ(R.ExitCode, 0) << Cmd;
    EXPECT_TRUE(has(R.Out, "Example")) << Cmd << "\n" << R.Out;
  }
}
