// Pre-registered public kernel (not written for memsim): arrayfire/arrayfire
// ArrayFire's CUDA gathers and sparse kernels: lookup (index along a dimension), COO to dense, CSR and COO arithmetic with a dense matrix, copied for memsim's ninth pre-registered set (validate/prereg9_cases.py).
//
// Repository: arrayfire/arrayfire, commit 492718b5a256d4a9d5198fdce89d8fd21772bfda
// Paths: src/backend/cuda/kernel/{lookup,sparse,sparse_arith}.cuh
// Licence: BSD-3-Clause (Copyright (c) 2014-2025, ArrayFire; text in validate/prereg9/LICENSES.md)
//
// ArrayFire compiles these files at run time with NVRTC (--device-as-default-execution-space, as
// here), its host code (kernel/*.hpp) passing the defines and naming the template instance.
// Edits, all outside the kernel bodies, which are unchanged:
// - the #include lines of each file are replaced by the prelude below: the Param/CParam structs
//   (Param.hpp: four dims, four strides, a pointer; here plain structs of the same layout), and
//   only the helpers of ArrayFire's headers these kernels use (named at each), and the defines
//   ArrayFire's host code passes, with its values;
// - the kernels take Param structs by value, which a launch here cannot spell (buffers and
//   scalars only), so each is compiled as a __device__ function (`__global__` redefined as
//   __device__ around the copied code, and back to __attribute__((global)) after) and called by
//   an extern "C" __global__ wrapper at the end of the file that takes the pointers and dims and
//   builds the Params as ArrayFire's host code does (dense, column-major: strides 1, d0, d0*d1,
//   d0*d1*d2). The wrapper is the launched kernel: its body is one call, inlined.
// - ArrayFire's `#pragma once` lines are dropped (one file).

#include <cuda_fp16.h>         // __half (ArrayFire's types.hpp includes it)

typedef long long dim_t;
typedef unsigned int uint;

// src/api/c/optypes.hpp: the operators sparse_arith.cuh names; the values only tell them apart
typedef enum { af_add_t = 0, af_sub_t, af_mul_t, af_div_t } af_op_t;

namespace arrayfire {
namespace cuda {
template<typename T> struct Param { dim_t dims[4]; dim_t strides[4]; T *ptr; };    // Param.hpp
template<typename T> struct CParam { dim_t dims[4]; dim_t strides[4]; const T *ptr; };
static inline __device__ size_t min(size_t lhs, size_t rhs) {                          // math.hpp
    return lhs < rhs ? lhs : rhs;
}
[[gnu::unused]] static __device__ dim_t trimIndex(const int &idx,                   // utility.hpp
                                                  const dim_t &len) {
    int ret_val = idx;
    if (ret_val < 0) {
        int offset = (abs(ret_val) - 1) % len;
        ret_val    = offset;
    } else if (ret_val >= len) {
        int offset = abs(ret_val) % len;
        ret_val    = len - offset - 1;
    }
    return ret_val;
}
}  // namespace cuda
}  // namespace arrayfire

#define THREADS 256                // kernel/lookup.hpp, kernel/sparse_arith.hpp (32 x 8)
#define THRD_LOAD 4
#define TX 32
#define TY 8
#define reps 4                     // kernel/sparse.hpp

#undef __global__                 // ArrayFire's kernels as device functions (see the header)
#define __global__ __device__

// ---- src/backend/cuda/kernel/lookup.cuh

namespace arrayfire {
namespace cuda {

template<typename in_t, typename idx_t>
__global__ void lookup1D(Param<in_t> out, CParam<in_t> in,
                         CParam<idx_t> indices, int vDim) {
    int idx = threadIdx.x + blockIdx.x * THREADS * THRD_LOAD;

    const in_t* inPtr   = (const in_t*)in.ptr;
    const idx_t* idxPtr = (const idx_t*)indices.ptr;

    in_t* outPtr = (in_t*)out.ptr;

    int en = min(out.dims[vDim], idx + THRD_LOAD * THREADS);

    for (int oIdx = idx; oIdx < en; oIdx += THREADS) {
        int iIdx     = trimIndex(static_cast<int>(idxPtr[oIdx]), in.dims[vDim]);
        outPtr[oIdx] = inPtr[iIdx];
    }
}

template<typename in_t, typename idx_t, unsigned dim>
__global__ void lookupND(Param<in_t> out, CParam<in_t> in,
                         CParam<idx_t> indices, int nBBS0, int nBBS1) {
    int lx = threadIdx.x;
    int ly = threadIdx.y;

    int gz = blockIdx.x / nBBS0;
    int gw = (blockIdx.y + blockIdx.z * gridDim.y) / nBBS1;

    int gx = blockDim.x * (blockIdx.x - gz * nBBS0) + lx;
    int gy =
        blockDim.y * ((blockIdx.y + blockIdx.z * gridDim.y) - gw * nBBS1) + ly;

    const idx_t* idxPtr = (const idx_t*)indices.ptr;

    int i = in.strides[0] *
            (dim == 0 ? trimIndex((int)idxPtr[gx], in.dims[0]) : gx);
    int j = in.strides[1] *
            (dim == 1 ? trimIndex((int)idxPtr[gy], in.dims[1]) : gy);
    int k = in.strides[2] *
            (dim == 2 ? trimIndex((int)idxPtr[gz], in.dims[2]) : gz);
    int l = in.strides[3] *
            (dim == 3 ? trimIndex((int)idxPtr[gw], in.dims[3]) : gw);

    const in_t* inPtr = (const in_t*)in.ptr + (i + j + k + l);
    in_t* outPtr = (in_t*)out.ptr + (gx * out.strides[0] + gy * out.strides[1] +
                                     gz * out.strides[2] + gw * out.strides[3]);

    if (gx < out.dims[0] && gy < out.dims[1] && gz < out.dims[2] &&
        gw < out.dims[3]) {
        outPtr[0] = inPtr[0];
    }
}

}  // namespace cuda
}  // namespace arrayfire

// ---- src/backend/cuda/kernel/sparse.cuh

namespace arrayfire {
namespace cuda {

template<typename T>
__global__ void coo2Dense(Param<T> output, CParam<T> values, CParam<int> rowIdx,
                          CParam<int> colIdx) {
    for (int i = threadIdx.x; i < reps * blockDim.x; i += blockDim.x) {
        int id = i + blockIdx.x * blockDim.x * reps;
        if (id >= values.dims[0]) return;

        T v   = values.ptr[id];
        int r = rowIdx.ptr[id];
        int c = colIdx.ptr[id];

        int offset = r + c * output.strides[1];

        output.ptr[offset] = v;
    }
}

}  // namespace cuda
}  // namespace arrayfire

// ---- src/backend/cuda/kernel/sparse_arith.cuh

namespace arrayfire {
namespace cuda {

template<typename T, af_op_t op>
struct arith_op {
    T operator()(T v1, T v2) { return T(0); }
};

template<typename T>
struct arith_op<T, af_add_t> {
    T operator()(T v1, T v2) { return v1 + v2; }
};

template<typename T>
struct arith_op<T, af_sub_t> {
    T operator()(T v1, T v2) { return v1 - v2; }
};

template<typename T>
struct arith_op<T, af_mul_t> {
    T operator()(T v1, T v2) { return v1 * v2; }
};

template<typename T>
struct arith_op<T, af_div_t> {
    T operator()(T v1, T v2) { return v1 / v2; }
};

// All Kernels follow below naming convention
// <format>ArithXYZ where
// <format> is either csr or coo
// X - D for Dense output, S for sparse output
// Y - D for Dense lhs, S for sparse lhs
// Z - D for Dense rhs, S for sparse rhs

template<typename T, af_op_t op>
__global__ void csrArithDSD(Param<T> out, CParam<T> values, CParam<int> rowIdx,
                            CParam<int> colIdx, CParam<T> rhs,
                            const bool reverse) {
    const int row = blockIdx.x * TY + threadIdx.y;

    if (row >= out.dims[0]) return;

    const int rowStartIdx = rowIdx.ptr[row];
    const int rowEndIdx   = rowIdx.ptr[row + 1];

    // Repeat loop until all values in the row are computed
    for (int idx = rowStartIdx + threadIdx.x; idx < rowEndIdx; idx += TX) {
        const int col = colIdx.ptr[idx];

        if (row >= out.dims[0] || col >= out.dims[1]) continue;  // Bad indices

        // Get Values
        const T val  = values.ptr[idx];
        const T rval = rhs.ptr[col * rhs.strides[1] + row];

        const int offset = col * out.strides[1] + row;
        if (reverse)
            out.ptr[offset] = arith_op<T, op>()(rval, val);
        else
            out.ptr[offset] = arith_op<T, op>()(val, rval);
    }
}

template<typename T, af_op_t op>
__global__ void cooArithDSD(Param<T> out, CParam<T> values, CParam<int> rowIdx,
                            CParam<int> colIdx, CParam<T> rhs,
                            const bool reverse) {
    const int idx = blockIdx.x * THREADS + threadIdx.x;

    if (idx >= values.dims[0]) return;

    const int row = rowIdx.ptr[idx];
    const int col = colIdx.ptr[idx];

    if (row >= out.dims[0] || col >= out.dims[1]) return;  // Bad indices

    // Get Values
    const T val  = values.ptr[idx];
    const T rval = rhs.ptr[col * rhs.strides[1] + row];

    const int offset = col * out.strides[1] + row;
    if (reverse)
        out.ptr[offset] = arith_op<T, op>()(rval, val);
    else
        out.ptr[offset] = arith_op<T, op>()(val, rval);
}

template<typename T, af_op_t op>
__global__ void csrArithSSD(Param<T> values, Param<int> rowIdx,
                            Param<int> colIdx, CParam<T> rhs,
                            const bool reverse) {
    const int row = blockIdx.x * TY + threadIdx.y;

    if (row >= rhs.dims[0]) return;

    const int rowStartIdx = rowIdx.ptr[row];
    const int rowEndIdx   = rowIdx.ptr[row + 1];

    // Repeat loop until all values in the row are computed
    for (int idx = rowStartIdx + threadIdx.x; idx < rowEndIdx; idx += TX) {
        const int col = colIdx.ptr[idx];

        if (row >= rhs.dims[0] || col >= rhs.dims[1]) continue;  // Bad indices

        // Get Values
        const T val  = values.ptr[idx];
        const T rval = rhs.ptr[col * rhs.strides[1] + row];

        if (reverse)
            values.ptr[idx] = arith_op<T, op>()(rval, val);
        else
            values.ptr[idx] = arith_op<T, op>()(val, rval);
    }
}

template<typename T, af_op_t op>
__global__ void cooArithSSD(Param<T> values, Param<int> rowIdx,
                            Param<int> colIdx, CParam<T> rhs,
                            const bool reverse) {
    const int idx = blockIdx.x * THREADS + threadIdx.x;

    if (idx >= values.dims[0]) return;

    const int row = rowIdx.ptr[idx];
    const int col = colIdx.ptr[idx];

    if (row >= rhs.dims[0] || col >= rhs.dims[1]) return;  // Bad indices

    // Get Values
    const T val  = values.ptr[idx];
    const T rval = rhs.ptr[col * rhs.strides[1] + row];

    if (reverse)
        values.ptr[idx] = arith_op<T, op>()(rval, val);
    else
        values.ptr[idx] = arith_op<T, op>()(val, rval);
}

}  // namespace cuda
}  // namespace arrayfire

#undef __global__                 // __global__ again: host_defines.h's __location__(global)
#define __global__ __attribute__((global))


// ---- the launched wrappers (not ArrayFire's): pointers and dims in, Params built, one call
namespace afc = arrayfire::cuda;

template<typename P, typename Ptr>
__device__ P dense(Ptr ptr, dim_t d0, dim_t d1 = 1, dim_t d2 = 1, dim_t d3 = 1) {
    P p;
    p.ptr = ptr;
    p.dims[0] = d0; p.dims[1] = d1; p.dims[2] = d2; p.dims[3] = d3;
    p.strides[0] = 1; p.strides[1] = d0; p.strides[2] = d0 * d1; p.strides[3] = d0 * d1 * d2;
    return p;
}

// lookup1D: out[i] = in[idx[i]] over a vector; lookupND along dim 1: the columns idx[j] of a
// d0 x d1 matrix (an embedding table of d1 vectors of d0, gathered for n tokens)
extern "C" __global__ void af_lookup1d_f32(float *out, const float *in, const uint *idx, int n, int len) {
    afc::lookup1D<float, uint>(dense<afc::Param<float>>(out, n), dense<afc::CParam<float>>(in, len),
                               dense<afc::CParam<uint>>(idx, n), 0);
}
extern "C" __global__ void af_lookup_dim1_f32(float *out, const float *in, const uint *idx, int d0, int d1, int n,
                                              int bx, int by) {
    afc::lookupND<float, uint, 1>(dense<afc::Param<float>>(out, d0, n), dense<afc::CParam<float>>(in, d0, d1),
                                  dense<afc::CParam<uint>>(idx, n), bx, by);
}
extern "C" __global__ void af_lookup_dim0_f16(__half *out, const __half *in, const uint *idx, int d0, int d1, int n,
                                              int bx, int by) {
    afc::lookupND<__half, uint, 0>(dense<afc::Param<__half>>(out, n, d1), dense<afc::CParam<__half>>(in, d0, d1),
                                   dense<afc::CParam<uint>>(idx, n), bx, by);
}
// coo2Dense: nnz (value, row, column) triples written into a dense rows x cols (column-major) matrix
extern "C" __global__ void af_coo2dense_f32(float *out, const float *values, const int *row, const int *col, int rows,
                                            int cols, int nnz) {
    afc::coo2Dense<float>(dense<afc::Param<float>>(out, rows, cols), dense<afc::CParam<float>>(values, nnz),
                          dense<afc::CParam<int>>(row, nnz), dense<afc::CParam<int>>(col, nnz));
}
// out (dense rows x cols) = sparse (CSR: rows + 1 row offsets) op dense rhs, at the sparse entries
extern "C" __global__ void af_csr_arith_mul_f32(float *out, const float *values, const int *row_idx, const int *col_idx,
                                                const float *rhs, int rows, int cols, int nnz) {
    afc::csrArithDSD<float, af_mul_t>(dense<afc::Param<float>>(out, rows, cols), dense<afc::CParam<float>>(values, nnz),
                                      dense<afc::CParam<int>>(row_idx, rows + 1), dense<afc::CParam<int>>(col_idx, nnz),
                                      dense<afc::CParam<float>>(rhs, rows, cols), false);
}
extern "C" __global__ void af_coo_arith_add_f32(float *out, const float *values, const int *row, const int *col,
                                                const float *rhs, int rows, int cols, int nnz) {
    afc::cooArithDSD<float, af_add_t>(dense<afc::Param<float>>(out, rows, cols), dense<afc::CParam<float>>(values, nnz),
                                      dense<afc::CParam<int>>(row, nnz), dense<afc::CParam<int>>(col, nnz),
                                      dense<afc::CParam<float>>(rhs, rows, cols), false);
}
