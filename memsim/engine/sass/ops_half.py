"""Half-precision opcodes (fp16 and bf16 pairs, packing conversions, HMMA): lowering and semantics.

A 32-bit register holds two 16-bit values: H0 in the low half, H1 in the high half. A paired
opcode (HADD2, HMUL2, HFMA2, HMNMX2, HSET2, HSETP2) computes both halves; an operand's selector
picks them (`R2`: H0 and H1; `R2.H0_H0` / `R2.H1_H1`: one half broadcast; `R2.F32`: the
register as one float32 for both), and -x / |x| apply to each half. `.BF16_V2` makes the halves
bf16. `.F32` results (HADD2.F32 Rd, -RZ, R2.H0_H0: ptxas' half -> float) are one float32 of
the H0 computation. An immediate pair (`HFMA2.MMA R1, R0, 1, 1, R9`) is printed high half first.
Results are rounded once, to nearest even, from the exact float64 value (of sums and products).

F2FP.{F16,BF16}.F32.PACK_AB Rd, Ra, Rb packs two float32 values: Ra's to H1, Rb's to H0.
HMMA runs mma.sync's m16n8k16 / m16n8k8 (.row.col) on the whole warp: every lane's fragment
registers are read (PTX ISA's fragment layouts), the products summed in float64 and rounded
once: the tensor core's own accumulation order and truncation can differ in the last bits.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from . import ops_mma
from .family import declare
from .lanes import M32, compare_float, dst, write, write_pred
from .ops_int import combine
from .ops_int_lowering import compare_mods, hfma2_mov, is_constant_hfma2
from .rows import (ROUNDING, F_CMP, F_FLAGS, F_OP, F_OPS, F_SUB, F_TYPE, FL_FTZ, FL_RM, FL_RP, FL_RZ_ROUND,
                   FL_SAT, K_IMM, K_NONE, K_REG, M_FABS, M_FNEG, RZ, T_BF16, T_F16, T_F32, put,
                   set_flags, unsupported)

OPS = declare("half", ("HADD2", "HMUL2", "HFMA2", "HMNMX2", "HSETP2", "HSET2", "F2FP", "HMMA", "IMMA", "DMMA"))
O_HADD2, O_HMUL2, O_HFMA2, O_HMNMX2, O_HSETP2, O_HSET2, O_F2FP, O_HMMA, O_IMMA, O_DMMA = OPS.values()

FL_RELU = 1 << 20      # clamp results below zero to zero
FL_F32_OUT = 1 << 21   # HADD2.F32 / HFMA2.F32 ...: one float32 result
FL_H_AND = 1 << 22     # HSETP2.H_AND: both halves' comparisons and-ed into one predicate
FL_BF = 1 << 23        # HSET2.BF: 1.0 / 0.0 results (else all ones / zero per half)
FL_NAN = 1 << 24       # HMNMX2.NAN: a NaN operand gives NaN (else the other operand)

SELECTORS = {"": 0, "H0_H0": 1, "H1_H1": 2, "F32": 3, "H1_H0": 4, "H0": 1, "H1": 2}
S_PAIR, S_H0, S_H1, S_F32, S_SWAP = 0, 1, 2, 3, 4
SEL_SHIFT = 4          # the selector's bits in an operand's modifier field, above M_* marks

# (mantissa bits, exponent bits) of the 16-bit formats.
F16_M, F16_E, BF16_M, BF16_E = 10, 5, 7, 8
CANONICAL_NAN = 0x7FFF
# Bits the H100's tensor core keeps below the largest exponent when it aligns a k16 step's
# products and C (HMMA.16816.F32 here, HGMMA in ops_wgmma; fitted to validate/wgmma_probes.py).
TENSOR_ALIGN_BITS = 25
R_NEAREST, R_ZERO, R_DOWN, R_UP = 0, 1, 2, 3


# ---- scalar encodings -----------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def decode16(h, bf):
    """A 16-bit fp16 (bf false) or bf16 pattern as float64 (exact)."""
    mbits = BF16_M if bf else F16_M
    ebits = BF16_E if bf else F16_E
    bias = (1 << (ebits - 1)) - 1
    e = (h >> mbits) & ((1 << ebits) - 1)
    m = h & ((1 << mbits) - 1)
    if e == (1 << ebits) - 1:
        x = math.nan if m != 0 else math.inf
    elif e == 0:
        x = math.ldexp(float(m), 1 - bias - mbits)
    else:
        x = math.ldexp(float(m + (1 << mbits)), int(e) - bias - mbits)
    return -x if (h >> (mbits + ebits)) & 1 else x


@njit(cache=True, _nrt=False)
def _integer(q, mode, negative):
    """q >= 0 rounded to an integer: to nearest even, toward zero, down or up (of the signed
    value whose magnitude q is)."""
    f = math.floor(q)
    d = q - f
    if d == 0.0:
        return f
    if mode == R_ZERO:
        return f
    if mode == R_DOWN:
        return f + 1.0 if negative else f
    if mode == R_UP:
        return f if negative else f + 1.0
    if d > 0.5 or (d == 0.5 and f - 2.0 * math.floor(f * 0.5) == 1.0):
        return f + 1.0
    return f


@njit(cache=True, _nrt=False)
def encode16(x, bf, mode):
    """float64 -> the fp16 / bf16 pattern, rounded once (mode: R_NEAREST, R_ZERO, R_DOWN,
    R_UP). NaN becomes the canonical 0x7FFF."""
    mbits = BF16_M if bf else F16_M
    ebits = BF16_E if bf else F16_E
    bias = (1 << (ebits - 1)) - 1
    top = (1 << ebits) - 1
    if math.isnan(x):
        return CANONICAL_NAN
    negative = x < 0.0 or (x == 0.0 and math.copysign(1.0, x) < 0.0)
    s = (1 << (mbits + ebits)) if negative else 0
    a = abs(x)
    if math.isinf(a):
        return s | (top << mbits)
    if a == 0.0:
        return s
    f, ex = math.frexp(a)
    e = ex - 1
    if e < 1 - bias:
        e = 1 - bias
    n = int(_integer(math.ldexp(a, mbits - e), mode, negative))
    if n >= (2 << mbits):
        n >>= 1
        e += 1
    if n >= (1 << mbits):
        field, mant = e + bias, n - (1 << mbits)
    else:
        field, mant = 0, n
    if field >= top:
        if mode == R_NEAREST or (mode == R_DOWN and negative) or (mode == R_UP and not negative):
            return s | (top << mbits)
        return s | ((top - 1) << mbits) | ((1 << mbits) - 1)
    return s | (field << mbits) | mant


@njit(cache=True, _nrt=False)
def rounding_mode(flags):
    if flags & FL_RZ_ROUND:
        return R_ZERO
    if flags & FL_RM:
        return R_DOWN
    if flags & FL_RP:
        return R_UP
    return R_NEAREST


# ---- lowering -------------------------------------------------------------------------------

def _immediate_value(op, bf: bool) -> int:
    value = op.fvalue if op.kind == "fimm" else float(op.value)
    return int(encode16(value, bf, R_NEAREST))


def _items(ops, bf: bool) -> list:
    """The operands with each immediate pair (`1, 1`: high half first) joined into one packed
    32-bit int."""
    items, k = [], 0
    while k < len(ops):
        op = ops[k]
        if op.kind in ("imm", "fimm") and k + 1 < len(ops) and ops[k + 1].kind in ("imm", "fimm"):
            items.append((_immediate_value(op, bf) << 16) | _immediate_value(ops[k + 1], bf))
            k += 2
        else:
            items.append(op)
            k += 1
    return items


def _put(ins, row, k, item, dst=False):
    base = F_OPS + 3 * k
    if item is None:
        row[base] = K_NONE
    elif isinstance(item, int):
        row[base], row[base + 1], row[base + 2] = K_IMM, item & M32, 0
    else:
        if item.kind == "fimm":   # one 32-bit float immediate (a .F32 operand)
            put(row, k, item, floating=True)
            row[base + 2] |= S_F32 << SEL_SHIFT
            return
        put(row, k, item, dst=dst, floating=True)
        if item.kind in ("reg", "ureg"):
            if item.text not in SELECTORS:
                raise unsupported(ins, f"half selector `{item.text}`")
            row[base + 2] |= SELECTORS[item.text] << SEL_SHIFT


HALF_FLAGS = (("FTZ", FL_FTZ), ("SAT", FL_SAT), ("RELU", FL_RELU), ("F32", FL_F32_OUT),
              ("H_AND", FL_H_AND), ("BF", FL_BF))
READ_MODS = {"FTZ", "SAT", "RELU", "F32", "BF16_V2", "BF16", "MMA"}   # by the pair arithmetic


def _arith(op, n_sources):
    def handler(ins, mods, ops, row):
        if op == O_HFMA2 and is_constant_hfma2(ops):
            hfma2_mov(ins, mods, ops, row)
            return
        if unread := set(mods) - READ_MODS - ({"NAN"} if op == O_HMNMX2 else set()):   # as ops_float's
            raise unsupported(ins, f"modifier {'.'.join(sorted(unread))}")
        row[F_OP] = op
        set_flags(row, mods, HALF_FLAGS)
        if op == O_HMNMX2 and "NAN" in mods:
            row[F_FLAGS] |= FL_NAN
        bf = "BF16_V2" in mods or "BF16" in mods
        row[F_TYPE] = T_BF16 if bf else T_F16
        items = _items(ops, bf)
        want = 1 + n_sources + (1 if op == O_HMNMX2 else 0)
        if len(items) != want:
            raise unsupported(ins, "operand count")
        for k, item in enumerate(items):
            _put(ins, row, k, item, dst=k == 0)
    return handler


def _half_compare(op: int, n_items: int, n_dests: int):
    """Lowering of a half-pair comparison: its compare and boolean modifiers, F16 or BF16
    (.BF16_V2), `n_items` operands of which the first `n_dests` are written."""
    def handler(ins, mods, ops, row):
        row[F_OP] = op
        compare_mods(ins, mods, row)
        set_flags(row, mods, HALF_FLAGS)
        bf = "BF16_V2" in mods
        row[F_TYPE] = T_BF16 if bf else T_F16
        items = _items(ops, bf)
        if len(items) != n_items:
            raise unsupported(ins, "operand count")
        for k, item in enumerate(items):
            _put(ins, row, k, item, dst=k < n_dests)
    return handler


# HSETP2.cmp.bool Pu, Pv, a, b, Pc: Pu the H0 comparison, Pv the H1 one (.H_AND: Pu both
# and-ed, Pv its complement), each combined with Pc.
_hsetp2 = _half_compare(O_HSETP2, 5, 2)
# HSET2[.BF].cmp.bool Rd, a, b, Pc: per half all ones (.BF: 1.0) where it holds, else 0.
_hset2 = _half_compare(O_HSET2, 4, 1)


def _f2fp(ins, mods, ops, row):
    """F2FP.{F16,BF16}.F32.PACK_AB Rd, Ra, Rb: Rd.H1 = Ra, Rd.H0 = Rb, rounded."""
    if "PACK_AB" not in mods or "F32" not in mods or not ({"F16", "BF16"} & set(mods)):
        raise unsupported(ins)
    row[F_OP] = O_F2FP
    set_flags(row, mods, ROUNDING + (("RELU", FL_RELU),))
    row[F_TYPE] = T_BF16 if "BF16" in mods else T_F16
    if len(ops) != 3:
        raise unsupported(ins, "operand count")
    for k, op in enumerate(ops):
        put(row, k, op, dst=k == 0, floating=True)


def _hmma(ins, mods, ops, row):
    """HMMA.16816 / .1688 [.F32 / .F16 accumulators] [.BF16 inputs] Rd, Ra, Rb, Rc; TF32 inputs:
    memsim/engine/sass/ops_mma.py."""
    row[F_OP] = O_HMMA
    if ops_mma.lower_tf32(mods, row):
        if set(mods) != {"1688", "F32", "TF32"} and set(mods) != {"1684", "F32", "TF32"}:
            raise unsupported(ins)
        if len(ops) != 4 or any(o.kind != "reg" or o.text for o in ops):
            raise unsupported(ins, "HMMA operands")
        for k, op in enumerate(ops):
            put(row, k, op, dst=k == 0)
        return
    if "16816" in mods:
        row[F_SUB] = 0
    elif "1688" in mods:
        row[F_SUB] = 1
    else:
        raise unsupported(ins, "HMMA shape")
    if "F32" in mods:
        row[F_TYPE] = T_F32
    elif "F16" in mods:
        row[F_TYPE] = T_F16
    else:
        raise unsupported(ins, "HMMA accumulator type")
    if set(mods) - {"16816", "1688", "F32", "F16", "BF16"}:
        raise unsupported(ins)
    row[F_CMP] = 1 if "BF16" in mods else 0
    if len(ops) != 4 or any(o.kind != "reg" or o.text for o in ops):
        raise unsupported(ins, "HMMA operands")
    for k, op in enumerate(ops):
        put(row, k, op, dst=k == 0)


LOWER = {"HADD2": _arith(O_HADD2, 2), "HMUL2": _arith(O_HMUL2, 2), "HFMA2": _arith(O_HFMA2, 3),
         "HMNMX2": _arith(O_HMNMX2, 2), "HSETP2": _hsetp2, "HSET2": _hset2, "F2FP": _f2fp,
         "HMMA": _hmma, "IMMA": ops_mma.lower_imma(O_IMMA), "DMMA": ops_mma.lower_dmma(O_DMMA)}


def mma_registers(row, k) -> int:
    """Consecutive registers operand k of an HMMA, IMMA or DMMA spans."""
    if row[F_OP] == O_IMMA:
        return ops_mma.imma_registers(row, k)
    if row[F_OP] == O_DMMA:
        return ops_mma.dmma_registers(row, k)
    if row[F_CMP] == ops_mma.IN_TF32:
        return ops_mma.tf32_registers(row, k)
    f32 = row[F_TYPE] == T_F32
    if k == 0 or k == 3:
        return 4 if f32 else 2
    k16 = row[F_SUB] == 0
    if k == 1:
        return 4 if k16 else 2
    return 2 if k16 else 1


# ---- semantics ------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def _raw(code, pc, k, regs, w, lane):
    base = F_OPS + 3 * k
    kind = code[pc, base]
    if kind == K_REG:
        return regs[w, code[pc, base + 1], lane] & M32
    if kind == K_IMM:
        return code[pc, base + 1] & M32
    return 0


@njit(cache=True, _nrt=False)
def _f32_of(bits, f32_bits, f32v):
    f32_bits[3, 0] = bits
    return np.float64(f32v[3, 0])


@njit(cache=True, _nrt=False)
def _half(code, pc, k, regs, w, lane, hi, bf, f32_bits, f32v):
    """Operand k's value (float64) for the H0 (hi false) or H1 computation of lane."""
    base = F_OPS + 3 * k
    v = _raw(code, pc, k, regs, w, lane)
    mod = code[pc, base + 2]
    sel = (mod >> SEL_SHIFT) & 7
    if sel == S_F32:
        x = _f32_of(v, f32_bits, f32v)
    else:
        if sel == S_H0:
            h = v & 0xFFFF
        elif sel == S_H1:
            h = (v >> 16) & 0xFFFF
        elif sel == S_SWAP:
            h = v & 0xFFFF if hi else (v >> 16) & 0xFFFF
        else:
            h = (v >> 16) & 0xFFFF if hi else v & 0xFFFF
        x = decode16(h, bf)
    if mod & M_FABS:
        x = abs(x)
    if mod & M_FNEG:
        x = -x
    return x


@njit(cache=True, _nrt=False)
def _minmax(x, y, nan, want_min, bf):
    if math.isnan(x) and math.isnan(y) or (nan and (math.isnan(x) or math.isnan(y))):
        return CANONICAL_NAN
    if math.isnan(x):
        return encode16(y, bf, R_NEAREST)
    if math.isnan(y):
        return encode16(x, bf, R_NEAREST)
    if x == y:   # -0 is the smaller zero
        if want_min:
            return encode16(x if math.copysign(1.0, x) < 0 else y, bf, R_NEAREST)
        return encode16(y if math.copysign(1.0, x) < 0 else x, bf, R_NEAREST)
    return encode16(min(x, y) if want_min else max(x, y), bf, R_NEAREST)


@njit(cache=True, _nrt=False)
def _finish(r, flags):
    if flags & FL_RELU and r < 0.0:
        r = 0.0
    if flags & FL_SAT:
        if math.isnan(r):
            r = 0.0
        r = min(max(r, 0.0), 1.0)
    return r


@njit(cache=True, _nrt=False)
def execute(code, pc, op, regs, w, active, vec, f32_bits, f32v, f64_bits, f64v):
    flags = code[pc, F_FLAGS]
    bf = code[pc, F_TYPE] == T_BF16
    if op == O_HMMA:
        if code[pc, F_CMP] == ops_mma.IN_TF32:
            ops_mma.tf32_warp(code, pc, regs, w, active, vec, f32_bits, f32v)
        else:
            _hmma_warp(code, pc, regs, w, active, vec, f32_bits, f32v)
        return
    if op == O_IMMA:
        ops_mma.imma_warp(code, pc, regs, w, active, vec)
        return
    if op == O_DMMA:
        ops_mma.dmma_warp(code, pc, regs, w, active, vec, f64_bits, f64v)
        return
    if op == O_F2FP:
        mode = rounding_mode(flags)
        for lane in range(32):
            r = 0
            for k in range(2):
                x = _f32_of(_raw(code, pc, 1 + k, regs, w, lane), f32_bits, f32v)
                if code[pc, F_OPS + 3 * (1 + k) + 2] & M_FABS:
                    x = abs(x)
                if code[pc, F_OPS + 3 * (1 + k) + 2] & M_FNEG:
                    x = -x
                if flags & FL_RELU and x < 0.0:
                    x = 0.0
                r |= encode16(x, bf, mode) << (16 * (1 - k))
            vec[0, lane] = r
        write(regs, w, dst(code, pc, 0), active, vec, 0)
        return
    if op == O_HSETP2 or op == O_HSET2:
        _compare_lanes(code, pc, op, regs, w, active, vec, f32_bits, f32v, flags, bf)
        return
    f32_out = flags & FL_F32_OUT
    halves = 1 if f32_out else 2
    for lane in range(32):
        r = 0
        for h in range(halves):
            hi = h == 1
            x = _half(code, pc, 1, regs, w, lane, hi, bf, f32_bits, f32v)
            y = _half(code, pc, 2, regs, w, lane, hi, bf, f32_bits, f32v)
            if op == O_HMNMX2:
                p = regs[w, code[pc, F_OPS + 3 * 3 + 1], lane] != 0
                if code[pc, F_OPS + 3 * 3 + 2] & 2:   # !P
                    p = not p
                r |= _minmax(x, y, flags & FL_NAN, p, bf) << (16 * h)
                continue
            if op == O_HADD2:
                v = x + y
            elif op == O_HMUL2:
                v = x * y
            else:
                v = x * y + _half(code, pc, 3, regs, w, lane, hi, bf, f32_bits, f32v)
            v = _finish(v, flags)
            if f32_out:
                f32v[3, 0] = np.float32(v)
                r = np.int64(f32_bits[3, 0])
            else:
                r |= encode16(v, bf, R_NEAREST) << (16 * h)
        vec[0, lane] = r
    write(regs, w, dst(code, pc, 0), active, vec, 0)


@njit(cache=True, _nrt=False)
def _pred(code, pc, k, regs, w, lane):
    base = F_OPS + 3 * k
    kind = code[pc, base]
    if kind == K_REG:
        p = regs[w, code[pc, base + 1], lane] != 0
    elif kind == K_IMM:
        p = code[pc, base + 1] != 0
    else:
        p = False
    return (not p) if code[pc, base + 2] & 2 else p


@njit(cache=True, _nrt=False)
def _compare_lanes(code, pc, op, regs, w, active, vec, f32_bits, f32v, flags, bf):
    cmp = code[pc, F_CMP] & 255
    boolop = code[pc, F_CMP] >> 8
    first = 2 if op == O_HSETP2 else 1
    one = (0x3F80 if bf else 0x3C00) if flags & FL_BF else 0xFFFF
    for lane in range(32):
        c = _pred(code, pc, first + 2, regs, w, lane)
        t0 = compare_float(cmp, _half(code, pc, first, regs, w, lane, False, bf, f32_bits, f32v),
                      _half(code, pc, first + 1, regs, w, lane, False, bf, f32_bits, f32v))
        t1 = compare_float(cmp, _half(code, pc, first, regs, w, lane, True, bf, f32_bits, f32v),
                      _half(code, pc, first + 1, regs, w, lane, True, bf, f32_bits, f32v))
        if op == O_HSET2:
            r0 = one if combine(t0, boolop, c) else 0
            r1 = one if combine(t1, boolop, c) else 0
            vec[0, lane] = r0 | (r1 << 16)
        elif flags & FL_H_AND:
            both = t0 and t1
            vec[0, lane] = 1 if combine(both, boolop, c) else 0
            vec[1, lane] = 1 if combine(not both, boolop, c) else 0
        else:
            vec[0, lane] = 1 if combine(t0, boolop, c) else 0
            vec[1, lane] = 1 if combine(t1, boolop, c) else 0
    if op == O_HSET2:
        write(regs, w, dst(code, pc, 0), active, vec, 0)
    else:
        write_pred(regs, w, dst(code, pc, 0), active, vec, 0)
        write_pred(regs, w, dst(code, pc, 1), active, vec, 1)


@njit(cache=True, _nrt=False)
def _fragment(regs, w, first, lane, half, bf):
    v = regs[w, first, lane]
    return decode16((v >> (16 * half)) & 0xFFFF, bf)


# The H100's tensor core sums a k16 step's products and C (fitted on wgmma, ops_wgmma, and
# bit-exact on HMMA.16816.F32 too: cuda-samples' f16 and bf16 WMMA GEMMs and Triton's mma.sync
# matmul): every term truncated toward zero to a multiple of 2^(emax - TENSOR_ALIGN_BITS), emax
# the largest of C's exponent and the products' exponent sums (not the products' exponents), the
# truncated terms summed exactly, the sum rounded toward zero to f32. A caller walks its products
# twice: tensor_exponent over them from tensor_start(c), then tensor_term over them from
# tensor_term(c, ...), then tensor_result.
NO_EXPONENT = -(1 << 20)


@njit(cache=True, _nrt=False)
def tensor_start(c):
    """emax before any product: C's exponent, or none for a zero C."""
    return math.frexp(c)[1] - 1 if c != 0.0 else NO_EXPONENT


@njit(cache=True, _nrt=False)
def tensor_exponent(emax, x, y):
    """emax after the product x * y (its exponents' sum; a zero product adds nothing)."""
    if x != 0.0 and y != 0.0:
        return max(emax, math.frexp(x)[1] + math.frexp(y)[1] - 2)
    return emax


@njit(cache=True, _nrt=False)
def tensor_unit(emax):
    """The value of the last bit kept (1.0 where no term is nonzero: every term is then 0 or C)."""
    return math.ldexp(1.0, emax - TENSOR_ALIGN_BITS) if emax != NO_EXPONENT else 1.0


@njit(cache=True, _nrt=False)
def tensor_term(x, y, unit):
    """One term x * y truncated toward zero to a multiple of `unit` (in units)."""
    return np.trunc(x * y / unit)


@njit(cache=True, _nrt=False)
def f32_toward_zero(s, f32_bits, f32v, slot):
    """The f32 bits of s rounded toward zero (float32() rounds to nearest: one step back where
    that rounded up in magnitude), through f32v[3, slot]."""
    f32v[3, slot] = np.float32(s)
    if abs(np.float64(f32v[3, slot])) > abs(s):
        f32_bits[3, slot] = f32_bits[3, slot] - np.uint32(1)
    return np.int64(f32_bits[3, slot])


@njit(cache=True, _nrt=False)
def _ab_fragment(regs, w, a0, b0, r, col, k, bf):
    """(A[r][k], B[k][col]) of an mma.sync .row.col k16 fragment pair."""
    ka = (k & 7) >> 1
    x = _fragment(regs, w, a0 + (1 if r >= 8 else 0) + (2 if k >= 8 else 0), (r & 7) * 4 + ka, k & 1, bf)
    y = _fragment(regs, w, b0 + (1 if k >= 8 else 0), col * 4 + ka, k & 1, bf)
    return x, y


@njit(cache=True, _nrt=False)
def _hopper_sum(regs, w, a0, b0, r, col, depth, bf, c):
    """C + the products of D[r][col] as the H100's tensor core sums them (above), before the
    rounding to f32."""
    emax = tensor_start(c)
    for k in range(depth):
        x, y = _ab_fragment(regs, w, a0, b0, r, col, k, bf)
        emax = tensor_exponent(emax, x, y)
    if emax == NO_EXPONENT:
        return c
    unit = tensor_unit(emax)
    t = np.trunc(c / unit)
    for k in range(depth):
        x, y = _ab_fragment(regs, w, a0, b0, r, col, k, bf)
        t += tensor_term(x, y, unit)
    return t * unit


@njit(cache=True, _nrt=False)
def _hmma_warp(code, pc, regs, w, active, vec, f32_bits, f32v):
    """D = A x B + C over the warp's fragments (mma.sync .row.col): groupID g = lane >> 2 and
    t = lane % 4; lane holds D[g + 8 * (i >> 1)][2t + (i & 1)] as its i-th value."""
    a0 = code[pc, F_OPS + 3 * 1 + 1]
    b0 = code[pc, F_OPS + 3 * 2 + 1]
    c0 = code[pc, F_OPS + 3 * 3 + 1]
    d0 = dst(code, pc, 0)
    k16 = code[pc, F_SUB] == 0
    f32 = code[pc, F_TYPE] == T_F32
    bf = code[pc, F_CMP] == 1
    depth = 16 if k16 else 8
    for lane in range(32):
        g, t = lane >> 2, lane & 3
        for i in range(4):
            r, col = g + 8 * (i >> 1), 2 * t + (i & 1)
            if c0 == RZ:
                s = 0.0
            elif f32:
                s = _f32_of(regs[w, c0 + i, lane] & M32, f32_bits, f32v)
            else:
                s = _fragment(regs, w, c0 + (i >> 1), lane, i & 1, False)
            if f32 and k16:   # the H100's sum (k8, HMMA.1688, keeps the exact one: not measured)
                vec[i, lane] = f32_toward_zero(_hopper_sum(regs, w, a0, b0, r, col, depth, bf, s),
                                               f32_bits, f32v, 0)
                continue
            for k in range(depth):
                x, y = _ab_fragment(regs, w, a0, b0, r, col, k, bf)
                s += x * y
            if f32:
                f32v[3, 0] = np.float32(s)
                vec[i, lane] = np.int64(f32_bits[3, 0])
            else:
                vec[i, lane] = encode16(s, False, R_NEAREST)
    if f32:
        for i in range(4):
            if d0 + i < RZ:
                write(regs, w, d0 + i, active, vec, i)
    else:
        for lane in range(32):
            vec[4, lane] = vec[0, lane] | (vec[1, lane] << 16)
            vec[5, lane] = vec[2, lane] | (vec[3, lane] << 16)
        write(regs, w, d0, active, vec, 4)
        if d0 + 1 < RZ:
            write(regs, w, d0 + 1, active, vec, 5)
