/// \file
/// The `host` device: runs native-target artefacts in this process. The
/// object (an ELF relocatable for the host triple) is linked by LLVM ORC's
/// LLJIT, each load into a JITDylib of its own (so that reloading a kernel
/// after an edit never clashes with the previous definition, and unloading
/// frees its memory); the runtime hooks (`prism_throw`,
/// `prism_sync_threads`) and libm come from this process. Launches go
/// through the grid runtime (HostRuntime.h): blocks in parallel on oneTBB,
/// the threads of a synchronising block as fibers.
///
/// Arrays are passed in place: host memory is device memory, so the
/// LaunchResult's copies of the arguments are what the kernel reads and
/// writes. A thrown exception fails the launch with a diagnostic located at
/// the throw's source line (kind "launch", message `BoundsError at
/// exceptions.jl:17 ...`); the device stays usable.
#pragma once

#include "devices/Device.h"

namespace prism {

std::unique_ptr<Device> createHostDevice();

} // namespace prism
