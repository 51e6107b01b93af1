// The pure parts behind the panels: forms turned into commands, signature
// suggestions, diffs prepared for display, compared figures.
#include "CompareView.h"
#include "DevicesView.h"
#include "DiffModel.h"
#include "JobsView.h"
#include "SampleReports.h"
#include "Signatures.h"
#include "ViewModel.h"

#include <gtest/gtest.h>

using namespace prism;
using namespace prism::views;

TEST(ViewModel, ParseDims) {
  EXPECT_EQ(parseDims("4"), (std::array<unsigned, 3>{4, 1, 1}));
  EXPECT_EQ(parseDims(" 4, 2 "), (std::array<unsigned, 3>{4, 2, 1}));
  EXPECT_EQ(parseDims("8,4,2"), (std::array<unsigned, 3>{8, 4, 2}));
  EXPECT_FALSE(parseDims(""));
  EXPECT_FALSE(parseDims("0"));
  EXPECT_FALSE(parseDims("4,"));
  EXPECT_FALSE(parseDims("1,2,3,4"));
  EXPECT_FALSE(parseDims("x"));
}

TEST(ViewModel, CommandNamesAndQueue) {
  CommandQueue Q;
  Q.post(cmd::SelectJob{3});
  Q.post(cmd::EditSource{"x"});
  ASSERT_EQ(Q.posted().size(), 2u);
  EXPECT_STREQ(commandName(Q.posted()[0]), "SelectJob");
  EXPECT_STREQ(commandName(Q.posted()[1]), "EditSource");
  EXPECT_EQ(Q.take().size(), 2u);
  EXPECT_TRUE(Q.posted().empty());
}

TEST(ViewModel, SnapshotFindsJobs) {
  GuiSnapshot S = test::makeSnapshot();
  ASSERT_TRUE(S.selectedJob());
  EXPECT_EQ(S.selectedJob()->Id, 1u);
  EXPECT_EQ(S.job(2)->Spec.OptLevel, 3u);
  EXPECT_EQ(S.job(0), nullptr);
  EXPECT_EQ(S.job(99), nullptr);
}

// A run names the job it compiled with Julia's printing of its signature;
// the Jobs panel's job may be spelled as the file wrote it.
TEST(ViewModel, SnapshotFindsTheJobOfARun) {
  GuiSnapshot S;
  JobEntry Fib;
  Fib.Id = 1;
  Fib.Spec.Signature = "fib(Int)";
  Fib.Spec.Target = "native";
  Fib.Spec.Kernel = false;
  auto R = std::make_shared<JobReport>();
  R->Signature = "fib(Int64)";
  Fib.Report = R;
  JobEntry Saxpy; // not compiled yet: only its text
  Saxpy.Id = 2;
  Saxpy.Spec.Signature = "saxpy!(Float32, DeviceArray{Float32,1})";
  S.Jobs = {Fib, Saxpy};

  JobSpec Ran;
  Ran.Signature = "fib(Int64)";
  Ran.Target = "native";
  Ran.Kernel = false;
  ASSERT_TRUE(S.jobOf(Ran));
  EXPECT_EQ(S.jobOf(Ran)->Id, 1u);
  JobSpec Other = Ran;
  Other.Kernel = true;
  EXPECT_EQ(S.jobOf(Other), nullptr);
  Other = Ran;
  Other.OptLevel = 3;
  EXPECT_EQ(S.jobOf(Other), nullptr);
  Other = Ran;
  Other.Signature = "fib(Int)"; // the report's text decides, once there is one
  EXPECT_EQ(S.jobOf(Other), nullptr);

  JobSpec Ptx;
  Ptx.Signature = "saxpy!(Float32, DeviceArray{Float32, 1})";
  ASSERT_TRUE(S.jobOf(Ptx));
  EXPECT_EQ(S.jobOf(Ptx)->Id, 2u);
  Ptx.Arch = "sm_90";
  EXPECT_EQ(S.jobOf(Ptx), nullptr);
}

TEST(Signatures, SameSignatureIgnoresSpaces) {
  EXPECT_TRUE(
      sameSignature("f(DeviceArray{Float32,1})", "f(DeviceArray{Float32, 1})"));
  EXPECT_TRUE(sameSignature(" f()", "f() "));
  EXPECT_FALSE(sameSignature("f(Int)", "f(Int64)"));
  EXPECT_FALSE(sameSignature("f(Int)", "f(Int"));
  EXPECT_FALSE(sameSignature("", "f()"));
}

TEST(Forms, AddJobFormMakesCommand) {
  AddJobForm F;
  F.Signature = "  saxpy!(Float32, DeviceArray{Float32,1}) ";
  F.TargetIndex = 1; // gcn
  F.OptLevel = 3;
  F.MaxThreads = 256;
  std::string Err;
  auto C = F.toCommand(Err);
  ASSERT_TRUE(C) << Err;
  EXPECT_EQ(C->Spec.Signature, "saxpy!(Float32, DeviceArray{Float32,1})");
  EXPECT_EQ(C->Spec.Target, "gcn");
  EXPECT_EQ(C->Spec.OptLevel, 3u);
  EXPECT_TRUE(C->Spec.Kernel);
  EXPECT_EQ(C->Spec.Bounds.MaxThreads, 256u);
  EXPECT_EQ(C->Spec.Checks, CheckBounds::Auto);

  F.TargetIndex = 2; // bpf programs are not kernels
  F.ChecksIndex = 2;
  C = F.toCommand(Err);
  ASSERT_TRUE(C);
  EXPECT_FALSE(C->Spec.Kernel);
  EXPECT_EQ(C->Spec.Checks, CheckBounds::No);
  F.ChecksIndex = 3;
  EXPECT_FALSE(F.toCommand(Err));
  F.ChecksIndex = 0;

  F.Signature = "saxpy!";
  EXPECT_FALSE(F.toCommand(Err));
  EXPECT_NE(Err.find("name(Type"), std::string::npos);
  F.Signature = "f(Int64)";
  F.MinThreads = 512;
  F.TargetIndex = 0; // ptx
  EXPECT_FALSE(F.toCommand(Err));
  EXPECT_EQ(
      Err, "minthreads (.reqntid) and maxthreads (.maxntid): one or the other");
  F.TargetIndex = 1; // gcn: a range for amdgpu-flat-work-group-size
  EXPECT_TRUE(F.toCommand(Err)) << Err;
  F.TargetIndex = 0;
  F.MaxThreads = 0;
  EXPECT_TRUE(F.toCommand(Err)) << Err;
  F.MinThreads = 2048;
  EXPECT_FALSE(F.toCommand(Err));
  EXPECT_EQ(Err, "a block has at most 1024 threads");
}

TEST(Forms, RunFormMakesCommand) {
  RunForm F;
  F.Device = "bpf";
  F.Call = "filter(UInt8[1, 2, 3])";
  F.Blocks = "2";
  F.Threads = "64,2";
  std::string Err;
  auto C = F.toCommand(7, Err);
  ASSERT_TRUE(C) << Err;
  EXPECT_EQ(C->Device, "bpf");
  EXPECT_EQ(C->Job, 7u);
  EXPECT_EQ(C->Blocks, (std::array<unsigned, 3>{2, 1, 1}));
  EXPECT_EQ(C->Threads, (std::array<unsigned, 3>{64, 2, 1}));
  F.Threads = "0";
  EXPECT_FALSE(F.toCommand(7, Err));
  F.Threads = "1";
  F.Call = "no call";
  EXPECT_FALSE(F.toCommand(7, Err));
}

TEST(Forms, ExampleCallFromSignature) {
  EXPECT_EQ(exampleCall("saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})"),
            "saxpy!(1f0, rand(Float32, 1024), rand(Float32, 1024))");
  EXPECT_EQ(exampleCall("f(Int32, Bool)"), "f(Int32(1), true)");
  // A struct argument: no call can build it, so none is offered (it used
  // to be `total(?, 1.0)`, which does not parse).
  std::string Why;
  EXPECT_EQ(exampleCall("total(Square, Float64)", &Why), "");
  EXPECT_EQ(Why, "Square");
  // A BPF program: a 14-byte IPv4 frame, and its length after it.
  EXPECT_EQ(exampleCall("accept_ipv4(Ptr{UInt8}, UInt32)"),
            "accept_ipv4(UInt8[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x11, "
            "0x22, 0x33, 0x44, 0x55, 0x08, 0x00], UInt32(14))");
}

TEST(Signatures, SuggestsAnnotatedFunctions) {
  auto S = suggestSignatures(test::SaxpySource);
  ASSERT_EQ(S.size(), 1u); // axpy has no annotations
  EXPECT_EQ(S[0], "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  S = suggestSignatures("function f(a::Int64)\nend\nfunction g()\nend\n"
                        "myfunction(x) = 1\nfunction h(x::NTuple{2, Float32}, y::T) where T\n");
  EXPECT_EQ(S, (std::vector<std::string>{"f(Int64)", "g()",
                                         "h(NTuple{2, Float32}, T)"}));
}

// The Pipeline panel opens on the first pass that changed code, not on
// one that only rewrote attribute comments.
TEST(DiffModel, CommentOnlyDiffsChangeNoCode) {
  EXPECT_FALSE(diffChangesCode("--- before\n+++ after\n@@ -6,1 +6,1 @@\n"
                               "-; Function Attrs: nocallback\n"
                               "+; Function Attrs: mustprogress nocallback\n"
                               " declare i32 @f()\n"));
  EXPECT_TRUE(diffChangesCode("--- before\n+++ after\n@@ -3,2 +3,1 @@\n"
                              "-  br label %L0\n"
                              " top:\n"));
  EXPECT_FALSE(diffChangesCode("@@ -60,1 +60,1 @@\n"
                               "-attributes #0 = { nounwind }\n"
                               "+attributes #0 = { mustprogress nounwind }\n"));
  EXPECT_FALSE(diffChangesCode(""));
}

TEST(DiffModel, UnifiedDiffRows) {
  std::string U = "--- before\n+++ after\n@@ -3,3 +3,2 @@\n a\n-b\n+c\n d\n";
  DiffText D = diffTextFromUnified(U);
  ASSERT_EQ(D.Kinds.size(), 7u);
  EXPECT_EQ(D.Kinds[0], DiffText::Header);
  EXPECT_EQ(D.Kinds[2], DiffText::Hunk);
  EXPECT_EQ(D.Kinds[4], DiffText::Removed);
  EXPECT_EQ(D.Kinds[5], DiffText::Added);
  EXPECT_EQ(D.OldNo[3], 3u);
  EXPECT_EQ(D.OldNo[4], 4u);
  EXPECT_EQ(D.NewNo[5], 4u);
  EXPECT_EQ(D.NewNo[6], 5u);
  EXPECT_EQ(D.NumAdded, 1u);
  EXPECT_EQ(D.NumRemoved, 1u);
  DiffCounts C = countUnified(U);
  EXPECT_EQ(C.Added, 1u);
  EXPECT_EQ(C.Removed, 1u);
}

TEST(DiffModel, LineDiffRows) {
  DiffText D = diffTextFromLines(diffLines("a\nb\nc\n", "a\nc\nd\n"));
  EXPECT_EQ(D.NumAdded, 1u);
  EXPECT_EQ(D.NumRemoved, 1u);
  EXPECT_EQ(D.Text.find("b\n") != std::string::npos, true);
}

TEST(Compare, FiguresOfTwoReports) {
  auto A = test::makeSaxpyReport(2), B = test::makeSaxpyReport(3);
  auto F = compareFigures(*A, *B);
  auto Find = [&](std::string_view Name) -> const FigureDelta * {
    for (const FigureDelta &X : F)
      if (X.Name == Name)
        return &X;
    return nullptr;
  };
  const FigureDelta *Regs = Find("registers");
  ASSERT_TRUE(Regs);
  EXPECT_EQ(*Regs->A, 12);
  EXPECT_EQ(*Regs->B, 10);
  ASSERT_TRUE(Find("llvm-opt time"));
  EXPECT_GT(*Find("llvm-opt time")->B, *Find("llvm-opt time")->A);
  // Times, the shared typed stages' allocations and the totals are no
  // verdict on the code; the other stages' allocations and the resources are.
  EXPECT_TRUE(Find("llvm-opt time")->Circumstantial);
  EXPECT_TRUE(Find("typed allocations")->Circumstantial);
  EXPECT_TRUE(Find("total allocations")->Circumstantial);
  EXPECT_FALSE(Find("llvm-opt allocations")->Circumstantial);
  EXPECT_FALSE(Regs->Circumstantial);
  EXPECT_EQ(Find("VGPRs"), nullptr); // unknown on both sides: not listed
  ASSERT_TRUE(Find("asm lines"));
  EXPECT_EQ(*Find("asm lines")->A - *Find("asm lines")->B, 1);
  ASSERT_TRUE(Find("missed optimisations"));
  EXPECT_EQ(*Find("missed optimisations")->A, 1);
  EXPECT_EQ(Find("optimisations made"), nullptr);
  // ptx jobs compare occupancy (higher is better); at a launch size too.
  ASSERT_TRUE(Find("highest occupancy %"));
  EXPECT_EQ(*Find("highest occupancy %")->A, 100);
  EXPECT_FALSE(Find("highest occupancy %")->LowerIsBetter);
  EXPECT_EQ(Find("occupancy at 256 threads %"), nullptr);
  auto Big = std::make_shared<JobReport>(*B);
  Big->Resources.SharedBytes = 40 * 1024; // 4 blocks of 41 KiB in 164 KiB
  F = compareFigures(*A, *Big, 256);
  const FigureDelta *At = Find("occupancy at 256 threads %");
  ASSERT_TRUE(At);
  EXPECT_EQ(*At->A, 100);
  EXPECT_EQ(*At->B, 50);
  // Access patterns, once either job has them.
  EXPECT_EQ(Find("uncoalesced accesses"), nullptr);
  OptRemark Bad;
  Bad.Kind = RemarkKind::Missed;
  Bad.Pass = "prism-access";
  Bad.Name = "Uncoalesced";
  Big->Remarks.push_back(Bad);
  F = compareFigures(*A, *Big);
  ASSERT_TRUE(Find("uncoalesced accesses"));
  EXPECT_EQ(*Find("uncoalesced accesses")->A, 0);
  EXPECT_EQ(*Find("uncoalesced accesses")->B, 1);
  EXPECT_EQ(*Find("bank-conflicted accesses")->B, 0);
}

TEST(DevicesForm, PrefillsFromTheFilesRunHeader) {
  const char *Src = "# job: matmul!(DeviceArray{Float32,2}, ...)\n"
                    "# run: matmul!(zeros(Float32, 32, 32), ones(Float32, 32, 32)) "
                    "--blocks 2,2 --threads 16,16\n"
                    "# run: fib(20)\n"
                    "function matmul!(C, A) end\n";
  auto F = runHeaderForm(Src, "matmul!");
  ASSERT_TRUE(F.has_value());
  EXPECT_EQ(F->Call, "matmul!(zeros(Float32, 32, 32), ones(Float32, 32, 32))");
  EXPECT_EQ(F->Blocks, "2,2");
  EXPECT_EQ(F->Threads, "16,16");
  auto G = runHeaderForm(Src, "fib");
  ASSERT_TRUE(G.has_value());
  EXPECT_EQ(G->Call, "fib(20)");
  EXPECT_EQ(G->Threads, "1");
  EXPECT_FALSE(runHeaderForm(Src, "fi").has_value());
  EXPECT_FALSE(runHeaderForm(Src, "other").has_value());

  // Without a `# run:` line, the file's failing example (exceptions.jl's).
  const char *Fails = "# run-fails: shift!(ones(Float32, 8)) --threads 8 => "
                      "BoundsError\n"
                      "# run: shift2!(ones(Float32, 8))\n"
                      "# run-fails: shift2!(ones(Float32, 2))\n";
  auto H = runHeaderForm(Fails, "shift!");
  ASSERT_TRUE(H.has_value());
  EXPECT_EQ(H->Call, "shift!(ones(Float32, 8))");
  EXPECT_EQ(H->Threads, "8");
  auto K = runHeaderForm(Fails, "shift2!");
  ASSERT_TRUE(K.has_value());
  EXPECT_EQ(K->Call, "shift2!(ones(Float32, 8))") << "a run line comes first";
}

TEST(DevicesForm, ExampleCallShapesMatricesAndPassesFunctions) {
  EXPECT_EQ(exampleCall("matmul!(DeviceArray{Float32,2}, DeviceArray{Float32,2})"),
            "matmul!(rand(Float32, 32, 32), rand(Float32, 32, 32))");
  EXPECT_EQ(exampleCall("map!(typeof(square), DeviceArray{Float32,1}, DeviceArray{Float32,1})"),
            "map!(square, rand(Float32, 1024), rand(Float32, 1024))");
}

TEST(DevicesForm, ComparesTwoDevicesResults) {
  RunResult Host, Interp;
  Host.Ok = Interp.Ok = true;
  Host.Ran = Interp.Ran = true;
  Host.Call = Interp.Call = "f(ones(Float32, 2))";
  Host.Values = Interp.Values = "return nothing\narg 1 Float32[2.0, 2.0]\n";
  RunComparison C = compareRuns("host", Host, "interp", Interp);
  EXPECT_TRUE(C.Comparable && C.Agree);

  Interp.Values = "return nothing\narg 1 Float32[2.0, 3.0]\n";
  C = compareRuns("host", Host, "interp", Interp);
  EXPECT_TRUE(C.Comparable);
  EXPECT_FALSE(C.Agree);
  EXPECT_EQ(C.Detail, "host: arg 1 Float32[2.0, 2.0]\ninterp: arg 1 Float32[2.0, 3.0]");

  // The same exception on both is agreement; who threw first is not compared.
  Host.Ok = Interp.Ok = false;
  Host.Summary = "f.jl:3:5: error: BoundsError at f.jl:3 (thread (8, 1, 1) of block (1, 1, 1)) in `julia_f`\n";
  Interp.Summary = "f.jl:3:5: error: BoundsError at f.jl:3 (thread (5, 1, 1) of block (1, 1, 1)) in `f`\n";
  C = compareRuns("host", Host, "interp", Interp);
  EXPECT_TRUE(C.Agree) << C.Detail;

  Interp.Call = "f(ones(Float32, 3))";
  EXPECT_FALSE(compareRuns("host", Host, "interp", Interp).Comparable);

  // A device that refused the call before running it is no disagreement.
  RunResult Bpf, Refused;
  Bpf.Ok = Bpf.Ran = true;
  Bpf.Call = Refused.Call = "f(UInt8[1, 2])";
  Refused.Summary =
      "CALL:1:1: error: no method matching f(::DeviceArray{UInt8, 1})\n";
  C = compareRuns("bpf", Bpf, "interp", Refused);
  EXPECT_FALSE(C.Comparable);
  EXPECT_EQ(C.Detail, "interp could not run this call: no method matching "
                      "f(::DeviceArray{UInt8, 1})");
}

// The Run form's threads as the block the warp analyses assume: the
// default single thread and malformed text are no launch.
TEST(Forms, LaunchBlockOfTheRunFormsThreads) {
  EXPECT_EQ(launchBlockOf("256"), (std::array<unsigned, 3>{256, 1, 1}));
  EXPECT_EQ(launchBlockOf("16, 16"), (std::array<unsigned, 3>{16, 16, 1}));
  EXPECT_EQ(launchBlockOf("1"), (std::array<unsigned, 3>{0, 0, 0}));
  EXPECT_EQ(launchBlockOf("1,1,1"), (std::array<unsigned, 3>{0, 0, 0}));
  EXPECT_EQ(launchBlockOf("16,x"), (std::array<unsigned, 3>{0, 0, 0}));
  EXPECT_EQ(launchBlockOf(""), (std::array<unsigned, 3>{0, 0, 0}));
}
