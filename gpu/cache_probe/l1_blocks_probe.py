"""Does the L1 keep what several resident blocks read? (memsim issue 24)

    bash gpu/cache_probe/run_l1_blocks_probe.sh   (on the GPU machine; results under $OUT)

prereg4's softmax (a block reads its 8 KB row, reduces through shared memory, reads the row
again) missed in L1 on 5-43% of the second reads with 2-8 blocks an SM, although 16-64 KB is far
below the 156-240 KB of L1 its carveout leaves, and one block alone keeps up to 208 KB
(l1_store_probe.py). k_rows: block b reads row b (`row_kb` KB) once, sums it through shared
memory, then reads it again; grid = 132 x `per_sm` blocks, so each SM holds `per_sm` rows.
`spread` rows apart in memory (1: adjacent rows). `waves` times as many blocks as fit at once;
`store_row`: the second pass also writes each value out (as softmax does), to another array."""
import json
import sys

import cupy as cp

SRC = r'''
extern "C" __global__ void k_rows(const float* in, float* out, int n, int spread, int store_row) {
  __shared__ float part[1024];
  const float* row = in + (long)blockIdx.x * spread * n;
  float acc = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += row[i];
  part[threadIdx.x] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  float total = part[0], acc2 = 0.0f;
  if (store_row) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) out[(long)blockIdx.x * n + i] = row[i] / total;
  } else {
    for (int i = threadIdx.x; i < n; i += blockDim.x) acc2 += row[i] / total;
    out[(long)blockIdx.x * blockDim.x + threadIdx.x] = acc2;
  }
}
'''
LAUNCHES = ([("rows", t, per_sm, kb, 1, 1, 0) for t in (64, 256, 1024) for per_sm in (1, 2, 4, 8, 16, 32)
             for kb in (4, 8, 16) if per_sm * t <= 2048 and per_sm <= 32]
            + [("rows", 256, per_sm, 8, 3, 1, 0) for per_sm in (1, 2, 4, 8)]
            + [("rows", t, 2048 // t, 8, 1, waves, store) for t in (128, 256, 512) for waves in (1, 4)
               for store in (0, 1)])


def main() -> None:
    f = cp.RawModule(code=SRC).get_function("k_rows")
    src = cp.ones(48 << 20, cp.float32)
    out = cp.zeros(48 << 20, cp.float32)
    for _, t, per_sm, kb, spread, waves, store in LAUNCHES:
        f((132 * per_sm * waves,), (t,), (src, out, cp.int32(kb * 256), cp.int32(spread), cp.int32(store)))
        cp.cuda.Device().synchronize()
    json.dump(dict(launches=LAUNCHES), sys.stdout)


if __name__ == "__main__":
    main()
