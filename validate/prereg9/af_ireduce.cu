// Pre-registered public kernel (not written for memsim): arrayfire/arrayfire
// ArrayFire's CUDA index reductions (argmax, argmin) along the first dimension and along a column, copied for memsim's ninth pre-registered set (validate/prereg9_cases.py).
//
// Repository: arrayfire/arrayfire, commit 492718b5a256d4a9d5198fdce89d8fd21772bfda
// Paths: src/backend/cuda/kernel/ireduce.cuh with src/backend/cuda/minmax_op.hpp
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
// - ArrayFire's `#pragma once` lines are dropped (one file); of minmax_op.hpp, the cabs
//   specializations for char and the complex types are left out (float only here).

typedef long long dim_t;
typedef unsigned int uint;

// src/api/c/optypes.hpp: the operators these reductions use; the values only tell them apart
typedef enum { af_min_t = 0, af_max_t } af_op_t;
#define CUDART_INF_F __int_as_float(0x7f800000)   // math_constants.h

namespace arrayfire {
namespace cuda {
template<typename T> struct Param { dim_t dims[4]; dim_t strides[4]; T *ptr; };    // Param.hpp
template<typename T> struct CParam { dim_t dims[4]; dim_t strides[4]; const T *ptr; };
template<typename T> using compute_t = T;                                          // types.hpp (real types)
template<typename T> using data_t = T;
static inline __device__ size_t min(size_t lhs, size_t rhs) {                          // math.hpp
    return lhs < rhs ? lhs : rhs;
}
template<typename T>
inline __device__ T min(T lhs, T rhs) {
    return ::min(lhs, rhs);
}
template<typename T>
static inline __device__ auto is_nan(const T &val) -> bool {
    return false;
}
template<>
inline __device__ auto is_nan<float>(const float &val) -> bool {
    return ::isnan(val);
}
template<typename T> inline __device__ T maxval();
template<typename T> inline __device__ T minval();
template<>
inline __device__ float maxval<float>() {
    return CUDART_INF_F;
}
template<>
inline __device__ float minval<float>() {
    return -CUDART_INF_F;
}
}  // namespace cuda
namespace common {
using namespace cuda;
template<typename T, af_op_t op> struct Binary;                                      // common/Binary.hpp (init only)
template<typename T>
struct Binary<T, af_min_t> {
    static __device__ T init() { return maxval<T>(); }
};
template<typename T>
struct Binary<T, af_max_t> {
    static __device__ T init() { return minval<T>(); }
};
}  // namespace common
}  // namespace arrayfire

#define THREADS_PER_BLOCK 256      // kernel/config.hpp
#define THREADS_X 32

// ---- src/backend/cuda/minmax_op.hpp (the real-type parts)
namespace arrayfire {
namespace cuda {

template<typename T>
static double cabs(const T &in) {
    return (double)in;
}




template<af_op_t op, typename T>
struct MinMaxOp {
    T m_val;
    uint m_idx;
    MinMaxOp(T val, uint idx) : m_val(val), m_idx(idx) {
        using arrayfire::cuda::is_nan;
        if (is_nan(val)) { m_val = common::Binary<compute_t<T>, op>::init(); }
    }

    void operator()(T val, uint idx) {
        if ((cabs(val) < cabs(m_val) ||
             (cabs(val) == cabs(m_val) && idx > m_idx))) {
            m_val = val;
            m_idx = idx;
        }
    }
};

template<typename T>
struct MinMaxOp<af_max_t, T> {
    T m_val;
    uint m_idx;
    MinMaxOp(T val, uint idx) : m_val(val), m_idx(idx) {
        using arrayfire::cuda::is_nan;
        if (is_nan(val)) { m_val = common::Binary<T, af_max_t>::init(); }
    }

    void operator()(T val, uint idx) {
        if ((cabs(val) > cabs(m_val) ||
             (cabs(val) == cabs(m_val) && idx <= m_idx))) {
            m_val = val;
            m_idx = idx;
        }
    }
};

}  // namespace cuda
}  // namespace arrayfire

#undef __global__                 // ArrayFire's kernels as device functions (see the header)
#define __global__ __device__

// ---- src/backend/cuda/kernel/ireduce.cuh

namespace arrayfire {
namespace cuda {

template<typename T, af_op_t op, uint dim, bool is_first, uint DIMY>
__global__ static void ireduceDim(Param<T> out, uint *olptr, CParam<T> in,
                                  const uint *ilptr, uint blocks_x,
                                  uint blocks_y, uint offset_dim,
                                  CParam<uint> rlen) {
    const uint tidx = threadIdx.x;
    const uint tidy = threadIdx.y;
    const uint tid  = tidy * THREADS_X + tidx;

    const uint zid        = blockIdx.x / blocks_x;
    const uint wid        = (blockIdx.y + blockIdx.z * gridDim.y) / blocks_y;
    const uint blockIdx_x = blockIdx.x - (blocks_x)*zid;
    const uint blockIdx_y =
        (blockIdx.y + blockIdx.z * gridDim.y) - (blocks_y)*wid;
    const uint xid = blockIdx_x * blockDim.x + tidx;
    const uint yid = blockIdx_y;  // yid  of output. updated for input later.

    uint ids[4] = {xid, yid, zid, wid};

    const T *iptr = in.ptr;
    T *optr       = out.ptr;

    // There is only one element per block for out
    // There are blockDim.y elements per block for in
    // Hence increment ids[dim] just after offseting out and before offsetting
    // in
    bool rlen_valid = (ids[0] < rlen.dims[0]) && (ids[1] < rlen.dims[1]) &&
                      (ids[2] < rlen.dims[2]) && (ids[3] < rlen.dims[3]);
    const uint *rlenptr = (rlen.ptr && rlen_valid)
                              ? rlen.ptr + ids[3] * rlen.strides[3] +
                                    ids[2] * rlen.strides[2] +
                                    ids[1] * rlen.strides[1] + ids[0]
                              : nullptr;

    optr += ids[3] * out.strides[3] + ids[2] * out.strides[2] +
            ids[1] * out.strides[1] + ids[0];
    olptr += ids[3] * out.strides[3] + ids[2] * out.strides[2] +
             ids[1] * out.strides[1] + ids[0];

    const uint blockIdx_dim = ids[dim];

    ids[dim] = ids[dim] * blockDim.y + tidy;
    iptr += ids[3] * in.strides[3] + ids[2] * in.strides[2] +
            ids[1] * in.strides[1] + ids[0];
    if (!is_first)
        ilptr += ids[3] * in.strides[3] + ids[2] * in.strides[2] +
                 ids[1] * in.strides[1] + ids[0];
    const uint id_dim_in = ids[dim];

    const uint istride_dim = in.strides[dim];

    bool is_valid = (ids[0] < in.dims[0]) && (ids[1] < in.dims[1]) &&
                    (ids[2] < in.dims[2]) && (ids[3] < in.dims[3]);

    T val    = common::Binary<T, op>::init();
    uint idx = id_dim_in;

    uint lim = (rlenptr) ? *rlenptr : in.dims[dim];
    lim      = (is_first) ? min((uint)in.dims[dim], lim) : lim;
    bool within_ragged_bounds =
        (is_first) ? (idx < lim)
                   : ((rlenptr) ? ((is_valid) && (*ilptr < lim)) : true);
    if (is_valid && id_dim_in < in.dims[dim] && within_ragged_bounds) {
        val = *iptr;
        if (!is_first) idx = *ilptr;
    }

    MinMaxOp<op, T> Op(val, idx);

    const uint id_dim_in_start = id_dim_in + offset_dim * blockDim.y;

    __shared__ T s_val[THREADS_X * DIMY];
    __shared__ uint s_idx[THREADS_X * DIMY];

    for (int id = id_dim_in_start; is_valid && (id < lim);
         id += offset_dim * blockDim.y) {
        iptr = iptr + offset_dim * blockDim.y * istride_dim;
        if (!is_first) {
            ilptr = ilptr + offset_dim * blockDim.y * istride_dim;
            Op(*iptr, *ilptr);
        } else {
            Op(*iptr, id);
        }
    }

    s_val[tid] = Op.m_val;
    s_idx[tid] = Op.m_idx;

    T *s_vptr    = s_val + tid;
    uint *s_iptr = s_idx + tid;
    __syncthreads();

    if (DIMY == 8) {
        if (tidy < 4) {
            Op(s_vptr[THREADS_X * 4], s_iptr[THREADS_X * 4]);
            *s_vptr = Op.m_val;
            *s_iptr = Op.m_idx;
        }
        __syncthreads();
    }

    if (DIMY >= 4) {
        if (tidy < 2) {
            Op(s_vptr[THREADS_X * 2], s_iptr[THREADS_X * 2]);
            *s_vptr = Op.m_val;
            *s_iptr = Op.m_idx;
        }
        __syncthreads();
    }

    if (DIMY >= 2) {
        if (tidy < 1) {
            Op(s_vptr[THREADS_X * 1], s_iptr[THREADS_X * 1]);
            *s_vptr = Op.m_val;
            *s_iptr = Op.m_idx;
        }
        __syncthreads();
    }

    if (tidy == 0 && is_valid && (blockIdx_dim < out.dims[dim])) {
        *optr  = *s_vptr;
        *olptr = *s_iptr;
    }
}

template<typename T, af_op_t op>
__device__ void warp_reduce(T *s_ptr, uint *s_idx, uint tidx) {
    MinMaxOp<op, T> Op(s_ptr[tidx], s_idx[tidx]);
#pragma unroll
    for (int n = 16; n >= 1; n >>= 1) {
        if (tidx < n) {
            Op(s_ptr[tidx + n], s_idx[tidx + n]);
            s_ptr[tidx] = Op.m_val;
            s_idx[tidx] = Op.m_idx;
        }
        __syncthreads();
    }
}

template<typename T, af_op_t op, bool is_first, uint DIMX>
__global__ static void ireduceFirst(Param<T> out, uint *olptr, CParam<T> in,
                                    const uint *ilptr, uint blocks_x,
                                    uint blocks_y, uint repeat,
                                    CParam<uint> rlen) {
    const uint tidx = threadIdx.x;
    const uint tidy = threadIdx.y;
    const uint tid  = tidy * blockDim.x + tidx;

    const uint zid        = blockIdx.x / blocks_x;
    const uint wid        = (blockIdx.y + blockIdx.z * gridDim.y) / blocks_y;
    const uint blockIdx_x = blockIdx.x - (blocks_x)*zid;
    const uint blockIdx_y =
        (blockIdx.y + blockIdx.z * gridDim.y) - (blocks_y)*wid;
    const uint xid = blockIdx_x * blockDim.x * repeat + tidx;
    const uint yid = blockIdx_y * blockDim.y + tidy;

    const data_t<T> *iptr = in.ptr;
    data_t<T> *optr       = out.ptr;
    const uint *rlenptr   = (rlen.ptr) ? rlen.ptr + wid * rlen.strides[3] +
                                           zid * rlen.strides[2] +
                                           yid * rlen.strides[1]
                                       : nullptr;

    iptr += wid * in.strides[3] + zid * in.strides[2] + yid * in.strides[1];
    optr += wid * out.strides[3] + zid * out.strides[2] + yid * out.strides[1];

    if (!is_first)
        ilptr +=
            wid * in.strides[3] + zid * in.strides[2] + yid * in.strides[1];
    olptr += wid * out.strides[3] + zid * out.strides[2] + yid * out.strides[1];

    if (yid >= in.dims[1] || zid >= in.dims[2] || wid >= in.dims[3]) return;

    int minlen = rlenptr ? min(*rlenptr, in.dims[0]) : in.dims[0];
    int lim    = min((int)(xid + repeat * DIMX), minlen);

    compute_t<T> val = common::Binary<compute_t<T>, op>::init();
    uint idx         = xid;

    if (xid < lim) {
        val = static_cast<compute_t<T>>(iptr[xid]);
        if (!is_first) idx = ilptr[xid];
    }

    MinMaxOp<op, compute_t<T>> Op(val, idx);

    __shared__ compute_t<T> s_val[THREADS_PER_BLOCK];
    __shared__ uint s_idx[THREADS_PER_BLOCK];

    for (int id = xid + DIMX; id < lim; id += DIMX) {
        Op(static_cast<compute_t<T>>(iptr[id]), (!is_first) ? ilptr[id] : id);
    }

    s_val[tid] = Op.m_val;
    s_idx[tid] = Op.m_idx;
    __syncthreads();

    compute_t<T> *s_vptr = s_val + tidy * DIMX;
    uint *s_iptr         = s_idx + tidy * DIMX;

    if (DIMX == 256) {
        if (tidx < 128) {
            Op(s_vptr[tidx + 128], s_iptr[tidx + 128]);
            s_vptr[tidx] = Op.m_val;
            s_iptr[tidx] = Op.m_idx;
        }
        __syncthreads();
    }

    if (DIMX >= 128) {
        if (tidx < 64) {
            Op(s_vptr[tidx + 64], s_iptr[tidx + 64]);
            s_vptr[tidx] = Op.m_val;
            s_iptr[tidx] = Op.m_idx;
        }
        __syncthreads();
    }

    if (DIMX >= 64) {
        if (tidx < 32) {
            Op(s_vptr[tidx + 32], s_iptr[tidx + 32]);
            s_vptr[tidx] = Op.m_val;
            s_iptr[tidx] = Op.m_idx;
        }
        __syncthreads();
    }

    warp_reduce<compute_t<T>, op>(s_vptr, s_iptr, tidx);

    if (tidx == 0) {
        optr[blockIdx_x]  = s_vptr[0];
        olptr[blockIdx_x] = s_iptr[0];
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

// rlen (ragged lengths) is ArrayFire's empty CParam: a null pointer, no dims
__device__ afc::CParam<uint> no_rlen() {
    afc::CParam<uint> r;
    r.ptr = nullptr;
    for (int k = 0; k < 4; k++) r.dims[k] = r.strides[k] = 0;
    return r;
}
// ireduceFirst: the arg-max/min of each row of d0 (d1 rows); out and olptr hold bx values a row
#define AF_IREDUCE_FIRST(name, op, dimx)                                                                    \
    extern "C" __global__ void name(float *out, uint *olptr, const float *in, int d0, int d1, uint bx, uint by, \
                                    uint repeat) {                                                           \
        afc::ireduceFirst<float, op, true, dimx>(dense<afc::Param<float>>(out, bx, d1), olptr,                \
                                                 dense<afc::CParam<float>>(in, d0, d1), nullptr, bx, by, repeat, no_rlen()); \
    }
AF_IREDUCE_FIRST(af_ireduce_first_max_256_f32, af_max_t, 256)
AF_IREDUCE_FIRST(af_ireduce_first_min_256_f32, af_min_t, 256)
AF_IREDUCE_FIRST(af_ireduce_first_max_32_f32, af_max_t, 32)
// ireduceDim along dim 1: the arg-max of each column of a d0 x d1 matrix, DIMY 8
extern "C" __global__ void af_ireduce_dim1_max_f32(float *out, uint *olptr, const float *in, int d0, int d1, uint bx,
                                                   uint by, uint offset_dim) {
    afc::ireduceDim<float, af_max_t, 1, true, 8>(dense<afc::Param<float>>(out, d0, by), olptr,
                                                 dense<afc::CParam<float>>(in, d0, d1), nullptr, bx, by, offset_dim,
                                                 no_rlen());
}
