// Minimal CUDA shim so the peer kernels compile with clang-16 alone:
//   clang-16 -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudalib -nocudainc -O3 -S k.cu
// (-nocudainc means no CUDA headers at all, so nothing else is available).
// Under nvcc the real CUDA headers are already included and this file is empty.
#ifndef PRISM_PEERS_CUDA_SHIM_H
#define PRISM_PEERS_CUDA_SHIM_H
#if !defined(__NVCC__)

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __syncthreads() __nvvm_bar_sync(0)

// threadIdx.x etc. read the PTX special registers through clang's NVVM
// builtins, the same way clang's own __clang_cuda_builtin_vars.h does
// (clang enables __declspec(property) in CUDA mode).
#define PRISM_SREG(FIELD, BUILTIN)                                             \
  __declspec(property(get = get_##FIELD)) unsigned int FIELD;                  \
  static __device__ __forceinline__ unsigned int get_##FIELD() { return BUILTIN(); }

#define PRISM_SREG3(TYPE, VAR, REG)                                            \
  struct TYPE {                                                                \
    PRISM_SREG(x, __nvvm_read_ptx_sreg_##REG##_x)                              \
    PRISM_SREG(y, __nvvm_read_ptx_sreg_##REG##_y)                              \
    PRISM_SREG(z, __nvvm_read_ptx_sreg_##REG##_z)                              \
  };                                                                           \
  extern const __device__ TYPE VAR;

PRISM_SREG3(prism_threadIdx_t, threadIdx, tid)
PRISM_SREG3(prism_blockIdx_t, blockIdx, ctaid)
PRISM_SREG3(prism_blockDim_t, blockDim, ntid)
PRISM_SREG3(prism_gridDim_t, gridDim, nctaid)

#undef PRISM_SREG3
#undef PRISM_SREG
#endif // !__NVCC__
#endif
