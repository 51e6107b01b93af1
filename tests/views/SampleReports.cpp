#include "SampleReports.h"

#include "support/TextDiff.h"

#include <utility>
#include <vector>

namespace prism::views::test {

const char *const SaxpySource =
    R"(# y = a*x + y, one element per thread; axpy is inlined into the kernel.
@inline axpy(a, x, y) = a * x + y

function saxpy!(a::Float32, x::DeviceArray{Float32,1}, y::DeviceArray{Float32,1})
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    if i <= length(y)
        @inbounds y[i] = axpy(a, x[i], y[i])
    end
    return nothing
end
)";

namespace {

/// One output line and where it came from: frames written innermost first
/// as {function, file, line}.
struct L {
  std::string Text;
  std::vector<SourceFrame> Frames;
};

SourceFrame in(const char *Fn, uint32_t Line) {
  return {Fn, SaxpyPath, Line, 5};
}
SourceFrame base(const char *Fn, uint32_t Line) {
  return {Fn, "prelude/base.jl", Line, 9};
}

void fill(StageOutput &S, const std::vector<L> &Lines, double Ms,
          uint64_t Allocs) {
  S.Present = true;
  for (const L &X : Lines) {
    S.Text += X.Text;
    S.Text += '\n';
    S.Lines.push_back(LineOrigin{X.Frames});
  }
  S.Measure.WallMs = Ms;
  S.Measure.Allocs = {Allocs, Allocs * 72, Allocs - Allocs / 8};
}

std::vector<L> typedIR() {
  return {
      {"CodeInfo(", {}},
      {"1 ─ %1 = Main.blockIdx()::NamedTuple{(:x, :y, :z), NTuple{3, Int32}}", {in("saxpy!", 5)}},
      {"│   %2 = Base.getfield(%1, :x)::Int32", {in("saxpy!", 5)}},
      {"│   %3 = Base.sub_int(%2, 1)::Int32", {in("saxpy!", 5)}},
      {"│   %4 = Main.blockDim()::NamedTuple{(:x, :y, :z), NTuple{3, Int32}}", {in("saxpy!", 5)}},
      {"│   %5 = Base.mul_int(%3, %4)::Int32", {in("saxpy!", 5)}},
      {"│   %6 = Main.threadIdx()::NamedTuple{(:x, :y, :z), NTuple{3, Int32}}", {in("saxpy!", 5)}},
      {"│   %7 = Base.add_int(%5, %6)::Int32", {in("saxpy!", 5)}},
      {"│   %8 = invoke Main.length(y::DeviceArray{Float32, 1})::Int64", {in("saxpy!", 6)}},
      {"│   %9 = Base.sle_int(%7, %8)::Bool", {in("saxpy!", 6)}},
      {"└── goto #3 if not %9", {in("saxpy!", 6)}},
      {"2 ─ %11 = Base.arrayref(x, %7)::Float32", {in("saxpy!", 7)}},
      {"│   %12 = Base.arrayref(y, %7)::Float32", {in("saxpy!", 7)}},
      {"│   %13 = invoke Main.axpy(a::Float32, %11::Float32, %12::Float32)::Float32", {in("saxpy!", 7)}},
      {"│         Base.arrayset(y, %13, %7)::DeviceArray{Float32, 1}", {in("saxpy!", 7)}},
      {"3 ┄       return Main.nothing", {in("saxpy!", 9)}},
      {") => Nothing", {}},
  };
}

std::vector<L> llvmOpt(unsigned O) {
  std::vector<L> V = {
      {"; ModuleID = 'saxpy!'", {}},
      {"target datalayout = \"e-i64:64-i128:128-v16:16-v32:32-n16:32:64\"", {}},
      {"target triple = \"nvptx64-nvidia-cuda\"", {}},
      {"", {}},
      {"define ptx_kernel void @julia_saxpy__1(float %0, ptr addrspace(1) nocapture readonly %1, i64 %2, ptr addrspace(1) nocapture %3, i64 %4) local_unnamed_addr #0 !dbg !5 {", {in("saxpy!", 4)}},
      {"top:", {}},
      {"  %5 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !8", {base("blockIdx", 31), in("saxpy!", 5)}},
      {"  %6 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !9", {base("blockDim", 35), in("saxpy!", 5)}},
      {"  %7 = mul i32 %5, %6, !dbg !10", {in("saxpy!", 5)}},
      {"  %8 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !11", {base("threadIdx", 27), in("saxpy!", 5)}},
      {"  %9 = add i32 %7, %8, !dbg !10", {in("saxpy!", 5)}},
      {"  %10 = sext i32 %9 to i64, !dbg !12", {in("saxpy!", 6)}},
      {"  %11 = icmp slt i64 %10, %4, !dbg !12", {base("length", 88), in("saxpy!", 6)}},
      {"  br i1 %11, label %L12, label %L20, !dbg !12", {in("saxpy!", 6)}},
      {"", {}},
      {"L12:                                              ; preds = %top", {}},
      {"  %12 = getelementptr inbounds float, ptr addrspace(1) %1, i64 %10, !dbg !13", {base("getindex", 112), in("saxpy!", 7)}},
      {"  %13 = load float, ptr addrspace(1) %12, align 4, !dbg !13", {base("getindex", 112), in("saxpy!", 7)}},
      {"  %14 = getelementptr inbounds float, ptr addrspace(1) %3, i64 %10, !dbg !14", {base("getindex", 112), in("saxpy!", 7)}},
      {"  %15 = load float, ptr addrspace(1) %14, align 4, !dbg !14", {base("getindex", 112), in("saxpy!", 7)}},
  };
  if (O >= 3)
    V.push_back(L{"  %16 = tail call contract float @llvm.fma.f32(float %0, float %13, float %15), !dbg !15", {in("axpy", 2), in("saxpy!", 7)}});
  else {
    V.push_back(L{"  %16 = fmul contract float %0, %13, !dbg !15", {in("axpy", 2), in("saxpy!", 7)}});
    V.push_back(L{"  %17 = fadd contract float %16, %15, !dbg !15", {in("axpy", 2), in("saxpy!", 7)}});
  }
  std::vector<L> Tail = {
      {std::string("  store float ") + (O >= 3 ? "%16" : "%17") +
           ", ptr addrspace(1) %14, align 4, !dbg !16",
       {base("setindex!", 120), in("saxpy!", 7)}},
      {"  br label %L20, !dbg !17", {in("saxpy!", 8)}},
      {"", {}},
      {"L20:                                              ; preds = %L12, %top", {}},
      {"  ret void, !dbg !18", {in("saxpy!", 9)}},
      {"}", {}},
      {"", {}},
      {"attributes #0 = { nounwind \"target-cpu\"=\"sm_80\" }", {}},
  };
  V.insert(V.end(), Tail.begin(), Tail.end());
  return V;
}

std::vector<L> llvmRaw() {
  std::vector<L> V = llvmOpt(0);
  V.insert(V.begin() + 6,
           L{"  %a.addr = alloca float, align 4", {in("saxpy!", 4)}});
  V.insert(V.begin() + 7,
           L{"  store float %0, ptr %a.addr, align 4", {in("saxpy!", 4)}});
  return V;
}

std::vector<L> ptx(unsigned O) {
  std::vector<L> V = {
      {"//", {}},
      {"// Generated by LLVM NVPTX Back-End", {}},
      {"//", {}},
      {".version 7.8", {}},
      {".target sm_80", {}},
      {".address_size 64", {}},
      {"", {}},
      {"\t// .globl\tjulia_saxpy__1", {}},
      {".visible .entry julia_saxpy__1(", {in("saxpy!", 4)}},
      {"\t.param .f32 julia_saxpy__1_param_0,", {in("saxpy!", 4)}},
      {"\t.param .u64 julia_saxpy__1_param_1,", {in("saxpy!", 4)}},
      {"\t.param .u64 julia_saxpy__1_param_4", {in("saxpy!", 4)}},
      {")", {}},
      {"{", {}},
      {"\t.reg .pred \t%p<2>;", {}},
      {"\t.reg .b32 \t%r<5>;", {}},
      {"\t.reg .f32 \t%f<5>;", {}},
      {"\t.reg .b64 \t%rd<9>;", {}},
      {"", {}},
      {"\tmov.u32 \t%r1, %ctaid.x;", {base("blockIdx", 31), in("saxpy!", 5)}},
      {"\tmov.u32 \t%r2, %ntid.x;", {base("blockDim", 35), in("saxpy!", 5)}},
      {"\tmov.u32 \t%r3, %tid.x;", {base("threadIdx", 27), in("saxpy!", 5)}},
      {"\tmad.lo.s32 \t%r4, %r1, %r2, %r3;", {in("saxpy!", 5)}},
      {"\tcvt.s64.s32 \t%rd1, %r4;", {in("saxpy!", 6)}},
      {"\tld.param.u64 \t%rd2, [julia_saxpy__1_param_4];", {base("length", 88), in("saxpy!", 6)}},
      {"\tsetp.ge.s64 \t%p1, %rd1, %rd2;", {in("saxpy!", 6)}},
      {"\t@%p1 bra \t$L__BB0_2;", {in("saxpy!", 6)}},
      {"\tld.param.f32 \t%f1, [julia_saxpy__1_param_0];", {in("saxpy!", 7)}},
      {"\tshl.b64 \t%rd5, %rd1, 2;", {base("getindex", 112), in("saxpy!", 7)}},
      {"\tld.global.f32 \t%f2, [%rd6];", {base("getindex", 112), in("saxpy!", 7)}},
      {"\tld.global.f32 \t%f3, [%rd8];", {base("getindex", 112), in("saxpy!", 7)}},
  };
  if (O >= 3)
    V.push_back(L{"\tfma.rn.f32 \t%f4, %f1, %f2, %f3;", {in("axpy", 2), in("saxpy!", 7)}});
  else {
    V.push_back(L{"\tmul.rn.f32 \t%f5, %f1, %f2;", {in("axpy", 2), in("saxpy!", 7)}});
    V.push_back(L{"\tadd.rn.f32 \t%f4, %f5, %f3;", {in("axpy", 2), in("saxpy!", 7)}});
  }
  std::vector<L> Tail = {
      {"\tst.global.f32 \t[%rd8], %f4;", {base("setindex!", 120), in("saxpy!", 7)}},
      {"$L__BB0_2:", {}},
      {"\tret;", {in("saxpy!", 9)}},
      {"}", {}},
  };
  V.insert(V.end(), Tail.begin(), Tail.end());
  return V;
}

} // namespace

JobReportRef makeSaxpyReport(unsigned O) {
  auto R = std::make_shared<JobReport>();
  R->Signature = "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})";
  R->Target = "ptx";
  R->Arch = "sm_80";
  R->OptLevel = O;
  R->Kernel = true;
  R->EntryName = "julia_saxpy__1";
  R->World = 42;
  fill(R->stage(Stage::Typed), typedIR(), 0.84, 1840);
  fill(R->stage(Stage::TypedOpt), typedIR(), 0.31, 420);
  fill(R->stage(Stage::LLVMRaw), llvmRaw(), 1.92, 5210);
  fill(R->stage(Stage::LLVMOpt), llvmOpt(O), O >= 3 ? 6.7 : 4.85, O >= 3 ? 16800 : 14230);
  fill(R->stage(Stage::Asm), ptx(O), 3.12, 9120);

  std::string Raw = R->stage(Stage::LLVMRaw).Text;
  std::string Mid = Raw;
  // SROA removes the alloca; InstCombine folds; the last pass is unchanged.
  size_t A = Mid.find("  %a.addr");
  Mid.erase(A, Mid.find('\n', Mid.find("store float %0", A)) + 1 - A);
  std::string After = R->stage(Stage::LLVMOpt).Text;
  PassSnapshot P1{3, "SROAPass", "julia_saxpy__1", true, Raw, Mid,
                  unifiedDiff(Raw, Mid, "before SROAPass", "after SROAPass")};
  PassSnapshot P2{7, "InstCombinePass", "julia_saxpy__1", true, Mid, After, ""};
  PassSnapshot P3{9, "SimplifyCFGPass", "julia_saxpy__1", false, "", "", ""};
  PassSnapshot P4{12, "GlobalDCEPass", "[module]", true, After, After + "\n",
                  unifiedDiff(After, After + "\n")};
  R->Passes = {P1, P2, P3, P4};

  // Remarks: GVN keeps a load of axpy's (inlined at line 7), LICM hoists
  // the same thing twice at line 6, the backend counts instructions.
  auto Remark = [](RemarkKind K, const char *Pass, const char *Msg,
                   std::vector<SourceFrame> Frames, Stage At = Stage::LLVMOpt) {
    OptRemark M;
    M.Kind = K;
    M.Pass = Pass;
    M.Name = "Sample";
    M.Message = Msg;
    M.Function = "julia_saxpy__1";
    M.At = At;
    M.Origin.Frames = std::move(Frames);
    return M;
  };
  SourceFrame Axpy{"axpy", SaxpyPath, 2, 5}, Line7{"saxpy!", SaxpyPath, 7, 9},
      Line6{"saxpy!", SaxpyPath, 6, 8};
  R->Remarks = {
      Remark(RemarkKind::Missed, "gvn", "load of type float not eliminated",
             {Axpy, Line7}),
      Remark(RemarkKind::Passed, "licm", "hoisting load", {Line6}),
      Remark(RemarkKind::Passed, "licm", "hoisting load", {Line6}),
      Remark(RemarkKind::Analysis, "asm-printer", "19 instructions in function",
             {}, Stage::Asm)};

  R->Resources.Registers = O >= 3 ? 10 : 12;
  R->Resources.Spills = 0;
  R->Resources.StackBytes = 0;
  R->Resources.SharedBytes = 0;
  R->Resources.LocalBytes = 0;
  R->Resources.ConstBytes = 376;
  R->Resources.Instructions = O >= 3 ? 18 : 19;
  R->Resources.Source = "ptxas -v sm_80";
  R->Cache.Measured = true;
  R->Cache.Hits = 1532;
  R->Cache.Misses = 1;
  R->Cache.Compiles = 1;
  R->Cache.LastCompileMs = 11.0;
  R->Cache.LastCompileAllocs = {30820, 2210000, 30100};
  R->Cache.AllocsPerHit = 0;
  R->Cache.HitNs = 9.1;
  R->Cache.HitProbes = 10000;

  Diagnostic W;
  W.Sev = Severity::Warning;
  W.Kind = "fastmath";
  W.Message = "`a * x + y` contracted into an fma (contract flag)";
  W.Loc.FileName = SaxpyPath;
  W.Loc.Line = 2;
  W.Loc.Col = 25;
  W.Backtrace = {{"axpy", W.Loc}};
  if (O >= 3)
    R->Diagnostics.push_back(W);
  return R;
}

GuiSnapshot makeSnapshot() {
  GuiSnapshot S;
  S.Generation = 3;
  S.FilePath = SaxpyPath;
  S.Source = SaxpySource;
  S.SourceRevision = 1;
  S.CompilerConnected = true;
  S.HostSummary = "host: x86_64-pc-linux-gnu (znver3)";
  S.Examples = {"/work/examples/saxpy.jl", "/work/examples/reduce.jl"};
  JobEntry A;
  A.Id = 1;
  A.Spec.Signature = "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})";
  A.Spec.Target = "ptx";
  A.Spec.Arch = "sm_80";
  A.Status = JobStatus::Ok;
  A.CacheHits = 1532;
  A.Report = makeSaxpyReport(2);
  JobEntry B = A;
  B.Id = 2;
  B.Spec.OptLevel = 3;
  B.Report = makeSaxpyReport(3);
  B.CacheHits = 12;
  JobEntry C;
  C.Id = 3;
  C.Spec.Signature = "reduce_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})";
  C.Spec.Target = "gcn";
  C.Status = JobStatus::Compiling;
  S.Jobs = {A, B, C};
  S.SelectedJob = 1;

  DeviceEntry Host{"host", "x86_64 znver3, LLVM ORC JIT, 16 threads",
                   DeviceState::Available, "", std::nullopt};
  RunResult Run;
  Run.Ok = true;
  Run.Call = "saxpy!(2f0, rand(Float32, 1024), zeros(Float32, 1024))";
  Run.Summary = "returned nothing";
  Run.Output = "y = Float32[0.81, 1.37, 0.22, ...]";
  Run.Log = "JIT: compiled julia_saxpy__1 (19 instructions)";
  Run.TimeMs = 0.041;
  Host.LastRun = Run;
  DeviceEntry Bpf{"bpf", "Linux BPF VM (BPF_PROG_TEST_RUN)",
                  DeviceState::Available, "", std::nullopt};
  DeviceEntry Cuda{"cuda", "", DeviceState::Unavailable,
                   "libcuda.so.1 not found (no NVIDIA driver installed)",
                   std::nullopt};
  S.Devices = {Host, Bpf, Cuda};

  InvalidationEntry E;
  E.Sequence = 1;
  E.World = 42;
  E.Trigger = "edit saxpy_inline.jl: axpy redefined (line 2)";
  E.ChangedMethods = {"axpy(a, x, y)"};
  E.Invalidated = {{"axpy(Float32, Float32, Float32)", "redefined"},
                   {"saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})",
                    "calls axpy(Float32, Float32, Float32)"}};
  E.Recompiled = {{1, A.Spec.Signature, "depends on axpy(Float32, ...)", 11.0},
                  {2, B.Spec.Signature, "depends on axpy(Float32, ...)", 12.9}};
  E.TotalMs = 26.4;
  S.Invalidations = {E};
  S.StatusMessage = "recompiled 2 jobs";
  return S;
}

JobReportRef makeLargeReport(unsigned N) {
  auto R = std::make_shared<JobReport>();
  R->Signature = "big(Float32)";
  R->Target = "ptx";
  R->Arch = "sm_80";
  StageOutput &S = R->stage(Stage::LLVMOpt);
  S.Present = true;
  S.Text.reserve(size_t(N) * 70);
  for (unsigned I = 0; I < N; ++I) {
    S.Text += "  %" + std::to_string(I + 10) + " = fadd contract float %" +
              std::to_string(I + 9) + ", %" + std::to_string(I + 3) +
              ", !dbg !" + std::to_string(I % 97 + 5) + "\n";
    LineOrigin O;
    O.Frames.push_back(in("saxpy!", 4 + I % 6));
    if (I % 7 == 0)
      O.Frames.insert(O.Frames.begin(), in("axpy", 2));
    S.Lines.push_back(std::move(O));
  }
  return R;
}

} // namespace prism::views::test
