// The ptx target through the real pipeline: kernel entries and internal
// functions, launch bounds, address spaces, math, traps, libdevice, arch
// checks, and every example kernel accepted by ptxas when it is installed.
#include "core/targets/GpuTestUtil.h"

#include "targets/PtxTarget.h"
#include "targets/PtxThrowSites.h"

using namespace prism;
using namespace prism::testing;

namespace {

constexpr const char *SaxpySig =
    "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})";
constexpr const char *StencilSig =
    "stencil!(DeviceArray{Float32,1}, DeviceArray{Float32,1})";

/// Whether Text holds the Needles in this order.
bool inOrder(llvm::StringRef Text, std::initializer_list<llvm::StringRef> Needles) {
  size_t At = 0;
  for (llvm::StringRef N : Needles) {
    At = Text.find(N, At);
    if (At == llvm::StringRef::npos)
      return false;
    At += N.size();
  }
  return true;
}

class PtxTargetTest : public GpuJobTest {
protected:
  CompileResult ptx(const std::string &Sig, Stage UpTo = Stage::Asm,
                    const GpuJobOptions &O = {}) {
    return compileFor("ptx", Sig, UpTo, O);
  }
};

} // namespace

TEST_F(PtxTargetTest, KernelIsVisibleEntryWithKernelAnnotation) {
  loadExample("saxpy.jl");
  CompileResult R = ptx(SaxpySig);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Asm = text(R, Stage::Asm);
  EXPECT_TRUE(contains(Asm, ".target sm_80")) << Asm;
  EXPECT_TRUE(contains(Asm, ".version 7.0")) << Asm;
  // `!` is not a PTX identifier character.
  EXPECT_TRUE(contains(Asm, ".visible .entry julia_saxpy_(")) << Asm;
  const std::string &IR = text(R, Stage::LLVMOpt);
  EXPECT_TRUE(contains(IR, "define ptx_kernel void @\"julia_saxpy!\"")) << IR;
  EXPECT_TRUE(contains(IR, "!\"kernel\", i32 1}")) << IR;
  // Aggregates are byval, so NVPTX knows the DeviceArray pointers are global.
  EXPECT_TRUE(contains(IR, "byval({ ptr, [1 x i64] })")) << IR;
  EXPECT_TRUE(contains(text(R, Stage::LLVMRaw),
                       "@llvm.nvvm.read.ptx.sreg.tid.x()"));
  EXPECT_TRUE(contains(text(R, Stage::LLVMRaw),
                       "@llvm.nvvm.read.ptx.sreg.ctaid.x()"));
  EXPECT_TRUE(contains(text(R, Stage::LLVMRaw),
                       "@llvm.nvvm.read.ptx.sreg.ntid.x()"));
  EXPECT_EQ(ptxSymbol("julia_saxpy!"), "julia_saxpy_");
  // What a launcher must look up: the report's entry through the target.
  EXPECT_TRUE(contains(Asm, ".entry " + ptxTarget().asmSymbol(R.EntrySymbol) + "("));
}

TEST_F(PtxTargetTest, NonKernelHasNoEntry) {
  loadText("scalar.jl", R"(function twice(x::Float32)
    return x * 2.0f0
end
)");
  GpuJobOptions O;
  O.Kernel = false;
  CompileResult R = ptx("twice(Float32)", Stage::Asm, O);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Asm = text(R, Stage::Asm);
  EXPECT_FALSE(contains(Asm, ".entry")) << Asm;
  EXPECT_TRUE(contains(Asm, ".visible .func")) << Asm;
  EXPECT_FALSE(contains(text(R, Stage::LLVMOpt), "ptx_kernel"));
  EXPECT_FALSE(contains(text(R, Stage::LLVMOpt), "nvvm.annotations"));
}

TEST_F(PtxTargetTest, NoInlineCalleeIsInternalFuncCalledUniformly) {
  loadExample("inlining.jl");
  CompileResult R = ptx("inline_demo(DeviceArray{Float32,1})");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Asm = text(R, Stage::Asm);
  std::string Func = lineWith(Asm, ".func ");
  ASSERT_FALSE(Func.empty()) << Asm;
  EXPECT_TRUE(contains(Func, "julia_kept")) << Func;
  EXPECT_FALSE(contains(Func, ".visible")) << Func;
  EXPECT_TRUE(contains(Asm, "call.uni")) << Asm;
  EXPECT_EQ(count(Asm, ".entry"), 1u) << Asm;
}

TEST_F(PtxTargetTest, LaunchBoundsBecomeDirectives) {
  loadExample("launch_bounds.jl");
  struct Case {
    GpuJobOptions O;
    const char *Expected;
  } Cases[4];
  Cases[0].O.MaxThreads = 42, Cases[0].Expected = ".maxntid 42, 1, 1";
  Cases[1].O.MinThreads = 42, Cases[1].Expected = ".reqntid 42, 1, 1";
  // ptxas ignores .minnctapersm without .maxntid, which Prism refuses.
  Cases[2].O.BlocksPerSM = 42, Cases[2].O.MaxThreads = 256,
  Cases[2].Expected = ".minnctapersm 42";
  Cases[3].O.MaxRegs = 42, Cases[3].Expected = ".maxnreg 42";
  for (const Case &C : Cases) {
    CompileResult R = ptx(StencilSig, Stage::Asm, C.O);
    ASSERT_TRUE(R.ok()) << diags(*R.Report);
    EXPECT_TRUE(contains(text(R, Stage::Asm), C.Expected))
        << C.Expected << "\n" << text(R, Stage::Asm);
  }
  CompileResult None = ptx(StencilSig);
  ASSERT_TRUE(None.ok()) << diags(*None.Report);
  const std::string &Asm = text(None, Stage::Asm);
  EXPECT_FALSE(contains(Asm, ".maxntid")) << Asm;
  EXPECT_FALSE(contains(Asm, ".reqntid")) << Asm;
  EXPECT_FALSE(contains(Asm, ".minnctapersm")) << Asm;
  EXPECT_FALSE(contains(Asm, ".maxnreg")) << Asm;
}

TEST_F(PtxTargetTest, SaxpyUsesGlobalMemoryAndNoLocalDepot) {
  loadExample("saxpy.jl");
  CompileResult R = ptx(SaxpySig);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Asm = text(R, Stage::Asm);
  EXPECT_TRUE(contains(Asm, "ld.global.f32")) << Asm;
  EXPECT_TRUE(contains(Asm, "st.global.f32")) << Asm;
  EXPECT_FALSE(contains(Asm, ".local")) << Asm;
  EXPECT_FALSE(contains(Asm, "__local_depot")) << Asm;
  ASSERT_TRUE(R.Report->Resources.Instructions);
  EXPECT_GT(*R.Report->Resources.Instructions, 5);
}

TEST_F(PtxTargetTest, SharedMemoryAndBarrier) {
  loadExample("reduce.jl");
  CompileResult R =
      ptx("block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  EXPECT_TRUE(contains(text(R, Stage::LLVMRaw), "addrspace(3) global [256 x float]"))
      << text(R, Stage::LLVMRaw);
  EXPECT_TRUE(contains(text(R, Stage::LLVMRaw), "@llvm.nvvm.barrier0()"));
  const std::string &Asm = text(R, Stage::Asm);
  EXPECT_TRUE(contains(Asm, ".shared .align 16 .b8")) << Asm;
  EXPECT_TRUE(contains(Asm, "bar.sync \t0;")) << Asm;
  EXPECT_TRUE(contains(Asm, "ld.shared.f32")) << Asm;
}

// As nvcc does: shared memory is addressed with 32-bit registers (the
// data layout's `p3:32:32`), and block_sum's `s ÷= 2` loop over the block
// size, an Int64 in Julia, runs in 32 bits (NarrowPhisPass).
TEST_F(PtxTargetTest, SharedAddressesAndBlockSizeLoopsAre32Bit) {
  loadExample("reduce.jl");
  CompileResult R =
      ptx("block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &IR = text(R, Stage::LLVMOpt);
  EXPECT_TRUE(contains(IR, "p3:32:32")) << IR;
  EXPECT_FALSE(contains(IR, "phi i64")) << IR;
  EXPECT_TRUE(contains(IR, "phi i32")) << IR;
  const std::string &Asm = text(R, Stage::Asm);
  llvm::SmallVector<llvm::StringRef, 4> ShmemAddresses;
  for (llvm::StringRef Line : llvm::split(Asm, '\n'))
    if (Line.contains(", shmem;"))
      ShmemAddresses.push_back(Line.trim());
  ASSERT_FALSE(ShmemAddresses.empty()) << Asm;
  for (llvm::StringRef Line : ShmemAddresses)
    EXPECT_TRUE(Line.startswith("mov.u32")) << Line.str();
  EXPECT_TRUE(contains(Asm, "st.shared.f32 \t[%r")) << Asm;
  EXPECT_TRUE(contains(Asm, "ld.shared.f32 \t%f")) << Asm;
  EXPECT_FALSE(contains(Asm, "shr.u64")) << Asm;
}

TEST_F(PtxTargetTest, SqrtOnFloat32IsSqrtRn) {
  loadText("root.jl", R"(function roots!(x::DeviceArray{Float32,1})
    i = threadIdx().x
    if i <= length(x)
        @inbounds x[i] = sqrt(x[i])
    end
    return nothing
end
)");
  CompileResult R = ptx("roots!(DeviceArray{Float32,1})");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  EXPECT_TRUE(contains(text(R, Stage::Asm), "sqrt.rn.f32")) << text(R, Stage::Asm);
}

TEST_F(PtxTargetTest, BoundsCheckRecordsTheExceptionThenTraps) {
  loadText("oob.jl", R"(function get!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    i = threadIdx().x
    y[i] = x[i]
    return nothing
end
)");
  CompileResult R =
      ptx("get!(DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  // The optimised IR still says what is thrown where.
  EXPECT_TRUE(contains(text(R, Stage::LLVMOpt), "call void @prism_throw(i32 1,"));
  const std::string &Asm = text(R, Stage::Asm);
  // No call is left on the throw path (an ABI call costs the kernel
  // registers): a record stored through the global, a fence, a trap.
  EXPECT_FALSE(contains(Asm, "call")) << Asm;
  EXPECT_FALSE(contains(Asm, "vprintf")) << Asm;
  EXPECT_FALSE(contains(Asm, ".func")) << Asm;
  // The record's address starts at the module's sink: the report block
  // stores without a null test.
  EXPECT_TRUE(contains(Asm,
                       ".visible .global .align 8 .u64 prism_exception_info "
                       "= generic(prism_exception_sink);"))
      << Asm;
  EXPECT_FALSE(contains(Asm, "selp.b64")) << Asm;
  EXPECT_TRUE(inOrder(Asm, {"[prism_exception_info]", "st.volatile.u64",
                                 "membar.sys;", "trap;"}))
      << Asm;
  // Both reads of the kernel go to one report block, with one site each
  // (the same kind, file and line: one site).
  std::vector<PtxThrowSite> Sites = parseThrowSites(Asm);
  ASSERT_EQ(Sites.size(), 1u) << Asm;
  EXPECT_EQ(Sites[0].Id, 1u);
  EXPECT_EQ(Sites[0].Kind, 1);
  EXPECT_EQ(Sites[0].TypeName, "BoundsError");
  EXPECT_EQ(Sites[0].Line, 3);
  EXPECT_TRUE(llvm::StringRef(Sites[0].File).endswith("oob.jl")) << Sites[0].File;
  // The exception's strings live in the table, not in constant memory.
  EXPECT_FALSE(contains(Asm, ".const")) << Asm;
  ToolRun P = runPtxas(Asm, "sm_80");
  if (P.Message == "ptxas not found")
    GTEST_SKIP() << "ptxas not found";
  EXPECT_EQ(P.ExitCode, 0) << P.Message << P.Output << Asm;
}

TEST_F(PtxTargetTest, ThrowSitesAreNumberedPerKindAndLine) {
  loadText("sites.jl", R"(function two!(y::DeviceArray{Float32,1}, n::Int)
    i = threadIdx().x
    y[i] = 1.0f0
    y[i + 1] = Float32(Int16(n))
    return nothing
end
)");
  CompileResult R = ptx("two!(DeviceArray{Float32,1}, Int)");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Asm = text(R, Stage::Asm);
  std::vector<PtxThrowSite> Sites = parseThrowSites(Asm);
  std::vector<std::string> Seen;
  for (const PtxThrowSite &S : Sites) {
    EXPECT_EQ(S.Id, &S - Sites.data() + 1) << "numbered from 1, in order";
    Seen.push_back(S.TypeName + ":" + std::to_string(S.Line));
  }
  EXPECT_EQ(Seen, (std::vector<std::string>{"BoundsError:3", "InexactError:4",
                                            "BoundsError:4"}))
      << Asm;
  ToolRun P = runPtxas(Asm, "sm_80");
  if (P.Message == "ptxas not found")
    GTEST_SKIP() << "ptxas not found";
  EXPECT_EQ(P.ExitCode, 0) << P.Message << P.Output << Asm;
}

TEST_F(PtxTargetTest, SpecialRegistersCarryCudaLimits) {
  loadExample("saxpy.jl");
  CompileResult R = ptx(SaxpySig);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Raw = text(R, Stage::LLVMRaw);
  EXPECT_TRUE(contains(lineWith(Raw, "call i32 @llvm.nvvm.read.ptx.sreg.tid.x()"), "!range"))
      << Raw;
  // With the ranges, `blockIdx().x - 1` (ctaid + 1 - 1) folds away: the
  // optimised kernel widens ctaid unsigned and adds nothing to it.
  const std::string &Opt = text(R, Stage::LLVMOpt);
  EXPECT_TRUE(contains(Opt, "zext i32 %0 to i64")) << Opt;
  EXPECT_FALSE(contains(Opt, "sext i32")) << Opt;
}

TEST_F(PtxTargetTest, TranscendentalsLinkOnlyNeededLibdevice) {
  if (!findLibdevice())
    GTEST_SKIP() << "libdevice.10.bc not found";
  loadText("expo.jl", R"(function expo!(x::DeviceArray{Float32,1})
    i = threadIdx().x
    if i <= length(x)
        @inbounds x[i] = exp(x[i])
    end
    return nothing
end
)");
  CompileResult R = ptx("expo!(DeviceArray{Float32,1})");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Raw = text(R, Stage::LLVMRaw);
  EXPECT_TRUE(contains(Raw, "define internal float @__nv_expf(")) << Raw;
  EXPECT_FALSE(contains(Raw, "@__nv_sinf")) << "only what is needed";
  EXPECT_TRUE(contains(Raw, "!\"nvvm-reflect-ftz\", i32 0}")) << Raw;
  const std::string &Opt = text(R, Stage::LLVMOpt);
  EXPECT_FALSE(contains(Opt, "__nvvm_reflect")) << "NVVMReflect ran";
  EXPECT_FALSE(contains(Opt, "define internal float @__nv_expf(")) << "inlined";
  const std::string &Asm = text(R, Stage::Asm);
  EXPECT_TRUE(contains(Asm, "ex2.approx")) << Asm;
  ToolRun P = runPtxas(Asm, "sm_80");
  if (P.Message == "ptxas not found")
    GTEST_SKIP() << "ptxas not found";
  EXPECT_EQ(P.ExitCode, 0) << P.Message << P.Output;
}

// The C library's functions LLVM has no intrinsic for are libdevice's.
TEST_F(PtxTargetTest, LibmOnlyFunctionsAreLibdevices) {
  if (!findLibdevice())
    GTEST_SKIP() << "libdevice.10.bc not found";
  loadText(
      "hyp.jl",
      R"(function hyp!(x::DeviceArray{Float32,1}, y::DeviceArray{Float64,1})
    @inbounds x[1] = tanh(x[1]) + asin(x[2]) + log1p(x[3]) + cbrt(x[4])
    @inbounds y[1] = sinh(y[1]) + cosh(y[2]) + acos(y[3]) + expm1(y[4])
    return nothing
end
)");
  CompileResult R = ptx("hyp!(DeviceArray{Float32,1}, DeviceArray{Float64,1})");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Raw = text(R, Stage::LLVMRaw);
  for (const char *F :
       {"@__nv_tanhf(", "@__nv_asinf(", "@__nv_log1pf(", "@__nv_cbrtf(",
        "@__nv_sinh(", "@__nv_cosh(", "@__nv_acos(", "@__nv_expm1("})
    EXPECT_TRUE(contains(Raw, F)) << F << "\n" << Raw;
  ToolRun P = runPtxas(text(R, Stage::Asm), "sm_80");
  if (P.Message == "ptxas not found")
    GTEST_SKIP() << "ptxas not found";
  EXPECT_EQ(P.ExitCode, 0) << P.Message << P.Output;
}

// NVPTX selects no Float16 transcendental (the backend used to abort with
// "Cannot select: fsin"); they compute in Float32, as Julia's do.
TEST_F(PtxTargetTest, Float16TranscendentalsComputeInFloat32) {
  if (!findLibdevice())
    GTEST_SKIP() << "libdevice.10.bc not found";
  loadText("half.jl", R"(function half!(x::DeviceArray{Float16,1})
    @inbounds x[1] = sin(x[1]) + exp(x[2]) + x[3]^x[4]
    return nothing
end
)");
  CompileResult R = ptx("half!(DeviceArray{Float16,1})");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Raw = text(R, Stage::LLVMRaw);
  for (const char *F : {"@__nv_sinf(", "@__nv_expf(", "@__nv_powf("})
    EXPECT_TRUE(contains(Raw, F)) << F << "\n" << Raw;
  EXPECT_TRUE(contains(Raw, "fpext half")) << Raw;
  EXPECT_TRUE(contains(Raw, "fptrunc float")) << Raw;
  EXPECT_TRUE(contains(text(R, Stage::Asm), "cvt.f32.f16"))
      << text(R, Stage::Asm);
}

TEST_F(PtxTargetTest, ArchSelectsIsaAndRejectsUnsupported) {
  loadExample("saxpy.jl");
  GpuJobOptions Sm90;
  Sm90.Arch = "sm_90";
  CompileResult R = ptx(SaxpySig, Stage::Asm, Sm90);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  EXPECT_TRUE(contains(text(R, Stage::Asm), ".target sm_90"));
  EXPECT_TRUE(contains(text(R, Stage::Asm), ".version 7.8"));
  EXPECT_EQ(ptxFeatureForArch("sm_75").value_or(""), "+ptx70");
  EXPECT_EQ(ptxFeatureForArch("sm_89").value_or(""), "+ptx78");

  for (const char *Bad : {"sm_70", "sm_100", "gfx90a"}) {
    GpuJobOptions O;
    O.Arch = Bad;
    CompileResult B = ptx(SaxpySig, Stage::Asm, O);
    EXPECT_FALSE(B.ok()) << Bad;
    std::string D = diags(*B.Report);
    EXPECT_TRUE(contains(D, Bad)) << D;
    EXPECT_TRUE(contains(D, "sm_75")) << D;
    EXPECT_FALSE(B.Report->stage(Stage::Asm).Present);
  }
}

TEST_F(PtxTargetTest, ExamplesAreAcceptedByPtxasWithResourceFigures) {
  bool HavePtxas = findPtxas().has_value();
  for (const ExampleKernel &K : GpuExampleKernels) {
    SCOPED_TRACE(K.Sig);
    loadExample(K.File);
    CompileResult R = ptx(K.Sig);
    ASSERT_TRUE(R.ok()) << diags(*R.Report);
    const std::string &Asm = text(R, Stage::Asm);
    EXPECT_EQ(count(Asm, ".visible .entry"), 1u) << Asm;
    const ResourceUsage &U = R.Report->Resources;
    ASSERT_TRUE(U.Instructions);
    EXPECT_GT(*U.Instructions, 0);
    if (!HavePtxas) {
      EXPECT_EQ(U.Note, "ptxas not found");
      continue;
    }
    ToolRun P = runPtxas(Asm, "sm_80");
    EXPECT_EQ(P.ExitCode, 0) << P.Message << P.Output << Asm;
    // What code_ptx prints, source comments and all, assembles too.
    GpuJobOptions Annotated;
    Annotated.RawAsm = false;
    const std::string Shown =
        text(ptx(K.Sig, Stage::Asm, Annotated), Stage::Asm);
    EXPECT_TRUE(contains(Shown, "\t// ")) << Shown;
    ToolRun PA = runPtxas(Shown, "sm_80");
    EXPECT_EQ(PA.ExitCode, 0) << PA.Message << PA.Output << Shown;
    EXPECT_TRUE(U.Note.empty()) << U.Note;
    EXPECT_EQ(U.Source, "ptxas -v sm_80");
    ASSERT_TRUE(U.Registers) << U.Note;
    EXPECT_GT(*U.Registers, 0);
    EXPECT_TRUE(U.StackBytes && U.Spills && U.ConstBytes && U.LocalBytes);
  }
  if (!HavePtxas)
    GTEST_SKIP() << "ptxas not found: only compiled, not assembled";
}

TEST_F(PtxTargetTest, PtxasFiguresFollowTheBudget) {
  if (!findPtxas())
    GTEST_SKIP() << "ptxas not found";
  loadExample("reduce.jl");
  CompileResult R =
      ptx("block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  // 256 floats of shared memory, as ptxas counts it.
  ASSERT_TRUE(R.Report->Resources.SharedBytes);
  EXPECT_EQ(*R.Report->Resources.SharedBytes, 1024);
  EXPECT_EQ(R.Report->Resources.Spills.value_or(-1), 0);
}

TEST_F(PtxTargetTest, OptLevelZeroStillReflectsAndAssembles) {
  if (!findLibdevice())
    GTEST_SKIP() << "libdevice.10.bc not found";
  loadText("expo0.jl", R"(function expo0!(x::DeviceArray{Float32,1})
    i = threadIdx().x
    if i <= length(x)
        @inbounds x[i] = exp(x[i])
    end
    return nothing
end
)");
  GpuJobOptions O;
  O.OptLevel = 0;
  CompileResult R = ptx("expo0!(DeviceArray{Float32,1})", Stage::Asm, O);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  EXPECT_FALSE(contains(text(R, Stage::LLVMOpt), "call i32 @__nvvm_reflect"))
      << "NVVMReflect runs at the pipeline start, O0 included";
  ToolRun P = runPtxas(text(R, Stage::Asm), "sm_80");
  if (P.Message == "ptxas not found")
    GTEST_SKIP() << "ptxas not found";
  EXPECT_EQ(P.ExitCode, 0) << P.Message << P.Output;
}

TEST_F(PtxTargetTest, DefaultAsmIsAnnotatedWithSourceLines) {
  loadExample("saxpy.jl");
  GpuJobOptions O;
  O.RawAsm = false;
  CompileResult R = ptx(SaxpySig, Stage::Asm, O);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Asm = text(R, Stage::Asm);
  EXPECT_TRUE(contains(Asm, "saxpy.jl:")) << Asm;
  EXPECT_FALSE(contains(Asm, "\t.loc\t")) << Asm;
  EXPECT_FALSE(contains(Asm, ".debug_info")) << Asm;
  EXPECT_TRUE(contains(Asm, "ld.global.f32")) << Asm;
  // Inlining-aware: prelude code says where it was inlined into saxpy!.
  EXPECT_TRUE(contains(Asm, ", inlined into saxpy! at saxpy.jl:")) << Asm;
}

TEST_F(PtxTargetTest, AtomicAddOnGlobalMemory) {
  loadText("hist.jl", R"(function count!(total::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    i = threadIdx().x
    if i <= length(x)
        @inbounds atomic_add!(total, 1, x[i])
    end
    return nothing
end
)");
  CompileResult R =
      ptx("count!(DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Asm = text(R, Stage::Asm);
  EXPECT_TRUE(contains(Asm, "atom.global.add.f32")) << Asm;
  ToolRun P = runPtxas(Asm, "sm_80");
  if (P.Message == "ptxas not found")
    GTEST_SKIP() << "ptxas not found";
  EXPECT_EQ(P.ExitCode, 0) << P.Message << P.Output;
}
