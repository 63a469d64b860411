// Timing probes of atomics for the warp-level simulation (memsim/timing), run under ncu at base
// clocks (gpu/probes/atomic_probe.py builds the cases and derives the figures).
//
// k_gatom<OP>: every thread does `iters` global atomics. Lane l of warp gw (global warp index)
// at iteration i updates word
//     ((l >> lshift) * s + ((gw * wstride + i * istride) & omask)) & amask
// plus `off` words, so 2^lshift lanes share each address, the warp's distinct addresses lie s words apart, and the
// warp/iteration offset (wstride, istride, omask) spreads the grid over more addresses. With
// hash != 0 the word is instead a pseudo-random one of amask + 1 (a histogram of random data).
// OP 0: atomicAdd(unsigned, 1) whose result is unused (SASS REDG.ADD), 1: the same with the result
// used (ATOMG.ADD), 2: float atomicAdd, unused (REDG.ADD.F32), 3: float, used (ATOMG.ADD.F32),
// 4: unsigned ATOMG whose result feeds the next address (a chain: the round trip's latency).
// The address is never provably uniform, so ptxas does not aggregate the warp's lanes.
template <int OP>
__global__ void k_gatom(unsigned *b, unsigned *sink, int iters, int lshift, int s, int wstride, int istride,
                        int omask, int amask, int hash, int off, int zero) {
  int lane = threadIdx.x & 31;
  int gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int mine = (lane >> lshift) * s;
  unsigned acc = 0;
  for (int i = 0; i < iters; ++i) {
    int w = (mine + ((gw * wstride + i * istride) & omask)) & amask;
    if (hash) w = ((unsigned)(gw * 1024 + i * 32 + lane) * 2654435761u >> 7) & amask;
    if (OP == 4) w = (w + (int)(acc & zero)) & amask;
    w += off;
    if (OP == 0) atomicAdd(&b[w], 1u);
    if (OP == 1 || OP == 4) acc += atomicAdd(&b[w], 1u);
    if (OP == 2) atomicAdd((float *)b + w, 1.0f);
    if (OP == 3) acc += (unsigned)atomicAdd((float *)b + w, 1.0f);
  }
  if (acc == 0x7fffffffu) sink[0] = acc;   // keeps the results of OP 1, 3, 4 alive
}
template __global__ void k_gatom<0>(unsigned *, unsigned *, int, int, int, int, int, int, int, int, int, int);
template __global__ void k_gatom<1>(unsigned *, unsigned *, int, int, int, int, int, int, int, int, int, int);
template __global__ void k_gatom<2>(unsigned *, unsigned *, int, int, int, int, int, int, int, int, int, int);
template __global__ void k_gatom<3>(unsigned *, unsigned *, int, int, int, int, int, int, int, int, int, int);
template __global__ void k_gatom<4>(unsigned *, unsigned *, int, int, int, int, int, int, int, int, int, int);

// k_satom<OP>: the same in shared memory (4,096 words a block): lane l at iteration i updates
// word ((l >> lshift) * s + i * istride) & amask, or with hash != 0 a pseudo-random one.
// OP 0: atomicAdd(&h[w], 1u) (ptxas: ATOMS.POPC.INC, one pass for a warp's lanes per address),
// 1: atomicAdd(&h[w], lane + 1) (ATOMS.ADD), 2: the same with the result used, 3: float
// atomicAdd, 4: ATOMS.ADD whose result feeds the next address (a chain).
template <int OP>
__global__ void k_satom(unsigned *sink, int iters, int lshift, int s, int istride, int amask, int hash, int zero) {
  __shared__ unsigned h[4096];
  for (int k = threadIdx.x; k < 4096; k += blockDim.x) h[k] = 0;
  __syncthreads();
  int lane = threadIdx.x & 31;
  int mine = (lane >> lshift) * s;
  unsigned acc = 0;
  for (int i = 0; i < iters; ++i) {
    int w = (mine + i * istride) & amask;
    if (hash) w = ((unsigned)((threadIdx.x >> 5) * 1024 + i * 32 + lane) * 2654435761u >> 7) & amask;
    if (OP == 4) w = (w + (int)(acc & zero)) & amask;
    if (OP == 0) atomicAdd(&h[w], 1u);
    if (OP == 1) atomicAdd(&h[w], (unsigned)lane + 1u);
    if (OP == 2 || OP == 4) acc += atomicAdd(&h[w], (unsigned)lane + 1u);
    if (OP == 3) atomicAdd((float *)h + w, 1.0f);
  }
  __syncthreads();
  if (h[threadIdx.x] + acc == 0x7fffffffu) sink[threadIdx.x] = acc;   // keeps the updates alive
}
template __global__ void k_satom<0>(unsigned *, int, int, int, int, int, int, int);
template __global__ void k_satom<1>(unsigned *, int, int, int, int, int, int, int);
template __global__ void k_satom<2>(unsigned *, int, int, int, int, int, int, int);
template __global__ void k_satom<3>(unsigned *, int, int, int, int, int, int, int);
template __global__ void k_satom<4>(unsigned *, int, int, int, int, int, int, int);
