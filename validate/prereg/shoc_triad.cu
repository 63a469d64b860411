// Pre-registered public kernel (not written for memsim): vetter/shoc
// files: src/cuda/level1/triad/Triad.cu
// commit 0aea03beba2f09fcb5935cc11737372fe4de9ec0 (https://github.com/vetter/shoc)
// Licence: BSD-3-Clause (Copyright (c) 2011, UT-Battelle, LLC; LICENSE.md of the repository).
//
// Edits (no kernel body changed):
// - src/cuda/level1/triad/Triad.cu: only lines 55-59 kept (the kernels and the device code and macros they use); the rest is host code


// ---- from src/cuda/level1/triad/Triad.cu, lines 55-59
__global__ void triad(float* A, float* B, float* C, float s)
{
    int gid = threadIdx.x + (blockIdx.x * blockDim.x);
    C[gid] = A[gid] + s*B[gid];
}

