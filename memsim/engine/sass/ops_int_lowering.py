"""The int family's lowering: nvdisasm's integer, logic, predicate and move forms into rows
(`LOWER`: SASS opcode -> handler), with the opcode ids and special registers ops_int declares.
The rows run in ops_int.execute."""
from __future__ import annotations

import struct

import numpy as np

from .ops_int import (SPECIALS, O_MOV, O_MOV64, O_S2R, O_IADD3, O_IMAD, O_LEA, O_LOP3, O_PLOP3, O_SHF,
                      O_ISETP, O_PRMT, O_IABS, O_SEL, O_FLO, O_POPC, O_BREV, O_IMNMX, O_IMNMX3, O_SGXT, O_BMSK, O_P2R,
                      O_R2P, O_I2I, O_B2R, O_IADDMNMX)
from .rows import (BOOL, CMP, F_CMP, F_FLAGS, F_OP, F_OPS, F_SUB, F_UNIFORM, FL_BIT64, FL_HI, FL_LEFT, FL_SIGNED,
                   FL_SX32, FL_U32, FL_WIDE, FL_X, K_IMM, RZ, is_pred, place, put, set_flags, unsupported)


# ---- lowering -------------------------------------------------------------------------------

def lower_mov(ins, mods, ops, row):
    row[F_OP] = O_MOV
    place(row, ops, [0, 1])


def lower_ldc(ins, mods, ops, row):
    row[F_OP] = O_MOV64 if "64" in mods else O_MOV
    place(row, ops, [0, 1])


def _cs2r(ins, mods, ops, row):
    row[F_OP] = O_MOV64
    put(row, 0, ops[0], dst=True)
    row[F_OPS + 3], row[F_OPS + 4] = K_IMM, 0


def _s2r(ins, mods, ops, row):
    row[F_OP] = O_S2R
    name = ops[1].text
    if name not in SPECIALS:
        raise unsupported(ins, f"special register {name}")
    put(row, 0, ops[0], dst=True)
    row[F_SUB] = SPECIALS.index(name)


def hfma2_mov(ins, mods, ops, row):
    """HFMA2.MMA Rd, -RZ, RZ, hi, lo: ptxas' way of materialising a 32-bit constant."""
    hi, lo = (struct.unpack("<H", np.float16(o.fvalue if o.kind == "fimm" else o.value).tobytes())[0]
              for o in ops[3:5])
    row[F_OP] = O_MOV
    put(row, 0, ops[0], dst=True)
    row[F_OPS + 3], row[F_OPS + 4] = K_IMM, (hi << 16) | lo


def is_constant_hfma2(ops) -> bool:
    return (len(ops) == 5 and ops[1].kind == "reg" and ops[1].value == RZ and ops[2].kind == "reg"
            and ops[2].value == RZ)


def _iadd3(ins, mods, ops, row):
    row[F_OP] = O_IADD3
    if "64" in mods:   # (U)IADD3.64 d, a, b, c: register pairs (ptxas adds wgmma descriptors so)
        if len(ops) != 4 or any(is_pred(o) for o in ops) or set(mods) != {"64"}:
            raise unsupported(ins)
        row[F_FLAGS] |= FL_BIT64
        put(row, 0, ops[0], dst=True, wide=True)
        for k, o in zip((3, 4, 5), ops[1:]):
            put(row, k, o, wide=True)
        return
    set_flags(row, mods, (("X", FL_X),))
    carries_out = [o for o in ops[1:3] if is_pred(o)]
    rest = ops[1 + len(carries_out):]
    layout = [ops[0]] + (carries_out + [None, None])[:2] + rest[:3] + (rest[3:] + [None, None])[:2]
    place(row, layout, list(range(len(layout))), dsts=3)


def _viadd(ins, mods, ops, row):
    row[F_OP] = O_IADD3
    put(row, 0, ops[0], dst=True)
    put(row, 3, ops[1])
    put(row, 4, ops[2])


def _imad(ins, mods, ops, row):
    row[F_OP] = O_IMAD
    set_flags(row, mods, (("X", FL_X), ("HI", FL_HI), ("WIDE", FL_WIDE), ("U32", FL_U32)))
    if is_pred(ops[1]):   # IMAD.WIDE.U32 / IMAD.HI.U32 Rd, Pc, a, b, c: the carry out of the 64-bit add
        if "WIDE" not in mods and "HI" not in mods:
            raise unsupported(ins, "carry out")
        place(row, ops, [0, 1, 2, 3, 4] + ([5] if len(ops) > 5 else []), dsts=2,
              wide=_constant_addend(mods, ops[4]))
        return
    place(row, ops, [0, None, 1, 2, 3] + ([4] if len(ops) > 4 else []), wide=_constant_addend(mods, ops[3]))


def _constant_addend(mods, addend) -> tuple[int, ...]:
    """IMAD.WIDE/.HI's addend is a 64-bit pair; from bank 0 (sm_80 code adds a pointer
    parameter straight from c[0x0][0x160], where sm_90 code loads it first) it is read as 8
    bytes, or the pointer's high word would be lost."""
    wide = "WIDE" in mods or "HI" in mods
    return (4,) if wide and addend.kind == "const" else ()


def _lea(ins, mods, ops, row):
    row[F_OP] = O_LEA
    set_flags(row, mods, (("X", FL_X), ("HI", FL_HI), ("SX32", FL_SX32)))
    rest = ops[1:]
    carry_out = rest.pop(0) if is_pred(rest[0]) else None
    a, b = rest.pop(0), rest.pop(0)
    hi = rest.pop(0) if "HI" in mods and "SX32" not in mods else None
    shift = rest.pop(0)
    carry_in = rest.pop(0) if rest else None
    for k, op in enumerate([ops[0], carry_out, a, b, hi, shift, carry_in]):
        put(row, k, op, dst=k < 2)


def _lop3(ins, mods, ops, row):
    row[F_OP] = O_LOP3
    if is_pred(ops[0]):
        layout = [ops[1], ops[0], ops[2], ops[3], ops[4], ops[5]] + ops[6:7]
    else:
        layout = [ops[0], None, ops[1], ops[2], ops[3], ops[4]] + ops[5:6]
    for k, op in enumerate(layout):
        put(row, k, op, dst=k < 2)


def _lop(ins, mods, ops, row):
    """The two-input LOP (AND, OR, XOR, PASS_B) as LOP3 with the matching table."""
    table = {"AND": 0xC0, "OR": 0xFC, "XOR": 0x3C, "PASS_B": 0xCC}
    fn = [m for m in mods if m in table]
    if not fn or is_pred(ops[0]):
        raise unsupported(ins)
    row[F_OP] = O_LOP3
    put(row, 0, ops[0], dst=True)
    put(row, 2, ops[1])
    put(row, 3, ops[2])
    row[F_OPS + 12], row[F_OPS + 13] = K_IMM, 0
    row[F_OPS + 15], row[F_OPS + 16] = K_IMM, table[fn[0]]


def _plop3(ins, mods, ops, row):
    row[F_OP] = O_PLOP3
    place(row, ops, [0, 1, 2, 3, 4, 5, 6], dsts=2)


def _shf(ins, mods, ops, row):
    row[F_OP] = O_SHF
    set_flags(row, mods, (("L", FL_LEFT), ("HI", FL_HI), ("S32", FL_SIGNED), ("S64", FL_SIGNED),
                          ("U64", FL_BIT64), ("S64", FL_BIT64), ("W", FL_WIDE)))   # .W: the shift wraps
    place(row, ops, [0, 1, 2, 3])


def compare_mods(ins, mods, row) -> None:
    cmp = [m for m in mods if m in CMP]
    if not cmp:     # DSETP.MAX/.MIN and the like: a choice of the larger, not a comparison
        raise unsupported(ins, "a MAX or MIN choice, not a comparison")
    boolean = [m for m in mods if m in BOOL]
    row[F_CMP] = CMP[cmp[0]] | (BOOL[boolean[0]] << 8 if boolean else 1 << 8)


def _isetp(ins, mods, ops, row):
    row[F_OP] = O_ISETP
    compare_mods(ins, mods, row)
    set_flags(row, mods, (("U32", FL_U32), ("EX", FL_X)))
    place(row, ops, list(range(len(ops))), dsts=2)


def _prmt(ins, mods, ops, row):
    if mods:
        raise unsupported(ins, "PRMT mode")
    row[F_OP] = O_PRMT
    place(row, ops, [0, 1, 2, 3])


def _simple(op, layout):
    def handler(ins, mods, ops, row):
        row[F_OP] = op
        set_flags(row, mods, (("U32", FL_U32), ("SH", FL_HI), ("S32", FL_SIGNED), ("C", FL_X)))
        place(row, ops, layout)
    return handler


def _imnmx(ins, mods, ops, row):
    """IMNMX/VIMNMX Rd, Ra, Rb, P: min where P holds, max where not."""
    row[F_OP] = O_IMNMX
    set_flags(row, mods, (("U32", FL_U32),))
    place(row, ops, [0, 1, 2, 3])


def _iaddmnmx(ins, mods, ops, row):
    """VIADDMNMX Rd, Ra, Rb, Rc, P: min (P) or max of a + b and c."""
    row[F_OP] = O_IADDMNMX
    set_flags(row, mods, (("U32", FL_U32),))
    place(row, ops, [0, 1, 2, 3, 4])


def _imnmx3(ins, mods, ops, row):
    """VIMNMX3 Rd, Ra, Rb, Rc, P (sm_90, from min(a, min(b, c))): min of the three where P
    holds, max where not."""
    row[F_OP] = O_IMNMX3
    set_flags(row, mods, (("U32", FL_U32),))
    place(row, ops, [0, 1, 2, 3, 4])


def _sgxt(ins, mods, ops, row):
    row[F_OP] = O_SGXT
    set_flags(row, mods, (("U32", FL_U32), ("W", FL_WIDE)))
    place(row, ops, [0, 1, 2])


def _i2i(ins, mods, ops, row):
    """I2I / I2IP narrowing with saturation (I2I.S8.S32.SAT, I2I.U16.U32.SAT ...)."""
    from .rows import TYPES
    types = [m for m in mods if m in TYPES]
    if len(types) < 1:
        raise unsupported(ins)
    row[F_OP] = O_I2I
    row[F_SUB] = TYPES[types[0]]
    place(row, ops, [0, 1])


def _b2r(ins, mods, ops, row):
    """B2R.RESULT Rd[, Pd]: the block-wide result of the last BAR.RED."""
    if "RESULT" not in mods:
        raise unsupported(ins)
    row[F_OP] = O_B2R
    put(row, 0, ops[0], dst=True)
    put(row, 1, ops[1] if len(ops) > 1 else None, dst=True)


def _p2r(ins, mods, ops, row):
    """P2R Rd, PR, Rb, mask: the predicate file (operand PR is implied) into Rd. UP2UR URd,
    UPR, URb, mask: the uniform predicates into a uniform register (ptxas keeps a block-uniform
    bool across a loop that way: candle's index_select)."""
    row[F_OP] = O_P2R
    if ins.opcode == "UP2UR":
        row[F_UNIFORM] = 1
    place(row, [o for o in ops if o.kind not in ("pr", "unknown")], [0, None, 1, 2])


def _r2p(ins, mods, ops, row):
    """R2P PR, Ra, mask: Ra's bits into the predicates the mask names."""
    row[F_OP] = O_R2P
    place(row, [None] + [o for o in ops if o.text != "PR" and o.kind != "unknown"], [None, 1, 2], dsts=0)


LOWER = {
    "MOV": lower_mov, "LDC": lower_ldc, "S2R": _s2r, "S2UR": _s2r, "CS2R": _cs2r, "IADD3": _iadd3,
    "VIADD": _viadd, "IADD": _viadd, "IMAD": _imad, "LEA": _lea, "LOP3": _lop3, "LOP": _lop,
    "PLOP3": _plop3, "SHF": _shf, "ISETP": _isetp, "PRMT": _prmt,
    "IABS": _simple(O_IABS, [0, 1]), "SEL": _simple(O_SEL, [0, 1, 2, 3]),
    "FLO": _simple(O_FLO, [0, 1]), "POPC": _simple(O_POPC, [0, 1]), "BREV": _simple(O_BREV, [0, 1]),
    "IMNMX": _imnmx, "VIMNMX": _imnmx, "VIADDMNMX": _iaddmnmx, "VIMNMX3": _imnmx3, "SGXT": _sgxt, "BMSK": _simple(O_BMSK, [0, 1, 2]),
    "P2R": _p2r, "UP2UR": _p2r, "R2P": _r2p, "B2R": _b2r, "I2I": _i2i, "I2IP": _i2i, "R2UR": lower_mov, "MOV32I": lower_mov,
}
