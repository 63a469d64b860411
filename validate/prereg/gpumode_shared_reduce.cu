// Pre-registered public kernel (not written for memsim): gpu-mode/lectures
// files: lecture_009/shared_reduce.cu
// commit 7cb40f67ad68f59a7c13e9a8c4d8a816a3c68e7a (https://github.com/gpu-mode/lectures)
// Licence: Apache-2.0 (LICENSE of the repository).
//
// Edits (no kernel body changed):
// - host/toolkit #includes commented out (`// removed:`): <cuda.h>, <iostream>
// - lecture_009/shared_reduce.cu: only lines 1-22 kept (the kernels and the device code and macros they use); the rest is host code


// ---- from lecture_009/shared_reduce.cu, lines 1-22
// removed: #include <iostream>
// removed: #include <cuda.h>

#define BLOCK_DIM 1024

// This is the code from the book but I couldn't get this to run faster even with occupancy calculator
// L1 throughput is dramatically increased though
__global__ void SharedMemoryReduction(float* input, float* output) {
    __shared__ float input_s[BLOCK_DIM];
    unsigned int t = threadIdx.x;
    input_s[t] = input[t] + input[t  + BLOCK_DIM];
    for (unsigned int stride = blockDim.x/2; stride >= 1; stride /=2) {
        __syncthreads();
        if (threadIdx.x < stride) {
            input_s[t] += input_s[t + stride];
        }
    }

    if (threadIdx.x == 0) {
        *output = input_s[0];
    }
}

