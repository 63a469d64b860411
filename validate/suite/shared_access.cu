// Shared-memory microbenchmarks: bank conflicts of strided, broadcast and tiled accesses of
// 1 to 16 bytes, in static and dynamic (extern) shared arrays.
// Every thread's global load and store is coalesced, so the shared counters are what varies.

extern __shared__ __align__(16) unsigned char dynamic_smem[];

// Lane t stores to s[t * stride] and reads its neighbour's slot s[(t ^ 1) * stride]: both
// instructions see the same set of addresses per warp. Dynamic shared: blockDim * stride * sizeof(T).
template <typename T>
__device__ void shared_strided(const T* in, T* out, int stride) {
  T* s = reinterpret_cast<T*>(dynamic_smem);
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  s[t * stride] = in[g];
  __syncthreads();
  out[g] = s[(t ^ 1) * stride];
}

extern "C" __global__ void k_sh_stride_char(const char* in, char* out, int s) { shared_strided(in, out, s); }
extern "C" __global__ void k_sh_stride_short(const short* in, short* out, int s) { shared_strided(in, out, s); }
extern "C" __global__ void k_sh_stride_float(const float* in, float* out, int s) { shared_strided(in, out, s); }
extern "C" __global__ void k_sh_stride_double(const double* in, double* out, int s) { shared_strided(in, out, s); }
extern "C" __global__ void k_sh_stride_float4(const float4* in, float4* out, int s) { shared_strided(in, out, s); }

// Static array of 256 elements (launch with 256 threads); lanes in groups of `group` read the
// same element: group 32 is a warp-wide broadcast, group 2 pairs lanes on one element.
template <typename T>
__device__ void shared_grouped(const T* in, T* out, int group, int stride) {
  __shared__ T s[256];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  s[t] = in[g];
  __syncthreads();
  out[g] = s[((t / group) * stride) & 255];
}

extern "C" __global__ void k_sh_group_char(const char* in, char* out, int gr, int s) { shared_grouped(in, out, gr, s); }
extern "C" __global__ void k_sh_group_short(const short* in, short* out, int gr, int s) { shared_grouped(in, out, gr, s); }
extern "C" __global__ void k_sh_group_float(const float* in, float* out, int gr, int s) { shared_grouped(in, out, gr, s); }
extern "C" __global__ void k_sh_group_double(const double* in, double* out, int gr, int s) { shared_grouped(in, out, gr, s); }
extern "C" __global__ void k_sh_group_float4(const float4* in, float4* out, int gr, int s) { shared_grouped(in, out, gr, s); }

// Even lanes read their own word, odd lanes all read word `word` (launch with 256 threads).
extern "C" __global__ void k_sh_half_same(const float* in, float* out, int word) {
  __shared__ float s[256];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  s[t] = in[g];
  __syncthreads();
  out[g] = s[(t & 1) ? word : t];
}

// Tiled transpose of a width x width matrix with 32x8 blocks, each thread moving four rows;
// PAD 0 makes the column reads 32-way conflicts, PAD 1 removes them.
template <typename T, int PAD>
__device__ void tile_transpose(const T* in, T* out, int width) {
  __shared__ T tile[32][32 + PAD];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  }
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    out[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
  }
}

extern "C" __global__ void k_tile_float(const float* in, float* out, int w) { tile_transpose<float, 0>(in, out, w); }
extern "C" __global__ void k_tile_float_pad(const float* in, float* out, int w) { tile_transpose<float, 1>(in, out, w); }
extern "C" __global__ void k_tile_double(const double* in, double* out, int w) { tile_transpose<double, 0>(in, out, w); }
extern "C" __global__ void k_tile_double_pad(const double* in, double* out, int w) { tile_transpose<double, 1>(in, out, w); }

// Dynamic 32 x pitch tile (32x32 blocks): rows written, columns read; the pitch sets the
// conflicts of the column read (gcd(pitch, 32) ways). Dynamic shared: 32 * pitch * 4 bytes.
extern "C" __global__ void k_sh_tile_pitch(const float* in, float* out, int pitch) {
  float* tile = reinterpret_cast<float*>(dynamic_smem);
  int tx = threadIdx.x, ty = threadIdx.y;
  int g = (blockIdx.x * blockDim.y + ty) * blockDim.x + tx;
  tile[ty * pitch + tx] = in[g];
  __syncthreads();
  out[g] = tile[tx * pitch + ty];
}
