// Instruction-level microbenchmarks for a warp-level timing model (gpu/microbench.py runs them
// under `validate calibrate --gpu`; docs/microbenchmarks.md says what each isolates).
//
// k_lat_*: one warp runs LAT_UNROLL dependent instructions per loop iteration, `iters` times,
//          between two clock64 reads; the host launches two iteration counts and takes the
//          difference, so the clock reads, the loop's entry and the last result's drain cancel.
// k_tp_*:  blocks of TP_THREADS threads; every thread runs TP_CHAINS independent chains of
//          TP_UNROLL instructions per iteration. Each block writes (SM id, start, stop) from clock64
//          around the loop (after a barrier on both sides); the host adds up the warp instructions
//          of the blocks on one SM and divides by that SM's span.
// Operands come from `seed` (runtime values) so nothing folds; results go to `out`. The chains are
// written in inline PTX where the C form would let NVVM or ptxas merge or reassociate steps.
// tests/gpu/test_microbench_sass.py checks in the SASS that each loop body holds the counted
// instructions.

#define LAT_UNROLL 32
#define TP_UNROLL 8
#define TP_CHAINS 8
#define TP_THREADS 128

#define REP4(S) S S S S
#define REP8(S) REP4(S) REP4(S)
#define REP32(S) REP8(S) REP8(S) REP8(S) REP8(S)

// ---- latency: one warp, a dependent chain --------------------------------------------------

#define LAT_KERNEL(NAME, T, STEP)                                                               \
extern "C" __global__ void k_lat_##NAME(const T *seed, int iters, long long *cycles, T *out)  \
{                                                                                               \
    T x = seed[threadIdx.x & 31], a = seed[32], b = seed[33];                                  \
    long long start = clock64();                                                                \
    _Pragma("unroll 1")                                                                         \
    for (int i = 0; i < iters; i++) { REP32(STEP) }                                            \
    long long stop = clock64();                                                                 \
    out[threadIdx.x] = x + a + b;                                                               \
    if (threadIdx.x == 0) cycles[0] = stop - start;                                            \
}

LAT_KERNEL(ffma, float, x = fmaf(x, a, b);)
LAT_KERNEL(fadd, float, asm volatile("add.f32 %0, %0, %1;" : "+f"(x) : "f"(a));)
LAT_KERNEL(imad, unsigned, asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(a), "r"(b));)
LAT_KERNEL(iadd3, unsigned, asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(a));)
LAT_KERNEL(mufu_rcp, float, asm volatile("{ .reg .f32 t; abs.ftz.f32 t, %0; rcp.approx.ftz.f32 %0, t; }" : "+f"(x));)
LAT_KERNEL(mufu_ex2, float, asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x));)
LAT_KERNEL(mufu_rsq, float, asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(x));)
LAT_KERNEL(mufu_sin, float, asm volatile("sin.approx.ftz.f32 %0, %0;" : "+f"(x));)
LAT_KERNEL(dfma, double, asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(x) : "d"(a), "d"(b));)
LAT_KERNEL(dadd, double, asm volatile("add.rn.f64 %0, %0, %1;" : "+d"(x) : "d"(a));)
LAT_KERNEL(hfma2, unsigned, asm volatile("fma.rn.f16x2 %0, %0, %1, %2;" : "+r"(x) : "r"(a), "r"(b));)
LAT_KERNEL(f2i_i2f, float,
           { int i; asm volatile("cvt.rzi.s32.f32 %0, %1;" : "=r"(i) : "f"(x));
             asm volatile("cvt.rn.f32.s32 %0, %1;" : "=f"(x) : "r"(i)); })
LAT_KERNEL(popc, unsigned, asm volatile("popc.b32 %0, %0;" : "+r"(x));)
LAT_KERNEL(flo, unsigned, asm volatile("bfind.u32 %0, %0;" : "+r"(x));)
// the high half is the next multiplicand (ptxas splits a mad.wide with a register addend into
// IMAD.WIDE + IADD3 pairs, so there is no addend)
LAT_KERNEL(imad_wide, unsigned long long,
           asm volatile("mul.wide.u32 %0, %1, %2;" : "=l"(x) : "r"((unsigned)(x >> 32)), "r"((unsigned)a));)
LAT_KERNEL(shfl_idx, unsigned, x = __shfl_sync(0xffffffffu, x, (int)((threadIdx.x + a) & 31));)
LAT_KERNEL(shfl_bfly, unsigned, x = __shfl_xor_sync(0xffffffffu, x, 1);)

// Constant-cache hit: c[] read at a register offset (the table is zero, so the offset stays 0).
__constant__ unsigned k_lat_ctab[64];
LAT_KERNEL(ldc, unsigned, x = *(const unsigned *)((const char *)k_lat_ctab + x);)

// Shared memory: the chain's value is the shared address it loads from (each lane its own word:
// no bank conflict). `seed` holds 0 for these kernels: the setup turns it into the address.
#define SHARED_SETUP                                                                           \
    __shared__ unsigned sm_words[64 * 4];                                                       \
    unsigned lane = threadIdx.x & 31;                                                           \
    unsigned addr = (unsigned)__cvta_generic_to_shared(sm_words + lane);                       \
    sm_words[lane] = addr;                                                                      \
    __syncwarp();

#define SHARED_LAT_KERNEL(NAME, STEP)                                                          \
extern "C" __global__ void k_lat_##NAME(const unsigned *seed, int iters, long long *cycles, unsigned *out) \
{                                                                                               \
    SHARED_SETUP                                                                                \
    unsigned x = addr + seed[lane];                                                             \
    long long start = clock64();                                                                \
    _Pragma("unroll 1")                                                                         \
    for (int i = 0; i < iters; i++) { REP32(STEP) }                                            \
    long long stop = clock64();                                                                 \
    out[threadIdx.x] = x;                                                                       \
    if (threadIdx.x == 0) cycles[0] = stop - start;                                            \
}

SHARED_LAT_KERNEL(lds, asm volatile("ld.volatile.shared.u32 %0, [%0];" : "+r"(x) :: "memory");)
// store the value back where it came from, then load it: a load that must see the store
SHARED_LAT_KERNEL(sts_lds, asm volatile("st.volatile.shared.u32 [%0], %0;\n\t"
                                        "ld.volatile.shared.u32 %0, [%0];" : "+r"(x) :: "memory");)
SHARED_LAT_KERNEL(atoms, asm volatile("atom.shared.add.u32 %0, [%0], 0;" : "+r"(x) :: "memory");)

// ldmatrix .x1: lanes 0-7 give the 8 row addresses; lane t receives 32-bit word t of the 128 bytes.
// Word t holds the address of row t, so every lane's result is its next row address.
extern "C" __global__ void k_lat_ldsm(const unsigned *seed, int iters, long long *cycles, unsigned *out)
{
    __shared__ __align__(128) unsigned rows[32];
    unsigned lane = threadIdx.x & 31;
    unsigned base = (unsigned)__cvta_generic_to_shared(rows);
    rows[lane] = base + 16 * (lane & 7);
    __syncwarp();
    unsigned x = base + 16 * (lane & 7) + seed[lane];
    long long start = clock64();
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        REP32(asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%0];" : "+r"(x) :: "memory");)
    }
    long long stop = clock64();
    out[threadIdx.x] = x;
    if (threadIdx.x == 0) cycles[0] = stop - start;
}

// Global atomic with return on one hot 128-byte line (each lane its own word), L2 round trip.
extern "C" __global__ void k_lat_atomg(unsigned *line, int iters, long long *cycles, unsigned *out)
{
    unsigned *word = line + (threadIdx.x & 31);
    unsigned x = 0;
    long long start = clock64();
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        REP32(asm volatile("atom.global.add.u32 %0, [%1], %0;" : "+r"(x) : "l"(word) : "memory");)
    }
    long long stop = clock64();
    out[threadIdx.x] = x;
    if (threadIdx.x == 0) cycles[0] = stop - start;
}

// HMMA m16n8k16 f16 -> f32: the accumulator is the chain.
#define MMA_STEP(D, A, B)                                                                      \
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" \
                 : "+f"(D[0]), "+f"(D[1]), "+f"(D[2]), "+f"(D[3])                              \
                 : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]));

extern "C" __global__ void k_lat_hmma(const unsigned *seed, int iters, long long *cycles, float *out)
{
    unsigned lane = threadIdx.x & 31, a[4], b[2];
    for (int k = 0; k < 4; k++) a[k] = seed[(lane + k) & 31];
    for (int k = 0; k < 2; k++) b[k] = seed[(lane + 7 * k) & 31];
    float d[4] = {0.f, 0.f, 0.f, 0.f};
    long long start = clock64();
#pragma unroll 1
    for (int i = 0; i < iters; i++) { REP32(MMA_STEP(d, a, b)) }
    long long stop = clock64();
    out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];
    if (threadIdx.x == 0) cycles[0] = stop - start;
}

// S2R: no register feeds a special-register read, so its latency is bracketed instead: clock,
// S2R SR_VIRTID (%warpid: not hoisted or merged), a use that waits for it, clock; the host
// subtracts k_lat_s2r_base (the same bracket around a fixed-latency move).
#define S2R_KERNEL(NAME, READ)                                                                 \
extern "C" __global__ void k_lat_##NAME(const unsigned *seed, int iters, long long *cycles, unsigned *out) \
{                                                                                               \
    unsigned x = seed[threadIdx.x & 31], v;                                                     \
    long long total = 0;                                                                        \
    _Pragma("unroll 1")                                                                         \
    for (int i = 0; i < iters; i++) {                                                           \
        long long start = clock64();                                                            \
        READ;                                                                                   \
        asm volatile("xor.b32 %0, %0, %1;" : "+r"(x) : "r"(v) : "memory");                     \
        asm volatile("" :: "r"(x) : "memory");                                                  \
        total += clock64() - start;                                                             \
    }                                                                                           \
    out[threadIdx.x] = x;                                                                       \
    if (threadIdx.x == 0) cycles[0] = total;                                                    \
}
S2R_KERNEL(s2r, asm volatile("mov.u32 %0, %%warpid;" : "=r"(v) :: "memory"))
S2R_KERNEL(s2r_base, asm volatile("bfe.u32 %0, %1, 8, 7;" : "=r"(v) : "r"(x) : "memory"))

// Barrier round: every warp of the block arrives together, LAT_UNROLL barriers an iteration.
extern "C" __global__ void k_lat_bar(const unsigned *seed, int iters, long long *cycles, unsigned *out)
{
    long long start = clock64();
#pragma unroll 1
    for (int i = 0; i < iters; i++) { REP32(__syncthreads();) }
    long long stop = clock64();
    if (threadIdx.x == 0) cycles[0] = stop - start;
}

// MEMBAR.GPU (__threadfence) with nothing outstanding.
extern "C" __global__ void k_lat_membar(const unsigned *seed, int iters, long long *cycles, unsigned *out)
{
    long long start = clock64();
#pragma unroll 1
    for (int i = 0; i < iters; i++) { REP32(__threadfence();) }
    long long stop = clock64();
    if (threadIdx.x == 0) cycles[0] = stop - start;
}

// ---- throughput: many warps, independent chains ---------------------------------------------

#define CHAINS(S) S(0) S(1) S(2) S(3) S(4) S(5) S(6) S(7)
#define TP_RECORD                                                                               \
    __syncthreads();                                                                            \
    long long stop = clock64();                                                                 \
    if (threadIdx.x == 0) {                                                                     \
        unsigned smid; asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));                      \
        times[3 * blockIdx.x] = start; times[3 * blockIdx.x + 1] = stop; times[3 * blockIdx.x + 2] = smid; \
    }

#define TP_KERNEL(NAME, T, STEP)                                                                \
extern "C" __global__ void __launch_bounds__(TP_THREADS, 16)                                    \
k_tp_##NAME(const T *seed, int iters, long long *times, T *out)                                 \
{                                                                                               \
    unsigned lane = threadIdx.x & 31;                                                           \
    T a = seed[32], b = seed[33];                                                               \
    T x0 = seed[lane], x1 = seed[(lane + 1) & 31], x2 = seed[(lane + 2) & 31], x3 = seed[(lane + 3) & 31], \
      x4 = seed[(lane + 4) & 31], x5 = seed[(lane + 5) & 31], x6 = seed[(lane + 6) & 31], x7 = seed[(lane + 7) & 31]; \
    __syncthreads();                                                                            \
    long long start = clock64();                                                                \
    _Pragma("unroll 1")                                                                         \
    for (int i = 0; i < iters; i++) { REP8(CHAINS(STEP)) }                                      \
    TP_RECORD                                                                                   \
    out[blockIdx.x * TP_THREADS + threadIdx.x] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;         \
}

#define S_FFMA(k) x##k = fmaf(x##k, a, b);
#define S_FADD(k) asm volatile("add.f32 %0, %0, %1;" : "+f"(x##k) : "f"(a));
#define S_FMUL(k) asm volatile("mul.f32 %0, %0, %1;" : "+f"(x##k) : "f"(a));
#define S_IMAD(k) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x##k) : "r"(a), "r"(b));
#define S_IADD3(k) asm volatile("add.u32 %0, %0, %1;" : "+r"(x##k) : "r"(a));
#define S_LOP3(k) asm volatile("lop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(x##k) : "r"(a), "r"(b));
#define S_ISETP(k) asm volatile("{ .reg .pred p; setp.lt.u32 p, %0, %1; selp.u32 %0, %0, %2, p; }" : "+r"(x##k) : "r"(a), "r"(b));
#define S_FSETP(k) asm volatile("{ .reg .pred p; setp.lt.f32 p, %0, %1; selp.f32 %0, %0, %2, p; }" : "+f"(x##k) : "f"(a), "f"(b));
#define S_MUFU(k) asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x##k));
#define S_DFMA(k) asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(x##k) : "d"(a), "d"(b));
#define S_HFMA2(k) asm volatile("fma.rn.f16x2 %0, %0, %1, %2;" : "+r"(x##k) : "r"(a), "r"(b));
#define S_CVT(k) { int i_; asm volatile("cvt.rzi.s32.f32 %0, %1;" : "=r"(i_) : "f"(x##k)); \
                   asm volatile("cvt.rn.f32.s32 %0, %1;" : "=f"(x##k) : "r"(i_)); }
#define S_SHFL(k) x##k = __shfl_xor_sync(0xffffffffu, x##k, 1);

TP_KERNEL(ffma, float, S_FFMA)
TP_KERNEL(fadd, float, S_FADD)
TP_KERNEL(fmul, float, S_FMUL)
TP_KERNEL(imad, unsigned, S_IMAD)
TP_KERNEL(iadd3, unsigned, S_IADD3)
TP_KERNEL(lop3, unsigned, S_LOP3)
TP_KERNEL(isetp, unsigned, S_ISETP)
TP_KERNEL(fsetp, float, S_FSETP)
TP_KERNEL(mufu, float, S_MUFU)
TP_KERNEL(dfma, double, S_DFMA)
TP_KERNEL(hfma2, unsigned, S_HFMA2)
TP_KERNEL(f2i_i2f, float, S_CVT)
TP_KERNEL(shfl, unsigned, S_SHFL)

// Shared loads and stores: chain k of a lane always uses word (k * 32 + lane): conflict-free.
// The loaded values are not used (volatile keeps the loads); a chain's next load waits only for
// its register (ptxas' write-after-write scoreboard), so 8 are in flight per warp.
#define TP_MEM_KERNEL(NAME, SETUP, STEP)                                                  \
extern "C" __global__ void __launch_bounds__(TP_THREADS, 16)                                    \
k_tp_##NAME(const unsigned *seed, int iters, long long *times, unsigned *out)                   \
{                                                                                               \
    SETUP                                                                                       \
    unsigned x0 = 0, x1 = 0, x2 = 0, x3 = 0, x4 = 0, x5 = 0, x6 = 0, x7 = 0;                    \
    __syncthreads();                                                                            \
    long long start = clock64();                                                                \
    _Pragma("unroll 1")                                                                         \
    for (int i = 0; i < iters; i++) { REP8(CHAINS(STEP)) }                            \
    TP_RECORD                                                                                   \
    out[blockIdx.x * TP_THREADS + threadIdx.x] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;         \
}

#define SHARED_TP_SETUP                                                                         \
    __shared__ unsigned words[TP_CHAINS * 32];                                                  \
    unsigned lane = threadIdx.x & 31;                                                           \
    unsigned base = (unsigned)__cvta_generic_to_shared(words) + 4 * lane + 4 * seed[lane];     \
    if (threadIdx.x < 32) for (int k = 0; k < TP_CHAINS; k++) words[k * 32 + lane] = k;

#define S_LDS(k) asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x##k) : "r"(base + 128 * k));
#define S_STS(k) asm volatile("st.volatile.shared.u32 [%0], %1;" :: "r"(base + 128 * k), "r"(lane));

TP_MEM_KERNEL(lds, SHARED_TP_SETUP, S_LDS)
TP_MEM_KERNEL(sts, SHARED_TP_SETUP, S_STS)

// Global loads that hit L1 (ld.global.ca): load r of chain k reads word 32 * (8 * r + k) + lane
// of an 8 KiB window (one 128-byte line a warp instruction, all distinct within an iteration, so
// none merges); the window moves by a line each iteration so no load is loop-invariant; each load
// adds its word to its chain so none is dead (an IADD3 a load, on another pipe).
extern "C" __global__ void __launch_bounds__(TP_THREADS, 16)
k_tp_ldg(const unsigned *seed, int iters, long long *times, unsigned *out)
{
    unsigned lane = threadIdx.x & 31;
    const unsigned *window = seed + 64 + lane;
    unsigned x0 = 0, x1 = 0, x2 = 0, x3 = 0, x4 = 0, x5 = 0, x6 = 0, x7 = 0;
    __syncthreads();
    long long start = clock64();
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        const unsigned *base = window + 32 * (i & 7);
#define S_LDG(k) asm volatile("{ .reg .u32 t; ld.global.ca.u32 t, [%1]; add.u32 %0, %0, t; }" \
                              : "+r"(x##k) : "l"(base + 32 * (8 * r + k)));
#pragma unroll
        for (int r = 0; r < TP_UNROLL; r++) { CHAINS(S_LDG) }
    }
    TP_RECORD
    out[blockIdx.x * TP_THREADS + threadIdx.x] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}

// HMMA: 4 independent accumulators a warp (8 would not fit 64 warps' registers).
extern "C" __global__ void __launch_bounds__(TP_THREADS, 16)
k_tp_hmma(const unsigned *seed, int iters, long long *times, float *out)
{
    unsigned lane = threadIdx.x & 31, a[4], b[2];
    for (int k = 0; k < 4; k++) a[k] = seed[(lane + k) & 31];
    for (int k = 0; k < 2; k++) b[k] = seed[(lane + 7 * k) & 31];
    float d0[4] = {0.f, 0.f, 0.f, 0.f}, d1[4] = {0.f, 0.f, 0.f, 0.f}, d2[4] = {0.f, 0.f, 0.f, 0.f},
          d3[4] = {0.f, 0.f, 0.f, 0.f};
    __syncthreads();
    long long start = clock64();
#pragma unroll 1
    for (int i = 0; i < iters; i++) { REP8(MMA_STEP(d0, a, b) MMA_STEP(d1, a, b) MMA_STEP(d2, a, b) MMA_STEP(d3, a, b)) }
    TP_RECORD
    out[blockIdx.x * TP_THREADS + threadIdx.x] = d0[0] + d1[1] + d2[2] + d3[3];
}

// ---- SM level -------------------------------------------------------------------------------

// Blocks that do nothing: the launch's time against its block count gives the cost of a block.
extern "C" __global__ void k_sm_empty() {}

// Each block spins `spin` cycles and records (SM id, first clock, last clock) from its thread 0:
// with one block of 32 threads a block the SM's first wave shows how many blocks it holds at once;
// with the dynamic shared memory made too large for two, the gaps between one SM's consecutive
// blocks are the cost of a block's warps ending and the next block starting.
extern "C" __global__ void k_sm_blocks(long long spin, long long *times)
{
    extern __shared__ unsigned pad[];
    long long start = clock64(), now = start;
    while (now - start < spin) now = clock64();
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned smid; asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        times[3 * blockIdx.x] = start; times[3 * blockIdx.x + 1] = clock64(); times[3 * blockIdx.x + 2] = smid;
        if (spin < 0) pad[0] = smid;
    }
}
