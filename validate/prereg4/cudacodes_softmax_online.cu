// Pre-registered public kernel (not written for memsim): Maharshi-Pandya/cudacodes
// files: softmax/kernels/online_1.cu
// commit 9a459b1007c68430c801389f4eaf31cf31b906a6 (https://github.com/Maharshi-Pandya/cudacodes)
// Licence: Apache-2.0 (the repository's LICENSE, Apache License 2.0, names no copyright holder; full text in validate/prereg4/LICENSES.md).
//
// Edits (no kernel body changed):
// - softmax/kernels/online_1.cu: only lines 7-39 kept (the comment and the kernel); the includes (cuda.h, cuda_runtime.h, stdio.h: host headers; cuda_utils.cuh: its device code is copied where used) and the host code left out
// - `#define INFINITY (__int_as_float(0x7f800000))` added first: math.h's macro, the float infinity (here by its bit pattern), which the kernels use and NVRTC lacks

// ---- added (see Edits)
#define INFINITY (__int_as_float(0x7f800000))

// ---- from softmax/kernels/online_1.cu, lines 7-39
/*
This kernel implements an online softmax operation on a matrix of size (M, N).
The softmax operation is performed on the last dimension of the matrix.

How this works:
One thread processes one entire row, but instead of 3 passes we do only 2 passes.
This is possible due to the property of exponentials.
We are parallelizing over the rows.
*/
__global__ void softmax_kernel_1(float* __restrict__ matd, float* __restrict__ resd, int M, int N) {
    int row = blockDim.x * blockIdx.x + threadIdx.x;

    if (row < M) {
        float m = -1 * INFINITY;
        float L = 0.0f;

        // compute max and norm factor in one pass only
        // by exploiting the property of exponentials
        for (int col = 0; col < N; col++) {
            int i = row * N + col;
            float curr = matd[i];
            if (curr > m) {
                L = L * expf(m - curr);
                m = curr;
            }
            L += expf(curr - m);
        }
        for (int col = 0; col < N; col++) {
            int i = row * N + col;
            resd[i] = expf(matd[i] - m) / L;
        }
    }
}
