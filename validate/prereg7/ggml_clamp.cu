// Pre-registered public kernel (not written for memsim): ggml-org/ggml
// what: CLAMP
// files: src/ggml-cuda/clamp.cu
// commit d99724f2b141fed9e1a9f402213506c081433465 (https://github.com/ggml-org/ggml)
// Licence: MIT (Copyright (c) 2023-2026 The ggml authors; full text in validate/prereg7/LICENSES.md).
//
// Edits (no kernel body changed):
// - only these lines kept: src/ggml-cuda/clamp.cu: lines 3-16; the includes, the host code and the other kernels left out
// - the helpers from ggml's headers that the kept code needs are written above it (marked 'written for memsim')
// - added after the copied code: explicit instantiations of the templates the launches use (marked)

// ---- written for memsim (not from the repository): what ggml's common.cuh gives these kernels.
// WARP_SIZE as common.cuh defines it; the two programmatic-dependent-launch hooks as no-ops
// (common.cuh's call cudaGridDependencySynchronize / cudaTriggerProgrammaticLaunchCompletion,
// which do nothing for a launch made without the PDL attribute, as every launch here is);
// GGML_CUDA_RESTRICT as __restrict__; FLT_MAX and INFINITY where NVRTC lacks the C headers.

// The fixed-width integer types of <cstdint>, which NVRTC lacks here.
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#define WARP_SIZE 32
#define GGML_CUDA_RESTRICT __restrict__
#ifndef FLT_MAX
#define FLT_MAX 3.402823466e+38F
#endif
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
static __device__ __forceinline__ void ggml_cuda_pdl_sync() {}
static __device__ __forceinline__ void ggml_cuda_pdl_lc() {}
#include <cuda_fp16.h>

// ---- from src/ggml-cuda/clamp.cu, lines 3-16
static __device__ __forceinline__ float op_clamp(float x, float min, float max) {
    return fminf(fmaxf(x, min), max);
}

template <class T>
static __global__ void op_clamp_kernel(const T * x, T * dst, const T min, const T max, const int k) {
    const int i = blockDim.x*blockIdx.x + threadIdx.x;

    if (i >= k) {
        return;
    }

    dst[i] = (T)op_clamp((float)x[i], (float)min, (float)max);
}

// ---- added for memsim: explicit instantiations the launches name
template __global__ void op_clamp_kernel<float>(const float *, float *, const float, const float, const int);
template __global__ void op_clamp_kernel<half>(const half *, half *, const half, const half, const int);
