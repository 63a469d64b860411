"""Counters a kernel must show, from first principles: the thread -> byte-offset map of each
memory instruction (an `Access`), reduced per warp. Used by the suite (validate/suite_cases.py)
and the fuzzers (validate/fuzz_programs.py) to fill a case's `expect`.

Rules behind `expect` (H100, per warp-level execution of one instruction):
- global: one request per instruction issued; sectors = distinct 32-byte sectors the active
  lanes touch.
- bytes: each distinct address counts once per warp, loads and stores alike (loads measured:
  32 lanes reading one word count 4 bytes; stores where lanes share an address are a hypothesis,
  see memsim/engine/count.py, probed by the "same-address" cases of same_address.cu).
- shared, 1-4 bytes: wavefronts = the most distinct 4-byte words any one bank must deliver
  (lanes reading one word share it); 8 and 16 bytes only for a full warp reading 32*width
  contiguous aligned bytes (2 and 4 wavefronts), the one 64/128-bit pattern that is certain.
- a warp whose lanes are all inactive at an instruction may or may not issue it (branch or
  predication is ptxas's choice), so instruction and request counts are left out then.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Iterable

import numpy as np

from memsim import metrics as m
from memsim.launch import dims


@dataclass(frozen=True)
class Access:
    """One static memory instruction executed once by each active thread of the launch."""

    space: str  # global | shared
    op: str  # ld | st
    width: int  # bytes per thread
    offsets: np.ndarray  # (blocks, threads per block) byte offsets in its buffer; -1 = inactive


class Threads(SimpleNamespace):
    """Thread and block coordinates of a launch, shaped (blocks, 1) and (1, threads per block)."""


def launch_threads(grid, block) -> Threads:
    grid, block = dims(grid), dims(block)
    bz, by, bx = (a.reshape(-1, 1) for a in np.indices(grid[::-1]).reshape(3, -1))
    tz, ty, tx = (a.reshape(1, -1) for a in np.indices(block[::-1]).reshape(3, -1))
    gx, gy = bx * block[0] + tx, by * block[1] + ty
    return Threads(tx=tx, ty=ty, tz=tz, bx=bx, by=by, bz=bz, gx=gx, gy=gy, grid=grid, block=block,
                   shape=(bx.size, tx.size))


def byte_offsets(threads: Threads, index, width: int, active=True) -> np.ndarray:
    """Element index per thread (broadcastable) -> byte offsets, -1 where the thread is inactive."""
    index = np.broadcast_to(np.asarray(index, dtype=np.int64), threads.shape)
    active = np.broadcast_to(np.asarray(active, dtype=bool), threads.shape)
    return np.where(active, index * width, -1)


def _warps(offsets: np.ndarray) -> np.ndarray:
    """(blocks, threads) -> (warps, 32), padding each block's last warp with inactive lanes."""
    pad = (-offsets.shape[1]) % 32
    return np.pad(offsets, ((0, 0), (0, pad)), constant_values=-1).reshape(-1, 32)


def _distinct_per_warp(keys: np.ndarray, active: np.ndarray) -> np.ndarray:
    ordered = np.sort(np.where(active, keys, -1), axis=1)
    return (np.diff(ordered, axis=1) != 0).sum(axis=1) + (ordered[:, 0] >= 0)


def addresses_distinct(offsets: list[np.ndarray]) -> bool:
    """No warp's active lanes touch one address twice over all these (blocks, threads) maps."""
    warps = np.concatenate([_warps(o) for o in offsets], axis=1)
    active = warps >= 0
    return bool((_distinct_per_warp(warps, active) == active.sum(axis=1)).all())


def _bank_wavefronts(warps: np.ndarray, active: np.ndarray) -> np.ndarray:
    """Most distinct 4-byte words asked of one bank, per warp (1-4 byte accesses)."""
    words = np.sort(np.where(active, warps // 4, -1), axis=1)
    first = np.ones_like(words, dtype=bool)
    first[:, 1:] = words[:, 1:] != words[:, :-1]
    first &= words >= 0
    per_bank = np.zeros((len(words), 32), dtype=np.int64)
    rows = np.broadcast_to(np.arange(len(words))[:, None], words.shape)
    np.add.at(per_bank, (rows[first], words[first] % 32), 1)
    return per_bank.max(axis=1)


def _wide_wavefronts(warps: np.ndarray, active: np.ndarray, width: int) -> int | None:
    """8/16-byte shared accesses: only the full, contiguous, aligned warp is certain."""
    lanes = np.arange(32) * width
    contiguous = (warps - warps[:, :1] == lanes).all(axis=1) & (warps[:, 0] % 128 == 0)
    idle = ~active.any(axis=1)
    if not (contiguous | idle).all():
        return None
    return int(contiguous.sum()) * width // 4


_FAMILY_METRICS = {  # (space, op) -> (instructions, requests, sectors or wavefronts, bytes)
    ("global", "ld"): (m.INST_GLOBAL_LD, m.GLOBAL_LD_REQUESTS, m.GLOBAL_LD_SECTORS, m.BYTES_GLOBAL_LD),
    ("global", "st"): (m.INST_GLOBAL_ST, m.GLOBAL_ST_REQUESTS, m.GLOBAL_ST_SECTORS, m.BYTES_GLOBAL_ST),
    ("shared", "ld"): (m.INST_SHARED_LD, None, m.SHARED_LD_WAVEFRONTS, m.BYTES_SHARED_LD),
    ("shared", "st"): (m.INST_SHARED_ST, None, m.SHARED_ST_WAVEFRONTS, m.BYTES_SHARED_ST),
}


def _access_counters(access: Access) -> dict[str, int | None]:
    """Counters of one instruction keyed by role; None where the value is not certain."""
    warps = _warps(access.offsets)
    active = warps >= 0
    issued = active.any(axis=1)
    some_idle = not issued.all()
    if access.space == "global":
        units = int(_distinct_per_warp(warps // 32, active).sum())
    elif access.width <= 4:
        units = int(_bank_wavefronts(warps, active).sum())
    else:
        units = _wide_wavefronts(warps, active, access.width)
    inst = None if some_idle else int(issued.sum())
    # loads and stores alike (memsim.engine.count.data_bytes); distinct = active lanes wherever no two
    # lanes share an address, the only stores the recordings measured
    data = int(_distinct_per_warp(warps, active).sum()) * access.width
    return {"inst": inst, "requests": inst, "units": units, "bytes": data}


def expected_counters(accesses: Iterable[Access], unmodeled: Iterable[tuple[str, str]] = ()) -> dict[str, int]:
    """Exact ncu counters of a kernel whose memory instructions are `accesses`.

    `unmodeled` names the (space, op) families the kernel also executes but `accesses` does not
    describe (a divergent loop, an atomic, local memory): their metrics and the per-width
    instruction counts are left out.
    """
    counted = [(a, _access_counters(a)) for a in accesses]
    unmodeled = set(unmodeled)
    expect: dict[str, int] = {}
    for family, names in _FAMILY_METRICS.items():
        if family in unmodeled:
            continue
        parts = [c for a, c in counted if (a.space, a.op) == family]
        for role, name in zip(("inst", "requests", "units", "bytes"), names):
            values = [p[role] for p in parts]
            if name is not None and None not in values:
                expect[name] = sum(values)
    if not unmodeled and all(c["inst"] is not None for _, c in counted):
        widths = {w: 0 for w in m.INST_BY_WIDTH}
        for access, c in counted:
            widths[access.width * 8] += c["inst"]
        expect.update({m.INST_BY_WIDTH[w]: n for w, n in widths.items()})
    return expect
