// Timing probes for the warp-level simulation (memsim/timing), run under ncu at base clocks.
//
// k_empty: blocks that do nothing, at two grid sizes: the slope of ncu's duration over the
// blocks is the rate at which an SM takes new blocks (sm_costs.block_launch_cycles measured
// it with CUDA events at boost clocks; this measures it under ncu's base clock).
extern "C" __global__ void k_empty() {}

// k_chase<MODE>: each thread chases its own row of 64 ints (256 B, two lines), which it wrote
// itself, so after a warm-up lap every load hits L1. The warp's lanes touch blockDim.x distinct
// lines per request, so the time per step against blockDim.x is the L1 hit latency of a
// request of that many lines. MODE adds a store before each load that writes back the value
// already there: 1 into the row's other line, 2 into the same line (another sector), 3 into
// the same sector, to see whether a store delays the loads that follow it.
template <int MODE>
__global__ void k_chase(int *m, int steps, int *out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int *row = m + tid * 64;
  for (int k = 0; k < 64; ++k) row[k] = (k + 1) & 63;
  int j = 0;
  for (int s = 0; s < 64; ++s) j = row[j];
  for (int s = 0; s < steps; ++s) {
    if (MODE == 1) row[j ^ 32] = ((j ^ 32) + 1) & 63;
    if (MODE == 2) row[j ^ 16] = ((j ^ 16) + 1) & 63;
    if (MODE == 3) row[j ^ 1] = ((j ^ 1) + 1) & 63;
    j = row[j];
  }
  out[tid] = j;
}
template __global__ void k_chase<0>(int *, int, int *);
template __global__ void k_chase<1>(int *, int, int *);
template __global__ void k_chase<2>(int *, int, int *);
template __global__ void k_chase<3>(int *, int, int *);
