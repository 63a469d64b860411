// Pre-registered public kernel (not written for memsim): arrayfire/arrayfire
// ArrayFire's CUDA data-movement kernels: transpose, memCopy / memCopyLoop1, reorder, tile, diff
// and histogram, copied for memsim's ninth pre-registered set (validate/prereg9_cases.py).
//
// Repository: arrayfire/arrayfire, commit 492718b5a256d4a9d5198fdce89d8fd21772bfda
// Paths: src/backend/cuda/kernel/{transpose,memcopy,reorder,tile,diff,histogram}.cuh
// Licence: BSD-3-Clause (Copyright (c) 2014-2025, ArrayFire; text in validate/prereg9/LICENSES.md)
//
// ArrayFire compiles these files at run time with NVRTC, the host code (kernel/*.hpp) passing the
// defines (TILE_DIM, THREADS_Y, THRD_LOAD, MAX_BINS) and naming the template instance. Edits, all
// outside the kernel bodies, which are unchanged:
// - the #include lines of each file are replaced by the prelude below: the Param/CParam structs
//   (Param.hpp: four dims, four strides, a pointer; here plain structs of the same layout with
//   the members in ArrayFire's order), SharedMemory (kernel/shared.hpp's NVRTC branch), conj,
//   compute_t / data_t of real types (types.hpp / math.hpp), the defines ArrayFire's host code
//   passes, with its values;
// - the kernels take Param structs by value, which a launch here cannot spell (buffers and
//   scalars only), so each is compiled as a __device__ function (`__global__` redefined as __device__
//   around the copied code, and back to __attribute__((global)) after) and called by an extern "C" __global__ wrapper at the end of the
//   file that takes the pointers and dims and builds the Params as ArrayFire's host code does
//   (dense, column-major: strides 1, d0, d0*d1, d0*d1*d2). The wrapper is the launched kernel:
//   its body is one call, inlined.
// - ArrayFire's `#pragma once` lines are dropped (one file).

typedef long long dim_t;
typedef unsigned int uint;

namespace arrayfire {
namespace cuda {
template<typename T> struct Param { dim_t dims[4]; dim_t strides[4]; T *ptr; };
template<typename T> struct CParam { dim_t dims[4]; dim_t strides[4]; const T *ptr; };
template<typename T> struct SharedMemory {
    __device__ T *getPointer() { extern __shared__ T ptr[]; return ptr; }
};
template<typename T> __device__ T conj(T in) { return in; }   // real types
template<typename T> using compute_t = T;                      // real types
template<typename T> using data_t = T;
}  // namespace cuda
}  // namespace arrayfire

#define TILE_DIM 32      // kernel/transpose.hpp
#define THREADS_Y 8      // 256 / TILE_DIM
#define THRD_LOAD 16     // kernel/histogram.hpp
#define MAX_BINS 4000

#undef __global__                 // ArrayFire's kernels as device functions (see the header)
#define __global__ __device__

// ---- src/backend/cuda/kernel/transpose.cuh
namespace arrayfire {
namespace cuda {

template<typename T, bool conjugate>
__device__ T doOp(T in) {
    if (conjugate)
        return conj(in);
    else
        return in;
}

template<typename T, bool conjugate, bool is32Multiple>
__global__ void transpose(Param<T> out, CParam<T> in, const int blocksPerMatX,
                          const int blocksPerMatY) {
    __shared__ T shrdMem[TILE_DIM][TILE_DIM + 1];

    const int oDim0 = out.dims[0];
    const int oDim1 = out.dims[1];
    const int iDim0 = in.dims[0];
    const int iDim1 = in.dims[1];

    const int oStride1 = out.strides[1];
    const int iStride1 = in.strides[1];

    const int lx = threadIdx.x;
    const int ly = threadIdx.y;

    const int batchId_x  = blockIdx.x / blocksPerMatX;
    const int blockIdx_x = (blockIdx.x - batchId_x * blocksPerMatX);

    const int batchId_y = (blockIdx.y + blockIdx.z * gridDim.y) / blocksPerMatY;
    const int blockIdx_y =
        (blockIdx.y + blockIdx.z * gridDim.y) - (batchId_y * blocksPerMatY);

    if (batchId_x >= in.dims[2] || batchId_y >= in.dims[3]) return;

    const int x0 = TILE_DIM * blockIdx_x;
    const int y0 = TILE_DIM * blockIdx_y;

    int gx = lx + x0;
    int gy = ly + y0;

    in.ptr += batchId_x * in.strides[2] + batchId_y * in.strides[3];
    out.ptr += batchId_x * out.strides[2] + batchId_y * out.strides[3];

#pragma unroll
    for (int repeat = 0; repeat < TILE_DIM; repeat += THREADS_Y) {
        int gy_ = gy + repeat;
        if (is32Multiple || (gx < iDim0 && gy_ < iDim1))
            shrdMem[ly + repeat][lx] = in.ptr[gy_ * iStride1 + gx];
    }
    __syncthreads();

    gx = lx + y0;
    gy = ly + x0;

#pragma unroll
    for (int repeat = 0; repeat < TILE_DIM; repeat += THREADS_Y) {
        int gy_ = gy + repeat;
        if (is32Multiple || (gx < oDim0 && gy_ < oDim1))
            out.ptr[gy_ * oStride1 + gx] =
                doOp<T, conjugate>(shrdMem[lx][ly + repeat]);
    }
}

}  // namespace cuda
}  // namespace arrayfire

// ---- src/backend/cuda/kernel/memcopy.cuh
namespace arrayfire {
namespace cuda {

// memCopy without looping, so dim3 has to be 1.
// conditions:
//      kernel dims[0] >= dims[0]
//      kernel dims[1] >= dims[1]
//      kernel dims[2] == dims[2]
//      only dims[3] == 1 will be processed!!
template<typename T>
__global__ void memCopy(Param<T> out, CParam<T> in) {
    const int id0 = blockIdx.x * blockDim.x + threadIdx.x;  // Limit 2G
    const int id1 = blockIdx.y * blockDim.y + threadIdx.y;  // Limit 64K
    if ((id0 < (int)in.dims[0]) & (id1 < (int)in.dims[1])) {
        const int id2 = blockIdx.z * blockDim.z + threadIdx.z;  // Limit 64K

        out.ptr[id0 * (int)out.strides[0] + id1 * (int)out.strides[1] +
                id2 * (int)out.strides[2]] =
            in.ptr[id0 * (int)in.strides[0] + id1 * (int)in.strides[1] +
                   id2 * (int)in.strides[2]];
    }
}

// memCopy with looping over dims[0] -- VECTOR ONLY
// Conditions:
//      kernel dims[0] has no restrictions
//      only dims[1] == 1 will be processed!!
//      only dims[2] == 1 will be procesed!!
//      only dims[3] == 1 will be processed!!
template<typename T>
__global__ void memCopyLoop0(Param<T> out, CParam<T> in) {
    int id0          = blockIdx.x * blockDim.x + threadIdx.x;  // Limit 2G
    const int idims0 = in.dims[0];
    if (id0 < idims0) {
        const int incID0        = gridDim.x * blockDim.x;
        const int istrides0     = in.strides[0];
        int idx_in              = id0 * istrides0;
        const int idxIncID0_in  = incID0 * istrides0;
        const int ostrides0     = out.strides[0];
        int idx_out             = id0 * ostrides0;
        const int idxIncID0_out = incID0 * ostrides0;

        do {
            out.ptr[idx_out] = in.ptr[idx_in];
            id0 += incID0;
            if (id0 >= idims0) break;
            idx_in += idxIncID0_in;
            idx_out += idxIncID0_out;
        } while (true);
    }
}

// memCopy with looping over dims[1]
// Conditions:
//      kernel dims[0] >= dims[0]
//      kernel dims[1] has no restrictions
//      kernel dims[2] == dims[2]
//      only dims[3] == 1 will be processed!!
template<typename T>
__global__ void memCopyLoop1(Param<T> out, CParam<T> in) {
    const int id0    = blockIdx.x * blockDim.x + threadIdx.x;  // Limit 2G
    int id1          = blockIdx.y * blockDim.y + threadIdx.y;  // Limit 64K
    const int idims1 = in.dims[1];
    if ((id0 < (int)in.dims[0]) & (id1 < idims1)) {
        const int id2 = blockIdx.z * blockDim.z + threadIdx.z;  // Limit 64K
        const int istrides1 = in.strides[1];
        int idx_in          = id0 * (int)in.strides[0] + id1 * istrides1 +
                     id2 * (int)in.strides[2];
        const int incID1       = gridDim.y * blockDim.y;
        const int idxIncID1_in = incID1 * istrides1;
        const int ostrides1    = out.strides[1];
        int idx_out            = id0 * (int)out.strides[0] + id1 * ostrides1 +
                      id2 * (int)out.strides[2];
        const int idxIncID1_out = incID1 * ostrides1;

        do {
            out.ptr[idx_out] = in.ptr[idx_in];
            id1 += incID1;
            if (id1 >= idims1) break;
            idx_in += idxIncID1_in;
            idx_out += idxIncID1_out;
        } while (true);
    }
}

// memCopy with looping over dims[3]
// Conditions:
//      kernel dims[0] >= dims[0]
//      kernel dims[1] >= dims[1]
//      kernel dims[2] == dims[2]
template<typename T>
__global__ void memCopyLoop3(Param<T> out, CParam<T> in) {
    const int id0 = blockIdx.x * blockDim.x + threadIdx.x;  // Limit 2G
    const int id1 = blockIdx.y * blockDim.y + threadIdx.y;  // Limit 64K
    if ((id0 < (int)in.dims[0]) & (id1 < (int)in.dims[1])) {
        const int id2 = blockIdx.z * blockDim.z + threadIdx.z;  // Limit 64K
        int idx_in    = id0 * (int)in.strides[0] + id1 * (int)in.strides[1] +
                     id2 * (int)in.strides[2];
        const int idxIncID3_in = in.strides[3];
        const int idxEnd_in    = (int)in.dims[3] * idxIncID3_in + idx_in;
        int idx_out = id0 * (int)out.strides[0] + id1 * (int)out.strides[1] +
                      id2 * (int)out.strides[2];
        const int idxIncID3_out = out.strides[3];

        do {
            out.ptr[idx_out] = in.ptr[idx_in];
            idx_in += idxIncID3_in;
            if (idx_in == idxEnd_in) break;
            idx_out += idxIncID3_out;
        } while (true);
    }
}

// memCopy with looping over dims[1] and dims[3]
// Conditions:
//      kernel dims[0] >= dims[0]
//      kernel dims[1] has no restrictions
//      kernel dims[2] == dims[2]
template<typename T>
__global__ void memCopyLoop13(Param<T> out, CParam<T> in) {
    const int id0    = blockIdx.x * blockDim.x + threadIdx.x;  // Limit 2G
    int id1          = blockIdx.y * blockDim.y + threadIdx.y;  // Limit 64K
    const int idims1 = in.dims[1];
    if ((id0 < (int)in.dims[0]) & (g1 < idims1)) {
        const int id2 = blockIdx.z * blockDim.z + threadIdx.z;  // Limit 64K
        const int istrides1 = in.strides[1];
        int idxBase_in      = id0 * (int)in.strides[0] + id1 * istrides1 +
                         id2 * (int)in.strides[2];
        const int incID1           = gridDim.y * blockDim.y;
        const int idxBaseIncID1_in = incID1 * istrides1;
        const int idxIncID3_in     = (int)in.strides[3];
        int idxEndID3_in = (int)in.dims[3] * idxIncID3_in + idxBase_in;
        int idxBase_out  = id0 * (int)out.strides[0] +
                          id1 * (int)out.strides[1] + id2 * (int)out.strides[2];
        const int idxBaseIncID1_out = incID1 * (int)out.strides[1];
        const int idxIncID3_out     = (int)out.strides[3];

        do {
            int idx_in  = idxBase_in;
            int idx_out = idxBase_out;
            while (true) {
                out.ptr[idx_out] = in.ptr[idx_in];
                idx_in += idxIncID3_in;
                if (idx_in == idxEndID3_in) break;
                idx_out += idxIncID3_out;
            }
            id1 += incID1;
            if (id1 >= idims1) break;
            idxBase_in += idxBaseIncID1_in;
            idxEndID3_in += idxBaseIncID1_in;
            idxBase_out += idxBaseIncID1_out;
        } while (true);
    }
}

// memCopy with looping over dims[1],dims[2] and dims[3]
// Conditions:
//      kernel dims[0] >= dims[0]
//      kernel dims[1] has no restrictions
//      kernel dims[2] <= dims[2]
template<typename T>
__global__ void memCopyLoop123(Param<T> out, CParam<T> in) {
    const int id0    = blockIdx.x * blockDim.x + threadIdx.x;  // Limit 2G
    int id1          = blockIdx.y * blockDim.y + threadIdx.y;  // Limit 64K
    const int idims1 = in.dims[1];
    if ((id0 < (int)in.dims[0]) & (id1 < idims1)) {
        int id2 = blockIdx.z * blockDim.z + threadIdx.z;  // Limit 64K
        const int istrides1 = in.strides[1];
        const int istrides2 = in.strides[2];
        int idxBaseBase_in =
            id0 * (int)in.strides[0] + id1 * istrides1 + id2 * istrides2;
        const int incID1           = gridDim.y * blockDim.y;
        const int idxBaseIncID1_in = incID1 * istrides1;
        const int incID2           = gridDim.z * blockDim.z;
        const int idxBaseIncID2_in = incID2 * istrides2;
        const int idxIncID3_in     = in.strides[3];
        const int idxEndIncID3_in  = (int)in.dims[3] * idxIncID3_in;

        const int ostrides1 = out.strides[1];
        const int ostrides2 = out.strides[2];
        int idxBaseBase_out =
            id0 * (int)out.strides[0] + id1 * ostrides1 + id2 * ostrides2;
        const int idxBaseIncID1_out = incID1 * ostrides1;
        const int idxBaseIncID2_out = incID2 * ostrides2;
        const int idxIncID3_out     = out.strides[3];
        const int idims2            = in.dims[2];

        do {
            int idxBase_in  = idxBaseBase_in;
            int idxBase_out = idxBaseBase_out;
            do {
                int idxEndID3_in = idxEndIncID3_in + idxBase_in;
                int idx_in       = idxBase_in;
                int idx_out      = idxBase_out;
                do {
                    out.ptr[idx_out] = in.ptr[idx_in];
                    idx_in += idxIncID3_in;
                    if (idx_in == idxEndID3_in) break;
                    idx_out += idxIncID3_out;
                } while (true);
                id1 += incID1;
                if (id1 >= idims1) break;
                idxBase_in += idxBaseIncID1_in;
                idxBase_out += idxBaseIncID1_out;
            } while (true);
            id2 += incID2;
            if (id2 >= idims2) break;
            idxBaseBase_in += idxBaseIncID2_in;
            idxBaseBase_out += idxBaseIncID2_out;
        } while (true);
    }
}
}  // namespace cuda
}  // namespace arrayfire

// ---- src/backend/cuda/kernel/reorder.cuh
namespace arrayfire {
namespace cuda {

template<typename T>
__global__ void reorder(Param<T> out, CParam<T> in, const int d0, const int d1,
                        const int d2, const int d3, const int blocksPerMatX,
                        const int blocksPerMatY) {
    const int oz = blockIdx.x / blocksPerMatX;
    const int ow = (blockIdx.y + blockIdx.z * gridDim.y) / blocksPerMatY;

    const int blockIdx_x = blockIdx.x - oz * blocksPerMatX;
    const int blockIdx_y =
        (blockIdx.y + blockIdx.z * gridDim.y) - ow * blocksPerMatY;

    const int xx = threadIdx.x + blockIdx_x * blockDim.x;
    const int yy = threadIdx.y + blockIdx_y * blockDim.y;

    if (xx >= out.dims[0] || yy >= out.dims[1] || oz >= out.dims[2] ||
        ow >= out.dims[3])
        return;

    const int incy = blocksPerMatY * blockDim.y;
    const int incx = blocksPerMatX * blockDim.x;

    const int rdims[] = {d0, d1, d2, d3};
    const int o_off   = ow * out.strides[3] + oz * out.strides[2];
    int ids[4]        = {0};
    ids[rdims[3]]     = ow;
    ids[rdims[2]]     = oz;

    for (int oy = yy; oy < out.dims[1]; oy += incy) {
        ids[rdims[1]] = oy;
        for (int ox = xx; ox < out.dims[0]; ox += incx) {
            ids[rdims[0]] = ox;

            const int oIdx = o_off + oy * out.strides[1] + ox;

            const int iIdx = ids[3] * in.strides[3] + ids[2] * in.strides[2] +
                             ids[1] * in.strides[1] + ids[0];

            out.ptr[oIdx] = in.ptr[iIdx];
        }
    }
}

}  // namespace cuda
}  // namespace arrayfire

// ---- src/backend/cuda/kernel/tile.cuh
namespace arrayfire {
namespace cuda {

template<typename T>
__global__ void tile(Param<T> out, CParam<T> in, const int blocksPerMatX,
                     const int blocksPerMatY) {
    const int oz = blockIdx.x / blocksPerMatX;
    const int ow = (blockIdx.y + blockIdx.z * gridDim.y) / blocksPerMatY;

    const int blockIdx_x = blockIdx.x - oz * blocksPerMatX;
    const int blockIdx_y =
        (blockIdx.y + blockIdx.z * gridDim.y) - ow * blocksPerMatY;

    const int xx = threadIdx.x + blockIdx_x * blockDim.x;
    const int yy = threadIdx.y + blockIdx_y * blockDim.y;

    if (xx >= out.dims[0] || yy >= out.dims[1] || oz >= out.dims[2] ||
        ow >= out.dims[3])
        return;

    const int iz  = oz % in.dims[2];
    const int iw  = ow % in.dims[3];
    const int izw = iw * in.strides[3] + iz * in.strides[2];
    const int ozw = ow * out.strides[3] + oz * out.strides[2];

    const int incy = blocksPerMatY * blockDim.y;
    const int incx = blocksPerMatX * blockDim.x;

    for (int oy = yy; oy < out.dims[1]; oy += incy) {
        const int iy = oy % in.dims[1];
        for (int ox = xx; ox < out.dims[0]; ox += incx) {
            const int ix = ox % in.dims[0];

            int iMem = izw + iy * in.strides[1] + ix;
            int oMem = ozw + oy * out.strides[1] + ox;

            out.ptr[oMem] = in.ptr[iMem];
        }
    }
}

}  // namespace cuda
}  // namespace arrayfire

// ---- src/backend/cuda/kernel/diff.cuh
namespace arrayfire {
namespace cuda {

template<typename T, bool D>
inline void diff_this(T* out, const T* in, const unsigned oMem,
                      const unsigned iMem0, const unsigned iMem1,
                      const unsigned iMem2) {
    // iMem2 can never be 0
    if (D == 0) {  // Diff1
        out[oMem] = in[iMem1] - in[iMem0];
    } else {  // Diff2
        out[oMem] = in[iMem2] - in[iMem1] - in[iMem1] + in[iMem0];
    }
}

template<typename T, unsigned dim, bool isDiff2>
__global__ void diff(Param<T> out, CParam<T> in, const unsigned oElem,
                     const unsigned blocksPerMatX,
                     const unsigned blocksPerMatY) {
    unsigned idz = blockIdx.x / blocksPerMatX;
    unsigned idw = (blockIdx.y + blockIdx.z * gridDim.y) / blocksPerMatY;

    unsigned blockIdx_x = blockIdx.x - idz * blocksPerMatX;
    unsigned blockIdx_y =
        (blockIdx.y + blockIdx.z * gridDim.y) - idw * blocksPerMatY;

    unsigned idx = threadIdx.x + blockIdx_x * blockDim.x;
    unsigned idy = threadIdx.y + blockIdx_y * blockDim.y;

    if (idx >= out.dims[0] || idy >= out.dims[1] || idz >= out.dims[2] ||
        idw >= out.dims[3])
        return;

    unsigned iMem0 =
        idw * in.strides[3] + idz * in.strides[2] + idy * in.strides[1] + idx;
    unsigned iMem1 = iMem0 + in.strides[dim];
    unsigned iMem2 = iMem1 + in.strides[dim];

    unsigned oMem = idw * out.strides[3] + idz * out.strides[2] +
                    idy * out.strides[1] + idx;

    iMem2 *= isDiff2;

    diff_this<T, isDiff2>(out.ptr, in.ptr, oMem, iMem0, iMem1, iMem2);
}

}  // namespace cuda
}  // namespace arrayfire

// ---- src/backend/cuda/kernel/histogram.cuh
namespace arrayfire {
namespace cuda {

template<typename T, bool isLinear>
__global__ void histogram(Param<uint> out, CParam<T> in, int len, int nbins,
                          float minval, float maxval, int nBBS) {
    SharedMemory<uint> shared;
    uint *shrdMem = shared.getPointer();

    // offset input and output to account for batch ops
    unsigned b2 = blockIdx.x / nBBS;
    const data_t<T> *iptr =
        in.ptr + b2 * in.strides[2] + blockIdx.y * in.strides[3];
    uint *optr = out.ptr + b2 * out.strides[2] + blockIdx.y * out.strides[3];

    int start = (blockIdx.x - b2 * nBBS) * THRD_LOAD * blockDim.x + threadIdx.x;
    int end   = min((start + THRD_LOAD * blockDim.x), len);
    float step = (maxval - minval) / (float)nbins;
    compute_t<T> minvalT(minval);

    // If nbins > max shared memory allocated, then just use atomicAdd on global
    // memory
    bool use_global = nbins > MAX_BINS;

    // Skip initializing shared memory
    if (!use_global) {
        for (int i = threadIdx.x; i < nbins; i += blockDim.x) shrdMem[i] = 0;
        __syncthreads();
    }

    for (int row = start; row < end; row += blockDim.x) {
        int idx =
            isLinear
                ? row
                : ((row % in.dims[0]) + (row / in.dims[0]) * in.strides[1]);
        int bin =
            (int)(static_cast<float>(compute_t<T>(iptr[idx]) - minvalT) / step);
        bin = (bin < 0) ? 0 : bin;
        bin = (bin >= nbins) ? (nbins - 1) : bin;

        if (use_global) {
            atomicAdd((optr + bin), 1);
        } else {
            atomicAdd((shrdMem + bin), 1);
        }
    }

    // No need to write to global if use_global is true
    if (!use_global) {
        __syncthreads();
        for (int i = threadIdx.x; i < nbins; i += blockDim.x) {
            atomicAdd((optr + i), shrdMem[i]);
        }
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

// in: d0 x d1 x batch, out: d1 x d0 x batch
extern "C" __global__ void af_transpose_f32(float *out, const float *in, int d0, int d1, int batch, int bx, int by) {
    afc::transpose<float, false, false>(dense<afc::Param<float>>(out, d1, d0, batch), dense<afc::CParam<float>>(in, d0, d1, batch), bx, by);
}
extern "C" __global__ void af_transpose32_f32(float *out, const float *in, int d0, int d1, int batch, int bx, int by) {
    afc::transpose<float, false, true>(dense<afc::Param<float>>(out, d1, d0, batch), dense<afc::CParam<float>>(in, d0, d1, batch), bx, by);
}
extern "C" __global__ void af_transpose_f64(double *out, const double *in, int d0, int d1, int batch, int bx, int by) {
    afc::transpose<double, false, false>(dense<afc::Param<double>>(out, d1, d0, batch), dense<afc::CParam<double>>(in, d0, d1, batch), bx, by);
}
// a sub-array copy: the d0 x d1 x d2 corner of `in` (rows of in_d0) into a dense `out`
extern "C" __global__ void af_memcopy_f32(float *out, const float *in, int d0, int d1, int d2, int in_d0, int in_d1) {
    afc::CParam<float> src = dense<afc::CParam<float>>(in, in_d0, in_d1, d2);
    src.dims[0] = d0; src.dims[1] = d1;
    afc::memCopy<float>(dense<afc::Param<float>>(out, d0, d1, d2), src);
}
extern "C" __global__ void af_memcopy_loop1_f32(float *out, const float *in, int d0, int d1, int in_d0) {
    afc::CParam<float> src = dense<afc::CParam<float>>(in, in_d0, d1);
    src.dims[0] = d0;
    afc::memCopyLoop1<float>(dense<afc::Param<float>>(out, d0, d1), src);
}
// out = in with its dims permuted: out dim k is in dim (p0, p1, p2, p3)[k]
extern "C" __global__ void af_reorder_f32(float *out, const float *in, int i0, int i1, int i2, int i3,
                                          int p0, int p1, int p2, int p3, int bx, int by) {
    const int id[4] = {i0, i1, i2, i3};
    afc::reorder<float>(dense<afc::Param<float>>(out, id[p0], id[p1], id[p2], id[p3]),
                       dense<afc::CParam<float>>(in, i0, i1, i2, i3), p0, p1, p2, p3, bx, by);
}
extern "C" __global__ void af_tile_f32(float *out, const float *in, int i0, int i1, int i2, int t0, int t1, int t2,
                                       int bx, int by) {
    afc::tile<float>(dense<afc::Param<float>>(out, i0 * t0, i1 * t1, i2 * t2), dense<afc::CParam<float>>(in, i0, i1, i2), bx, by);
}
// first difference along dim 0 (out d0 - 1 x d1) or second along dim 1 (out d0 x d1 - 2)
extern "C" __global__ void af_diff1_dim0_f32(float *out, const float *in, int d0, int d1, int bx, int by) {
    afc::diff<float, 0, false>(dense<afc::Param<float>>(out, d0 - 1, d1), dense<afc::CParam<float>>(in, d0, d1),
                              (d0 - 1) * d1, bx, by);
}
extern "C" __global__ void af_diff2_dim1_f32(float *out, const float *in, int d0, int d1, int bx, int by) {
    afc::diff<float, 1, true>(dense<afc::Param<float>>(out, d0, d1 - 2), dense<afc::CParam<float>>(in, d0, d1),
                             d0 * (d1 - 2), bx, by);
}
extern "C" __global__ void af_histogram_f32(uint *out, const float *in, int len, int nbins, float minval, float maxval, int nBBS) {
    afc::histogram<float, true>(dense<afc::Param<uint>>(out, nbins), dense<afc::CParam<float>>(in, len), len, nbins,
                               minval, maxval, nBBS);
}
extern "C" __global__ void af_histogram_u8(uint *out, const unsigned char *in, int len, int nbins, float minval, float maxval, int nBBS) {
    afc::histogram<unsigned char, true>(dense<afc::Param<uint>>(out, nbins), dense<afc::CParam<unsigned char>>(in, len),
                                       len, nbins, minval, maxval, nBBS);
}
