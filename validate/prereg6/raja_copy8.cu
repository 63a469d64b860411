// Pre-registered public kernel (not written for memsim): LLNL/RAJAPerf
// files: src/basic/COPY8.hpp, src/basic/COPY8-Cuda.cpp
// commit 9af20b3fceeaf6e4cc5ab48cb002f8927fb4c124 (https://github.com/LLNL/RAJAPerf)
// Licence: BSD-3-Clause (the copied files' own notice, kept below: Lawrence Livermore National Security, LLC and RAJA Performance Suite project contributors; the repository's LICENSE in validate/prereg6/LICENSES.md).
//
// Edits (no kernel body changed):
// - src/basic/COPY8-Cuda.cpp: only lines 1-7 (its licence notice) and 24-36 kept (the Base_CUDA kernel copy8); the includes (RAJA, the suite's headers), the namespaces rajaperf::basic and the host code left out, so the kernels are at global scope
// - src/basic/COPY8.hpp: only the lines 45-53 kept (the #defines the kernels use: COPY8_BODY)
// - added after the copied code: explicit instantiations of the templates the launches use (the host code instantiated them by launching them)
// - the types (and RAJA's atomicAdd or RAJA_TEAM_SHARED where used) written above the kernels (marked), in place of RAJA and src/common/RPTypes.hpp

// ---- from src/basic/COPY8-Cuda.cpp, lines 1-7
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

// ---- from src/basic/COPY8.hpp, lines 45-53
#define COPY8_BODY  \
  y0[i] = x0[i] ; \
  y1[i] = x1[i] ; \
  y2[i] = x2[i] ; \
  y3[i] = x3[i] ; \
  y4[i] = x4[i] ; \
  y5[i] = x5[i] ; \
  y6[i] = x6[i] ; \
  y7[i] = x7[i] ;

// ---- from src/basic/COPY8-Cuda.cpp, lines 24-36
template < size_t block_size >
__launch_bounds__(block_size)
__global__ void copy8(Real_ptr y0, Real_ptr y1, Real_ptr y2, Real_ptr y3,
                      Real_ptr y4, Real_ptr y5, Real_ptr y6, Real_ptr y7,
                      Real_ptr x0, Real_ptr x1, Real_ptr x2, Real_ptr x3,
                      Real_ptr x4, Real_ptr x5, Real_ptr x6, Real_ptr x7,
                      Index_type iend)
{
   Index_type i = blockIdx.x * block_size + threadIdx.x;
   if (i < iend) {
     COPY8_BODY;
   }
}

// ---- written for memsim (not from the repository): explicit instantiations of the templates the launches use
template __global__ void copy8<256>(Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Index_type);
