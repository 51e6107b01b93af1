/// \file
/// The host grid runtime: runs a native launch wrapper (NativeTarget.h) over
/// `Grid × Block` in this process, and defines the runtime hooks compiled
/// code calls (codegen/Runtime.h).
///
/// Blocks are independent, so they run in parallel on oneTBB's workers.
/// The threads of a block cannot all have an OS thread of their own (a
/// 1024-thread block times a grid would be far too many), yet
/// `sync_threads()` needs every thread of the block to reach it before any
/// goes on. Each thread of a block that synchronises therefore runs as a
/// fiber on a small stack owned by the worker (switched by a few
/// instructions on x86-64, by ucontext elsewhere): the barrier hook
/// switches back to the block's scheduler, which resumes the block's
/// threads round-robin, so a round ends exactly when every live thread has
/// arrived at the barrier or finished. Code that never synchronises (the
/// object has no reference to the barrier hook) runs its threads one after
/// another directly on the worker's stack, which is much cheaper.
///
/// A throw (`prism_throw`) records the first exception of the launch, raises
/// a flag that other blocks check before each thread, and leaves the
/// throwing thread for good: a fiber is abandoned (its stack is reused by
/// the next launch), a direct call is left with siglongjmp. Compiled code is
/// `nounwind` and owns no resources, so nothing is skipped that needed to
/// run; the process and the loaded kernel stay usable. A fault while
/// compiled code runs (SIGSEGV/SIGBUS: a stack overflow, or an access out of
/// range under `@inbounds`) leaves the thread the same way, from the signal
/// handler; the host device maps the faulting address to a source line.
#pragma once

#include "devices/Device.h"
#include "targets/NativeTarget.h"

#include <cstdint>
#include <optional>
#include <string>

namespace prism::host {

/// `void jfptr_NAME(const NativeKernelState *state, void **args, void *ret)`.
using LaunchWrapperFn = void (*)(const NativeKernelState *, void **, void *);

/// Everything one launch needs; the pointers must stay valid during it.
struct GridLaunch {
  LaunchWrapperFn Fn = nullptr;
  /// Optional (kernels): runs every thread of a block in one call, used
  /// when the block needs no barriers (`jfptr_block_NAME`).
  LaunchWrapperFn BlockFn = nullptr;
  Dim3 Grid, Block;
  void **Args = nullptr;    ///< args[i] → i-th source-level argument
  /// Receives the return value (non-kernels) of thread (1,1,1) of block
  /// (1,1,1), as the interpreter reports it; the other threads' values go
  /// to a scratch buffer of their worker.
  void *Ret = nullptr;
  size_t RetBytes = 0;      ///< the size of *Ret
  uint64_t SharedBytes = 0; ///< per-block shared memory (zero-filled)
  bool UsesBarriers = false; ///< run threads as fibers (sync_threads)
  /// Where the compiled code lies, [CodeBegin, CodeEnd): a throw's or
  /// fault's frame walk records the compiled frames and stops outside it.
  uintptr_t CodeBegin = 0, CodeEnd = 0;
};

/// The largest block the runtime accepts (CUDA's limit; compiled code
/// assumes it, see NativeMaxThreadsPerBlock).
inline constexpr uint64_t MaxThreadsPerBlock = NativeMaxThreadsPerBlock;
/// The stack of each fiber. Kernels that synchronise are small loops; deep
/// recursion belongs to non-kernel code, which runs on the worker's stack.
inline constexpr size_t FiberStackBytes = 64 * 1024;

/// The compiled frames a throw's or fault's stack walk records: the
/// innermost MaxThrowFrames and, of a deeper stack (a recursion), the
/// outermost MaxOuterThrowFrames, counting the calls between.
inline constexpr unsigned MaxThrowFrames = 64, MaxOuterThrowFrames = 16;

/// What a launch did besides running the kernel.
struct LaunchStats {
  /// Fiber stacks the launch had to create (a worker thread's first block
  /// of that many threads), and the longest time one worker spent on it:
  /// mapping each stack and its first page fault, which costs microseconds
  /// a page and, for a 256-thread block, most of a first launch. Later
  /// launches reuse the stacks.
  uint32_t FibersCreated = 0;
  double FiberSetupMs = 0;
};

/// Runs the launch to completion. Returns the first exception thrown, if
/// any (the launch stopped early then).
std::optional<ThrownException> runGrid(const GridLaunch &L,
                                       LaunchStats *Stats = nullptr);

/// Starts the block workers in the background (once per process), so that
/// the first multi-block launch finds them running rather than paying for
/// starting them. The host device calls it when it is created; a launch
/// never waits for it.
void prepareWorkers();

/// Readies the calling thread for launches: its fault handling (the
/// alternate signal stack, its stack bounds) and its place in the block
/// arena. Both read /proc/self/maps (pthread_getattr_np) the first time, a
/// few hundred microseconds that would otherwise land in the first launch.
/// The host device calls it on the thread that creates it.
void prepareThisThread();

/// Addresses of the runtime hooks, for the JIT's symbol table.
void *throwHookAddress();
void *throwDetailHookAddress();
void *syncThreadsHookAddress();

} // namespace prism::host
