// Corpus: an SGEMM ladder, C = alpha * A * B + beta * C with row-major A (M x K), B (K x N),
// C (M x N), plus matrix-vector products. Written for memsim's corpus; no code copied.
//
// The ladder is modelled on siboehm/SGEMM_CUDA src/kernels/1_naive.cuh, 2_kernel_global_mem_coalesce.cuh,
// 3_kernel_shared_mem_blocking.cuh, 4_kernel_1D_blocktiling.cuh, 5_kernel_2D_blocktiling.cuh and
// 6_kernel_vectorize.cuh (and the blog post "How to Optimize a CUDA Matmul Kernel for cuBLAS-like
// Performance"), on NVIDIA/cuda-samples Samples/0_Introduction/matrixMul/matrixMul.cu (templated
// square tiles) and, for the cp.async double buffering, on NVIDIA/cuda-samples
// Samples/3_CUDA_Features/globalToShmemAsyncCopy/globalToShmemAsyncCopy.cu (MatrixMulAsyncCopy)
// and the PTX ISA's cp.async / cp.async.wait_group (inline PTX, no header needed).
// Sizes must be multiples of the tiles (the corpus launches them so).

// 1. Naive, x over rows: lanes of a warp walk down A's column: uncoalesced.
extern "C" __global__ void k_sgemm_naive(int M, int N, int K, float alpha, const float* A, const float* B,
                                         float beta, float* C) {
  const unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N) {
    float tmp = 0.0f;
    for (int i = 0; i < K; ++i) tmp += A[x * K + i] * B[i * N + y];
    C[x * N + y] = alpha * tmp + beta * C[x * N + y];
  }
}

// 2. Global-memory coalescing: 1-D blocks of 32*32 threads, a warp spans a row of C.
template <const unsigned int BLOCKSIZE>
__global__ void k_sgemm_coalesced(int M, int N, int K, float alpha, const float* A, const float* B,
                                  float beta, float* C) {
  const int row = blockIdx.x * BLOCKSIZE + (threadIdx.x / BLOCKSIZE);
  const int col = blockIdx.y * BLOCKSIZE + (threadIdx.x % BLOCKSIZE);
  if (row < M && col < N) {
    float tmp = 0.0f;
    for (int i = 0; i < K; ++i) tmp += A[row * K + i] * B[i * N + col];
    C[row * N + col] = alpha * tmp + beta * C[row * N + col];
  }
}
template __global__ void k_sgemm_coalesced<32>(int, int, int, float, const float*, const float*, float, float*);

// 3. Shared-memory tiling, square TILE x TILE blocks (launched with 16 and 32).
template <int TILE>
__global__ void k_sgemm_tiled(int M, int N, int K, float alpha, const float* __restrict__ A,
                              const float* __restrict__ B, float beta, float* __restrict__ C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = A[row * K + t + tx];
    Bs[ty][tx] = B[(t + ty) * N + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = alpha * acc + beta * C[row * N + col];
}
template __global__ void k_sgemm_tiled<16>(int, int, int, float, const float* __restrict__,
                                           const float* __restrict__, float, float* __restrict__);
template __global__ void k_sgemm_tiled<32>(int, int, int, float, const float* __restrict__,
                                           const float* __restrict__, float, float* __restrict__);

// 4. 1-D register blocking: each thread computes TM results down a column of the BM x BN tile.
template <const int BM, const int BN, const int BK, const int TM>
__global__ void k_sgemm_1d_blocktile(int M, int N, int K, float alpha, const float* A, const float* B,
                                     float beta, float* C) {
  const unsigned int c_row = blockIdx.y, c_col = blockIdx.x;
  const int thread_col = threadIdx.x % BN;
  const int thread_row = threadIdx.x / BN;
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  A += c_row * BM * K;
  B += c_col * BN;
  C += c_row * BM * N + c_col * BN;
  const unsigned int inner_col_a = threadIdx.x % BK, inner_row_a = threadIdx.x / BK;
  const unsigned int inner_col_b = threadIdx.x % BN, inner_row_b = threadIdx.x / BN;
  float results[TM] = {0.0f};
  for (unsigned int bk = 0; bk < K; bk += BK) {
    As[inner_row_a * BK + inner_col_a] = A[inner_row_a * K + inner_col_a];
    Bs[inner_row_b * BN + inner_col_b] = B[inner_row_b * N + inner_col_b];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (unsigned int dot = 0; dot < BK; ++dot) {
      float b_tmp = Bs[dot * BN + thread_col];
      for (unsigned int r = 0; r < TM; ++r) results[r] += As[(thread_row * TM + r) * BK + dot] * b_tmp;
    }
    __syncthreads();
  }
  for (unsigned int r = 0; r < TM; ++r) {
    C[(thread_row * TM + r) * N + thread_col] = alpha * results[r] + beta * C[(thread_row * TM + r) * N + thread_col];
  }
}
template __global__ void k_sgemm_1d_blocktile<64, 64, 8, 8>(int, int, int, float, const float*, const float*, float, float*);

// 5. 2-D register blocking: TM x TN results per thread, register caches of A's column and B's row.
template <const int BM, const int BN, const int BK, const int TM, const int TN>
__global__ void __launch_bounds__((BM * BN) / (TM * TN), 1)
k_sgemm_2d_blocktile(int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C) {
  const unsigned int c_row = blockIdx.y, c_col = blockIdx.x;
  const unsigned int threads = (BM * BN) / (TM * TN);
  const int thread_col = threadIdx.x % (BN / TN);
  const int thread_row = threadIdx.x / (BN / TN);
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  A += c_row * BM * K;
  B += c_col * BN;
  C += c_row * BM * N + c_col * BN;
  const unsigned int inner_row_a = threadIdx.x / BK, inner_col_a = threadIdx.x % BK;
  const unsigned int stride_a = threads / BK;
  const unsigned int inner_row_b = threadIdx.x / BN, inner_col_b = threadIdx.x % BN;
  const unsigned int stride_b = threads / BN;
  float thread_results[TM * TN] = {0.0f};
  float reg_m[TM] = {0.0f};
  float reg_n[TN] = {0.0f};
  for (unsigned int bk = 0; bk < K; bk += BK) {
    for (unsigned int off = 0; off < BM; off += stride_a)
      As[(inner_row_a + off) * BK + inner_col_a] = A[(inner_row_a + off) * K + inner_col_a];
    for (unsigned int off = 0; off < BK; off += stride_b)
      Bs[(inner_row_b + off) * BN + inner_col_b] = B[(inner_row_b + off) * N + inner_col_b];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (unsigned int dot = 0; dot < BK; ++dot) {
      for (unsigned int i = 0; i < TM; ++i) reg_m[i] = As[(thread_row * TM + i) * BK + dot];
      for (unsigned int i = 0; i < TN; ++i) reg_n[i] = Bs[dot * BN + thread_col * TN + i];
      for (unsigned int m = 0; m < TM; ++m)
        for (unsigned int n = 0; n < TN; ++n) thread_results[m * TN + n] += reg_m[m] * reg_n[n];
    }
    __syncthreads();
  }
  for (unsigned int m = 0; m < TM; ++m)
    for (unsigned int n = 0; n < TN; ++n) {
      float* c = &C[(thread_row * TM + m) * N + thread_col * TN + n];
      *c = alpha * thread_results[m * TN + n] + beta * *c;
    }
}
template __global__ void k_sgemm_2d_blocktile<64, 64, 8, 4, 4>(int, int, int, float, const float*, const float*, float, float*);
template __global__ void k_sgemm_2d_blocktile<128, 128, 8, 8, 8>(int, int, int, float, const float*, const float*, float, float*);

// 6. Vectorised: float4 loads from global, A stored transposed in shared memory, float4 reads
// of B's shared row and float4 stores of C.
template <const int BM, const int BN, const int BK, const int TM, const int TN>
__global__ void k_sgemm_vectorized(int M, int N, int K, float alpha, float* A, float* B, float beta, float* C) {
  const unsigned int c_row = blockIdx.y, c_col = blockIdx.x;
  const int thread_col = threadIdx.x % (BN / TN);
  const int thread_row = threadIdx.x / (BN / TN);
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  A += c_row * BM * K;
  B += c_col * BN;
  C += c_row * BM * N + c_col * BN;
  const unsigned int inner_row_a = threadIdx.x / (BK / 4), inner_col_a = threadIdx.x % (BK / 4);
  const unsigned int inner_row_b = threadIdx.x / (BN / 4), inner_col_b = threadIdx.x % (BN / 4);
  float thread_results[TM * TN] = {0.0f};
  float reg_m[TM] = {0.0f};
  float reg_n[TN] = {0.0f};
  for (unsigned int bk = 0; bk < K; bk += BK) {
    float4 tmp = reinterpret_cast<float4*>(&A[inner_row_a * K + inner_col_a * 4])[0];
    As[(inner_col_a * 4 + 0) * BM + inner_row_a] = tmp.x;
    As[(inner_col_a * 4 + 1) * BM + inner_row_a] = tmp.y;
    As[(inner_col_a * 4 + 2) * BM + inner_row_a] = tmp.z;
    As[(inner_col_a * 4 + 3) * BM + inner_row_a] = tmp.w;
    reinterpret_cast<float4*>(&Bs[inner_row_b * BN + inner_col_b * 4])[0] =
        reinterpret_cast<float4*>(&B[inner_row_b * N + inner_col_b * 4])[0];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (unsigned int dot = 0; dot < BK; ++dot) {
      for (unsigned int i = 0; i < TM; ++i) reg_m[i] = As[dot * BM + thread_row * TM + i];
      for (unsigned int i = 0; i < TN; ++i) reg_n[i] = Bs[dot * BN + thread_col * TN + i];
      for (unsigned int m = 0; m < TM; ++m)
        for (unsigned int n = 0; n < TN; ++n) thread_results[m * TN + n] += reg_m[m] * reg_n[n];
    }
    __syncthreads();
  }
  for (unsigned int m = 0; m < TM; m += 1) {
    for (unsigned int n = 0; n < TN; n += 4) {
      float4 tmp = reinterpret_cast<float4*>(&C[(thread_row * TM + m) * N + thread_col * TN + n])[0];
      tmp.x = alpha * thread_results[m * TN + n] + beta * tmp.x;
      tmp.y = alpha * thread_results[m * TN + n + 1] + beta * tmp.y;
      tmp.z = alpha * thread_results[m * TN + n + 2] + beta * tmp.z;
      tmp.w = alpha * thread_results[m * TN + n + 3] + beta * tmp.w;
      reinterpret_cast<float4*>(&C[(thread_row * TM + m) * N + thread_col * TN + n])[0] = tmp;
    }
  }
}
// 64x64 tile, BK 16, 4x4 per thread: 256 threads, each loading one float4 of A and of B per step.
template __global__ void k_sgemm_vectorized<64, 64, 16, 4, 4>(int, int, int, float, float*, float*, float, float*);

// 7. Double-buffered cp.async (asynchronous global -> shared copies, 16 bytes per thread per
// matrix and stage), 32 x 32 tiles of C, 16 x 16 threads with 2 x 2 results each.
#define AS_TILE 32
#define AS_BK 32
__device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
  unsigned int s = static_cast<unsigned int>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
__device__ __forceinline__ void cp_async_wait_all_but_one() { asm volatile("cp.async.wait_group 1;\n" ::); }
__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_group 0;\n" ::); }

extern "C" __global__ void k_sgemm_cp_async(int M, int N, int K, const float* __restrict__ A,
                                            const float* __restrict__ B, float* __restrict__ C) {
  __shared__ __align__(16) float As[2][AS_TILE][AS_BK];
  __shared__ __align__(16) float Bs[2][AS_BK][AS_TILE];
  int tid = threadIdx.y * 16 + threadIdx.x;  // 256 threads
  int load_row = tid / 8, load_col = (tid % 8) * 4;  // 32 rows x 8 float4 per tile
  const float* a_tile = A + blockIdx.y * AS_TILE * K;
  const float* b_tile = B + blockIdx.x * AS_TILE;
  float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
  int tiles = K / AS_BK;
  cp_async16(&As[0][load_row][load_col], a_tile + load_row * K + load_col);
  cp_async16(&Bs[0][load_row][load_col], b_tile + load_row * N + load_col);
  cp_async_commit();
  for (int t = 0; t < tiles; ++t) {
    int cur = t & 1;
    if (t + 1 < tiles) {
      int k0 = (t + 1) * AS_BK;
      cp_async16(&As[cur ^ 1][load_row][load_col], a_tile + load_row * K + k0 + load_col);
      cp_async16(&Bs[cur ^ 1][load_row][load_col], b_tile + (k0 + load_row) * N + load_col);
      cp_async_commit();
      cp_async_wait_all_but_one();
    } else {
      cp_async_wait_all();
    }
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < AS_BK; ++k) {
      float a0 = As[cur][threadIdx.y * 2][k], a1 = As[cur][threadIdx.y * 2 + 1][k];
      float b0 = Bs[cur][k][threadIdx.x * 2], b1 = Bs[cur][k][threadIdx.x * 2 + 1];
      acc[0][0] += a0 * b0;
      acc[0][1] += a0 * b1;
      acc[1][0] += a1 * b0;
      acc[1][1] += a1 * b1;
    }
    __syncthreads();
  }
  int row = blockIdx.y * AS_TILE + threadIdx.y * 2, col = blockIdx.x * AS_TILE + threadIdx.x * 2;
  C[row * N + col] = acc[0][0];
  C[row * N + col + 1] = acc[0][1];
  C[(row + 1) * N + col] = acc[1][0];
  C[(row + 1) * N + col + 1] = acc[1][1];
}

// Matrix-vector products y = A x, A row-major (rows x cols).
// One thread per row: every lane strides through its own row (uncoalesced).
extern "C" __global__ void k_gemv_thread_per_row(const float* A, const float* x, float* y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (int c = 0; c < cols; ++c) s += A[r * cols + c] * x[c];
    y[r] = s;
  }
}

// One warp per row: coalesced row reads, shuffle reduction (the usual fix).
extern "C" __global__ void k_gemv_warp_per_row(const float* __restrict__ A, const float* __restrict__ x,
                                               float* __restrict__ y, int rows, int cols) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (warp >= rows) return;
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32) s += A[warp * cols + c] * __ldg(&x[c]);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
  if (lane == 0) y[warp] = s;
}

// Transposed product y = A^T x, a thread per column (coalesced across the warp), x staged in
// shared memory in chunks of blockDim.
extern "C" __global__ void k_gemv_transposed_shared_x(const float* A, const float* x, float* y, int rows, int cols) {
  extern __shared__ float xs[];
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int r0 = 0; r0 < rows; r0 += blockDim.x) {
    if (r0 + threadIdx.x < rows) xs[threadIdx.x] = x[r0 + threadIdx.x];
    __syncthreads();
    int chunk = min((int)blockDim.x, rows - r0);
    if (c < cols)
      for (int r = 0; r < chunk; ++r) s += A[(r0 + r) * cols + c] * xs[r];
    __syncthreads();
  }
  if (c < cols) y[c] = s;
}
