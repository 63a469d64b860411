// Pre-registered public kernel (not written for memsim): Maharshi-Pandya/cudacodes
// files: matvec/include/utils.cuh, matvec/kernels/vectorized_4.cu
// commit 9a459b1007c68430c801389f4eaf31cf31b906a6 (https://github.com/Maharshi-Pandya/cudacodes)
// Licence: Apache-2.0 (the repository's LICENSE, Apache License 2.0, names no copyright holder; full text in validate/prereg4/LICENSES.md).
//
// Edits (no kernel body changed):
// - matvec/include/utils.cuh: only lines 20 (CEIL_DIV) and 41-72 (warpReduceSum, blockReduceSum, which the kernel calls) kept; the rest is host code
// - matvec/kernels/vectorized_4.cu: only lines 8-54 kept (the comment and the kernel); the includes (cuBLAS, cuda.h, cuda_runtime.h, stdio.h: host headers; utils.cuh: its device code is copied where used) and the host code left out

// ---- from matvec/include/utils.cuh, lines 20
#define CEIL_DIV(x, y) ((x) >= 0 ? (((x) + (y) - 1) / (y)) : ((x) / (y)))

// ---- from matvec/include/utils.cuh, lines 41-72
__device__ __forceinline__ float warpReduceSum(float val) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2) {
        val += __shfl_down_sync(0xffffffff, val, offset);
    }

    return val;
}

__device__ __forceinline__ void blockReduceSum(float val, float *smem, int tid, int blockDimX) {
    // 1. do warpReduce sum
    val = warpReduceSum(val);

    // 2. do blockReduce sum
    if (blockDimX > warpSize) {
        int lane = tid % warpSize;
        int wid = tid / warpSize;
        if (lane == 0) {
            smem[wid] = val;
        }
        __syncthreads();

        if (tid < warpSize) {
            val = tid < CEIL_DIV(blockDimX, warpSize) ? smem[tid] : 0.0f;
            val = warpReduceSum(val);
            if (tid == 0) smem[0] = val;
        }
    } else {
        if (tid == 0) smem[0] = val;
    }
    // __syncthreads();
    // sync not needed because only thread 0 reads from smem[0]
}

// ---- from matvec/kernels/vectorized_4.cu, lines 8-54
/*
Vectorized Sgemv kernel

- Each block is assigned to a row of the matrix A
- Each block calculates one output element of y
- The columns are accessed in coalesced manner by threads
- Vectorized loads are done for efficient memory bandwidth
- Performs warp level + block level sum reduction
*/
__global__ void vectorized_sgemv_kernel(float* __restrict__ matd, float* __restrict__ vecd, float* __restrict__ resd, int M, int N) {
    extern __shared__ float smem[];

    int bid = blockIdx.x;
    if (bid >= M) return;

    int tid = threadIdx.x;
    int n_float4s = N / 4;

    // cast the matrix and vector as float4
    // float4 holds multiple values (x, y, z, w)
    float4* mat_row = reinterpret_cast<float4*>(matd + bid * N);
    float4* vec = reinterpret_cast<float4*>(vecd);

    // each thread calculates its own partial output
    float partial_sum = 0.f;

// manual loop unrolling with a factor of 4
#pragma unroll 4
    for (int col = tid; col < n_float4s; col += blockDim.x) {
        float4 matval = mat_row[col];
        float4 vecval = vec[col];

        partial_sum += (matval.x * vecval.x +
                        matval.y * vecval.y +
                        matval.z * vecval.z +
                        matval.w * vecval.w);
    }

    // block level sum reduction
    // only first thread reads the first location in shared memory
    // only first thread writes the output to global memory
    blockReduceSum(partial_sum, smem, tid, blockDim.x);
    if (tid == 0) {
        float sum = smem[0];
        resd[bid] = sum;
    }
}
