// Corpus: prefix sums within a block (the first pass of a multi-block scan: each block scans its
// tile and writes its total). Written for memsim's corpus; no code copied.
//
// Modelled on GPU Gems 3, chapter 39 "Parallel Prefix Sum (Scan) with CUDA" (Harris, Sengupta,
// Owens: the naive Hillis-Steele double-buffered scan and the work-efficient Blelloch up-sweep /
// down-sweep, with and without the CONFLICT_FREE_OFFSET padding), as carried by
// NVIDIA/cuda-samples Samples/2_Concepts_and_Techniques/scan/scan.cu, and on
// NVIDIA/cuda-samples Samples/2_Concepts_and_Techniques/shfl_scan/shfl_scan.cu (warp scan with
// __shfl_up_sync, warp totals scanned by the first warp).

// Hillis-Steele inclusive scan, double-buffered in dynamic shared memory (2 * blockDim floats).
extern "C" __global__ void k_scan_hillis_steele(const float* in, float* out, float* block_sums, int n) {
  extern __shared__ float temp[];
  int tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;
  int pout = 0, pin = 1;
  temp[tid] = gid < n ? in[gid] : 0.0f;
  __syncthreads();
  for (int offset = 1; offset < blockDim.x; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (tid >= offset)
      temp[pout * blockDim.x + tid] = temp[pin * blockDim.x + tid] + temp[pin * blockDim.x + tid - offset];
    else
      temp[pout * blockDim.x + tid] = temp[pin * blockDim.x + tid];
    __syncthreads();
  }
  if (gid < n) out[gid] = temp[pout * blockDim.x + tid];
  if (tid == blockDim.x - 1) block_sums[blockIdx.x] = temp[pout * blockDim.x + tid];
}

// Blelloch exclusive scan of 2 * blockDim elements per block, no padding (bank conflicts).
extern "C" __global__ void k_scan_blelloch(const float* in, float* out, float* block_sums, int n) {
  extern __shared__ float temp[];
  int tid = threadIdx.x;
  int m = 2 * blockDim.x;
  int base = blockIdx.x * m;
  temp[2 * tid] = base + 2 * tid < n ? in[base + 2 * tid] : 0.0f;
  temp[2 * tid + 1] = base + 2 * tid + 1 < n ? in[base + 2 * tid + 1] : 0.0f;
  int offset = 1;
  for (int d = m >> 1; d > 0; d >>= 1) {  // up-sweep
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (tid == 0) {
    block_sums[blockIdx.x] = temp[m - 1];
    temp[m - 1] = 0.0f;
  }
  for (int d = 1; d < m; d *= 2) {  // down-sweep
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      float t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  if (base + 2 * tid < n) out[base + 2 * tid] = temp[2 * tid];
  if (base + 2 * tid + 1 < n) out[base + 2 * tid + 1] = temp[2 * tid + 1];
}

// The same scan with one padding word every 32 (GPU Gems' CONFLICT_FREE_OFFSET), a fixed
// 512-element tile in static shared memory, block of 256 threads, loads split in halves.
#define LOG_NUM_BANKS 5
#define PAD(i) ((i) >> LOG_NUM_BANKS)
#define SCAN_TILE 512
extern "C" __global__ void k_scan_blelloch_padded(const float* in, float* out, float* block_sums, int n) {
  __shared__ float temp[SCAN_TILE + SCAN_TILE / 32];
  int tid = threadIdx.x;
  int base = blockIdx.x * SCAN_TILE;
  int ai = tid, bi = tid + SCAN_TILE / 2;
  temp[ai + PAD(ai)] = base + ai < n ? in[base + ai] : 0.0f;
  temp[bi + PAD(bi)] = base + bi < n ? in[base + bi] : 0.0f;
  int offset = 1;
  for (int d = SCAN_TILE >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      int a = offset * (2 * tid + 1) - 1;
      int b = offset * (2 * tid + 2) - 1;
      temp[b + PAD(b)] += temp[a + PAD(a)];
    }
    offset *= 2;
  }
  if (tid == 0) {
    int last = SCAN_TILE - 1 + PAD(SCAN_TILE - 1);
    block_sums[blockIdx.x] = temp[last];
    temp[last] = 0.0f;
  }
  for (int d = 1; d < SCAN_TILE; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int a = offset * (2 * tid + 1) - 1;
      int b = offset * (2 * tid + 2) - 1;
      a += PAD(a);
      b += PAD(b);
      float t = temp[a];
      temp[a] = temp[b];
      temp[b] += t;
    }
  }
  __syncthreads();
  if (base + ai < n) out[base + ai] = temp[ai + PAD(ai)];
  if (base + bi < n) out[base + bi] = temp[bi + PAD(bi)];
}

// Warp-level inclusive scan with __shfl_up_sync; warp totals in shared memory are scanned by
// warp 0 and added back. Integer data (counts), as in stream compaction offsets.
__device__ __forceinline__ int warp_inclusive_scan(int v, int lane) {
#pragma unroll
  for (int offset = 1; offset < 32; offset <<= 1) {
    int up = __shfl_up_sync(0xffffffff, v, offset);
    if (lane >= offset) v += up;
  }
  return v;
}

template <int BLOCK>
__global__ void k_scan_warp_shfl(const int* __restrict__ in, int* __restrict__ out,
                                 int* __restrict__ block_sums, int n) {
  __shared__ int warp_totals[BLOCK / 32];
  int gid = blockIdx.x * BLOCK + threadIdx.x;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = gid < n ? in[gid] : 0;
  v = warp_inclusive_scan(v, lane);
  if (lane == 31) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = lane < BLOCK / 32 ? warp_totals[lane] : 0;
    t = warp_inclusive_scan(t, lane);
    if (lane < BLOCK / 32) warp_totals[lane] = t;
  }
  __syncthreads();
  if (warp > 0) v += warp_totals[warp - 1];
  if (gid < n) out[gid] = v;
  if (threadIdx.x == BLOCK - 1) block_sums[blockIdx.x] = v;
}
template __global__ void k_scan_warp_shfl<256>(const int* __restrict__, int* __restrict__, int* __restrict__, int);
template __global__ void k_scan_warp_shfl<1024>(const int* __restrict__, int* __restrict__, int* __restrict__, int);

// Second pass of a multi-block scan: add the scanned block sums to every element of the block.
extern "C" __global__ void k_scan_add_block_offsets(float* data, const float* block_offsets, int n) {
  __shared__ float offset;
  if (threadIdx.x == 0) offset = block_offsets[blockIdx.x];
  __syncthreads();
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < n) data[gid] += offset;
}
