// A latency-bound loop for the warp-level timing simulation (memsim/timing), run under ncu at
// base clocks: the shape of a ball query (mmcv, prereg12), whose few warps the simulation ran
// about 1.75x too fast. Each thread walks all n points; the three loads of a step are the same
// address in every lane (one sector, L1 hits after the first lap), then a distance and a test.
// R2 picks how often a lane stores: 0 never, 0.04 about 3% of steps (a divergent store, as the
// ball query's), 100 every step. The duration's slope over n is the cycles a step costs a warp
// alone (block of 32) or among 16 (block of 512) on one SM.
extern "C" __global__ void k_loop(int n, float r2, const float* xyz, const float* q, int* idx) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float qx = q[3 * t], qy = q[3 * t + 1], qz = q[3 * t + 2];
  int cnt = 0;
  for (int k = 0; k < n; ++k) {
    float x = xyz[3 * k], y = xyz[3 * k + 1], z = xyz[3 * k + 2];
    float d2 = (qx - x) * (qx - x) + (qy - y) * (qy - y) + (qz - z) * (qz - z);
    if (d2 < r2) {
      idx[t * 64 + (cnt & 63)] = k;
      ++cnt;
    }
  }
  idx[t * 64] += cnt;
}
