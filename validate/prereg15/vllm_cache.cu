// Pre-registered public kernel (not written for memsim): vllm-project/vllm
// vLLM's KV-cache writers: reshape_and_cache_kernel (a block a token, min(heads * head_size, 512)
// threads: each element of the token's key and value stored into its slot of the paged cache, the
// key in [block, head, head_size / x, block_size, x] tiles of 16 bytes, the value transposed to
// [block, head, head_size, block_size]: scattered stores of 2 or 4 bytes a block_size apart) and
// reshape_and_cache_flash_kernel (the same into [block, block_size, head, head_size], contiguous
// rows at scattered slots); float and half, the cache of the key's type (kv_cache_dtype "auto");
// copied for memsim's fifteenth pre-registered set (validate/prereg15_cases.py).
//
// Repository: vllm-project/vllm, commit 002a0ba9645e705311e4cbaab24282448240419a
// Paths: csrc/cache_kernels.cu (this commit), csrc/attention/dtype_fp8.cuh (Fp8KVCacheDataType),
// csrc/quantization/fp8/nvidia/quant_utils.cuh (fp8::scaled_convert, declared only)
// Licence: Apache-2.0 (the repository's LICENSE; text in validate/prereg15/LICENSES.md)
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel's signature and body
// copied whole, in the source's order, under `// --- path`):
// - the #include lines are dropped (torch, ATen, c10, dispatch_utils.h, <algorithm>, <cassert>,
//   <map>, <vector>: host code; cuda_compat.h; quant_utils.cuh) and <cuda_fp16.h> included for the
//   half instances; int64_t defined as <cstdint>'s;
// - vllm::Fp8KVCacheDataType (csrc/attention/dtype_fp8.cuh's enum class: kAuto, kFp8E4M3,
//   kFp8E5M2) is defined, and vllm::fp8::scaled_convert only declared (its body, the fp8
//   conversions of quant_utils.cuh, is never instantiated: the kernels are instantiated with
//   kAuto, whose `if constexpr` branch stores the key and value unconverted);
// - only these two kernels are copied (swap_blocks: host memcpys; copy_blocks_kernel: it reads an
//   array of device pointers, which memsim's argument initialisers cannot build; the launchers and
//   CALL_* macros; the file's other kernels: validate/prereg15/STATUS.md); instantiated
//   explicitly at the end for float and half.
#include <cuda_fp16.h>
typedef long long int64_t;   // <cstdint>'s

// --- csrc/attention/dtype_fp8.cuh: Fp8KVCacheDataType
namespace vllm {
enum class Fp8KVCacheDataType {
  kAuto = 0,
  kFp8E4M3 = 1,
  kFp8E5M2 = 2,
};
// --- csrc/quantization/fp8/nvidia/quant_utils.cuh: scaled_convert's declaration only
namespace fp8 {
template <typename Tout, typename Tin, Fp8KVCacheDataType kv_dt>
__device__ Tout scaled_convert(const Tin& x, const float scale);
}  // namespace fp8
}  // namespace vllm

// --- csrc/cache_kernels.cu
namespace vllm {

template <typename scalar_t, typename cache_t, Fp8KVCacheDataType kv_dt>
__global__ void reshape_and_cache_kernel(
    const scalar_t* __restrict__ key,    // [num_tokens, num_heads, head_size]
    const scalar_t* __restrict__ value,  // [num_tokens, num_heads, head_size]
    cache_t* __restrict__ key_cache,     // [num_blocks, num_heads, head_size/x,
                                         // block_size, x]
    cache_t* __restrict__ value_cache,   // [num_blocks, num_heads, head_size,
                                         // block_size]
    const int64_t* __restrict__ slot_mapping,  // [num_tokens]
    const int key_stride, const int value_stride, const int num_heads,
    const int head_size, const int block_size, const int x, const float k_scale,
    const float v_scale) {
  const int64_t token_idx = blockIdx.x;
  const int64_t slot_idx = slot_mapping[token_idx];
  if (slot_idx < 0) {
    // Padding token that should be ignored.
    return;
  }

  const int64_t block_idx = slot_idx / block_size;
  const int64_t block_offset = slot_idx % block_size;

  const int n = num_heads * head_size;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const int64_t src_key_idx = token_idx * key_stride + i;
    const int64_t src_value_idx = token_idx * value_stride + i;

    const int head_idx = i / head_size;
    const int head_offset = i % head_size;
    const int x_idx = head_offset / x;
    const int x_offset = head_offset % x;

    const int64_t tgt_key_idx =
        block_idx * num_heads * (head_size / x) * block_size * x +
        head_idx * (head_size / x) * block_size * x + x_idx * block_size * x +
        block_offset * x + x_offset;
    const int64_t tgt_value_idx =
        block_idx * num_heads * head_size * block_size +
        head_idx * head_size * block_size + head_offset * block_size +
        block_offset;
    scalar_t tgt_key = key[src_key_idx];
    scalar_t tgt_value = value[src_value_idx];
    if constexpr (kv_dt == Fp8KVCacheDataType::kAuto) {
      key_cache[tgt_key_idx] = tgt_key;
      value_cache[tgt_value_idx] = tgt_value;
    } else {
      key_cache[tgt_key_idx] =
          fp8::scaled_convert<cache_t, scalar_t, kv_dt>(tgt_key, k_scale);
      value_cache[tgt_value_idx] =
          fp8::scaled_convert<cache_t, scalar_t, kv_dt>(tgt_value, v_scale);
    }
  }
}

template <typename scalar_t, typename cache_t, Fp8KVCacheDataType kv_dt>
__global__ void reshape_and_cache_flash_kernel(
    const scalar_t* __restrict__ key,    // [num_tokens, num_heads, head_size]
    const scalar_t* __restrict__ value,  // [num_tokens, num_heads, head_size]
    cache_t* __restrict__ key_cache,     // [num_blocks, block_size, num_heads,
                                         // head_size]
    cache_t* __restrict__ value_cache,   // [num_blocks, block_size, num_heads,
                                         // head_size]
    const int64_t* __restrict__ slot_mapping,  // [num_tokens]
    const int block_stride, const int key_stride, const int value_stride,
    const int num_heads, const int head_size, const int block_size,
    const float k_scale, const float v_scale) {
  const int64_t token_idx = blockIdx.x;
  const int64_t slot_idx = slot_mapping[token_idx];
  // NOTE: slot_idx can be -1 if the token is padded
  if (slot_idx < 0) {
    return;
  }
  const int64_t block_idx = slot_idx / block_size;
  const int64_t block_offset = slot_idx % block_size;
  const int n = num_heads * head_size;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const int64_t src_key_idx = token_idx * key_stride + i;
    const int64_t src_value_idx = token_idx * value_stride + i;
    const int head_idx = i / head_size;
    const int head_offset = i % head_size;
    const int64_t tgt_key_value_idx = block_idx * block_stride +
                                      block_offset * num_heads * head_size +
                                      head_idx * head_size + head_offset;
    scalar_t tgt_key = key[src_key_idx];
    scalar_t tgt_value = value[src_value_idx];
    if constexpr (kv_dt == Fp8KVCacheDataType::kAuto) {
      key_cache[tgt_key_value_idx] = tgt_key;
      value_cache[tgt_key_value_idx] = tgt_value;
    } else {
      key_cache[tgt_key_value_idx] =
          fp8::scaled_convert<cache_t, scalar_t, kv_dt>(tgt_key, k_scale);
      value_cache[tgt_key_value_idx] =
          fp8::scaled_convert<cache_t, scalar_t, kv_dt>(tgt_value, v_scale);
    }
  }
}

}  // namespace vllm

// Explicit instances (DISPATCH_BY_KV_CACHE_DTYPE with kv_cache_dtype "auto": the cache of the key's type)
#define VLLM_CACHE_INSTANCES(T)                                                                            \
  template __global__ void vllm::reshape_and_cache_kernel<T, T, vllm::Fp8KVCacheDataType::kAuto>(          \
      const T*, const T*, T*, T*, const int64_t*, const int, const int, const int, const int, const int,  \
      const int, const float, const float);                                                               \
  template __global__ void vllm::reshape_and_cache_flash_kernel<T, T, vllm::Fp8KVCacheDataType::kAuto>(    \
      const T*, const T*, T*, T*, const int64_t*, const int, const int, const int, const int, const int,  \
      const int, const float, const float);
VLLM_CACHE_INSTANCES(float)
VLLM_CACHE_INSTANCES(__half)
