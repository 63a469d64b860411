// Pre-registered public kernel (not written for memsim): gpu-mode/lectures
// files: lecture_002/vector_addition/vector_addition.cu
// commit 7cb40f67ad68f59a7c13e9a8c4d8a816a3c68e7a (https://github.com/gpu-mode/lectures)
// Licence: Apache-2.0 (LICENSE of the repository).
//
// Edits (no kernel body changed):
// - host/toolkit #includes commented out (`// removed:`): <cuda.h>, <stdio.h>
// - lecture_002/vector_addition/vector_addition.cu: only lines 1-11 kept (the kernels and the device code and macros they use); the rest is host code


// ---- from lecture_002/vector_addition/vector_addition.cu, lines 1-11
// removed: #include <cuda.h>
// removed: #include <stdio.h>

// compute vector sum C = A + B
// each thread peforms one pair-wise addition
__global__ void vecAddKernel(float *A, float *B, float *C, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) {
    C[i] = A[i] + B[i];
  }
}

