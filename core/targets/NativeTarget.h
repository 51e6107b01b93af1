/// \file
/// The `native` target (the host CPU, runnable in-process) and the ABI its
/// compiled code shares with the host grid runtime (devices/).
///
/// GPU hardware has registers for thread/block indices and on-chip shared
/// memory; the host has neither, so native code reads them from a hidden
/// per-thread state argument (GPUCompiler's `kernel_state`): every function
/// that uses a device intrinsic, directly or through a callee, takes a
/// leading `ptr %state` parameter pointing at a `NativeKernelState`. Shared
/// memory is carved from a per-block buffer the runtime provides, at byte
/// offsets fixed at compile time (ResourceUsage::SharedBytes is the total).
/// Because nothing lives in globals or thread-locals, blocks can run
/// concurrently on any threads, and a block's threads may run on OS threads
/// or fibers: `sync_threads()` is a call of `prism_sync_threads(state)`.
///
/// The runtime launches any native entry through one C signature, the
/// launch wrapper `void jfptr_NAME(const NativeKernelState *state,
/// void **args, void *ret)` (NAME = the entry name without `julia_`), as
/// cuLaunchKernel takes `void **kernelParams`: `args[i]` points at the i-th
/// source-level argument in its memory layout (Bool as one byte, structs and
/// tuples with the module's DataLayout; zero-size arguments are never read,
/// their pointer may be null); `ret` receives the return value in the same
/// layout (ignored for kernels and `nothing`). `state` may be null when the
/// code uses no device intrinsic.
///
/// Throws call `prism_throw(i32 kind, ptr type_name, ptr file, i32 line)`
/// (codegen/Runtime.h), which the host runtime defines as `noreturn`: it
/// records the error and unwinds to the launcher (longjmp) or abandons the
/// thread's fiber, so no trap instruction ends the process.
#pragma once

#include "targets/Target.h"

#include <cstdint>
#include <string>

namespace prism {

/// Layout of the hidden state argument (C layout; codegen indexes it with
/// the field numbers below, so keep the two in sync).
struct NativeKernelState {
  int32_t ThreadIdx[3]; ///< 0-based, x y z
  int32_t BlockIdx[3];  ///< 0-based
  int32_t BlockDim[3];
  int32_t GridDim[3];
  void *SharedMem;      ///< this block's shared memory (>= SharedBytes, 16-byte aligned)
  void *Runtime;        ///< opaque to compiled code; for prism_sync_threads
};

/// The largest block the host runtime runs (CUDA's limit). Compiled code
/// relies on it: the state's indices carry it as `!range` metadata, which
/// lets LLVM prove that index arithmetic in a block's loop cannot wrap.
inline constexpr uint32_t NativeMaxThreadsPerBlock = 1024;

/// Field numbers of NativeKernelState as an LLVM struct
/// `{ [3 x i32], [3 x i32], [3 x i32], [3 x i32], ptr, ptr }`.
enum NativeStateField : unsigned {
  NSF_ThreadIdx = 0,
  NSF_BlockIdx = 1,
  NSF_BlockDim = 2,
  NSF_GridDim = 3,
  NSF_SharedMem = 4,
  NSF_Runtime = 5,
};

/// The launch wrapper's symbol for an entry symbol: `julia_saxpy!` →
/// `jfptr_saxpy!`, `my_kernel` → `jfptr_my_kernel`.
std::string nativeLaunchSymbol(const std::string &EntrySymbol);

/// A kernel's block wrapper: `jfptr_block_saxpy!(state, args, ret)` runs
/// every thread of the block (state's BlockDim) in a loop in compiled code,
/// for blocks that need no barrier: no call per thread, and the kernel's
/// body inlined into the loop.
std::string nativeBlockLaunchSymbol(const std::string &EntrySymbol);

/// Stores V into the state's threadIdx field Dim (0..2): the block
/// wrapper's loop, so that a throw reports the right thread.
void storeNativeThreadIdx(llvm::IRBuilderBase &B, llvm::Value *State,
                          unsigned Dim, llvm::Value *V);

/// The singleton native target.
const Target &nativeTarget();

} // namespace prism
