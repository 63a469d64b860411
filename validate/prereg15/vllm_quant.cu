// Pre-registered public kernel (not written for memsim): vllm-project/vllm
// vLLM's int8 activation quantisation (compressed-tensors w8a8): the static per-tensor kernel (a
// block a token of min(hidden, 1024) threads; 16 elements a thread through vec_n_t, whose 8-byte
// alignment makes 8-byte loads and stores of the 16 int8 results, then a byte-wise remainder), the
// static kernel with a zero point (one int8 byte stored a thread: stores narrower than 4 bytes)
// and the dynamic per-token kernel (cub's BlockReduce max of |x| over __syncthreads, the scale
// stored, then the quantised row) and the dynamic kernel with a zero point (cub's max and min
// reductions, thread 0's scale and zero point, byte stores); float and half inputs; copied for memsim's fifteenth
// pre-registered set (validate/prereg15_cases.py).
//
// Repository: vllm-project/vllm, commit 00b0571eba087855604d6122143a749e25207d9b
// Paths: csrc/quantization/compressed_tensors/int8_quant_kernels.cu (this commit),
// csrc/quantization/vectorization.cuh (commit 89b1388d81670e24b5413010c5b07f5bedc4ce65: vec_n_t)
// Licence: Apache-2.0 (the repository's LICENSE; text in validate/prereg15/LICENSES.md)
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel's signature and body,
// and each helper's, copied whole, in the source's order, under `// --- path`):
// - the #include lines are dropped (ATen, torch, <cmath>, dispatch_utils.h: host code;
//   vectorization.cuh's c10 fp8 headers; <cub/cub.cuh>, whose device-wide algorithms are host code
//   NVRTC cannot compile) and replaced by <cuda_fp16.h> (the half instances), CUB's
//   <cub/block/block_reduce.cuh>, <cuda/functional>, <cuda/std/limits>, <cuda/std/cmath> and
//   libcu++'s max.h and min.h, whose numeric_limits, nearbyint, max and min are made std's by
//   using-declarations (<limits>, <cmath> and <algorithm> are the host's); int8_t, int32_t,
//   uint32_t and int64_t defined as <cstdint>'s; cub::Max and cub::Min, which CUB 3 (CUDA 13) no
//   longer has, defined as cuda::maximum<> and cuda::minimum<> (what CCCL names in their place);
// - vectorization.cuh's vec_n_t copied (its q8_n_t, the fp8 vector, is not used by these kernels);
// - the host launchers are left out (the launch shapes are in validate/prereg15_cases.py); the
//   templates are instantiated explicitly at the end for float and half (scale float, azp int32).
#include <cuda_fp16.h>
#include <cub/block/block_reduce.cuh>
#include <cuda/functional>
#include <cuda/std/limits>
#include <cuda/std/cmath>
#include <cuda/std/__algorithm/max.h>
#include <cuda/std/__algorithm/min.h>
namespace std { using cuda::std::numeric_limits; using cuda::std::nearbyint; using cuda::std::max; using cuda::std::min; }
typedef signed char int8_t;        // <cstdint>'s
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
namespace cub { using Max = cuda::maximum<>; using Min = cuda::minimum<>; }   // CUB 2's, as CCCL 3 names them

// --- csrc/quantization/vectorization.cuh (commit 89b1388d81670e24b5413010c5b07f5bedc4ce65): vec_n_t
namespace vllm {

// Vectorization containers
template <typename scalar_t, size_t vec_size>
struct __align__(8) vec_n_t {
  scalar_t val[vec_size];
};

}  // namespace vllm

// --- csrc/quantization/compressed_tensors/int8_quant_kernels.cu
static inline __device__ int8_t float_to_int8_rn(float x) {
#ifdef USE_ROCM
  static constexpr auto i8_min =
      static_cast<float>(std::numeric_limits<int8_t>::min());
  static constexpr auto i8_max =
      static_cast<float>(std::numeric_limits<int8_t>::max());

  // To match the rounding mode of CUDA, we use nearbyint.
  // It uses the current rounding mode, which is always FE_TONEAREST on HIP.
  // If that changes in the future, we may need to set the rounding mode
  // explicitly, either at runtime or compile time.
  float dst = std::nearbyint(x);

  // saturate

  // See https://github.com/pytorch/pytorch/issues/127666
  // See https://github.com/llvm/llvm-project/issues/95183
  // hip-clang std::clamp __glibcxx_assert_fail host function when building on
  // Arch/gcc14. The following replaces std::clamp usage with similar logic
  // dst = std::clamp(dst, i8_min, i8_max);
  dst = (dst < i8_min) ? i8_min : (dst > i8_max) ? i8_max : dst;
  return static_cast<int8_t>(dst);
#else
  // CUDA path
  uint32_t dst;
  asm volatile("cvt.rni.sat.s8.f32 %0, %1;" : "=r"(dst) : "f"(x));
  return reinterpret_cast<const int8_t&>(dst);
#endif
}

static inline __device__ int32_t float_to_int32_rn(float x) {
#ifdef USE_ROCM
  // int32_max is not exactly representable as float.
  // Therefore, we need to be careful and manually return int32_max on overflow.
  // For symmetry, we also do the same for int32_min, even though it is exactly
  // representable as float and the conversion should be exact.
  static constexpr auto i32_min = std::numeric_limits<int32_t>::min();
  static constexpr auto i32_min_f = static_cast<float>(i32_min);
  static constexpr auto i32_max = std::numeric_limits<int32_t>::max();
  static constexpr auto i32_max_f = static_cast<float>(i32_max);

  // To match the rounding mode of CUDA, we use nearbyint.
  // It uses the current rounding mode, which is always FE_TONEAREST on HIP.
  // If that changes in the future, we may need to set the rounding mode
  // explicitly, either at runtime or compile time.
  float dst = std::nearbyint(x);

  // saturate on the higher end.
  if (dst >= i32_max_f) {
    return i32_max;
  }
  // saturate on the lower end.
  if (dst <= i32_min_f) {
    return i32_min;
  }

  return static_cast<int32_t>(dst);
#else
  // CUDA path
  uint32_t dst;
  asm volatile("cvt.rni.sat.s32.f32 %0, %1;" : "=r"(dst) : "f"(x));
  return reinterpret_cast<const int32_t&>(dst);
#endif
}

static inline __device__ int8_t int32_to_int8(int32_t x) {
#ifdef USE_ROCM
  static constexpr auto i8_min =
      static_cast<int32_t>(std::numeric_limits<int8_t>::min());
  static constexpr auto i8_max =
      static_cast<int32_t>(std::numeric_limits<int8_t>::max());

  // saturate

  // See https://github.com/pytorch/pytorch/issues/127666
  // See https://github.com/llvm/llvm-project/issues/95183
  // hip-clang std::clamp __glibcxx_assert_fail host function when building on
  // Arch/gcc14. The following replaces std::clamp usage with similar logic
  // int32_t dst = std::clamp(x, i8_min, i8_max);
  int32_t dst = (x < i8_min) ? i8_min : (x > i8_max) ? i8_max : x;
  return static_cast<int8_t>(dst);
#else
  // CUDA path
  uint32_t dst;
  asm volatile("cvt.sat.s8.s32 %0, %1;" : "=r"(dst) : "r"(x));
  return reinterpret_cast<const int8_t&>(dst);
#endif
}

namespace vllm {

template <typename scalar_t, typename scale_type>
__global__ void static_scaled_int8_quant_kernel(
    scalar_t const* __restrict__ input, int8_t* __restrict__ out,
    scale_type const* scale_ptr, const int hidden_size) {
  int const VEC_SIZE = 16;
  using in_vec_t = vec_n_t<scalar_t, VEC_SIZE>;
  using out_vec_t = vec_n_t<int8_t, VEC_SIZE>;

  int const tid = threadIdx.x;
  int64_t const token_idx = blockIdx.x;
  scale_type const scale_val = *scale_ptr;

  // Must be performed using 64-bit math to avoid integer overflow.
  out += token_idx * hidden_size;
  input += token_idx * hidden_size;

  auto const* vectorized_in = reinterpret_cast<in_vec_t const*>(input);
  auto* vectorized_out = reinterpret_cast<out_vec_t*>(out);
  int64_t const num_vec_elements = hidden_size / VEC_SIZE;

  // vectorized quantization
  for (int i = tid; i < num_vec_elements; i += blockDim.x) {
    in_vec_t in_vec = vectorized_in[i];
    out_vec_t out_vec;
#pragma unroll
    for (int j = 0; j < VEC_SIZE; ++j) {
      out_vec.val[j] =
          float_to_int8_rn(static_cast<float>(in_vec.val[j]) / scale_val);
    }
    vectorized_out[i] = out_vec;
  }
  // handle the rest
  int64_t const remainder_start = num_vec_elements * VEC_SIZE;
  for (int64_t i = remainder_start + tid; i < hidden_size; i += blockDim.x) {
    out[i] = float_to_int8_rn(static_cast<float>(input[i]) / scale_val);
  }
}

template <typename scalar_t, typename scale_type, typename azp_type>
__global__ void static_scaled_int8_azp_quant_kernel(
    scalar_t const* __restrict__ input, int8_t* __restrict__ out,
    scale_type const* scale_ptr, azp_type const* azp_ptr,
    const int hidden_size) {
  int const tid = threadIdx.x;
  int64_t const token_idx = blockIdx.x;
  scale_type const scale = *scale_ptr;
  azp_type const azp = *azp_ptr;

  // Must be performed using 64-bit math to avoid integer overflow.
  out += token_idx * hidden_size;
  input += token_idx * hidden_size;

  for (int i = tid; i < hidden_size; i += blockDim.x) {
    auto const val = static_cast<float>(input[i]);
    auto const quant_val = int32_to_int8(float_to_int32_rn(val / scale) + azp);
    out[i] = quant_val;
  }
}

template <typename scalar_t, typename scale_type>
__global__ void dynamic_scaled_int8_quant_kernel(
    scalar_t const* __restrict__ input, int8_t* __restrict__ out,
    scale_type* scale, const int hidden_size) {
  constexpr int VEC_SIZE = 16;
  using in_vec_t = vec_n_t<scalar_t, VEC_SIZE>;
  using out_vec_t = vec_n_t<int8_t, VEC_SIZE>;
  int const tid = threadIdx.x;
  int64_t const token_idx = blockIdx.x;

  // Must be performed using 64-bit math to avoid integer overflow.
  out += token_idx * hidden_size;
  input += token_idx * hidden_size;
  auto const* vectorized_in = reinterpret_cast<in_vec_t const*>(input);
  auto* vectorized_out = reinterpret_cast<out_vec_t*>(out);
  int64_t const num_vec_elements = hidden_size / VEC_SIZE;

  // vectorized scan for absmax
  float thread_absmax = 0.0f;
  for (int64_t i = tid; i < num_vec_elements; i += blockDim.x) {
    in_vec_t in_vec = vectorized_in[i];
#pragma unroll
    for (int j = 0; j < VEC_SIZE; ++j) {
      thread_absmax =
          fmaxf(thread_absmax, fabsf(static_cast<float>(in_vec.val[j])));
    }
  }

  // handle the rest
  int64_t const remainder_start = num_vec_elements * VEC_SIZE;
  for (int64_t i = remainder_start + tid; i < hidden_size; i += blockDim.x) {
    thread_absmax = fmaxf(thread_absmax, fabsf(static_cast<float>(input[i])));
  }

  // reduce the absmax across the block
  using BlockReduce = cub::BlockReduce<float, 1024>;
  __shared__ typename BlockReduce::TempStorage reduce_storage;
  float block_absmax_val_maybe =
      BlockReduce(reduce_storage).Reduce(thread_absmax, cub::Max());
  __shared__ float block_absmax_val;
  if (tid == 0) {
    block_absmax_val = block_absmax_val_maybe;
    scale[token_idx] = block_absmax_val / 127.0f;
  }
  __syncthreads();

  // vectorized quantization
  float const tmp_scale = 127.0f / block_absmax_val;
  for (int64_t i = tid; i < num_vec_elements; i += blockDim.x) {
    in_vec_t in_vec = vectorized_in[i];
    out_vec_t out_vec;
#pragma unroll
    for (int j = 0; j < VEC_SIZE; ++j) {
      out_vec.val[j] =
          float_to_int8_rn(static_cast<float>(in_vec.val[j]) * tmp_scale);
    }
    vectorized_out[i] = out_vec;
  }
  // handle the rest
  for (int64_t i = remainder_start + tid; i < hidden_size; i += blockDim.x) {
    out[i] = float_to_int8_rn(static_cast<float>(input[i]) * tmp_scale);
  }
}

template <typename scalar_t, typename scale_type, typename azp_type>
__global__ void dynamic_scaled_int8_azp_quant_kernel(
    scalar_t const* __restrict__ input, int8_t* __restrict__ out,
    scale_type* scale, azp_type* azp, const int hidden_size) {
  int64_t const token_idx = blockIdx.x;

  // Must be performed using 64-bit math to avoid integer overflow.
  out += token_idx * hidden_size;
  input += token_idx * hidden_size;

  // Scan for the min and max value for this token
  float max_val = std::numeric_limits<float>::min();
  float min_val = std::numeric_limits<float>::max();
  for (int i = threadIdx.x; i < hidden_size; i += blockDim.x) {
    auto val = static_cast<float>(input[i]);
    max_val = std::max(max_val, val);
    min_val = std::min(min_val, val);
  }

  // Reduce the max and min values across the block
  using BlockReduce = cub::BlockReduce<float, 1024>;
  __shared__ typename BlockReduce::TempStorage reduceStorage;
  max_val = BlockReduce(reduceStorage).Reduce(max_val, cub::Max{}, blockDim.x);
  __syncthreads();  // Make sure min doesn't mess with max shared memory
  min_val = BlockReduce(reduceStorage).Reduce(min_val, cub::Min{}, blockDim.x);

  __shared__ scale_type scale_sh;
  __shared__ azp_type azp_sh;

  // Compute the scale and zero point and store them, only on the first thread
  if (threadIdx.x == 0) {
    float const scale_val = (max_val - min_val) / 255.0f;
    // Use rounding to even (same as torch.round)
    auto const azp_float = std::nearbyint(-128.0f - min_val / scale_val);
    auto const azp_val = static_cast<azp_type>(azp_float);

    // Store the scale and azp into shared and global
    scale[token_idx] = scale_sh = scale_val;
    azp[token_idx] = azp_sh = azp_val;
  }

  // Wait for the scale and azp to be computed
  __syncthreads();

  float const scale_val = scale_sh;
  azp_type const azp_val = azp_sh;

  // Quantize the values
  for (int i = threadIdx.x; i < hidden_size; i += blockDim.x) {
    auto const val = static_cast<float>(input[i]);
    auto const quant_val =
        int32_to_int8(float_to_int32_rn(val / scale_val) + azp_val);
    out[i] = quant_val;
  }
}

}  // namespace vllm

// Explicit instances (VLLM_DISPATCH_FLOATING_TYPES: float and half here; scale float, azp int32)
template __global__ void vllm::static_scaled_int8_quant_kernel<float, float>(float const*, int8_t*, float const*, const int);
template __global__ void vllm::static_scaled_int8_quant_kernel<__half, float>(__half const*, int8_t*, float const*, const int);
template __global__ void vllm::static_scaled_int8_azp_quant_kernel<float, float, int32_t>(float const*, int8_t*, float const*,
    int32_t const*, const int);
template __global__ void vllm::static_scaled_int8_azp_quant_kernel<__half, float, int32_t>(__half const*, int8_t*, float const*,
    int32_t const*, const int);
template __global__ void vllm::dynamic_scaled_int8_quant_kernel<float, float>(float const*, int8_t*, float*, const int);
template __global__ void vllm::dynamic_scaled_int8_quant_kernel<__half, float>(__half const*, int8_t*, float*, const int);
template __global__ void vllm::dynamic_scaled_int8_azp_quant_kernel<float, float, int32_t>(float const*, int8_t*, float*, int32_t*,
    const int);
template __global__ void vllm::dynamic_scaled_int8_azp_quant_kernel<__half, float, int32_t>(__half const*, int8_t*, float*,
    int32_t*, const int);
