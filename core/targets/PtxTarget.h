/// \file
/// The `ptx` target: NVIDIA GPUs through LLVM's NVPTX backend
/// (`nvptx64-nvidia-cuda`), following GPUCompiler.jl's ptx.jl.
///
///  - Architectures sm_75 … sm_90 (`--arch`, default sm_80): CUDA 13's ptxas
///    rejects anything older, LLVM 16 knows nothing newer. The PTX ISA
///    feature is the lowest one the architecture needs, at least 7.0.
///  - Kernels get the `ptx_kernel` calling convention plus `nvvm.annotations`
///    `kernel` metadata, aggregate arguments `byval` (so NVPTX treats the
///    pointers inside DeviceArrays as global: `ld.global`), and launch bounds
///    as annotations: `maxntidx` (`.maxntid`), `reqntidx` (`.reqntid`, from
///    --minthreads as GPUCompiler does), `minctasm` (`.minnctapersm`),
///    `maxnreg` (`.maxnreg`).
///  - Device intrinsics read the PTX special registers; `sync_threads` is
///    `bar.sync 0`; shared arrays are `addrspace(3)` globals.
///  - exp/log/sin/cos/pow call libdevice (`__nv_expf` …), linked lazily from
///    the CUDA toolkit with only the needed functions kept and internalised;
///    `nvvm-reflect-ftz` is set to 0 and NVVMReflect runs at the pipeline
///    start (NVPTX's registerPassBuilderCallbacks). The rest (sqrt, fabs,
///    floor, fma …) stays LLVM intrinsics, which NVPTX selects directly
///    (`sqrt.rn.f32`).
///  - A throw calls `prism_throw`; at code generation each call becomes a
///    numbered throw site whose thread stores an exception record for the
///    launcher, then traps (PtxThrowSites.h).
///  - PTX identifiers cannot hold `!`, so the code-generated module's symbols
///    are sanitised (`julia_saxpy!` → `julia_saxpy_`, see ptxSymbol).
///  - Resource usage comes from `ptxas -v` when ptxas is installed.
#pragma once

#include "targets/GpuSupport.h"
#include "targets/Target.h"

#include <optional>
#include <string>

namespace prism {

/// The singleton ptx target.
const Target &ptxTarget();

/// The PTX symbol of an LLVM function name: characters PTX identifiers do
/// not allow become `_` (what a launcher passes to cuModuleGetFunction).
std::string ptxSymbol(llvm::StringRef Name);

/// The PTX ISA feature (`+ptx70`) for a supported architecture, or nothing
/// when the architecture is not supported.
std::optional<std::string> ptxFeatureForArch(llvm::StringRef Arch);

/// ptxas, from $PATH, $CUDA_HOME/bin, /usr/local/cuda/bin or /usr/lib/cuda/bin.
std::optional<std::string> findPtxas();

/// libdevice.10.bc from the config path, $CUDA_HOME, /usr/local/cuda or
/// /usr/lib/cuda (nvvm/libdevice/), or the Debian toolkit location.
std::optional<std::string> findLibdevice(llvm::StringRef ConfiguredPath = "");

/// Runs `ptxas -v --gpu-name Arch -o /dev/null` on `Ptx`. A missing ptxas
/// is ExitCode -1 with Message "ptxas not found".
ToolRun runPtxas(llvm::StringRef Ptx, llvm::StringRef Arch);

} // namespace prism
