// Pre-registered public kernel (not written for memsim): NVIDIA/TensorRT
// TensorRT's BERT plugins and group normalisation: the skip layer norm (a block a row; ld <= 32 one
// warp; ld 768 / 1024 the vectorised skipln_vec, 16 bytes a thread, TPB = ld / VPT; other ld 256
// threads striding over the row; cub BlockReduce of (mean, mean square) pairs over __syncthreads),
// in float and half; the embedding layer norm (a block a token: gathers of its word, token and
// position embedding rows, then the same block layer norm); the mask index (a block a sequence,
// cub min-reduce, the mask read column-wise); and group norm's in-place per-channel scale and shift
// (a 3-D grid of 256-thread blocks); copied for memsim's fourteenth pre-registered set
// (validate/prereg14_cases.py).
//
// Repository: NVIDIA/TensorRT, commit a892d22267d9cd2dedc1a0893e6892ac901f6d3d
// Paths: plugin/common/common.cuh (kvp and its operator+, the float/half rsqrt, tanh and exp, layerNorm, layerNormSmall, BytesToType, copy), plugin/common/cubCcclCompat.h (compat::getCudaMinOp), plugin/skipLayerNormPlugin/skipLayerNormKernel.cu, plugin/embLayerNormPlugin/embLayerNormKernel.cu, plugin/groupNormalizationPlugin/groupNormalizationKernel.cu
// Licence: Apache-2.0 (the repository's LICENSE; each source file's header: SPDX-FileCopyrightText: Copyright (c) 1993-2024 (common.cuh, cubCcclCompat.h: 1993-2025) NVIDIA CORPORATION & AFFILIATES. All rights reserved.
// SPDX-License-Identifier: Apache-2.0; text in validate/prereg14/LICENSES.md)
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel's signature and body,
// and each helper's, copied whole, in the source's order, under `// --- path: lines`):
// - the #include lines are dropped (NvInfer.h, bertCommon.h, serialize.hpp, the plugins' headers:
//   host code) and replaced by the CUDA headers the copied code needs: <cuda_fp16.h>, CUB's
//   <cub/block/block_reduce.cuh> and <cub/util_type.cuh> (cub::KeyValuePair) instead of
//   <cub/cub.cuh> (its device-wide algorithms are host code NVRTC cannot compile), <cuda/functional>
//   (cuda::minimum) and <cuda/std/limits>, whose numeric_limits is made std::numeric_limits by one
//   using-declaration (skipln_vec's std::numeric_limits<T>::epsilon(); <limits> is the host's);
//   int8_t, uint16_t, uint32_t, uint64_t defined as <cstdint>'s; the namespaces
//   nvinfer1::plugin::bert are dropped (the kernels are named without them);
// - common.cuh's lines 33-311 (everything the copied kernels call, down to layerNormSmall; the
//   sm < 5.3 half operators inside them stay under their #if) and 434-466 (BytesToType, copy),
//   cubCcclCompat.h's compat namespace; only these kernels are copied (skiplnDQQ, the int8 one,
//   fillSBSMaskKernel and the host launchers are left out); the templates are instantiated
//   explicitly at the end as computeSkipLayerNorm, computeMaskIdx, embSkipLayerNorm and
//   scaleShiftChannelsInplace do (float and half, hasBias true and false).
#include <cuda_fp16.h>
#include <cub/block/block_reduce.cuh>
#include <cub/util_type.cuh>
#include <cuda/functional>
#include <cuda/std/limits>
namespace std { using cuda::std::numeric_limits; }   // <limits>' std::numeric_limits, as libcu++ gives it
typedef signed char int8_t;           // <cstdint>'s
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;

// --- plugin/common/common.cuh: lines 33-311
using kv_float = cub::KeyValuePair<float, float>;
using kv_half = cub::KeyValuePair<half, half>;
using kv_half2 = cub::KeyValuePair<half2, half2>;

template <typename T>
__device__ inline T tanh(const T& x);

template <typename T>
__device__ inline T rsqrt(const T& x);

template <typename T>
__device__ inline T exp(const T& x);


// Float32 Operations
template <>
__device__ inline float tanh(const float& x)
{
    return tanhf(x);
}

template <>
__device__ inline float rsqrt(const float& x)
{
    return rsqrtf(x);
}

template <>
__device__ inline float exp(const float& x)
{
    return expf(x);
}


__device__ inline kv_float operator+(const kv_float& a, const kv_float& b)
{
    return kv_float(a.key + b.key, a.value + b.value);
}


// Half Operations

__device__ inline half2 __hadd2_with_fallback(const half2 a, const half2 b)
{
#if __CUDA_ARCH__ >= 530
    return __hadd2(a, b);
#else
    float2 out{};
    out.x = __half2float(a.x) + __half2float(b.x);
    out.y = __half2float(a.y) + __half2float(b.y);
    return __float22half2_rn(out);
#endif
}

#if __CUDA_ARCH__ < 530

template <typename T>
__device__ inline T operator+(const T& a, const T& b);

template <typename T>
__device__ inline T operator*(const T& a, const T& b);


template <>
__device__ inline half2 operator+(const half2& a, const half2& b)
{
    return __hadd2_with_fallback(a, b);
}

template <>
__device__ inline half2 operator*(const half2& a, const half2& b)
{
    float2 out{};
    out.x = __half2float(a.x) * __half2float(b.x);
    out.y = __half2float(a.y) * __half2float(b.y);
    return __float22half2_rn(out);
}

template <typename T>
__device__ inline T operator+(const T& a, const T& b);


template <typename T>
__device__ inline T operator/(const T& a, const T& b);


template <typename T>
__device__ inline T& operator+=(T& a, const T& b);

template <typename T>
__device__ inline T operator-(const T& a, const T& b);

template <typename T>
__device__ inline T operator*(const T& a, const T& b);

template <typename T>
__device__ inline bool operator>(const T& a, const T& b);

template <typename T>
__device__ inline bool operator>=(const T& a, const T& b);

template <typename T>
__device__ inline bool operator<(const T& a, const T& b);

template <typename T>
__device__ inline bool operator<=(const T& a, const T& b);

template <>
__device__ inline half operator+(const half& a, const half& b)
{
    return __float2half(__half2float(a) + __half2float(b));
}

template <>
__device__ inline half& operator+=(half& a, const half& b)
{
    a = __float2half(__half2float(a) + __half2float(b));
    return a;
}

template <>
__device__ inline half operator-(const half& a, const half& b)
{
    return __float2half(__half2float(a) - __half2float(b));
}

template <>
__device__ inline half operator*(const half& a, const half& b)
{
    return __float2half(__half2float(a) * __half2float(b));
}

template <>
__device__ inline half operator/(const half& a, const half& b)
{
    return __float2half(__half2float(a) / __half2float(b));
}

template <>
__device__ inline bool operator>(const half& a, const half& b)
{
    return __half2float(a) > __half2float(b);
}

template <>
__device__ inline bool operator>=(const half& a, const half& b)
{
    return __half2float(a) >= __half2float(b);
}

template <>
__device__ inline bool operator<(const half& a, const half& b)
{
    return __half2float(a) < __half2float(b);
}

template <>
__device__ inline bool operator<=(const half& a, const half& b)
{
    return __half2float(a) <= __half2float(b);
}

#endif

template <>
__device__ inline half tanh(const half& x)
{
    const float tmp = tanhf(__half2float(x));
    return __float2half(tmp);
}

template <>
__device__ inline half2 tanh(const half2& x)
{
    // at the moment, there is no half2 tanh builtin
    float2 tmp = (__half22float2(x));
    tmp.x = tanhf(tmp.x);
    tmp.y = tanhf(tmp.y);
    return __float22half2_rn(tmp);
}

template <>
__device__ inline half rsqrt(const half& x)
{
#if __CUDA_ARCH__ >= 530
    return hrsqrt(x);
#else
    return __float2half(rsqrt(__half2float(x)));
#endif
}

template <>
__device__ inline half exp(const half& x)
{
#if __CUDA_ARCH__ >= 530
    return hexp(x);
#else
    return __float2half(exp(__half2float(x)));
#endif
}

__device__ inline kv_half operator+(const kv_half& a, const kv_half& b)
{
    const half2 a2 = __halves2half2(a.key, a.value);
    const half2 b2 = __halves2half2(b.key, b.value);
    const half2 res = __hadd2_with_fallback(a2, b2);
    return kv_half(res.x, res.y);
}

__device__ inline kv_half2 operator+(const kv_half2& a, const kv_half2& b)
{
    return kv_half2(__hadd2_with_fallback(a.key, b.key), __hadd2_with_fallback(a.value, b.value));
}


// Helper Functions

template <typename T>
using kvp = cub::KeyValuePair<T, T>;

template <typename T, typename R, typename P, int32_t TPB>
__device__ inline void layerNorm(
    const kvp<R>& threadData, const int32_t ld, const int32_t offset, const P* beta, const P* gamma, T* output)
{
    // Assuming threadData is already divided by ld

    using BlockReduce = cub::BlockReduce<kvp<R>, TPB>;
    __shared__ typename BlockReduce::TempStorage temp_storage;
    __shared__ R mu;     // mean
    __shared__ R rsigma; // 1 / std.dev.

    const auto sumKV = BlockReduce(temp_storage).Reduce(threadData, [](auto const& lhs, auto const& rhs){return lhs + rhs;});

    if (threadIdx.x == 0)
    {
        mu = sumKV.key;
        rsigma = rsqrt(sumKV.value - mu * mu);
    }
    __syncthreads();

    for (int32_t i = threadIdx.x; i < ld; i += TPB)
    {
        const int32_t idx = offset + i;
        const R val = output[idx];
        const R g(gamma[i]);
        const R b(beta[i]);
        output[idx] = g * (val - mu) * rsigma + b;
    }
}

template <typename T, typename P, int32_t TPB>
__device__ inline void layerNormSmall(
    const T val, const kvp<T>& threadData, const int32_t ld, const int32_t idx, const P* beta, const P* gamma, T* output)
{
    // Assuming threadData is already divided by ld
    // Small settings: the block covers the leading dimension TPB >= ld. The input
    // value is available in a register

    using BlockReduce = cub::BlockReduce<kvp<T>, TPB>;
    __shared__ typename BlockReduce::TempStorage temp_storage;
    __shared__ T mu;     // mean
    __shared__ T rsigma; // 1 / std.dev.

    const auto sumKV = BlockReduce(temp_storage).Reduce(threadData, [](auto const& lhs, auto const& rhs){return lhs + rhs;});

    if (threadIdx.x == 0)
    {
        mu = sumKV.key;
        rsigma = rsqrt(sumKV.value - mu * mu);
    }
    __syncthreads();

    if (threadIdx.x < ld)
    {
        const T g(gamma[threadIdx.x]);
        const T b(beta[threadIdx.x]);
        output[idx] = g * (val - mu) * rsigma + b;
    }
}

// --- plugin/common/common.cuh: lines 434-466
template <int32_t VPT>
struct BytesToType;

template <>
struct BytesToType<2>
{
    using type = uint16_t;
};
template <>
struct BytesToType<4>
{
    using type = uint32_t;
};
template <>
struct BytesToType<8>
{
    using type = uint64_t;
};
template <>
struct BytesToType<16>
{
    using type = float4;
};

template <int32_t Bytes>
__device__ inline void copy(const void* local, void* data)
{
    using T = typename BytesToType<Bytes>::type;

    const T* in = static_cast<const T*>(local);
    T* out = static_cast<T*>(data);
    *out = *in;
}

// --- plugin/common/cubCcclCompat.h: lines 25-46
namespace compat
{

// Min operation compatibility wrapper
__host__ __device__ __forceinline__ auto getCudaMinOp()
{
    return cuda::minimum();
}

// Max operation compatibility wrapper
__host__ __device__ __forceinline__ auto getCudaMaxOp()
{
    return cuda::maximum();
}

// Sum operation compatibility wrapper
__host__ __device__ __forceinline__ auto getCudaSumOp()
{
    return cuda::std::plus<>();
}

} // namespace compat

// --- plugin/skipLayerNormPlugin/skipLayerNormKernel.cu: lines 108-161
template <typename T, int32_t TPB, int32_t VPT, bool hasBias>
__global__ void skipln_vec(
    int32_t const ld, const T* input, const T* skip, T* output, const T* beta, const T* gamma, const T* bias)
{
    int32_t const idx = ld * blockIdx.x + threadIdx.x * VPT;
    // 4 * 1024 * 4 * 2 Bytes = 16KB per block
    T inLocal[VPT];
    T skipLocal[VPT];
    T biasLocal[VPT];
    // T gammaLocal[VPT];
    copy<sizeof(T) * VPT>(&input[idx], inLocal);
    copy<sizeof(T) * VPT>(&skip[idx], skipLocal);
    copy<sizeof(T) * VPT>(&bias[threadIdx.x * VPT], biasLocal);
    T local = 0.f;
    T local2 = 0.f;

    const T rld = T(1) / T(ld);
#pragma unroll
    for (int32_t it = 0; it < VPT; it++)
    {
        inLocal[it] += skipLocal[it];
        if (hasBias)
            inLocal[it] += biasLocal[it];
        const T tmp = rld * inLocal[it];
        local += tmp;
        local2 += tmp * inLocal[it];
    }

    copy<sizeof(T) * VPT>(&beta[threadIdx.x * VPT], biasLocal);
    copy<sizeof(T) * VPT>(&gamma[threadIdx.x * VPT], skipLocal);

    using BlockReduce = cub::BlockReduce<kvp<T>, TPB>;
    __shared__ typename BlockReduce::TempStorage tempStorage;
    __shared__ T mu;     // mean
    __shared__ T rsigma; // 1 / std.dev.

    auto const sumKV = BlockReduce(tempStorage).Reduce(kvp<T>(local, local2), [](auto const& lhs, auto const& rhs){return lhs + rhs;});

    if (threadIdx.x == 0)
    {
        mu = sumKV.key;
        rsigma = rsqrt(sumKV.value - mu * mu + std::numeric_limits<T>::epsilon());
    }
    __syncthreads();
    ///*
#pragma unroll
    for (int32_t it = 0; it < VPT; it++)
    {
        inLocal[it] = skipLocal[it] * (inLocal[it] - mu) * rsigma + biasLocal[it];
    }
    /* */

    copy<sizeof(T) * VPT>(inLocal, &output[idx]);
}

// --- plugin/skipLayerNormPlugin/skipLayerNormKernel.cu: lines 163-190
template <typename T, unsigned TPB, bool hasBias>
__global__ void skipLayerNormKernelSmall(
    int32_t const ld, const T* input, const T* skip, const T* beta, const T* gamma, T* output, const T* bias)
{

    const T rld = T(1) / T(ld);
    int32_t const offset = blockIdx.x * ld;

    // reduce x and x^2
    kvp<T> threadData(0, 0);
    int32_t const idx = offset + threadIdx.x;
    T val = 0;

    if (threadIdx.x < ld)
    {

        val = input[idx] + skip[idx];
        if (hasBias)
        {
            val += bias[threadIdx.x];
        }

        const T rldval = rld * val;
        threadData = threadData + kvp<T>(rldval, rldval * val);
    }

    layerNormSmall<T, T, TPB>(val, threadData, ld, idx, beta, gamma, output);
}

// --- plugin/skipLayerNormPlugin/skipLayerNormKernel.cu: lines 192-217
template <typename T, unsigned TPB, bool hasBias>
__global__ void skipLayerNormKernel(
    int32_t const ld, const T* input, const T* skip, const T* beta, const T* gamma, T* output, const T* bias)
{
    const T rld = T(1) / T(ld);
    int32_t const offset = blockIdx.x * ld;

    // reduce x and x^2
    kvp<T> threadData(0, 0);

    for (int32_t i = threadIdx.x; i < ld; i += TPB)
    {
        int32_t const idx = offset + i;
        T val = T(input[idx]) + T(skip[idx]);

        if (hasBias)
        {
            val += T(bias[i]);
        }
        const T rldval = rld * val;
        threadData = threadData + kvp<T>(rldval, rldval * val);
        output[idx] = val;
    }

    layerNorm<T, T, T, TPB>(threadData, ld, offset, beta, gamma, output);
}

// --- plugin/embLayerNormPlugin/embLayerNormKernel.cu: lines 98-127
template <unsigned TPB>
__global__ void maskIdxKernelSmall(int ld, int32_t const* mask, int* maskIdx)
{

    using BlockReduce = cub::BlockReduce<int32_t, TPB>;
    __shared__ typename BlockReduce::TempStorage tmpStorage;

    auto min = compat::getCudaMinOp();
    int threadData(ld); // if the mask admits all values

    if (threadIdx.x < ld)
    {
        // mask has input dims {S, B} and gridDims.x is B
        int32_t const idx = threadIdx.x * gridDim.x + blockIdx.x;

        int32_t const val = mask[idx];
        if (val == 0) // masked position: report thread idx
        {
            threadData = threadIdx.x;
        }
    }

    const auto minIdx = BlockReduce(tmpStorage).Reduce(threadData, min);


    if (threadIdx.x == 0)
    {
        maskIdx[blockIdx.x] = minIdx;
    }
}

// --- plugin/embLayerNormPlugin/embLayerNormKernel.cu: lines 129-157
template <unsigned TPB>
__global__ void maskIdxKernel(int ld, int32_t const* mask, int* maskIdx)
{

    using BlockReduce = cub::BlockReduce<int32_t, TPB>;
    __shared__ typename BlockReduce::TempStorage tmpStorage;

    auto min = compat::getCudaMinOp();
    int threadData(ld); // if the mask admits all values

    for (int i = threadIdx.x; i < ld; i += TPB)
    {
        // mask has input dims {S, B} and gridDims.x is B
        int32_t const idx = i * gridDim.x + blockIdx.x;

        int32_t const val = mask[idx];
        if (val == 0) // masked position: report thread idx
        {
            threadData = min(threadData, i);
        }
    }

    const auto minIdx = BlockReduce(tmpStorage).Reduce(threadData, min);

    if (threadIdx.x == 0)
    {
        maskIdx[blockIdx.x] = minIdx;
    }
}

// --- plugin/embLayerNormPlugin/embLayerNormKernel.cu: lines 185-235
template <typename T, unsigned TPB>
__global__ void embLayerNormKernel(int ld, int32_t const* inputIds, int32_t const* tokenIds, float const* beta,
    float const* gamma, T const* wordEmb, T const* posEmb, T const* tokEmb, int32_t const wordSize,
    int32_t const tokSize, T* output)
{

    // 1. lookup word and token of the block
    // blockIdx.x = position in the sequence
    // blockIdx.y = batch
    // gridDim.x = S
    // gridDim.y = B
    __shared__ int wordId;
    __shared__ int tokenId;

    T const rld = T(1.f) / T(ld);
    int32_t const seqPos = blockIdx.y + blockIdx.x * gridDim.y;
    if (threadIdx.x == 0)
    {
        wordId = inputIds[seqPos];
        tokenId = tokenIds[seqPos];
    }
    __syncthreads();

    // 2. load pos/tok/word embeddings and add them toghether
    // offset into embeddings is given by wordId * hidden_size
    int32_t const poffset = blockIdx.x * ld;
    int32_t const woffset = wordId * ld;
    int32_t const toffset = tokenId * ld;
    // the output offset is given by b * (S*hidden_size) + s * hidden_size
    int32_t const outOffset = seqPos * ld;

    kvp<T> threadData(0, 0);

    if (wordId >= 0 && wordId < wordSize && tokenId >= 0 && tokenId < tokSize)
    {
        for (int it = threadIdx.x; it < ld; it += TPB)
        {
            T const w(wordEmb[woffset + it]);
            T const t(tokEmb[toffset + it]);
            T const p(posEmb[poffset + it]);
            T const val = w + t + p;

            output[outOffset + it] = val;
            T const rldval = rld * val;
            threadData = threadData + kvp<T>(rldval, rldval * val);
        }
    }

    // 3. layer norm on the sum
    layerNorm<T, T, float, TPB>(threadData, ld, outOffset, beta, gamma, output);
}

// --- plugin/groupNormalizationPlugin/groupNormalizationKernel.cu: lines 25-44
template <typename T, unsigned TPB>
__global__ void scaleShiftChannelsInplaceKernel(T* inOut, const int ld, const float* beta, const float* gamma)
{
    // grid is blocks x C x B
    // ld should be H*W
    // blockIdx.z = batch
    // blockIdx.y = channel
    // blockIdx.x = block per col
    const T b = beta[blockIdx.y];
    const T g = gamma[blockIdx.y];

    const int offset = (blockIdx.z * gridDim.y + blockIdx.y) * ld;

    const int tx = blockIdx.x * TPB + threadIdx.x;

    if (tx < ld)
    {
        inOut[offset + tx] = g * inOut[offset + tx] + b;
    }
}

// --- explicit instantiations (the launchers' template arguments)
template __global__ void skipln_vec<float, 192, 4, true>(int32_t const, const float*, const float*, float*, const float*, const float*, const float*);
template __global__ void skipln_vec<float, 256, 4, true>(int32_t const, const float*, const float*, float*, const float*, const float*, const float*);
template __global__ void skipLayerNormKernelSmall<float, 32, true>(int32_t const, const float*, const float*, const float*, const float*, float*, const float*);
template __global__ void skipLayerNormKernel<float, 256, true>(int32_t const, const float*, const float*, const float*, const float*, float*, const float*);
template __global__ void skipln_vec<float, 192, 4, false>(int32_t const, const float*, const float*, float*, const float*, const float*, const float*);
template __global__ void skipln_vec<float, 256, 4, false>(int32_t const, const float*, const float*, float*, const float*, const float*, const float*);
template __global__ void skipLayerNormKernelSmall<float, 32, false>(int32_t const, const float*, const float*, const float*, const float*, float*, const float*);
template __global__ void skipLayerNormKernel<float, 256, false>(int32_t const, const float*, const float*, const float*, const float*, float*, const float*);
template __global__ void embLayerNormKernel<float, 256>(int, int32_t const*, int32_t const*, float const*, float const*, float const*, float const*, float const*, int32_t const, int32_t const, float*);
template __global__ void skipln_vec<half, 96, 8, true>(int32_t const, const half*, const half*, half*, const half*, const half*, const half*);
template __global__ void skipln_vec<half, 128, 8, true>(int32_t const, const half*, const half*, half*, const half*, const half*, const half*);
template __global__ void skipLayerNormKernelSmall<half, 32, true>(int32_t const, const half*, const half*, const half*, const half*, half*, const half*);
template __global__ void skipLayerNormKernel<half, 256, true>(int32_t const, const half*, const half*, const half*, const half*, half*, const half*);
template __global__ void skipln_vec<half, 96, 8, false>(int32_t const, const half*, const half*, half*, const half*, const half*, const half*);
template __global__ void skipln_vec<half, 128, 8, false>(int32_t const, const half*, const half*, half*, const half*, const half*, const half*);
template __global__ void skipLayerNormKernelSmall<half, 32, false>(int32_t const, const half*, const half*, const half*, const half*, half*, const half*);
template __global__ void skipLayerNormKernel<half, 256, false>(int32_t const, const half*, const half*, const half*, const half*, half*, const half*);
template __global__ void embLayerNormKernel<half, 256>(int, int32_t const*, int32_t const*, float const*, float const*, half const*, half const*, half const*, int32_t const, int32_t const, half*);
template __global__ void maskIdxKernelSmall<32>(int, int32_t const*, int*);
template __global__ void maskIdxKernelSmall<128>(int, int32_t const*, int*);
template __global__ void maskIdxKernelSmall<384>(int, int32_t const*, int*);
template __global__ void maskIdxKernel<256>(int, int32_t const*, int*);
template __global__ void scaleShiftChannelsInplaceKernel<float, 256>(float*, const int, const float*, const float*);
