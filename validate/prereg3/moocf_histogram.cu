// Pre-registered public kernel (not written for memsim): moocf/histogram.cuda
// files: main.cu
// commit 6867134bb728163468ca121764d12b135d5c1759 (https://github.com/moocf/histogram.cuda)
// Licence: MIT (Copyright (c) 2020-21 Subhajit Sahu; full text in validate/prereg3/LICENSES.md).
//
// Edits (no kernel body changed):
// - main.cu: only lines 8, 29-74 kept (the block size constant and the two kernels); the rest is host code
// - `typedef unsigned char uint8_t;` added before the copied code (the file's host includes declared it; NVRTC has no <cstdint> here)

// ---- added (see Edits)
typedef unsigned char uint8_t;

// ---- from main.cu, lines 8
const int threads = 256;

// ---- from main.cu, lines 29-74
// Each thread atomically increments the bytes in buffer meant for it.
// This however leads to high contention to the 256 locations in the
// global memory.
//
// 1. Get byte at buffer for this thread.
// 2. Atomically increment appropriate index in histogram.
// 3. Shift to the next byte, by a stride.
__global__ void kernel(int *hist, const uint8_t *buff, int N) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;

  while (i < N) {
    atomicAdd(&hist[buff[i]], 1); // 1, 2
    i += blockDim.x * gridDim.x;  // 3
  }
}


// Each thread atomically increments the bytes in buffer meant for it.
// This is done in the shared thread block memory first, until the
// buffer is consumed. Then each thread in the block updates the
// histogram in the global memory atomically. This reduces global
// memory contention.
//
// 1. Initialize shared memory (of size 256).
// 2. Get byte at buffer for this thread.
// 3. Atomically increment appropriate index in shared memory.
// 4. Shift to the next byte, by a stride.
// 5. Wait for all threads within the block to finish.
// 5. Reduce the sum in the cache to a single value in binary tree fashion.
// 6. Atomically update per-block histogram into global histogram.
__global__ void kernelShared(int *hist, const uint8_t *buff, int N) {
  __shared__ int temp[threads];
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int t = threadIdx.x;

  temp[t] = 0;     // 1
  __syncthreads(); // 1

  while (i < N) {
    atomicAdd(&temp[buff[i]], 1); // 2, 3
    i += blockDim.x * gridDim.x;  // 4
  }
  __syncthreads(); // 5

  atomicAdd(&hist[t], temp[t]); // 6
}
