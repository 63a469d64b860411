"""Floating-point opcodes (float32, float64, conversions, MUFU): lowering and semantics.

Values are exact IEEE results at the instruction's precision where the hardware's are
(FADD/FMUL/FFMA, the double operations, conversions); MUFU's approximations are taken as the
exact function rounded to float32, which can differ from the GPU in the last bit. Counters
never depend on that unless a kernel turns such a value into an address.
"""
from __future__ import annotations

import dataclasses
import math
import struct

import numpy as np
from numba import njit

from .family import declare
from .lanes import M32, compare_float, dst, src_f32, src_f64, src_pred, src_u32, src_u64, write, write64, write_f32, write_pred
from .ops_half import decode16, encode16, rounding_mode
from .ops_int import combine
from .ops_int_lowering import compare_mods
from .rows import (ROUNDING, F_CMP, F_FLAGS, F_OP, F_SUB, F_TYPE, FL_FTZ, FL_RM, FL_RP, FL_RZ_ROUND,
                   FL_SAT, T_BF16, T_F16, T_F32, T_F64, T_S32, T_S64, T_U32, T_U64, TYPES, place, set_flags,
                   unsupported)

OPS = declare("float", ("FADD", "FMUL", "FFMA", "FMNMX", "FSEL", "FSETP", "FSET", "FCHK", "MUFU",
                        "FRND", "I2F", "F2I", "F2F", "DADD", "DMUL", "DFMA", "DSETP", "DMNMX",
                        "FSWZADD"))
(O_FADD, O_FMUL, O_FFMA, O_FMNMX, O_FSEL, O_FSETP, O_FSET, O_FCHK, O_MUFU, O_FRND, O_I2F, O_F2I,
 O_F2F, O_DADD, O_DMUL, O_DFMA, O_DSETP, O_DMNMX, O_FSWZADD) = OPS.values()

MUFU_FUNCTIONS = ("RCP", "RSQ", "SQRT", "EX2", "LG2", "SIN", "COS", "TANH", "RCP64H", "RSQ64H")
INT_TYPES = ("U32", "S32", "U64", "S64", "U16", "S16", "U8", "S8")
FLOAT_TYPES = ("F64", "F32", "F16", "BF16")


# ---- lowering -------------------------------------------------------------------------------

# The modifiers each arithmetic opcode's semantics read: any other one (FMNMX.NAN, DADD.RZ ...)
# would be computed as if absent, a wrong value nothing flags, so it stops the lowering instead.
_ROUNDED = {"RN", "RM", "RP", "RZ"}
_F32_MODS = {"FTZ", "SAT", *_ROUNDED}
ARITH_MODIFIERS = {O_FADD: _F32_MODS, O_FMUL: _F32_MODS, O_FFMA: _F32_MODS, O_FMNMX: {"FTZ"},
                   O_FSEL: set(), O_DADD: _ROUNDED, O_DMUL: _ROUNDED, O_DFMA: _ROUNDED, O_DMNMX: set()}


def _arith(op, wide=False, dsts=1, extra=frozenset()):
    def handler(ins, mods, ops, row):
        unread = set(mods) - ARITH_MODIFIERS[op] - extra
        if unread:
            raise unsupported(ins, f"modifier {'.'.join(sorted(unread))}")
        row[F_OP] = op
        set_flags(row, mods, ROUNDING)
        n = len(ops)
        place(row, ops, list(range(n)), floating=True, dsts=dsts,
              wide=tuple(range(n)) if wide else ())
    return handler


def _setp(op, wide=False):
    def handler(ins, mods, ops, row):
        row[F_OP] = op
        compare_mods(ins, mods, row)
        set_flags(row, mods, ROUNDING)
        place(row, ops, list(range(len(ops))), floating=True, dsts=2,
              wide=(2, 3) if wide else ())
    return handler


def _fset(ins, mods, ops, row):
    row[F_OP] = O_FSET
    compare_mods(ins, mods, row)
    set_flags(row, mods, ROUNDING)
    row[F_SUB] = 1 if "BF" in mods else 0
    place(row, ops, [0, None, 1, 2, 3], floating=True)


def _mufu(ins, mods, ops, row):
    fn = [m for m in mods if m in MUFU_FUNCTIONS]
    if not fn:
        raise unsupported(ins)
    row[F_OP] = O_MUFU
    row[F_SUB] = MUFU_FUNCTIONS.index(fn[0])
    if fn[0] in ("RCP64H", "RSQ64H") and ops[1].kind == "fimm":
        # `MUFU.RCP64H R5, 180`: the immediate is a double's high word, printed as the double
        high = struct.unpack("<Q", struct.pack("<d", ops[1].fvalue))[0] >> 32
        ops = [ops[0], dataclasses.replace(ops[1], kind="imm", value=high)]
    place(row, ops, [0, 1], floating=True)


def _types(mods, default_int: str, default_float: str) -> tuple[int, int]:
    ints = [m for m in mods if m in INT_TYPES]
    floats = [m for m in mods if m in FLOAT_TYPES]
    return TYPES[ints[0] if ints else default_int], TYPES[floats[0] if floats else default_float]


def _convert(op):
    """I2F.<float>.<int>, F2I.<int>.<float>, F2F.<to>.<from>: F_TYPE the destination type,
    F_SUB the source type."""
    def handler(ins, mods, ops, row):
        row[F_OP] = op
        set_flags(row, mods, ROUNDING)
        int_type, float_type = _types(mods, "S32", "F32")
        if op == O_I2F:
            row[F_TYPE], row[F_SUB] = float_type, int_type
        elif op == O_F2I:
            row[F_TYPE], row[F_SUB] = int_type, float_type
        else:
            floats = [m for m in ins.mods if m in FLOAT_TYPES]   # in listing order: to, from
            if len(floats) != 2:
                raise unsupported(ins, "F2F needs two types")
            row[F_TYPE], row[F_SUB] = TYPES[floats[0]], TYPES[floats[1]]
        place(row, ops, [0, 1], floating=True)
    return handler


def _frnd(ins, mods, ops, row):
    row[F_OP] = O_FRND
    set_flags(row, mods, ROUNDING)
    row[F_TYPE] = T_F64 if "F64" in mods else T_F32
    place(row, ops, [0, 1], floating=True, wide=(1,) if "F64" in mods else ())


def _fchk(ins, mods, ops, row):
    row[F_OP] = O_FCHK
    place(row, ops, [0, 1, 2], floating=True)


# FMUL.D2 / .M4 ...: the product scaled by a power of two before its one rounding (ptxas folds
# `x * y / 2` into FMUL.D2); F_SUB holds the exponent.
FMUL_SCALES = {"D2": -1, "D4": -2, "D8": -3, "M2": 1, "M4": 2, "M8": 3}


_FMUL_ARITH = _arith(O_FMUL, extra=frozenset(FMUL_SCALES))


def _fmul(ins, mods, ops, row):
    _FMUL_ARITH(ins, mods, ops, row)
    scales = [FMUL_SCALES[m] for m in mods if m in FMUL_SCALES]
    row[F_SUB] = scales[0] if scales else 0


LOWER = {
    "FADD": _arith(O_FADD), "FMUL": _fmul, "FFMA": _arith(O_FFMA),
    "FMNMX": _arith(O_FMNMX), "FSEL": _arith(O_FSEL), "FSETP": _setp(O_FSETP), "FSET": _fset,
    "FCHK": _fchk, "MUFU": _mufu, "FRND": _frnd, "I2F": _convert(O_I2F), "I2FP": _convert(O_I2F),
    "F2I": _convert(O_F2I), "F2IP": _convert(O_F2I), "F2F": _convert(O_F2F),
    "DADD": _arith(O_DADD, wide=True), "DMUL": _arith(O_DMUL, wide=True),
    "DFMA": _arith(O_DFMA, wide=True), "DSETP": _setp(O_DSETP, wide=True),
    "DMNMX": _arith(O_DMNMX, wide=True),
}


# ---- semantics ------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def _round_f64(x, flags):
    if flags & FL_RM:
        return math.floor(x)
    if flags & FL_RP:
        return math.ceil(x)
    if flags & FL_RZ_ROUND:
        return float(math.trunc(x))
    down = np.floor(x)   # round half to even (x - floor(x) is exact in float64)
    rest = x - down
    up = rest > 0.5 or (rest == 0.5 and down % 2.0 != 0.0)
    return math.copysign(down + 1.0 if up else down, x)   # -0.4 rounds to -0.0


@njit(cache=True, _nrt=False)
def _to_f32(x, flags):
    """float64 -> float32 with the instruction's rounding mode."""
    f = np.float32(x)
    if flags & (FL_RM | FL_RP | FL_RZ_ROUND) and np.float64(f) != x and not math.isnan(x):
        up = np.float64(f) < x
        if flags & FL_RP and not up:
            pass
        elif flags & FL_RP:
            f = np.nextafter(f, np.float32(np.inf))
        elif flags & FL_RM and up:
            pass
        elif flags & FL_RM:
            f = np.nextafter(f, np.float32(-np.inf))
        elif flags & FL_RZ_ROUND and abs(np.float64(f)) > abs(x):
            f = np.nextafter(f, np.float32(0.0))
    return f


@njit(cache=True, _nrt=False)
def _to_int(x, int_type, flags):
    if math.isnan(x):
        return 0
    t = _round_f64(x, flags)
    if int_type == T_U32:
        return np.int64(min(max(t, 0.0), 4294967295.0))
    if int_type == T_S32:
        return np.int64(min(max(t, -2147483648.0), 2147483647.0)) & M32
    if int_type == 8 or int_type == 10:   # U16, U8
        return np.int64(min(max(t, 0.0), 65535.0 if int_type == 8 else 255.0))
    if int_type == 9 or int_type == 11:   # S16, S8
        top = 32767.0 if int_type == 9 else 127.0
        return np.int64(min(max(t, -top - 1.0), top)) & M32
    if int_type == T_U64:
        if t >= 18446744073709551615.0:
            return np.int64(-1)
        return np.int64(np.uint64(max(t, 0.0)))
    return np.int64(min(max(t, -9223372036854775808.0), 9223372036854775807.0))


@njit(cache=True, _nrt=False)
def _mufu(fn, x):
    if fn == 0:
        return math.copysign(math.inf, x) if x == 0.0 else 1.0 / x
    if fn == 1:
        return math.copysign(math.inf, x) if x == 0.0 else (math.nan if x < 0 else 1.0 / math.sqrt(x))
    if fn == 2:
        return math.nan if x < 0 else math.sqrt(x)
    if fn == 3:
        return 2.0 ** x if x < 1024 else math.inf
    if fn == 4:
        return -math.inf if x == 0.0 else (math.nan if x < 0 else math.log2(x))
    if fn == 5:
        return math.sin(x)
    if fn == 6:
        return math.cos(x)
    return math.tanh(x)


@njit(cache=True, _nrt=False)
def execute(code, pc, op, regs, w, active, vec, f32_bits, f32v, f64_bits, f64v):
    flags = code[pc, F_FLAGS]
    ftz = (flags & FL_FTZ) != 0
    d0 = dst(code, pc, 0)
    if op <= O_FSEL:
        src_f32(code, pc, 1, regs, w, f32_bits, 0, ftz)
        src_f32(code, pc, 2, regs, w, f32_bits, 1, ftz)
        # Computed in float64 (exact for FMUL, and for FADD unless the exponents differ by more
        # than 29), then rounded once to float32 in the instruction's mode (FADD.RZ, FMUL.RP ...).
        if op == O_FADD:
            for lane in range(32):
                f32v[3, lane] = _to_f32(np.float64(f32v[0, lane]) + np.float64(f32v[1, lane]), flags)
        elif op == O_FMUL:
            scale = 2.0 ** code[pc, F_SUB]
            for lane in range(32):
                f32v[3, lane] = _to_f32(np.float64(f32v[0, lane]) * np.float64(f32v[1, lane]) * scale, flags)
        elif op == O_FFMA:
            src_f32(code, pc, 3, regs, w, f32_bits, 2, ftz)
            for lane in range(32):
                f32v[3, lane] = _to_f32(np.float64(f32v[0, lane]) * np.float64(f32v[1, lane])
                                        + np.float64(f32v[2, lane]), flags)
        elif op == O_FMNMX:
            src_pred(code, pc, 3, regs, w, vec, 0)
            for lane in range(32):
                a, b = f32v[0, lane], f32v[1, lane]
                if math.isnan(a):
                    f32v[3, lane] = b
                elif math.isnan(b):
                    f32v[3, lane] = a
                else:
                    f32v[3, lane] = min(a, b) if vec[0, lane] else max(a, b)
        else:   # FSEL
            src_pred(code, pc, 3, regs, w, vec, 0)
            for lane in range(32):
                f32v[3, lane] = f32v[0, lane] if vec[0, lane] else f32v[1, lane]
        if flags & FL_SAT:
            for lane in range(32):
                f32v[3, lane] = min(max(f32v[3, lane], np.float32(0.0)), np.float32(1.0))
        write_f32(regs, w, d0, active, f32_bits, 3, ftz)
    elif op == O_FSETP or op == O_DSETP or op == O_FSET:
        _setp_lanes(code, pc, op, regs, w, active, vec, f32_bits, f32v, f64_bits, f64v, ftz)
    elif op == O_FCHK:
        _fchk_lanes(code, pc, regs, w, active, vec, f32_bits, f32v)
    elif op == O_MUFU:
        fn = code[pc, F_SUB]
        if fn >= 8:   # RCP64H / RSQ64H: the high word of a double's approximation
            src_u32(code, pc, 1, regs, w, vec, 0)
            for lane in range(32):
                bits = np.uint64(vec[0, lane]) << np.uint64(32)
                f64_bits[0, lane] = bits
            for lane in range(32):
                v = _mufu(0 if fn == 8 else 1, f64v[0, lane])
                f64v[1, lane] = v
                vec[0, lane] = np.int64(f64_bits[1, lane] >> np.uint64(32))
            write(regs, w, d0, active, vec, 0)
            return
        src_f32(code, pc, 1, regs, w, f32_bits, 0, True)
        for lane in range(32):
            f32v[3, lane] = np.float32(_mufu(fn, np.float64(f32v[0, lane])))
        write_f32(regs, w, d0, active, f32_bits, 3, True)
    elif op == O_I2F or op == O_F2I or op == O_F2F or op == O_FRND:
        _convert_lanes(code, pc, op, regs, w, active, vec, f32_bits, f32v, f64_bits, f64v, flags)
    else:
        _double_lanes(code, pc, op, regs, w, active, vec, f64_bits, f64v)


@njit(cache=True, _nrt=False)
def _setp_lanes(code, pc, op, regs, w, active, vec, f32_bits, f32v, f64_bits, f64v, ftz):
    cmp = code[pc, F_CMP] & 255
    boolop = code[pc, F_CMP] >> 8
    if op == O_DSETP:
        src_f64(code, pc, 2, regs, w, f64_bits, 0)
        src_f64(code, pc, 3, regs, w, f64_bits, 1)
        for lane in range(32):
            vec[0, lane] = 1 if compare_float(cmp, f64v[0, lane], f64v[1, lane]) else 0
    else:
        first = 2 if op == O_FSETP else 2
        src_f32(code, pc, first, regs, w, f32_bits, 0, ftz)
        src_f32(code, pc, first + 1, regs, w, f32_bits, 1, ftz)
        for lane in range(32):
            vec[0, lane] = 1 if compare_float(cmp, f32v[0, lane], f32v[1, lane]) else 0
    src_pred(code, pc, 4, regs, w, vec, 2)
    if op == O_FSET:   # FSET.BF: 1.0f or 0; FSET: all ones or 0
        for lane in range(32):
            t = combine(vec[0, lane] != 0, boolop, vec[2, lane] != 0)
            vec[1, lane] = (0x3F800000 if code[pc, F_SUB] else M32) if t else 0
        write(regs, w, dst(code, pc, 0), active, vec, 1)
        return
    for lane in range(32):
        t = vec[0, lane] != 0
        vec[0, lane] = 1 if combine(t, boolop, vec[2, lane] != 0) else 0
        vec[1, lane] = 1 if combine(not t, boolop, vec[2, lane] != 0) else 0
    write_pred(regs, w, dst(code, pc, 0), active, vec, 0)
    write_pred(regs, w, dst(code, pc, 1), active, vec, 1)


@njit(cache=True, _nrt=False)
def _fchk_lanes(code, pc, regs, w, active, vec, f32_bits, f32v):
    """FCHK P, a, b: whether a / b needs the slow path (b zero, denormal, infinite or NaN; a
    infinite or NaN; or a quotient near the ends of the exponent range)."""
    src_f32(code, pc, 1, regs, w, f32_bits, 0, False)
    src_f32(code, pc, 2, regs, w, f32_bits, 1, False)
    for lane in range(32):
        ea = (f32_bits[0, lane] >> 23) & 0xFF
        eb = (f32_bits[1, lane] >> 23) & 0xFF
        bad_b = eb == 0 or eb == 255
        bad_a = ea == 255 or (ea == 0 and f32_bits[0, lane] & 0x7FFFFF != 0)
        spread = ea != 0 and (int(ea) - int(eb) > 125 or int(ea) - int(eb) < -125)
        vec[0, lane] = 1 if bad_a or bad_b or spread or ea >= 253 or eb >= 253 else 0
    write_pred(regs, w, dst(code, pc, 0), active, vec, 0)


@njit(cache=True, _nrt=False)
def _convert_lanes(code, pc, op, regs, w, active, vec, f32_bits, f32v, f64_bits, f64v, flags):
    to, frm = code[pc, F_TYPE], code[pc, F_SUB]
    d0 = dst(code, pc, 0)
    if op == O_I2F:
        src_u64(code, pc, 1, regs, w, vec, 0) if frm == T_S64 or frm == T_U64 else src_u32(code, pc, 1, regs, w, vec, 0)
        for lane in range(32):
            v = vec[0, lane]
            if frm == T_S32:
                f64v[0, lane] = np.float64(v - (1 << 32) if v & 0x80000000 else v)
            elif frm == T_U64:
                f64v[0, lane] = np.float64(np.uint64(v))
            elif frm == T_S64:
                f64v[0, lane] = np.float64(v)
            elif frm == 11:   # S8
                f64v[0, lane] = np.float64((v & 0xFF) - 256 if v & 0x80 else v & 0xFF)
            elif frm == 9:    # S16
                f64v[0, lane] = np.float64((v & 0xFFFF) - 65536 if v & 0x8000 else v & 0xFFFF)
            elif frm == 10:
                f64v[0, lane] = np.float64(v & 0xFF)
            elif frm == 8:
                f64v[0, lane] = np.float64(v & 0xFFFF)
            else:
                f64v[0, lane] = np.float64(v)
    else:
        if frm == T_F64:
            src_f64(code, pc, 1, regs, w, f64_bits, 0)
        elif frm == T_F16 or frm == T_BF16:   # the low half of the register
            src_u32(code, pc, 1, regs, w, vec, 0)
            for lane in range(32):
                f64v[0, lane] = decode16(vec[0, lane] & 0xFFFF, frm == T_BF16)
        else:
            src_f32(code, pc, 1, regs, w, f32_bits, 0, (flags & FL_FTZ) != 0)
            for lane in range(32):
                f64v[0, lane] = np.float64(f32v[0, lane])
    if op == O_F2I:
        for lane in range(32):
            vec[0, lane] = _to_int(f64v[0, lane], to, flags)
        if to == T_U64 or to == T_S64:
            write64(regs, w, d0, active, vec, 0)
        else:
            write(regs, w, d0, active, vec, 0)
        return
    if op == O_FRND:
        for lane in range(32):
            f64v[0, lane] = _round_f64(f64v[0, lane], flags) if not math.isinf(f64v[0, lane]) else f64v[0, lane]
    if to == T_F16 or to == T_BF16:   # to the low half, the high half zero
        mode = rounding_mode(flags)
        for lane in range(32):
            vec[0, lane] = encode16(f64v[0, lane], to == T_BF16, mode)
        write(regs, w, d0, active, vec, 0)
    elif to == T_F64:
        for lane in range(32):
            f64v[1, lane] = f64v[0, lane]
        write64(regs, w, d0, active, f64_bits.view(np.int64), 1)
    else:
        for lane in range(32):
            f32v[3, lane] = _to_f32(f64v[0, lane], flags)
        write_f32(regs, w, d0, active, f32_bits, 3, (flags & FL_FTZ) != 0)


@njit(cache=True, _nrt=False)
def _double_lanes(code, pc, op, regs, w, active, vec, f64_bits, f64v):
    """DADD/DMUL/DFMA: the nearest double and the rest of the exact value (error-free
    transformations), so that .RP/.RM/.RZ (ptxas' division and square-root sequences use
    DMUL.RP and DFMA.RM) round in their mode."""
    src_f64(code, pc, 1, regs, w, f64_bits, 0)
    src_f64(code, pc, 2, regs, w, f64_bits, 1)
    flags = code[pc, F_FLAGS]
    if op == O_DADD:
        for lane in range(32):
            r, rest = _two_sum(f64v[0, lane], f64v[1, lane])
            f64v[3, lane] = _directed(r, rest, flags)
    elif op == O_DMUL:
        for lane in range(32):
            r, rest = _two_product(f64v[0, lane], f64v[1, lane])
            f64v[3, lane] = _directed(r, rest, flags)
    elif op == O_DFMA:
        src_f64(code, pc, 3, regs, w, f64_bits, 2)
        for lane in range(32):
            r, rest = _fma(f64v[0, lane], f64v[1, lane], f64v[2, lane])
            f64v[3, lane] = _directed(r, rest, flags)
    else:   # DMNMX
        src_pred(code, pc, 3, regs, w, vec, 0)
        for lane in range(32):
            f64v[3, lane] = min(f64v[0, lane], f64v[1, lane]) if vec[0, lane] else max(f64v[0, lane], f64v[1, lane])
    write64(regs, w, dst(code, pc, 0), active, f64_bits.view(np.int64), 3)


@njit(cache=True, inline="always")
def _two_sum(a, b):
    """a + b to nearest, and the rest of the exact sum (Knuth)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


@njit(cache=True, inline="always")
def _two_product(x, y):
    """x * y to nearest, and the rest of the exact product (Dekker's split; exact for all but
    extreme exponents)."""
    p = x * y
    if math.isinf(p) or math.isnan(p) or p == 0.0:
        return p, 0.0
    split = 134217729.0
    cx = split * x
    hx = cx - (cx - x)
    lx = x - hx
    cy = split * y
    hy = cy - (cy - y)
    ly = y - hy
    return p, ((hx * hy - p) + hx * ly + lx * hy) + lx * ly


@njit(cache=True, _nrt=False)
def _fma(x, y, z):
    """x * y + z with one rounding, and the sign-bearing rest of the exact value: the product
    split exactly, then summed in order of magnitude."""
    p, err = _two_product(x, y)
    if err == 0.0 and (math.isinf(p) or math.isnan(p) or p == 0.0):
        return p + z, 0.0
    s, e2 = _two_sum(p, z)
    tail, tail_rest = _two_sum(e2, err)
    r, rest = _two_sum(s, tail)
    return r, rest + tail_rest


@njit(cache=True, inline="always")
def _directed(r, rest, flags):
    """The double nearest to r + rest (r already is) in the instruction's rounding mode."""
    if rest == 0.0 or math.isinf(r) or math.isnan(r) or not flags & (FL_RM | FL_RP | FL_RZ_ROUND):
        return r
    if flags & FL_RP:
        return np.nextafter(r, np.inf) if rest > 0 else r
    if flags & FL_RM:
        return np.nextafter(r, -np.inf) if rest < 0 else r
    return np.nextafter(r, 0.0) if (r > 0) != (rest > 0) else r
