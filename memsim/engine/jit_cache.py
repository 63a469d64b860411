"""Numba's cache=True only watches each function's own file, but the emulators and the cache
model freeze into their machine code the helpers and constants of other modules (count.py, the
shared SIMT helpers, the opcode families, the lowering's constants, memsim/stream.py). When any
of those sources changes, the cached code is dropped so that it is compiled afresh, and the
shipped machine code (memsim/engine/shipped_code.py) no longer applies: both read
sources_digest()."""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from types import ModuleType

from numba.core import types
from numba.core.dispatcher import Dispatcher

HERE = Path(__file__).parent
PACKAGE = HERE.parent
# The packages whose Numba functions are cached (and shipped): their sources make the digest.
JIT_PACKAGES = ("engine", "engine/ptx", "engine/sass", "model", "model/cache", "timing")
# Modules elsewhere whose constants the jitted code freezes in (memory spaces, access kinds).
JIT_EXTRA_SOURCES = ("stream.py",)
# Modules of those packages that compile nothing and are frozen into nothing.
NOT_FROZEN = ("shipped_code.py",)
_checked = False


def sources_digest() -> str:
    """sha256 over every source whose code or constants the cached machine code may hold."""
    files = sorted([p for d in JIT_PACKAGES for p in (PACKAGE / d).glob("*.py") if p.name not in NOT_FROZEN]
                   + [PACKAGE / name for name in JIT_EXTRA_SOURCES])
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


@functools.lru_cache(maxsize=None)
def current_digest() -> str:
    """sources_digest() of this process's sources, read once (drop_stale and the shipped code's
    install both ask, before the first launch)."""
    return sources_digest()


def drop_stale() -> None:
    """Delete the cached machine code when the sources differ from those it was compiled from
    (a stamp of their digest sits beside the cache). Checked once per process, before the first
    launch (memsim.engine.simulation). Under NUMBA_CACHE_DIR the cache, and so the stamp, live
    there: Numba would otherwise keep code compiled from older helpers and constants."""
    global _checked
    if _checked:
        return
    _checked = True
    digest = current_digest()
    stamp = stamp_path()
    try:
        if stamp.read_text() == digest:
            return
    except OSError:
        pass
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        for cache in cache_dirs():
            for stale in cache.glob("*.nb[ic]"):
                stale.unlink(missing_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass  # a read-only install: numba then keeps its cache in memory only


def cache_dirs() -> list[Path]:
    """Where Numba keeps the JIT packages' caches: beside their sources, or in NUMBA_CACHE_DIR
    under the subfolder Numba's own locator names after each source folder."""
    from numba import config
    from numba.core.caching import _CacheLocator

    if not config.CACHE_DIR:
        return [PACKAGE / d / "__pycache__" for d in JIT_PACKAGES]
    return [Path(config.CACHE_DIR) / _CacheLocator.get_suitable_cache_subpath(str(PACKAGE / d / "any.py"))
            for d in JIT_PACKAGES]


def stamp_path() -> Path:
    """The digest stamp of the cache in use; one per memsim install under a shared NUMBA_CACHE_DIR."""
    from numba import config

    if not config.CACHE_DIR:
        return HERE / "__pycache__" / "jit-sources.sha256"
    install = hashlib.sha1(str(PACKAGE.resolve()).encode()).hexdigest()[:12]
    return Path(config.CACHE_DIR) / f"memsim-{install}-jit-sources.sha256"


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
