"""Numba's cache=True only watches each function's own file, but the emulators freeze into their
machine code the helpers of other modules (count.py, the shared SIMT helpers, the opcode
families, the lowering's constants). When any source of either engine changes, the cached code of both is dropped so
that it is compiled afresh; a pip install gives every file a new time and needs none of this,
an editable install does."""
from __future__ import annotations

import hashlib
from pathlib import Path
from types import ModuleType

from numba.core import types
from numba.core.dispatcher import Dispatcher

HERE = Path(__file__).parent
_checked = False


def _sources() -> list[Path]:
    return sorted(HERE.glob("*.py")) + sorted((HERE / "ptx").glob("*.py")) + sorted((HERE / "sass").glob("*.py"))


def drop_stale() -> None:
    """Delete the engines' cached machine code when their sources differ from those it was
    compiled from (a stamp of their digest sits beside the cache). Checked once per process,
    before the first launch (memsim.engine.simulation)."""
    global _checked
    if _checked:
        return
    _checked = True
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in _sources() if p.exists())).hexdigest()
    stamp = HERE / "__pycache__" / "jit-sources.sha256"
    try:
        if stamp.read_text() == digest:
            return
    except OSError:
        pass
    try:
        stamp.parent.mkdir(exist_ok=True)
        for cache in (HERE / "__pycache__", HERE / "ptx" / "__pycache__", HERE / "sass" / "__pycache__"):
            for stale in cache.glob("*.nb[ic]"):
                stale.unlink(missing_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass  # a read-only install: numba then keeps its cache in memory only


def compile_per_type(*modules: ModuleType) -> None:
    """Make the Numba functions of `modules` compile once per argument *types* when jitted code
    calls them. Numba otherwise types a call with its literal arguments (`src_u32(code, pc, 1,
    ...)`) and compiles the callee again for every constant a caller passes: the SASS engine
    compiled 206 signatures for 80 functions, `_run_warp` twice (30 s of a 60 s cold start) for
    an `executed = 0`. LLVM inlines the small callees and folds the constants anyway, so the
    machine code is as fast. The hook is the dispatcher's `get_call_template`, which Numba's
    typing calls for every call from jitted code."""
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, Dispatcher) and value.__module__ == module.__name__:
                _type_calls_without_literals(value)


def _type_calls_without_literals(dispatcher: Dispatcher) -> None:
    by_class = type(dispatcher).get_call_template

    def get_call_template(args, kws):
        return by_class(dispatcher, tuple(types.unliteral(a) for a in args),
                        {name: types.unliteral(t) for name, t in kws.items()})

    dispatcher.get_call_template = get_call_template
