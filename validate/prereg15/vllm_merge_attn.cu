// Pre-registered public kernel (not written for memsim): vllm-project/vllm
// vLLM's merge of split-KV attention states (section 2.2 of arXiv 2501.01005): a thread a 16-byte
// pack of a (token, head) row, blocks of 128 over num_tokens * heads * head_size / pack threads;
// each thread reads its head's prefix and suffix log-sum-exp (stored [head, token]: a warp's lanes
// read the same or a few values, a transposed gather), then one 16-byte pack of each partial
// output, and stores the merged pack (and, for pack 0, the merged log-sum-exp); float; copied for
// memsim's fifteenth pre-registered set (validate/prereg15_cases.py).
//
// Repository: vllm-project/vllm, commit 0150b0ba25c7ff3974d0e8c203f39bf5442941ff
// Paths: csrc/attention/merge_attn_states.cu (this commit), csrc/attention/dtype_float32.cuh
// (commit 23c4ce065ccc8a1f99d824e9974bdfae18120a78: to_float(float) and from_float(float&, float);
// that header's notice: "Adapted from https://github.com/NVIDIA/FasterTransformer ... Copyright (c)
// 2023, The vLLM team. Copyright (c) 2020-2023, NVIDIA CORPORATION. All rights reserved. Licensed
// under the Apache License, Version 2.0")
// Licence: Apache-2.0 (the repository's LICENSE; text in validate/prereg15/LICENSES.md)
//
// Edits, all outside the kernel body, which is unchanged (the kernel's signature and body, and
// each helper's, copied whole, in the source's order, under `// --- path`):
// - the #include lines are dropped (<optional>, torch, ATen, c10, <algorithm>: host code;
//   attention_dtypes.h and attention_utils.cuh, of which only dtype_float32.cuh's two float
//   conversions are used by the float instance, copied here) and replaced by
//   <cuda/std/cmath> and <cuda/std/limits>, whose isinf and numeric_limits are made std's by
//   using-declarations (<cmath> and <limits> are the host's); uint defined as <sys/types.h>'s;
// - only the kernel is copied (merge_attn_states_launcher, merge_attn_states and their macros are
//   left out: the launch shape, blocks of NUM_THREADS = 128, is in validate/prereg15_cases.py);
//   the template is instantiated explicitly at the end for float (DISPATCH_BY_SCALAR_DTYPE's float).
#include <cuda/std/cmath>
#include <cuda/std/limits>
namespace std { using cuda::std::isinf; using cuda::std::numeric_limits; }   // <cmath>'s, <limits>'
typedef unsigned int uint;   // <sys/types.h>'s

// --- csrc/attention/dtype_float32.cuh (commit 23c4ce065ccc8a1f99d824e9974bdfae18120a78): the float conversions
namespace vllm {

// From float to float.
inline __device__ void from_float(float& dst, float src) {
  dst = src;
}

// From float to float.
inline __device__ float to_float(float u) {
  return u;
}

} // namespace vllm

// --- csrc/attention/merge_attn_states.cu
namespace vllm {

// Implements section 2.2 of https://www.arxiv.org/pdf/2501.01005
// can be used to combine partial attention results (in the split-KV case)
template <typename scalar_t, const uint NUM_THREADS>
__global__ void merge_attn_states_kernel(
    scalar_t* output, float* output_lse, const scalar_t* prefix_output,
    const float* prefix_lse, const scalar_t* suffix_output,
    const float* suffix_lse, const uint num_tokens, const uint num_heads,
    const uint head_size) {
  using pack_128b_t = uint4;
  const uint pack_size = 16 / sizeof(scalar_t);
  const uint threads_per_head = head_size / pack_size;

  const uint global_idx = blockIdx.x * NUM_THREADS + threadIdx.x;
  const uint token_head_threads = num_tokens * num_heads * threads_per_head;

  if (global_idx >= token_head_threads) return;

  // global_idx -> token_idx + head_idx + pack_idx
  const uint token_head_idx = global_idx / threads_per_head;
  const uint pack_idx = global_idx % threads_per_head;

  const uint token_idx = token_head_idx / num_heads;
  const uint head_idx = token_head_idx % num_heads;

  const uint pack_offset = pack_idx * pack_size;  // (0~15)*8, etc.
  const uint head_offset =
      token_idx * num_heads * head_size + head_idx * head_size;
  const scalar_t* prefix_head_ptr = prefix_output + head_offset;
  const scalar_t* suffix_head_ptr = suffix_output + head_offset;
  scalar_t* output_head_ptr = output + head_offset;

  float p_lse = prefix_lse[head_idx * num_tokens + token_idx];
  float s_lse = suffix_lse[head_idx * num_tokens + token_idx];
  p_lse = std::isinf(p_lse) ? -std::numeric_limits<float>::infinity() : p_lse;
  s_lse = std::isinf(s_lse) ? -std::numeric_limits<float>::infinity() : s_lse;

  const float max_lse = fmaxf(p_lse, s_lse);
  p_lse = p_lse - max_lse;
  s_lse = s_lse - max_lse;
  const float p_se = expf(p_lse);
  const float s_se = expf(s_lse);
  const float out_se = p_se + s_se;
  const float p_scale = p_se / out_se;
  const float s_scale = s_se / out_se;

  if (pack_offset < head_size) {
    // Pack 128b load
    pack_128b_t p_out_pack = reinterpret_cast<const pack_128b_t*>(
        prefix_head_ptr)[pack_offset / pack_size];
    pack_128b_t s_out_pack = reinterpret_cast<const pack_128b_t*>(
        suffix_head_ptr)[pack_offset / pack_size];
    pack_128b_t o_out_pack;

#pragma unroll
    for (uint i = 0; i < pack_size; ++i) {
      // Always use float for FMA to keep high precision.
      // half(uint16_t), bfloat16, float -> float.
      const float p_out_f =
          vllm::to_float(reinterpret_cast<const scalar_t*>(&p_out_pack)[i]);
      const float s_out_f =
          vllm::to_float(reinterpret_cast<const scalar_t*>(&s_out_pack)[i]);
      // fma: a * b + c = p_out_f * p_scale + (s_out_f * s_scale)
      const float o_out_f = p_out_f * p_scale + (s_out_f * s_scale);
      // float -> half(uint16_t), bfloat16, float.
      vllm::from_float(reinterpret_cast<scalar_t*>(&o_out_pack)[i], o_out_f);
    }

    // Pack 128b storage
    reinterpret_cast<pack_128b_t*>(output_head_ptr)[pack_offset / pack_size] =
        o_out_pack;
  }
  // We only need to write to output_lse once per head.
  if (output_lse != nullptr && pack_idx == 0) {
    float out_lse = logf(out_se) + max_lse;
    output_lse[head_idx * num_tokens + token_idx] = out_lse;
  }
}

}  // namespace vllm

// Explicit instance (float, NUM_THREADS 128)
template __global__ void vllm::merge_attn_states_kernel<float, 128>(float*, float*, const float*, const float*, const float*,
    const float*, const uint, const uint, const uint);
