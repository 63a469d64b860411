// Pre-registered public kernel (not written for memsim): ArchaeaSoftware/cudahandbook
// files: nbody/bodybodyInteraction.cuh, nbody/nbody_GPU_AOS.cuh, nbody/nbody_GPU_shared.cu
// commit c56ebf85f3d226545daa1ffff4218fe8b8636f8e (https://github.com/ArchaeaSoftware/cudahandbook)
// Licence: BSD-2-Clause (in each file's own header, Copyright (c) 2011-2026 Archaea Software, LLC; full text in validate/prereg2/LICENSES.md).
//
// Edits (no kernel body changed):
// - nbody/bodybodyInteraction.cuh: only lines 1-35, 40-66 kept (licence header, the kernels and the device code they use); the rest is host code
// - nbody/nbody_GPU_AOS.cuh: only lines 36-69 kept (licence header, the kernels and the device code they use); the rest is host code
// - nbody/nbody_GPU_shared.cu: only lines 40-80 kept (licence header, the kernels and the device code they use); the rest is host code
// - added after the copied code: explicit instantiations of the templates launched (NVRTC compiles no host code to instantiate them)
// - the include guard of bodybodyInteraction.cuh and #include <chError.h> left out
// - the files carry the same licence header; it is copied once, from bodybodyInteraction.cuh


// ---- from nbody/bodybodyInteraction.cuh, lines 1-35
/*
 *
 * bodybodyInteraction.cuh
 *
 * CUDA header for function to compute body-body interaction.
 * Also compatible with scalar (non-SIMD) CPU implementations.
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

// ---- from nbody/bodybodyInteraction.cuh, lines 40-66
template <typename T>
__host__ __device__ void bodyBodyInteraction(
    T *fx, T *fy, T *fz, 
    T x0, T y0, T z0,
    T x1, T y1, T z1, T mass1, 
    T softeningSquared)
{
    T dx = x1 - x0;
    T dy = y1 - y0;
    T dz = z1 - z0;

    T distSqr = dx*dx + dy*dy + dz*dz;
    distSqr += softeningSquared;

    //
    // rsqrtf() maps to SFU instruction - to support
    // double, this has to be changed.
    //
    T invDist = rsqrtf(distSqr);

    T invDistCube =  invDist * invDist * invDist;
    T s = mass1 * invDistCube;

    *fx = dx * s;
    *fy = dy * s;
    *fz = dz * s;
}

// ---- from nbody/nbody_GPU_AOS.cuh, lines 36-69
template<typename T>
__global__ void
ComputeNBodyGravitation_GPU_AOS( 
    T *force, 
    T *posMass, 
    size_t N, 
    T softeningSquared )
{
    for ( int i = blockIdx.x*blockDim.x + threadIdx.x;
              i < N;
              i += blockDim.x*gridDim.x )
    {
        T acc[3] = {0};
        float4 me = ((float4 *) posMass)[i];
        T myX = me.x;
        T myY = me.y;
        T myZ = me.z;
        for ( int j = 0; j < N; j++ ) {
            float4 body = ((float4 *) posMass)[j];
            float fx, fy, fz;
            bodyBodyInteraction( 
                &fx, &fy, &fz, 
                myX, myY, myZ, 
                body.x, body.y, body.z, body.w, 
                softeningSquared);
            acc[0] += fx;
            acc[1] += fy;
            acc[2] += fz;
        }
        force[3*i+0] = acc[0];
        force[3*i+1] = acc[1];
        force[3*i+2] = acc[2];
    }
}

// ---- from nbody/nbody_GPU_shared.cu, lines 40-80
__global__ void
ComputeNBodyGravitation_Shared( 
    float *force, 
    float *posMass, 
    float softeningSquared, 
    size_t N )
{
    extern __shared__ float4 shPosMass[];
    for ( int i = blockIdx.x*blockDim.x + threadIdx.x;
              i < N;
              i += blockDim.x*gridDim.x )
    {
        float acc[3] = {0};
        float4 myPosMass = ((float4 *) posMass)[i];
#pragma unroll 32
        for ( int j = 0; j < N; j += blockDim.x ) {
            shPosMass[threadIdx.x] = ((float4 *) posMass)[j+threadIdx.x];
            __syncthreads();
            for ( size_t k = 0; k < blockDim.x; k++ ) {
                float fx, fy, fz;
                float4 bodyPosMass = shPosMass[k];

                bodyBodyInteraction( 
                    &fx, &fy, &fz, 
                    myPosMass.x, myPosMass.y, myPosMass.z, 
                    bodyPosMass.x, 
                    bodyPosMass.y, 
                    bodyPosMass.z, 
                    bodyPosMass.w, 
                    softeningSquared );
                acc[0] += fx;
                acc[1] += fy;
                acc[2] += fz;
            }
            __syncthreads();
        }
        force[3*i+0] = acc[0];
        force[3*i+1] = acc[1];
        force[3*i+2] = acc[2];
    }
}

template __global__ void ComputeNBodyGravitation_GPU_AOS<float>(float*, float*, size_t, float);
