// Pre-registered public kernel (not written for memsim): gpu-mode/lectures
// files: lecture_009/segment_reduce.cu
// commit 7cb40f67ad68f59a7c13e9a8c4d8a816a3c68e7a (https://github.com/gpu-mode/lectures)
// Licence: Apache-2.0 (LICENSE of the repository).
//
// Edits (no kernel body changed):
// - host/toolkit #includes commented out (`// removed:`): <cuda.h>, <iostream>
// - lecture_009/segment_reduce.cu: only lines 1-32 kept (the kernels and the device code and macros they use); the rest is host code


// ---- from lecture_009/segment_reduce.cu, lines 1-32
// removed: #include <iostream>
// removed: #include <cuda.h>

#define BLOCK_DIM 1024

__global__ void SharedMemoryReduction(float* input, float* output, int n) {
    __shared__ float input_s[BLOCK_DIM]; 
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x; // global index
    unsigned int t = threadIdx.x; // index within a block

    // Load elements into shared memory
    if (idx < n) {
        input_s[t] = input[idx];
    } else {
        input_s[t] = 0.0f;
    }
    __syncthreads();

    // Reduction in shared memory
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride && idx + stride < n) {
            input_s[t] += input_s[t + stride];
        }
        __syncthreads();
    }

    // Reduction across blocks in global memory
    // needs to be atomic to avoid contention
    if (t == 0) {
        atomicAdd(output, input_s[0]);
    }
}

