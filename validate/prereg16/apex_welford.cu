// Pre-registered public kernel (not written for memsim): NVIDIA/apex
// apex's synchronized batch norm kernels for NCHW tensors: welford_kernel (a block a channel of
// (min(MAX_BLOCK_SIZE / block_y, lastpow2(H*W)), min(lastpow2(N), 16)) threads: sequential Welford
// over the channel's N x H*W elements, then a shuffle and shared-memory merge), batchnorm_forward
// and batchnorm_backward (a (C, batch groups, spatial groups) grid striding over N and H*W),
// reduce_bn_kernel (Kahan sums of dy and dy*(x-mean), block reductions through shared memory) and
// welford_kernel_parallel (a grid-stride loop over channels merging per-process statistics);
// float, and half tensors with float statistics and weights; copied for memsim's sixteenth
// pre-registered set (validate/prereg16_cases.py).
//
// Repository: NVIDIA/apex, commit 6424da3b4faa6c8f062da4a48c424fff3f02d42d
// Paths: csrc/welford.cu (this commit)
// Licence: BSD-3-Clause (the repository's LICENSE; text in validate/prereg16/LICENSES.md)
//
// Edits, all outside the kernel bodies, which are unchanged (the helpers and kernels copied whole,
// in the source's order, under `// --- path:lines`):
// - the #include lines are dropped (ATen, <cuda.h>, <cuda_runtime.h>, <iostream>, <vector>,
//   type_shim.h: host code) and <cuda_fp16.h> included for the half instances (at::Half is torch's
//   type of __half's layout: the instances use __half); int64_t defined as <cstdint>'s; NULL
//   defined as <stddef.h>'s where the headers leave it undefined;
// - the host helpers (h_next_pow2, h_last_pow2, div_ru, flexible_launch_configs and the tensor
//   helpers) and the host launchers are left out: their launch shapes are in
//   validate/prereg16_cases.py; the channels-last kernels (*_c_last: grid-wide semaphores and
//   staging buffers across blocks) and the block-vertical merges they use are left out; the
//   kernel templates are instantiated explicitly at the end for float (float statistics and
//   weights) and for half tensors with float statistics and weights (the launchers' mixed path).
#include <cuda_fp16.h>
typedef long long int64_t;   // <cstdint>'s
#ifndef NULL
#define NULL 0               // <stddef.h>'s
#endif

// --- csrc/welford.cu:12-16
__device__ __forceinline__ int lastpow2(int n) {
  int out = 1 << (31 - __clz(n));
  if (n == out) out >>= 1;
  return out;
}

// --- csrc/welford.cu:37-63
#define WARP_SIZE 32

template <typename T>
__device__ __forceinline__ T warp_reduce_sum(T val) {
#pragma unroll
  for (int i = WARP_SIZE / 2; i > 0; i >>= 1) val = val + __shfl_down_sync(0xffffffff, val, i);
  return val;
}

template <typename T>
__device__ __forceinline__ T reduce_block(T* x, T val) {
  int tid = threadIdx.y * blockDim.x + threadIdx.x;
  int blockSize = blockDim.x * blockDim.y;

  if (blockSize > 32) {
    val = warp_reduce_sum(val);
    if (tid % WARP_SIZE == 0) x[tid / WARP_SIZE] = val;

    __syncthreads();

    val = (tid < blockSize / WARP_SIZE ? x[tid % WARP_SIZE] : T(0));
  }

  if (tid / WARP_SIZE == 0) val = warp_reduce_sum(val);

  return val;
}

// --- csrc/welford.cu:96-142
template <typename T, typename C>
__device__ __forceinline__ void welford_merge_element(C& count, T& mean, T& m2n, const C& num_new, const T& mean_new,
                                                      const T& m2n_new) {
  T factor = T(1.0) / max(1, (count + num_new));
  T delta0 = mean - mean_new;
  mean = (mean_new * num_new + mean * count) * factor;
  m2n += m2n_new + delta0 * delta0 * num_new * count * factor;
  count += num_new;
}

template <typename T>
__device__ __forceinline__ void warp_reduce_mean_m2n(T& mean, T& m2n, int& num) {
#pragma unroll
  for (int i = WARP_SIZE / 2; i > 0; i >>= 1) {
    auto num_new = __shfl_down_sync(0xffffffff, num, i);
    auto mean_new = __shfl_down_sync(0xffffffff, mean, i);
    auto m2n_new = __shfl_down_sync(0xffffffff, m2n, i);
    welford_merge_element(num, mean, m2n, num_new, mean_new, m2n_new);
  }
}

template <typename T>
__device__ void welford_reduce_mean_m2n(T* __restrict__ x, int* __restrict__ count, T& mean, T& m2n, int& num,
                                        int block_size, int thread_id) {
  int lane = thread_id % WARP_SIZE;
  int wid = thread_id / WARP_SIZE;

  if (block_size > 32) {
    warp_reduce_mean_m2n(mean, m2n, num);
    if (lane == 0) {
      x[wid * 2] = mean;
      x[wid * 2 + 1] = m2n;
      count[wid] = num;
    }
    __syncthreads();

    if (wid == 0) {
      mean = (thread_id < block_size / WARP_SIZE) ? x[lane * 2] : T(0);
      m2n = (thread_id < block_size / WARP_SIZE) ? x[lane * 2 + 1] : T(0);
      num = (thread_id < block_size / WARP_SIZE) ? count[lane] : int(0);
    }
  }

  if (wid == 0) warp_reduce_mean_m2n(mean, m2n, num);

  return;
}

// --- csrc/welford.cu:217-363
template <typename scalar_t, typename accscalar_t, typename outscalar_t>
__global__ void welford_kernel(const scalar_t* __restrict__ input, outscalar_t* __restrict__ out_mean,
                               outscalar_t* __restrict__ out_var_biased, const int bs, const int fs, const int ss) {
  int block_size = blockDim.x * blockDim.y;
  int count = 0;
  accscalar_t x_mean = accscalar_t(0);
  accscalar_t m_2_n = accscalar_t(0);

  int thread_id = threadIdx.y * blockDim.x + threadIdx.x;

  for (int batch_id = threadIdx.y; batch_id < bs; batch_id += blockDim.y) {
    int input_base = blockIdx.x * ss + batch_id * ss * fs;
    // sequential welford
    for (int offset = threadIdx.x; offset < ss; offset += blockDim.x) {
      count++;
      auto x_n = static_cast<accscalar_t>(input[offset + input_base]);
      auto d = x_n - x_mean;
      x_mean += d / count;
      m_2_n += d * (x_n - x_mean);
    }
  }

  static __shared__ int s_mem[160];
  accscalar_t* s_mem_ac = (accscalar_t*)&s_mem[32];

  welford_reduce_mean_m2n<accscalar_t>(s_mem_ac, s_mem, x_mean, m_2_n, count, block_size, thread_id);

  if (thread_id == 0) {
    out_mean[blockIdx.x] = static_cast<outscalar_t>(x_mean);
    out_var_biased[blockIdx.x] = static_cast<outscalar_t>(m_2_n / count);
  }
}

// elementwise BN kernel
template <typename scalar_t, typename accscalar_t, typename layerscalar_t>
__global__ void batchnorm_forward_kernel(const scalar_t* __restrict__ input, const accscalar_t* __restrict__ mean,
                                         const accscalar_t* __restrict__ inv_std,
                                         const layerscalar_t* __restrict__ weight,
                                         const layerscalar_t* __restrict__ shift, scalar_t* __restrict__ out,
                                         const int ss, const int bs) {
  auto m_c = mean[blockIdx.x];
  auto inv_std_c = inv_std[blockIdx.x];
  auto w_c = weight == NULL ? accscalar_t(1.0) : static_cast<accscalar_t>(weight[blockIdx.x]);
  auto s_c = shift == NULL ? accscalar_t(0.0) : static_cast<accscalar_t>(shift[blockIdx.x]);

  for (int batch_offset = blockIdx.y * blockDim.y + threadIdx.y; batch_offset < bs;
       batch_offset += gridDim.y * blockDim.y) {
    int address_base = blockIdx.x * ss + batch_offset * gridDim.x * ss;
    for (int offset = threadIdx.x + blockIdx.z * blockDim.x; offset < ss; offset += gridDim.z * blockDim.x) {
      out[address_base + offset] =
          static_cast<scalar_t>(w_c * (static_cast<accscalar_t>(input[address_base + offset]) - m_c) * inv_std_c + s_c);
    }
  }
}

// Backward BN kernel, calculates grad_bias, grad_weight as well as intermediate
// results to calculating grad_input.
// Breaking the grad_input to two step to support sync BN, which requires all
// reduce of the intermediate results across processes.
template <typename scalar_t, typename accscalar_t, typename layerscalar_t>
__global__ void reduce_bn_kernel(const scalar_t* __restrict__ input, const scalar_t* __restrict__ grad_output,
                                 const accscalar_t* __restrict__ mean, const accscalar_t* __restrict__ inv_std,
                                 accscalar_t* __restrict__ sum_dy_o, accscalar_t* __restrict__ sum_dy_xmu_o,
                                 layerscalar_t* __restrict__ grad_weight, layerscalar_t* __restrict__ grad_bias,
                                 const int bs, const int fs, const int ss) {
  static __shared__ int s_mem[64];
  // int total_item_num = bs * ss;

  int thread_id = threadIdx.y * blockDim.x + threadIdx.x;

  auto r_mean = mean[blockIdx.x];
  auto factor = inv_std[blockIdx.x];

  // Kahan sum
  accscalar_t sum_dy = 0.0;
  accscalar_t sum_dy_xmu = 0.0;
  accscalar_t sum_dy_c = 0.0;
  accscalar_t sum_dy_xmu_c = 0.0;
  for (int batch_id = threadIdx.y; batch_id < bs; batch_id += blockDim.y) {
    int input_base = blockIdx.x * ss + batch_id * ss * fs;
    for (int offset = threadIdx.x; offset < ss; offset += blockDim.x) {
      auto e_grad = static_cast<accscalar_t>(grad_output[offset + input_base]);
      auto e_input = static_cast<accscalar_t>(input[offset + input_base]);
      // calculating sum_dy
      auto sum_dy_y = e_grad - sum_dy_c;
      auto sum_dy_t = sum_dy + sum_dy_y;
      sum_dy_c = (sum_dy_t - sum_dy) - sum_dy_y;
      sum_dy = sum_dy_t;

      // calculating sum_dy_xmu
      auto sum_dy_xmu_y = e_grad * (e_input - r_mean) - sum_dy_xmu_c;
      auto sum_dy_xmu_t = sum_dy_xmu + sum_dy_xmu_y;
      sum_dy_xmu_c = (sum_dy_xmu_t - sum_dy_xmu) - sum_dy_xmu_y;
      sum_dy_xmu = sum_dy_xmu_t;
    }
  }

  sum_dy = reduce_block((accscalar_t*)s_mem, sum_dy);
  __syncthreads();
  sum_dy_xmu = reduce_block((accscalar_t*)s_mem, sum_dy_xmu);

  if (thread_id == 0) {
    if (grad_bias != NULL) {
      grad_bias[blockIdx.x] = static_cast<layerscalar_t>(sum_dy);
    }
    if (grad_weight != NULL) {
      grad_weight[blockIdx.x] = static_cast<layerscalar_t>(sum_dy_xmu * factor);
    }
    // mean_dy[blockIdx.x] = sum_dy / total_item_num;
    // mean_dy_xmu[blockIdx.x] = sum_dy_xmu / total_item_num;
    sum_dy_o[blockIdx.x] = sum_dy;
    sum_dy_xmu_o[blockIdx.x] = sum_dy_xmu;
  }
}

// elementwise backward BN kernel
template <typename scalar_t, typename accscalar_t, typename layerscalar_t>
__global__ void batchnorm_backward_kernel(const scalar_t* __restrict__ grad_output, const scalar_t* __restrict__ input,
                                          const accscalar_t* __restrict__ mean, const accscalar_t* __restrict__ inv_std,
                                          const layerscalar_t* __restrict__ weight,
                                          const accscalar_t* __restrict__ sum_dy,
                                          const accscalar_t* __restrict__ sum_dy_xmu, const int* __restrict__ numel,
                                          scalar_t* __restrict__ grad_input, const int64_t world_size, const int ss,
                                          const int bs) {
  int64_t div = 0;
  for (int i = 0; i < world_size; i++) {
    div += numel[i];
  }
  auto m_c = static_cast<accscalar_t>(mean[blockIdx.x]);
  // auto m_dy_c = static_cast<accscalar_t>(mean_dy[blockIdx.x]);
  auto m_dy_c = static_cast<accscalar_t>(sum_dy[blockIdx.x]) / div;
  auto factor_1_c = inv_std[blockIdx.x];
  auto factor_2_c = (weight == NULL ? accscalar_t(1.0) : static_cast<accscalar_t>(weight[blockIdx.x])) * factor_1_c;
  // factor_1_c = factor_1_c * factor_1_c * mean_dy_xmu[blockIdx.x];
  factor_1_c = factor_1_c * factor_1_c * sum_dy_xmu[blockIdx.x] / div;

  for (int batch_offset = blockIdx.y * blockDim.y + threadIdx.y; batch_offset < bs;
       batch_offset += gridDim.y * blockDim.y) {
    int address_base = blockIdx.x * ss + batch_offset * gridDim.x * ss;
    for (int offset = threadIdx.x + blockIdx.z * blockDim.x; offset < ss; offset += gridDim.z * blockDim.x) {
      grad_input[address_base + offset] =
          (static_cast<accscalar_t>(grad_output[address_base + offset]) - m_dy_c -
           (static_cast<accscalar_t>(input[address_base + offset]) - m_c) * factor_1_c) *
          factor_2_c;
    }
  }
}

// --- csrc/welford.cu:498-520

// parallel welford kernel to further reduce mean / biased_var
// into mean / unbiased_var / inv_std across multiple processes.
template <typename scalar_t>
__global__ void welford_kernel_parallel(const scalar_t* __restrict__ mean, const scalar_t* __restrict__ var_biased,
                                        const int* __restrict__ numel, scalar_t* __restrict__ out_mean,
                                        scalar_t* __restrict__ out_var, scalar_t* __restrict__ inv_std,
                                        const int world_size, const int feature_size, const float eps) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < feature_size; i += gridDim.x * blockDim.x) {
    // load data;
    int address = i;
    scalar_t x_mean = 0;
    scalar_t m_2_n = 0;
    int count = 0;
    for (int j = 0; j < world_size; j++) {
      welford_merge_element(count, x_mean, m_2_n, numel[j], mean[address], var_biased[address] * numel[j]);
      address += feature_size;
    }
    out_mean[i] = x_mean;
    out_var[i] = m_2_n / (count - 1);
    inv_std[i] = scalar_t(1) / sqrt(m_2_n / count + eps);
  }
}

// explicit instances (float; half tensors with float statistics and weights)
template __global__ void welford_kernel<float, float, float>(const float* __restrict__, float* __restrict__,
                                                            float* __restrict__, const int, const int, const int);
template __global__ void welford_kernel<__half, float, float>(const __half* __restrict__, float* __restrict__,
                                                             float* __restrict__, const int, const int, const int);
template __global__ void batchnorm_forward_kernel<float, float, float>(
    const float* __restrict__, const float* __restrict__, const float* __restrict__, const float* __restrict__,
    const float* __restrict__, float* __restrict__, const int, const int);
template __global__ void batchnorm_forward_kernel<__half, float, float>(
    const __half* __restrict__, const float* __restrict__, const float* __restrict__, const float* __restrict__,
    const float* __restrict__, __half* __restrict__, const int, const int);
template __global__ void reduce_bn_kernel<float, float, float>(
    const float* __restrict__, const float* __restrict__, const float* __restrict__, const float* __restrict__,
    float* __restrict__, float* __restrict__, float* __restrict__, float* __restrict__, const int, const int, const int);
template __global__ void reduce_bn_kernel<__half, float, float>(
    const __half* __restrict__, const __half* __restrict__, const float* __restrict__, const float* __restrict__,
    float* __restrict__, float* __restrict__, float* __restrict__, float* __restrict__, const int, const int, const int);
template __global__ void batchnorm_backward_kernel<float, float, float>(
    const float* __restrict__, const float* __restrict__, const float* __restrict__, const float* __restrict__,
    const float* __restrict__, const float* __restrict__, const float* __restrict__, const int* __restrict__,
    float* __restrict__, const int64_t, const int, const int);
template __global__ void batchnorm_backward_kernel<__half, float, float>(
    const __half* __restrict__, const __half* __restrict__, const float* __restrict__, const float* __restrict__,
    const float* __restrict__, const float* __restrict__, const float* __restrict__, const int* __restrict__,
    __half* __restrict__, const int64_t, const int, const int);
template __global__ void welford_kernel_parallel<float>(const float* __restrict__, const float* __restrict__,
                                                        const int* __restrict__, float* __restrict__,
                                                        float* __restrict__, float* __restrict__, const int,
                                                        const int, const float);
