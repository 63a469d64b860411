// Pre-registered public kernel (not written for memsim): vetter/shoc
// files: src/cuda/level1/md/MD.h, src/cuda/level1/md/MD.cu
// commit 0aea03beba2f09fcb5935cc11737372fe4de9ec0 (https://github.com/vetter/shoc)
// Licence: BSD-3-Clause (Copyright (c) 2011, UT-Battelle, LLC; LICENSE.md of the repository).
//
// Edits (no kernel body changed):
// - host/toolkit #includes commented out (`// removed:`): <cuda.h>, <cuda_runtime_api.h>
// - src/cuda/level1/md/MD.cu: only lines 99-159 kept (the kernels and the device code and macros they use); the rest is host code
// - prelude added before the copied code (below): struct texReader_unused { __device__ float4 operator()(int) const { return make_float4(0.f, 0.f, 0.f, 0.f); } };  // stands in for SHOC's texReader_sp (texture references no longer exist in CUDA 12+); never called: the instantiation below has useTexture = false
// - added after the copied code: explicit instantiations of the templates launched
// - MD.h inlined first (its problem constants); MD.cu's texture references and texture readers dropped (CUDA 12 removed texture references): compute_lj_force is launched with useTexture = false

struct texReader_unused { __device__ float4 operator()(int) const { return make_float4(0.f, 0.f, 0.f, 0.f); } };  // stands in for SHOC's texReader_sp (texture references no longer exist in CUDA 12+); never called: the instantiation below has useTexture = false

// ---- from src/cuda/level1/md/MD.h
#ifndef MD_H__
#define MD_H__

// removed: #include <cuda.h>
// removed: #include <cuda_runtime_api.h>

// Problem Constants
static const float  cutsq        = 16.0f; // Square of cutoff distance
static const int    maxNeighbors = 128;  // Max number of nearest neighbors
static const double domainEdge   = 20.0; // Edge length of the cubic domain
static const float  lj1          = 1.5;  // LJ constants
static const float  lj2          = 2.0;
static const float  EPSILON      = 0.1f; // Relative Error between CPU/GPU

#endif // MD_H__
// ---- from src/cuda/level1/md/MD.cu, lines 99-159
template <class T, class forceVecType, class posVecType, bool useTexture,
          typename texReader>
__global__ void compute_lj_force(forceVecType* __restrict__ force3,
                                 const posVecType* __restrict__ position,
                                 const int neighCount,
                                 const int* __restrict__ neighList,
                                 const T cutsq,
                                 const T lj1,
                                 const T lj2,
                                 const int inum)
{
    // Global ID - one thread per atom
    int idx = blockIdx.x*blockDim.x + threadIdx.x;

    // Position of this thread's atom
    posVecType ipos = position[idx];

    // Force accumulator
    forceVecType f = {0.0f, 0.0f, 0.0f};

    texReader positionTexReader;

    int j = 0;
    while (j < neighCount)
    {
        int jidx = neighList[j*inum + idx];
        posVecType jpos;
        if (useTexture)
        {
            // Use texture mem as a cache
            jpos = positionTexReader(jidx);
        }
        else
        {
            jpos = position[jidx];
        }

        // Calculate distance
        T delx = ipos.x - jpos.x;
        T dely = ipos.y - jpos.y;
        T delz = ipos.z - jpos.z;
        T r2inv = delx*delx + dely*dely + delz*delz;

        // If distance is less than cutoff, calculate force
        // and add to accumulator
        if (r2inv < cutsq)
        {
            r2inv = 1.0f/r2inv;
            T r6inv = r2inv * r2inv * r2inv;
            T force = r2inv*r6inv*(lj1*r6inv - lj2);

            f.x += delx * force;
            f.y += dely * force;
            f.z += delz * force;
        }
        j++;
    }

    // store the results
    force3[idx] = f;
}

template __global__ void compute_lj_force<float, float3, float4, false, texReader_unused>(float3 *__restrict__, const float4 *__restrict__, const int, const int *__restrict__, const float, const float, const float, const int);
