"""The cache model's two passes over one window of warp accesses (Numba), and their state's layout.

l1_pass goes SM by SM (L1 lookups of loads, stores merged in the L1, what goes on to L2, per
line); l2_pass goes in time order over all SMs (L2 hits and misses, DRAM fetches and dirty
evictions, reads that identical requests of other SMs merge with). State is kept per 128-byte
line with one bit per sector; the rules and their evidence are memsim.model.cache's docstring
and docs/caches.md.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...stream import OP_LD, OP_ST

SECTOR_SHIFT, LINE_SHIFT = 5, 7

# counters[...] of the Numba pass
K_L1_HIT, K_L1_MISS, K_L2_READ, K_L2_WRITE, K_L2_READ_HIT, K_DRAM_READ, K_DRAM_WRITE, \
    K_READ_MERGED, K_WRITE_MERGED, K_ATOMIC = range(10)
N_COUNTERS = 10

# cfg[...] of the Numba pass
G_L1_SETS, G_L1_WAYS, G_L2_SETS, G_L2_WAYS, G_L1_LOADS, G_FETCH_SECTORS, G_READ_MERGE, \
    G_STORE_MERGE, G_MERGE_WINDOW, G_MERGE_MIN_LINES, G_LOOSE_PERCENT, G_MERGE_STEPS, G_L2_POLICY, \
    G_L1_STORE_ALLOCATE, G_L2_SIDES, G_L2_DIRTY_WAYS = range(16)
N_CFG = 16

NO_GROUP, ANY_SM = -2, -1     # lock-step groups (l1_pass's group_of); LOOSE - block: loosely
LOOSE = -3                    # in step with its block
EPISODES = 2                  # merge episodes remembered per L2 line
NO_EPISODE = -(1 << 40)       # the step of an empty episode: no step is near it


# State is kept per 128-byte line with one bit per sector;
# a line's L2 bookkeeping sits in one 64-byte record, so a lookup touches few host cache lines.

# L2 per line: tags[set, way]; state[set, way] = last use << 32 | last fill's step (8 hashed
# bits) << 24 | last fill's request (8 hashed bits) << 16 | flags (both scanned per set, kept
# side by side); the merge episodes of reads sit apart, in a table hashed by line
EPISODE_LINES = 1 << 16
# flag bits: valid sectors 0-3, dirty 4-7, demand-fetched 8-11, last fill 12-15
VALID, DIRTY, DEMAND, FILLED = 0, 4, 8, 12
FLAG_BITS, REQ_BITS, STEP_BITS, USE_SHIFT = 16, 16, 24, 32


@njit(cache=True, inline="always")
def _popcount4(x):
    return (x & 1) + ((x >> 1) & 1) + ((x >> 2) & 1) + ((x >> 3) & 1)


@njit(cache=True)
def request_lines(row, lines, masks, keys, stamps, stamp):
    """The distinct 128-byte lines of one warp access in address order (the order the L1
    sends them in: merging across SMs shows it), with the bit mask of the 32-byte sectors each
    is touched in. -1 lanes are inactive. Lanes in address order (the common case) need no
    more; otherwise `keys`/`stamps` (64 slots, cleared by bumping `stamp`) collect them."""
    n = 0
    last = -1
    for lane in range(32):
        a = row[lane]
        if a < 0:
            continue
        line = a >> LINE_SHIFT
        if line == last:
            masks[n - 1] |= 1 << ((a >> SECTOR_SHIFT) & 3)
        elif line > last:
            lines[n] = line
            masks[n] = 1 << ((a >> SECTOR_SHIFT) & 3)
            n += 1
            last = line
        else:
            return _unordered_lines(row, lines, masks, keys, stamps, stamp)
    return n


@njit(cache=True)
def _unordered_lines(row, lines, masks, keys, stamps, stamp):
    n = 0
    for lane in range(32):
        a = row[lane]
        if a < 0:
            continue
        line = a >> LINE_SHIFT
        bit = 1 << ((a >> SECTOR_SHIFT) & 3)
        h = ((line * 0x9E3779B1) >> 7) & 63
        while stamps[h] == stamp and keys[h] != line:
            h = (h + 1) & 63
        if stamps[h] == stamp:
            masks[64 + h] |= bit     # slot h's mask lives after the first 64
            continue
        stamps[h] = stamp
        keys[h] = line
        masks[64 + h] = bit
        lines[n] = h
        n += 1
    for j in range(n):
        h = lines[j]
        lines[j] = keys[h]
        masks[j] = masks[64 + h]
    for a in range(1, n):
        line, mask = lines[a], masks[a]
        b = a - 1
        while b >= 0 and lines[b] > line:
            lines[b + 1] = lines[b]
            masks[b + 1] = masks[b]
            b -= 1
        lines[b + 1] = line
        masks[b + 1] = mask
    return n


@njit(cache=True, inline="always")
def _set_of(line, sets):
    """Hashed set index (as the GPU's: strides of a power of two still spread over the sets),
    mapped onto 0..sets-1 by a multiply rather than a division."""
    h = ((line * 0x5851F42D4C957F2D) >> 24) & 0xFFFFFFFF
    return (h * sets) >> 32


@njit(cache=True, inline="always")
def _l1_load(l1, sm, line, mask, sets, ways, clock):
    """Sectors of `mask` present in this SM's L1 (hits); the rest are filled (the line
    allocated, LRU, when absent). A sector another warp missed on counts as a hit while its
    data is still in flight. l1[sm, set, 2 * way] = tag, [.., 2 * way + 1] = last use << 4 |
    valid sectors (side by side: one host cache line per lookup)."""
    st = _set_of(line, sets)
    victim = 0
    for w in range(ways):
        if l1[sm, st, 2 * w] == line:
            valid = l1[sm, st, 2 * w + 1] & 15
            l1[sm, st, 2 * w + 1] = (clock << 4) | valid | mask
            return valid & mask
        if l1[sm, st, 2 * w + 1] < l1[sm, st, 2 * victim + 1]:
            victim = w
    l1[sm, st, 2 * victim] = line
    l1[sm, st, 2 * victim + 1] = (clock << 4) | mask
    return 0


@njit(cache=True, inline="always")
def _l1_store(l1, sm, line, full, sets, ways, clock):
    """A store's line in this SM's L1 (write-through, write-allocate: gpu/cache_probe/
    store_alloc_probe.py): allocated (LRU) when absent, also by a store of one word a sector;
    the `full` sectors, written whole, become valid, a partly written sector stays as it was.
    True when a line was allocated."""
    st = _set_of(line, sets)
    victim = 0
    for w in range(ways):
        if l1[sm, st, 2 * w] == line:
            l1[sm, st, 2 * w + 1] = (clock << 4) | (l1[sm, st, 2 * w + 1] & 15) | full
            return False
        if l1[sm, st, 2 * w + 1] < l1[sm, st, 2 * victim + 1]:
            victim = w
    l1[sm, st, 2 * victim] = line
    l1[sm, st, 2 * victim + 1] = (clock << 4) | full
    return True


@njit(cache=True)
def full_sectors(row, lines, n, full, counts):
    """full[j]: the sectors of line lines[j] that one warp store writes whole (`counts`: 128
    scratch slots, so the hot loop allocates nothing). The access width
    is not in the trace: it is taken as the smallest gap between the lanes' distinct addresses,
    at most 16 bytes (so a sector needs two lanes or more). Lanes out of address order: none
    (taken as partial writes)."""
    for j in range(n):
        full[j] = 0
    counts[:4 * n] = 0
    width, last, j = 16, -1, 0       # no access is wider than 16 bytes
    for lane in range(32):
        a = row[lane]
        if a < 0 or a == last:
            continue
        if a < last:
            return
        if last >= 0:
            width = min(width, a - last)
        while lines[j] != a >> LINE_SHIFT:
            j += 1
        counts[4 * j + ((a >> SECTOR_SHIFT) & 3)] += 1
        last = a
    for k in range(4 * n):
        if counts[k] * width >= 32:
            full[k >> 2] |= 1 << (k & 3)


@njit(cache=True)
def _stores_merged(merge_tag, merge_key, merge_mask, sm, line, mask, step, group, loose_percent):
    """Sectors of `mask` another warp of the same lock-step group stored to in the same step on
    this SM (the L1 sends one partial write for both); records the rest. Loosely in step
    (group <= LOOSE), two stores meet only in `loose_percent` of cases (chosen by a hash, so
    results repeat)."""
    h = ((line * 0x9E3779B1) >> 9) & (merge_tag.shape[1] - 1)
    key = step * 4194304 + group
    if merge_tag[sm, h] != line or merge_key[sm, h] != key:
        merge_tag[sm, h] = line
        merge_key[sm, h] = key
        merge_mask[sm, h] = mask
        return 0
    met = merge_mask[sm, h] & mask
    if group <= LOOSE:
        for k in range(4):
            if (met >> k) & 1:
                coin = ((((line << 2) + k) * 0x2545F491 + sm * 0x9E3779B1 + step) >> 11) & 1023
                if coin * 100 >= loose_percent * 1024:
                    met &= ~(1 << k)
    merge_mask[sm, h] |= mask
    return met


@njit(cache=True, inline="always")
def _local_written(dirty_tag, dirty_owner, dirty_mask, sm, line, mask, owner, previous, allocated):
    """Sectors of a local store's `mask` that the L1 keeps: the L1 writes local lines back, so a
    sector its warp's block (`owner`) already wrote while the line stayed in L1 goes no further;
    the first write of a sector is counted at once, as the L2 write it becomes when the line
    leaves L1 or the warp ends (fuzz2's local arrays: an initialised array updated at a dynamic
    index adds no L2 sectors; DeepSpeed's layer norms, each line written once per warp, send
    every one). Remembered in a table hashed by line (a lost entry only counts a write again)."""
    h = ((line * 0x9E3779B1) >> 9) & (dirty_tag.shape[1] - 1)
    if allocated or dirty_tag[sm, h] != line or dirty_owner[sm, h] != previous:
        dirty_tag[sm, h] = line
        dirty_owner[sm, h] = owner
        dirty_mask[sm, h] = mask
        return 0
    kept = dirty_mask[sm, h] & mask
    dirty_owner[sm, h] = owner
    dirty_mask[sm, h] |= mask
    return kept


SPARED = 1 << 40      # writer[set, way] flag: a dirty line already kept once past its turn
NO_WRITER = SPARED - 1  # writer of a line no instruction of the launch wrote


@njit(cache=True, inline="always")
def _write_back(state, writer, st, way, counters, by_pc):
    """Count way's dirty sectors as written to DRAM, also for the instruction that last wrote
    them (writer[set, way], by_pc[pc]) unless no instruction of the launch did."""
    dirty = _popcount4((state[st, way] >> DIRTY) & 15)
    counters[K_DRAM_WRITE] += dirty
    if dirty and (writer[st, way] & (SPARED - 1)) != NO_WRITER:
        by_pc[writer[st, way] & (SPARED - 1)] += dirty


@njit(cache=True, inline="always")
def _l2_allocate(tags, state, writer, st, line, ways, policy, now, counters, by_pc):
    """Way for `line` in set st: the least recently used line (policy 0); policy 1: the LRU clean
    line while the set has one; policy 2: a dirty LRU line is kept once (moved to most recent)
    and the next LRU line goes instead. An evicted line's dirty sectors go to DRAM, counted
    also for the instruction that last wrote them (writer[set, way], by_pc[pc])."""
    for _ in range(ways + 1):
        way, clean = 0, -1
        for w in range(ways):
            if state[st, w] < state[st, way]:
                way = w
            if ((state[st, w] >> DIRTY) & 15) == 0 and (clean < 0 or state[st, w] < state[st, clean]):
                clean = w
        if policy == 1 and clean >= 0:
            way = clean
        if policy != 2 or ((state[st, way] >> DIRTY) & 15) == 0 or (writer[st, way] & SPARED):
            break
        writer[st, way] |= SPARED
        state[st, way] = (now << USE_SHIFT) | (state[st, way] & ((1 << USE_SHIFT) - 1))
    _write_back(state, writer, st, way, counters, by_pc)
    tags[st, way] = line
    state[st, way] = 0
    return way


@njit(cache=True, inline="always")
def _l2_read(state, st, w, mask, step, request, clock, fetch, counters):
    """Counted L2 reads of the `mask` sectors of line (st, w): hits, or misses that fetch each
    sector's aligned group (`fetch` sectors) from DRAM. The group's other sectors then hit,
    unless the same request asks for them; a sector another request fetched in this very step
    is still a miss (in flight)."""
    counters[K_L2_READ] += _popcount4(mask)
    old = state[st, w]
    flags = old & ((1 << FLAG_BITS) - 1)
    valid = flags & 15
    fresh = (flags >> FILLED) & 15 if ((old >> REQ_BITS) & 255) == _mark(request) else 0
    if ((old >> STEP_BITS) & 255) == _mark(step):
        fresh |= (flags >> DEMAND) & 15
    counters[K_L2_READ_HIT] += _popcount4(mask & valid & ~fresh)
    missing = mask & ~valid
    if missing == 0:
        state[st, w] = (clock << USE_SHIFT) | (old & ((1 << USE_SHIFT) - 1))
        return
    fetched = _fetch_groups(missing, valid, fetch)
    counters[K_DRAM_READ] += _popcount4(fetched)
    flags = (flags | fetched | (missing << DEMAND)) & ~(15 << FILLED)
    state[st, w] = ((clock << USE_SHIFT) | (_mark(step) << STEP_BITS) | (_mark(request) << REQ_BITS)
                    | flags | (fetched << FILLED))


@njit(cache=True, inline="always")
def _mark(x):
    """8 hashed bits of a request or step number: regular strides do not collide."""
    return ((x * 0x5851F42D4C957F2D) >> 40) & 255


@njit(cache=True, inline="always")
def _fetch_groups(missing, valid, fetch):
    """Sectors DRAM delivers for the `missing` ones: their aligned groups, less what is valid."""
    group = (1 << fetch) - 1
    fetched = 0
    for k in range(0, 4, fetch):
        if (missing >> k) & group:
            fetched |= (group << k) & ~valid & 15
    return fetched


@njit(cache=True)
def _read_merged(episodes, line, mask, step, slot, window, merge_curve, step_window):
    """True when this read of `mask` sectors of `line` (the line number carries the SM's
    coalescing domain) joins identical requests other SMs of the domain sent at about the same
    moment (within `step_window` steps and `window` places of their L1 miss streams): of n such
    requests the L2 request coalescer passes on only merge_curve[n] (gpu/cache_probe).
    A counted request that joins none opens an episode (EPISODES per line, the oldest replaced;
    episodes[h] = line, then step and info of each)."""
    h = ((line * 0x9E3779B1) >> 11) & (episodes.shape[0] - 1)
    if episodes[h, 0] != line:
        episodes[h, 0] = line
        for e in range(EPISODES):
            episodes[h, 1 + 2 * e] = NO_EPISODE
    for e in range(EPISODES):
        info = episodes[h, 2 + 2 * e]
        if ((info & 15) == mask and abs(episodes[h, 1 + 2 * e] - step) <= step_window
                and abs((info >> 36) - slot) <= window):
            n = min(((info >> 4) & 0xFFFF) + 1, len(merge_curve) - 1)
            counted = (info >> 20) & 0xFFFF
            joined = merge_curve[n] <= counted
            if not joined:
                counted += 1
            episodes[h, 2 + 2 * e] = ((info >> 36) << 36) | (counted << 20) | (n << 4) | mask
            return joined
    oldest = 0
    for e in range(1, EPISODES):
        if episodes[h, 1 + 2 * e] < episodes[h, 1 + 2 * oldest]:
            oldest = e
    episodes[h, 1 + 2 * oldest] = step
    episodes[h, 2 + 2 * oldest] = (slot << 36) | (1 << 20) | (1 << 4) | mask
    return False


# Requests from the L1 pass to the L2 pass, one per line: ev_line, and ev_info = mask |
# op << 4 | mergeable << 6 | slot << 7 | step << 31; access i's are ev_first[i] ... + ev_count[i]
E_OP, E_MERGE, E_SLOT, E_STEP = 4, 6, 7, 31
MEMO_WARPS = 2048          # warps of one SM remembered by the L1 pass (a power of two)


@njit(cache=True, nogil=True)
def l1_pass(order, sm_of, step_of, group_of, op_of, owner_of, previous_of, warp_of, addresses, more_addresses, l1,
            merge_tag, merge_key, merge_mask, dirty_tag, dirty_owner, dirty_mask, ev_line, ev_info,
            ev_first, ev_count, cfg, counters, clock):
    """First pass, SM by SM (`order`: by SM, then time): L1 lookups of loads, stores merged in
    the L1, and what goes on to L2, per line, into the ev_* arrays (grown and returned when
    too small). `group_of`: NO_GROUP or the lock-step group whose same-step accesses merge
    (ANY_SM: every SM's first wave). owner_of: 0 for a global access, the block + 1 for a
    local one (looked up and filled like a global one, but not in the global hit and miss
    counts; its stores are kept in L1, `_local_written`). warp_of: the warp's number on its SM (block slot * 32 +
    warp): a load of exactly the sectors the warp's previous load read, with no L1 fill on the
    SM since, hits everywhere (a loop re-reading its sectors costs no lookups). Lane addresses
    of access i: addresses[i], continued by more_addresses (two trace parts need no copy)."""
    lines = np.empty(32, np.int64)
    masks = np.empty(128, np.int64)
    full = np.empty(32, np.int64)
    lane_counts = np.empty(128, np.int64)
    keys = np.empty(64, np.int64)
    stamps = np.zeros(64, np.int64)
    count = 0
    l1_sets, l1_ways = cfg[G_L1_SETS], cfg[G_L1_WAYS]
    l1_loads = cfg[G_L1_LOADS] != 0
    hits = misses = merged = 0
    slot_sm, slot_step, slot = -1, -1, 0
    memo_sectors = np.empty((MEMO_WARPS, 32), np.int64)  # per warp of the SM: its last load's
    memo_total = np.full(MEMO_WARPS, -1, np.int64)      # sectors lane by lane, their number,
    memo_epoch = np.zeros(MEMO_WARPS, np.int64)         # and the SM's fill count then
    epoch = 0                                           # L1 fills on this SM so far
    memo_sm = -1
    t = clock[0]
    for idx in range(len(order)):
        i = order[idx]
        row = addresses[i] if i < len(addresses) else more_addresses[i - len(addresses)]
        op, sm, step, group = op_of[i], sm_of[i], step_of[i], group_of[i]
        t += 1
        if sm != memo_sm:
            memo_sm = sm
            memo_total[:] = -1
        me = warp_of[i] & (MEMO_WARPS - 1)
        counted = owner_of[i] == 0
        if (op == OP_LD and l1_loads and memo_total[me] >= 0 and memo_epoch[me] == epoch
                and _same_sectors(memo_sectors[me], row)):
            hits += memo_total[me] if counted else 0
            ev_first[i] = count
            ev_count[i] = 0
            continue
        n = request_lines(row, lines, masks, keys, stamps, idx + 1)
        if count + n > len(ev_line):
            ev_line, ev_info = _grown(ev_line, 2 * len(ev_line) + n), _grown(ev_info, 2 * len(ev_line) + n)
        mergeable = 0
        if op == OP_LD:
            if sm != slot_sm or step != slot_step:
                slot_sm, slot_step, slot = sm, step, 0
            missing_lines = 0
            total = 0
            for j in range(n):
                hit = _l1_load(l1, sm, lines[j], masks[j], l1_sets, l1_ways, t) if l1_loads else 0
                total += _popcount4(masks[j])
                if counted:
                    hits += _popcount4(hit)
                    misses += _popcount4(masks[j] & ~hit)
                masks[j] &= ~hit
                missing_lines += masks[j] != 0
            epoch += missing_lines
            for lane in range(32):
                memo_sectors[me, lane] = row[lane] >> SECTOR_SHIFT
            memo_total[me] = total
            memo_epoch[me] = epoch
            mergeable = int(group == ANY_SM and cfg[G_READ_MERGE] != 0
                            and missing_lines >= cfg[G_MERGE_MIN_LINES])
        elif op == OP_ST:
            allocated = 0       # bit j: line j was not in L1
            if l1_loads and cfg[G_L1_STORE_ALLOCATE] != 0:
                full_sectors(row, lines, n, full, lane_counts)
                if owner_of[i] != 0:    # a thread's own local words: what it stored, it reads back from L1
                    for j in range(n):
                        full[j] = masks[j]
                for j in range(n):
                    if _l1_store(l1, sm, lines[j], full[j], l1_sets, l1_ways, t):
                        epoch += 1
                        allocated |= 1 << j
            if owner_of[i] != 0:
                for j in range(n):
                    kept = _local_written(dirty_tag, dirty_owner, dirty_mask, sm, lines[j], masks[j],
                                          owner_of[i], previous_of[i], (allocated >> j) & 1)
                    merged += _popcount4(kept)
                    masks[j] &= ~kept
            elif group != NO_GROUP and n <= cfg[G_STORE_MERGE]:
                for j in range(n):
                    met = _stores_merged(merge_tag, merge_key, merge_mask, sm, lines[j], masks[j], step,
                                         group, cfg[G_LOOSE_PERCENT])
                    merged += _popcount4(met)
                    masks[j] &= ~met
        ev_first[i] = count
        for j in range(n):
            if masks[j] == 0:
                continue
            ev_line[count] = lines[j]
            ev_info[count] = masks[j] | (min(op, 2) << E_OP) | (mergeable << E_MERGE) | (slot << E_SLOT) | (step << E_STEP)
            count += 1
            if op == OP_LD:
                slot += 1
        ev_count[i] = count - ev_first[i]
    counters[K_L1_HIT] += hits
    counters[K_L1_MISS] += misses
    counters[K_WRITE_MERGED] += merged
    clock[0] = t
    return ev_line, ev_info


@njit(cache=True, inline="always")
def _same_sectors(memo, row):
    """Every lane in the same sector as remembered (inactive lanes, -1, stay -1)."""
    for lane in range(32):
        if memo[lane] != row[lane] >> SECTOR_SHIFT:
            return False
    return True


@njit(cache=True)
def _grown(a, size):
    b = np.empty(size, a.dtype)
    b[:len(a)] = a
    return b


@njit(cache=True, inline="always")
def _home_of(line, sides):
    """The partition a line lives in (its home: the memory controllers behind it), by a hash
    of the address independent of the set index."""
    if sides == 1:
        return 0
    return ((line * 0x9E3779B97F4A7C15) >> 45) % sides


@njit(cache=True, inline="always")
def _l2_way(tags, st, line, ways):
    for way in range(ways):
        if tags[st, way] == line:
            return way
    return -1


@njit(cache=True, inline="always")
def _copy_near(tags, state, writer, st, line, mask, ways, policy, t, counters, by_pc):
    """A read served by the line's home partition leaves a clean copy of its sectors in the
    reading side's partition (the next read from that side hits there)."""
    w = _l2_way(tags, st, line, ways)
    if w < 0:
        w = _l2_allocate(tags, state, writer, st, line, ways, policy, t, counters, by_pc)
        writer[st, w] = NO_WRITER
    old = state[st, w]
    state[st, w] = (t << USE_SHIFT) | (old & ((1 << USE_SHIFT) - 1)) | mask


@njit(cache=True, inline="always")
def _room_for_dirty(tags, state, writer, st, ways, limit, counters, by_pc):
    """Before a clean or new line of set st turns dirty: when `limit` of its ways already hold
    dirty lines, the least recently used of them is written back (and stays, clean)."""
    dirty, oldest = 0, -1
    for w in range(ways):
        if tags[st, w] >= 0 and (state[st, w] >> DIRTY) & 15:
            dirty += 1
            if oldest < 0 or state[st, w] < state[st, oldest]:
                oldest = w
    if dirty < limit:
        return
    _write_back(state, writer, st, oldest, counters, by_pc)
    state[st, oldest] &= ~(15 << DIRTY)


@njit(cache=True, nogil=True)
def l2_pass(order, ev_line, ev_info, ev_first, ev_count, time_base, l2_tags, l2_state, writer, episodes,
            merge_curve, domain_of, side_of, pc_of, cfg, counters, by_pc):
    """Second pass: the L1's requests to L2 in time order (`order`: the accesses by time).
    writer[set, way]: the pc (pc_of) of the last store or atomic to each line; by_pc[pc]: the
    dirty sectors of that pc's lines written back to DRAM during the launch. With several
    sides (G_L2_SIDES), rows side * sets + set hold each partition's sets; side_of[i] is the
    partition next to access i's SM: reads look there first, then in the line's home, which
    fills from DRAM and holds the line's writes (a hit in either is an L2 hit: ncu's
    lookup_hit counts both, as prereg7's quantize_q8_0 shows)."""
    l2_sets, l2_ways = cfg[G_L2_SETS], cfg[G_L2_WAYS]
    fetch, window = cfg[G_FETCH_SECTORS], cfg[G_MERGE_WINDOW]
    step_window = cfg[G_MERGE_STEPS]
    policy, sides, dirty_ways = cfg[G_L2_POLICY], cfg[G_L2_SIDES], cfg[G_L2_DIRTY_WAYS]
    sets = np.empty(32, np.int64)
    touched = 0
    for idx in range(len(order)):
        i = order[idx]
        t = time_base + idx     # the access's place in time (also its id)
        first = ev_first[i]
        # the sets' addresses first, read once: their host-memory latencies then overlap
        for e in range(first, first + ev_count[i]):
            sets[e - first] = _set_of(ev_line[e], l2_sets)
            home = _home_of(ev_line[e], sides) * l2_sets + sets[e - first]
            touched += (l2_tags[home, 0] + l2_state[home, 0]) & 1
        near = side_of[i] * l2_sets
        for e in range(first, first + ev_count[i]):
            line, info = ev_line[e], ev_info[e]
            mask, op = info & 15, (info >> E_OP) & 3
            st = _home_of(line, sides) * l2_sets + sets[e - first]
            if op == OP_LD:
                step, slot = info >> E_STEP, (info >> E_SLOT) & 0xFFFFFF
                mergeable = (info >> E_MERGE) & 1
                if mergeable and _read_merged(episodes, line * 64 + domain_of[i], mask, step, slot, window,
                                              merge_curve, step_window):
                    counters[K_READ_MERGED] += 1
                    continue
                sn = near + sets[e - first]
                if sn != st:
                    wn = _l2_way(l2_tags, sn, line, l2_ways)
                    if wn >= 0 and (l2_state[sn, wn] & mask) == mask:
                        _l2_read(l2_state, sn, wn, mask, step, t, t, fetch, counters)
                        continue
                w = _l2_way(l2_tags, st, line, l2_ways)
                if w < 0:
                    w = _l2_allocate(l2_tags, l2_state, writer, st, line, l2_ways, policy, t, counters, by_pc)
                _l2_read(l2_state, st, w, mask, step, t, t, fetch, counters)
                if sn != st:
                    _copy_near(l2_tags, l2_state, writer, sn, line, mask, l2_ways, policy, t, counters, by_pc)
                continue
            w = _l2_way(l2_tags, st, line, l2_ways)
            if dirty_ways and (w < 0 or ((l2_state[st, w] >> DIRTY) & 15) == 0):
                _room_for_dirty(l2_tags, l2_state, writer, st, l2_ways, dirty_ways, counters, by_pc)
            if w < 0:
                w = _l2_allocate(l2_tags, l2_state, writer, st, line, l2_ways, policy, t, counters, by_pc)
            old = l2_state[st, w]
            flags = old & ((1 << FLAG_BITS) - 1)
            if op == OP_ST:
                counters[K_L2_WRITE] += _popcount4(mask)
            else:   # atomics are resolved in L2: missing groups are fetched, results are dirty
                counters[K_ATOMIC] += _popcount4(mask)
                fetched = _fetch_groups(mask & ~flags & 15, flags & 15, fetch)
                counters[K_DRAM_READ] += _popcount4(fetched)
                flags |= fetched
            keep = old & (((1 << USE_SHIFT) - 1) ^ ((1 << FLAG_BITS) - 1))   # the last fill's marks
            l2_state[st, w] = (t << USE_SHIFT) | keep | flags | mask | (mask << DIRTY)
            writer[st, w] = pc_of[i]
    return touched
