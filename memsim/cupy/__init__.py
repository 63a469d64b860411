"""CuPy without a GPU: `import memsim.cupy as cp` in an unchanged kernel script.

Mirrors the part of CuPy a kernel script uses: RawKernel, RawModule (name_expressions,
options, get_function), array creation, asnumpy, device arrays with shape/dtype/nbytes/get()
and numpy-style math. Every launch, kernel(grid, block, args, shared_mem=0), runs in
memsim.simulate: the arrays come back computed, and reports() holds each launch's
KernelReport. `python -m memsim.run script.py` runs a script that imports cupy this way.
Anything else names itself: `memsim.cupy does not mirror cupy.fft; ...`.
"""
from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ._array import ndarray, numpy_fallback
from ._kernel import RawKernel, RawModule, clear_reports, reports
from ._mirror import NotMirrored, install_finder, not_mirrored
from ._namespaces import cuda, random

__all__ = ["RawKernel", "RawModule", "ndarray", "asarray", "array", "asnumpy", "zeros", "empty",
           "ones", "full", "arange", "linspace", "zeros_like", "empty_like", "ones_like",
           "full_like", "get_array_module", "reports", "clear_reports", "cuda", "random",
           "NotMirrored"]

# Types are numpy's in CuPy too (cupy.float32 is numpy.float32).
_TYPES = ("bool_ int8 int16 int32 int64 uint8 uint16 uint32 uint64 intp uintp float16 float32 "
          "float64 complex64 complex128 dtype finfo iinfo newaxis pi e inf nan").split()
globals().update({name: getattr(np, name) for name in _TYPES})

# Creation functions: numpy's result, on the device.
_CREATION = "zeros empty ones full arange linspace zeros_like empty_like ones_like full_like".split()
globals().update({name: numpy_fallback(getattr(np, name)) for name in _CREATION})

# Functions of arrays that fall back to numpy (looked up on first use).
_FUNCTIONS = frozenset("""
    abs absolute add all allclose any arccos arcsin arctan arctan2 argmax argmin argsort around
    array_equal ceil clip concatenate cos cosh count_nonzero cumsum diff divide dot einsum equal
    exp expm1 floor fmod greater greater_equal hstack isclose isfinite isinf isnan less less_equal
    log log10 log1p log2 matmul max maximum mean median min minimum mod multiply negative nonzero
    not_equal outer power prod ravel reshape round sign sin sinh sort sqrt square squeeze stack
    std subtract sum swapaxes take tan tanh tile transpose tril triu unique var vstack where
""".split())


def asarray(a: Any, dtype=None, order=None, *, blocking: bool = False) -> ndarray:
    """A device array: host data is copied to the device, a device array returned as it is."""
    if isinstance(a, ndarray):
        return a if dtype is None or np.dtype(dtype) == a.dtype else a.astype(dtype)
    return ndarray._wrap(np.array(a, dtype=dtype, order=order or "K", copy=True))


def array(obj: Any, dtype=None, copy: bool = True, order: str = "K", subok: bool = False,
          ndmin: int = 0, *, blocking: bool = False) -> ndarray:
    """A new device array (a copy of a device array, or host data copied to the device)."""
    data = obj._data if isinstance(obj, ndarray) else obj
    return ndarray._wrap(np.array(data, dtype=dtype, copy=True, order=order, ndmin=ndmin))


ascontiguousarray = numpy_fallback(np.ascontiguousarray)


def asnumpy(a: Any, stream=None, order: str = "C", out: np.ndarray | None = None,
            *, blocking: bool = True) -> np.ndarray:
    """A host copy of a device array (anything else through numpy.asarray)."""
    if isinstance(a, ndarray):
        return a.get(order=order, out=out)
    return np.asarray(a, order=order)


def get_array_module(*args: Any):
    """This module where any argument is a device array, else numpy (as CuPy's)."""
    return sys.modules[__name__] if any(isinstance(a, ndarray) for a in args) else np


def __getattr__(name: str):
    if name in _FUNCTIONS:
        function = globals()[name] = numpy_fallback(getattr(np, name))
        return function
    if name.startswith("__"):
        raise AttributeError(name)
    raise not_mirrored(name)


for _name, _namespace in (("cuda", cuda), ("cuda.runtime", cuda.runtime), ("random", random)):
    sys.modules.setdefault(f"{__name__}.{_name}", _namespace)
install_finder(("cuda", "random"))
