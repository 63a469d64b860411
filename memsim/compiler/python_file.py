"""A user's Python file of kernels (numba.cuda or Triton), imported as Python would import it:
what both Python front ends (memsim.numba_cuda, memsim.triton) read their kernels from."""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

from ..errors import LaunchError


def import_file(path: str, prefix: str) -> ModuleType:
    """The module of the Python file `path`, named `<prefix>_<stem>`, with its folder on sys.path
    while it runs (so it imports its neighbours); one LaunchError line if it cannot be imported."""
    file = Path(path)
    if not file.is_file():
        raise LaunchError(f"no such file: {path}")
    module_name = f"{prefix}_{re.sub(r'[^0-9A-Za-z_]', '_', file.stem)}"
    spec = importlib.util.spec_from_file_location(module_name, file)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(file.parent.resolve()))
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        first = (str(exc).strip().splitlines() or [""])[0]
        raise LaunchError(f"importing {path} failed: {type(exc).__name__}: {first}") from None
    finally:
        sys.path.pop(0)
    return module
