// Pre-registered public kernel (not written for memsim): siboehm/SGEMM_CUDA
// files: src/kernels/1_naive.cuh
// commit 60cba6f9b20a198116c76f18de8047f44df8c8b8 (https://github.com/siboehm/SGEMM_CUDA)
// Licence: MIT (Copyright (c) 2023 Simon Boehm; LICENSE of the repository).
//
// Edits (no kernel body changed):
// - host/toolkit #includes commented out (`// removed:`): <cstdio>, <cstdlib>, <cublas_v2.h>, <cuda_runtime.h>
// - prelude added before the copied code (below): #include <cuda/std/cassert>; typedef unsigned int uint;  // glibc's typedef, which NVRTC lacks

#include <cuda/std/cassert>
typedef unsigned int uint;  // glibc's typedef, which NVRTC lacks

// ---- from src/kernels/1_naive.cuh
// removed: #pragma once

// removed: #include <cstdio>
// removed: #include <cstdlib>
// removed: #include <cublas_v2.h>
// removed: #include <cuda_runtime.h>

/*

Matrix sizes:
MxK * KxN = MxN

*/

__global__ void sgemm_naive(int M, int N, int K, float alpha, const float *A,
                            const float *B, float beta, float *C) {
  const uint x = blockIdx.x * blockDim.x + threadIdx.x;
  const uint y = blockIdx.y * blockDim.y + threadIdx.y;

  // if statement is necessary to make things work under tile quantization
  if (x < M && y < N) {
    float tmp = 0.0;
    for (int i = 0; i < K; ++i) {
      tmp += A[x * K + i] * B[i * N + y];
    }
    // C = α*(A@B)+β*C
    C[x * N + y] = alpha * tmp + beta * C[x * N + y];
  }
}

