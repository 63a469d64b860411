// Pre-registered public kernel (not written for memsim): ParRes/Kernels
// files: Cxx11/transpose-cuda.cu
// commit 04248b66a03d7f5edba8d54c9ae7834dd718027a (https://github.com/ParRes/Kernels)
// Licence: BSD-3-Clause (the copied file's own notice, kept below: Copyright Intel Corporation, and NVIDIA where it says so; the repository's COPYING in validate/prereg5/LICENSES.md).
//
// Edits (no kernel body changed):
// - Cxx11/transpose-cuda.cu: only lines 1-31 (its licence notice) and 59-131 kept (the note on the kernels' origin, tile_dim = 32, block_rows = 8 and the four transpose kernels); the includes prk_util.h and prk_cuda.h (host helpers) and the host code left out
// - added `#define RESTRICT __restrict__`, the one line of Cxx11/prk_util.h (line 88) the kernels use
// - added after the copied code: explicit instantiations of the templates (the host code instantiated them by launching them)

// ---- added (see Edits)
#define RESTRICT __restrict__

// ---- from Cxx11/transpose-cuda.cu, lines 1-31
///
/// Copyright (c) 2013, Intel Corporation
/// Copyright (c) 2021, NVIDIA
///
/// Redistribution and use in source and binary forms, with or without
/// modification, are permitted provided that the following conditions
/// are met:
///
/// * Redistributions of source code must retain the above copyright
///       notice, this list of conditions and the following disclaimer.
/// * Redistributions in binary form must reproduce the above
///       copyright notice, this list of conditions and the following
///       disclaimer in the documentation and/or other materials provided
///       with the distribution.
/// * Neither the name of Intel Corporation nor the names of its
///       contributors may be used to endorse or promote products
///       derived from this software without specific prior written
///       permission.
///
/// THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS
/// "AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT
/// LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS
/// FOR A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE
/// COPYRIGHT OWNER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT,
/// INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING,
/// BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES;
/// LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER
/// CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT
/// LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN
/// ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE
/// POSSIBILITY OF SUCH DAMAGE.

// ---- from Cxx11/transpose-cuda.cu, lines 59-131
// The kernel was derived from https://github.com/parallel-forall/code-samples/blob/master/series/cuda-cpp/transpose/transpose.cu

const int tile_dim = 32;
const int block_rows = 8;

template <bool accumulate>
__global__ void transposeNoBankConflict(int order, double * RESTRICT A, double * RESTRICT B)
{
    __shared__ double tile[tile_dim][tile_dim+1];

    auto x = blockIdx.x * tile_dim + threadIdx.x;
    auto y = blockIdx.y * tile_dim + threadIdx.y;

    for (int j = 0; j < tile_dim; j += block_rows) {
       tile[threadIdx.y+j][threadIdx.x] = A[(y+j)*order + x];
       if constexpr (accumulate) A[(y+j)*order + x] += (double)1;
    }

    __syncthreads();

    x = blockIdx.y * tile_dim + threadIdx.x;
    y = blockIdx.x * tile_dim + threadIdx.y;

    for (int j = 0; j < tile_dim; j+= block_rows) {
        B[(y+j)*order + x] += tile[threadIdx.x][threadIdx.y + j];
    }
}

template <bool accumulate>
__global__ void transposeCoalesced(int order, double * RESTRICT A, double * RESTRICT B)
{
    __shared__ double tile[tile_dim][tile_dim];

    auto x = blockIdx.x * tile_dim + threadIdx.x;
    auto y = blockIdx.y * tile_dim + threadIdx.y;

    for (int j = 0; j < tile_dim; j += block_rows) {
       tile[threadIdx.y+j][threadIdx.x] = A[(y+j)*order + x];
       if constexpr (accumulate) A[(y+j)*order + x] += (double)1;
    }

    __syncthreads();

    x = blockIdx.y * tile_dim + threadIdx.x;
    y = blockIdx.x * tile_dim + threadIdx.y;

    for (int j = 0; j < tile_dim; j+= block_rows) {
        B[(y+j)*order + x] += tile[threadIdx.x][threadIdx.y + j];
    }
}

template <bool accumulate>
__global__ void transposeNaive(int order, double * RESTRICT A, double * RESTRICT B)
{
    auto x = blockIdx.x * tile_dim + threadIdx.x;
    auto y = blockIdx.y * tile_dim + threadIdx.y;

    for (int j = 0; j < tile_dim; j+= block_rows) {
        B[x*order + (y+j)] += A[(y+j)*order + x];
        if constexpr (accumulate) A[(y+j)*order + x] += (double)1;
    }
}

template <bool accumulate>
__global__ void transposeBlockStrided(unsigned order, double * RESTRICT A, double * RESTRICT B)
{
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < order; i += blockDim.x * gridDim.x) {
      for (unsigned int j = blockIdx.y * blockDim.y + threadIdx.y; j < order; j += blockDim.y * gridDim.y) {
        B[i*order + j] += A[j*order + i];
        if constexpr (accumulate) A[j*order + i] += (double)1;
      }
    }
}

// ---- added after the copied code (see Edits)
template __global__ void transposeNaive<false>(int, double * RESTRICT, double * RESTRICT);
template __global__ void transposeNaive<true>(int, double * RESTRICT, double * RESTRICT);
template __global__ void transposeCoalesced<false>(int, double * RESTRICT, double * RESTRICT);
template __global__ void transposeCoalesced<true>(int, double * RESTRICT, double * RESTRICT);
template __global__ void transposeNoBankConflict<false>(int, double * RESTRICT, double * RESTRICT);
template __global__ void transposeNoBankConflict<true>(int, double * RESTRICT, double * RESTRICT);
template __global__ void transposeBlockStrided<false>(unsigned, double * RESTRICT, double * RESTRICT);
template __global__ void transposeBlockStrided<true>(unsigned, double * RESTRICT, double * RESTRICT);
