// Pre-registered public kernel (not written for memsim): LLNL/RAJAPerf
// files: src/lcals/HYDRO_2D.hpp, src/lcals/HYDRO_2D-Cuda.cpp
// commit 9af20b3fceeaf6e4cc5ab48cb002f8927fb4c124 (https://github.com/LLNL/RAJAPerf)
// Licence: BSD-3-Clause (the copied files' own notice, kept below: Lawrence Livermore National Security, LLC and RAJA Performance Suite project contributors; the repository's LICENSE in validate/prereg6/LICENSES.md).
//
// Edits (no kernel body changed):
// - src/lcals/HYDRO_2D-Cuda.cpp: only lines 1-7 (its licence notice) and 43-56, 58-72, 74-88 kept (the Base_CUDA kernels hydro_2d1, hydro_2d2, hydro_2d3); the includes (RAJA, the suite's headers), the namespaces rajaperf::lcals and the host code left out, so the kernels are at global scope
// - src/lcals/HYDRO_2D.hpp: only the lines 66-74, 76-84, 86-89 kept (the #defines the kernels use: HYDRO_2D_BODY1, HYDRO_2D_BODY2, HYDRO_2D_BODY3)
// - added after the copied code: explicit instantiations of the templates the launches use (the host code instantiated them by launching them)
// - the types (and RAJA's atomicAdd or RAJA_TEAM_SHARED where used) written above the kernels (marked), in place of RAJA and src/common/RPTypes.hpp

// ---- from src/lcals/HYDRO_2D-Cuda.cpp, lines 1-7
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

// ---- from src/lcals/HYDRO_2D.hpp, lines 66-74
#define HYDRO_2D_BODY1  \
  zadat[j+k*jn] = ( zpdat[j-1+(k+1)*jn] + zqdat[j-1+(k+1)*jn] - \
                    zpdat[j-1+k*jn] - zqdat[j-1+k*jn] ) * \
                  ( zrdat[j+k*jn] + zrdat[j-1+k*jn] ) / \
                  ( zmdat[j-1+k*jn] + zmdat[j-1+(k+1)*jn] ); \
  zbdat[j+k*jn] = ( zpdat[j-1+k*jn] + zqdat[j-1+k*jn] - \
                    zpdat[j+k*jn] - zqdat[j+k*jn] ) * \
                  ( zrdat[j+k*jn] + zrdat[j+(k-1)*jn] ) / \
                  ( zmdat[j+k*jn] + zmdat[j-1+k*jn] );

// ---- from src/lcals/HYDRO_2D.hpp, lines 76-84
#define HYDRO_2D_BODY2 \
  zudat[j+k*jn] += s*( zadat[j+k*jn] * ( zzdat[j+k*jn] - zzdat[j+1+k*jn] ) - \
                    zadat[j-1+k*jn] * ( zzdat[j+k*jn] - zzdat[j-1+k*jn] ) - \
                    zbdat[j+k*jn] * ( zzdat[j+k*jn] - zzdat[j+(k-1)*jn] ) + \
                    zbdat[j+(k+1)*jn] * ( zzdat[j+k*jn] - zzdat[j+(k+1)*jn] ) ); \
  zvdat[j+k*jn] += s*( zadat[j+k*jn] * ( zrdat[j+k*jn] - zrdat[j+1+k*jn] ) - \
                    zadat[j-1+k*jn] * ( zrdat[j+k*jn] - zrdat[j-1+k*jn] ) - \
                    zbdat[j+k*jn] * ( zrdat[j+k*jn] - zrdat[j+(k-1)*jn] ) + \
                    zbdat[j+(k+1)*jn] * ( zrdat[j+k*jn] - zrdat[j+(k+1)*jn] ) );

// ---- from src/lcals/HYDRO_2D.hpp, lines 86-89
#define HYDRO_2D_BODY3 \
  zroutdat[j+k*jn] = zrdat[j+k*jn] + t*zudat[j+k*jn]; \
  zzoutdat[j+k*jn] = zzdat[j+k*jn] + t*zvdat[j+k*jn]; \


// ---- from src/lcals/HYDRO_2D-Cuda.cpp, lines 43-56
template < size_t j_block_size, size_t k_block_size >
__launch_bounds__(j_block_size*k_block_size)
__global__ void hydro_2d1(Real_ptr zadat, Real_ptr zbdat,
                          Real_ptr zpdat, Real_ptr zqdat,
                          Real_ptr zrdat, Real_ptr zmdat,
                          Index_type jn, Index_type kn)
{
   Index_type k = 1 + blockIdx.y * k_block_size + threadIdx.y;
   Index_type j = 1 + blockIdx.x * j_block_size + threadIdx.x;

   if (k < kn-1 && j < jn-1) {
     HYDRO_2D_BODY1;
   }
}

// ---- from src/lcals/HYDRO_2D-Cuda.cpp, lines 58-72
template < size_t j_block_size, size_t k_block_size >
__launch_bounds__(j_block_size*k_block_size)
__global__ void hydro_2d2(Real_ptr zudat, Real_ptr zvdat,
                          Real_ptr zadat, Real_ptr zbdat,
                          Real_ptr zzdat, Real_ptr zrdat,
                          Real_type s,
                          Index_type jn, Index_type kn)
{
   Index_type k = 1 + blockIdx.y * k_block_size + threadIdx.y;
   Index_type j = 1 + blockIdx.x * j_block_size + threadIdx.x;

   if (k < kn-1 && j < jn-1) {
     HYDRO_2D_BODY2;
   }
}

// ---- from src/lcals/HYDRO_2D-Cuda.cpp, lines 74-88
template < size_t j_block_size, size_t k_block_size >
__launch_bounds__(j_block_size*k_block_size)
__global__ void hydro_2d3(Real_ptr zroutdat, Real_ptr zzoutdat,
                          Real_ptr zrdat, Real_ptr zudat,
                          Real_ptr zzdat, Real_ptr zvdat,
                          Real_type t,
                          Index_type jn, Index_type kn)
{
   Index_type k = 1 + blockIdx.y * k_block_size + threadIdx.y;
   Index_type j = 1 + blockIdx.x * j_block_size + threadIdx.x;

   if (k < kn-1 && j < jn-1) {
     HYDRO_2D_BODY3;
   }
}

// ---- written for memsim (not from the repository): explicit instantiations of the templates the launches use
template __global__ void hydro_2d1<32, 8>(Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Index_type, Index_type);
template __global__ void hydro_2d2<32, 8>(Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_type, Index_type, Index_type);
template __global__ void hydro_2d3<32, 8>(Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_ptr, Real_type, Index_type, Index_type);
