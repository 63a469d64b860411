"""Numba's cache=True only watches each function's own file, but the emulators freeze into their
machine code the helpers of other modules (count.py, the opcode families, the lowering's
constants). When any source of either engine changes, the cached code of both is dropped so
that it is compiled afresh; a pip install gives every file a new time and needs none of this,
an editable install does."""
from __future__ import annotations

import hashlib
from pathlib import Path

HERE = Path(__file__).parent


def _sources() -> list[Path]:
    shared = [HERE / name for name in ("emulate.py", "count.py", "trace.py")]
    return shared + sorted((HERE / "ptx").glob("*.py")) + sorted((HERE / "sass").glob("*.py"))


def drop_stale() -> None:
    """Delete the engines' cached machine code when their sources differ from those it was
    compiled from (a stamp of their digest sits beside the cache)."""
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
