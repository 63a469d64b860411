// Pre-registered public kernel (not written for memsim): NVIDIA/TensorRT
// TensorRT's scatter and layout kernels: ScatterND (one thread a block: the slice index from the
// index tuple, then a byte-wise memcpy of a row to its scattered place), PointPillars' BEV scatter
// (64-thread blocks: a block's pillars' features staged in shared memory, then each pillar's 64
// features stored one channel plane apart; float and half) and the top-k plugin's batched
// transpose of the last two dimensions (a thread an element, float and half); copied for memsim's
// fourteenth pre-registered set (validate/prereg14_cases.py).
//
// Repository: NVIDIA/TensorRT, commit a892d22267d9cd2dedc1a0893e6892ac901f6d3d
// Paths: plugin/scatterPlugin/scatterLayer.cu, plugin/common/kernels/pillarScatterKernels.cu, plugin/topkLastDimPlugin/transpose.cu
// Licence: Apache-2.0 (the repository's LICENSE; each source file's header: SPDX-FileCopyrightText: Copyright (c) 1993-2024 (transpose.cu: 2026) NVIDIA CORPORATION & AFFILIATES. All rights reserved.
// SPDX-License-Identifier: Apache-2.0; text in validate/prereg14/LICENSES.md)
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel's signature and body,
// and each helper's, copied whole, in the source's order, under `// --- path: lines`):
// - the #include lines are dropped (kernel.h, transpose.h, <iostream>: host code) and <cuda_fp16.h>
//   included for the half instances; int32_t and int64_t defined as <cstdint>'s; the namespaces
//   nvinfer1::plugin are dropped (the kernels are named without them);
// - pillarScatterKernels.cu's PILLARS_PER_BLOCK and PILLAR_FEATURE_SIZE copied with the kernel;
//   only the kernels are copied (scatterNDInference, pillarScatterKernelLaunch and
//   launchBatchedTranspose2D, the host launchers, are left out: their launch shapes are in
//   validate/prereg14_cases.py); the templates are instantiated explicitly at the end for float and
//   half, as the launchers' explicit instantiations do.
#include <cuda_fp16.h>
typedef int int32_t;         // <cstdint>'s
typedef long long int64_t;

// --- plugin/scatterPlugin/scatterLayer.cu: lines 37-48
__global__ void scatterKernel(
    char* output,
    const char* updates,
    const int* indices,
    int pitch,
    int rowSize)
{
    int idx = indices[blockIdx.x];
    char* pDst = (char*)output + idx * pitch;
    const char* pSrc = updates + blockIdx.x * rowSize;
    memcpy(pDst, pSrc, rowSize);
}

// --- plugin/scatterPlugin/scatterLayer.cu: lines 51-64
__global__ void transformIdxKernel(
    int* output,
    const int* transformCoeff, // these are actually the output pitches of the respective dimensions
    const int* indices,
    int sliceRank)
{
    const int* idx = indices + sliceRank * blockIdx.x;
    int transformedIdx = 0;
    for (int i = 0; i < sliceRank; i++)
    {
        transformedIdx += idx[i] * transformCoeff[i];
    }
    output[blockIdx.x] = transformedIdx;
}

// --- plugin/common/kernels/pillarScatterKernels.cu: lines 26-27
const int PILLARS_PER_BLOCK = 64;
const int PILLAR_FEATURE_SIZE = 64;

// --- plugin/common/kernels/pillarScatterKernels.cu: lines 29-58
template <typename Element>
__global__ void scatterBEV_kernel(const Element *pillar_features_data,
          const unsigned int *coords_data, const unsigned int *params_data,
          unsigned int featureX, unsigned int featureY,
          Element *spatial_feature_data)
{
    int pillar_idx = blockIdx.x * PILLARS_PER_BLOCK + threadIdx.x;
    int valid_pillars_inBlock = PILLARS_PER_BLOCK;
    const int num_pillars = params_data[0];
    int valid_blocks = (num_pillars+PILLARS_PER_BLOCK-1)/PILLARS_PER_BLOCK;
    if(blockIdx.x >= valid_blocks) return;
    if(blockIdx.x == (valid_blocks-1)) {
      valid_pillars_inBlock = num_pillars % PILLARS_PER_BLOCK;
    }
    valid_pillars_inBlock = (valid_pillars_inBlock==0) ? PILLARS_PER_BLOCK : valid_pillars_inBlock;
    __shared__ Element pillarSM[PILLARS_PER_BLOCK][PILLAR_FEATURE_SIZE]; //pillar*64
    for (int i = 0; i < valid_pillars_inBlock; i++)
    {
      pillarSM[i][threadIdx.x] = pillar_features_data[ (blockIdx.x * PILLARS_PER_BLOCK +i)*PILLAR_FEATURE_SIZE + threadIdx.x];
    }
    __syncthreads();
    if(pillar_idx >= num_pillars) return;
    int4 coord = ((const int4 *)coords_data)[pillar_idx];
    int x = coord.w;
    int y = coord.z;
    for (int i = 0; i < PILLAR_FEATURE_SIZE; i++)
    {
      spatial_feature_data[i*featureY*featureX + y*featureX + x] = pillarSM[threadIdx.x][i];
    }
}

// --- plugin/topkLastDimPlugin/transpose.cu: lines 28-47
template <typename T>
__global__ void batchedTranspose2DKernel(
    T const* __restrict__ src, T* __restrict__ dst, int32_t outer, int32_t rows, int32_t cols)
{
    int64_t const idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    int64_t const total = static_cast<int64_t>(outer) * rows * cols;
    if (idx >= total)
    {
        return;
    }

    int64_t const matSize = static_cast<int64_t>(rows) * cols;
    int32_t const o = static_cast<int32_t>(idx / matSize);
    int32_t const rem = static_cast<int32_t>(idx % matSize);
    int32_t const r = rem / cols;
    int32_t const c = rem % cols;

    // src[o][r][c] -> dst[o][c][r]
    dst[static_cast<int64_t>(o) * matSize + static_cast<int64_t>(c) * rows + r] = src[idx];
}

// --- explicit instantiations (the launchers' template arguments)
template __global__ void scatterBEV_kernel<float>(const float*, const unsigned int*, const unsigned int*, unsigned int, unsigned int, float*);
template __global__ void scatterBEV_kernel<half>(const half*, const unsigned int*, const unsigned int*, unsigned int, unsigned int, half*);
template __global__ void batchedTranspose2DKernel<float>(float const* __restrict__, float* __restrict__, int32_t, int32_t, int32_t);
template __global__ void batchedTranspose2DKernel<half>(half const* __restrict__, half* __restrict__, int32_t, int32_t, int32_t);
