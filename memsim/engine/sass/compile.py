"""CUDA C (or PTX) -> the cubin the H100 runs -> SASS text.

CuPy (the GPU side) compiles with NVRTC straight to a cubin for sm_90 (nvrtcGetCUBIN) and
appends `-ftz=true` to every option list. With the same NVRTC release (13.0.88) and the same
flags the cubin here is byte-identical to the one the device loads (checked on the H100, see
docs/sass.md), so its SASS is what the hardware executes. `-lineinfo` adds only line tables.
nvdisasm (pip package nvidia-cuda-nvdisasm) prints the SASS.

PTX text (numba.cuda's, say) becomes a cubin through nvJitLink (pip package nvidia-nvjitlink,
pinned to NVRTC's release, 13.0, so its ptxas is the one inside NVRTC): memsim.engine.sass.nvjitlink.
The GPU side links the same PTX with the same function, so both run one cubin.
"""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from typing import Sequence

from ...gpus import DEFAULT_ARCH
from ...compiler.nvrtc import load_source, run_nvrtc
from ...errors import CompileError
from ...compiler.shipped import ShippedModule, ToolMissing, lookup, missing_tool
from .cubin import constant_banks, register_counts
from .nvjitlink import link_ptx

# What CuPy's compile_with_cache adds to every NVRTC compile (cupy/cuda/compiler.py).
CUPY_IMPLICIT_OPTIONS = ("-ftz=true",)
NVDISASM_ENV = "MEMSIM_NVDISASM"


def compile_cubin(source: str, arch: str = DEFAULT_ARCH, options: tuple[str, ...] = (),
                  source_name: str = "kernel.cu", name_expressions: Sequence[str] = ()) -> bytes:
    """The cubin NVRTC makes for `arch` with the GPU side's flags (plus -lineinfo);
    `name_expressions` as memsim.compiler.nvrtc.compile_cuda's (the same expressions give the same
    lowered names and instantiations in both). PTX text is linked by nvJitLink instead (its
    options are NVRTC's and do not apply)."""
    if load_source(source)[2]:
        return link_ptx(source, arch)
    return _compile_cubin(source, arch, tuple(options), source_name, tuple(name_expressions))


@functools.lru_cache(maxsize=64)
def _compile_cubin(source: str, arch: str, options: tuple[str, ...], source_name: str,
                   name_expressions: tuple[str, ...] = ()) -> bytes:
    flags = [f"-arch={arch}", "-lineinfo", "-std=c++17", *options, *CUPY_IMPLICIT_OPTIONS]
    buffer, _ = run_nvrtc(source, source_name, flags, name_expressions, "CUBIN")
    return buffer


@functools.lru_cache(maxsize=64)
def listing(source: str, arch: str = DEFAULT_ARCH, options: tuple[str, ...] = (),
            source_name: str = "kernel.cu", name_expressions: tuple[str, ...] = ()) -> str:
    """nvdisasm's text of the cubin of `source` (kept: the cache model and the emulation of one
    launch both read it, and nvdisasm costs about 0.5 s a module); the shipped listing where
    NVRTC or nvdisasm cannot be loaded."""
    try:
        return disassemble(compile_cubin(source, arch, options, source_name, name_expressions))
    except ToolMissing as missing:
        return _shipped(source, arch, options, source_name, name_expressions, missing).sass


def kernel_constant_banks(source: str, kernel: str, arch: str = DEFAULT_ARCH, options: tuple[str, ...] = (),
                          source_name: str = "kernel.cu",
                          name_expressions: tuple[str, ...] = ()) -> dict[int, bytes]:
    """The banks other than 0 that `kernel` (lowered name) sees at launch: from its cubin, or
    shipped with its listing where the cubin cannot be made here."""
    try:
        return constant_banks(compile_cubin(source, arch, options, source_name, name_expressions), kernel)
    except ToolMissing as missing:
        found = _shipped(source, arch, options, source_name, name_expressions, missing)
        return {bank: bytes.fromhex(data) for bank, data in found.banks.get(kernel, {}).items()}


def kernel_registers(source: str, kernel: str, arch: str = DEFAULT_ARCH, options: tuple[str, ...] = (),
                     source_name: str = "kernel.cu", name_expressions: tuple[str, ...] = ()) -> int | None:
    """Registers per thread of `kernel` (lowered name) as ptxas allocated them in its cubin;
    None where the cubin cannot be made here (shipped modules carry no cubin)."""
    try:
        return register_counts(compile_cubin(source, arch, options, source_name, name_expressions)).get(kernel)
    except ToolMissing:
        return None


def _shipped(source: str, arch: str, options: tuple[str, ...], source_name: str,
             name_expressions: tuple[str, ...], missing: ToolMissing) -> ShippedModule:
    """The shipped module with a listing (CUDA C only: PTX input is never shipped)."""
    if load_source(source)[2]:
        raise missing
    return lookup(source, source_name, arch, options, name_expressions, missing, need_sass=True)


def find_nvdisasm() -> str | None:
    """$MEMSIM_NVDISASM, nvdisasm on PATH, or the one in the nvidia-cuda-nvdisasm wheel."""
    named = os.environ.get(NVDISASM_ENV)
    if named:
        return named
    found = shutil.which("nvdisasm")
    if found:
        return found
    try:
        import nvidia.cu13  # type: ignore[import-not-found]
    except ImportError:
        return None
    for root in nvidia.cu13.__path__:
        candidate = Path(root) / "bin" / "nvdisasm"
        if candidate.exists():
            return str(candidate)
    return None


def disassemble(cubin: bytes) -> str:
    """nvdisasm's text of a cubin, with source lines (-g) and without encodings (-c)."""
    tool = find_nvdisasm()
    if tool is None:
        raise missing_tool("nvdisasm", f"not on PATH, no ${NVDISASM_ENV}, no nvidia-cuda-nvdisasm "
                           "wheel installed")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "kernel.cubin"
        path.write_bytes(cubin)
        done = subprocess.run([tool, "-c", "-g", str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        raise CompileError(f"nvdisasm failed: {done.stderr.strip().splitlines()[-1:]}")
    return done.stdout
