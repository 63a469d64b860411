"""The fifth pre-registered set (`validate run --cases prereg5`): public GPU kernels from
repositories this project had never used, copied into validate/prereg5/*.cu, whose launches were
fixed, and recorded on the H100 into a sealed folder, before any prediction of them was committed.
Held out of every fit (validate.families), like the first four sets; built with the same
machinery (validate.prereg_cases.PreregSet). Change no launch once it is registered.

Sources (each file's header comment: repository, path, commit, licence and every edit; no kernel
body is changed; licence texts in validate/prereg5/LICENSES.md; kernels left out, and why:
validate/prereg5/STATUS.md): ParRes/Kernels (BSD-3-Clause: the Parallel Research Kernels' CUDA
transposes of doubles, STREAM-like nstream and the generated star and grid stencils of doubles),
lzhengchun/matrix-cuda (MIT: an integer matrix product, a tiled square one and a transpose),
KernelTuner/kernel_tuner (Apache-2.0: the example reduction at two tuned configurations, the CSR
SpMV and the 2D stencil; the tunable macros Kernel Tuner defines are written into each file).
File names start with the suite: prk_, matcuda_, kt_. None comes from a reserved suite, nor from
the sources of the corpus or of the first four sets (prk_transpose.cu's kernels say they derive
from NVIDIA's developer-blog transpose, a source of prereg2: these are PRK's rewrite of them, for
doubles, with an accumulating store and an in-place update of the input).

Every launch is in bounds and deterministic: 2D grids cover the problem exactly where a kernel has
no bounds check, float and double sums are in a fixed order within a thread, a warp or a block, no
kernel uses atomics, and the integer products use small inputs (randint(0,16)), so no sum wraps.
Sweeps (tag `sweep:<kernel>`, names `<kernel>_b<block>_<size>`): one kernel at five block shapes
over one problem, the grid following the block. The PRK stencils map threadIdx.x to rows, so a
block's shape decides how many rows a warp touches.
"""
from __future__ import annotations

from pathlib import Path

from .case import Case
from .prereg_cases import PreregSet, _f, _grid2, _i, _sweep

PREREG5_DIR = Path(__file__).parent / "prereg5"
SUITES = {"prk_": "ParRes/Kernels", "matcuda_": "lzhengchun/matrix-cuda", "kt_": "KernelTuner/kernel_tuner"}
M1, M4, M16 = 1 << 20, 1 << 22, 1 << 24
BLOCKS_1D = [(64,), (128,), (256,), (512,), (1024,)]
BLOCKS_2D = [(32, 32), (16, 16), (32, 8), (8, 32), (64, 4)]
D = "float64"


def _d(count: int, init: str = "random") -> str:
    return f"{D}[{count}]:{init}"


def _transpose(order: int) -> list[str]:
    """(order, A, B) of PRK's transposes: B += A^T, order x order doubles."""
    return [_i(order), _d(order * order, "arange"), _d(order * order, "zeros")]


def _nstream(n: int) -> list[str]:
    """(n, scalar, A, B, C): A += B + scalar * C."""
    return [f"uint32:{n}", "float64:3.0", _d(n, "zeros"), _d(n), _d(n)]


def _stencil(n: int) -> list[str]:
    """(n, in, out) of PRK's stencils over an n x n grid of doubles: out += stencil(in)."""
    return [_i(n), _d(n * n), _d(n * n, "zeros")]


def _ints(count: int) -> str:
    return f"int32[{count}]:randint(0,16)"


def _matmul(m: int, n: int, k: int) -> list[str]:
    """(a, b, c, m, n, k): c (m x k) = a (m x n) b (n x k), ints."""
    return [_ints(m * n), _ints(n * k), f"int32[{m * k}]:zeros", _i(m), _i(n), _i(k)]


def _reduce(n: int, blocks: int) -> list[str]:
    """(sum_global, array, n) of Kernel Tuner's sum_floats: one partial sum a block."""
    return [_f(blocks, "zeros"), _f(n), _i(n)]


STAR = ["stencil", "2d", "double", "uncoalesced", "halo"]
LAUNCHES: list[tuple] = [
    # --- ParRes/Kernels: transposes of doubles (tile 32, 8 rows a block; accumulate also bumps A in place)
    *[(f"prk_transpose_{label}{'_acc' if acc else ''}_2048", "prk_transpose.cu", f"{kernel}<{str(acc).lower()}>",
       (64, 64), (32, 8), _transpose(2048), ["transpose", "double", "2d", *tags, *(["in-place"] if acc else [])])
      for kernel, label, tags in [("transposeNaive", "naive", ["uncoalesced"]),
                                  ("transposeCoalesced", "coalesced", ["shared", "bank-conflicts", "syncthreads"]),
                                  ("transposeNoBankConflict", "nobank", ["shared", "padded", "syncthreads"])]
      for acc in (False, True)],
    ("prk_transpose_naive_1024", "prk_transpose.cu", "transposeNaive<false>", (32, 32), (32, 8), _transpose(1024),
     ["transpose", "double", "2d", "uncoalesced"]),
    ("prk_transpose_nobank_1024", "prk_transpose.cu", "transposeNoBankConflict<false>", (32, 32), (32, 8),
     _transpose(1024), ["transpose", "double", "2d", "shared", "padded", "syncthreads"]),
    # 4096^2 doubles: 128 MiB a matrix, far past the L2
    ("prk_transpose_naive_4096", "prk_transpose.cu", "transposeNaive<false>", (128, 128), (32, 8), _transpose(4096),
     ["transpose", "double", "2d", "uncoalesced", "large"]),
    ("prk_transpose_nobank_4096", "prk_transpose.cu", "transposeNoBankConflict<false>", (128, 128), (32, 8),
     _transpose(4096), ["transpose", "double", "2d", "shared", "padded", "syncthreads", "large"]),
    ("prk_transpose_naive_512", "prk_transpose.cu", "transposeNaive<false>", (16, 16), (32, 8), _transpose(512),
     ["transpose", "double", "2d", "uncoalesced", "small"]),
    *_sweep("prk_transpose_block_strided", "prk_transpose.cu", "transposeBlockStrided<false>", BLOCKS_2D,
            _grid2(2048, 2048), [f"uint32:2048", *_transpose(2048)[1:]],
            ["transpose", "double", "2d", "grid-stride", "uncoalesced"], "2048"),
    # --- nstream: A += B + scalar * C over doubles (3 x 32 MiB at 4M: past the L2)
    *_sweep("prk_nstream", "prk_nstream.cu", "nstream", BLOCKS_1D, lambda b: M4 // b[0], _nstream(M4),
            ["streaming", "elementwise", "double"], "4M"),
    ("prk_nstream_16M", "prk_nstream.cu", "nstream", M16 // 256, 256, _nstream(M16),
     ["streaming", "elementwise", "double"]),
    ("prk_nstream_64K", "prk_nstream.cu", "nstream", 65536 // 256, 256, _nstream(65536),
     ["streaming", "elementwise", "double", "small"]),
    ("prk_nstream_1M", "prk_nstream.cu", "nstream", M1 // 128, 128, _nstream(M1),
     ["streaming", "elementwise", "double", "l2-resident"]),
    ("prk_nstream2_grid1056", "prk_nstream.cu", "nstream2", 1056, 256, _nstream(M4),
     ["streaming", "elementwise", "double", "grid-stride"]),
    ("prk_nstream2_grid132_b1024", "prk_nstream.cu", "nstream2", 132, 1024, _nstream(M4),
     ["streaming", "elementwise", "double", "grid-stride"]),
    # --- the generated stencils (the host's default tile: 32 x 32 threads), 2048^2 doubles
    *[(f"prk_{k}_2048", "prk_stencil.cu", k, (64, 64), (32, 32), _stencil(2048), [*STAR, k[:-1]])
      for k in ("star1", "star3", "star4", "star5", "grid1", "grid2", "grid3", "grid4")],
    ("prk_star1_4096", "prk_stencil.cu", "star1", (128, 128), (32, 32), _stencil(4096), [*STAR, "star", "large"]),
    ("prk_star2_1024", "prk_stencil.cu", "star2", (32, 32), (32, 32), _stencil(1024), [*STAR, "star"]),
    *_sweep("prk_star2", "prk_stencil.cu", "star2", BLOCKS_2D, _grid2(2048, 2048), _stencil(2048),
            [*STAR, "star"], "2048"),
    *_sweep("prk_stencil_add", "prk_stencil.cu", "add", BLOCKS_2D, _grid2(2048, 2048),
            [_i(2048), _d(2048 * 2048)], ["elementwise", "2d", "double", "uncoalesced", "in-place"], "2048"),
    # --- lzhengchun/matrix-cuda: ints; sizes that are not multiples of the block test the bounds checks
    *_sweep("matcuda_matrix_mult", "matcuda_matrix.cu", "gpu_matrix_mult", BLOCKS_2D, _grid2(600, 640),
            _matmul(640, 192, 600), ["gemm", "naive", "2d", "int", "partial"], "640x192x600"),
    ("matcuda_square_mult_512", "matcuda_matrix.cu", "gpu_square_matrix_mult", (32, 32), (16, 16),
     [_ints(512 * 512), _ints(512 * 512), "int32[262144]:zeros", _i(512)], ["gemm", "shared", "tile", "int"]),
    ("matcuda_square_mult_640", "matcuda_matrix.cu", "gpu_square_matrix_mult", (40, 40), (16, 16),
     [_ints(640 * 640), _ints(640 * 640), "int32[409600]:zeros", _i(640)], ["gemm", "shared", "tile", "int"]),
    *_sweep("matcuda_transpose", "matcuda_matrix.cu", "gpu_matrix_transpose", BLOCKS_2D, _grid2(2000, 3000),
            ["int32[6000000]:arange", "int32[6000000]:zeros", "uint32:3000", "uint32:2000"],
            ["transpose", "uncoalesced", "2d", "int", "partial"], "3000x2000"),
    # --- KernelTuner/kernel_tuner: sum_floats (one partial sum a block; the host sums them with a
    # second launch of one block), CSR SpMV (a warp a row), a 5-point stencil
    ("kt_reduction_v4_shfl_16M", "kt_reduction_b256_v4_shfl.cu", "sum_floats", 1024, 256, _reduce(M16, 1024),
     ["reduction", "vector", "shared-tree", "shfl", "grid-stride", "streaming"]),
    ("kt_reduction_v4_shfl_4M", "kt_reduction_b256_v4_shfl.cu", "sum_floats", 1024, 256, _reduce(M4, 1024),
     ["reduction", "vector", "shared-tree", "shfl", "grid-stride"]),
    ("kt_reduction_v4_shfl_final", "kt_reduction_b256_v4_shfl.cu", "sum_floats", 1, 256, _reduce(1024, 1),
     ["reduction", "vector", "shared-tree", "shfl", "one-block", "latency"]),
    ("kt_reduction_v1_16M", "kt_reduction_b128_v1.cu", "sum_floats", 2048, 128, _reduce(M16, 2048),
     ["reduction", "shared-tree", "grid-stride", "streaming", "syncthreads"]),
    ("kt_reduction_v1_4M", "kt_reduction_b128_v1.cu", "sum_floats", 2048, 128, _reduce(M4, 2048),
     ["reduction", "shared-tree", "grid-stride", "syncthreads"]),
    ("kt_reduction_v1_1M", "kt_reduction_b128_v1.cu", "sum_floats", 2048, 128, _reduce(M1, 2048),
     ["reduction", "shared-tree", "grid-stride", "syncthreads", "l2-resident"]),
    # rows as arange: one non-zero a row (the set's generators make monotone offsets only as arange),
    # at a random column of x
    ("kt_spmv_128K", "kt_spmv.cu", "spmv_kernel", 131072 * 32 // 64, 64,
     [_f(131072, "zeros"), "int32[131073]:arange", "int32[131072]:randint(0,131072)", _f(131072), _f(131072),
      _i(131072)], ["spmv", "csr", "gather", "shfl", "divergence"]),
    ("kt_spmv_1M", "kt_spmv.cu", "spmv_kernel", M1 * 32 // 64, 64,
     [_f(M1, "zeros"), f"int32[{M1 + 1}]:arange", f"int32[{M1}]:randint(0,{M1})", _f(M1), _f(M1), _i(M1)],
     ["spmv", "csr", "gather", "shfl", "divergence"]),
    ("kt_stencil_4096x2048", "kt_stencil.cu", "stencil_kernel", (128, 256), (32, 8),
     [_f(4096 * 2048, "zeros"), _f(4096 * 2048)], ["stencil", "2d", "halo", "streaming"]),
]

PREREG5 = PreregSet("prereg5", PREREG5_DIR, SUITES, LAUNCHES)


def prereg5_cases() -> list[Case]:
    """The fifth pre-registered set's launches as cases (set `prereg5`)."""
    return PREREG5.cases()


if __name__ == "__main__":
    print(f"wrote {PREREG5.write_registry()}")
