"""The triton set: Triton's tutorial kernels and the uncoalesced/coalesced row sums
(validate/triton_kernels.py), launched as memsim launches them, to be recorded on the H100.

Both sides build a case the same way: memsim.triton compiles the kernel with Triton 3.6.0 for
sm_90 (no GPU needed) and the LaunchSpec is its cubin with the parameters Triton's launcher
passes (hidden scratch pointers included), 32 x num_warps threads and Triton's dynamic shared
memory; gpu/launch.py loads that cubin into CuPy, so the measured kernel is the one Triton
made there. Each case's tags carry `sass:<sha256 of the kernel's code section>`: recordings
whose tag differs from this machine's were a different compile.

    bash gpu/measure_on_device.sh triton     # on the GPU machine (needs triton==3.6.0 there)
    validate run --cases triton              # here, with the recording imported

matmul_kernel (tl.dot) compiles to Hopper's wgmma (HGMMA, WARPGROUP.*), which the SASS engine
does not emulate: its cases are recorded on the GPU and fail here with one line until it does.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from .case import Case

HERE = Path(__file__).parent
KERNELS_FILE = HERE / "triton_kernels.py"
N = 1 << 20
ROWS = 1 << 16
F = "float32"

# (name, kernel, grid, args, constexprs, num_warps, num_stages, tags). A kernel's constexpr
# called num_stages (the softmax's) is bound to the num_stages compile option.
LAUNCHES: list[tuple] = [
    ("tr_vector_add", "add_kernel", N // 1024, [f"{F}[{N}]", f"{F}[{N}]", f"{F}[{N}]:zeros", f"int32:{N}"],
     ["BLOCK_SIZE=1024"], 4, 3, ["elementwise", "tutorial"]),
    ("tr_vector_add_odd", "add_kernel", (N - 3 + 1023) // 1024,
     [f"{F}[{N - 3}]", f"{F}[{N - 3}]", f"{F}[{N - 3}]:zeros", f"int32:{N - 3}"],
     ["BLOCK_SIZE=1024"], 4, 3, ["elementwise", "tutorial", "unvectorized"]),
    ("tr_row_sums_strided", "row_sums_strided", ROWS // 128, [f"{F}[{4 * ROWS}]", f"{F}[{ROWS}]:zeros", f"int32:{ROWS}"],
     ["BLOCK=128"], 4, 3, ["rows", "uncoalesced"]),
    ("tr_row_sums_coalesced", "row_sums_coalesced", ROWS // 128,
     [f"{F}[{4 * ROWS}]", f"{F}[{ROWS}]:zeros", f"int32:{ROWS}"], ["BLOCK=128"], 4, 3, ["rows", "coalesced"]),
    ("tr_row_sums_strided_wide", "row_sums_strided", ROWS // 1024,
     [f"{F}[{4 * ROWS}]", f"{F}[{ROWS}]:zeros", f"int32:{ROWS}"], ["BLOCK=1024"], 4, 3, ["rows", "uncoalesced"]),
    ("tr_softmax", "softmax_kernel", 132, [f"{F}[{4096 * 781}]:zeros", f"{F}[{4096 * 781}]", "int32:781",
                                           "int32:781", "int32:4096", "int32:781"],
     ["BLOCK_SIZE=1024"], 8, 3, ["softmax", "tutorial", "cp.async", "reduction"]),
    ("tr_softmax_1stage", "softmax_kernel", 132, [f"{F}[{4096 * 781}]:zeros", f"{F}[{4096 * 781}]", "int32:781",
                                                  "int32:781", "int32:4096", "int32:781"],
     ["BLOCK_SIZE=1024"], 8, 1, ["softmax", "tutorial", "reduction"]),
    ("tr_layer_norm_fwd", "_layer_norm_fwd_fused", 1024,
     [f"{F}[{1024 * 1000}]", f"{F}[{1024 * 1000}]:zeros", f"{F}[1000]", f"{F}[1000]", f"{F}[1024]:zeros",
      f"{F}[1024]:zeros", "int32:1000", "int32:1000", "float32:1e-5"],
     ["BLOCK_SIZE=1024"], 8, 3, ["layernorm", "tutorial", "reduction"]),
    ("tr_matmul_fp16", "matmul_kernel", (512 // 64) * (512 // 64),
     ["float16[262144]", "float16[262144]", "float16[262144]:zeros", "int32:512", "int32:512", "int32:512",
      "int32:512", "int32:1", "int32:512", "int32:1", "int32:512", "int32:1"],
     ["BLOCK_SIZE_M=64", "BLOCK_SIZE_N=64", "BLOCK_SIZE_K=32", "GROUP_SIZE_M=8"], 4, 3,
     ["gemm", "tutorial", "wgmma"]),
]


def _pow2(n: int) -> int:
    return 1 << (n - 1).bit_length()


M = 1 << 16   # elements of the smaller vector launches
R, C = 512, 384   # a 2-D array of R rows, C columns (C not a power of two)
_I = ["int32:256", "int32:256", "int32:256", "int32:256", "int32:1", "int32:256", "int32:1", "int32:256", "int32:1"]
LAUNCHES += [
    # vector add at other blocks and warps (what an autotune list would try)
    *[(f"tr_vector_add_b{b}_w{w}", "add_kernel", M // b, [f"{F}[{M}]", f"{F}[{M}]", f"{F}[{M}]:zeros", f"int32:{M}"],
       [f"BLOCK_SIZE={b}"], w, 3, ["elementwise", "tutorial", "autotune"])
      for b, w in ((128, 1), (256, 2), (512, 4), (2048, 8), (4096, 4))],
    *[(f"tr_vector_add_{t}", "add_kernel", M // 1024, [f"{t}[{M}]", f"{t}[{M}]", f"{t}[{M}]:zeros", f"int32:{M}"],
       ["BLOCK_SIZE=1024"], 4, 3, ["elementwise", t]) for t in ("float16", "int8", "float64")],
    *[(f"tr_copy_stride{k}", "copy_strided", M // 256, [f"{F}[{M * k}]", f"{F}[{M}]:zeros", f"int32:{M}"],
       [f"STRIDE={k}", "BLOCK=256"], 4, 3, ["strided", "uncoalesced" if k > 1 else "coalesced"]) for k in (1, 2, 8, 33)],
    *[(f"tr_copy_offset{k}", "copy_offset", M // 512, [f"{F}[{M + 64}]", f"{F}[{M}]:zeros", f"int32:{M}"],
       [f"SHIFT={k}", "BLOCK=512"], 4, 3, ["misaligned"]) for k in (1, 4)],
    ("tr_scale_fp16_to_f32", "scale_cast", M // 1024, [f"float16[{M}]", f"{F}[{M}]:zeros", f"int32:{M}",
                                                      "float32:0.5"], ["BLOCK=1024"], 4, 3, ["cast", "float16"]),
    ("tr_scale_f32_to_fp16", "scale_cast", M // 1024, [f"{F}[{M}]", f"float16[{M}]:zeros", f"int32:{M}",
                                                      "float32:0.5"], ["BLOCK=1024"], 4, 3, ["cast", "float16"]),
    *[(f"tr_{k}_{bm}x{bn}", k, (-(-rows // bm), -(-cols // bn)),
       [f"{F}[{rows * cols}]", f"{F}[{rows * cols}]:zeros", f"int32:{rows}", f"int32:{cols}"], [f"BM={bm}", f"BN={bn}"],
       w, 3, ["transpose", "masked" if rows % bm else "tiles"])
      for k, rows, cols, bm, bn, w in (("transpose_tile", R, C, 32, 32, 4), ("transpose_tile", R, C, 64, 16, 2),
                                        ("transpose_naive", R, C, 32, 32, 4), ("transpose_tile", 500, 370, 32, 64, 4))],
    ("tr_row_sum_2d", "row_sum_2d", R // 16, [f"{F}[{R * C}]", f"{F}[{R}]:zeros", f"int32:{R}", f"int32:{C}"],
     ["BR=16", "BC=128"], 4, 3, ["reduction", "rows"]),
    ("tr_col_sum_2d", "col_sum_2d", C // 64, [f"{F}[{R * C}]", f"{F}[{C}]:zeros", f"int32:{R}", f"int32:{C}"],
     ["BR=32", "BC=64"], 4, 3, ["reduction", "columns"]),
    ("tr_row_max_argmax", "row_max_argmax", R, [f"{F}[{R * C}]", f"{F}[{R}]:zeros", f"int32[{R}]:zeros",
                                                f"int32:{C}"], ["BLOCK=512"], 4, 3, ["reduction", "argmax"]),
    ("tr_gather_rows", "gather_rows", 1024, [f"{F}[{4096 * 96}]", "int32[1024]:randint(0,4096)",
                                            f"{F}[{1024 * 96}]:zeros", "int32:96"], ["BLOCK=128"], 4, 3,
     ["gather", "embedding"]),
    ("tr_gather_elements", "gather_elements", M // 256, [f"{F}[{M}]", f"int32[{M}]:randint(0,{M})",
                                                        f"{F}[{M}]:zeros", f"int32:{M}"], ["BLOCK=256"], 4, 3,
     ["gather", "random"]),
    ("tr_histogram_atomic", "histogram_atomic", M // 256, [f"int32[{M}]:randint(0,100000)", "int32[64]:zeros",
                                                          f"int32:{M}"], ["BINS=64", "BLOCK=256"], 4, 3, ["atomic"]),
    ("tr_sum_atomic", "sum_atomic", M // 1024, [f"{F}[{M}]", f"{F}[1]:zeros", f"int32:{M}"], ["BLOCK=1024"], 4, 3,
     ["atomic", "reduction"]),
    ("tr_max_atomic", "max_atomic", M // 512, [f"int32[{M}]:randint(0,1000000)", "int32[64]:zeros", f"int32:{M}"],
     ["BLOCK=512"], 4, 3, ["atomic"]),
    ("tr_bias_relu_2d", "bias_relu_2d", (R // 16, C // 128), [f"{F}[{R * C}]", f"{F}[{C}]", f"{F}[{R * C}]:zeros",
                                                             f"int32:{R}", f"int32:{C}"], ["BR=16", "BC=128"], 4, 3,
     ["broadcast"]),
    ("tr_cumsum_rows", "cumsum_rows", 256, [f"{F}[{256 * 300}]", f"{F}[{256 * 300}]:zeros", "int32:300"],
     ["BLOCK=512"], 4, 3, ["scan"]),
    ("tr_seeded_dropout", "seeded_dropout", M // 1024, [f"{F}[{M}]", f"{F}[{M}]:zeros", f"int32:{M}", "float32:0.5",
                                                       "int32:123"], ["BLOCK=1024"], 4, 3, ["tutorial", "random"]),
    # softmax and layer norm at other widths, warps and stages
    *[(f"tr_softmax_{n}", "softmax_kernel", 64, [f"{F}[{512 * n}]:zeros", f"{F}[{512 * n}]", f"int32:{n}",
                                                f"int32:{n}", "int32:512", f"int32:{n}"],
       [f"BLOCK_SIZE={_pow2(n)}"], w, st, ["softmax", "tutorial", "reduction"])
      for n, w, st in ((128, 4, 1), (1000, 4, 2), (2048, 8, 2))],
    *[(f"tr_layer_norm_{n}", "_layer_norm_fwd_fused", 256,
       [f"{F}[{256 * n}]", f"{F}[{256 * n}]:zeros", f"{F}[{n}]", f"{F}[{n}]", f"{F}[256]:zeros",
        f"{F}[256]:zeros", f"int32:{n}", f"int32:{n}", "float32:1e-5"], [f"BLOCK_SIZE={b}"], w, 3,
       ["layernorm", "tutorial", "reduction"]) for n, b, w in ((512, 512, 4), (3000, 1024, 8))],
    # matmuls: fp32 IEEE (FMA), fp16 with a 16-row tile (mma.sync), fp16 128x128 (wgmma)
    ("tr_matmul_fma_f32", "matmul_fma", (4, 4), [f"{F}[{128 * 96}]", f"{F}[{96 * 128}]", f"{F}[{128 * 128}]:zeros",
                                                 "int32:128", "int32:128", "int32:96"], ["BM=32", "BN=32", "BK=32"],
     4, 3, ["gemm", "fma"]),
    ("tr_matmul_fp16_m16", "matmul_kernel", (256 // 16) * (256 // 32),
     ["float16[65536]", "float16[65536]", "float16[65536]:zeros", *_I],
     ["BLOCK_SIZE_M=16", "BLOCK_SIZE_N=32", "BLOCK_SIZE_K=32", "GROUP_SIZE_M=4"], 1, 2, ["gemm", "tutorial", "mma"]),
    ("tr_matmul_fp16_128", "matmul_kernel", 4, ["float16[65536]", "float16[65536]", "float16[65536]:zeros", *_I],
     ["BLOCK_SIZE_M=128", "BLOCK_SIZE_N=128", "BLOCK_SIZE_K=64", "GROUP_SIZE_M=8"], 8, 3,
     ["gemm", "tutorial", "wgmma"]),
]


def triton_cases() -> list[Case]:
    """The launches as cases (set `triton`); needs Triton 3.6.0 (memsim.triton)."""
    from memsim.triton import triton_spec

    cases = []
    for name, kernel, grid, args, constexprs, warps, stages, tags in LAUNCHES:
        spec = triton_spec(str(KERNELS_FILE), kernel, grid, args, constexprs, warps, stages)
        cases.append(Case(name=name, spec=spec,
                          tags=[*tags, "triton", f"kernel:{kernel}", f"sass:{code_digest(spec.source, spec.kernel)}"]))
    return cases


def code_digest(cubin_path: str, kernel: str) -> str:
    """sha256 (12 hex digits) of the kernel's code section: equal on two machines when Triton
    made the same SASS (the cubin's line tables name each machine's own path)."""
    from memsim.engine.sass.cubin import sections

    code = sections(Path(cubin_path).read_bytes())[f".text.{kernel}"]
    return hashlib.sha256(code).hexdigest()[:12]
