"""Optional record of individual warp accesses, for pictures of one warp and for cache models.

    request = TraceRequest(lines={12}, warps=(0, 1))
    memsim.simulate(src, "k", grid, block, args, trace=request)
    request.accesses.addresses[0]      # the 32 lane addresses of the first recorded access

Accesses arrive in chunks of blocks (in block order); give `on_chunk` to stream them instead
of collecting them, e.g. to feed a cache model without holding every address in memory.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .errors import MemsimError
from .ptx.program import SPACES, Program

OPS = {0: "ld", 1: "st", 2: "atom", 3: "red"}


@dataclass
class WarpAccesses:
    """One row per recorded warp-level memory access."""

    block: np.ndarray        # linear block index
    warp: np.ndarray         # warp within the block
    pc: np.ndarray           # PTX instruction index (report.instructions[...].index)
    space: np.ndarray        # ptx.program SP_* code
    op: np.ndarray           # 0 ld, 1 st, 2 atom, 3 red
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
        return WarpAccesses(*(np.concatenate([getattr(p, f) for p in parts])
                              for f in ("block", "warp", "pc", "space", "op", "active", "addresses")))

    def __len__(self) -> int:
        return len(self.pc)


@dataclass
class TraceRequest:
    """Which warp accesses to record. None means no restriction."""

    lines: set[int] | None = None
    pcs: set[int] | None = None
    spaces: tuple[str, ...] = ("global", "shared", "local")
    warps: tuple[int, int] | None = None      # global warp ids [first, last): block * warps_per_block + warp
    capacity: int = 1 << 16                   # records per worker and chunk
    blocks_per_chunk: int = 64
    on_chunk: Callable[[WarpAccesses], None] | None = None
    accesses: WarpAccesses | None = field(default=None, init=False)
    buffers: list[tuple[int, int, int]] = field(default_factory=list, init=False)  # (argument, address, bytes)
    _parts: list[WarpAccesses] = field(default_factory=list, init=False, repr=False)

    def selection(self, program: Program) -> np.ndarray:
        """1 for every instruction to record."""
        wanted_spaces = {SPACES[s] for s in self.spaces if s in SPACES} | ({0} if "global" in self.spaces else set())
        sel = np.zeros(len(program.code), dtype=np.int64)
        for static in program.instructions:
            if not static.op or static.space == "param":
                continue
            space_code = SPACES.get(static.space, 0)
            if space_code not in wanted_spaces:
                continue
            if self.lines is not None and static.line not in self.lines:
                continue
            if self.pcs is not None and static.index not in self.pcs:
                continue
            sel[static.index] = 1
        return sel

    def warp_range(self) -> np.ndarray:
        return np.array(self.warps if self.warps else (-1, -1), dtype=np.int64)

    def deliver(self, records: np.ndarray, addresses: np.ndarray, filled: int) -> None:
        if filled > len(records):
            raise MemsimError(f"trace overflow: {filled:,} accesses in one chunk, capacity {len(records):,}; "
                              "trace fewer lines or warps, or lower blocks_per_chunk")
        chunk = WarpAccesses.from_buffers(records[:filled], addresses[:filled])
        if self.on_chunk is not None:
            self.on_chunk(chunk)
        else:
            self._parts.append(chunk)

    def finish(self) -> None:
        if self.on_chunk is None:
            self.accesses = WarpAccesses.concat(self._parts)
        self._parts = []
