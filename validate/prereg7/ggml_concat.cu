// Pre-registered public kernel (not written for memsim): ggml-org/ggml
// what: CONCAT (contiguous)
// files: src/ggml-cuda/concat.cu
// commit d99724f2b141fed9e1a9f402213506c081433465 (https://github.com/ggml-org/ggml)
// Licence: MIT (Copyright (c) 2023-2026 The ggml authors; full text in validate/prereg7/LICENSES.md).
//
// Edits (no kernel body changed):
// - only these lines kept: src/ggml-cuda/concat.cu: lines 5-53; the includes, the host code and the other kernels left out
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
#define CUDA_CONCAT_BLOCK_SIZE 256

// ---- from src/ggml-cuda/concat.cu, lines 5-53
// contiguous kernels
template <typename T, int dim>
static __global__ void __launch_bounds__(CUDA_CONCAT_BLOCK_SIZE) concat_cont(const T * x,
                                                                             const T * y,
                                                                             T *       dst,
                                                                             int64_t   ne00,
                                                                             int64_t   ne01,
                                                                             int64_t   ne02,
                                                                             int64_t   ne0,
                                                                             int64_t   ne1,
                                                                             int64_t   ne2) {
    static_assert(dim >= 0 && dim <= 2, "dim must be in [0, 2]");

    const int64_t n = ne0 * ne1 * ne2;

    ggml_cuda_pdl_sync();
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t) blockDim.x * gridDim.x) {
        if constexpr (dim == 0) {
            const int64_t row = i / ne0;
            const int64_t i0  = i - row * ne0;

            if (i0 < ne00) {
                dst[i] = x[row * ne00 + i0];
            } else {
                dst[i] = y[row * (ne0 - ne00) + (i0 - ne00)];
            }
        } else if constexpr (dim == 1) {
            const int64_t dst_plane  = ne0 * ne1;
            const int64_t src0_plane = ne0 * ne01;
            const int64_t src1_plane = dst_plane - src0_plane;
            const int64_t i2         = i / dst_plane;
            const int64_t i01        = i - i2 * dst_plane;

            if (i01 < src0_plane) {
                dst[i] = x[i2 * src0_plane + i01];
            } else {
                dst[i] = y[i2 * src1_plane + (i01 - src0_plane)];
            }
        } else {
            const int64_t src0_size = ne0 * ne1 * ne02;

            if (i < src0_size) {
                dst[i] = x[i];
            } else {
                dst[i] = y[i - src0_size];
            }
        }
    }
}

// ---- added for memsim: explicit instantiations the launches name
template __global__ void concat_cont<float, 0>(const float *, const float *, float *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t);
template __global__ void concat_cont<float, 1>(const float *, const float *, float *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t);
template __global__ void concat_cont<float, 2>(const float *, const float *, float *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t);
