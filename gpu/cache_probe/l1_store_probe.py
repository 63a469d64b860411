"""How much L1 does a kernel get next to its shared memory, and which stores leave the L1 as one
L2 write? (memsim issue 24)

    bash gpu/cache_probe/run_l1_store_probe.sh   (on the GPU machine; results under $OUT)

k_l1cap: one block reads its own `kb` KB twice (float4 loads, 256 threads); the second pass's L1
lookup hits say how much of it the L1 kept. The block asks for shared memory statically
(compiled in) or dynamically; ncu's launch__shared_mem_config_size says which carveout the
driver chose. prereg4's softmax kernels missed in L1 far more often than the model's "smallest
carveout that holds the resident blocks" allows.

k_stmix: the warps of one block store 4-byte words into the same sectors, or one warp stores
`repeats` times in a row into the same sectors. Lane i writes line i % L, sector (i / L) % K
(lines `line_stride` floats apart), word (lane group, warp, repeat). prereg4's naive GEMMs
merged none of their column stores at 32 lines a request and half of them at 16 or 8."""
import json
import sys

import cupy as cp

CAP_SRC = r'''
#ifndef STATIC_FLOATS
#define STATIC_FLOATS 0
#endif
extern "C" __global__ void k_l1cap(const float4* in, float* out, int n4) {
#if STATIC_FLOATS > 0
  __shared__ float pad[STATIC_FLOATS];
  pad[threadIdx.x % STATIC_FLOATS] = (float)threadIdx.x;
  __syncthreads();
#endif
  extern __shared__ float dyn[];
  float acc = 0.0f;
  const float4* mine = in + (long)blockIdx.x * n4;
  for (int pass = 0; pass < 2; pass++)
    for (int i = threadIdx.x; i < n4; i += blockDim.x) { float4 v = mine[i]; acc += v.x + v.y + v.z + v.w; }
#if STATIC_FLOATS > 0
  acc += pad[(threadIdx.x + 1) % STATIC_FLOATS];
#endif
  if (acc == 1234.5f) dyn[0] = acc;
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
'''
STORE_SRC = r'''
extern "C" __global__ void k_stmix(float* out, int L, int K, int repeats, int line_stride) {
  int w = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
  int line = lane % L, sec = (lane / L) % K, group = lane / (L * K);
  for (int r = 0; r < repeats; r++) {
    int word = (group * warps + w) * repeats + r;
    out[(long)line * line_stride + sec * 8 + word] = 1.0f;
  }
}
'''
KB = (8, 16, 32, 48, 64, 96, 128, 160, 192, 208, 224, 240)
# (name, static floats, dynamic bytes, threads): shared memory asked for in each way
CAP_CONFIGS = [("none", 0, 0, 256), ("static_128B", 32, 0, 256), ("static_1KB", 256, 0, 256),
               ("static_8KB", 2048, 0, 256), ("static_32KB", 8192, 0, 256),
               ("dynamic_1KB", 0, 1024, 256), ("dynamic_32KB", 0, 32768, 256),
               ("dynamic_100KB", 0, 102400, 256), ("none_t64", 0, 0, 64), ("static_128B_t64", 32, 0, 64),
               ("static_128B_t1024", 32, 0, 1024)]
SHAPES = [(32, 1), (16, 1), (16, 2), (8, 1), (8, 4), (4, 4), (4, 2), (2, 4)]


def _store_launches() -> list[tuple]:
    out = []
    for stride in (32, 4096):
        for L, K in SHAPES:
            lanes_per_sector = 32 // (L * K)
            for warps in (1, 2, 4, 8):
                for repeats in (1, 2, 4, 8):
                    if (warps > 1) == (repeats > 1) or lanes_per_sector * warps * repeats > 8:
                        continue
                    if stride == 4096 and (warps, repeats) not in ((2, 1), (1, 2)):
                        continue
                    out.append(("stmix", L, K, warps, repeats, stride))
    return out


LAUNCHES = [("l1cap", name, kb) for name, *_ in CAP_CONFIGS for kb in KB] + _store_launches()


def _cap_kernels() -> dict:
    kernels = {}
    for name, static, dynamic, threads in CAP_CONFIGS:
        mod = cp.RawModule(code=CAP_SRC, options=(f"-DSTATIC_FLOATS={static}",))
        f = mod.get_function("k_l1cap")
        if dynamic > 48 * 1024:
            f.max_dynamic_shared_size_bytes = dynamic
        kernels[name] = (f, dynamic, threads)
    return kernels


def main() -> None:
    kernels = _cap_kernels()
    store = cp.RawModule(code=STORE_SRC).get_function("k_stmix")
    src = cp.ones(64 << 20, cp.float32)
    out = cp.zeros(1 << 22, cp.float32)
    attrs = {}
    for launch in LAUNCHES:
        if launch[0] == "l1cap":
            f, dynamic, threads = kernels[launch[1]]
            f((1,), (threads,), (src, out, cp.int32(launch[2] * 1024 // 16)), shared_mem=dynamic)
            attrs[launch[1]] = {k: v for k, v in f.attributes.items()}
        else:
            _, L, K, warps, repeats, stride = launch
            store((1,), (32 * warps,), (out, cp.int32(L), cp.int32(K), cp.int32(repeats), cp.int32(stride)))
        cp.cuda.Device().synchronize()
    json.dump(dict(launches=LAUNCHES, attributes=attrs), sys.stdout)


if __name__ == "__main__":
    main()
