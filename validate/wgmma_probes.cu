// Hopper's warpgroup MMA (wgmma.mma_async, sm_90a), each form in a small launch recorded on the
// H100 (validate/wgmma_probes.py writes the case list). One warpgroup (128 threads) per block
// multiplies a 64 x 64 tile of A by B (N x 64, both K-major: row r of B is column r of the
// product) in four k16 steps, chained on one accumulator, and writes D = A B^T (+ 1 where the
// first step keeps the accumulator) row-major. Inputs come as float x in [0, 1) and enter shared
// memory as f16/bf16 of 2x - 1. Operands in shared memory are described by 64-bit matrix
// descriptors (PTX ISA, "Matrix Descriptor"): no swizzle (core matrices of 8 rows x 16 bytes, A's
// k-neighbours 128 bytes apart, B's N/8 x 128) or a 128-, 64- or 32-byte swizzle (`swizzle`: the
// bytes; rows of that many bytes, 16-byte chunks XORed with the row's bits, see kmajor). The mma_* wrappers are written out for each shape: one asm
// operand per accumulator register.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__device__ __forceinline__ unsigned smem(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ unsigned short to_f16(float x) { return __half_as_ushort(__float2half_rn(2.0f * x - 1.0f)); }
__device__ __forceinline__ unsigned short to_bf16(float x) { return __bfloat16_as_ushort(__float2bfloat16_rn(2.0f * x - 1.0f)); }

__device__ __forceinline__ void mma_ss_f16_n8(float* d, unsigned long long da, unsigned long long db, int scale_d) {
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %6, 0;\n"
        " wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n}"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "l"(da), "l"(db), "r"(scale_d));
}
__device__ __forceinline__ void mma_ss_f16_n64(float* d, unsigned long long da, unsigned long long db, int scale_d) {
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %34, 0;\n"
        " wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0;\n}"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "l"(da), "l"(db), "r"(scale_d));
}
__device__ __forceinline__ void mma_ss_f16_n64_tb(float* d, unsigned long long da, unsigned long long db, int scale_d) {
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %34, 0;\n"
        " wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 1;\n}"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "l"(da), "l"(db), "r"(scale_d));
}
__device__ __forceinline__ void mma_ss_f16_n64_ta(float* d, unsigned long long da, unsigned long long db, int scale_d) {
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %34, 0;\n"
        " wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, -1, 1, 0;\n}"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "l"(da), "l"(db), "r"(scale_d));
}
__device__ __forceinline__ void mma_ss_f16_n128(float* d, unsigned long long da, unsigned long long db, int scale_d) {
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %66, 0;\n"
        " wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;\n}"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "l"(da), "l"(db), "r"(scale_d));
}
__device__ __forceinline__ void mma_ss_f16_n256(float* d, unsigned long long da, unsigned long long db, int scale_d) {
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %130, 0;\n"
        " wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1, 0, 0;\n}"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(da), "l"(db), "r"(scale_d));
}
__device__ __forceinline__ void mma_ss_bf16_n64(float* d, unsigned long long da, unsigned long long db, int scale_d) {
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %34, 0;\n"
        " wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0;\n}"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "l"(da), "l"(db), "r"(scale_d));
}
__device__ __forceinline__ void mma_rs_f16_n64(float* d, const unsigned* a, unsigned long long db, int scale_d) {
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %37, 0;\n"
        " wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, {%32, %33, %34, %35}, %36, p, 1, 1, 0;\n}"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scale_d));
}
__device__ __forceinline__ void mma_rs_bf16_n64(float* d, const unsigned* a, unsigned long long db, int scale_d) {
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %37, 0;\n"
        " wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, {%32, %33, %34, %35}, %36, p, 1, 1, 0;\n}"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scale_d));
}

// the descriptor's swizzle mode of a W-byte swizzle (0: none)
__device__ __forceinline__ unsigned long long mode(int w) { return w == 128 ? 1ull : w == 64 ? 2ull : w == 32 ? 3ull : 0ull; }

// byte offset of element (r, k) of a K-major tile of `rows` rows x 64 columns of 16-bit values.
// A w-byte swizzle: K in blocks of w / 2 columns, each block rows x w bytes, 8-row groups 8w
// apart (SBO), 16-byte chunk c of row r at c ^ (r % 8 >> (3 - log2(w / 16))).
__device__ __forceinline__ unsigned kmajor(int r, int k, int rows, int w, int b_side) {
    if (w) {
        unsigned o = (k / (w / 2)) * rows * w + (r >> 3) * 8 * w + (r & 7) * w + (k % (w / 2)) * 2;
        return o ^ (((o >> 7) & (w / 16 - 1)) << 4);
    }
    if (!b_side) return (r >> 3) * 1024 + (k >> 3) * 128 + (r & 7) * 16 + (k & 7) * 2;   // LBO 128, SBO 1024
    return (k >> 3) * (rows / 8) * 128 + (r >> 3) * 128 + (r & 7) * 16 + (k & 7) * 2;    // LBO rows*16, SBO 128
}
__device__ __forceinline__ unsigned long long desc(unsigned addr, unsigned lbo, unsigned sbo, int w) {
    return ((addr & 0x3FFFF) >> 4) | ((unsigned long long)(lbo >> 4) << 16) | ((unsigned long long)(sbo >> 4) << 32)
        | (mode(w) << 62);
}
// k16 step s of a rows-row operand: 32 bytes further along K
__device__ __forceinline__ unsigned long long desc_k(const void* t, int s, int rows, int w, unsigned lbo, unsigned sbo) {
    if (w) return desc(smem(t) + (32 * s / w) * rows * w + (32 * s) % w, 16, 8 * w, w);
    return desc(smem(t) + 2 * lbo * s, lbo, sbo, 0);
}
__device__ __forceinline__ unsigned long long desc_a(const void* as, int s, int w) { return desc_k(as, s, 64, w, 128, 1024); }
__device__ __forceinline__ unsigned long long desc_b(const void* bs, int s, int n, int w) { return desc_k(bs, s, n, w, n * 16, 128); }

template <int N>
__device__ __forceinline__ void store_d(float* d, float* out) {
    int w = threadIdx.x >> 5, g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
#pragma unroll
    for (int i = 0; i < N / 2; i++) {
        asm volatile("" : "+f"(d[i]) :: "memory");   // the accumulator is read after the wait
        out[(16 * w + g + 8 * ((i >> 1) & 1)) * N + 8 * (i >> 2) + 2 * t + (i & 1)] = d[i];
    }
}

#define WG_FILL(N, CONV)                                                                        \
    __shared__ alignas(1024) unsigned short as[64 * 64];                                        \
    __shared__ alignas(1024) unsigned short bs[N * 64];                                         \
    const float* ab = a + blockIdx.x * 64 * 64;                                                 \
    const float* bb = b + blockIdx.x * N * 64;                                                  \
    for (int i = threadIdx.x; i < 64 * 64; i += 128) as[kmajor(i / 64, i % 64, 64, swizzle, 0) / 2] = CONV(ab[i]); \
    for (int i = threadIdx.x; i < N * 64; i += 128) bs[kmajor(i / 64, i % 64, N, swizzle, 1) / 2] = CONV(bb[i]);  \
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");                                \
    __syncthreads();                                                                            \
    float d[N / 2];                                                                             \
    _Pragma("unroll") for (int i = 0; i < N / 2; i++) d[i] = 1.0f;                              \
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");

#define WG_DONE(N)                                                                              \
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");                              \
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");                              \
    store_d<N>(d, out + blockIdx.x * 64 * N);

// both operands in shared memory
#define WG_SS(NAME, MMA, N, CONV)                                                               \
extern "C" __global__ void __launch_bounds__(128) NAME(const float* a, const float* b, float* out, int swizzle, int accumulate) { \
    WG_FILL(N, CONV)                                                                            \
    _Pragma("unroll") for (int s = 0; s < 4; s++)                                               \
        MMA(d, desc_a(as, s, swizzle), desc_b(bs, s, N, swizzle), s > 0 || accumulate);          \
    WG_DONE(N) }

// A from registers: thread (warp w, lane 4g + t) holds rows 16w + g (+8), columns 2t, 2t+1 (+8)
// of each k16 step, two 16-bit values a register (the lower column in the low half)
#define WG_RS(NAME, MMA, N, CONV)                                                               \
extern "C" __global__ void __launch_bounds__(128) NAME(const float* a, const float* b, float* out, int swizzle, int accumulate) { \
    WG_FILL(N, CONV)                                                                            \
    int w = threadIdx.x >> 5, g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;                 \
    _Pragma("unroll") for (int s = 0; s < 4; s++) {                                             \
        unsigned r[4];                                                                          \
        _Pragma("unroll") for (int j = 0; j < 4; j++) {                                         \
            const float* p = ab + (16 * w + g + 8 * (j & 1)) * 64 + 16 * s + 2 * t + 8 * (j >> 1); \
            r[j] = CONV(p[0]) | ((unsigned)CONV(p[1]) << 16);                                   \
        }                                                                                       \
        MMA(d, r, desc_b(bs, s, N, swizzle), s > 0 || accumulate);                              \
    }                                                                                           \
    WG_DONE(N) }

WG_SS(k_wgmma_ss_f16_n8, mma_ss_f16_n8, 8, to_f16)
WG_SS(k_wgmma_ss_f16_n64, mma_ss_f16_n64, 64, to_f16)
WG_SS(k_wgmma_ss_f16_n128, mma_ss_f16_n128, 128, to_f16)
WG_SS(k_wgmma_ss_f16_n256, mma_ss_f16_n256, 256, to_f16)
WG_SS(k_wgmma_ss_bf16_n64, mma_ss_bf16_n64, 64, to_bf16)
WG_RS(k_wgmma_rs_f16_n64, mma_rs_f16_n64, 64, to_f16)
WG_RS(k_wgmma_rs_bf16_n64, mma_rs_bf16_n64, 64, to_bf16)

// B MN-major (imm-trans-b 1) with the 128-byte swizzle: row k of the tile holds B's 64 values of
// column k (128 bytes), 8 rows to a 1024-byte group, groups SBO = 1024 apart (LBO, the stride of
// further 64-value chunks of N, is unused at N = 64)
extern "C" __global__ void __launch_bounds__(128) k_wgmma_ss_f16_n64_tb(const float* a, const float* b, float* out, int swizzle, int accumulate) {
    swizzle = 128;
    __shared__ alignas(1024) unsigned short as[64 * 64];
    __shared__ alignas(1024) unsigned short bs[64 * 64];
    const float* ab = a + blockIdx.x * 64 * 64;
    const float* bb = b + blockIdx.x * 64 * 64;
    for (int i = threadIdx.x; i < 64 * 64; i += 128) as[kmajor(i / 64, i % 64, 64, 128, 0) / 2] = to_f16(ab[i]);
    for (int i = threadIdx.x; i < 64 * 64; i += 128) {
        int n = i / 64, k = i % 64;
        unsigned o = (k >> 3) * 1024 + (k & 7) * 128 + n * 2;
        bs[(o ^ (((o >> 7) & 7) << 4)) / 2] = to_f16(bb[i]);
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    float d[32];
#pragma unroll
    for (int i = 0; i < 32; i++) d[i] = 1.0f;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int s = 0; s < 4; s++)
        mma_ss_f16_n64_tb(d, desc_a(as, s, 128), desc(smem(bs) + 2048 * s, 8192, 1024, 128), s > 0 || accumulate);
    WG_DONE(64)
}

// A MN-major (imm-trans-a 1) with the 128-byte swizzle, and B negated (imm-scale-b -1): row k of
// A's tile holds A's 64 values of column k; D = C - A B
extern "C" __global__ void __launch_bounds__(128) k_wgmma_ss_f16_n64_ta(const float* a, const float* b, float* out, int swizzle, int accumulate) {
    __shared__ alignas(1024) unsigned short as[64 * 64];
    __shared__ alignas(1024) unsigned short bs[64 * 64];
    const float* ab = a + blockIdx.x * 64 * 64;
    const float* bb = b + blockIdx.x * 64 * 64;
    for (int i = threadIdx.x; i < 64 * 64; i += 128) {
        int m = i / 64, k = i % 64;
        unsigned o = (k >> 3) * 1024 + (k & 7) * 128 + m * 2;
        as[(o ^ (((o >> 7) & 7) << 4)) / 2] = to_f16(ab[i]);
    }
    for (int i = threadIdx.x; i < 64 * 64; i += 128) bs[kmajor(i / 64, i % 64, 64, 128, 1) / 2] = to_f16(bb[i]);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    float d[32];
#pragma unroll
    for (int i = 0; i < 32; i++) d[i] = 1.0f;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int s = 0; s < 4; s++)
        mma_ss_f16_n64_ta(d, desc(smem(as) + 2048 * s, 8192, 1024, 128), desc_b(bs, s, 64, 128), s > 0 || accumulate);
    WG_DONE(64)
}

// A small Hopper GEMM as CUTLASS builds them: TMA loads 64 x 64 tiles of A (M x K) and B (N x K),
// both f16 and K-major, with the 128-byte swizzle into shared memory, completing on an
// mbarrier; the warpgroup runs four k16 wgmmas per tile on one accumulator; block (bx, by)
// writes D[64 by .. +63][64 bx .. +63] of D = A B^T (f32, row-major, N columns).
struct alignas(64) CUtensorMap { unsigned long long opaque[16]; };
extern "C" __global__ void __launch_bounds__(128) k_wgmma_tma_gemm(const __half* a, const __half* b, float* out,
        const __grid_constant__ CUtensorMap ma, const __grid_constant__ CUtensorMap mb, int k_tiles) {
    __shared__ alignas(1024) unsigned short as[64 * 64];
    __shared__ alignas(1024) unsigned short bs[64 * 64];
    __shared__ unsigned long long bar;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"(smem(&bar)));
        asm volatile("fence.proxy.async.shared::cta;");
    }
    __syncthreads();
    float d[32];
#pragma unroll
    for (int i = 0; i < 32; i++) d[i] = 0.0f;
    for (int kt = 0; kt < k_tiles; kt++) {
        if (threadIdx.x == 0) {
            asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" :: "r"(smem(&bar)), "r"(16384) : "memory");
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                         :: "r"(smem(as)), "l"(&ma), "r"(kt * 64), "r"((int)blockIdx.y * 64), "r"(smem(&bar)) : "memory");
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                         :: "r"(smem(bs)), "l"(&mb), "r"(kt * 64), "r"((int)blockIdx.x * 64), "r"(smem(&bar)) : "memory");
        }
        asm volatile("{\n .reg .pred done;\n wait:\n mbarrier.try_wait.parity.shared.b64 done, [%0], %1;\n"
                     " @!done bra wait;\n}" :: "r"(smem(&bar)), "r"(kt & 1) : "memory");
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
        for (int s = 0; s < 4; s++) mma_ss_f16_n64(d, desc_a(as, s, 128), desc_b(bs, s, 64, 128), 1);
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        __syncthreads();   // every warp is done with the tiles before the next loads
    }
    int w = threadIdx.x >> 5, g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3, n = gridDim.x * 64;
#pragma unroll
    for (int i = 0; i < 32; i++) {
        asm volatile("" : "+f"(d[i]) :: "memory");
        out[(blockIdx.y * 64 + 16 * w + g + 8 * ((i >> 1) & 1)) * n + blockIdx.x * 64 + 8 * (i >> 2) + 2 * t + (i & 1)] = d[i];
    }
}
