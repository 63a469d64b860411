"""C++ kernel names: demangling, and which names need an NVRTC name expression.

A user names a kernel as CuPy does: an `extern "C"` name (`k_copy`), a mangled one
(`_Z6reduceILi256EEvPf`), or a C++ name expression (`reduce<256>`, `ns::k`) that NVRTC lowers
with nvrtcAddNameExpression / nvrtcGetLoweredName (CuPy's `name_expressions`).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import functools
import re

from ..errors import LaunchError

_IDENTIFIER = re.compile(r"^[A-Za-z_]\w*$")


def is_mangled(name: str) -> bool:
    return name.startswith("_Z")


def is_expression(name: str) -> bool:
    """A C++ name expression NVRTC must lower: anything but a mangled name or a plain identifier."""
    return not is_mangled(name) and not _IDENTIFIER.match(name)


@functools.lru_cache(maxsize=1)
def _cxa_demangle():
    """__cxa_demangle and free from the C++ runtime (libstdc++ or libc++abi), or None."""
    for library in ("stdc++", "c++abi"):
        path = ctypes.util.find_library(library)
        candidates = [path] if path else []
        candidates += [f"lib{library}.so.6", f"lib{library}.so.1", f"lib{library}.dylib"]
        for candidate in candidates:
            try:
                lib = ctypes.CDLL(candidate)
                function = lib.__cxa_demangle
            except (OSError, AttributeError):
                continue
            function.restype = ctypes.c_void_p
            function.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p,
                                 ctypes.POINTER(ctypes.c_int)]
            libc = ctypes.CDLL(ctypes.util.find_library("c"))
            libc.free.argtypes = [ctypes.c_void_p]
            return function, libc.free
    return None


@functools.lru_cache(maxsize=1024)
def demangle(name: str) -> str:
    """`_Z6reduceILi256EEvPf` -> `void reduce<256>(float*)`; the name itself where it is not a
    mangled C++ name or no C++ runtime is found."""
    found = _cxa_demangle()
    if found is None or not is_mangled(name):
        return name
    function, free = found
    status = ctypes.c_int(-1)
    pointer = function(name.encode(), None, None, ctypes.byref(status))
    if not pointer:
        return name
    try:
        return ctypes.string_at(pointer).decode(errors="replace") if status.value == 0 else name
    finally:
        free(pointer)


def short_name(name: str) -> str:
    """The demangled name without return type and parameters: `reduce<256>` of
    `void reduce<256>(float*)`, so that a user's `reduce<256>` matches it."""
    text = demangle(name)
    if text.endswith(")"):
        depth = 0
        for k in range(len(text) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(text[k], 0)
            if depth == 0:
                text = text[:k]
                break
    depth = 0
    for k in range(len(text) - 1, -1, -1):
        depth += {">": 1, "<": -1, ")": 1, "(": -1}.get(text[k], 0)
        if depth == 0 and text[k] == " ":
            return text[k + 1:]
    return text


# NVRTC mangles a template argument of internal linkage (a static function: `op<&f>`) inside a
# namespace named after the compile: `45_INTERNAL_00000000_9_kernel_cu_<8 hex>_<pid>`, the pid of
# the compiling process. A lowered name from one process and a module compiled (and cached) in
# another differ only there.
_COMPILE_STAMP = re.compile(r"\d+_INTERNAL_[0-9a-f]+_\d+_kernel_cu_[0-9a-f]+_\d+")


def _unstamped(name: str) -> str:
    return _COMPILE_STAMP.sub("#", name)


def match_kernel(name: str, kernels: list[str]) -> str | None:
    """The kernel of `kernels` (lowered names) that `name` stands for, if exactly one."""
    if name in kernels:
        return name
    same = [k for k in kernels if _COMPILE_STAMP.search(name) and _unstamped(k) == _unstamped(name)]
    if len(same) == 1:
        return same[0]
    wanted = name.replace(" ", "")
    matches = [k for k in kernels if short_name(k).replace(" ", "") == wanted]
    return matches[0] if len(matches) == 1 else None


def unknown_kernel(name: str, kernels: list[str], why: str = "") -> LaunchError:
    """One line naming the module's kernels, demangled."""
    listed = ", ".join(sorted(demangle(k) for k in kernels)) or "none"
    note = f" ({why})" if why else ""
    return LaunchError(f"no kernel named '{name}' in the module{note} (kernels: {listed})")
