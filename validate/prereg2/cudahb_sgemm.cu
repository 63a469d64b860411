// Pre-registered public kernel (not written for memsim): ArchaeaSoftware/cudahandbook
// files: gemm/sgemm1Naive.cu, gemm/sgemm2Cache.cu, gemm/sgemm3Tiled.cu, gemm/sgemm4RegBlock.cu
// commit c56ebf85f3d226545daa1ffff4218fe8b8636f8e (https://github.com/ArchaeaSoftware/cudahandbook)
// Licence: BSD-2-Clause (in each file's own header, Copyright (c) 2011-2026 Archaea Software, LLC; full text in validate/prereg2/LICENSES.md).
//
// Edits (no kernel body changed):
// - gemm/sgemm1Naive.cu: only lines 1-40, 48-58 kept (licence header, the kernels and the device code they use); the rest is host code
// - gemm/sgemm2Cache.cu: only lines 51-73 kept (licence header, the kernels and the device code they use); the rest is host code
// - gemm/sgemm3Tiled.cu: only lines 51-76 kept (licence header, the kernels and the device code they use); the rest is host code
// - gemm/sgemm4RegBlock.cu: only lines 52-99 kept (licence header, the kernels and the device code they use); the rest is host code
// - added after the copied code: explicit instantiations of the templates launched (NVRTC compiles no host code to instantiate them)
// - #include "sgemm.h" (host-side problem setup and cuBLAS reference) left out
// - the four files carry the same licence header; it is copied once, from sgemm1Naive.cu


// ---- from gemm/sgemm1Naive.cu, lines 1-40
/*
 *
 * sgemm1Naive.cu
 *
 * Stage 1 of the SGEMM optimization journey in The CUDA Handbook, 2nd ed.,
 * Chapter 17 (Listing 17-1): the naive kernel. One thread computes one
 * element of C, reading a full row of A and column of B from global memory
 * with no reuse. It is correct and simple, and every later stage exists to
 * recover the arithmetic intensity this version throws away.
 *
 * Build with: nvcc -O3 -arch=sm_80 -I ../chLib sgemm1Naive.cu -lcublas
 *
 * Copyright (c) 2025-2026, Archaea Software, LLC.
 * All rights reserved.
 *
 * Redistribution and use in source and binary forms, with or without
 * modification, are permitted provided that the following conditions
 * are met:
 *
 * 1. Redistributions of source code must retain the above copyright
 *    notice, this list of conditions and the following disclaimer.
 * 2. Redistributions in binary form must reproduce the above copyright
 *    notice, this list of conditions and the following disclaimer in
 *    the documentation and/or other materials provided with the
 *    distribution.
 *
 * THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS
 * "AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT
 * LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS
 * FOR A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE
 * COPYRIGHT OWNER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT,
 * INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING,
 * BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES;
 * LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER
 * CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT
 * LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN
 * ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE
 * POSSIBILITY OF SUCH DAMAGE.
 *
 */

// ---- from gemm/sgemm1Naive.cu, lines 48-58
__global__ void
sgemm_naive( int M, int N, int K, const float *A, const float *B, float *C )
{
    for ( int row = blockIdx.y*blockDim.y + threadIdx.y; row < M; row += gridDim.y*blockDim.y ) {
        for ( int col = blockIdx.x*blockDim.x + threadIdx.x; col < N; col += gridDim.x*blockDim.x ) {
            float acc = 0.f;
            for ( int k = 0; k < K; k++ ) acc += A[row*K + k] * B[k*N + col];
            C[row*N + col] = acc;
        }
    }
}

// ---- from gemm/sgemm2Cache.cu, lines 51-73
template<int TM, int TN>
__global__ void
sgemm_cache( int M, int N, int K, const float *A, const float *B, float *C )
{
    for ( int row0 = (blockIdx.y*blockDim.y + threadIdx.y)*TM; row0 < M;
              row0 += gridDim.y*blockDim.y*TM ) {
        for ( int col0 = (blockIdx.x*blockDim.x + threadIdx.x)*TN; col0 < N;
                  col0 += gridDim.x*blockDim.x*TN ) {
            float acc[TM][TN] = {};
            for ( int k = 0; k < K; k++ ) {
                float a[TM], b[TN];
                for ( int i = 0; i < TM; i++ ) a[i] = A[(row0+i)*K + k];
                for ( int j = 0; j < TN; j++ ) b[j] = B[k*N + (col0+j)];
                for ( int i = 0; i < TM; i++ ) {
                    for ( int j = 0; j < TN; j++ ) acc[i][j] += a[i]*b[j];
                }
            }
            for ( int i = 0; i < TM; i++ ) {
                for ( int j = 0; j < TN; j++ ) C[(row0+i)*N + (col0+j)] = acc[i][j];
            }
        }
    }
}

// ---- from gemm/sgemm3Tiled.cu, lines 51-76
template<int BM, int BN, int BK>
__global__ void
sgemm_tiled( int M, int N, int K, const float *A, const float *B, float *C )
{
    __shared__ float As[BM][BK];
    __shared__ float Bs[BK][BN];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty*BN + tx, nThreads = BM*BN;

    for ( int brow = blockIdx.y*BM; brow < M; brow += gridDim.y*BM ) {
        for ( int bcol = blockIdx.x*BN; bcol < N; bcol += gridDim.x*BN ) {
            float acc = 0.f;
            for ( int k0 = 0; k0 < K; k0 += BK ) {
                for ( int e = tid; e < BM*BK; e += nThreads )
                    As[e/BK][e%BK] = A[(brow + e/BK)*K + (k0 + e%BK)];
                for ( int e = tid; e < BK*BN; e += nThreads )
                    Bs[e/BN][e%BN] = B[(k0 + e/BN)*N + (bcol + e%BN)];
                __syncthreads();
                #pragma unroll
                for ( int k = 0; k < BK; k++ ) acc += As[ty][k] * Bs[k][tx];
                __syncthreads();
            }
            C[(brow + ty)*N + (bcol + tx)] = acc;
        }
    }
}

// ---- from gemm/sgemm4RegBlock.cu, lines 52-99
template<int BM, int BN, int BK, int TM, int TN>
__global__ void
sgemm_regblock( int M, int N, int K, const float *A, const float *B, float *C )
{
    const int nThreads = (BM/TM)*(BN/TN);
    __shared__ float As[BK][BM];   // transposed: As[k][m]
    __shared__ float Bs[BK][BN];

    const int tid = threadIdx.x;
    const int threadRow = tid / (BN/TN), threadCol = tid % (BN/TN);
    const int rowA = tid / BK, colA = tid % BK, strideA = nThreads / BK;
    const int rowB = tid / BN, colB = tid % BN, strideB = nThreads / BN;

    for ( int bRow = blockIdx.y*BM; bRow < M; bRow += gridDim.y*BM ) {
        for ( int bCol = blockIdx.x*BN; bCol < N; bCol += gridDim.x*BN ) {
            float acc[TM][TN] = {};
            for ( int k0 = 0; k0 < K; k0 += BK ) {
                #pragma unroll
                for ( int off = 0; off < BM; off += strideA )
                    As[colA][rowA+off] = A[(bRow + rowA + off)*K + (k0 + colA)];
                #pragma unroll
                for ( int off = 0; off < BK; off += strideB )
                    Bs[rowB+off][colB] = B[(k0 + rowB + off)*N + (bCol + colB)];
                __syncthreads();
                #pragma unroll
                for ( int k = 0; k < BK; k++ ) {
                    float rA[TM], rB[TN];
                    #pragma unroll
                    for ( int i = 0; i < TM; i++ ) rA[i] = As[k][threadRow*TM + i];
                    #pragma unroll
                    for ( int j = 0; j < TN; j++ ) rB[j] = Bs[k][threadCol*TN + j];
                    #pragma unroll
                    for ( int i = 0; i < TM; i++ ) {
                        #pragma unroll
                        for ( int j = 0; j < TN; j++ ) acc[i][j] += rA[i]*rB[j];
                    }
                }
                __syncthreads();
            }
            #pragma unroll
            for ( int i = 0; i < TM; i++ ) {
                #pragma unroll
                for ( int j = 0; j < TN; j++ )
                    C[(bRow + threadRow*TM + i)*N + (bCol + threadCol*TN + j)] = acc[i][j];
            }
        }
    }
}

template __global__ void sgemm_cache<8, 8>(int, int, int, const float*, const float*, float*);
template __global__ void sgemm_cache<4, 4>(int, int, int, const float*, const float*, float*);
template __global__ void sgemm_tiled<32, 32, 32>(int, int, int, const float*, const float*, float*);
template __global__ void sgemm_tiled<16, 16, 16>(int, int, int, const float*, const float*, float*);
template __global__ void sgemm_regblock<128, 64, 8, 8, 8>(int, int, int, const float*, const float*, float*);
template __global__ void sgemm_regblock<64, 64, 8, 4, 4>(int, int, int, const float*, const float*, float*);
