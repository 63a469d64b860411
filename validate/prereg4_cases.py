"""The fourth pre-registered set (`validate run --cases prereg4`): public GPU kernels from
repositories this project had never used, copied into validate/prereg4/*.cu, whose launches were
fixed, and recorded on the H100 into a sealed folder, before any prediction of them was committed.
Held out of every fit (validate.families), like the first three sets; built with the same
machinery (validate.prereg_cases.PreregSet). Change no launch once it is registered.

Sources (each file's header comment: repository, path, commit, licence and every edit; no kernel
body is changed; licence texts in validate/prereg4/LICENSES.md; kernels left out, and why:
validate/prereg4/STATUS.md): PacktPublishing/Learn-CUDA-Programming (MIT: the book's transposes,
array-of-structures kernel, reduction ladder with cooperative groups and atomics, 2D convolution,
scans, SGEMMs and an n-body force kernel), tgautam03/xGeMM (MIT: an SGEMM ladder from naive to 2D-coarsened float4),
Maharshi-Pandya/cudacodes (Apache-2.0: a softmax ladder and an SGEMV ladder). File names start
with the suite: packt_, xgemm_, cudacodes_. None comes from a reserved suite, nor from the sources
of the corpus or of the first three sets.

Every launch is in bounds and deterministic: sizes are exact multiples of each kernel's tile
where it has no bounds check, float sums are in a fixed order within a thread, a warp or a
block, and the two kernels that add floats atomically add small integers (randint(0,4)) whose
sums stay below 2^24, so they are exact in any order. Sweeps (tag `sweep:<kernel>`, names
`<kernel>_b<block>_<size>`): one kernel at five block shapes over one problem; the argument
buffers are sized for the largest grid, so the problem stays the same.
"""
from __future__ import annotations

from pathlib import Path

from .case import Case
from .prereg_cases import PreregSet, _f, _i, _sweep

PREREG4_DIR = Path(__file__).parent / "prereg4"
SUITES = {"packt_": "PacktPublishing/Learn-CUDA-Programming", "xgemm_": "tgautam03/xGeMM",
          "cudacodes_": "Maharshi-Pandya/cudacodes"}
M1, M4, M16 = 1 << 20, 1 << 22, 1 << 24
BLOCKS_1D = [(64,), (128,), (256,), (512,), (1024,)]
BLOCKS_2D = [(32, 32), (16, 16), (32, 8), (8, 32), (64, 4)]
SMALL_INTS = "randint(0,4)"   # floats whose sums are exact in any order (float atomics)
GRID_STRIDE_BLOCKS = 1056     # the book's host code: 8 blocks of 256 threads a SM x 132 SMs


def _grid2(nx: int, ny: int):
    return lambda block: (nx // block[0], ny // block[1])


def _reduce(n: int, out: int, init: str = "random") -> list[str]:
    """(out, in, size) of the book's reductions."""
    return [_f(out, "zeros"), _f(n, init), f"uint32:{n}"]


def _conv(n: int, filter_size: int) -> list[str]:
    """(output, input, filter, num_row, num_col, filter_size) over an n x n image."""
    return [_f(n * n, "zeros"), _f(n * n), _f(filter_size * filter_size), _i(n), _i(n), _i(filter_size)]


def _packt_gemm(m: int, n: int, k: int) -> list[str]:
    """(A, B, C, M, N, K, alpha, beta): A m x k, B k x n, C m x n, row-major."""
    return [_f(m * k), _f(k * n), _f(m * n), _i(m), _i(n), _i(k), "float32:2.0", "float32:1.0"]


def _xgemm(m: int, n: int, k: int) -> list[str]:
    """(A, B, C, C_n_rows, C_n_cols, A_n_cols); C is read (times 0), so it starts finite."""
    return [_f(m * k), _f(k * n), _f(m * n), _i(m), _i(n), _i(k)]


def _rows(m: int, n: int) -> list[str]:
    """(in, out, M, N) of the softmax kernels: M rows of N floats."""
    return [_f(m * n), _f(m * n, "zeros"), _i(m), _i(n)]


def _sgemv(m: int, n: int) -> list[str]:
    """(A, x, y, M, N): y = A x, A row-major M x N."""
    return [_f(m * n), _f(n), _f(m, "zeros"), _i(m), _i(n)]


def _warps(block: int) -> int:
    """Dynamic shared bytes of the block reductions: a float a warp (the host code's formula)."""
    return -(-block // 32) * 4


T2048 = ["int32[4194304]:arange", "int32[4194304]:zeros"]
T1024 = ["int32[1048576]:arange", "int32[1048576]:zeros"]
G = GRID_STRIDE_BLOCKS

LAUNCHES: list[tuple] = [
    # --- PacktPublishing/Learn-CUDA-Programming: transposes (N is a macro of each file: 2048, 1024)
    *_sweep("packt_transpose_naive", "packt_transpose.cu", "matrix_transpose_naive", BLOCKS_2D,
            _grid2(2048, 2048), T2048, ["transpose", "uncoalesced", "2d", "int"], "2048"),
    ("packt_transpose_shared", "packt_transpose.cu", "matrix_transpose_shared", (64, 64), (32, 32), T2048,
     ["transpose", "shared", "bank-conflicts", "2d", "syncthreads", "int"]),
    # a 16 x 16 block uses a quarter of the 32 x 32 tile; still a true transpose
    ("packt_transpose_shared_b16x16", "packt_transpose.cu", "matrix_transpose_shared", (128, 128), (16, 16),
     T2048, ["transpose", "shared", "bank-conflicts", "2d", "syncthreads", "int"]),
    ("packt_transpose_naive_1024", "packt_transpose_padded.cu", "matrix_transpose_naive", (32, 32), (32, 32),
     T1024, ["transpose", "uncoalesced", "2d", "int"]),
    ("packt_transpose_padded_1024", "packt_transpose_padded.cu", "matrix_transpose_shared", (32, 32), (32, 32),
     T1024, ["transpose", "shared", "padded", "2d", "syncthreads", "int"]),
    # array of 32-byte structures, 1M of them; divisors drawn from 1..63 (no division by zero)
    ("packt_aos", "packt_aos.cu", "complicatedCalculation", M1 // 256, 256, ["int32[8388608]:randint(1,64)"],
     ["elementwise", "aos", "strided", "int", "division"]),
    # --- the reduction ladder of chapter 3
    ("packt_reduce_global_stride1", "packt_reduce_global.cu", "global_reduction_kernel", M16 // 256, 256,
     [_f(M16), _f(M16), _i(1), _i(M16)], ["reduction", "elementwise", "streaming"]),
    ("packt_reduce_global_stride_half", "packt_reduce_global.cu", "global_reduction_kernel", M16 // 256, 256,
     [_f(M16), _f(M16), _i(M16 // 2), _i(M16)], ["reduction", "elementwise", "streaming", "divergent"]),
    ("packt_reduce_shared_modulo", "packt_reduce_shared.cu", "reduction_kernel", M4 // 256, 256,
     _reduce(M4, M4 // 256), ["reduction", "shared-tree", "divergent", "syncthreads", "dynamic-shared"], 1024),
    ("packt_reduce_interleaving", "packt_reduce_interleaving.cu", "reduction_kernel_1", M4 // 256, 256,
     _reduce(M4, M4 // 256), ["reduction", "shared-tree", "bank-conflicts", "syncthreads", "dynamic-shared"], 1024),
    *_sweep("packt_reduce_sequential", "packt_reduce_sequential.cu", "reduction_kernel_2", BLOCKS_1D,
            lambda b: M4 // b[0], _reduce(M4, M4 // 64), ["reduction", "shared-tree", "syncthreads", "dynamic-shared"],
            "4M", lambda b: 4 * b[0]),
    ("packt_reduce_balanced", "packt_reduce_balanced.cu", "reduction_kernel", G, 256, _reduce(M16, G),
     ["reduction", "shared-tree", "grid-stride", "streaming", "dynamic-shared"], 1024),
    # the second pass of the same host function: one block over the first pass's partial sums
    ("packt_reduce_balanced_final", "packt_reduce_balanced.cu", "reduction_kernel", 1, 256, _reduce(G, 1),
     ["reduction", "shared-tree", "one-block", "latency", "dynamic-shared"], 1024),
    ("packt_reduce_warp", "packt_reduce_warp.cu", "reduction_kernel", G, 256, _reduce(M16, G),
     ["reduction", "shfl", "grid-stride", "streaming"]),
    ("packt_reduce_cg", "packt_reduce_cg.cu", "reduction_kernel", G, 256, _reduce(M16, G),
     ["reduction", "shared-tree", "cooperative-groups", "grid-stride", "streaming", "dynamic-shared"], 1024),
    ("packt_reduce_cg_tile", "packt_reduce_cg_tile.cu", "reduction_kernel", G, 256, _reduce(M16, G),
     ["reduction", "shfl", "cooperative-groups", "grid-stride", "streaming"]),
    ("packt_reduce_block_atomic", "packt_reduce_block_atomic.cu", "reduction_blk_atmc_kernel", G, 256,
     _reduce(M4, 1, SMALL_INTS), ["reduction", "shfl", "cooperative-groups", "grid-stride", "atomic"]),
    ("packt_reduce_warp_atomic", "packt_reduce_warp_atomic.cu", "reduction_wrp_atmc_kernel", G, 256,
     _reduce(M4, 1, SMALL_INTS), ["reduction", "shfl", "cooperative-groups", "grid-stride", "atomic",
                                  "contended-atomic"]),
    # --- chapter 7: 2D convolution (global filter; __constant__ filter, never set: zeros; shared tile)
    *_sweep("packt_conv_global", "packt_convolution.cu", "convolution_kernel_v1", BLOCKS_2D, _grid2(2048, 2048),
            _conv(2048, 3), ["stencil", "convolution", "2d", "halo"], "2048"),
    ("packt_conv_constant_5x5", "packt_convolution.cu", "convolution_kernel_v2", (128, 128), (16, 16),
     _conv(2048, 5), ["stencil", "convolution", "2d", "halo", "constant"]),
    # BLOCK_DIM is 16; the host code sizes the shared tile (2 * filter + 16)^2 floats
    ("packt_conv_shared_5x5", "packt_convolution.cu", "convolution_kernel_v3", (128, 128), (16, 16),
     _conv(2048, 5), ["stencil", "convolution", "2d", "halo", "constant", "shared", "dynamic-shared",
                      "syncthreads"], 26 * 26 * 4),
    # --- scans: v1 every thread sums its whole prefix (quadratic); v2 a block scans 1024 floats
    ("packt_scan_quadratic", "packt_scan.cu", "scan_v1_kernel", 8192 // 512, 512,
     [_f(8192, "zeros"), _f(8192), _i(8192)], ["scan", "quadratic", "latency", "few-blocks"]),
    ("packt_scan_blelloch_1M", "packt_scan.cu", "scan_v2_kernel", M1 // 1024, 512,
     [_f(M1, "zeros"), _f(M1), _i(M1)], ["scan", "shared", "bank-conflicts", "syncthreads", "dynamic-shared"], 4096),
    # the kernel's int offsets reach offset * (2 * tid + 3) with offset < length: at 4M floats they
    # overflow (memsim's engine found the out-of-range shared read), at 2M they fit
    ("packt_scan_blelloch_2M", "packt_scan.cu", "scan_v2_kernel", (2 * M1) // 1024, 512,
     [_f(2 * M1, "zeros"), _f(2 * M1), _i(2 * M1)], ["scan", "shared", "bank-conflicts", "syncthreads", "dynamic-shared"], 4096),
    # --- SGEMM (BLOCK_DIM 16; the naive kernel indexes B with K, so it needs N = K)
    ("packt_sgemm_naive_512", "packt_sgemm.cu", "sgemm_kernel", (32, 32), (16, 16), _packt_gemm(512, 512, 512),
     ["gemm", "naive", "2d"]),
    ("packt_sgemm_tiled_512", "packt_sgemm.cu", "sgemm_kernel_v2", (32, 32), (16, 16), _packt_gemm(512, 512, 512),
     ["gemm", "shared", "tile", "syncthreads"]),
    ("packt_sgemm_tiled_1024x1024x128", "packt_sgemm.cu", "sgemm_kernel_v2", (64, 64), (16, 16),
     _packt_gemm(1024, 1024, 128), ["gemm", "shared", "tile", "syncthreads"]),
    # --- all-pairs n-body forces, tiled through shared memory (BLOCK_SIZE 128; n a multiple of it)
    ("packt_nbody_4096", "packt_nbody.cu", "calculateBodyForce", 32, 128,
     [_f(4 * 4096), _f(4 * 4096, "zeros"), "float32:0.01", _i(4096)],
     ["n-body", "compute-bound", "shared", "syncthreads", "transcendental", "few-blocks", "vector"]),
    ("packt_nbody_2048", "packt_nbody.cu", "calculateBodyForce", 16, 128,
     [_f(4 * 2048), _f(4 * 2048, "zeros"), "float32:0.01", _i(2048)],
     ["n-body", "compute-bound", "shared", "syncthreads", "transcendental", "few-blocks", "vector"]),
    # --- tgautam03/xGeMM: naive maps threadIdx.x to rows (uncoalesced), coalesced to columns
    *_sweep("xgemm_naive", "xgemm_naive.cu", "naive_mat_mul_kernel", BLOCKS_2D, _grid2(512, 512),
            _xgemm(512, 512, 128), ["gemm", "naive", "2d", "uncoalesced"], "512x512x128"),
    *_sweep("xgemm_coalesced", "xgemm_coalesced.cu", "coalesced_mat_mul_kernel", BLOCKS_2D, _grid2(1024, 1024),
            _xgemm(1024, 1024, 64), ["gemm", "naive", "2d"], "1024x1024x64"),
    ("xgemm_tiled_1024x1024x256", "xgemm_tiled.cu", "tiled_mat_mul_kernel", (32, 32), (32, 32),
     _xgemm(1024, 1024, 256), ["gemm", "shared", "tile", "syncthreads"]),
    ("xgemm_tiled_2048x2048x64", "xgemm_tiled.cu", "tiled_mat_mul_kernel", (64, 64), (32, 32),
     _xgemm(2048, 2048, 64), ["gemm", "shared", "tile", "syncthreads"]),
    ("xgemm_coarse_1d_1024x1024x256", "xgemm_coarse_1d.cu", "coarse_1d_mat_mul_kernel", (16, 16), 512,
     _xgemm(1024, 1024, 256), ["gemm", "shared", "register-tile"]),
    ("xgemm_coarse_1d_2048x2048x64", "xgemm_coarse_1d.cu", "coarse_1d_mat_mul_kernel", (32, 32), 512,
     _xgemm(2048, 2048, 64), ["gemm", "shared", "register-tile"]),
    ("xgemm_coarse_2d_1024x1024x256", "xgemm_coarse_2d.cu", "coarse_2d_mat_mul_kernel", (8, 8), 256,
     _xgemm(1024, 1024, 256), ["gemm", "shared", "register-tile", "few-blocks"]),
    ("xgemm_coarse_2d_2048x2048x128", "xgemm_coarse_2d.cu", "coarse_2d_mat_mul_kernel", (16, 16), 256,
     _xgemm(2048, 2048, 128), ["gemm", "shared", "register-tile"]),
    ("xgemm_coarse_2d_vec_1024x1024x256", "xgemm_coarse_2d_vec.cu", "coarse_2d_vec_mat_mul_kernel", (8, 8), 256,
     _xgemm(1024, 1024, 256), ["gemm", "shared", "register-tile", "vector", "few-blocks"]),
    ("xgemm_coarse_2d_vec_2048x2048x128", "xgemm_coarse_2d_vec.cu", "coarse_2d_vec_mat_mul_kernel", (16, 16), 256,
     _xgemm(2048, 2048, 128), ["gemm", "shared", "register-tile", "vector"]),
    # --- Maharshi-Pandya/cudacodes: softmax, a thread a row (naive, online), then a block a row
    *_sweep("cudacodes_softmax_naive", "cudacodes_softmax_naive.cu", "softmax_kernel_0", BLOCKS_1D,
            lambda b: 16384 // b[0], _rows(16384, 256), ["softmax", "uncoalesced", "transcendental"], "16384x256"),
    ("cudacodes_softmax_online", "cudacodes_softmax_online.cu", "softmax_kernel_1", 16, 1024, _rows(16384, 256),
     ["softmax", "uncoalesced", "transcendental", "few-blocks"]),
    ("cudacodes_softmax_smem_4096x2048", "cudacodes_softmax_smem.cu", "softmax_kernel_2", 4096, 1024,
     _rows(4096, 2048), ["softmax", "shared-tree", "syncthreads", "transcendental", "streaming"]),
    ("cudacodes_softmax_smem_short_rows", "cudacodes_softmax_smem.cu", "softmax_kernel_2", 32768, 128,
     _rows(32768, 128), ["softmax", "shared-tree", "syncthreads", "transcendental"]),
    *_sweep("cudacodes_softmax_shfl", "cudacodes_softmax_shfl.cu", "softmax_kernel_3", BLOCKS_1D, lambda b: 4096,
            _rows(4096, 2048), ["softmax", "shfl", "transcendental", "streaming"], "4096x2048"),
    # --- SGEMV: a thread a row (uncoalesced), a warp a row, a block a row, float4 loads
    ("cudacodes_sgemv_naive_b1024", "cudacodes_sgemv_naive.cu", "naive_sgemv_kernel", 16, 1024, _sgemv(16384, 1024),
     ["gemv", "uncoalesced", "few-blocks"]),
    ("cudacodes_sgemv_naive_b128", "cudacodes_sgemv_naive.cu", "naive_sgemv_kernel", 128, 128, _sgemv(16384, 1024),
     ["gemv", "uncoalesced"]),
    ("cudacodes_sgemv_warp", "cudacodes_sgemv_warp.cu", "coalesced_warp_sgmev_kernel", 16384, 32,
     _sgemv(16384, 1024), ["gemv", "shfl", "streaming"]),
    ("cudacodes_sgemv_warpblock_b64", "cudacodes_sgemv_warpblock.cu", "coalesced_warpblock_sgmev_kernel", 16384, 64,
     _sgemv(16384, 1024), ["gemv", "shfl", "streaming", "dynamic-shared"], _warps(64)),
    ("cudacodes_sgemv_warpblock_b256", "cudacodes_sgemv_warpblock.cu", "coalesced_warpblock_sgmev_kernel", 4096, 256,
     _sgemv(4096, 4096), ["gemv", "shfl", "streaming", "dynamic-shared"], _warps(256)),
    ("cudacodes_sgemv_vec_b64", "cudacodes_sgemv_vec.cu", "vectorized_sgemv_kernel", 16384, 64,
     _sgemv(16384, 1024), ["gemv", "shfl", "vector", "streaming", "dynamic-shared"], _warps(64)),
    ("cudacodes_sgemv_vec_b256", "cudacodes_sgemv_vec.cu", "vectorized_sgemv_kernel", 2048, 256,
     _sgemv(2048, 8192), ["gemv", "shfl", "vector", "streaming", "dynamic-shared"], _warps(256)),
]

PREREG4 = PreregSet("prereg4", PREREG4_DIR, SUITES, LAUNCHES)


def prereg4_cases() -> list[Case]:
    """The fourth pre-registered set's launches as cases (set `prereg4`)."""
    return PREREG4.cases()


if __name__ == "__main__":
    print(f"wrote {PREREG4.write_registry()}")
