// Corpus: a real device-function call (kept out of misc.cu: a file's cubin holds every kernel
// of the file, and the call's SASS must not stand in the way of the others). Written for
// memsim's corpus; no code copied.

// A __noinline__ device function called per element: a real call with arguments passed in
// registers (or on the stack). Modelled on the CUDA C++ Programming Guide, "noinline and
// forceinline", and the smoothstep of NVIDIA/cuda-samples helper_math.h.
__device__ __noinline__ float smooth_step(float edge0, float edge1, float x) {
  float t = fminf(fmaxf((x - edge0) / (edge1 - edge0), 0.0f), 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

extern "C" __global__ void k_noinline_call(const float* __restrict__ in, float* __restrict__ out, int n,
                                           float lo, float hi) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i] = smooth_step(lo, hi, in[i]);
  }
}
