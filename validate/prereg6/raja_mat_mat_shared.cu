// Pre-registered public kernel (not written for memsim): LLNL/RAJAPerf
// files: src/basic/MAT_MAT_SHARED.hpp, src/basic/MAT_MAT_SHARED-Cuda.cpp
// commit 9af20b3fceeaf6e4cc5ab48cb002f8927fb4c124 (https://github.com/LLNL/RAJAPerf)
// Licence: BSD-3-Clause (the copied files' own notice, kept below: Lawrence Livermore National Security, LLC and RAJA Performance Suite project contributors; the repository's LICENSE in validate/prereg6/LICENSES.md).
//
// Edits (no kernel body changed):
// - src/basic/MAT_MAT_SHARED-Cuda.cpp: only lines 1-7 (its licence notice) and 22-48 kept (the Base_CUDA kernel mat_mat_shared); the includes (RAJA, the suite's headers), the namespaces rajaperf::basic and the host code left out, so the kernels are at global scope
// - src/basic/MAT_MAT_SHARED.hpp: only the lines 92-95, 97-98, 100-110, 112-114, 116-120 kept (the #defines the kernels use: MAT_MAT_SHARED_BODY_0, MAT_MAT_SHARED_BODY_1, MAT_MAT_SHARED_BODY_2, MAT_MAT_SHARED_BODY_3, MAT_MAT_SHARED_BODY_4)
// - added after the copied code: explicit instantiations of the templates the launches use (the host code instantiated them by launching them)
// - the types (and RAJA's atomicAdd or RAJA_TEAM_SHARED where used) written above the kernels (marked), in place of RAJA and src/common/RPTypes.hpp

// ---- from src/basic/MAT_MAT_SHARED-Cuda.cpp, lines 1-7
//~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~//
// Copyright (c) 2017-20, Lawrence Livermore National Security, LLC
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
#define RAJA_TEAM_SHARED __shared__

// ---- from src/basic/MAT_MAT_SHARED.hpp, lines 92-95
#define MAT_MAT_SHARED_BODY_0(tile_size)                                       \
  RAJA_TEAM_SHARED double As[tile_size][tile_size];                            \
  RAJA_TEAM_SHARED double Bs[tile_size][tile_size];                            \
  RAJA_TEAM_SHARED double Cs[tile_size][tile_size];

// ---- from src/basic/MAT_MAT_SHARED.hpp, lines 97-98
#define MAT_MAT_SHARED_BODY_1(tile_size)        \
  Cs[ty][tx] = 0;

// ---- from src/basic/MAT_MAT_SHARED.hpp, lines 100-110
#define MAT_MAT_SHARED_BODY_2(tile_size)                                       \
  const Index_type Row = by * tile_size + ty;                                  \
  const Index_type Col = bx * tile_size + tx;                                  \
  if (k * tile_size + tx < N && Row < N)                                       \
    As[ty][tx] = A[Row * N + k * tile_size + tx];                              \
  else                                                                         \
    As[ty][tx] = 0.0;                                                          \
  if (k * tile_size + ty < N && Col < N)                                       \
    Bs[ty][tx] = B[(k * tile_size + ty) * N + Col];                            \
  else                                                                         \
    Bs[ty][tx] = 0.0;

// ---- from src/basic/MAT_MAT_SHARED.hpp, lines 112-114
#define MAT_MAT_SHARED_BODY_3(tile_size)                                       \
  for (Index_type n = 0; n < tile_size; ++n)                                   \
    Cs[ty][tx] += As[ty][n] * Bs[n][tx];

// ---- from src/basic/MAT_MAT_SHARED.hpp, lines 116-120
#define MAT_MAT_SHARED_BODY_4(tile_size)                                       \
  const Index_type Row = by * tile_size + ty;                                  \
  const Index_type Col = bx * tile_size + tx;                                  \
  if (Row < N && Col < N)                                                      \
    C[Col + N * Row] = Cs[ty][tx];

// ---- from src/basic/MAT_MAT_SHARED-Cuda.cpp, lines 22-48
template < Index_type tile_size >
  __launch_bounds__(tile_size*tile_size)
__global__ void mat_mat_shared(Index_type N, Real_ptr C, Real_ptr A,
                               Real_ptr B) {

  Index_type tx = threadIdx.x;
  Index_type ty = threadIdx.y;
  Index_type bx = blockIdx.x;
  Index_type by = blockIdx.y;

  MAT_MAT_SHARED_BODY_0(tile_size)

  MAT_MAT_SHARED_BODY_1(tile_size)

  for (Index_type k = 0; k < (tile_size + N - 1) / tile_size; k++) {

    MAT_MAT_SHARED_BODY_2(tile_size)

    __syncthreads();

    MAT_MAT_SHARED_BODY_3(tile_size)

    __syncthreads();
  }

  MAT_MAT_SHARED_BODY_4(tile_size)
}

// ---- written for memsim (not from the repository): explicit instantiations of the templates the launches use
template __global__ void mat_mat_shared<16>(Index_type, Real_ptr, Real_ptr, Real_ptr);
template __global__ void mat_mat_shared<32>(Index_type, Real_ptr, Real_ptr, Real_ptr);
