"""The streaming consumer: CacheModel takes a launch's global warp accesses window by window,
places blocks on SMs and orders the accesses in time (memsim.model.scheduling), runs the two
passes (memsim.model.cache.passes, memsim.model.cache.l2_pass) and sums their counters into
ncu's metrics (TrafficEstimate).
"""
from __future__ import annotations

from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from ... import metrics as m
from ...stream import OP_LD, OP_ST, SP_GLOBAL, SP_LOCAL, LocalAccesses, WarpAccesses
from ..scheduling import BlockPlacer, ProgramFlow, WarpCarry, occupancy, warp_history
from ...gpus import DEFAULT_GPU, GpcLayout, GpuProfile
from .config import CacheGeometry, CacheTuning, numba_config
from .l2_backlog import L2Backlog, time_key
from .l2_pass import NO_WRITER, WHOLE, l2_pass
from .passes import (ANY_SM, DIRTY, E_MERGE, E_STEP, EPISODE_LINES, EPISODES, G_L1_SETS, G_L2_PARTIAL_LINES, G_L2_SETS,
                     G_L2_SIDES, K_DRAM_READ,
                     VALID, K_DRAM_WRITE, K_L1_HIT, K_L1_MISS, K_L2_READ, K_L2_READ_HIT, K_L2_WRITE, LOOSE,
                     N_COUNTERS, NO_GROUP, l1_pass)

_FIELDS = ("block", "warp", "pc", "space", "op", "active", "addresses")
# Loads whose outcome _watch keeps, in launch order: as many as the issue trace holds issues
# (memsim.engine.issue_trace), so a grid of a block an SM, whose every block is watched, keeps
# no more than a single traced block could (a trace holds whole blocks in launch order too).
WATCHED_LOADS = 1 << 24
_NO_ROWS = np.zeros((0, 32), np.int64)


@dataclass
class LoadOutcomes:
    """Per global load of some blocks (CacheModel's `watched_blocks`): where the cache model
    served it. A request waits for its slowest line, so one missing line sends all of it on."""

    block: np.ndarray
    warp: np.ndarray
    pc: np.ndarray
    past_l1: np.ndarray      # bool: some line missed L1


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
    dram_write_bytes_by_pc: dict[int, int] = Field(
        default_factory=dict, exclude=True,
        description="of dram_write_bytes, per store (or atomic) instruction: the dirty sectors it "
                    "wrote that the L2 evicted to DRAM during the launch (not a metric)")
    l2_partial_writes_by_pc: dict[int, tuple[int, int]] = Field(
        default_factory=dict, exclude=True,
        description="per store instruction: its requests to the L2 for one line with a sector written in "
                    "part, and those sectors (where the GPU writes DRAM in whole sectors; not a metric)")

    def metrics(self) -> dict[str, int]:
        return self.model_dump(by_alias=True)


class CacheModel:
    """Feed it a launch's global warp accesses in block order (`consume`, as memsim.engine.trace
    streams them), then read the modeled counters (`result`).

    Windows end where the engine's chunks of whole blocks end. A chunk may come in parts
    (WarpAccesses.ends_chunk False); they wait for the rest of their chunk, unless the chunk
    has made more than `split_rows` accesses: then what came is modeled at once, the last
    block placed and ordered as far as it went (its warps' steps go on in the next window),
    so no more than about `split_rows` + the window's accesses are ever held."""

    def __init__(self, profile: str | GpuProfile = DEFAULT_GPU, *, threads_per_block: int, registers_per_thread: int = 32,
                 shared_per_block: int = 0, flow: ProgramFlow | None = None,
                 blocks: int | None = None, tuning: CacheTuning | None = None,
                 watched_blocks: np.ndarray | None = None, split_rows: int | None = None,
                 local: LocalAccesses | None = None, widths: np.ndarray | None = None):
        self.geometry = CacheGeometry.for_gpu(profile)
        self.tuning = tuning or CacheTuning.for_gpu(profile)
        g, t = self.geometry, self.tuning
        self.occupancy = occupancy(threads_per_block, registers_per_thread, shared_per_block, g.limits)
        self.placer = BlockPlacer(g.sm_count, self.occupancy.blocks_per_sm)
        self.local = local
        self.widths = np.zeros(1, np.int64) if widths is None else np.append(np.asarray(widths, np.int64), 0)
        self.store_numbers = 0
        self.warps_per_block = -(-threads_per_block // 32)
        self.spaces = (SP_GLOBAL,) if local is None else (SP_GLOBAL, SP_LOCAL)
        self.wave_blocks = g.sm_count * self.occupancy.blocks_per_sm
        self.one_wave = blocks is not None and blocks <= self.wave_blocks
        self.cfg = numba_config(g, t, self.occupancy.l1_bytes)
        self.state = _CacheState.cold(g, t, self.cfg)
        self.merge_curve = merge_curve(g.sm_count, t.read_merge_points)
        gpc_of = None if g.gpcs is None else coalescing_domains(g.sm_count, blocks or g.sm_count, g.gpcs)
        self.domains = gpc_of if t.gpc_domains and gpc_of is not None else np.zeros(g.sm_count, np.int64)
        self.sides = l2_sides(g, gpc_of, int(self.cfg[G_L2_SIDES]))
        self.pending: list[WarpAccesses] = []
        self.pending_rows = 0
        self.split_rows = split_rows
        self.chunk_rows = 0          # accesses of the chunk in progress (since its last split)
        self.chunk_seen = False      # the chunk in progress has made an access
        self.last_block = -1
        self.carry = WarpCarry()     # the warps of a block left unfinished by a split window
        self.held_length = 0         # ... and its length in steps so far
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cache-model")
        self.in_progress: deque[Future] = deque()
        self.next_block = 0
        self.flow = flow or ProgramFlow.empty()
        self.watched = np.asarray(watched_blocks if watched_blocks is not None else (), np.int64)
        self.watched_loads: list[LoadOutcomes] = []
        self.watched_kept = 0
        self.rows_buffer = _NO_ROWS      # _joined's
        self.backlog = L2Backlog(max(self.tuning.l2_batch_accesses, 1))

    def consume(self, accesses: WarpAccesses) -> None:
        """Take the next whole blocks' accesses, or a part of them (any spaces; global ones are
        modeled, and local ones where the model was given their `local` layout). Windows are
        modeled on a worker thread while the emulator goes on."""
        ends_chunk = accesses.ends_chunk
        kept = np.isin(accesses.space, self.spaces)
        if not kept.all():
            accesses = WarpAccesses(*(getattr(accesses, f)[kept] for f in _FIELDS))
        if len(accesses):
            self.pending.append(accesses)
            self.pending_rows += len(accesses)
            self.chunk_rows += len(accesses)
            self.chunk_seen, self.last_block = True, int(accesses.block[-1])
        if not ends_chunk:
            if self.split_rows is not None and self.chunk_rows > self.split_rows:
                self._submit(open_last=True)
                self.chunk_rows = 0
            return
        seen, self.chunk_seen, self.chunk_rows = self.chunk_seen, False, 0
        if not seen or not self.pending:
            return
        first_pending = self.pending[0].block[0]
        if (self.last_block - first_pending + 1 >= self.wave_blocks
                or self.pending_rows >= self.tuning.window_requests):
            self._submit()

    def result(self) -> TrafficEstimate:
        """The modeled counters, once every access has been consumed."""
        self._submit()
        self.close()
        self._run_l2()
        c = self.state.counters
        sector = self.geometry.sector_bytes
        return TrafficEstimate(
            l1_hit_sectors=c[K_L1_HIT], l1_miss_sectors=c[K_L1_MISS], l2_read_sectors=c[K_L2_READ],
            l2_write_sectors=c[K_L2_WRITE], l2_read_hit_sectors=c[K_L2_READ_HIT],
            dram_read_bytes=c[K_DRAM_READ] * sector + self.tuning.dram_read_overhead_bytes,
            dram_write_bytes=c[K_DRAM_WRITE] * sector,
            dram_write_bytes_by_pc={int(pc): int(self.state.by_pc[pc]) * sector
                                    for pc in np.flatnonzero(self.state.by_pc)},
            l2_partial_writes_by_pc={int(pc): (int(lines), int(sectors)) for pc, (lines, sectors)
                                     in enumerate(self.state.partial_by_pc) if lines})

    def close(self) -> None:
        """Wait for the windows in progress (raising what they raised) and stop the worker."""
        try:
            while self.in_progress:
                self.in_progress.popleft().result()
        finally:
            self.worker.shutdown(wait=True, cancel_futures=True)

    def _submit(self, open_last: bool = False) -> None:
        if not self.pending:
            return
        if not self.tuning.background:
            self._model(self.pending, open_last)
        else:
            if len(self.in_progress) >= 2:       # keep at most a few windows of trace in memory
                self.in_progress.popleft().result()
            self.in_progress.append(self.worker.submit(self._model, self.pending, open_last))
        self.pending, self.pending_rows = [], 0

    def _model(self, parts: list[WarpAccesses], open_last: bool = False) -> None:
        """Order one window of whole blocks in time and run it through the caches (`open_last`:
        the last block's accesses may go on in the next window)."""
        acc = WarpAccesses(*(np.concatenate([getattr(p, f) for p in parts]) for f in _FIELDS[:-1]),
                           addresses=np.zeros((0, 32), np.int64))
        sm, slot, step, group = self._schedule(acc, open_last)
        if len(parts) <= 2:
            addresses, more = parts[0].addresses, parts[-1].addresses if len(parts) == 2 else _NO_ROWS
        else:
            addresses, more = self._joined([p.addresses for p in parts]), _NO_ROWS
        is_local = acc.space == SP_LOCAL
        number, previous = self._store_chains(acc, is_local)
        if is_local.any():
            rows = np.concatenate([addresses, more]) if len(more) else addresses
            acc, rows, sm, slot, step, group, number, previous = self._placed_local(
                acc, rows, sm, slot, step, group, number, previous)
            addresses, more, is_local = rows, _NO_ROWS, acc.space == SP_LOCAL
        width = self.widths[np.minimum(acc.pc, len(self.widths) - 1)]
        width[is_local] = np.minimum(width[is_local], 4)    # placed word by word
        by_sm = lexsort_packed((acc.warp, slot, step, sm))
        first, count = np.empty(len(acc), np.int64), np.empty(len(acc), np.int64)
        st = self.state
        if len(acc) and int(acc.pc.max()) >= len(st.by_pc):
            more_pcs = int(acc.pc.max()) + 1 - len(st.by_pc)
            st.by_pc = np.concatenate([st.by_pc, np.zeros(more_pcs, np.int64)])
            st.partial_by_pc = np.concatenate([st.partial_by_pc, np.zeros((more_pcs, 2), np.int64)])
        time_base = int(st.clock[0])
        st.events = l1_pass(by_sm, sm, step, group, acc.op, is_local, number, previous, slot * 32 + acc.warp, width,
                            addresses, more, st.l1, *st.store_merge, st.written, *st.events, first, count, self.cfg,
                            st.counters, st.clock)
        self._watch(acc, count, is_local)
        domain = self.domains[sm]
        if self.tuning.merge_poison:
            unmerge_mixed_lines(*st.events[:2], count[by_sm], by_sm, sm, domain)
        # same step: the SMs side by side (they run at once), block slot by slot and warp by warp
        self.backlog.add(st.events, first, count, time_key(sm, acc.warp, slot, step), domain, self.sides[sm],
                         acc.pc, time_base)
        if self.backlog.full:
            self._run_l2()

    def _run_l2(self) -> None:
        """The L2 pass over the windows waiting in the backlog, merged by time."""
        if not self.backlog.windows:
            return
        order, *events, first, count, domain, side, pc, time_base = self.backlog.take()
        st = self.state
        tags, state, episodes = st.l2
        l2_pass(order, *events, first, count, time_base, tags, state, st.l2_writer, st.l2_cover,
                st.l2_since, *st.partial_queue, episodes,
                self.merge_curve, domain, side, pc, self.cfg, st.counters, st.by_pc, st.partial_by_pc)

    def _joined(self, parts: list[np.ndarray]) -> np.ndarray:
        """The parts' lane addresses one after another, in a buffer kept from window to window
        (windows are modeled one at a time): a fresh one costs as much again in page faults."""
        rows = sum(len(p) for p in parts)
        if len(self.rows_buffer) < rows:
            self.rows_buffer = np.empty((rows + rows // 4, 32), np.int64)
        return np.concatenate(parts, out=self.rows_buffer[:rows])

    def _placed_local(self, acc: WarpAccesses, rows: np.ndarray, *per_access: np.ndarray) -> tuple:
        """The window with its local accesses where the L1 and L2 see them: local memory
        interleaves a warp's threads word by word (word k of lane l at (k * 32 + l) * 4, as
        memsim.engine.sass.ops_memory.local_sectors counts its sectors), in a region of its own
        for each warp slot of each SM, which the next block on that slot takes over. A wider
        access becomes one row per word. (acc, rows, and `per_access` arrays, all expanded.)"""
        widths = self.local.widths
        is_local = acc.space == SP_LOCAL
        words = np.ones(len(acc), np.int64)
        pcs = np.minimum(acc.pc[is_local], len(widths) - 1)
        words[is_local] = np.maximum(widths[pcs] // 4, 1)
        take = np.repeat(np.arange(len(acc)), words)
        word = np.arange(len(take)) - np.repeat(np.cumsum(words) - words, words)
        acc = WarpAccesses(*(getattr(acc, f)[take] for f in _FIELDS[:-1]), addresses=_NO_ROWS)
        per_access = tuple(a[take] for a in per_access)
        rows = rows[take]
        local = np.flatnonzero(acc.space == SP_LOCAL)
        sm, slot = per_access[0][local], per_access[1][local]
        warp_slots = self.occupancy.blocks_per_sm * self.warps_per_block
        region = (sm * warp_slots + slot * self.warps_per_block + acc.warp[local]) * LOCAL_WARP_BYTES
        a = rows[local]
        k = ((self.local.top - 1 - a) >> 2) - word[local, None]
        placed = LOCAL_BASE + region[:, None] + (k * 32 + np.arange(32)) * 4 + (a & 3)
        rows[local] = np.where(a >= 0, placed, -1)
        return (acc, rows, *per_access)

    def _store_chains(self, acc: WarpAccesses, is_local: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(a number for each store in a chain, unique in the launch, else 0; the number of the
        store of its warp it may merge with in L1, else -1): for a local store, its warp's previous local
        store; for a global one, where the profile lets global stores merge so, its warp's
        previous global access if that is a store at most `warp_store_merge_gap` instructions
        earlier in the program (not a loop's previous trip; a load between sends it on:
        darknet's pooling and TensorRT's scatter, which store each word again after loads, merge
        nothing on the H100, nor do PyTorch3D's normals, stored 12-19 instructions apart).
        Never with a barrier between."""
        number = np.zeros(len(acc), np.int64)
        previous = np.full(len(acc), -1, np.int64)
        stores = acc.op == OP_ST
        number[stores] = self.store_numbers + 1 + np.arange(int(stores.sum()))
        self.store_numbers += int(stores.sum())
        self._chain(acc, np.flatnonzero(stores & is_local), number, previous)
        if self.tuning.warp_store_merge_lines >= 0:
            self._chain(acc, np.flatnonzero(~is_local), number, previous, self.tuning.warp_store_merge_gap)
        # a store in no chain only clears its lines' table entries in the L1 pass (a transpose's
        # column stores, one line a lane, would cost five lookups each and merge nothing)
        chained = previous >= 0
        number[~chained & ~np.isin(number, previous[chained])] = 0
        return number, previous

    def _chain(self, acc: WarpAccesses, chained: np.ndarray, number: np.ndarray, previous: np.ndarray,
               gap: int | None = None) -> None:
        """previous[s] = number of the access before store s of the same warp among `chained`,
        if that is a store, unless a barrier lies between them (or, with a `gap`, s does not come
        1 to `gap` instructions later in the program)."""
        if len(chained) < 2:
            return
        by_warp = chained[np.argsort(acc.block[chained] * WarpCarry.WARPS + acc.warp[chained], kind="stable")]
        key = acc.block[by_warp] * WarpCarry.WARPS + acc.warp[by_warp]
        same = np.flatnonzero(np.r_[False, key[1:] == key[:-1]])
        here, before = by_warp[same], by_warp[same - 1]
        lo, hi = np.minimum(acc.pc[here], acc.pc[before]), np.maximum(acc.pc[here], acc.pc[before])
        bars = self.flow.barriers_before
        apart = bars[np.minimum(hi + 1, len(bars) - 1)] > bars[np.minimum(lo, len(bars) - 1)]
        apart |= (acc.op[here] != OP_ST) | (acc.op[before] != OP_ST)
        if gap is not None:
            apart |= (acc.pc[here] <= acc.pc[before]) | (acc.pc[here] - acc.pc[before] > gap)
        previous[here[~apart]] = number[before[~apart]]

    def _watch(self, acc: WarpAccesses, past_l1: np.ndarray, is_local: np.ndarray) -> None:
        """Keep, for the global loads of the watched blocks, whether each went past L1 (any of
        its lines missed): the timing simulation replays those blocks request by request."""
        room = WATCHED_LOADS - self.watched_kept
        if len(self.watched) == 0 or room <= 0:
            return
        keep = np.flatnonzero(np.isin(acc.block, self.watched) & (acc.op == OP_LD) & ~is_local)[:room]
        if len(keep):
            self.watched_kept += len(keep)
            self.watched_loads.append(LoadOutcomes(block=acc.block[keep], warp=acc.warp[keep], pc=acc.pc[keep],
                                                   past_l1=past_l1[keep] > 0))

    def load_outcomes(self) -> "LoadOutcomes":
        """The watched blocks' loads in stream order (each warp's in its program order)."""
        parts = self.watched_loads
        if not parts:
            z = np.zeros(0, np.int64)
            return LoadOutcomes(block=z, warp=z, pc=z, past_l1=np.zeros(0, np.bool_))
        return LoadOutcomes(*(np.concatenate([getattr(p, f) for p in parts])
                              for f in ("block", "warp", "pc", "past_l1")))

    def _schedule(self, acc: WarpAccesses, open_last: bool = False) -> tuple[np.ndarray, ...]:
        """(SM, block slot, step and lock-step group of each access) for blocks in launch order,
        the first one possibly begun in the window before, the last one (`open_last`) possibly
        to go on in the next."""
        last_block = int(acc.block[-1])
        carry_out = WarpCarry(last_block) if open_last else None
        history = warp_history(acc.block, acc.warp, acc.pc, acc.op == OP_LD, self.flow, self.carry, carry_out)
        steps = history.step
        lengths = np.zeros(last_block + 1 - self.next_block, np.int64)
        np.maximum.at(lengths, acc.block - self.next_block, steps + 1)
        sm_of, slot_of, start_of = self._place(lengths, open_last)
        local = acc.block - self.next_block
        self.carry = carry_out or WarpCarry()
        self.next_block = last_block if open_last else last_block + 1
        sm, time, first_wave = sm_of[local], start_of[local] + steps, start_of[local] == 0
        resynced = history.resynced if self.tuning.merge_after_barrier else np.zeros(len(steps), np.bool_)
        loose = np.zeros(len(steps), np.bool_)
        if self.one_wave and self.tuning.merge_one_wave_stores:
            # a grid of one wave leaves the memory system idle enough that load latencies vary
            # little: a block's warps often still store together after their loads
            loose = history.stalled & ~resynced & (acc.op == OP_ST)
        out_of_step = history.stalled
        if self.one_wave and self.tuning.merge_one_wave_loads:
            # the SMs of one wave that read the same lines get their data back together, so
            # after the wait they still issue their next reads in step (generic_shared_*: 64
            # SMs copy one 8 KB array in a loop, and the H100's L2 sees 27% of their L1 misses)
            out_of_step = out_of_step & ~((acc.op == OP_LD) & ~resynced)
        group = lock_step_groups(acc.block, first_wave, out_of_step, resynced)
        group[loose] = LOOSE - acc.block[loose]
        return sm, slot_of[local], time, group


    def _place(self, lengths: np.ndarray, open_last: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """BlockPlacer.place, where the first block may be one a split window placed already
        (the placer holds its slot until its length is known) and the last may stay open."""
        held = self.placer.held
        if held is None:
            placed = self.placer.place(lengths, hold_last=open_last)
        else:
            lengths[0] = max(lengths[0], self.held_length)
            still_open = open_last and len(lengths) == 1
            if not still_open:
                self.placer.release(int(lengths[0]))
            rest = self.placer.place(lengths[1:], hold_last=open_last)
            first = (np.array([held[2]], np.int64), np.array([held[1]], np.int64), np.array([held[0]], np.int64))
            placed = tuple(np.concatenate([f, r]) for f, r in zip(first, rest))
            if still_open:
                self.placer.held = held
        if open_last:
            self.held_length = int(lengths[-1])
        return placed


@dataclass
class _CacheState:
    """Everything the passes carry from one window to the next."""

    l1: np.ndarray                              # [sm, set, 2 * way]: tag, last use << 4 | sectors
    store_merge: tuple[np.ndarray, ...]         # [sm, slot]: line, step/group key, sectors stored, event
    written: tuple[np.ndarray, ...]             # [sm, slot]: line, its last store's number, sectors, event, step
    l2: tuple[np.ndarray, ...]                  # tags, state, merge episodes (see above)
    events: tuple[np.ndarray, ...]              # L1 -> L2 request buffers (line, info, words), reused
    counters: np.ndarray
    clock: np.ndarray
    l2_writer: np.ndarray                       # [set, way]: pc of the line's last store
    l2_cover: np.ndarray                        # [set, way]: the line's 2-byte halves known (l2_pass)
    l2_since: np.ndarray                        # [set, way]: when the line last became partly written
    partial_queue: tuple[np.ndarray, np.ndarray]  # lines partly written (line, slot, when), next row
    by_pc: np.ndarray                           # dirty sectors written back, by writer pc
    partial_by_pc: np.ndarray                   # [pc]: store line requests written in part, such sectors

    @classmethod
    def cold(cls, g: CacheGeometry, t: CacheTuning, cfg: np.ndarray) -> "_CacheState":
        """Empty caches: ncu flushes them before every profiled launch."""
        l1 = np.zeros((g.sm_count, int(cfg[G_L1_SETS]), 2 * t.l1_ways), np.int64)
        l1[:, :, 0::2] = -1
        table = (g.sm_count, 256)
        shape2 = (int(cfg[G_L2_SETS] * cfg[G_L2_SIDES]), t.l2_ways)
        lines = np.zeros(shape2 + (5,), np.int64)     # tag, state, writer, cover, since side by side: few host lines
        lines[:, :, 0] = -1
        _preload_foreign_dirty(lines, g.l2_dirty_at_launch_bytes // g.l2_line_bytes)
        l2 = (lines[:, :, 0], lines[:, :, 1], np.full((EPISODE_LINES, 1 + 2 * EPISODES), -1, np.int64))
        written = (g.sm_count, WRITTEN_LINES)
        return cls(l1=l1, store_merge=(np.full(table, -1, np.int64), np.full(table, -1, np.int64),
                                       np.zeros(table, np.int64), np.full(table, -1, np.int64)),
                   written=(np.full(written, -1, np.int64), np.zeros(written, np.int64), np.zeros(written, np.int64),
                            np.full(written, -1, np.int64), np.full(written, -1, np.int64)),
                   l2=l2, events=(np.empty(1 << 16, np.int64), np.empty(1 << 16, np.int64),
                                  np.empty(1 << 16, np.int64)),
                   counters=np.zeros(N_COUNTERS, np.int64), clock=np.zeros(1, np.int64),
                   l2_writer=lines[:, :, 2], l2_cover=lines[:, :, 3], l2_since=lines[:, :, 4], by_pc=np.zeros(1, np.int64),
                   partial_by_pc=np.zeros((1, 2), np.int64),
                   partial_queue=(np.full((max(int(cfg[G_L2_PARTIAL_LINES]), 1), 3), -1, np.int64),
                                  np.zeros(1, np.int64)))


FOREIGN_LINE = 1 << 56        # tags of lines that are no kernel's (no device address reaches them)
LOCAL_BASE = 1 << 48          # where _placed_local puts local memory: past every device address
LOCAL_WARP_BYTES = 32 << 14   # a warp slot's local region: 32 threads' 16 KB (the engine's window)
WRITTEN_LINES = 2048          # lines an SM's L1 remembers as written (an L1's worth)


def _preload_foreign_dirty(lines: np.ndarray, count: int) -> None:
    """Fill `count` ways, spread over the sets (at most one more in a set than in another), with
    fully written lines that are no kernel's: what ncu's multi-pass replay leaves dirty in L2 (the
    profile's l2.dirty_at_profiled_launch_bytes). Written back when the kernel's lines evict them."""
    sets, ways = lines.shape[:2]
    count = min(count, sets * ways)
    if count <= 0:
        return
    slot = np.arange(count, dtype=np.int64)       # the set index is hashed: any sets are as good
    st, way = slot % sets, slot // sets
    lines[st, way, 0] = FOREIGN_LINE + np.arange(count)
    lines[st, way, 1] = (15 << VALID) | (15 << DIRTY)
    lines[st, way, 2] = NO_WRITER
    lines[st, way, 3] = WHOLE


def lexsort_packed(keys: tuple[np.ndarray, ...]) -> np.ndarray:
    """np.lexsort(keys) (the last key primary, ties in their order), as one stable argsort of the
    keys packed into one int64 where their ranges fit: about twice as fast as lexsort's pass per key."""
    if len(keys[0]) == 0:
        return np.lexsort(keys)
    packed, room = np.zeros(len(keys[0]), np.int64), 1
    for key in reversed(keys):
        low, span = int(key.min()), int(key.max()) - int(key.min()) + 1
        room *= span
        if room >= 1 << 62:
            return np.lexsort(keys)
        packed *= span
        packed += key
        packed -= low
    return np.argsort(packed, kind="stable")


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


def unmerge_mixed_lines(ev_line: np.ndarray, ev_info: np.ndarray, counts: np.ndarray, order: np.ndarray,
                        sm_of: np.ndarray, domain_of: np.ndarray) -> None:
    """Clear the mergeable mark of reads of a line that the SMs of one coalescing domain read with
    different sector masks in the same step: the H100's coalescer merges none of them
    (copy2d_col_64x4: pairs of SMs read four different sectors of one line at once, and almost
    none merge; gpu/cache_probe/lrc_probe.cu k_all_pairs merges every pair whose lines
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


def l2_sides(g: CacheGeometry, gpc_of: np.ndarray | None, sides: int) -> np.ndarray:
    """The L2 partition next to each SM: its GPC's half of the chip (gpc_of: each SM's GPC, as
    coalescing_domains places them), or SM numbers halved without a GPC layout."""
    if sides == 1:
        return np.zeros(g.sm_count, np.int64)
    if gpc_of is None:
        return (np.arange(g.sm_count) * sides // g.sm_count).astype(np.int64)
    return gpc_of * sides // g.gpcs.count


def coalescing_domains(sm_count: int, blocks: int, layout: GpcLayout) -> np.ndarray:
    """The GPC (the L2 request coalescer's domain) of each SM, numbered as the first wave's blocks
    are placed (the profile's `gpcs`; measured on the H100 with gpu/cache_probe/lrc_probe.py): a
    grid of fewer blocks than SMs puts its first `lead_blocks` on GPC 0, filling its TPCs, then
    spreads the rest over the GPCs, one SM per TPC, a near-equal share each (GPC 0 has the TPCs
    the lead left), GPC by GPC; a full grid fills GPC after GPC, tpcs_per_gpc * sms_per_tpc SMs
    each, the last GPC taking the SMs left over."""
    gpcs, tpcs, lead = layout.count, layout.tpcs_per_gpc, layout.lead_blocks
    per_gpc = tpcs * layout.sms_per_tpc
    lead_tpcs = tpcs - lead // layout.sms_per_tpc
    first = min(blocks, sm_count)
    if first >= sm_count - sm_count % per_gpc:
        return np.minimum(np.arange(sm_count) // per_gpc, gpcs - 1).astype(np.int64)
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
