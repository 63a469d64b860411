// Corpus: 1-D and 2-D stencils with halos staged in shared memory. Written for memsim's corpus;
// no code copied.
//
// Modelled on the CUDA-by-example style 1-D stencil of the NVIDIA "CUDA C/C++ Basics" slides
// (RADIUS halo loaded by the first RADIUS threads), the NVIDIA blog "Finite Difference Methods in
// CUDA C/C++, Part 1" (derivative along x with a shared tile plus halo), and NVIDIA/cuda-samples
// Samples/2_Concepts_and_Techniques/convolutionSeparable/convolutionSeparable.cu (row filter,
// apron columns, filter taps in __constant__ memory).

#define RADIUS 3
#define BLOCK_1D 256

// 1-D stencil of radius 3: threads below RADIUS also load the left and right halo.
extern "C" __global__ void k_stencil1d(const float* in, float* out, int n) {
  __shared__ float temp[BLOCK_1D + 2 * RADIUS];
  int gindex = blockIdx.x * blockDim.x + threadIdx.x;
  int lindex = threadIdx.x + RADIUS;
  temp[lindex] = gindex < n ? in[gindex] : 0.0f;
  if (threadIdx.x < RADIUS) {
    int left = gindex - RADIUS, right = gindex + BLOCK_1D;
    temp[lindex - RADIUS] = left >= 0 ? in[left] : 0.0f;
    temp[lindex + BLOCK_1D] = right < n ? in[right] : 0.0f;
  }
  __syncthreads();
  if (gindex < n) {
    float result = 0.0f;
    for (int offset = -RADIUS; offset <= RADIUS; offset++) result += temp[lindex + offset];
    out[gindex] = result;
  }
}

// 1-D convolution with taps in constant memory and a runtime-sized dynamic halo.
__constant__ float c_taps[17] = {0.01f, 0.02f, 0.03f, 0.04f, 0.05f, 0.06f, 0.07f, 0.08f, 0.28f,
                                   0.08f, 0.07f, 0.06f, 0.05f, 0.04f, 0.03f, 0.02f, 0.01f};

extern "C" __global__ void k_conv1d_const(const float* __restrict__ in, float* __restrict__ out, int n, int radius) {
  extern __shared__ float tile[];  // blockDim.x + 2 * radius
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = threadIdx.x; j < blockDim.x + 2 * radius; j += blockDim.x) {
    int src = blockIdx.x * blockDim.x + j - radius;
    tile[j] = (src >= 0 && src < n) ? in[src] : 0.0f;
  }
  __syncthreads();
  if (g < n) {
    float acc = 0.0f;
    for (int k = -radius; k <= radius; k++) acc += c_taps[k + radius] * tile[threadIdx.x + radius + k];
    out[g] = acc;
  }
}

// 2-D 5-point Jacobi step on a (ny, nx) grid, 16x16 tile plus a one-cell halo in shared memory.
#define TX 16
#define TY 16
extern "C" __global__ void k_jacobi2d(const float* __restrict__ u, float* __restrict__ unew, int nx, int ny) {
  __shared__ float s[TY + 2][TX + 2];
  int x = blockIdx.x * TX + threadIdx.x;
  int y = blockIdx.y * TY + threadIdx.y;
  int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
  bool inside = x < nx && y < ny;
  s[ly][lx] = inside ? u[y * nx + x] : 0.0f;
  if (threadIdx.x == 0) s[ly][0] = (x > 0 && y < ny) ? u[y * nx + x - 1] : 0.0f;
  if (threadIdx.x == TX - 1) s[ly][TX + 1] = (x + 1 < nx && y < ny) ? u[y * nx + x + 1] : 0.0f;
  if (threadIdx.y == 0) s[0][lx] = (y > 0 && x < nx) ? u[(y - 1) * nx + x] : 0.0f;
  if (threadIdx.y == TY - 1) s[TY + 1][lx] = (y + 1 < ny && x < nx) ? u[(y + 1) * nx + x] : 0.0f;
  __syncthreads();
  if (inside && x > 0 && y > 0 && x < nx - 1 && y < ny - 1) {
    unew[y * nx + x] = 0.25f * (s[ly][lx - 1] + s[ly][lx + 1] + s[ly - 1][lx] + s[ly + 1][lx]);
  }
}

// x-derivative of an (ny, nx) field, 8th-order: a 32 x 4 block of rows of a 64-wide pencil,
// four-point halos on each side.
#define PENCIL 64
#define HALO 4
extern "C" __global__ void k_deriv_x(const float* __restrict__ f, float* __restrict__ df, int nx, float inv_dx) {
  __shared__ float s_f[4][PENCIL + 2 * HALO];
  int row = blockIdx.y * 4 + threadIdx.y;
  int x0 = blockIdx.x * PENCIL;
  for (int i = threadIdx.x; i < PENCIL + 2 * HALO; i += blockDim.x) {
    int gx = x0 + i - HALO;
    gx = gx < 0 ? gx + nx : (gx >= nx ? gx - nx : gx);  // periodic
    s_f[threadIdx.y][i] = f[row * nx + gx];
  }
  __syncthreads();
  const float a = 4.0f / 5, b = -1.0f / 5, c = 4.0f / 105, d = -1.0f / 280;
  for (int i = threadIdx.x; i < PENCIL; i += blockDim.x) {
    int l = i + HALO;
    float v = a * (s_f[threadIdx.y][l + 1] - s_f[threadIdx.y][l - 1]) +
              b * (s_f[threadIdx.y][l + 2] - s_f[threadIdx.y][l - 2]) +
              c * (s_f[threadIdx.y][l + 3] - s_f[threadIdx.y][l - 3]) +
              d * (s_f[threadIdx.y][l + 4] - s_f[threadIdx.y][l - 4]);
    df[row * nx + x0 + i] = v * inv_dx;
  }
}

// 3x3 box blur on a (h, w) image, shared tile with a one-pixel apron, 2-D grid, 32x8 blocks;
// edge pixels clamp to the border.
extern "C" __global__ void k_box_blur3x3(const float* __restrict__ img, float* __restrict__ out, int w, int h) {
  __shared__ float tile[8 + 2][32 + 2];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 8 + threadIdx.y;
  for (int j = threadIdx.y; j < 10; j += 8) {
    for (int i = threadIdx.x; i < 34; i += 32) {
      int gx = min(max((int)(blockIdx.x * 32) + i - 1, 0), w - 1);
      int gy = min(max((int)(blockIdx.y * 8) + j - 1, 0), h - 1);
      tile[j][i] = img[gy * w + gx];
    }
  }
  __syncthreads();
  if (x < w && y < h) {
    float s = 0.0f;
    for (int dy = 0; dy < 3; dy++)
      for (int dx = 0; dx < 3; dx++) s += tile[threadIdx.y + dy][threadIdx.x + dx];
    out[y * w + x] = s * (1.0f / 9.0f);
  }
}
