// Pre-registered public kernel (not written for memsim): vllm-project/vllm
// vLLM's activation kernels: the gated activations (silu_and_mul, mul_and_silu, gelu_and_mul,
// gelu_tanh_and_mul: a block a token over the [2, d] halves of its row), FATReLU's gated kernel
// with a threshold, the element-wise GELU variants (gelu_new, gelu_fast, gelu_quick) and the
// batched (MoE) gated kernel, whose (batch, token) grid leaves the blocks past each batch's valid
// token count idle; in float, half and bfloat16; copied for memsim's fifteenth pre-registered set
// (validate/prereg15_cases.py).
//
// Repository: vllm-project/vllm, commit 00ccbd42dc1f40412cc711c5737cc4be0e7a8145
// Paths: csrc/activation_kernels.cu (this commit), csrc/cuda_compat.h (VLLM_LDG)
// Licence: Apache-2.0 (the repository's LICENSE; text in validate/prereg15/LICENSES.md)
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel's signature and body,
// and each helper's, copied whole, in the source's order, under `// --- path`):
// - the #include lines are dropped (ATen, torch, c10, <cmath>, cuda_compat.h, dispatch_utils.h:
//   host code) and <cuda_fp16.h>, <cuda_bf16.h> included for the half and bfloat16 instances;
//   int32_t and int64_t defined as <cstdint>'s; M_SQRT1_2, M_SQRT2 and M_2_SQRTPI defined as
//   <cmath>'s; VLLM_LDG defined as cuda_compat.h defines it for CUDA (__ldg);
// - only the kernels and their device helpers are copied (the host launchers silu_and_mul ...
//   batched_silu_and_mul and their LAUNCH_* macros are left out: their launch shapes, a block a
//   token of min(d, 1024) threads, are in validate/prereg15_cases.py); the templates are
//   instantiated explicitly at the end for float, half and bfloat16 (VLLM_DISPATCH_FLOATING_TYPES).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
typedef int int32_t;         // <cstdint>'s
typedef long long int64_t;
#define M_SQRT1_2 0.70710678118654752440   // <cmath>'s
#define M_SQRT2 1.41421356237309504880
#define M_2_SQRTPI 1.12837916709551257390
#define VLLM_LDG(arg) __ldg(arg)           // csrc/cuda_compat.h (CUDA)

// --- csrc/activation_kernels.cu
namespace vllm {

template <typename scalar_t, scalar_t (*ACT_FN)(const scalar_t&),
          bool act_first>
__device__ __forceinline__ scalar_t compute(const scalar_t& x,
                                            const scalar_t& y) {
  return act_first ? ACT_FN(x) * y : x * ACT_FN(y);
}

template <typename scalar_t, scalar_t (*ACT_FN)(const scalar_t&),
          bool act_first>
__device__ void _act_and_mul_kernel(
    scalar_t* __restrict__ out,          // [..., d]
    const scalar_t* __restrict__ input,  // [..., 2, d]
    const int d, const int64_t token_idx) {
  for (int64_t idx = threadIdx.x; idx < d; idx += blockDim.x) {
    const scalar_t x = VLLM_LDG(&input[token_idx * 2 * d + idx]);
    const scalar_t y = VLLM_LDG(&input[token_idx * 2 * d + d + idx]);
    out[token_idx * d + idx] = compute<scalar_t, ACT_FN, act_first>(x, y);
  }
}

// Activation and gating kernel template.

template <typename scalar_t, scalar_t (*ACT_FN)(const scalar_t&),
          bool act_first>
__global__ void act_and_mul_kernel(
    scalar_t* __restrict__ out,          // [..., d]
    const scalar_t* __restrict__ input,  // [..., 2, d]
    const int d) {
  const int64_t token_idx = blockIdx.x;
  _act_and_mul_kernel<scalar_t, ACT_FN, act_first>(out, input, d, token_idx);
}

template <typename T>
__device__ __forceinline__ T silu_kernel(const T& x) {
  // x * sigmoid(x)
  return (T)(((float)x) / (1.0f + expf((float)-x)));
}

template <typename T>
__device__ __forceinline__ T gelu_kernel(const T& x) {
  // Equivalent to PyTorch GELU with 'none' approximation.
  // Refer to:
  // https://github.com/pytorch/pytorch/blob/8ac9b20d4b090c213799e81acf48a55ea8d437d6/aten/src/ATen/native/cuda/ActivationGeluKernel.cu#L36-L38
  const float f = (float)x;
  constexpr float ALPHA = M_SQRT1_2;
  return (T)(f * 0.5f * (1.0f + ::erf(f * ALPHA)));
}

template <typename T>
__device__ __forceinline__ T gelu_tanh_kernel(const T& x) {
  // Equivalent to PyTorch GELU with 'tanh' approximation.
  // Refer to:
  // https://github.com/pytorch/pytorch/blob/8ac9b20d4b090c213799e81acf48a55ea8d437d6/aten/src/ATen/native/cuda/ActivationGeluKernel.cu#L25-L30
  const float f = (float)x;
  constexpr float BETA = M_SQRT2 * M_2_SQRTPI * 0.5f;
  constexpr float KAPPA = 0.044715;
  float x_cube = f * f * f;
  float inner = BETA * (f + KAPPA * x_cube);
  return (T)(0.5f * f * (1.0f + ::tanhf(inner)));
}

}  // namespace vllm

namespace vllm {

template <typename T>
__device__ __forceinline__ T fatrelu_kernel(const T& x, const float threshold) {
  const float f = (float)x;
  return (T)(f > threshold ? f : 0.0f);
}

template <typename scalar_t, scalar_t (*ACT_FN)(const scalar_t&, const float)>
__global__ void act_and_mul_kernel_with_param(
    scalar_t* __restrict__ out, const scalar_t* __restrict__ input, const int d,
    const float param) {
  const int64_t token_idx = blockIdx.x;
  for (int64_t idx = threadIdx.x; idx < d; idx += blockDim.x) {
    const scalar_t x = VLLM_LDG(&input[token_idx * 2 * d + idx]);
    const scalar_t y = VLLM_LDG(&input[token_idx * 2 * d + d + idx]);
    out[token_idx * d + idx] = ACT_FN(x, param) * y;
  }
}

}  // namespace vllm

namespace vllm {

// Element-wise activation kernel template.
template <typename scalar_t, scalar_t (*ACT_FN)(const scalar_t&)>
__global__ void activation_kernel(
    scalar_t* __restrict__ out,          // [..., d]
    const scalar_t* __restrict__ input,  // [..., d]
    const int d) {
  const int64_t token_idx = blockIdx.x;
  for (int64_t idx = threadIdx.x; idx < d; idx += blockDim.x) {
    const scalar_t x = VLLM_LDG(&input[token_idx * d + idx]);
    out[token_idx * d + idx] = ACT_FN(x);
  }
}

}  // namespace vllm

namespace vllm {

template <typename T>
__device__ __forceinline__ T gelu_new_kernel(const T& x) {
  const float x3 = (float)(x * x * x);
  const T t = (T)tanhf((T)(0.79788456f * (float)(x + (T)(0.044715f * x3))));
  return ((T)0.5) * x * (((T)1.0) + t);
}

template <typename T>
__device__ __forceinline__ T gelu_fast_kernel(const T& x) {
  const float f = (float)x;
  const T t =
      (T)tanhf(((T)(f * 0.79788456f)) * (((T)1.0) + (T)(0.044715f * f) * x));
  return ((T)0.5) * x * (((T)1.0) + t);
}

template <typename T>
__device__ __forceinline__ T gelu_quick_kernel(const T& x) {
  // x * sigmoid(1.702 * x)
  return (T)(((float)x) / (1.0f + expf(-1.702f * (float)x)));
}

}  // namespace vllm

namespace vllm {
// Batched act_and_mul kernel template
template <typename scalar_t, scalar_t (*ACT_FN)(const scalar_t&),
          bool act_first>
__global__ void batched_act_and_mul_kernel(
    scalar_t* out,                      // [B, max_tokens, d]
    const scalar_t* input,              // [B, max_tokens, 2, d]
    const int32_t* valid_tokens_array,  // [B]
    const int d) {
  ;
  const int64_t batch_idx = blockIdx.x;
  const int64_t num_tokens = valid_tokens_array[batch_idx];
  if (num_tokens == 0) {
    return;
  }

  const int64_t token_idx = blockIdx.y;
  if (token_idx >= num_tokens) {
    return;
  }

  const int64_t max_num_tokens = gridDim.y;
  scalar_t* __restrict__ batch_out = &out[batch_idx * max_num_tokens * d];
  const scalar_t* __restrict__ batch_input =
      &input[batch_idx * max_num_tokens * d * 2];
  _act_and_mul_kernel<scalar_t, ACT_FN, act_first>(batch_out, batch_input, d,
                                                   token_idx);
}
}  // namespace vllm

// Explicit instances (VLLM_DISPATCH_FLOATING_TYPES: float, half, bfloat16), as the launchers make
#define VLLM_ACT_INSTANCES(T)                                                                    \
  template __global__ void vllm::act_and_mul_kernel<T, vllm::silu_kernel<T>, true>(T*, const T*, const int);       \
  template __global__ void vllm::act_and_mul_kernel<T, vllm::silu_kernel<T>, false>(T*, const T*, const int);      \
  template __global__ void vllm::act_and_mul_kernel<T, vllm::gelu_kernel<T>, true>(T*, const T*, const int);       \
  template __global__ void vllm::act_and_mul_kernel<T, vllm::gelu_tanh_kernel<T>, true>(T*, const T*, const int);  \
  template __global__ void vllm::act_and_mul_kernel_with_param<T, vllm::fatrelu_kernel<T>>(T*, const T*, const int, const float); \
  template __global__ void vllm::activation_kernel<T, vllm::gelu_new_kernel<T>>(T*, const T*, const int);          \
  template __global__ void vllm::activation_kernel<T, vllm::gelu_fast_kernel<T>>(T*, const T*, const int);         \
  template __global__ void vllm::activation_kernel<T, vllm::gelu_quick_kernel<T>>(T*, const T*, const int);        \
  template __global__ void vllm::batched_act_and_mul_kernel<T, vllm::silu_kernel<T>, true>(T*, const T*, const int32_t*, const int);
VLLM_ACT_INSTANCES(float)
VLLM_ACT_INSTANCES(__half)
VLLM_ACT_INSTANCES(__nv_bfloat16)
