// Pre-registered public kernel (not written for memsim): gpu-mode/lectures
// files: lecture_008/divergence.cu
// commit 7cb40f67ad68f59a7c13e9a8c4d8a816a3c68e7a (https://github.com/gpu-mode/lectures)
// Licence: Apache-2.0 (LICENSE of the repository).
//
// Edits (no kernel body changed):
// - host/toolkit #includes commented out (`// removed:`): <cuda_runtime.h>, <stdio.h>
// - lecture_008/divergence.cu: only lines 1-21 kept (the kernels and the device code and macros they use); the rest is host code


// ---- from lecture_008/divergence.cu, lines 1-21
// removed: #include <stdio.h>
// removed: #include <cuda_runtime.h>

__global__ void processArrayWithDivergence(int *data, int N) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < N) {
        if (data[idx] % 2 == 0) {
            data[idx] = data[idx] * 2;
        } else {
            data[idx] = data[idx] + 1;
        }
    }
}

__global__ void processArrayWithoutDivergence(int *data, int N) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < N) {
        int isEven = !(data[idx] % 2);
        data[idx] = isEven * (data[idx] * 2) + (!isEven) * (data[idx] + 1);
    }
}

