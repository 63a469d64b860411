// Pre-registered public kernel (not written for memsim): gpu-mode/lectures
// files: lecture_009/control_divergence_reduce.cu
// commit 7cb40f67ad68f59a7c13e9a8c4d8a816a3c68e7a (https://github.com/gpu-mode/lectures)
// Licence: Apache-2.0 (LICENSE of the repository).
//
// Edits (no kernel body changed):
// - host/toolkit #includes commented out (`// removed:`): <cuda.h>, <iostream>
// - lecture_009/control_divergence_reduce.cu: only lines 1-16 kept (the kernels and the device code and macros they use); the rest is host code


// ---- from lecture_009/control_divergence_reduce.cu, lines 1-16
// removed: #include <iostream>
// removed: #include <cuda.h>

__global__ void FixDivergenceKernel(float* input, float* output) {
    unsigned int i = threadIdx.x; //threads start next to each other
    for (unsigned int stride = blockDim.x; stride >= 1; stride /= 2) { // furthest element is blockDim away
        if (threadIdx.x < stride) { // 
            input[i] += input[i + stride]; // each thread adds a distant element to its assigned position
        }
        __syncthreads();

    }
    if (threadIdx.x == 0) {
    *output = input[0];
    }
}

