// Peer of assets/examples/saxpy.jl: y = a*x + y, one element per thread.
// Idiomatic CUDA C: 32-bit indices, pointer + length instead of a DeviceArray.
#include "cuda_shim.h"

extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
