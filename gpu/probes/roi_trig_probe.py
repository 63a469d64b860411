"""Bitwise outputs of Detectron2 RoIAlignRotated's scalar steps (prereg15) on 4096 random rois: the
angle in double (`r[5] * M_PI / 180.0`, whose division ptxas starts with `MUFU.RCP64H R5, 180`),
its float cos and sin, the bin sizes and a sample's rotated coordinates.

    python -m gpu.probes.roi_trig_probe gpu OUT.npy    # on the GPU machine (CuPy)
    python -m gpu.probes.roi_trig_probe sim OUT.npy    # memsim against a recording

Recorded on the H100 (h100_roi_trig_probe.npy, session 19): memsim gave 5.8e-15 for the angle
until the RCP64H immediate was read as a double's high word; tests/engine/sass/
test_sass_float.py holds every output to the recording bit for bit."""
import json, sys
import numpy as np
SRC = r'''
#define M_PI 3.14159265358979323846
extern "C" __global__ void k(const float* rois, int n, float scale, int pooled, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* r = rois + i * 6;
  float theta = r[5] * M_PI / 180.0;
  float c = cos(theta), s = sin(theta);
  float h = r[4] * scale, w = r[3] * scale;
  float bh = h / pooled, bw = w / pooled;
  float yy = -h / 2.0 + 3 * bh + static_cast<float>(1 + .5f) * bh / static_cast<float>(2);
  float xx = -w / 2.0 + 2 * bw + static_cast<float>(0 + .5f) * bw / static_cast<float>(2);
  float y = yy * c - xx * s + (r[2] * scale - 0.5f);
  float x = yy * s + xx * c + (r[1] * scale - 0.5f);
  float* o = out + i * 8;
  o[0] = theta; o[1] = c; o[2] = s; o[3] = bh; o[4] = bw; o[5] = yy; o[6] = y; o[7] = x;
}'''
N = 4096
rois = np.random.default_rng(7).random(N * 6).astype(np.float32)
NAMES = ["theta", "cos", "sin", "bh", "bw", "yy", "y", "x"]


def args(out: np.ndarray) -> list:
    return [rois, np.int32(N), np.float32(32.0), np.int32(7), out]


def simulated() -> np.ndarray:
    import memsim
    out = np.zeros(N * 8, np.float32)
    memsim.simulate(SRC, "k", (N + 255) // 256, 256, args(out))
    return out.reshape(N, 8)


if __name__ == "__main__" and sys.argv[1] == "gpu":
    import cupy as cp
    k = cp.RawKernel(SRC, "k")
    d = cp.zeros(N * 8, cp.float32)
    k(((N + 255) // 256,), (256,), (cp.asarray(rois), np.int32(N), np.float32(32.0), np.int32(7), d))
    np.save(sys.argv[2], cp.asnumpy(d))
elif __name__ == "__main__":
    gpu = np.load(sys.argv[2]).reshape(N, 8).view(np.uint32)
    mine = simulated().view(np.uint32)
    for j, nm in enumerate(NAMES):
        bad = np.flatnonzero(gpu[:, j] != mine[:, j])
        print(nm, len(bad), [(int(b), hex(int(gpu[b, j])), hex(int(mine[b, j]))) for b in bad[:3]])
