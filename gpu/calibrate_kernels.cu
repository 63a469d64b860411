// Microbenchmarks behind the measured numbers of a GPU profile (`validate calibrate --gpu`).
// Compiled by CuPy with NVRTC like every other kernel memsim runs on hardware. Each kernel keeps
// its result alive through a store that never happens (acc == sentinel) so nothing is optimised
// away, and varies its addresses with the repetition so loads are not hoisted out of loops.

#define SENTINEL 1.2345e-30f

extern "C" __global__ void k_cal_empty() {}

// Empty, with the arguments a typical recorded case passes (two buffers, two sizes): the
// launch cost from Python grows with the arguments CuPy has to marshal.
extern "C" __global__ void k_cal_empty_args(const float *in, float *out, int n, int m) {}

// Spin for `cycles` SM cycles: event time over cycles gives the SM clock under which we measure.
extern "C" __global__ void k_cal_clock(long long cycles, long long *out)
{
    long long start = clock64(), now = start;
    while (now - start < cycles) now = clock64();
    if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = now - start;
}

// Streaming copy: every byte read once and written once (grid-stride, 16-byte accesses).
extern "C" __global__ void k_cal_copy(const float4 *__restrict__ src, float4 *__restrict__ dst, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride) dst[i] = src[i];
}

// Streaming read: DRAM read bandwidth without writes.
extern "C" __global__ void k_cal_read(const float4 *__restrict__ src, float *out, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    float acc = 0.0f;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride) {
        float4 v = src[i];
        acc += v.x + v.y + v.z + v.w;
    }
    if (acc == SENTINEL) out[0] = acc;
}

// L2 bandwidth: every block re-reads a buffer that fits in L2, bypassing L1 (ld.global.cg).
// n is a power of two.
extern "C" __global__ void k_cal_l2_read(const float4 *__restrict__ src, float *out, size_t n, int reps)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t first = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int r = 0; r < reps; r++) {
        for (size_t i = first; i < n; i += stride) {
            float4 v = __ldcg(src + ((i + (size_t)r * 4096) & (n - 1)));
            acc += v.x + v.y + v.z + v.w;
        }
    }
    if (acc == SENTINEL) out[0] = acc;
}

// L1 throughput: each block re-reads a 16 KB window (1024 float4) through L1 (ld.global.ca).
extern "C" __global__ void k_cal_l1_read(const float4 *__restrict__ src, float *out, int reps)
{
    float acc = 0.0f;
    for (int r = 0; r < reps; r++) {
#pragma unroll 4
        for (int i = threadIdx.x; i < 1024; i += blockDim.x) {
            float4 v = __ldca(src + ((i + r * 32) & 1023));
            acc += v.x + v.y + v.z + v.w;
        }
    }
    if (acc == SENTINEL) out[0] = acc;
}

// Shared-memory throughput: word index (tid * a + r * b) mod 8192. a = 1, b = 32: conflict-free
// (one wavefront a request); a = 32, b = 1: every lane in one bank (32 wavefronts a request).
extern "C" __global__ void k_cal_shared(float *out, int reps, int a, int b)
{
    __shared__ float buf[8192];
    for (int i = threadIdx.x; i < 8192; i += blockDim.x) buf[i] = (float)i;
    __syncthreads();
    float acc = 0.0f;
#pragma unroll 8
    for (int r = 0; r < reps; r++) acc += buf[(threadIdx.x * a + r * b) & 8191];
    if (acc == SENTINEL) out[0] = acc;
}

// Pointer chase, one thread: every load's address is the previous load's value, so each step
// costs one full latency. The first pass warms the level being measured; the second is timed.
template <int LEVEL>
__device__ unsigned chase_load(const unsigned *p)
{
    if (LEVEL == 1) return __ldca(p);   // cached in L1
    return __ldcg(p);                   // L2 and below: bypass L1
}

template <int LEVEL>
__device__ void chase(const unsigned *next, int steps, unsigned *out, long long *cycles)
{
    unsigned j = 0;
    if (LEVEL != 3)
        for (int s = 0; s < steps; s++) j = chase_load<LEVEL>(next + j);
    long long start = clock64();
    for (int s = 0; s < steps; s++) j = chase_load<LEVEL>(next + j);
    long long stop = clock64();
    out[0] = j;
    cycles[0] = stop - start;
}

extern "C" __global__ void k_cal_chase_l1(const unsigned *next, int steps, unsigned *out, long long *cycles)
{ chase<1>(next, steps, out, cycles); }

extern "C" __global__ void k_cal_chase_l2(const unsigned *next, int steps, unsigned *out, long long *cycles)
{ chase<2>(next, steps, out, cycles); }

// DRAM: no warm-up pass, and a chain longer than the steps taken over a buffer larger than L2.
extern "C" __global__ void k_cal_chase_dram(const unsigned *next, int steps, unsigned *out, long long *cycles)
{ chase<3>(next, steps, out, cycles); }

extern "C" __global__ void k_cal_chase_shared(const unsigned *next, int steps, unsigned *out, long long *cycles)
{
    __shared__ unsigned chain[1024];
    for (int i = 0; i < 1024; i++) chain[i] = next[i];
    unsigned j = 0;
    long long start = clock64();
    for (int s = 0; s < steps; s++) j = chain[j];
    long long stop = clock64();
    out[0] = j;
    cycles[0] = stop - start;
}

// Global atomics at the L2. k_cal_atomic_unit: every warp instruction adds 1 to 32 consecutive
// int bins (128 B, four sectors: four packets, one operation per word) of 64 (256 B, one L2
// atomic unit), so the launch's packets queue at one unit: its time over the packets is one
// packet's cost. k_cal_atomic_float_one: every lane adds a float to one address (a packet per
// lane), each waiting for the previous add's result: its time over the adds is the add's latency.
extern "C" __global__ void k_cal_atomic_unit(int *bins, int reps)
{
    int lane = threadIdx.x & 31, half = (threadIdx.x >> 5) & 1;
    for (int r = 0; r < reps; r++) atomicAdd(bins + ((lane + 32 * (half ^ (r & 1))) & 63), 1);
}

extern "C" __global__ void k_cal_atomic_float_one(float *sum, int reps)
{
    for (int r = 0; r < reps; r++) atomicAdd(sum, 1.0f);
}
