// Pre-registered public kernel (not written for memsim): arrayfire/arrayfire
// ArrayFire's CUDA scans along the first dimension and along a column, copied for memsim's ninth pre-registered set (validate/prereg9_cases.py).
//
// Repository: arrayfire/arrayfire, commit 492718b5a256d4a9d5198fdce89d8fd21772bfda
// Paths: src/backend/cuda/kernel/{scan_first,scan_dim}.cuh; the scan operators from src/backend/common/{Binary,Transform}.hpp
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

typedef long long dim_t;
typedef unsigned int uint;

// src/api/c/optypes.hpp: the two operators these scans use (add; notzero, a count of non-zeros);
// the values only tell them apart
typedef enum { af_add_t = 0, af_notzero_t } af_op_t;

namespace arrayfire {
namespace cuda {
template<typename T> struct Param { dim_t dims[4]; dim_t strides[4]; T *ptr; };    // Param.hpp
template<typename T> struct CParam { dim_t dims[4]; dim_t strides[4]; const T *ptr; };
template<typename T> __device__ static T scalar(double val) { return (T)(val); }    // math.hpp
}  // namespace cuda
namespace common {
using namespace cuda;
template<typename T, af_op_t op> struct Binary;                                      // common/Binary.hpp
template<typename T>
struct Binary<T, af_add_t> {
    static __device__ T init() { return scalar<T>(0); }

    __device__ T operator()(T lhs, T rhs) { return lhs + rhs; }
};
template<typename T>
struct Binary<T, af_notzero_t> {
    static __device__ T init() { return scalar<T>(0); }

    __device__ T operator()(T lhs, T rhs) { return lhs + rhs; }
};
template<typename Ti, typename To, af_op_t op>                                       // common/Transform.hpp
struct Transform {
    __device__ To operator()(Ti in) { return static_cast<To>(in); }
};
template<typename Ti, typename To>
struct Transform<Ti, To, af_notzero_t> {
    __device__ To operator()(Ti in) { return (in != scalar<Ti>(0.)); }
};
}  // namespace common
}  // namespace arrayfire

#define THREADS_PER_BLOCK 256      // kernel/config.hpp
#define THREADS_X 32

#undef __global__                 // ArrayFire's kernels as device functions (see the header)
#define __global__ __device__

// ---- src/backend/cuda/kernel/scan_first.cuh

namespace arrayfire {
namespace cuda {

template<typename Ti, typename To, af_op_t op, bool isFinalPass, uint DIMX,
         bool inclusive_scan>
__global__ void scan_first(Param<To> out, Param<To> tmp, CParam<Ti> in,
                           uint blocks_x, uint blocks_y, uint lim) {
    const int tidx = threadIdx.x;
    const int tidy = threadIdx.y;

    const int zid        = blockIdx.x / blocks_x;
    const int wid        = (blockIdx.y + blockIdx.z * gridDim.y) / blocks_y;
    const int blockIdx_x = blockIdx.x - (blocks_x)*zid;
    const int blockIdx_y =
        (blockIdx.y + blockIdx.z * gridDim.y) - (blocks_y)*wid;
    const int xid = blockIdx_x * blockDim.x * lim + tidx;
    const int yid = blockIdx_y * blockDim.y + tidy;

    bool cond_yzw =
        (yid < out.dims[1]) && (zid < out.dims[2]) && (wid < out.dims[3]);

    if (!cond_yzw) return;  // retire warps early

    const Ti *iptr = in.ptr;
    To *optr       = out.ptr;
    To *tptr       = tmp.ptr;

    iptr += wid * in.strides[3] + zid * in.strides[2] + yid * in.strides[1];
    optr += wid * out.strides[3] + zid * out.strides[2] + yid * out.strides[1];
    tptr += wid * tmp.strides[3] + zid * tmp.strides[2] + yid * tmp.strides[1];

    const int DIMY            = THREADS_PER_BLOCK / DIMX;
    const int SHARED_MEM_SIZE = (2 * DIMX + 1) * (DIMY);

    __shared__ To s_val[SHARED_MEM_SIZE];
    __shared__ To s_tmp[DIMY];

    To *sptr = s_val + tidy * (2 * DIMX + 1);

    common::Transform<Ti, To, op> transform;
    common::Binary<To, op> binop;

    const To init = common::Binary<To, op>::init();
    int id        = xid;
    To val        = init;

    const bool isLast = (tidx == (DIMX - 1));

    for (int k = 0; k < lim; k++) {
        if (isLast) s_tmp[tidy] = val;

        bool cond  = (id < out.dims[0]);
        val        = cond ? transform(iptr[id]) : init;
        sptr[tidx] = val;
        __syncthreads();

        int start = 0;
#pragma unroll
        for (int off = 1; off < DIMX; off *= 2) {
            if (tidx >= off) val = binop(val, sptr[(start - off) + tidx]);
            start              = DIMX - start;
            sptr[start + tidx] = val;

            __syncthreads();
        }

        val = binop(val, s_tmp[tidy]);

        if (inclusive_scan) {
            if (cond) { optr[id] = val; }
        } else {
            if (id == (out.dims[0] - 1)) {
                optr[0] = init;
            } else if (id < (out.dims[0] - 1)) {
                optr[id + 1] = val;
            }
        }
        id += blockDim.x;
        __syncthreads();
    }

    if (!isFinalPass && isLast) { tptr[blockIdx_x] = val; }
}

template<typename To, af_op_t op>
__global__ void scan_first_bcast(Param<To> out, CParam<To> tmp, uint blocks_x,
                                 uint blocks_y, uint lim, bool inclusive_scan) {
    const int tidx = threadIdx.x;
    const int tidy = threadIdx.y;

    const int zid        = blockIdx.x / blocks_x;
    const int wid        = (blockIdx.y + blockIdx.z * gridDim.y) / blocks_y;
    const int blockIdx_x = blockIdx.x - (blocks_x)*zid;
    const int blockIdx_y =
        (blockIdx.y + blockIdx.z * gridDim.y) - (blocks_y)*wid;
    const int xid = blockIdx_x * blockDim.x * lim + tidx;
    const int yid = blockIdx_y * blockDim.y + tidy;

    if (blockIdx_x == 0) return;

    bool cond =
        (yid < out.dims[1]) && (zid < out.dims[2]) && (wid < out.dims[3]);
    if (!cond) return;

    To *optr       = out.ptr;
    const To *tptr = tmp.ptr;

    optr += wid * out.strides[3] + zid * out.strides[2] + yid * out.strides[1];
    tptr += wid * tmp.strides[3] + zid * tmp.strides[2] + yid * tmp.strides[1];

    common::Binary<To, op> binop;
    To accum = tptr[blockIdx_x - 1];

    // Shift broadcast one step to the right for exclusive scan (#2366)
    int offset = !inclusive_scan;
    for (int k = 0, id = xid + offset; k < lim && id < out.dims[0];
         k++, id += blockDim.x) {
        optr[id] = binop(accum, optr[id]);
    }
}

}  // namespace cuda
}  // namespace arrayfire

// ---- src/backend/cuda/kernel/scan_dim.cuh

namespace arrayfire {
namespace cuda {

template<typename Ti, typename To, af_op_t op, int dim, bool isFinalPass,
         uint DIMY, bool inclusive_scan>
__global__ void scan_dim(Param<To> out, Param<To> tmp, CParam<Ti> in,
                         uint blocks_x, uint blocks_y, uint blocks_dim,
                         uint lim) {
    const int tidx = threadIdx.x;
    const int tidy = threadIdx.y;
    const int tid  = tidy * THREADS_X + tidx;

    const int zid        = blockIdx.x / blocks_x;
    const int wid        = (blockIdx.y + blockIdx.z * gridDim.y) / blocks_y;
    const int blockIdx_x = blockIdx.x - (blocks_x)*zid;
    const int blockIdx_y =
        (blockIdx.y + blockIdx.z * gridDim.y) - (blocks_y)*wid;
    const int xid = blockIdx_x * blockDim.x + tidx;
    const int yid = blockIdx_y;  // yid  of output. updated for input later.

    int ids[4] = {xid, yid, zid, wid};

    const Ti *iptr = in.ptr;
    To *optr       = out.ptr;
    To *tptr       = tmp.ptr;

    // There is only one element per block for out
    // There are blockDim.y elements per block for in
    // Hence increment ids[dim] just after offseting out and before offsetting
    // in
    tptr += ids[3] * tmp.strides[3] + ids[2] * tmp.strides[2] +
            ids[1] * tmp.strides[1] + ids[0];
    const int blockIdx_dim = ids[dim];

    ids[dim] = ids[dim] * blockDim.y * lim + tidy;
    optr += ids[3] * out.strides[3] + ids[2] * out.strides[2] +
            ids[1] * out.strides[1] + ids[0];
    iptr += ids[3] * in.strides[3] + ids[2] * in.strides[2] +
            ids[1] * in.strides[1] + ids[0];
    int id_dim        = ids[dim];
    const int out_dim = out.dims[dim];

    bool is_valid = (ids[0] < out.dims[0]) && (ids[1] < out.dims[1]) &&
                    (ids[2] < out.dims[2]) && (ids[3] < out.dims[3]);

    const int ostride_dim = out.strides[dim];
    const int istride_dim = in.strides[dim];

    __shared__ To s_val[THREADS_X * DIMY * 2];
    __shared__ To s_tmp[THREADS_X];
    To *sptr = s_val + tid;

    common::Transform<Ti, To, op> transform;
    common::Binary<To, op> binop;

    const To init = common::Binary<To, op>::init();
    To val        = init;

    const bool isLast = (tidy == (DIMY - 1));

    for (int k = 0; k < lim; k++) {
        if (isLast) s_tmp[tidx] = val;

        bool cond = (is_valid) && (id_dim < out_dim);
        val       = cond ? transform(*iptr) : init;
        *sptr     = val;
        __syncthreads();

        int start = 0;
#pragma unroll
        for (int off = 1; off < DIMY; off *= 2) {
            if (tidy >= off) val = binop(val, sptr[(start - off) * THREADS_X]);
            start                   = DIMY - start;
            sptr[start * THREADS_X] = val;

            __syncthreads();
        }

        val = binop(val, s_tmp[tidx]);
        if (inclusive_scan) {
            if (cond) { *optr = val; }
        } else if (is_valid) {
            if (id_dim == (out_dim - 1)) {
                *(optr - (id_dim * ostride_dim)) = init;
            } else if (id_dim < (out_dim - 1)) {
                *(optr + ostride_dim) = val;
            }
        }
        id_dim += blockDim.y;
        iptr += blockDim.y * istride_dim;
        optr += blockDim.y * ostride_dim;
        __syncthreads();
    }

    if (!isFinalPass && is_valid && (blockIdx_dim < tmp.dims[dim]) && isLast) {
        *tptr = val;
    }
}

template<typename To, af_op_t op, int dim>
__global__ void scan_dim_bcast(Param<To> out, CParam<To> tmp, uint blocks_x,
                               uint blocks_y, uint blocks_dim, uint lim,
                               bool inclusive_scan) {
    const int tidx = threadIdx.x;
    const int tidy = threadIdx.y;

    const int zid        = blockIdx.x / blocks_x;
    const int wid        = (blockIdx.y + blockIdx.z * gridDim.y) / blocks_y;
    const int blockIdx_x = blockIdx.x - (blocks_x)*zid;
    const int blockIdx_y =
        (blockIdx.y + blockIdx.z * gridDim.y) - (blocks_y)*wid;
    const int xid = blockIdx_x * blockDim.x + tidx;
    const int yid = blockIdx_y;  // yid  of output. updated for input later.

    int ids[4] = {xid, yid, zid, wid};

    const To *tptr = tmp.ptr;
    To *optr       = out.ptr;

    // There is only one element per block for out
    // There are blockDim.y elements per block for in
    // Hence increment ids[dim] just after offseting out and before offsetting
    // in
    tptr += ids[3] * tmp.strides[3] + ids[2] * tmp.strides[2] +
            ids[1] * tmp.strides[1] + ids[0];
    const int blockIdx_dim = ids[dim];

    ids[dim] = ids[dim] * blockDim.y * lim + tidy;
    optr += ids[3] * out.strides[3] + ids[2] * out.strides[2] +
            ids[1] * out.strides[1] + ids[0];
    const int id_dim  = ids[dim];
    const int out_dim = out.dims[dim];

    // Shift broadcast one step to the right for exclusive scan (#2366)
    int offset = inclusive_scan ? 0 : out.strides[dim];
    optr += offset;

    bool is_valid = (ids[0] < out.dims[0]) && (ids[1] < out.dims[1]) &&
                    (ids[2] < out.dims[2]) && (ids[3] < out.dims[3]);

    if (!is_valid) return;
    if (blockIdx_dim == 0) return;

    To accum = *(tptr - tmp.strides[dim]);

    common::Binary<To, op> binop;
    const int ostride_dim = out.strides[dim];

    for (int k = 0, id = id_dim; is_valid && k < lim && (id < out_dim);
         k++, id += blockDim.y) {
        *optr = binop(*optr, accum);
        optr += blockDim.y * ostride_dim;
    }
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

// scan_first: rows of d0, d1 rows; a single pass (out is its own tmp, as ArrayFire passes it),
// or the first of ArrayFire's three passes (block sums to tmp: blocks_x x d1) and the third
// (tmp's scanned sums added back)
#define AF_SCAN_FIRST(name, Ti, To, op, final, dimx, incl)                                              \
    extern "C" __global__ void name(To *out, To *tmp, const Ti *in, int d0, int d1, uint bx, uint by, uint lim) { \
        afc::scan_first<Ti, To, op, final, dimx, incl>(dense<afc::Param<To>>(out, d0, d1),                 \
            final ? dense<afc::Param<To>>(out, d0, d1) : dense<afc::Param<To>>(tmp, bx, d1),             \
            dense<afc::CParam<Ti>>(in, d0, d1), bx, by, lim);                                              \
    }
AF_SCAN_FIRST(af_scan_first_final_32_f32, float, float, af_add_t, true, 32, true)
AF_SCAN_FIRST(af_scan_first_final_64_f32, float, float, af_add_t, true, 64, true)
AF_SCAN_FIRST(af_scan_first_final_128_f32, float, float, af_add_t, true, 128, true)
AF_SCAN_FIRST(af_scan_first_final_256_f32, float, float, af_add_t, true, 256, true)
AF_SCAN_FIRST(af_scan_first_final_256_excl_f32, float, float, af_add_t, true, 256, false)
AF_SCAN_FIRST(af_scan_first_pass_256_f32, float, float, af_add_t, false, 256, true)
AF_SCAN_FIRST(af_scan_first_final_256_notzero_u8, unsigned char, uint, af_notzero_t, true, 256, true)

extern "C" __global__ void af_scan_first_bcast_f32(float *out, const float *tmp, int d0, int d1, uint bx, uint by, uint lim) {
    afc::scan_first_bcast<float, af_add_t>(dense<afc::Param<float>>(out, d0, d1), dense<afc::CParam<float>>(tmp, bx, d1),
                                           bx, by, lim, true);
}

// scan_dim along dim 1 (down the columns of a d0 x d1 matrix), DIMY 8: one pass, or the first of three
#define AF_SCAN_DIM1(name, final)                                                                          \
    extern "C" __global__ void name(float *out, float *tmp, const float *in, int d0, int d1, uint bx, uint by, \
                                    uint bdim, uint lim) {                                                   \
        afc::scan_dim<float, float, af_add_t, 1, final, 8, true>(dense<afc::Param<float>>(out, d0, d1),      \
            final ? dense<afc::Param<float>>(out, d0, d1) : dense<afc::Param<float>>(tmp, d0, bdim),       \
            dense<afc::CParam<float>>(in, d0, d1), bx, by, bdim, lim);                                       \
    }
AF_SCAN_DIM1(af_scan_dim1_final_f32, true)
AF_SCAN_DIM1(af_scan_dim1_pass_f32, false)
