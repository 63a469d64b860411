// Pre-registered public kernel (not written for memsim): ParRes/Kernels
// files: Cxx11/stencil-cuda.cu, Cxx11/stencil_cuda.hpp
// commit 04248b66a03d7f5edba8d54c9ae7834dd718027a (https://github.com/ParRes/Kernels)
// Licence: BSD-3-Clause (the copied file's own notice, kept below: Copyright Intel Corporation, and NVIDIA where it says so; the repository's COPYING in validate/prereg5/LICENSES.md).
//
// Edits (no kernel body changed):
// - Cxx11/stencil_cuda.hpp: whole (the generated star and grid stencils of radius 1-5)
// - Cxx11/stencil-cuda.cu: only lines 1-31 (its licence notice, which covers the generated header too) and 76-84 kept (the `add` kernel the host runs after each stencil); the includes and the host code left out
// - added `typedef double prk_float;`, the line of Cxx11/prk_cuda.h (line 36) that types the kernels

// ---- added (see Edits)
typedef double prk_float;

// ---- from Cxx11/stencil-cuda.cu, lines 1-31

///
/// Copyright (c) 2013, Intel Corporation
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

// ---- from Cxx11/stencil_cuda.hpp, lines 1-385
__global__ void star1(const int n, const prk_float * in, prk_float * out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if ( (1 <= i) && (i < n-1) && (1 <= j) && (j < n-1) ) {
            out[i*n+j] += +in[(i)*n+(j-1)] * -0.5
                          +in[(i-1)*n+(j)] * -0.5
                          +in[(i+1)*n+(j)] * 0.5
                          +in[(i)*n+(j+1)] * 0.5;
     }
}

__global__ void star2(const int n, const prk_float * in, prk_float * out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if ( (2 <= i) && (i < n-2) && (2 <= j) && (j < n-2) ) {
            out[i*n+j] += +in[(i)*n+(j-2)] * -0.125
                          +in[(i)*n+(j-1)] * -0.25
                          +in[(i-2)*n+(j)] * -0.125
                          +in[(i-1)*n+(j)] * -0.25
                          +in[(i+1)*n+(j)] * 0.25
                          +in[(i+2)*n+(j)] * 0.125
                          +in[(i)*n+(j+1)] * 0.25
                          +in[(i)*n+(j+2)] * 0.125;
     }
}

__global__ void star3(const int n, const prk_float * in, prk_float * out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if ( (3 <= i) && (i < n-3) && (3 <= j) && (j < n-3) ) {
            out[i*n+j] += +in[(i)*n+(j-3)] * -0.05555555555555555
                          +in[(i)*n+(j-2)] * -0.08333333333333333
                          +in[(i)*n+(j-1)] * -0.16666666666666666
                          +in[(i-3)*n+(j)] * -0.05555555555555555
                          +in[(i-2)*n+(j)] * -0.08333333333333333
                          +in[(i-1)*n+(j)] * -0.16666666666666666
                          +in[(i+1)*n+(j)] * 0.16666666666666666
                          +in[(i+2)*n+(j)] * 0.08333333333333333
                          +in[(i+3)*n+(j)] * 0.05555555555555555
                          +in[(i)*n+(j+1)] * 0.16666666666666666
                          +in[(i)*n+(j+2)] * 0.08333333333333333
                          +in[(i)*n+(j+3)] * 0.05555555555555555;
     }
}

__global__ void star4(const int n, const prk_float * in, prk_float * out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if ( (4 <= i) && (i < n-4) && (4 <= j) && (j < n-4) ) {
            out[i*n+j] += +in[(i)*n+(j-4)] * -0.03125
                          +in[(i)*n+(j-3)] * -0.041666666666666664
                          +in[(i)*n+(j-2)] * -0.0625
                          +in[(i)*n+(j-1)] * -0.125
                          +in[(i-4)*n+(j)] * -0.03125
                          +in[(i-3)*n+(j)] * -0.041666666666666664
                          +in[(i-2)*n+(j)] * -0.0625
                          +in[(i-1)*n+(j)] * -0.125
                          +in[(i+1)*n+(j)] * 0.125
                          +in[(i+2)*n+(j)] * 0.0625
                          +in[(i+3)*n+(j)] * 0.041666666666666664
                          +in[(i+4)*n+(j)] * 0.03125
                          +in[(i)*n+(j+1)] * 0.125
                          +in[(i)*n+(j+2)] * 0.0625
                          +in[(i)*n+(j+3)] * 0.041666666666666664
                          +in[(i)*n+(j+4)] * 0.03125;
     }
}

__global__ void star5(const int n, const prk_float * in, prk_float * out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if ( (5 <= i) && (i < n-5) && (5 <= j) && (j < n-5) ) {
            out[i*n+j] += +in[(i)*n+(j-5)] * -0.02
                          +in[(i)*n+(j-4)] * -0.025
                          +in[(i)*n+(j-3)] * -0.03333333333333333
                          +in[(i)*n+(j-2)] * -0.05
                          +in[(i)*n+(j-1)] * -0.1
                          +in[(i-5)*n+(j)] * -0.02
                          +in[(i-4)*n+(j)] * -0.025
                          +in[(i-3)*n+(j)] * -0.03333333333333333
                          +in[(i-2)*n+(j)] * -0.05
                          +in[(i-1)*n+(j)] * -0.1
                          +in[(i+1)*n+(j)] * 0.1
                          +in[(i+2)*n+(j)] * 0.05
                          +in[(i+3)*n+(j)] * 0.03333333333333333
                          +in[(i+4)*n+(j)] * 0.025
                          +in[(i+5)*n+(j)] * 0.02
                          +in[(i)*n+(j+1)] * 0.1
                          +in[(i)*n+(j+2)] * 0.05
                          +in[(i)*n+(j+3)] * 0.03333333333333333
                          +in[(i)*n+(j+4)] * 0.025
                          +in[(i)*n+(j+5)] * 0.02;
     }
}

__global__ void grid1(const int n, const prk_float * in, prk_float * out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if ( (1 <= i) && (i < n-1) && (1 <= j) && (j < n-1) ) {
            out[i*n+j] += +in[(i-1)*n+(j-1)] * -0.25
                          +in[(i)*n+(j-1)] * -0.25
                          +in[(i-1)*n+(j)] * -0.25
                          +in[(i+1)*n+(j)] * 0.25
                          +in[(i)*n+(j+1)] * 0.25
                          +in[(i+1)*n+(j+1)] * 0.25
                          ;
     }
}

__global__ void grid2(const int n, const prk_float * in, prk_float * out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if ( (2 <= i) && (i < n-2) && (2 <= j) && (j < n-2) ) {
            out[i*n+j] += +in[(i-2)*n+(j-2)] * -0.0625
                          +in[(i-1)*n+(j-2)] * -0.020833333333333332
                          +in[(i)*n+(j-2)] * -0.020833333333333332
                          +in[(i+1)*n+(j-2)] * -0.020833333333333332
                          +in[(i-2)*n+(j-1)] * -0.020833333333333332
                          +in[(i-1)*n+(j-1)] * -0.125
                          +in[(i)*n+(j-1)] * -0.125
                          +in[(i+2)*n+(j-1)] * 0.020833333333333332
                          +in[(i-2)*n+(j)] * -0.020833333333333332
                          +in[(i-1)*n+(j)] * -0.125
                          +in[(i+1)*n+(j)] * 0.125
                          +in[(i+2)*n+(j)] * 0.020833333333333332
                          +in[(i-2)*n+(j+1)] * -0.020833333333333332
                          +in[(i)*n+(j+1)] * 0.125
                          +in[(i+1)*n+(j+1)] * 0.125
                          +in[(i+2)*n+(j+1)] * 0.020833333333333332
                          +in[(i-1)*n+(j+2)] * 0.020833333333333332
                          +in[(i)*n+(j+2)] * 0.020833333333333332
                          +in[(i+1)*n+(j+2)] * 0.020833333333333332
                          +in[(i+2)*n+(j+2)] * 0.0625
                          ;
     }
}

__global__ void grid3(const int n, const prk_float * in, prk_float * out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if ( (3 <= i) && (i < n-3) && (3 <= j) && (j < n-3) ) {
            out[i*n+j] += +in[(i-3)*n+(j-3)] * -0.027777777777777776
                          +in[(i-2)*n+(j-3)] * -0.005555555555555556
                          +in[(i-1)*n+(j-3)] * -0.005555555555555556
                          +in[(i)*n+(j-3)] * -0.005555555555555556
                          +in[(i+1)*n+(j-3)] * -0.005555555555555556
                          +in[(i+2)*n+(j-3)] * -0.005555555555555556
                          +in[(i-3)*n+(j-2)] * -0.005555555555555556
                          +in[(i-2)*n+(j-2)] * -0.041666666666666664
                          +in[(i-1)*n+(j-2)] * -0.013888888888888888
                          +in[(i)*n+(j-2)] * -0.013888888888888888
                          +in[(i+1)*n+(j-2)] * -0.013888888888888888
                          +in[(i+3)*n+(j-2)] * 0.005555555555555556
                          +in[(i-3)*n+(j-1)] * -0.005555555555555556
                          +in[(i-2)*n+(j-1)] * -0.013888888888888888
                          +in[(i-1)*n+(j-1)] * -0.08333333333333333
                          +in[(i)*n+(j-1)] * -0.08333333333333333
                          +in[(i+2)*n+(j-1)] * 0.013888888888888888
                          +in[(i+3)*n+(j-1)] * 0.005555555555555556
                          +in[(i-3)*n+(j)] * -0.005555555555555556
                          +in[(i-2)*n+(j)] * -0.013888888888888888
                          +in[(i-1)*n+(j)] * -0.08333333333333333
                          +in[(i+1)*n+(j)] * 0.08333333333333333
                          +in[(i+2)*n+(j)] * 0.013888888888888888
                          +in[(i+3)*n+(j)] * 0.005555555555555556
                          +in[(i-3)*n+(j+1)] * -0.005555555555555556
                          +in[(i-2)*n+(j+1)] * -0.013888888888888888
                          +in[(i)*n+(j+1)] * 0.08333333333333333
                          +in[(i+1)*n+(j+1)] * 0.08333333333333333
                          +in[(i+2)*n+(j+1)] * 0.013888888888888888
                          +in[(i+3)*n+(j+1)] * 0.005555555555555556
                          +in[(i-3)*n+(j+2)] * -0.005555555555555556
                          +in[(i-1)*n+(j+2)] * 0.013888888888888888
                          +in[(i)*n+(j+2)] * 0.013888888888888888
                          +in[(i+1)*n+(j+2)] * 0.013888888888888888
                          +in[(i+2)*n+(j+2)] * 0.041666666666666664
                          +in[(i+3)*n+(j+2)] * 0.005555555555555556
                          +in[(i-2)*n+(j+3)] * 0.005555555555555556
                          +in[(i-1)*n+(j+3)] * 0.005555555555555556
                          +in[(i)*n+(j+3)] * 0.005555555555555556
                          +in[(i+1)*n+(j+3)] * 0.005555555555555556
                          +in[(i+2)*n+(j+3)] * 0.005555555555555556
                          +in[(i+3)*n+(j+3)] * 0.027777777777777776
                          ;
     }
}

__global__ void grid4(const int n, const prk_float * in, prk_float * out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if ( (4 <= i) && (i < n-4) && (4 <= j) && (j < n-4) ) {
            out[i*n+j] += +in[(i-4)*n+(j-4)] * -0.015625
                          +in[(i-3)*n+(j-4)] * -0.002232142857142857
                          +in[(i-2)*n+(j-4)] * -0.002232142857142857
                          +in[(i-1)*n+(j-4)] * -0.002232142857142857
                          +in[(i)*n+(j-4)] * -0.002232142857142857
                          +in[(i+1)*n+(j-4)] * -0.002232142857142857
                          +in[(i+2)*n+(j-4)] * -0.002232142857142857
                          +in[(i+3)*n+(j-4)] * -0.002232142857142857
                          +in[(i-4)*n+(j-3)] * -0.002232142857142857
                          +in[(i-3)*n+(j-3)] * -0.020833333333333332
                          +in[(i-2)*n+(j-3)] * -0.004166666666666667
                          +in[(i-1)*n+(j-3)] * -0.004166666666666667
                          +in[(i)*n+(j-3)] * -0.004166666666666667
                          +in[(i+1)*n+(j-3)] * -0.004166666666666667
                          +in[(i+2)*n+(j-3)] * -0.004166666666666667
                          +in[(i+4)*n+(j-3)] * 0.002232142857142857
                          +in[(i-4)*n+(j-2)] * -0.002232142857142857
                          +in[(i-3)*n+(j-2)] * -0.004166666666666667
                          +in[(i-2)*n+(j-2)] * -0.03125
                          +in[(i-1)*n+(j-2)] * -0.010416666666666666
                          +in[(i)*n+(j-2)] * -0.010416666666666666
                          +in[(i+1)*n+(j-2)] * -0.010416666666666666
                          +in[(i+3)*n+(j-2)] * 0.004166666666666667
                          +in[(i+4)*n+(j-2)] * 0.002232142857142857
                          +in[(i-4)*n+(j-1)] * -0.002232142857142857
                          +in[(i-3)*n+(j-1)] * -0.004166666666666667
                          +in[(i-2)*n+(j-1)] * -0.010416666666666666
                          +in[(i-1)*n+(j-1)] * -0.0625
                          +in[(i)*n+(j-1)] * -0.0625
                          +in[(i+2)*n+(j-1)] * 0.010416666666666666
                          +in[(i+3)*n+(j-1)] * 0.004166666666666667
                          +in[(i+4)*n+(j-1)] * 0.002232142857142857
                          +in[(i-4)*n+(j)] * -0.002232142857142857
                          +in[(i-3)*n+(j)] * -0.004166666666666667
                          +in[(i-2)*n+(j)] * -0.010416666666666666
                          +in[(i-1)*n+(j)] * -0.0625
                          +in[(i+1)*n+(j)] * 0.0625
                          +in[(i+2)*n+(j)] * 0.010416666666666666
                          +in[(i+3)*n+(j)] * 0.004166666666666667
                          +in[(i+4)*n+(j)] * 0.002232142857142857
                          +in[(i-4)*n+(j+1)] * -0.002232142857142857
                          +in[(i-3)*n+(j+1)] * -0.004166666666666667
                          +in[(i-2)*n+(j+1)] * -0.010416666666666666
                          +in[(i)*n+(j+1)] * 0.0625
                          +in[(i+1)*n+(j+1)] * 0.0625
                          +in[(i+2)*n+(j+1)] * 0.010416666666666666
                          +in[(i+3)*n+(j+1)] * 0.004166666666666667
                          +in[(i+4)*n+(j+1)] * 0.002232142857142857
                          +in[(i-4)*n+(j+2)] * -0.002232142857142857
                          +in[(i-3)*n+(j+2)] * -0.004166666666666667
                          +in[(i-1)*n+(j+2)] * 0.010416666666666666
                          +in[(i)*n+(j+2)] * 0.010416666666666666
                          +in[(i+1)*n+(j+2)] * 0.010416666666666666
                          +in[(i+2)*n+(j+2)] * 0.03125
                          +in[(i+3)*n+(j+2)] * 0.004166666666666667
                          +in[(i+4)*n+(j+2)] * 0.002232142857142857
                          +in[(i-4)*n+(j+3)] * -0.002232142857142857
                          +in[(i-2)*n+(j+3)] * 0.004166666666666667
                          +in[(i-1)*n+(j+3)] * 0.004166666666666667
                          +in[(i)*n+(j+3)] * 0.004166666666666667
                          +in[(i+1)*n+(j+3)] * 0.004166666666666667
                          +in[(i+2)*n+(j+3)] * 0.004166666666666667
                          +in[(i+3)*n+(j+3)] * 0.020833333333333332
                          +in[(i+4)*n+(j+3)] * 0.002232142857142857
                          +in[(i-3)*n+(j+4)] * 0.002232142857142857
                          +in[(i-2)*n+(j+4)] * 0.002232142857142857
                          +in[(i-1)*n+(j+4)] * 0.002232142857142857
                          +in[(i)*n+(j+4)] * 0.002232142857142857
                          +in[(i+1)*n+(j+4)] * 0.002232142857142857
                          +in[(i+2)*n+(j+4)] * 0.002232142857142857
                          +in[(i+3)*n+(j+4)] * 0.002232142857142857
                          +in[(i+4)*n+(j+4)] * 0.015625
                          ;
     }
}

__global__ void grid5(const int n, const prk_float * in, prk_float * out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if ( (5 <= i) && (i < n-5) && (5 <= j) && (j < n-5) ) {
            out[i*n+j] += +in[(i-5)*n+(j-5)] * -0.01
                          +in[(i-4)*n+(j-5)] * -0.0011111111111111111
                          +in[(i-3)*n+(j-5)] * -0.0011111111111111111
                          +in[(i-2)*n+(j-5)] * -0.0011111111111111111
                          +in[(i-1)*n+(j-5)] * -0.0011111111111111111
                          +in[(i)*n+(j-5)] * -0.0011111111111111111
                          +in[(i+1)*n+(j-5)] * -0.0011111111111111111
                          +in[(i+2)*n+(j-5)] * -0.0011111111111111111
                          +in[(i+3)*n+(j-5)] * -0.0011111111111111111
                          +in[(i+4)*n+(j-5)] * -0.0011111111111111111
                          +in[(i-5)*n+(j-4)] * -0.0011111111111111111
                          +in[(i-4)*n+(j-4)] * -0.0125
                          +in[(i-3)*n+(j-4)] * -0.0017857142857142857
                          +in[(i-2)*n+(j-4)] * -0.0017857142857142857
                          +in[(i-1)*n+(j-4)] * -0.0017857142857142857
                          +in[(i)*n+(j-4)] * -0.0017857142857142857
                          +in[(i+1)*n+(j-4)] * -0.0017857142857142857
                          +in[(i+2)*n+(j-4)] * -0.0017857142857142857
                          +in[(i+3)*n+(j-4)] * -0.0017857142857142857
                          +in[(i+5)*n+(j-4)] * 0.0011111111111111111
                          +in[(i-5)*n+(j-3)] * -0.0011111111111111111
                          +in[(i-4)*n+(j-3)] * -0.0017857142857142857
                          +in[(i-3)*n+(j-3)] * -0.016666666666666666
                          +in[(i-2)*n+(j-3)] * -0.0033333333333333335
                          +in[(i-1)*n+(j-3)] * -0.0033333333333333335
                          +in[(i)*n+(j-3)] * -0.0033333333333333335
                          +in[(i+1)*n+(j-3)] * -0.0033333333333333335
                          +in[(i+2)*n+(j-3)] * -0.0033333333333333335
                          +in[(i+4)*n+(j-3)] * 0.0017857142857142857
                          +in[(i+5)*n+(j-3)] * 0.0011111111111111111
                          +in[(i-5)*n+(j-2)] * -0.0011111111111111111
                          +in[(i-4)*n+(j-2)] * -0.0017857142857142857
                          +in[(i-3)*n+(j-2)] * -0.0033333333333333335
                          +in[(i-2)*n+(j-2)] * -0.025
                          +in[(i-1)*n+(j-2)] * -0.008333333333333333
                          +in[(i)*n+(j-2)] * -0.008333333333333333
                          +in[(i+1)*n+(j-2)] * -0.008333333333333333
                          +in[(i+3)*n+(j-2)] * 0.0033333333333333335
                          +in[(i+4)*n+(j-2)] * 0.0017857142857142857
                          +in[(i+5)*n+(j-2)] * 0.0011111111111111111
                          +in[(i-5)*n+(j-1)] * -0.0011111111111111111
                          +in[(i-4)*n+(j-1)] * -0.0017857142857142857
                          +in[(i-3)*n+(j-1)] * -0.0033333333333333335
                          +in[(i-2)*n+(j-1)] * -0.008333333333333333
                          +in[(i-1)*n+(j-1)] * -0.05
                          +in[(i)*n+(j-1)] * -0.05
                          +in[(i+2)*n+(j-1)] * 0.008333333333333333
                          +in[(i+3)*n+(j-1)] * 0.0033333333333333335
                          +in[(i+4)*n+(j-1)] * 0.0017857142857142857
                          +in[(i+5)*n+(j-1)] * 0.0011111111111111111
                          +in[(i-5)*n+(j)] * -0.0011111111111111111
                          +in[(i-4)*n+(j)] * -0.0017857142857142857
                          +in[(i-3)*n+(j)] * -0.0033333333333333335
                          +in[(i-2)*n+(j)] * -0.008333333333333333
                          +in[(i-1)*n+(j)] * -0.05
                          +in[(i+1)*n+(j)] * 0.05
                          +in[(i+2)*n+(j)] * 0.008333333333333333
                          +in[(i+3)*n+(j)] * 0.0033333333333333335
                          +in[(i+4)*n+(j)] * 0.0017857142857142857
                          +in[(i+5)*n+(j)] * 0.0011111111111111111
                          +in[(i-5)*n+(j+1)] * -0.0011111111111111111
                          +in[(i-4)*n+(j+1)] * -0.0017857142857142857
                          +in[(i-3)*n+(j+1)] * -0.0033333333333333335
                          +in[(i-2)*n+(j+1)] * -0.008333333333333333
                          +in[(i)*n+(j+1)] * 0.05
                          +in[(i+1)*n+(j+1)] * 0.05
                          +in[(i+2)*n+(j+1)] * 0.008333333333333333
                          +in[(i+3)*n+(j+1)] * 0.0033333333333333335
                          +in[(i+4)*n+(j+1)] * 0.0017857142857142857
                          +in[(i+5)*n+(j+1)] * 0.0011111111111111111
                          +in[(i-5)*n+(j+2)] * -0.0011111111111111111
                          +in[(i-4)*n+(j+2)] * -0.0017857142857142857
                          +in[(i-3)*n+(j+2)] * -0.0033333333333333335
                          +in[(i-1)*n+(j+2)] * 0.008333333333333333
                          +in[(i)*n+(j+2)] * 0.008333333333333333
                          +in[(i+1)*n+(j+2)] * 0.008333333333333333
                          +in[(i+2)*n+(j+2)] * 0.025
                          +in[(i+3)*n+(j+2)] * 0.0033333333333333335
                          +in[(i+4)*n+(j+2)] * 0.0017857142857142857
                          +in[(i+5)*n+(j+2)] * 0.0011111111111111111
                          +in[(i-5)*n+(j+3)] * -0.0011111111111111111
                          +in[(i-4)*n+(j+3)] * -0.0017857142857142857
                          +in[(i-2)*n+(j+3)] * 0.0033333333333333335
                          +in[(i-1)*n+(j+3)] * 0.0033333333333333335
                          +in[(i)*n+(j+3)] * 0.0033333333333333335
                          +in[(i+1)*n+(j+3)] * 0.0033333333333333335
                          +in[(i+2)*n+(j+3)] * 0.0033333333333333335
                          +in[(i+3)*n+(j+3)] * 0.016666666666666666
                          +in[(i+4)*n+(j+3)] * 0.0017857142857142857
                          +in[(i+5)*n+(j+3)] * 0.0011111111111111111
                          +in[(i-5)*n+(j+4)] * -0.0011111111111111111
                          +in[(i-3)*n+(j+4)] * 0.0017857142857142857
                          +in[(i-2)*n+(j+4)] * 0.0017857142857142857
                          +in[(i-1)*n+(j+4)] * 0.0017857142857142857
                          +in[(i)*n+(j+4)] * 0.0017857142857142857
                          +in[(i+1)*n+(j+4)] * 0.0017857142857142857
                          +in[(i+2)*n+(j+4)] * 0.0017857142857142857
                          +in[(i+3)*n+(j+4)] * 0.0017857142857142857
                          +in[(i+4)*n+(j+4)] * 0.0125
                          +in[(i+5)*n+(j+4)] * 0.0011111111111111111
                          +in[(i-4)*n+(j+5)] * 0.0011111111111111111
                          +in[(i-3)*n+(j+5)] * 0.0011111111111111111
                          +in[(i-2)*n+(j+5)] * 0.0011111111111111111
                          +in[(i-1)*n+(j+5)] * 0.0011111111111111111
                          +in[(i)*n+(j+5)] * 0.0011111111111111111
                          +in[(i+1)*n+(j+5)] * 0.0011111111111111111
                          +in[(i+2)*n+(j+5)] * 0.0011111111111111111
                          +in[(i+3)*n+(j+5)] * 0.0011111111111111111
                          +in[(i+4)*n+(j+5)] * 0.0011111111111111111
                          +in[(i+5)*n+(j+5)] * 0.01
                          ;
     }
}


// ---- from Cxx11/stencil-cuda.cu, lines 76-84
__global__ void add(const int n, prk_float * in)
{
    auto i = blockIdx.x * blockDim.x + threadIdx.x;
    auto j = blockIdx.y * blockDim.y + threadIdx.y;

    if ((i<n) && (j<n)) {
        in[i*n+j] += (prk_float)1;
    }
}
