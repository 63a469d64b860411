// Which SMs' identical reads does the H100's L2 request coalescer (LRC) merge, and how close in
// time must they be? 132 one-warp blocks (one per SM); only block 0 and block `partner` read the
// same 32 sectors (lane i: in[i * 32], one sector per line), the partner after `delay` cycles.
// Every block records its SM. L2 read sectors: 32 when the pair coalesced, 64 when not.
__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
__device__ __forceinline__ void spin(long long cycles) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {}
}

extern "C" __global__ void k_pair(const float* in, float* out, int* sm, int partner, long long delay, int base) {
  if (threadIdx.x == 0) sm[blockIdx.x] = smid();
  if (blockIdx.x != base && blockIdx.x != partner) return;
  if (blockIdx.x == partner && delay > 0) spin(delay);
  out[blockIdx.x * 32 + threadIdx.x] = in[threadIdx.x * 32];
}

// The same, but the partner reads the sectors in the opposite lane order (lane i: sector 31 - i):
// does coalescing need identical requests or only the same sectors at about the same time?
extern "C" __global__ void k_pair_reversed(const float* in, float* out, int* sm, int partner, long long delay,
                                           int base) {
  if (threadIdx.x == 0) sm[blockIdx.x] = smid();
  if (blockIdx.x != base && blockIdx.x != partner) return;
  if (blockIdx.x == partner && delay > 0) spin(delay);
  int lane = blockIdx.x == partner ? 31 - threadIdx.x : threadIdx.x;
  out[blockIdx.x * 32 + threadIdx.x] = in[lane * 32];
}

// Where does each block of a launch run? Every block records its SM and start time.
extern "C" __global__ void k_where(int* sm, unsigned long long* when) {
  if (threadIdx.x == 0) {
    unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    sm[blockIdx.x] = smid();
    when[blockIdx.x] = t;
  }
}
