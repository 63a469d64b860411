"""The third pre-registered set (`validate run --cases prereg3`): public GPU kernels from
repositories this project had never used, copied whole into validate/prereg3/*.cu, whose launches
were fixed, and recorded on the H100 into a sealed folder, before any prediction of them was
committed. Held out of every fit (validate.families), like `prereg` and `prereg2`; built with the
same machinery (validate.prereg_cases.PreregSet). Change no launch once it is registered.

Sources (each file's header comment: repository, path, commit, licence and every edit; no
kernel body is changed; licence texts in validate/prereg3/LICENSES.md; kernels left out, and why:
validate/prereg3/STATUS.md): Liu-xiandong/How_to_optimize_in_GPU (Apache-2.0: the reduction
ladder, element-wise adds, SGEMV), leimao/CUDA-GEMM-Optimization (MIT: the SGEMM ladder of Lei
Mao's blog), Bruce-Lee-LY/cuda_hgemv (MIT: half-precision GEMV kernels), moocf/histogram.cuda
(MIT: byte histograms with global and shared atomics). File names start with the suite: liu_,
leimao_, bruce_, moocf_. None comes from a reserved suite, nor from the sources of the corpus or
of the first two sets.

Every launch is in bounds and deterministic: sizes are exact multiples of each kernel's tile (the
reductions and GEMV read without bounds checks), float sums are in a fixed order within a thread,
a warp or a block (no float atomics), and the histograms count with integer atomics. Sweeps (tag
`sweep:<kernel>`, names `<kernel>_b<block>_<size>`): one kernel at five block shapes over one
problem; the argument buffers are sized for the largest grid, so the problem stays the same.
"""
from __future__ import annotations

from pathlib import Path

from .case import Case
from .prereg_cases import PreregSet, _f, _i, _sweep

PREREG3_DIR = Path(__file__).parent / "prereg3"
SUITES = {"liu_": "Liu-xiandong/How_to_optimize_in_GPU", "leimao_": "leimao/CUDA-GEMM-Optimization",
          "bruce_": "Bruce-Lee-LY/cuda_hgemv", "moocf_": "moocf/histogram.cuda"}
M1, M4, M16 = 1 << 20, 1 << 22, 1 << 24
BLOCKS_1D = [(64,), (128,), (256,), (512,), (1024,)]
GEMM = "leimao_gemm.cu"


def _n(value: int) -> str:
    return f"uint64:{value}"


def _reduce(n: int, out: int) -> list[str]:
    return [_f(n), _f(out, "zeros")]


def _gemm(m: int, n: int, k: int) -> list[str]:
    """(m, n, k, alpha, A, lda, B, ldb, beta, C, ldc): row-major A m x k, B k x n, C m x n."""
    return [_n(m), _n(n), _n(k), "float32:1.0", _f(m * k), _n(k), _f(k * n), _n(n), "float32:0.5", _f(m * n), _n(n)]


def _sgemv(m: int, n: int) -> list[str]:
    """(A, x, y, M, N): y = A x, A row-major M x N."""
    return [_f(m * n), _f(n), _f(m, "zeros"), _i(m), _i(n)]


def _hgemv(n: int, k: int) -> list[str]:
    """(A, B, C, N, K): C[N] = A[K] . B, column n of B at B[n*K]."""
    return [f"float16[{k}]", f"float16[{n * k}]", f"float16[{n}]:zeros", _n(n), _n(k)]


def _hist(n: int, init: str = "randint(0,256)") -> list[str]:
    return ["int32[256]:zeros", f"uint8[{n}]:{init}", _i(n)]


HG_N, HG_K = 8192, 2048

LAUNCHES: list[tuple] = [
    # --- Liu-xiandong/How_to_optimize_in_GPU: the reduction ladder (each block writes its partial sum)
    ("liu_reduce0_interleaved", "liu_reduce_v0.cu", "reduce0", M4 // 256, 256, _reduce(M4, M4 // 256),
     ["reduction", "shared-tree", "divergent", "syncthreads"]),
    ("liu_reduce1_strided_index", "liu_reduce_v1.cu", "reduce1", M4 // 256, 256, _reduce(M4, M4 // 256),
     ["reduction", "shared-tree", "bank-conflicts", "syncthreads"]),
    # reduce2's shared array holds 256 floats: blocks up to 256 threads; output sized for the largest grid
    *_sweep("liu_reduce2", "liu_reduce_v2.cu", "reduce2", [(16,), (32,), (64,), (128,), (256,)],
            lambda b: M4 // b[0], _reduce(M4, M4 // 16), ["reduction", "shared-tree", "syncthreads"], "4M"),
    ("liu_reduce3_add_during_load", "liu_reduce_v3.cu", "reduce3", M4 // 512, 256, _reduce(M4, M4 // 512),
     ["reduction", "shared-tree", "syncthreads"]),
    ("liu_reduce4_unroll_last_warp", "liu_reduce_v4.cu", "reduce4", M4 // 512, 256, _reduce(M4, M4 // 512),
     ["reduction", "shared-tree", "volatile", "syncthreads"]),
    ("liu_reduce4_unroll_last_warp_b128", "liu_reduce_v4.cu", "reduce4", M4 // 256, 128, _reduce(M4, M4 // 256),
     ["reduction", "shared-tree", "volatile", "syncthreads"]),
    ("liu_reduce5_complete_unroll", "liu_reduce_v5.cu", "reduce5<256>", M16 // 512, 256, _reduce(M16, M16 // 512),
     ["reduction", "shared-tree", "volatile", "syncthreads"]),
    ("liu_reduce6_multi_add", "liu_reduce_v6.cu", "reduce6<256, 16>", M4 // 4096, 256,
     _reduce(M4, M4 // 4096) + ["uint32:4194304"], ["reduction", "shared-tree", "unrolled"]),
    ("liu_reduce6_few_blocks", "liu_reduce_v6.cu", "reduce6<128, 64>", 64, 128,
     _reduce(64 * 128 * 64, 64) + ["uint32:524288"], ["reduction", "shared-tree", "unrolled", "few-blocks", "latency"]),
    ("liu_reduce7_shuffle", "liu_reduce_v7.cu", "reduce7<256, 16>", M4 // 4096, 256,
     _reduce(M4, M4 // 4096) + ["uint32:4194304"], ["reduction", "shfl", "unrolled"]),
    ("liu_reduce7_shuffle_16M", "liu_reduce_v7.cu", "reduce7<256, 32>", M16 // 8192, 256,
     _reduce(M16, M16 // 8192) + ["uint32:16777216"], ["reduction", "shfl", "unrolled", "streaming"]),
    # one block of 1024 threads over 256K floats: the serial, latency-bound last pass
    ("liu_reduce7_one_block", "liu_reduce_v7.cu", "reduce7<1024, 256>", 1, 1024,
     _reduce(1 << 18, 1) + ["uint32:262144"], ["reduction", "shfl", "one-block", "latency", "unrolled"]),
    # --- element-wise adds: scalar, float2, float4 (no bounds check: exact multiples)
    *_sweep("liu_add", "liu_elementwise_add.cu", "add", BLOCKS_1D, lambda b: M4 // b[0],
            [_f(M4), _f(M4), _f(M4, "zeros")], ["elementwise", "streaming"], "4M"),
    ("liu_add_16M", "liu_elementwise_add.cu", "add", M16 // 256, 256, [_f(M16), _f(M16), _f(M16, "zeros")],
     ["elementwise", "streaming"]),
    ("liu_vec2_add", "liu_elementwise_add.cu", "vec2_add", M4 // 512, 256, [_f(M4), _f(M4), _f(M4, "zeros")],
     ["elementwise", "streaming", "vector"]),
    ("liu_vec4_add", "liu_elementwise_add.cu", "vec4_add", M16 // 1024, 256, [_f(M16), _f(M16), _f(M16, "zeros")],
     ["elementwise", "streaming", "vector"]),
    # --- SGEMV: a warp a row (v0, v1 float4), a quarter warp a row (v2, N = 8)
    *_sweep("liu_sgemv_v0", "liu_sgemv_v0.cu", "Sgemv_v0", [(32, 1), (32, 2), (32, 4), (32, 8), (32, 16)],
            lambda b: 16384 // b[1], _sgemv(16384, 256), ["gemv", "shfl", "2d"], "16384x256"),
    ("liu_sgemv_v1_4096x1024", "liu_sgemv_v1.cu", "Sgemv_v1", 1024, (32, 4), _sgemv(4096, 1024),
     ["gemv", "shfl", "vector", "2d"]),
    ("liu_sgemv_v1_1024x8192", "liu_sgemv_v1.cu", "Sgemv_v1", 256, (32, 4), _sgemv(1024, 8192),
     ["gemv", "shfl", "vector", "2d"]),
    ("liu_sgemv_v2_short_rows", "liu_sgemv_v2.cu", "Sgemv_v2<4>", 524288 // 16, (32, 4), _sgemv(524288, 8),
     ["gemv", "shfl", "2d", "sub-warp"]),
    # --- leimao/CUDA-GEMM-Optimization: v00 maps threadIdx.x to rows (uncoalesced), v01 to columns
    ("leimao_gemm_v00_512", GEMM, "gemm_v00<float>", (16, 16), (32, 32), _gemm(512, 512, 512),
     ["gemm", "naive", "2d", "uncoalesced"]),
    *_sweep("leimao_gemm_v01", GEMM, "gemm_v01<float>", [(32, 32), (32, 8), (16, 16), (64, 4), (8, 32)],
            lambda b: (512 // b[0], 512 // b[1]), _gemm(512, 512, 512), ["gemm", "naive", "2d"], "512"),
    ("leimao_gemm_v02_512", GEMM, "gemm_v02<float, 32, 32, 32>", (16, 16), (32, 32), _gemm(512, 512, 512),
     ["gemm", "shared", "tile", "syncthreads"]),
    ("leimao_gemm_v02_1024x1024x128", GEMM, "gemm_v02<float, 32, 32, 32>", (32, 32), (32, 32),
     _gemm(1024, 1024, 128), ["gemm", "shared", "tile", "syncthreads"]),
    ("leimao_gemm_v03_512", GEMM, "gemm_v03<float, 64, 64, 8, 8>", (8, 8), 512, _gemm(512, 512, 512),
     ["gemm", "shared", "register-tile"]),
    ("leimao_gemm_v03_1024x1024x128", GEMM, "gemm_v03<float, 64, 64, 8, 8>", (16, 16), 512,
     _gemm(1024, 1024, 128), ["gemm", "shared", "register-tile"]),
    ("leimao_gemm_v04_512", GEMM, "gemm_v04<float, 128, 128, 16, 8, 8>", (4, 4), 256, _gemm(512, 512, 512),
     ["gemm", "shared", "register-tile", "few-blocks"]),
    ("leimao_gemm_v04_vectorized_512", GEMM, "gemm_v04_vectorized<float, 128, 128, 16, 8, 8>", (4, 4), 256,
     _gemm(512, 512, 512), ["gemm", "shared", "register-tile", "vector", "few-blocks"]),
    ("leimao_gemm_v04_vectorized_1024x1024x128", GEMM, "gemm_v04_vectorized<float, 128, 128, 16, 8, 8>", (8, 8),
     256, _gemm(1024, 1024, 128), ["gemm", "shared", "register-tile", "vector"]),
    # --- Bruce-Lee-LY/cuda_hgemv: 128 threads a block (fixed by the kernels), K = 2048, N = 8192
    ("bruce_hgemv_thread_naive", "bruce_hgemv_thread_naive.cu", "threadNaiveKernel", HG_N // 128, 128,
     _hgemv(HG_N, HG_K), ["gemv", "half", "uncoalesced", "few-blocks"]),
    ("bruce_hgemv_thread_smem", "bruce_hgemv_thread_smem.cu", "threadSmemKernel", HG_N // 128, 128,
     _hgemv(HG_N, HG_K), ["gemv", "half", "uncoalesced", "few-blocks", "dynamic-shared"], 2 * HG_K),
    ("bruce_hgemv_warp1_naive", "bruce_hgemv_warp1_naive.cu", "warp1NaiveKernel", HG_N // 4, 128,
     _hgemv(HG_N, HG_K), ["gemv", "half", "shfl"]),
    ("bruce_hgemv_warp8_naive", "bruce_hgemv_warp8_naive.cu", "warp8NaiveKernel", HG_N // 32, 128,
     _hgemv(HG_N, HG_K), ["gemv", "half", "shfl", "sub-warp"]),
    ("bruce_hgemv_warp4_smem", "bruce_hgemv_warp4_smem.cu", "warp4SmemKernel", HG_N // 16, 128,
     _hgemv(HG_N, HG_K), ["gemv", "half", "shfl", "sub-warp", "dynamic-shared"], 2 * HG_K),
    ("bruce_hgemv_warp16_smem", "bruce_hgemv_warp16_smem.cu", "warp16SmemKernel", HG_N // 64, 128,
     _hgemv(HG_N, HG_K), ["gemv", "half", "shfl", "sub-warp", "dynamic-shared"], 2 * HG_K),
    # --- moocf/histogram.cuda: 256 bins of bytes, integer atomics (exact in any order)
    *_sweep("moocf_histogram_global", "moocf_histogram.cu", "kernel", BLOCKS_1D, lambda b: 256, _hist(M4),
            ["histogram", "atomic", "contended-atomic", "grid-stride", "uint8"], "4M"),
    # kernelShared's shared histogram has one bin a thread: 256 threads a block
    ("moocf_histogram_shared", "moocf_histogram.cu", "kernelShared", 512, 256, _hist(M16),
     ["histogram", "atomic", "shared-atomic", "grid-stride", "uint8"]),
    ("moocf_histogram_shared_skewed", "moocf_histogram.cu", "kernelShared", 512, 256, _hist(M4, "randint(0,4)"),
     ["histogram", "atomic", "shared-atomic", "contended-atomic", "grid-stride", "uint8"]),
    ("moocf_histogram_shared_few_blocks", "moocf_histogram.cu", "kernelShared", 32, 256, _hist(M4),
     ["histogram", "atomic", "shared-atomic", "grid-stride", "uint8", "few-blocks"]),
]

PREREG3 = PreregSet("prereg3", PREREG3_DIR, SUITES, LAUNCHES)


def prereg3_cases() -> list[Case]:
    """The third pre-registered set's launches as cases (set `prereg3`)."""
    return PREREG3.cases()


if __name__ == "__main__":
    print(f"wrote {PREREG3.write_registry()}")
