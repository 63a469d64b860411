"""The corpus: kernels in the style people really write (validate/corpus/*.cu), launched at
moderate sizes, to be recorded on an H100 and held like the suite (`validate run --cases corpus`).

The suite's microbenchmarks each isolate one counter rule; the corpus is the other half: whole
idioms (reduction ladders, scans, histograms, softmax and layernorm rows, stencils, a GEMM
ladder, half and double precision, warp votes, atomicCAS loops) as tutorials and public projects
write them. Most kernels are our own, written for this corpus; each one's header comment names
the public idiom it is modelled on (the public kernels copied whole: below). Launches carry no
`expect`: the hardware is the reference.

Every launch is in bounds and deterministic: sizes are multiples of the tiles where the kernel
needs it, indices come from randint within range, and sums that atomics build in any order are
exact (small integers stored as floats: init randint). One exception by design, tag
`racy-count`: an atomicCAS loop retries as often as other warps win the race, so its atomic
instruction counts depend on timing (its result does not).

LAUNCHES is the table: (name, file, kernel, grid, block, args, tags[, dynamic shared bytes]).
Kernels named like `k_reduce_shfl<256>` are templates launched by their C++ name (NVRTC name
expressions; the source instantiates them). Tag `needs-headers`: the file includes CUDA
toolkit headers (cuda_fp16.h, cooperative_groups.h, cuda_pipeline.h), which NVRTC must find.

Public kernels (tag `public`, files llmc_*.cu and cusamples_*.cu): besides our own kernels, real
kernels copied from karpathy/llm.c dev/cuda (MIT) and NVIDIA/cuda-samples (BSD-3-Clause), with
their licence, repository, path, commit and every edit (host code removed, headers inlined,
defines added) in each file's header comment; no kernel body is changed. They keep their own
names (no k_ prefix; a C++ kernel is found through its NVRTC name expression) and are launched at
scaled-down GPT-2-small shapes. Every public family is in the held-out corpus
(validate.families): no time-model fit reads them.
"""
from __future__ import annotations

import functools
from pathlib import Path
from types import SimpleNamespace

from memsim.launch import LaunchSpec

from .case import Case
from .families import PUBLIC_FILE_PREFIXES as PUBLIC_PREFIXES  # files copied from public repositories

CORPUS_DIR = Path(__file__).parent / "corpus"


def is_public(filename: str) -> bool:
    """Whether a corpus file is a public kernel copied with its licence (not written for memsim)."""
    return filename.startswith(PUBLIC_PREFIXES)


HEADER_FILES = {"cg_reduce.cu", "half.cu", "pipeline.cu",
                *(p.name for p in CORPUS_DIR.glob("*.cu") if is_public(p.name))}  # all public files #include

M1 = 1 << 20  # a million elements: the default 1-D size
F = "float32"


def _f(count: int, init: str = "random") -> str:
    return f"{F}[{count}]:{init}"


def _i(value: int) -> str:
    return f"int32:{value}"


def _gemm(n: int, beta_c: bool = True) -> list[str]:
    """(M, N, K, alpha, A, B, beta, C) of an n^3 SGEMM."""
    return [_i(n), _i(n), _i(n), "float32:1.0", _f(n * n), _f(n * n), "float32:0.5", _f(n * n)]


def _gemm_abc(n: int) -> list[str]:
    """(M, N, K, A, B, C) of an n^3 SGEMM without alpha and beta."""
    return [_i(n), _i(n), _i(n), _f(n * n), _f(n * n), _f(n * n, "zeros")]


SMALL_INTS = "randint(0,4)"  # exact float sums in any order

LAUNCHES: list[tuple] = [
    # --- reductions: validate/corpus/reduce.cu
    ("reduce_interleaved", "reduce.cu", "k_reduce_interleaved", 4096, 256,
     [_f(M1), _f(4096, "zeros"), _i(M1)], ["reduction", "shared-tree", "divergence"], 1024),
    ("reduce_strided_index", "reduce.cu", "k_reduce_strided_index", 4096, 256,
     [_f(M1), _f(4096, "zeros"), _i(M1)], ["reduction", "shared-tree", "bank-conflicts"], 1024),
    ("reduce_sequential", "reduce.cu", "k_reduce_sequential", 2048, 256,
     [_f(M1), _f(2048, "zeros"), _i(M1)], ["reduction", "shared-tree"], 1024),
    ("reduce_sequential_b128_partial", "reduce.cu", "k_reduce_sequential", 3907, 128,
     [_f(1000000), _f(3907, "zeros"), _i(1000000)], ["reduction", "shared-tree", "partial"], 512),
    ("reduce_unroll_last_warp", "reduce.cu", "k_reduce_unroll_last_warp", 2048, 256,
     [_f(M1), _f(2048, "zeros"), _i(M1)], ["reduction", "shared-tree", "volatile"]),
    ("reduce_complete_unroll_256", "reduce.cu", "k_reduce_complete_unroll<256>", 512, 256,
     [_f(M1), _f(512, "zeros"), f"uint32:{M1}"], ["reduction", "template", "grid-stride", "shfl"]),
    ("reduce_complete_unroll_512", "reduce.cu", "k_reduce_complete_unroll<512>", 132, 512,
     [_f(M1), _f(132, "zeros"), f"uint32:{M1}"], ["reduction", "template", "grid-stride", "shfl"]),
    ("reduce_shfl_256", "reduce.cu", "k_reduce_shfl<256>", 1024, 256,
     [_f(M1, SMALL_INTS), _f(1, "zeros"), _i(M1)], ["reduction", "template", "shfl", "atomic", "grid-stride"]),
    ("reduce_shfl_128_partial", "reduce.cu", "k_reduce_shfl<128>", 264, 128,
     [_f(1000000, SMALL_INTS), _f(1, "zeros"), _i(1000000)],
     ["reduction", "template", "shfl", "atomic", "grid-stride", "partial"]),
    ("reduce_xor_float4", "reduce.cu", "k_reduce_xor_float4", 512, 256,
     [_f(M1, SMALL_INTS), _f(1, "zeros"), _i(M1 // 4)], ["reduction", "shfl", "vector", "atomic", "grid-stride"]),
    ("dot_shared_atomic", "reduce.cu", "k_dot", 1024, 256,
     [_f(M1, "randint(0,3)"), _f(M1, "randint(0,3)"), _f(1, "zeros"), _i(M1)],
     ["reduction", "shared-tree", "atomic", "grid-stride"]),
    ("reduce_max_int", "reduce.cu", "k_reduce_max_int", 512, 256,
     [f"int32[{M1}]:randint(0,1000000)", "int32[1]:zeros", _i(M1)], ["reduction", "shfl", "atomic"]),
    # --- cooperative groups: validate/corpus/cg_reduce.cu
    ("cg_reduce_tile", "cg_reduce.cu", "k_cg_reduce_tile", 1024, 256,
     [_f(M1, SMALL_INTS), _f(1, "zeros"), _i(M1)], ["reduction", "cooperative-groups", "shfl", "atomic"]),
    ("cg_reduce_shared_256", "cg_reduce.cu", "k_cg_reduce_shared<256>", 2048, 256,
     [_f(M1), _f(2048, "zeros"), _i(M1)], ["reduction", "cooperative-groups", "template", "shfl"]),
    # --- scans: validate/corpus/scan.cu
    ("scan_hillis_steele", "scan.cu", "k_scan_hillis_steele", 4096, 256,
     [_f(M1), _f(M1, "zeros"), _f(4096, "zeros"), _i(M1)], ["scan", "double-buffer"], 2048),
    ("scan_hillis_steele_b1024", "scan.cu", "k_scan_hillis_steele", 1024, 1024,
     [_f(M1), _f(M1, "zeros"), _f(1024, "zeros"), _i(M1)], ["scan", "double-buffer"], 8192),
    ("scan_blelloch", "scan.cu", "k_scan_blelloch", 2048, 256,
     [_f(M1), _f(M1, "zeros"), _f(2048, "zeros"), _i(M1)], ["scan", "bank-conflicts"], 2048),
    ("scan_blelloch_b512_partial", "scan.cu", "k_scan_blelloch", 977, 512,
     [_f(1000000), _f(1000000, "zeros"), _f(977, "zeros"), _i(1000000)], ["scan", "bank-conflicts", "partial"], 4096),
    ("scan_blelloch_padded", "scan.cu", "k_scan_blelloch_padded", 2048, 256,
     [_f(M1), _f(M1, "zeros"), _f(2048, "zeros"), _i(M1)], ["scan", "padding"]),
    ("scan_warp_shfl_256", "scan.cu", "k_scan_warp_shfl<256>", 4096, 256,
     [f"int32[{M1}]:randint(0,10)", f"int32[{M1}]:zeros", "int32[4096]:zeros", _i(M1)],
     ["scan", "shfl", "template"]),
    ("scan_warp_shfl_1024_partial", "scan.cu", "k_scan_warp_shfl<1024>", 977, 1024,
     ["int32[1000000]:randint(0,10)", "int32[1000000]:zeros", "int32[977]:zeros", _i(1000000)],
     ["scan", "shfl", "template", "partial"]),
    ("scan_add_block_offsets", "scan.cu", "k_scan_add_block_offsets", 4096, 256,
     [_f(M1), _f(4096), _i(M1)], ["scan", "broadcast"]),
    # --- histograms: validate/corpus/histogram.cu
    ("hist_global_64", "histogram.cu", "k_hist_global", 1024, 256,
     [f"int32[{M1}]:randint(0,64)", "uint32[64]:zeros", _i(M1)], ["histogram", "atomic", "grid-stride"]),
    ("hist_global_4096", "histogram.cu", "k_hist_global", 1024, 256,
     [f"int32[{M1}]:randint(0,4096)", "uint32[4096]:zeros", _i(M1)], ["histogram", "atomic", "gather"]),
    ("hist_shared_256", "histogram.cu", "k_hist_shared", 264, 256,
     [f"int32[{M1}]:randint(0,256)", "uint32[256]:zeros", _i(M1), _i(256)],
     ["histogram", "atomic", "shared-atomic", "dynamic-shared"], 1024),
    ("hist_shared_1024", "histogram.cu", "k_hist_shared", 264, 512,
     [f"int32[{M1}]:randint(0,1024)", "uint32[1024]:zeros", _i(M1), _i(1024)],
     ["histogram", "atomic", "shared-atomic", "dynamic-shared"], 4096),
    ("hist_shared_4bins", "histogram.cu", "k_hist_shared", 264, 256,
     [f"int32[{M1}]:randint(0,4)", "uint32[4]:zeros", _i(M1), _i(4)],
     ["histogram", "atomic", "shared-atomic", "contention"], 16),
    ("hist256_bytes", "histogram.cu", "k_hist256_bytes", 264, 256,
     [f"uint32[{M1 // 4}]:randint(0,4294967296)", "uint32[256]:zeros", _i(M1 // 4)],
     ["histogram", "atomic", "shared-atomic"]),
    ("hist_per_warp", "histogram.cu", "k_hist_per_warp", 264, 256,
     [f"int32[{M1}]:randint(0,64)", "uint32[64]:zeros", _i(M1)],
     ["histogram", "atomic", "shared-atomic", "dynamic-shared"], 8 * 64 * 4),
    # --- softmax and layernorm rows: validate/corpus/rows.cu
    ("softmax_thread_per_row", "rows.cu", "k_softmax_thread_per_row", 32, 128,
     [_f(4096 * 256), _f(4096 * 256, "zeros"), _i(4096), _i(256)], ["softmax", "rows", "uncoalesced"]),
    ("softmax_block_per_row", "rows.cu", "k_softmax_block_per_row", 4096, 128,
     [_f(4096 * 256), _f(4096 * 256, "zeros"), _i(4096), _i(256)], ["softmax", "rows", "shared-tree", "division"], 512),
    ("softmax_block_per_row_c1000", "rows.cu", "k_softmax_block_per_row", 1024, 256,
     [_f(1024 * 1000), _f(1024 * 1000, "zeros"), _i(1024), _i(1000)],
     ["softmax", "rows", "shared-tree", "division", "partial"], 1024),
    ("softmax_warp_per_row", "rows.cu", "k_softmax_warp_per_row", 512, 256,
     [_f(4096 * 256), _f(4096 * 256, "zeros"), _i(4096), _i(256)], ["softmax", "rows", "shfl", "division"]),
    ("softmax_warp_per_row_c77", "rows.cu", "k_softmax_warp_per_row", 1024, 256,
     [_f(8192 * 77), _f(8192 * 77, "zeros"), _i(8192), _i(77)], ["softmax", "rows", "shfl", "division", "partial"]),
    ("softmax_online_float4", "rows.cu", "k_softmax_online_float4", 512, 256,
     [_f(4096 * 256), _f(4096 * 256, "zeros"), _i(4096), _i(64)], ["softmax", "rows", "shfl", "vector"]),
    ("layernorm_thread_per_row", "rows.cu", "k_layernorm_thread_per_row", 32, 128,
     [_f(4096 * 256, "zeros"), _f(4096, "zeros"), _f(4096, "zeros"), _f(4096 * 256), _f(256), _f(256),
      _i(4096), _i(256)], ["layernorm", "rows", "uncoalesced", "division"]),
    ("layernorm_block_per_row", "rows.cu", "k_layernorm_block_per_row", 2048, 256,
     [_f(2048 * 768, "zeros"), _f(2048, "zeros"), _f(2048, "zeros"), _f(2048 * 768), _f(768), _f(768), _i(768)],
     ["layernorm", "rows", "shared-tree", "division"], 1024),
    ("layernorm_warp_per_row", "rows.cu", "k_layernorm_warp_per_row", 256, 256,
     [_f(2048 * 768, "zeros"), _f(2048, "zeros"), _f(2048, "zeros"), _f(2048 * 768), _f(768), _f(768),
      _i(2048), _i(768)], ["layernorm", "rows", "shfl", "division", "cache-hints"]),
    # --- stencils: validate/corpus/stencil.cu
    ("stencil1d_r3", "stencil.cu", "k_stencil1d", 4096, 256, [_f(M1), _f(M1, "zeros"), _i(M1)],
     ["stencil", "halo", "shared"]),
    ("stencil1d_r3_partial", "stencil.cu", "k_stencil1d", 3907, 256, [_f(1000000), _f(1000000, "zeros"), _i(1000000)],
     ["stencil", "halo", "shared", "partial"]),
    ("conv1d_const_r8", "stencil.cu", "k_conv1d_const", 4096, 256, [_f(M1), _f(M1, "zeros"), _i(M1), _i(8)],
     ["stencil", "halo", "constant", "dynamic-shared"], (256 + 16) * 4),
    ("conv1d_const_r3_b128", "stencil.cu", "k_conv1d_const", 4096, 128,
     [_f(M1 // 2), _f(M1 // 2, "zeros"), _i(M1 // 2), _i(3)], ["stencil", "halo", "constant", "dynamic-shared"],
     (128 + 6) * 4),
    ("jacobi2d_1024", "stencil.cu", "k_jacobi2d", (64, 64), (16, 16),
     [_f(1024 * 1024), _f(1024 * 1024, "zeros"), _i(1024), _i(1024)], ["stencil", "halo", "2d"]),
    ("jacobi2d_1000_partial", "stencil.cu", "k_jacobi2d", (63, 63), (16, 16),
     [_f(1000 * 1000), _f(1000 * 1000, "zeros"), _i(1000), _i(1000)], ["stencil", "halo", "2d", "partial"]),
    ("deriv_x_8th_order", "stencil.cu", "k_deriv_x", (16, 256), (32, 4),
     [_f(1024 * 1024), _f(1024 * 1024, "zeros"), _i(1024), "float32:1024.0"], ["stencil", "halo", "2d", "periodic"]),
    ("box_blur3x3_1024", "stencil.cu", "k_box_blur3x3", (32, 128), (32, 8),
     [_f(1024 * 1024), _f(1024 * 1024, "zeros"), _i(1024), _i(1024)], ["stencil", "halo", "2d", "image"]),
    ("box_blur3x3_1000x600", "stencil.cu", "k_box_blur3x3", (32, 75), (32, 8),
     [_f(1000 * 600), _f(1000 * 600, "zeros"), _i(1000), _i(600)], ["stencil", "halo", "2d", "image", "partial"]),
    # --- GEMM ladder and matrix-vector: validate/corpus/gemm.cu
    ("sgemm_naive_256", "gemm.cu", "k_sgemm_naive", (8, 8), (32, 32), _gemm(256), ["gemm", "naive", "uncoalesced", "2d"]),
    ("sgemm_coalesced_256", "gemm.cu", "k_sgemm_coalesced<32>", (8, 8), 1024, _gemm(256), ["gemm", "template"]),
    ("sgemm_tiled16_256", "gemm.cu", "k_sgemm_tiled<16>", (16, 16), (16, 16), _gemm(256),
     ["gemm", "template", "shared", "tile", "2d"]),
    ("sgemm_tiled32_256", "gemm.cu", "k_sgemm_tiled<32>", (8, 8), (32, 32), _gemm(256),
     ["gemm", "template", "shared", "tile", "2d"]),
    ("sgemm_tiled32_512", "gemm.cu", "k_sgemm_tiled<32>", (16, 16), (32, 32), _gemm(512),
     ["gemm", "template", "shared", "tile", "2d"]),
    ("sgemm_1d_blocktile_512", "gemm.cu", "k_sgemm_1d_blocktile<64, 64, 8, 8>", (8, 8), 512, _gemm(512),
     ["gemm", "template", "shared", "register-tile"]),
    ("sgemm_2d_blocktile_256", "gemm.cu", "k_sgemm_2d_blocktile<64, 64, 8, 4, 4>", (4, 4), 256, _gemm(256),
     ["gemm", "template", "shared", "register-tile"]),
    ("sgemm_2d_blocktile_128x128_512", "gemm.cu", "k_sgemm_2d_blocktile<128, 128, 8, 8, 8>", (4, 4), 256, _gemm(512),
     ["gemm", "template", "shared", "register-tile"]),
    ("sgemm_vectorized_512", "gemm.cu", "k_sgemm_vectorized<64, 64, 16, 4, 4>", (8, 8), 256, _gemm(512),
     ["gemm", "template", "shared", "register-tile", "vector"]),
    ("sgemm_cp_async_256", "gemm.cu", "k_sgemm_cp_async", (8, 8), (16, 16), _gemm_abc(256),
     ["gemm", "cp-async", "inline-ptx", "double-buffer", "2d"]),
    ("sgemm_cp_async_512", "gemm.cu", "k_sgemm_cp_async", (16, 16), (16, 16), _gemm_abc(512),
     ["gemm", "cp-async", "inline-ptx", "double-buffer", "2d"]),
    ("gemv_thread_per_row", "gemm.cu", "k_gemv_thread_per_row", 32, 128,
     [_f(4096 * 256), _f(256), _f(4096, "zeros"), _i(4096), _i(256)], ["gemv", "uncoalesced"]),
    ("gemv_warp_per_row", "gemm.cu", "k_gemv_warp_per_row", 512, 256,
     [_f(4096 * 256), _f(256), _f(4096, "zeros"), _i(4096), _i(256)], ["gemv", "shfl", "ldg"]),
    ("gemv_warp_per_row_c1000", "gemm.cu", "k_gemv_warp_per_row", 128, 256,
     [_f(1024 * 1000), _f(1000), _f(1024, "zeros"), _i(1024), _i(1000)], ["gemv", "shfl", "ldg", "partial"]),
    ("gemv_transposed_shared_x", "gemm.cu", "k_gemv_transposed_shared_x", 16, 256,
     [_f(256 * 4096), _f(256), _f(4096, "zeros"), _i(256), _i(4096)], ["gemv", "shared", "broadcast"], 1024),
    # --- cuda_pipeline.h: validate/corpus/pipeline.cu
    ("sgemm_pipeline_256", "pipeline.cu", "k_sgemm_pipeline", (16, 16), (16, 16), _gemm_abc(256),
     ["gemm", "cp-async", "pipeline", "double-buffer", "2d"]),
    # --- half precision: validate/corpus/half.cu
    ("haxpy_half2", "half.cu", "k_haxpy_half2", 1024, 256,
     [_i(M1 // 2), "float32:2.0", f"float16[{M1}]", f"float16[{M1}]"], ["half", "grid-stride"]),
    ("hdot_half2", "half.cu", "k_hdot_half2", 512, 256,
     [f"float16[{M1}]:randint(0,3)", f"float16[{M1}]:randint(0,3)", _f(1, "zeros"), _i(M1 // 2)],
     ["half", "reduction", "shfl", "atomic"]),
    ("hgemm_tiled16_256", "half.cu", "k_hgemm_tiled", (16, 16), (16, 16),
     [_i(256), _i(256), _i(256), "float16[65536]", "float16[65536]", _f(65536, "zeros")],
     ["half", "gemm", "shared", "tile", "2d"]),
    ("float_to_half2", "half.cu", "k_float_to_half2", 2048, 256,
     [_f(M1), f"float16[{M1}]:zeros", _i(M1 // 2)], ["half", "conversion", "vector"]),
    # --- one feature each: validate/corpus/misc.cu
    ("daxpy", "misc.cu", "k_daxpy", 1024, 256, [_i(M1), "float64:2.5", f"float64[{M1}]", f"float64[{M1}]"],
     ["double", "grid-stride"]),
    ("saxpy", "misc.cu", "k_saxpy", 4096, 256, [_i(M1), "float32:2.0", _f(M1), _f(M1)], ["elementwise"]),
    ("saxpy_partial", "misc.cu", "k_saxpy", 3907, 256, [_i(1000003), "float32:2.0", _f(1000003), _f(1000003)],
     ["elementwise", "partial"]),
    ("dsum_atomic", "misc.cu", "k_dsum_atomic", 512, 256, [f"float64[{M1}]:randint(0,4)", "float64[1]:zeros", _i(M1)],
     ["double", "reduction", "shared-tree", "atomic"]),
    ("local_lookup", "misc.cu", "k_local_lookup", 4096, 256,
     [_f(M1), f"int32[{M1}]:randint(0,144)", _f(M1, "zeros"), _i(M1)], ["local", "dynamic-index"]),
    ("noinline_call", "call.cu", "k_noinline_call", 1024, 256,
     [_f(M1), _f(M1, "zeros"), _i(M1), "float32:0.2", "float32:0.8"], ["call", "noinline", "division"]),
    ("compact_ballot", "misc.cu", "k_compact_ballot", 4096, 256,
     [_f(M1), _f(M1, "zeros"), "int32[4096]:zeros", _i(M1), "float32:0.5"],
     ["compaction", "ballot", "vote", "syncwarp", "divergence"]),
    ("compact_ballot_sparse", "misc.cu", "k_compact_ballot", 4096, 256,
     [_f(M1), _f(M1, "zeros"), "int32[4096]:zeros", _i(M1), "float32:0.97"],
     ["compaction", "ballot", "vote", "syncwarp", "divergence"]),
    ("filter_warp_aggregated", "misc.cu", "k_filter_warp_aggregated", 4096, 256,
     [f"int32[{M1}]", f"int32[{M1}]:zeros", "int32[1]:zeros", _i(M1), _i(50)],
     ["compaction", "ballot", "atomic", "warp-aggregated"]),
    ("max_atomic_cas", "misc.cu", "k_max_atomic_cas", 1024, 256, [_f(M1), _f(1, "zeros"), _i(M1)],
     ["atomic", "atomic-cas", "shfl", "reduction", "racy-count"]),
    ("transpose_ldg_1024", "misc.cu", "k_transpose_ldg", (32, 32), (32, 8),
     [_f(1024 * 1024, "zeros"), _f(1024 * 1024), _i(1024), _i(1024)], ["transpose", "ldg", "tile", "padding", "2d"]),
    ("transpose_ldg_2048x512", "misc.cu", "k_transpose_ldg", (64, 16), (32, 8),
     [_f(2048 * 512, "zeros"), _f(2048 * 512), _i(2048), _i(512)], ["transpose", "ldg", "tile", "padding", "2d"]),
    ("transpose_naive_1024", "misc.cu", "k_transpose_naive", (32, 32), (32, 8),
     [_f(1024 * 1024, "zeros"), _f(1024 * 1024), _i(1024), _i(1024)], ["transpose", "ldg", "uncoalesced", "2d"]),
    ("copy_float4_tail", "misc.cu", "k_copy_float4", 1024, 256, [_f(M1 + 3), _f(M1 + 3, "zeros"), _i(M1 + 3)],
     ["vector", "grid-stride", "partial"]),
    ("bias_relu", "misc.cu", "k_bias_relu", (3, 1024), 256,
     [_f(1024 * 768), _f(768), _f(1024 * 768, "zeros"), _i(1024), _i(768)], ["elementwise", "2d", "broadcast"]),
    ("gelu", "misc.cu", "k_gelu", 1024, 256, [_f(M1, "zeros"), _f(M1), _i(M1)], ["elementwise", "grid-stride"]),
    # --- public kernels, copied with their licences (validate/corpus/llmc_*.cu: karpathy/llm.c dev/cuda, MIT;
    # validate/corpus/cusamples_*.cu: NVIDIA/cuda-samples, BSD-3-Clause). Sizes are GPT-2-small shapes scaled
    # down: B*T = 1024 rows of C = 768 channels, NH = 12 heads of 64, T = 128 for attention.
    ("llmc_softmax_forward_kernel1", "llmc_softmax_forward.cu", "softmax_forward_kernel1", 8, 128,
     [_f(1024 * 1024, "zeros"), _f(1024 * 1024), _i(1024), _i(1024)], ["softmax", "rows", "uncoalesced"]),
    ("llmc_softmax_forward_kernel2", "llmc_softmax_forward.cu", "softmax_forward_kernel2", 1024, 128,
     [_f(1024 * 1024, "zeros"), _f(1024 * 1024), _i(1024), _i(1024)], ["softmax", "rows", "shared-tree", "division"],
     128 * 4),
    ("llmc_softmax_forward_kernel7", "llmc_softmax_forward.cu", "softmax_forward_kernel7", 1024, 128,
     [_f(1024 * 1024, "zeros"), _f(1024 * 1024), _i(1024), _i(1024)], ["softmax", "rows", "shfl", "unroll"],
     2 * 128 // 32 * 4),
    ("llmc_softmax_forward_online_kernel8", "llmc_softmax_forward.cu", "softmax_forward_online_kernel8", 256, 128,
     [_f(1024 * 1024, "zeros"), _f(1024 * 1024), _i(1024), _i(1024)], ["softmax", "rows", "shfl", "online"]),
    ("llmc_layernorm_forward_kernel1", "llmc_layernorm_forward.cu", "layernorm_forward_kernel1", 8, 128,
     [_f(1024 * 768, "zeros"), _f(1024, "zeros"), _f(1024, "zeros"), _f(1024 * 768), _f(768), _f(768),
      _i(1024), _i(768)], ["layernorm", "rows", "uncoalesced", "division"]),
    ("llmc_layernorm_mean_kernel", "llmc_layernorm_forward.cu", "mean_kernel", 1024, 128,
     [_f(1024, "zeros"), _f(1024 * 768), _i(1024), _i(768), _i(128)], ["layernorm", "rows", "shared-tree"], 128 * 4),
    ("llmc_layernorm_normalization_kernel", "llmc_layernorm_forward.cu", "normalization_kernel", 3072, 256,
     [_f(1024 * 768, "zeros"), _f(1024 * 768), _f(1024), _f(1024), _f(768), _f(768), _i(4), _i(256), _i(768)],
     ["layernorm", "elementwise", "broadcast", "division"]),
    ("llmc_layernorm_forward_kernel3", "llmc_layernorm_forward.cu", "layernorm_forward_kernel3", 128, 256,
     [_f(1024 * 768, "zeros"), _f(1024, "zeros"), _f(1024, "zeros"), _f(1024 * 768), _f(768), _f(768),
      _i(1024), _i(768)], ["layernorm", "rows", "cooperative-groups", "shfl", "cache-hints"]),
    ("llmc_layernorm_forward_kernel5", "llmc_layernorm_forward.cu", "layernorm_forward_kernel5", 1024, 256,
     [_f(1024 * 768, "zeros"), _f(1024, "zeros"), _f(1024, "zeros"), _f(1024 * 768), _f(768), _f(768),
      _i(1024), _i(768)], ["layernorm", "rows", "cooperative-groups", "shfl", "shared"]),
    ("llmc_crossentropy_forward_kernel1", "llmc_crossentropy_forward.cu", "crossentropy_forward_kernel1", 16, 128,
     [_f(2048, "zeros"), _f(2048 * 2048), "int32[2048]:randint(0,2048)", _i(8), _i(256), _i(2048)],
     ["gather", "rows"]),
    ("llmc_crossentropy_softmax_backward_kernel1", "llmc_crossentropy_softmax_backward.cu",
     "crossentropy_softmax_backward_kernel1", 4096, 256,
     [_f(256 * 4096, "zeros"), _f(256), _f(256 * 4096), "int32[256]:randint(0,4096)", _i(4), _i(64), _i(4096)],
     ["elementwise", "division", "broadcast"]),
    ("llmc_gelu_forward_kernel1_bf16", "llmc_gelu_forward.cu", "gelu_forward_kernel1", 3072, 256,
     [f"uint16[{256 * 3072}]:zeros", f"uint16[{256 * 3072}]:randint(15360,16256)", _i(256 * 3072)],
     ["bf16", "elementwise", "transcendental"]),
    ("llmc_gelu_forward_kernel2_bf16", "llmc_gelu_forward.cu", "gelu_forward_kernel2", 384, 256,
     [f"uint16[{256 * 3072}]:zeros", f"uint16[{256 * 3072}]:randint(15360,16256)", _i(256 * 3072)],
     ["bf16", "elementwise", "transcendental", "vector", "cache-hints"]),
    ("llmc_residual_forward_kernel1_bf16", "llmc_residual_forward.cu", "residual_forward_kernel1", 3072, 256,
     [f"uint16[{1024 * 768}]:zeros", f"uint16[{1024 * 768}]:randint(15360,16256)",
      f"uint16[{1024 * 768}]:randint(15360,16256)", _i(1024 * 768)], ["bf16", "elementwise"]),
    ("llmc_residual_forward_kernel2_bf16", "llmc_residual_forward.cu", "residual_forward_kernel2", 384, 256,
     [f"uint16[{1024 * 768}]:zeros", f"uint16[{1024 * 768}]:randint(15360,16256)",
      f"uint16[{1024 * 768}]:randint(15360,16256)", _i(1024 * 768)], ["bf16", "elementwise", "vector", "cache-hints"]),
    ("llmc_encoder_forward_kernel2_bf16", "llmc_encoder_forward.cu", "encoder_forward_kernel2", 3072, 256,
     [f"uint16[{1024 * 768}]:zeros", "int32[1024]:randint(0,2048)", f"uint16[{2048 * 768}]:randint(15360,16256)",
      f"uint16[{256 * 768}]:randint(15360,16256)", _i(4), _i(256), _i(768)], ["bf16", "gather", "elementwise"]),
    ("llmc_encoder_backward_kernel1", "llmc_encoder_backward.cu", "encoder_backward_kernel1", 3072, 256,
     [_f(2048 * 768, "zeros"), _f(256 * 768, "zeros"), _f(1024 * 768, SMALL_INTS), "int32[1024]:randint(0,2048)",
      _i(4), _i(256), _i(768)], ["atomic", "gather", "scatter"]),
    ("llmc_adamw_kernel2", "llmc_adamw.cu", "adamw_kernel2", 2048, 512,
     [_f(M1), _f(M1), _f(M1), _f(M1), f"int64:{M1}", "float32:0.001", "float32:0.9", "float32:0.999",
      "float32:0.1", "float32:0.001", "float32:1e-8", "float32:0.0"], ["elementwise", "optimizer", "transcendental"]),
    ("llmc_matmul_forward_kernel1", "llmc_matmul_forward.cu", "matmul_forward_kernel1", (16, 16), (16, 16),
     [_f(256 * 256, "zeros"), _f(256 * 256), _f(256 * 256), _f(256), _i(256), _i(256), _i(256)],
     ["gemm", "naive", "2d"]),
    ("llmc_matmul_forward_add_bias", "llmc_matmul_forward.cu", "add_bias", 3072, 256,
     [_f(1024 * 768), _f(768), _i(4), _i(256), _i(768)], ["elementwise", "broadcast", "grid-stride"]),
    ("llmc_matmul_forward_kernel4", "llmc_matmul_forward.cu", "matmul_forward_kernel4", (4, 4), (16, 16),
     [_f(512 * 512, "zeros"), _f(512 * 256), _f(512 * 256), _f(512), _i(256), _i(512)],
     ["gemm", "shared", "register-tile", "vector", "2d"]),
    ("llmc_matmul_backward_bias_faster", "llmc_matmul_backward.cu", "matmul_backward_bias_kernel_faster", 768, 512,
     [_f(768, "zeros"), _f(1024 * 768), _i(4), _i(256), _i(768)], ["reduction", "shared-tree", "strided"], 512 * 4),
    ("llmc_attention_query_key_kernel1", "llmc_attention_forward.cu", "attention_query_key_kernel1", 3072, 256,
     [_f(4 * 12 * 128 * 128, "zeros"), _f(4 * 128 * 3 * 768), _i(4), _i(128), _i(768), _i(12)],
     ["attention", "causal", "divergence"]),
    ("llmc_attention_softmax_kernel1", "llmc_attention_forward.cu", "attention_softmax_kernel1", 24, 256,
     [_f(4 * 12 * 128 * 128, "zeros"), _f(4 * 12 * 128 * 128), _i(4), _i(128), _i(12)],
     ["attention", "softmax", "causal", "uncoalesced"]),
    ("llmc_attention_value_kernel1", "llmc_attention_forward.cu", "attention_value_kernel1", 24, 256,
     [_f(4 * 128 * 768, "zeros"), _f(4 * 12 * 128 * 128), _f(4 * 128 * 3 * 768), _i(4), _i(128), _i(768), _i(12)],
     ["attention", "causal", "uncoalesced"]),
    ("llmc_attention_permute_kernel", "llmc_attention_forward.cu", "permute_kernel", 1536, 256,
     [_f(4 * 128 * 768, "zeros"), _f(4 * 128 * 768, "zeros"), _f(4 * 128 * 768, "zeros"), _f(4 * 128 * 3 * 768),
      _i(4), _i(128), _i(12), _i(64)], ["attention", "permute", "gather"]),
    ("cusamples_transpose_copy", "cusamples_transpose.cu", "copy", (32, 32), (32, 16),
     [_f(1024 * 1024, "zeros"), _f(1024 * 1024), _i(1024), _i(1024)], ["transpose", "tile", "2d"]),
    ("cusamples_transpose_naive", "cusamples_transpose.cu", "transposeNaive", (32, 32), (32, 16),
     [_f(1024 * 1024, "zeros"), _f(1024 * 1024), _i(1024), _i(1024)], ["transpose", "uncoalesced", "2d"]),
    ("cusamples_transpose_coalesced", "cusamples_transpose.cu", "transposeCoalesced", (32, 32), (32, 16),
     [_f(1024 * 1024, "zeros"), _f(1024 * 1024), _i(1024), _i(1024)],
     ["transpose", "tile", "shared", "bank-conflicts", "2d"]),
    ("cusamples_transpose_no_bank_conflicts", "cusamples_transpose.cu", "transposeNoBankConflicts", (32, 32), (32, 16),
     [_f(1024 * 1024, "zeros"), _f(1024 * 1024), _i(1024), _i(1024)], ["transpose", "tile", "shared", "padding", "2d"]),
    ("cusamples_transpose_diagonal", "cusamples_transpose.cu", "transposeDiagonal", (32, 32), (32, 16),
     [_f(1024 * 1024, "zeros"), _f(1024 * 1024), _i(1024), _i(1024)],
     ["transpose", "tile", "shared", "padding", "2d", "block-remap"]),
    ("cusamples_reduce4_256", "cusamples_reduction.cu", "reduce4<float, 256>", 1024, 256,
     [_f(1 << 19), _f(1024, "zeros"), f"uint32:{1 << 19}"], ["reduction", "template", "shared-tree", "shfl"], 1024),
    ("cusamples_reduce6_256", "cusamples_reduction.cu", "reduce6<float, 256, true>", 64, 256,
     [_f(1 << 19), _f(64, "zeros"), f"uint32:{1 << 19}"], ["reduction", "template", "grid-stride", "shfl"], 1024),
    ("cusamples_scan_exclusive_shared", "cusamples_scan.cu", "scanExclusiveShared", 256, 256,
     [f"uint32[{1 << 18}]:zeros", f"uint32[{1 << 18}]:randint(0,100)", "uint32:1024"],
     ["scan", "vector", "cooperative-groups"]),
    ("cusamples_scan_uniform_update", "cusamples_scan.cu", "uniformUpdate", 256, 256,
     [f"uint32[{1 << 18}]:randint(0,100)", "uint32[256]:randint(0,100)"], ["scan", "broadcast", "vector"]),
    ("cusamples_histogram256", "cusamples_histogram256.cu", "histogram256Kernel", 240, 192,
     ["uint32[61440]:zeros", f"uint32[{1 << 18}]:randint(0,4294967296)", f"uint32:{1 << 18}"],
     ["histogram", "shared-atomic", "grid-stride"]),
    ("cusamples_merge_histogram256", "cusamples_histogram256.cu", "mergeHistogram256Kernel", 256, 256,
     ["uint32[256]:zeros", "uint32[61440]:randint(0,100)", "uint32:240"], ["histogram", "reduction", "shared-tree",
                                                                           "strided"]),
    ("cusamples_scalar_prod", "cusamples_scalarProd.cu", "scalarProdGPU", 128, 256,
     [_f(256, "zeros"), _f(256 * 4096), _f(256 * 4096), _i(256), _i(4096)], ["reduction", "dot", "shared-tree"]),
    ("cusamples_fwt_batch2", "cusamples_fastWalshTransform.cu", "fwtBatch2Kernel", (1024, 1), 256,
     [_f(1 << 20), _f(1 << 20), _i(1 << 18)], ["butterfly", "strided", "2d"]),
    ("cusamples_fwt_batch1", "cusamples_fastWalshTransform.cu", "fwtBatch1Kernel", 1024, 256,
     [_f(1 << 20), _f(1 << 20), _i(10)], ["butterfly", "shared", "dynamic-shared"], 1024 * 4),
    ("cusamples_bitonic_sort_shared1", "cusamples_bitonicSort.cu", "bitonicSortShared1", 256, 512,
     [f"uint32[{1 << 18}]:zeros", f"uint32[{1 << 18}]:zeros", f"uint32[{1 << 18}]:randint(0,4294967296)",
      f"uint32[{1 << 18}]:arange"], ["sort", "shared", "cooperative-groups", "divergence"]),
    ("cusamples_vote_any", "cusamples_simpleVote.cu", "VoteAnyKernel1", 1, 128,
     ["uint32[128]:randint(0,2)", "uint32[128]:zeros", _i(128)], ["vote", "ballot"]),
    ("cusamples_filter_warp_aggregated", "cusamples_warpAggregatedAtomicsCG.cu", "filter_arr", 1025, 256,
     [f"int32[{1 << 18}]:zeros", "int32[1]:zeros", f"int32[{1 << 18}]:randint(0,5)", _i(1 << 18)],
     ["compaction", "cooperative-groups", "atomic", "warp-aggregated", "racy-count"]),
    # cuda-samples' tensor-core GEMMs (their simple WMMA kernels, the samples' launch shape:
    # block 128x4, one 16x16 (f64: 8x8) tile per warp) at n = 128 (64 for f64)
    ("cusamples_imma_simple_wmma_gemm", "cusamples_immaTensorCoreGemm.cu", "simple_wmma_gemm_imma", (2, 2), (128, 4),
     ["uint8[16384]:randint(0,8)", "uint8[16384]:randint(0,8)", "int32[16384]:randint(0,100)", "int32[16384]:zeros",
      "int32:128", "int32:128", "int32:128", "int32:1", "int32:1"], ["gemm", "tensor-core", "wmma", "int8"]),
    ("cusamples_dmma_simple_wmma_gemm", "cusamples_dmmaTensorCoreGemm.cu", "simple_wmma_gemm", (2, 2), (128, 4),
     ["float64[4096]", "float64[4096]", "float64[4096]", "float64[4096]:zeros", "int32:64", "int32:64",
      "int32:64", "float64:1.0", "float64:1.0"], ["gemm", "tensor-core", "wmma", "double"]),
    ("cusamples_tf32_simple_wmma_gemm", "cusamples_tf32TensorCoreGemm.cu", "simple_wmma_tf32gemm", (2, 2), (128, 4),
     ["float32[16384]", "float32[16384]", "float32[16384]", "float32[16384]:zeros", "int32:128", "int32:128",
      "int32:128", "float32:1.0", "float32:1.0"], ["gemm", "tensor-core", "wmma", "tf32"]),
    ("cusamples_bf16_simple_wmma_gemm", "cusamples_bf16TensorCoreGemm.cu", "simple_wmma_bf16gemm", (2, 2), (128, 4),
     ["uint16[16384]:randint(16000,16256)", "uint16[16384]:randint(16000,16256)", "float32[16384]",
      "float32[16384]:zeros", "int32:128", "int32:128", "int32:128", "float32:1.0", "float32:1.0"],
     ["gemm", "tensor-core", "wmma", "bf16"]),
    ("cusamples_half_simple_wmma_gemm", "cusamples_cudaTensorCoreGemm.cu", "simple_wmma_gemm", (2, 2), (128, 4),
     ["uint16[16384]:randint(14336,15360)", "uint16[16384]:randint(14336,15360)", "float32[16384]",
      "float32[16384]:zeros", "int32:128", "int32:128", "int32:128", "float32:1.0", "float32:1.0"],
     ["gemm", "tensor-core", "wmma", "half"]),
    # more kernels of the same public files, at the small shapes of the robustness sweep (2026-11-23)
    ("cusamples_copy_shared_mem", "cusamples_transpose.cu", "copySharedMem", (8, 8), (32, 16),
     ["float32[65536]:zeros", "float32[65536]", "int32:256", "int32:256"],
     ["copy", "shared", "tile", "2d"]),
    ("cusamples_transpose_fine_grained", "cusamples_transpose.cu", "transposeFineGrained", (8, 8), (32, 16),
     ["float32[65536]:zeros", "float32[65536]", "int32:256", "int32:256"],
     ["transpose", "shared", "tile", "2d"]),
    ("cusamples_transpose_coarse_grained", "cusamples_transpose.cu", "transposeCoarseGrained", (8, 8), (32, 16),
     ["float32[65536]:zeros", "float32[65536]", "int32:256", "int32:256"],
     ["transpose", "shared", "tile", "2d"]),
    ("cusamples_bitonic_merge_global", "cusamples_bitonicSort.cu", "bitonicMergeGlobal", 4, 512,
     ["uint32[4096]:zeros", "uint32[4096]:zeros", "uint32[4096]:permutation", "uint32[4096]:arange", "uint32:4096", "uint32:2048", "uint32:1024", "uint32:1"],
     ["sort", "strided", "global"]),
    ("cusamples_bitonic_merge_shared", "cusamples_bitonicSort.cu", "bitonicMergeShared", 4, 512,
     ["uint32[4096]:zeros", "uint32[4096]:zeros", "uint32[4096]:permutation", "uint32[4096]:arange", "uint32:4096", "uint32:2048", "uint32:1"],
     ["sort", "shared", "cooperative-groups"]),
    ("cusamples_modulate_kernel", "cusamples_fastWalshTransform.cu", "modulateKernel", 8, 256,
     ["float32[4096]", "float32[4096]", "int32:4096"],
     ["elementwise", "grid-stride"]),
    ("cusamples_calculate_max_in_each_buckets", "cusamples_warpAggregatedAtomicsCG.cu", "calculateMaxInEachBuckets", 8, 256,
     ["int32[2048]:randint(0,1000)", "int32[2048]:randint(0,8)", "int32[8]:zeros", "int32:2048", "int32:8"],
     ["atomic", "cooperative-groups", "warp-aggregated"]),
    ("cusamples_vote_all_kernel2", "cusamples_simpleVote.cu", "VoteAllKernel2", 4, 256,
     ["uint32[1024]:randint(0,2)", "uint32[1024]:zeros", "int32:1024"],
     ["vote", "ballot"]),
    ("cusamples_vote_any_kernel3", "cusamples_simpleVote.cu", "VoteAnyKernel3", 1, 64,
     ["uint8[192]:zeros", "int32:32"],
     ["vote", "ballot"]),
    ("llmc_adamw_kernel1", "llmc_adamw.cu", "adamw_kernel1", 8, 256,
     ["float32[2048]", "float32[2048]", "float32[2048]", "float32[2048]", "int64:2048", "float32:0.001", "float32:0.9", "float32:0.999", "float32:0.1", "float32:0.001", "float32:1e-8", "float32:0.0"],
     ["elementwise", "optimizer"]),
    ("llmc_encoder_backward_kernel2", "llmc_encoder_backward.cu", "encoder_backward_kernel2", 1, 128,
     ["float32[8192]:zeros", "float32[4096]:zeros", "float32[8192]", "int32[64]:randint(0,64)", "int32:2", "int32:32", "int32:128"],
     ["gather", "embedding"]),
    ("llmc_encoder_forward_kernel1", "llmc_encoder_forward.cu", "encoder_forward_kernel1", 1, 64,
     ["uint16[8192]:zeros", "int32[64]:randint(0,64)", "uint16[8192]:randint(15360,16256)", "uint16[4096]:randint(15360,16256)", "int32:2", "int32:32", "int32:128"],
     ["gather", "embedding", "half"]),
    ("llmc_encoder_forward_kernel3", "llmc_encoder_forward.cu", "encoder_forward_kernel3", 4, 256,
     ["uint16[8192]:zeros", "int32[64]:randint(0,64)", "uint16[8192]:randint(15360,16256)", "uint16[4096]:randint(15360,16256)", "int32:2", "int32:32", "int32:128"],
     ["gather", "embedding", "half", "vector"]),
    ("llmc_matmul_backward_bias_kernel_naive", "llmc_matmul_backward.cu", "matmul_backward_bias_kernel_naive", 1, 128,
     ["float32[128]:zeros", "float32[8192]", "int32:2", "int32:32", "int32:128"],
     ["reduction", "strided"]),
    ("llmc_softmax_forward_kernel3", "llmc_softmax_forward.cu", "softmax_forward_kernel3", 64, 32,
     ["float32[8192]:zeros", "float32[8192]", "int32:64", "int32:128"],
     ["softmax", "shfl", "shared"], 128),
    ("llmc_softmax_forward_kernel4", "llmc_softmax_forward.cu", "softmax_forward_kernel4", 64, 128,
     ["float32[8192]:zeros", "float32[8192]", "int32:64", "int32:128"],
     ["softmax", "shfl", "shared"], 16),
    ("llmc_softmax_forward_online_kernel1", "llmc_softmax_forward.cu", "softmax_forward_online_kernel1", 1, 64,
     ["float32[8192]:zeros", "float32[8192]", "int32:64", "int32:128"],
     ["softmax", "online"]),
    ("llmc_softmax_forward_online_kernel2", "llmc_softmax_forward.cu", "softmax_forward_online_kernel2", 16, 128,
     ["float32[8192]:zeros", "float32[8192]", "int32:64", "int32:128"],
     ["softmax", "online", "cooperative-groups"]),
    ("llmc_rstd_kernel", "llmc_layernorm_forward.cu", "rstd_kernel", 64, 128,
     ["float32[64]:zeros", "float32[8192]", "float32[64]", "int32:64", "int32:128", "int32:128"],
     ["layernorm", "reduction", "shared-tree"], 512),
    ("llmc_layernorm_forward_kernel4", "llmc_layernorm_forward.cu", "layernorm_forward_kernel4", 8, 256,
     ["float32[8192]:zeros", "float32[64]:zeros", "float32[64]:zeros", "float32[8192]", "float32[128]", "float32[128]", "int32:64", "int32:128"],
     ["layernorm", "cooperative-groups", "shfl"]),
    ("llmc_layernorm_forward_kernel6", "llmc_layernorm_forward.cu", "layernorm_forward_kernel6", 16, (32, 4),
     ["float32[8192]:zeros", "float32[64]:zeros", "float32[64]:zeros", "float32[8192]", "float32[128]", "float32[128]", "int32:64", "int32:128"],
     ["layernorm", "shared", "vector"], 3072),
    ("llmc_unpermute_kernel", "llmc_attention_forward.cu", "unpermute_kernel", 16, 256,
     ["float32[4096]", "float32[4096]:zeros", "int32:2", "int32:32", "int32:4", "int32:16"],
     ["attention", "permute", "gather"]),
    ("llmc_attention_softmax_forward_kernel5", "llmc_attention_forward.cu", "softmax_forward_kernel5", 8, 256,
     ["float32[8192]:zeros", "float32:0.25", "float32[8192]", "int32:8", "int32:32"],
     ["attention", "softmax", "causal", "shfl"]),
    ("llmc_attention_forward_fused1", "llmc_attention_forward.cu", "attention_forward_fused1", 8, 32,
     ["float32[4096]:zeros", "float32[8192]:zeros", "float32[8192]:zeros", "float32[12288]", "int32:2", "int32:32", "int32:64", "int32:4"],
     ["attention", "causal", "shfl", "fused"]),
]


@functools.lru_cache(maxsize=None)
def corpus_source(filename: str) -> str:
    return (CORPUS_DIR / filename).read_text()


def corpus_cases() -> list[Case]:
    """The corpus launches as cases (set `corpus`)."""
    cases = []
    for name, filename, kernel, grid, block, args, tags, *rest in LAUNCHES:
        spec = LaunchSpec(source=corpus_source(filename), kernel=kernel, grid=grid, block=block, args=args,
                          shared_mem=rest[0] if rest else 0)
        extra = ["needs-headers"] if filename in HEADER_FILES else []
        extra += ["public"] if is_public(filename) else []
        cases.append(Case(name=name, spec=spec, tags=[*tags, *extra, f"file:{Path(filename).stem}"]))
    return cases


def source_file(case: Case) -> str:
    """The corpus file a case launches (from its `file:` tag)."""
    return next(t.removeprefix("file:") for t in case.tags if t.startswith("file:")) + ".cu"


PTX_SIZES = {"u8": 1, "s8": 1, "b8": 1, "u16": 2, "s16": 2, "b16": 2, "f16": 2, "u32": 4, "s32": 4, "b32": 4,
             "f32": 4, "u64": 8, "s64": 8, "b64": 8, "f64": 8}


def launch_problems(case: Case, ptx: str) -> list[str]:
    """Why the launch does not fit its kernel ([] when it does): the entry is missing, or the
    arguments differ from the parameters in number or size (a buffer is an 8-byte pointer), or
    the block is larger than the hardware allows."""
    import re

    import numpy as np

    from memsim.compiler.nvrtc import lowered_name
    from memsim.errors import MemsimError

    spec = case.spec
    try:
        entry = lowered_name(spec.source, spec.kernel, options=spec.options)
    except MemsimError as exc:
        return [str(exc)]
    # The parameter list only (memsim's PTX parser may refuse a body that the GPU still runs).
    # A template argument of internal linkage (a static function) is mangled with a hash NVRTC
    # draws per compile (`_kernel_cu_<8 hex>`): match any such hash.
    pattern = re.sub(r"(_kernel_cu_)[0-9a-f]{8}", r"\1[0-9a-f]{8}", re.escape(entry))
    found = re.search(r"\.entry\s+" + pattern + r"\s*\((.*?)\)", ptx, re.S)
    if not found:
        return [f"no entry {entry} in the PTX"]
    params = [(name, int(count or 1) * PTX_SIZES[ptype]) for ptype, name, count in
              re.findall(r"\.param\s+(?:\.align\s+\d+\s+)?\.(\w+)\s+([\w$]+)(?:\[(\d+)\])?", found[1])]
    kernel = SimpleNamespace(params=[SimpleNamespace(name=n, size=size) for n, size in params])
    problems = []
    if len(kernel.params) != len(spec.args):
        problems.append(f"{len(spec.args)} arguments for {len(kernel.params)} parameters")
    for position, (param, arg) in enumerate(zip(kernel.params, spec.args)):
        size = 8 if arg.is_buffer else np.dtype(arg.dtype).itemsize
        if size != param.size:
            problems.append(f"argument {position} ({arg}) is {size} bytes, parameter {param.name} {param.size}")
    if int(np.prod(spec.block)) > 1024:
        problems.append(f"block {spec.block} has more than 1024 threads")
    return problems


def held_out(case: Case) -> bool:
    """Whether the case's kernel family is in the held-out part of the corpus, which no fit reads
    (validate.families: a hash of the family name picks about a third)."""
    from .families import family_of, is_held_out
    return is_held_out(family_of("corpus", case.spec.kernel, case.tags))
