// Pre-registered public kernel (not written for memsim): Bruce-Lee-LY/cuda_hgemv
// files: src/thread/thread_naive.cu, src/common/util.h
// commit 55eaca46c25234c9dce3daa00a8a9884a63cee22 (https://github.com/Bruce-Lee-LY/cuda_hgemv)
// Licence: MIT (Copyright (c) 2023 Bruce-Lee-LY; full text in validate/prereg3/LICENSES.md).
//
// Edits (no kernel body changed):
// - src/thread/thread_naive.cu: only lines 1-5, 9-26 kept (the copyright header, the kernel and the macros it uses); the rest is host code
// - src/common/util.h: only lines 11-13 kept (div_ceil, which the kernel calls); the rest is host code
// - `#include "common.h"` (line 7, host logging and cuBLAS headers) replaced by `#include <cuda_fp16.h>`, the one header the kernel needs, and util.h's div_ceil, placed after the kernel's file in this copy, is declared first (a forward declaration, added)

// ---- added (see Edits)
#include <cuda_fp16.h>
inline __device__ __host__ size_t div_ceil(size_t a, size_t b);

// ---- from src/thread/thread_naive.cu, lines 1-5
// Copyright 2023. All Rights Reserved.
// Author: Bruce-Lee-LY
// Date: 21:49:00 on Mon, Oct 09, 2023
//
// Description: thread naive hgemv

// ---- from src/thread/thread_naive.cu, lines 9-26
#define WARP_SIZE 32
#define WARPS_PER_BLOCK 4
#define THREADS_PER_BLOCK 128  // WARP_SIZE * WARPS_PER_BLOCK

__global__ void threadNaiveKernel(const half *__restrict__ A, const half *__restrict__ B, half *__restrict__ C,
                                  size_t N, size_t K) {
    const size_t col = blockIdx.x * THREADS_PER_BLOCK + threadIdx.x;
    if (col >= N) {
        return;
    }

    float tmp = 0.0;
#pragma unroll
    for (size_t i = 0; i < K; ++i) {
        tmp += __half2float(A[i]) * __half2float(B[i + col * K]);
    }
    C[col] = __float2half(tmp);
}

// ---- from src/common/util.h, lines 11-13
inline __device__ __host__ size_t div_ceil(size_t a, size_t b) {
    return (a % b != 0) ? (a / b + 1) : (a / b);
}
