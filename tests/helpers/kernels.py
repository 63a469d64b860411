"""CUDA sources several test modules launch."""

# a transpose whose reads coalesce and whose writes stride: traced by tests/engine
TRACE_SOURCE = '''extern "C" __global__ void k_t(const float* a, float* b, int n) {
  int ix = blockIdx.x * blockDim.x + threadIdx.x, iy = blockIdx.y * blockDim.y + threadIdx.y;
  b[ix * n + iy] = a[iy * n + ix];
}
'''
