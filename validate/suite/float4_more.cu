
// Second round of probes (appended to float4_loads.cu, whose macros they use): written after
// the first round was recorded, their counts predicted before they ran (docs/exactness.md).
F4_PROBE(overlap1, 32, (r >> 1) + 3 * (q & 1))          // quarters 0-3 and 3-6: one in common
F4_PROBE(two_broadcasts, 32, q & 1)                     // quarters read element 0, 1, 0, 1
F4_PROBE(two_broadcasts_conflict, 32, 8 * (q & 1))      // quarters read element 0, 8, 0, 8

// 16-byte stores (STS.128) of lanes sharing elements, after a contiguous STS.128 that clears
// the array and before a contiguous LDS.128 that reads it back.
#define F4_STORE_PROBE(name, expr)                                                           \
  extern "C" __global__ void k_f4_sts_##name(float4* out) {                                 \
    __shared__ float4 s[64];                                                                 \
    int t = threadIdx.x, l = t & 31, q = l >> 3, r = l & 7;                                  \
    s[t] = make_float4(0.f, 0.f, 0.f, 0.f);                                                  \
    __syncthreads();                                                                         \
    int e = (expr) & 63;  /* lanes sharing e store one value */                              \
    s[e] = make_float4(e, (q + r) * 0, 3.f, 4.f);                                            \
    __syncthreads();                                                                         \
    out[blockIdx.x * blockDim.x + t] = s[t];                                                 \
  }

F4_STORE_PROBE(pairs, (t >> 1))                         // lane pairs store one element
F4_STORE_PROBE(all_same, 5)                             // every lane stores element 5
F4_STORE_PROBE(same8, r + 8 * (t >> 5))                 // every quarter stores its warp's 0-7
