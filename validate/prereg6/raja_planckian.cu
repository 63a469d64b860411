// Pre-registered public kernel (not written for memsim): LLNL/RAJAPerf
// files: src/lcals/PLANCKIAN.hpp, src/lcals/PLANCKIAN-Cuda.cpp
// commit 9af20b3fceeaf6e4cc5ab48cb002f8927fb4c124 (https://github.com/LLNL/RAJAPerf)
// Licence: BSD-3-Clause (the copied files' own notice, kept below: Lawrence Livermore National Security, LLC and RAJA Performance Suite project contributors; the repository's LICENSE in validate/prereg6/LICENSES.md).
//
// Edits (no kernel body changed):
// - src/lcals/PLANCKIAN-Cuda.cpp: only lines 1-7 (its licence notice) and 25-35 kept (the Base_CUDA kernel planckian); the includes (RAJA, the suite's headers), the namespaces rajaperf::lcals and the host code left out, so the kernels are at global scope
// - src/lcals/PLANCKIAN.hpp: only the lines 29-31 kept (the #defines the kernels use: PLANCKIAN_BODY)
// - added after the copied code: explicit instantiations of the templates the launches use (the host code instantiated them by launching them)
// - the types (and RAJA's atomicAdd or RAJA_TEAM_SHARED where used) written above the kernels (marked), in place of RAJA and src/common/RPTypes.hpp

// ---- from src/lcals/PLANCKIAN-Cuda.cpp, lines 1-7
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

// ---- from src/lcals/PLANCKIAN.hpp, lines 29-31
#define PLANCKIAN_BODY  \
  y[i] = u[i] / v[i]; \
  w[i] = x[i] / ( exp( y[i] ) - 1.0 );

// ---- from src/lcals/PLANCKIAN-Cuda.cpp, lines 25-35
template < size_t block_size >
__launch_bounds__(block_size)
__global__ void planckian(Real_ptr x, Real_ptr y,
                          Real_ptr u, Real_ptr v, Real_ptr w,
                          Index_type iend)
{
   Index_type i = blockIdx.x * block_size + threadIdx.x;
   if (i < iend) {
     PLANCKIAN_BODY;
   }
}

// ---- written for memsim (not from the repository): explicit instantiations of the templates the launches use
template __global__ void planckian<256>(Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Index_type);
