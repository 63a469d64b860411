"""The interpreter parts both engines share: min-PC reconvergence, guard predicates, the
block barrier's release and the ordered comparisons (the PTX and SASS engines number them
alike). Numba, cache=True; callers freeze them into their own machine code
(memsim.engine.jit_cache drops both engines' caches when this file changes)."""
from __future__ import annotations

from numba import njit


@njit(cache=True, _nrt=False)
def compare_ordered(cmp, a, b):
    """a <cmp> b for the six ordered comparisons, cmp 0-5: eq ne lt le gt ge (the PTX and
    SASS engines' shared numbering)."""
    if cmp == 0:
        return a == b
    if cmp == 1:
        return a != b
    if cmp == 2:
        return a < b
    if cmp == 3:
        return a <= b
    if cmp == 4:
        return a > b
    return a >= b


@njit(cache=True, _nrt=False)
def lowest_pc(lane_pc, w, running, beyond):
    """(pc, lanes there): the smallest PC among the running lanes of warp w (min-PC
    reconvergence); `beyond` when none runs."""
    pc = beyond + 1
    mask = 0
    for lane in range(32):
        if (running >> lane) & 1:
            p = lane_pc[w, lane]
            if p < pc:
                pc = p
                mask = 1 << lane
            elif p == pc:
                mask |= 1 << lane
    return pc, mask


@njit(cache=True, _nrt=False)
def guarded(regs, w, guard, negated, mask):
    """The lanes of `mask` whose guard predicate register (-1: none) lets them execute."""
    if guard < 0:
        return mask
    want = negated == 0
    active = 0
    for lane in range(32):
        if ((mask >> lane) & 1) and ((regs[w, guard, lane] != 0) == want):
            active |= 1 << lane
    return active


@njit(cache=True, _nrt=False)
def release_barrier(run_mask, waiting):
    """Every warp has stopped: the lanes parked at the barrier run again. False when none waits
    (the block is done)."""
    parked = False
    for w in range(run_mask.shape[0]):
        parked = parked or waiting[w] != 0
    if not parked:
        return False
    for w in range(run_mask.shape[0]):
        run_mask[w] |= waiting[w]
        waiting[w] = 0
    return True


@njit(cache=True)
def fail(err, code, pc, block, thread, address, extra):
    """Stop the run: err = [code, pc, block, thread, address, extra] (memsim.engine.faults)."""
    err[0], err[1], err[2], err[3], err[4], err[5] = code, pc, block, thread, address, extra


@njit(cache=True, _nrt=False)
def shuffle_source(mode, lane, b, clamp, seg):
    """(source lane, in range) of a warp shuffle (PTX shfl.sync, SASS SHFL), mode 0-3: idx up
    down bfly (SASS's SHFL order); b is the lane operand, clamp and seg the c operand's parts.
    Out of range, a lane reads its own value."""
    min_lane = lane & seg
    max_lane = min_lane | (clamp & ~seg)
    if mode == 1:
        j = lane - b
        ok = j >= max_lane
    elif mode == 2:
        j = lane + b
        ok = j <= max_lane
    elif mode == 3:
        j = lane ^ b
        ok = j <= max_lane
    else:
        j = min_lane | (b & ~seg)
        ok = j <= max_lane
    return (j if ok else lane), ok
