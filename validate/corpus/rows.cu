// Corpus: row-wise softmax and layernorm over an (N, C) float matrix. Written for memsim's
// corpus; no code copied.
//
// Modelled on karpathy/llm.c dev/cuda/softmax_forward.cu and dev/cuda/layernorm_forward.cu
// (kernel 1: one thread per row; the block-per-row kernel with a shared-memory reduction; the
// warp-per-row kernels with __shfl_down_sync / __shfl_xor_sync, mean and rstd written out),
// and on the NVIDIA blog "Using Shared Memory in CUDA C/C++" for the block reductions.

// NVRTC has no <math.h>: minus infinity from its bit pattern.
#define NEG_INF __int_as_float(0xff800000)

// One thread per row: the naive first kernel everybody writes.
extern "C" __global__ void k_softmax_thread_per_row(const float* inp, float* out, int N, int C) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= N) return;
  const float* x = inp + row * C;
  float maxval = NEG_INF;
  for (int j = 0; j < C; j++) maxval = fmaxf(maxval, x[j]);
  float sum = 0.0f;
  for (int j = 0; j < C; j++) sum += expf(x[j] - maxval);
  float norm = 1.0f / sum;
  for (int j = 0; j < C; j++) out[row * C + j] = expf(x[j] - maxval) * norm;
}

// One block per row; max and sum reduced in shared memory (tree), divided by the runtime sum.
extern "C" __global__ void k_softmax_block_per_row(const float* inp, float* out, int N, int C) {
  extern __shared__ float shared[];
  int row = blockIdx.x;
  int tid = threadIdx.x;
  const float* x = inp + row * C;
  float maxval = NEG_INF;
  for (int j = tid; j < C; j += blockDim.x) maxval = fmaxf(maxval, x[j]);
  shared[tid] = maxval;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
    __syncthreads();
    if (tid < stride) shared[tid] = fmaxf(shared[tid], shared[tid + stride]);
  }
  __syncthreads();
  float offset = shared[0];
  __syncthreads();
  float sumval = 0.0f;
  for (int j = tid; j < C; j += blockDim.x) {
    float e = expf(x[j] - offset);
    out[row * C + j] = e;
    sumval += e;
  }
  shared[tid] = sumval;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
    __syncthreads();
    if (tid < stride) shared[tid] += shared[tid + stride];
  }
  __syncthreads();
  float sum = shared[0];
  for (int j = tid; j < C; j += blockDim.x) out[row * C + j] = out[row * C + j] / sum;
}

// One warp per row with shuffle reductions (__shfl_xor_sync: every lane gets the result).
__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
  return v;
}
__device__ __forceinline__ float warp_add(float v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}

extern "C" __global__ void k_softmax_warp_per_row(const float* __restrict__ inp, float* __restrict__ out,
                                                   int N, int C) {
  int warps_per_block = blockDim.x / 32;
  int row = blockIdx.x * warps_per_block + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= N) return;
  const float* x = inp + row * C;
  float maxval = NEG_INF;
  for (int j = lane; j < C; j += 32) maxval = fmaxf(maxval, x[j]);
  maxval = warp_max(maxval);
  float sum = 0.0f;
  for (int j = lane; j < C; j += 32) sum += __expf(x[j] - maxval);
  sum = warp_add(sum);
  for (int j = lane; j < C; j += 32) out[row * C + j] = __expf(x[j] - maxval) / sum;
}

// Online softmax (running max and rescaled sum in one pass), float4 loads, warp per row.
extern "C" __global__ void k_softmax_online_float4(const float4* __restrict__ inp, float4* __restrict__ out,
                                                    int N, int C4) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x & 31;
  if (row >= N) return;
  const float4* x = inp + (size_t)row * C4;
  float m = NEG_INF, s = 0.0f;
  for (int j = lane; j < C4; j += 32) {
    float4 v = x[j];
    float local_max = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
    float new_m = fmaxf(m, local_max);
    s = s * __expf(m - new_m) + __expf(v.x - new_m) + __expf(v.y - new_m) + __expf(v.z - new_m) +
        __expf(v.w - new_m);
    m = new_m;
  }
  for (int o = 16; o > 0; o >>= 1) {
    float other_m = __shfl_xor_sync(0xffffffff, m, o);
    float other_s = __shfl_xor_sync(0xffffffff, s, o);
    float new_m = fmaxf(m, other_m);
    s = s * __expf(m - new_m) + other_s * __expf(other_m - new_m);
    m = new_m;
  }
  float inv = 1.0f / s;
  for (int j = lane; j < C4; j += 32) {
    float4 v = x[j];
    float4 r;
    r.x = __expf(v.x - m) * inv;
    r.y = __expf(v.y - m) * inv;
    r.z = __expf(v.z - m) * inv;
    r.w = __expf(v.w - m) * inv;
    out[(size_t)row * C4 + j] = r;
  }
}

// LayerNorm, one thread per row (llm.c's reference-like kernel 1).
extern "C" __global__ void k_layernorm_thread_per_row(float* out, float* mean, float* rstd, const float* inp,
                                                       const float* weight, const float* bias, int N, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  float eps = 1e-5f;
  if (idx < N) {
    const float* x = inp + idx * C;
    float m = 0.0f;
    for (int i = 0; i < C; i++) m += x[i];
    m = m / C;
    float v = 0.0f;
    for (int i = 0; i < C; i++) {
      float xshift = x[i] - m;
      v += xshift * xshift;
    }
    v = v / C;
    float s = 1.0f / sqrtf(v + eps);
    float* out_idx = out + idx * C;
    for (int i = 0; i < C; i++) out_idx[i] = s * (x[i] - m) * weight[i] + bias[i];
    mean[idx] = m;
    rstd[idx] = s;
  }
}

// LayerNorm, one block per row; mean and variance reduced in shared memory.
extern "C" __global__ void k_layernorm_block_per_row(float* out, float* mean, float* rstd, const float* inp,
                                                      const float* weight, const float* bias, int C) {
  extern __shared__ float red[];
  int row = blockIdx.x, tid = threadIdx.x;
  const float* x = inp + row * C;
  float s = 0.0f;
  for (int i = tid; i < C; i += blockDim.x) s += x[i];
  red[tid] = s;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) red[tid] += red[tid + stride];
    __syncthreads();
  }
  float m = red[0] / C;
  __syncthreads();
  float v = 0.0f;
  for (int i = tid; i < C; i += blockDim.x) {
    float d = x[i] - m;
    v += d * d;
  }
  red[tid] = v;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) red[tid] += red[tid + stride];
    __syncthreads();
  }
  float r = rsqrtf(red[0] / C + 1e-5f);
  for (int i = tid; i < C; i += blockDim.x) out[row * C + i] = (x[i] - m) * r * weight[i] + bias[i];
  if (tid == 0) {
    mean[row] = m;
    rstd[row] = r;
  }
}

// LayerNorm, one warp per row, shuffles for both sums, __ldcs / __stcs streaming hints.
extern "C" __global__ void k_layernorm_warp_per_row(float* __restrict__ out, float* __restrict__ mean,
                                                     float* __restrict__ rstd, const float* __restrict__ inp,
                                                     const float* __restrict__ weight,
                                                     const float* __restrict__ bias, int N, int C) {
  int lane = threadIdx.x % 32;
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= N) return;
  const float* x = inp + row * C;
  float sum = 0.0f;
  for (int i = lane; i < C; i += 32) sum += x[i];
  sum = warp_add(sum);
  float m = sum / C;
  float var = 0.0f;
  for (int i = lane; i < C; i += 32) {
    float d = x[i] - m;
    var += d * d;
  }
  var = warp_add(var);
  float s = rsqrtf(var / C + 1e-5f);
  float* o = out + row * C;
  for (int c = lane; c < C; c += 32) {
    float n = s * (__ldcs(x + c) - m);
    __stcs(o + c, n * weight[c] + bias[c]);
  }
  if (lane == 0) {
    mean[row] = m;
    rstd[row] = s;
  }
}
