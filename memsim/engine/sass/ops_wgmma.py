"""Hopper's warpgroup MMA (wgmma.mma_async, sm_90a): HGMMA.64xNx16.F32[.BF16] with f16 or bf16
inputs and f32 accumulators, its operands in shared memory (64-bit matrix descriptors) or A in
registers; WARPGROUP.ARRIVE (wgmma.fence) and WARPGROUP.DEPBAR.LE (wgmma.wait_group) issue and
do nothing else.

ptxas 13.0's operands: `HGMMA.64xNx16.F32 Rd, gdesc[URx][.tnspA][.tnspB][.negA][.negB], Rc[, [!]UPp][, gsb0]`
(both from shared memory: A's descriptor in URx:URx+1, B's in URx+2:URx+3) and
`HGMMA.64xNx16.F32 Rd, Ra, gdesc[URx][.tnspB], Rc[, [!]UPp][, gsb0]` (A from Ra..Ra+3; B's
descriptor still in URx+2:URx+3; -Ra for imm-scale-a = -1). UPp is wgmma's scale-d: where
false, D = A B and C is not read (absent: true; `RZ, !UPT` for a constant false). .negA/.negB are
imm-scale-a/b = -1. gsb0 marks the last MMA of a commit group; this emulation completes every
HGMMA as it issues, so commit and wait have nothing left to do.

Counted (memsim.metrics.GMMA; ncu on the H100 for one launch): one issue per warp as a shared
instruction and in the tensor pipe; per warpgroup MMA the bytes the descriptors read (A's 64 x 16
unless A is in registers, B's N x 16; 2 bytes each), in 128-byte wavefronts; 2 x 64 x N x 16 math
ops. No LSU load/store metric (op_shared_ld/st, op_memory_*b) counts HGMMA, as on the H100.

The warpgroup's four warps do not need each other: warp w % 4 computes rows 16 (w % 4) ..
16 (w % 4) + 15 of the 64 x N product, reading those rows of A (from shared memory, or its own
A fragment registers) and all N columns of B. Its lane 4g + t holds D[g + 8 (i >> 1 & 1)]
[8 (i >> 2) + 2t + (i & 1)] as accumulator register i (i < N / 2), A register j holds rows
g (+8 for odd j), columns 2t, 2t + 1 (+8 for j >= 2), two 16-bit values, the lower column low.

Descriptors (PTX ISA, "Matrix Descriptor"): start address bits 0-13, leading byte offset (LBO)
16-29, stride byte offset (SBO) 32-45, all in 16-byte units; swizzle mode bits 62-63 (0 none,
1 128-byte, 2 64-byte, 3 32-byte). Element (m, k) of an operand (m: A's row or B's column) lies,
for a K-major operand (CUTLASS's canonical GMMA layouts, 16-bit elements):
  no swizzle:    start + (m % 8) 16 + (m / 8) SBO + (k % 8) 2 + (k / 8) LBO   (8 x 16-byte core matrices)
  W-byte swizzle: start + (m % 8) W + (m / 8) SBO + 2k
and for an MN-major one (.tnspA / .tnspB):
  no swizzle:    start + (m % 8) 2 + (m / 8) SBO + (k % 8) 16 + (k / 8) LBO
  W-byte swizzle: start + (m % (W / 2)) 2 + (m / (W / 2)) LBO + (k % 8) W + (k / 8) SBO,
then the swizzle XORs address bits 4.. with bits 7.. (3 bits for 128 bytes, 2 for 64, 1 for 32),
as TMA's swizzle writes them. The base-offset field (bits 49-51) is taken as 0.

Arithmetic, as the H100 computes it (bit for bit on the 15 recorded probes, 189,440 values;
docs/sass.md "wgmma"): a k16 step's 16 products are exact; emax is the largest of C's exponent and
the products' exponent sums e(a) + e(b) (floor(log2) of each input, not of the product); every
product and C is truncated toward zero to a multiple of 2^(emax - 25); the sum of those is exact
and goes to f32 rounded toward zero.
"""
from __future__ import annotations

import re

import numpy as np
from numba import njit

from ..count import C_BYTES, C_REQUESTS, C_WAVEFRONTS
from ..faults import E_SHARED_OOB
from .lanes import M32
from .ops_half import NO_EXPONENT, decode16, f32_toward_zero, tensor_exponent, tensor_start, tensor_term, tensor_unit
from .ops_memory import O_HGMMA, _fail
from .family import OP
from .parser import Operand
from .rows import F_CMP, F_FLAGS, F_OP, F_OPS, F_SUB, F_TYPE, K_REG, RZ, T_BF16, T_F16, UPT, put, unsupported

FL_TNSP_A, FL_TNSP_B, FL_NEG_A, FL_NEG_B = 1, 2, 4, 8
_SHAPE = re.compile(r"64x(\d+)x16")
_GDESC = re.compile(r"gdesc\[UR(\d+)\]((?:\.(?:tnsp|neg)[AB])*)")
_SUFFIXES = {".tnspA": FL_TNSP_A, ".tnspB": FL_TNSP_B, ".negA": FL_NEG_A, ".negB": FL_NEG_B}


def _hgmma(ins, mods, ops, row):
    """HGMMA.64xNx16.F32[.BF16] (see above): row operands Rd, Ra (or none), URx, Rc, scale-d."""
    shape = [int(m.group(1)) for m in map(_SHAPE.fullmatch, mods) if m]
    extra = set(mods) - {"F32", "BF16"} - {f"64x{n}x16" for n in shape}
    if len(shape) != 1 or "F32" not in mods or extra or shape[0] % 8 or not 8 <= shape[0] <= 256:
        raise unsupported(ins, "only f16/bf16 inputs with f32 accumulators are emulated")
    ops = [o for o in ops if not (o.kind == "unknown" and o.text == "gsb0")]
    at = [k for k, o in enumerate(ops) if o.kind == "unknown" and _GDESC.fullmatch(o.text)]
    if len(at) != 1 or at[0] not in (1, 2) or len(ops) - at[0] not in (2, 3):
        raise unsupported(ins, "HGMMA operands")
    desc = _GDESC.fullmatch(ops[at[0]].text)
    row[F_OP], row[F_SUB] = O_HGMMA, shape[0]
    row[F_TYPE] = T_BF16 if "BF16" in mods else T_F16
    row[F_FLAGS] = sum(flag for suffix, flag in _SUFFIXES.items() if suffix in desc.group(2))
    if at[0] == 2 and ops[1].negate:   # imm-scale-a -1 with A in registers
        row[F_FLAGS] |= FL_NEG_A
    put(row, 0, ops[0], dst=True)
    put(row, 1, Operand("reg", ops[1].value) if at[0] == 2 else None)
    put(row, 2, Operand("ureg", int(desc.group(1))))
    put(row, 3, ops[at[0] + 1])
    scale = ops[at[0] + 2] if len(ops) - at[0] == 3 else Operand("upred", 7)
    if scale.kind != "upred" or any(o.kind != "reg" for o in (ops[0], ops[at[0] + 1])):
        raise unsupported(ins, "HGMMA operands")
    put(row, 4, scale)
    row[F_CMP] = int(scale.invert)


def _warpgroup(ins, mods, ops, row):
    """WARPGROUP.ARRIVE (wgmma.fence) and WARPGROUP.DEPBAR.LE gsb0, n (wgmma.wait_group n): an
    HGMMA completes as it issues, so there is nothing to wait for."""
    if tuple(mods) not in (("ARRIVE",), ("DEPBAR", "LE")):
        raise unsupported(ins)
    row[F_OP] = OP["NOP"]


LOWER = {"HGMMA": _hgmma, "WARPGROUP": _warpgroup}


def registers(row, k) -> int:
    """Consecutive registers operand k of an HGMMA spans: D and C N / 2, A 4, the descriptors 4."""
    return row[F_SUB] // 2 if k in (0, 3) else 4 if k in (1, 2) else 1


# ---- semantics ------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def _reg(code, pc, k):
    return code[pc, F_OPS + 3 * k + 1]


@njit(cache=True, _nrt=False)
def _descriptor(regs, w, first):
    """The 64-bit descriptor in uniform registers first, first + 1 (lane 0's copy)."""
    return (regs[w, first, 0] & M32) | ((regs[w, first + 1, 0] & M32) << 32)


@njit(cache=True, _nrt=False)
def _address(desc, m, k, mn_major):
    """Shared-window byte address of element (m, k) of the operand `desc` describes (module
    docstring: the layouts), swizzled."""
    start = (desc & 0x3FFF) << 4
    lbo = ((desc >> 16) & 0x3FFF) << 4
    sbo = ((desc >> 32) & 0x3FFF) << 4
    mode = (desc >> 62) & 3
    width = 0 if mode == 0 else 128 if mode == 1 else 64 if mode == 2 else 32
    if width == 0:
        if mn_major:
            return start + (m & 7) * 2 + (m >> 3) * sbo + (k & 7) * 16 + (k >> 3) * lbo
        return start + (m & 7) * 16 + (m >> 3) * sbo + (k & 7) * 2 + (k >> 3) * lbo
    if mn_major:
        per_row = width // 2
        a = start + (m % per_row) * 2 + (m // per_row) * lbo + (k & 7) * width + (k >> 3) * sbo
    else:
        a = start + (m & 7) * width + (m >> 3) * sbo + 2 * k
    bits = 3 if width == 128 else 2 if width == 64 else 1
    return a ^ (((a >> 7) & ((1 << bits) - 1)) << 4)


@njit(cache=True, _nrt=False)
def _shared16(shared8, a, window_base, bf, err, pc, block, thread):
    """The 16-bit value at shared-window address a, as float64; 0 after a fault (in err)."""
    off = a - window_base
    if off < 0 or off + 2 > shared8.shape[0] or off & 1:
        if err[0] == 0:
            _fail(err, E_SHARED_OOB, pc, block, thread, off, 2)
        return 0.0
    return decode16(np.int64(shared8[off]) | (np.int64(shared8[off + 1]) << 8), bf)


@njit(cache=True, _nrt=False)
def _a_value(code, pc, regs, w, r, k, desc_a, shared8, window_base, bf, err, block):
    """A[16 (w % 4) + r][k] of this k16 step: from the A fragment registers or shared memory."""
    if code[pc, F_OPS + 3] == K_REG:
        lane = (r & 7) * 4 + ((k & 7) >> 1)
        v = regs[w, _reg(code, pc, 1) + (r >> 3) + 2 * (k >> 3), lane]
        return decode16((v >> (16 * (k & 1))) & 0xFFFF, bf)
    a = _address(desc_a, 16 * (w & 3) + r, k, (code[pc, F_FLAGS] & FL_TNSP_A) != 0)
    return _shared16(shared8, a, window_base, bf, err, pc, block, w * 32)


@njit(cache=True, _nrt=False)
def _b_value(shared8, desc_b, col, k, tnsp_b, window_base, bf, err, pc, block, w):
    return _shared16(shared8, _address(desc_b, col, k, tnsp_b), window_base, bf, err, pc, block, w * 32)


@njit(cache=True, _nrt=False)
def _dot(code, pc, regs, w, r, col, desc_a, desc_b, shared8, window_base, bf, err, block, c, has_c):
    """C + the 16 products of D[r][col], as the H100 sums them (ops_half's tensor_* rule),
    before the rounding to f32."""
    tnsp_b = (code[pc, F_FLAGS] & FL_TNSP_B) != 0
    c = c if has_c else 0.0
    emax = tensor_start(c)
    for k in range(16):
        x = _a_value(code, pc, regs, w, r, k, desc_a, shared8, window_base, bf, err, block)
        y = _b_value(shared8, desc_b, col, k, tnsp_b, window_base, bf, err, pc, block, w)
        emax = tensor_exponent(emax, x, y)
    if emax == NO_EXPONENT:
        return c
    unit = tensor_unit(emax)
    s = 0.0
    for k in range(16):
        x = _a_value(code, pc, regs, w, r, k, desc_a, shared8, window_base, bf, err, block)
        y = _b_value(shared8, desc_b, col, k, tnsp_b, window_base, bf, err, pc, block, w)
        s += tensor_term(x, y, unit)
    if ((code[pc, F_FLAGS] & FL_NEG_A) != 0) != ((code[pc, F_FLAGS] & FL_NEG_B) != 0):
        s = -s
    return (s + np.trunc(c / unit)) * unit


@njit(cache=True, _nrt=False)
def step(code, pc, regs, w, active, shared8, window_base, err, block, f32_bits, f32v, counters):
    """D = A B + C (or A B where scale-d is false) of one warp's 16 rows (module docstring),
    counted as the H100 counts it: an issue per warp; the warpgroup MMA's shared-memory bytes and
    128-byte wavefronts once, on its first warp."""
    n = code[pc, F_SUB]
    counters[pc, C_REQUESTS] += 1
    if w & 3 == 0:
        read = 2 * 16 * n + (0 if code[pc, F_OPS + 3] == K_REG else 2 * 64 * 16)
        counters[pc, C_BYTES] += read
        counters[pc, C_WAVEFRONTS] += read // 128
    bf = code[pc, F_TYPE] == T_BF16
    d0, c0, desc_at = _reg(code, pc, 0), _reg(code, pc, 3), _reg(code, pc, 2)
    scale_slot = _reg(code, pc, 4)
    scale = scale_slot == UPT or (regs[w, scale_slot, 0] & 1) != 0
    if code[pc, F_CMP]:
        scale = not scale
    has_c = scale and c0 != RZ
    desc_a, desc_b = _descriptor(regs, w, desc_at), _descriptor(regs, w, desc_at + 2)
    for r in range(16):   # A's row r of this warp: lanes 4 (r % 8) .. + 3
        for col in range(n):
            lane = (r & 7) * 4 + ((col & 7) >> 1)
            i = 4 * (col >> 3) + 2 * (r >> 3) + (col & 1)
            c = 0.0
            if has_c:
                f32_bits[3, 0] = np.uint32(regs[w, c0 + i, lane] & M32)
                c = np.float64(f32v[3, 0])
            s = _dot(code, pc, regs, w, r, col, desc_a, desc_b, shared8, window_base, bf, err, block, c, has_c)
            bits = f32_toward_zero(s, f32_bits, f32v, 1)
            if (active >> lane) & 1 and d0 + i < RZ:
                regs[w, d0 + i, lane] = bits
