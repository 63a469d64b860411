"""The cache model's first pass over one window of warp accesses (Numba), and the state's layout
both passes share.

l1_pass goes SM by SM (L1 lookups of loads, stores merged in the L1, what goes on to L2, per
line); memsim.model.cache.l2_pass then goes in time order over all SMs. State is kept per
128-byte line with one bit per sector; the rules and their evidence are memsim.model.cache's
docstring and docs/caches.md.
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
    G_L1_STORE_ALLOCATE, G_L2_SIDES, G_L2_DIRTY_WAYS, G_L2_PARTIAL, G_L2_PARTIAL_LINES, \
    G_WARP_MERGE_LINES = range(19)
N_CFG = 19

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
def _sector_words(mask):
    """Half bits (store_words' layout) of the sectors in `mask`."""
    halves = 0
    for s in range(4):
        if (mask >> s) & 1:
            halves |= 0xFFFF << (16 * s)
    return halves


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
def store_words(row, lines, n, width, words, sector_bytes):
    """words[j]: the 2-byte halves of line lines[j] (bit 16 s + q: half q of sector s; 64 bits a
    line) that one warp store writes whole, lane addresses `row`, `width` bytes a lane (0: not
    known, taken as the smallest gap between the lanes' distinct addresses when under 16 bytes,
    else 4). Halves, not words: half-precision stores of different warps complete a word
    between them. `sector_bytes`: 4 * 32 scratch slots, one byte mask per sector of each line."""
    if width <= 0:
        width, last = 16, -1
        for lane in range(32):
            a = row[lane]
            if a >= 0 and last >= 0 and a != last:
                width = min(width, abs(a - last))
            last = a if a >= 0 else last
        width = width if width < 16 else 4
    for j in range(n):
        words[j] = 0
    sector_bytes[:4 * n] = 0
    j = 0
    for lane in range(32):
        a = row[lane]
        if a < 0:
            continue
        if lines[j] != a >> LINE_SHIFT:
            j = 0
            while lines[j] != a >> LINE_SHIFT:
                j += 1
        at = a & 31
        w = min(width, 32 - at)
        sector_bytes[4 * j + ((a >> SECTOR_SHIFT) & 3)] |= ((1 << w) - 1) << at
    for k in range(4 * n):
        b = sector_bytes[k]
        for q in range(16):
            if (b >> (2 * q)) & 3 == 3:
                words[k >> 2] |= 1 << (16 * (k & 3) + q)


@njit(cache=True, inline="always")
def _merge_slot(line, size):
    """The store-merge table's slot of a line (a hash: a lost entry only misses a merge)."""
    return ((line * 0x9E3779B1) >> 9) & (size - 1)


@njit(cache=True)
def _stores_merged(merge_tag, merge_key, merge_mask, sm, line, mask, step, group, loose_percent):
    """Sectors of `mask` another warp of the same lock-step group stored to in the same step on
    this SM (the L1 sends one partial write for both); records the rest. Loosely in step
    (group <= LOOSE), two stores meet only in `loose_percent` of cases (chosen by a hash, so
    results repeat)."""
    h = _merge_slot(line, merge_tag.shape[1])
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


RECENT_STEPS = 256            # steps of one SM whose store lines l1_pass keeps count of


@njit(cache=True, inline="always")
def _warp_store_merged(written, sm, line, mask, number, previous, allocated, step, recent, min_lines):
    """Sectors of a store's `mask` that merge in L1 with its warp's previous store (`previous`,
    with no barrier between), which was the last to write this line (the table's owner), while
    the line stayed in L1 (not `allocated` now) and that store still waited in the L1: its step
    sent more than `min_lines` store lines from this SM (`recent`: [step, lines] by step modulo
    RECENT_STEPS; min_lines < 0: always). The sectors both wrote leave the L1 once; a store's
    other sectors are counted at once, as the L2 writes they become. Records this store as the
    line's last writer either way. `written`: (line, owner, sectors, event, step) per
    [sm, slot], hashed by line (a lost entry only counts a write again)."""
    tag, owner, sectors, at = written[0], written[1], written[2], written[4]
    h = _merge_slot(line, tag.shape[1])
    waited = True
    if min_lines >= 0:
        r = at[sm, h] & (RECENT_STEPS - 1)
        waited = recent[r, 0] == at[sm, h] and recent[r, 1] > min_lines
    if allocated or not waited or tag[sm, h] != line or owner[sm, h] != previous:
        tag[sm, h] = line
        owner[sm, h] = number
        sectors[sm, h] = mask
        written[3][sm, h] = -1
        at[sm, h] = step
        return 0
    kept = sectors[sm, h] & mask
    owner[sm, h] = number
    sectors[sm, h] |= mask
    at[sm, h] = step
    return kept


# Requests from the L1 pass to the L2 pass, one per line: ev_line, and ev_info = mask |
# op << 4 | mergeable << 6 | slot << 7 | step << 31; access i's are ev_first[i] ... + ev_count[i]
E_OP, E_MERGE, E_SLOT, E_STEP = 4, 6, 7, 31
MEMO_WARPS = 2048          # warps of one SM remembered by the L1 pass (a power of two)


@njit(cache=True, nogil=True)
def l1_pass(order, sm_of, step_of, group_of, op_of, local_of, number_of, previous_of, warp_of, width_of,
            addresses, more_addresses, l1, merge_tag, merge_key, merge_mask, merge_event, written,
            ev_line, ev_info, ev_words, ev_first, ev_count, cfg, counters, clock):
    """First pass, SM by SM (`order`: by SM, then time): L1 lookups of loads, stores merged in
    the L1, and what goes on to L2, per line, into the ev_* arrays (grown and returned when
    too small; ev_words: the halves a store event writes, store_words, where G_L2_PARTIAL asks).
    `group_of`: NO_GROUP or the lock-step group whose same-step accesses merge (ANY_SM: every
    SM's first wave); merge_event[sm, slot] is the event a merge-table entry's write went out
    in, which takes the halves of the stores that merge with it. local_of: 1 for a local
    access (looked up and filled like a global one, but not in the global hit and miss counts);
    number_of: a number unique to each store in a chain (0: in none); previous_of: the number of
    the store of its warp it may merge with, else -1 (`_warp_store_merged`; `written` its
    table). warp_of: the warp's number
    on its SM (block slot * 32 + warp): a load of exactly the sectors the warp's previous load
    read, with no L1 fill on the SM since, hits everywhere (a loop re-reading its sectors costs
    no lookups). width_of: bytes a lane of each access (0: not known). Lane addresses of access
    i: addresses[i], continued by more_addresses (two trace parts need no copy)."""
    lines = np.empty(32, np.int64)
    masks = np.empty(128, np.int64)
    full = np.empty(32, np.int64)
    words = np.zeros(32, np.int64)
    lane_counts = np.empty(128, np.int64)
    keys = np.empty(64, np.int64)
    stamps = np.zeros(64, np.int64)
    count = 0
    l1_sets, l1_ways = cfg[G_L1_SETS], cfg[G_L1_WAYS]
    l1_loads = cfg[G_L1_LOADS] != 0
    partial = cfg[G_L2_PARTIAL] != 0
    hits = misses = merged = 0
    slot_sm, slot_step, slot = -1, -1, 0
    memo_sectors = np.empty((MEMO_WARPS, 32), np.int64)  # per warp of the SM: its last load's
    memo_total = np.full(MEMO_WARPS, -1, np.int64)      # sectors lane by lane, their number,
    memo_epoch = np.zeros(MEMO_WARPS, np.int64)         # and the SM's fill count then
    epoch = 0                                           # L1 fills on this SM so far
    memo_sm = -1
    recent = np.full((RECENT_STEPS, 2), -1, np.int64)  # this SM's store lines by step
    t = clock[0]
    for idx in range(len(order)):
        i = order[idx]
        row = addresses[i] if i < len(addresses) else more_addresses[i - len(addresses)]
        op, sm, step, group = op_of[i], sm_of[i], step_of[i], group_of[i]
        t += 1
        if sm != memo_sm:
            memo_sm = sm
            memo_total[:] = -1
            recent[:, 0] = -1
        me = warp_of[i] & (MEMO_WARPS - 1)
        counted = local_of[i] == 0
        if (op == OP_LD and l1_loads and memo_total[me] >= 0 and memo_epoch[me] == epoch
                and _same_sectors(memo_sectors[me], row)):
            hits += memo_total[me] if counted else 0
            ev_first[i] = count
            ev_count[i] = 0
            continue
        n = request_lines(row, lines, masks, keys, stamps, idx + 1)
        if count + n > len(ev_line):
            size = 2 * len(ev_line) + n
            ev_line, ev_info, ev_words = _grown(ev_line, size), _grown(ev_info, size), _grown(ev_words, size)
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
            if partial:
                store_words(row, lines, n, width_of[i], words, lane_counts)
            allocated = 0       # bit j: line j was not in L1
            if l1_loads and cfg[G_L1_STORE_ALLOCATE] != 0:
                full_sectors(row, lines, n, full, lane_counts)
                if local_of[i] != 0:    # a thread's own local words: what it stored, it reads back from L1
                    for j in range(n):
                        full[j] = masks[j]
                for j in range(n):
                    if _l1_store(l1, sm, lines[j], full[j], l1_sets, l1_ways, t):
                        epoch += 1
                        allocated |= 1 << j
            min_lines = -1 if local_of[i] != 0 else cfg[G_WARP_MERGE_LINES]
            if number_of[i] == 0 and min_lines >= 0:      # in no chain: only no longer the last writer
                for j in range(n):
                    h = _merge_slot(lines[j], written[0].shape[1])
                    if written[0][sm, h] == lines[j]:
                        written[0][sm, h] = -1
            elif number_of[i] > 0 and (min_lines >= 0 or local_of[i] != 0):
                for j in range(n):
                    into = written[3][sm, _merge_slot(lines[j], written[3].shape[1])]
                    kept = _warp_store_merged(written, sm, lines[j], masks[j], number_of[i], previous_of[i],
                                              (allocated >> j) & 1, step, recent, min_lines)
                    merged += _popcount4(kept)
                    masks[j] &= ~kept
                    if kept and 0 <= into < count and ev_line[into] == lines[j]:
                        ev_words[into] |= words[j] & _sector_words(kept & ev_info[into])
            r = step & (RECENT_STEPS - 1)
            if recent[r, 0] != step:
                recent[r, 0], recent[r, 1] = step, 0
            recent[r, 1] += n
            if local_of[i] == 0 and group != NO_GROUP and n <= cfg[G_STORE_MERGE]:
                for j in range(n):
                    if masks[j] == 0:
                        continue
                    met = _stores_merged(merge_tag, merge_key, merge_mask, sm, lines[j], masks[j], step,
                                         group, cfg[G_LOOSE_PERCENT])
                    merged += _popcount4(met)
                    masks[j] &= ~met
                    into = merge_event[sm, _merge_slot(lines[j], merge_event.shape[1])]
                    if met and 0 <= into < count and ev_line[into] == lines[j]:
                        ev_words[into] |= words[j] & _sector_words(met)
        ev_first[i] = count
        for j in range(n):
            if masks[j] == 0:
                continue
            ev_line[count] = lines[j]
            ev_info[count] = masks[j] | (min(op, 2) << E_OP) | (mergeable << E_MERGE) | (slot << E_SLOT) | (step << E_STEP)
            ev_words[count] = words[j] if op == OP_ST and partial else 0
            if op == OP_ST and group != NO_GROUP:
                h = _merge_slot(lines[j], merge_tag.shape[1])
                if merge_tag[sm, h] == lines[j]:
                    merge_event[sm, h] = count
            if op == OP_ST and number_of[i] > 0:
                h = _merge_slot(lines[j], written[0].shape[1])
                if written[0][sm, h] == lines[j]:
                    written[3][sm, h] = count
            count += 1
            if op == OP_LD:
                slot += 1
        ev_count[i] = count - ev_first[i]
    counters[K_L1_HIT] += hits
    counters[K_L1_MISS] += misses
    counters[K_WRITE_MERGED] += merged
    clock[0] = t
    return ev_line, ev_info, ev_words


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
