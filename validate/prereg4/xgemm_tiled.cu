// Pre-registered public kernel (not written for memsim): tgautam03/xGeMM
// files: src/03_tiled_xgemm.cu
// commit 75395fe6e8370606e751dc49ac51a2ad92c6f58a (https://github.com/tgautam03/xGeMM)
// Licence: MIT (Copyright (c) 2024 Tushar Gautam; full text in validate/prereg4/LICENSES.md).
//
// Edits (no kernel body changed):
// - src/03_tiled_xgemm.cu: only lines 4-54 kept (TILE_WIDTH and the kernel); `#include "../include/MatrixFP32.cuh"` (a host matrix class) left out and the host code left out
// - `#include <assert.h>` (line 2; NVRTC has no assert.h) replaced by `#include <cuda/std/cassert>`, which declares the same device assert

// ---- added (see Edits)
#include <cuda/std/cassert>

// ---- from src/03_tiled_xgemm.cu, lines 4-54
#define TILE_WIDTH 32

__global__ void tiled_mat_mul_kernel(float *d_A_ptr, float *d_B_ptr, float *d_C_ptr, int C_n_rows, int C_n_cols, int A_n_cols)
{
    // Ensure that TILE_WIDTH = BLOCK_SIZE
    assert(TILE_WIDTH == blockDim.x);
    assert(TILE_WIDTH == blockDim.y);
    
    // Details regarding this thread
    const int by = blockIdx.y;
    const int bx = blockIdx.x; 

    const int ty = threadIdx.y;
    const int tx = threadIdx.x; 

    // Working on C[row,col]
    const int row = TILE_WIDTH*by + ty;
    const int col = TILE_WIDTH*bx + tx;

    // Allocating shared memory
    __shared__ float sh_A[TILE_WIDTH][TILE_WIDTH];
    __shared__ float sh_B[TILE_WIDTH][TILE_WIDTH];

    // Phases
    const int phases = ceil((float)A_n_cols/TILE_WIDTH);

    // Parallel mat mul
    float value = 0;
    for (int phase = 0; phase < phases; phase++)
    {
        // Load Tiles into shared memory
        if ((row < C_n_rows) && ((phase*TILE_WIDTH+tx) < A_n_cols))
          sh_A[ty][tx] = d_A_ptr[(row)*A_n_cols + (phase*TILE_WIDTH+tx)];
        else
          sh_A[ty][tx] = 0.0f;

        if (((phase*TILE_WIDTH + ty) < A_n_cols) && (col < C_n_cols))
          sh_B[ty][tx] = d_B_ptr[(phase*TILE_WIDTH + ty)*C_n_cols + (col)];
        else
          sh_B[ty][tx] = 0.0f;
        __syncthreads();

        // Dot product
        for (int k_phase = 0; k_phase < TILE_WIDTH; k_phase++)
            value += sh_A[ty][k_phase] * sh_B[k_phase][tx];
        __syncthreads();
    }
    // Assigning calculated value
    if ((row < C_n_rows) && (col < C_n_cols))
        d_C_ptr[(row)*C_n_cols + (col)] =  1*value + 0*d_C_ptr[(row)*C_n_cols + (col)];
}
