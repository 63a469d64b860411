// Corpus: half precision (needs <cuda_fp16.h> on NVRTC's include path). Written for memsim's
// corpus; no code copied.
//
// Modelled on the NVIDIA blog "Mixed-Precision Programming with CUDA 8" (haxpy over __half2 with
// __hfma2, two values per 32-bit word), NVIDIA/cuda-samples Samples/0_Introduction/fp16ScalarProduct/
// fp16ScalarProduct.cu (half2 loads, float accumulation, shuffle reduction) and the shared-tiled
// matrixMul of NVIDIA/cuda-samples Samples/0_Introduction/matrixMul/matrixMul.cu, in half with
// float accumulation.
#include <cuda_fp16.h>

// y = a * x + y over __half2 pairs (n2 pairs), grid-stride.
extern "C" __global__ void k_haxpy_half2(int n2, float a, const __half2* __restrict__ x, __half2* __restrict__ y) {
  __half2 a2 = __float2half2_rn(a);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += blockDim.x * gridDim.x) {
    y[i] = __hfma2(a2, x[i], y[i]);
  }
}

// Half dot product: half2 loads, products accumulated in float, shuffles, one atomicAdd per warp.
extern "C" __global__ void k_hdot_half2(const __half2* __restrict__ a, const __half2* __restrict__ b, float* result,
                                        int n2) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += blockDim.x * gridDim.x) {
    float2 p = __half22float2(__hmul2(a[i], b[i]));
    sum += p.x + p.y;
  }
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffff, sum, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(result, sum);
}

// Half GEMM tile: 16x16 shared tiles of __half, float accumulation, C in float (row-major,
// sizes multiples of 16).
#define HT 16
extern "C" __global__ void k_hgemm_tiled(int M, int N, int K, const __half* __restrict__ A,
                                         const __half* __restrict__ B, float* __restrict__ C) {
  __shared__ __half As[HT][HT];
  __shared__ __half Bs[HT][HT];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * HT + ty, col = blockIdx.x * HT + tx;
  float acc = 0.0f;
  for (int t = 0; t < K; t += HT) {
    As[ty][tx] = A[row * K + t + tx];
    Bs[ty][tx] = B[(t + ty) * N + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < HT; ++k) acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// float -> half conversion, two per thread through __floats2half2_rn and a float2 load.
extern "C" __global__ void k_float_to_half2(const float2* __restrict__ in, __half2* __restrict__ out, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) {
    float2 v = in[i];
    out[i] = __floats2half2_rn(v.x, v.y);
  }
}
