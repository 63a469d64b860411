"""Tensor-core MMAs beside HMMA's f16/bf16 forms (memsim/engine/sass/ops_half.py): TF32 HMMA,
8-bit IMMA and f64 DMMA, lowered into the half family's rows and run on the whole warp.

Every lane's fragment registers are read as the PTX ISA lays out mma.sync's fragments
(groupID g = lane >> 2, t = lane % 4; accumulators: lane holds D[g + 8 * (i >> 1)][2t + (i & 1)]
as its i-th value, DMMA's D[g][2t + i]):
- HMMA.1688.F32.TF32 / .1684 (m16n8k8 / k4): A holds (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4),
  B (t, g), (t + 4, g). The tensor core reads only a tf32 of each fp32 input (sign, exponent, the
  top 10 mantissa bits): the low 13 bits are dropped (truncated, as cvt.rz.tf32.f32 would).
  Products are summed in float64 and rounded once to fp32, as for HMMA: the tensor core's own
  order and rounding can differ in the last bits.
- IMMA.16816 / .16832 (m16n8k16 / k32) with U8 / S8 inputs (A's type first): each 32-bit register
  packs 4 bytes; A register j holds row g + 8 * (j & 1), columns 4t..4t+3 (+16 for j >= 2), B
  register j rows 4t..4t+3 (+16 for j = 1) of column g. Int32 sums, exact, wrapping (clamped with .SAT).
- DMMA.8x8x4 (m8n8k4 f64, register pairs): A holds (g, t), B (t, g).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .lanes import M32, dst, write
from .rows import F_CMP, F_FLAGS, F_OP, F_OPS, F_SUB, F_TYPE, FL_SAT, RZ, T_F32, put, unsupported

# F_CMP of an HMMA row: its input type (0: f16 and 1: bf16 run in ops_half._hmma_warp).
IN_TF32 = 2
# F_SUB of an HMMA row: its shape.
SHAPE_K16, SHAPE_K8, SHAPE_TF32_K8, SHAPE_TF32_K4 = 0, 1, 2, 3


def lower_tf32(mods, row) -> bool:
    """HMMA.1688 / .1684 .F32.TF32: the row's shape and input type; False if not TF32."""
    if "TF32" not in mods:
        return False
    row[F_SUB] = SHAPE_TF32_K8 if "1688" in mods else SHAPE_TF32_K4
    row[F_TYPE] = T_F32
    row[F_CMP] = IN_TF32
    return True


def lower_imma(op: int):
    """IMMA.16816 / .16832 .{U8,S8}.{U8,S8} [.SAT] Rd, Ra.ROW, Rb.COL, Rc."""
    def handler(ins, mods, ops, row):
        types = [m for m in ins.mods if m in ("U8", "S8")]
        shape = [m for m in ins.mods if m in ("16816", "16832")]
        if len(types) != 2 or not shape or set(mods) - {"16816", "16832", "U8", "S8", "SAT"}:
            raise unsupported(ins)
        row[F_OP] = op
        row[F_SUB] = 0 if shape[0] == "16816" else 1
        row[F_CMP] = (types[0] == "S8") | ((types[1] == "S8") << 1)
        row[F_FLAGS] = FL_SAT if "SAT" in mods else 0
        _put_registers(ins, ops, row, ("", "ROW", "COL"))
    return handler


def lower_dmma(op: int):
    """DMMA.8x8x4 Rd, Ra, Rb, Rc (f64 register pairs)."""
    def handler(ins, mods, ops, row):
        if set(mods) != {"8x8x4"}:
            raise unsupported(ins, "DMMA shape")
        row[F_OP] = op
        _put_registers(ins, ops, row, ("",))
    return handler


def _put_registers(ins, ops, row, suffixes) -> None:
    if len(ops) != 4 or any(o.kind != "reg" or o.text not in suffixes for o in ops):
        raise unsupported(ins, "MMA operands")
    for k, o in enumerate(ops):
        put(row, k, o, dst=k == 0)


def tf32_registers(row, k) -> int:
    """Consecutive registers operand k of a TF32 HMMA spans."""
    return _spans(row[F_SUB] == SHAPE_TF32_K8, k)


def imma_registers(row, k) -> int:
    return _spans(row[F_SUB] == 1, k)


def _spans(deep: bool, k: int) -> int:
    """Registers of operand k of the m16n8 MMAs: D and C four; A four and B two in the deeper
    shape (TF32 k8, IMMA k32), half as many in the other."""
    if k == 0 or k == 3:
        return 4
    return (4 if k == 1 else 2) // (1 if deep else 2)


def dmma_registers(row, k) -> int:
    return 4 if k == 0 or k == 3 else 2


# ---- semantics ------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def _reg(code, pc, k):
    return code[pc, F_OPS + 3 * k + 1]


@njit(cache=True, _nrt=False)
def _tf32(regs, w, r, lane, f32_bits, f32v):
    """The fp32 register as the tensor core reads it: its low 13 mantissa bits dropped."""
    f32_bits[3, 1] = np.uint32(regs[w, r, lane] & 0xFFFFE000)
    return np.float64(f32v[3, 1])


@njit(cache=True, _nrt=False)
def tf32_warp(code, pc, regs, w, active, vec, f32_bits, f32v):
    """D = A x B + C of HMMA.1688/.1684.F32.TF32 over the warp (module docstring: the layout)."""
    a0, b0, c0, d0 = _reg(code, pc, 1), _reg(code, pc, 2), _reg(code, pc, 3), dst(code, pc, 0)
    depth = 8 if code[pc, F_SUB] == SHAPE_TF32_K8 else 4
    for lane in range(32):
        g, t = lane >> 2, lane & 3
        for i in range(4):
            r, col = g + 8 * (i >> 1), 2 * t + (i & 1)
            f32_bits[3, 0] = np.uint32(regs[w, c0 + i, lane] & M32) if c0 != RZ else np.uint32(0)
            s = np.float64(f32v[3, 0])
            for k in range(depth):
                # A (r, k) sits in lane (r & 7) * 4 + (k & 3), register (r >> 3) + 2 (k >> 2)
                x = _tf32(regs, w, a0 + (r >> 3) + 2 * (k >> 2), (r & 7) * 4 + (k & 3), f32_bits, f32v)
                y = _tf32(regs, w, b0 + (k >> 2), col * 4 + (k & 3), f32_bits, f32v)
                s += x * y
            f32v[3, 2] = np.float32(s)
            vec[i, lane] = np.int64(f32_bits[3, 2])
    for i in range(4):
        if d0 + i < RZ:
            write(regs, w, d0 + i, active, vec, i)


@njit(cache=True, _nrt=False)
def _byte(regs, w, r, lane, j, signed):
    v = (regs[w, r, lane] >> (8 * j)) & 0xFF
    return v - 256 if signed and v >= 128 else v


@njit(cache=True, _nrt=False)
def imma_warp(code, pc, regs, w, active, vec):
    """D = A x B + C of IMMA over the warp, in int32 (module docstring: the layout)."""
    a0, b0, c0, d0 = _reg(code, pc, 1), _reg(code, pc, 2), _reg(code, pc, 3), dst(code, pc, 0)
    depth = 32 if code[pc, F_SUB] == 1 else 16
    a_signed, b_signed = (code[pc, F_CMP] & 1) != 0, (code[pc, F_CMP] & 2) != 0
    saturate = (code[pc, F_FLAGS] & FL_SAT) != 0
    for lane in range(32):
        g, t = lane >> 2, lane & 3
        for i in range(4):
            r, col = g + 8 * (i >> 1), 2 * t + (i & 1)
            c = regs[w, c0 + i, lane] & M32 if c0 != RZ else 0
            s = c - (1 << 32) if c >= (1 << 31) else c
            for k in range(depth):
                # A (r, k): register (r >> 3) + 2 (k >> 4), lane (r & 7) * 4 + (k & 15) // 4, byte k & 3
                x = _byte(regs, w, a0 + (r >> 3) + 2 * (k >> 4), (r & 7) * 4 + ((k & 15) >> 2), k & 3, a_signed)
                y = _byte(regs, w, b0 + (k >> 4), col * 4 + ((k & 15) >> 2), k & 3, b_signed)
                s += x * y
            if saturate:
                s = min(max(s, -(1 << 31)), (1 << 31) - 1)
            vec[i, lane] = s & M32
    for i in range(4):
        if d0 + i < RZ:
            write(regs, w, d0 + i, active, vec, i)


@njit(cache=True, _nrt=False)
def _f64(regs, w, r, lane, f64_bits, f64v):
    f64_bits[3, 1] = np.uint64((regs[w, r, lane] & M32) | ((regs[w, r + 1, lane] & M32) << 32))
    return f64v[3, 1]


@njit(cache=True, _nrt=False)
def dmma_warp(code, pc, regs, w, active, vec, f64_bits, f64v):
    """D = A x B + C of DMMA.8x8x4 over the warp, in float64 (module docstring: the layout)."""
    a0, b0, c0, d0 = _reg(code, pc, 1), _reg(code, pc, 2), _reg(code, pc, 3), dst(code, pc, 0)
    for lane in range(32):
        g, t = lane >> 2, lane & 3
        for i in range(2):
            col = 2 * t + i
            s = _f64(regs, w, c0 + 2 * i, lane, f64_bits, f64v) if c0 != RZ else 0.0
            for k in range(4):
                s += _f64(regs, w, a0, g * 4 + k, f64_bits, f64v) * _f64(regs, w, b0, col * 4 + k, f64_bits, f64v)
            f64v[3, 2] = s
            bits = np.int64(f64_bits[3, 2])
            vec[2 * i, lane] = bits & M32
            vec[2 * i + 1, lane] = (bits >> 32) & M32
    for i in range(4):
        if d0 + i < RZ:
            write(regs, w, d0 + i, active, vec, i)
