// Corpus: reductions written with cooperative groups (needs <cooperative_groups.h> and its
// reduce header on NVRTC's include path). Written for memsim's corpus; no code copied.
//
// Modelled on NVIDIA/cuda-samples Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu
// (the cg::thread_block / tiled_partition<32> variants, cg_reduce) and the NVIDIA blog
// "Cooperative Groups: Flexible CUDA Thread Programming" (thread_block_tile shfl_down loops).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

// tiled_partition<32> and cg::reduce: each tile adds its sum with one atomicAdd.
extern "C" __global__ void k_cg_reduce_tile(const float* __restrict__ in, float* out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float sum = 0.0f;
  for (int i = block.group_index().x * block.size() + block.thread_rank(); i < n;
       i += block.size() * gridDim.x) {
    sum += in[i];
  }
  sum = cg::reduce(tile, sum, cg::plus<float>());
  if (tile.thread_rank() == 0) atomicAdd(out, sum);
}

// Hand-written shfl_down loop on a tile, tile sums through shared memory, block.sync().
template <int BLOCK>
__global__ void k_cg_reduce_shared(const float* __restrict__ in, float* __restrict__ partial, int n) {
  __shared__ float tile_sums[BLOCK / 32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int i = blockIdx.x * BLOCK * 2 + threadIdx.x;
  float v = (i < n ? in[i] : 0.0f) + (i + BLOCK < n ? in[i + BLOCK] : 0.0f);
  for (int offset = tile.size() / 2; offset > 0; offset /= 2) {
    v += tile.shfl_down(v, offset);
  }
  if (tile.thread_rank() == 0) tile_sums[tile.meta_group_rank()] = v;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    v = tile.thread_rank() < BLOCK / 32 ? tile_sums[tile.thread_rank()] : 0.0f;
    v = cg::reduce(tile, v, cg::plus<float>());
    if (tile.thread_rank() == 0) partial[blockIdx.x] = v;
  }
}
template __global__ void k_cg_reduce_shared<256>(const float* __restrict__, float* __restrict__, int);
