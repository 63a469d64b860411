"""Optional record of individual warp accesses, for pictures of one warp and for cache models.

    request = TraceRequest(lines={12}, warps=(0, 1))
    memsim.simulate(src, "k", grid, block, args, trace=request)
    request.accesses.addresses[0]      # the 32 lane addresses of the first recorded access

Accesses arrive in chunks of blocks (in block order); give `on_chunk` to stream them instead
of collecting them, e.g. to feed a cache model without holding every address in memory. With
`flush_when_full` a chunk that outgrows `capacity` is handed on in parts as the buffer fills
(each but the last with `ends_chunk` False, its last block possibly unfinished), so a trace of
any size streams through a buffer of `capacity` records.

Both engines record: with engine="ptx" `pc` is the PTX instruction index, with engine="sass"
the SASS instruction index (memsim.engine.sass.program); spaces and ops use the same codes. Each
emulator calls `record_access` (Numba) for a selected access; the buffers and their delivery
below are shared.
"""
from __future__ import annotations

import itertools
import weakref
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from numba import njit, objmode

from ..errors import MemsimError
from ..stream import SPACES, WarpAccesses
from .program import TracedProgram

TRACEABLE_SPACES = ("global", "shared", "local")
SYNC_OPCODES = ("BAR", "WARPSYNC", "NOP")   # SASS a barriers=True trace records (NOP: __syncwarp)

@dataclass
class TraceRequest:
    """Which warp accesses to record. None means no restriction."""

    lines: set[int] | None = None
    pcs: set[int] | None = None                # instruction indices of the engine that runs
    spaces: tuple[str, ...] = TRACEABLE_SPACES
    warps: tuple[int, int] | None = None      # global warp ids [first, last): block * warps_per_block + warp
    capacity: int = 1 << 16                   # records per worker and chunk
    blocks_per_chunk: int = 64
    on_chunk: Callable[[WarpAccesses], None] | None = None
    barriers: bool = False                    # also record BAR, WARPSYNC, NOP (SASS engine; OP_BAR, OP_WARPSYNC)
    flush_when_full: bool = False             # a full buffer is handed on mid-chunk, never overflows
    accesses: WarpAccesses | None = field(default=None, init=False)
    buffers: list[tuple[int, int, int]] = field(default_factory=list, init=False)  # (argument, address, bytes)
    _parts: list[WarpAccesses] = field(default_factory=list, init=False, repr=False)

    def selection(self, program: TracedProgram) -> np.ndarray:
        """1 for every instruction to record."""
        self.check()
        wanted_spaces = {SPACES[s] for s in self.spaces if s in SPACES} | ({0} if "global" in self.spaces else set())
        sel = np.zeros(len(program.code), dtype=np.int64)
        for static in program.instructions:
            if self.barriers and static.opcode.split(".")[0] in SYNC_OPCODES:
                sel[static.index] = 1
                continue
            if not static.op or static.space == "param":
                continue
            space_code = SPACES.get(static.space, 0)
            if space_code not in wanted_spaces:
                continue
            if self.lines is not None and static.line not in self.lines:
                continue
            if self.pcs is not None and static.index not in self.pcs:
                continue
            sel[static.index] = 1
        return sel

    def check(self) -> None:
        """A one-line MemsimError for a request no launch could satisfy."""
        unknown = [s for s in self.spaces if s not in TRACEABLE_SPACES]
        if unknown:
            raise MemsimError(f"trace: unknown space {unknown[0]!r}; spaces are {', '.join(TRACEABLE_SPACES)}")
        if self.warps is not None and not (0 <= self.warps[0] < self.warps[1]):
            raise MemsimError(f"trace: warps={self.warps} is not a range [first, last) with 0 <= first < last")
        if self.capacity < 1 or self.blocks_per_chunk < 1:
            raise MemsimError("trace: capacity and blocks_per_chunk must be at least 1")

    def note_buffers(self, heap) -> None:
        """Remember where the launch's buffers lie (a memsim.engine.memory.GlobalHeap, built)."""
        self.buffers = [(slot.position, slot.address, slot.nbytes) for slot in heap.slots]

    def warp_range(self) -> np.ndarray:
        return np.array(self.warps if self.warps else (-1, -1), dtype=np.int64)

    def deliver(self, records: np.ndarray, addresses: np.ndarray, filled: int, ends_chunk: bool = True) -> None:
        if filled > len(records):
            raise MemsimError(f"trace overflow: {filled:,} accesses in one chunk, capacity {len(records):,}; "
                              "trace fewer lines or warps, or lower blocks_per_chunk")
        chunk = WarpAccesses.from_buffers(records[:filled], addresses[:filled])
        chunk.ends_chunk = ends_chunk
        if self.on_chunk is not None:
            self.on_chunk(chunk)
        else:
            self._parts.append(chunk)

    def finish(self) -> None:
        if self.on_chunk is None:
            self.accesses = WarpAccesses.concat(self._parts)
        self._parts = []



def streamed(trace: TraceRequest) -> bool:
    """A trace handed on as it fills (flush_when_full, on_chunk): its consumer sees the request's
    chunks and parts (_ChunkCutter) however many workers ran the blocks, in whatever chunks."""
    return trace.flush_when_full and trace.on_chunk is not None


_SINKS: "weakref.WeakValueDictionary[int, TraceBuffers]" = weakref.WeakValueDictionary()
_SINK_IDS = itertools.count(1)


class TraceBuffers:
    """The arrays an emulator's run_blocks fills for a TraceRequest (or empty ones for none):
    which pcs to record, the warp range, and per worker the records, lane addresses and fill
    state (count, sink id, worker) of the current chunk of blocks. `drain` hands each worker's
    chunk to the request; with `flush_when_full` `record_access` calls `flush` as a buffer
    fills. The first worker's parts go on at once; a later worker's wait (copied) for the chunk's
    end, as its blocks follow the first worker's."""

    def __init__(self, trace: TraceRequest | None, program: TracedProgram, workers: int = 1,
                 cut_chunks: bool = False):
        self.trace = trace
        capacity = trace.capacity if trace else 0
        self.selection = trace.selection(program) if trace else np.zeros(len(program.code), np.int64)
        self.warp_range = trace.warp_range() if trace else np.array((-1, -1), np.int64)
        self.records = np.zeros((workers, capacity, 6), np.int64)
        self.addresses = np.zeros((workers, capacity, 32), np.int64)
        self.filled = np.zeros((workers, 3), np.int64)
        self.held: list[list[tuple[np.ndarray, np.ndarray]]] = [[] for _ in range(workers)]
        self.failure: BaseException | None = None
        # cut_chunks (the SASS engine's): a streamed trace is cut into the request's chunks again
        self.cutter = _ChunkCutter(trace) if cut_chunks and self.streamed else None
        self.most_per_block = 0      # the most records per block an engine chunk made so far
        if trace is not None and trace.flush_when_full:
            sink = next(_SINK_IDS)
            _SINKS[sink] = self
            self.filled[:, 1] = sink
            self.filled[:, 2] = np.arange(workers)

    @property
    def streamed(self) -> bool:
        return self.trace is not None and streamed(self.trace)

    def arrays(self, worker: int = 0) -> tuple[np.ndarray, ...]:
        """run_blocks' trace_sel, trace_warps, trace_rec, trace_addr, trace_fill of one worker."""
        return (self.selection, self.warp_range, self.records[worker], self.addresses[worker],
                self.filled[worker])

    def chunk_blocks(self, untraced: int) -> int:
        """Blocks to run between drains: the request's chunk, or `untraced` without a trace."""
        return self.trace.blocks_per_chunk if self.trace else untraced

    def engine_chunk(self, untraced: int, workers: int) -> tuple[int, int]:
        """(blocks to run before the next drain, workers to run them on). A streamed trace:
        whole chunks of the request, about one buffer of records per worker at the rate seen so
        far (the cutter cuts them into the request's chunks again); one chunk on one worker
        until a chunk is known to fit a buffer, since a later worker's full buffers wait in
        memory for the earlier workers (one block looping over a large array stays on one).
        Else chunk_blocks on every worker."""
        if self.cutter is None:
            return self.chunk_blocks(untraced), workers
        per, rate = self.trace.blocks_per_chunk, self.most_per_block
        if rate == 0 or rate * per > self.trace.capacity:
            return per, 1
        return per * (self.trace.capacity // (rate * per)) * workers, workers

    def flush(self, p: int) -> None:
        """Worker p's buffer is full mid-chunk: hand it on (or hold it) and empty it. Called from
        the emulator (record_access), so a failure is kept for `drain` to raise, and further
        parts overflow instead."""
        try:
            if p == 0 and self.cutter is not None:
                filled = int(self.filled[0, 0])
                self.cutter.feed(self.records[0][:filled], self.addresses[0][:filled])
            elif p == 0:
                self.trace.deliver(self.records[0], self.addresses[0], int(self.filled[0, 0]), ends_chunk=False)
            else:
                self.held[p].append((self.records[p].copy(), self.addresses[p].copy()))
            self.filled[p, 0] = 0
        except BaseException as failure:    # noqa: BLE001 -- raised again by drain
            self.failure = self.failure or failure
            self.filled[:, 1] = 0

    def drain(self, blocks: int = 0) -> None:
        """Hand on the chunk the workers ran (`blocks` blocks: the rate engine_chunk reads)."""
        if self.failure is not None:
            raise self.failure
        if self.cutter is None and not self.trace:
            return
        fed = self.cutter.fed if self.cutter is not None else 0
        for p in range(len(self.filled)):   # workers own consecutive block ranges: block order kept
            for records, addresses in self.held[p]:
                self._hand_on(records, addresses, len(records), last=False)
            self.held[p] = []
            self._hand_on(self.records[p], self.addresses[p], int(self.filled[p, 0]), last=True)
        self.filled[:, 0] = 0
        if self.cutter is not None:
            self.cutter.end()
            self.most_per_block = max(self.most_per_block, -(-(self.cutter.fed - fed) // max(blocks, 1)))

    def _hand_on(self, records: np.ndarray, addresses: np.ndarray, n: int, last: bool) -> None:
        if self.cutter is not None:
            self.cutter.feed(records[:n], addresses[:n])
        else:
            self.trace.deliver(records, addresses, n, ends_chunk=last)

    def finish(self) -> None:
        if self.trace:
            self.trace.finish()


class _ChunkCutter:
    """Hands a streamed trace on as the request's chunks (blocks_per_chunk blocks, counted from
    block 0) in parts of `capacity` records, each but a chunk's last with ends_chunk False, as
    one worker running one chunk at a time hands them: whatever chunks the engine ran and
    however its workers shared them, the consumer sees the same parts. Chunks without an access
    are left out (one worker hands them on empty)."""

    def __init__(self, trace: TraceRequest):
        self.trace = trace
        self.chunk = -1          # the request's chunk being gathered
        self.pending: list[tuple[np.ndarray, np.ndarray]] = []    # its records not yet handed on
        self.rows = 0
        self.fed = 0

    def feed(self, records: np.ndarray, addresses: np.ndarray) -> None:
        """Take the next records (block order; views of a buffer the engine fills again)."""
        n = len(records)
        self.fed += n
        if n == 0:
            return
        chunk_of = records[:, 0] // self.trace.blocks_per_chunk
        cuts = [0, *(np.flatnonzero(chunk_of[1:] != chunk_of[:-1]) + 1).tolist(), n]
        for start, stop in zip(cuts[:-1], cuts[1:]):
            if int(chunk_of[start]) != self.chunk:
                self.end()
                self.chunk = int(chunk_of[start])
            while start < stop:
                if self.rows == self.trace.capacity:    # more of this chunk follows: a part
                    self._hand_on(False)
                take = min(stop - start, self.trace.capacity - self.rows)
                self.pending.append((records[start:start + take], addresses[start:start + take]))
                self.rows += take
                start += take
        # the engine fills its buffer again: keep copies of what waits (views only; copies have no base)
        self.pending = [(r, a) if r.base is None else (r.copy(), a.copy()) for r, a in self.pending]

    def end(self) -> None:
        """The chunk being gathered is complete: its last part."""
        self._hand_on(True)

    def _hand_on(self, ends_chunk: bool) -> None:
        if not self.pending:
            return
        if len(self.pending) == 1:
            records, addresses = self.pending[0]
        else:
            records, addresses = (np.concatenate([p[k] for p in self.pending]) for k in (0, 1))
        self.pending, self.rows = [], 0
        self.trace.deliver(records, addresses, len(records), ends_chunk=ends_chunk)


@njit(cache=True)
def record_access(block, w, pc, kind, active, space, addrs, trace_warps, trace_rec, trace_addr,
                  trace_fill, n_warps):
    """Append one warp access (block, warp, pc, space, op code `kind` of OPS, active mask; lane
    addresses, -1 for inactive lanes) when its warp is selected. A full buffer is flushed
    (TraceBuffers.flush) where the request asks for it (trace_fill[1]: its sink); else the fill
    count runs past capacity, so `deliver` can say how much room the chunk needed."""
    warp = block * n_warps + w
    if trace_warps[0] >= 0 and (warp < trace_warps[0] or warp >= trace_warps[1]):
        return
    k = trace_fill[0]
    if k == trace_rec.shape[0] and trace_fill[1] > 0:
        sink, worker = trace_fill[1], trace_fill[2]
        with objmode():
            _flush(sink, worker)
        k = trace_fill[0]
    trace_fill[0] = k + 1
    if k >= trace_rec.shape[0]:
        return
    trace_rec[k, 0] = block
    trace_rec[k, 1] = w
    trace_rec[k, 2] = pc
    trace_rec[k, 3] = space
    trace_rec[k, 4] = kind
    trace_rec[k, 5] = active
    for lane in range(32):
        trace_addr[k, lane] = addrs[lane] if (active >> lane) & 1 else -1


def _flush(sink: int, worker: int) -> None:
    """record_access's way out of Numba when a buffer fills (object mode; rare: once per
    `capacity` records)."""
    _SINKS[sink].flush(worker)
