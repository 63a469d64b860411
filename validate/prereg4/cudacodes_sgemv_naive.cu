// Pre-registered public kernel (not written for memsim): Maharshi-Pandya/cudacodes
// files: matvec/kernels/naive_1.cu
// commit 9a459b1007c68430c801389f4eaf31cf31b906a6 (https://github.com/Maharshi-Pandya/cudacodes)
// Licence: Apache-2.0 (the repository's LICENSE, Apache License 2.0, names no copyright holder; full text in validate/prereg4/LICENSES.md).
//
// Edits (no kernel body changed):
// - matvec/kernels/naive_1.cu: only lines 8-26 kept (the comment and the kernel); the includes (cuBLAS, cuda.h, cuda_runtime.h, stdio.h: host headers; utils.cuh: its device code is copied where used) and the host code left out

// ---- from matvec/kernels/naive_1.cu, lines 8-26
/*
Naive Sgemv kernel

- Each thread calculates one element of the output vector
- The row index is calculated using block index and thread index
- Uses linearized indexing
- Memory accesses are not coalesced
*/
__global__ void naive_sgemv_kernel(float* __restrict__ matd, float* __restrict__ vecd, float* __restrict__ resd, int M, int N) {
    int row = blockDim.x * blockIdx.x + threadIdx.x;

    if (row < M) {
        float sum = 0.0f;
        for (int col = 0; col < N; col++) {
            sum += matd[row * N + col] * vecd[col];
        }
        resd[row] = sum;
    }
}
