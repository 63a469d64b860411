// Pre-registered public kernel (not written for memsim): vllm-project/vllm
// vLLM's rotary position embedding: a block a token (min(heads * rot_dim / 2, 512) threads), the
// token's cos/sin row gathered from the cache by its position, each thread rotating one pair of a
// head's query (then key) in place, GPT-NeoX style (the halves of the head) or GPT-J style
// (adjacent pairs: stride-2 loads and stores); float, half and bfloat16; copied for memsim's
// fifteenth pre-registered set (validate/prereg15_cases.py).
//
// Repository: vllm-project/vllm, commit 0f5257e245116449bfbe78a87c22aeef632eba8f
// Paths: csrc/pos_encoding_kernels.cu (this commit), csrc/core/cuda_compat.h (VLLM_LDG)
// Licence: Apache-2.0 (the repository's LICENSE; text in validate/prereg15/LICENSES.md)
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel's signature and body,
// and each helper's, copied whole, in the source's order, under `// --- path`):
// - the #include lines are dropped (torch_utils.h, dispatch_utils.h: host code; cuda_compat.h)
//   and <cuda_fp16.h>, <cuda_bf16.h> included for the half and bfloat16 instances; int64_t
//   defined as <cstdint>'s; VLLM_LDG defined as cuda_compat.h defines it for CUDA (__ldg);
// - only the kernel and its device helpers are copied (rotary_embedding, the host launcher, is
//   left out: its launch shape is in validate/prereg15_cases.py); the template is instantiated
//   explicitly at the end for float, half and bfloat16, NeoX and GPT-J style, with the cache of
//   the query's type (VLLM_STABLE_DISPATCH_FLOATING_TYPES twice).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
typedef long long int64_t;               // <cstdint>'s
#define VLLM_LDG(arg) __ldg(arg)         // csrc/core/cuda_compat.h (CUDA)

// --- csrc/pos_encoding_kernels.cu
namespace vllm {

template <typename scalar_t, typename cache_t, bool IS_NEOX>
inline __device__ void apply_token_rotary_embedding(
    scalar_t* __restrict__ arr, const cache_t* __restrict__ cos_ptr,
    const cache_t* __restrict__ sin_ptr, int rot_offset, int embed_dim,
    const bool inverse) {
  int x_index, y_index;
  float cos_f, sin_f;
  if (IS_NEOX) {
    x_index = rot_offset;
    y_index = embed_dim + rot_offset;
    cos_f = static_cast<float>(VLLM_LDG(cos_ptr + x_index));
    sin_f = static_cast<float>(VLLM_LDG(sin_ptr + x_index));
  } else {
    x_index = 2 * rot_offset;
    y_index = 2 * rot_offset + 1;
    cos_f = static_cast<float>(VLLM_LDG(cos_ptr + x_index / 2));
    sin_f = static_cast<float>(VLLM_LDG(sin_ptr + x_index / 2));
  }
  if (inverse) {
    sin_f = -sin_f;
  }
  const float x_f = static_cast<float>(arr[x_index]);
  const float y_f = static_cast<float>(arr[y_index]);
  arr[x_index] = static_cast<scalar_t>(x_f * cos_f - y_f * sin_f);
  arr[y_index] = static_cast<scalar_t>(y_f * cos_f + x_f * sin_f);
}

template <typename scalar_t, typename cache_t, bool IS_NEOX>
inline __device__ void apply_rotary_embedding(
    scalar_t* __restrict__ query,  // [batch_size, seq_len, num_heads,
                                   // head_size] or [num_tokens, num_heads,
                                   // head_size]
    scalar_t* __restrict__ key,    // nullptr or
                                   // [batch_size, seq_len, num_kv_heads,
                                   // head_size] or [num_tokens, num_kv_heads,
                                   // head_size]
    const cache_t* cache_ptr, const int head_size, const int num_heads,
    const int num_kv_heads, const int rot_dim, const int token_idx,
    const int64_t query_stride, const int64_t key_stride,
    const int64_t head_stride, const int64_t rope_dim_offset,
    const bool inverse) {
  const int embed_dim = rot_dim / 2;
  const cache_t* cos_ptr = cache_ptr;
  const cache_t* sin_ptr = cache_ptr + embed_dim;

  const int nq = num_heads * embed_dim;
  for (int i = threadIdx.x; i < nq; i += blockDim.x) {
    const int head_idx = i / embed_dim;
    const int64_t token_head =
        token_idx * query_stride + head_idx * head_stride + rope_dim_offset;
    const int rot_offset = i % embed_dim;
    apply_token_rotary_embedding<scalar_t, cache_t, IS_NEOX>(
        query + token_head, cos_ptr, sin_ptr, rot_offset, embed_dim, inverse);
  }

  if (key != nullptr) {
    const int nk = num_kv_heads * embed_dim;
    for (int i = threadIdx.x; i < nk; i += blockDim.x) {
      const int head_idx = i / embed_dim;
      const int64_t token_head =
          token_idx * key_stride + head_idx * head_stride + rope_dim_offset;
      const int rot_offset = i % embed_dim;
      apply_token_rotary_embedding<scalar_t, cache_t, IS_NEOX>(
          key + token_head, cos_ptr, sin_ptr, rot_offset, embed_dim, inverse);
    }
  }
}

template <typename scalar_t, typename cache_t, bool IS_NEOX>
__global__ void rotary_embedding_kernel(
    const int64_t* __restrict__ positions,  // [batch_size, seq_len] or
                                            // [num_tokens]
    scalar_t* __restrict__ query,           // [batch_size, seq_len, num_heads,
                                   // head_size] or [num_tokens, num_heads,
                                   // head_size]
    scalar_t* __restrict__ key,  // nullptr or
                                 // [batch_size, seq_len, num_kv_heads,
                                 // head_size] or [num_tokens, num_kv_heads,
                                 // head_size]
    const cache_t* __restrict__ cos_sin_cache,  // [max_position, rot_dim]
    const int rot_dim, const int64_t query_stride, const int64_t key_stride,
    const int64_t head_stride, const int num_heads, const int num_kv_heads,
    const int head_size, const int64_t rope_dim_offset, const bool inverse) {
  const int token_idx = blockIdx.x;
  int64_t pos = positions[token_idx];
  const cache_t* cache_ptr = cos_sin_cache + pos * rot_dim;

  apply_rotary_embedding<scalar_t, cache_t, IS_NEOX>(
      query, key, cache_ptr, head_size, num_heads, num_kv_heads, rot_dim,
      token_idx, query_stride, key_stride, head_stride, rope_dim_offset,
      inverse);
}

}  // namespace vllm

// Explicit instances, as rotary_embedding dispatches them (the cache of the query's type here)
#define VLLM_ROPE_INSTANCE(T, NEOX)                                                                      \
  template __global__ void vllm::rotary_embedding_kernel<T, T, NEOX>(const int64_t*, T*, T*, const T*,   \
      const int, const int64_t, const int64_t, const int64_t, const int, const int, const int,           \
      const int64_t, const bool);
VLLM_ROPE_INSTANCE(float, true)
VLLM_ROPE_INSTANCE(float, false)
VLLM_ROPE_INSTANCE(__half, true)
VLLM_ROPE_INSTANCE(__half, false)
VLLM_ROPE_INSTANCE(__nv_bfloat16, true)
