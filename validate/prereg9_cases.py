"""The ninth pre-registered set (`validate run --cases prereg9`): ArrayFire's CUDA kernels
(arrayfire/arrayfire, BSD-3-Clause), a repository this project had never used, copied into
validate/prereg9/*.cu, whose launches were fixed, and recorded on the H100 into a sealed folder,
before any prediction of them was committed. Held out of every fit (validate.families), like
the first eight sets; built with the same machinery (validate.prereg_cases.PreregSet). Change
no launch once it is registered.

Source (each file's header comment: repository, paths, commit, licence and every edit; no
kernel body is changed; licence text in validate/prereg9/LICENSES.md; kernels left out, and
why: validate/prereg9/STATUS.md): arrayfire/arrayfire (BSD-3-Clause) src/backend/cuda/kernel/*.cuh,
the kernels ArrayFire compiles at run time with NVRTC, in six files: af_data.cu (transpose,
sub-array copies, reorder, tile, diff, histogram), af_filters.cu (2D and separable convolution,
Sobel, median filter: a sorting network in registers), af_smooth.cu (1D convolution of rows,
bilateral filter), af_scan.cu (prefix sums along rows, ArrayFire's multi-pass scan's first and
third passes, a count of non-zeros, column scans), af_gather.cu (lookups: a random gather, an
embedding table's columns, rows of a half matrix; COO to dense; CSR and COO arithmetic with a
dense matrix) and af_ireduce.cu (argmax / argmin of rows, e.g. greedy sampling over a
vocabulary, and of columns). ArrayFire's kernels take its Param structs (four dims, four
strides, a pointer) by value; a launch here passes buffers and scalars only, so each file
compiles the kernels as device functions and launches an extern "C" wrapper that builds the
Params as ArrayFire's host code does (dense, column-major) and calls the kernel once. Every
launch compiles with ArrayFire's own NVRTC option --device-as-default-execution-space
(PreregSet's options, in each launch's digest).

Launch shapes follow ArrayFire's host code (kernel/*.hpp): its block shapes (32 x 8 for
transpose, reorder, tile, lookups and column scans; 16 x 16 for diff, the 2D filters; 256
threads for histogram, 1D convolution, row scans and index reductions) and its grids
(blocksPerMat x batch). Sizes: images 640 x 480 to 4096 x 4096 pixels, matrices and tensors of
LLM shapes (hidden 4096, 1024-2048 tokens, 32 heads of 128, vocabularies 8192-32000), 2-64 MB
mostly, some past the 50 MB L2 (up to 128 MB), a few tiny. Every launch is in bounds and
deterministic: histogram's atomics add integers; indices come from randint within range; the
sparse kernels get one entry a row (no two threads write one element); the convolution
filters are ArrayFire's __constant__ arrays as loaded (zeros; see STATUS.md).

Sweeps (tag `sweep:<kernel>`, names `<kernel>_b<block>_<size>`): kernels whose loops take their
stride from blockDim or whose block width is a template ArrayFire picks by size, at four to six
block shapes over one problem, the grid following ArrayFire's host code: reorder, tile,
memCopy, histogram, diff and 1D convolution, five blocks each. The sweeps' scalars are the
same at every block: ArrayFire's blocksPerMat / nBBS arguments (blocks of one batch, used to
find the batch) are given as the largest grid of the sweep (any value at least the grid reads
the same elements with one batch), and the 1D convolution's wrapper takes nBBS from its block.
"""
from __future__ import annotations

from functools import partial
from pathlib import Path

from .case import Case
from .prereg_cases import PreregSet, _cdiv, _sweep, array_arg, scalar_arg

PREREG9_DIR = Path(__file__).parent / "prereg9"
SUITES = {"af_": "arrayfire/arrayfire"}
OPTIONS = ("--device-as-default-execution-space",)   # src/backend/cuda/compile_module.cpp
M1, M4, M16 = 1 << 20, 1 << 22, 1 << 24
BLOCKS_2D = [(32, 8), (64, 4), (16, 16), (128, 2), (256, 1)]

_f, _d, _u8 = partial(array_arg, "float32"), partial(array_arg, "float64"), partial(array_arg, "uint8")
_i, _u, _fs = partial(scalar_arg, "int32"), partial(scalar_arg, "uint32"), partial(scalar_arg, "float32")


def _transpose(kernel: str, d0: int, d1: int, batch: int, label: str, dtype=_f) -> tuple:
    """kernel/transpose.hpp: 32 x 8 threads, blocks (cdiv(d0, 32) x batch, cdiv(d1, 32))."""
    bx, by = _cdiv(d0, 32), _cdiv(d1, 32)
    return (f"af_{kernel}_{label}", "af_data.cu", f"af_{kernel}", (bx * batch, by), (32, 8),
            [dtype(d0 * d1 * batch, "zeros"), dtype(d0 * d1 * batch), _i(d0), _i(d1), _i(batch), _i(bx), _i(by)],
            ["transpose", "shared", "tile", "syncthreads", *(["batched"] if batch > 1 else [])])


def _tiles(out0: int, out1: int, block: tuple[int, ...], z: int = 1, w: int = 1) -> tuple[tuple, int, int]:
    """reorder/tile's grid (kernel/reorder.hpp, tile.hpp): 512 x 32 tiles, looped by blockDim."""
    bx, by = _cdiv(out0, 512), _cdiv(out1, 32)
    return (bx * z, by * w), bx, by


def _reorder(dims: tuple[int, int, int, int], perm: tuple[int, int, int, int], label: str, block=(32, 8)) -> tuple:
    out = [dims[p] for p in perm]
    grid, bx, by = _tiles(out[0], out[1], block, out[2], out[3])
    n = dims[0] * dims[1] * dims[2] * dims[3]
    return (f"af_reorder_{label}", "af_data.cu", "af_reorder_f32", grid, block,
            [_f(n, "zeros"), _f(n), *map(_i, dims), *map(_i, perm), _i(bx), _i(by)], ["reorder", "permute", "strided"])


def _reorder_args(dims, perm) -> tuple[list[str], list[int]]:
    out = [dims[p] for p in perm]
    n = dims[0] * dims[1] * dims[2] * dims[3]
    _, bx, by = _tiles(out[0], out[1], (32, 8), out[2], out[3])
    return [_f(n, "zeros"), _f(n), *map(_i, dims), *map(_i, perm), _i(bx), _i(by)], out


def _tile(i: tuple[int, int, int], t: tuple[int, int, int], label: str, tags: list[str]) -> tuple:
    out = [i[k] * t[k] for k in range(3)]
    grid, bx, by = _tiles(out[0], out[1], (32, 8), out[2])
    return (f"af_tile_{label}", "af_data.cu", "af_tile_f32", grid, (32, 8),
            [_f(out[0] * out[1] * out[2], "zeros"), _f(i[0] * i[1] * i[2]), *map(_i, i), *map(_i, t), _i(bx), _i(by)],
            ["tile", "broadcast", "modulo", *tags])


def _diff(kernel: str, d0: int, d1: int, label: str) -> tuple:
    """kernel/diff.hpp: 16 x 16 threads, blocks (cdiv(out d0, 16), cdiv(out d1, 16))."""
    o0, o1 = (d0 - 1, d1) if kernel == "diff1_dim0" else (d0, d1 - 2)
    bx, by = _cdiv(o0, 16), _cdiv(o1, 16)
    return (f"af_{kernel}_{label}", "af_data.cu", f"af_{kernel}_f32", (bx, by), (16, 16),
            [_f(o0 * o1, "zeros"), _f(d0 * d1), _i(d0), _i(d1), _i(bx), _i(by)], ["diff", "stencil", "elementwise"])


def _hist(t: str, n: int, bins: int, label: str, threads: int = 256, tags: list[str] = (), nbbs: int = 0) -> tuple:
    """kernel/histogram.hpp: 256 threads, each THRD_LOAD (16) elements; shared bins up to 4000.
    nBBS, the blocks of one batch, is the grid unless given: any nBBS at least the grid reads the
    same elements with one batch (the sweep passes its largest grid to all its launches)."""
    nbbs = nbbs or _cdiv(n, 16 * threads)
    data = _f(n) if t == "f32" else _u8(n, "randint(0,256)")
    hi = 1.0 if t == "f32" else 255.0
    return (f"af_histogram_{t}_{label}", "af_data.cu", f"af_histogram_{t}", nbbs, threads,
            [f"uint32[{bins}]:zeros", data, _i(n), _i(bins), _fs(0.0), _fs(hi), _i(nbbs)],
            ["histogram", "atomics", *(["shared-atomics"] if bins <= 4000 else ["global-atomics"]), *tags],
            bins * 4 if bins <= 4000 else 0)


def _memcopy(d0: int, d1: int, d2: int, in0: int, block=(32, 8)) -> tuple:
    return ((_cdiv(d0, block[0]), _cdiv(d1, block[1]), d2),
            [_f(d0 * d1 * d2, "zeros"), _f(in0 * d1 * d2), _i(d0), _i(d1), _i(d2), _i(in0), _i(d1)])


def _image(file: str, kernel: str, d0: int, d1: int, batch: int, label: str, tags: list[str], t: str = "f32",
           outs: int = 1) -> tuple:
    """16 x 16 threads, blocks (cdiv(d0, 16) x batch, cdiv(d1, 16)) (kernel/convolve.hpp, sobel.hpp,
    medfilt.hpp, bilateral.hpp); args: the outputs, the input, d0, d1, batch, nBBS0, nBBS1."""
    bx, by = _cdiv(d0, 16), _cdiv(d1, 16)
    n = d0 * d1 * batch
    data = _f(n) if t == "f32" else _u8(n, "randint(0,256)")
    out = _f(n, "zeros") if t == "f32" or outs == 2 else _u8(n, "zeros")
    return (f"{kernel}_{label}", file, kernel, (bx * batch, by), (16, 16),
            [*[out] * outs, data, _i(d0), _i(d1), _i(batch), _i(bx), _i(by)],
            ["image", "2d", "shared", "halo", "syncthreads", *tags, *(["uint8"] if t == "u8" else [])])


def _conv1(d0: int, d1: int, flen: int, label: str, threads: int = 256, tags: list[str] = ()) -> tuple:
    """kernel/convolve.hpp's 1D launch: 256 threads, blocks (cdiv(d0, 256) x rows), the signal's
    block and halo in dynamic shared memory."""
    bx = _cdiv(d0, threads)
    return (f"af_convolve1_f32_{label}", "af_smooth.cu", "af_convolve1_f32", bx * d1, threads,
            [_f(d0 * d1, "zeros"), _f(d0 * d1), _i(d0), _i(d1), _i(flen)],
            ["conv", "1d", "shared", "halo", "constant", "dynamic-shared", *tags], (threads + 2 * (flen - 1)) * 4)


def _bilateral(t: str, d0: int, d1: int, batch: int, sigma: float, label: str) -> tuple:
    """kernel/bilateral.hpp: 16 x 16 threads; the block's halo and the 2D Gaussian in shared memory."""
    radius = max(int(sigma * 1.5), 1)
    shrd, gauss = (16 + 2 * radius) ** 2, (2 * radius + 1) ** 2
    bx, by = _cdiv(d0, 16), _cdiv(d1, 16)
    n = d0 * d1 * batch
    data = _f(n) if t == "f32" else _u8(n, "randint(0,256)")
    return (f"af_bilateral_{t}_{label}", "af_smooth.cu", f"af_bilateral_{t}", (bx * batch, by), (16, 16),
            [_f(n, "zeros"), data, _i(d0), _i(d1), _i(batch), _fs(sigma), _fs(0.2 if t == "f32" else 40.0), _i(shrd),
             _i(bx), _i(by)], ["image", "2d", "bilateral", "exp", "shared", "halo", "dynamic-shared"], (shrd + gauss) * 4)


def _scan_first(kernel: str, d0: int, d1: int, dimx: int, label: str, tags: list[str] = (), t: str = "f32") -> tuple:
    """kernel/scan_first.hpp: threads (dimx, 256 / dimx), blocks (cdiv(d0, dimx x 32), cdiv(d1, 256 / dimx)),
    lim = cdiv(d0, dimx x blocks_x); args: out, tmp (blocks_x x d1 sums), in, d0, d1, blocks, lim."""
    bx, by = _cdiv(d0, dimx * 32), _cdiv(d1, 256 // dimx)
    lim = _cdiv(d0, dimx * bx)
    out = _f(d0 * d1, "zeros") if t == "f32" else f"uint32[{d0 * d1}]:zeros"
    tmp = (_f if t == "f32" else partial(array_arg, "uint32"))(bx * d1 if "pass" in kernel else 1, "zeros")
    data = _f(d0 * d1) if t == "f32" else _u8(d0 * d1, "randint(0,3)")
    return (f"af_scan_first_{label}", "af_scan.cu", kernel, (bx, by), (dimx, 256 // dimx),
            [out, tmp, data, _i(d0), _i(d1), _u(bx), _u(by), _u(lim)],
            ["scan", "prefix-sum", "shared", "syncthreads", *tags])


def _scan_bcast(d0: int, d1: int, label: str) -> tuple:
    """scan_first's third pass: each block adds the scanned sums of the blocks before it."""
    bx, by = _cdiv(d0, 256 * 32), d1
    return (f"af_scan_first_bcast_{label}", "af_scan.cu", "af_scan_first_bcast_f32", (bx, by), (256, 1),
            [_f(d0 * d1), _f(bx * d1), _i(d0), _i(d1), _u(bx), _u(by), _u(_cdiv(d0, 256 * bx))],
            ["scan", "prefix-sum", "broadcast", "multi-pass"])


def _scan_dim1(kernel: str, d0: int, d1: int, label: str) -> tuple:
    """kernel/scan_dim.hpp along dim 1: threads (32, 8), blocks (cdiv(d0, 32), cdiv(d1, 8 x 32))."""
    bx, bdim = _cdiv(d0, 32), _cdiv(d1, 8 * 32)
    tmp = _f(d0 * bdim if "pass" in kernel else 1, "zeros")
    return (f"af_scan_dim1_{label}", "af_scan.cu", kernel, (bx, bdim), (32, 8),
            [_f(d0 * d1, "zeros"), tmp, _f(d0 * d1), _i(d0), _i(d1), _u(bx), _u(bdim), _u(bdim),
             _u(_cdiv(d1, 8 * bdim))], ["scan", "prefix-sum", "column", "shared", "syncthreads"])


def _ireduce_first(kernel: str, d0: int, d1: int, dimx: int, label: str, tags: list[str]) -> tuple:
    """kernel/ireduce.hpp's first-dimension launch: threads (dimx, 256 / dimx), blocks
    (cdiv(d0, dimx x 32), cdiv(d1, 256 / dimx)), repeat = cdiv(d0, blocks_x x dimx); one value and
    index a row and block."""
    bx, by = _cdiv(d0, dimx * 32), _cdiv(d1, 256 // dimx)
    return (f"af_ireduce_first_{label}", "af_ireduce.cu", kernel, (bx, by), (dimx, 256 // dimx),
            [_f(bx * d1, "zeros"), f"uint32[{bx * d1}]:zeros", _f(d0 * d1), _i(d0), _i(d1), _u(bx), _u(by),
             _u(_cdiv(d0, bx * dimx))], ["reduction", "argmax", "shared-tree", "rows", "double", *tags])


LAUNCHES: list[tuple] = [
    # --- transpose (32 x 32 tiles in shared memory, padded a column)
    _transpose("transpose_f32", 4096, 2048, 1, "4096x2048"),
    _transpose("transpose32_f32", 2048, 2048, 1, "2048x2048"),
    _transpose("transpose_f32", 1000, 3000, 1, "1000x3000"),
    _transpose("transpose_f64", 2048, 1024, 1, "2048x1024", dtype=_d),
    _transpose("transpose32_f32", 128, 512, 32, "128x512x32"),
    _transpose("transpose_f32", 96, 96, 1, "96x96"),
    # --- sub-array copies (memCopy: one thread an element; memCopyLoop1: a loop over columns)
    ("af_memcopy_f32_4096x2048of8192", "af_data.cu", "af_memcopy_f32", *_memcopy(4096, 2048, 1, 8192)[:1], (32, 8),
     _memcopy(4096, 2048, 1, 8192)[1], ["copy", "strided", "sub-array"]),
    ("af_memcopy_f32_128x2048x32of384", "af_data.cu", "af_memcopy_f32", *_memcopy(128, 2048, 8, 384)[:1], (32, 8),
     _memcopy(128, 2048, 8, 384)[1], ["copy", "strided", "sub-array", "3d-grid"]),
    ("af_memcopy_loop1_f32_1024x8192of2048", "af_data.cu", "af_memcopy_loop1_f32", (32, 64), (32, 8),
     [_f(1024 * 8192, "zeros"), _f(2048 * 8192), _i(1024), _i(8192), _i(2048)], ["copy", "strided", "column-loop"]),
    # --- reorder: attention's head permutes, a batched transpose
    _reorder((128, 2048, 32, 1), (0, 2, 1, 3), "128x2048x32_p0213"),
    _reorder((64, 64, 64, 8), (2, 0, 1, 3), "64x64x64x8_p2013"),
    # --- tile: a bias broadcast over tokens, an image repeated
    _tile((4096, 1, 1), (1, 1024, 1), "4096x1_by1024", ["bias"]),
    _tile((512, 512, 3), (4, 4, 1), "512x512x3_by4x4", ["image"]),
    _tile((100, 30, 1), (3, 7, 2), "100x30_by3x7x2", ["small"]),
    # --- diff: first along rows, second along columns
    _diff("diff1_dim0", 4096, 2048, "4096x2048"),
    _diff("diff2_dim1", 2048, 4098, "2048x4098"),
    # --- histogram: shared-memory bins, global bins past 4000, an 8-bit image
    _hist("f32", M16, 256, "16M_256"),
    _hist("f32", M4, 8000, "4M_8000"),
    _hist("u8", 4096 * 4096, 256, "4096x4096_256", tags=["image", "uint8"]),
    _hist("f32", 65536, 100, "64K_100", tags=["small"]),
    # --- image filters (af_filters.cu): 2D and separable convolutions (zero filters: ArrayFire's
    # __constant__ arrays as loaded), Sobel, median
    _image("af_filters.cu", "af_convolve2_3x3_f32", 2048, 2048, 1, "2048x2048", ["conv", "constant"]),
    _image("af_filters.cu", "af_convolve2_5x5_f32", 1280, 720, 3, "1280x720x3", ["conv", "constant", "batched"]),
    _image("af_filters.cu", "af_convolve2_9x9_f32", 1024, 1024, 1, "1024x1024", ["conv", "constant"]),
    _image("af_filters.cu", "af_convolve2_1x5_f32", 2048, 1024, 1, "2048x1024", ["conv", "constant"]),
    _image("af_filters.cu", "af_sconv_dim0_k5_f32", 2048, 2048, 1, "2048x2048", ["conv", "separable", "constant"]),
    _image("af_filters.cu", "af_sconv_dim1_k5_f32", 2048, 2048, 1, "2048x2048", ["conv", "separable", "constant"]),
    _image("af_filters.cu", "af_sconv_dim0_k15_f32", 2048, 2048, 1, "2048x2048", ["conv", "separable", "constant"]),
    _image("af_filters.cu", "af_sconv_dim1_k31_f32", 1024, 1024, 4, "1024x1024x4", ["conv", "separable", "constant", "batched"]),
    _image("af_filters.cu", "af_sobel3x3_f32", 2048, 2048, 1, "2048x2048", ["sobel", "gradient"], outs=2),
    _image("af_filters.cu", "af_sobel3x3_u8", 3072, 2048, 1, "3072x2048", ["sobel", "gradient"], t="u8", outs=2),
    _image("af_filters.cu", "af_sobel3x3_f32", 640, 480, 1, "640x480", ["sobel", "gradient", "small"], outs=2),
    _image("af_filters.cu", "af_medfilt2_3x3_zero_f32", 2048, 2048, 1, "2048x2048", ["median", "sorting-network"]),
    _image("af_filters.cu", "af_medfilt2_5x5_sym_f32", 1024, 1024, 1, "1024x1024", ["median", "sorting-network"]),
    _image("af_filters.cu", "af_medfilt2_3x3_sym_u8", 1280, 720, 3, "1280x720x3", ["median", "sorting-network"],
           t="u8"),
    # --- 1D convolution of rows (af_smooth.cu; a zero filter as loaded) and the bilateral filter
    _conv1(8192, 256, 31, "8192x256_k31"),
    _conv1(1 << 20, 1, 129, "1M_k129", tags=["long-filter"]),
    _conv1(4096, 1024, 5, "4096x1024_k5"),
    _bilateral("f32", 1024, 1024, 1, 2.0, "1024x1024_s2"),
    _bilateral("u8", 1024, 576, 3, 1.5, "1024x576x3_s1p5"),
    # --- scans (af_scan.cu): rows in one pass; a long vector and long rows in ArrayFire's first
    # and third passes; an exclusive scan; a count of non-zeros (where's first step); column scans
    _scan_first("af_scan_first_final_256_f32", 1024, 8192, 256, "final_8192x1024", ["rows"]),
    _scan_first("af_scan_first_final_64_f32", 64, 65536, 64, "final_65536x64", ["rows", "short-rows"]),
    _scan_first("af_scan_first_final_256_excl_f32", 2048, 2048, 256, "excl_2048x2048", ["rows", "exclusive"]),
    _scan_first("af_scan_first_final_256_notzero_u8", 4096, 1024, 256, "notzero_1024x4096", ["rows", "count"], "u8"),
    _scan_first("af_scan_first_pass_256_f32", M4, 1, 256, "pass1_4M", ["multi-pass", "vector"]),
    _scan_bcast(M4, 1, "4M"),
    _scan_first("af_scan_first_pass_256_f32", 65536, 128, 256, "pass1_128x65536", ["multi-pass", "rows", "large"]),
    _scan_bcast(65536, 128, "128x65536"),
    _scan_dim1("af_scan_dim1_final_f32", 16384, 256, "final_16384x256"),
    _scan_dim1("af_scan_dim1_pass_f32", 4096, 4096, "pass1_4096x4096"),
    # --- gathers and sparse kernels (af_gather.cu): lookup along a vector, an embedding table's
    # columns, rows of a half matrix; COO to dense; CSR / COO times / plus a dense matrix (one
    # entry a row: row offsets arange, so every write has its own element)
    ("af_lookup1d_f32_4M_of_16M", "af_gather.cu", "af_lookup1d_f32", _cdiv(M4, 1024), 256,
     [_f(M4, "zeros"), _f(M16), f"uint32[{M4}]:randint(0,{M16})", _i(M4), _i(M16)], ["gather", "random", "large"]),
    ("af_lookup1d_f32_1M_of_64K", "af_gather.cu", "af_lookup1d_f32", _cdiv(M1, 1024), 256,
     [_f(M1, "zeros"), _f(65536), f"uint32[{M1}]:randint(0,65536)", _i(M1), _i(65536)], ["gather", "random", "l2-resident"]),
    ("af_lookup_dim1_f32_4096x8192_1024", "af_gather.cu", "af_lookup_dim1_f32", (128, 128), (32, 8),
     [_f(4096 * 1024, "zeros"), _f(4096 * 8192), "uint32[1024]:randint(0,8192)", _i(4096), _i(8192), _i(1024), _i(128),
      _i(128)], ["gather", "embedding", "columns"]),
    ("af_lookup_dim0_f16_8192x1024_2048", "af_gather.cu", "af_lookup_dim0_f16", (64, 128), (32, 8),
     [array_arg("float16", 2048 * 1024, "zeros"), array_arg("float16", 8192 * 1024), "uint32[2048]:randint(0,8192)",
      _i(8192), _i(1024), _i(2048), _i(64), _i(128)], ["gather", "rows", "strided", "half"]),
    ("af_coo2dense_f32_65536x256", "af_gather.cu", "af_coo2dense_f32", 64, 256,
     [_f(65536 * 256, "zeros"), _f(65536), "int32[65536]:arange", "int32[65536]:randint(0,256)", _i(65536), _i(256),
      _i(65536)], ["sparse", "coo", "scatter", "grid-loop"]),
    ("af_csr_arith_mul_f32_262144x64", "af_gather.cu", "af_csr_arith_mul_f32", 262144 // 8, (32, 8),
     [_f(262144 * 64, "zeros"), _f(262144), "int32[262145]:arange", "int32[262144]:randint(0,64)", _f(262144 * 64),
      _i(262144), _i(64), _i(262144)], ["sparse", "csr", "row-per-warp", "gather"]),
    ("af_coo_arith_add_f32_1Mx16", "af_gather.cu", "af_coo_arith_add_f32", M1 // 256, 256,
     [_f(M1 * 16, "zeros"), _f(M1), f"int32[{M1}]:arange", f"int32[{M1}]:randint(0,16)", _f(M1 * 16), _i(M1), _i(16),
      _i(M1)], ["sparse", "coo", "gather", "scatter"]),
    # --- index reductions (af_ireduce.cu): greedy sampling's argmax over a vocabulary (the first of
    # two passes: four blocks a row), argmin of rows, argmax of short rows and of columns
    _ireduce_first("af_ireduce_first_max_256_f32", 32000, 256, 256, "max_256x32000", ["logits", "multi-pass"]),
    _ireduce_first("af_ireduce_first_min_256_f32", 8192, 1024, 256, "min_1024x8192", []),
    _ireduce_first("af_ireduce_first_max_32_f32", 32, 131072, 32, "max_131072x32", ["short-rows"]),
    ("af_ireduce_dim1_max_4096x2048", "af_ireduce.cu", "af_ireduce_dim1_max_f32", (128, 8), (32, 8),
     [_f(4096 * 8, "zeros"), f"uint32[{4096 * 8}]:zeros", _f(4096 * 2048), _i(4096), _i(2048), _u(128), _u(8), _u(8)],
     ["reduction", "argmax", "shared-tree", "column", "double"]),
    # --- sweeps: kernels that loop by blockDim
    *_sweep("af_reorder_f32", "af_data.cu", "af_reorder_f32", BLOCKS_2D,
            lambda b: _tiles(128, 32, b, 2048)[0], _reorder_args((128, 2048, 32, 1), (0, 2, 1, 3))[0],
            ["reorder", "permute", "strided"], "128x2048x32"),
    *_sweep("af_tile_f32", "af_data.cu", "af_tile_f32", BLOCKS_2D,
            lambda b: _tiles(4096, 1024, b)[0],
            [_f(4096 * 1024, "zeros"), _f(4096), _i(4096), _i(1), _i(1), _i(1), _i(1024), _i(1), _i(8), _i(32)],
            ["tile", "broadcast", "modulo", "bias"], "4096x1_by1024"),
    *_sweep("af_memcopy_f32", "af_data.cu", "af_memcopy_f32", BLOCKS_2D,
            lambda b: _memcopy(2048, 2048, 1, 4096, b)[0], _memcopy(2048, 2048, 1, 4096)[1],
            ["copy", "strided", "sub-array"], "2048x2048of4096"),
    *[(f"af_histogram_f32_b{t}_4M_256", "af_data.cu", "af_histogram_f32", _cdiv(M4, 16 * t), t,
       [*_hist("f32", M4, 256, "", threads=t, nbbs=_cdiv(M4, 16 * 64))[5]], ["histogram", "atomics", "shared-atomics", "sweep:af_histogram_f32"],
       1024) for t in (64, 128, 256, 512, 1024)],
    *_sweep("af_diff1_dim0_f32", "af_data.cu", "af_diff1_dim0_f32", [(16, 16), (32, 8), (64, 4), (128, 2), (256, 1)],
            lambda b: (_cdiv(2047, b[0]), _cdiv(1024, b[1])),
            [_f(2047 * 1024, "zeros"), _f(2048 * 1024), _i(2048), _i(1024), _i(4096), _i(4096)],
            ["diff", "stencil", "elementwise"], "2048x1024"),
    *[(f"af_convolve1_f32_b{t}_4096x512_k17", *_conv1(4096, 512, 17, "", threads=t)[1:6],
       [*_conv1(4096, 512, 17, "")[6], "sweep:af_convolve1_f32"], (t + 32) * 4) for t in (64, 128, 256, 512, 1024)],
]


PREREG9 = PreregSet("prereg9", PREREG9_DIR, SUITES, LAUNCHES, OPTIONS)


def prereg9_cases() -> list[Case]:
    """The ninth pre-registered set's launches as cases (set `prereg9`)."""
    return PREREG9.cases()


if __name__ == "__main__":
    print(f"wrote {PREREG9.write_registry()}")
