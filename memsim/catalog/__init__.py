"""The seed documents' kernels as ready-made launches.

    from memsim import catalog
    entry = catalog.get("transpose_smem")               # or catalog.resolve("transpose_ladder")
    spec = entry.launch(nx=1024, dtype="float64")       # a memsim.launch.LaunchSpec
    expected = entry.reference(spec.materialize())      # {argument index: expected output}

Sources live in kernels/*.cu and use an element type `T` (and a few #defines: TILE, BDIMX,
BDIMY, WIDTH) that the catalog prepends, so the float32 instances compile to the same PTX as the
kernels measured on the H100 (tests/golden/seed_kernels.cu).
"""
from __future__ import annotations

import difflib

from ..errors import CatalogError
from .entries import ENTRIES, GROUPS, SEED_CASES, SeedCase
from .kernel import CatalogKernel

__all__ = ["CatalogKernel", "SeedCase", "SEED_CASES", "get", "resolve", "names", "groups"]


def names() -> list[str]:
    """Every entry's name, in catalog order."""
    return list(ENTRIES)


def groups() -> dict[str, list[str]]:
    """Group name -> the entry names it expands to."""
    return {name: list(members) for name, members in GROUPS.items()}


def get(name: str) -> CatalogKernel:
    """The entry called `name`; CatalogError (with close matches) if there is none."""
    if name in ENTRIES:
        return ENTRIES[name]
    if name in GROUPS:
        raise CatalogError(f"'{name}' is a group of catalog kernels ({', '.join(GROUPS[name])}): "
                           f"name one of them (catalog.resolve gives them all)")
    raise CatalogError(f"unknown catalog kernel '{name}'{_suggestion(name)}")


def resolve(name: str) -> list[CatalogKernel]:
    """An entry name -> [that entry]; a group name -> its entries."""
    if name in GROUPS:
        return [ENTRIES[member] for member in GROUPS[name]]
    if name in ENTRIES:
        return [ENTRIES[name]]
    raise CatalogError(f"unknown catalog kernel or group '{name}'{_suggestion(name)}")


def _suggestion(name: str) -> str:
    close = difflib.get_close_matches(name, list(ENTRIES) + list(GROUPS), n=3)
    hint = f"did you mean {', '.join(close)}? " if close else ""
    return f": {hint}(`memsim list` shows them all)"
