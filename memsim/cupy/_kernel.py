"""cupy.RawKernel and cupy.RawModule: every launch is one memsim.engine.simulation.

Arguments are turned into what memsim.simulate takes (numpy buffers, numpy scalars) the way
CuPy turns them into what cuLaunchKernel takes: device arrays pass their buffer, Python int /
float / bool / complex become int64 / float64 / bool / complex128, size-one numpy arrays pass
by value, None is a null pointer. The driver then copies as many bytes as the kernel's
parameter holds; for an integer wider than its parameter that is the low bytes (its value, on
a little-endian machine, where it fits), which memsim passes on. A float wider than its
parameter would be read as garbage on the GPU: memsim stops with one line instead.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..gpus import DEFAULT_ARCH
from ..compiler.nvrtc import kernel_module, load_source
from ..errors import LaunchError
from ..engine.layout import kernel_layout
from ..engine.ptx.parser import Param
from ..report import KernelReport
from ..engine.simulation import simulate
from ._array import ndarray
from ._mirror import CupyTypeError, not_mirrored

ARCH = DEFAULT_ARCH
_REPORTS: list[KernelReport] = []
_PYTHON_SCALARS = ((bool, np.bool_), (int, np.int64), (float, np.float64), (complex, np.complex128))


def reports() -> list[KernelReport]:
    """The KernelReport of every launch since the last clear_reports(), in launch order."""
    return list(_REPORTS)


def clear_reports() -> None:
    """Forget the recorded launches (e.g. between the parts of a script you compare)."""
    _REPORTS.clear()


class Function:
    """One kernel of a module, callable as CuPy's: kernel(grid, block, args, shared_mem=0)."""

    def __init__(self, code: str, name: str, options: Sequence[str] = ()) -> None:
        self.code, self.name, self.options = code, name, tuple(options)

    @functools.cached_property
    def params(self) -> list[Param]:
        """The kernel's parameters (compiling it: NVRTC's result is cached for the launch)."""
        text, source_name, is_ptx = load_source(self.code)
        found = kernel_module(text, source_name, is_ptx, self.name, ARCH, self.options)
        return kernel_layout(found.ptx, found.kernel).params

    def __call__(self, grid, block, args: Sequence[Any], *, shared_mem: int = 0, stream=None,
                 enable_cooperative_groups: bool = False) -> None:
        if not isinstance(args, (tuple, list)):
            raise CupyTypeError(f"kernel arguments must be a tuple, not {type(args).__name__}")
        values = launch_values(list(args), self.params, self.name)
        report = simulate(self.code, self.name, grid, block, values, shared_mem, ARCH, self.options)
        _REPORTS.append(report)


def launch_values(args: list[Any], params: list[Param], kernel: str) -> list:
    """memsim.simulate's arguments for CuPy's; the argument count is checked by simulate."""
    values = [_value(arg, position) for position, arg in enumerate(args)]
    for position, (value, param) in enumerate(zip(values, params)):
        values[position] = _fit(value, param, position, kernel)
    _check_distinct([v for v in values if isinstance(v, np.ndarray)])
    return values


def _value(arg: Any, position: int):
    """One argument as CuPy's _pointer reads it."""
    if isinstance(arg, ndarray):
        return arg._data
    if arg is None:
        return np.uint64(0)
    if isinstance(arg, np.ndarray):
        if arg.size == 1:
            return arg.reshape(-1)[0]
        raise CupyTypeError(f"argument {position} is a numpy.ndarray of shape {arg.shape}: only "
                            "size-one numpy arrays pass by value; pass a cupy.ndarray "
                            "(cupy.asarray(...)) for a pointer to global memory")
    if isinstance(arg, np.generic):
        return arg
    for python_type, numpy_type in _PYTHON_SCALARS:
        if isinstance(arg, python_type):
            return numpy_type(arg)
    raise CupyTypeError(f"argument {position}: unsupported type {type(arg).__name__}")


def _fit(value, param: Param, position: int, kernel: str):
    """An integer wider than its parameter as the driver reads it: its low bytes."""
    if not isinstance(value, np.generic) or value.dtype.itemsize <= param.size:
        return value
    if value.dtype.kind in "iub" and param.size in (1, 2, 4):
        return np.array([value]).view(np.uint8)[:param.size].view(f"<i{param.size}")[0]
    raise LaunchError(
        f"argument {position} of {kernel} is {value.dtype} ({value.dtype.itemsize} bytes; CuPy "
        f"passes a Python float as float64), but parameter {position} is .{param.type} "
        f"({param.size} bytes): the GPU would read part of it; pass np.{_numpy_name(param)}(x)")


def _numpy_name(param: Param) -> str:
    kind = {"f": "float", "s": "int", "u": "uint", "b": "uint"}.get(param.type[0], "int")
    return f"{kind}{8 * param.size}"


def _check_distinct(buffers: list[np.ndarray]) -> None:
    """memsim gives each argument array its own buffer: two that overlap would not see each
    other's writes, so they are refused rather than silently wrong."""
    for i, first in enumerate(buffers):
        for second in buffers[i + 1:]:
            if np.may_share_memory(first, second):
                raise LaunchError("two kernel arguments share memory (the same array or views "
                                  "of one): memsim.cupy passes each array as its own buffer")


class RawKernel(Function):
    """cupy.RawKernel(code, name, options=(), ...): CUDA C source and one kernel name."""

    def __init__(self, code: str, name: str, options: Sequence[str] = (), backend: str = "nvrtc",
                 translate_cucomplex: bool = False, *, enable_cooperative_groups: bool = False,
                 jitify: bool = False) -> None:
        _check_backend(backend, jitify)
        super().__init__(code, name, options)
        self.backend = backend

    @property
    def kernel(self) -> Function:
        return self

    def compile(self, log_stream=None) -> None:
        """Compile now (CuPy compiles on first launch otherwise): errors surface here."""
        self.params

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        raise not_mirrored(f"RawKernel.{name}")


class RawModule:
    """cupy.RawModule(code=..., options=..., name_expressions=...): get_function(name)."""

    def __init__(self, code: str | None = None, *, path: str | None = None,
                 options: Sequence[str] = (), backend: str = "nvrtc",
                 translate_cucomplex: bool = False, enable_cooperative_groups: bool = False,
                 name_expressions: Sequence[str] | None = None, jitify: bool = False) -> None:
        _check_backend(backend, jitify)
        if (code is None) == (path is None):
            raise LaunchError("RawModule takes exactly one of code= and path=")
        self.code = code if code is not None else _module_file(path)
        self.options, self.backend = tuple(options), backend
        self.name_expressions = tuple(name_expressions or ())

    def get_function(self, name: str) -> Function:
        """The kernel `name`: an extern "C" name, or one of the name_expressions (as CuPy)."""
        if "<" in name and name not in self.name_expressions:
            raise LaunchError(f"'{name}' is a C++ template name: list it in "
                              "RawModule(name_expressions=[...]) as CuPy requires")
        function = Function(self.code, name, self.options)
        function.params  # compile now: an unknown name fails here, as in CuPy
        return function

    def compile(self, log_stream=None) -> None:
        """CuPy compiles a module eagerly here; memsim compiles each kernel on get_function."""

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        raise not_mirrored(f"RawModule.{name}")


def _check_backend(backend: str, jitify: bool) -> None:
    if backend != "nvrtc" or jitify:
        raise not_mirrored(f"RawKernel(backend={backend!r}, jitify={jitify})",
                           "memsim compiles with NVRTC, as CuPy's default backend")


def _module_file(path: str) -> str:
    """RawModule(path=...) loads compiled code; memsim reads PTX text (a cubin has no PTX)."""
    if not str(path).endswith(".ptx"):
        raise not_mirrored(f"RawModule(path={str(path)!r})",
                           "memsim loads PTX files (.ptx) there, not cubins or fatbins")
    file = Path(path)
    if not file.is_file():
        raise LaunchError(f"no such module file: {path}")
    return file.read_text()
