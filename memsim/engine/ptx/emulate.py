"""Stage 3, PTX engine: run a lowered PTX program SIMT-style, one block at a time, in Numba.

Each warp keeps a program counter per lane. A warp step takes the smallest PC among its running
lanes and executes that instruction once for every lane sitting there (min-PC reconvergence,
memsim.engine.simt: divergent paths run one after the other and rejoin where they meet). While
all running lanes agree the warp takes a fast path with one PC. Barriers park lanes until every
live thread of the block has arrived. Registers are int64 bit patterns; float32 values live in
the low half and are read through a float32 view of the same memory.

This module holds the warps and control flow; the instructions' semantics are in alu.py
(arithmetic, logic, conversions, warp collectives; values.py for one lane's value) and
access.py (loads, stores, atomics: every state space, bounds, counting, the trace). Errors
(out-of-bounds, misaligned, unknown instruction, budget) stop the run and are described in
`err` (memsim.engine.faults) for the Python side to turn into a one-line message.
"""
from __future__ import annotations

import sys

import numpy as np
from numba import njit

from ..count import C_SPACE, C_EXEC, C_THREADS
from .. import count, simt, trace as trace_module
from ..clock import CHECK_EVERY, NO_DEADLINE, clock_ns, start_deadline
from ..faults import E_BUDGET, E_NONE, E_TIMEOUT, E_TRAP, E_TYPE, E_UNSUPPORTED
from ..jit_cache import compile_per_type
from ..simt import fail, guarded, lowest_pc, release_barrier
from ..trace import record_access
from . import access, alu as alu_module, values
from .access import memory_instruction
from .alu import alu, warp_collective
from .program import F_GNEG, F_GUARD, F_MOD, F_OP, SPECIAL_REGISTERS, F_TARGET, F_TYPE, M_IFCONV
from .values import (O_ACTIVEMASK, O_ATOM, O_BAR, O_BARRIER, O_BRA, O_EXIT, O_FENCE, O_LD,
                     O_MEMBAR, O_NANOSLEEP, O_PRAGMA, O_PREFETCH, O_RED, O_RET, O_SHFL, O_ST,
                     O_TRAP, O_UNSUPPORTED, O_VOTE, popcount)


SMID, NSMID = SPECIAL_REGISTERS.index("%smid"), SPECIAL_REGISTERS.index("%nsmid")


@njit(cache=True, nogil=True)
def run_blocks(code, regs, n_threads, grid_dims, b_first, b_last, special_base, memory, counters, err,
               limits, executed, trace):
    """Run blocks [b_first, b_last) of the grid; counts go to counters[pc, C_*], global atomics'
    packets per sector to atomic_table (memsim.engine.count.atomic_packets).

    regs: (r64, rf32, rf64); memory: (mem8, mem16, mem32, mem64, seg, buf_lo, buf_hi,
    buf_writable, atomic_table); trace: memsim.engine.trace.TraceBuffers.arrays(); limits:
    (warp instruction budget, deadline: memsim.engine.clock's reading at which to stop)."""
    start_deadline(limits, 1)
    r64 = regs[0]
    n_warps = r64.shape[0]
    lane_pc = np.zeros((n_warps, 32), dtype=np.int64)
    run_mask = np.zeros(n_warps, dtype=np.int64)
    wait_mask = np.zeros(n_warps, dtype=np.int64)
    warp_pc = np.zeros(n_warps, dtype=np.int64)
    uniform = np.zeros(n_warps, dtype=np.bool_)
    warp = (lane_pc, run_mask, wait_mask, warp_pc, uniform)
    # lane addresses, the counters' sort space, per-bank loads, a collective's lane values
    work = (np.zeros(32, dtype=np.int64), np.zeros(160, dtype=np.int64), np.zeros(32, dtype=np.int64),
            np.zeros(32, dtype=np.int64))
    gx, gy = grid_dims[0], grid_dims[1]
    ctaid = special_base + 6
    for b in range(b_first, b_last):
        cx, cy, cz = b % gx, (b // gx) % gy, b // (gx * gy)
        for w in range(n_warps):
            for lane in range(32):
                r64[w, ctaid, lane] = cx
                r64[w, ctaid + 1, lane] = cy
                r64[w, ctaid + 2, lane] = cz
                # %smid: a plausible SM number, block b on SM b mod %nsmid
                r64[w, special_base + SMID, lane] = b % r64[w, special_base + NSMID, lane]
            live = min(32, n_threads - 32 * w)
            run_mask[w] = (1 << live) - 1
            wait_mask[w] = 0
            warp_pc[w] = 0
            uniform[w] = True
        while True:
            for w in range(n_warps):
                if run_mask[w] != 0:
                    executed = _run_warp(code, regs, w, b, warp, memory, counters, err, limits,
                                         executed, work, trace)
                    if err[0] != E_NONE:
                        return executed
            if not release_barrier(run_mask, wait_mask):
                break
            uniform[:] = False
    return executed


@njit(cache=True)
def _run_warp(code, regs, w, block, warp, memory, counters, err, limits, executed, work, trace):
    """Run warp w until it exits, waits at a barrier, or fails; warp is run_blocks' per-warp
    state (lane_pc, run_mask, wait_mask, warp_pc, uniform). Returns the instructions run."""
    r64, rf32, rf64 = regs
    lane_pc, run_mask, wait_mask, warp_pc, uniform = warp
    trace_sel, trace_warps, trace_rec, trace_addr, trace_fill = trace
    addrs, tmp = work[0], work[3]
    n_code = code.shape[0]
    budget, deadline = limits[0], limits[1]
    while run_mask[w] != 0:
        # Pick the instruction: the common PC, or the smallest PC among running lanes.
        if uniform[w]:
            pc = warp_pc[w]
            mask = run_mask[w]
        else:
            pc, mask = lowest_pc(lane_pc, w, run_mask[w], n_code)
        if pc >= n_code:
            run_mask[w] &= ~mask   # falling off the end of the kernel exits the thread
            continue
        executed += 1
        if executed > budget:
            fail(err, E_BUDGET, pc, block, w * 32, 0, budget)
            return executed
        if executed % CHECK_EVERY == 0 and deadline != NO_DEADLINE and clock_ns() > deadline:
            running = 0
            for other in range(run_mask.shape[0]):
                if run_mask[other] != 0 or wait_mask[other] != 0:
                    running |= 1 << other
            fail(err, E_TIMEOUT, pc, block, w * 32, running, executed)
            return executed
        op = code[pc, F_OP]
        t = code[pc, F_TYPE]
        active = guarded(r64, w, code[pc, F_GUARD], code[pc, F_GNEG], mask)
        counters[pc, C_EXEC] += 1
        counters[pc, C_THREADS] += popcount(active)
        branch_taken = 0     # lanes that go to F_TARGET
        leaving = 0          # lanes that exit or park at a barrier
        if op == O_LD or op == O_ST or op == O_ATOM or op == O_RED:
            if active != 0:
                memory_instruction(code, pc, op, t, regs, w, block, active, memory, counters, err, work)
                if err[0] != E_NONE:
                    return executed
                if trace_sel[pc]:
                    kind = 0 if op == O_LD else (1 if op == O_ST else (2 if op == O_ATOM else 3))
                    record_access(block, w, pc, kind, active, counters[pc, C_SPACE], addrs,
                                  trace_warps, trace_rec, trace_addr, trace_fill, r64.shape[0])
        elif op == O_BRA:
            branch_taken = active
            if branch_taken == mask and code[pc, F_MOD] & M_IFCONV:
                # predicated code: issued with every lane off
                for k in range(pc + 1, code[pc, F_TARGET]):
                    counters[k, C_EXEC] += 1
        elif op == O_RET or op == O_EXIT:
            leaving = active
        elif op == O_BAR or op == O_BARRIER:
            leaving = active
            for lane in range(32):
                if (active >> lane) & 1:
                    lane_pc[w, lane] = pc + 1
            wait_mask[w] |= active
        elif op == O_SHFL or op == O_VOTE or op == O_ACTIVEMASK:
            warp_collective(code[pc], op, t, r64, w, active, mask, tmp)
        elif op == O_MEMBAR or op == O_FENCE or op == O_PREFETCH or op == O_NANOSLEEP or op == O_PRAGMA:
            pass
        elif op == O_UNSUPPORTED or op == O_TRAP:
            fail(err, E_UNSUPPORTED if op == O_UNSUPPORTED else E_TRAP, pc, block, w * 32, 0, 0)
            return executed
        elif active != 0:
            if not alu(code, pc, op, t, r64, rf32, rf64, w, active):
                fail(err, E_TYPE, pc, block, w * 32, 0, t)
                return executed

        # Advance program counters.
        next_pc = pc + 1
        stay = mask & ~leaving
        if leaving:
            run_mask[w] &= ~leaving
        if uniform[w]:
            if branch_taken == 0:
                warp_pc[w] = next_pc
            elif branch_taken == stay:
                warp_pc[w] = code[pc, F_TARGET]
            else:
                uniform[w] = False
                target = code[pc, F_TARGET]
                for lane in range(32):
                    if (stay >> lane) & 1:
                        lane_pc[w, lane] = target if (branch_taken >> lane) & 1 else next_pc
        else:
            target = code[pc, F_TARGET]
            for lane in range(32):
                if (stay >> lane) & 1:
                    lane_pc[w, lane] = target if (branch_taken >> lane) & 1 else next_pc
            # Reconverged when every running lane sits at one PC.
            rm = run_mask[w]
            common = -1
            same = True
            for lane in range(32):
                if (rm >> lane) & 1:
                    if common == -1:
                        common = lane_pc[w, lane]
                    elif lane_pc[w, lane] != common:
                        same = False
                        break
            if same and common >= 0:
                uniform[w] = True
                warp_pc[w] = common
    return executed


# Callees compile once per argument types, not once per literal a caller passes (see
# memsim.engine.jit_cache.compile_per_type; the SASS engine hooks its modules the same way).
compile_per_type(sys.modules[__name__], values, alu_module, access, simt, count, trace_module)
