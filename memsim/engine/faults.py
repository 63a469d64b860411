"""The one error table of both engines, and the one decoder that words a failed run.

An emulator that stops writes err = [code, pc, block, thread, address, extra] (linear block
and thread ids) and returns; `describe` turns that into the one-line MemsimError the user sees,
naming the thread and block as (x,y,z), the source line (else the engine's instruction index)
and the instruction. Codes 0-10 are the SASS engine's numbering (memsim/engine/sass/emulate.py
and ops_memory.py spell them too; tests/engine/test_errors.py holds them equal to these), the
PTX engine's own conditions follow.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from ..errors import BudgetExceeded, LaunchError, MemoryFault, MemsimError, UnsupportedInstruction
from .program import StaticInstruction

E_NONE, E_GLOBAL_OOB, E_MISALIGNED, E_SHARED_OOB, E_LOCAL_OOB, E_READ_ONLY = 0, 1, 2, 3, 4, 5
E_BUDGET, E_DEADLOCK, E_CALL_DEPTH, E_EXTERNAL, E_TRAP = 6, 7, 8, 9, 10
E_UNSUPPORTED, E_MIXED_SPACE, E_TYPE, E_PARAM_OOB, E_CONST_OOB = 11, 12, 13, 14, 15
E_TIMEOUT = 16   # both engines: err's address holds the block's running warps (bit w: warp w)
ERR_FIELDS = 6   # err = [code, pc, block, thread, address, extra]

OUT_OF_BOUNDS = {E_GLOBAL_OOB: "global", E_SHARED_OOB: "shared", E_LOCAL_OOB: "local",
                 E_PARAM_OOB: "param", E_CONST_OOB: "const"}
# what a faulting memory instruction did, by its StaticInstruction.op
_KIND = {"ld": "read", "st": "write", "ldsm": "read", "ldgsts": "read"}


@dataclass
class FaultSite:
    """What the decoder needs of the launch that failed."""

    kernel: str
    instructions: Sequence[StaticInstruction]   # indexed by err's pc
    label: str                                  # the engine's name for its instructions: "PTX", "SASS"
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    heap: object                                # memsim.engine.memory.GlobalHeap: describe(address)
    local_limit: int | None = None              # local bytes emulated per thread, where bounded
    externals: Sequence[str] = ()               # functions called but not in the program
    timeout: float = 0.0                        # the launch's timeout in seconds (E_TIMEOUT's text)
    explain: Callable[[int, StaticInstruction, str], MemsimError | None] | None = field(default=None)
    """the engine's own wording of a code (None: the table's)"""


def unflatten(linear: int, shape) -> tuple[int, int, int]:
    """(x, y, z) of a linear thread or block id in a block or grid of `shape`."""
    return (linear % shape[0], linear // shape[0] % shape[1], linear // (shape[0] * shape[1]))


def _warp_list(mask: int) -> str:
    """'warps 0-3, 5' of a bit mask of warps."""
    warps = [w for w in range(64) if (mask >> w) & 1]
    runs: list[list[int]] = []
    for w in warps:
        if runs and runs[-1][-1] == w - 1:
            runs[-1].append(w)
        else:
            runs.append([w])
    parts = [f"{r[0]}" if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs]
    return ("warp " if len(warps) == 1 else "warps ") + ", ".join(parts)


def _space_of(static: StaticInstruction) -> str:
    """The state space a faulting instruction addressed (a generic access: global)."""
    return static.space if static.space in ("global", "shared", "local") else "global"


def describe(err: np.ndarray, site: FaultSite) -> MemsimError:
    """The one-line error of a failed run."""
    code, pc, block, thread, address, extra = (int(v) for v in err[:ERR_FIELDS])
    static = site.instructions[pc]
    where = f"line {static.line}" if static.line else f"{site.label} instruction {pc}"
    if site.explain is not None:
        worded = site.explain(code, static, where)
        if worded is not None:
            return worded
    who = "thread ({},{},{}) in block ({},{},{})".format(*unflatten(thread, site.block),
                                                        *unflatten(block, site.grid))
    kind = _KIND.get(static.op, static.op or "read")
    text = f"`{static.text}`"
    if code == E_BUDGET:
        return BudgetExceeded(f"kernel {site.kernel} ran past the budget of {extra:,} warp "
                              f"instructions at {where} (`{static.text}`), {who}: an endless loop? raise "
                              f"--max-warp-instructions (max_warp_instructions=)")
    if code == E_TIMEOUT:
        block_xyz = "({},{},{})".format(*unflatten(block, site.grid))
        return BudgetExceeded(f"kernel {site.kernel} ran past the timeout of {site.timeout:g} s after "
                              f"{extra:,} warp instructions, at {where} (`{static.text}`) in warp "
                              f"{thread // 32} of block {block_xyz}; still running there: "
                              f"{_warp_list(address)}: an endless loop? raise --timeout (timeout=)")
    site_fields = dict(access=kind, size=extra, address=address, thread=unflatten(thread, site.block),
                       block=unflatten(block, site.grid), line=static.line, pc=pc)
    if code in OUT_OF_BOUNDS:
        space = OUT_OF_BOUNDS[code]
        detail = (f": {site.heap.describe(address)}," if space == "global" else
                  f" (beyond the {site.local_limit:,} bytes emulated per thread)"
                  if space == "local" and site.local_limit else "")
        return MemoryFault(f"invalid __{space}__ {kind} of size {extra} at address {address:#x}{detail} "
                           f"by {who}, {where}: {text}",
                           dict(site_fields, kind="out_of_bounds", space=space, nearest=detail.strip(": ,")))
    if code == E_MISALIGNED:
        return MemoryFault(f"misaligned {kind} of size {extra} at address {address:#x} by {who}, "
                           f"{where}: {text}", dict(site_fields, kind="misaligned", space=_space_of(static)))
    if code == E_READ_ONLY:
        return MemoryFault(f"{kind} of size {extra} to a read-only buffer at address {address:#x} by "
                           f"{who}, {where}: {text}", dict(site_fields, kind="read_only", space="global"))
    if code == E_TRAP:
        return MemoryFault(f"kernel executed trap at {where} ({who})")
    if code == E_CALL_DEPTH:
        return LaunchError(f"{who} nested calls deeper than {extra} (endless recursion?) at {where}: {text}")
    if code == E_EXTERNAL:
        name = site.externals[extra] if 0 <= extra < len(site.externals) else "a function outside the module"
        return UnsupportedInstruction(f"printf and assert's failure path are not emulated: {who} calls "
                                      f"{name} at {where}: {text}")
    if code == E_MIXED_SPACE:
        return UnsupportedInstruction(f"one warp's generic access mixes state spaces at {where}")
    if code == E_DEADLOCK:
        return LaunchError(f"barrier deadlock at {where}")
    if code == E_UNSUPPORTED:
        return UnsupportedInstruction(f"unsupported instruction '{static.opcode}' at {where}: {text}")
    if code == E_TYPE:
        return UnsupportedInstruction(f"unsupported type in {text} at {where}")
    return LaunchError(f"{site.label} emulation failed with code {code} at {where}: {text}")
