"""Stage 1: CUDA C++ -> PTX with NVRTC (the compiler CuPy uses on the GPU side).

NVRTC needs no GPU and no driver. The release is pinned in pyproject.toml to the GPU machine's
(13.0): loop unrolling, and with it the per-warp counts of divergent loops, differ across releases.
"""
from __future__ import annotations

import functools
import re
import sys
from pathlib import Path
from typing import Sequence

from pydantic import BaseModel

from ..gpus import DEFAULT_ARCH
from . import names
from ..errors import CompileError
from .shipped import ToolMissing, lookup, missing_tool

ARCH_PATTERN = re.compile(r"^(?:sm|compute)_(\d{2,3}[af]?)$")


class CompiledModule(BaseModel):
    """PTX of one translation unit and how it was made."""

    ptx: str
    source_name: str
    nvrtc_version: str
    arch: str
    options: tuple[str, ...]
    # C++ name expressions compiled in (nvrtcAddNameExpression) and their lowered names.
    name_expressions: tuple[str, ...] = ()
    lowered_names: dict[str, str] = {}

    @property
    def kernels(self) -> list[str]:
        """The module's kernel (.entry) names, as lowered (mangled) by NVRTC."""
        return _PTX_ENTRY.findall(self.ptx)


_PTX_ENTRY = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)*\.entry\s+([\w$.]+)", re.M)


def load_nvrtc():
    """cuda-bindings' NVRTC module with its library loaded; ToolMissing where either is absent
    (macOS: no wheel), so that callers can answer from the shipped catalog modules instead."""
    try:
        from cuda.bindings import nvrtc
        nvrtc.nvrtcVersion()
    except (ImportError, OSError, RuntimeError) as exc:
        raise missing_tool("NVRTC", str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
    return nvrtc


def nvrtc_version() -> str:
    _, major, minor = load_nvrtc().nvrtcVersion()
    return f"{major}.{minor}"


def virtual_arch(arch: str) -> str:
    """sm_XX" or "compute_XX" -> "compute_XX"; anything else is a CompileError."""
    match = ARCH_PATTERN.match(arch.strip())
    if not match:
        raise CompileError(f"bad architecture '{arch}': write it like sm_90 or compute_80")
    return f"compute_{match.group(1)}"


@functools.lru_cache(maxsize=1)
def toolkit_include_dirs() -> tuple[str, ...]:
    """Include directories of the CUDA header wheels (nvidia-cuda-runtime: cuda_fp16.h,
    cooperative_groups.h; nvidia-cuda-crt: crt/; nvidia-cuda-cccl: cub/, cuda/std), found in the
    `nvidia.cu13` namespace package, so that kernels with those includes compile without a
    CUDA toolkit installed. Empty where the wheels are missing."""
    try:
        import nvidia.cu13  # type: ignore[import-not-found]
        roots = list(nvidia.cu13.__path__)
    except ImportError:
        roots = []
    # Another environment's nvidia/cu13 (a regular package, not a namespace) hides the wheels
    # installed beside it on sys.path: look in every sys.path entry too.
    roots += [str(Path(entry) / "nvidia" / "cu13") for entry in sys.path if entry]
    found = []
    for root in roots:
        for sub in ("include", "include/cccl"):
            path = Path(root) / sub
            if path.is_dir() and str(path) not in found:
                found.append(str(path))
    return tuple(found)


def include_options(include_dirs: Sequence[str] | None) -> tuple[str, ...]:
    """NVRTC options for a user's include directories (a missing one is a CompileError)."""
    options = []
    for directory in include_dirs or ():
        if not Path(directory).is_dir():
            raise CompileError(f"include directory not found: {directory}")
        options.append(f"--include-path={Path(directory).resolve()}")
    return tuple(options)


def run_nvrtc(source: str, source_name: str, flags: Sequence[str], name_expressions: Sequence[str],
              output: str) -> tuple[bytes, dict[str, str]]:
    """Compile with NVRTC and return (`output`: "PTX" or "CUBIN" bytes, lowered name of each
    name expression). Both compile paths (PTX here, cubin in memsim.engine.sass.compile) go through
    this so that they see the same headers and lower a C++ name to the same symbol. The
    toolkit header directories come after the user's options, so a user's -I wins."""
    nvrtc = load_nvrtc()

    err, prog = nvrtc.nvrtcCreateProgram(source.encode(), source_name.encode(), 0, [], [])
    _check(err, "nvrtcCreateProgram")
    try:
        for expression in name_expressions:
            (err,) = nvrtc.nvrtcAddNameExpression(prog, expression.encode())
            _check(err, "nvrtcAddNameExpression")
        flags = [*flags, *(f"--include-path={d}" for d in toolkit_include_dirs())]
        (err,) = nvrtc.nvrtcCompileProgram(prog, len(flags), [f.encode() for f in flags])
        if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            message = _first_error(_log(prog), source_name)
            raise CompileError(message + _hint(source, message))
        lowered = {}
        for expression in name_expressions:
            err, name = nvrtc.nvrtcGetLoweredName(prog, expression.encode())
            _check(err, "nvrtcGetLoweredName")
            lowered[expression] = name.decode() if isinstance(name, bytes) else str(name)
        get_size, get = getattr(nvrtc, f"nvrtcGet{output}Size"), getattr(nvrtc, f"nvrtcGet{output}")
        err, size = get_size(prog)
        _check(err, f"nvrtcGet{output}Size")
        buffer = b" " * size
        (err,) = get(prog, buffer)
        _check(err, f"nvrtcGet{output}")
    finally:
        nvrtc.nvrtcDestroyProgram(prog)
    return buffer, lowered


def compile_cuda(source: str, arch: str = DEFAULT_ARCH, options: tuple[str, ...] | list[str] = (),
                 source_name: str = "kernel.cu", name_expressions: Sequence[str] = ()) -> CompiledModule:
    """Compile CUDA C++ text to PTX with line info; CompileError carries NVRTC's log.
    `name_expressions` (C++ names like `reduce<256>`) are instantiated and lowered."""
    return _compile_cached(source, virtual_arch(arch), tuple(options), source_name,
                           tuple(name_expressions))


@functools.lru_cache(maxsize=64)
def _compile_cached(source: str, varch: str, options: tuple[str, ...], source_name: str,
                    name_expressions: tuple[str, ...] = ()) -> CompiledModule:
    # The GPU side's exact flags: the validator passes -std=c++17 to CuPy, and CuPy appends
    # -ftz=true to every compile (cupy/cuda/compiler.py); -lineinfo maps PTX to source lines
    # and changes no instruction.
    flags = [f"--gpu-architecture={varch}", "-lineinfo", "-std=c++17", *options, "-ftz=true"]
    try:
        buffer, lowered = run_nvrtc(source, source_name, flags, name_expressions, "PTX")
    except ToolMissing as missing:
        return _shipped(source, varch, options, source_name, name_expressions, missing)
    return CompiledModule(ptx=buffer.rstrip(b"\x00").decode(), source_name=source_name,
                          nvrtc_version=nvrtc_version(), arch=varch.replace("compute", "sm"),
                          options=options, name_expressions=name_expressions, lowered_names=lowered)


def _shipped(source: str, varch: str, options: tuple[str, ...], source_name: str,
             name_expressions: tuple[str, ...], missing: ToolMissing) -> CompiledModule:
    """The module shipped for this compile (memsim.compiler.shipped), where NVRTC cannot be loaded."""
    found = lookup(source, source_name, varch, options, name_expressions, missing)
    return CompiledModule(ptx=found.ptx, source_name=source_name, nvrtc_version=found.nvrtc_version,
                          arch=varch.replace("compute", "sm"), options=options,
                          name_expressions=name_expressions, lowered_names=found.lowered_names)


def compile_for_kernel(source: str, kernel: str, arch: str = DEFAULT_ARCH, options: Sequence[str] = (),
                       source_name: str = "kernel.cu") -> tuple[CompiledModule, str]:
    """(module, lowered name) of the kernel a user names: an extern "C" name, a mangled name, or
    a C++ name expression (`reduce<256>`, compiled in as CuPy's name_expressions do). A plain
    or mangled name compiles without name expressions, so its code is what CuPy's RawKernel
    gets. An unknown name is a LaunchError listing the kernels, demangled."""
    options = tuple(options)
    if names.is_expression(kernel):
        return _with_expression(source, kernel, arch, options, source_name)
    compiled = compile_cuda(source, arch, options, source_name)
    found = names.match_kernel(kernel, compiled.kernels)
    if found:
        return compiled, found
    if not names.is_mangled(kernel):   # a C++ kernel named without extern "C": `foo` -> _Z3foov
        return _with_expression(source, kernel, arch, options, source_name)
    raise names.unknown_kernel(kernel, compiled.kernels)


def _with_expression(source: str, kernel: str, arch: str, options: tuple[str, ...],
                     source_name: str) -> tuple[CompiledModule, str]:
    try:
        compiled = compile_cuda(source, arch, options, source_name, (kernel,))
    except CompileError as exc:
        plain = compile_cuda(source, arch, options, source_name)  # a real error surfaces here
        found = names.match_kernel(kernel, plain.kernels)
        if found:
            return plain, found
        raise names.unknown_kernel(kernel, plain.kernels, str(exc)) from None
    lowered = compiled.lowered_names[kernel]
    if lowered not in compiled.kernels:   # a name expression of a __device__ function, say
        raise names.unknown_kernel(kernel, compiled.kernels, f"'{kernel}' is not a __global__ function")
    return compiled, lowered


def lowered_name(source: str, kernel: str, arch: str = DEFAULT_ARCH, options: Sequence[str] = (),
                 source_name: str = "kernel.cu") -> str:
    """The PTX/cubin entry name of the kernel a user names (see compile_for_kernel)."""
    return compile_for_kernel(source, kernel, arch, tuple(options), source_name)[1]


def _hint(source: str, message: str) -> str:
    """What to do where a known header cannot work under NVRTC."""
    if "cub/cub.cuh" in source and "JIT mode" in message:
        return ("; <cub/cub.cuh> includes CUB's device-wide (host) algorithms, which NVRTC cannot "
                "compile: include the block/warp headers instead (<cub/warp/warp_reduce.cuh>, "
                "<cub/block/block_reduce.cuh>)")
    return ""


def _log(prog) -> str:
    nvrtc = load_nvrtc()
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
    nvrtc = load_nvrtc()
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise CompileError(f"{what} failed: {err}")


# SASS made elsewhere (an nvdisasm listing, a cubin): it has no CUDA or PTX text.
SASS_SUFFIXES = (".sass", ".cubin")


# First line of PTX a front end made for the default architecture (memsim.numba_cuda): how the
# engine registry's "auto" tells it from other PTX (it runs on the SASS engine) without the
# engines importing a front end.
SASS_PTX_MARKER = "// memsim: numba.cuda kernel"


def is_sass_ready_ptx(text: str) -> bool:
    """Whether `text` is PTX a front end marked as made for the default architecture."""
    return text.startswith(SASS_PTX_MARKER)


def load_source(source: str) -> tuple[str, str, bool]:
    """(text, name, is_ptx) from CUDA/PTX text or a path to a .cu/.ptx file; a .sass or .cubin
    path has no text here ("", name, False)."""
    looks_like_path = "\n" not in source and source.strip().endswith((".cu", ".ptx", ".cuh", *SASS_SUFFIXES))
    if looks_like_path:
        path = Path(source)
        if not path.is_file():
            raise CompileError(f"no such source file: {source}")
        if path.suffix in SASS_SUFFIXES:   # SASS made elsewhere: no source text (memsim.engine.sass.listing_input)
            return "", path.name, False
        return _read_text(path), path.name, path.suffix == ".ptx"
    is_ptx = ".entry" in source and ".version" in source
    return source, "kernel.cu", is_ptx


def _read_text(path: Path) -> str:
    """A source file's text; one line for a file that is not UTF-8 text (a binary given as .cu)."""
    try:
        return path.read_text()
    except UnicodeDecodeError as exc:
        raise CompileError(f"{path} is not a text file (byte {exc.start} is {exc.object[exc.start]:#04x}, not "
                           f"UTF-8): give CUDA C or PTX source") from None
    except OSError as exc:
        raise CompileError(f"cannot read {path}: {exc.strerror}") from None


_PTX_FILE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]*)"', re.M)
_PTX_LOC = re.compile(r"^\s*\.loc\s+(\d+)\s", re.M)


def report_source(text: str, name: str, is_ptx: bool) -> tuple[list[str], str]:
    """(lines, file name) that a report's line numbers refer to: the source itself, or for PTX
    the file most of its `.loc` directives name where that file can be read (numba.cuda's PTX
    names the kernel's .py file), else no text."""
    if not is_ptx:
        return text.splitlines(), name
    files = dict(_PTX_FILE.findall(text))
    locs = _PTX_LOC.findall(text)
    if not files or not locs:
        return [], name
    path = Path(files.get(max(set(locs), key=locs.count), ""))
    if not path.is_file():
        return [], name
    return path.read_text().splitlines(), str(path)


class KernelModule(BaseModel):
    """The PTX holding a named kernel, the kernel's lowered name, and the name expressions the
    SASS path must compile in too (so that its cubin has the same instantiation)."""

    ptx: str
    kernel: str
    nvrtc_version: str
    name_expressions: tuple[str, ...] = ()


def kernel_module(text: str, source_name: str, is_ptx: bool, kernel: str, arch: str = DEFAULT_ARCH,
                  options: Sequence[str] = ()) -> KernelModule:
    """The module of `kernel` from CUDA C or PTX text (PTX: matched by lowered or demangled name)."""
    if is_ptx:
        entries = _PTX_ENTRY.findall(text)
        found = names.match_kernel(kernel, entries)
        if found is None:
            raise names.unknown_kernel(kernel, entries)
        return KernelModule(ptx=text, kernel=found, nvrtc_version="n/a (PTX given)")
    compiled, lowered = compile_for_kernel(text, kernel, arch, options, source_name)
    return KernelModule(ptx=compiled.ptx, kernel=lowered, nvrtc_version=compiled.nvrtc_version,
                        name_expressions=compiled.name_expressions)
