"""One SM, cycle by cycle where anything can issue, replaying the issue trace of its blocks
(Numba): four sub-partition schedulers, per-warp stalls and scoreboard barriers as ptxas set
them, pipes with issue intervals, the LSU's L1 pipe, and this SM's share of the L2 and DRAM.

The loop advances a clock `t`. In a cycle each sub-partition issues at most one instruction: the
warp it issued last if that one can go on (greedy), else the oldest that can. A warp can issue
when its previous instruction's stall has passed, every scoreboard barrier its next instruction
waits on is clear, that instruction's pipe is free, and (for a memory instruction) the L1 pipe's
backlog is short enough for the LSU to take it. When nothing can issue the clock jumps to the
earliest moment something can.

Memory (`_memory`): a request occupies the SM's L1 pipe for its wavefronts (a global request one
per 128-byte line, a shared one its bank-conflict wavefronts), then returns after the latency of
the level that serves it. Which level is decided per pc from the cache model's rates, by
error diffusion (a running sum), so each pc's share of L1 hits, L2 hits and DRAM reads is the
modeled one. Bytes that leave the SM queue at its share of the L2 and DRAM bandwidth: a
saturated queue, not the latency, then sets when data comes back.

Warp stall reasons are kept as ncu's warp-state sampling names them (smsp__pcsamp_warps_issue_
stalled_*), each warp's waiting time charged to why it could not issue.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..stream import AUX_FIELD, AUX_LINES, AUX_PASSES, NO_BARRIER, WAIT

N_SMSP = 4
# per-pc memory tables (mem[pc, ...])
MEM_LINES, MEM_MISS, MEM_DRAM, MEM_L2_SECTORS, MEM_DRAM_BYTES, MEM_ATOMIC = range(6)
N_MEM = 6
# machine parameters (cfg[...])
(C_L1_HIT, C_L2_HIT, C_DRAM, C_SHARED, C_WAVEFRONT, C_L2_SECTOR, C_DRAM_BYTE, C_LSU_QUEUE,
 C_READ, C_LAUNCH, C_COLD_CONSTANT, C_LINE_LATENCY, C_LAUNCH_INTERVAL, C_TAG_LINE) = range(14)
N_CFG = 14
# stall reasons (ncu's warp states)
(S_SELECTED, S_NOT_SELECTED, S_WAIT, S_LONG_SCOREBOARD, S_SHORT_SCOREBOARD, S_BARRIER, S_MATH_THROTTLE,
 S_MIO_THROTTLE, S_DRAIN, S_LAUNCH) = range(10)
STALL_NAMES = ("selected", "not_selected", "wait", "long_scoreboard", "short_scoreboard", "barrier",
               "math_pipe_throttle", "mio_throttle", "drain", "launch")
N_STALLS = len(STALL_NAMES)
# where each scoreboard barrier's result comes from (why a warp waits on it)
LONG, SHORT = 1, 2
# totals (out[...])
# O_FIRST_REFILL / O_LAST_START: when the first block that replaced another started, and the last
# block: the pace of block starts, by which a simulation of some waves is scaled to all
O_CYCLES, O_L1_BUSY, O_L2_BUSY, O_DRAM_BUSY, O_ISSUED, O_BLOCKS, O_FIRST_REFILL, O_LAST_START = range(8)
N_OUT = 8

W_GLOBAL_LOAD, W_GLOBAL_STORE, W_GLOBAL_ATOMIC = WAIT["global_load"], WAIT["global_store"], WAIT["global_atomic"]
W_LOCAL_LOAD, W_LOCAL_STORE = WAIT["local_load"], WAIT["local_store"]
W_SHARED_LOAD, W_SHARED_STORE, W_SHARED_ATOMIC = WAIT["shared_load"], WAIT["shared_store"], WAIT["shared_atomic"]
W_ASYNC, W_BARRIER, W_SHUFFLE, W_CONSTANT = WAIT["async_copy"], WAIT["barrier"], WAIT["shuffle"], WAIT["constant"]
W_ASYNC_WAIT = WAIT["async_wait"]


@njit(cache=True)
def _is_memory(w):
    return (w == W_GLOBAL_LOAD or w == W_GLOBAL_STORE or w == W_GLOBAL_ATOMIC or w == W_LOCAL_LOAD
            or w == W_LOCAL_STORE or w == W_SHARED_LOAD or w == W_SHARED_STORE or w == W_SHARED_ATOMIC
            or w == W_ASYNC or w == W_SHUFFLE)


@njit(cache=True, inline="always")
def _l1_cost(aux, lines_per_sector, miss_share, cfg):
    """(sectors, wavefront-equivalent passes, L1 pipe cycles, lines) of a global or local access. A
    SASS global load carries its L1 bank passes and lines (memsim.stream.AUX_*): it takes the
    longer of its bank passes (a wavefront each) and its lines, a tag lookup (C_TAG_LINE,
    gpu/probes/l1_lines_probe.cu, measured on hits) for the share that hits L1 and a wavefront
    for the share that misses (miss_share: the launch's, as the cache model counts it; misses
    were not probed, so they keep the cost a line had before); otherwise the pc's wavefronts per
    sector (MEM_LINES) decide."""
    a = int(aux)
    sectors = a & AUX_FIELD
    passes, tags = (a >> AUX_PASSES) & AUX_FIELD, a >> AUX_LINES
    if passes > 0 and cfg[C_TAG_LINE] > 0:
        per_line = (1.0 - miss_share) * cfg[C_TAG_LINE] + miss_share * cfg[C_WAVEFRONT]
        busy = max(passes * cfg[C_WAVEFRONT], tags * per_line)
        return sectors, max(1.0, busy / cfg[C_WAVEFRONT]), busy, float(max(tags, 1))
    lines = max(1.0, sectors * lines_per_sector)
    return sectors, lines, lines * cfg[C_WAVEFRONT], lines


@njit(cache=True)
def _memory(kind, pc, aux, level, t, mem, cfg, queues, carry):
    """(when the result is back, when the sources have been read) of a memory instruction issued
    at t; queues = [L1 pipe free, L2 free, DRAM free, L1 busy, L2 busy, DRAM busy, atomic unit
    free]. `level`: for a
    global load, 0 if the cache model served this very request from L1, 1 if it went on, -1 if
    unknown (then the pc's rates decide)."""
    start = max(t, queues[0])
    if kind == W_SHARED_LOAD or kind == W_SHARED_STORE or kind == W_SHARED_ATOMIC or kind == W_SHUFFLE:
        busy = max(aux, 1) * cfg[C_WAVEFRONT]
        queues[0] = start + busy
        queues[3] += busy
        return queues[0] + cfg[C_SHARED], start + cfg[C_READ]
    sectors, lines, busy, tags = _l1_cost(aux, mem[pc, MEM_LINES], mem[pc, MEM_MISS], cfg)
    queues[0] = start + busy
    queues[3] += busy
    # each line of a request adds latency beyond its pipe slot (measured: gpu/probes/sm_probe.cu);
    # an atomic's packets only pass through (gpu/probes/atomic_probe.cu: a chain of ATOMs of 32
    # packets takes the L2 latency and the unit's 32 packets, no more)
    done_l1 = queues[0]
    if kind != W_GLOBAL_ATOMIC:
        done_l1 += (lines - 1.0) * cfg[C_LINE_LATENCY]
    if kind == W_LOCAL_LOAD or kind == W_LOCAL_STORE:
        return done_l1 + cfg[C_L1_HIT], start + cfg[C_READ]
    # bandwidth: this request's expected share of L2 sectors and DRAM bytes
    l2 = sectors * mem[pc, MEM_L2_SECTORS] * cfg[C_L2_SECTOR]
    l2_start = max(done_l1, queues[1])
    queues[1] = l2_start + l2
    queues[4] += l2
    dram = sectors * mem[pc, MEM_DRAM_BYTES] * cfg[C_DRAM_BYTE]
    dram_done = 0.0
    if dram > 0:
        d_start = max(done_l1, queues[2])
        queues[2] = d_start + dram
        queues[5] += dram
        dram_done = queues[2]
    if kind == W_GLOBAL_STORE:
        return done_l1, start + cfg[C_READ]
    if kind == W_GLOBAL_ATOMIC and mem[pc, MEM_ATOMIC] > 0:
        # the launch's busiest L2 atomic unit applies its packets one after another; this SM holds
        # its share of it (mem[pc, MEM_ATOMIC] per packet: machine.atomic_unit_cycles), and an
        # ATOM's result comes back after its packets have been applied. The unit takes the first
        # packet as the L1 sends it: the two overlap, the slower one sets the pace
        a_start = max(start, queues[6])
        queues[6] = max(a_start + sectors * mem[pc, MEM_ATOMIC], done_l1)
        return max(queues[6] + cfg[C_L2_HIT], done_l1 + cfg[C_L2_HIT], queues[1] + cfg[C_L1_HIT]), start + cfg[C_READ]
    # latency: which level serves this request (the cache model's, else error diffusion per pc)
    if level == 0:
        return done_l1 + cfg[C_L1_HIT], start + cfg[C_READ]
    if level < 0:
        carry[pc, 0] += mem[pc, MEM_MISS]
        if carry[pc, 0] < 1.0 and kind != W_GLOBAL_ATOMIC:
            return done_l1 + cfg[C_L1_HIT], start + cfg[C_READ]
        if carry[pc, 0] >= 1.0:
            carry[pc, 0] -= 1.0
    # the request waits for its slowest line: it waits for DRAM when any of its lines that
    # missed L1 misses the L2 too (each line the pc's per-sector L2 miss share, independently)
    missing = max(1.0, tags * mem[pc, MEM_MISS])
    carry[pc, 1] += 1.0 - (1.0 - mem[pc, MEM_DRAM]) ** missing
    back = max(done_l1 + cfg[C_L2_HIT], queues[1] + cfg[C_L1_HIT])
    if carry[pc, 1] >= 1.0:
        carry[pc, 1] -= 1.0
        back = max(done_l1 + cfg[C_DRAM], dram_done + cfg[C_L2_HIT], back)
    return back, start + cfg[C_READ]


# A pipe's issue interval need not be whole cycles (an FFMA every 1.074): the pipe keeps its
# fractional backlog and takes an instruction in any cycle that it frees during, so it issues at
# its measured rate (with whole-cycle steps alone, 1.074 would allow one every second cycle).
PIPE_SLACK = 1.0 - 1e-6
SAMPLE_CYCLES = 8.0   # warp states are sampled every this many cycles, as ncu samples them


@njit(cache=True)
def simulate_sm(start, pcs, auxs, levels, n_traces, n_blocks, warps_per_block, resident, block_slots, warp_slots,
                stall, wbar, rbar, wmask, pipe, wait, interval, wait_cycles, mem, cfg, out, stalls):
    """Run n_blocks blocks on one SM, `resident` at the start: block j replays recorded block
    j % n_traces (warp k of recorded block i issues pcs[start[i * warps_per_block + k]:...]).
    A warp that exits gives its slot back at once: a block starts whenever at most
    `block_slots` blocks and `warp_slots` live warps then fit (the H100 keeps 10 blocks of 8
    warps resident where 7 of each exit at once; registers come back only with the whole
    block: gpu/cache_probe/exit_probe.py).
    Fills out[O_*] and stalls[S_*] (sampled warp-cycles). Returns the cycle the last warp
    finished."""
    slots = block_slots * warps_per_block
    ptr = np.zeros(slots, np.int64)
    end = np.zeros(slots, np.int64)
    live = np.zeros(slots, np.int64)       # 1 running, 2 at a barrier, 0 idle
    ready = np.zeros(slots, np.float64)    # the stall of its last instruction has passed
    own = np.zeros(slots, np.float64)      # ready and the barriers its next instruction waits on
    age = np.zeros(slots, np.int64)
    sb = np.zeros((slots, 6), np.float64)
    sb_kind = np.zeros((slots, 6), np.int64)
    block_of = np.full(block_slots, -1, np.int64)
    block_live = np.zeros(block_slots, np.int64)
    block_arrived = np.zeros(block_slots, np.int64)
    pipe_free = np.zeros((N_SMSP, interval.shape[0]), np.float64)
    last = np.full(N_SMSP, -1, np.int64)
    queues = np.zeros(7, np.float64)
    carry = np.zeros((mem.shape[0], 2), np.float64)
    constant_seen = np.zeros(mem.shape[0], np.int64)
    async_done = np.zeros(slots, np.float64)
    issued_at = np.full(slots, -1.0)
    # the SM's warp slots: hw[h] the warp in slot h (-1: free), h_of[w] its slot; slot h issues
    # from sub-partition h % 4, and a new warp goes to the sub-partition with the fewest
    hw = np.full(warp_slots, -1, np.int64)
    h_of = np.full(slots, -1, np.int64)
    state = np.zeros(3, np.int64)          # next block to start, warps alive, age counter
    t = 0.0
    launched = -cfg[C_LAUNCH_INTERVAL]      # when the SM last took a block: it takes one per interval
    for r in range(resident):
        if state[0] < n_blocks:
            launched += cfg[C_LAUNCH_INTERVAL]
            out[O_LAST_START] = launched
            _start_block(r, state[0] % n_traces, launched, start, pcs, warps_per_block, hw, h_of, ptr, end, live, ready, own, age,
                         sb, wmask, wait, block_of, block_live, block_arrived, state, async_done)
            state[0] += 1
    finish = 0.0
    next_sample = 0.0
    while True:
        issued = 0
        for s in range(N_SMSP):
            w = _pick(s, t, last[s], hw, live, own, ptr, pcs, pipe, pipe_free, wait, queues, cfg, age)
            if w < 0:
                continue
            last[s] = w
            issued += 1
            issued_at[w] = t
            pc = pcs[ptr[w]]
            kind = wait[pc]
            pipe_free[s, pipe[pc]] = max(pipe_free[s, pipe[pc]], t) + interval[pipe[pc]]
            ready[w] = t + max(stall[pc], 1)
            out[O_ISSUED] += 1
            back, read = t + wait_cycles[kind], t + cfg[C_READ]
            long = SHORT
            if _is_memory(kind):
                back, read = _memory(kind, pc, auxs[ptr[w]], levels[ptr[w]], t, mem, cfg, queues, carry)
                if kind == W_ASYNC:
                    async_done[w] = max(async_done[w], back)
                if kind != W_SHARED_LOAD and kind != W_SHARED_ATOMIC and kind != W_SHUFFLE:
                    long = LONG
            elif kind == W_CONSTANT and constant_seen[pc] == 0:
                constant_seen[pc] = 1      # a cold launch: the first read of each goes to memory
                back = t + cfg[C_COLD_CONSTANT]
                long = LONG
            if wbar[pc] != NO_BARRIER and back > sb[w, wbar[pc]]:
                sb[w, wbar[pc]] = back
                sb_kind[w, wbar[pc]] = long
            if rbar[pc] != NO_BARRIER and read > sb[w, rbar[pc]]:
                sb[w, rbar[pc]] = read
                sb_kind[w, rbar[pc]] = SHORT
            ptr[w] += 1
            r = w // warps_per_block
            if kind == W_BARRIER:
                live[w] = 2
                block_arrived[r] += 1
            exited = ptr[w] == end[w]
            if exited:
                live[w] = 0
                hw[h_of[w]] = -1
                block_live[r] -= 1
                state[1] -= 1
                finish = max(finish, ready[w])
            else:
                own[w] = _own(w, ready[w], pcs[ptr[w]], sb, wmask, wait, async_done)
            if block_live[r] > 0 and block_arrived[r] == block_live[r]:
                _release(r, t + wait_cycles[W_BARRIER], warps_per_block, live, ready, own, ptr, pcs, sb, wmask,
                         wait, async_done, block_arrived)
            if block_live[r] == 0 and block_of[r] >= 0:
                block_of[r] = -1
                out[O_BLOCKS] += 1
            while exited and state[0] < n_blocks and state[1] + warps_per_block <= warp_slots:
                free = _free_block_slot(block_of)
                if free < 0:
                    break
                launched = max(t + cfg[C_LAUNCH], launched + cfg[C_LAUNCH_INTERVAL])
                if state[0] == resident:
                    out[O_FIRST_REFILL] = launched
                out[O_LAST_START] = launched
                _start_block(free, state[0] % n_traces, launched, start, pcs, warps_per_block, hw, h_of, ptr, end,
                             live, ready, own, age, sb, wmask, wait, block_of, block_live, block_arrived, state,
                             async_done)
                state[0] += 1
                if block_live[free] == 0:      # a block whose warps all have nothing to run
                    block_of[free] = -1
                    out[O_BLOCKS] += 1
        if state[1] == 0 and state[0] >= n_blocks:
            break
        step = 1.0
        if issued == 0:
            step = max(1.0, _soonest(t, hw, live, own, ptr, pcs, pipe, pipe_free, wait, queues, cfg) - t)
        while next_sample < t + step:
            _charge(next_sample, hw, live, own, ready, ptr, pcs, wmask, sb, sb_kind, pipe, pipe_free, wait,
                    queues, cfg, issued_at, t, stalls)
            next_sample += SAMPLE_CYCLES
        t += step
    # the launch ends when its traffic has been served: stores leave their warps at once, but the
    # SM's share of L2 and DRAM bandwidth still has to carry them (a write-only stream)
    out[O_CYCLES] = max(t, finish, queues[0], queues[1], queues[2], queues[6])
    out[O_L1_BUSY], out[O_L2_BUSY], out[O_DRAM_BUSY] = queues[3], queues[4], queues[5]
    return out[O_CYCLES]


@njit(cache=True)
def _own(w, ready_at, pc, sb, wmask, wait, async_done):
    """When warp w's next instruction (pc) has what the warp itself waits for: the previous
    stall, the scoreboard barriers pc names, and for DEPBAR its cp.async copies."""
    e = ready_at
    m = wmask[pc]
    for b in range(6):
        if (m >> b) & 1 and sb[w, b] > e:
            e = sb[w, b]
    if wait[pc] == W_ASYNC_WAIT and async_done[w] > e:
        e = async_done[w]   # DEPBAR: cp.async groups (waited for whole: the group count is not kept)
    return e


@njit(cache=True)
def _free_block_slot(block_of):
    """A block slot no block holds, or -1."""
    for r in range(len(block_of)):
        if block_of[r] < 0:
            return r
    return -1


@njit(cache=True)
def _free_warp_slot(hw):
    """The lowest free slot of the sub-partition with the fewest warps."""
    best, best_load = -1, 1 << 30
    for s in range(N_SMSP):
        load, free = 0, -1
        for h in range(s, len(hw), N_SMSP):
            if hw[h] >= 0:
                load += 1
            elif free < 0:
                free = h
        if free >= 0 and load < best_load:
            best, best_load = free, load
    return best


@njit(cache=True)
def _start_block(r, block, t, start, pcs, warps_per_block, hw, h_of, ptr, end, live, ready, own, age, sb, wmask, wait,
                 block_of, block_live, block_arrived, state, async_done):
    block_of[r] = block
    block_live[r] = 0
    block_arrived[r] = 0
    for k in range(warps_per_block):
        w = r * warps_per_block + k
        i = block * warps_per_block + k
        ptr[w], end[w] = start[i], start[i + 1]
        ready[w] = t
        age[w] = state[2]
        state[2] += 1
        async_done[w] = 0.0
        for b in range(6):
            sb[w, b] = 0.0
        if end[w] > ptr[w]:
            live[w] = 1
            h = _free_warp_slot(hw)
            hw[h], h_of[w] = w, h
            block_live[r] += 1
            state[1] += 1
            own[w] = _own(w, t, pcs[ptr[w]], sb, wmask, wait, async_done)
        else:
            live[w] = 0


@njit(cache=True)
def _release(r, when, warps_per_block, live, ready, own, ptr, pcs, sb, wmask, wait, async_done, block_arrived):
    """The block's barrier lets every waiting warp go."""
    for k in range(warps_per_block):
        w = r * warps_per_block + k
        if live[w] == 2:
            live[w] = 1
            ready[w] = max(ready[w], when)
            own[w] = _own(w, ready[w], pcs[ptr[w]], sb, wmask, wait, async_done)
    block_arrived[r] = 0


@njit(cache=True)
def _earliest(w, s, own, ptr, pcs, pipe, pipe_free, wait, queues, cfg):
    """When warp w (of sub-partition s) could issue its next instruction: its own waits, its
    pipe, the LSU's queue."""
    pc = pcs[ptr[w]]
    e = own[w]
    f = pipe_free[s, pipe[pc]] - PIPE_SLACK
    if f > e:
        e = f
    if _is_memory(wait[pc]):
        q = queues[0] - cfg[C_LSU_QUEUE]
        if q > e:
            e = q
    return e


@njit(cache=True)
def _pick(s, t, last, hw, live, own, ptr, pcs, pipe, pipe_free, wait, queues, cfg, age):
    """The warp sub-partition s issues at t (of those in its warp slots hw[s::4]): the last one
    if it can go on, else the oldest."""
    if last >= 0 and live[last] == 1 and own[last] <= t and \
            _earliest(last, s, own, ptr, pcs, pipe, pipe_free, wait, queues, cfg) <= t:
        return last
    best = -1
    best_age = 0
    for h in range(s, len(hw), N_SMSP):
        w = hw[h]
        if w < 0 or live[w] != 1 or own[w] > t:
            continue
        if (best < 0 or age[w] < best_age) and _earliest(w, s, own, ptr, pcs, pipe, pipe_free, wait, queues, cfg) <= t:
            best, best_age = w, age[w]
    return best


@njit(cache=True)
def _soonest(t, hw, live, own, ptr, pcs, pipe, pipe_free, wait, queues, cfg):
    soonest = 1e300
    for h in range(len(hw)):
        w = hw[h]
        if w >= 0 and live[w] == 1:
            e = _earliest(w, h % N_SMSP, own, ptr, pcs, pipe, pipe_free, wait, queues, cfg)
            if e < soonest:
                soonest = e
    if soonest == 1e300:
        soonest = t + 1.0
    return soonest


@njit(cache=True)
def _charge(at, hw, live, own, ready, ptr, pcs, wmask, sb, sb_kind, pipe, pipe_free, wait, queues, cfg,
            issued_at, t, stalls):
    """Sample each resident warp's state at cycle `at` (within the step from t): issuing
    (selected), or why it waits, SAMPLE_CYCLES warp-cycles each."""
    for h in range(len(hw)):
        w = hw[h]
        if w < 0:
            continue
        if live[w] == 2:
            stalls[S_BARRIER] += SAMPLE_CYCLES
            continue
        if live[w] != 1 and issued_at[w] != t:
            continue
        if issued_at[w] == t and at == t:
            stalls[S_SELECTED] += SAMPLE_CYCLES
            continue
        if live[w] != 1:
            continue
        pc = pcs[ptr[w]]
        reason = S_NOT_SELECTED
        if ready[w] > at:
            reason = S_WAIT
        m = wmask[pc]
        worst = at
        for b in range(6):
            if (m >> b) & 1 and sb[w, b] > worst:
                worst = sb[w, b]
                reason = S_LONG_SCOREBOARD if sb_kind[w, b] == LONG else S_SHORT_SCOREBOARD
        if reason == S_NOT_SELECTED:
            if pipe_free[h % N_SMSP, pipe[pc]] - PIPE_SLACK > at:
                reason = S_MATH_THROTTLE
            elif _is_memory(wait[pc]) and queues[0] - cfg[C_LSU_QUEUE] > at:
                reason = S_MIO_THROTTLE
        stalls[reason] += SAMPLE_CYCLES
