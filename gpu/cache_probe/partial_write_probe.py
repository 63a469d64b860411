"""How fast does the L2 take 4-byte writes that each touch a different sector? (memsim issue 24)

    bash gpu/cache_probe/run_partial_write_probe.sh   (on the GPU machine; results under $OUT)

prereg4's naive transposes (a column store per warp: 32 sectors, 4 bytes each) ran 2.2-2.7x
slower than the model's L2 sector rate allows, with everything in L2. k_scatter writes each int
of an N-int array once, consecutive threads STRIDE ints apart (a permutation: thread i writes
(i % (N/STRIDE)) * STRIDE + i / (N/STRIDE)); STRIDE 1 is a coalesced fill, 8 puts each lane in
its own sector, 2048 is the transpose's order. k_scatter_read does the same with loads (summed
into one write per thread at the end, so nothing is optimized away). 256 threads a block."""
import json
import sys

import cupy as cp

S = r'''
extern "C" __global__ void k_scatter(int* out, long n, long stride) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x, rows = n / stride;
  if (i < n) out[(i % rows) * stride + i / rows] = (int)i;
}
extern "C" __global__ void k_scatter_read(const int* in, int* out, long n, long stride) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x, rows = n / stride;
  if (i < n && in[(i % rows) * stride + i / rows] == 12345678) out[0] = 1;
}
'''
MEGA_INTS = (1, 4, 16)                        # 4, 16 and 64 MB arrays
STRIDES = (1, 2, 4, 8, 32, 2048)
LAUNCHES = [(k, m, s) for k in ("scatter", "scatter_read") for m in MEGA_INTS for s in STRIDES]


def main() -> None:
    module = cp.RawModule(code=S)
    buf = cp.zeros(16 << 20, cp.int32)
    out = cp.zeros(16, cp.int32)
    for kernel, mega, stride in LAUNCHES:
        n = mega << 20
        grid = ((n + 255) // 256,)
        args = (buf, cp.int64(n), cp.int64(stride)) if kernel == "scatter" else \
            (buf, out, cp.int64(n), cp.int64(stride))
        module.get_function("k_" + kernel)(grid, (256,), args)
        cp.cuda.Device().synchronize()
    json.dump(LAUNCHES, sys.stdout)


if __name__ == "__main__":
    main()
