// Corpus: sum reductions as people write them, from the textbook tree in shared memory to
// warp shuffles and one atomicAdd per block. Written for memsim's corpus; no code copied.
//
// The ladder is modelled on Mark Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA, 2007),
// as carried by NVIDIA/cuda-samples Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu
// (reduce0 .. reduce6: interleaved, sequential addressing, first add during load, unrolled last
// warp, templated block size) and by the NVIDIA blog "Faster Parallel Reductions on Kepler"
// (warp shuffles, atomicAdd of block partials).
//
// Inputs summed with atomicAdd are small integers stored as floats (init randint), so that
// every sum is exact and the result does not depend on the order the atomics land in.

// Interleaved addressing with a divergent modulo test (Harris' reduce0).
extern "C" __global__ void k_reduce_interleaved(const float* in, float* partial, int n) {
  extern __shared__ float sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

// Interleaved addressing with a strided index: no divergence, shared bank conflicts instead
// (Harris' reduce1).
extern "C" __global__ void k_reduce_strided_index(const float* in, float* partial, int n) {
  extern __shared__ float sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    unsigned int index = 2 * s * tid;
    if (index < blockDim.x) {
      sdata[index] += sdata[index + s];
    }
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

// Sequential addressing, two elements per thread added while loading (Harris' reduce2/3).
extern "C" __global__ void k_reduce_sequential(const float* in, float* partial, int n) {
  extern __shared__ float sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  float sum = (i < n) ? in[i] : 0.0f;
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] = sum = sum + sdata[tid + s];
    }
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sum;
}

// The last warp unrolled through a volatile pointer, no barriers (Harris' reduce4).
__device__ void warp_reduce_volatile(volatile float* s, unsigned int tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}

extern "C" __global__ void k_reduce_unroll_last_warp(const float* in, float* partial, int n) {
  __shared__ float sdata[256];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * 512 + threadIdx.x;
  float v = 0.0f;
  if (i < n) v = in[i];
  if (i + 256 < n) v += in[i + 256];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned int s = 128; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) warp_reduce_volatile(sdata, tid);
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

// Templated on the block size, completely unrolled, grid-stride loop of pairs (Harris' reduce6).
template <unsigned int BLOCK>
__global__ void k_reduce_complete_unroll(const float* __restrict__ in, float* __restrict__ partial,
                                         unsigned int n) {
  __shared__ float sdata[BLOCK];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (BLOCK * 2) + tid;
  unsigned int grid_size = BLOCK * 2 * gridDim.x;
  float sum = 0.0f;
  while (i < n) {
    sum += in[i];
    if (i + BLOCK < n) sum += in[i + BLOCK];
    i += grid_size;
  }
  sdata[tid] = sum;
  __syncthreads();
  if (BLOCK >= 512) { if (tid < 256) sdata[tid] = sum = sum + sdata[tid + 256]; __syncthreads(); }
  if (BLOCK >= 256) { if (tid < 128) sdata[tid] = sum = sum + sdata[tid + 128]; __syncthreads(); }
  if (BLOCK >= 128) { if (tid < 64) sdata[tid] = sum = sum + sdata[tid + 64]; __syncthreads(); }
  if (tid < 32) {
    if (BLOCK >= 64) sum += sdata[tid + 32];
    for (int offset = 16; offset > 0; offset /= 2) {
      sum += __shfl_down_sync(0xffffffff, sum, offset);
    }
  }
  if (tid == 0) partial[blockIdx.x] = sum;
}
template __global__ void k_reduce_complete_unroll<256>(const float* __restrict__, float* __restrict__, unsigned int);
template __global__ void k_reduce_complete_unroll<512>(const float* __restrict__, float* __restrict__, unsigned int);

// Warp reduction with __shfl_down_sync, per-warp sums through shared memory, one atomicAdd per
// block; grid-stride input loop. Launched as k_reduce_shfl<128> / <256>.
__inline__ __device__ float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  return v;
}

template <int BLOCK>
__global__ void k_reduce_shfl(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float warp_sums[BLOCK / 32];
  float sum = 0.0f;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += BLOCK * gridDim.x) {
    sum += in[i];
  }
  sum = warp_sum(sum);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = (lane < BLOCK / 32) ? warp_sums[lane] : 0.0f;
    sum = warp_sum(sum);
    if (lane == 0) atomicAdd(out, sum);
  }
}
template __global__ void k_reduce_shfl<128>(const float* __restrict__, float* __restrict__, int);
template __global__ void k_reduce_shfl<256>(const float* __restrict__, float* __restrict__, int);

// Butterfly (xor) shuffle: every lane ends with the warp's sum; float4 loads; each warp adds
// its sum with its own atomicAdd (no shared memory at all).
extern "C" __global__ void k_reduce_xor_float4(const float4* __restrict__ in, float* out, int n4) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
    float4 v = in[i];
    sum += (v.x + v.y) + (v.z + v.w);
  }
  for (int mask = 16; mask > 0; mask >>= 1) {
    sum += __shfl_xor_sync(0xffffffff, sum, mask);
  }
  if ((threadIdx.x & 31) == 0) atomicAdd(out, sum);
}

// Dot product: products reduced in a fixed-size shared array, one atomicAdd per block
// (modelled on cuda-samples Samples/2_Concepts_and_Techniques/scalarProd/scalarProd_kernel.cuh).
#define DOT_THREADS 256
extern "C" __global__ void k_dot(const float* a, const float* b, float* result, int n) {
  __shared__ float cache[DOT_THREADS];
  float temp = 0.0f;
  for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += blockDim.x * gridDim.x) {
    temp += a[i] * b[i];
  }
  cache[threadIdx.x] = temp;
  __syncthreads();
  for (int i = blockDim.x / 2; i != 0; i /= 2) {
    if (threadIdx.x < i) cache[threadIdx.x] += cache[threadIdx.x + i];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(result, cache[0]);
}

// Max reduction over ints (atomicMax exists for int): shuffles, then one atomic per warp.
extern "C" __global__ void k_reduce_max_int(const int* in, int* out, int n) {
  int best = -2147483647 - 1;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    best = max(best, in[i]);
  }
  for (int offset = 16; offset > 0; offset >>= 1) {
    best = max(best, __shfl_down_sync(0xffffffff, best, offset));
  }
  if ((threadIdx.x & 31) == 0) atomicMax(out, best);
}
