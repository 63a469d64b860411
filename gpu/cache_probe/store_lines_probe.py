"""Follow-up to l1_store_probe.py: how many lines may a store request span and still merge,
and how long does a store wait in L1 for another to merge with? (memsim issue 24)

    bash gpu/cache_probe/run_carveout_probe.sh   (runs this too; results under $OUT)

k_stmix (from l1_store_probe.py) at 17-31 lines a request, warps in lock step. k_stdelay: two
stores into the same sectors, `delay` cycles apart (clock64 spin), by one warp (mode 0) or by
two warps of one block (mode 1); lane i writes line i % L, sector (i / L) % K."""
import json
import sys

import cupy as cp

from l1_store_probe import STORE_SRC

DELAY_SRC = r'''
__device__ __forceinline__ void spin(long long cycles) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {}
}
extern "C" __global__ void k_stdelay(float* out, int L, int K, long long delay, int mode) {
  int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  int line = lane % L, sec = (lane / L) % K, group = lane / (L * K);
  float* p = out + (long)line * 32 + sec * 8 + group * 2;
  if (mode == 0) {
    p[0] = 1.0f;
    if (delay > 0) spin(delay);
    p[1] = 2.0f;
  } else {
    if (w == 1 && delay > 0) spin(delay);
    p[w] = 1.0f;
  }
}
'''
LAUNCHES = ([("stmix", L, 1, warps, 1, 32) for L in (17, 20, 24, 28, 31) for warps in (2, 4)]
            + [("stdelay", L, K, d, mode) for mode in (0, 1) for L, K in ((2, 4), (4, 4), (8, 4), (16, 2), (16, 1))
               for d in (0, 8, 16, 24, 32, 48, 64, 96, 128, 256)])


def main() -> None:
    stmix = cp.RawModule(code=STORE_SRC).get_function("k_stmix")
    stdelay = cp.RawModule(code=DELAY_SRC).get_function("k_stdelay")
    out = cp.zeros(1 << 20, cp.float32)
    for launch in LAUNCHES:
        if launch[0] == "stmix":
            _, L, K, warps, repeats, stride = launch
            stmix((1,), (32 * warps,), (out, cp.int32(L), cp.int32(K), cp.int32(repeats), cp.int32(stride)))
        else:
            _, L, K, delay, mode = launch
            stdelay((1,), (32 * (1 + mode),), (out, cp.int32(L), cp.int32(K), cp.int64(delay), cp.int32(mode)))
        cp.cuda.Device().synchronize()
    json.dump(dict(launches=LAUNCHES), sys.stdout)


if __name__ == "__main__":
    main()
