"""What an engine hands the models: the stream of warp accesses and the register flow of its code.

The contract between stage 3 (memsim.engine) and stage 5 (memsim.model), as memsim.report is
the one between the engines and the views: the models read these types and never the engines,
so a model does not know which engine ran (the PTX engine and the SASS engine both deliver a
WarpAccesses stream through memsim.engine.trace and a CodeFlow through their `shape`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# State spaces of a warp access (WarpAccesses.space; the PTX lowering's space codes).
SP_GENERIC, SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_CONST, SP_PARAM = range(6)
SPACES = {"global": SP_GLOBAL, "shared": SP_SHARED, "local": SP_LOCAL, "const": SP_CONST,
          "param": SP_PARAM}
SPACE_NAMES = {v: k for k, v in SPACES.items()} | {SP_GENERIC: "generic"}

# Kinds of a warp access (WarpAccesses.op).
OPS = {0: "ld", 1: "st", 2: "atom", 3: "red"}
OP_LD, OP_ST, OP_ATOM, OP_RED = range(4)

_FIELDS = ("block", "warp", "pc", "space", "op", "active", "addresses")


@dataclass
class WarpAccesses:
    """One row per recorded warp-level memory access."""

    block: np.ndarray        # linear block index
    warp: np.ndarray         # warp within the block
    pc: np.ndarray           # instruction index of the engine that ran (report.instructions[...].index)
    space: np.ndarray        # SP_* code
    op: np.ndarray           # OP_* code: 0 ld, 1 st, 2 atom, 3 red
    active: np.ndarray       # active-lane bit mask
    addresses: np.ndarray    # [n, 32] lane addresses (global: device address; shared: offset); -1 inactive

    @classmethod
    def empty(cls) -> "WarpAccesses":
        z = np.zeros(0, np.int64)
        return cls(z, z, z, z, z, z, np.zeros((0, 32), np.int64))

    @classmethod
    def from_buffers(cls, records: np.ndarray, addresses: np.ndarray) -> "WarpAccesses":
        r = records
        return cls(r[:, 0].copy(), r[:, 1].copy(), r[:, 2].copy(), r[:, 3].copy(), r[:, 4].copy(),
                   r[:, 5].copy(), addresses.copy())

    @staticmethod
    def concat(parts: list["WarpAccesses"]) -> "WarpAccesses":
        if not parts:
            return WarpAccesses.empty()
        return WarpAccesses(*(np.concatenate([getattr(p, f) for p in parts]) for f in _FIELDS))

    def __len__(self) -> int:
        return len(self.pc)


@dataclass
class CodeFlow:
    """The registers each instruction of a lowered program reads and writes, for the order
    model (memsim.model.scheduling.ProgramFlow): `sources`/`dests` [pc, k] register slots, -1
    padded, over `n_slots` registers; boolean per pc: global `loads` and `barriers`.

    `scheduled`: machine code in issue order (SASS), where a warp stalls at the first
    instruction that reads a register a load in flight fills; then `accesses` (the traced
    global accesses) and `guarded` (a predicated write may leave the old value) are given too.
    Otherwise (PTX) the code is not scheduled yet and an access waits only for the loads its
    own operands derive from."""

    sources: np.ndarray
    dests: np.ndarray
    n_slots: int
    loads: np.ndarray
    barriers: np.ndarray
    scheduled: bool = False
    accesses: np.ndarray | None = None
    guarded: np.ndarray | None = None
