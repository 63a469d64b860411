// Pre-registered public kernel (not written for memsim): KernelTuner/kernel_tuner
// files: examples/cuda/stencil.cu
// commit 96a6abc1019179397753c4afede9149a80aec369 (https://github.com/KernelTuner/kernel_tuner)
// Licence: Apache-2.0 (the repository's LICENSE, Apache License 2.0; full text in validate/prereg5/LICENSES.md).
//
// Edits (no kernel body changed):
// - examples/cuda/stencil.cu: whole (one kernel, stencil_kernel, a 4096 x 2048 domain)
// - added `#define block_size_x 32`, `#define block_size_y 8`: the tunable parameters Kernel Tuner defines before it compiles examples/cuda/stencil.cu (one configuration of its search space)

// ---- added (see Edits)
#define block_size_x 32
#define block_size_y 8

// ---- from examples/cuda/stencil.cu, lines 1-18

#define domain_width    4096
#define domain_height   2048

__global__ void stencil_kernel(float *x_new, float *x_old) {
    int x = blockIdx.x * block_size_x + threadIdx.x;
    int y = blockIdx.y * block_size_y + threadIdx.y;

    if (y>0 && y<domain_height-1 && x>0 && x<domain_width-1) {

    x_new[y*domain_width+x] = ( x_old[ (y  ) * domain_width + (x  ) ] +
                                x_old[ (y  ) * domain_width + (x-1) ] +
                                x_old[ (y  ) * domain_width + (x+1) ] +
                                x_old[ (y+1) * domain_width + (x  ) ] +
                                x_old[ (y-1) * domain_width + (x  ) ] ) / 5.0f;

    }
}
