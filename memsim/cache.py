"""L1, L2 and DRAM traffic of one launch, from the stream of its global warp accesses.

    report = memsim.cache.simulate_with_caches(source, "k", grid, block, args, gpu="H100")
    report.metrics["lts__t_sectors_srcunit_tex_op_read.sum"]     # provenance MODELED

The model (docs/caches.md has the evidence behind each choice):

- Blocks go to SMs and their warps interleave as memsim.scheduling describes; every access
  carries (SM, step), and one pass in step order feeds each SM's L1 and the shared L2.
- **L1**, one per SM: 128-byte lines of four 32-byte sectors, set associative with LRU,
  capacity = the unified L1/shared array minus the shared-memory carveout. Global loads look up
  each sector (hit or miss, ncu's lookup counters) and fill only the sectors they missed; a
  sector already requested by an earlier warp counts as a hit even while its data is in flight.
  Stores write through without allocating (they update a sector already present).
- **L2**, one for the GPU: 128-byte lines, 32-byte sectors, write-back, write-allocate without
  fetching (byte masks), cold at the start (ncu flushes it). A read miss fetches the aligned
  64-byte pair of sectors from DRAM; the other sector then hits. Evicting a dirty line writes its
  dirty sectors to DRAM; dirty lines left at the end are not counted (ncu's flush comes later).
- Atomics and reductions are served by L2 (a miss fetches from DRAM) but are neither L1 lookups
  nor L2 read/write sectors of the tex unit in ncu's counters.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
from numba import njit
from pydantic import BaseModel, ConfigDict, Field

from . import metrics as m
from .compile import compile_cuda, load_source
from .errors import MemsimError
from .launch import LaunchSpec, Value, dims
from .ptx.opcodes import OP
from .ptx.parser import parse
from .ptx.program import F_OP, F_SPACE, F_TARGET, SP_GLOBAL, lower
from .report import KernelReport
from .scheduling import BlockPlacer, OccupancyLimits, occupancy, warp_history
from .trace import TraceRequest, WarpAccesses

SECTOR_SHIFT = 5

# counters[...] of the Numba pass
K_L1_HIT, K_L1_MISS, K_L2_READ, K_L2_WRITE, K_L2_READ_HIT, K_DRAM_READ, K_DRAM_WRITE, \
    K_READ_MERGED, K_WRITE_MERGED, K_ATOMIC = range(10)
N_COUNTERS = 10

# cfg[...] of the Numba pass
G_L1_SETS, G_L1_WAYS, G_L2_SETS, G_L2_WAYS, G_L1_LOADS, G_FETCH_SECTORS, G_READ_MERGE, \
    G_STORE_MERGE = range(8)
N_CFG = 8

OP_LD, OP_ST = 0, 1
NO_GROUP, ANY_SM = -2, -1     # lock-step groups (run_window's group_of)


# ---------------------------------------------------------------------------------------------
# The per-sector pass (Numba)

@njit(cache=True)
def unique_sectors(row, out, keys, stamps, stamp):
    """Distinct sectors of one warp access, in lane order of first appearance; -1 lanes skipped.
    `keys`/`stamps` (64 slots) form a hash set cleared by bumping `stamp`."""
    n = 0
    last = -1
    for lane in range(32):
        a = row[lane]
        if a < 0:
            continue
        s = a >> SECTOR_SHIFT
        if s == last:
            continue
        last = s
        h = ((s * 0x9E3779B1) >> 7) & 63
        while stamps[h] == stamp and keys[h] != s:
            h = (h + 1) & 63
        if stamps[h] == stamp:
            continue
        stamps[h] = stamp
        keys[h] = s
        out[n] = s
        n += 1
    return n


@njit(cache=True)
def _set_of(line, sets):
    # multiplicative hashing, like the GPU's hashed set index: strides of a power of two spread
    return (((line * 0x5851F42D4C957F2D) >> 33) & 0x3FFFFFFF) % sets


@njit(cache=True)
def _l1_load(l1, sm, s, sets, ways, clock):
    """True on a hit; on a miss the sector is filled (allocating the line if needed). A sector
    another warp already missed on counts as a hit while its data is still in flight."""
    tag, mask, use = l1
    line = s >> 2
    bit = np.uint8(1 << (s & 3))
    st = (line ^ (line >> 11)) % sets
    victim = 0
    oldest = use[sm, st, 0]
    for w in range(ways):
        if tag[sm, st, w] == line:
            use[sm, st, w] = clock
            if mask[sm, st, w] & bit:
                return True
            mask[sm, st, w] |= bit
            return False
        if use[sm, st, w] < oldest:
            oldest = use[sm, st, w]
            victim = w
    tag[sm, st, victim] = line
    mask[sm, st, victim] = bit
    use[sm, st, victim] = clock
    return False


@njit(cache=True)
def _store_merged(merge_tag, merge_step, sm, s, step, group):
    """True when a store of sector s at `step` on this SM joins one that another warp of the
    same lock-step group made in the same step (the L1 sends one partial write for both);
    records the store otherwise."""
    h = ((s * 0x9E3779B1) >> 9) & (merge_tag.shape[1] - 1)
    key = step * 4194304 + group
    if merge_tag[sm, h] == s and merge_step[sm, h] == key:
        return True
    merge_tag[sm, h] = s
    merge_step[sm, h] = key
    return False


@njit(cache=True)
def _l2_lookup(l2, s, sets, ways):
    """(set, way) of the line holding sector s, way -1 when absent."""
    tag = l2[0]
    line = s >> 2
    st = _set_of(line, sets)
    for w in range(ways):
        if tag[st, w] == line:
            return st, w
    return st, -1


@njit(cache=True)
def _l2_find(l2, s, sets, ways, clock, counters):
    """(set, way) of the line holding sector s, allocating it (evicting the LRU line, whose
    dirty sectors go to DRAM) when absent."""
    tag, valid, dirty, use, demand, req_step, req_n, req_counted, fill_step, fill_req = l2
    st, way = _l2_lookup(l2, s, sets, ways)
    if way >= 0:
        use[st, way] = clock
        return st, way
    victim = 0
    oldest = use[st, 0]
    for w in range(1, ways):
        if use[st, w] < oldest:
            oldest = use[st, w]
            victim = w
    d = dirty[st, victim]
    counters[K_DRAM_WRITE] += (d & 1) + ((d >> 1) & 1) + ((d >> 2) & 1) + ((d >> 3) & 1)
    tag[st, victim] = s >> 2
    valid[st, victim] = 0
    dirty[st, victim] = 0
    demand[st, victim] = 0
    use[st, victim] = clock
    for k in range(4):
        req_step[st, victim, k] = -1
    return st, victim


@njit(cache=True)
def _read_merged(l2, s, step, sets, ways, merge_curve):
    """True when this read joins others SMs sent for the same sector in the same step: of n
    such requests the L2 looks up only merge_curve[n] (measured: identical requests that
    arrive together are served by one lookup)."""
    st, w = _l2_lookup(l2, s, sets, ways)
    req_step, req_n, req_counted = l2[5], l2[6], l2[7]
    k = s & 3
    if w < 0 or req_step[st, w, k] != step:
        return False
    n = min(req_n[st, w, k] + 1, len(merge_curve) - 1)
    req_n[st, w, k] = n
    if merge_curve[n] <= req_counted[st, w, k]:
        return True
    req_counted[st, w, k] += 1
    return False


@njit(cache=True)
def _l2_read(l2, s, step, request, cfg, clock, counters):
    """A counted L2 read: hit, or miss with a DRAM fetch of the sector's aligned group. The
    group's other sectors then hit, unless this same request asks for them; a sector another
    request is fetching in this very step is still a miss."""
    valid, demand, req_step, req_n, req_counted, fill_step, fill_req = l2[1], l2[4], l2[5], l2[6], l2[7], l2[8], l2[9]
    st, w = _l2_find(l2, s, cfg[G_L2_SETS], cfg[G_L2_WAYS], clock, counters)
    counters[K_L2_READ] += 1
    k = s & 3
    if req_step[st, w, k] != step:       # the first request for this sector in this step
        req_step[st, w, k] = step
        req_n[st, w, k] = 1
        req_counted[st, w, k] = 1
    bit = np.uint8(1 << k)
    if valid[st, w] & bit:
        in_flight = fill_req[st, w, k] == request or (
            (demand[st, w] & bit) != 0 and fill_step[st, w, k] == step)
        if not in_flight:
            counters[K_L2_READ_HIT] += 1
        return
    fetch = cfg[G_FETCH_SECTORS]
    first = k & ~(fetch - 1)
    for j in range(first, first + fetch):
        b = np.uint8(1 << j)
        if not valid[st, w] & b:
            valid[st, w] |= b
            fill_step[st, w, j] = step
            fill_req[st, w, j] = request
            counters[K_DRAM_READ] += 1
    demand[st, w] |= bit


@njit(cache=True)
def _l2_write(l2, s, cfg, clock, counters):
    valid, dirty = l2[1], l2[2]
    st, w = _l2_find(l2, s, cfg[G_L2_SETS], cfg[G_L2_WAYS], clock, counters)
    counters[K_L2_WRITE] += 1
    bit = np.uint8(1 << (s & 3))
    valid[st, w] |= bit
    dirty[st, w] |= bit


@njit(cache=True)
def _l2_atomic(l2, s, step, request, cfg, clock, counters):
    """Atomics are resolved in L2: a missing sector is fetched, the result is dirty."""
    valid, dirty = l2[1], l2[2]
    st, w = _l2_find(l2, s, cfg[G_L2_SETS], cfg[G_L2_WAYS], clock, counters)
    counters[K_ATOMIC] += 1
    bit = np.uint8(1 << (s & 3))
    if not valid[st, w] & bit:
        fetch = cfg[G_FETCH_SECTORS]
        first = (s & 3) & ~(fetch - 1)
        for j in range(first, first + fetch):
            b = np.uint8(1 << j)
            if not valid[st, w] & b:
                valid[st, w] |= b
                counters[K_DRAM_READ] += 1
    dirty[st, w] |= bit


@njit(cache=True)
def run_window(order, sm_of, step_of, group_of, op_of, addresses, l1, merge_tag, merge_step,
               l2, merge_curve, cfg, counters, clock):
    """Feed the accesses `order` lists (time order) through L1 and L2. `group_of`: NO_GROUP,
    or the lock-step group whose same-step accesses merge (ANY_SM: every SM's first wave);
    `clock` is the LRU time."""
    sectors = np.empty(32, np.int64)
    keys = np.empty(64, np.int64)
    stamps = np.zeros(64, np.int64)
    l1_sets, l1_ways = cfg[G_L1_SETS], cfg[G_L1_WAYS]
    l2_sets, l2_ways = cfg[G_L2_SETS], cfg[G_L2_WAYS]
    l1_loads = cfg[G_L1_LOADS] != 0
    t = clock[0]
    for idx in range(len(order)):
        i = order[idx]
        n = unique_sectors(addresses[i], sectors, keys, stamps, idx + 1)
        op, sm, step, group = op_of[i], sm_of[i], step_of[i], group_of[i]
        request = t
        for k in range(n):
            s = sectors[k]
            t += 1
            if op == OP_LD:
                if l1_loads and _l1_load(l1, sm, s, l1_sets, l1_ways, t):
                    counters[K_L1_HIT] += 1
                    continue
                counters[K_L1_MISS] += 1
                if group == ANY_SM and cfg[G_READ_MERGE] and _read_merged(l2, s, step, l2_sets, l2_ways,
                                                                   merge_curve):
                    counters[K_READ_MERGED] += 1
                    continue
                _l2_read(l2, s, step, request, cfg, t, counters)
            elif op == OP_ST:
                if group != NO_GROUP and cfg[G_STORE_MERGE] and _store_merged(merge_tag, merge_step, sm, s,
                                                                               step, group):
                    counters[K_WRITE_MERGED] += 1
                    continue
                _l2_write(l2, s, cfg, t, counters)
            else:
                _l2_atomic(l2, s, step, request, cfg, t, counters)
    clock[0] = t


# ---------------------------------------------------------------------------------------------
# What the model needs to know about the GPU, and what was fitted

class CacheGeometry(BaseModel):
    """Hardware numbers of the memory hierarchy (read from a GpuProfile where one exists)."""

    gpu: str = "H100"
    sm_count: int = 132
    limits: OccupancyLimits = Field(default_factory=OccupancyLimits)
    l1_line_bytes: int = 128
    sector_bytes: int = 32
    l1_caches_global_loads: bool = True
    l2_bytes: int = 50 * 1024 * 1024
    l2_line_bytes: int = 128
    dram_fetch_bytes: int = 64

    @classmethod
    def from_profile(cls, profile) -> "CacheGeometry":
        """From a memsim.gpu_profile.GpuProfile (the one place that knows its layout)."""
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
                   l2_line_bytes=profile.l2.line_bytes, dram_fetch_bytes=profile.dram.fetch_bytes)

    @classmethod
    def for_gpu(cls, gpu) -> "CacheGeometry":
        """`gpu`: a CacheGeometry, a GpuProfile or a GPU name known to memsim.gpu_profile."""
        if isinstance(gpu, CacheGeometry):
            return gpu
        if not isinstance(gpu, str):
            return cls.from_profile(gpu)
        from . import gpu_profile
        try:
            return cls.from_profile(gpu_profile.load(gpu))
        except gpu_profile.ProfileError:
            if gpu.upper() == "H100":   # until the measured profile is recorded
                return cls()
            raise


class CacheTuning(BaseModel):
    """Model choices that are not datasheet numbers; fitted to the H100 recordings (docs/caches.md)."""

    l1_ways: int = 16
    l2_ways: int = 16
    l2_capacity_fraction: float = Field(1.0, description="share of the L2 that holds distinct data")
    dram_read_overhead_bytes: int = Field(3072, description="code, parameters and constants each launch fetches")
    window_requests: int = Field(1 << 18, description="warp accesses ordered together at most")
    merge_reads: bool = True
    merge_stores: bool = True
    read_merge_points: list[tuple[int, float]] = Field(
        default_factory=lambda: [(1, 1), (4, 1), (8, 2), (16, 7), (32, 10), (64, 17.1), (112, 32.2), (132, 34.6)],
        description="(SMs reading one sector in one step, L2 lookups): measured with "
                    "benchmarks/cache_probe k_bcast")


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
    """Feed it a launch's global warp accesses in block order (`consume`, as memsim.trace
    streams them), then read the modeled counters (`result`)."""

    def __init__(self, profile="H100", *, threads_per_block: int, registers_per_thread: int = 32,
                 shared_per_block: int = 0, barrier_pcs: Sequence[int] = (),
                 tuning: CacheTuning | None = None):
        self.geometry = CacheGeometry.for_gpu(profile)
        self.tuning = tuning or CacheTuning()
        g, t = self.geometry, self.tuning
        self.occupancy = occupancy(threads_per_block, registers_per_thread, shared_per_block, g.limits)
        self.placer = BlockPlacer(g.sm_count, self.occupancy.blocks_per_sm)
        self.wave_blocks = g.sm_count * self.occupancy.blocks_per_sm
        l1_lines = max(self.occupancy.l1_bytes // g.l1_line_bytes, t.l1_ways)
        l2_lines = int(g.l2_bytes * t.l2_capacity_fraction) // g.l2_line_bytes
        self.cfg = np.zeros(N_CFG, np.int64)
        self.cfg[[G_L1_SETS, G_L1_WAYS, G_L2_SETS, G_L2_WAYS, G_L1_LOADS, G_FETCH_SECTORS]] = (
            l1_lines // t.l1_ways, t.l1_ways, max(l2_lines // t.l2_ways, 1), t.l2_ways,
            int(g.l1_caches_global_loads), max(g.dram_fetch_bytes // g.sector_bytes, 1))
        self.cfg[[G_READ_MERGE, G_STORE_MERGE]] = int(t.merge_reads), int(t.merge_stores)
        shape1 = (g.sm_count, int(self.cfg[G_L1_SETS]), t.l1_ways)
        self.l1 = (np.full(shape1, -1, np.int64), np.zeros(shape1, np.uint8), np.zeros(shape1, np.int64))
        self.store_merge = (np.full((g.sm_count, 256), -1, np.int64), np.full((g.sm_count, 256), -1, np.int64))
        shape2 = (int(self.cfg[G_L2_SETS]), t.l2_ways)
        self.l2 = (np.full(shape2, -1, np.int64), np.zeros(shape2, np.uint8), np.zeros(shape2, np.uint8),
                   np.zeros(shape2, np.int64), np.zeros(shape2, np.uint8),
                   np.full(shape2 + (4,), -1, np.int64), np.zeros(shape2 + (4,), np.int32),
                   np.zeros(shape2 + (4,), np.int32), np.zeros(shape2 + (4,), np.int64),
                   np.full(shape2 + (4,), -1, np.int64))
        self.merge_curve = merge_curve(g.sm_count, t.read_merge_points)
        self.counters = np.zeros(N_COUNTERS, np.int64)
        self.clock = np.zeros(1, np.int64)
        self.pending: list[WarpAccesses] = []
        self.pending_rows = 0
        self.next_block = 0
        self.barriers_before = _count_before(barrier_pcs)

    def consume(self, accesses: WarpAccesses) -> None:
        """Take the next whole blocks' accesses (any spaces; only global ones are modeled)."""
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
            self._flush()

    def result(self) -> TrafficEstimate:
        self._flush()
        c = self.counters
        sector = self.geometry.sector_bytes
        return TrafficEstimate(
            l1_hit_sectors=c[K_L1_HIT], l1_miss_sectors=c[K_L1_MISS], l2_read_sectors=c[K_L2_READ],
            l2_write_sectors=c[K_L2_WRITE], l2_read_hit_sectors=c[K_L2_READ_HIT],
            dram_read_bytes=c[K_DRAM_READ] * sector + self.tuning.dram_read_overhead_bytes,
            dram_write_bytes=c[K_DRAM_WRITE] * sector)

    def _flush(self) -> None:
        if not self.pending:
            return
        acc = WarpAccesses.concat(self.pending)
        self.pending, self.pending_rows = [], 0
        sm, step, group, order = self._schedule(acc)
        run_window(order, sm, step, group, acc.op, acc.addresses, self.l1, *self.store_merge,
                   self.l2, self.merge_curve, self.cfg, self.counters, self.clock)

    def _schedule(self, acc: WarpAccesses) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(SM, step and lock-step group of each access; the accesses' order in time) for whole
        blocks in launch order."""
        history = warp_history(acc.block, acc.warp, acc.pc, acc.op == OP_LD, self._barriers_before(acc.pc))
        steps = history.step
        last_block = int(acc.block[-1])
        lengths = np.zeros(last_block + 1 - self.next_block, np.int64)
        np.maximum.at(lengths, acc.block - self.next_block, steps + 1)
        sm_of, slot_of, start_of = self.placer.place(lengths)
        local = acc.block - self.next_block
        self.next_block = last_block + 1
        sm, time, first_wave = sm_of[local], start_of[local] + steps, start_of[local] == 0
        group = lock_step_groups(acc.block, first_wave, history.after_load, history.after_barrier)
        # same step: SM by SM, and within an SM block slot by slot, warp by warp (round robin)
        order = np.lexsort((acc.warp, slot_of[local], sm, time))
        return sm, time, group, order

    def _barriers_before(self, pc: np.ndarray) -> np.ndarray:
        size = max(int(pc.max(initial=0)) + 2, len(self.barriers_before))
        if size > len(self.barriers_before):
            self.barriers_before = np.r_[self.barriers_before,
                                         np.full(size - len(self.barriers_before), self.barriers_before[-1])]
        return self.barriers_before


def lock_step_groups(block: np.ndarray, first_wave: np.ndarray, after_load: np.ndarray,
                     after_barrier: np.ndarray) -> np.ndarray:
    """Which accesses run in lock step with which (docs/caches.md, merging).

    Warps start together: until their first load returns, a block's warps, and in the first
    wave every SM's, issue in step (ANY_SM). A load's latency differs from warp to warp, so
    afterwards only a barrier brings a block's warps back into step (group = the block)."""
    group = np.full(len(block), NO_GROUP, np.int64)
    group[after_barrier] = block[after_barrier]
    fresh = ~after_load
    group[fresh] = np.where(first_wave[fresh], ANY_SM, block[fresh])
    return group


def _count_before(pcs: Sequence[int]) -> np.ndarray:
    """counts[pc] = how many of `pcs` are smaller than pc."""
    size = max(pcs, default=0) + 2
    marks = np.zeros(size, np.int64)
    marks[np.asarray(list(pcs), np.int64) + 1] = 1
    return np.cumsum(marks)


_FIELDS = ("block", "warp", "pc", "space", "op", "active", "addresses")


# ---------------------------------------------------------------------------------------------
# Running a launch through the model

MAX_TRACE_CAPACITY = 1 << 21        # warp accesses per worker and chunk (~600 MB of trace)
FIRST_CAPACITY = 1 << 17


@dataclass
class _SizedTrace(TraceRequest):
    """A trace request that remembers the largest chunk it saw, so an overflow can be retried."""

    most_filled: int = 0

    def deliver(self, records: np.ndarray, addresses: np.ndarray, filled: int) -> None:
        self.most_filled = max(self.most_filled, filled)
        super().deliver(records, addresses, filled)


def simulate_with_caches(source: str, kernel_name: str, grid, block, args: Sequence[Value],
                         shared_mem: int = 0, arch: str = "sm_90", options: Sequence[str] = (), *,
                         gpu="H100", registers_per_thread: int | None = None,
                         tuning: CacheTuning | None = None, **simulate_kwargs) -> KernelReport:
    """memsim.simulate plus the cache model: the report's MODELED cache and DRAM metrics filled in.

    `registers_per_thread` (occupancy) defaults to 32 where the compiler's figure is unknown."""
    from .simulate import simulate

    shape = _kernel_shape(source, kernel_name, arch, options, block)
    blocks_per_chunk, capacity = shape.first_chunking()
    while True:
        model = CacheModel(gpu, threads_per_block=shape.threads,
                           registers_per_thread=registers_per_thread or DEFAULT_REGISTERS,
                           shared_per_block=shape.shared_static + shared_mem,
                           barrier_pcs=shape.barrier_pcs, tuning=tuning)
        request = _SizedTrace(spaces=("global",), on_chunk=model.consume,
                              blocks_per_chunk=blocks_per_chunk, capacity=capacity)
        try:
            report = simulate(source, kernel_name, grid, block, args, shared_mem, arch, options,
                              trace=request, **simulate_kwargs)
            break
        except MemsimError:
            if request.most_filled <= request.capacity:
                raise
            blocks_per_chunk, capacity = shape.rechunk(blocks_per_chunk, request.most_filled)
    traffic = model.result()
    report.metrics.update(traffic.metrics())
    report.provenance.update({k: m.Provenance.MODELED for k in traffic.metrics()})
    report.gpu = model.geometry.gpu
    return report


def model_traffic(spec: LaunchSpec, gpu="H100", registers_per_thread: int | None = None,
                  tuning: CacheTuning | None = None) -> TrafficEstimate:
    """The modeled cache and DRAM counters of a LaunchSpec (its arguments materialized)."""
    report = simulate_with_caches(spec.source, spec.kernel, spec.grid, spec.block, spec.materialize(),
                                  spec.shared_mem, options=spec.options, gpu=gpu,
                                  registers_per_thread=registers_per_thread, tuning=tuning)
    return TrafficEstimate.model_validate({k: report.metrics[k] for k in TrafficEstimate().metrics()})


DEFAULT_REGISTERS = 32


@dataclass
class _KernelShape:
    """What sizing the trace needs: threads, static shared memory, and a bound on the warp
    accesses of one block (exact without loops: each instruction runs once per warp)."""

    threads: int
    shared_static: int
    global_instructions: int
    has_loops: bool
    barrier_pcs: list[int]

    def first_chunking(self) -> tuple[int, int]:
        """(blocks per chunk, capacity) of the first try."""
        if self.has_loops:
            return 1, FIRST_CAPACITY   # an overflow costs one chunk and tells the real size
        per_block = max(self.global_instructions * (-(-self.threads // 32)), 1)
        if per_block > MAX_TRACE_CAPACITY:
            return 1, per_block
        blocks = max(1, min(4096, FIRST_CAPACITY // per_block))
        return blocks, max(FIRST_CAPACITY, blocks * per_block)

    def rechunk(self, blocks_per_chunk: int, filled: int) -> tuple[int, int]:
        """After an overflow of `filled` accesses in a chunk: room for twice that per block."""
        per_block = -(-filled // blocks_per_chunk)
        if 2 * per_block > MAX_TRACE_CAPACITY:
            if per_block > MAX_TRACE_CAPACITY:
                raise MemsimError(f"cache model: one block makes {per_block:,} global warp accesses; "
                                  f"at most {MAX_TRACE_CAPACITY:,} per block can be modeled")
            return 1, per_block + per_block // 8
        return 1, 2 * per_block


def _kernel_shape(source: str, kernel_name: str, arch: str, options: Sequence[str], block) -> _KernelShape:
    text, name, is_ptx = load_source(source)
    ptx = text if is_ptx else compile_cuda(text, arch, tuple(options), name).ptx
    program = lower(parse(ptx), kernel_name)
    code = program.code
    ops = code[:, F_OP]
    memory = np.isin(ops, (OP["ld"], OP["st"], OP["atom"], OP["red"])) & np.isin(code[:, F_SPACE], (0, SP_GLOBAL))
    branches = np.nonzero(ops == OP["bra"])[0]
    has_loops = bool(np.any(code[branches, F_TARGET] <= branches))
    b = dims(block)
    barriers = np.nonzero(np.isin(ops, (OP["bar"], OP["barrier"])))[0]
    return _KernelShape(threads=b[0] * b[1] * b[2], shared_static=program.shared_static,
                        global_instructions=int(memory.sum()), has_loops=has_loops,
                        barrier_pcs=barriers.tolist())
