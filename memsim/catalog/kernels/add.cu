// Seed 002: vector add, aligned (z[n] = x[n] + y[n]) and misaligned by one element (n + 1).
// No bounds check, as in the seed: buffers hold 32 elements more than there are threads.
// The catalog prepends `typedef <element type> T;`.
extern "C" __global__ void k_add1(const T* x, const T* y, T* z) {
  int n = threadIdx.x + blockIdx.x * blockDim.x; z[n] = x[n] + y[n];
}
extern "C" __global__ void k_add2(const T* x, const T* y, T* z) {
  int n = threadIdx.x + blockIdx.x * blockDim.x + 1; z[n] = x[n] + y[n];
}
