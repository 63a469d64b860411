// Pre-registered public kernel (not written for memsim): PacktPublishing/Learn-CUDA-Programming
// files: Chapter03/03_cuda_thread_programming/03_threadsync_and_reduction/reduction_global_kernel.cu
// commit 10bd9b59bfcc680d608ea1417da5089f73d91b11 (https://github.com/PacktPublishing/Learn-CUDA-Programming)
// Licence: MIT (Copyright (c) 2018 Packt; full text in validate/prereg4/LICENSES.md).
//
// Edits (no kernel body changed):
// - Chapter03/03_cuda_thread_programming/03_threadsync_and_reduction/reduction_global_kernel.cu: only lines 4-12 kept (the kernel); the includes and the host code left out (the host loop that launches it once a stride)

// ---- from Chapter03/03_cuda_thread_programming/03_threadsync_and_reduction/reduction_global_kernel.cu, lines 4-12
__global__ void
global_reduction_kernel(float *data_out, float *data_in, int stride, int size)
{
    int idx_x = blockIdx.x * blockDim.x + threadIdx.x;

    if (idx_x + stride < size) {
        data_out[idx_x] += data_in[idx_x + stride];
    }
}
