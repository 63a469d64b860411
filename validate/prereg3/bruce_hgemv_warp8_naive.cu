// Pre-registered public kernel (not written for memsim): Bruce-Lee-LY/cuda_hgemv
// files: src/warp/warp8_naive.cu, src/common/util.h
// commit 55eaca46c25234c9dce3daa00a8a9884a63cee22 (https://github.com/Bruce-Lee-LY/cuda_hgemv)
// Licence: MIT (Copyright (c) 2023 Bruce-Lee-LY; full text in validate/prereg3/LICENSES.md).
//
// Edits (no kernel body changed):
// - src/warp/warp8_naive.cu: only lines 1-5, 9-45 kept (the copyright header, the kernel and the macros it uses); the rest is host code
// - src/common/util.h: only lines 11-13 kept (div_ceil, which the kernel calls); the rest is host code
// - `#include "common.h"` (line 7, host logging and cuBLAS headers) replaced by `#include <cuda_fp16.h>`, the one header the kernel needs, and util.h's div_ceil, placed after the kernel's file in this copy, is declared first (a forward declaration, added)

// ---- added (see Edits)
#include <cuda_fp16.h>
inline __device__ __host__ size_t div_ceil(size_t a, size_t b);

// ---- from src/warp/warp8_naive.cu, lines 1-5
// Copyright 2023. All Rights Reserved.
// Author: Bruce-Lee-LY
// Date: 21:49:00 on Mon, Oct 09, 2023
//
// Description: warp8 naive hgemv

// ---- from src/warp/warp8_naive.cu, lines 9-45
#define WARP_SIZE 32
#define WARPS_PER_BLOCK 4
#define THREADS_PER_BLOCK 128  // WARP_SIZE * WARPS_PER_BLOCK

#define COLS_PER_WARP 8
#define COLS_PER_BLOCK 32    // COLS_PER_WARP * WARPS_PER_BLOCK
#define THREADS_PER_GROUP 4  // WARP_SIZE / COLS_PER_WARP

__global__ void warp8NaiveKernel(const half *__restrict__ A, const half *__restrict__ B, half *__restrict__ C, size_t N,
                                 size_t K) {
    const size_t group_id = threadIdx.x / THREADS_PER_GROUP;
    const size_t group_col = blockIdx.x * COLS_PER_BLOCK + group_id;
    if (group_col >= N) {
        return;
    }

    const size_t K_iters = div_ceil(K, THREADS_PER_GROUP);
    const size_t group_lane_id = threadIdx.x % THREADS_PER_GROUP;

    float tmp = 0.0;
#pragma unroll
    for (size_t i = 0; i < K_iters; ++i) {
        size_t A_idx = i * THREADS_PER_GROUP + group_lane_id;
        size_t B_idx = i * THREADS_PER_GROUP + group_lane_id + group_col * K;
        tmp += __half2float(A[A_idx]) * __half2float(B[B_idx]);
    }

    constexpr unsigned int mask = 0xffffffff;
#pragma unroll
    for (size_t i = THREADS_PER_GROUP / 2; i >= 1; i /= 2) {
        tmp += __shfl_xor_sync(mask, tmp, i);
    }

    if (group_lane_id == 0) {
        C[group_col] = __float2half(tmp);
    }
}

// ---- from src/common/util.h, lines 11-13
inline __device__ __host__ size_t div_ceil(size_t a, size_t b) {
    return (a % b != 0) ? (a / b + 1) : (a / b);
}
