// sm_90 instructions the SASS engine learns, each in a small launch recorded on the H100
// (validate/sm90_probes.py writes the case list; gpu/measure_on_device.sh file records it).
#include <cuda_fp16.h>

// VIMNMX3: sm_90's three-way integer min/max, from nested min/max
extern "C" __global__ void k_min3(const int* a, const int* b, const int* c, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = min(a[i], min(b[i], c[i]));
}
extern "C" __global__ void k_max3u(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = max(a[i], max(b[i], c[i])) - min(a[i], min(b[i], c[i]));
}

// BRX: a dense switch becomes a jump table
extern "C" __global__ void k_switch(const int* sel, const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    switch (sel[i] & 15) {
        case 0: out[i] = v + 1.0f; break;
        case 1: out[(i + 1) % n] = v * 3.0f; break;
        case 2: out[i] = x[(i + 32) % n]; break;
        case 3: out[i] = __sinf(v); break;
        case 4: out[i] = x[(i * 7) % n] * 2.0f; break;
        case 5: out[i] = sqrtf(v); break;
        case 6: atomicAdd(out + (i % 64), v); break;
        case 7: out[i] = __expf(v); break;
        case 8: out[i] = x[(i * 3) % n] - v; break;
        case 9: out[(i * 5) % n] = v; break;
        case 10: out[i] = v * v * v; break;
        case 11: out[i] = rsqrtf(v + 1.0f); break;
        case 12: out[i] = x[i ^ 1]; break;
        case 13: out[i] = __logf(v + 2.0f); break;
        default: out[i] = 0.5f * v; break;
    }
}

// BRX from PTX's brx.idx: an indexed jump over four targets
extern "C" __global__ void k_brx(const unsigned* sel, const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i], r;
    asm volatile("{\n .reg .u32 idx;\n and.b32 idx, %1, 3;\n"
                 " targets: .branchtargets T0, T1, T2, T3;\n brx.idx idx, targets;\n"
                 " T0: add.f32 %0, %2, 1.0;\n bra.uni DONE;\n"
                 " T1: mul.f32 %0, %2, 3.0;\n bra.uni DONE;\n"
                 " T2: sub.f32 %0, %2, 7.0;\n bra.uni DONE;\n"
                 " T3: mul.f32 %0, %2, %2;\n"
                 " DONE:\n}" : "=f"(r) : "r"(sel[i]), "f"(v));
    out[i] = r;
}

// ldmatrix / stmatrix, x1, x2, x4, and transposed: a warp's 8x8 16-bit matrices in shared memory
#define LDSM(N, SUFFIX, REGS, OUTS)                                                              \
extern "C" __global__ void k_ldsm_##N(const unsigned* in, unsigned* out, int stride) {          \
    __shared__ unsigned tile[32 * 36];                                                         \
    for (int k = threadIdx.x; k < 32 * 36; k += blockDim.x) tile[k] = in[blockIdx.x * 32 * 36 + k]; \
    __syncthreads();                                                                           \
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;                                      \
    unsigned addr = (unsigned)__cvta_generic_to_shared(&tile[(lane * stride + warp * 4) % (32 * 32)]); \
    unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;                                                   \
    asm volatile("ldmatrix.sync.aligned.m8n8" SUFFIX ".shared.b16 " REGS ", [%" #OUTS "];"      \
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));                      \
    unsigned* o = out + (blockIdx.x * blockDim.x + threadIdx.x) * 4;                           \
    o[0] = r0; o[1] = r1; o[2] = r2; o[3] = r3;                                                \
}
LDSM(x1, ".x1", "{%0}", 4)
LDSM(x2, ".x2", "{%0, %1}", 4)
LDSM(x4, ".x4", "{%0, %1, %2, %3}", 4)
LDSM(x4_trans, ".x4.trans", "{%0, %1, %2, %3}", 4)
LDSM(x2_trans, ".x2.trans", "{%0, %1}", 4)

#define STSM(N, SUFFIX, REGS)                                                                    \
extern "C" __global__ void k_stsm_##N(const unsigned* in, unsigned* out, int stride) {          \
    __shared__ unsigned tile[32 * 36];                                                         \
    for (int k = threadIdx.x; k < 32 * 36; k += blockDim.x) tile[k] = 0;                       \
    __syncthreads();                                                                           \
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;                                      \
    unsigned addr = (unsigned)__cvta_generic_to_shared(&tile[(lane * stride + warp * 4) % (32 * 32)]); \
    const unsigned* v = in + (blockIdx.x * blockDim.x + threadIdx.x) * 4;                      \
    unsigned r0 = v[0], r1 = v[1], r2 = v[2], r3 = v[3];                                       \
    if (warp == 0)                                                                             \
        asm volatile("stmatrix.sync.aligned.m8n8" SUFFIX ".shared.b16 [%0], " REGS ";"          \
                     :: "r"(addr), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");            \
    __syncthreads();                                                                           \
    for (int k = threadIdx.x; k < 32 * 36; k += blockDim.x) out[blockIdx.x * 32 * 36 + k] = tile[k]; \
}
STSM(x1, ".x1", "{%1}")
STSM(x2, ".x2", "{%1, %2}")
STSM(x4, ".x4", "{%1, %2, %3, %4}")
STSM(x4_trans, ".x4.trans", "{%1, %2, %3, %4}")

// elect.sync: one lane of the warp is elected; it alone writes
extern "C" __global__ void k_elect(const int* x, int* out) {
    unsigned is_elected = 0;
    asm volatile("{\n .reg .pred p;\n elect.sync _|p, 0xffffffff;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(is_elected));
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (is_elected) out[i / 32] = x[i] + (threadIdx.x & 31);
}

// mbarrier: init by one thread, every thread arrives, all wait on the phase's parity
extern "C" __global__ void k_mbarrier(const float* x, float* out) {
    __shared__ unsigned long long bar;
    __shared__ float buf[256];
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(b), "r"(blockDim.x));
    __syncthreads();
    buf[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
    unsigned long long state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
    asm volatile("{\n .reg .pred done;\n wait:\n mbarrier.try_wait.parity.shared.b64 done, [%0], 0;\n"
                 " @!done bra wait;\n}" :: "r"(b) : "memory");
    out[blockIdx.x * blockDim.x + threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x];
}

// cp.async.bulk: one thread copies a row of N bytes global -> shared, completing on an mbarrier
template <int N>
__device__ void bulk_row(const float* src, float* dst) {
    __shared__ alignas(128) float buf[N / 4];
    __shared__ unsigned long long bar;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned s = (unsigned)__cvta_generic_to_shared(buf);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"(b));
        asm volatile("fence.proxy.async.shared::cta;");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" :: "r"(b), "r"(N) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     :: "r"(s), "l"(src + blockIdx.x * (N / 4)), "r"(N), "r"(b) : "memory");
    }
    asm volatile("{\n .reg .pred done;\n wait:\n mbarrier.try_wait.parity.shared.b64 done, [%0], 0;\n"
                 " @!done bra wait;\n}" :: "r"(b) : "memory");
    for (int k = threadIdx.x; k < N / 4; k += blockDim.x) dst[blockIdx.x * (N / 4) + k] = buf[k] + 1.0f;
}
extern "C" __global__ void k_bulk_4k(const float* src, float* dst) { bulk_row<4096>(src, dst); }
extern "C" __global__ void k_bulk_1k(const float* src, float* dst) { bulk_row<1024>(src, dst); }
