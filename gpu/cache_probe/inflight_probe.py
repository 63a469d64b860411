"""Does a second request for a sector whose DRAM fetch is still in flight fetch it again?
(memsim issue 24)

    OUT=... bash gpu/cache_probe/run_gather_probe.sh   (runs this too; results under $OUT)

prereg6's permuted del_dot_vec_2d reads each node array at i, i+1, i+jp, i+jp+1 from random
zones: two loads of one sector issued back to back, from 8.5 M L2 read sectors of which the
H100 missed 6.8 M and read 383 MB of DRAM, about 64 bytes per missed read (memsim: 202 MB).
k_dup: each warp reads `iters` random whole sectors of a 128 MB array (8 lanes a sector, 4 a
request; few enough that sectors repeat rarely) with a second load right after the first:
mode 0: no second load; 1: the same sector (offset by a `zero` argument, so that
the compiler keeps both loads); 2: the other sector of its 64-byte pair; 3: a
sector of the line's other pair; 4: the same sector once the first load has returned."""
import json
import sys

import cupy as cp

SRC = r'''
__device__ unsigned mix(unsigned x) {
  x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16; return x;
}
extern "C" __global__ void k_dup(const float* a, float* out, unsigned sector_mask, int iters, int mode, int zero) {
  unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  float acc = 0.0f;
  for (int k = 0; k < iters; k++) {
    unsigned s = mix((warp * iters + k) * 4u + (lane >> 3)) & sector_mask;
    float v = a[s * 8 + (lane & 7)];
    if (mode == 1) v += a[s * 8 + (lane & 7) + zero];
    if (mode == 2) v += a[(s ^ 1) * 8 + (lane & 7)];
    if (mode == 3) v += a[(s ^ 2) * 8 + (lane & 7)];
    if (mode == 4) v += a[s * 8 + (lane & 7) + (v == -1.0f)];
    acc += v;
  }
  if (acc == 1234.5f) out[0] = acc;
}
'''
BLOCKS, THREADS, ITERS = 1056, 256, 8
LAUNCHES = [("dup", mode) for mode in range(5)]


def main() -> None:
    module = cp.RawModule(code=SRC)
    a = cp.ones(128 << 18, cp.float32)          # 128 MB
    out = cp.zeros(1024, cp.float32)
    mask = cp.uint32((128 << 20) // 32 - 1)
    for _, mode in LAUNCHES:
        module.get_function("k_dup")((BLOCKS,), (THREADS,), (a, out, mask, cp.int32(ITERS), cp.int32(mode), cp.int32(0)))
        cp.cuda.Device().synchronize()
    json.dump(dict(launches=LAUNCHES, blocks=BLOCKS, threads=THREADS, iters=ITERS), sys.stdout)


if __name__ == "__main__":
    main()
