// Corpus: double buffering through the CUDA pipeline primitives (needs <cuda_pipeline.h> on
// NVRTC's include path). Written for memsim's corpus; no code copied.
//
// Modelled on NVIDIA/cuda-samples Samples/3_CUDA_Features/globalToShmemAsyncCopy/globalToShmemAsyncCopy.cu
// (MatrixMulAsyncCopySingleStage / MultiStage: __pipeline_memcpy_async, __pipeline_commit,
// __pipeline_wait_prior) and the CUDA C++ Programming Guide's "Pipeline Primitives Interface".
#include <cuda_pipeline.h>

// SGEMM C = A * B (row-major, sizes multiples of 16), double-buffered 16x16 tiles, one float
// per thread and stage.
extern "C" __global__ void k_sgemm_pipeline(int M, int N, int K, const float* __restrict__ A,
                                            const float* __restrict__ B, float* __restrict__ C) {
  __shared__ float As[2][16][16];
  __shared__ float Bs[2][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  int tiles = K / 16;
  __pipeline_memcpy_async(&As[0][ty][tx], &A[row * K + tx], sizeof(float));
  __pipeline_memcpy_async(&Bs[0][ty][tx], &B[ty * N + col], sizeof(float));
  __pipeline_commit();
  for (int t = 0; t < tiles; ++t) {
    int cur = t & 1;
    if (t + 1 < tiles) {
      __pipeline_memcpy_async(&As[cur ^ 1][ty][tx], &A[row * K + (t + 1) * 16 + tx], sizeof(float));
      __pipeline_memcpy_async(&Bs[cur ^ 1][ty][tx], &B[((t + 1) * 16 + ty) * N + col], sizeof(float));
      __pipeline_commit();
      __pipeline_wait_prior(1);
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 16; ++k) acc += As[cur][ty][k] * Bs[cur][k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

