"""The int64 row every lowered SASS instruction becomes, and the helpers that fill one.

Every register lives in one slot space: R0..R254 and RZ, UR0..UR62 and URZ, P0..P6 and PT,
UP0..UP6 and UPT, and a sink that absorbs writes to RZ/URZ/PT. A row holds the opcode id, flags,
guard, branch target, source line, and up to 8 operands in an opcode-specific fixed order
(kind, value, modifier bits), then the memory address, then which operands it writes.
The opcode families (memsim/engine/sass/ops_*.py) lower into rows with `put` and `place` and read
them back in their Numba semantics; nothing else needs to know the layout.
"""
from __future__ import annotations

import struct

import numpy as np

from ...errors import UnsupportedInstruction
from .parser import Operand, SassInstruction

# Round-trip steps of the warp scoreboard (memsim/engine/sass/emulate.py): a warp's clock counts
# global round trips in its high bits and constant-cache ones in its low bits, so that the
# largest clock is the path with the most global round trips.
GLOBAL_ROUND_TRIP, CONSTANT_ROUND_TRIP = 1 << 20, 1

# Register slots.
RZ, UR_BASE, URZ, P_BASE, PT, UP_BASE, UPT, SINK = 255, 256, 319, 320, 327, 328, 335, 336
N_SLOTS = 337

# Row fields: header, then 8 operands of (kind, value, modifiers), then the memory address,
# then which operands the instruction writes (bit k: operand k; for register_operands).
(F_OP, F_FLAGS, F_GUARD, F_GNEG, F_TARGET, F_LINE, F_WIDTH, F_CMP, F_UNIFORM) = range(9)
F_OPS = 9
N_OPERANDS = 8
F_MBASE, F_MWIDE, F_MUR, F_MOFF = F_OPS + 3 * N_OPERANDS, F_OPS + 3 * N_OPERANDS + 1, \
    F_OPS + 3 * N_OPERANDS + 2, F_OPS + 3 * N_OPERANDS + 3
F_WRITES = F_MOFF + 1
F_SUB = F_WRITES + 1       # an opcode family's sub-operation (shuffle mode, atomic op, MUFU function)
F_TYPE = F_SUB + 1         # a data type code (TYPES)
F_WIDE_OPS = F_TYPE + 1    # bit k: operand k spans a register pair (64-bit values)
NF = F_WIDE_OPS + 1

K_NONE, K_REG, K_IMM, K_CONST = 0, 1, 2, 3
M_NEG, M_NOT, M_FNEG, M_FABS = 1, 2, 4, 8

# Flags.
FL_X, FL_HI, FL_WIDE, FL_U32, FL_SX32, FL_FTZ, FL_LEFT, FL_SIGNED, FL_RP, FL_FLOAT = \
    1, 2, 4, 8, 16, 32, 64, 128, 256, 512
FL_GLOBAL, FL_SHARED = 1024, 2048
FL_BIT64 = 4096
FL_LOCAL = 8192
FL_RM, FL_RZ_ROUND, FL_RN = 16384, 32768, 65536
FL_SAT = 1 << 17
FL_ALL = 1 << 18
FL_DIRECT = 1 << 19        # BAR.SYNC's barrier id / SHFL's uniform operands
FL_GENERIC = 1 << 20       # LD/ST: a generic address, global or (high word SR_SWINHI) shared, per lane
# Rounding and clamping modifiers of float conversions and arithmetic, as row flags.
ROUNDING = (("RM", FL_RM), ("RP", FL_RP), ("RZ", FL_RZ_ROUND), ("TRUNC", FL_RZ_ROUND),
            ("FLOOR", FL_RM), ("CEIL", FL_RP), ("RN", FL_RN), ("FTZ", FL_FTZ), ("SAT", FL_SAT))
MEMORY_SPACE_FLAGS = FL_GLOBAL | FL_SHARED | FL_LOCAL

CMP = {c: i for i, c in enumerate(("EQ", "NE", "LT", "LE", "GT", "GE", "EQU", "NEU", "LTU", "LEU",
                                   "GTU", "GEU", "NUM", "NAN", "F", "T"))}
BOOL = {"AND": 1, "OR": 2, "XOR": 3}
# Data types of conversions, atomics and reductions.
TYPES = {t: i for i, t in enumerate(("U32", "S32", "U64", "S64", "F32", "F64", "F16", "BF16",
                                     "U16", "S16", "U8", "S8", "F16x2", "BF16x2"))}
T_U32, T_S32, T_U64, T_S64, T_F32, T_F64, T_F16, T_BF16, T_U16, T_S16, T_U8, T_S8, T_F16X2, T_BF16X2 = range(14)


def slot(op: Operand, dst: bool = False) -> int:
    if op.kind == "reg":
        n = op.value
    elif op.kind == "ureg":
        n = URZ if op.value == 63 else UR_BASE + op.value
    elif op.kind == "pred":
        n = P_BASE + op.value
    elif op.kind == "upred":
        n = UP_BASE + op.value
    else:
        raise ValueError(op.kind)
    if dst and n in (RZ, URZ, PT, UPT):
        return SINK
    return n


def is_pred(op: Operand) -> bool:
    return op.kind in ("pred", "upred")


def unsupported(ins: SassInstruction, what: str = "") -> UnsupportedInstruction:
    detail = f" ({what})" if what else ""
    return UnsupportedInstruction(f"SASS opcode {'.'.join((ins.opcode, *ins.mods))} is not emulated"
                                  f"{detail}: `{ins.text}`")


def put(row: np.ndarray, k: int, op: Operand | None, dst: bool = False, floating: bool = False,
        wide: bool = False) -> None:
    """Operand k of the row: a register slot, an immediate (32-bit pattern; 64-bit for `wide`
    float immediates) or a constant-bank reference, with its -, ~ and |x| marks."""
    base = F_OPS + 3 * k
    if op is None:
        row[base] = K_NONE
        return
    mod = 0
    if op.kind in ("reg", "ureg", "pred", "upred"):
        row[base], row[base + 1] = K_REG, slot(op, dst)
        row[F_WRITES] |= int(dst) << k
    elif op.kind == "imm":
        row[base], row[base + 1] = K_IMM, op.value & (0xFFFFFFFFFFFFFFFF if wide else 0xFFFFFFFF)
    elif op.kind == "fimm":
        if wide:
            row[base + 1] = struct.unpack("<q", struct.pack("<d", op.fvalue))[0]
        else:
            row[base + 1] = struct.unpack("<I", struct.pack("<f", op.fvalue))[0]
        row[base] = K_IMM
        if floating:
            op = Operand("fimm")  # the sign is in the value already
    elif op.kind == "const" and op.index < 0:
        row[base], row[base + 1] = K_CONST, (op.bank << 32) | op.value
    else:
        raise UnsupportedInstruction(f"operand `{op.text or op.kind}` where a value is expected")
    if wide:
        row[F_WIDE_OPS] |= 1 << k
    if op.negate:
        mod |= M_FNEG if floating else M_NEG
    if op.invert:
        mod |= M_NOT
    if op.absolute:
        mod |= M_FABS
    row[base + 2] = mod


def place(row, ops, layout, floating=False, dsts=1, wide=()) -> None:
    """Operands by layout: layout[k] is an index into ops, an Operand, or None."""
    for k, op in enumerate(layout):
        if op is not None:
            put(row, k, ops[op] if isinstance(op, int) else op, dst=k < dsts, floating=floating,
                wide=k in wide)


def set_flags(row: np.ndarray, mods, table) -> None:
    for m, f in table:
        if m in mods:
            row[F_FLAGS] |= f


def type_of(mods, default: str = "U32") -> int:
    for m in mods:
        if m in TYPES:
            return TYPES[m]
    if "64" in mods:
        return T_U64
    return TYPES[default]
