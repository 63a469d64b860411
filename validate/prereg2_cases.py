"""The second pre-registered set (`validate run --cases prereg2`): public GPU kernels from
repositories this project had never used, copied whole into validate/prereg2/*.cu, whose launches
were fixed, and recorded on the H100 into a sealed folder, before any prediction of them was
committed. Held out of every fit (validate.families), like `prereg`; built with the same
machinery (validate.prereg_cases.PreregSet). Change no launch once it is registered.

Sources (each file's header comment: repository, path, commit, licence and every edit; no
kernel body is changed; licence texts in validate/prereg2/LICENSES.md; kernels left out, and why:
validate/prereg2/STATUS.md): NVIDIA-developer-blog/code-samples (BSD-3-Clause, the Parallel
Forall blog's kernels), ArchaeaSoftware/cudahandbook (BSD-2-Clause, The CUDA Handbook's code),
Kobzol/hardware-effects-gpu (MIT), abduld/Parboil (University of Illinois/NCSA licence; its
MRI-Q is left out: the first set has it through HeCBench). File names start with the suite:
nvblog_, cudahb_, hweffects_, parboil_. None comes from a reserved suite, from the first set's
sources or from the corpus's.

Every launch is in bounds and deterministic: integer atomics only, grid-stride kernels over
exact multiples, in-place updates where each element has one writer. Sweeps (tag
`sweep:<kernel>`, names `<kernel>_b<block>_<size>`): one kernel at five or more block shapes over
one problem (two, nvblog_reduce_block_atomic and parboil_stencil, also at three shapes of a second
size).
"""
from __future__ import annotations

from pathlib import Path

from .case import Case
from .prereg_cases import PreregSet, _cdiv, _f, _grid2, _i, _sweep

PREREG2_DIR = Path(__file__).parent / "prereg2"
SUITES = {"nvblog_": "NVIDIA-developer-blog/code-samples", "cudahb_": "ArchaeaSoftware/cudahandbook",
          "hweffects_": "Kobzol/hardware-effects-gpu", "parboil_": "abduld/Parboil"}
M1, M4, M8, M16 = 1 << 20, 1 << 22, 1 << 23, 1 << 24
INTS = "randint(0,100)"   # integer sums stay below 2^31 at these sizes: exact in any order


def _n(value: int) -> str:
    return f"uint64:{value}"


def _ints(count: int, init: str = INTS) -> str:
    return f"int32[{count}]:{init}"


def _sq(n: int) -> list[str]:
    """(M, N, K, A, B, C) of an n^3 SGEMM (The CUDA Handbook's parameter order)."""
    return [_i(n), _i(n), _i(n), _f(n * n), _f(n * n), _f(n * n, "zeros")]


def _parboil_gemm(m: int, n: int, k: int) -> list[str]:
    """mysgemmNT(A, lda, B, ldb, C, ldc, k, alpha, beta): A column-major m x k, B^T n x k."""
    return [_f(m * k), _i(m), _f(k * n), _i(n), _f(m * n), _i(m), _i(k), "float32:1.0", "float32:0.5"]


def _stencil(nx: int, ny: int, nz: int) -> list[str]:
    return ["float32:0.25", "float32:0.125", _f(nx * ny * nz), _f(nx * ny * nz, "zeros"), _i(nx), _i(ny), _i(nz)]


BLOCKS_1D = [(64,), (128,), (256,), (512,), (1024,)]
HB = "cudahb_histogram.cu"
REDUCE = "nvblog_reduce_shfl.cu"

LAUNCHES: list[tuple] = [
    # --- NVIDIA-developer-blog/code-samples: "How to access global memory efficiently" (offset, stride)
    # each thread increments its own element: one writer per address
    *_sweep("nvblog_offset", "nvblog_coalescing.cu", "offset<float>", BLOCKS_1D, lambda b: M4 // b[0],
            [_f(M4 + 64), _i(1)], ["streaming", "in-place", "misaligned"], "4M"),
    ("nvblog_offset_aligned", "nvblog_coalescing.cu", "offset<float>", M4 // 256, 256, [_f(M4 + 64), _i(0)],
     ["streaming", "in-place"]),
    ("nvblog_offset_double", "nvblog_coalescing.cu", "offset<double>", (1 << 21) // 256, 256,
     [f"float64[{(1 << 21) + 64}]", _i(1)], ["streaming", "in-place", "misaligned", "double"]),
    ("nvblog_stride2", "nvblog_coalescing.cu", "stride<float>", 2 * M1 // 256, 256, [_f(4 * M1), _i(2)],
     ["strided", "in-place"]),
    ("nvblog_stride8", "nvblog_coalescing.cu", "stride<float>", M1 // 256, 256, [_f(8 * M1), _i(8)],
     ["strided", "in-place"]),
    ("nvblog_stride32", "nvblog_coalescing.cu", "stride<float>", M1 // 512, 256, [_f(16 * M1), _i(32)],
     ["strided", "in-place", "sector-per-thread"]),
    ("nvblog_stride4_double", "nvblog_coalescing.cu", "stride<double>", M1 // 512, 256,
     [f"float64[{2 * M1}]", _i(4)], ["strided", "in-place", "double"]),
    # --- "Faster parallel reductions on Kepler": int sums, atomics to one word (exact in any order);
    # the launches of the post: 256 threads, min(N/256, 2048) blocks (stable: 512 and 1024)
    *[(f"nvblog_{k}", REDUCE, kernel, 2048, 256, [_ints(M4), "int32[1]:zeros", _i(M4)], ["reduction", *tags])
      for k, kernel, tags in (
          ("reduce_atomic", "device_reduce_atomic_kernel", ["atomic", "grid-stride", "contended-atomic"]),
          ("reduce_atomic_vector4", "device_reduce_atomic_kernel_vector4", ["atomic", "vector", "contended-atomic"]),
          ("reduce_warp_atomic", "device_reduce_warp_atomic_kernel", ["atomic", "shfl"]),
          ("reduce_warp_atomic_vector4", "device_reduce_warp_atomic_kernel_vector4", ["atomic", "shfl", "vector"]),
          ("reduce_block_atomic_vector4", "device_reduce_block_atomic_kernel_vector4",
           ["atomic", "shfl", "shared", "vector"]))],
    *[(f"nvblog_{k}", REDUCE, kernel, 1024, 512, [_ints(M4), "int32[1024]:zeros", _i(M4)], ["reduction", *tags])
      for k, kernel, tags in (("reduce_stable", "device_reduce_stable_kernel", ["shfl", "shared"]),)],
    # the post's second pass is one block of 1024 threads; here over 256K ints, so it is a serial loop
    ("nvblog_reduce_stable_one_block", REDUCE, "device_reduce_stable_kernel", 1, 1024,
     [_ints(1 << 18), "int32[1]:zeros", _i(1 << 18)], ["reduction", "one-block", "latency", "shfl", "syncthreads",
                                                       "serial-loop"]),
    *_sweep("nvblog_reduce_block_atomic", REDUCE, "device_reduce_block_atomic_kernel", BLOCKS_1D, lambda b: 2048,
            [_ints(M4), "int32[1]:zeros", _i(M4)], ["reduction", "atomic", "shfl", "shared", "grid-stride"], "4M"),
    *_sweep("nvblog_reduce_block_atomic", REDUCE, "device_reduce_block_atomic_kernel", [(64,), (256,), (1024,)],
            lambda b: 2048, [_ints(M16), "int32[1]:zeros", _i(M16)], ["reduction", "atomic", "shfl", "shared",
                                                                         "grid-stride"], "16M"),
    # --- "Programming tensor cores in CUDA 9": its fp32-to-fp16 conversion (wmma_example left out: STATUS.md)
    ("nvblog_convert_fp32_to_fp16", "nvblog_tensor_core_gemm.cu", "convertFp32ToFp16", M8 // 256, 256,
     [f"float16[{M8}]:zeros", _f(M8), _i(M8)], ["elementwise", "half", "convert"]),
    # --- ArchaeaSoftware/cudahandbook: reductions (chapter 12), int
    *_sweep("cudahb_reduction_shuffle", "cudahb_reduction_shuffle.cu", "Reduction2_kernel", BLOCKS_1D,
            lambda b: 1024, ["int32[1024]:zeros", _ints(M4), _n(M4)],
            ["reduction", "shared-tree", "shfl", "dynamic-shared", "grid-stride"], "4M",
            shared_of=lambda b: 4 * b[0]),
    # the second pass of the book's two-pass launch, over a larger partial array: one block's serial loop
    ("cudahb_reduction_shuffle_one_block", "cudahb_reduction_shuffle.cu", "Reduction2_kernel", 1, 1024,
     ["int32[1]:zeros", _ints(1 << 18), _n(1 << 18)], ["reduction", "one-block", "latency", "serial-loop",
                                                        "syncthreads", "dynamic-shared"], 4096),
    ("cudahb_reduction_atomics", "cudahb_reduction_atomics.cu", "Reduction5_kernel", 1024, 256,
     ["int32[1]:zeros", _ints(M4), _n(M4)], ["reduction", "atomic", "contended-atomic", "grid-stride"]),
    ("cudahb_reduction_atomics_tiny_blocks", "cudahb_reduction_atomics.cu", "Reduction5_kernel", 2048, 32,
     ["int32[1]:zeros", _ints(M4), _n(M4)], ["reduction", "atomic", "contended-atomic", "tiny-block"]),
    # --- histograms of 8-bit pixels (chapter 15): integer counts in any order
    *_sweep("cudahb_histogram_per_block", HB, "histogram1DPerBlock<false>", BLOCKS_1D, lambda b: 400,
            ["uint32[256]:zeros", f"uint8[{M8}]:randint(0,256)", _n(M8)],
            ["histogram", "atomic", "shared-atomic", "grid-stride", "uint8"], "8M"),
    ("cudahb_histogram_per_block_unrolled", HB, "histogram1DPerBlock<true>", 400, 256,
     ["uint32[256]:zeros", f"uint8[{M8}]:randint(0,256)", _n(M8)],
     ["histogram", "atomic", "shared-atomic", "grid-stride", "uint8"]),
    ("cudahb_histogram_per_grid", HB, "histogram1DPerGrid", 400, 256,
     ["uint32[256]:zeros", f"uint8[{M4}]:randint(0,256)", _n(M4)],
     ["histogram", "atomic", "contended-atomic", "grid-stride", "uint8"]),
    # 64 threads, 64x256 bytes of packed 8-bit counters each: at most 255 pixels a thread, as the book launches it
    ("cudahb_histogram_per_thread64", HB, "histogram1DPerThread64", _cdiv(M8, 64 * 255), 64,
     ["uint32[256]:zeros", f"uint8[{M8}]:randint(0,256)", _n(M8)],
     ["histogram", "privatized", "shared", "dynamic-shared", "uint8"], 64 * 256),
    # --- the SGEMM ladder (chapter 17): grid-stride kernels, so any launch covers C
    *_sweep("cudahb_sgemm_naive", "cudahb_sgemm.cu", "sgemm_naive", [(16, 16), (32, 8), (8, 32), (32, 32), (64, 4)],
            _grid2(320, 320), _sq(320), ["gemm", "naive", "2d", "grid-stride"], "320"),
    ("cudahb_sgemm_cache_8x8_384", "cudahb_sgemm.cu", "sgemm_cache<8, 8>", (3, 3), (16, 16), _sq(384),
     ["gemm", "register-tile", "few-blocks", "uncoalesced"]),
    ("cudahb_sgemm_cache_4x4_384", "cudahb_sgemm.cu", "sgemm_cache<4, 4>", (6, 6), (16, 16), _sq(384),
     ["gemm", "register-tile", "uncoalesced"]),
    ("cudahb_sgemm_tiled_32_320", "cudahb_sgemm.cu", "sgemm_tiled<32, 32, 32>", (10, 10), (32, 32), _sq(320),
     ["gemm", "shared", "tile"]),
    ("cudahb_sgemm_tiled_16_320", "cudahb_sgemm.cu", "sgemm_tiled<16, 16, 16>", (20, 20), (16, 16), _sq(320),
     ["gemm", "shared", "tile"]),
    ("cudahb_sgemm_regblock_128x64_512", "cudahb_sgemm.cu", "sgemm_regblock<128, 64, 8, 8, 8>", (8, 4), 128,
     _sq(512), ["gemm", "shared", "register-tile"]),
    ("cudahb_sgemm_regblock_64x64_384", "cudahb_sgemm.cu", "sgemm_regblock<64, 64, 8, 4, 4>", (6, 6), 256,
     _sq(384), ["gemm", "shared", "register-tile"]),
    # --- all-pairs N-body (chapter 14): float4 bodies, softening keeps the self term finite
    ("cudahb_nbody_aos_few_blocks", "cudahb_nbody.cu", "ComputeNBodyGravitation_GPU_AOS<float>", 8, 256,
     [_f(3 * 2048, "zeros"), _f(4 * 2048), _n(2048), "float32:0.01"], ["n-body", "all-pairs", "few-blocks", "latency"]),
    ("cudahb_nbody_aos_tiny_blocks", "cudahb_nbody.cu", "ComputeNBodyGravitation_GPU_AOS<float>", 96, 32,
     [_f(3 * 3072, "zeros"), _f(4 * 3072), _n(3072), "float32:0.01"], ["n-body", "all-pairs", "tiny-block"]),
    *_sweep("cudahb_nbody_shared", "cudahb_nbody.cu", "ComputeNBodyGravitation_Shared",
            [(32,), (64,), (128,), (256,), (512,)], lambda b: 3072 // b[0],
            [_f(3 * 3072, "zeros"), _f(4 * 3072), "float32:0.01", _n(3072)],
            ["n-body", "all-pairs", "shared", "syncthreads", "dynamic-shared"], "3072", shared_of=lambda b: 16 * b[0]),
    # --- global read bandwidth (chapter 5): int sums that wrap identically everywhere
    ("cudahb_global_reads_int1", "cudahb_global_read.cu", "GlobalReads<int, 1>", 1024, 256,
     [_ints(1024 * 256, "zeros"), _ints(M16), _n(M16), "uint8:1"], ["streaming", "read", "grid-stride"]),
    ("cudahb_global_reads_int4", "cudahb_global_read.cu", "GlobalReads<int, 4>", 1024, 256,
     [_ints(1024 * 256, "zeros"), _ints(M16), _n(M16), "uint8:1"], ["streaming", "read", "grid-stride", "unrolled"]),
    ("cudahb_global_reads_int4x2", "cudahb_global_read.cu", "GlobalReads<myInt4, 2>", 1024, 256,
     [_ints(4 * 1024 * 256, "zeros"), _ints(M16), _n(M4), "uint8:1"], ["streaming", "read", "vector", "unrolled"]),
    # --- global write bandwidth (chapter 5): every thread stores one value (write-only)
    *_sweep("cudahb_global_writes", "cudahb_global_write.cu", "GlobalWrites<int, 4>", BLOCKS_1D, lambda b: 1024,
            [_ints(M16, "zeros"), _i(204), _n(M16)], ["streaming", "write", "grid-stride", "unrolled"], "16M"),
    ("cudahb_global_writes_int1", "cudahb_global_write.cu", "GlobalWrites<int, 1>", 1024, 256,
     [_ints(M16, "zeros"), _i(204), _n(M16)], ["streaming", "write", "grid-stride"]),
    # --- Kobzol/hardware-effects-gpu: one warp, as the repository launches it (latency-bound loops)
    *[(f"hweffects_bank_conflicts_offset{k}", "hweffects_bank_conflicts.cu", "kernel", 1, 32, [_i(k)],
       ["shared", "one-warp", "latency", "bank-conflicts"]) for k in (1, 8, 32)],
    # lanes touch distinct words at every step (start offsets <= 128 over 4096 words)
    *[(f"hweffects_coalescing_{s}_{m}", "hweffects_memory_coalescing.cu", "kernel", 1, 32,
       ["uint32[4096]:zeros", _i(s), _i(m)], ["one-warp", "latency", "in-place", "serial-loop"])
      for s, m in ((1, 32), (32, 1), (32, 32))],
    # --- abduld/Parboil: 7-point stencil with x-coarsening (two columns a thread), SGEMM (Volkov's NT)
    *_sweep("parboil_stencil", "parboil_stencil.cu", "block2D_hybrid_coarsen_x",
            [(32, 4), (32, 8), (16, 8), (64, 4), (32, 16)], lambda b: (256 // (2 * b[0]), 256 // b[1]),
            _stencil(256, 256, 64), ["stencil", "3d", "shared", "syncthreads", "dynamic-shared"], "256x256x64",
            shared_of=lambda b: 8 * b[0] * b[1]),
    *_sweep("parboil_stencil", "parboil_stencil.cu", "block2D_hybrid_coarsen_x", [(32, 4), (16, 8), (64, 4)],
            lambda b: (512 // (2 * b[0]), 512 // b[1]), _stencil(512, 512, 16),
            ["stencil", "3d", "shared", "syncthreads", "dynamic-shared"], "512x512x16", shared_of=lambda b: 8 * b[0] * b[1]),
    ("parboil_sgemm_512", "parboil_sgemm.cu", "mysgemmNT", (4, 32), (16, 8), _parboil_gemm(512, 512, 512),
     ["gemm", "shared", "register-tile"]),
    ("parboil_sgemm_1024x512x256", "parboil_sgemm.cu", "mysgemmNT", (8, 32), (16, 8), _parboil_gemm(1024, 512, 256),
     ["gemm", "shared", "register-tile"]),
]

PREREG2 = PreregSet("prereg2", PREREG2_DIR, SUITES, LAUNCHES)


def prereg2_cases() -> list[Case]:
    """The second pre-registered set's launches as cases (set `prereg2`)."""
    return PREREG2.cases()


if __name__ == "__main__":
    print(f"wrote {PREREG2.write_registry()}")
