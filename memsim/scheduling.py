"""Which SM runs which block, and in what order each SM's warps reach the memory system.

The cache model needs a plausible order of requests, not a cycle-accurate one:

- **Occupancy**: blocks per SM are limited by threads, warps, registers (allocated per warp in
  units), shared memory (with the driver's per-block reservation) and the blocks-per-SM limit.
  The shared-memory carveout is the smallest one the resident blocks fit in; the rest of the
  unified L1/shared array is L1.
- **Placement**: the first wave goes breadth-first (block b to SM b mod SMs, then a second
  block per SM, ...), as the hardware's block distributor does; every later block takes the slot
  that frees first, so blocks of unequal length refill SMs as they finish.
- **Interleaving**: time is counted in *steps*: the k-th global access of a warp happens at
  step start(block) + k. Co-resident warps of an SM are interleaved one memory instruction each
  per step (round robin in block-slot and warp order), and every SM advances one step at a time,
  so L2 sees the SMs' requests interleaved too. A block lasts as many steps as its busiest warp.
"""
from __future__ import annotations

import heapq

import numpy as np
from pydantic import BaseModel, Field

from .errors import LaunchError


class OccupancyLimits(BaseModel):
    """The per-SM limits occupancy depends on (a GPU profile supplies them)."""

    max_threads_per_sm: int = 2048
    max_warps_per_sm: int = 64
    max_blocks_per_sm: int = 32
    registers_per_sm: int = 65536
    register_allocation_unit: int = 256
    shared_per_sm_bytes: int = 233472
    shared_reserved_per_block_bytes: int = 1024
    shared_allocation_unit: int = 128
    l1_shared_per_sm_bytes: int = 262144
    carveouts_kb: list[int] = Field(default_factory=lambda: [0, 8, 16, 32, 64, 100, 132, 164, 196, 228])


class Occupancy(BaseModel):
    blocks_per_sm: int = Field(description="resident blocks per SM")
    limited_by: str = Field(description="threads | warps | registers | shared memory | blocks")
    warps_per_block: int
    shared_carveout_bytes: int = Field(description="shared memory the driver carves out of the unified array")
    l1_bytes: int = Field(description="what is left for L1 per SM")


def occupancy(threads_per_block: int, registers_per_thread: int, shared_per_block: int,
              limits: OccupancyLimits) -> Occupancy:
    """Resident blocks per SM and the L1 capacity that remains next to their shared memory."""
    warps = -(-threads_per_block // 32)
    regs_per_warp = _round_up(max(registers_per_thread, 1) * 32, limits.register_allocation_unit)
    smem = _round_up(shared_per_block, limits.shared_allocation_unit) + limits.shared_reserved_per_block_bytes
    candidates = {
        "threads": limits.max_threads_per_sm // (warps * 32),
        "warps": limits.max_warps_per_sm // warps,
        "registers": limits.registers_per_sm // (regs_per_warp * warps),
        "shared memory": limits.shared_per_sm_bytes // smem,
        "blocks": limits.max_blocks_per_sm,
    }
    limited_by = min(candidates, key=candidates.get)
    blocks = candidates[limited_by]
    if blocks < 1:
        raise LaunchError(f"a block of {threads_per_block} threads, {registers_per_thread} registers "
                          f"per thread and {shared_per_block} bytes of shared memory does not fit on an SM "
                          f"(limited by {limited_by})")
    carveout = _carveout(blocks * smem, limits)
    return Occupancy(blocks_per_sm=blocks, limited_by=limited_by, warps_per_block=warps,
                     shared_carveout_bytes=carveout, l1_bytes=limits.l1_shared_per_sm_bytes - carveout)


def _carveout(needed: int, limits: OccupancyLimits) -> int:
    """The smallest carveout the resident blocks' shared memory fits in."""
    for kb in sorted(limits.carveouts_kb):
        if kb * 1024 >= needed:
            return kb * 1024
    return max(limits.carveouts_kb) * 1024


def _round_up(n: int, unit: int) -> int:
    return -(-n // unit) * unit


class BlockPlacer:
    """Assigns blocks, in launch order, to (SM, slot) and a start step; lengths come later.

    Blocks arrive in chunks (the trace streams them in launch order); `place` takes the lengths
    of the next blocks and returns their SM and start step."""

    def __init__(self, sm_count: int, blocks_per_sm: int):
        self.sm_count, self.blocks_per_sm = sm_count, blocks_per_sm
        # (free at step, slot, sm): the first wave fills slot 0 of every SM, then slot 1, ...
        self.free = [(0, slot, sm) for slot in range(blocks_per_sm) for sm in range(sm_count)]
        heapq.heapify(self.free)

    def place(self, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(sm, slot, start step) of each block, given each block's length in steps."""
        n = len(lengths)
        sm, slot, start = np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64)
        for i, length in enumerate(lengths.tolist()):
            free_at, s, m = heapq.heappop(self.free)
            sm[i], slot[i], start[i] = m, s, free_at
            heapq.heappush(self.free, (free_at + max(length, 1), s, m))
        return sm, slot, start


class WarpHistory(BaseModel):
    """Per access (in the order given): its step within its warp, and what came before it."""

    model_config = {"arbitrary_types_allowed": True}
    step: np.ndarray            # k for the k-th access of its warp
    after_load: np.ndarray      # the warp loaded from global memory earlier
    after_barrier: np.ndarray   # ... and passed a barrier since its last load


def warp_history(block: np.ndarray, warp: np.ndarray, pc: np.ndarray, is_load: np.ndarray,
                 barriers_before: np.ndarray) -> WarpHistory:
    """Steps and lock-step facts of accesses listed in each warp's program order.

    `barriers_before[pc]` counts barrier instructions before `pc` in the code; a barrier lies
    between two accesses when one is in the code between them (for a backward jump: in the
    loop body between the later and the earlier access)."""
    n = len(block)
    if n == 0:
        empty = np.zeros(0, np.int64)
        return WarpHistory(step=empty, after_load=empty.astype(bool), after_barrier=empty.astype(bool))
    order = np.argsort(block * 4096 + warp, kind="stable")
    key = (block * 4096 + warp)[order]
    first_of_run = np.r_[True, key[1:] != key[:-1]]
    run_start = np.maximum.accumulate(np.where(first_of_run, np.arange(n), 0))
    step = np.arange(n) - run_start
    loads = is_load[order].astype(np.int64)
    loads_before = np.cumsum(loads) - loads
    after_load = loads_before - loads_before[run_start] > 0
    # pc of the warp's latest earlier load (forward fill within the warp)
    load_idx = np.where(np.r_[False, loads[:-1] > 0] & ~first_of_run, np.arange(n) - 1, -1)
    load_idx = np.maximum.accumulate(np.where(first_of_run, -1, load_idx))
    load_idx = np.where(load_idx >= run_start, load_idx, -1)
    prev_pc = np.where(load_idx >= 0, pc[order][np.maximum(load_idx, 0)], 0)
    here = pc[order]
    lo, hi = np.minimum(prev_pc, here), np.maximum(prev_pc, here)
    crossed = barriers_before[hi] - barriers_before[lo] > 0
    result = WarpHistory(step=np.empty(n, np.int64), after_load=np.empty(n, bool),
                         after_barrier=np.empty(n, bool))
    result.step[order] = step
    result.after_load[order] = after_load
    result.after_barrier[order] = after_load & crossed
    return result
