// Peer of assets/examples/matmul.jl: tiled C = A*B with 16x16 tiles in shared
// memory, column-major n x n matrices, n % 16 == 0, the same tile layout and
// loop order as the Julia kernel.
#include "cuda_shim.h"

#define TILE 16

extern "C" __global__ void matmul(float *C, const float *A, const float *B, int n) {
  __shared__ float As[TILE * TILE];
  __shared__ float Bs[TILE * TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    As[tx * TILE + ty] = A[(t * TILE + tx) * n + row];
    Bs[tx * TILE + ty] = B[col * n + t * TILE + ty];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[k * TILE + ty] * Bs[tx * TILE + k];
    __syncthreads();
  }
  C[col * n + row] = acc;
}
