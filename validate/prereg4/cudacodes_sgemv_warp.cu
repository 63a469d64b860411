// Pre-registered public kernel (not written for memsim): Maharshi-Pandya/cudacodes
// files: matvec/include/utils.cuh, matvec/kernels/coalesced_warp_2.cu
// commit 9a459b1007c68430c801389f4eaf31cf31b906a6 (https://github.com/Maharshi-Pandya/cudacodes)
// Licence: Apache-2.0 (the repository's LICENSE, Apache License 2.0, names no copyright holder; full text in validate/prereg4/LICENSES.md).
//
// Edits (no kernel body changed):
// - matvec/include/utils.cuh: only lines 41-47 kept (warpReduceSum, which the kernel calls); the rest is host code or device code it does not call
// - matvec/kernels/coalesced_warp_2.cu: only lines 8-36 kept (the comment and the kernel); the includes (cuBLAS, cuda.h, cuda_runtime.h, stdio.h: host headers; utils.cuh: its device code is copied where used) and the host code left out
// - `#include <assert.h>` (line 1; NVRTC has no assert.h) replaced by `#include <cuda/std/cassert>`, which declares the same device assert

// ---- added (see Edits)
#include <cuda/std/cassert>

// ---- from matvec/include/utils.cuh, lines 41-47
__device__ __forceinline__ float warpReduceSum(float val) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2) {
        val += __shfl_down_sync(0xffffffff, val, offset);
    }

    return val;
}

// ---- from matvec/kernels/coalesced_warp_2.cu, lines 8-36
/*
Coalesced Warp Sgemv kernel

- Each block is assigned to a row of the matrix A
- Each block calculates one output element of y
- The columns are accessed in coalesced manner by threads
- Performs warp level sum reduction only
- Block size must be equal to number of threads
*/
__global__ void coalesced_warp_sgmev_kernel(float* __restrict__ matd, float* __restrict__ vecd, float* __restrict__ resd, int M, int N) {
    assert(blockDim.x == warpSize);

    int bid = blockIdx.x;
    if (bid >= M) return;

    int tid = threadIdx.x;
    // each thread calculates its own partial output
    float partial_sum = 0.f;
    for (int col = tid; col < N; col += blockDim.x) {
        partial_sum += matd[bid * N + col] * vecd[col];
    }

    // warp level sum reduction
    // only first thread writes the output to global memory
    float sum = warpReduceSum(partial_sum);
    if (tid == 0) {
        resd[bid] = sum;
    }
}
