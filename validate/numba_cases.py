"""The numba set: numba.cuda kernels (validate/numba_kernels.py) launched as memsim runs them,
to be recorded on an H100 and held like the corpus (`validate run --cases numba`).

A launch's source is the kernel's canonical PTX (memsim.numba_cuda), kept in
validate/numba_ptx/<kernel>.ptx so that the GPU machine needs no numba: gpu/launch.py links
that PTX with the same nvJitLink 13.0 the simulator uses and loads the cubin into CuPy, so the
measured kernel is the simulated one, byte for byte. Its parameters are numba's array ABI
flattened (memsim.numba_cuda.abi_arg_specs): `float32[512x1024]` is a 512 x 1024 array.

After editing numba_kernels.py or LAUNCHES, write the PTX again (a test fails until then):

    python -m validate.numba_cases

LAUNCHES: (name, kernel, grid, block, args, tags). Each kernel has one signature (its PTX file).
Sums that atomics build in any order are exact (init randint: small integers as floats).
"""
from __future__ import annotations

import functools
import sys
from pathlib import Path

from memsim.launch import LaunchSpec

from .case import Case

HERE = Path(__file__).parent
KERNELS_FILE = HERE / "numba_kernels.py"
PTX_DIR = HERE / "numba_ptx"
# How the PTX names numba_kernels.py (.file): relative to the repository root, where validate runs.
KERNELS_NAME = "validate/numba_kernels.py"

N = 1 << 18
F = "float32"
SMALL_INTS = "randint(0,4)"


def _f(shape: str, init: str = "random") -> str:
    return f"{F}[{shape}]:{init}"


LAUNCHES: list[tuple] = [
    ("nb_vector_add", "k_vector_add", N // 256, 256, [_f(N), _f(N), _f(N, "zeros")], ["elementwise"]),
    ("nb_vector_add_partial", "k_vector_add", 977, 256, [_f(250000), _f(250000), _f(250000, "zeros")],
     ["elementwise", "partial"]),
    ("nb_saxpy", "k_saxpy", N // 256, 256, ["float32:2.0", _f(N), _f(N)], ["elementwise"]),
    ("nb_grid_stride_scale", "k_grid_stride_scale", 132, 256, [_f(N), _f(N, "zeros"), "float32:1.5"],
     ["elementwise", "grid-stride"]),
    ("nb_strided_copy_2", "k_strided_copy", N // 256, 256, [_f(2 * N), _f(N, "zeros"), "int64:2"],
     ["strided", "uncoalesced"]),
    ("nb_strided_copy_32", "k_strided_copy", N // 4 // 256, 256, [_f(8 * N), _f(N // 4, "zeros"), "int64:32"],
     ["strided", "uncoalesced"]),
    ("nb_transpose_naive", "k_transpose_naive", (32, 64), (32, 8), [_f("512x1024"), _f("1024x512", "zeros")],
     ["transpose", "2d", "uncoalesced"]),
    ("nb_transpose_tiled", "k_transpose_tiled", (32, 16), (32, 32), [_f("512x1024"), _f("1024x512", "zeros")],
     ["transpose", "2d", "shared", "padded"]),
    ("nb_transpose_tiled_conflicts", "k_transpose_tiled_conflicts", (32, 16), (32, 32),
     [_f("512x1024"), _f("1024x512", "zeros")], ["transpose", "2d", "shared", "bank-conflicts"]),
    ("nb_sum_atomic", "k_sum_atomic", N // 256, 256, [_f(N, SMALL_INTS), _f(1, "zeros")],
     ["reduction", "atomic"]),
    ("nb_sum_shared", "k_sum_shared", N // 256, 256, [_f(N, SMALL_INTS), _f(1, "zeros")],
     ["reduction", "shared-tree", "atomic"]),
    ("nb_matmul_naive", "k_matmul_naive", (8, 32), (32, 8), [_f("256x256"), _f("256x256"), _f("256x256", "zeros")],
     ["gemm", "2d"]),
    ("nb_matmul_shared", "k_matmul_shared", (8, 8), (32, 32), [_f("256x256"), _f("256x256"), _f("256x256", "zeros")],
     ["gemm", "2d", "shared"]),
    ("nb_stencil_1d", "k_stencil_1d", N // 256, 256, [_f(N), _f(N, "zeros")], ["stencil", "float64-promotion"]),
    ("nb_stencil_2d", "k_stencil_2d", (16, 64), (32, 8), [_f("512x512"), _f("512x512", "zeros")],
     ["stencil", "2d"]),
    ("nb_row_sums", "k_row_sums", 4, 256, [_f("1024x512"), _f(1024, "zeros")], ["rows", "uncoalesced"]),
    ("nb_column_sums", "k_column_sums", 2, 256, [_f("1024x512"), _f(512, "zeros")], ["columns"]),
    ("nb_histogram", "k_histogram", N // 256, 256, [_f(N), "int32[64]:zeros"],
     ["histogram", "atomic"]),
    ("nb_rsqrt_norm", "k_rsqrt_norm", N // 256, 256, [_f(N), _f(N), _f(N, "zeros")],
     ["elementwise", "float64-promotion", "sqrt"]),
]


def numba_cases() -> list[Case]:
    """The numba launches as cases (set `numba`), from the PTX kept in validate/numba_ptx."""
    from memsim.numba_cuda import abi_arg_specs

    cases = []
    for name, kernel, grid, block, args, tags in LAUNCHES:
        specs, _ = abi_arg_specs(args)
        spec = LaunchSpec(source=kernel_ptx(kernel), kernel=kernel, grid=grid, block=block, args=specs)
        cases.append(Case(name=name, spec=spec, tags=[*tags, "numba", f"kernel:{kernel}"]))
    return cases


@functools.lru_cache(maxsize=None)
def kernel_ptx(kernel: str) -> str:
    return (PTX_DIR / f"{kernel}.ptx").read_text()


def fresh_ptx() -> dict[str, str]:
    """kernel -> canonical PTX compiled now by numba (for the types of its launches)."""
    from memsim.numba_cuda import abi_arg_specs, compile_kernel

    from . import numba_kernels

    types: dict[str, tuple] = {}
    for name, kernel, _, _, args, _ in LAUNCHES:
        kinds = tuple(abi_arg_specs(args)[1])
        if types.setdefault(kernel, kinds) != kinds:
            raise ValueError(f"{name}: kernel {kernel} is launched with two signatures; give it one")
    compiled = {kernel: compile_kernel(getattr(numba_kernels, kernel), kinds) for kernel, kinds in types.items()}
    return {kernel: c.ptx.replace(f'"{c.source_file}"', f'"{KERNELS_NAME}"') for kernel, c in compiled.items()}


def write_ptx() -> list[Path]:
    """Compile every kernel and keep its PTX (validate/numba_ptx/<kernel>.ptx)."""
    PTX_DIR.mkdir(exist_ok=True)
    written = []
    for kernel, ptx in fresh_ptx().items():
        path = PTX_DIR / f"{kernel}.ptx"
        path.write_text(ptx)
        written.append(path)
    return written


if __name__ == "__main__":
    paths = write_ptx()
    print(f"wrote {len(paths)} PTX files to {PTX_DIR}")
    sys.exit(0)
