"""The cache model's second pass (Numba): the L1s' requests to the L2 in time order over all
SMs: L2 hits and misses, DRAM fetches and dirty write-backs, and reads that identical requests
of other SMs merge with. The state's layout is memsim.model.cache.passes'; the rules and their
evidence are memsim.model.cache's docstring and docs/caches.md.

Partly written sectors (cfg G_L2_PARTIAL): DRAM takes whole 32-byte sectors, so the L2 must read
a sector before it can write back one whose every byte it does not hold. Each line keeps which of
its 2-byte halves stores wrote (`cover`: bit 16 s + q is half q of sector s; a sector that came
from DRAM is whole) and when it last became partly written (`since`). Writing back a dirty
sector with halves missing reads it first (a DRAM read as well as the write), as does a load or
atomic that needs it. And the L2 waits for the rest of a partly written line only so long: a
line still partly written once G_L2_PARTIAL_LINES others have become so since (a queue,
`partial_queue`) has those sectors read, merged and written back (gpu/cache_probe/
partial_write_probe.py: an int scatter over 16 MB, which the L2 holds, reads and writes 13-14
MiB of DRAM, one over 4 MB 0.6-1.2 MiB; over 64 MB every 4-byte write costs a 32-byte read and
write; sectors whole again within a few thousand lines, as a transpose's, cost nothing).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...stream import OP_LD, OP_ST
from .passes import (DIRTY, DEMAND, E_MERGE, E_OP, E_SLOT, E_STEP, EPISODES, FILLED, FLAG_BITS,
                     G_FETCH_SECTORS, G_L2_DIRTY_WAYS, G_L2_PARTIAL, G_L2_PARTIAL_LINES, G_L2_POLICY,
                     G_L2_SETS, G_L2_SIDES, G_L2_WAYS, G_MERGE_STEPS, G_MERGE_WINDOW, K_ATOMIC,
                     K_DRAM_READ, K_DRAM_WRITE, K_L2_READ, K_L2_READ_HIT, K_L2_WRITE, K_READ_MERGED,
                     NO_EPISODE, REQ_BITS, STEP_BITS, USE_SHIFT, _popcount4, _sector_words, _set_of)

SPARED = 1 << 40      # writer[set, way] flag: a dirty line already kept once past its turn
NO_WRITER = SPARED - 1  # writer of a line no instruction of the launch wrote
WHOLE = -1              # cover of a line all of whose halves are known (64 bits)


@njit(cache=True, inline="always")
def _unknown(flags, cover):
    """Dirty sectors (state flags) some of whose halves no store wrote (cover): DRAM holds the rest."""
    out = 0
    for s in range(4):
        if (flags >> (DIRTY + s)) & 1 and ((cover >> (16 * s)) & 0xFFFF) != 0xFFFF:
            out |= 1 << s
    return out


@njit(cache=True, inline="always")
def _count_written(writer, st, way, sectors, by_pc):
    if sectors and (writer[st, way] & (SPARED - 1)) != NO_WRITER:
        by_pc[writer[st, way] & (SPARED - 1)] += sectors


@njit(cache=True, inline="always")
def _write_back(state, writer, cover, st, way, counters, by_pc):
    """Count way's dirty sectors as written to DRAM (those with unknown halves read first), also
    for the instruction that last wrote them (writer[set, way], by_pc[pc]) unless no
    instruction of the launch did."""
    dirty = _popcount4((state[st, way] >> DIRTY) & 15)
    counters[K_DRAM_WRITE] += dirty
    counters[K_DRAM_READ] += _popcount4(_unknown(state[st, way], cover[st, way]))
    _count_written(writer, st, way, dirty, by_pc)


@njit(cache=True, inline="always")
def _l2_allocate(tags, state, writer, cover, st, line, ways, policy, now, counters, by_pc):
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
    _write_back(state, writer, cover, st, way, counters, by_pc)
    tags[st, way] = line
    state[st, way] = 0
    cover[st, way] = 0
    return way


@njit(cache=True, inline="always")
def _l2_read(state, st, w, mask, unknown, step, request, clock, fetch, counters):
    """Counted L2 reads of the `mask` sectors of line (st, w): hits, or misses that fetch each
    sector's aligned group (`fetch` sectors) from DRAM. The group's other sectors then hit,
    unless the same request asks for them; a sector another request fetched in this very step
    is still a miss (in flight). `unknown` sectors (partly written) are read from DRAM as
    misses are. Returns the sectors fetched."""
    counters[K_L2_READ] += _popcount4(mask)
    old = state[st, w]
    flags = old & ((1 << FLAG_BITS) - 1)
    valid = flags & 15 & ~unknown
    fresh = (flags >> FILLED) & 15 if ((old >> REQ_BITS) & 255) == _mark(request) else 0
    if ((old >> STEP_BITS) & 255) == _mark(step):
        fresh |= (flags >> DEMAND) & 15
    counters[K_L2_READ_HIT] += _popcount4(mask & valid & ~fresh)
    missing = mask & ~valid
    if missing == 0:
        state[st, w] = (clock << USE_SHIFT) | (old & ((1 << USE_SHIFT) - 1))
        return 0
    fetched = _fetch_groups(missing, valid, fetch)
    counters[K_DRAM_READ] += _popcount4(fetched)
    flags = (flags | fetched | (missing << DEMAND)) & ~(15 << FILLED)
    state[st, w] = ((clock << USE_SHIFT) | (_mark(step) << STEP_BITS) | (_mark(request) << REQ_BITS)
                    | flags | (fetched << FILLED))
    return fetched


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
def _copy_near(tags, state, writer, cover, st, line, mask, ways, policy, t, counters, by_pc):
    """A read served by the line's home partition leaves a clean copy of its sectors in the
    reading side's partition (the next read from that side hits there)."""
    w = _l2_way(tags, st, line, ways)
    if w < 0:
        w = _l2_allocate(tags, state, writer, cover, st, line, ways, policy, t, counters, by_pc)
        writer[st, w] = NO_WRITER
    old = state[st, w]
    state[st, w] = (t << USE_SHIFT) | (old & ((1 << USE_SHIFT) - 1)) | mask
    cover[st, w] |= _sector_words(mask)


@njit(cache=True, inline="always")
def _clean(state, writer, cover, st, way, sectors, counters, by_pc):
    """Write the dirty `sectors` of (st, way) back to DRAM, reading first those with unknown
    halves; the line stays, those sectors whole and clean."""
    n = _popcount4(sectors)
    counters[K_DRAM_READ] += _popcount4(_unknown(state[st, way], cover[st, way]) & sectors)
    counters[K_DRAM_WRITE] += n
    _count_written(writer, st, way, n, by_pc)
    cover[st, way] |= _sector_words(sectors)
    state[st, way] &= ~(sectors << DIRTY)


@njit(cache=True, inline="always")
def _room_for_dirty(tags, state, writer, cover, st, ways, limit, counters, by_pc):
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
    _clean(state, writer, cover, st, oldest, (state[st, oldest] >> DIRTY) & 15, counters, by_pc)


@njit(cache=True, inline="always")
def _queued_partial(tags, state, writer, cover, since, queue, head, line, st, w, ways, t, counters, by_pc):
    """Line (st, w) has just become partly written: it joins the queue of such lines (`queue`
    rows: line, set * ways + way, when; head[0]: the next row), and the line that joined as
    many partly written lines ago, if it has stayed partly written since, has those sectors read
    from DRAM, merged and written back (they stay, whole and clean)."""
    since[st, w] = t
    k = head[0]
    old_line, old_slot, old_when = queue[k, 0], queue[k, 1], queue[k, 2]
    queue[k, 0], queue[k, 1], queue[k, 2] = line, st * ways + w, t
    head[0] = (k + 1) % queue.shape[0]
    if old_slot < 0:
        return
    os_, ow = old_slot // ways, old_slot % ways
    if tags[os_, ow] != old_line or since[os_, ow] != old_when:
        return
    _clean(state, writer, cover, os_, ow, _unknown(state[os_, ow], cover[os_, ow]), counters, by_pc)


@njit(cache=True, inline="always")
def _count_partial(partial_by_pc, pc, mask, words):
    """Count a store request to one line: sectors of `mask` whose 16 halves `words` lacks."""
    part = 0
    for k in range(4):
        if (mask >> k) & 1 and ((words >> (16 * k)) & 0xFFFF) != 0xFFFF:
            part += 1
    if part:
        partial_by_pc[pc, 0] += 1
        partial_by_pc[pc, 1] += part


@njit(cache=True, nogil=True)
def l2_pass(order, ev_line, ev_info, ev_words, ev_first, ev_count, time_base, l2_tags, l2_state, writer, cover,
            since, partial_queue, queue_head, episodes, merge_curve, domain_of, side_of, pc_of, cfg, counters, by_pc,
            partial_by_pc):
    """Second pass: the L1's requests to L2 in time order (`order`: the accesses by time).
    writer[set, way]: the pc (pc_of) of the last store or atomic to each line; by_pc[pc]: the
    dirty sectors of that pc's lines written back to DRAM during the launch; cover[set, way]:
    the halves of each line known, since[set, way] when it last became partly written, and
    partial_queue the lines partly written (the module's docstring); ev_words the halves a
    store event wrote; partial_by_pc[pc]: that pc's store requests to a line with a sector
    written in part, and such sectors (the L2 takes them more slowly: memsim.timing).
    With several sides (G_L2_SIDES), rows side * sets + set hold each partition's sets;
    side_of[i] is the partition next to access i's SM: reads look there first, then in the
    line's home, which fills from DRAM and holds the line's writes (a hit in either is an L2
    hit: ncu's lookup_hit counts both, as prereg7's quantize_q8_0 shows)."""
    l2_sets, l2_ways = cfg[G_L2_SETS], cfg[G_L2_WAYS]
    fetch, window = cfg[G_FETCH_SECTORS], cfg[G_MERGE_WINDOW]
    step_window = cfg[G_MERGE_STEPS]
    policy, sides, dirty_ways = cfg[G_L2_POLICY], cfg[G_L2_SIDES], cfg[G_L2_DIRTY_WAYS]
    partial, wait_lines = cfg[G_L2_PARTIAL] != 0, cfg[G_L2_PARTIAL_LINES]
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
                        _l2_read(l2_state, sn, wn, mask, 0, step, t, t, fetch, counters)
                        continue
                w = _l2_way(l2_tags, st, line, l2_ways)
                if w < 0:
                    w = _l2_allocate(l2_tags, l2_state, writer, cover, st, line, l2_ways, policy, t, counters, by_pc)
                fetched = _l2_read(l2_state, st, w, mask, _unknown(l2_state[st, w], cover[st, w]), step, t, t,
                                   fetch, counters)
                cover[st, w] |= _sector_words(fetched)
                if sn != st:
                    _copy_near(l2_tags, l2_state, writer, cover, sn, line, mask, l2_ways, policy, t, counters, by_pc)
                continue
            w = _l2_way(l2_tags, st, line, l2_ways)
            if dirty_ways and (w < 0 or ((l2_state[st, w] >> DIRTY) & 15) == 0):
                _room_for_dirty(l2_tags, l2_state, writer, cover, st, l2_ways, dirty_ways, counters, by_pc)
            if w < 0:
                w = _l2_allocate(l2_tags, l2_state, writer, cover, st, line, l2_ways, policy, t, counters, by_pc)
            old = l2_state[st, w]
            flags = old & ((1 << FLAG_BITS) - 1)
            was_partial = _unknown(old, cover[st, w]) != 0
            if op == OP_ST:
                counters[K_L2_WRITE] += _popcount4(mask)
                cover[st, w] |= ev_words[e] if partial else WHOLE
                if partial:
                    _count_partial(partial_by_pc, pc_of[i], mask, ev_words[e])
            else:   # atomics are resolved in L2: missing groups are fetched, results are dirty
                counters[K_ATOMIC] += _popcount4(mask)
                known = flags & 15 & ~_unknown(old, cover[st, w])
                fetched = _fetch_groups(mask & ~known & 15, known, fetch)
                counters[K_DRAM_READ] += _popcount4(fetched)
                flags |= fetched
                cover[st, w] |= _sector_words(fetched)
            keep = old & (((1 << USE_SHIFT) - 1) ^ ((1 << FLAG_BITS) - 1))   # the last fill's marks
            l2_state[st, w] = (t << USE_SHIFT) | keep | flags | mask | (mask << DIRTY)
            writer[st, w] = pc_of[i]
            if wait_lines and not was_partial and _unknown(l2_state[st, w], cover[st, w]):
                _queued_partial(l2_tags, l2_state, writer, cover, since, partial_queue, queue_head, line, st, w,
                                l2_ways, t, counters, by_pc)
    return touched
