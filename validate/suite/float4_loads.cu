// 16-byte shared loads (LDS.128) with chosen lane -> element maps: probes of how the H100
// splits a warp's 16-byte loads into wavefronts
// (smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld). Lane l, quarter q = l / 8,
// r = l % 8; element e of s sits at byte 16 e, banks (4 e .. 4 e + 3) % 32. The fill is one
// contiguous STS.128 per warp; the load is the kernel's only shared load.
#define F4_PROBE(name, lanes, expr)                                                          \
  extern "C" __global__ void k_f4_lds_##name(float4* out) {                                 \
    __shared__ float4 s[64];                                                                 \
    int t = threadIdx.x, l = t & 31, q = l >> 3, r = l & 7;                                  \
    s[t] = make_float4(t, t + 1, t + 2, t + 3);                                              \
    __syncthreads();                                                                         \
    float4 v = make_float4(0.f, 0.f, 0.f, 0.f);                                              \
    if (l < (lanes)) v = s[(expr) & 63];                                                     \
    out[blockIdx.x * blockDim.x + t] = v;                                                    \
  }

F4_PROBE(mod4x4, 32, 4 * (l % 4))                       // 0, 64, 128, 192 B in every quarter
F4_PROBE(alt128, 32, 8 * (l % 2))                       // 0 and 128 B: banks 0-3 twice
F4_PROBE(stride128, 32, 8 * r)                          // 8 elements on banks 0-3
F4_PROBE(stride64, 32, 4 * r)                           // 8 elements on banks 0-3 and 16-19
F4_PROBE(stride32, 32, 2 * r)                           // 8 elements, two on each bank group
F4_PROBE(same8, 32, r)                                  // every quarter reads elements 0-7
F4_PROBE(halves_disjoint, 32, r + 8 * (q & 1))          // quarters 0-7, 8-15, 0-7, 8-15
F4_PROBE(crossed, 32, r + 8 * (((q + 1) >> 1) & 1))     // quarters 0-7, 8-15, 8-15, 0-7
F4_PROBE(conflict_then_broadcast, 32, (q & 1) ? 0 : 8 * (l % 2))
F4_PROBE(conflict_then_free, 32, (q & 1) ? 4 + (r % 4) : 8 * (l % 2))
F4_PROBE(all_same, 32, 5)
F4_PROBE(partial12_mod4x4, 12, 4 * (l % 4))            // lanes 0-11 only
F4_PROBE(partial8_stride64, 8, 4 * r)                   // one quarter
F4_PROBE(pairs, 32, l >> 1)                             // lane pairs share an element

// The same for 8-byte loads (LDS.64): element e at byte 8 e, banks (2 e, 2 e + 1) % 32; half
// h = l / 16, lane in half r16 = l % 16.
#define F2_PROBE(name, expr)                                                                 \
  extern "C" __global__ void k_f2_lds_##name(float2* out) {                                 \
    __shared__ float2 s[128];                                                                \
    int t = threadIdx.x, l = t & 31, h = l >> 4, r16 = l & 15;                               \
    s[t] = make_float2(t, t + 1);                                                            \
    s[t + 64] = make_float2(t + 2, t + 3);                                                   \
    __syncthreads();                                                                         \
    float2 v = s[(expr) & 127];                                                              \
    out[blockIdx.x * blockDim.x + t] = v;                                                    \
  }

F2_PROBE(same16, r16)                                   // both halves read elements 0-15
F2_PROBE(alt128, 16 * (l % 2))                          // 0 and 128 B: banks 0-1 twice
F2_PROBE(stride64, 8 * (l % 8))                         // 8 elements on banks 0-1 and 16-17
F2_PROBE(half_same_half_free, h ? r16 + 16 : 0)         // half 0 one element, half 1 16 others
F2_PROBE(swapped_halves, r16 + 16 * (1 - h))            // half 0 reads 16-31, half 1 reads 0-15
F2_PROBE(pairs, l >> 1)                                 // lane pairs share an element
