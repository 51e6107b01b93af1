/// \file
/// The `gcn` target: AMD GPUs through LLVM's AMDGPU backend
/// (`amdgcn-amd-amdhsa`), following GPUCompiler.jl's gcn.jl.
///
///  - `--arch` is any gfx processor LLVM 16 knows (checked against the
///    backend's subtarget table), default gfx90a.
///  - Kernels get the `amdgpu_kernel` calling convention and aggregate
///    arguments `byref` in `addrspace(4)` (the kernarg segment), so they are
///    read with scalar loads (`s_load_dword*`) and the DeviceArray pointers
///    loaded from them are known to be global (`global_load`, not `flat_*`,
///    once AMDGPUPromoteKernelArguments has run in the optimiser).
///    --maxthreads/--minthreads become `amdgpu-flat-work-group-size`.
///  - Private allocas are `addrspace(5)` (the datalayout's A5; the emitter
///    allocates in the datalayout's alloca address space), shared arrays are
///    LDS (`addrspace(3)`) globals.
///  - Thread and block indices are `llvm.amdgcn.workitem.id.*` and
///    `llvm.amdgcn.workgroup.id.*`; block and grid sizes come from the HSA
///    dispatch packet (`llvm.amdgcn.dispatch.ptr`: workgroup_size_x at byte
///    4 (i16), grid_size_x at byte 12 (i32, in work-items, so divided by the
///    workgroup size)). `sync_threads` is a workgroup release fence,
///    `s_barrier`, and an acquire fence, as HIP's __syncthreads.
///  - A throw ends in `llvm.trap` (`s_trap 2`). There is no device printf
///    without a host-call buffer, so the `prism_throw` report calls are
///    dropped from the code-generated module (the optimised IR keeps them).
///  - Objects are ELF relocatables linked with ld.lld (`-shared`) into an
///    HSA code object when ld.lld is installed.
///  - Resource figures (VGPRs, SGPRs, scratch, LDS) are parsed from the
///    backend's kernel info comments.
#pragma once

#include "targets/GpuSupport.h"
#include "targets/Target.h"

#include <optional>
#include <string>

namespace prism {

/// The singleton gcn target.
const Target &gcnTarget();

/// ld.lld for linking HSA code objects: `ld.lld-16`, `ld.lld`, or the one
/// in /usr/lib/llvm-16/bin.
std::optional<std::string> findLld();

/// Links a relocatable AMDGPU object into a shared HSA code object with
/// `ld.lld -shared`. An Error when ld.lld is missing or fails.
llvm::Expected<std::string> linkHsaCodeObject(llvm::StringRef Object);

} // namespace prism
