"""The three trace-driven checks, in Numba: one pass over a chunk of a launch's recorded warp
accesses and barriers (memsim.engine.trace with `barriers=True`), in the order the SASS engine
ran them (block by block; in a block, warp by warp up to each barrier).

racecheck keeps, per shared byte of the running block, its last write and last read (thread,
instruction, the thread's barrier count and __syncwarp count then); an access of another
thread that the barriers do not order against it is a hazard, as compute-sanitizer's racecheck
counts them (one per byte). initcheck keeps one bit per byte of each never-written buffer (and
of the block's shared memory, when asked). synccheck compares the lanes at a BAR with the
warp's live lanes, and each lane's __syncwarp mask with itself.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..stream import OP_ATOM, OP_BAR, OP_LD, OP_RED, OP_ST, OP_WARPSYNC, SP_GLOBAL, SP_SHARED

# hazard kinds (racecheck)
RAW, WAR, WAW = 0, 1, 2
HAZARD_NAMES = ("RAW", "WAR", "WAW")
# columns of a kept hazard / error record
H_BLOCK, H_KIND, H_PC_A, H_PC_B, H_THREAD_A, H_THREAD_B, H_ADDRESS, H_SAME_WARP = range(8)
E_BLOCK, E_PC, E_THREAD, E_ADDRESS, E_SIZE, E_KIND = range(6)
SYNC_DIVERGENT, SYNC_INVALID = 0, 1
KEEP = 4096   # records kept whole per check (counts go on)


class RaceState:
    """What racecheck carries from one chunk of blocks to the next."""

    def __init__(self, shared_bytes: int, threads: int, n_pcs: int):
        n = max(shared_bytes, 1)
        self.shadow = np.full((n, 13), -1, np.int64)  # (thread, pc, bar, ws) of a write, two reads; the write's record
        self.epochs = np.zeros((threads, 2), np.int64)  # barriers and __syncwarps each thread passed
        self.block = np.full(1, -1, np.int64)
        self.pairs = np.zeros((n_pcs, n_pcs, 3), np.int64)      # [first pc, second pc, kind] -> hazards
        self.errors = np.zeros((n_pcs, n_pcs), np.int64)        # of those, hazards between warps
        self.first = np.full((n_pcs, n_pcs), -1, np.int64)      # order in which pairs were first seen
        self.kept = np.zeros((KEEP, 8), np.int64)
        self.counts = np.zeros(3, np.int64)                     # hazards, pairs seen, records seen

    def arrays(self):
        return (self.shadow, self.epochs, self.block, self.pairs, self.errors, self.first, self.kept,
                self.counts)


@njit(cache=True)
def racecheck(block, warp, pc, space, op, active, addresses, width, compact, threads, state):
    """compact: per pc, its index among the shared loads and stores (pairs, first and kept use
    those indices)."""
    shadow, epochs, current, pairs, errors, first, kept, counts = state
    for k in range(len(pc)):
        if block[k] != current[0]:
            current[0] = block[k]
            shadow[:] = -1
            epochs[:] = 0
        w, p = warp[k], compact[pc[k]]
        if op[k] == OP_BAR or op[k] == OP_WARPSYNC:
            column = 0 if op[k] == OP_BAR else 1
            for lane in range(32):
                if (active[k] >> lane) & 1 and w * 32 + lane < threads:
                    epochs[w * 32 + lane, column] += 1
            continue
        if space[k] != SP_SHARED or (op[k] != OP_LD and op[k] != OP_ST) or p < 0:
            continue   # racecheck watches plain shared loads and stores (atomics never race)
        write = op[k] == OP_ST
        for lane in range(32):
            if not (active[k] >> lane) & 1:
                continue
            t = w * 32 + lane
            base = addresses[k, lane]
            for b in range(base, min(base + width[pc[k]], shadow.shape[0])):
                _check_byte(shadow, epochs, b, t, p, write, block[k], counts[2] + k, pairs, errors, first,
                            kept, counts)
    counts[2] += len(pc)


@njit(cache=True)
def _check_byte(shadow, epochs, b, t, p, write, block, record, pairs, errors, first, kept, counts):
    """Byte b's columns: its last write (0-3), its first reader of the interval (4-7) and the
    latest other reader (8-11), each (thread, instruction, barriers, __syncwarps), and the record
    of the write (12). Two readers, so that a thread reading and then writing its own byte does
    not hide another's read. Lanes of one warp instruction storing to one byte are no WAW here:
    compute-sanitizer reports them only when their values differ, and the trace has no values
    (the idiom is every lane storing the same value: `shared[warp_id] = warp_sum`)."""
    bar, ws = epochs[t, 0], epochs[t, 1]
    if write:
        reader = 4 if shadow[b, 4] != t else 8
        _hazard(shadow, b, reader, t, p, bar, ws, WAR, block, pairs, errors, first, kept, counts)
        if shadow[b, 12] != record:
            _hazard(shadow, b, 0, t, p, bar, ws, WAW, block, pairs, errors, first, kept, counts)
        shadow[b, 0], shadow[b, 1], shadow[b, 2], shadow[b, 3], shadow[b, 12] = t, p, bar, ws, record
        shadow[b, 4] = shadow[b, 8] = -1
    else:
        _hazard(shadow, b, 0, t, p, bar, ws, RAW, block, pairs, errors, first, kept, counts)
        c = 4 if shadow[b, 4] < 0 or shadow[b, 4] == t or shadow[b, 6] != bar else 8
        shadow[b, c], shadow[b, c + 1], shadow[b, c + 2], shadow[b, c + 3] = t, p, bar, ws


@njit(cache=True)
def _hazard(shadow, b, c, t, p, bar, ws, kind, block, pairs, errors, first, kept, counts):
    """A hazard when byte b's access in columns c.. (write 0, reads 4 and 8) was another thread's
    in this barrier interval, not ordered by a __syncwarp of their warp."""
    other = shadow[b, c]
    if other < 0 or other == t or shadow[b, c + 2] != bar:
        return
    same_warp = other // 32 == t // 32
    if same_warp and shadow[b, c + 3] != ws:
        return
    q = shadow[b, c + 1]
    if first[q, p] < 0 and first[p, q] < 0:
        first[q, p] = counts[1]
        counts[1] += 1
    pairs[q, p, kind] += 1
    if not (same_warp and q != p):   # a warp's lanes at two instructions: "warp level programming"
        errors[q, p] += 1
    n = counts[0]
    counts[0] = n + 1
    if n < kept.shape[0]:
        kept[n, 0], kept[n, 1], kept[n, 2], kept[n, 3] = block, kind, q, p
        kept[n, 4], kept[n, 5], kept[n, 6], kept[n, 7] = other, t, b, same_warp


@njit(cache=True)
def initcheck(block, warp, pc, space, op, active, addresses, width, ranges, written, shared_written,
              current, kept, counts):
    """ranges: [k, 3] (lo, hi, offset into `written`) of the never-written buffers; `written`
    one byte per byte of them. shared_written: the block's shared bytes (empty: not watched)."""
    watch_shared = shared_written.shape[0] > 0
    for k in range(len(pc)):
        if block[k] != current[0]:
            current[0] = block[k]
            shared_written[:] = 0
        o = op[k]
        if o == OP_BAR or o == OP_WARPSYNC:
            continue
        is_global = space[k] == SP_GLOBAL
        if not is_global and not (watch_shared and space[k] == SP_SHARED):
            continue
        reads = o == OP_LD or o == OP_ATOM or o == OP_RED
        writes = o == OP_ST   # an atomic's result does not count as initialised (as on the GPU)
        size = width[pc[k]]
        for lane in range(32):
            if not (active[k] >> lane) & 1:
                continue
            a = addresses[k, lane]
            if is_global:
                slot = _slot(ranges, a)
                if slot < 0:
                    continue
                lo = a - ranges[slot, 0] + ranges[slot, 2]
                hi = min(lo + size, ranges[slot, 2] + ranges[slot, 1] - ranges[slot, 0])
                marks = written
            else:
                lo, hi, marks = a, min(a + size, shared_written.shape[0]), shared_written
            if reads:
                unset = False
                for b in range(lo, hi):
                    unset = unset or marks[b] == 0
                if unset:
                    _keep_error(kept, counts, block[k], pc[k], warp[k] * 32 + lane, a, size, space[k])
            if writes:
                for b in range(lo, hi):
                    marks[b] = 1


@njit(cache=True)
def _slot(ranges, address):
    for s in range(ranges.shape[0]):
        if ranges[s, 0] <= address < ranges[s, 1]:
            return s
    return -1


@njit(cache=True)
def _keep_error(kept, counts, block, pc, thread, address, size, kind):
    n = counts[0]
    counts[0] = n + 1
    if n < kept.shape[0]:
        kept[n, 0], kept[n, 1], kept[n, 2], kept[n, 3], kept[n, 4], kept[n, 5] = (
            block, pc, thread, address, size, kind)


@njit(cache=True)
def synccheck(block, warp, pc, op, active, addresses, masks, failed, current, kept, counts):
    """A BAR whose lanes are not all of the warp's live lanes: each arriving lane, once per warp
    (the GPU stops the kernel at its first barrier error, so later ones are never seen). A
    __syncwarp whose mask leaves out a lane that executes it: every lane of it. masks: per pc,
    the mask of a __syncwarp ptxas wrote as a NOP (-1: the recorded lane masks)."""
    for k in range(len(pc)):
        if block[k] != current[0]:
            current[0] = block[k]
            failed[:] = 0
        o, w, lanes = op[k], warp[k], active[k]
        if (o != OP_BAR and o != OP_WARPSYNC) or failed[w]:
            continue
        bad = False
        first = 0
        while not (lanes >> first) & 1:
            first += 1
        if o == OP_BAR:
            bad = addresses[k, first] != lanes
        else:
            for lane in range(32):
                mask = masks[pc[k]] if masks[pc[k]] >= 0 else addresses[k, lane]
                if (lanes >> lane) & 1 and not (mask >> lane) & 1:
                    bad = True
        if not bad:
            continue
        failed[w] = 1
        for lane in range(32):
            if (lanes >> lane) & 1:
                _keep_error(kept, counts, block[k], pc[k], w * 32 + lane, 0, 0,
                            SYNC_DIVERGENT if o == OP_BAR else SYNC_INVALID)
