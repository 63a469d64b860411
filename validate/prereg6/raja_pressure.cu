// Pre-registered public kernel (not written for memsim): LLNL/RAJAPerf
// files: src/apps/PRESSURE.hpp, src/apps/PRESSURE-Cuda.cpp
// commit 9af20b3fceeaf6e4cc5ab48cb002f8927fb4c124 (https://github.com/LLNL/RAJAPerf)
// Licence: BSD-3-Clause (the copied files' own notice, kept below: Lawrence Livermore National Security, LLC and RAJA Performance Suite project contributors; the repository's LICENSE in validate/prereg6/LICENSES.md).
//
// Edits (no kernel body changed):
// - src/apps/PRESSURE-Cuda.cpp: only lines 1-7 (its licence notice) and 24-34, 36-48 kept (the Base_CUDA kernels pressurecalc1, pressurecalc2); the includes (RAJA, the suite's headers), the namespaces rajaperf::apps and the host code left out, so the kernels are at global scope
// - src/apps/PRESSURE.hpp: only the lines 39-40, 42-46 kept (the #defines the kernels use: PRESSURE_BODY1, PRESSURE_BODY2)
// - added after the copied code: explicit instantiations of the templates the launches use (the host code instantiated them by launching them)
// - the types (and RAJA's atomicAdd or RAJA_TEAM_SHARED where used) written above the kernels (marked), in place of RAJA and src/common/RPTypes.hpp

// ---- from src/apps/PRESSURE-Cuda.cpp, lines 1-7
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

// ---- from src/apps/PRESSURE.hpp, lines 39-40
#define PRESSURE_BODY1 \
  bvc[i] = cls * (compression[i] + 1.0);

// ---- from src/apps/PRESSURE.hpp, lines 42-46
#define PRESSURE_BODY2 \
  p_new[i] = bvc[i] * e_old[i] ; \
  if ( fabs(p_new[i]) <  p_cut ) p_new[i] = 0.0 ; \
  if ( vnewc[i] >= eosvmax ) p_new[i] = 0.0 ; \
  if ( p_new[i]  <  pmin ) p_new[i]   = pmin ;

// ---- from src/apps/PRESSURE-Cuda.cpp, lines 24-34
template < size_t block_size >
__launch_bounds__(block_size)
__global__ void pressurecalc1(Real_ptr bvc, Real_ptr compression,
                              const Real_type cls,
                              Index_type iend)
{
   Index_type i = blockIdx.x * block_size + threadIdx.x;
   if (i < iend) {
     PRESSURE_BODY1;
   }
}

// ---- from src/apps/PRESSURE-Cuda.cpp, lines 36-48
template < size_t block_size >
__launch_bounds__(block_size)
__global__ void pressurecalc2(Real_ptr p_new, Real_ptr bvc, Real_ptr e_old,
                              Real_ptr vnewc,
                              const Real_type p_cut, const Real_type eosvmax,
                              const Real_type pmin,
                              Index_type iend)
{
   Index_type i = blockIdx.x * block_size + threadIdx.x;
   if (i < iend) {
     PRESSURE_BODY2;
   }
}

// ---- written for memsim (not from the repository): explicit instantiations of the templates the launches use
template __global__ void pressurecalc1<256>(Real_ptr, Real_ptr, const Real_type, Index_type);
template __global__ void pressurecalc2<256>(Real_ptr, Real_ptr, Real_ptr, Real_ptr, const Real_type, const Real_type, const Real_type, Index_type);
