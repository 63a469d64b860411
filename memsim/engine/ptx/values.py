"""The PTX engine's values, lane by lane: extension and truncation to a type, float views of
the int64 register file, integer and float arithmetic, comparisons, conversions (Numba).

Registers are int64 bit patterns; a type code (memsim.engine.ptx.program.type_code) holds the
size in its low 4 bits and the kind (bits, signed, float, predicate) above.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..simt import compare_ordered
from .opcodes import OP
from .program import M_HI, M_SAT


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
INT64_MAX = (1 << 63) - 1


@njit(cache=True)
def ext(v, t):
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
def trunc(v, t):
    sz = t & 15
    if sz >= 3:
        return v
    return v & ((1 << (8 << sz)) - 1)


@njit(cache=True)
def getf(r64, rf32, rf64, w, s, lane, t):
    if (t & 15) == 3:
        return rf64[w, s, lane]
    return np.float64(rf32[w, s, 2 * lane])


@njit(cache=True)
def putf(r64, rf32, rf64, w, s, lane, t, x):
    if (t & 15) == 3:
        rf64[w, s, lane] = x
    else:
        r64[w, s, lane] = 0
        rf32[w, s, 2 * lane] = np.float32(x)


@njit(cache=True)
def ult(a, b):
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
def int_binary(op, mod, t, a, b, c):
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
        return a if ult(a, b) else b
    if op == O_MAX:
        if signed:
            return max(a, b)
        return b if ult(a, b) else a
    if op == O_AND:
        return a & b
    if op == O_OR:
        return a | b
    if op == O_XOR:
        return a ^ b
    if op == O_SHL:
        if ult(b, bits):
            return a << b
        return 0
    if op == O_SHR:
        if signed:
            return a >> min(b if b >= 0 else 63, 63)
        if not ult(b, bits):
            return 0
        ua = np.uint64(a) & (np.uint64(MASK64) >> np.uint64(64 - bits))
        return np.int64(ua >> np.uint64(b))
    if op == O_SAD:
        d = a - b if (a >= b if signed else not ult(a, b)) else b - a
        return d + c
    return 0


@njit(cache=True)
def float_op(op, a, b, c, is32):
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
def compare(cmp, t, a, b, fa, fb):
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
        return ult(a, b)
    if cmp == 3:
        return not ult(b, a)
    if cmp == 4:
        return ult(b, a)
    return not ult(a, b)


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
def cvt(dt, st, mode, sat, raw, fx):
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
            elif ult(hi, v):
                v = hi
        elif dbits < 64:
            if skind == K_SIGNED and v < 0:
                v = 0
            elif ult((1 << dbits) - 1, v):
                v = (1 << dbits) - 1
    return v, 0.0, False


@njit(cache=True)
def popcount(x):
    x = np.uint64(x)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def type_mask(t):
    """(mask, sign bit) that normalise an int64 to type t: ((x & mask) ^ sign) - sign."""
    sz = t & 15
    if t < 0 or sz >= 3:
        return np.int64(-1), np.int64(0)
    bits = 8 << sz
    sign = np.int64(1) << (bits - 1) if (t >> 4) == K_SIGNED else np.int64(0)
    return (np.int64(1) << bits) - 1, sign
