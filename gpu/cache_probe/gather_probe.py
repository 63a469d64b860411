"""How much of the L2 do random gathers and scatters get, and does a 64-byte DRAM fetch leave
the other sector of its pair in L2? (memsim issue 24)

    OUT=... bash gpu/cache_probe/run_gather_probe.sh   (on the GPU machine; results under $OUT)

prereg6's permuted gathers (RAJAPerf del_dot_vec_2d, zonal_accumulation_3d through a random
index list) read 1.5-2x the DRAM bytes memsim predicts while their L2 read sectors are exact:
the H100 keeps less of randomly gathered data than the model does.
- k_gather: each warp reads 4 random whole sectors an instruction (8 lanes a sector) from an
  array of `mb` MB, 4 sector reads per sector of the array in all (steady state after the first).
- k_gather1: the same with one float per lane: 32 random sectors an instruction.
- k_scatter: the same pattern as k_gather, storing whole sectors (DRAM writes while it runs).
- k_pair: thread t reads sector 0 of line t, then, once it has it, sector `second` of the same
  line (0: the same sector, 1: the other sector of its 64-byte pair, 2: the next pair)."""
import json
import sys

import cupy as cp

SRC = r'''
__device__ unsigned mix(unsigned x) {
  x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16; return x;
}
extern "C" __global__ void k_gather(const float* a, float* out, unsigned sector_mask, int iters) {
  unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  float acc = 0.0f;
  for (int k = 0; k < iters; k++) {
    unsigned s = mix((warp * iters + k) * 4u + (lane >> 3)) & sector_mask;
    acc += a[s * 8 + (lane & 7)];
  }
  if (acc == 1234.5f) out[0] = acc;
}
extern "C" __global__ void k_gather1(const float* a, float* out, unsigned sector_mask, int iters) {
  unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  float acc = 0.0f;
  for (int k = 0; k < iters; k++) acc += a[(mix((warp * iters + k) * 32u + lane) & sector_mask) * 8];
  if (acc == 1234.5f) out[0] = acc;
}
extern "C" __global__ void k_scatter(float* a, unsigned sector_mask, int iters) {
  unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  for (int k = 0; k < iters; k++) {
    unsigned s = mix((warp * iters + k) * 4u + (lane >> 3)) & sector_mask;
    a[s * 8 + (lane & 7)] = (float)k;
  }
}
extern "C" __global__ void k_pair(const float* a, float* out, int lines, int second) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= lines) return;
  float v = a[32 * t];
  float w = a[32 * t + 8 * second + (v == -1.0f)];
  if (v + w == 1234.5f) out[0] = v;
}
'''
BLOCKS, THREADS = 1056, 256
WARPS = BLOCKS * THREADS // 32
LAUNCHES = ([("gather", mb) for mb in (8, 16, 24, 32, 40, 48, 64, 96, 128)]
            + [("gather1", mb) for mb in (16, 32, 64, 128)]
            + [("scatter", mb) for mb in (8, 16, 24, 32, 48, 64, 96)]
            + [("pair", 8, second) for second in (0, 1, 2)])


def iterations(mb: int, sectors_a_request: int = 4) -> int:
    """Four sector reads per sector of the array, spread over every warp."""
    return max((mb << 20) // 32 * 4 // (sectors_a_request * WARPS), 1)


def grid(launch: tuple) -> tuple[int, int]:
    if launch[0] == "pair":
        return (launch[1] << 20) // 128 // THREADS, THREADS
    return BLOCKS, THREADS


def main() -> None:
    module = cp.RawModule(code=SRC)
    a = cp.ones(128 << 18, cp.float32)          # 128 MB
    out = cp.zeros(1024, cp.float32)
    for launch in LAUNCHES:
        kind, mb = launch[:2]
        mask = cp.uint32((mb << 20) // 32 - 1)
        args = {"gather": (a, out, mask, cp.int32(iterations(mb))),
                "gather1": (a, out, mask, cp.int32(iterations(mb, 32))),
                "scatter": (a, mask, cp.int32(iterations(mb))),
                "pair": (a, out, cp.int32((mb << 20) // 128), cp.int32(launch[-1]))}[kind]
        blocks, threads = grid(launch)
        module.get_function("k_" + kind)((blocks,), (threads,), args)
        cp.cuda.Device().synchronize()
    json.dump(dict(launches=LAUNCHES, blocks=BLOCKS, threads=THREADS), sys.stdout)


if __name__ == "__main__":
    main()
