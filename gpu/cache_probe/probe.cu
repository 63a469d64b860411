// Microbenchmarks behind memsim's cache model (docs/caches.md): how the H100 counts L1 and L2
// sectors when several SMs or warps touch the same sectors close together in time.
__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned long long gtimer() {
  unsigned long long r; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r)); return r;
}
__device__ __forceinline__ void spin(long long cycles) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {}
}

// Every block's first warp reads the same 32 sectors (lane i: in[i * stride]) after waiting
// blockIdx.x * delay cycles; the block records its SM and the time of the load.
extern "C" __global__ void k_bcast(const float* in, float* out, int* sm, unsigned long long* when,
                                   long long delay, int stride) {
  if (delay > 0) spin(delay * blockIdx.x);
  if (threadIdx.x < 32) {
    unsigned long long t = gtimer();
    float v = in[threadIdx.x * stride];
    out[blockIdx.x * 32 + threadIdx.x] = v;
    if (threadIdx.x == 0) { sm[blockIdx.x] = smid(); when[blockIdx.x] = t; }
  }
}

// One block; warp w waits w * delay cycles, then writes bytes 4w..4w+3 of 32 sectors
// (lane i: out[i * 8 + w]): 4 warps, 32 sectors, 128 sector writes before any merging.
extern "C" __global__ void k_stmerge(float* out, long long delay) {
  int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (delay > 0) spin(delay * w);
  out[lane * 8 + w] = 1.0f;
}

// Blocks on different SMs write different 4-byte words of the same 32 sectors at once.
extern "C" __global__ void k_stmerge_sms(float* out) {
  out[threadIdx.x * 8 + blockIdx.x % 8] = 1.0f;
}

// One warp: store to sectors A (word 0), then `gap` stores to other sectors, then to A (word 1).
extern "C" __global__ void k_stgap(float* out, int gap) {
  int lane = threadIdx.x;
  out[lane * 8] = 1.0f;
  for (int g = 0; g < gap; g++) out[4096 + g * 256 + lane * 8] = 2.0f;
  out[lane * 8 + 1] = 3.0f;
}

// One block of `blockDim.x` threads: every warp reads the same 32 sectors; warp w waits
// w * delay cycles first (pending sectors: hit or miss in L1?).
extern "C" __global__ void k_warps_same(const float* in, float* out, long long delay) {
  int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (delay > 0) spin(delay * w);
  out[threadIdx.x] = in[lane * 32];
}

extern "C" __global__ void k_empty(float* out) {
  if (threadIdx.x == 1000000) out[0] = 0.0f;
}
