// Pre-registered public kernel (not written for memsim): PacktPublishing/Learn-CUDA-Programming
// files: Chapter03/03_cuda_thread_programming/10_atomic_operation/reduction_wrp_atmc_kernel.cu
// commit 10bd9b59bfcc680d608ea1417da5089f73d91b11 (https://github.com/PacktPublishing/Learn-CUDA-Programming)
// Licence: MIT (Copyright (c) 2018 Packt; full text in validate/prereg4/LICENSES.md).
//
// Edits (no kernel body changed):
// - Chapter03/03_cuda_thread_programming/10_atomic_operation/reduction_wrp_atmc_kernel.cu: only lines 2, 4-56 kept (the cooperative_groups include, the namespace, NUM_LOAD, the device code and the kernel); stdio.h, reduction.h (host declarations) and the host code left out

// ---- from Chapter03/03_cuda_thread_programming/10_atomic_operation/reduction_wrp_atmc_kernel.cu, lines 2
#include <cooperative_groups.h>

// ---- from Chapter03/03_cuda_thread_programming/10_atomic_operation/reduction_wrp_atmc_kernel.cu, lines 4-56

using namespace cooperative_groups;

#define NUM_LOAD 4

#define FULL_MASK 0xffffffff

/*
    Parallel sum reduction using shared memory
    - takes log(n) steps for n input elements
    - uses n threads
    - only works for power-of-2 arrays
*/

/**
    Two warp level primitives are used here for this example
    https://devblogs.nvidia.com/faster-parallel-reductions-kepler/
    https://devblogs.nvidia.com/using-cuda-warp-level-primitives/
 */

template <typename group_t>
__inline__ __device__ float warp_reduce_sum(group_t group, float val)
{
    #pragma unroll
    for (int offset = group.size() / 2; offset > 0; offset >>= 1)
        val += group.shfl_down(val, offset);
    return val;
}

// large vector reduction
__global__ void
reduction_wrp_atmc_kernel(float *g_out, float *g_in, unsigned int size)
{
    unsigned int idx_x = blockIdx.x * blockDim.x + threadIdx.x;
    thread_block block = this_thread_block();
    thread_block_tile<32> tile32 = tiled_partition<32>(block);

    // cumulates input with grid-stride loop and save to share memory
    float sum[NUM_LOAD] = { 0.f };
    for (int i = idx_x; i < size; i += blockDim.x * gridDim.x * NUM_LOAD)
    {
        for (int step = 0; step < NUM_LOAD; step++)
            sum[step] += (i + step * blockDim.x * gridDim.x < size) ? g_in[i + step * blockDim.x * gridDim.x] : 0.f;
    }
    for (int i = 1; i < NUM_LOAD; i++)
        sum[0] += sum[i];
    // warp synchronous reduction
    sum[0] = warp_reduce_sum(tile32, sum[0]);

    //if ((threadIdx.x & (warpSize - 1)) == 0)
    if (tile32.thread_rank() == 0)
        atomicAdd(&g_out[0], sum[0]);;
}
