"""Opcode ids by family: each family module (memsim/engine/sass/ops_*.py) declares its opcodes here
once, in a range of its own, so that the interpreter dispatches on `op >> FAMILY_SHIFT`."""
from __future__ import annotations

FAMILY_SHIFT = 6
FAMILIES = ("control", "int", "float", "warp", "memory", "half")
FAMILY = {name: k for k, name in enumerate(FAMILIES)}
OP: dict[str, int] = {}


def declare(family: str, names: tuple[str, ...]) -> dict[str, int]:
    """Ids for `names`, in the family's range, in order; also entered in OP (name -> id)."""
    base = FAMILY[family] << FAMILY_SHIFT
    if len(names) > 1 << FAMILY_SHIFT:
        raise ValueError(f"family {family} has more than {1 << FAMILY_SHIFT} opcodes")
    ids = {name: base + k for k, name in enumerate(names)}
    clash = set(ids) & set(OP)
    if clash:
        raise ValueError(f"opcodes declared twice: {sorted(clash)}")
    OP.update(ids)
    return ids
