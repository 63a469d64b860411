"""Do warps that exit early free their slots for the SM's next block? (memsim issue 24)

    OUT=... bash gpu/cache_probe/run_exit_probe.sh   (on the GPU machine; results under $OUT)

prereg7's ggml rope kernels run blocks of (1, 256, 1) threads in which 6 of the 8 warps exit at
once and 2 run a ~240-instruction dependent chain: the H100 took 17.4 us where memsim, holding a
block's 8 warp slots until its last warp ends, predicted 29.1 us.
k_chain: blocks of 256 threads; warps below `working` run `iters` rounds of a dependent FFMA
chain (8 a round) and store the result, the others exit at once. The grid is 132 * 64 blocks
(8 waves at the thread limit of 8 blocks an SM). k_chain_regs: the same with 96 values live
in registers (registers, not threads, then limit the blocks at launch): are registers given
back per warp too?"""
import json
import sys

import cupy as cp

SRC = r'''
extern "C" __global__ void k_chain(float* out, int working, int iters) {
  if ((threadIdx.x >> 5) >= working) return;
  float x = (float)threadIdx.x, a = 1.0001f, b = 0.999f;
  for (int i = 0; i < iters; i++) {
    x = fmaf(x, a, b); x = fmaf(x, a, b); x = fmaf(x, a, b); x = fmaf(x, a, b);
    x = fmaf(x, a, b); x = fmaf(x, a, b); x = fmaf(x, a, b); x = fmaf(x, a, b);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
extern "C" __global__ void k_chain_regs(float* out, int working, int iters) {
  if ((threadIdx.x >> 5) >= working) return;
  float v[96];
#pragma unroll
  for (int j = 0; j < 96; j++) v[j] = (float)(threadIdx.x + j);
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 96; j++) v[j] = fmaf(v[j], 1.0001f, 0.999f);
  }
  float x = 0.0f;
#pragma unroll
  for (int j = 0; j < 96; j++) x += v[j];
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
'''
BLOCKS, THREADS = 132 * 64, 256
LAUNCHES = ([("chain", working, iters) for iters in (16, 64) for working in (1, 2, 4, 8)]
            + [("chain_regs", working, 8) for working in (1, 8)])


def main() -> None:
    module = cp.RawModule(code=SRC)
    out = cp.zeros(BLOCKS * THREADS, cp.float32)
    for kind, working, iters in LAUNCHES:
        module.get_function("k_" + kind)((BLOCKS,), (THREADS,), (out, cp.int32(working), cp.int32(iters)))
        cp.cuda.Device().synchronize()
    json.dump(dict(launches=LAUNCHES, blocks=BLOCKS, threads=THREADS), sys.stdout)


if __name__ == "__main__":
    main()
