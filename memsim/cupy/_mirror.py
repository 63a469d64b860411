"""What memsim.cupy does not mirror: one clear error naming it, and the import hook that says so.

numba's CUDA simulator has the idea: the same surface as the real API, so that a script switches
by changing its import. Where the surface ends, the user must learn it at once and by name,
not from a confusing AttributeError deep in their script.
"""
from __future__ import annotations

import importlib.abc
import sys
import types
from typing import Iterable

from ..errors import MemsimError

MIRRORED = ("RawKernel, RawModule, ndarray, array creation (asarray, zeros, empty, ones, arange, "
            "...), asnumpy and numpy-style math on arrays")


class NotMirrored(MemsimError, AttributeError):
    """A CuPy name memsim.cupy does not mirror. An AttributeError too, so that hasattr() and
    getattr(..., default) behave as on any module."""


class CupyTypeError(MemsimError, TypeError):
    """A TypeError that CuPy raises too (implicit conversion to numpy, numpy arrays as kernel
    buffers): the script would fail on a GPU the same way."""


def not_mirrored(name: str, hint: str = "") -> NotMirrored:
    """The one-line error for `cupy.<name>`."""
    tail = hint or f"it mirrors {MIRRORED}"
    return NotMirrored(f"memsim.cupy does not mirror cupy.{name}; {tail}")


class MirrorNamespace(types.ModuleType):
    """A sub-namespace (cupy.cuda, cupy.random) whose unknown attributes name themselves."""

    def __init__(self, name: str, members: dict, doc: str = "") -> None:
        super().__init__(f"memsim.cupy.{name}", doc)
        self._cupy_name = name
        self.__dict__.update(members)

    def __getattr__(self, attr: str):
        if attr.startswith("__"):
            raise AttributeError(attr)
        raise not_mirrored(f"{self._cupy_name}.{attr}")


class _Finder(importlib.abc.MetaPathFinder):
    """`import cupy.fft` (while cupy is memsim.cupy) and `import memsim.cupy.fft`: raise
    NotMirrored instead of 'No module named ...'. Every other import passes through."""

    def __init__(self, namespaces: Iterable[str]) -> None:
        self.namespaces = set(namespaces)

    def find_spec(self, fullname: str, path=None, target=None):
        head, _, rest = fullname.partition(".")
        cupy = sys.modules.get("memsim.cupy")
        if head == "cupy" and rest and sys.modules.get("cupy") is cupy and cupy is not None:
            name = rest
        elif fullname.startswith("memsim.cupy.") and not fullname[12:].startswith("_"):
            name = fullname[12:]
        else:
            return None
        if name.split(".")[0] in self.namespaces:
            return None
        raise not_mirrored(name)


def install_finder(namespaces: Iterable[str]) -> None:
    """Put the finder first on sys.meta_path, once."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder(namespaces))
