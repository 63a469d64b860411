"""Which SM runs which block, and in what order each SM's warps reach the memory system.

The cache model needs a plausible order of requests, not a cycle-accurate one:

- **Occupancy**: blocks per SM are limited by threads, warps, registers (allocated per warp in
  units), shared memory (with the driver's per-block reservation) and the blocks-per-SM limit.
  The shared-memory carveout is the one the driver picks (the GPU profile's carveout policy:
  the smallest that holds the resident blocks, or on the H100 room for twice as many); the rest
  of the unified L1/shared array is L1.
- **Placement**: the first wave goes breadth-first (block b to SM b mod SMs, then a second
  block per SM, ...), as the hardware's block distributor does; every later block takes the slot
  that frees first, so blocks of unequal length refill SMs as they finish.
- **Interleaving**: time is counted in *steps*: the k-th global access of a warp happens at
  step start(block) + k. Co-resident warps of an SM are interleaved one memory instruction each
  per step (round robin in block-slot and warp order), and every SM advances one step at a time,
  so L2 sees the SMs' requests interleaved too. A block lasts as many steps as its busiest warp.
"""
from __future__ import annotations

import heapq

import numpy as np
from numba import njit
from pydantic import BaseModel, Field

from ..errors import LaunchError
from ..stream import CodeFlow


class OccupancyLimits(BaseModel):
    """The per-SM limits occupancy depends on (a GPU profile supplies them:
    memsim.model.cache.CacheGeometry.for_gpu)."""

    max_threads_per_sm: int
    max_warps_per_sm: int
    max_blocks_per_sm: int
    registers_per_sm: int
    register_allocation_unit: int
    shared_per_sm_bytes: int
    shared_reserved_per_block_bytes: int
    shared_allocation_unit: int
    l1_shared_per_sm_bytes: int
    carveouts_kb: list[int]
    carveout_headroom: float = 1.0
    carveout_headroom_limit_kb: int = 0
    carveout_unshared_blocks_per_thread_limit: int = 1


class ResidentBlocks(BaseModel):
    """What a block shape leaves resident on one SM: blocks, their limiter, and the L1 beside
    their shared memory."""

    blocks_per_sm: int = Field(description="resident blocks per SM")
    limited_by: str = Field(description="threads | warps | registers | shared memory | blocks")
    warps_per_block: int
    shared_carveout_bytes: int = Field(description="shared memory the driver carves out of the unified array")
    l1_bytes: int = Field(description="what is left for L1 per SM")
    warp_slots: int = Field(0, description="live warps an SM holds by the per-warp limits (threads, "
                                           "warp slots): a warp that exits frees its share")
    block_slots: int = Field(0, description="blocks an SM holds by the per-block limits (shared "
                                            "memory, registers, the block limit)")


def occupancy(threads_per_block: int, registers_per_thread: int, shared_per_block: int,
              limits: OccupancyLimits) -> ResidentBlocks:
    """Resident blocks per SM and the L1 capacity that remains next to their shared memory."""
    warps = -(-threads_per_block // 32)
    regs_per_warp = _round_up(max(registers_per_thread, 1) * 32, limits.register_allocation_unit)
    smem = _round_up(shared_per_block, limits.shared_allocation_unit) + limits.shared_reserved_per_block_bytes
    candidates = {
        "threads": limits.max_threads_per_sm // (warps * 32),
        "warps": limits.max_warps_per_sm // warps,
        "registers": limits.registers_per_sm // (regs_per_warp * warps),
        "shared memory": limits.shared_per_sm_bytes // smem if smem else limits.max_blocks_per_sm,
        "blocks": limits.max_blocks_per_sm,
    }
    limited_by = min(candidates, key=candidates.get)
    blocks = candidates[limited_by]
    if blocks < 1:
        raise LaunchError(f"a block of {threads_per_block} threads, {registers_per_thread} registers "
                          f"per thread and {shared_per_block} bytes of shared memory does not fit on an SM "
                          f"(limited by {limited_by})")
    if shared_per_block == 0 and limits.carveout_unshared_blocks_per_thread_limit > 1:
        thread_blocks = min(candidates["threads"], candidates["warps"], limits.max_blocks_per_sm)
        carveout = _carveout(smem * min(limits.max_blocks_per_sm, thread_blocks
                                        * limits.carveout_unshared_blocks_per_thread_limit), limits)
    else:
        other = min(v for k, v in candidates.items() if k != "shared memory")
        carveout = _carveout(_shared_wanted(other, threads_per_block, smem, limits), limits)
    warp_slots = min(limits.max_threads_per_sm // 32, limits.max_warps_per_sm)
    block_slots = min(candidates["shared memory"], candidates["blocks"], candidates["registers"])
    return ResidentBlocks(blocks_per_sm=blocks, limited_by=limited_by, warps_per_block=warps,
                     shared_carveout_bytes=carveout, l1_bytes=limits.l1_shared_per_sm_bytes - carveout,
                     warp_slots=warp_slots, block_slots=block_slots)


def _shared_wanted(blocks: int, threads: int, smem: int, limits: OccupancyLimits) -> int:
    """Shared memory the driver provisions for `blocks` resident blocks of `smem` bytes: room
    for `carveout_headroom` times as many (up to the block limit, and only up to
    `carveout_headroom_limit_kb`), except for one resident block or blocks of the largest size."""
    needed = blocks * smem
    if blocks <= 1 or threads >= limits.max_threads_per_sm // 2:
        return needed
    roomy = min(limits.max_blocks_per_sm, int(blocks * limits.carveout_headroom)) * smem
    return max(needed, min(roomy, limits.carveout_headroom_limit_kb * 1024))


def _carveout(needed: int, limits: OccupancyLimits) -> int:
    """The smallest carveout the resident blocks' shared memory fits in."""
    for kb in sorted(limits.carveouts_kb):
        if kb * 1024 >= needed:
            return kb * 1024
    return max(limits.carveouts_kb) * 1024


def _round_up(n: int, unit: int) -> int:
    return -(-n // unit) * unit


class BlockPlacer:
    """Assigns blocks, in launch order, to (SM, slot) and a start step; lengths come later.

    Blocks arrive in chunks (the trace streams them in launch order); `place` takes the lengths
    of the next blocks and returns their SM and start step."""

    def __init__(self, sm_count: int, blocks_per_sm: int):
        self.sm_count, self.blocks_per_sm = sm_count, blocks_per_sm
        # (free at step, slot, sm): the first wave fills slot 0 of every SM, then slot 1, ...
        self.free = [(0, slot, sm) for slot in range(blocks_per_sm) for sm in range(sm_count)]
        heapq.heapify(self.free)

        self.held: tuple[int, int, int] | None = None

    def place(self, lengths: np.ndarray, hold_last: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(sm, slot, start step) of each block, given each block's length in steps. With
        `hold_last` the last block's length is not known yet: its slot stays taken until
        `release` gives it (no block is placed in between, so the placement is the same)."""
        n = len(lengths)
        sm, slot, start = np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64)
        for i, length in enumerate(lengths.tolist()):
            free_at, s, m = heapq.heappop(self.free)
            sm[i], slot[i], start[i] = m, s, free_at
            if hold_last and i == n - 1:
                self.held = (free_at, s, m)
            else:
                heapq.heappush(self.free, (free_at + max(length, 1), s, m))
        return sm, slot, start

    def release(self, length: int) -> None:
        """The held block's length, now known: its slot is free again after it."""
        free_at, s, m = self.held
        heapq.heappush(self.free, (free_at + max(length, 1), s, m))
        self.held = None


class ProgramFlow(BaseModel):
    """What the order model needs from the code: which global loads a warp waits for before
    each access (a warp issues in order; it stalls only where an instruction needs the data of
    a load still in flight), and where the barriers are. Built from the code of the engine
    whose trace the model reads, since its pcs index these arrays."""

    model_config = {"arbitrary_types_allowed": True}
    needs: np.ndarray            # [pc] bit mask of the global loads waited for at pc
    load_bit: np.ndarray         # [pc] the bit of a global load (0 for other instructions)
    barriers_before: np.ndarray  # [pc] barrier instructions before pc

    @classmethod
    def empty(cls) -> "ProgramFlow":
        return cls(needs=np.zeros(0, np.int64), load_bit=np.zeros(0, np.int64),
                   barriers_before=np.zeros(1, np.int64))

    @classmethod
    def of(cls, flow: CodeFlow) -> "ProgramFlow":
        """From the register flow an engine gives of its code (memsim.stream.CodeFlow)."""
        if flow.scheduled:
            return cls.in_order(flow.sources, flow.dests, flow.n_slots, flow.loads, flow.accesses,
                                flow.guarded, flow.barriers)
        return cls.dataflow(flow.sources, flow.dests, flow.n_slots, flow.loads, flow.barriers)

    @classmethod
    def dataflow(cls, sources: np.ndarray, dests: np.ndarray, n_slots: int, loads: np.ndarray,
                 barriers: np.ndarray) -> "ProgramFlow":
        """From code not scheduled yet (PTX): registers each instruction reads and writes
        (`sources`/`dests`, [pc, k] slots, -1 padded); boolean per pc: global `loads`, `barriers`.

        ptxas will hoist independent loads above the code between them, so an access waits
        only for the loads its own operands derive from (followed through every instruction,
        one pass in code order: what a loop carries round is ignored)."""
        load_bit = _load_bits(loads)
        needs = np.zeros(len(sources), np.int64)
        _taint(sources, dests, n_slots, load_bit, needs)
        return cls(needs=needs, load_bit=load_bit, barriers_before=_barriers_before(barriers))

    @classmethod
    def in_order(cls, sources: np.ndarray, dests: np.ndarray, n_slots: int, loads: np.ndarray,
                 accesses: np.ndarray, guarded: np.ndarray, barriers: np.ndarray) -> "ProgramFlow":
        """From scheduled machine code (SASS): registers each instruction reads and writes
        (`sources`/`dests`, [pc, k] slots, -1 padded); boolean per pc: global `loads`, traced
        global `accesses`, `guarded` (a predicated write may leave the old value) and
        `barriers`.

        The code is in issue order already (ptxas put the loads early and their consumers
        late), so this is the scoreboard rule itself: a warp waits at the first instruction
        that reads a register a load in flight will fill, whatever that instruction is. An
        access's `needs` holds the loads read by any instruction since the previous global
        access in code order, itself included. Data is followed one step only: an
        instruction that read it had waited, so what it computes is ready. Straight-line
        code is exact; across branches the window is the code between the two accesses."""
        load_bit = _load_bits(loads)
        needs = np.zeros(len(sources), np.int64)
        _scoreboard(sources, dests, n_slots, load_bit, accesses, guarded, needs)
        return cls(needs=needs, load_bit=load_bit, barriers_before=_barriers_before(barriers))


def _load_bits(loads: np.ndarray) -> np.ndarray:
    """One bit per global load in code order (loads past the 63rd share the last bit)."""
    load_bit = np.zeros(len(loads), np.int64)
    load_bit[loads] = 1 << np.minimum(np.arange(int(loads.sum())), 62)
    return load_bit


def _barriers_before(barriers: np.ndarray) -> np.ndarray:
    return np.r_[0, np.cumsum(barriers)]


@njit(cache=True)
def _taint(sources, dests, n_slots, load_bit, needs):
    """needs[pc]: the loads pc's operands derive from, through any chain of instructions."""
    taint = np.zeros(n_slots + 1, np.int64)
    for pc in range(len(sources)):
        t = 0
        for slot in sources[pc]:
            if slot >= 0:
                t |= taint[slot]
        needs[pc] = t
        out = load_bit[pc] if load_bit[pc] != 0 else t
        for slot in dests[pc]:
            if slot >= 0:
                taint[slot] = out


@njit(cache=True)
def _scoreboard(sources, dests, n_slots, load_bit, accesses, guarded, needs):
    """needs[pc]: the loads whose destinations the instructions since the previous access read."""
    pending = np.zeros(n_slots + 1, np.int64)    # per register: the load that will fill it
    waited = 0
    for pc in range(len(sources)):
        for slot in sources[pc]:
            if slot >= 0:
                waited |= pending[slot]
        needs[pc] = waited
        if accesses[pc]:
            waited = 0
        for slot in dests[pc]:
            if slot >= 0:
                pending[slot] = load_bit[pc] | (pending[slot] if guarded[pc] else 0)


class WarpHistory(BaseModel):
    """Per access (in the order given): its step within its warp, and whether the warp is
    still in lock step with the others."""

    model_config = {"arbitrary_types_allowed": True}
    step: np.ndarray            # k for the k-th access of its warp
    stalled: np.ndarray         # the warp waited for a load's data earlier
    resynced: np.ndarray        # ... but passed a barrier since (in step with its block again)


class WarpCarry:
    """Where the warps of one unfinished block stand (step, loads in flight, stalled, stalled
    since the last barrier, last pc), carried from one part of its accesses to the next."""

    WARPS = 4096        # warp_history's key: block * 4096 + warp

    def __init__(self, block: int = -1):
        self.block = block
        self.state = np.zeros((5, self.WARPS), np.int64)


def warp_history(block: np.ndarray, warp: np.ndarray, pc: np.ndarray, is_load: np.ndarray,
                 flow: ProgramFlow, carry_in: WarpCarry | None = None,
                 carry_out: WarpCarry | None = None) -> WarpHistory:
    """Steps and lock-step facts of accesses listed in each warp's program order.

    A warp stalls at an access that needs the data of a load still in flight, or when it
    jumps back (a loop) with loads in flight. A barrier between two accesses brings the
    block's warps back into step. A block whose earlier accesses came before goes on from
    `carry_in`; the warps of `carry_out`'s block leave their state there."""
    carry_in, carry_out = carry_in or WarpCarry(), carry_out or WarpCarry()
    n = len(block)
    order = np.argsort(block * 4096 + warp, kind="stable")
    step, stalled, resynced = np.empty(n, np.int64), np.empty(n, np.bool_), np.empty(n, np.bool_)
    top = int(pc.max(initial=0)) + 2
    needs, load_bit, bars = flow.needs, flow.load_bit, flow.barriers_before
    if len(needs) < top:   # no program given: every load's data is needed at once
        needs = np.r_[needs, np.full(top - len(needs), -1)]
        load_bit = np.r_[load_bit, np.full(top - len(load_bit), 1)]
        bars = np.r_[bars, np.full(top - len(bars), bars[-1])]
    _history(order, block * 4096 + warp, pc, is_load, needs, load_bit, bars, step, stalled, resynced,
             carry_in.block, carry_in.state, carry_out.block, carry_out.state)
    return WarpHistory(step=step, stalled=stalled, resynced=resynced)


@njit(cache=True, nogil=True)
def _history(order, key, pc, is_load, needs, load_bit, barriers_before, step, stalled, resynced,
             in_block, carry_in, out_block, carry_out):
    prev_key = -1
    k = 0
    in_flight = 0              # bits of the loads whose data has not been waited for
    ever_stalled = False
    since_barrier = False      # stalled since the last barrier
    prev_pc = 0
    for idx in range(len(order)):
        i = order[idx]
        here = pc[i]
        if key[i] != prev_key:
            if prev_key >= 0 and prev_key // 4096 == out_block:
                _keep(carry_out, prev_key % 4096, k, in_flight, ever_stalled, since_barrier, prev_pc)
            prev_key, k, in_flight, ever_stalled, since_barrier = key[i], 0, 0, False, False
            if key[i] // 4096 == in_block and carry_in[0, key[i] % 4096] > 0:
                # the warp's earlier accesses came in an earlier part: go on from there
                w = key[i] % 4096
                k, in_flight, ever_stalled = carry_in[0, w], carry_in[1, w], carry_in[2, w] != 0
                since_barrier, prev_pc = carry_in[3, w] != 0, carry_in[4, w]
                in_flight, ever_stalled, since_barrier = _advance(here, prev_pc, in_flight, ever_stalled,
                                                                  since_barrier, needs, barriers_before)
        else:
            in_flight, ever_stalled, since_barrier = _advance(here, prev_pc, in_flight, ever_stalled,
                                                              since_barrier, needs, barriers_before)
        step[i] = k
        stalled[i] = ever_stalled
        resynced[i] = ever_stalled and not since_barrier
        if is_load[i]:
            in_flight |= load_bit[here] if load_bit[here] != 0 else 1
        prev_pc = here
        k += 1
    if prev_key >= 0 and prev_key // 4096 == out_block:
        _keep(carry_out, prev_key % 4096, k, in_flight, ever_stalled, since_barrier, prev_pc)


@njit(cache=True, nogil=True, inline="always")
def _advance(here, prev_pc, in_flight, ever_stalled, since_barrier, needs, barriers_before):
    """A warp's state after moving from access prev_pc to `here`: it stalls where it needs a load
    in flight or jumps back with loads in flight; a barrier between brings it back into step."""
    if in_flight != 0 and (here <= prev_pc or (needs[here] & in_flight) != 0):
        ever_stalled = True
        since_barrier = True
        in_flight = 0
    lo, hi = min(prev_pc, here), max(prev_pc, here)
    if barriers_before[hi + 1] - barriers_before[lo] > 0:
        since_barrier = False
    return in_flight, ever_stalled, since_barrier


@njit(cache=True, nogil=True)
def _keep(carry, w, k, in_flight, ever_stalled, since_barrier, prev_pc):
    carry[0, w], carry[1, w], carry[2, w] = k, in_flight, ever_stalled
    carry[3, w], carry[4, w] = since_barrier, prev_pc
