"""Do global stores allocate in L1, and does a load then hit what a store wrote? (memsim issue 24)

    bash gpu/cache_probe/run_l1_blocks_probe.sh   (runs this too; results under $OUT)

l1_blocks_probe.py: a softmax-like second pass that also stores each value loses L1 hits
(t=128, 16 blocks an SM: 75% -> 30%), as if stores took L1 lines. k_store_then_load: one block
of 256 threads stores `kb` KB (every word, or one word a sector: `words` 8 or 1), syncs, then
loads the same addresses. k_store_evicts: the block loads `kb` KB, stores `store_kb` KB
elsewhere, then loads its `kb` KB again. k_partial_evicts: the same with one word a sector
stored (`store_kb` KB of sectors touched, an eighth of it written)."""
import json
import sys

import cupy as cp

SRC = r'''
extern "C" __global__ void k_store_then_load(float* buf, float* out, int n, int words) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    if (words == 8 || (i & 7) == 0) buf[i] = (float)i;
  __syncthreads();
  float acc = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += buf[i];
  out[threadIdx.x] = acc;
}
extern "C" __global__ void k_store_evicts(const float* in, float* other, float* out, int n, int m) {
  float acc = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < m; i += blockDim.x) other[i] = acc;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += in[i];
  out[threadIdx.x] = acc;
}
extern "C" __global__ void k_partial_evicts(const float* in, float* other, float* out, int n, int m) {
  float acc = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < m; i += blockDim.x) other[8 * i] = acc;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += in[i];
  out[threadIdx.x] = acc;
}
'''
LAUNCHES = ([("store_then_load", kb, words) for kb in (8, 32) for words in (8, 1)]
            + [("store_evicts", 64, store_kb) for store_kb in (0, 32, 64, 128, 192)]
            + [("partial_evicts", 64, store_kb) for store_kb in (128, 192, 256)])


def main() -> None:
    mod = cp.RawModule(code=SRC)
    a = cp.ones(1 << 20, cp.float32)
    b = cp.zeros(1 << 20, cp.float32)
    out = cp.zeros(1024, cp.float32)
    for kind, kb, x in LAUNCHES:
        if kind == "store_then_load":
            mod.get_function("k_" + kind)((1,), (256,), (b, out, cp.int32(kb * 256), cp.int32(x)))
        else:
            m = x * 256 if kind == "store_evicts" else x * 32
            mod.get_function("k_" + kind)((1,), (256,), (a, b, out, cp.int32(kb * 256), cp.int32(m)))
        cp.cuda.Device().synchronize()
    json.dump(dict(launches=LAUNCHES), sys.stdout)


if __name__ == "__main__":
    main()
