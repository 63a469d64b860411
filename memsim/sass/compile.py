"""CUDA C -> the cubin the H100 runs -> SASS text.

CuPy (the GPU side) compiles with NVRTC straight to a cubin for sm_90 (nvrtcGetCUBIN) and
appends `-ftz=true` to every option list. With the same NVRTC release (13.0.88) and the same
flags the cubin here is byte-identical to the one the device loads (checked on the H100, see
docs/sass.md), so its SASS is what the hardware executes. `-lineinfo` adds only line tables.
nvdisasm (pip package nvidia-cuda-nvdisasm) prints the SASS.
"""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..compile import _check, _first_error, _log
from ..errors import CompileError

# What CuPy's compile_with_cache adds to every NVRTC compile (cupy/cuda/compiler.py).
CUPY_IMPLICIT_OPTIONS = ("-ftz=true",)
NVDISASM_ENV = "MEMSIM_NVDISASM"


def compile_cubin(source: str, arch: str = "sm_90", options: tuple[str, ...] = (),
                  source_name: str = "kernel.cu") -> bytes:
    """The cubin NVRTC makes for `arch` with the GPU side's flags (plus -lineinfo)."""
    return _compile_cubin(source, arch, tuple(options), source_name)


@functools.lru_cache(maxsize=64)
def _compile_cubin(source: str, arch: str, options: tuple[str, ...], source_name: str) -> bytes:
    from cuda.bindings import nvrtc

    err, prog = nvrtc.nvrtcCreateProgram(source.encode(), source_name.encode(), 0, [], [])
    _check(err, "nvrtcCreateProgram")
    try:
        flags = [f"-arch={arch}", "-lineinfo", "-std=c++17", *options, *CUPY_IMPLICIT_OPTIONS]
        (err,) = nvrtc.nvrtcCompileProgram(prog, len(flags), [f.encode() for f in flags])
        if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            raise CompileError(_first_error(_log(prog), source_name))
        err, size = nvrtc.nvrtcGetCUBINSize(prog)
        _check(err, "nvrtcGetCUBINSize")
        buffer = b" " * size
        (err,) = nvrtc.nvrtcGetCUBIN(prog, buffer)
        _check(err, "nvrtcGetCUBIN")
    finally:
        nvrtc.nvrtcDestroyProgram(prog)
    return buffer


@functools.lru_cache(maxsize=64)
def listing(source: str, arch: str = "sm_90", options: tuple[str, ...] = (),
            source_name: str = "kernel.cu") -> str:
    """nvdisasm's text of the cubin of `source` (kept: the cache model and the emulation of one
    launch both read it, and nvdisasm costs about 0.5 s a module)."""
    return disassemble(compile_cubin(source, arch, options, source_name))


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
        raise CompileError("nvdisasm not found: pip install nvidia-cuda-nvdisasm, or set "
                           f"{NVDISASM_ENV} to its path")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "kernel.cubin"
        path.write_bytes(cubin)
        done = subprocess.run([tool, "-c", "-g", str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        raise CompileError(f"nvdisasm failed: {done.stderr.strip().splitlines()[-1:]}")
    return done.stdout
