// Pre-registered public kernel (not written for memsim): ArchaeaSoftware/cudahandbook
// files: memory/globalRead.cu
// commit c56ebf85f3d226545daa1ffff4218fe8b8636f8e (https://github.com/ArchaeaSoftware/cudahandbook)
// Licence: BSD-2-Clause (in each file's own header, Copyright (c) 2011-2026 Archaea Software, LLC; full text in validate/prereg2/LICENSES.md).
//
// Edits (no kernel body changed):
// - memory/globalRead.cu: only lines 1-37, 44-120 kept (licence header, the kernels and the device code they use); the rest is host code
// - added after the copied code: explicit instantiations of the templates launched (NVRTC compiles no host code to instantiate them)
// - #include <chError.h> and <chCommandLine.h> (host helpers) left out


// ---- from memory/globalRead.cu, lines 1-37
/*
 *
 * globalRead.cu
 *
 * Microbenchmark for read bandwidth from global memory.
 *
 * Build with: nvcc -I ..\chLib <options> globalRead.cu
 * Requires: No minimum SM requirement.
 *
 * Copyright (c) 2011-2026, Archaea Software, LLC.
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

// ---- from memory/globalRead.cu, lines 44-120
template<class T>
__device__ __host__ T
plus( const T& a, const T& b )
{
    T ret = a;
    ret += b;
    return ret;
}

struct myInt2 {
    int2 i2;

    __host__ __device__ myInt2() { }
    __host__ __device__ myInt2( int i ) { i2.x = i2.y = i; }
};

template<>
__device__ __host__ myInt2
plus( const myInt2& a, const myInt2& b )
{
    myInt2 ret;
    ret.i2.x = a.i2.x + b.i2.x;
    ret.i2.y = a.i2.y + b.i2.y;
    return ret;
}

struct myInt4 {
    int4 i4;

    __host__ __device__ myInt4() { }
    __host__ __device__ myInt4( int i ) { i4.x = i4.y = i4.z = i4.w = i; }
};

template<>
__device__ __host__ myInt4
plus( const myInt4& a, const myInt4& b )
{
    myInt4 ret;
    ret.i4.x = a.i4.x + b.i4.x;
    ret.i4.y = a.i4.y + b.i4.y;
    ret.i4.z = a.i4.z + b.i4.z;
    ret.i4.w = a.i4.w + b.i4.w;
    return ret;
}

template<class T, const int n> 
__global__ void
GlobalReads( T *out, const T *in, size_t N, bool bWriteResults )
{
    T sums[n];
    size_t i;
    for ( int j = 0; j < n; j++ ) {
        sums[j] = T(0);
    }
    for ( i = n*blockIdx.x*blockDim.x+threadIdx.x; 
          i < N-n*blockDim.x*gridDim.x; 
          i += n*blockDim.x*gridDim.x ) {
        for ( int j = 0; j < n; j++ ) {
            size_t index = i+j*blockDim.x;
            sums[j] = plus( sums[j], in[index] );
        }
    }
    // to avoid the (index<N) conditional in the inner loop, 
    // we left off some work at the end
    for ( int j = 0; j < n; j++ ) {
        size_t index = i+j*blockDim.x;
        if ( index<N ) sums[j] = plus( sums[j], in[index] );
    }
    
    if ( bWriteResults ) {
        T sum = T(0);
        for ( int j = 0; j < n; j++ ) {
            sum = plus( sum, sums[j] );
        }
        out[blockIdx.x*blockDim.x+threadIdx.x] = sum;
    }
}

template __global__ void GlobalReads<int, 1>(int*, const int*, size_t, bool);
template __global__ void GlobalReads<int, 4>(int*, const int*, size_t, bool);
template __global__ void GlobalReads<myInt4, 2>(myInt4*, const myInt4*, size_t, bool);
