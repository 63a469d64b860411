"""Which shared-memory carveout does the driver choose for a launch? (memsim issue 24)

    bash gpu/cache_probe/run_carveout_probe.sh   (on the GPU machine; results under $OUT)

l1_store_probe.py showed that the H100 driver does not choose the smallest carveout that holds
the resident blocks (256 threads and no shared memory get 32 KB, not 8). Here ncu reports
launch__shared_mem_config_size for kernels that differ in threads a block, static shared
memory, registers and grid size, each launched once."""
import json
import sys

import cupy as cp

SRC = r'''
extern "C" __global__ void __launch_bounds__(1024) k_cfg(float* out, int n) {
#if STATIC_BYTES > 0
  __shared__ float pad[STATIC_BYTES / 4];
  pad[threadIdx.x % (STATIC_BYTES / 4)] = (float)threadIdx.x;
  __syncthreads();
  float acc = pad[(threadIdx.x + 1) % (STATIC_BYTES / 4)];
#else
  float acc = 0.0f;
#endif
#if REGS > 0
  float r[REGS];
  #pragma unroll
  for (int k = 0; k < REGS; k++) r[k] = out[(threadIdx.x + k * 97) % n];
  #pragma unroll
  for (int k = 0; k < REGS; k++) acc += r[k] * r[(k + 1) % REGS];
#endif
  if (acc == 1234.5f) out[threadIdx.x] = acc;
}
'''
THREADS = (32, 64, 96, 128, 192, 256, 384, 512, 768, 1024)
STATIC = (0, 128, 1024, 2048, 4096, 6144, 8192, 12288, 16384, 24576, 40960)
LAUNCHES = ([("cfg", t, s, 0, 1) for t in THREADS for s in STATIC]
            + [("cfg", t, s, regs, 1) for t in (128, 256) for s in (0, 1024, 8192) for regs in (40, 100)]
            + [("cfg", t, s, 0, g) for t in (128, 256) for s in (0, 1024, 8192) for g in (132, 1056, 8192)])


def main() -> None:
    out = cp.zeros(1 << 20, cp.float32)
    kernels = {}
    for _, t, s, regs, g in LAUNCHES:
        key = (s, regs)
        if key not in kernels:
            mod = cp.RawModule(code=SRC, options=(f"-DSTATIC_BYTES={s}", f"-DREGS={regs}"))
            kernels[key] = mod.get_function("k_cfg")
        kernels[key]((g,), (t,), (out, cp.int32(1 << 20)))
        cp.cuda.Device().synchronize()
    json.dump(dict(launches=LAUNCHES, regs={f"{s}_{r}": f.num_regs for (s, r), f in kernels.items()}), sys.stdout)


if __name__ == "__main__":
    main()
