// Pre-registered public kernel (not written for memsim): turboderp-org/exllamav2
// what: logit soft-capping in place (f32 and f16)
// files: exllamav2/exllamav2_ext/cuda/softcap.cu
// commit da07facd10b5c7f35b03664c41a3090c9f093de5 (https://github.com/turboderp-org/exllamav2)
// Licence: MIT (the repository's LICENSE; full text in validate/prereg7/LICENSES.md).
//
// Edits (no kernel body changed):
// - only these lines kept: exllamav2/exllamav2_ext/cuda/softcap.cu: lines 6-23, 42-64; the includes, the host code and the other kernels left out
// - `#include <cuda_fp16.h>` written first in place of the file's includes

#include <cuda_fp16.h>
// ---- written for memsim: <cstdint>'s fixed-width types (NVRTC lacks the header here)
typedef int int32_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;

// ---- from exllamav2/exllamav2_ext/cuda/softcap.cu, lines 6-23
#define NUM_THREADS 256

__global__ void cuda_softcap_kernel
(
    float* __restrict__ x,
    const uint64_t numel,
    const float scale
)
{
    uint64_t idx = (uint64_t)blockIdx.x * NUM_THREADS + (uint64_t)threadIdx.x;
    if (idx >= numel) return;

    float v = x[idx];
    v /= scale;
    v = tanhf(v);
    v *= scale;
    x[idx] = v;
}

// ---- from exllamav2/exllamav2_ext/cuda/softcap.cu, lines 42-64
__global__ void h_cuda_softcap_kernel
(
    half* __restrict__ x,
    const uint64_t numel,
    const float scale
)
{
    uint64_t idx = (uint64_t)blockIdx.x * NUM_THREADS + (uint64_t)threadIdx.x;
    idx *= 2;
    if (idx >= numel) return;
    half2* x2 = (half2*)(x + idx);
    half2 v01 = *x2;
    float v0 = __low2float(v01);
    float v1 = __high2float(v01);
    v0 /= scale;
    v1 /= scale;
    v0 = tanhf(v0);
    v1 = tanhf(v1);
    v0 *= scale;
    v1 *= scale;
    v01 = __floats2half2_rn(v0, v1);
    *x2 = v01;
}
