// Pre-registered public kernel (not written for memsim): Liu-xiandong/How_to_optimize_in_GPU
// files: reduce/reduce_v7_shuffle.cu
// commit 5d2def3e082c4e1364c3ade54451b7b9d1d6f044 (https://github.com/Liu-xiandong/How_to_optimize_in_GPU)
// Licence: Apache-2.0 (the repository's LICENSE, Apache License 2.0, names no copyright holder; full text in validate/prereg3/LICENSES.md).
//
// Edits (no kernel body changed):
// - reduce/reduce_v7_shuffle.cu: only lines 8-49 kept (the kernels and the device code and macros they use); the rest is host code
// - added after the copied code: explicit instantiations of the templates launched (NVRTC compiles no host code to instantiate them)

// ---- from reduce/reduce_v7_shuffle.cu, lines 8-49
#define THREAD_PER_BLOCK 256
#define WARP_SIZE 32

template <unsigned int blockSize>
__device__ __forceinline__ float warpReduceSum(float sum) {
    if (blockSize >= 32)sum += __shfl_down_sync(0xffffffff, sum, 16); // 0-16, 1-17, 2-18, etc.
    if (blockSize >= 16)sum += __shfl_down_sync(0xffffffff, sum, 8);// 0-8, 1-9, 2-10, etc.
    if (blockSize >= 8)sum += __shfl_down_sync(0xffffffff, sum, 4);// 0-4, 1-5, 2-6, etc.
    if (blockSize >= 4)sum += __shfl_down_sync(0xffffffff, sum, 2);// 0-2, 1-3, 4-6, 5-7, etc.
    if (blockSize >= 2)sum += __shfl_down_sync(0xffffffff, sum, 1);// 0-1, 2-3, 4-5, etc.
    return sum;
}

template <unsigned int blockSize, int NUM_PER_THREAD>
__global__ void reduce7(float *d_in,float *d_out, unsigned int n){
    float sum = 0;

    // each thread loads one element from global to shared mem
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * NUM_PER_THREAD) + threadIdx.x;

    #pragma unroll
    for(int iter=0; iter<NUM_PER_THREAD; iter++){
        sum += d_in[i+iter*blockSize];
    }
    
    // Shared mem for partial sums (one per warp in the block)
    static __shared__ float warpLevelSums[WARP_SIZE]; 
    const int laneId = threadIdx.x % WARP_SIZE;
    const int warpId = threadIdx.x / WARP_SIZE;

    sum = warpReduceSum<blockSize>(sum);

    if(laneId == 0 )warpLevelSums[warpId] = sum;
    __syncthreads();
    // read from shared memory only if that warp existed
    sum = (threadIdx.x < blockDim.x / WARP_SIZE) ? warpLevelSums[laneId] : 0;
    // Final reduce using first warp
    if (warpId == 0) sum = warpReduceSum<blockSize/WARP_SIZE>(sum); 
    // write result for this block to global mem
    if (tid == 0) d_out[blockIdx.x] = sum;
}

// ---- added (see Edits): explicit instantiations of the templates launched
template __global__ void reduce7<256, 16>(float *, float *, unsigned int);
template __global__ void reduce7<256, 32>(float *, float *, unsigned int);
template __global__ void reduce7<1024, 256>(float *, float *, unsigned int);
