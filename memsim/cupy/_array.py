"""cupy.ndarray without a GPU: a numpy array standing for device memory.

Kernels receive the numpy array itself (memsim.simulate writes results back into it in place).
Everything else falls back to numpy; where CuPy refuses something (implicit conversion to
numpy, mixing with numpy arrays) this refuses it too, so a script that runs here runs on a GPU.
"""
from __future__ import annotations

import operator
from typing import Any, Callable

import numpy as np

from ._mirror import CupyTypeError, not_mirrored

_IMPLICIT = ("Implicit conversion to a NumPy array is not allowed. "
             "Please use `.get()` to construct a NumPy array explicitly.")

# ndarray methods that mean the same on a device array and fall back to numpy's.
_METHODS = frozenset("""
    all any argmax argmin astype clip copy cumsum dot fill flatten max mean min nonzero prod ravel
    repeat reshape round squeeze std sum swapaxes take tolist trace transpose var view item
""".split())

_BINARY = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or",
           "xor", "lshift", "rshift")
_COMPARE = ("eq", "ne", "lt", "le", "gt", "ge")
_UNARY = {"__neg__": operator.neg, "__pos__": operator.pos, "__abs__": operator.abs,
          "__invert__": operator.invert}


def unwrap(value: Any) -> Any:
    """The numpy value behind a device array; numpy arrays are refused as CuPy refuses them."""
    if isinstance(value, ndarray):
        return value._data
    if isinstance(value, np.ndarray):
        raise CupyTypeError(f"Unsupported type {type(value)}: move it to the device with "
                            "cupy.asarray(...) first (as CuPy requires)")
    if isinstance(value, (list, tuple)):
        return type(value)(unwrap(v) for v in value)
    return value


def wrap(value: Any) -> Any:
    """numpy results as device arrays: reductions give 0-d arrays, as in CuPy."""
    if isinstance(value, tuple):
        return tuple(wrap(v) for v in value)
    if isinstance(value, (np.ndarray, np.generic, bool)):
        return ndarray._wrap(np.asarray(value))
    return value


def numpy_fallback(function: Callable) -> Callable:
    """`function` on device arrays: unwrap the arguments, wrap the result."""
    def call(*args, **kwargs):
        return wrap(function(*unwrap(args), **{k: unwrap(v) for k, v in kwargs.items()}))
    call.__name__ = getattr(function, "__name__", "function")
    call.__doc__ = f"numpy.{call.__name__} on memsim.cupy arrays (numpy's result, as a device array)"
    return call


class ndarray:
    """A device array: shape, dtype, nbytes, size, get(); arithmetic and reductions via numpy."""

    __slots__ = ("_data",)

    def __init__(self, shape, dtype=float, memptr=None, strides=None, order: str = "C") -> None:
        if memptr is not None or strides is not None:
            raise not_mirrored("ndarray(memptr=..., strides=...)")
        self._data = np.empty(shape, dtype=dtype, order=order)

    @classmethod
    def _wrap(cls, data: np.ndarray) -> "ndarray":
        array = cls.__new__(cls)
        array._data = data
        return array

    shape = property(lambda self: self._data.shape)
    dtype = property(lambda self: self._data.dtype)
    nbytes = property(lambda self: self._data.nbytes)
    size = property(lambda self: self._data.size)
    ndim = property(lambda self: self._data.ndim)
    itemsize = property(lambda self: self._data.itemsize)
    strides = property(lambda self: self._data.strides)
    flags = property(lambda self: self._data.flags)
    T = property(lambda self: ndarray._wrap(self._data.T))

    def get(self, stream=None, order: str = "C", out: np.ndarray | None = None) -> np.ndarray:
        """A host copy (device to host), as cupy.ndarray.get."""
        if out is not None:
            out[...] = self._data
            return out
        return np.array(self._data, order=order, copy=True)

    def set(self, arr: np.ndarray, stream=None) -> None:
        """Copy a host array into this device array, as cupy.ndarray.set."""
        self._data[...] = arr

    def __getattr__(self, name: str):
        if name in _METHODS:
            return numpy_fallback(getattr(self._data, name))
        if name.startswith("__"):
            raise AttributeError(name)
        raise not_mirrored(f"ndarray.{name}")

    def __array__(self, *args, **kwargs):
        raise CupyTypeError(_IMPLICIT)

    def __getitem__(self, key) -> "ndarray":
        return wrap(self._data[unwrap(key)])

    def __setitem__(self, key, value) -> None:
        self._data[unwrap(key)] = unwrap(value)

    def __len__(self) -> int:
        return len(self._data)

    def __iter__(self):
        return (wrap(row) for row in self._data)

    def __repr__(self) -> str:
        return repr(self._data)

    def __str__(self) -> str:
        return str(self._data)

    def __bool__(self) -> bool:
        return bool(self._data)

    def __int__(self) -> int:
        return int(self._data)

    def __float__(self) -> float:
        return float(self._data)

    def __complex__(self) -> complex:
        return complex(self._data)

    def __index__(self) -> int:
        return operator.index(self._data)

    __hash__ = None


def _operator(name: str) -> Callable:
    function = getattr(operator, name)
    return lambda self, other: wrap(function(self._data, unwrap(other)))


def _reflected(name: str) -> Callable:
    function = getattr(operator, name)
    return lambda self, other: wrap(function(unwrap(other), self._data))


def _inplace(name: str) -> Callable:
    function = getattr(operator, f"i{name.rstrip('_')}")

    def update(self, other):
        function(self._data, unwrap(other))
        return self
    return update


def _install_operators() -> None:
    """Arithmetic, comparison and unary operators, each numpy's on the wrapped data."""
    for name in _BINARY:
        key = f"{name}_" if name in ("and", "or") else name
        setattr(ndarray, f"__{name}__", _operator(key))
        setattr(ndarray, f"__r{name}__", _reflected(key))
        setattr(ndarray, f"__i{name}__", _inplace(key))
    for name in _COMPARE:
        setattr(ndarray, f"__{name}__", _operator(name))
    for name, function in _UNARY.items():
        setattr(ndarray, name, lambda self, f=function: wrap(f(self._data)))


_install_operators()
