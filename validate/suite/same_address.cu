// Probes of the bytes rule for stores whose active lanes share one address
// (smsp__sass_data_bytes_mem_{shared,global}_op_st). HYPOTHESIS, not yet measured: like loads,
// each distinct address counts once per warp instruction (see memsim/count.py). Every recorded
// store so far has distinct addresses in each warp, so it cannot tell this from "every lane".
// Lanes sharing an address always store the same value, so the outputs are deterministic.

// Lanes in groups of `group` store one element of a 256-element static shared array, then
// read it back: group 32 is `shared_sum[warp_id] = warp_sum;` without a lane-0 guard.
template <typename T>
__device__ void shared_store_grouped(const T* in, T* out, int group) {
  __shared__ T s[256];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  int slot = t / group;
  s[slot] = in[blockIdx.x * blockDim.x + slot];
  __syncthreads();
  out[g] = s[slot];
}

extern "C" __global__ void k_same_sh_st_char(const char* in, char* out, int gr) { shared_store_grouped(in, out, gr); }
extern "C" __global__ void k_same_sh_st_float(const float* in, float* out, int gr) { shared_store_grouped(in, out, gr); }
extern "C" __global__ void k_same_sh_st_double(const double* in, double* out, int gr) { shared_store_grouped(in, out, gr); }
extern "C" __global__ void k_same_sh_st_float4(const float4* in, float4* out, int gr) { shared_store_grouped(in, out, gr); }

// Half the lanes (0-15 of each warp) store the warp's first word, the others their own:
// 17 distinct words per warp.
extern "C" __global__ void k_same_sh_st_half(const float* in, float* out) {
  __shared__ float s[256];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  int slot = (t & 31) < 16 ? (t & ~31) : t;
  s[slot] = in[blockIdx.x * blockDim.x + slot];
  __syncthreads();
  out[g] = s[slot];
}

// Lanes in groups of `group` store one global element (the same value): out[g / group].
template <typename T>
__device__ void global_store_grouped(const T* in, T* out, int group) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g / group] = in[g / group];
}

extern "C" __global__ void k_same_gl_st_char(const char* in, char* out, int gr) { global_store_grouped(in, out, gr); }
extern "C" __global__ void k_same_gl_st_int(const int* in, int* out, int gr) { global_store_grouped(in, out, gr); }
extern "C" __global__ void k_same_gl_st_double(const double* in, double* out, int gr) { global_store_grouped(in, out, gr); }
extern "C" __global__ void k_same_gl_st_float4(const float4* in, float4* out, int gr) { global_store_grouped(in, out, gr); }

// Every lane adds 1 to one global and one shared counter (integer: order-free results).
extern "C" __global__ void k_same_atomic_add(int* total, int* per_block) {
  __shared__ int count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  atomicAdd(&count, 1);
  atomicAdd(total, 1);
  __syncthreads();
  if (threadIdx.x == 0) per_block[blockIdx.x] = count;
}
