"""Run lowered SASS (memsim/engine/sass/program.py) warp by warp in Numba, with real values.

A warp step issues the instruction at the smallest PC among its running lanes for every lane
sitting there (min-PC reconvergence). While all running lanes share one PC (the common case) the
warp keeps that PC alone and skips the per-lane scan. Convergence barriers are modelled as on
Volta and later: BSSY records the lanes that enter a region, BSYNC parks arriving lanes until
every lane of that mask still alive has arrived (BREAK takes lanes out of the mask). BAR.SYNC
parks lanes until every live thread of the block has arrived. CALL and RET keep a return stack
per lane. Instruction semantics live in the opcode families (memsim/engine/sass/ops_*.py); this
module dispatches to them by family and owns control flow, barriers and the memory hand-off.

Alongside, an in-order scoreboard follows each warp's waits (`_scoreboard`): a warp issues in
order and stalls at the first instruction that reads (or overwrites) a register a load in
flight will fill. Each load adds its round-trip step (memsim.engine.sass.program.round_trip_steps) to
its issue clock; the clock a warp ends at counts the global and constant round trips on its
dependent path: what the time model (memsim/model/timing.py) charges each at its latency.

Blocks are independent: a launch's blocks are split into contiguous ranges run by threads
(run_blocks releases the GIL), except where global atomics order them.
"""
from __future__ import annotations

import sys

import numpy as np
from numba import njit

from ..count import C_EXEC, C_THREADS, MEMO_COLUMNS, lowest_lane
from ..clock import CHECK_EVERY, NO_DEADLINE, clock_ns, start_deadline
from ..faults import E_BUDGET, E_CALL_DEPTH, E_EXTERNAL, E_NONE, E_TIMEOUT, E_TRAP
from .. import count, issue_trace, simt, trace as trace_module
from ..simt import guarded, release_barrier
from ..jit_cache import compile_per_type
from ..trace import record_access
from ..issue_trace import end_block_record, memory_cost, record_issue, start_block_record
from . import (convergence, lanes, ops_async_copy, ops_float, ops_half, ops_int, ops_matrix, ops_mbarrier, ops_memory,
               ops_tma, ops_warp)
from .convergence import N_BARRIERS, WARPSYNC_BARRIER, advance, group, release, split, yield_lanes
from .family import FAMILY, FAMILY_SHIFT, declare
from .lanes import ALL, M32, popcount, signed, src_pred, src_u32
from .rows import GLOBAL_ROUND_TRIP, F_CMP, F_GNEG, F_GUARD, F_OP, F_OPS, F_SUB, F_TARGET, F_UNIFORM, N_SLOTS, PT, UPT, K_NONE

OPS = declare("control", ("NOP", "BRA", "BRA_DIV", "EXIT", "BSSY", "BSYNC", "BREAK", "BAR", "CALL",
                          "RET", "BRX", "CALL_EXTERNAL", "TRAP", "WARPSYNC", "YIELD"))
(O_NOP, O_BRA, O_BRA_DIV, O_EXIT, O_BSSY, O_BSYNC, O_BREAK, O_BAR, O_CALL, O_RET, O_BRX,
 O_CALL_EXTERNAL, O_TRAP, O_WARPSYNC, O_YIELD) = OPS.values()
F_CONTROL, F_INT, F_FLOAT, F_WARP, F_MEMORY, F_HALF = (FAMILY[f] for f in ("control", "int", "float", "warp", "memory", "half"))
M = ops_memory
C = ops_async_copy
X = ops_matrix

BAR_REDUCTIONS = ("POPC", "AND", "OR")
MAX_CALL_DEPTH = 64
# Launch constants handed to run_blocks (`launch`): block shape, grid shape, SM counts, budget,
# shared bytes, the lowest local address, the clock reading at which to stop, where user shared
# memory starts in the block's window.
L_THREADS, L_BLOCK, L_GRID, L_NSMID, L_BUDGET, L_SHARED, L_LOCAL_LO, L_DEADLINE, L_SHARED_BASE, N_LAUNCH = (
    0, 1, 4, 7, 8, 9, 10, 11, 12, 13)
# ctx: what the families read of the launch (see ops_int._special), then a BAR.RED's state:
# its reduction, the arrived threads whose predicate holds, the arrived threads, and the
# result B2R.RESULT reads (count, flag).
CTX_RED, CTX_RED_TRUE, CTX_RED_ARRIVED, CTX_RESULT, CTX_RESULT_FLAG, N_CTX = 11, 12, 13, 14, 15, 16


@njit(cache=True, _nrt=False)
def _ready_after(pc, w, slots, ready, t):
    """The later of t and when the registers slots[pc] lists are filled."""
    for k in range(slots.shape[1]):
        s = slots[pc, k]
        if s < 0:
            break
        if ready[w, s] > t:
            t = ready[w, s]
    return t


@njit(cache=True, _nrt=False)
def _scoreboard(pc, w, sources, dests, steps, ready, clock):
    """Issue pc on warp w's clock: wait for its operands (and for loads still filling the
    registers it writes), then mark a load's destinations ready one round trip later."""
    t = _ready_after(pc, w, dests, ready, _ready_after(pc, w, sources, ready, clock[w]))
    clock[w] = t
    step = steps[pc]
    if step != 0:
        for k in range(dests.shape[1]):
            s = dests[pc, k]
            if s < 0:
                break
            ready[w, s] = t + step


@njit(cache=True, _nrt=False)
def _fail(err, code, pc, block, thread, address, extra):
    err[0], err[1], err[2], err[3], err[4], err[5] = code, pc, block, thread, address, extra


@njit(cache=True, _nrt=False)
def _memory_step(code, pc, op, regs, w, block, active, launch, counters, err, memory, scratch, trace):
    """One warp's memory instruction: addresses, checks, data, counters and the trace.
    memory and scratch are run_blocks' tuples (see _run_warp)."""
    heap8, shared8, local8, cbank, buf_lo, buf_hi, buf_writable, heap32, shared32, local32, atomic_table = memory
    vec, f32b, f32v, f64b, f64v, addrs, sorted_scratch, bank_load, memo = scratch
    if op == M.O_LDC:
        M.ldc_indexed(code, pc, regs, w, active, cbank, vec, err, block)
        return
    flags = code[pc, 1]
    width = code[pc, 6]
    if op >= M.O_SYNCS_EXCH:   # mbarriers and bulk copies (counted nowhere) and TMA: ops_mbarrier, ops_tma
        M.lane_addresses(code, pc, regs, w, active, addrs, flags, launch[L_SHARED_BASE])
        if op < M.O_UBLKCP and not M.check(code, pc, active, addrs, 8, flags, block, w, buf_lo, buf_hi,
                                            buf_writable, launch[L_SHARED], launch[L_LOCAL_LO], True, err):
            return
        ops_tma.step(code, pc, op, regs, w, active, addrs, shared8, heap8, launch[L_SHARED_BASE], err, block, cbank,
                     counters, f32b, f32v)
        return
    if flags & M.FL_GENERIC:
        _generic_step(code, pc, op, regs, w, block, active, launch, counters, err, memory, scratch, trace)
        return
    space = flags & (M.FL_GLOBAL | M.FL_SHARED | M.FL_LOCAL)
    M.lane_addresses(code, pc, regs, w, active, addrs, space, launch[L_SHARED_BASE])
    matrix = op == M.O_LDSM or op == M.O_STSM
    store = op != M.O_LD and op != M.O_LDSM
    check_width = 4 if matrix else width
    checked = active
    if matrix:
        checked = X.matrix_lanes(code, pc)
    elif op == M.O_LDGSTS:
        checked = C.ldgsts_reading(code, pc, regs, w, active)
    if not M.check(code, pc, checked, addrs, check_width,
                   space, block, w, buf_lo, buf_hi, buf_writable, launch[L_SHARED], launch[L_LOCAL_LO],
                   store, err):
        return
    if op == M.O_LD or op == M.O_ST:
        if code[pc, 6] >= 4:
            M.move_words(code, pc, op, regs, w, active, addrs, heap32, shared32, local32, launch[L_LOCAL_LO], space)
        else:
            M.move_bytes(code, pc, op, regs, w, active, addrs, heap8, shared8, local8, launch[L_LOCAL_LO], space)
    elif op == M.O_ATOM or op == M.O_RED:
        M.atomics(code, pc, op, regs, w, active, addrs, heap8, shared8, f32b, f32v, f64b, f64v)
    elif op == M.O_LDGSTS:
        C.ldgsts(code, pc, regs, w, active, checked, addrs, heap8, shared8, launch[L_SHARED],
                 launch[L_SHARED_BASE], err, block)
        if err[0] != E_NONE:
            return
        active = checked   # lanes whose source predicate is false read nothing: not counted
        if active == 0:
            return   # no lane reads: no request either (measured on the H100: triton softmax)
    elif op == M.O_LDSM:
        X.ldsm(code, pc, regs, w, active, addrs, shared8, vec)
        active = checked
    else:
        X.stsm(code, pc, regs, w, active, addrs, shared8)
        active = checked
    M.count(code, pc, op, active, addrs, counters, sorted_scratch, bank_load, memo, atomic_table)
    trace_sel, trace_warps, trace_rec, trace_addr, trace_fill = trace
    if trace_sel[pc]:
        kind = 0 if op == M.O_LD or op == M.O_LDSM or op == M.O_LDGSTS else (
            1 if op == M.O_ST else (2 if op == M.O_ATOM else 3))
        record_access(block, w, pc, kind, active, counters[pc, 8], addrs, trace_warps, trace_rec,
                      trace_addr, trace_fill, regs.shape[0])


@njit(cache=True, _nrt=False)
def _generic_step(code, pc, op, regs, w, block, active, launch, counters, err, memory, scratch, trace):
    """A generic LD/ST: each lane reads or writes global or shared memory as its address says
    (memsim.engine.sass.ops_memory.split_generic), then the instruction is counted as the
    H100 counts it (count_generic)."""
    addrs, sorted_scratch, bank_load = scratch[5], scratch[6], scratch[7]
    M.lane_addresses(code, pc, regs, w, active, addrs, M.FL_GLOBAL, launch[L_SHARED_BASE])
    glob, shared = M.split_generic(active, addrs, launch[L_SHARED_BASE])
    if not _generic_part(code, pc, op, regs, w, block, glob, M.FL_GLOBAL, launch, err, memory, addrs):
        return
    if not _generic_part(code, pc, op, regs, w, block, shared, M.FL_SHARED, launch, err, memory, addrs):
        return
    M.count_generic(code, pc, op, glob, shared, addrs, counters, sorted_scratch, bank_load)
    trace_sel, trace_warps, trace_rec, trace_addr, trace_fill = trace
    if trace_sel[pc]:
        record_access(block, w, pc, 0 if op == M.O_LD else 1, glob if glob else shared,
                      M.SP_GLOBAL if glob else M.SP_SHARED, addrs, trace_warps, trace_rec, trace_addr,
                      trace_fill, regs.shape[0])


@njit(cache=True, _nrt=False)
def _generic_part(code, pc, op, regs, w, block, lanes, space, launch, err, memory, addrs):
    """The lanes of a generic access that go to one space: checked, then their data moved."""
    if lanes == 0:
        return True
    heap8, shared8, local8, cbank, buf_lo, buf_hi, buf_writable, heap32, shared32, local32, atomic_table = memory
    width = code[pc, 6]
    if not M.check(code, pc, lanes, addrs, width, space, block, w, buf_lo, buf_hi, buf_writable,
                   launch[L_SHARED], launch[L_LOCAL_LO], op == M.O_ST, err):
        return False
    if width >= 4:
        M.move_words(code, pc, op, regs, w, lanes, addrs, heap32, shared32, local32, launch[L_LOCAL_LO], space)
    else:
        M.move_bytes(code, pc, op, regs, w, lanes, addrs, heap8, shared8, local8, launch[L_LOCAL_LO], space)
    return True


@njit(cache=True, _nrt=False)
def _execute(code, pc, op, regs, w, active, vec, f32b, f32v, f64b, f64v, ctx):
    family = op >> FAMILY_SHIFT
    if family == F_INT:
        ops_int.execute(code, pc, op, regs, w, active, vec, ctx)
    elif family == F_FLOAT:
        ops_float.execute(code, pc, op, regs, w, active, vec, f32b, f32v, f64b, f64v)
    elif family == F_HALF:
        ops_half.execute(code, pc, op, regs, w, active, vec, f32b, f32v, f64b, f64v)
    else:
        ops_warp.execute(code, pc, op, regs, w, active, vec)


@njit(cache=True, _nrt=False)
def _taken(code, pc, regs, w, active, mask, vec):
    """The lanes of `active` a BRA sends to its target: those its predicate operand (if any)
    lets through; BRA.U.ANY (F_SUB 1) sends every lane of `mask` where one is."""
    taken = active
    if code[pc, F_OPS] != K_NONE:
        src_pred(code, pc, 0, regs, w, vec, 0)
        for lane in range(32):
            if not vec[0, lane]:
                taken &= ~(1 << lane)
    if code[pc, F_SUB] == 1 and taken != 0:
        return mask
    return taken


@njit(cache=True, _nrt=False)
def _branch(code, pc, op, regs, w, mask, active, lane_pc, vec):
    """Lanes of `mask` move on: taken lanes (those of `active` the branch's condition holds
    for) to the target, the others to pc + 1."""
    target = code[pc, F_TARGET]
    next_pc = pc + 1
    if op == O_BRA_DIV:
        # Taken where lanes of the shuffle's mask are not all here: the divergent slow path.
        src_u32(code, pc, 0, regs, w, vec, 0)
        here = 0
        for lane in range(32):
            if (active >> lane) & 1:
                here = vec[0, lane]
                break
        taken = active if here & ~active & M32 != 0 else 0
    elif op == O_BRX:   # Ra + the row's constant: bytes from the function's first row (program._brx)
        src_u32(code, pc, 0, regs, w, vec, 0)
        for lane in range(32):
            if (mask >> lane) & 1:
                offset = (signed(vec[0, lane]) + code[pc, F_OPS + 4]) >> 4
                lane_pc[w, lane] = code[pc, F_OPS + 7] + offset if (active >> lane) & 1 else next_pc
        return
    else:
        taken = _taken(code, pc, regs, w, active, mask, vec)
    for lane in range(32):
        if (mask >> lane) & 1:
            lane_pc[w, lane] = target if (taken >> lane) & 1 else next_pc


@njit(cache=True, _nrt=False)
def _run_warp(code, regs, w, block, launch, ctx, state, memory, flow, trace, timing, counters, err,
              executed, stats, scratch):
    """Run warp w until it exits, waits at a barrier, or fails. Returns the instructions run."""
    (lane_pc, run_mask, bar_mask, sync_mask, sync_bar, bmask, warp_pc, converged, _, _, lane_group,
     cur_group, next_group, yielded) = state
    sources, dests, steps, ready, clock = flow
    vec, f32b, f32v, f64b, f64v = scratch[:5]
    n_code = code.shape[0]
    budget, deadline = launch[L_BUDGET], launch[L_DEADLINE]
    while True:
        if run_mask[w] == 0:
            if sync_mask[w] == 0:
                return executed
            if not release(w, lane_pc, run_mask, bar_mask, sync_mask, sync_bar, bmask, lane_group,
                           next_group, yielded):
                if bar_mask[w] != 0:
                    return executed   # lanes the barrier waits for sit at BAR.SYNC
                stats[0] += 1         # no lane left to arrive: let them go
                run_mask[w] |= sync_mask[w]
                for lane in range(32):
                    if (sync_mask[w] >> lane) & 1:
                        lane_pc[w, lane] += 1
                sync_mask[w] = 0
            converged[w] = 0
            continue
        if converged[w]:
            pc, mask = warp_pc[w], run_mask[w]
        else:
            pc, mask = group(lane_pc, lane_group, cur_group, w, run_mask[w])
            if mask == run_mask[w]:
                converged[w], warp_pc[w] = 1, pc
        if yielded[w] != 0:
            yielded[w] &= ~mask   # lanes that run again are no longer yielded
        if pc >= n_code:
            run_mask[w] &= ~mask
            converged[w] = 0
            continue
        executed += 1
        if executed > budget:
            _fail(err, E_BUDGET, pc, block, w * 32, 0, budget)
            return executed
        if executed % CHECK_EVERY == 0 and deadline != NO_DEADLINE and clock_ns() > deadline:
            _fail(err, E_TIMEOUT, pc, block, w * 32, _running_warps(run_mask, sync_mask), executed)
            return executed
        op = code[pc, F_OP]
        _scoreboard(pc, w, sources, dests, steps, ready, clock)
        issue = record_issue(timing, w, pc)
        active = guarded(regs, w, code[pc, F_GUARD], code[pc, F_GNEG], mask)
        counters[pc, C_EXEC] += 1
        counters[pc, C_THREADS] += popcount(active)
        family = op >> FAMILY_SHIFT
        if family != F_CONTROL:
            if code[pc, F_UNIFORM] and op == ops_warp.O_VOTE:
                if active != 0:   # VOTEU: the active lanes' ballot, into every lane's copy
                    ops_warp.vote(code, pc, regs, w, active, ALL, vec)
                advance(w, pc, mask, lane_pc, warp_pc, converged)
                continue
            if code[pc, F_UNIFORM] and family != F_MEMORY:
                active = ALL if active != 0 else 0
            if active != 0:
                if family == F_MEMORY:
                    before = memory_cost(counters, pc)
                    _memory_step(code, pc, op, regs, w, block, active, launch, counters, err, memory,
                                 scratch, trace)
                    if err[0] != E_NONE:
                        return executed
                    if issue >= 0:
                        timing[1][issue, 3] = memory_cost(counters, pc) - before
                    if ops_mbarrier.waiting(code, pc, regs, w, active):   # the others' turn first
                        advance(w, pc, mask, lane_pc, warp_pc, converged)
                        return executed
                else:
                    _execute(code, pc, op, regs, w, active, vec, f32b, f32v, f64b, f64v, ctx)
            advance(w, pc, mask, lane_pc, warp_pc, converged)
            continue
        # a NOP a sanitizer trace records (ptxas' __syncwarp of a converged warp) takes _control's path
        if (op == O_NOP and not trace[0][pc]) or (op == O_YIELD and converged[w] and sync_mask[w] == 0):
            advance(w, pc, mask, lane_pc, warp_pc, converged)
            continue
        if converged[w] and op == O_BRA:
            taken = _taken(code, pc, regs, w, active, mask, vec)
            if taken == 0 or taken == mask:   # the whole warp goes one way
                warp_pc[w] = code[pc, F_TARGET] if taken else pc + 1
                continue
        if converged[w]:   # control flow: lanes go their own ways from here
            for lane in range(32):
                if (mask >> lane) & 1:
                    lane_pc[w, lane] = pc
                    lane_group[w, lane] = cur_group[w]
            converged[w] = 0
        if op == O_YIELD:
            yield_lanes(w, pc, mask, lane_pc, run_mask, bar_mask, sync_mask, sync_bar, bmask, lane_group,
                        cur_group, next_group, yielded)
            continue
        if not _control(code, pc, op, regs, w, block, mask, active, state, vec, err, ctx, trace, scratch):
            return executed
        if op == O_BSYNC and yielded[w] != 0:
            release(w, lane_pc, run_mask, bar_mask, sync_mask, sync_bar, bmask, lane_group,
                    next_group, yielded)
        split(w, mask & run_mask[w], lane_pc, lane_group, cur_group, next_group)


@njit(cache=True, _nrt=False)
def _record_sync(code, pc, op, regs, w, block, active, state, scratch, trace):
    """A BAR, WARPSYNC or NOP into a trace that asks for barriers (memsim.sanitizer): a BAR's
    lanes carry the warp's live lanes (not exited), a WARPSYNC's lanes the mask each one passed.
    ptxas writes a __syncwarp() of a warp it knows converged as a NOP (the sanitizer patches
    it): recorded as a WARPSYNC of every lane, its mask read from the listing by the checker."""
    run_mask, bar_mask, sync_mask = state[1], state[2], state[3]
    vec, addrs = scratch[0], scratch[5]
    if op == O_WARPSYNC:
        src_u32(code, pc, 0, regs, w, vec, 0)
    live = run_mask[w] | bar_mask[w] | sync_mask[w] | active
    for lane in range(32):
        addrs[lane] = vec[0, lane] & M32 if op == O_WARPSYNC else (M32 if op == O_NOP else live)
    _, trace_warps, trace_rec, trace_addr, trace_fill = trace
    record_access(block, w, pc, 4 if op == O_BAR else 5, active, 0, addrs, trace_warps, trace_rec,
                  trace_addr, trace_fill, regs.shape[0])


@njit(cache=True, _nrt=False)
def _control(code, pc, op, regs, w, block, mask, active, state, vec, err, ctx, trace, scratch):
    """Branches, exits, convergence and block barriers, calls. False on a failure. state is
    run_blocks' per-warp tuple (see _run_warp); a trace that selects this BAR, WARPSYNC or NOP
    records it (memsim.sanitizer), here, off the path of the instructions the counts need."""
    if trace[0][pc] and active != 0:
        _record_sync(code, pc, op, regs, w, block, active, state, scratch, trace)
    (lane_pc, run_mask, bar_mask, sync_mask, sync_bar, bmask, _, _, call_sp, call_stack, _, _, _,
     _) = state
    next_pc = pc + 1
    if op == O_BRA or op == O_BRA_DIV or op == O_BRX:
        _branch(code, pc, op, regs, w, mask, active, lane_pc, vec)
        return True
    if op == O_EXIT:
        run_mask[w] &= ~active
        for b in range(N_BARRIERS + 1):
            bmask[w, b] &= ~active
    elif op == O_BAR:
        run_mask[w] &= ~active
        bar_mask[w] |= active
        if code[pc, F_SUB]:
            src_pred(code, pc, 0, regs, w, vec, 0)
            ctx[CTX_RED] = code[pc, F_SUB]
            for lane in range(32):
                if (active >> lane) & 1:
                    ctx[CTX_RED_ARRIVED] += 1
                    ctx[CTX_RED_TRUE] += vec[0, lane]
    elif op == O_BSSY:
        bmask[w, code[pc, F_CMP]] = mask
    elif op == O_BSYNC:
        run_mask[w] &= ~active
        sync_mask[w] |= active
        for lane in range(32):
            if (active >> lane) & 1:
                sync_bar[w, lane] = code[pc, F_CMP]
            elif (mask >> lane) & 1:
                lane_pc[w, lane] = next_pc   # lanes not parked go on
        return True
    elif op == O_BREAK:
        bmask[w, code[pc, F_CMP]] &= ~_taken(code, pc, regs, w, active, active, vec)
    elif op == O_WARPSYNC:
        # lanes wait until every live lane of the mask has reached a WARPSYNC
        src_u32(code, pc, 0, regs, w, vec, 0)
        want = vec[0, lowest_lane(active)] & M32 if active else 0
        live = run_mask[w] | bar_mask[w] | sync_mask[w]
        if want & live & ~active == 0 and bmask[w, WARPSYNC_BARRIER] & live & ~active == 0:
            pass   # every lane it waits for is here: no wait
        else:
            bmask[w, WARPSYNC_BARRIER] |= want
            run_mask[w] &= ~active
            sync_mask[w] |= active
            for lane in range(32):
                if (active >> lane) & 1:
                    sync_bar[w, lane] = WARPSYNC_BARRIER
                elif (mask >> lane) & 1:
                    lane_pc[w, lane] = next_pc
            return True
    elif op == O_CALL_EXTERNAL or op == O_TRAP:   # printf, assert's __assertfail, __trap()
        if active != 0:
            _fail(err, E_EXTERNAL if op == O_CALL_EXTERNAL else E_TRAP, pc, block,
                  w * 32 + lowest_lane(active), 0, code[pc, F_SUB])
            return False
    elif op == O_CALL:
        for lane in range(32):
            if (active >> lane) & 1:
                if call_sp[w, lane] >= MAX_CALL_DEPTH:
                    _fail(err, E_CALL_DEPTH, pc, block, w * 32 + lane, 0, MAX_CALL_DEPTH)
                    return False
                call_stack[w, lane, call_sp[w, lane]] = next_pc
                call_sp[w, lane] += 1
                lane_pc[w, lane] = code[pc, F_TARGET]
            elif (mask >> lane) & 1:
                lane_pc[w, lane] = next_pc
        return True
    elif op == O_RET:
        for lane in range(32):
            if (active >> lane) & 1:
                if call_sp[w, lane] == 0:   # a kernel's own RET ends the thread
                    run_mask[w] &= ~(1 << lane)
                    continue
                call_sp[w, lane] -= 1
                lane_pc[w, lane] = call_stack[w, lane, call_sp[w, lane]]
            elif (mask >> lane) & 1:
                lane_pc[w, lane] = next_pc
        return True
    for lane in range(32):
        if (mask >> lane) & 1:
            lane_pc[w, lane] = next_pc
    return True


@njit(cache=True, nogil=True)
def run_blocks(code, launch, b_first, b_last, memory, flow_in, trace, timing, counters, err, stats,
               round_trips):
    """Run blocks [b_first, b_last) of the grid; counts go to counters[pc, C_*].

    memory: (heap8, shared8, local8, cbank, buf_lo, buf_hi, buf_writable, heap32, shared32,
    local32, atomic_table: memsim.engine.count.new_atomic_table); flow_in: the
    scoreboard's (sources, dests, steps); trace: memsim.engine.trace.TraceBuffers.arrays();
    timing: memsim.engine.issue_trace.IssueTraceBuffers.arrays(). Each
    warp's end clock (see _scoreboard) goes to round_trips: the sums over warps of its global
    and constant round trips, then the largest of each. Returns the instructions run."""
    start_deadline(launch, L_DEADLINE)
    n_threads = launch[L_THREADS]
    n_warps = (n_threads + 31) // 32
    regs = new_registers(n_warps)
    state = (np.zeros((n_warps, 32), np.int64), np.zeros(n_warps, np.int64), np.zeros(n_warps, np.int64),
             np.zeros(n_warps, np.int64), np.zeros((n_warps, 32), np.int64),
             np.zeros((n_warps, N_BARRIERS + 1), np.int64), np.zeros(n_warps, np.int64),
             np.zeros(n_warps, np.int64), np.zeros((n_warps, 32), np.int64),
             np.zeros((n_warps, 32, MAX_CALL_DEPTH), np.int64), np.zeros((n_warps, 32), np.int64),
             np.zeros(n_warps, np.int64), np.zeros(n_warps, np.int64), np.zeros(n_warps, np.int64))
    (lane_pc, run_mask, bar_mask, sync_mask, sync_bar, bmask, warp_pc, converged, call_sp, _,
     lane_group, cur_group, next_group, yielded) = state
    bits32 = np.zeros((4, 32), np.uint32)
    bits64 = np.zeros((4, 32), np.uint64)
    scratch = (np.zeros((6, 32), np.int64), bits32, bits32.view(np.float32), bits64,
               bits64.view(np.float64), np.zeros(32, np.int64), np.zeros(160, np.int64),
               np.zeros(32, np.int64), np.full((code.shape[0], MEMO_COLUMNS), -1, np.int64))
    sources, dests, steps = flow_in
    ready = np.zeros((n_warps, N_SLOTS), np.int64)
    clock = np.zeros(n_warps, np.int64)
    flow = (sources, dests, steps, ready, clock)
    ctx = np.zeros(N_CTX, np.int64)
    for k in range(3):   # element by element: a slice copy compiles numba's shape-error text
        ctx[k], ctx[6 + k] = launch[L_BLOCK + k], launch[L_GRID + k]
    ctx[10] = launch[L_NSMID]
    gx, gy = launch[L_GRID], launch[L_GRID + 1]
    executed = 0
    for b in range(b_first, b_last):
        ctx[3], ctx[4], ctx[5] = b % gx, (b // gx) % gy, b // (gx * gy)
        ctx[9] = b % launch[L_NSMID]
        start_block_record(timing, b)
        for w in range(n_warps):
            live = min(32, n_threads - 32 * w)
            run_mask[w] = (1 << live) - 1
            bar_mask[w] = sync_mask[w] = clock[w] = 0
            warp_pc[w], converged[w] = 0, 1
            cur_group[w] = next_group[w] = yielded[w] = 0
            for lane in range(32):
                lane_pc[w, lane] = 0
                call_sp[w, lane] = 0
                lane_group[w, lane] = 0
            for k in range(N_BARRIERS + 1):
                bmask[w, k] = 0
            for k in range(N_SLOTS):
                ready[w, k] = 0
        while True:
            paused = False
            for w in range(n_warps):
                if run_mask[w] != 0 or sync_mask[w] != 0:
                    executed = _run_warp(code, regs, w, b, launch, ctx, state, memory, flow, trace,
                                         timing, counters, err, executed, stats, scratch)
                    if err[0] != E_NONE:
                        return executed
                    paused = paused or run_mask[w] != 0   # at an mbarrier's try_wait
            if paused:
                continue
            # The barrier lets its warps go when the last one arrives.
            arrived = 0
            for w in range(n_warps):
                if bar_mask[w] != 0 and clock[w] > arrived:
                    arrived = clock[w]
            for w in range(n_warps):
                if bar_mask[w] != 0:
                    clock[w] = arrived
                    converged[w] = 0
                    next_group[w] += 1   # a warp's lanes leave the barrier as one group
                    for lane in range(32):
                        if (bar_mask[w] >> lane) & 1:
                            lane_group[w, lane] = next_group[w]
            if not release_barrier(run_mask, bar_mask):
                break
            _reduce_barrier(ctx)
        _note_round_trips(clock, min(n_warps, (n_threads + 31) // 32), round_trips)
        end_block_record(timing)
    return executed


@njit(cache=True, _nrt=False)
def _running_warps(run_mask, sync_mask):
    """Bit w set for each warp of the block that has not exited (at most 32 warps)."""
    running = 0
    for w in range(run_mask.shape[0]):
        if run_mask[w] != 0 or sync_mask[w] != 0:
            running |= 1 << w
    return running


@njit(cache=True, _nrt=False)
def _reduce_barrier(ctx):
    """A BAR.RED's result once the block has arrived: the count of threads whose predicate
    held, and whether all (AND) or any (OR) did."""
    if ctx[CTX_RED] == 0:
        return
    ctx[CTX_RESULT] = ctx[CTX_RED_TRUE]
    if ctx[CTX_RED] == 2:
        ctx[CTX_RESULT_FLAG] = 1 if ctx[CTX_RED_TRUE] == ctx[CTX_RED_ARRIVED] else 0
    else:
        ctx[CTX_RESULT_FLAG] = 1 if ctx[CTX_RED_TRUE] > 0 else 0
    ctx[CTX_RED] = ctx[CTX_RED_TRUE] = ctx[CTX_RED_ARRIVED] = 0


@njit(cache=True, _nrt=False)
def _note_round_trips(clock, n_warps, round_trips):
    for w in range(n_warps):
        trips, constant = clock[w] // GLOBAL_ROUND_TRIP, clock[w] % GLOBAL_ROUND_TRIP
        round_trips[0] += trips
        round_trips[1] += constant
        round_trips[2] = max(round_trips[2], trips)
        round_trips[3] = max(round_trips[3], constant)


@njit(cache=True)
def new_registers(n_warps):
    regs = np.zeros((n_warps, N_SLOTS, 32), dtype=np.int64)
    regs[:, PT, :] = 1
    regs[:, UPT, :] = 1
    return regs


compile_per_type(sys.modules[__name__], convergence, lanes, ops_float, ops_half, ops_int, ops_memory, ops_warp,
                 count, simt, trace_module, issue_trace)
