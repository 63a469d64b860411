// Global-memory microbenchmarks. Each thread makes one load and one store, so every counter of
// a launch follows from the index pattern: validate/cases.py derives the expected values.
// Index parameters are runtime scalars so that one PTX body serves every stride and offset, and
// the compiler cannot merge neighbouring accesses.

template <typename T>
__device__ void strided_load(const T* in, T* out, int stride, int offset, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i * stride + offset];
  }
}

template <typename T>
__device__ void strided_store(const T* in, T* out, int stride, int offset, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i * stride + offset] = in[i];
  }
}

// Widths 1, 2, 4, 8 and 16 bytes; float2/float4/int4 must become ld/st.global.v2/.v4.
extern "C" __global__ void k_ld_char(const char* in, char* out, int s, int o, int n) { strided_load(in, out, s, o, n); }
extern "C" __global__ void k_ld_short(const short* in, short* out, int s, int o, int n) { strided_load(in, out, s, o, n); }
extern "C" __global__ void k_ld_int(const int* in, int* out, int s, int o, int n) { strided_load(in, out, s, o, n); }
extern "C" __global__ void k_ld_float(const float* in, float* out, int s, int o, int n) { strided_load(in, out, s, o, n); }
extern "C" __global__ void k_ld_double(const double* in, double* out, int s, int o, int n) { strided_load(in, out, s, o, n); }
extern "C" __global__ void k_ld_longlong(const long long* in, long long* out, int s, int o, int n) { strided_load(in, out, s, o, n); }
extern "C" __global__ void k_ld_float2(const float2* in, float2* out, int s, int o, int n) { strided_load(in, out, s, o, n); }
extern "C" __global__ void k_ld_float4(const float4* in, float4* out, int s, int o, int n) { strided_load(in, out, s, o, n); }
extern "C" __global__ void k_ld_int4(const int4* in, int4* out, int s, int o, int n) { strided_load(in, out, s, o, n); }

extern "C" __global__ void k_st_char(const char* in, char* out, int s, int o, int n) { strided_store(in, out, s, o, n); }
extern "C" __global__ void k_st_short(const short* in, short* out, int s, int o, int n) { strided_store(in, out, s, o, n); }
extern "C" __global__ void k_st_float(const float* in, float* out, int s, int o, int n) { strided_store(in, out, s, o, n); }
extern "C" __global__ void k_st_double(const double* in, double* out, int s, int o, int n) { strided_store(in, out, s, o, n); }
extern "C" __global__ void k_st_float4(const float4* in, float4* out, int s, int o, int n) { strided_store(in, out, s, o, n); }

// 2-D blocks: thread (x, y) reads in[x * sx + y * sy] and writes out[y * width + x].
// (sx, sy) = (1, width) walks rows (coalesced); (height, 1) walks columns (one sector per lane).
extern "C" __global__ void k_2d_copy(const float* in, float* out, int sx, int sy, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * width + x] = in[x * sx + y * sy];
}

// Only warps whose index within the block is even do any work; odd warps skip every access.
extern "C" __global__ void k_odd_warps_idle(const float* in, float* out) {
  if ((threadIdx.x >> 5) & 1) return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

// The first `lanes` lanes of every warp work; the rest of the warp is masked off.
extern "C" __global__ void k_lanes_active(const float* in, float* out, int lanes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((threadIdx.x & 31) < lanes) {
    out[i] = in[i];
  }
}
