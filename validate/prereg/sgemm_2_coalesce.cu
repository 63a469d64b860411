// Pre-registered public kernel (not written for memsim): siboehm/SGEMM_CUDA
// files: src/kernels/2_kernel_global_mem_coalesce.cuh
// commit 60cba6f9b20a198116c76f18de8047f44df8c8b8 (https://github.com/siboehm/SGEMM_CUDA)
// Licence: MIT (Copyright (c) 2023 Simon Boehm; LICENSE of the repository).
//
// Edits (no kernel body changed):
// - host/toolkit #includes commented out (`// removed:`): <cassert>, <cstdio>, <cstdlib>, <cublas_v2.h>, <cuda_runtime.h>
// - prelude added before the copied code (below): #include <cuda/std/cassert>; typedef unsigned int uint;  // glibc's typedef, which NVRTC lacks
// - added after the copied code: explicit instantiations of the templates launched

#include <cuda/std/cassert>
typedef unsigned int uint;  // glibc's typedef, which NVRTC lacks

// ---- from src/kernels/2_kernel_global_mem_coalesce.cuh
// removed: #pragma once

// removed: #include <cassert>
// removed: #include <cstdio>
// removed: #include <cstdlib>
// removed: #include <cublas_v2.h>
// removed: #include <cuda_runtime.h>

template <const uint BLOCKSIZE>
__global__ void sgemm_global_mem_coalesce(int M, int N, int K, float alpha,
                                          const float *A, const float *B,
                                          float beta, float *C) {
  const int cRow = blockIdx.x * BLOCKSIZE + (threadIdx.x / BLOCKSIZE);
  const int cCol = blockIdx.y * BLOCKSIZE + (threadIdx.x % BLOCKSIZE);

  // if statement is necessary to make things work under tile quantization
  if (cRow < M && cCol < N) {
    float tmp = 0.0;
    for (int i = 0; i < K; ++i) {
      tmp += A[cRow * K + i] * B[i * N + cCol];
    }
    C[cRow * N + cCol] = alpha * tmp + beta * C[cRow * N + cCol];
  }
}

template __global__ void sgemm_global_mem_coalesce<32>(int, int, int, float, const float *, const float *, float, float *);
