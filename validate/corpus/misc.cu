// Corpus: everyday kernels that exercise one language feature each: doubles, a local array
// indexed at run time, warp votes (stream compaction), an atomicCAS
// loop, a transpose through __ldg, grid-stride elementwise kernels. Written for memsim's corpus;
// no code copied. Each kernel names the public idiom it is modelled on.

// daxpy, grid-stride (the classic saxpy of the NVIDIA blog "CUDA Pro Tip: Write Flexible Kernels
// with Grid-Stride Loops", in double).
extern "C" __global__ void k_daxpy(int n, double a, const double* __restrict__ x, double* __restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    y[i] = a * x[i] + y[i];
  }
}

// saxpy, one element per thread with a bounds check (NVIDIA blog "An Easy Introduction to CUDA C
// and C++").
extern "C" __global__ void k_saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// Double sum: shared tree per block, atomicAdd on double (native since sm_60). Inputs are small
// integers stored as doubles, so the sum is exact in any order (cuda-samples
// Samples/0_Introduction/simpleAtomicIntrinsics, the reduction ladder's shared tree).
extern "C" __global__ void k_dsum_atomic(const double* __restrict__ in, double* out, int n) {
  __shared__ double s[256];
  int tid = threadIdx.x;
  double v = 0.0;
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) v += in[i];
  s[tid] = v;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, s[0]);
}

// A small local array indexed by runtime values (it stays in local memory): a per-thread
// lookup table filled from the input, then read at data-dependent positions (the pattern the
// CUDA Best Practices Guide's "Local Memory" section warns about).
extern "C" __global__ void k_local_lookup(const float* __restrict__ in, const int* __restrict__ sel,
                                         float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float table[12];
  for (int k = 0; k < 12; ++k) table[k] = in[i] * (float)(k + 1);
  int a = sel[i] % 12;
  int b = (sel[i] / 12) % 12;
  out[i] = table[a] - table[b];
}

// Stream compaction inside a block: keep elements above a threshold. __ballot_sync and __popc
// give each lane its slot in its warp, warp counts are scanned in shared memory, __syncwarp
// orders the warp's shared writes and __any_sync skips warps with nothing to keep. Output per
// block: out[block * blockDim ...] plus the block's count (the first pass of a two-pass
// compaction; deterministic positions). Modelled on the NVIDIA blog "CUDA Pro Tip: Optimized
// Filtering with Warp-Aggregated Atomics" and on the warp-vote section of the CUDA C++
// Programming Guide.
extern "C" __global__ void k_compact_ballot(const float* __restrict__ in, float* __restrict__ out,
                                           int* __restrict__ block_counts, int n, float threshold) {
  __shared__ int warp_counts[32];
  __shared__ int warp_offsets[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float v = i < n ? in[i] : 0.0f;
  bool keep = i < n && v > threshold;
  unsigned int mask = __ballot_sync(0xffffffff, keep);
  if (lane == 0) warp_counts[warp] = __popc(mask);
  __syncthreads();
  if (threadIdx.x == 0) {
    int running = 0;
    for (int w = 0; w < blockDim.x / 32; ++w) {
      warp_offsets[w] = running;
      running += warp_counts[w];
    }
    block_counts[blockIdx.x] = running;
  }
  __syncthreads();
  if (__any_sync(0xffffffff, keep)) {
    int slot = warp_offsets[warp] + __popc(mask & ((1u << lane) - 1));
    __syncwarp();
    if (keep) out[blockIdx.x * blockDim.x + slot] = v;
  }
}

// Warp-aggregated counting: one global atomicAdd per warp adds the warp's survivors (its
// leader, the lowest kept lane, adds __popc of the ballot), and each element's rank among its
// warp's survivors is written in place (compacted positions would depend on the order warps
// reach the atomic; these do not).
extern "C" __global__ void k_filter_warp_aggregated(const int* __restrict__ in, int* __restrict__ rank,
                                                   int* __restrict__ count, int n, int threshold) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  bool keep = i < n && v >= threshold;
  unsigned int mask = __ballot_sync(0xffffffff, keep);
  int lane = threadIdx.x & 31;
  if (mask != 0 && lane == __ffs(mask) - 1) atomicAdd(count, __popc(mask));
  if (i < n) rank[i] = keep ? __popc(mask & ((1u << lane) - 1)) : -1;
}

// atomicMax on float through an atomicCAS loop (CUDA C++ Programming Guide, "Atomic Functions":
// any atomic can be built from atomicCAS), one attempt per warp after a shuffle max.
__device__ float atomic_max_float(float* address, float val) {
  int* address_as_int = (int*)address;
  int old = *address_as_int, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= val) break;
    old = atomicCAS(address_as_int, assumed, __float_as_int(val));
  } while (assumed != old);
  return __int_as_float(old);
}

extern "C" __global__ void k_max_atomic_cas(const float* __restrict__ in, float* out, int n) {
  float best = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) best = fmaxf(best, in[i]);
  for (int o = 16; o > 0; o >>= 1) best = fmaxf(best, __shfl_down_sync(0xffffffff, best, o));
  if ((threadIdx.x & 31) == 0) atomic_max_float(out, best);
}

// Matrix transpose through a padded shared tile, inputs read with __ldg (read-only cache); 32x8
// threads move a 32x32 tile (NVIDIA/cuda-samples Samples/6_Performance/transpose/transpose.cu,
// transposeNoBankConflicts, and the NVIDIA blog "An Efficient Matrix Transpose in CUDA C/C++").
#define TILE_DIM 32
#define BLOCK_ROWS 8
extern "C" __global__ void k_transpose_ldg(float* __restrict__ odata, const float* __restrict__ idata,
                                          int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = __ldg(&idata[(y + j) * width + x]);
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// The naive transpose (coalesced reads, strided writes), for the ladder's first rung.
extern "C" __global__ void k_transpose_naive(float* __restrict__ odata, const float* __restrict__ idata,
                                            int width, int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) odata[x * height + (y + j)] = __ldg(&idata[(y + j) * width + x]);
}

// Vectorised copy with float4 and a scalar tail (NVIDIA blog "CUDA Pro Tip: Increase
// Performance with Vectorized Memory Access").
extern "C" __global__ void k_copy_float4(const float* __restrict__ in, float* __restrict__ out, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = idx; i < n / 4; i += blockDim.x * gridDim.x) {
    reinterpret_cast<float4*>(out)[i] = reinterpret_cast<const float4*>(in)[i];
  }
  int tail = n % 4;
  if (idx < tail) out[n - tail + idx] = in[n - tail + idx];
}

// Elementwise ReLU + bias over an (N, C) activation, 2-D indexing with a column-broadcast bias
// (llm.c-style elementwise kernels, karpathy/llm.c dev/cuda/gelu_forward.cu layout).
extern "C" __global__ void k_bias_relu(const float* __restrict__ inp, const float* __restrict__ bias,
                                      float* __restrict__ out, int N, int C) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y;
  if (c < C && r < N) {
    float v = inp[r * C + c] + bias[c];
    out[r * C + c] = v > 0.0f ? v : 0.0f;
  }
}

// GELU (tanh approximation) with a grid-stride loop (karpathy/llm.c dev/cuda/gelu_forward.cu).
extern "C" __global__ void k_gelu(float* out, const float* inp, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float x = inp[i];
    float cube = 0.044715f * x * x * x;
    out[i] = 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + cube)));
  }
}
