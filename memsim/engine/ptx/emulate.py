"""Stage 3: run a lowered PTX program SIMT-style, one block at a time, in Numba.

Each warp keeps a program counter per lane. A warp step takes the smallest PC among its running
lanes and executes that instruction once for every lane sitting there (min-PC reconvergence:
divergent paths run one after the other and rejoin where they meet). While all running lanes
agree the warp takes a fast path with one PC. Barriers park lanes until every live thread of the
block has arrived. Registers are int64 bit patterns; float32 values live in the low half and are
read through a float32 view of the same memory.

Memory instructions hand their lanes' addresses to the counting stage (count.py) as they run.
Errors (out-of-bounds, misaligned, unknown instruction, budget) stop the run and are described
in `err` for the Python side to turn into a one-line message.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..count import (C_BYTES, C_SPACE, C_EXEC, C_IDEAL_SECTORS, C_IDEAL_WAVEFRONTS, C_REQUESTS, C_SECTORS,
                    C_THREADS, C_WAVEFRONTS, data_bytes, global_sectors, shared_wavefronts)
from .opcodes import OP
from .program import (F_ABASE, F_AOFF, F_CMP, F_D0, F_D1, F_GNEG, F_GUARD, F_MOD, F_OP, F_S0, F_S1,
                          SPECIAL_REGISTERS, F_S2, F_S3, F_SNEG, F_SPACE, F_TARGET, F_TYPE, F_TYPE2, F_VEC, F_WIDTH,
                          GLOBAL_BASE, LOCAL_WINDOW, M_HI, M_IFCONV, M_SAT, M_TO, M_WIDE, SHARED_WINDOW,
                          SP_CONST, SP_GENERIC, SP_GLOBAL, SP_LOCAL, SP_SHARED, WINDOW_SIZE)
from ..faults import (E_BUDGET, E_CONST_OOB, E_GLOBAL_OOB, E_LOCAL_OOB, E_MISALIGNED, E_MIXED_SPACE,
                      E_NONE, E_PARAM_OOB, E_SHARED_OOB, E_TRAP, E_TYPE, E_UNSUPPORTED)
from ..simt import compare_ordered, guarded, lowest_pc, release_barrier
from ..trace import record_access


# Opcode ids as compile-time constants.
O_UNSUPPORTED, O_MOV, O_LD, O_ST, O_CVTA = OP["unsupported"], OP["mov"], OP["ld"], OP["st"], OP["cvta"]
O_ADD, O_SUB, O_MUL, O_MAD, O_FMA = OP["add"], OP["sub"], OP["mul"], OP["mad"], OP["fma"]
O_DIV, O_REM, O_MIN, O_MAX, O_ABS, O_NEG = OP["div"], OP["rem"], OP["min"], OP["max"], OP["abs"], OP["neg"]
O_AND, O_OR, O_XOR, O_NOT, O_CNOT = OP["and"], OP["or"], OP["xor"], OP["not"], OP["cnot"]
O_SHL, O_SHR, O_SETP, O_SELP, O_CVT = OP["shl"], OP["shr"], OP["setp"], OP["selp"], OP["cvt"]
O_RCP, O_SQRT, O_RSQRT, O_EX2, O_LG2 = OP["rcp"], OP["sqrt"], OP["rsqrt"], OP["ex2"], OP["lg2"]
O_SIN, O_COS, O_POPC, O_CLZ, O_BREV = OP["sin"], OP["cos"], OP["popc"], OP["clz"], OP["brev"]
O_BFE, O_BFI, O_PRMT, O_BRA, O_RET, O_EXIT = OP["bfe"], OP["bfi"], OP["prmt"], OP["bra"], OP["ret"], OP["exit"]
O_BAR, O_BARRIER, O_MEMBAR, O_FENCE = OP["bar"], OP["barrier"], OP["membar"], OP["fence"]
O_SHFL, O_VOTE, O_ACTIVEMASK, O_ATOM, O_RED = OP["shfl"], OP["vote"], OP["activemask"], OP["atom"], OP["red"]
O_PREFETCH, O_PACK, O_UNPACK, O_COPYSIGN = OP["prefetch"], OP["pack"], OP["unpack"], OP["copysign"]
O_MUL24, O_MAD24, O_TRAP, O_TANH, O_TESTP = OP["mul24"], OP["mad24"], OP["trap"], OP["tanh"], OP["testp"]
O_SET, O_SLCT, O_NANOSLEEP, O_PRAGMA, O_SAD = OP["set"], OP["slct"], OP["nanosleep"], OP["pragma"], OP["sad"]

MASK64 = -1
K_SIGNED, K_FLOAT, K_PRED = 1, 2, 3
INT64_MIN = -(1 << 63)
SMID, NSMID = SPECIAL_REGISTERS.index("%smid"), SPECIAL_REGISTERS.index("%nsmid")
INT64_MAX = (1 << 63) - 1


@njit(cache=True)
def _ext(v, t):
    """Sign- or zero-extend the low bits of v as type t says."""
    sz = t & 15
    if sz >= 3:
        return v
    bits = 8 << sz
    v = v & ((1 << bits) - 1)
    if (t >> 4) == K_SIGNED and v >= (1 << (bits - 1)):
        v -= 1 << bits
    return v


@njit(cache=True)
def _trunc(v, t):
    sz = t & 15
    if sz >= 3:
        return v
    return v & ((1 << (8 << sz)) - 1)


@njit(cache=True)
def _getf(r64, rf32, rf64, w, s, lane, t):
    if (t & 15) == 3:
        return rf64[w, s, lane]
    return np.float64(rf32[w, s, 2 * lane])


@njit(cache=True)
def _putf(r64, rf32, rf64, w, s, lane, t, x):
    if (t & 15) == 3:
        rf64[w, s, lane] = x
    else:
        r64[w, s, lane] = 0
        rf32[w, s, 2 * lane] = np.float32(x)


@njit(cache=True)
def _ult(a, b):
    return (a ^ INT64_MIN) < (b ^ INT64_MIN)


@njit(cache=True)
def _mulhi_u64(a, b):
    ua, ub = np.uint64(a), np.uint64(b)
    m32 = np.uint64(0xFFFFFFFF)
    s32 = np.uint64(32)
    a_lo, a_hi = ua & m32, ua >> s32
    b_lo, b_hi = ub & m32, ub >> s32
    t = a_lo * b_lo
    k = t >> s32
    t = a_hi * b_lo + k
    w1, w2 = t & m32, t >> s32
    t = a_lo * b_hi + w1
    k = t >> s32
    return np.int64(a_hi * b_hi + w2 + k)


@njit(cache=True)
def _int_binary(op, mod, t, a, b, c):
    """Integer ALU on extended operands; returns the 64-bit result (caller truncates)."""
    signed = (t >> 4) == K_SIGNED
    bits = 8 << (t & 15)
    if op == O_ADD:
        r = a + b
        if mod & M_SAT and signed and bits == 32:
            r = min(max(r, -(1 << 31)), (1 << 31) - 1)
        return r
    if op == O_SUB:
        r = a - b
        if mod & M_SAT and signed and bits == 32:
            r = min(max(r, -(1 << 31)), (1 << 31) - 1)
        return r
    if op == O_MUL or op == O_MAD:
        if mod & M_HI:
            if bits == 64:
                hi = _mulhi_u64(a, b)
                if signed:
                    if a < 0:
                        hi -= b
                    if b < 0:
                        hi -= a
                r = hi
            elif signed:
                r = (a * b) >> bits
            else:
                r = np.int64(np.uint64(a * b) >> np.uint64(bits))
        else:
            r = a * b
        if op == O_MAD:
            r = r + c
        return r
    if op == O_MUL24 or op == O_MAD24:
        a24, b24 = a & 0xFFFFFF, b & 0xFFFFFF
        if signed:
            if a24 >= 0x800000:
                a24 -= 0x1000000
            if b24 >= 0x800000:
                b24 -= 0x1000000
        r = a24 * b24
        if mod & M_HI:
            r = r >> 16
        if op == O_MAD24:
            r += c
        return r
    if op == O_DIV:
        if b == 0:
            return -1
        if signed:
            q = abs(a) // abs(b)
            return q if (a < 0) == (b < 0) else -q
        return np.int64(np.uint64(a) // np.uint64(b))
    if op == O_REM:
        if b == 0:
            return a
        if signed:
            r = abs(a) % abs(b)
            return -r if a < 0 else r
        return np.int64(np.uint64(a) % np.uint64(b))
    if op == O_MIN:
        if signed:
            return min(a, b)
        return a if _ult(a, b) else b
    if op == O_MAX:
        if signed:
            return max(a, b)
        return b if _ult(a, b) else a
    if op == O_AND:
        return a & b
    if op == O_OR:
        return a | b
    if op == O_XOR:
        return a ^ b
    if op == O_SHL:
        if _ult(b, bits):
            return a << b
        return 0
    if op == O_SHR:
        if signed:
            return a >> min(b if b >= 0 else 63, 63)
        if not _ult(b, bits):
            return 0
        ua = np.uint64(a) & (np.uint64(MASK64) >> np.uint64(64 - bits))
        return np.int64(ua >> np.uint64(b))
    if op == O_SAD:
        d = a - b if (a >= b if signed else not _ult(a, b)) else b - a
        return d + c
    return 0


@njit(cache=True)
def _float_op(op, a, b, c, is32):
    if op == O_ADD:
        return a + b
    if op == O_SUB:
        return a - b
    if op == O_MUL:
        return a * b
    if op == O_FMA or op == O_MAD:
        if is32:
            return a * b + c  # exact product of float32s; one rounding before the float32 cast
        return a * b + c
    if op == O_DIV:
        if b == 0.0:
            if a == 0.0 or math.isnan(a):
                return math.nan
            return math.copysign(math.inf, a) * math.copysign(1.0, b)
        return a / b
    if op == O_MIN:
        if math.isnan(a):
            return b
        if math.isnan(b):
            return a
        return min(a, b)
    if op == O_MAX:
        if math.isnan(a):
            return b
        if math.isnan(b):
            return a
        return max(a, b)
    if op == O_ABS:
        return abs(a)
    if op == O_NEG:
        return -a
    if op == O_RCP:
        return 1.0 / a if a != 0.0 else math.copysign(math.inf, a)
    if op == O_SQRT:
        return math.sqrt(a) if a >= 0.0 else math.nan
    if op == O_RSQRT:
        if a == 0.0:
            return math.copysign(math.inf, a)
        return 1.0 / math.sqrt(a) if a > 0.0 else math.nan
    if op == O_EX2:
        return 2.0 ** a
    if op == O_LG2:
        if a == 0.0:
            return -math.inf
        return math.log2(a) if a > 0.0 else math.nan
    if op == O_SIN:
        return math.sin(a)
    if op == O_COS:
        return math.cos(a)
    if op == O_TANH:
        return math.tanh(a)
    if op == O_COPYSIGN:
        return math.copysign(b, a)
    return math.nan


@njit(cache=True)
def _compare(cmp, t, a, b, fa, fb):
    kind = t >> 4
    if kind == K_FLOAT:
        unordered = math.isnan(fa) or math.isnan(fb)
        if cmp == 16:   # num
            return not unordered
        if cmp == 17:   # nan
            return unordered
        if cmp >= 10:   # equ neu ltu leu gtu geu
            if unordered:
                return True
            cmp -= 10
        elif unordered:
            return cmp == 1 and False
        return compare_ordered(cmp - 4 if cmp >= 6 else cmp, fa, fb)   # lo ls hi hs: lt le gt ge
    signed = kind == K_SIGNED
    if cmp >= 6:       # lo ls hi hs: always unsigned
        signed = False
        cmp -= 4
    if signed or cmp <= 1:
        return compare_ordered(cmp, a, b)
    if cmp == 2:
        return _ult(a, b)
    if cmp == 3:
        return not _ult(b, a)
    if cmp == 4:
        return _ult(b, a)
    return not _ult(a, b)


@njit(cache=True)
def _round_int(x, mode):
    if mode == 4 or mode == 0:      # rni (default to nearest even)
        r = math.floor(x + 0.5)
        if r - x == 0.5 and r % 2.0 != 0.0:
            r -= 1.0
        return r
    if mode == 5 or mode == 1:
        return math.trunc(x)
    if mode == 6 or mode == 2:
        return math.floor(x)
    return math.ceil(x)


@njit(cache=True)
def _cvt(dt, st, mode, sat, raw, fx):
    """Convert one value; returns (int bits, float value, result is float)."""
    dkind, skind = dt >> 4, st >> 4
    dbits = 8 << (dt & 15)
    if dkind == K_FLOAT:
        if skind == K_FLOAT:
            x = fx
            if mode >= 4:
                x = _round_int(x, mode)
        elif skind == K_SIGNED or (st & 15) < 3:
            x = np.float64(raw)
        else:
            x = np.float64(np.uint64(raw))
        if sat:
            x = 0.0 if math.isnan(x) else min(max(x, 0.0), 1.0)
        return 0, x, True
    if skind == K_FLOAT:
        if math.isnan(fx):
            return 0, 0.0, False
        x = _round_int(fx, mode)
        if dkind == K_SIGNED:
            lo, hi = -(2.0 ** (dbits - 1)), 2.0 ** (dbits - 1) - 1
            x = min(max(x, lo), hi)
            if dbits == 64 and x >= 9.2e18:
                return (1 << 63) - 1, 0.0, False
            return np.int64(x), 0.0, False
        x = min(max(x, 0.0), 2.0 ** dbits - 1)
        if x >= 9.2e18:
            return np.int64(np.uint64(x)), 0.0, False
        return np.int64(x), 0.0, False
    v = raw
    if sat:
        if dkind == K_SIGNED:
            lo, hi = -(1 << (dbits - 1)), (1 << (dbits - 1)) - 1
            if skind == K_SIGNED:
                v = min(max(v, lo), hi)
            elif _ult(hi, v):
                v = hi
        elif dbits < 64:
            if skind == K_SIGNED and v < 0:
                v = 0
            elif _ult((1 << dbits) - 1, v):
                v = (1 << dbits) - 1
    return v, 0.0, False


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
def _popcount(x):
    x = np.uint64(x)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


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
        return min(old, b) if signed else (old if _ult(old, b) else b)
    if op == 2:
        return max(old, b) if signed else (b if _ult(old, b) else old)
    if op == 3:   # inc: old >= b ? 0 : old + 1
        return 0 if not _ult(old, b) else old + 1
    if op == 4:   # dec
        return b if (old == 0 or _ult(b, old)) else old - 1
    if op == 5:
        return old & b
    if op == 6:
        return old | b
    if op == 7:
        return old ^ b
    if op == 8:
        return b
    return c if old == b else old   # cas


# Segments of the one memory image: [global heap | shared | local | param].
SEG_SHARED_OFF, SEG_SHARED_SIZE, SEG_LOCAL_OFF, SEG_LOCAL_BYTES, SEG_PARAM_OFF, SEG_PARAM_SIZE = range(6)


@njit(cache=True, nogil=True)
def run_blocks(code, r64, rf32, rf64, n_threads, grid_dims, b_first, b_last, special_base,
               mem8, mem16, mem32, mem64, seg, buf_lo, buf_hi, buf_writable, counters, err,
               budget, executed, trace_sel, trace_warps, trace_rec, trace_addr, trace_fill):
    """Run blocks [b_first, b_last) of the grid; counts go to counters[pc, C_*]."""
    n_warps = r64.shape[0]
    lane_pc = np.zeros((n_warps, 32), dtype=np.int64)
    run_mask = np.zeros(n_warps, dtype=np.int64)
    wait_mask = np.zeros(n_warps, dtype=np.int64)
    warp_pc = np.zeros(n_warps, dtype=np.int64)
    uniform = np.zeros(n_warps, dtype=np.bool_)
    addrs = np.zeros(32, dtype=np.int64)
    scratch = np.zeros(160, dtype=np.int64)
    bank_load = np.zeros(32, dtype=np.int64)
    tmp = np.zeros(32, dtype=np.int64)
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
                    executed = _run_warp(code, r64, rf32, rf64, w, b, lane_pc, run_mask, wait_mask,
                                         warp_pc, uniform, mem8, mem16, mem32, mem64, seg, buf_lo,
                                         buf_hi, buf_writable, counters, err, budget, executed,
                                         addrs, scratch, bank_load, tmp, trace_sel, trace_warps,
                                         trace_rec, trace_addr, trace_fill)
                    if err[0] != E_NONE:
                        return executed
            if not release_barrier(run_mask, wait_mask):
                break
            uniform[:] = False
    return executed


@njit(cache=True)
def _fail(err, code, pc, block, thread, address, extra):
    err[0], err[1], err[2], err[3], err[4], err[5] = code, pc, block, thread, address, extra


@njit(cache=True)
def _run_warp(code, r64, rf32, rf64, w, block, lane_pc, run_mask, wait_mask, warp_pc, uniform,
              mem8, mem16, mem32, mem64, seg, buf_lo, buf_hi, buf_writable, counters, err, budget,
              executed, addrs, scratch, bank_load, tmp, trace_sel, trace_warps, trace_rec,
              trace_addr, trace_fill):
    n_code = code.shape[0]
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
            _fail(err, E_BUDGET, pc, block, w * 32, 0, budget)
            return executed
        op = code[pc, F_OP]
        t = code[pc, F_TYPE]
        active = guarded(r64, w, code[pc, F_GUARD], code[pc, F_GNEG], mask)
        counters[pc, C_EXEC] += 1
        counters[pc, C_THREADS] += _popcount(active)
        branch_taken = 0     # lanes that go to F_TARGET
        leaving = 0          # lanes that exit or park at a barrier
        if op == O_LD or op == O_ST or op == O_ATOM or op == O_RED:
            if active != 0:
                _memory(code, pc, op, t, r64, rf32, rf64, w, block, active, mem8, mem16, mem32,
                        mem64, seg, buf_lo, buf_hi, buf_writable, counters, err, addrs, scratch,
                        bank_load)
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
            _warp_collective(code[pc], op, t, r64, w, active, mask, tmp)
        elif op == O_MEMBAR or op == O_FENCE or op == O_PREFETCH or op == O_NANOSLEEP or op == O_PRAGMA:
            pass
        elif op == O_UNSUPPORTED or op == O_TRAP:
            _fail(err, E_UNSUPPORTED if op == O_UNSUPPORTED else E_TRAP, pc, block, w * 32, 0, 0)
            return executed
        elif active != 0:
            if not _alu(code, pc, op, t, r64, rf32, rf64, w, active):
                _fail(err, E_TYPE, pc, block, w * 32, 0, t)
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


@njit(cache=True, inline="always")
def _memory(code, pc, op, t, r64, rf32, rf64, w, block, active, mem8, mem16, mem32, mem64, seg,
            buf_lo, buf_hi, buf_writable, counters, err, addrs, scratch, bank_load):
    """One warp-level ld/st/atom/red: addresses, checks, data movement, then counting."""
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
                    _fail(err, E_MIXED_SPACE, pc, block, w * 32 + lane, a, 0)
                    return
            addrs[lane] = a
            lo = min(lo, a)
            hi = max(hi, a)
            if a & align_mask:
                _fail(err, E_MISALIGNED, pc, block, w * 32 + lane, a, width)
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
                    r64[w, code[pc, F_D0 + k], lane] = _ext(v, t) if (t >> 4) != K_FLOAT else v
                elif is_atomic:
                    _atomic_lane(code, pc, op, t, r64, rf32, rf64, w, lane, mem8, mem16, mem32,
                                 mem64, at, esize)
                else:
                    _mem_write(mem8, mem16, mem32, mem64, at, esize, r64[w, code[pc, F_S0 + k], lane])
    # Counting.
    counters[pc, C_SPACE] = resolved
    counters[pc, C_REQUESTS] += 1
    lanes = _popcount(active)
    distinct = lanes
    if resolved == SP_GLOBAL:
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
                _fail(err, E_GLOBAL_OOB if resolved == SP_GLOBAL else E_CONST_OOB, pc, block,
                      w * 32 + lane, a, width)
                return
        else:
            limit = seg[SEG_SHARED_SIZE] if resolved == SP_SHARED else (
                seg[SEG_LOCAL_BYTES] if resolved == SP_LOCAL else seg[SEG_PARAM_SIZE])
            if a < 0 or a + width > limit:
                code = E_SHARED_OOB if resolved == SP_SHARED else (
                    E_LOCAL_OOB if resolved == SP_LOCAL else E_PARAM_OOB)
                _fail(err, code, pc, block, w * 32 + lane, a, width)
                return


@njit(cache=True)
def _atomic_lane(code, pc, op, t, r64, rf32, rf64, w, lane, mem8, mem16, mem32, mem64, at, esize):
    s0, s1, d0 = code[pc, F_S0], code[pc, F_S1], code[pc, F_D0]
    old = _ext(_mem_read(mem8, mem16, mem32, mem64, at, esize), t)
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
        cval = _ext(r64[w, s1, lane], t) if s1 >= 0 else 0
        new = _atomic_int(code[pc, F_CMP], t, old, _ext(r64[w, s0, lane], t), cval)
        _mem_write(mem8, mem16, mem32, mem64, at, esize, new)
    if op == O_ATOM and d0 >= 0:
        r64[w, d0, lane] = old


@njit(cache=True)
def _type_mask(t):
    """(mask, sign bit) that normalise an int64 to type t: ((x & mask) ^ sign) - sign."""
    sz = t & 15
    if t < 0 or sz >= 3:
        return np.int64(-1), np.int64(0)
    bits = 8 << sz
    sign = np.int64(1) << (bits - 1) if (t >> 4) == K_SIGNED else np.int64(0)
    return (np.int64(1) << bits) - 1, sign


@njit(cache=True)
def _alu(code, pc, op, t, r64, rf32, rf64, w, active):
    """Fast paths for the instructions that dominate real kernels; the rest lane by lane.

    Fast paths index the register file directly (array views cost reference counting) and
    compute every lane, storing only the active ones.
    """
    kind = t >> 4
    mod = code[pc, F_MOD]
    d0, s0, s1, s2 = code[pc, F_D0], code[pc, F_S0], code[pc, F_S1], code[pc, F_S2]
    if code[pc, F_SNEG] != 0 or mod & (M_SAT | M_HI):
        return _alu_general(code[pc], op, t, r64, rf32, rf64, w, active)
    if kind == K_FLOAT:
        if (t & 15) == 2 and (op == O_ADD or op == O_SUB or op == O_MUL or op == O_FMA or op == O_MAD):
            _f32_arith(op, rf32, w, d0, s0, s1, s2, active)
            return True
        return _alu_general(code[pc], op, t, r64, rf32, rf64, w, active)
    m, h = _type_mask(t)
    if op == O_MOV:
        for lane in range(32):
            if (active >> lane) & 1:
                r64[w, d0, lane] = r64[w, s0, lane] & m
        return True
    if kind != K_PRED and (op == O_ADD or op == O_SUB or op == O_AND or op == O_OR or op == O_XOR
                           or op == O_SHL or ((op == O_MUL or op == O_MAD) and not (mod & M_WIDE))):
        _int_fast2(op, t, r64, w, s0, s1, s2 if s2 >= 0 else s1, d0, active, m, h)
        return True
    if (op == O_MUL or op == O_MAD) and mod & M_WIDE:
        wide = (t & ~15) | ((t & 15) + 1)
        wm, wh = _type_mask(wide)
        for lane in range(32):
            v = (((r64[w, s0, lane] & m) ^ h) - h) * (((r64[w, s1, lane] & m) ^ h) - h)
            if op == O_MAD:
                v += r64[w, s2, lane]
            if (active >> lane) & 1:
                r64[w, d0, lane] = ((v & wm) ^ wh) - wh
        return True
    if op == O_SETP and kind != K_PRED and (mod >> 8) & 3 == 0 and code[pc, F_D1] < 0:
        _setp_fast(code[pc, F_CMP], t, r64, w, s0, s1, d0, active, m, h)
        return True
    if op == O_SELP:
        for lane in range(32):
            if (active >> lane) & 1:
                r64[w, d0, lane] = r64[w, s0, lane] if r64[w, s2, lane] != 0 else r64[w, s1, lane]
        return True
    st = code[pc, F_TYPE2]
    if op == O_CVT and (st >> 4) != K_FLOAT:
        sm, sh = _type_mask(st)
        for lane in range(32):
            if (active >> lane) & 1:
                v = ((r64[w, s0, lane] & sm) ^ sh) - sh
                r64[w, d0, lane] = ((v & m) ^ h) - h
        return True
    return _alu_general(code[pc], op, t, r64, rf32, rf64, w, active)


@njit(cache=True)
def _int_fast2(op, t, r, w, s0, s1, s2, d0, active, m, h):
    if op == O_ADD:
        for lane in range(32):
            v = r[w, s0, lane] + r[w, s1, lane]
            if (active >> lane) & 1:
                r[w, d0, lane] = ((v & m) ^ h) - h
    elif op == O_SUB:
        for lane in range(32):
            v = r[w, s0, lane] - r[w, s1, lane]
            if (active >> lane) & 1:
                r[w, d0, lane] = ((v & m) ^ h) - h
    elif op == O_MUL:
        for lane in range(32):
            v = r[w, s0, lane] * r[w, s1, lane]
            if (active >> lane) & 1:
                r[w, d0, lane] = ((v & m) ^ h) - h
    elif op == O_MAD:
        for lane in range(32):
            v = r[w, s0, lane] * r[w, s1, lane] + r[w, s2, lane]
            if (active >> lane) & 1:
                r[w, d0, lane] = ((v & m) ^ h) - h
    elif op == O_AND:
        for lane in range(32):
            v = r[w, s0, lane] & r[w, s1, lane]
            if (active >> lane) & 1:
                r[w, d0, lane] = ((v & m) ^ h) - h
    elif op == O_OR:
        for lane in range(32):
            v = r[w, s0, lane] | r[w, s1, lane]
            if (active >> lane) & 1:
                r[w, d0, lane] = ((v & m) ^ h) - h
    elif op == O_XOR:
        for lane in range(32):
            v = r[w, s0, lane] ^ r[w, s1, lane]
            if (active >> lane) & 1:
                r[w, d0, lane] = ((v & m) ^ h) - h
    else:
        bits = 8 << (t & 15)
        for lane in range(32):
            sh = r[w, s1, lane] & 0xFFFFFFFF
            v = r[w, s0, lane] << sh if sh < bits else 0
            if (active >> lane) & 1:
                r[w, d0, lane] = ((v & m) ^ h) - h


@njit(cache=True)
def _setp_fast(cmp, t, r64, w, s0, s1, d0, active, m, h):
    """Integer setp without a boolean combine. Normalised values of up to 32 bits compare
    correctly as int64 whatever their signedness; 64-bit unsigned ones are biased first."""
    if cmp >= 6:          # lo ls hi hs -> lt le gt ge, unsigned
        cmp -= 4
        unsigned = True
    else:
        unsigned = (t >> 4) != K_SIGNED
    bias = INT64_MIN if unsigned and (t & 15) >= 3 else np.int64(0)
    for lane in range(32):
        x = (((r64[w, s0, lane] & m) ^ h) - h) ^ bias
        y = (((r64[w, s1, lane] & m) ^ h) - h) ^ bias
        if cmp == 0:
            r = x == y
        elif cmp == 1:
            r = x != y
        elif cmp == 2:
            r = x < y
        elif cmp == 3:
            r = x <= y
        elif cmp == 4:
            r = x > y
        else:
            r = x >= y
        if (active >> lane) & 1:
            r64[w, d0, lane] = 1 if r else 0


@njit(cache=True)
def _f32_arith(op, rf32, w, d0, s0, s1, s2, active):
    for lane in range(32):
        x, y = rf32[w, s0, 2 * lane], rf32[w, s1, 2 * lane]
        if op == O_ADD:
            v = x + y
        elif op == O_SUB:
            v = x - y
        elif op == O_MUL:
            v = x * y
        else:
            v = np.float32(np.float64(x) * np.float64(y) + np.float64(rf32[w, s2, 2 * lane]))
        if (active >> lane) & 1:
            rf32[w, d0, 2 * lane] = v


@njit(cache=True)
def _alu_general(row, op, t, r64, rf32, rf64, w, active):
    """Per-lane arithmetic, logic, compare, convert and move instructions."""
    d0, s0, s1, s2 = row[F_D0], row[F_S0], row[F_S1], row[F_S2]
    kind = t >> 4
    mod = row[F_MOD]
    for lane in range(32):
        if not (active >> lane) & 1:
            continue
        if op == O_MOV or op == O_CVTA:
            v = r64[w, s0, lane]
            if op == O_CVTA:
                v = _cvta(row, v)
            r64[w, d0, lane] = v if (t & 15) >= 3 or t < 0 else _trunc(v, t)
        elif op == O_SETP or op == O_SET:
            st = t if op == O_SETP else row[F_TYPE2]
            a, b = _ext(r64[w, s0, lane], st), _ext(r64[w, s1, lane], st)
            fa, fb = 0.0, 0.0
            if (st >> 4) == K_FLOAT:
                fa, fb = _getf(r64, rf32, rf64, w, s0, lane, st), _getf(r64, rf32, rf64, w, s1, lane, st)
            r = _compare(row[F_CMP], st, a, b, fa, fb)
            boolop = (mod >> 8) & 3
            if boolop:
                p = r64[w, s2, lane] != 0
                if (row[F_SNEG] >> 2) & 1:
                    p = not p
                r = (r and p) if boolop == 1 else ((r or p) if boolop == 2 else (r != p))
            if op == O_SETP:
                r64[w, d0, lane] = 1 if r else 0
                if row[F_D1] >= 0:
                    r64[w, row[F_D1], lane] = 0 if r else 1
            elif (t >> 4) == K_FLOAT:
                _putf(r64, rf32, rf64, w, d0, lane, t, 1.0 if r else 0.0)
            else:
                r64[w, d0, lane] = _trunc(-1 if r else 0, t)
        elif op == O_SELP:
            p = r64[w, s2, lane] != 0
            if (row[F_SNEG] >> 2) & 1:
                p = not p
            r64[w, d0, lane] = r64[w, s0 if p else s1, lane]
        elif op == O_SLCT:
            c = _ext(r64[w, s2, lane], row[F_TYPE2]) if row[F_TYPE2] >= 0 else r64[w, s2, lane]
            if row[F_TYPE2] >= 0 and (row[F_TYPE2] >> 4) == K_FLOAT:
                ok = _getf(r64, rf32, rf64, w, s2, lane, row[F_TYPE2]) >= 0.0
            else:
                ok = c >= 0
            r64[w, d0, lane] = r64[w, s0 if ok else s1, lane]
        elif op == O_CVT:
            st = row[F_TYPE2]
            raw = _ext(r64[w, s0, lane], st)
            fx = _getf(r64, rf32, rf64, w, s0, lane, st) if (st >> 4) == K_FLOAT else 0.0
            if (st >> 4) == K_FLOAT and (st & 15) < 2 or (t >> 4) == K_FLOAT and (t & 15) < 2:
                return False  # half precision is not modelled
            iv, fv, isf = _cvt(t, st, row[F_CMP], (mod & M_SAT) != 0, raw, fx)
            if isf:
                _putf(r64, rf32, rf64, w, d0, lane, t, fv)
            else:
                r64[w, d0, lane] = _ext(_trunc(iv, t), t)
        elif op == O_PACK:
            part = row[F_TYPE2]
            pbits = 8 << (part & 15)
            v = 0
            for k in range(row[F_VEC]):
                v |= _trunc(r64[w, row[F_S0 + k], lane], part) << (pbits * k)
            r64[w, d0, lane] = v
        elif op == O_UNPACK:
            n = row[F_VEC]
            pbits = (8 << (t & 15)) // n
            v = r64[w, s0, lane]
            for k in range(n):
                dk = row[F_D0 + k]
                if dk >= 0:
                    piece = (v >> (pbits * k)) & ((1 << pbits) - 1) if pbits < 64 else v
                    r64[w, dk, lane] = piece
        elif kind == K_FLOAT:
            if (t & 15) < 2:
                return False
            if op == O_TESTP:
                x = _getf(r64, rf32, rf64, w, s0, lane, t)
                m = row[F_CMP]
                if m == 0:
                    r = not (math.isinf(x) or math.isnan(x))
                elif m == 1:
                    r = math.isinf(x)
                elif m == 2:
                    r = not math.isnan(x)
                elif m == 3:
                    r = math.isnan(x)
                else:
                    tiny = 1.1754943508222875e-38 if (t & 15) == 2 else 2.2250738585072014e-308
                    normal = abs(x) >= tiny and not (math.isinf(x) or math.isnan(x))
                    r = normal if m == 4 else (x != 0.0 and abs(x) < tiny)
                r64[w, d0, lane] = 1 if r else 0
                continue
            a = _getf(r64, rf32, rf64, w, s0, lane, t)
            b = _getf(r64, rf32, rf64, w, s1, lane, t) if s1 >= 0 else 0.0
            c = _getf(r64, rf32, rf64, w, s2, lane, t) if s2 >= 0 else 0.0
            x = _float_op(op, a, b, c, (t & 15) == 2)
            if mod & M_SAT:
                x = 0.0 if math.isnan(x) else min(max(x, 0.0), 1.0)
            _putf(r64, rf32, rf64, w, d0, lane, t, x)
        elif kind == K_PRED:
            a = r64[w, s0, lane] != 0
            if row[F_SNEG] & 1:
                a = not a
            b = False
            if s1 >= 0:
                b = r64[w, s1, lane] != 0
                if (row[F_SNEG] >> 1) & 1:
                    b = not b
            if op == O_AND:
                r = a and b
            elif op == O_OR:
                r = a or b
            elif op == O_XOR:
                r = a != b
            elif op == O_NOT:
                r = not a
            else:
                r = a
            r64[w, d0, lane] = 1 if r else 0
        else:
            if not _int_lane(row, op, t, mod, r64, w, lane, d0, s0, s1, s2):
                return False
    return True


@njit(cache=True)
def _int_lane(row, op, t, mod, r64, w, lane, d0, s0, s1, s2):
    a = _ext(r64[w, s0, lane], t)
    if op == O_NOT:
        r64[w, d0, lane] = _trunc(~a, t)
        return True
    if op == O_CNOT:
        r64[w, d0, lane] = 1 if a == 0 else 0
        return True
    if op == O_NEG:
        r64[w, d0, lane] = _ext(_trunc(-a, t), t)
        return True
    if op == O_ABS:
        r64[w, d0, lane] = _ext(_trunc(abs(a), t), t)
        return True
    if op == O_POPC:
        r64[w, d0, lane] = _popcount(_trunc(a, t) if (t & 15) < 3 else a)
        return True
    if op == O_CLZ:
        bits = 8 << (t & 15)
        v = np.uint64(_trunc(a, t)) if bits < 64 else np.uint64(a)
        n = 0
        for k in range(bits - 1, -1, -1):
            if (v >> np.uint64(k)) & np.uint64(1):
                break
            n += 1
        r64[w, d0, lane] = n
        return True
    if op == O_BREV:
        bits = 8 << (t & 15)
        v = _trunc(a, t) if bits < 64 else a
        r = 0
        for k in range(bits):
            if (v >> k) & 1:
                r |= 1 << (bits - 1 - k)
        r64[w, d0, lane] = r
        return True
    b = _ext(r64[w, s1, lane], t) if s1 >= 0 else 0
    if op == O_SHL or op == O_SHR:
        b = r64[w, s1, lane] & 0xFFFFFFFF
    if op == O_BFE:
        bits = 8 << (t & 15)
        pos = r64[w, s1, lane] & 0xFF
        ln = r64[w, s2, lane] & 0xFF
        src = _trunc(a, t) if bits < 64 else a
        if ln == 0:
            r = 0
        else:
            r = (src >> pos) & ((1 << ln) - 1) if pos < bits else 0
            if (t >> 4) == K_SIGNED:
                sign_pos = min(pos + ln - 1, bits - 1)
                if (src >> sign_pos) & 1:
                    r |= ~((1 << ln) - 1)
        r64[w, d0, lane] = _trunc(r, t) if bits < 64 else r
        return True
    if op == O_BFI:
        bits = 8 << (t & 15)
        pos = r64[w, s2, lane] & 0xFF
        ln = r64[w, row[F_S3], lane] & 0xFF
        fld = ((1 << ln) - 1) << pos if pos < bits else 0
        r = (b & ~fld) | ((a << pos) & fld)
        r64[w, d0, lane] = _trunc(r, t)
        return True
    if op == O_PRMT:
        c = r64[w, s2, lane] & 0xFFFF
        pool = (_trunc(a, t) & 0xFFFFFFFF) | ((_trunc(b, t) & 0xFFFFFFFF) << 32)
        r = 0
        for k in range(4):
            sel = (c >> (4 * k)) & 0xF
            byte = (pool >> (8 * (sel & 7))) & 0xFF
            if sel & 8:
                byte = 0xFF if byte & 0x80 else 0
            r |= byte << (8 * k)
        r64[w, d0, lane] = r
        return True
    c = 0
    if s2 >= 0:
        ct = t
        if mod & M_WIDE:
            ct = (t & ~15) | ((t & 15) + 1)
        c = _ext(r64[w, s2, lane], ct)
    if mod & M_WIDE:
        wide = (t & ~15) | ((t & 15) + 1)
        r = a * b + (c if op == O_MAD else 0)
        r64[w, d0, lane] = _ext(_trunc(r, wide), wide)
        return True
    r = _int_binary(op, mod, t, a, b, c)
    r64[w, d0, lane] = _ext(_trunc(r, t), t)
    return True


@njit(cache=True)
def _cvta(row, v):
    space = row[F_SPACE]
    to_space = (row[F_MOD] & M_TO) != 0
    if space == SP_SHARED:
        return v - SHARED_WINDOW if to_space else v + SHARED_WINDOW
    if space == SP_LOCAL:
        return v - LOCAL_WINDOW if to_space else v + LOCAL_WINDOW
    return v  # global and const: generic addresses are the addresses themselves


@njit(cache=True)
def _warp_collective(row, op, t, r64, w, active, mask, tmp):
    d0 = row[F_D0]
    if op == O_ACTIVEMASK:
        for lane in range(32):
            if (active >> lane) & 1:
                r64[w, d0, lane] = mask & 0xFFFFFFFF
        return
    s0, s1, s2 = row[F_S0], row[F_S1], row[F_S2]
    if op == O_VOTE:
        ballot = 0
        for lane in range(32):
            if (active >> lane) & 1:
                p = r64[w, s0, lane] != 0
                if row[F_SNEG] & 1:
                    p = not p
                if p:
                    ballot |= 1 << lane
        mode = row[F_CMP]
        for lane in range(32):
            if (active >> lane) & 1:
                if mode == 3:
                    r64[w, d0, lane] = ballot & 0xFFFFFFFF
                elif mode == 0:
                    r64[w, d0, lane] = 1 if ballot == active else 0
                elif mode == 1:
                    r64[w, d0, lane] = 1 if ballot != 0 else 0
                else:
                    r64[w, d0, lane] = 1 if (ballot == 0 or ballot == active) else 0
        return
    # shfl.sync: read every source first, then write.
    for lane in range(32):
        tmp[lane] = r64[w, s0, lane]
    mode = row[F_CMP]
    d1 = row[F_D1]
    for lane in range(32):
        if not (active >> lane) & 1:
            continue
        bval = r64[w, s1, lane] & 0x1F
        cval = r64[w, s2, lane]
        seg_mask = (cval >> 8) & 0x1F
        clamp = cval & 0x1F
        min_lane = lane & seg_mask
        max_lane = min_lane | (clamp & ~seg_mask)
        if mode == 0:
            j = lane - bval
            ok = j >= max_lane
        elif mode == 1:
            j = lane + bval
            ok = j <= max_lane
        elif mode == 2:
            j = lane ^ bval
            ok = j <= max_lane
        else:
            j = min_lane | (bval & ~seg_mask)
            ok = j <= max_lane
        if not ok or j < 0 or j > 31:
            j = lane
        r64[w, d0, lane] = tmp[j]
        if d1 >= 0:
            r64[w, d1, lane] = 1 if ok else 0
