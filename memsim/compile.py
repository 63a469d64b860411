"""Stage 1: CUDA C++ -> PTX with NVRTC (the compiler CuPy uses on the GPU side).

NVRTC needs no GPU and no driver. The release is pinned in pyproject.toml to the GPU machine's
(13.0): loop unrolling, and with it the per-warp counts of divergent loops, differ across releases.
"""
from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path

from pydantic import BaseModel

from .errors import CompileError

ARCH_PATTERN = re.compile(r"^(?:sm|compute)_(\d{2,3}[af]?)$")


class CompiledModule(BaseModel):
    """PTX of one translation unit and how it was made."""

    ptx: str
    source_name: str
    nvrtc_version: str
    arch: str
    options: tuple[str, ...]


def nvrtc_version() -> str:
    from cuda.bindings import nvrtc
    _, major, minor = nvrtc.nvrtcVersion()
    return f"{major}.{minor}"


def virtual_arch(arch: str) -> str:
    """'sm_90' or 'compute_90' -> 'compute_90'; anything else is a CompileError."""
    match = ARCH_PATTERN.match(arch.strip())
    if not match:
        raise CompileError(f"bad architecture '{arch}': write it like sm_90 or compute_80")
    return f"compute_{match.group(1)}"


def compile_cuda(source: str, arch: str = "sm_90", options: tuple[str, ...] | list[str] = (),
                 source_name: str = "kernel.cu") -> CompiledModule:
    """Compile CUDA C++ text to PTX with line info; CompileError carries NVRTC's log."""
    return _compile_cached(source, virtual_arch(arch), tuple(options), source_name)


def nvrtc_flags(varch: str, options: tuple[str, ...]) -> list[str]:
    """NVRTC's command line, the same for PTX and for lowered names.

    The GPU side's exact flags: the validator passes -std=c++17 to CuPy, and CuPy appends
    -ftz=true to every compile (cupy/cuda/compiler.py); -lineinfo maps PTX to source lines and
    changes no instruction."""
    return [f"--gpu-architecture={varch}", "-lineinfo", "-std=c++17", *options, "-ftz=true"]


@functools.lru_cache(maxsize=64)
def _compile_cached(source: str, varch: str, options: tuple[str, ...], source_name: str) -> CompiledModule:
    from cuda.bindings import nvrtc

    err, prog = nvrtc.nvrtcCreateProgram(source.encode(), source_name.encode(), 0, [], [])
    _check(err, "nvrtcCreateProgram")
    try:
        flags = nvrtc_flags(varch, options)
        (err,) = nvrtc.nvrtcCompileProgram(prog, len(flags), [f.encode() for f in flags])
        if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            raise CompileError(_first_error(_log(prog), source_name))
        err, size = nvrtc.nvrtcGetPTXSize(prog)
        _check(err, "nvrtcGetPTXSize")
        buffer = b" " * size
        (err,) = nvrtc.nvrtcGetPTX(prog, buffer)
        _check(err, "nvrtcGetPTX")
    finally:
        nvrtc.nvrtcDestroyProgram(prog)
    return CompiledModule(ptx=buffer.rstrip(b"\x00").decode(), source_name=source_name,
                          nvrtc_version=nvrtc_version(), arch=varch.replace("compute", "sm"),
                          options=options)


IDENTIFIER = re.compile(r"^[A-Za-z_$][\w$]*$")


def lowered_name(source: str, kernel: str, arch: str = "sm_90", options: tuple[str, ...] | list[str] = (),
                 source_name: str = "kernel.cu") -> str:
    """The PTX/cubin entry name of `kernel`: itself for a plain (extern "C" or mangled) name, the
    mangled name for a C++ name such as `k_reduce<256>` or `ns::k_scan` (NVRTC's name expressions).

    The source must instantiate a template it launches (an explicit instantiation, as for any
    NVRTC build), so that the module compiled without name expressions holds the same entry."""
    if IDENTIFIER.match(kernel):
        return kernel
    return _lowered_cached(source, virtual_arch(arch), tuple(options), source_name, kernel)


@functools.lru_cache(maxsize=256)
def _lowered_cached(source: str, varch: str, options: tuple[str, ...], source_name: str, kernel: str) -> str:
    from cuda.bindings import nvrtc

    err, prog = nvrtc.nvrtcCreateProgram(source.encode(), source_name.encode(), 0, [], [])
    _check(err, "nvrtcCreateProgram")
    try:
        (err,) = nvrtc.nvrtcAddNameExpression(prog, kernel.encode())
        _check(err, "nvrtcAddNameExpression")
        flags = nvrtc_flags(varch, options)
        (err,) = nvrtc.nvrtcCompileProgram(prog, len(flags), [f.encode() for f in flags])
        if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            raise CompileError(_first_error(_log(prog), source_name))
        err, lowered = nvrtc.nvrtcGetLoweredName(prog, kernel.encode())
        _check(err, f"nvrtcGetLoweredName('{kernel}')")
    finally:
        nvrtc.nvrtcDestroyProgram(prog)
    return lowered.decode() if isinstance(lowered, bytes) else str(lowered)


def _log(prog) -> str:
    from cuda.bindings import nvrtc
    _, size = nvrtc.nvrtcGetProgramLogSize(prog)
    log = b" " * size
    nvrtc.nvrtcGetProgramLog(prog, log)
    return log.rstrip(b"\x00").decode(errors="replace")


def _first_error(log: str, source_name: str) -> str:
    """One line: the first 'error' line of the log (file(line): error: ...), else the log's start."""
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    errors = [line for line in lines if "error" in line]
    first = errors[0] if errors else (lines[0] if lines else "unknown NVRTC error")
    more = f" (+{len(errors) - 1} more errors)" if len(errors) > 1 else ""
    return f"compile failed: {first}{more}"


def _check(err, what: str) -> None:
    from cuda.bindings import nvrtc
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise CompileError(f"{what} failed: {err}")


def load_source(source: str) -> tuple[str, str, bool]:
    """(text, name, is_ptx) from CUDA/PTX text or a path to a .cu/.ptx file."""
    looks_like_path = "\n" not in source and source.strip().endswith((".cu", ".ptx", ".cuh"))
    if looks_like_path:
        path = Path(source)
        if not path.is_file():
            raise CompileError(f"no such source file: {source}")
        return path.read_text(), path.name, path.suffix == ".ptx"
    is_ptx = ".entry" in source and ".version" in source
    return source, "kernel.cu", is_ptx


def source_digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]
