"""L1, L2 and DRAM traffic of one launch, from the stream of its global warp accesses.

    model = CacheModel("H100", threads_per_block=256, flow=ProgramFlow.of(code_flow), blocks=n)
    model.consume(accesses)      # memsim.stream.WarpAccesses, whole blocks in launch order
    model.result()               # TrafficEstimate: ncu's names (memsim.prediction runs a launch so)

The model (docs/caches.md has the evidence behind each choice):

- Blocks go to SMs and their warps interleave as memsim.model.scheduling describes; every access
  carries (SM, step). A first pass, SM by SM, runs the L1s; a second, in time order over all
  SMs, runs the L2 on what the L1s sent on.
- **L1**, one per SM: 128-byte lines of four 32-byte sectors, set associative with LRU,
  capacity = the unified L1/shared array minus the shared-memory carveout. Global loads look up
  each sector (hit or miss, ncu's lookup counters) and fill only the sectors they missed; a
  sector already requested by an earlier warp counts as a hit even while its data is in flight.
  Stores write through without allocating. Stores of warps in lock step (same step, same block
  after a barrier or before any wait on a load) to one sector leave the L1 as one write.
- **L2**, one for the GPU: 128-byte lines, 32-byte sectors, write-back, write-allocate without
  fetching (byte masks), cold at the start (ncu flushes it); distinct data fills one partition's
  share of it (a line read from the far partition is cached in both). A read miss fetches the
  aligned 64-byte pair of sectors from DRAM; the other sector then hits. Evicting a dirty line
  writes its dirty sectors to DRAM; dirty lines left at the end are not counted (ncu's flush
  comes later). Identical read requests that SMs send at the same moment share L2 lookups
  (measured: benchmarks/cache_probe).
- Atomics and reductions are served by L2 (a miss fetches from DRAM) but are neither L1 lookups
  nor L2 read/write sectors of the tex unit in ncu's counters.
"""
from __future__ import annotations

from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
from numba import njit
from pydantic import BaseModel, ConfigDict, Field

from .. import metrics as m
from ..stream import OP_LD, OP_ST, SP_GLOBAL, WarpAccesses
from .scheduling import BlockPlacer, OccupancyLimits, ProgramFlow, occupancy, warp_history

SECTOR_SHIFT, LINE_SHIFT = 5, 7

# counters[...] of the Numba pass
K_L1_HIT, K_L1_MISS, K_L2_READ, K_L2_WRITE, K_L2_READ_HIT, K_DRAM_READ, K_DRAM_WRITE, \
    K_READ_MERGED, K_WRITE_MERGED, K_ATOMIC = range(10)
N_COUNTERS = 10

# cfg[...] of the Numba pass
G_L1_SETS, G_L1_WAYS, G_L2_SETS, G_L2_WAYS, G_L1_LOADS, G_FETCH_SECTORS, G_READ_MERGE, \
    G_STORE_MERGE, G_MERGE_WINDOW, G_MERGE_MIN_LINES, G_LOOSE_PERCENT, G_MERGE_STEPS = range(12)
N_CFG = 12

NO_GROUP, ANY_SM = -2, -1     # lock-step groups (l1_pass's group_of); LOOSE - block: loosely
LOOSE = -3                    # in step with its block
EPISODES = 2                  # merge episodes remembered per L2 line
NO_EPISODE = -(1 << 40)       # the step of an empty episode: no step is near it


# ---------------------------------------------------------------------------------------------
# The pass over the accesses (Numba). State is kept per 128-byte line with one bit per sector;
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
def _l2_allocate(tags, state, st, line, ways, counters):
    """Way for `line` in set st, evicting the LRU line (its dirty sectors go to DRAM)."""
    way = 0
    for w in range(1, ways):
        if state[st, w] < state[st, way]:
            way = w
    counters[K_DRAM_WRITE] += _popcount4((state[st, way] >> DIRTY) & 15)
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
    requests the L2 request coalescer passes on only merge_curve[n] (benchmarks/cache_probe).
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
def l1_pass(order, sm_of, step_of, group_of, op_of, warp_of, addresses, more_addresses, l1,
            merge_tag, merge_key, merge_mask, ev_line, ev_info, ev_first, ev_count, cfg, counters,
            clock):
    """First pass, SM by SM (`order`: by SM, then time): L1 lookups of loads, stores merged in
    the L1, and what goes on to L2, per line, into the ev_* arrays (grown and returned when
    too small). `group_of`: NO_GROUP or the lock-step group whose same-step accesses merge
    (ANY_SM: every SM's first wave). warp_of: the warp's number on its SM (block slot * 32 +
    warp): a load of exactly the sectors the warp's previous load read, with no L1 fill on the
    SM since, hits everywhere (a loop re-reading its sectors costs no lookups). Lane addresses
    of access i: addresses[i], continued by more_addresses (two trace parts need no copy)."""
    lines = np.empty(32, np.int64)
    masks = np.empty(128, np.int64)
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
        if (op == OP_LD and l1_loads and memo_total[me] >= 0 and memo_epoch[me] == epoch
                and _same_sectors(memo_sectors[me], row)):
            hits += memo_total[me]
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
        elif op == OP_ST and group != NO_GROUP and cfg[G_STORE_MERGE] != 0:
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


@njit(cache=True, nogil=True)
def l2_pass(order, ev_line, ev_info, ev_first, ev_count, time_base, l2_tags, l2_state, episodes,
            merge_curve, domain_of, cfg, counters):
    """Second pass: the L1's requests to L2 in time order (`order`: the accesses by time)."""
    l2_sets, l2_ways = cfg[G_L2_SETS], cfg[G_L2_WAYS]
    fetch, window = cfg[G_FETCH_SECTORS], cfg[G_MERGE_WINDOW]
    step_window = cfg[G_MERGE_STEPS]
    sets = np.empty(32, np.int64)
    touched = 0
    for idx in range(len(order)):
        i = order[idx]
        t = time_base + idx     # the access's place in time (also its id)
        first = ev_first[i]
        # the sets' addresses first, read once: their host-memory latencies then overlap
        for e in range(first, first + ev_count[i]):
            sets[e - first] = _set_of(ev_line[e], l2_sets)
            touched += (l2_tags[sets[e - first], 0] + l2_state[sets[e - first], 0]) & 1
        for e in range(first, first + ev_count[i]):
            line, info = ev_line[e], ev_info[e]
            mask, op = info & 15, (info >> E_OP) & 3
            st, w = sets[e - first], -1
            for way in range(l2_ways):
                if l2_tags[st, way] == line:
                    w = way
                    break
            if op == OP_LD:
                step, slot = info >> E_STEP, (info >> E_SLOT) & 0xFFFFFF
                mergeable = (info >> E_MERGE) & 1
                if mergeable and _read_merged(episodes, line * 64 + domain_of[i], mask, step, slot, window,
                                              merge_curve, step_window):
                    counters[K_READ_MERGED] += 1
                    continue
                if w < 0:
                    w = _l2_allocate(l2_tags, l2_state, st, line, l2_ways, counters)
                _l2_read(l2_state, st, w, mask, step, t, t, fetch, counters)
                continue
            if w < 0:
                w = _l2_allocate(l2_tags, l2_state, st, line, l2_ways, counters)
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
    return touched


# ---------------------------------------------------------------------------------------------
# What the model needs to know about the GPU, and what was fitted

class CacheGeometry(BaseModel):
    """Hardware numbers of the memory hierarchy, all read from a GpuProfile (for_gpu)."""

    gpu: str
    sm_count: int
    limits: OccupancyLimits
    l1_line_bytes: int
    sector_bytes: int
    l1_caches_global_loads: bool
    l2_request_coalescer: bool
    l2_bytes: int
    l2_partitions: int
    l2_line_bytes: int
    dram_fetch_bytes: int

    @classmethod
    def from_profile(cls, profile) -> "CacheGeometry":
        """From a memsim.model.gpu_profile.GpuProfile (the one place that knows its layout)."""
        occ, l1 = profile.occupancy, profile.l1
        limits = OccupancyLimits(
            max_threads_per_sm=occ.max_threads_per_sm, max_warps_per_sm=occ.max_warps_per_sm,
            max_blocks_per_sm=occ.max_blocks_per_sm, registers_per_sm=occ.registers_per_sm,
            register_allocation_unit=occ.register_allocation_unit,
            shared_per_sm_bytes=occ.shared_per_sm_bytes,
            shared_reserved_per_block_bytes=occ.shared_reserved_per_block_bytes,
            shared_allocation_unit=occ.shared_allocation_unit,
            l1_shared_per_sm_bytes=l1.l1_shared_per_sm_bytes, carveouts_kb=list(l1.carveouts_kb))
        return cls(gpu=profile.name, sm_count=profile.sm_count, limits=limits,
                   l1_line_bytes=l1.line_bytes, sector_bytes=l1.sector_bytes,
                   l1_caches_global_loads=l1.caches_global_loads, l2_bytes=profile.l2.size_bytes,
                   l2_request_coalescer=profile.l2.request_coalescer,
                   l2_partitions=profile.l2.partitions, l2_line_bytes=profile.l2.line_bytes,
                   dram_fetch_bytes=profile.dram.fetch_bytes)

    @classmethod
    def for_gpu(cls, gpu) -> "CacheGeometry":
        """`gpu`: a CacheGeometry, a GpuProfile or a GPU name known to memsim.model.gpu_profile."""
        if isinstance(gpu, CacheGeometry):
            return gpu
        if not isinstance(gpu, str):
            return cls.from_profile(gpu)
        from . import gpu_profile
        return cls.from_profile(gpu_profile.load(gpu))


class CacheTuning(BaseModel):
    """Model choices that are not datasheet numbers. The numbers are fitted to a GPU's
    recordings (docs/caches.md) and live in its profile (`fitted.cache_tuning`); the switches
    below them are the model's own options."""

    l1_ways: int
    l2_ways: int
    l2_capacity_scale: float = Field(description="distinct data the L2 holds, in units of one "
                                                      "partition's share (lines are duplicated "
                                                      "across partitions)")
    dram_read_overhead_bytes: int = Field(description="code, parameters and constants each launch fetches")
    window_requests: int = Field(1 << 18, description="warp accesses ordered together at most")
    background: bool = Field(True, description="model windows on a thread while the emulator goes on")
    merge_reads: bool = True
    merge_stores: bool = True
    merge_after_barrier: bool = True
    merge_one_wave_stores: bool = True
    loose_merge_percent: int = Field(description="after loads, in a one-wave grid: how often a "
                                                     "block's warps still store together")
    merge_min_lines: int = Field(description="lines a read request must miss in L1 to merge across SMs")
    read_merge_window: int = Field(description="places in the L1 miss streams of two SMs within "
                                                     "which identical requests still arrive together")
    merge_poison: bool = Field(True, description="no merging on a line that the SMs of one domain read "
                                                "with different sector masks in one step")
    read_merge_steps: int = Field(description="steps apart at which reads of two SMs still merge "
                                                 "(the coalescer's window is ~300 cycles)")
    gpc_domains: bool = Field(True, description="reads merge only within a GPC (the L2 request "
                                                "coalescer's domain), placed as the H100 places blocks")
    read_merge_points: list[tuple[int, float]] = Field(
        description="(SMs of one domain reading one sector together, L2 lookups): benchmarks/cache_probe "
                    "k_bcast, whose blocks the H100 spreads over the GPCs as coalescing_domains says")

    @classmethod
    def for_gpu(cls, gpu) -> "CacheTuning":
        """The fitted numbers `gpu`'s profile holds: a GPU name, a GpuProfile or a CacheGeometry."""
        from . import gpu_profile
        if isinstance(gpu, CacheGeometry):
            gpu = gpu.gpu
        profile = gpu_profile.load(gpu) if isinstance(gpu, str) else gpu
        return cls(**profile.fitted.cache_tuning)


def unmerge_mixed_lines(ev_line: np.ndarray, ev_info: np.ndarray, counts: np.ndarray, order: np.ndarray,
                        sm_of: np.ndarray, domain_of: np.ndarray) -> None:
    """Clear the mergeable mark of reads of a line that the SMs of one coalescing domain read with
    different sector masks in the same step: the H100's coalescer merges none of them
    (copy2d_col_64x4: pairs of SMs read four different sectors of one line at once, and almost
    none merge; benchmarks/cache_probe/lrc_probe.cu k_all_pairs merges every pair whose lines
    no other SM reads, and fuzz_s0_0013's SMs, which all read the same sectors, merge).
    Events are in l1_pass order: `order` lists the accesses so, `counts` their events."""
    total = int(counts.sum())
    info = ev_info[:total]
    mergeable = np.flatnonzero((info >> E_MERGE) & 1)
    if len(mergeable) < 2:
        return
    access = np.repeat(order, counts)[mergeable]
    sm, domain = sm_of[access], domain_of[access]
    line, step, mask = ev_line[mergeable], info[mergeable] >> E_STEP, info[mergeable] & 15
    keys = np.lexsort((sm, step, domain, line))
    k = (line[keys], domain[keys], step[keys])
    same_read = np.r_[False, (k[0][1:] == k[0][:-1]) & (k[1][1:] == k[1][:-1]) & (k[2][1:] == k[2][:-1])]
    same_sm = same_read & np.r_[False, sm[keys][1:] == sm[keys][:-1]]
    # each SM's sectors of the line in this step, then how many different such sets the line sees
    sm_start = np.flatnonzero(~same_sm)
    sm_masks = np.bitwise_or.reduceat(mask[keys], sm_start)
    read_of_sm = np.cumsum(~same_read[sm_start]) - 1
    differs = np.r_[False, (read_of_sm[1:] == read_of_sm[:-1]) & (sm_masks[1:] != sm_masks[:-1])]
    mixed_reads = np.zeros(read_of_sm[-1] + 1, bool)
    mixed_reads[read_of_sm[differs]] = True
    read_of_event = np.cumsum(~same_read) - 1
    mixed = mergeable[keys[mixed_reads[read_of_event]]]
    ev_info[mixed] &= ~(1 << E_MERGE)


def coalescing_domains(sm_count: int, blocks: int, gpcs: int = 8, lead: int = 8, lead_tpcs: int = 4,
                       tpcs: int = 8) -> np.ndarray:
    """The GPC (the L2 request coalescer's domain) of each SM, numbered as the first wave's blocks
    are placed. Measured on the H100 (benchmarks/cache_probe/lrc_probe.py): the first `lead`
    blocks fill 4 TPCs of GPC 0; a grid of fewer blocks than SMs then spreads the rest over the
    GPCs, one SM per TPC, a near-equal share each (GPC 0 has `lead_tpcs` TPCs left), GPC by GPC;
    a full grid fills GPC after GPC, 16 SMs each."""
    first = min(blocks, sm_count)
    if first >= sm_count - sm_count % (2 * tpcs):
        return np.minimum(np.arange(sm_count) // (2 * tpcs), gpcs - 1).astype(np.int64)
    share = -(-(first - lead) // gpcs) if first > lead else 0
    take = [min(share, lead_tpcs)] + [min(share, tpcs)] * (gpcs - 1)
    extra, g = max(first - lead - sum(take), 0), 1
    while extra > 0:
        take[g] += 1
        extra, g = extra - 1, g % (gpcs - 1) + 1
    domains = np.full(sm_count, gpcs - 1, np.int64)
    domains[:lead] = 0
    start = lead
    for gpc, n in enumerate(take):
        domains[start:start + n] = gpc
        start += n
    return domains


def merge_curve(sm_count: int, points: list[tuple[int, float]]) -> np.ndarray:
    """merge_curve[n]: L2 lookups when n SMs read one sector together (interpolated, rounded)."""
    xs, ys = zip(*points)
    n = np.arange(sm_count + 2)
    curve = np.rint(np.interp(n, xs, ys)).astype(np.int64)
    curve[0] = 0
    return np.maximum(curve, np.minimum(n, 1))


class TrafficEstimate(BaseModel):
    """Modeled cache and DRAM counters of one launch, under ncu's names (`metrics()`)."""

    model_config = ConfigDict(populate_by_name=True)

    l1_hit_sectors: int = Field(0, alias=m.L1_HIT)
    l1_miss_sectors: int = Field(0, alias=m.L1_MISS)
    l2_read_sectors: int = Field(0, alias=m.L2_READ)
    l2_write_sectors: int = Field(0, alias=m.L2_WRITE)
    l2_read_hit_sectors: int = Field(0, alias=m.L2_READ_HIT)
    dram_read_bytes: int = Field(0, alias=m.DRAM_READ)
    dram_write_bytes: int = Field(0, alias=m.DRAM_WRITE)

    def metrics(self) -> dict[str, int]:
        return self.model_dump(by_alias=True)


# ---------------------------------------------------------------------------------------------
# The streaming consumer

class CacheModel:
    """Feed it a launch's global warp accesses in block order (`consume`, as memsim.engine.trace
    streams them), then read the modeled counters (`result`)."""

    def __init__(self, profile="H100", *, threads_per_block: int, registers_per_thread: int = 32,
                 shared_per_block: int = 0, flow: ProgramFlow | None = None,
                 blocks: int | None = None, tuning: CacheTuning | None = None):
        self.geometry = CacheGeometry.for_gpu(profile)
        self.tuning = tuning or CacheTuning.for_gpu(profile)
        g, t = self.geometry, self.tuning
        self.occupancy = occupancy(threads_per_block, registers_per_thread, shared_per_block, g.limits)
        self.placer = BlockPlacer(g.sm_count, self.occupancy.blocks_per_sm)
        self.wave_blocks = g.sm_count * self.occupancy.blocks_per_sm
        self.one_wave = blocks is not None and blocks <= self.wave_blocks
        self.cfg = _numba_config(g, t, self.occupancy.l1_bytes)
        self.state = _CacheState.cold(g, t, self.cfg)
        self.merge_curve = merge_curve(g.sm_count, t.read_merge_points)
        self.domains = (coalescing_domains(g.sm_count, blocks or g.sm_count) if t.gpc_domains
                        else np.zeros(g.sm_count, np.int64))
        self.pending: list[WarpAccesses] = []
        self.pending_rows = 0
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cache-model")
        self.in_progress: deque[Future] = deque()
        self.next_block = 0
        self.flow = flow or ProgramFlow.empty()

    def consume(self, accesses: WarpAccesses) -> None:
        """Take the next whole blocks' accesses (any spaces; only global ones are modeled).
        Windows are modeled on a worker thread while the emulator goes on."""
        glob = accesses.space == SP_GLOBAL
        if not glob.all():
            accesses = WarpAccesses(*(getattr(accesses, f)[glob] for f in _FIELDS))
        if len(accesses) == 0:
            return
        self.pending.append(accesses)
        self.pending_rows += len(accesses)
        first_pending = self.pending[0].block[0]
        if (accesses.block[-1] - first_pending + 1 >= self.wave_blocks
                or self.pending_rows >= self.tuning.window_requests):
            self._submit()

    def result(self) -> TrafficEstimate:
        """The modeled counters, once every access has been consumed."""
        self._submit()
        self.close()
        c = self.state.counters
        sector = self.geometry.sector_bytes
        return TrafficEstimate(
            l1_hit_sectors=c[K_L1_HIT], l1_miss_sectors=c[K_L1_MISS], l2_read_sectors=c[K_L2_READ],
            l2_write_sectors=c[K_L2_WRITE], l2_read_hit_sectors=c[K_L2_READ_HIT],
            dram_read_bytes=c[K_DRAM_READ] * sector + self.tuning.dram_read_overhead_bytes,
            dram_write_bytes=c[K_DRAM_WRITE] * sector)

    def close(self) -> None:
        """Wait for the windows in progress (raising what they raised) and stop the worker."""
        try:
            while self.in_progress:
                self.in_progress.popleft().result()
        finally:
            self.worker.shutdown(wait=True, cancel_futures=True)

    def _submit(self) -> None:
        if not self.pending:
            return
        if not self.tuning.background:
            self._model(self.pending)
        else:
            if len(self.in_progress) >= 2:       # keep at most a few windows of trace in memory
                self.in_progress.popleft().result()
            self.in_progress.append(self.worker.submit(self._model, self.pending))
        self.pending, self.pending_rows = [], 0

    def _model(self, parts: list[WarpAccesses]) -> None:
        """Order one window of whole blocks in time and run it through the caches."""
        acc = WarpAccesses(*(np.concatenate([getattr(p, f) for p in parts]) for f in _FIELDS[:-1]),
                           addresses=np.zeros((0, 32), np.int64))
        sm, slot, step, group, by_time, by_sm = self._schedule(acc)
        if len(parts) <= 2:
            addresses, more = parts[0].addresses, parts[-1].addresses if len(parts) == 2 else _NO_ROWS
        else:
            addresses, more = np.concatenate([p.addresses for p in parts]), _NO_ROWS
        first, count = np.empty(len(acc), np.int64), np.empty(len(acc), np.int64)
        st = self.state
        time_base = int(st.clock[0])
        st.events = l1_pass(by_sm, sm, step, group, acc.op, slot * 32 + acc.warp, addresses, more,
                            st.l1, *st.store_merge, *st.events, first, count, self.cfg, st.counters,
                            st.clock)
        domain = self.domains[sm]
        if self.tuning.merge_poison:
            unmerge_mixed_lines(*st.events, count[by_sm], by_sm, sm, domain)
        l2_pass(by_time, *st.events, first, count, time_base, *st.l2, self.merge_curve, domain, self.cfg,
                st.counters)

    def _schedule(self, acc: WarpAccesses) -> tuple[np.ndarray, ...]:
        """(SM, step and lock-step group of each access; the accesses' order in time, and in
        time SM by SM) for whole blocks in launch order."""
        history = warp_history(acc.block, acc.warp, acc.pc, acc.op == OP_LD, self.flow)
        steps = history.step
        last_block = int(acc.block[-1])
        lengths = np.zeros(last_block + 1 - self.next_block, np.int64)
        np.maximum.at(lengths, acc.block - self.next_block, steps + 1)
        sm_of, slot_of, start_of = self.placer.place(lengths)
        local = acc.block - self.next_block
        self.next_block = last_block + 1
        sm, time, first_wave = sm_of[local], start_of[local] + steps, start_of[local] == 0
        resynced = history.resynced if self.tuning.merge_after_barrier else np.zeros(len(steps), np.bool_)
        loose = np.zeros(len(steps), np.bool_)
        if self.one_wave and self.tuning.merge_one_wave_stores:
            # a grid of one wave leaves the memory system idle enough that load latencies vary
            # little: a block's warps often still store together after their loads
            loose = history.stalled & ~resynced & (acc.op == OP_ST)
        group = lock_step_groups(acc.block, first_wave, history.stalled, resynced)
        group[loose] = LOOSE - acc.block[loose]
        # same step: SM by SM, and within an SM block slot by slot, warp by warp (round robin)
        slot = slot_of[local]
        by_time = np.lexsort((acc.warp, slot, sm, time))
        by_sm = np.lexsort((acc.warp, slot, time, sm))
        return sm, slot, time, group, by_time, by_sm


def _numba_config(g: CacheGeometry, t: CacheTuning, l1_bytes: int) -> np.ndarray:
    """The cfg array the Numba passes read (G_* positions)."""
    cfg = np.zeros(N_CFG, np.int64)
    l1_lines = max(l1_bytes // g.l1_line_bytes, t.l1_ways)
    l2_lines = int(g.l2_bytes / g.l2_partitions * t.l2_capacity_scale) // g.l2_line_bytes
    cfg[G_L1_SETS], cfg[G_L1_WAYS] = l1_lines // t.l1_ways, t.l1_ways
    cfg[G_L2_SETS], cfg[G_L2_WAYS] = max(l2_lines // t.l2_ways, 1), t.l2_ways
    cfg[G_L1_LOADS] = int(g.l1_caches_global_loads)
    cfg[G_FETCH_SECTORS] = max(g.dram_fetch_bytes // g.sector_bytes, 1)
    cfg[G_READ_MERGE], cfg[G_STORE_MERGE] = int(t.merge_reads and g.l2_request_coalescer), int(t.merge_stores)
    cfg[G_MERGE_WINDOW], cfg[G_MERGE_MIN_LINES] = t.read_merge_window, t.merge_min_lines
    cfg[G_LOOSE_PERCENT] = t.loose_merge_percent
    cfg[G_MERGE_STEPS] = t.read_merge_steps
    return cfg


@dataclass
class _CacheState:
    """Everything the passes carry from one window to the next."""

    l1: np.ndarray                              # [sm, set, 2 * way]: tag, last use << 4 | sectors
    store_merge: tuple[np.ndarray, ...]         # [sm, slot]: line, step/group key, sectors stored
    l2: tuple[np.ndarray, ...]                  # tags, state, merge episodes (see above)
    events: tuple[np.ndarray, np.ndarray]       # L1 -> L2 request buffers, reused
    counters: np.ndarray
    clock: np.ndarray

    @classmethod
    def cold(cls, g: CacheGeometry, t: CacheTuning, cfg: np.ndarray) -> "_CacheState":
        """Empty caches: ncu flushes them before every profiled launch."""
        l1 = np.zeros((g.sm_count, int(cfg[G_L1_SETS]), 2 * t.l1_ways), np.int64)
        l1[:, :, 0::2] = -1
        table = (g.sm_count, 256)
        shape2 = (int(cfg[G_L2_SETS]), t.l2_ways)
        lines = np.zeros(shape2 + (2,), np.int64)     # tag and state side by side: one host line
        lines[:, :, 0] = -1
        l2 = (lines[:, :, 0], lines[:, :, 1], np.full((EPISODE_LINES, 1 + 2 * EPISODES), -1, np.int64))
        return cls(l1=l1, store_merge=(np.full(table, -1, np.int64), np.full(table, -1, np.int64),
                                       np.zeros(table, np.int64)),
                   l2=l2, events=(np.empty(1 << 16, np.int64), np.empty(1 << 16, np.int64)),
                   counters=np.zeros(N_COUNTERS, np.int64), clock=np.zeros(1, np.int64))


def lock_step_groups(block: np.ndarray, first_wave: np.ndarray, stalled: np.ndarray,
                     resynced: np.ndarray) -> np.ndarray:
    """Which accesses run in lock step with which (docs/caches.md, merging).

    Warps start together: until one waits for a load's data, a block's warps, and in the first
    wave every SM's, issue in step (ANY_SM). Load latencies differ from warp to warp, so
    afterwards only a barrier brings a block's warps back into step (group = the block)."""
    group = np.full(len(block), NO_GROUP, np.int64)
    group[resynced] = block[resynced]
    fresh = ~stalled
    group[fresh] = np.where(first_wave[fresh], ANY_SM, block[fresh])
    return group


_FIELDS = ("block", "warp", "pc", "space", "op", "active", "addresses")
_NO_ROWS = np.zeros((0, 32), np.int64)
