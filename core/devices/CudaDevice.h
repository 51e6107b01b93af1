/// \file
/// The `cuda` device: the CUDA Driver API, loaded at run time with
/// dlopen("libcuda.so.1") so that Prism builds and runs on machines without
/// a driver or a GPU (then the device is unavailable, with the reason).
///
/// PTX is JIT-compiled by the driver (cuModuleLoadDataEx, info and error
/// logs kept). Kernel arguments follow the kernel ABI of the ptx target:
///  - a scalar is passed as its bytes (Bool as one byte);
///  - a `DeviceArray{T,N}` is the prelude struct passed by value:
///    `{ ptr::UInt64 (global address), dims::NTuple{N,Int64} }`, 8 + 8N
///    bytes, 8-aligned; the array's data is copied to a device allocation
///    before the launch and back after it;
///  - a tuple is a struct of its elements at their natural alignment;
///  - zero-size arguments (`nothing`, a function such as `square`) are not
///    kernel parameters at all, as in Julia's GPU compilers.
/// A kernel that traps or faults leaves the driver refusing all work in
/// the process, so the device Prism uses (createCudaDevice) keeps its
/// context in a worker process and starts a new one after a fault
/// (CudaWorker.h); kernels loaded before are loaded again on their next
/// launch.
#pragma once

#include "devices/Device.h"

#include <functional>

namespace prism {

struct CudaDeviceOptions {
  /// The driver library to dlopen (tests point it elsewhere to exercise
  /// the "not found" path on a machine that has a driver).
  std::string Library = "libcuda.so.1";
  int Ordinal = 0; ///< which GPU
  /// The worker executable; empty to look for it (findCudaWorker).
  std::string WorkerPath;
  /// How long a launch may run before Prism stops the worker process (a
  /// kernel that never ends would otherwise hold Prism for ever; no GPU
  /// watchdog stops it on a compute GPU). 0 waits for ever.
  unsigned LaunchTimeoutMs = 60000;
  /// Called by the in-process device when a fault has lost its context.
  std::function<void()> OnContextLost;
};

/// The cuda device: identity and capabilities from the driver in this
/// process, every context, load and launch in a worker process.
std::unique_ptr<Device> createCudaDevice(const CudaDeviceOptions &Opts = {});

/// The driver in this process: what the worker runs. After a fault every
/// call reports the lost context.
std::unique_ptr<Device> createCudaDriverDevice(const CudaDeviceOptions &Opts = {});

/// What both cuda devices check before loading A on D (available, a ptx
/// artefact with text and an entry) and before launching (available, at
/// least one thread): success, or the diagnostic.
llvm::Error checkCudaLoad(const Device &D, const DeviceArtefact &A);
llvm::Error checkCudaLaunch(const Device &D, Dim3 Grid, Dim3 Block);

/// The `sm_XY` to compile for on a GPU of compute capability Major.Minor,
/// clamped to what LLVM 16's NVPTX back end knows (sm_75 .. sm_90); the
/// driver JIT runs sm_90 PTX on newer GPUs.
std::string cudaArchFor(int Major, int Minor);

} // namespace prism
