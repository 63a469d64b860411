"""The PTX engine's memory path: one warp's load, store or atomic over every state space.

Generic addresses resolve to a space by window (memsim.engine.ptx.program); global accesses
are checked against the heap's buffers, shared, local and param against their segment of the
one memory image; the lanes' addresses go to the counting stage (memsim.engine.count) and, for
a selected instruction, to the trace (Numba).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..count import (C_BYTES, C_SPACE, C_IDEAL_SECTORS, C_IDEAL_WAVEFRONTS, C_REQUESTS, C_SECTORS,
                     C_WAVEFRONTS, atomic_packets, data_bytes, global_sectors, shared_wavefronts)
from ..faults import (E_CONST_OOB, E_GLOBAL_OOB, E_LOCAL_OOB, E_MISALIGNED, E_MIXED_SPACE,
                      E_PARAM_OOB, E_SHARED_OOB)
from ..simt import fail
from .program import (F_ABASE, F_AOFF, F_CMP, F_D0, F_S0, F_S1, F_SPACE, F_VEC, F_WIDTH,
                      GLOBAL_BASE, LOCAL_WINDOW, SHARED_WINDOW, SP_CONST, SP_GENERIC, SP_GLOBAL,
                      SP_LOCAL, SP_SHARED, WINDOW_SIZE)
from .values import (INT64_MAX, INT64_MIN, K_FLOAT, K_SIGNED, O_ATOM, O_LD, O_RED, ext, popcount,
                     ult)


# Segments of the one memory image: [global heap | shared | local | param].
SEG_SHARED_OFF, SEG_SHARED_SIZE, SEG_LOCAL_OFF, SEG_LOCAL_BYTES, SEG_PARAM_OFF, SEG_PARAM_SIZE = range(6)


@njit(cache=True)
def _mem_read(u8, u16, u32, u64, off, size):
    if size == 4:
        return np.int64(u32[off >> 2])
    if size == 8:
        return np.int64(u64[off >> 3])
    if size == 2:
        return np.int64(u16[off >> 1])
    return np.int64(u8[off])


@njit(cache=True)
def _mem_write(u8, u16, u32, u64, off, size, v):
    if size == 4:
        u32[off >> 2] = np.uint32(v & 0xFFFFFFFF)
    elif size == 8:
        u64[off >> 3] = np.uint64(v)
    elif size == 2:
        u16[off >> 1] = np.uint16(v & 0xFFFF)
    else:
        u8[off] = np.uint8(v & 0xFF)


@njit(cache=True)
def _find_buffer(addr, size, buf_lo, buf_hi):
    for k in range(buf_lo.shape[0]):
        if addr >= buf_lo[k] and addr + size <= buf_hi[k]:
            return k
    return -1


@njit(cache=True)
def _atomic_float(op, old, b):
    if op == 0:
        return old + b
    if op == 1:
        return min(old, b)
    if op == 2:
        return max(old, b)
    if op == 8:
        return b
    return old


@njit(cache=True)
def _atomic_int(op, t, old, b, c):
    """New memory value of an integer atomic."""
    signed = (t >> 4) == K_SIGNED
    if op == 0:
        return old + b
    if op == 1:
        return min(old, b) if signed else (old if ult(old, b) else b)
    if op == 2:
        return max(old, b) if signed else (b if ult(old, b) else old)
    if op == 3:   # inc: old >= b ? 0 : old + 1
        return 0 if not ult(old, b) else old + 1
    if op == 4:   # dec
        return b if (old == 0 or ult(b, old)) else old - 1
    if op == 5:
        return old & b
    if op == 6:
        return old | b
    if op == 7:
        return old ^ b
    if op == 8:
        return b
    return c if old == b else old   # cas


@njit(cache=True, inline="always")
def memory_instruction(code, pc, op, t, regs, w, block, active, memory, counters, err, work):
    """One warp-level ld/st/atom/red: addresses, checks, data movement, then counting (a global
    atomic's packets per sector also to atomic_table, memsim.engine.count.atomic_packets).
    regs, memory and work are run_blocks' tuples (memsim/engine/ptx/emulate.py)."""
    r64, rf32, rf64 = regs
    mem8, mem16, mem32, mem64, seg, buf_lo, buf_hi, buf_writable, atomic_table = memory
    addrs, scratch, bank_load, _ = work
    space = code[pc, F_SPACE]
    vec = max(code[pc, F_VEC], 1)
    width = code[pc, F_WIDTH]
    esize = width // vec
    base = code[pc, F_ABASE]
    off = code[pc, F_AOFF]
    is_load = op == O_LD
    is_atomic = op == O_ATOM or op == O_RED
    resolved = space
    lo, hi = INT64_MAX, INT64_MIN
    align_mask = min(width, 16) - 1    # widths are powers of two; a mask, not a division
    for lane in range(32):
        if (active >> lane) & 1:
            a = off
            if base >= 0:
                a += r64[w, base, lane]
            if space == SP_GENERIC:
                lane_space = SP_GLOBAL
                if a >= SHARED_WINDOW and a < SHARED_WINDOW + WINDOW_SIZE:
                    lane_space = SP_SHARED
                    a -= SHARED_WINDOW
                elif a >= LOCAL_WINDOW and a < LOCAL_WINDOW + WINDOW_SIZE:
                    lane_space = SP_LOCAL
                    a -= LOCAL_WINDOW
                if resolved == SP_GENERIC:
                    resolved = lane_space
                elif resolved != lane_space:
                    fail(err, E_MIXED_SPACE, pc, block, w * 32 + lane, a, 0)
                    return
            addrs[lane] = a
            lo = min(lo, a)
            hi = max(hi, a)
            if a & align_mask:
                fail(err, E_MISALIGNED, pc, block, w * 32 + lane, a, width)
                return
    in_heap = resolved == SP_GLOBAL or resolved == SP_CONST
    # Bounds: one check for the warp's address range; lane by lane only to name a culprit.
    if in_heap:
        inside = _find_buffer(lo, hi - lo + width, buf_lo, buf_hi)
        checked = inside >= 0 and (is_load or buf_writable[inside] != 0)
    else:
        limit = seg[SEG_SHARED_SIZE] if resolved == SP_SHARED else (
            seg[SEG_LOCAL_BYTES] if resolved == SP_LOCAL else seg[SEG_PARAM_SIZE])
        checked = lo >= 0 and hi + width <= limit
    if not checked:
        _bounds_error(pc, w, block, active, addrs, width, in_heap, resolved, is_load, buf_lo,
                      buf_hi, buf_writable, seg, err)
        return
    # Where each space lives in the memory image.
    if in_heap:
        moff = -GLOBAL_BASE
    elif resolved == SP_SHARED:
        moff = seg[SEG_SHARED_OFF]
    elif resolved == SP_LOCAL:
        moff = seg[SEG_LOCAL_OFF] + w * 32 * seg[SEG_LOCAL_BYTES]
    else:
        moff = seg[SEG_PARAM_OFF]
    local_stride = seg[SEG_LOCAL_BYTES] if resolved == SP_LOCAL else 0
    signed = (t >> 4) == K_SIGNED
    if vec == 1 and esize == 4 and not is_atomic and local_stride == 0:
        if is_load:
            d0 = code[pc, F_D0]
            for lane in range(32):
                if (active >> lane) & 1:
                    v = np.int64(mem32[(addrs[lane] + moff) >> 2])
                    r64[w, d0, lane] = v - (np.int64(1) << 32) if signed and v >= (np.int64(1) << 31) else v
        else:
            s0 = code[pc, F_S0]
            for lane in range(32):
                if (active >> lane) & 1:
                    mem32[(addrs[lane] + moff) >> 2] = np.uint32(r64[w, s0, lane] & 0xFFFFFFFF)
    else:
        # Lane by lane; atomics in lane order, like a serialised warp.
        for lane in range(32):
            if not (active >> lane) & 1:
                continue
            for k in range(vec):
                at = addrs[lane] + k * esize + moff + lane * local_stride
                if is_load:
                    v = _mem_read(mem8, mem16, mem32, mem64, at, esize)
                    r64[w, code[pc, F_D0 + k], lane] = ext(v, t) if (t >> 4) != K_FLOAT else v
                elif is_atomic:
                    _atomic_lane(code, pc, op, t, r64, rf32, rf64, w, lane, mem8, mem16, mem32,
                                 mem64, at, esize)
                else:
                    _mem_write(mem8, mem16, mem32, mem64, at, esize, r64[w, code[pc, F_S0 + k], lane])
    # Counting.
    counters[pc, C_SPACE] = resolved
    counters[pc, C_REQUESTS] += 1
    lanes = popcount(active)
    distinct = lanes
    if resolved == SP_GLOBAL and is_atomic:
        sectors, ideal, distinct = atomic_packets(addrs, active, width, scratch, atomic_table,
                                                  (t >> 4) == K_FLOAT)
        counters[pc, C_SECTORS] += sectors
        counters[pc, C_IDEAL_SECTORS] += ideal
    elif resolved == SP_GLOBAL:
        sectors, ideal, distinct = global_sectors(addrs, active, width, scratch)
        counters[pc, C_SECTORS] += sectors
        counters[pc, C_IDEAL_SECTORS] += ideal
    elif resolved == SP_SHARED:
        wavefronts, ideal, distinct = shared_wavefronts(addrs, active, width, not is_load, scratch, bank_load)
        counters[pc, C_WAVEFRONTS] += wavefronts
        counters[pc, C_IDEAL_WAVEFRONTS] += ideal
    counters[pc, C_BYTES] += data_bytes(is_load, lanes, distinct, width)


@njit(cache=True)
def _bounds_error(pc, w, block, active, addrs, width, in_heap, resolved, is_load, buf_lo, buf_hi,
                  buf_writable, seg, err):
    for lane in range(32):
        if not (active >> lane) & 1:
            continue
        a = addrs[lane]
        if in_heap:
            k = _find_buffer(a, width, buf_lo, buf_hi)
            if k < 0 or (not is_load and buf_writable[k] == 0):
                fail(err, E_GLOBAL_OOB if resolved == SP_GLOBAL else E_CONST_OOB, pc, block,
                      w * 32 + lane, a, width)
                return
        else:
            limit = seg[SEG_SHARED_SIZE] if resolved == SP_SHARED else (
                seg[SEG_LOCAL_BYTES] if resolved == SP_LOCAL else seg[SEG_PARAM_SIZE])
            if a < 0 or a + width > limit:
                code = E_SHARED_OOB if resolved == SP_SHARED else (
                    E_LOCAL_OOB if resolved == SP_LOCAL else E_PARAM_OOB)
                fail(err, code, pc, block, w * 32 + lane, a, width)
                return


@njit(cache=True)
def _atomic_lane(code, pc, op, t, r64, rf32, rf64, w, lane, mem8, mem16, mem32, mem64, at, esize):
    s0, s1, d0 = code[pc, F_S0], code[pc, F_S1], code[pc, F_D0]
    old = ext(_mem_read(mem8, mem16, mem32, mem64, at, esize), t)
    if (t >> 4) == K_FLOAT:
        # float atomics read and write memory through float views of the same bytes
        if esize == 8:
            fmem = mem64.view(np.float64)
            fmem[at >> 3] = _atomic_float(code[pc, F_CMP], fmem[at >> 3], rf64[w, s0, lane])
        else:
            fmem32 = mem32.view(np.float32)
            fmem32[at >> 2] = np.float32(_atomic_float(code[pc, F_CMP], np.float64(fmem32[at >> 2]),
                                                       np.float64(rf32[w, s0, 2 * lane])))
    else:
        cval = ext(r64[w, s1, lane], t) if s1 >= 0 else 0
        new = _atomic_int(code[pc, F_CMP], t, old, ext(r64[w, s0, lane], t), cval)
        _mem_write(mem8, mem16, mem32, mem64, at, esize, new)
    if op == O_ATOM and d0 >= 0:
        r64[w, d0, lane] = old
