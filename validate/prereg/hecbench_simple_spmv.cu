// Pre-registered public kernel (not written for memsim): zjin-lcf/HeCBench
// files: src/simpleSpmv-cuda/mv.h, src/simpleSpmv-cuda/kernels.cu
// commit f27000a5188f8ac79bd43fc95a1b3f890c18823d (https://github.com/zjin-lcf/HeCBench)
// Licence: BSD-3-Clause (HeCBench's LICENSE, Copyright (c) 2020 Argonne National Laboratory, 2020- Oak Ridge National Laboratory (Zheming Jin)).
//
// Edits (no kernel body changed):
// - host/toolkit #includes commented out (`// removed:`): "mv.h", <chrono>, <cuda.h>, <stdlib.h>
// - src/simpleSpmv-cuda/mv.h: only lines 1-5, 15-15 kept (the kernels and the device code and macros they use); the rest is host code
// - src/simpleSpmv-cuda/kernels.cu: only lines 1-66 kept (the kernels and the device code and macros they use); the rest is host code
// - added after the copied code: explicit instantiations of the templates launched
// - mv.h: only its guard and REAL define kept (lines 1-5, 15; the rest declares host functions); `#include "mv.h"` in kernels.cu commented out


// ---- from src/simpleSpmv-cuda/mv.h, lines 1-5, 15-15
#ifndef SPMV_H
#define SPMV_H

#define REAL float
//#define REAL double
#endif
// ---- from src/simpleSpmv-cuda/kernels.cu, lines 1-66
// removed: #include <stdlib.h>
// removed: #include <chrono>
// removed: #include <cuda.h>
// removed: #include "mv.h"

// sparse matrix vector multiply using the CSR format
__global__ void mv_csr(const size_t num_rows,
                       const size_t *row_indices,
                       const size_t *col_indices,
                       const REAL *values,
                       const REAL *x,
                             REAL *y)
{
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < num_rows) {
    size_t row_start = row_indices[i];
    size_t row_end = row_indices[i+1];

    REAL temp = 0;
    for(size_t n = row_start; n < row_end; n++){
      temp += values[n] * x[col_indices[n]];
    }
    y[i] = temp;
  }
}

// vector sparse matrix vector multiply using the CSR format
template <int BS>
__global__ void vector_mv_csr(const size_t num_rows,
                              const size_t *row_indices,
                              const size_t *col_indices,
                              const REAL *values,
                              const REAL *x,
                                    REAL *y)
{
  size_t m = blockIdx.x * blockDim.y + threadIdx.y;
  if (m < num_rows) {
    size_t row_start = row_indices[m];
    size_t row_end = row_indices[m+1];

    REAL temp = 0;
    for(size_t n = row_start + threadIdx.x; n < row_end; n += BS){
      temp += values[n] * x[col_indices[n]];
    }
    #pragma unroll
    for (int i = BS >> 1; i > 0; i >>= 1)
      temp += __shfl_down_sync(0xFFFFFFFF, temp, i, BS);

    y[m] = temp;
  }
}


// dense matrix vector multiply
__global__ void mv_dense(const size_t num_rows, const REAL* matrix, const REAL* x, REAL* y)
{
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < num_rows) {
    REAL temp = 0;
    for (size_t j = 0; j < num_rows; j++) {
      if (matrix[i * num_rows + j] != (REAL)0) 
        temp += matrix[i * num_rows + j] * x[j];
    }
    y[i] = temp;
  }
}

template __global__ void vector_mv_csr<2>(const size_t, const size_t *, const size_t *, const REAL *, const REAL *, REAL *);
