"""How much of a streamed output does the L2 write back while a kernel also streams inputs?
(memsim issue 24)

    OUT=... bash gpu/cache_probe/run_gather_probe.sh   (runs this too; results under $OUT)

prereg6's read-heavy kernels that write one array (RAJAPerf energy_calc, zonal_accumulation:
8 MB written next to 40-96 MB read) write 1.2-1.7 MB more to DRAM than memsim predicts, while
copies and triads (as much written as read) write 2-3 MB less. k_stream: d[i] = the sum of
`reads` input arrays at i, every array `mb` MB, float4s, grid-stride (1056 blocks of 256)."""
import json
import sys

import cupy as cp

SRC = r'''
extern "C" __global__ void k_stream(const float4* const* in, float4* d, int reads, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    float4 s = in[0][i];
    for (int r = 1; r < reads; r++) {
      float4 v = in[r][i];
      s.x += v.x; s.y += v.y; s.z += v.z; s.w += v.w;
    }
    d[i] = s;
  }
}
'''
BLOCKS, THREADS = 1056, 256
LAUNCHES = [("stream", reads, mb) for mb in (4, 8, 16) for reads in (1, 2, 3, 5, 8)]


def main() -> None:
    module = cp.RawModule(code=SRC)
    arrays = [cp.ones(16 << 18, cp.float32) for _ in range(8)]
    pointers = cp.array([x.data.ptr for x in arrays], cp.uint64)
    out = cp.zeros(16 << 18, cp.float32)
    for _, reads, mb in LAUNCHES:
        module.get_function("k_stream")((BLOCKS,), (THREADS,),
                                        (pointers, out, cp.int32(reads), cp.int64((mb << 20) // 16)))
        cp.cuda.Device().synchronize()
    json.dump(dict(launches=LAUNCHES, blocks=BLOCKS, threads=THREADS), sys.stdout)


if __name__ == "__main__":
    main()
