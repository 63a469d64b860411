// Pre-registered public kernel (not written for memsim): ArchaeaSoftware/cudahandbook
// files: histogram/histogramPerBlock.cuh, histogram/histogramPerGrid.cuh, histogram/histogramPerThread64.cuh
// commit c56ebf85f3d226545daa1ffff4218fe8b8636f8e (https://github.com/ArchaeaSoftware/cudahandbook)
// Licence: BSD-2-Clause (in each file's own header, Copyright (c) 2011-2026 Archaea Software, LLC; full text in validate/prereg2/LICENSES.md).
//
// Edits (no kernel body changed):
// - histogram/histogramPerBlock.cuh: only lines 1-39, 41-79 kept (licence header, the kernels and the device code they use); the rest is host code
// - histogram/histogramPerGrid.cuh: only lines 44-58 kept (licence header, the kernels and the device code they use); the rest is host code
// - histogram/histogramPerThread64.cuh: only lines 39-95 kept (licence header, the kernels and the device code they use); the rest is host code
// - added after the copied code: explicit instantiations of the templates launched (NVRTC compiles no host code to instantiate them)
// - the three files carry the same licence header; it is copied once, from histogramPerBlock.cuh


// ---- from histogram/histogramPerBlock.cuh, lines 1-39
/*
 *
 * histogramPerBlock.cuh
 *
 * Implementation of histogram that uses one shared atomic per pixel.
 * This results in very data-dependent performance, as the hardware
 * facilities for mutual exclusion contend when trying to increment
 * the same histogram value concurrently.
 *
 * Requires: SM 1.2, for shared atomics.
 *
 * Copyright (c) 2013-2026, Archaea Software, LLC.
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

// ---- from histogram/histogramPerBlock.cuh, lines 41-79
template<bool bUnroll>
__global__ void
histogram1DPerBlock(
    unsigned int *pHist,
    const unsigned char *base, size_t N )
{
    __shared__ int sHist[256];
    for ( int i = threadIdx.x;
              i < 256;
              i += blockDim.x ) {
        sHist[i] = 0;
    }
    __syncthreads();
    if ( bUnroll ) {
        N /= 4;
    }
    for ( int i = blockIdx.x*blockDim.x+threadIdx.x;
              i < N;
              i += blockDim.x*gridDim.x ) {
        if ( bUnroll ) {
            unsigned int value = ((unsigned int *) base)[i];

            atomicAdd( &sHist[ value & 0xff ], 1 ); value >>= 8;
            atomicAdd( &sHist[ value & 0xff ], 1 ); value >>= 8;
            atomicAdd( &sHist[ value & 0xff ], 1 ); value >>= 8;
            atomicAdd( &sHist[ value ]       , 1 );
        }
        else {
            atomicAdd( &sHist[ base[i] ], 1 );
        }
    }
    __syncthreads();
    for ( int i = threadIdx.x;
              i < 256;
              i += blockDim.x ) {
        atomicAdd( &pHist[i], sHist[ i ] );
    }
      
}

// ---- from histogram/histogramPerGrid.cuh, lines 44-58
__global__ void
histogram1DPerGrid(
    unsigned int *pHist,
    const unsigned char *base, size_t N )
{
    for ( size_t i = blockIdx.x*blockDim.x+threadIdx.x;
                 i < N/4;
                 i += blockDim.x*gridDim.x ) {
        unsigned int value = ((unsigned int *) base)[i];
        atomicAdd( &pHist[ value & 0xff ], 1 ); value >>= 8;
        atomicAdd( &pHist[ value & 0xff ], 1 ); value >>= 8;
        atomicAdd( &pHist[ value & 0xff ], 1 ); value >>= 8;
        atomicAdd( &pHist[ value ]       , 1 );
    }
}

// ---- from histogram/histogramPerThread64.cuh, lines 39-95
inline __device__ void
incPrivatized32Element( unsigned char pixval )
{
    extern __shared__ unsigned int privHist[];
    const int blockDimx = 64;
    unsigned int increment = 1<<8*(pixval&3);
    int index = pixval>>2;
    privHist[index*blockDimx+threadIdx.x] += increment;
}

template<bool bClear>
__device__ void
merge64HistogramsToOutput( unsigned int *pHist )
{
    extern __shared__ unsigned int privHist[];

    unsigned int sum02 = 0;
    unsigned int sum13 = 0;
    for ( int i = 0; i < 64; i++ ) {
        int index = (i+threadIdx.x)&63;
        unsigned int myValue = privHist[threadIdx.x*64+index];
        if ( bClear ) privHist[threadIdx.x*64+index] = 0;
        sum02 += myValue & 0xff00ff;
        myValue >>= 8;
        sum13 += myValue & 0xff00ff;
    }
    
    atomicAdd( &pHist[threadIdx.x*4+0], sum02&0xffff );
    sum02 >>= 16;
    atomicAdd( &pHist[threadIdx.x*4+2], sum02 );

    atomicAdd( &pHist[threadIdx.x*4+1], sum13&0xffff );
    sum13 >>= 16;
    atomicAdd( &pHist[threadIdx.x*4+3], sum13 );
}

__global__ void
histogram1DPerThread64(
    unsigned int *pHist,
    const unsigned char *base, size_t N )
{
    extern __shared__ unsigned int privHist[];
    for ( int i = threadIdx.x;
              i < 64*blockDim.x;
              i += blockDim.x ) {
        privHist[i] = 0;
    }
    __syncthreads();
    for ( int i = blockIdx.x*blockDim.x+threadIdx.x;
              i < N;
              i += blockDim.x*gridDim.x ) {
        incPrivatized32Element( base[i] );
    }
    __syncthreads();

    merge64HistogramsToOutput<false>( pHist );
}

template __global__ void histogram1DPerBlock<false>(unsigned int*, const unsigned char*, size_t);
template __global__ void histogram1DPerBlock<true>(unsigned int*, const unsigned char*, size_t);
