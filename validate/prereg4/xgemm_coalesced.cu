// Pre-registered public kernel (not written for memsim): tgautam03/xGeMM
// files: src/02_coalesced_xgemm.cu
// commit 75395fe6e8370606e751dc49ac51a2ad92c6f58a (https://github.com/tgautam03/xGeMM)
// Licence: MIT (Copyright (c) 2024 Tushar Gautam; full text in validate/prereg4/LICENSES.md).
//
// Edits (no kernel body changed):
// - src/02_coalesced_xgemm.cu: only lines 4-23 kept (the kernel); `#include "../include/MatrixFP32.cuh"` (a host matrix class) left out, as is the unused assert.h, and the host code left out

// ---- from src/02_coalesced_xgemm.cu, lines 4-23
__global__ void coalesced_mat_mul_kernel(float *d_A_ptr, float *d_B_ptr, float *d_C_ptr, int C_n_rows, int C_n_cols, int A_n_cols)
{
    // Working on C[row,col]
    const int col = blockDim.x*blockIdx.x + threadIdx.x;
    const int row = blockDim.y*blockIdx.y + threadIdx.y;

    // Parallel mat mul
    if (row < C_n_rows && col < C_n_cols)
    {
        // Value at C[row,col]
        float value = 0;
        for (int k = 0; k < A_n_cols; k++)
        {
            value += d_A_ptr[row*A_n_cols + k] * d_B_ptr[k*C_n_cols + col];
        }

        // Assigning calculated value (SGEMM is C = α*(A @ B)+β*C and in this repo α=1, β=0)
        d_C_ptr[row*C_n_cols + col] = 1*value + 0*d_C_ptr[row*C_n_cols + col];
    }
}
