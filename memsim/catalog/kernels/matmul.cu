// C = A * B for n x n row-major matrices: one thread per element of C, reading A and B straight
// from global memory (naive) or through TILE x TILE shared-memory tiles (classic tiled SGEMM).
// The catalog prepends `typedef <element type> T;` and `#define TILE <block edge>`.
#ifndef TILE
#define TILE 32
#endif
extern "C" __global__ void k_matmulNaive(const T* A, const T* B, T* C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    T s = 0;
    for (int k = 0; k < n; k++) s += A[row * n + k] * B[k * n + col];
    C[row * n + col] = s;
  }
}
// Needs n divisible by TILE and a TILE x TILE block.
extern "C" __global__ void k_matmulSmem(const T* A, const T* B, T* C, int n) {
  __shared__ T As[TILE][TILE];
  __shared__ T Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  T s = 0;
  for (int t = 0; t < n; t += TILE) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; k++) s += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = s;
}
