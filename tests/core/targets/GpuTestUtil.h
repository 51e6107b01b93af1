/// \file
/// Helpers for the GPU target tests (as GPUCompiler's test/ helpers build a
/// CompilerJob from a function and argument types): a prelude-loaded
/// environment, a config per target and options, and the real staged driver
/// run on one signature, plus small text helpers for FileCheck-style
/// substring checks.
#pragma once

#include "core/infer/InferTestUtil.h"

#include "cache/Compiler.h"
#include "cache/CompilerConfig.h"

#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <string>

namespace prism::testing {

/// What a GPU test varies per job.
struct GpuJobOptions {
  std::string Arch;               ///< empty: the target default
  std::optional<bool> Kernel;     ///< unset: the target default (kernel)
  unsigned OptLevel = 2;
  unsigned MaxThreads = 0, MinThreads = 0, BlocksPerSM = 0, MaxRegs = 0;
  DebugInfoLevel DebugInfo = DebugInfoLevel::LineTables;
  bool RawAsm = true;             ///< the backend's text, as ptxas reads it
  bool EmitObject = false;
  std::array<unsigned, 3> Block = {0, 0, 0}; ///< for the warp analyses
};

class GpuJobTest : public InferTest {
protected:
  /// Compiles `Sig` for `Target` up to `UpTo`. A config error comes back as
  /// a report whose Diagnostics hold it (no stage present).
  CompileResult compileFor(const std::string &Target, const std::string &Sig,
                           Stage UpTo = Stage::Asm,
                           const GpuJobOptions &O = {}) {
    CompilerConfigOptions CO;
    CO.Target = Target;
    CO.Arch = O.Arch;
    CO.Kernel = O.Kernel;
    CO.OptLevel = O.OptLevel;
    CO.DebugInfo = O.DebugInfo;
    CO.MaxThreads = O.MaxThreads;
    CO.MinThreads = O.MinThreads;
    CO.BlocksPerSM = O.BlocksPerSM;
    CO.MaxRegs = O.MaxRegs;
    auto C = CompilerConfig::create(CO);
    if (!C) {
      CompileResult R;
      R.Report = std::make_shared<JobReport>();
      R.Report->Diagnostics = takeDiagnostics(C.takeError());
      return R;
    }
    CompilerJob Job{spec(Sig), *C, Env.currentWorld()};
    CompileOptions Opts;
    Opts.RawAsm = O.RawAsm;
    Opts.EmitObject = O.EmitObject;
    Opts.Block = O.Block;
    return compile(Engine, Job, UpTo, {}, Opts);
  }

  static std::string diags(const JobReport &R) {
    std::string S;
    for (const Diagnostic &D : R.Diagnostics)
      S += renderDiagnostic(D, {false, false});
    return S;
  }

  static const std::string &text(const CompileResult &R, Stage S) {
    return R.Report->stage(S).Text;
  }

  static bool contains(const std::string &Text, const std::string &Needle) {
    return Text.find(Needle) != std::string::npos;
  }

  static size_t count(const std::string &Text, const std::string &Needle) {
    size_t N = 0;
    for (size_t P = Text.find(Needle); P != std::string::npos;
         P = Text.find(Needle, P + Needle.size()))
      ++N;
    return N;
  }

  /// The line of Text that contains Needle ("" when none).
  static std::string lineWith(const std::string &Text,
                              const std::string &Needle) {
    size_t P = Text.find(Needle);
    if (P == std::string::npos)
      return "";
    size_t B = Text.rfind('\n', P);
    size_t E = Text.find('\n', P);
    B = B == std::string::npos ? 0 : B + 1;
    return Text.substr(B, E == std::string::npos ? std::string::npos : E - B);
  }
};

/// The kernels of assets/examples that every GPU target compiles.
struct ExampleKernel {
  const char *File, *Sig;
};
inline constexpr ExampleKernel GpuExampleKernels[] = {
    {"saxpy.jl", "saxpy!(Float32, DeviceArray{Float32,1}, DeviceArray{Float32,1})"},
    {"map.jl", "map!(typeof(square), DeviceArray{Float32,1}, DeviceArray{Float32,1})"},
    {"reduce.jl", "block_sum!(DeviceArray{Float32,1}, DeviceArray{Float32,1})"},
    {"matmul.jl", "matmul!(DeviceArray{Float32,2}, DeviceArray{Float32,2}, DeviceArray{Float32,2})"},
    {"launch_bounds.jl", "stencil!(DeviceArray{Float32,1}, DeviceArray{Float32,1})"},
    {"portable.jl", "axpby!(Float32, DeviceArray{Float32,1}, Float32, DeviceArray{Float32,1})"},
    {"inlining.jl", "inline_demo(DeviceArray{Float32,1})"},
    {"structs.jl", "rotate!(DeviceArray{Float32,1}, DeviceArray{Float32,1}, Float32, Float32)"},
};

} // namespace prism::testing
