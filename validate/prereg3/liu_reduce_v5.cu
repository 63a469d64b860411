// Pre-registered public kernel (not written for memsim): Liu-xiandong/How_to_optimize_in_GPU
// files: reduce/reduce_v5_completely_unroll.cu
// commit 5d2def3e082c4e1364c3ade54451b7b9d1d6f044 (https://github.com/Liu-xiandong/How_to_optimize_in_GPU)
// Licence: Apache-2.0 (the repository's LICENSE, Apache License 2.0, names no copyright holder; full text in validate/prereg3/LICENSES.md).
//
// Edits (no kernel body changed):
// - reduce/reduce_v5_completely_unroll.cu: only lines 8-53 kept (the kernels and the device code and macros they use); the rest is host code
// - added after the copied code: explicit instantiations of the templates launched (NVRTC compiles no host code to instantiate them)

// ---- from reduce/reduce_v5_completely_unroll.cu, lines 8-53
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

template <unsigned int blockSize>
__global__ void reduce5(float *d_in,float *d_out){
    __shared__ float sdata[THREAD_PER_BLOCK];

    // each thread loads one element from global to shared mem
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    sdata[tid] = d_in[i] + d_in[i + blockDim.x];
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
template __global__ void reduce5<256>(float *, float *);
