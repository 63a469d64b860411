"""A warp's lanes apart and together again, as on Volta and later: min-PC groups, convergence
barriers (BSSY/BSYNC, WARPSYNC) and YIELD. The interpreter (emulate.py) calls these on the
per-warp state arrays it owns: lane_pc, run/bar/sync masks, the barrier each parked lane waits
at (sync_bar), each barrier's lanes (bmask), lane groups and the yielded lanes."""
from __future__ import annotations

from numba import njit

N_BARRIERS = 16
WARPSYNC_BARRIER = N_BARRIERS   # the pseudo convergence barrier WARPSYNC parks lanes at


@njit(cache=True, _nrt=False)
def release(w, lane_pc, run_mask, bar_mask, sync_mask, sync_bar, bmask, lane_group, next_group,
             yielded):
    """Let lanes parked at BSYNC (or WARPSYNC) go on where every live lane their barrier waits
    for has arrived, or (BSYNC only) has yielded: together, as one group. A barrier cleared
    because lanes yielded is emptied, so those lanes pass it alone when they come (NVIDIA's
    convergence-barrier patent US10067768B2, claim 1; docs/exactness.md, "YIELD")."""
    live = run_mask[w] | bar_mask[w] | sync_mask[w]   # releasing moves lanes within it
    released = False
    for b in range(N_BARRIERS + 1):
        waiting = 0
        for lane in range(32):
            if (sync_mask[w] >> lane) & 1 and sync_bar[w, lane] == b:
                waiting |= 1 << lane
        if waiting == 0:
            continue
        missing = bmask[w, b] & live & ~waiting
        if b == WARPSYNC_BARRIER:   # WARPSYNC waits for every lane of its mask, yielded or not
            if missing != 0:
                continue
        elif missing & ~yielded[w] != 0:
            continue
        if b == WARPSYNC_BARRIER or missing != 0:
            bmask[w, b] = 0   # WARPSYNC's mask is per use; a BSYNC cleared by yielded lanes is spent
        sync_mask[w] &= ~waiting
        run_mask[w] |= waiting
        next_group[w] += 1
        for lane in range(32):
            if (waiting >> lane) & 1:
                lane_pc[w, lane] += 1
                lane_group[w, lane] = next_group[w]
        released = True
    return released


@njit(cache=True, _nrt=False)
def yield_lanes(w, pc, mask, lane_pc, run_mask, bar_mask, sync_mask, sync_bar, bmask, lane_group,
                cur_group, next_group, yielded):
    """YIELD in a diverged warp: its lanes count as arrived at the convergence barriers (so
    lanes parked at one may be let go without them) and another group runs next."""
    yielded[w] |= mask
    for lane in range(32):
        if (mask >> lane) & 1:
            lane_pc[w, lane] = pc + 1
    if sync_mask[w] != 0:
        release(w, lane_pc, run_mask, bar_mask, sync_mask, sync_bar, bmask, lane_group,
                next_group, yielded)
    best = lowest_pc_lane(lane_pc, w, run_mask[w] & ~mask)
    if best >= 0:
        cur_group[w] = lane_group[w, best]


@njit(cache=True, _nrt=False)
def group(lane_pc, lane_group, cur_group, w, running):
    """(pc, lanes) of the group to run: the current one while it has running lanes, else the
    group of the running lane with the smallest PC. Diverged groups do not merge when they
    reach one PC (as on Volta and later, where only BSYNC, WARPSYNC and barriers reconverge)."""
    g = cur_group[w]
    mask, pc = 0, -1
    for lane in range(32):
        if (running >> lane) & 1 and lane_group[w, lane] == g:
            mask |= 1 << lane
            pc = lane_pc[w, lane]
    if mask != 0:
        return pc, mask
    best = lowest_pc_lane(lane_pc, w, running)
    g = lane_group[w, best]
    cur_group[w] = g
    for lane in range(32):
        if (running >> lane) & 1 and lane_group[w, lane] == g:
            mask |= 1 << lane
    return lane_pc[w, best], mask


@njit(cache=True, _nrt=False)
def lowest_pc_lane(lane_pc, w, lanes):
    """The lane of `lanes` at the smallest PC (the lowest such lane), -1 for none."""
    best = -1
    for lane in range(32):
        if (lanes >> lane) & 1 and (best < 0 or lane_pc[w, lane] < lane_pc[w, best]):
            best = lane
    return best


@njit(cache=True, _nrt=False)
def split(w, lanes, lane_pc, lane_group, cur_group, next_group):
    """After a control instruction, lanes of one group that went to different PCs become one
    group per PC; the smallest PC keeps the group and runs next."""
    low = -1
    for lane in range(32):
        if (lanes >> lane) & 1 and (low < 0 or lane_pc[w, lane] < low):
            low = lane_pc[w, lane]
    if low < 0:
        return
    first_new = next_group[w] + 1
    for lane in range(32):
        if not (lanes >> lane) & 1 or lane_pc[w, lane] == low:
            continue
        pc, old = lane_pc[w, lane], lane_group[w, lane]
        if old >= first_new:
            continue   # given its new group with an earlier lane
        next_group[w] += 1
        for other in range(lane, 32):
            if (lanes >> other) & 1 and lane_pc[w, other] == pc and lane_group[w, other] == old:
                lane_group[w, other] = next_group[w]
    for lane in range(32):
        if (lanes >> lane) & 1 and lane_pc[w, lane] == low:
            cur_group[w] = lane_group[w, lane]
            return


@njit(cache=True, _nrt=False)
def advance(w, pc, mask, lane_pc, warp_pc, converged):
    if converged[w]:
        warp_pc[w] = pc + 1
    else:
        for lane in range(32):
            if (mask >> lane) & 1:
                lane_pc[w, lane] = pc + 1
