// Pre-registered public kernel (not written for memsim): PacktPublishing/Learn-CUDA-Programming
// files: Chapter03/03_cuda_thread_programming/09_loop_unrolling/reduction_cg_kernel.cu
// commit 10bd9b59bfcc680d608ea1417da5089f73d91b11 (https://github.com/PacktPublishing/Learn-CUDA-Programming)
// Licence: MIT (Copyright (c) 2018 Packt; full text in validate/prereg4/LICENSES.md).
//
// Edits (no kernel body changed):
// - Chapter03/03_cuda_thread_programming/09_loop_unrolling/reduction_cg_kernel.cu: only lines 2, 4-72 kept (the cooperative_groups include, the namespace, NUM_LOAD, the device code and the kernel); stdio.h, reduction.h (host declarations) and the host code left out

// ---- from Chapter03/03_cuda_thread_programming/09_loop_unrolling/reduction_cg_kernel.cu, lines 2
#include <cooperative_groups.h>

// ---- from Chapter03/03_cuda_thread_programming/09_loop_unrolling/reduction_cg_kernel.cu, lines 4-72

using namespace cooperative_groups;

#define NUM_LOAD 4

/*
    Parallel sum reduction using shared memory
    - takes log(n) steps for n input elements
    - uses n threads
    - only works for power-of-2 arrays
*/

template <typename group_t>
__inline__ __device__ float warp_reduce_sum(group_t group, float val)
{
    #pragma unroll 5
    for (int offset = group.size() / 2; offset > 0; offset >>= 1)
        val += group.shfl_down(val, offset);
    return val;
}

__inline__ __device__ float block_reduce_sum(thread_block block, float val)
{
    __shared__ float shared[32]; // Shared mem for 32 partial sums
    // int warp_idx = threadIdx.x / warpSize;
    int warp_idx = block.thread_index().x / warpSize;

    // partial reduciton at tile<32> size
    thread_block_tile<32> tile32 = tiled_partition<32>(block);
    val = warp_reduce_sum(tile32, val);

    // write reduced value to shared memory
    if (tile32.thread_rank() == 0)
        shared[warp_idx] = val; 

    block.sync(); // Wait for all partial reductions

    //read from shared memory only if that warp existed
    if (warp_idx == 0) {
        val = (block.thread_index().x < blockDim.x / warpSize) ? shared[tile32.thread_rank()] : 0;
        val = warp_reduce_sum(tile32, val); //Final reduce within first warp
    }

    return val;
}

// large vector reduction
__global__ void
reduction_kernel(float* g_out, float* g_in, unsigned int size)
{
    unsigned int idx_x = blockIdx.x * blockDim.x + threadIdx.x;
    thread_block block = this_thread_block();

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
    sum[0] = block_reduce_sum(block, sum[0]);

    if (block.thread_index().x == 0)
        g_out[block.group_index().x] = sum[0];
}
