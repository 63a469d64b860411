// Pre-registered public kernel (not written for memsim): LLNL/RAJAPerf
// files: src/apps/LTIMES_NOVIEW.hpp, src/apps/LTIMES_NOVIEW-Cuda.cpp
// commit 9af20b3fceeaf6e4cc5ab48cb002f8927fb4c124 (https://github.com/LLNL/RAJAPerf)
// Licence: BSD-3-Clause (the copied files' own notice, kept below: Lawrence Livermore National Security, LLC and RAJA Performance Suite project contributors; the repository's LICENSE in validate/prereg6/LICENSES.md).
//
// Edits (no kernel body changed):
// - src/apps/LTIMES_NOVIEW-Cuda.cpp: only lines 1-7 (its licence notice) and 43-58 kept (the Base_CUDA kernel ltimes_noview); the includes (RAJA, the suite's headers), the namespaces rajaperf::apps and the host code left out, so the kernels are at global scope
// - src/apps/LTIMES_NOVIEW.hpp: only the lines 39-41 kept (the #defines the kernels use: LTIMES_NOVIEW_BODY)
// - added after the copied code: explicit instantiations of the templates the launches use (the host code instantiated them by launching them)
// - the types (and RAJA's atomicAdd or RAJA_TEAM_SHARED where used) written above the kernels (marked), in place of RAJA and src/common/RPTypes.hpp

// ---- from src/apps/LTIMES_NOVIEW-Cuda.cpp, lines 1-7
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

// ---- from src/apps/LTIMES_NOVIEW.hpp, lines 39-41
#define LTIMES_NOVIEW_BODY \
  phidat[m+ (g * num_m) + (z * num_m * num_g)] += \
    elldat[d+ (m * num_d)] * psidat[d+ (g * num_d) + (z * num_d * num_g)];

// ---- from src/apps/LTIMES_NOVIEW-Cuda.cpp, lines 43-58
template < size_t m_block_size, size_t g_block_size, size_t z_block_size >
__launch_bounds__(m_block_size*g_block_size*z_block_size)
__global__ void ltimes_noview(Real_ptr phidat, Real_ptr elldat, Real_ptr psidat,
                              Index_type num_d,
                              Index_type num_m, Index_type num_g, Index_type num_z)
{
   Index_type m = blockIdx.x * m_block_size + threadIdx.x;
   Index_type g = blockIdx.y * g_block_size + threadIdx.y;
   Index_type z = blockIdx.z * z_block_size + threadIdx.z;

   if (m < num_m && g < num_g && z < num_z) {
     for (Index_type d = 0; d < num_d; ++d ) {
       LTIMES_NOVIEW_BODY;
     }
   }
}

// ---- written for memsim (not from the repository): explicit instantiations of the templates the launches use
template __global__ void ltimes_noview<32, 4, 2>(Real_ptr, Real_ptr, Real_ptr, Index_type, Index_type, Index_type, Index_type);
