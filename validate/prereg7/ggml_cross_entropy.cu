// Pre-registered public kernel (not written for memsim): ggml-org/ggml
// what: CROSS_ENTROPY_LOSS (softmax + log-likelihood per row) and its backward
// files: src/ggml-cuda/common.cuh, src/ggml-cuda/cross-entropy-loss.cu
// commit d99724f2b141fed9e1a9f402213506c081433465 (https://github.com/ggml-org/ggml)
// Licence: MIT (Copyright (c) 2023-2026 The ggml authors; full text in validate/prereg7/LICENSES.md).
//
// Edits (no kernel body changed):
// - only these lines kept: src/ggml-cuda/common.cuh: lines 455-463, 515-522; src/ggml-cuda/cross-entropy-loss.cu: lines 8-92; the includes, the host code and the other kernels left out
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

// ---- from src/ggml-cuda/common.cuh, lines 455-463
template<int width = WARP_SIZE>
static __device__ __forceinline__ float warp_reduce_sum(float x) {
#pragma unroll
    for (int offset = width/2; offset > 0; offset >>= 1) {
        x += __shfl_xor_sync(0xffffffff, x, offset, width);
    }
    return x;
}


// ---- from src/ggml-cuda/common.cuh, lines 515-522
template<int width = WARP_SIZE>
static __device__ __forceinline__ float warp_reduce_max(float x) {
#pragma unroll
    for (int offset = width/2; offset > 0; offset >>= 1) {
        x = fmaxf(x, __shfl_xor_sync(0xffffffff, x, offset, width));
    }
    return x;
}

// ---- from src/ggml-cuda/cross-entropy-loss.cu, lines 8-92
template <bool use_shared>
static __global__ void cross_entropy_loss_f32(
        const float * __restrict__ logits, const float * __restrict__ labels, float * __restrict__ dst, const int nclasses, const int k) {
    extern __shared__ float tmp[];

    logits += int64_t(blockIdx.x)*nclasses;
    labels += int64_t(blockIdx.x)*nclasses;

    // Find maximum for softmax:
    float max_logit = -INFINITY;
    for (int i = threadIdx.x; i < nclasses; i += WARP_SIZE) {
        const float val = logits[i];
        max_logit = fmaxf(max_logit, val);

        if (use_shared) {
            tmp[i] = val;
        }
    }
    max_logit = warp_reduce_max(max_logit);

    // Calculate log(softmax(logits)) which is just logits - max:
    float sum = 0.0f;
    for (int i = threadIdx.x; i < nclasses; i += WARP_SIZE) {
        const float logit_i = use_shared ? tmp[i] : logits[i];
        sum += expf(logit_i - max_logit);
    }
    sum = warp_reduce_sum(sum);
    sum = logf(sum);

    // log(exp(logits - max) / sum) = (logits - max) - log(sum)
    float loss = 0.0f;
    for (int i = threadIdx.x; i < nclasses; i += WARP_SIZE) {
        const float logit_i = use_shared ? tmp[i] : logits[i];
        loss += (logit_i - max_logit - sum) * labels[i];
    }
    loss = -warp_reduce_sum(loss) / (float)k;

    if (threadIdx.x != 0) {
        return;
    }

    dst[blockIdx.x] = loss;
}

template <bool use_shared>
static __global__ void cross_entropy_loss_back_f32(
        const float * __restrict__ grad, const float * __restrict__ logits, const float * __restrict__ labels,
        float * __restrict__ dst, const int nclasses) {
    extern __shared__ float tmp[];

    logits += int64_t(blockIdx.x)*nclasses;
    labels += int64_t(blockIdx.x)*nclasses;
    dst    += int64_t(blockIdx.x)*nclasses;

    float maxval = -INFINITY;
    for (int i = threadIdx.x; i < nclasses; i += WARP_SIZE) {
        const float val = logits[i];
        maxval = fmaxf(maxval, val);

        if (use_shared) {
            tmp[i] = val;
        }
    }
    maxval = warp_reduce_max(maxval);

    float sum = 0.0f;
    for (int i = threadIdx.x; i < nclasses; i += WARP_SIZE) {
        const float val = expf((use_shared ? tmp[i] : logits[i]) - maxval);
        sum += val;

        if (use_shared) {
            tmp[i] = val;
        } else {
            dst[i] = val;
        }
    }
    sum = warp_reduce_sum(sum);
    const float sm_scale = 1.0f/sum;

    const float d_by_nrows = *grad/gridDim.x;
    for (int i = threadIdx.x; i < nclasses; i += WARP_SIZE) {
        const float val = use_shared ? tmp[i] : dst[i];
        dst[i] = (val*sm_scale - labels[i])*d_by_nrows;
    }
}

// ---- added for memsim: explicit instantiations the launches name
template __global__ void cross_entropy_loss_f32<true>(const float *, const float *, float *, const int, const int);
template __global__ void cross_entropy_loss_f32<false>(const float *, const float *, float *, const int, const int);
template __global__ void cross_entropy_loss_back_f32<true>(const float *, const float *, const float *, float *, const int);
template __global__ void cross_entropy_loss_back_f32<false>(const float *, const float *, const float *, float *, const int);
