// Pre-registered public kernel (not written for memsim): gpu-mode/lectures
// files: lecture_002/rgb_to_grayscale/grayscale_kernel.cu
// commit 7cb40f67ad68f59a7c13e9a8c4d8a816a3c68e7a (https://github.com/gpu-mode/lectures)
// Licence: Apache-2.0 (LICENSE of the repository).
//
// Edits (no kernel body changed):
// - host/toolkit #includes commented out (`// removed:`): <c10/cuda/CUDAException.h>, <c10/cuda/CUDAStream.h>
// - lecture_002/rgb_to_grayscale/grayscale_kernel.cu: only lines 1-21 kept (the kernels and the device code and macros they use); the rest is host code


// ---- from lecture_002/rgb_to_grayscale/grayscale_kernel.cu, lines 1-21
// removed: #include <c10/cuda/CUDAException.h>
// removed: #include <c10/cuda/CUDAStream.h>


__global__
void rgb_to_grayscale_kernel(unsigned char* output, unsigned char* input, int width, int height) {
    const int channels = 3;

    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col < width && row < height) {
        int outputOffset = row * width + col;
        int inputOffset = (row * width + col) * channels;

        unsigned char r = input[inputOffset + 0];   // red
        unsigned char g = input[inputOffset + 1];   // green
        unsigned char b = input[inputOffset + 2];   // blue

        output[outputOffset] = (unsigned char)(0.21f * r + 0.71f * g + 0.07f * b);
    }
}

