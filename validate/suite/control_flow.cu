// Control-flow microbenchmarks: divergent loops and branches, early exits, data-dependent
// gathers and walks, barriers inside loops, atomics and dynamically indexed local arrays.
// Each warp's instruction counts depend on how its lanes diverge, which is what they check.

// Lane-dependent trip count: thread t sums threadIdx.x % 7 consecutive elements of its row of 8.
extern "C" __global__ void k_div_loop(const float* in, float* out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int i = 0; i < threadIdx.x % 7; i++) {
    acc += in[g * 8 + i];
  }
  out[g] = acc;
}

// Odd lanes copy a float, even lanes read a strided element of another buffer: both paths
// of the branch touch memory with different patterns.
extern "C" __global__ void k_if_else(const float* a, const float* b, float* out_odd, float* out_even) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x & 1) {
    out_odd[g] = a[g];
  } else {
    out_even[g] = b[2 * g];
  }
}

// Threads whose input is below `cut` leave before storing; the load runs in every lane.
extern "C" __global__ void k_early_return(const float* in, float* out, float cut) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[g];
  if (v < cut) return;
  out[g] = v * 2.0f;
}

// out[i] = in[idx[i]]: sectors depend on the index data (a permutation or random integers).
extern "C" __global__ void k_gather(const float* in, const int* idx, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[idx[i]];
  }
}

// Scatter: out[idx[i]] = in[i] (idx a permutation, so no two threads write one element).
extern "C" __global__ void k_scatter(const float* in, const int* idx, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[idx[i]] = in[i];
  }
}

// Nested loops: the outer trip count is uniform, the inner one depends on the lane.
extern "C" __global__ void k_nested_loops(const float* in, float* out, int rows) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int r = 0; r < rows; r++) {
    for (int c = 0; c <= (threadIdx.x & 3); c++) {
      acc += in[(r * gridDim.x * blockDim.x + g) * 4 + c];
    }
  }
  out[g] = acc;
}

// Data-dependent exit: follow next[] (a permutation) from the thread's own slot until a value
// below `cut` turns up or `max_steps` hops are done.
extern "C" __global__ void k_while_walk(const float* val, const int* next, float* out, float cut, int max_steps) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int pos = g, steps = 0;
  float v = val[pos];
  while (v >= cut && steps < max_steps) {
    pos = next[pos];
    v = val[pos];
    steps++;
  }
  out[g] = v + steps;
}

// A barrier inside a uniform loop: each round stages a tile in shared memory and reads a
// rotated slot of it. Launch with 128 threads.
extern "C" __global__ void k_sync_loop(const float* in, float* out, int rounds) {
  __shared__ float s[128];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  for (int r = 0; r < rounds; r++) {
    s[t] = in[r * gridDim.x * blockDim.x + g];
    __syncthreads();
    acc += s[(t + r * 5) & 127];
    __syncthreads();
  }
  out[g] = acc;
}

// Histogram with atomics: bins[] receives one atomicAdd per thread; the keys are in [0, nbins).
extern "C" __global__ void k_atomic_hist(const int* keys, unsigned int* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&bins[keys[i]], 1u);
  }
}

// Float atomics onto few addresses: every thread of a warp adds into one of 32 slots.
extern "C" __global__ void k_atomic_sum(const float* in, float* sums) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&sums[blockIdx.x & 31], in[g]);
}

// A local array read at a data-dependent position cannot live in registers: the compiler
// places it in local memory (ld/st.local).
extern "C" __global__ void k_local_array(const float* in, const int* pick, float* out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float a[16];
  for (int k = 0; k < 16; k++) {
    a[k] = in[g * 16 + k];
  }
  out[g] = a[pick[g] & 15] + a[(pick[g] + 3) & 15];
}
