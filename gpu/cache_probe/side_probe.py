"""Which SMs sit next to which L2 partition? (memsim issue 24; recorded for the next model step)

    OUT=... bash gpu/cache_probe/run_side_probe.sh   (on the GPU machine; results under $OUT)

The L2 model of session 15 keeps each line in its home partition and a clean copy near a reader
of the other side, so a read stream fills each partition with 0.75 of itself when SMs of both
sides read it. If only the SMs of one side read, that side's partition holds all of it (its home
half and copies of the other half): ncu's foreign dirty lines (7 replay passes) should then be
evicted from ~25 MB of reads instead of ~32. k_side reads N MB (float4) with only the blocks whose
%smid is in [lo, hi) (or, with step 2, the even ones) and whose GPC ((smid / 2) % 8) is in
[gpc_lo, gpc_hi) working, taking chunks by an atomic ticket; the others return at once. 1056
blocks of 256 threads. Recorded (h100_side_results.json): the same ramp for every choice, down
to one GPC alone, so it is not what the near copies predict (docs/caches.md, session 15)."""
import json
import sys

import cupy as cp

SRC = r'''
extern "C" __global__ void k_side(const float4* s, float4* d, unsigned* ticket, long n, int lo, int hi, int step,
                                  int gpc_lo, int gpc_hi) {
  unsigned sm; asm("mov.u32 %0, %%smid;" : "=r"(sm));
  int gpc = (sm / 2) % 8;                        // TPCs 0, 8, 16, 24 share a GPC (docs/caches.md, lrc probe)
  if (sm < lo || sm >= hi || (sm - lo) % step || gpc < gpc_lo || gpc >= gpc_hi) return;
  __shared__ unsigned chunk;
  const long per = 256L * 16;                    // float4s a chunk: 16 per thread
  float a = 0;
  for (;;) {
    if (threadIdx.x == 0) chunk = atomicAdd(ticket, 1u);
    __syncthreads();
    long first = (long)chunk * per;
    if (first >= n) break;
    for (long i = first + threadIdx.x; i < first + per && i < n; i += 256) { float4 v = s[i]; a += v.x + v.w; }
    __syncthreads();
  }
  if (a == 1234.f) d[0].x = a;
}
'''
SIZES_MB = (16, 20, 24, 28, 32, 40, 48)
# (name, smid lo, hi, step, GPC lo, hi): the GPC of an SM is (smid / 2) % 8 as the lrc probe found
SIDES = (("all", 0, 132, 1, 0, 8), ("low", 0, 66, 1, 0, 8), ("high", 66, 132, 1, 0, 8), ("even", 0, 132, 2, 0, 8),
         ("gpc0-3", 0, 132, 1, 0, 4), ("gpc4-7", 0, 132, 1, 4, 8), ("gpc0", 0, 132, 1, 0, 1),
         ("gpc5", 0, 132, 1, 5, 6))
LAUNCHES = [(side, mb) for mb in SIZES_MB for side, *_ in SIDES]


def main() -> None:
    kernel = cp.RawModule(code=SRC).get_function("k_side")
    src = cp.ones(48 << 20, cp.float32)
    dst = cp.zeros(4, cp.float32)
    ticket = cp.zeros(1, cp.uint32)
    ranges = {name: rest for name, *rest in SIDES}
    for side, mb in LAUNCHES:
        ticket.fill(0)
        lo, hi, step, gpc_lo, gpc_hi = ranges[side]
        kernel((1056,), (256,), (src, dst, ticket, cp.int64((mb << 20) // 16), cp.int32(lo), cp.int32(hi), cp.int32(step),
                               cp.int32(gpc_lo), cp.int32(gpc_hi)))
        cp.cuda.Device().synchronize()
    json.dump(LAUNCHES, sys.stdout)


if __name__ == "__main__":
    main()
