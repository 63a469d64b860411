"""Run lowered SASS (memsim/sass/program.py) warp by warp in Numba, with real values.

Lanes keep their own program counters; a warp step issues the instruction at the smallest PC
among its running lanes for every lane sitting there. Convergence barriers are modelled as on
Volta and later: BSSY records the lanes that enter a region, BSYNC parks arriving lanes until
every lane of that mask still alive has arrived (BREAK takes lanes out of the mask). BAR.SYNC
parks lanes until every live thread of the block has arrived. Registers hold 32-bit patterns in
int64; predicates are 0/1. Memory instructions hand their lanes' addresses to memsim/count.py.

Alongside, an in-order scoreboard follows each warp's waits (`_scoreboard`): a warp issues in
order and stalls at the first instruction that reads (or overwrites) a register a load in
flight will fill. Each load adds its round-trip step (memsim.sass.program.round_trip_steps) to
its issue clock; the clock a warp ends at counts the global and constant round trips on its
dependent path: what the time model (memsim/timing.py) charges each at its latency.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..count import (C_BYTES, C_EXEC, C_IDEAL_SECTORS, C_IDEAL_WAVEFRONTS, C_REQUESTS, C_SECTORS,
                     C_SPACE, C_THREADS, C_WAVEFRONTS, global_sectors, shared_wavefronts)
from ..emulate import compare_ordered, guarded, lowest_pc, release_barrier
from ..ptx.program import GLOBAL_BASE, SP_GLOBAL, SP_SHARED
from ..trace import record_access
from .program import (BOOL, GLOBAL_ROUND_TRIP, F_CMP, F_FLAGS, F_GNEG, F_GUARD, F_MBASE, F_MOFF, F_MUR, F_MWIDE,
                      F_OP, F_OPS, F_TARGET, F_UNIFORM, F_WIDTH, FL_BIT64, FL_FLOAT, FL_FTZ,
                      FL_GLOBAL, FL_HI, FL_LEFT, FL_RP, FL_SIGNED, FL_SX32, FL_U32, FL_WIDE, FL_X,
                      K_IMM, K_NONE, M_FABS, M_FNEG, M_NEG, M_NOT, N_SLOTS, OP, PT, RZ,
                      SHARED_WINDOW_BASE, SINK, UPT, URZ)

O_NOP, O_MOV, O_MOV64, O_S2R, O_IADD3, O_IMAD = OP["NOP"], OP["MOV"], OP["MOV64"], OP["S2R"], OP["IADD3"], OP["IMAD"]
O_LEA, O_LOP3, O_PLOP3, O_SHF, O_ISETP, O_FSETP = OP["LEA"], OP["LOP3"], OP["PLOP3"], OP["SHF"], OP["ISETP"], OP["FSETP"]
O_PRMT, O_IABS, O_FADD, O_FMUL, O_FFMA, O_DADD = OP["PRMT"], OP["IABS"], OP["FADD"], OP["FMUL"], OP["FFMA"], OP["DADD"]
O_I2F, O_F2I, O_RCP, O_LD, O_ST, O_RED = OP["I2F"], OP["F2I"], OP["MUFU_RCP"], OP["LD"], OP["ST"], OP["RED"]
O_BAR, O_BRA, O_EXIT, O_BSSY, O_BSYNC, O_BREAK, O_SEL = OP["BAR"], OP["BRA"], OP["EXIT"], OP["BSSY"], OP["BSYNC"], OP["BREAK"], OP["SEL"]
B_AND, B_OR, B_XOR = BOOL["AND"], BOOL["OR"], BOOL["XOR"]

E_NONE, E_GLOBAL_OOB, E_MISALIGNED, E_SHARED_OOB, E_BUDGET, E_DEADLOCK = 0, 1, 2, 3, 6, 7
M32 = 0xFFFFFFFF
ALL = (1 << 32) - 1
N_BARRIERS = 16


@njit(cache=True, inline="always")
def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def _raw(code, pc, k, regs, w, lane):
    base = F_OPS + 3 * k
    if code[pc, base] == K_IMM:
        return code[pc, base + 1]
    return regs[w, code[pc, base + 1], lane]


@njit(cache=True, inline="always")
def _int(code, pc, k, regs, w, lane):
    """A 32-bit integer source with its - and ~ marks applied."""
    v = _raw(code, pc, k, regs, w, lane)
    mod = code[pc, F_OPS + 3 * k + 2]
    if mod & M_NOT:
        v = ~v
    if mod & M_NEG:
        v = -v
    return v & M32


@njit(cache=True, inline="always")
def _pred(code, pc, k, regs, w, lane):
    if code[pc, F_OPS + 3 * k] == K_NONE:
        return False
    p = _raw(code, pc, k, regs, w, lane) != 0
    if code[pc, F_OPS + 3 * k + 2] & M_NOT:
        return not p
    return p


@njit(cache=True, inline="always")
def _dst(code, pc, k):
    return code[pc, F_OPS + 3 * k + 1]


@njit(cache=True, inline="always")
def _has(code, pc, k):
    return code[pc, F_OPS + 3 * k] != K_NONE


@njit(cache=True, inline="always")
def _signed(v):
    return v - (1 << 32) if v & 0x80000000 else v


@njit(cache=True, inline="always")
def _ftz_bits(bits):
    if (bits & 0x7F800000) == 0:
        return bits & 0x80000000
    return bits


@njit(cache=True, inline="always")
def _f32(code, pc, k, regs, w, lane, fb, ff, ftz):
    bits = _raw(code, pc, k, regs, w, lane) & M32
    mod = code[pc, F_OPS + 3 * k + 2]
    if ftz:
        bits = _ftz_bits(bits)
    if mod & M_FABS:
        bits &= 0x7FFFFFFF
    if mod & M_FNEG:
        bits ^= 0x80000000
    fb[0] = np.uint32(bits)
    return ff[0]


@njit(cache=True, inline="always")
def _f32_bits(x, fb, ff, ftz):
    ff[0] = np.float32(x)
    bits = np.int64(fb[0])
    if ftz:
        bits = _ftz_bits(bits)
    return bits


@njit(cache=True, inline="always")
def _f64(code, pc, k, regs, w, lane, db, df):
    base = F_OPS + 3 * k
    s = code[pc, base + 1]
    if s == RZ:
        bits = np.int64(0)
    else:
        bits = (regs[w, s, lane] & M32) | ((regs[w, s + 1, lane] & M32) << 32)
    mod = code[pc, base + 2]
    db[0] = np.uint64(bits)
    x = df[0]
    if mod & M_FABS:
        x = abs(x)
    if mod & M_FNEG:
        x = -x
    return x


@njit(cache=True, inline="always")
def _put(regs, w, s, lane, v):
    if s != SINK:
        regs[w, s, lane] = v


@njit(cache=True, inline="always")
def _combine(r, op, p):
    if op == B_AND:
        return r and p
    if op == B_OR:
        return r or p
    return r != p


@njit(cache=True)
def _compare_float(cmp, x, y):
    unordered = math.isnan(x) or math.isnan(y)
    if cmp == 12:
        return not unordered
    if cmp == 13:
        return unordered
    if cmp == 14:
        return False
    if cmp == 15:
        return True
    if cmp >= 6:
        if unordered:
            return True
        cmp -= 6
    elif unordered:
        return False
    return compare_ordered(cmp, x, y)


@njit(cache=True)
def _lut3(lut, a, b, c):
    r = 0
    for i in range(8):
        if (lut >> i) & 1:
            x = a if i & 4 else ~a
            y = b if i & 2 else ~b
            z = c if i & 1 else ~c
            r |= x & y & z
    return r & M32


@njit(cache=True)
def _i2f(v, unsigned, round_up, fb, ff):
    x = np.float64(v) if unsigned else np.float64(_signed(v))
    f = np.float32(x)
    if round_up and np.float64(f) < x:
        f = np.nextafter(f, np.float32(np.inf))
    return _f32_bits(f, fb, ff, False)


@njit(cache=True)
def _f2i(x, unsigned):
    if math.isnan(x):
        return 0
    t = math.trunc(x)
    if unsigned:
        return np.int64(min(max(t, 0.0), 4294967295.0))
    return np.int64(min(max(t, -2147483648.0), 2147483647.0)) & M32


@njit(cache=True)
def _alu(code, pc, op, regs, w, active, block3, ctaid, fb, ff, db, df):
    flags = code[pc, F_FLAGS]
    d0 = _dst(code, pc, 0)
    for lane in range(32):
        if not (active >> lane) & 1:
            continue
        if op == O_MOV:
            _put(regs, w, d0, lane, _int(code, pc, 1, regs, w, lane))
        elif op == O_MOV64:
            v = _raw(code, pc, 1, regs, w, lane)
            _put(regs, w, d0, lane, v & M32)
            if d0 != SINK:
                _put(regs, w, d0 + 1, lane, (v >> 32) & M32)
        elif op == O_S2R:
            which = _raw(code, pc, 1, regs, w, lane)
            linear = w * 32 + lane
            if which == 0:
                v = linear % block3[0]
            elif which == 1:
                v = (linear // block3[0]) % block3[1]
            elif which == 2:
                v = linear // (block3[0] * block3[1])
            elif which <= 5:
                v = ctaid[which - 3]
            elif which == 7:
                v = lane
            else:
                v = 0
            _put(regs, w, d0, lane, v)
        elif op == O_IADD3:
            total = 0
            for k in range(3, 6):
                if _has(code, pc, k):
                    v = _raw(code, pc, k, regs, w, lane)
                    mod = code[pc, F_OPS + 3 * k + 2]
                    if mod & M_NOT:
                        v = ~v
                    if mod & M_NEG:       # -x = ~x + 1, with the +1 inside the carry chain
                        v = ~v
                        total += 1
                    total += v & M32
            if flags & FL_X:
                total += int(_pred(code, pc, 6, regs, w, lane)) + int(_pred(code, pc, 7, regs, w, lane))
            _put(regs, w, d0, lane, total & M32)
            carry = total >> 32
            if _has(code, pc, 1):
                _put(regs, w, _dst(code, pc, 1), lane, carry & 1)
            if _has(code, pc, 2):
                _put(regs, w, _dst(code, pc, 2), lane, (carry >> 1) & 1)
        elif op == O_IMAD:
            a, b, c = _int(code, pc, 2, regs, w, lane), _int(code, pc, 3, regs, w, lane), _int(code, pc, 4, regs, w, lane)
            if not flags & FL_U32 and flags & (FL_HI | FL_WIDE):
                a, b = _signed(a), _signed(b)
            if flags & FL_WIDE:
                cs = _dst(code, pc, 4) if code[pc, F_OPS + 12] != K_IMM else -1
                chi = 0
                if cs >= 0 and cs != RZ and cs != URZ:
                    chi = regs[w, cs + 1, lane] & M32
                elif cs < 0:
                    chi = M32 if c & 0x80000000 else 0
                r = a * b + (c | (chi << 32))
                _put(regs, w, d0, lane, r & M32)
                if d0 != SINK:
                    _put(regs, w, d0 + 1, lane, (r >> 32) & M32)
            elif flags & FL_HI:
                # The addend is the register pair c:c+1 (ptxas zeroes c and puts x in c+1 for
                # mulhi(a, b) + x): the high word of a * b + (c+1 << 32 | c).
                cs = _dst(code, pc, 4) if code[pc, F_OPS + 12] != K_IMM else -1
                wide_c = np.uint64(c)
                if cs >= 0 and cs != RZ and cs != URZ:
                    wide_c |= np.uint64(regs[w, cs + 1, lane] & M32) << np.uint64(32)
                product = np.uint64(a) * np.uint64(b) if flags & FL_U32 else np.uint64(a * b)
                _put(regs, w, d0, lane, np.int64((product + wide_c) >> np.uint64(32)) & M32)
            else:
                r = a * b + c
                if flags & FL_X:
                    r += int(_pred(code, pc, 5, regs, w, lane))
                _put(regs, w, d0, lane, r & M32)
        elif op == O_LEA:
            a, b = _int(code, pc, 2, regs, w, lane), _int(code, pc, 3, regs, w, lane)
            s = _int(code, pc, 5, regs, w, lane) & 63
            if flags & FL_HI:
                if flags & FL_SX32:
                    hi = M32 if a & 0x80000000 else 0
                else:
                    hi = _int(code, pc, 4, regs, w, lane)
                wide = np.uint64(a | (hi << 32))
                shifted = np.int64((wide << np.uint64(s)) >> np.uint64(32)) & M32
            else:
                shifted = (a << s) & M32
            total = shifted + b
            if flags & FL_X:
                total += int(_pred(code, pc, 6, regs, w, lane))
            _put(regs, w, d0, lane, total & M32)
            if _has(code, pc, 1):
                _put(regs, w, _dst(code, pc, 1), lane, (total >> 32) & 1)
        elif op == O_LOP3:
            r = _lut3(_int(code, pc, 5, regs, w, lane), _int(code, pc, 2, regs, w, lane),
                      _int(code, pc, 3, regs, w, lane), _int(code, pc, 4, regs, w, lane))
            _put(regs, w, d0, lane, r)
            if _has(code, pc, 1):
                _put(regs, w, _dst(code, pc, 1), lane, 1 if r != 0 else 0)
        elif op == O_PLOP3:
            index = (int(_pred(code, pc, 2, regs, w, lane)) * 4 + int(_pred(code, pc, 3, regs, w, lane)) * 2
                     + int(_pred(code, pc, 4, regs, w, lane)))
            _put(regs, w, d0, lane, (_raw(code, pc, 5, regs, w, lane) >> index) & 1)
            _put(regs, w, _dst(code, pc, 1), lane, (_raw(code, pc, 6, regs, w, lane) >> index) & 1)
        elif op == O_SHF:
            lo, s, hi = _int(code, pc, 1, regs, w, lane), _int(code, pc, 2, regs, w, lane), _int(code, pc, 3, regs, w, lane)
            s = min(s, 64 if flags & FL_BIT64 else 32)
            if flags & FL_LEFT:
                wide = np.uint64(lo | (hi << 32))
                r = np.int64(wide << np.uint64(s)) if s < 64 else np.int64(0)
            elif flags & FL_SIGNED:
                wide_s = lo | (_signed(hi) << 32)
                r = wide_s >> min(s, 63)
            else:
                wide = np.uint64(lo | (hi << 32))
                r = np.int64(wide >> np.uint64(s)) if s < 64 else np.int64(0)
            _put(regs, w, d0, lane, ((r >> 32) if flags & FL_HI else r) & M32)
        elif op == O_ISETP or op == O_FSETP:
            cmp = code[pc, F_CMP] & 255
            if op == O_ISETP:
                a, b = _int(code, pc, 2, regs, w, lane), _int(code, pc, 3, regs, w, lane)
                if not flags & FL_U32:
                    a, b = _signed(a), _signed(b)
                r = compare_ordered(cmp, a, b)
                if flags & FL_X:
                    low = _pred(code, pc, 5, regs, w, lane)
                    if cmp == 0:
                        r = r and low
                    elif cmp == 1:
                        r = r or low
                    else:   # the high words decide unless equal; then the low words' result
                        r = (a < b if cmp <= 3 else a > b) or (a == b and low)
            else:
                ftz = (flags & FL_FTZ) != 0
                r = _compare_float(cmp, _f32(code, pc, 2, regs, w, lane, fb, ff, ftz),
                                   _f32(code, pc, 3, regs, w, lane, fb, ff, ftz))
            boolop = code[pc, F_CMP] >> 8
            p = _pred(code, pc, 4, regs, w, lane)
            _put(regs, w, d0, lane, 1 if _combine(r, boolop, p) else 0)
            _put(regs, w, _dst(code, pc, 1), lane, 1 if _combine(not r, boolop, p) else 0)
        elif op == O_SEL:
            v = _int(code, pc, 1, regs, w, lane) if _pred(code, pc, 3, regs, w, lane) else _int(code, pc, 2, regs, w, lane)
            _put(regs, w, d0, lane, v)
        elif op == O_PRMT:
            a, sel, b = _int(code, pc, 1, regs, w, lane), _int(code, pc, 2, regs, w, lane), _int(code, pc, 3, regs, w, lane)
            pool = a | (b << 32)
            r = 0
            for k in range(4):
                nib = (sel >> (4 * k)) & 0xF
                byte = (pool >> (8 * (nib & 7))) & 0xFF
                if nib & 8:
                    byte = 0xFF if byte & 0x80 else 0
                r |= byte << (8 * k)
            _put(regs, w, d0, lane, r)
        elif op == O_IABS:
            _put(regs, w, d0, lane, abs(_signed(_int(code, pc, 1, regs, w, lane))) & M32)
        elif op == O_FADD or op == O_FMUL or op == O_FFMA:
            ftz = (flags & FL_FTZ) != 0
            x = _f32(code, pc, 1, regs, w, lane, fb, ff, ftz)
            y = _f32(code, pc, 2, regs, w, lane, fb, ff, ftz)
            if op == O_FADD:
                r = x + y
            elif op == O_FMUL:
                r = x * y
            else:
                z = _f32(code, pc, 3, regs, w, lane, fb, ff, ftz)
                r = np.float32(np.float64(x) * np.float64(y) + np.float64(z))
            _put(regs, w, d0, lane, _f32_bits(r, fb, ff, ftz))
        elif op == O_DADD:
            r = _f64(code, pc, 1, regs, w, lane, db, df) + _f64(code, pc, 2, regs, w, lane, db, df)
            df[0] = r
            bits = np.int64(db[0])
            _put(regs, w, d0, lane, bits & M32)
            if d0 != SINK:
                _put(regs, w, d0 + 1, lane, (bits >> 32) & M32)
        elif op == O_I2F:
            _put(regs, w, d0, lane, _i2f(_int(code, pc, 1, regs, w, lane), (flags & FL_U32) != 0,
                                         (flags & FL_RP) != 0, fb, ff))
        elif op == O_F2I:
            x = _f32(code, pc, 1, regs, w, lane, fb, ff, (flags & FL_FTZ) != 0)
            _put(regs, w, d0, lane, _f2i(x, (flags & FL_U32) != 0))
        elif op == O_RCP:
            x = _f32(code, pc, 1, regs, w, lane, fb, ff, True)
            if x == 0.0:
                r = np.float32(math.copysign(math.inf, x))
            else:
                r = np.float32(1.0 / np.float64(x))
            _put(regs, w, d0, lane, _f32_bits(r, fb, ff, True))


@njit(cache=True)
def _memory(code, pc, op, regs, w, block, active, heap8, heap16, heap32, shared8, shared16,
            shared32, buf_lo, buf_hi, counters, err, addrs, scratch, bank_load):
    flags = code[pc, F_FLAGS]
    width = code[pc, F_WIDTH]
    is_global = (flags & FL_GLOBAL) != 0
    base, mur = code[pc, F_MBASE], code[pc, F_MUR]
    for lane in range(32):
        if not (active >> lane) & 1:
            continue
        a = code[pc, F_MOFF]
        if base >= 0:
            a += regs[w, base, lane] & M32
            if code[pc, F_MWIDE]:
                a += (regs[w, base + 1, lane] & M32) << 32
        if mur >= 0:
            a += regs[w, mur, lane] & M32
        if not is_global:
            a = (a & M32) - SHARED_WINDOW_BASE
        addrs[lane] = a
        if a % width != 0:
            err[0], err[1], err[2], err[3], err[4], err[5] = E_MISALIGNED, pc, block, w * 32 + lane, a, width
            return
        if is_global:
            ok = False
            for k in range(buf_lo.shape[0]):
                if a >= buf_lo[k] and a + width <= buf_hi[k]:
                    ok = True
                    break
            if not ok:
                err[0], err[1], err[2], err[3], err[4], err[5] = E_GLOBAL_OOB, pc, block, w * 32 + lane, a, width
                return
        elif a < 0 or a + width > shared8.shape[0]:
            err[0], err[1], err[2], err[3], err[4], err[5] = E_SHARED_OOB, pc, block, w * 32 + lane, a, width
            return
    slot = _dst(code, pc, 0)
    signed = (flags & FL_SIGNED) != 0
    for lane in range(32):
        if not (active >> lane) & 1:
            continue
        off = addrs[lane] - GLOBAL_BASE if is_global else addrs[lane]
        m8 = heap8 if is_global else shared8
        m16 = heap16 if is_global else shared16
        m32 = heap32 if is_global else shared32
        if op == O_LD:
            if width == 1:
                v = np.int64(m8[off])
                if signed and v & 0x80:
                    v |= 0xFFFFFF00
                _put(regs, w, slot, lane, v)
            elif width == 2:
                v = np.int64(m16[off >> 1])
                if signed and v & 0x8000:
                    v |= 0xFFFF0000
                _put(regs, w, slot, lane, v)
            else:
                for k in range(width // 4):
                    if slot != SINK:
                        regs[w, slot + k, lane] = np.int64(m32[(off >> 2) + k])
        elif op == O_ST:
            if width == 1:
                m8[off] = np.uint8(regs[w, slot, lane] & 0xFF)
            elif width == 2:
                m16[off >> 1] = np.uint16(regs[w, slot, lane] & 0xFFFF)
            else:
                for k in range(width // 4):
                    m32[(off >> 2) + k] = np.uint32(regs[w, slot + k, lane] & M32) if slot != RZ else 0
        else:   # RED.ADD, lane by lane as the PTX emulator applies atomics
            old = np.int64(m32[off >> 2])
            v = regs[w, slot, lane] & M32 if slot != RZ else 0
            if flags & FL_FLOAT:
                fsum = np.array([old, v], dtype=np.uint32).view(np.float32)
                new = np.array([fsum[0] + fsum[1]], dtype=np.float32).view(np.uint32)[0]
                m32[off >> 2] = new
            else:
                m32[off >> 2] = np.uint32((old + v) & M32)
    counters[pc, C_SPACE] = SP_GLOBAL if is_global else SP_SHARED
    counters[pc, C_REQUESTS] += 1
    lanes = _popcount(active)
    distinct = lanes
    if is_global:
        sectors, ideal, distinct = global_sectors(addrs, active, width, scratch)
        counters[pc, C_SECTORS] += sectors
        counters[pc, C_IDEAL_SECTORS] += ideal
    else:
        wavefronts, ideal, distinct = shared_wavefronts(addrs, active, width, op != O_LD, scratch, bank_load)
        counters[pc, C_WAVEFRONTS] += wavefronts
        counters[pc, C_IDEAL_WAVEFRONTS] += ideal
    counters[pc, C_BYTES] += (distinct if op == O_LD else lanes) * width


@njit(cache=True)
def _release(w, lane_pc, run_mask, sync_mask, sync_bar, bmask, live):
    """Let lanes parked at BSYNC go on where every lane their barrier waits for has arrived."""
    released = False
    for b in range(N_BARRIERS):
        waiting = 0
        for lane in range(32):
            if (sync_mask[w] >> lane) & 1 and sync_bar[w, lane] == b:
                waiting |= 1 << lane
        if waiting == 0:
            continue
        if bmask[w, b] & live & ~waiting == 0:
            sync_mask[w] &= ~waiting
            run_mask[w] |= waiting
            for lane in range(32):
                if (waiting >> lane) & 1:
                    lane_pc[w, lane] += 1
            released = True
    return released


@njit(cache=True, inline="always")
def _ready_after(pc, w, slots, ready, t):
    """The later of t and when the registers slots[pc] lists are filled."""
    for k in range(slots.shape[1]):
        s = slots[pc, k]
        if s < 0:
            break
        if ready[w, s] > t:
            t = ready[w, s]
    return t


@njit(cache=True, inline="always")
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


@njit(cache=True)
def _run_warp(code, regs, w, block, block3, ctaid, lane_pc, run_mask, bar_mask, sync_mask,
              sync_bar, bmask, heap8, heap16, heap32, shared8, shared16, shared32, buf_lo, buf_hi,
              counters, err, budget, executed, stats, addrs, scratch, bank_load, fb, ff, db, df,
              trace_sel, trace_warps, trace_rec, trace_addr, trace_fill, sources, dests, steps,
              ready, clock):
    n_code = code.shape[0]
    while True:
        if run_mask[w] == 0:
            if sync_mask[w] == 0:
                return executed
            live = run_mask[w] | bar_mask[w] | sync_mask[w]
            if not _release(w, lane_pc, run_mask, sync_mask, sync_bar, bmask, live):
                if bar_mask[w] != 0:
                    return executed   # lanes the barrier waits for sit at BAR.SYNC
                stats[0] += 1         # no lane left to arrive: let them go (never seen so far)
                run_mask[w] |= sync_mask[w]
                for lane in range(32):
                    if (sync_mask[w] >> lane) & 1:
                        lane_pc[w, lane] += 1
                sync_mask[w] = 0
            continue
        pc, mask = lowest_pc(lane_pc, w, run_mask[w], n_code)
        if pc >= n_code:
            run_mask[w] &= ~mask
            continue
        executed += 1
        if executed > budget:
            err[0], err[1], err[2], err[3], err[4], err[5] = E_BUDGET, pc, block, w * 32, 0, budget
            return executed
        op = code[pc, F_OP]
        _scoreboard(pc, w, sources, dests, steps, ready, clock)
        active = guarded(regs, w, code[pc, F_GUARD], code[pc, F_GNEG], mask)
        counters[pc, C_EXEC] += 1
        counters[pc, C_THREADS] += _popcount(active)
        next_pc = pc + 1
        if op == O_LD or op == O_ST or op == O_RED:
            if active != 0:
                _memory(code, pc, op, regs, w, block, active, heap8, heap16, heap32, shared8,
                        shared16, shared32, buf_lo, buf_hi, counters, err, addrs, scratch, bank_load)
                if err[0] != E_NONE:
                    return executed
                if trace_sel[pc]:
                    kind = 0 if op == O_LD else (1 if op == O_ST else 3)
                    record_access(block, w, pc, kind, active, counters[pc, C_SPACE], addrs,
                                  trace_warps, trace_rec, trace_addr, trace_fill, regs.shape[0])
        elif op == O_BRA:
            target = code[pc, F_TARGET]
            if _has(code, pc, 0):
                for lane in range(32):
                    if (active >> lane) & 1 and not _pred(code, pc, 0, regs, w, lane):
                        active &= ~(1 << lane)
            for lane in range(32):
                if (mask >> lane) & 1:
                    lane_pc[w, lane] = target if (active >> lane) & 1 else next_pc
            continue
        elif op == O_EXIT:
            run_mask[w] &= ~active
            for b in range(N_BARRIERS):
                bmask[w, b] &= ~active
        elif op == O_BAR:
            run_mask[w] &= ~active
            bar_mask[w] |= active
        elif op == O_BSSY:
            bmask[w, code[pc, F_CMP]] = mask
        elif op == O_BSYNC:
            run_mask[w] &= ~active
            sync_mask[w] |= active
            for lane in range(32):
                if (active >> lane) & 1:
                    sync_bar[w, lane] = code[pc, F_CMP]
            for lane in range(32):   # lanes not parked go on
                if (mask >> lane) & 1 and not (active >> lane) & 1:
                    lane_pc[w, lane] = next_pc
            continue
        elif op == O_BREAK:
            bmask[w, code[pc, F_CMP]] &= ~active
        elif op != O_NOP:
            if code[pc, F_UNIFORM]:
                active = ALL if active != 0 else 0
            if active != 0:
                _alu(code, pc, op, regs, w, active, block3, ctaid, fb, ff, db, df)
        for lane in range(32):
            if (mask >> lane) & 1:
                lane_pc[w, lane] = next_pc
    return executed


@njit(cache=True)
def run_blocks(code, regs, n_threads, block3, grid3, b_first, b_last, heap8, heap16, heap32,
               shared8, buf_lo, buf_hi, counters, err, budget, stats, trace_sel, trace_warps,
               trace_rec, trace_addr, trace_fill, sources, dests, steps, round_trips):
    """Run blocks [b_first, b_last) of the grid; counts go to counters[pc, C_*]. Accesses of
    the pcs trace_sel marks go to the trace buffers (memsim.trace.record_access). Each warp's
    end clock (see _scoreboard) goes to round_trips: the sums over warps of its global and
    constant round trips, then the largest of each."""
    n_warps = regs.shape[0]
    lane_pc = np.zeros((n_warps, 32), dtype=np.int64)
    run_mask = np.zeros(n_warps, dtype=np.int64)
    bar_mask = np.zeros(n_warps, dtype=np.int64)
    sync_mask = np.zeros(n_warps, dtype=np.int64)
    sync_bar = np.zeros((n_warps, 32), dtype=np.int64)
    bmask = np.zeros((n_warps, N_BARRIERS), dtype=np.int64)
    addrs = np.zeros(32, dtype=np.int64)
    scratch = np.zeros(160, dtype=np.int64)
    bank_load = np.zeros(32, dtype=np.int64)
    fb = np.zeros(1, dtype=np.uint32)
    ff = fb.view(np.float32)
    db = np.zeros(1, dtype=np.uint64)
    df = db.view(np.float64)
    shared16 = shared8.view(np.uint16)
    shared32 = shared8.view(np.uint32)
    ctaid = np.zeros(3, dtype=np.int64)
    ready = np.zeros((n_warps, N_SLOTS), dtype=np.int64)
    clock = np.zeros(n_warps, dtype=np.int64)
    executed = 0
    for b in range(b_first, b_last):
        ctaid[0], ctaid[1], ctaid[2] = b % grid3[0], (b // grid3[0]) % grid3[1], b // (grid3[0] * grid3[1])
        for w in range(n_warps):
            live = min(32, n_threads - 32 * w)
            run_mask[w] = (1 << live) - 1
            bar_mask[w] = 0
            sync_mask[w] = 0
            for lane in range(32):
                lane_pc[w, lane] = 0
            for k in range(N_BARRIERS):
                bmask[w, k] = 0
            clock[w] = 0
            ready[w, :] = 0
        while True:
            for w in range(n_warps):
                if run_mask[w] != 0 or sync_mask[w] != 0:
                    executed = _run_warp(code, regs, w, b, block3, ctaid, lane_pc, run_mask,
                                         bar_mask, sync_mask, sync_bar, bmask, heap8, heap16,
                                         heap32, shared8, shared16, shared32, buf_lo, buf_hi,
                                         counters, err, budget, executed, stats, addrs, scratch,
                                         bank_load, fb, ff, db, df, trace_sel, trace_warps,
                                         trace_rec, trace_addr, trace_fill, sources, dests,
                                         steps, ready, clock)
                    if err[0] != E_NONE:
                        return executed
            # The barrier lets its warps go when the last one arrives.
            arrived = 0
            for w in range(n_warps):
                if bar_mask[w] != 0 and clock[w] > arrived:
                    arrived = clock[w]
            for w in range(n_warps):
                if bar_mask[w] != 0:
                    clock[w] = arrived
            if not release_barrier(run_mask, bar_mask):
                break
        for w in range(min(n_warps, (n_threads + 31) // 32)):
            trips, constant = clock[w] // GLOBAL_ROUND_TRIP, clock[w] % GLOBAL_ROUND_TRIP
            round_trips[0] += trips
            round_trips[1] += constant
            round_trips[2] = max(round_trips[2], trips)
            round_trips[3] = max(round_trips[3], constant)
    return executed


def new_registers(n_warps: int) -> np.ndarray:
    regs = np.zeros((n_warps, N_SLOTS, 32), dtype=np.int64)
    regs[:, PT, :] = 1
    regs[:, UPT, :] = 1
    return regs
