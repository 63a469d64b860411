// Pre-registered public kernel (not written for memsim): LLNL/RAJAPerf
// files: src/apps/MATVEC_3D_STENCIL.hpp, src/apps/MATVEC_3D_STENCIL-Cuda.cpp
// commit 9af20b3fceeaf6e4cc5ab48cb002f8927fb4c124 (https://github.com/LLNL/RAJAPerf)
// Licence: BSD-3-Clause (the copied files' own notice, kept below: Lawrence Livermore National Security, LLC and RAJA Performance Suite project contributors; the repository's LICENSE in validate/prereg6/LICENSES.md).
//
// Edits (no kernel body changed):
// - src/apps/MATVEC_3D_STENCIL-Cuda.cpp: only lines 1-7 (its licence notice) and 26-92 kept (the Base_CUDA kernel matvec_3d); the includes (RAJA, the suite's headers), the namespaces rajaperf::apps and the host code left out, so the kernels are at global scope
// - src/apps/MATVEC_3D_STENCIL.hpp: only the lines 94-95, 97-109 kept (the #defines the kernels use: MATVEC_3D_STENCIL_BODY, MATVEC_3D_STENCIL_BODY_INDEX)
// - added after the copied code: explicit instantiations of the templates the launches use (the host code instantiated them by launching them)
// - the types (and RAJA's atomicAdd or RAJA_TEAM_SHARED where used) written above the kernels (marked), in place of RAJA and src/common/RPTypes.hpp

// ---- from src/apps/MATVEC_3D_STENCIL-Cuda.cpp, lines 1-7
//~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~//
// Copyright (c) 2017-24, Lawrence Livermore National Security, LLC
// and RAJA Performance Suite project contributors.
// See the RAJAPerf/LICENSE file for details.
//
// SPDX-License-Identifier: (BSD-3-Clause)
//~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~//

// ---- written for memsim (not from the repository): RAJAPerf's types (src/common/RPTypes.hpp; RAJA's
// Index_type is std::ptrdiff_t, 64-bit) and, for the kernels that call it, RAJA's atomicAdd under its
// CUDA policy as CUDA's own atomicAdd (what RAJA::cuda_atomic does for a double on sm_60 and later) and
// RAJA_TEAM_SHARED as __shared__ (RAJA's definition in CUDA device code), each only where a kernel uses it
typedef double Real_type;
typedef Real_type* Real_ptr;
typedef long Index_type;
typedef Index_type* Index_ptr;
typedef int Int_type;
typedef Int_type* Int_ptr;

// ---- from src/apps/MATVEC_3D_STENCIL.hpp, lines 94-95
#define MATVEC_3D_STENCIL_BODY_INDEX \
  Index_type i = real_zones[ii];

// ---- from src/apps/MATVEC_3D_STENCIL.hpp, lines 97-109
#define MATVEC_3D_STENCIL_BODY \
  b[i] = dbl[i] * xdbl[i] + dbc[i] * xdbc[i] + dbr[i] * xdbr[i] + \
         dcl[i] * xdcl[i] + dcc[i] * xdcc[i] + dcr[i] * xdcr[i] + \
         dfl[i] * xdfl[i] + dfc[i] * xdfc[i] + dfr[i] * xdfr[i] + \
                                                                  \
         cbl[i] * xcbl[i] + cbc[i] * xcbc[i] + cbr[i] * xcbr[i] + \
         ccl[i] * xccl[i] + ccc[i] * xccc[i] + ccr[i] * xccr[i] + \
         cfl[i] * xcfl[i] + cfc[i] * xcfc[i] + cfr[i] * xcfr[i] + \
                                                                  \
         ubl[i] * xubl[i] + ubc[i] * xubc[i] + ubr[i] * xubr[i] + \
         ucl[i] * xucl[i] + ucc[i] * xucc[i] + ucr[i] * xucr[i] + \
         ufl[i] * xufl[i] + ufc[i] * xufc[i] + ufr[i] * xufr[i] ; \


// ---- from src/apps/MATVEC_3D_STENCIL-Cuda.cpp, lines 26-92
template < size_t block_size >
__launch_bounds__(block_size)
__global__ void matvec_3d(Real_ptr b,
                          Real_ptr xdbl,
                          Real_ptr xdbc,
                          Real_ptr xdbr,
                          Real_ptr xdcl,
                          Real_ptr xdcc,
                          Real_ptr xdcr,
                          Real_ptr xdfl,
                          Real_ptr xdfc,
                          Real_ptr xdfr,
                          Real_ptr xcbl,
                          Real_ptr xcbc,
                          Real_ptr xcbr,
                          Real_ptr xccl,
                          Real_ptr xccc,
                          Real_ptr xccr,
                          Real_ptr xcfl,
                          Real_ptr xcfc,
                          Real_ptr xcfr,
                          Real_ptr xubl,
                          Real_ptr xubc,
                          Real_ptr xubr,
                          Real_ptr xucl,
                          Real_ptr xucc,
                          Real_ptr xucr,
                          Real_ptr xufl,
                          Real_ptr xufc,
                          Real_ptr xufr,
                          Real_ptr dbl,
                          Real_ptr dbc,
                          Real_ptr dbr,
                          Real_ptr dcl,
                          Real_ptr dcc,
                          Real_ptr dcr,
                          Real_ptr dfl,
                          Real_ptr dfc,
                          Real_ptr dfr,
                          Real_ptr cbl,
                          Real_ptr cbc,
                          Real_ptr cbr,
                          Real_ptr ccl,
                          Real_ptr ccc,
                          Real_ptr ccr,
                          Real_ptr cfl,
                          Real_ptr cfc,
                          Real_ptr cfr,
                          Real_ptr ubl,
                          Real_ptr ubc,
                          Real_ptr ubr,
                          Real_ptr ucl,
                          Real_ptr ucc,
                          Real_ptr ucr,
                          Real_ptr ufl,
                          Real_ptr ufc,
                          Real_ptr ufr,
                          Index_ptr real_zones,
                          Index_type ibegin, Index_type iend)
{
   Index_type ii = blockIdx.x * blockDim.x + threadIdx.x;
   Index_type i = ii + ibegin;
   if (i < iend) {
     MATVEC_3D_STENCIL_BODY_INDEX;
     MATVEC_3D_STENCIL_BODY;
   }
}

// ---- written for memsim (not from the repository): explicit instantiations of the templates the launches use
template __global__ void matvec_3d<1024>(Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Index_ptr, Index_type, Index_type);
