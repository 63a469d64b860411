"""The pre-registered set (`validate run --cases prereg`): public GPU kernels this project had
never run, copied whole into validate/prereg/*.cu, whose launches were fixed and whose memsim
predictions were committed before any GPU recording of them was looked at.

It exists to judge the time and cache models honestly: every case is held out of every fit
(validate.families: the whole `prereg` set), so a figure on it is a true out-of-sample figure.
Change no launch once it is recorded: a changed launch is a new, unregistered one.

Sources (each file's header comment: repository, path, commit, licence and every edit; no
kernel body is changed; full licence texts in validate/prereg/LICENSES.md; kernels of these
files left out, and why: validate/prereg/STATUS.md): vetter/shoc (BSD-3-Clause),
siboehm/SGEMM_CUDA (MIT), gpu-mode/lectures (Apache-2.0), zjin-lcf/HeCBench (BSD-3-Clause; only
benchmarks HeCBench wrote or took from sources other than the suites reserved for measurement
this project does not see). File names start with the suite: shoc_, sgemm_, gpumode_,
hecbench_. None comes from a reserved suite or from the corpus's sources (llm.c, cuda-samples).

LAUNCHES has the corpus's format (validate.corpus_cases): (name, file, kernel, grid, block,
args, tags[, dynamic shared bytes]). Every launch is in bounds and deterministic: sizes are
multiples of the tiles where the kernel needs it, indices come from randint within range, sums
that atomics build in any order are exact (integer counts, or small integers stored as
floats), and where a kernel would race on some inputs the inputs avoid it (comments at the rows).
Sizes aim at 5 us - 2 ms on an H100 and at most ~15 s of emulation each on 2 CPU cores.

Sweeps (tag `sweep:<kernel>`, names `<kernel>_b<block>_<size>`): one kernel at five or more
block shapes over the same problem, varying nothing but the launch (three of them also at
three shapes of a second size), so that the model's response to the launch configuration
alone can be judged.
"""
from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

from memsim.launch import LaunchSpec

from .case import Case

PREREG_DIR = Path(__file__).parent / "prereg"
REGISTERED = PREREG_DIR / "registered.json"   # case name -> launch_digest, as committed
SUITES = {"shoc_": "vetter/shoc", "sgemm_": "siboehm/SGEMM_CUDA", "gpumode_": "gpu-mode/lectures",
          "hecbench_": "zjin-lcf/HeCBench"}
F = "float32"
M1, M2, M4 = 1 << 20, 1 << 21, 1 << 22
SMALL_INTS = "randint(0,4)"  # floats whose sums are exact in any order (atomics)


def array_arg(dtype: str, count: int, init: str = "random") -> str:
    """A buffer argument as `--arg` spells it (`float32[1024]:random`)."""
    return f"{dtype}[{count}]:{init}"


def scalar_arg(dtype: str, value) -> str:
    """A by-value argument as `--arg` spells it (`int32:7`)."""
    return f"{dtype}:{value}"


def _f(count: int, init: str = "random") -> str:
    return f"{F}[{count}]:{init}"


def _i(value: int) -> str:
    return f"int32:{value}"


def _u(value: int) -> str:
    return f"uint32:{value}"


def _gemm(n: int) -> list[str]:
    """(M, N, K, alpha, A, B, beta, C) of an n^3 SGEMM (siboehm/SGEMM_CUDA's parameter order)."""
    return [_i(n), _i(n), _i(n), "float32:1.0", _f(n * n), _f(n * n), "float32:0.5", _f(n * n)]


def _sweep(name: str, file: str, kernel: str, blocks: list[tuple[int, ...]], grid_of, args, tags: list[str],
           size: str, shared_of=None) -> list[tuple]:
    """One kernel at several block shapes over one problem: `grid_of(block)` covers it."""
    rows = []
    for block in blocks:
        label = "x".join(str(b) for b in block)
        row = (f"{name}_b{label}_{size}", file, kernel, grid_of(block), block, args, [*tags, f"sweep:{name}"])
        rows.append(row + ((shared_of(block),) if shared_of else ()))
    return rows


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def _grid2(nx: int, ny: int):
    return lambda block: (_cdiv(nx, block[0]), _cdiv(ny, block[1]) if len(block) > 1 else 1)


BLOCKS_2D = [(32, 32), (16, 16), (32, 8), (8, 32), (64, 4)]

LAUNCHES: list[tuple] = [
    # --- siboehm/SGEMM_CUDA: the SGEMM ladder (src/kernels/*.cuh)
    *_sweep("sgemm_naive", "sgemm_1_naive.cu", "sgemm_naive", BLOCKS_2D, _grid2(256, 256), _gemm(256),
            ["gemm", "naive", "2d"], "256"),
    *_sweep("sgemm_naive", "sgemm_1_naive.cu", "sgemm_naive", BLOCKS_2D[:3], _grid2(384, 384), _gemm(384),
            ["gemm", "naive", "2d"], "384"),
    ("sgemm_coalesce_512", "sgemm_2_coalesce.cu", "sgemm_global_mem_coalesce<32>", (16, 16), 1024, _gemm(512),
     ["gemm", "template"]),
    ("sgemm_shared_512", "sgemm_3_shared.cu", "sgemm_shared_mem_block<32>", (16, 16), 1024, _gemm(512),
     ["gemm", "template", "shared", "tile"]),
    ("sgemm_1d_blocktiling_640", "sgemm_4_1d_blocktiling.cu", "sgemm1DBlocktiling<64, 64, 8, 8>", (10, 10), 512,
     _gemm(640), ["gemm", "template", "shared", "register-tile"]),
    ("sgemm_2d_blocktiling_768", "sgemm_5_2d_blocktiling.cu", "sgemm2DBlocktiling<128, 128, 8, 8, 8>", (6, 6), 256,
     _gemm(768), ["gemm", "template", "shared", "register-tile"]),
    ("sgemm_2d_blocktiling_64_512", "sgemm_5_2d_blocktiling.cu", "sgemm2DBlocktiling<64, 64, 8, 8, 8>", (8, 8), 64,
     _gemm(512), ["gemm", "template", "shared", "register-tile", "few-warps"]),
    ("sgemm_vectorize_768", "sgemm_6_vectorize.cu", "sgemmVectorize<128, 128, 8, 8, 8>", (6, 6), 256,
     _gemm(768), ["gemm", "template", "shared", "register-tile", "vector"]),
    ("sgemm_bank_conflicts_768", "sgemm_7_bank_conflicts.cu", "sgemmResolveBankConflicts<128, 128, 8, 8, 8>",
     (6, 6), 256, _gemm(768), ["gemm", "template", "shared", "register-tile", "vector"]),
    ("sgemm_warptiling_768", "sgemm_10_warptiling.cu",
     "sgemmWarptiling<128, 128, 16, 64, 64, 4, 8, 4, 128>", (6, 6), 128, _gemm(768),
     ["gemm", "template", "shared", "register-tile", "vector", "warp-tile"]),
    # --- vetter/shoc level 0: device memory and peak-flops microbenchmarks (src/cuda/level0)
    ("shoc_read_global_coalesced", "shoc_devicememory.cu", "readGlobalMemoryCoalesced", 256, 256,
     [_f(M4), _f(65536, "zeros"), _i(M4), _i(8)], ["streaming", "read", "unrolled"]),
    ("shoc_read_global_unit", "shoc_devicememory.cu", "readGlobalMemoryUnit", 256, 256,
     [_f(M4), _f(65536, "zeros"), _i(M4), _i(4)], ["streaming", "read", "uncoalesced"]),
    ("shoc_read_local", "shoc_devicememory.cu", "readLocalMemory", 256, 256,
     [_f(M4), _f(65536, "zeros"), _i(M4), _i(64)], ["shared", "read", "unrolled"]),
    # 32768 threads, repeat 8 and a 2^22 buffer: each address is written by one thread only (no race)
    ("shoc_write_global_coalesced", "shoc_devicememory.cu", "writeGlobalMemoryCoalesced", 128, 256,
     [_f(M4, "zeros"), _i(M4), _i(8)], ["streaming", "write"]),
    ("shoc_write_global_unit", "shoc_devicememory.cu", "writeGlobalMemoryUnit", 32, 256,
     [_f(M4, "zeros"), _i(M4), _i(32)], ["streaming", "write", "uncoalesced"]),
    ("shoc_maxflops_madd_u", "shoc_maxflops.cu", "MAddU", 64, 256,
     [_f(16384, "zeros"), "float32:10.0", "float32:0.9899"], ["compute", "fma", "unrolled"]),
    ("shoc_maxflops_add1", "shoc_maxflops.cu", "Add1<float>", 132, 256,
     [_f(132 * 256), _i(16), "float32:10.0"], ["compute", "dependent-chain", "latency"]),
    ("shoc_maxflops_madd8", "shoc_maxflops.cu", "MAdd8<float>", 528, 256,
     [_f(528 * 256), _i(4), "float32:10.0", "float32:0.9899"], ["compute", "fma", "ilp"]),
    ("shoc_maxflops_madd2_double", "shoc_maxflops.cu", "MAdd2<double>", 132, 128,
     ["float64[16896]", _i(4), "float64:10.0", "float64:0.9899"], ["compute", "double", "fma"]),
    # --- vetter/shoc level 1 (src/cuda/level1)
    *_sweep("shoc_triad", "shoc_triad.cu", "triad", [(32,), (64,), (128,), (256,), (512,)],
            lambda b: M4 // b[0], [_f(M4), _f(M4), _f(M4, "zeros"), "float32:1.75"], ["streaming", "elementwise"],
            "4M"),
    *_sweep("shoc_triad", "shoc_triad.cu", "triad", [(16,), (32,), (128,), (512,)],
            lambda b: M1 // b[0], [_f(M1), _f(M1), _f(M1, "zeros"), "float32:1.75"],
            ["streaming", "elementwise"], "1M"),
    ("shoc_reduce_float", "shoc_reduction.cu", "reduce<float, 256>", 64, 256,
     [_f(M4), _f(64, "zeros"), _u(M4)], ["reduction", "shared-tree", "volatile", "grid-stride"], 1024),
    ("shoc_reduce_float_grid528", "shoc_reduction.cu", "reduce<float, 256>", 528, 256,
     [_f(M4), _f(528, "zeros"), _u(M4)], ["reduction", "shared-tree", "volatile", "grid-stride"], 1024),
    ("shoc_reduce_double", "shoc_reduction.cu", "reduce<double, 256>", 64, 256,
     [f"float64[{M1}]", "float64[64]:zeros", _u(M1)], ["reduction", "shared-tree", "volatile", "double"], 2048),
    ("shoc_scan_reduce", "shoc_scan.cu", "reduce<float, 256>", 64, 256,
     [_f(M4), _f(64, "zeros"), _i(M4)], ["scan", "reduction", "shared-tree", "serial-blocks"], 1024),
    ("shoc_scan_single_block", "shoc_scan.cu", "scan_single_block<float, 256>", 1, 256,
     [_f(64), _i(64)], ["scan", "one-block", "latency", "syncthreads"], 2048),
    ("shoc_bottom_scan", "shoc_scan.cu", "bottom_scan<float, float4, 256>", 64, 256,
     [_f(M4), _f(M4, "zeros"), _f(64), _i(M4)], ["scan", "vector", "serial-blocks", "syncthreads"], 2048),
    ("shoc_radix_sort_blocks", "shoc_sort.cu", "radixSortBlocks", M1 // 512, 128,
     [_u(4), _u(0), f"uint32[{M1}]:zeros", f"uint32[{M1}]:zeros", f"uint32[{M1}]:randint(0,4294967296)",
      f"uint32[{M1}]:arange"], ["sort", "radix", "shared", "syncthreads", "vector"], 2048),
    # keys sorted (arange) with startbit 5: each 4-bit radix is one run of 32 keys, so each start
    # pointer has one writer (an unsorted block would race on them)
    ("shoc_find_radix_offsets", "shoc_sort.cu", "findRadixOffsets", M1 // 512, 256,
     [f"uint32[{M1}]:arange", f"uint32[{M1 // 32}]:zeros", f"uint32[{M1 // 32}]:zeros", _u(5), _u(M1),
      _u(M1 // 512)], ["sort", "radix", "shared", "scatter"], 2048),
    ("shoc_sort_scan", "shoc_sort.cu", "scan", M1 // 1024, 256,
     [f"uint32[{M1}]:zeros", f"uint32[{M1}]:randint(0,16)", f"uint32[{M1 // 1024}]:zeros", _i(M1), "uint8:1",
      "uint8:1"], ["scan", "shared", "vector"]),
    ("shoc_sort_vector_add_uniform4", "shoc_sort.cu", "vectorAddUniform4", M1 // 1024, 256,
     [f"uint32[{M1}]:randint(0,16)", f"uint32[{M1 // 1024}]:randint(0,1000)", _i(M1)], ["elementwise", "broadcast"]),
    # the neighbour indices point into the second half of the atoms and the threads cover the first half,
    # so no atom is its own neighbour (a zero distance would divide by zero)
    ("shoc_md_lj_force", "shoc_md.cu", "compute_lj_force<float, float3, float4, false, texReader_unused>", 128, 128,
     [_f(3 * 32768, "zeros"), _f(4 * 32768), _i(64), f"int32[{64 * 32768}]:randint(16384,32768)",
      "float32:16.0", "float32:1.5", "float32:2.0", _i(32768)], ["n-body", "molecular-dynamics", "gather"]),
    *_sweep("shoc_stencil2d", "shoc_stencil2d.cu", "StencilKernel<float>",
            [(1, 32), (1, 64), (1, 128), (1, 256), (1, 512)], lambda b: (2048 // 8, 2048 // b[1]),
            [_f(2050 * 2064), _f(2050 * 2064, "zeros"), _i(16), _i(8), "float32:0.25", "float32:0.15",
             "float32:0.05"], ["stencil", "2d", "shared", "halo", "dynamic-shared"], "2048",
            shared_of=lambda b: 4 * (8 + 2) * (b[1] + 2)),
    # levels hold no UINT_MAX (unvisited): the pass reads only, so no racy level updates
    ("shoc_bfs_warp", "shoc_bfs.cu", "BFS_kernel_warp", 1024, 256,
     [f"uint32[{M1}]:randint(0,3)", f"uint32[{M1 + 1}]:arange", f"uint32[{M1}]:randint(0,{M1})", _i(32), _i(32),
      _u(M1), _i(1), "int32[1]:zeros"], ["graph", "bfs", "serial-loop", "divergence"]),
    ("shoc_nn_feed_forward1", "shoc_neuralnet.cu", "kernelFeedForward1", 1, 30,
     [_f(30, "zeros"), _i(784), _f(30 * 784), _i(0), _f(784)],
     ["tiny-block", "one-block", "serial-loop", "uncoalesced"]),
    ("shoc_nn_feed_forward1b", "shoc_neuralnet.cu", "kernelFeedForward1b", 1000, 30,
     [_f(30 * 1000, "zeros"), _i(784), _f(30 * 784), _i(0), _f(784 * 1000)],
     ["tiny-block", "serial-loop", "uncoalesced"]),
    ("shoc_nn_backprop3a", "shoc_neuralnet.cu", "kernelBackprop3a", 1, 100,
     [_f(2100), _i(0), _i(2000), _i(100), _f(2000 * 100), _i(0)], ["one-block", "serial-loop", "latency"]),
    # --- gpu-mode/lectures: the lecture kernels (PMPP-book style), lectures 2, 8 and 9
    *_sweep("gpumode_mean_filter", "gpumode_mean_filter.cu", "mean_filter_kernel",
            [(16, 16, 3), (32, 8, 3), (8, 8, 3), (32, 4, 3), (64, 2, 3)], _grid2(512, 512),
            ["uint8[786432]:zeros", "uint8[786432]:randint(0,256)", _i(512), _i(512), _i(2)],
            ["stencil", "2d", "image", "uint8", "3d-block"], "512"),
    *_sweep("gpumode_mean_filter", "gpumode_mean_filter.cu", "mean_filter_kernel",
            [(16, 16, 3), (8, 8, 3), (64, 2, 3)], _grid2(640, 640),
            ["uint8[1228800]:zeros", "uint8[1228800]:randint(0,256)", _i(640), _i(640), _i(2)],
            ["stencil", "2d", "image", "uint8", "3d-block"], "640"),
    ("gpumode_grayscale_2048", "gpumode_grayscale.cu", "rgb_to_grayscale_kernel", (128, 128), (16, 16),
     ["uint8[4194304]:zeros", "uint8[12582912]:randint(0,256)", _i(2048), _i(2048)],
     ["elementwise", "2d", "image", "uint8", "strided"]),
    ("gpumode_vec_add_partial", "gpumode_vector_addition.cu", "vecAddKernel", _cdiv(3_000_001, 256), 256,
     [_f(3_000_001), _f(3_000_001), _f(3_000_001, "zeros"), _i(3_000_001)], ["streaming", "elementwise", "partial"]),
    ("gpumode_copy_non_coalesced", "gpumode_coalesce.cu", "copyDataNonCoalesced", M4 // 128, 128,
     [_f(M4), _f(M4, "zeros"), _i(M4)], ["streaming", "copy", "strided", "gather"]),
    ("gpumode_divergence", "gpumode_divergence.cu", "processArrayWithDivergence", M4 // 256, 256,
     [f"int32[{M4}]:randint(0,1000)", _i(M4)], ["elementwise", "divergence", "in-place"]),
    ("gpumode_no_divergence", "gpumode_divergence.cu", "processArrayWithoutDivergence", M4 // 256, 256,
     [f"int32[{M4}]:randint(0,1000)", _i(M4)], ["elementwise", "in-place"]),
    ("gpumode_window_sum_direct", "gpumode_privatization2.cu", "windowSumDirect", M4 // 256, 256,
     [_f(M4), _f(M4, "zeros"), _i(M4), _i(9)], ["stencil", "1d", "halo"]),
    ("gpumode_window_sum_privatized", "gpumode_privatization2.cu", "windowSumPrivatized", M4 // 256, 256,
     [_f(M4), _f(M4, "zeros"), _i(M4), _i(9)], ["stencil", "1d", "shared"]),
    ("gpumode_matmul_simple_320", "gpumode_tiling.cu", "matrixMulSimple", (20, 20), (16, 16),
     [_f(320 * 320), _f(320 * 320), _f(320 * 320, "zeros"), _i(320)], ["gemm", "naive", "2d"]),
    ("gpumode_matmul_tiled_512", "gpumode_tiling.cu", "matrixMulTiled", (32, 32), (16, 16),
     [_f(512 * 512), _f(512 * 512), _f(512 * 512, "zeros"), _i(512)], ["gemm", "shared", "tile", "2d"]),
    # one block of 1024 threads over 2048 floats, in place: a ladder of __syncthreads rounds (latency)
    ("gpumode_simple_reduce", "gpumode_simple_reduce.cu", "SimpleSumReductionKernel", 1, 1024,
     [_f(2048), _f(1, "zeros")], ["reduction", "one-block", "latency", "syncthreads", "divergence"]),
    ("gpumode_fix_divergence_reduce", "gpumode_control_divergence_reduce.cu", "FixDivergenceKernel", 1, 1024,
     [_f(2048), _f(1, "zeros")], ["reduction", "one-block", "latency", "syncthreads"]),
    ("gpumode_shared_reduce", "gpumode_shared_reduce.cu", "SharedMemoryReduction", 1, 1024,
     [_f(2048), _f(1, "zeros")], ["reduction", "one-block", "latency", "shared", "syncthreads"]),
    ("gpumode_coarsened_reduce", "gpumode_reduce_coarsening.cu", "CoarsenedReduction", M4 // 2048, 1024,
     [_f(M4, SMALL_INTS), _f(1, "zeros"), _i(M4)], ["reduction", "shared-tree", "atomic"]),
    ("gpumode_segment_reduce", "gpumode_segment_reduce.cu", "SharedMemoryReduction", M4 // 1024, 1024,
     [_f(M4, SMALL_INTS), _f(1, "zeros"), _i(M4)], ["reduction", "shared-tree", "atomic"]),
    # --- zjin-lcf/HeCBench (none ported from a reserved suite): bitonic-sort, nbody, jacobi,
    # matrix-rotate, mriQ (Parboil's MRI-Q)
    ("hecbench_bitonic_sort_4096", "hecbench_bitonic_sort.cu", "bitonic_sort", M4 // 256, 256,
     [_i(4096), _i(4), f"int32[{M4}]:permutation"], ["sort", "bitonic", "in-place"]),
    ("hecbench_bitonic_sort_pairs", "hecbench_bitonic_sort.cu", "bitonic_sort", M4 // 256, 256,
     [_i(2), _i(1 << 21), f"int32[{M4}]:permutation"], ["sort", "bitonic", "in-place", "divergence"]),
    ("hecbench_bitonic_sort_halves", "hecbench_bitonic_sort.cu", "bitonic_sort", M4 // 256, 256,
     [_i(M4), _i(1), f"int32[{M4}]:permutation"], ["sort", "bitonic", "in-place", "divergence"]),
    *_sweep("hecbench_nbody_accelerate", "hecbench_nbody.cu", "accelerate_particles",
            [(32,), (64,), (128,), (256,), (512,)], lambda b: _cdiv(4096, b[0]),
            [_f(4096 * 10), _i(4096), "float32:0.01", "float32:1.0"], ["n-body", "all-pairs", "broadcast", "aos"],
            "4096"),
    ("hecbench_nbody_update", "hecbench_nbody.cu", "update_particles", M1 // 256, 256,
     [_f(M1 * 10), _f(M1, "zeros"), _i(M1), "float32:0.1"], ["n-body", "elementwise", "aos"]),
    ("hecbench_nbody_accumulate_energy", "hecbench_nbody.cu", "accumulate_energy", 1, 1,
     [_f(4096), _i(4096)], ["one-thread", "serial-loop", "latency"]),
    # f_old all ones: every update equals its old value, so the atomically summed error is exactly 0
    ("hecbench_jacobi_step", "hecbench_jacobi.cu", "jacobi_step", (128, 128), (16, 16),
     [_f(2048 * 2048), _f(2048 * 2048, "ones"), _f(1, "zeros")], ["stencil", "2d", "shared", "shfl", "atomic"]),
    *_sweep("hecbench_matrix_rotate", "hecbench_matrix_rotate.cu", "rotate_matrix_parallel",
            [(16,), (32,), (64,), (128,), (256,), (512,)], lambda b: _cdiv(512, b[0]),
            [_f(1024 * 1024), _i(1024)], ["serial-loop", "few-warps", "uncoalesced", "in-place"], "1024"),
    ("hecbench_mriq_compute_q", "hecbench_mriq.cu", "ComputeQ_GPU", 128, 256,
     [_i(256), _i(0), _f(32768), _f(32768), _f(32768), _f(32768, "zeros"), _f(32768, "zeros")],
     ["compute", "transcendental", "constant-memory"]),
    # HeCBench histogram (CUB's example kernels, NVIDIA BSD-3): a 1920x1080 RGBA image, 256 bins x 3 channels,
    # one partial histogram per block of a 16x16 grid (integer atomics: exact in any order)
    ("hecbench_histogram_gmem_atomics", "hecbench_histogram.cu", "histogram_gmem_atomics<1024, 3, 256, uchar4>",
     (16, 16), (32, 4), ["uint8[8294400]:randint(0,256)", _i(1920), _i(1080), "uint32[262144]:zeros"],
     ["histogram", "atomic", "grid-stride", "2d"]),
    *_sweep("hecbench_histogram_smem_atomics", "hecbench_histogram.cu",
            "histogram_smem_atomics<1024, 3, 256, uchar4>", [(32, 4), (16, 8), (64, 2), (32, 8), (128, 1)],
            lambda b: (16, 16), ["uint8[8294400]:randint(0,256)", _i(1920), _i(1080), "uint32[262144]:zeros"],
            ["histogram", "atomic", "shared-atomic", "grid-stride", "2d"], "1080p"),
    ("hecbench_histogram_gmem_accum", "hecbench_histogram.cu", "histogram_gmem_accum<1024, 3, 256>", 6, 128,
     ["uint32[262144]:randint(0,1000)", _i(256), "uint32[768]:zeros"], ["reduction", "serial-loop", "few-warps"]),
    # HeCBench convolution1D (PMPP chapter 7): a 9-tap mask in constant memory, 2M floats
    ("hecbench_conv1d", "hecbench_conv1d.cu", "conv1d<float>", M2 // 256, 256,
     [_f(M2), _f(M2, "zeros"), _i(M2), _i(9)], ["convolution", "1d", "constant-memory", "halo"]),
    *_sweep("hecbench_conv1d_tiled", "hecbench_conv1d.cu", "conv1d_tiled<float>",
            [(32,), (64,), (128,), (256,), (512,)], lambda b: M2 // b[0],
            [_f(M2), _f(M2, "zeros"), _i(M2), _i(9)], ["convolution", "1d", "shared", "halo", "dynamic-shared"], "2M",
            shared_of=lambda b: 4 * (b[0] + 8)),
    ("hecbench_conv1d_tiled_caching", "hecbench_conv1d.cu", "conv1d_tiled_caching<float>", M2 // 256, 256,
     [_f(M2), _f(M2, "zeros"), _i(M2), _i(9)], ["convolution", "1d", "shared", "halo", "dynamic-shared"], 1024),
    # HeCBench simpleSpmv: CSR rows of one non-zero (the set's input generators make monotone row
    # offsets only as arange), gathering x at random columns; and a dense matrix-vector product that
    # walks one row per thread (uncoalesced, few warps)
    ("hecbench_spmv_csr", "hecbench_simple_spmv.cu", "mv_csr", M2 // 256, 256,
     [f"uint64:{M2}", f"uint64[{M2 + 1}]:arange", f"uint64[{M2}]:randint(0,{M2})", _f(M2), _f(M2), _f(M2, "zeros")],
     ["spmv", "csr", "gather", "int64"]),
    ("hecbench_spmv_vector_csr", "hecbench_simple_spmv.cu", "vector_mv_csr<2>", M2 // 128, (2, 128),
     [f"uint64:{M2}", f"uint64[{M2 + 1}]:arange", f"uint64[{M2}]:randint(0,{M2})", _f(M2), _f(M2), _f(M2, "zeros")],
     ["spmv", "csr", "gather", "int64", "shfl", "2d-block"]),
    *_sweep("hecbench_mv_dense", "hecbench_simple_spmv.cu", "mv_dense", [(16,), (32,), (64,), (128,), (256,), (512,)],
            lambda b: _cdiv(2048, b[0]), ["uint64:2048", _f(2048 * 2048), _f(2048), _f(2048, "zeros")],
            ["gemv", "serial-loop", "few-warps", "uncoalesced"], "2048"),
]


class PreregSet:
    """One pre-registered set: its folder of copied files (with registered.json), the public
    repositories its file prefixes name, and its launch table. validate.prereg2_cases ...
    validate.prereg6_cases build the second to sixth sets with it."""

    def __init__(self, name: str, folder: Path, suites: dict[str, str], launches: list[tuple],
                 options: tuple[str, ...] = ()):
        # options: NVRTC options every launch of the set compiles with (the source's own build's)
        self.name, self.folder, self.suites, self.launches = name, folder, suites, launches
        self.options = options
        self.registered = folder / "registered.json"   # case name -> launch_digest, as committed

    @functools.lru_cache(maxsize=None)
    def source(self, filename: str) -> str:
        return (self.folder / filename).read_text()

    def suite_of(self, filename: str) -> str:
        """The public repository a file of the set was copied from."""
        return next(repo for prefix, repo in self.suites.items() if filename.startswith(prefix))

    def cases(self) -> list[Case]:
        """The set's launches as cases."""
        cases = []
        for name, filename, kernel, grid, block, args, tags, *rest in self.launches:
            spec = LaunchSpec(source=self.source(filename), kernel=kernel, grid=grid, block=block, args=args,
                              shared_mem=rest[0] if rest else 0, options=self.options)
            extra = ["public", f"repo:{self.suite_of(filename)}", f"file:{Path(filename).stem}"]
            extra += ["needs-headers"] if "#include <" in self.source(filename) else []
            cases.append(Case(name=name, spec=spec, tags=[*tags, *extra]))
        return cases

    def write_registry(self) -> Path:
        """Register the current launches (`python -m validate.<set>_cases`); only for new ones: the
        test refuses a registered launch that changed."""
        self.registered.write_text(json.dumps({c.name: launch_digest(c) for c in self.cases()}, indent=1) + "\n")
        return self.registered


PREREG = PreregSet("prereg", PREREG_DIR, SUITES, LAUNCHES)


def prereg_source(filename: str) -> str:
    return PREREG.source(filename)


def suite_of(filename: str) -> str:
    """The public repository a prereg file was copied from."""
    return PREREG.suite_of(filename)


def prereg_cases() -> list[Case]:
    """The pre-registered launches as cases (set `prereg`)."""
    return PREREG.cases()


def launch_digest(case: Case) -> str:
    """A hash of everything that makes the launch (source text, kernel, shape, arguments, shared
    bytes, seed): a registered launch whose digest moves is no longer the one registered."""
    spec = case.spec
    made_of = [spec.source, spec.kernel, list(spec.grid), list(spec.block), [str(a) for a in spec.args],
               spec.shared_mem, list(spec.options), spec.seed]
    return hashlib.sha256(json.dumps(made_of).encode()).hexdigest()[:16]


def write_registry() -> Path:
    return PREREG.write_registry()


if __name__ == "__main__":
    print(f"wrote {write_registry()}")
