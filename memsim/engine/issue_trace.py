"""Optional record of every warp instruction a sample of blocks issues, for the timing
simulation (memsim.timing): which blocks, the buffers an emulator fills, and their hand-off as
a memsim.stream.WarpInstructionTrace.

    request = IssueTraceRequest(blocks=memsim.timing.sample_blocks(grid_blocks, profile))
    memsim.simulate(src, "k", grid, block, args, issue_trace=request)
    request.trace, request.schedule        # WarpInstructionTrace, IssueSchedule (SASS engine)

Blocks are recorded whole or not at all: once `capacity` issues are filled, the block being
recorded is dropped and no later one is recorded (the timing simulation scales what it has).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from ..stream import AUX_LINES, AUX_PASSES, IssueSchedule, WarpInstructionTrace
from .count import C_L1_BANK_PASSES, C_L1_LINES, C_SECTORS, C_SHARED_WAVEFRONTS, C_WAVEFRONTS

# Issues per launch: up to 256 MB of buffers a worker, of which only the pages filled are ever
# touched. Large enough for one block of a long per-thread loop (darknet's variance kernel: one
# block, two live warps, 14 M issues), which a smaller buffer dropped whole, leaving the launch
# to the old formula (-76% on prereg12; the simulation gives -3.5% once the block is recorded).
DEFAULT_CAPACITY = 1 << 24
# fill[...] of one worker: issues filled, first issue of the block being recorded, overflowed,
# the sample slot of the block being recorded (-1: none)
T_FILLED, T_BLOCK_START, T_OVERFLOW, T_SLOT = range(4)
N_FILL = 4


@dataclass
class IssueTraceRequest:
    blocks: np.ndarray
    capacity: int = DEFAULT_CAPACITY
    trace: WarpInstructionTrace | None = field(default=None, init=False)
    schedule: IssueSchedule | None = field(default=None, init=False)


class IssueTraceBuffers:
    """What an emulator's run_blocks fills for an IssueTraceRequest (or empty ones for none):
    per block its sample slot (-1: not sampled), per worker the records (slot, warp, pc, aux)
    and fill state, and per slot whether the block was recorded whole."""

    def __init__(self, request: IssueTraceRequest | None, n_blocks: int, workers: int):
        self.request = request
        blocks = np.asarray(request.blocks if request else (), np.int64)
        self.blocks = blocks
        self.slot_of = np.full(n_blocks if request else 0, -1, np.int64)
        if request:
            self.slot_of[blocks[(blocks >= 0) & (blocks < n_blocks)]] = np.arange(len(blocks))[
                (blocks >= 0) & (blocks < n_blocks)]
        # every worker may fill `capacity` (np.zeros: pages untouched stay unallocated); finish
        # keeps what one worker would have kept, so the workers change nothing
        self.capacity = max(1, request.capacity) if request else 0
        self.records = np.zeros((workers, self.capacity, 4), np.int32)
        self.fill = np.zeros((workers, N_FILL), np.int64)
        self.fill[:, T_SLOT] = -1
        self.done = np.zeros(max(len(blocks), 1), np.int64)

    def arrays(self, worker: int) -> tuple[np.ndarray, ...]:
        return self.slot_of, self.records[worker], self.fill[worker], self.done

    def finish(self, warps_per_block: int, schedule: IssueSchedule | None) -> None:
        """Hand the whole blocks' issues to the request, grouped by (block, warp) in issue order."""
        if self.request is None:
            return
        parts = [self.records[w, :self.fill[w, T_FILLED]] for w in range(len(self.records))]
        rec = np.concatenate(parts) if parts else np.zeros((0, 4), np.int32)
        whole = self._kept(rec)
        keep = np.isin(rec[:, 0], whole)
        rec = rec[keep]
        remap = np.full(max(len(self.blocks), 1), -1, np.int64)
        remap[whole] = np.arange(len(whole))
        key = remap[rec[:, 0]] * warps_per_block + rec[:, 1]
        order = np.argsort(key, kind="stable")
        counts = np.bincount(key, minlength=len(whole) * warps_per_block) if len(key) else \
            np.zeros(len(whole) * warps_per_block, np.int64)
        start = np.zeros(len(whole) * warps_per_block + 1, np.int64)
        np.cumsum(counts, out=start[1:])
        self.request.trace = WarpInstructionTrace(
            blocks=self.blocks[whole], warps_per_block=warps_per_block, start=start,
            pc=rec[order, 2].copy(), aux=rec[order, 3].copy())
        self.request.schedule = schedule

    def _kept(self, rec: np.ndarray) -> np.ndarray:
        """The sample slots one worker would have recorded whole: in launch order, every sampled
        block until one that did not end recorded (a full buffer) or would not fit `capacity`."""
        done = self.done[:len(self.blocks)]
        inside = np.flatnonzero((self.blocks >= 0) & (self.blocks < len(self.slot_of)))
        ran = inside[self.slot_of[self.blocks[inside]] == inside]      # a block sampled twice: its last slot
        ran = ran[np.argsort(self.blocks[ran], kind="stable")]
        sizes = np.bincount(rec[:, 0], minlength=len(self.blocks))[ran] if len(self.blocks) else ran
        fits = (done[ran] != 0) & (np.cumsum(sizes) <= self.capacity)
        stop = int(np.argmin(fits)) if not fits.all() else len(ran)
        return np.sort(ran[:stop])


# ---- what an emulator calls (Numba) --------------------------------------------------------------

@njit(cache=True, _nrt=False)
def record_issue(timing, w, pc):
    """Append warp w's issue of pc while a sampled block runs; the record's index, or -1. A
    full buffer drops the block being recorded and stops recording."""
    rec, fill = timing[1], timing[2]
    slot = fill[T_SLOT]
    if slot < 0:
        return -1
    n = fill[T_FILLED]
    if n >= rec.shape[0]:
        fill[T_OVERFLOW] = 1
        fill[T_SLOT] = -1
        fill[T_FILLED] = fill[T_BLOCK_START]
        return -1
    rec[n, 0], rec[n, 1], rec[n, 2], rec[n, 3] = slot, w, pc, 0
    fill[T_FILLED] = n + 1
    return n


@njit(cache=True, _nrt=False)
def memory_cost(counters, pc):
    """Sectors plus wavefronts counted so far at pc, and a global load's L1 bank passes and
    lines in their aux fields (memsim.stream.AUX_*): their growth over one issue is its aux."""
    return (counters[pc, C_SECTORS] + counters[pc, C_WAVEFRONTS] + counters[pc, C_SHARED_WAVEFRONTS]
            + (counters[pc, C_L1_BANK_PASSES] << AUX_PASSES) + (counters[pc, C_L1_LINES] << AUX_LINES))


@njit(cache=True, _nrt=False)
def start_block_record(timing, b):
    """Record block b's issues if it is sampled and the buffer has not overflowed."""
    slot_of, _, fill, _ = timing
    slot = slot_of[b] if b < slot_of.shape[0] else -1
    if slot >= 0 and fill[T_OVERFLOW] == 0:
        fill[T_SLOT] = slot
        fill[T_BLOCK_START] = fill[T_FILLED]
    else:
        fill[T_SLOT] = -1


@njit(cache=True, _nrt=False)
def end_block_record(timing):
    """The block being recorded ran to its end: it is whole."""
    fill, done = timing[2], timing[3]
    if fill[T_SLOT] >= 0:
        done[fill[T_SLOT]] = 1
    fill[T_SLOT] = -1
