"""numba.cuda kernels for the `numba` case set (validate/numba_cases.py): the idioms of numba's
own documentation and tutorials, each named k_* (ncu profiles kernels named ^k_).

They are compiled here by memsim.numba_cuda (numba.cuda.compile_ptx for sm_90) and the PTX is kept in
validate/numba_ptx/, so the GPU machine needs no numba: it links the same PTX with the same nvJitLink.
"""
import math

from numba import cuda, float32, int32

TILE = 32
TILE_PADDED = TILE + 1
BLOCK = 256
NBINS = 64


@cuda.jit
def k_vector_add(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


@cuda.jit
def k_saxpy(alpha, x, y):
    i = cuda.grid(1)
    if i < x.size:
        y[i] = alpha * x[i] + y[i]


@cuda.jit
def k_grid_stride_scale(x, out, factor):
    # int32 bounds: with numba's int64 ones the trip count needs a 64-bit division, whose
    # IMAD.HI.U32 with carry-out the SASS engine does not run yet
    n = int32(x.shape[0])
    for i in range(int32(cuda.grid(1)), n, int32(cuda.gridsize(1))):
        out[i] = x[i] * factor


@cuda.jit
def k_strided_copy(src, dst, stride):
    i = cuda.grid(1)
    if i < dst.size:
        dst[i] = src[i * stride]


@cuda.jit
def k_transpose_naive(a, out):
    x, y = cuda.grid(2)
    if y < a.shape[0] and x < a.shape[1]:
        out[x, y] = a[y, x]


@cuda.jit
def k_transpose_tiled(a, out):
    tile = cuda.shared.array((TILE, TILE_PADDED), float32)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    x = cuda.blockIdx.x * TILE + tx
    y = cuda.blockIdx.y * TILE + ty
    if y < a.shape[0] and x < a.shape[1]:
        tile[ty, tx] = a[y, x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * TILE + tx
    y = cuda.blockIdx.x * TILE + ty
    if y < out.shape[0] and x < out.shape[1]:
        out[y, x] = tile[tx, ty]


@cuda.jit
def k_transpose_tiled_conflicts(a, out):
    tile = cuda.shared.array((TILE, TILE), float32)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    x = cuda.blockIdx.x * TILE + tx
    y = cuda.blockIdx.y * TILE + ty
    if y < a.shape[0] and x < a.shape[1]:
        tile[ty, tx] = a[y, x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * TILE + tx
    y = cuda.blockIdx.x * TILE + ty
    if y < out.shape[0] and x < out.shape[1]:
        out[y, x] = tile[tx, ty]


@cuda.jit
def k_sum_atomic(x, total):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(total, 0, x[i])


@cuda.jit
def k_sum_shared(x, total):
    partial = cuda.shared.array(BLOCK, float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    partial[tid] = x[i] if i < x.size else float32(0.0)
    cuda.syncthreads()
    step = BLOCK // 2
    while step > 0:
        if tid < step:
            partial[tid] += partial[tid + step]
        cuda.syncthreads()
        step //= 2
    if tid == 0:
        cuda.atomic.add(total, 0, partial[0])


@cuda.jit
def k_matmul_naive(a, b, c):
    col, row = cuda.grid(2)
    if row < c.shape[0] and col < c.shape[1]:
        acc = float32(0.0)
        for k in range(a.shape[1]):
            acc += a[row, k] * b[k, col]
        c[row, col] = acc


@cuda.jit
def k_matmul_shared(a, b, c):
    sa = cuda.shared.array((TILE, TILE), float32)
    sb = cuda.shared.array((TILE, TILE), float32)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    col, row = cuda.grid(2)
    acc = float32(0.0)
    for t in range(a.shape[1] // TILE):
        sa[ty, tx] = a[row, t * TILE + tx]
        sb[ty, tx] = b[t * TILE + ty, col]
        cuda.syncthreads()
        for k in range(TILE):
            acc += sa[ty, k] * sb[k, tx]
        cuda.syncthreads()
    c[row, col] = acc


@cuda.jit
def k_stencil_1d(x, out):
    i = cuda.grid(1)
    if 0 < i < x.size - 1:
        out[i] = 0.25 * x[i - 1] + 0.5 * x[i] + 0.25 * x[i + 1]


@cuda.jit
def k_stencil_2d(u, out):
    j, i = cuda.grid(2)
    if 0 < i < u.shape[0] - 1 and 0 < j < u.shape[1] - 1:
        out[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])


@cuda.jit
def k_row_sums(a, sums):
    row = cuda.grid(1)
    if row < a.shape[0]:
        acc = float32(0.0)
        for j in range(a.shape[1]):
            acc += a[row, j]
        sums[row] = acc


@cuda.jit
def k_column_sums(a, sums):
    col = cuda.grid(1)
    if col < a.shape[1]:
        acc = float32(0.0)
        for i in range(a.shape[0]):
            acc += a[i, col]
        sums[col] = acc


@cuda.jit
def k_histogram(values, bins):
    i = cuda.grid(1)
    if i < values.size:
        cuda.atomic.add(bins, int32(values[i] * NBINS), 1)


@cuda.jit
def k_rsqrt_norm(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = 1.0 / math.sqrt(x[i] * x[i] + y[i] * y[i] + 1.0)
