// Peer of assets/examples/map.jl: map!(square, out, x) with Float32 arrays.
// The function argument is a template parameter, specialised at compile time
// like Julia's typeof(square). The Julia kernel is bounds-checked (no
// @inbounds); CUDA C has no bounds checks.
#include "cuda_shim.h"

struct Square {
  __device__ float operator()(float v) const { return v * v; }
};

template <class F>
__device__ void map_kernel(F f, float *out, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = f(x[i]);
}

extern "C" __global__ void map_square(float *out, const float *x, int n) {
  map_kernel(Square(), out, x, n);
}
