// The gcn target through the real pipeline: amdgpu_kernel entries, byref
// kernel arguments read with scalar loads, global (not flat) memory access,
// kernel descriptors, HSA code objects linked by ld.lld, resource figures.
#include "core/targets/GpuTestUtil.h"

#include "targets/GcnTarget.h"
#include "targets/GpuSupport.h"

#include "llvm/Support/FileSystem.h"

using namespace prism;
using namespace prism::testing;

namespace {

constexpr const char *SaxpySig =
    "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})";

class GcnTargetTest : public GpuJobTest {
protected:
  CompileResult gcn(const std::string &Sig, Stage UpTo = Stage::Asm,
                    const GpuJobOptions &O = {}) {
    return compileFor("gcn", Sig, UpTo, O);
  }
};

} // namespace

TEST_F(GcnTargetTest, KernelsGetAmdgpuKernelAndByRefAggregates) {
  loadExample("saxpy.jl");
  CompileResult R = gcn(SaxpySig);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &IR = text(R, Stage::LLVMOpt);
  std::string Define = lineWith(IR, "define amdgpu_kernel void @\"julia_saxpy!\"");
  ASSERT_FALSE(Define.empty()) << IR;
  EXPECT_TRUE(contains(Define, "ptr addrspace(4)")) << Define;
  EXPECT_TRUE(contains(Define, "byref({ ptr, [1 x i64] }) align 8")) << Define;
  // The datalayout puts allocas in addrspace(5) (before SROA removes them).
  EXPECT_TRUE(contains(text(R, Stage::LLVMRaw), "alloca float, align 4, addrspace(5)"))
      << text(R, Stage::LLVMRaw);
  EXPECT_TRUE(contains(text(R, Stage::LLVMRaw), "@llvm.amdgcn.workitem.id.x()"));
  EXPECT_TRUE(contains(text(R, Stage::LLVMRaw), "@llvm.amdgcn.workgroup.id.x()"));
  EXPECT_TRUE(contains(text(R, Stage::LLVMRaw), "@llvm.amdgcn.dispatch.ptr()"));

  const std::string &Asm = text(R, Stage::Asm);
  EXPECT_TRUE(contains(Asm, "s_load_dword")) << Asm;
  EXPECT_TRUE(contains(Asm, "global_load_dword")) << Asm;
  EXPECT_TRUE(contains(Asm, "global_store_dword")) << Asm;
  EXPECT_FALSE(contains(Asm, "flat_load")) << Asm;
  EXPECT_FALSE(contains(Asm, "flat_store")) << Asm;
  // Quoted: the bare name does not assemble (`!` ends it).
  EXPECT_TRUE(contains(Asm, ".amdhsa_kernel \"julia_saxpy!\"")) << Asm;
}

// AMDGPU selects no Float64 exp, log, sin, cos or pow without ROCm's
// device library: a diagnostic at the user's call, not a backend abort.
TEST_F(GcnTargetTest, Float64TranscendentalsAreADiagnostic) {
  loadText("dbl.jl", R"(function dbl!(x::DeviceArray{Float64,1})
    @inbounds x[1] = sin(x[1])
    return nothing
end
function sgl!(x::DeviceArray{Float32,1})
    @inbounds x[1] = sin(x[1])
    return nothing
end
)");
  CompileResult R = gcn("dbl!(DeviceArray{Float64,1})");
  ASSERT_FALSE(R.ok());
  std::string D = diags(*R.Report);
  EXPECT_TRUE(contains(D, "`sin` of a Float64 is not supported on the gcn "
                          "target"))
      << D;
  ASSERT_FALSE(R.Report->Diagnostics.empty());
  EXPECT_EQ(R.Report->Diagnostics[0].Loc.FileName, "dbl.jl") << D;
  EXPECT_EQ(R.Report->Diagnostics[0].Loc.Line, 2u) << D;
  CompileResult F = gcn("sgl!(DeviceArray{Float32,1})");
  EXPECT_TRUE(F.ok()) << diags(*F.Report);
}

// exp2, log2 and log10 select to v_exp/v_log for Float32; tan and atan
// have no instruction and no intrinsic: a diagnostic naming each, not an
// unresolved call.
TEST_F(GcnTargetTest, TanAndAtanAreADiagnosticExp2Selects) {
  loadText("more.jl", R"(function ok!(x::DeviceArray{Float32,1})
    @inbounds x[1] = exp2(x[1]) + log2(x[2]) + log10(x[3])
    return nothing
end
function bad!(x::DeviceArray{Float32,1})
    @inbounds x[1] = tan(x[1]) + atan(x[2]) + tanh(x[3]) + hypot(x[4], x[5])
    return nothing
end
)");
  CompileResult Ok = gcn("ok!(DeviceArray{Float32,1})", Stage::Asm);
  ASSERT_TRUE(Ok.ok()) << diags(*Ok.Report);
  std::string Asm = text(Ok, Stage::Asm);
  EXPECT_TRUE(contains(Asm, "v_exp_f32")) << Asm;
  EXPECT_TRUE(contains(Asm, "v_log_f32")) << Asm;
  CompileResult Bad = gcn("bad!(DeviceArray{Float32,1})");
  ASSERT_FALSE(Bad.ok());
  std::string D = diags(*Bad.Report);
  EXPECT_TRUE(contains(D, "`tan` is not supported on the gcn target")) << D;
  EXPECT_TRUE(contains(D, "`atan` is not supported on the gcn target")) << D;
  EXPECT_TRUE(contains(D, "`tanh` is not supported on the gcn target")) << D;
  // hypot is the prelude's (Base's algorithm), not a C library call.
  EXPECT_FALSE(contains(D, "hypot")) << D;
  EXPECT_FALSE(contains(D, "unknown function")) << D;
}

TEST_F(GcnTargetTest, TheAssemblyTextAssembles) {
  std::optional<std::string> Mc =
      findTool({"llvm-mc-16", "llvm-mc"}, {"/usr/lib/llvm-16/bin"});
  if (!Mc)
    GTEST_SKIP() << "llvm-mc not found";
  for (const ExampleKernel &K : GpuExampleKernels) {
    SCOPED_TRACE(K.Sig);
    loadExample(K.File);
    // `code_gcn --raw` (the annotated view leaves out labels and frame
    // directives, as Julia's code_native does).
    CompileResult R = gcn(K.Sig, Stage::Asm);
    ASSERT_TRUE(R.ok()) << diags(*R.Report);
    llvm::Expected<std::string> Path = writeTempFile("s", text(R, Stage::Asm));
    ASSERT_TRUE(!!Path) << llvm::toString(Path.takeError());
    ToolRun Run = runTool(*Mc, {"-triple=amdgcn-amd-amdhsa", "-mcpu=gfx90a",
                                "-filetype=obj", *Path, "-o", *Path + ".o"});
    EXPECT_EQ(Run.ExitCode, 0) << Run.Message << Run.Output;
    llvm::sys::fs::remove(*Path);
    llvm::sys::fs::remove(*Path + ".o");
  }
}

TEST_F(GcnTargetTest, DeviceIndicesCarryHipsRanges) {
  // As NVPTX gives CUDA's: the thread index below 1024, the block index
  // below 2^31 - 1, the block size 1..1024. So `threadIdx().x` (id + 1)
  // stays a non-negative Int32 (zext, not sext), and occupancy.jl's kernel
  // keeps exactly ptx's bounds checks.
  loadExample("saxpy.jl");
  CompileResult R = gcn(SaxpySig);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &IR = text(R, Stage::LLVMOpt);
  std::string Tid = lineWith(IR, "call i32 @llvm.amdgcn.workitem.id.x()");
  EXPECT_TRUE(contains(Tid, "!range")) << IR;
  EXPECT_TRUE(contains(lineWith(IR, "call i32 @llvm.amdgcn.workgroup.id.x()"),
                       "!range"))
      << IR;
  EXPECT_TRUE(contains(lineWith(IR, "load i16"), "!range")) << IR;
  EXPECT_FALSE(contains(IR, " sext ")) << IR;

  loadExample("occupancy.jl");
  const char *Sig =
      "chunk_sums!(DeviceArray{Float32,1}, DeviceArray{Float32,1})";
  CompileResult G = gcn(Sig);
  CompileResult P = compileFor("ptx", Sig, Stage::Asm, {});
  ASSERT_TRUE(G.ok() && P.ok());
  const std::string Throw = "call void @prism_throw(";
  EXPECT_EQ(count(text(G, Stage::LLVMOpt), Throw),
            count(text(P, Stage::LLVMOpt), Throw));
}

TEST_F(GcnTargetTest, NonKernelIsPlainFunction) {
  loadText("scalar.jl", R"(function twice(x::Float32)
    return x * 2.0f0
end
)");
  GpuJobOptions O;
  O.Kernel = false;
  CompileResult R = gcn("twice(Float32)", Stage::Asm, O);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  EXPECT_FALSE(contains(text(R, Stage::LLVMOpt), "amdgpu_kernel"));
  EXPECT_FALSE(contains(text(R, Stage::Asm), ".amdhsa_kernel"));
}

TEST_F(GcnTargetTest, DescriptorForTheEntryOnly) {
  loadExample("inlining.jl");
  CompileResult R = gcn("inline_demo(DeviceArray{Float32,1})");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Asm = text(R, Stage::Asm);
  EXPECT_EQ(count(Asm, ".amdhsa_kernel "), 1u) << Asm;
  EXPECT_TRUE(contains(Asm, "s_swappc_b64")) << "the @noinline callee is called";
  EXPECT_EQ(count(text(R, Stage::LLVMOpt), "define amdgpu_kernel"), 1u);
}

TEST_F(GcnTargetTest, SharedMemoryBarrierAndResourceFigures) {
  loadExample("reduce.jl");
  CompileResult R =
      gcn("block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  EXPECT_TRUE(contains(text(R, Stage::LLVMRaw), "addrspace(3) global [256 x float]"));
  EXPECT_TRUE(contains(text(R, Stage::LLVMRaw), "fence syncscope(\"workgroup\") release"));
  const std::string &Asm = text(R, Stage::Asm);
  EXPECT_TRUE(contains(Asm, "s_barrier")) << Asm;
  EXPECT_TRUE(contains(Asm, "ds_read")) << Asm;
  const ResourceUsage &U = R.Report->Resources;
  ASSERT_TRUE(U.VGPRs && U.SGPRs && U.ScratchBytes && U.LDSBytes)
      << U.Note << "\n" << Asm;
  EXPECT_GT(*U.VGPRs, 0);
  EXPECT_GT(*U.SGPRs, 0);
  EXPECT_EQ(*U.ScratchBytes, 0);
  EXPECT_EQ(U.Spills, 0);
  EXPECT_EQ(U.SpillLoads, 0);
  EXPECT_EQ(*U.LDSBytes, 1024);
  ASSERT_TRUE(U.Instructions);
  EXPECT_GT(*U.Instructions, 10);
  EXPECT_EQ(U.Source, "gcn asm gfx90a");
}

// Spills to scratch are counted as ptxas counts its own: the bytes of each
// spill store and reload site, from the backend's `Folded Spill` marks.
TEST_F(GcnTargetTest, SpillsAreCountedInBytesOfStoresAndReloads) {
  // 136 values live at once: more than the 128 VGPRs a 64-thread workgroup
  // may keep at 4 waves per SIMD.
  std::string Src = "function heavy!(y::DeviceArray{Float32,1}, "
                    "x::DeviceArray{Float32,1})\n"
                    "    i = threadIdx().x\n";
  const int N = 136;
  for (int K = 0; K < N; ++K)
    Src += "    @inbounds a" + std::to_string(K) + " = x[i + " +
           std::to_string(K * 1024) + "]\n";
  Src += "    s = 0f0\n";
  for (int K = 0; K < N; ++K)
    Src += "    s = s * a" + std::to_string(K) + " + a" +
           std::to_string(N - 1 - K) + "\n";
  Src += "    @inbounds y[i] = s\n    return nothing\nend\n";
  loadText("heavy.jl", Src);
  CompileResult R =
      gcn("heavy!(DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Asm = text(R, Stage::Asm);
  const ResourceUsage &U = R.Report->Resources;
  ASSERT_TRUE(U.Spills && U.SpillLoads) << U.Note;
  EXPECT_EQ(*U.Spills, 4 * int(count(Asm, "4-byte Folded Spill")));
  EXPECT_EQ(*U.SpillLoads, 4 * int(count(Asm, "4-byte Folded Reload")));
  EXPECT_GT(*U.Spills, 0) << "no spill: the kernel is not heavy enough";
}

TEST_F(GcnTargetTest, ThrowsTrap) {
  loadText("oob.jl", R"(function get!(y::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    i = threadIdx().x
    y[i] = x[i]
    return nothing
end
)");
  CompileResult R = gcn("get!(DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  EXPECT_TRUE(contains(text(R, Stage::LLVMOpt), "call void @llvm.trap()"));
  EXPECT_TRUE(contains(text(R, Stage::Asm), "s_trap 2")) << text(R, Stage::Asm);
  // No report call: it would cost a call stack (scratch) for nothing.
  EXPECT_FALSE(contains(text(R, Stage::Asm), "prism_throw"));
  EXPECT_FALSE(contains(text(R, Stage::Asm), "s_swappc_b64"));
}

TEST_F(GcnTargetTest, CodeObjectLinksWithLld) {
  if (!findLld())
    GTEST_SKIP() << "ld.lld not found";
  loadExample("saxpy.jl");
  GpuJobOptions O;
  O.EmitObject = true;
  CompileResult R = gcn(SaxpySig, Stage::Asm, O);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  ASSERT_GT(R.Object.size(), 64u);
  EXPECT_EQ(std::string(R.Object.begin(), R.Object.begin() + 4), "\x7f" "ELF");
  // e_type ET_DYN: a shared HSA code object, not a relocatable.
  EXPECT_EQ(R.Object[16], 3);
  // e_machine EM_AMDGPU (224).
  EXPECT_EQ(R.Object[18], 224);
}

TEST_F(GcnTargetTest, ArchIsCheckedAgainstLlvm) {
  loadExample("saxpy.jl");
  GpuJobOptions Navi;
  Navi.Arch = "gfx1030";
  CompileResult R = gcn(SaxpySig, Stage::Asm, Navi);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  EXPECT_TRUE(contains(text(R, Stage::Asm), "gfx1030"));
  for (const char *Bad : {"gfx9999", "sm_80"}) {
    GpuJobOptions O;
    O.Arch = Bad;
    CompileResult B = gcn(SaxpySig, Stage::Asm, O);
    EXPECT_FALSE(B.ok()) << Bad;
    EXPECT_TRUE(contains(diags(*B.Report), Bad)) << diags(*B.Report);
  }
}

TEST_F(GcnTargetTest, LaunchBoundsBecomeFlatWorkGroupSize) {
  loadExample("launch_bounds.jl");
  GpuJobOptions O;
  O.MaxThreads = 256;
  CompileResult R = gcn("stencil!(DeviceArray{Float32,1}, DeviceArray{Float32,1})",
                        Stage::LLVMOpt, O);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  EXPECT_TRUE(contains(text(R, Stage::LLVMOpt),
                       "\"amdgpu-flat-work-group-size\"=\"1,256\""));
}

TEST_F(GcnTargetTest, ExamplesCompileWithFigures) {
  for (const ExampleKernel &K : GpuExampleKernels) {
    SCOPED_TRACE(K.Sig);
    loadExample(K.File);
    GpuJobOptions O;
    O.EmitObject = findLld().has_value();
    CompileResult R = gcn(K.Sig, Stage::Asm, O);
    ASSERT_TRUE(R.ok()) << diags(*R.Report);
    const std::string &Asm = text(R, Stage::Asm);
    EXPECT_EQ(count(Asm, ".amdhsa_kernel "), 1u) << Asm;
    EXPECT_FALSE(contains(Asm, "flat_load")) << Asm;
    const ResourceUsage &U = R.Report->Resources;
    EXPECT_TRUE(U.VGPRs && U.SGPRs && U.Instructions) << U.Note;
  }
}

TEST_F(GcnTargetTest, DefaultAsmIsAnnotatedWithSourceLines) {
  loadExample("saxpy.jl");
  GpuJobOptions O;
  O.RawAsm = false;
  CompileResult R = gcn(SaxpySig, Stage::Asm, O);
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Asm = text(R, Stage::Asm);
  EXPECT_TRUE(contains(Asm, "; saxpy.jl:")) << Asm;
  EXPECT_FALSE(contains(Asm, "\t.loc\t")) << Asm;
  EXPECT_TRUE(contains(Asm, "global_load_dword")) << Asm;
  // Figures come from the backend's text, annotated or not.
  EXPECT_TRUE(R.Report->Resources.VGPRs.has_value());
}

TEST_F(GcnTargetTest, AtomicAddOnGlobalMemory) {
  loadText("hist.jl", R"(function count!(total::DeviceArray{Float32,1}, x::DeviceArray{Float32,1})
    i = threadIdx().x
    if i <= length(x)
        @inbounds atomic_add!(total, 1, x[i])
    end
    return nothing
end
)");
  CompileResult R =
      gcn("count!(DeviceArray{Float32,1}, DeviceArray{Float32,1})");
  ASSERT_TRUE(R.ok()) << diags(*R.Report);
  const std::string &Asm = text(R, Stage::Asm);
  // gfx90a without unsafe-fp-atomics: a compare-and-swap loop on global memory.
  EXPECT_TRUE(contains(Asm, "global_atomic")) << Asm;
  EXPECT_FALSE(contains(Asm, "flat_atomic")) << Asm;
}
