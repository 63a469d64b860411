// Pre-registered public kernel (not written for memsim): Liu-xiandong/How_to_optimize_in_GPU
// files: reduce/reduce_v6_multi_add.cu
// commit 5d2def3e082c4e1364c3ade54451b7b9d1d6f044 (https://github.com/Liu-xiandong/How_to_optimize_in_GPU)
// Licence: Apache-2.0 (the repository's LICENSE, Apache License 2.0, names no copyright holder; full text in validate/prereg3/LICENSES.md).
//
// Edits (no kernel body changed):
// - reduce/reduce_v6_multi_add.cu: only lines 8-60 kept (the kernels and the device code and macros they use); the rest is host code
// - added after the copied code: explicit instantiations of the templates launched (NVRTC compiles no host code to instantiate them)

// ---- from reduce/reduce_v6_multi_add.cu, lines 8-60
#define THREAD_PER_BLOCK 256

template <unsigned int blockSize>
__device__ void warpReduce(volatile float* cache, unsigned int tid){
    if (blockSize >= 64)cache[tid]+=cache[tid+32];
    if (blockSize >= 32)cache[tid]+=cache[tid+16];
    if (blockSize >= 16)cache[tid]+=cache[tid+8];
    if (blockSize >= 8)cache[tid]+=cache[tid+4];
    if (blockSize >= 4)cache[tid]+=cache[tid+2];
    if (blockSize >= 2)cache[tid]+=cache[tid+1];
}

template <unsigned int blockSize, int NUM_PER_THREAD>
__global__ void reduce6(float *d_in,float *d_out, unsigned int n){
    __shared__ float sdata[blockSize];

    // each thread loads NUM_PER_THREAD element from global to shared mem
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * NUM_PER_THREAD) + threadIdx.x;

    sdata[tid] = 0;

    #pragma unroll
    for(int iter=0; iter<NUM_PER_THREAD; iter++){
        sdata[tid] += d_in[i+iter*blockSize];
    }
    
    __syncthreads();

    // do reduction in shared mem
    if (blockSize >= 512) {
        if (tid < 256) { 
            sdata[tid] += sdata[tid + 256]; 
        } 
        __syncthreads(); 
    }
    if (blockSize >= 256) {
        if (tid < 128) { 
            sdata[tid] += sdata[tid + 128]; 
        } 
        __syncthreads(); 
    }
    if (blockSize >= 128) {
        if (tid < 64) { 
            sdata[tid] += sdata[tid + 64]; 
        } 
        __syncthreads(); 
    }
    if (tid < 32) warpReduce<blockSize>(sdata, tid);
    
    // write result for this block to global mem
    if (tid == 0) d_out[blockIdx.x] = sdata[0];
}

// ---- added (see Edits): explicit instantiations of the templates launched
template __global__ void reduce6<256, 16>(float *, float *, unsigned int);
template __global__ void reduce6<128, 64>(float *, float *, unsigned int);
