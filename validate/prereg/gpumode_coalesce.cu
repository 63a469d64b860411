// Pre-registered public kernel (not written for memsim): gpu-mode/lectures
// files: lecture_008/coalesce.cu
// commit 7cb40f67ad68f59a7c13e9a8c4d8a816a3c68e7a (https://github.com/gpu-mode/lectures)
// Licence: Apache-2.0 (LICENSE of the repository).
//
// Edits (no kernel body changed):
// - host/toolkit #includes commented out (`// removed:`): <cuda_runtime.h>, <iostream>
// - lecture_008/coalesce.cu: only lines 1-16 kept (the kernels and the device code and macros they use); the rest is host code


// ---- from lecture_008/coalesce.cu, lines 1-16
// removed: #include <iostream>
// removed: #include <cuda_runtime.h>

__global__ void copyDataNonCoalesced(float *in, float *out, int n) {
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    if (index < n) {
        out[index] = in[(index * 2) % n];
    }
}

__global__ void copyDataCoalesced(float *in, float *out, int n) {
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    if (index < n) {
        out[index] = in[index];
    }
}

