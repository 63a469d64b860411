// Pre-registered public kernel (not written for memsim): vllm-project/vllm
// vLLM's repetition penalty: a (sequence, vocabulary tile) grid, tile_num = min(vocab, max(1,
// ceil(SMs / sequences))) tiles a sequence, min(tile, 1024) threads striding over the tile; each
// reads two bool masks (1-byte loads) and, where either is set, reads, scales and writes back the
// logit in place (stores at the scattered positions of the set masks); float; copied for memsim's
// fifteenth pre-registered set (validate/prereg15_cases.py).
//
// Repository: vllm-project/vllm, commit 00e831b25f769201663e96756402564e9acea7ba
// Paths: csrc/sampler.cu (this commit)
// Licence: Apache-2.0 (the repository's LICENSE; text in validate/prereg15/LICENSES.md)
//
// Edits, all outside the kernel body, which is unchanged (the kernel's signature and body copied
// whole under `// --- path`):
// - the #include lines are dropped (cuda_compat.h, dispatch_utils.h, torch, c10, cub_helpers.h:
//   host code and helpers this kernel does not use); int64_t defined as <cstdint>'s;
// - only apply_repetition_penalties_kernel is copied (the file's top-k kernels and the host
//   launcher apply_repetition_penalties_ are left out: the launch shape, with the H100's and
//   H200's 132 SMs, is in validate/prereg15_cases.py); the template is instantiated explicitly at
//   the end for float (VLLM_DISPATCH_FLOATING_TYPES' float; its half is torch's c10::Half, whose
//   comparison with 0 CUDA's __half cannot resolve).
typedef long long int64_t;   // <cstdint>'s

// --- csrc/sampler.cu
namespace vllm {

template <typename scalar_t>
__global__ void apply_repetition_penalties_kernel(
    scalar_t* __restrict__ logits,         // [num_seqs, vocab_size]
    const bool* __restrict__ prompt_mask,  // [num_seqs, vocab_size]
    const bool* __restrict__ output_mask,  // [num_seqs, vocab_size]
    const scalar_t* __restrict__ repetition_penalties,  // [num_seqs]
    const int num_seqs, const int vocab_size, const int tile_size) {
  // Each block handles one sequence and a tile of vocab
  const int seq_idx = blockIdx.x;
  if (seq_idx >= num_seqs) return;

  const int tile_start = blockIdx.y * tile_size;
  const int tile_end = min(tile_start + tile_size, vocab_size);

  // Load repetition penalty for this sequence
  const scalar_t penalty = repetition_penalties[seq_idx];

  // Each thread processes multiple vocab items within the tile
  for (int vocab_idx = tile_start + threadIdx.x; vocab_idx < tile_end;
       vocab_idx += blockDim.x) {
    const int64_t idx = static_cast<int64_t>(seq_idx) * vocab_size + vocab_idx;
    const bool is_repeated = prompt_mask[idx] || output_mask[idx];
    if (is_repeated) {
      scalar_t logit = logits[idx];
      if (logit > 0) {
        logits[idx] = logit / penalty;
      } else {
        logits[idx] = logit * penalty;
      }
    }
  }
}

}  // namespace vllm

// Explicit instance (float)
template __global__ void vllm::apply_repetition_penalties_kernel<float>(float*, const bool*, const bool*, const float*,
    const int, const int, const int);
