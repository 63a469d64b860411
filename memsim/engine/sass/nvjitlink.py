"""PTX -> sm_90 cubin with nvJitLink, the CUDA toolkit's linker library, with no toolkit installed.

numba.cuda hands memsim PTX, and the SASS engine needs the cubin the GPU would run. nvJitLink
(pip package nvidia-nvjitlink, pinned to 13.0: the release of memsim's NVRTC, whose ptxas it
contains) links PTX into a cubin. It is called through ctypes rather than cuda-bindings so that
the GPU machine, which links the same PTX to load it into CuPy, needs only the wheel's library:
both sides then run one cubin, byte for byte.
"""
from __future__ import annotations

import ctypes
import functools
from pathlib import Path

from ...gpus import DEFAULT_ARCH
from ...errors import CompileError
from ...compiler.shipped import missing_tool

RELEASE = (13, 0)
LIBRARY = "libnvJitLink.so.13"
INPUT_PTX = 2
INSTALL = "pip install nvidia-nvjitlink==13.0.88"
_API = "_13_0"   # the entry points are versioned: a library of another release lacks them


def link_ptx(ptx: str, arch: str = DEFAULT_ARCH) -> bytes:
    """The cubin nvJitLink makes of PTX text for `arch`, with line tables (-lineinfo adds them
    and changes no instruction) so that nvdisasm -g names each instruction's source line."""
    return _link(ptx, arch)


def version() -> str:
    """nvJitLink's release, "13.0"."""
    lib = _library()
    major, minor = ctypes.c_uint(), ctypes.c_uint()
    lib.nvJitLinkVersion(ctypes.byref(major), ctypes.byref(minor))
    return f"{major.value}.{minor.value}"


@functools.lru_cache(maxsize=64)
def _link(ptx: str, arch: str) -> bytes:
    lib = _library()
    options = [f"-arch={arch}".encode(), b"-lineinfo"]
    handle = ctypes.c_void_p()
    _check(lib, None, getattr(lib, f"__nvJitLinkCreate{_API}")(
        ctypes.byref(handle), len(options), (ctypes.c_char_p * len(options))(*options)), "create")
    try:
        data = ptx.encode()
        _check(lib, handle, getattr(lib, f"__nvJitLinkAddData{_API}")(
            handle, INPUT_PTX, data, len(data), b"kernel.ptx"), "add the PTX")
        _check(lib, handle, getattr(lib, f"__nvJitLinkComplete{_API}")(handle), "link")
        size = ctypes.c_size_t()
        _check(lib, handle, getattr(lib, f"__nvJitLinkGetLinkedCubinSize{_API}")(
            handle, ctypes.byref(size)), "size the cubin")
        cubin = ctypes.create_string_buffer(size.value)
        _check(lib, handle, getattr(lib, f"__nvJitLinkGetLinkedCubin{_API}")(handle, cubin), "get the cubin")
        return cubin.raw
    finally:
        getattr(lib, f"__nvJitLinkDestroy{_API}")(ctypes.byref(handle))


def _check(lib: ctypes.CDLL, handle: ctypes.c_void_p | None, result: int, what: str) -> None:
    if result == 0:
        return
    log = _error_log(lib, handle) if handle is not None else ""
    first = next((line for line in log.splitlines() if line.strip()), "")
    raise CompileError(f"nvJitLink could not {what} (error {result})" + (f": {first}" if first else ""))


def _error_log(lib: ctypes.CDLL, handle: ctypes.c_void_p) -> str:
    size = ctypes.c_size_t()
    if getattr(lib, f"__nvJitLinkGetErrorLogSize{_API}")(handle, ctypes.byref(size)) != 0 or size.value < 2:
        return ""
    log = ctypes.create_string_buffer(size.value)
    getattr(lib, f"__nvJitLinkGetErrorLog{_API}")(handle, log)
    return log.value.decode(errors="replace")


@functools.lru_cache(maxsize=1)
def _library() -> ctypes.CDLL:
    """The 13.0 library of the nvidia-nvjitlink wheel (namespace package nvidia.cu13, on any
    sys.path entry), else one the dynamic loader finds (LD_LIBRARY_PATH, a toolkit)."""
    tried = []
    for path in [*_wheel_libraries(), LIBRARY]:
        try:
            lib = ctypes.CDLL(str(path))
        except OSError:
            continue
        if hasattr(lib, f"__nvJitLinkCreate{_API}"):
            return lib
        tried.append(str(path))
    if tried:
        raise CompileError(f"nvJitLink 13.0 is needed to link PTX into a cubin (found "
                           f"{', '.join(tried)}, not release 13.0): {INSTALL}")
    raise missing_tool("nvJitLink", f"{LIBRARY} not found; {INSTALL}")


def _wheel_libraries() -> list[Path]:
    try:
        import nvidia.cu13  # type: ignore[import-not-found]
    except ImportError:
        return []
    return [Path(root) / "lib" / LIBRARY for root in nvidia.cu13.__path__
            if (Path(root) / "lib" / LIBRARY).exists()]
