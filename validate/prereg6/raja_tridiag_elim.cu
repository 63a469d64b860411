// Pre-registered public kernel (not written for memsim): LLNL/RAJAPerf
// files: src/lcals/TRIDIAG_ELIM.hpp, src/lcals/TRIDIAG_ELIM-Cuda.cpp
// commit 9af20b3fceeaf6e4cc5ab48cb002f8927fb4c124 (https://github.com/LLNL/RAJAPerf)
// Licence: BSD-3-Clause (the copied files' own notice, kept below: Lawrence Livermore National Security, LLC and RAJA Performance Suite project contributors; the repository's LICENSE in validate/prereg6/LICENSES.md).
//
// Edits (no kernel body changed):
// - src/lcals/TRIDIAG_ELIM-Cuda.cpp: only lines 1-7 (its licence notice) and 24-34 kept (the Base_CUDA kernel tridiag_elim); the includes (RAJA, the suite's headers), the namespaces rajaperf::lcals and the host code left out, so the kernels are at global scope
// - src/lcals/TRIDIAG_ELIM.hpp: only the lines 30-31 kept (the #defines the kernels use: TRIDIAG_ELIM_BODY)
// - added after the copied code: explicit instantiations of the templates the launches use (the host code instantiated them by launching them)
// - the types (and RAJA's atomicAdd or RAJA_TEAM_SHARED where used) written above the kernels (marked), in place of RAJA and src/common/RPTypes.hpp

// ---- from src/lcals/TRIDIAG_ELIM-Cuda.cpp, lines 1-7
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

// ---- from src/lcals/TRIDIAG_ELIM.hpp, lines 30-31
#define TRIDIAG_ELIM_BODY  \
  xout[i] = z[i] * ( y[i] - xin[i-1] );

// ---- from src/lcals/TRIDIAG_ELIM-Cuda.cpp, lines 24-34
template < size_t block_size >
__launch_bounds__(block_size)
__global__ void tridiag_elim(Real_ptr xout, Real_ptr xin,
                             Real_ptr y, Real_ptr z,
                             Index_type N)
{
   Index_type i = blockIdx.x * block_size + threadIdx.x;
   if (i > 0 && i < N) {
     TRIDIAG_ELIM_BODY;
   }
}

// ---- written for memsim (not from the repository): explicit instantiations of the templates the launches use
template __global__ void tridiag_elim<256>(Real_ptr, Real_ptr, Real_ptr, Real_ptr, Index_type);
