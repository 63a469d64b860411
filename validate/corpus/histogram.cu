// Corpus: histograms. Written for memsim's corpus; no code copied.
//
// Modelled on the NVIDIA blog "GPU Pro Tip: Fast Histograms Using Shared Atomics on Maxwell"
// (per-block shared-memory histogram, then one global atomicAdd per bin) and on
// NVIDIA/cuda-samples Samples/2_Concepts_and_Techniques/histogram/histogram256.cu (byte data
// packed four to a word, 256 bins). Bin indices come from the data (randint within range).

// Global atomics only: one atomicAdd per element, grid-stride.
extern "C" __global__ void k_hist_global(const int* __restrict__ data, unsigned int* bins, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(&bins[data[i]], 1u);
  }
}

// Privatised per block in shared memory (dynamic: one word per bin), then merged.
extern "C" __global__ void k_hist_shared(const int* __restrict__ data, unsigned int* bins, int n, int nbins) {
  extern __shared__ unsigned int local_bins[];
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) local_bins[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(&local_bins[data[i]], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) {
    unsigned int count = local_bins[b];
    if (count > 0) atomicAdd(&bins[b], count);
  }
}

// 256-bin byte histogram: four bytes per 32-bit load, shared atomics per byte.
extern "C" __global__ void k_hist256_bytes(const unsigned int* __restrict__ words, unsigned int* bins, int nwords) {
  __shared__ unsigned int s_hist[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) s_hist[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += blockDim.x * gridDim.x) {
    unsigned int w = words[i];
    atomicAdd(&s_hist[(w >> 0) & 0xFFu], 1u);
    atomicAdd(&s_hist[(w >> 8) & 0xFFu], 1u);
    atomicAdd(&s_hist[(w >> 16) & 0xFFu], 1u);
    atomicAdd(&s_hist[(w >> 24) & 0xFFu], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&bins[b], s_hist[b]);
}

// Per-warp sub-histograms in shared memory (fewer collisions), summed per bin at the end.
#define WARP_HIST_BINS 64
extern "C" __global__ void k_hist_per_warp(const int* __restrict__ data, unsigned int* bins, int n) {
  extern __shared__ unsigned int warp_hist[];  // (blockDim.x / 32) * WARP_HIST_BINS words
  int warps = blockDim.x / 32;
  for (int b = threadIdx.x; b < warps * WARP_HIST_BINS; b += blockDim.x) warp_hist[b] = 0;
  __syncthreads();
  unsigned int* mine = warp_hist + (threadIdx.x / 32) * WARP_HIST_BINS;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(&mine[data[i]], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < WARP_HIST_BINS; b += blockDim.x) {
    unsigned int sum = 0;
    for (int w = 0; w < warps; w++) sum += warp_hist[w * WARP_HIST_BINS + b];
    atomicAdd(&bins[b], sum);
  }
}
