// Peer of assets/examples/reduce.jl (block_sum!): block-wide tree reduction in
// shared memory, one partial sum per block. blockDim.x <= 256.
// The Julia kernel indexes without @inbounds (bounds-checked); CUDA C has no
// bounds checks.
#include "cuda_shim.h"

extern "C" __global__ void block_sum(float *out, const float *x, int n) {
  __shared__ float tmp[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tmp[t] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s)
      tmp[t] += tmp[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = tmp[0];
}
