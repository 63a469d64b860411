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

# (name, kernel, grid, args, constexprs, num_warps, num_stages, tags)
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
     ["BLOCK_SIZE=1024", "num_stages=2"], 8, 3, ["softmax", "tutorial", "cp.async", "reduction"]),
    ("tr_softmax_1stage", "softmax_kernel", 132, [f"{F}[{4096 * 781}]:zeros", f"{F}[{4096 * 781}]", "int32:781",
                                                  "int32:781", "int32:4096", "int32:781"],
     ["BLOCK_SIZE=1024", "num_stages=1"], 8, 3, ["softmax", "tutorial", "reduction"]),
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
