// L1 throughput of global loads that hit L1, against how a warp request's lanes spread over
// 128-byte lines: is a scattered request's cost one L1 pipe slot per line, as the timing
// simulation charges (1 / shared_wavefronts_per_clk_per_sm), or less?
//
// k_l1_stride: 16 blocks of 128 threads an SM (64 warps). Lane l of a warp loads word
// stride * l + (o mod 32) for 64 offsets o an iteration (ld.global.ca, 4 bytes a lane: ptxas
// merges the loads of equal addresses, so ncu's request count, not 64, is what a warp issues),
// adding each to one of 8 chains. stride 1: one line a request; 32: 32 adjacent lines; 49: 32
// lines 196 bytes apart, as a 7x7 pooling window per thread reads; 64: every other line. The
// window (at most 32 * stride words, shifted by a line each iteration) stays in L1 after the
// first lap. ncu's duration at two iteration counts gives the SM cycles per request:
// (t2 - t1) * base clock / (requests2 - requests1) * SMs.
#define CHAINS(S) S(0) S(1) S(2) S(3) S(4) S(5) S(6) S(7)
#define ROUNDS(S) S(0) S(1) S(2) S(3) S(4) S(5) S(6) S(7)

extern "C" __global__ void __launch_bounds__(128, 16)
k_l1_stride(const unsigned *window, int stride, int iters, unsigned *out)
{
    unsigned lane = threadIdx.x & 31;
    const unsigned *base = window + stride * lane;
    unsigned x0 = 0, x1 = 0, x2 = 0, x3 = 0, x4 = 0, x5 = 0, x6 = 0, x7 = 0;
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        const unsigned *at = base + 32 * (i & 7);
#define S_LD(k) asm volatile("{ .reg .u32 t; ld.global.ca.u32 t, [%1]; add.u32 %0, %0, t; }" \
                             : "+r"(x##k) : "l"(at + ((8 * r + k) & 31)));
#define S_ROUND(r_) { const int r = r_; CHAINS(S_LD) }
        ROUNDS(S_ROUND)
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}
