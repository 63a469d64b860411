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

// The pair (blocks `base` and `partner`) under load: each of their `blockDim.x / 32` warps reads
// the 32 shared sectors of group w % halves (lane i: in[(i + 32 * group) * 32]), and blocks
// 0..busy-1 other than the pair read private lines at the same time (one per lane, from 1 MB on).
extern "C" __global__ void k_pair_load(const float* in, float* out, int* sm, int partner, int base, int halves,
                                       int busy) {
  int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) sm[blockIdx.x] = smid();
  float v;
  if (blockIdx.x == base || blockIdx.x == partner) {
    v = in[(lane + 32 * (w % halves)) * 32];
  } else if ((int)blockIdx.x < busy) {
    v = in[(1 << 18) + ((blockIdx.x * (blockDim.x / 32) + w) * 32 + lane) * 32];
  } else {
    return;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Does the coalescer need the same bytes? Block base reads word 0 of 32 sectors; the partner reads
// word `word` of the same sectors (lane i: in[i * 32 + word]); with `both`, every partner lane
// reads words 0 and `word` of its sector (two loads' worth of bytes in one 8-byte-apart pair).
extern "C" __global__ void k_pair_word(const float* in, float* out, int* sm, int partner, int base, int word) {
  if (threadIdx.x == 0) sm[blockIdx.x] = smid();
  if (blockIdx.x != base && blockIdx.x != partner) return;
  int offset = blockIdx.x == partner ? word : 0;
  out[blockIdx.x * 32 + threadIdx.x] = in[threadIdx.x * 32 + offset];
}

// copy2d_col_64x4 of the suite, as recorded (grid (2, 16), block (64, 4), sx = 64, sy = 1), and the
// same accesses from a 1-D grid of 32 blocks (block b plays (b % 2, b / 2)): does the 2-D grid
// place its blocks differently? k_where2d records the SM of each block of a 2-D grid.
extern "C" __global__ void k_2d_copy(const float* in, float* out, int sx, int sy, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * width + x] = in[x * sx + y * sy];
}

extern "C" __global__ void k_2d_copy_lin(const float* in, float* out, int sx, int sy, int width) {
  int x = (blockIdx.x % 2) * blockDim.x + threadIdx.x;
  int y = (blockIdx.x / 2) * blockDim.y + threadIdx.y;
  out[y * width + x] = in[x * sx + y * sy];
}

extern "C" __global__ void k_where2d(int* sm) {
  if (threadIdx.x == 0 && threadIdx.y == 0) sm[blockIdx.y * gridDim.x + blockIdx.x] = smid();
}

// k_pair_load with the lines `stride` floats apart (32: consecutive 128-byte lines, 64: every
// other line, as copy2d_col_64x4 reads them).
extern "C" __global__ void k_pair_stride(const float* in, float* out, int* sm, int partner, int base, int halves,
                                         int busy, int stride) {
  int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) sm[blockIdx.x] = smid();
  float v;
  if (blockIdx.x == base || blockIdx.x == partner) {
    v = in[(lane + 32 * (w % halves)) * stride];
  } else if ((int)blockIdx.x < busy) {
    v = in[(1 << 20) + ((blockIdx.x * (blockDim.x / 32) + w) * 32 + lane) * stride];
  } else {
    return;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Every block shares its sectors with one other block, all at once: blocks b and b ^ pair_bit read
// the same lines (8 warps, two groups of 32 lines, `stride` floats apart), word `word_bit` * (b & pair_bit ? 1 : 0).
extern "C" __global__ void k_all_pairs(const float* in, float* out, int pair_bit, int stride, int word) {
  int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  int pair = blockIdx.x & ~pair_bit;
  int offset = (blockIdx.x & pair_bit) ? word : 0;
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[((pair * 2 + (w % 2)) * 32 + lane) * stride + offset];
}
