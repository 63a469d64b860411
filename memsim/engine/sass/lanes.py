"""A warp's operands as lane vectors: what every opcode family's semantics reads and writes.

An instruction's sources are fetched once per warp step into 32-lane vectors (an immediate is
broadcast, a register's lanes copied, the -, ~ and |x| marks applied once), the family computes
all 32 lanes, and `write` stores the active lanes. Computing idle lanes costs less than testing
each lane's bit in every operation, and pure arithmetic on stale register values is harmless.
Registers hold 32-bit patterns in int64; predicates hold 0 or 1.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..simt import compare_ordered

from .rows import F_OPS, F_WIDE_OPS, K_IMM, K_NONE, K_REG, M_FABS, M_FNEG, M_NEG, M_NOT, RZ, SINK, URZ

M32 = 0xFFFFFFFF
ALL = (1 << 32) - 1


@njit(cache=True, _nrt=False)
def popcount(x):
    """Set bits of a 32-bit lane mask (SWAR: no loop over the lanes)."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@njit(cache=True, _nrt=False)
def has(code, pc, k):
    return code[pc, F_OPS + 3 * k] != K_NONE


@njit(cache=True, _nrt=False)
def dst(code, pc, k):
    return code[pc, F_OPS + 3 * k + 1]


@njit(cache=True, _nrt=False)
def is_reg(code, pc, k):
    return code[pc, F_OPS + 3 * k] == K_REG


@njit(cache=True, _nrt=False)
def imm(code, pc, k):
    return code[pc, F_OPS + 3 * k + 1]


@njit(cache=True, _nrt=False)
def src_u32(code, pc, k, regs, w, out, i):
    """Operand k's 32-bit pattern in every lane, with its - and ~ marks applied (one pass)."""
    base = F_OPS + 3 * k
    kind, mod = code[pc, base], code[pc, base + 2]
    flip = M32 if mod & M_NOT else 0
    negate = (mod & M_NEG) != 0
    if kind == K_REG:
        s = code[pc, base + 1]
        if flip == 0 and not negate:
            for lane in range(32):
                out[i, lane] = regs[w, s, lane] & M32
        else:
            for lane in range(32):
                v = regs[w, s, lane] ^ flip
                out[i, lane] = (-v if negate else v) & M32
    else:
        v = (code[pc, base + 1] if kind == K_IMM else 0) ^ flip
        v = (-v if negate else v) & M32
        for lane in range(32):
            out[i, lane] = v


@njit(cache=True, _nrt=False)
def src_pred(code, pc, k, regs, w, out, i):
    """Predicate operand k (absent: false) in every lane, with its ! applied."""
    base = F_OPS + 3 * k
    kind = code[pc, base]
    flip = 1 if code[pc, base + 2] & M_NOT else 0
    if kind == K_REG:
        s = code[pc, base + 1]
        for lane in range(32):
            out[i, lane] = (1 if regs[w, s, lane] != 0 else 0) ^ flip
    elif kind == K_IMM:
        for lane in range(32):
            out[i, lane] = (1 if code[pc, base + 1] != 0 else 0) ^ flip
    else:
        for lane in range(32):
            out[i, lane] = 0


@njit(cache=True, _nrt=False)
def src_u64(code, pc, k, regs, w, out, i):
    """Operand k as a 64-bit pattern: a register pair (low word first), or a wide immediate."""
    base = F_OPS + 3 * k
    kind = code[pc, base]
    if kind == K_REG:
        s = code[pc, base + 1]
        if s == RZ or s == URZ:
            for lane in range(32):
                out[i, lane] = 0
        else:
            for lane in range(32):
                out[i, lane] = (regs[w, s, lane] & M32) | ((regs[w, s + 1, lane] & M32) << 32)
    elif kind == K_IMM:
        v = code[pc, base + 1]
        if not (code[pc, F_WIDE_OPS] >> k) & 1:
            v = (v & M32) << 32     # a 32-bit immediate of a double operation is its high word
        for lane in range(32):
            out[i, lane] = v
    else:
        for lane in range(32):
            out[i, lane] = 0


@njit(cache=True, _nrt=False)
def src_f32(code, pc, k, regs, w, bits, i, ftz):
    """Operand k's float32 pattern in bits (uint32[32], read as float32 through a view), with
    flush-to-zero of denormal inputs, |x| and -x applied. One pass, no branch per lane: a third
    of a tiled matmul's FFMA time was these passes."""
    base = F_OPS + 3 * k
    kind, mod = code[pc, base], code[pc, base + 2]
    keep = 0x7FFFFFFF if mod & M_FABS else M32
    flip = 0x80000000 if mod & M_FNEG else 0
    if kind == K_REG:
        s = code[pc, base + 1]
        for lane in range(32):
            b = regs[w, s, lane] & M32
            if ftz and b & 0x7F800000 == 0:
                b &= 0x80000000
            bits[i, lane] = (b & keep) ^ flip
    else:
        b = code[pc, base + 1] & M32 if kind == K_IMM else 0
        if ftz and b & 0x7F800000 == 0:
            b &= 0x80000000
        b = (b & keep) ^ flip
        for lane in range(32):
            bits[i, lane] = b


@njit(cache=True, _nrt=False)
def src_f64(code, pc, k, regs, w, bits, i):
    """Operand k's float64 pattern in bits (uint64[32], read through a float64 view)."""
    base = F_OPS + 3 * k
    mod = code[pc, base + 2]
    src_u64(code, pc, k, regs, w, bits.view(np.int64), i)
    if mod & M_FABS:
        for lane in range(32):
            bits[i, lane] &= np.uint64(0x7FFFFFFFFFFFFFFF)
    if mod & M_FNEG:
        for lane in range(32):
            bits[i, lane] ^= np.uint64(0x8000000000000000)


@njit(cache=True, _nrt=False)
def write(regs, w, d, active, values, i):
    """values[i, lane] & 0xFFFFFFFF to register slot d of the active lanes."""
    if d == SINK:
        return
    if active == ALL:
        for lane in range(32):
            regs[w, d, lane] = values[i, lane] & M32
    else:
        for lane in range(32):
            if (active >> lane) & 1:
                regs[w, d, lane] = values[i, lane] & M32


@njit(cache=True, _nrt=False)
def write64(regs, w, d, active, values, i):
    """A 64-bit pattern per lane to the register pair d, d+1."""
    if d == SINK:
        return
    for lane in range(32):
        if (active >> lane) & 1:
            v = values[i, lane]
            regs[w, d, lane] = v & M32
            regs[w, d + 1, lane] = (v >> 32) & M32


@njit(cache=True, _nrt=False)
def write_f32(regs, w, d, active, bits, i, ftz):
    """float32 results (their bits) to slot d, denormal results flushed where ftz."""
    if d == SINK:
        return
    for lane in range(32):
        if (active >> lane) & 1:
            b = np.int64(bits[i, lane])
            if ftz and b & 0x7F800000 == 0:
                b &= 0x80000000
            regs[w, d, lane] = b


@njit(cache=True, _nrt=False)
def write_pred(regs, w, d, active, values, i):
    if d == SINK:
        return
    for lane in range(32):
        if (active >> lane) & 1:
            regs[w, d, lane] = 1 if values[i, lane] else 0


@njit(cache=True, _nrt=False)
def signed(v):
    return v - (1 << 32) if v & 0x80000000 else v


@njit(cache=True, _nrt=False)
def compare_float(cmp, x, y):
    """x <cmp> y for FSETP/DSETP/HSETP2's comparisons (memsim.engine.sass.rows.CMP), NaN-aware."""
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
