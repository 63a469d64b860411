"""Integer, logic, predicate and move opcodes: lowering and semantics.

Each family module declares its opcodes once (`OPS`, ids from the family's range), lowers the
nvdisasm forms into rows (`LOWER`: SASS opcode -> handler) and runs a row on a warp
(`execute`). Uniform-datapath twins (UIADD3, UMOV, ...) share the handlers.
"""
from __future__ import annotations

import struct

import numpy as np
from numba import njit

from ..simt import compare_ordered
from .family import declare
from .lanes import (M32, dst, has, popcount, signed, src_pred, src_u32, src_u64, write, write64)
from .rows import (BOOL, CMP, F_CMP, F_FLAGS, F_OP, F_OPS, F_SUB, FL_BIT64, FL_HI, FL_LEFT, FL_SIGNED,
                   FL_SX32, FL_U32, FL_WIDE, FL_X, K_IMM, P_BASE, RZ, URZ, is_pred, place, put, set_flags,
                   unsupported)

OPS = declare("int", ("MOV", "MOV64", "S2R", "IADD3", "IMAD", "LEA", "LOP3", "PLOP3", "SHF",
                      "ISETP", "PRMT", "IABS", "SEL", "FLO", "POPC", "BREV", "IMNMX", "SGXT",
                      "BMSK", "P2R", "R2P", "I2I", "B2R", "IADDMNMX"))
(O_MOV, O_MOV64, O_S2R, O_IADD3, O_IMAD, O_LEA, O_LOP3, O_PLOP3, O_SHF, O_ISETP, O_PRMT, O_IABS,
 O_SEL, O_FLO, O_POPC, O_BREV, O_IMNMX, O_SGXT, O_BMSK, O_P2R, O_R2P, O_I2I, O_B2R,
 O_IADDMNMX) = OPS.values()
# ctx slots of a BAR.RED's result (memsim.sass.emulate's CTX_RESULT, CTX_RESULT_FLAG)
CTX_RESULT, CTX_RESULT_FLAG = 14, 15

SPECIALS = ("SR_TID.X", "SR_TID.Y", "SR_TID.Z", "SR_CTAID.X", "SR_CTAID.Y", "SR_CTAID.Z",
            "SR_CgaCtaId", "SR_LANEID", "SRZ", "SR_LEMASK", "SR_LTMASK", "SR_GEMASK", "SR_GTMASK",
            "SR_SMID", "SR_NSMID", "SR_WARPID", "SR_EQMASK", "SR_CLOCKLO", "SR_CLOCKHI",
            "SR_GLOBALTIMERLO", "SR_GLOBALTIMERHI", "SR_VIRTUALSMID")
S_TID, S_CTAID, S_CGA, S_LANE, S_ZERO, S_LE, S_LT, S_GE, S_GT, S_SMID, S_NSMID, S_WARPID, S_EQ, \
    S_CLOCKLO, S_CLOCKHI, S_TIMERLO, S_TIMERHI, S_VSMID = 0, 3, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21


# ---- lowering -------------------------------------------------------------------------------

def _mov(ins, mods, ops, row):
    row[F_OP] = O_MOV
    place(row, ops, [0, 1])


def _ldc(ins, mods, ops, row):
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


def _hfma2_mov(ins, mods, ops, row):
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
    if is_pred(ops[1]):   # IMAD.WIDE.U32 Rd, Pc, a, b, c: the carry out of the 64-bit add
        if "WIDE" not in mods:
            raise unsupported(ins, "carry out")
        place(row, ops, [0, 1, 2, 3, 4] + ([5] if len(ops) > 5 else []), dsts=2)
        return
    place(row, ops, [0, None, 1, 2, 3] + ([4] if len(ops) > 4 else []))


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
                          ("U64", FL_BIT64), ("S64", FL_BIT64)))
    place(row, ops, [0, 1, 2, 3])


def compare_mods(mods, row) -> None:
    cmp = [m for m in mods if m in CMP]
    boolean = [m for m in mods if m in BOOL]
    row[F_CMP] = CMP[cmp[0]] | (BOOL[boolean[0]] << 8 if boolean else 1 << 8)


def _isetp(ins, mods, ops, row):
    row[F_OP] = O_ISETP
    compare_mods(mods, row)
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
    """P2R Rd, PR, Rb, mask: the predicate file (operand PR is implied) into Rd."""
    row[F_OP] = O_P2R
    place(row, [o for o in ops if o.text != "PR" and o.kind != "unknown"], [0, None, 1, 2])


def _r2p(ins, mods, ops, row):
    """R2P PR, Ra, mask: Ra's bits into the predicates the mask names."""
    row[F_OP] = O_R2P
    place(row, [None] + [o for o in ops if o.text != "PR" and o.kind != "unknown"], [None, 1, 2], dsts=0)


LOWER = {
    "MOV": _mov, "LDC": _ldc, "S2R": _s2r, "S2UR": _s2r, "CS2R": _cs2r, "IADD3": _iadd3,
    "VIADD": _viadd, "IADD": _viadd, "IMAD": _imad, "LEA": _lea, "LOP3": _lop3, "LOP": _lop,
    "PLOP3": _plop3, "SHF": _shf, "ISETP": _isetp, "PRMT": _prmt,
    "IABS": _simple(O_IABS, [0, 1]), "SEL": _simple(O_SEL, [0, 1, 2, 3]),
    "FLO": _simple(O_FLO, [0, 1]), "POPC": _simple(O_POPC, [0, 1]), "BREV": _simple(O_BREV, [0, 1]),
    "IMNMX": _imnmx, "VIMNMX": _imnmx, "VIADDMNMX": _iaddmnmx, "SGXT": _sgxt, "BMSK": _simple(O_BMSK, [0, 1, 2]),
    "P2R": _p2r, "R2P": _r2p, "B2R": _b2r, "I2I": _i2i, "I2IP": _i2i, "R2UR": _mov, "MOV32I": _mov,
}


# ---- semantics ------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def _lut3(lut, a, b, c):
    r = 0
    for i in range(8):
        if (lut >> i) & 1:
            x = a if i & 4 else ~a
            y = b if i & 2 else ~b
            z = c if i & 1 else ~c
            r |= x & y & z
    return r & M32


B_AND, B_OR = BOOL["AND"], BOOL["OR"]


@njit(cache=True, _nrt=False)
def combine(r, op, p):
    """A comparison's result combined with the predicate operand (.AND, .OR, .XOR)."""
    if op == B_AND:
        return r and p
    if op == B_OR:
        return r or p
    return r != p


@njit(cache=True, _nrt=False)
def _special(which, w, lane, ctx):
    """Special register `which` (SPECIALS' index) of lane `lane` of warp w; ctx holds the block
    shape, the block index and the SM ids (memsim.sass.emulate's CTX_*)."""
    linear = w * 32 + lane
    if which == 0:
        return linear % ctx[0]
    if which == 1:
        return (linear // ctx[0]) % ctx[1]
    if which == 2:
        return linear // (ctx[0] * ctx[1])
    if which <= 5:
        return ctx[3 + which - 3]
    if which == S_LANE:
        return lane
    if which == S_LE:
        return ((1 << (lane + 1)) - 1) & M32
    if which == S_LT:
        return (1 << lane) - 1
    if which == S_GE:
        return (M32 << lane) & M32
    if which == S_GT:
        return (M32 << (lane + 1)) & M32
    if which == S_EQ:
        return 1 << lane
    if which == S_SMID or which == S_VSMID:
        return ctx[9]
    if which == S_NSMID:
        return ctx[10]
    if which == S_WARPID:
        return w
    return 0


@njit(cache=True, _nrt=False)
def _thread_index(which, w, ctx, vec):
    """%tid.x/y/z (which 0-2) of warp w's lanes into vec[0]: one division for the first lane,
    then counted up lane by lane (a division per lane was a tenth of a naive transpose's time)."""
    x = (w * 32) % ctx[0]
    y = ((w * 32) // ctx[0]) % ctx[1]
    z = (w * 32) // (ctx[0] * ctx[1])
    for lane in range(32):
        vec[0, lane] = x if which == 0 else (y if which == 1 else z)
        x += 1
        if x == ctx[0]:
            x = 0
            y += 1
            if y == ctx[1]:
                y = 0
                z += 1


@njit(cache=True, _nrt=False)
def execute(code, pc, op, regs, w, active, vec, ctx):
    flags = code[pc, F_FLAGS]
    d0 = dst(code, pc, 0)
    if op == O_MOV:
        src_u32(code, pc, 1, regs, w, vec, 0)
        write(regs, w, d0, active, vec, 0)
    elif op == O_MOV64:
        src_u64(code, pc, 1, regs, w, vec, 0)
        write64(regs, w, d0, active, vec, 0)
    elif op == O_S2R:
        which = code[pc, F_SUB]
        if which <= 2:
            _thread_index(which, w, ctx, vec)
        else:
            for lane in range(32):
                vec[0, lane] = _special(which, w, lane, ctx)
        write(regs, w, d0, active, vec, 0)
    elif op == O_IADD3:
        _iadd3_lanes(code, pc, regs, w, active, vec)
    elif op == O_IMAD:
        _imad_lanes(code, pc, regs, w, active, vec, flags)
    elif op == O_LEA:
        _lea_lanes(code, pc, regs, w, active, vec, flags)
    elif op == O_LOP3:
        src_u32(code, pc, 2, regs, w, vec, 1)
        src_u32(code, pc, 3, regs, w, vec, 2)
        src_u32(code, pc, 4, regs, w, vec, 3)
        lut = code[pc, F_OPS + 16]
        for lane in range(32):
            vec[0, lane] = _lut3(lut, vec[1, lane], vec[2, lane], vec[3, lane])
        write(regs, w, d0, active, vec, 0)
        if has(code, pc, 1):
            for lane in range(32):
                vec[1, lane] = 1 if vec[0, lane] != 0 else 0
            write(regs, w, dst(code, pc, 1), active, vec, 1)
    elif op == O_PLOP3:
        src_pred(code, pc, 2, regs, w, vec, 1)
        src_pred(code, pc, 3, regs, w, vec, 2)
        src_pred(code, pc, 4, regs, w, vec, 3)
        src_u32(code, pc, 5, regs, w, vec, 0)
        src_u32(code, pc, 6, regs, w, vec, 4)
        for lane in range(32):
            index = vec[1, lane] * 4 + vec[2, lane] * 2 + vec[3, lane]
            vec[0, lane] = (vec[0, lane] >> index) & 1
            vec[4, lane] = (vec[4, lane] >> index) & 1
        write(regs, w, d0, active, vec, 0)
        write(regs, w, dst(code, pc, 1), active, vec, 4)
    elif op == O_SHF:
        _shf_lanes(code, pc, regs, w, active, vec, flags)
    elif op == O_ISETP:
        _isetp_lanes(code, pc, regs, w, active, vec, flags)
    elif op == O_SEL:
        src_u32(code, pc, 1, regs, w, vec, 1)
        src_u32(code, pc, 2, regs, w, vec, 2)
        src_pred(code, pc, 3, regs, w, vec, 3)
        for lane in range(32):
            vec[0, lane] = vec[1, lane] if vec[3, lane] else vec[2, lane]
        write(regs, w, d0, active, vec, 0)
    elif op == O_PRMT:
        _prmt_lanes(code, pc, regs, w, active, vec)
    elif op == O_B2R:
        for lane in range(32):
            vec[0, lane] = ctx[CTX_RESULT]
            vec[1, lane] = ctx[CTX_RESULT_FLAG]
        write(regs, w, d0, active, vec, 0)
        if has(code, pc, 1):
            write(regs, w, dst(code, pc, 1), active, vec, 1)
    else:
        _rare(code, pc, op, regs, w, active, vec, flags)


@njit(cache=True, _nrt=False)
def _iadd3_lanes(code, pc, regs, w, active, vec):
    for lane in range(32):
        vec[0, lane] = 0
    for k in range(3, 6):
        if not has(code, pc, k):
            continue
        mod = code[pc, F_OPS + 3 * k + 2]
        base = F_OPS + 3 * k
        if code[pc, base] == K_IMM or code[pc, base + 1] == RZ or code[pc, base + 1] == URZ:
            x = code[pc, base + 1] if code[pc, base] == K_IMM else 0
            if mod & 2:
                x = ~x
            if mod & 1:   # -x = ~x + 1, with the +1 inside the carry chain
                x = (~x & M32) + 1
            x &= 0x1FFFFFFFF
            for lane in range(32):
                vec[0, lane] += x
            continue
        row = regs[w, code[pc, base + 1]]
        if mod == 0:
            for lane in range(32):
                vec[0, lane] += row[lane]
            continue
        for lane in range(32):
            x = row[lane]
            if mod & 2:
                x = ~x
            if mod & 1:
                x = (~x & M32) + 1
            vec[0, lane] += x & 0x1FFFFFFFF
    if code[pc, F_FLAGS] & FL_X:
        src_pred(code, pc, 6, regs, w, vec, 2)
        src_pred(code, pc, 7, regs, w, vec, 1)
        for lane in range(32):
            vec[0, lane] += vec[2, lane] + vec[1, lane]
    write(regs, w, dst(code, pc, 0), active, vec, 0)
    _write_carry(code, pc, 1, 32, regs, w, active, vec)
    _write_carry(code, pc, 2, 33, regs, w, active, vec)


@njit(cache=True, _nrt=False)
def _imad_lanes(code, pc, regs, w, active, vec, flags):
    src_u32(code, pc, 2, regs, w, vec, 1)
    src_u32(code, pc, 3, regs, w, vec, 2)
    src_u32(code, pc, 4, regs, w, vec, 3)
    d0 = dst(code, pc, 0)
    is_signed = not flags & FL_U32 and flags & (FL_HI | FL_WIDE)
    if is_signed:
        for lane in range(32):
            vec[1, lane] = signed(vec[1, lane])
            vec[2, lane] = signed(vec[2, lane])
    if flags & (FL_WIDE | FL_HI):
        cs = dst(code, pc, 4) if code[pc, F_OPS + 12] != K_IMM else -1
        for lane in range(32):
            if cs >= 0 and cs != RZ and cs != URZ:
                vec[4, lane] = regs[w, cs + 1, lane] & M32
            elif cs < 0 and flags & FL_WIDE:
                vec[4, lane] = M32 if vec[3, lane] & 0x80000000 else 0
            else:
                vec[4, lane] = 0
        if flags & FL_WIDE:
            carry = has(code, pc, 1)
            if flags & FL_X:   # IMAD.WIDE.U32.X: plus the carry in
                src_pred(code, pc, 5, regs, w, vec, 5)
            for lane in range(32):
                product = np.uint64(vec[1, lane] * vec[2, lane])
                if flags & FL_X:
                    product += np.uint64(vec[5, lane])
                total = product + np.uint64(vec[3, lane] | (vec[4, lane] << 32))
                vec[0, lane] = np.int64(total)
                vec[5, lane] = 1 if carry and total < product else 0
            write64(regs, w, d0, active, vec, 0)
            if carry:
                write(regs, w, dst(code, pc, 1), active, vec, 5)
        else:
            # The addend is the register pair c:c+1 (ptxas zeroes c and puts x in c+1 for
            # mulhi(vec, 1, vec, 2) + x): the high word of a * b + (c+1 << 32 | c).
            for lane in range(32):
                wide_c = np.uint64(vec[3, lane]) | (np.uint64(vec[4, lane]) << np.uint64(32))
                if flags & FL_U32:
                    product = np.uint64(vec[1, lane]) * np.uint64(vec[2, lane])
                else:
                    product = np.uint64(vec[1, lane] * vec[2, lane])
                vec[0, lane] = np.int64((product + wide_c) >> np.uint64(32)) & M32
            write(regs, w, d0, active, vec, 0)
        return
    if flags & FL_X:
        src_pred(code, pc, 5, regs, w, vec, 4)
        for lane in range(32):
            vec[0, lane] = vec[1, lane] * vec[2, lane] + vec[3, lane] + vec[4, lane]
    else:
        for lane in range(32):
            vec[0, lane] = vec[1, lane] * vec[2, lane] + vec[3, lane]
    write(regs, w, d0, active, vec, 0)


@njit(cache=True, _nrt=False)
def _lea_lanes(code, pc, regs, w, active, vec, flags):
    src_u32(code, pc, 2, regs, w, vec, 1)
    src_u32(code, pc, 3, regs, w, vec, 2)
    src_u32(code, pc, 5, regs, w, vec, 4)
    if flags & FL_HI:
        if flags & FL_SX32:
            for lane in range(32):
                vec[3, lane] = M32 if vec[1, lane] & 0x80000000 else 0
        else:
            src_u32(code, pc, 4, regs, w, vec, 3)
        for lane in range(32):
            wide = np.uint64(vec[1, lane] | (vec[3, lane] << 32))
            vec[0, lane] = (np.int64((wide << np.uint64(vec[4, lane] & 63)) >> np.uint64(32)) & M32) + vec[2, lane]
    else:
        for lane in range(32):
            vec[0, lane] = ((vec[1, lane] << (vec[4, lane] & 63)) & M32) + vec[2, lane]
    if flags & FL_X:
        src_pred(code, pc, 6, regs, w, vec, 1)
        for lane in range(32):
            vec[0, lane] += vec[1, lane]
    write(regs, w, dst(code, pc, 0), active, vec, 0)
    _write_carry(code, pc, 1, 32, regs, w, active, vec)


@njit(cache=True, _nrt=False)
def _write_carry(code, pc, k, bit, regs, w, active, vec):
    """Bit `bit` of the wide sums in vec[0] to predicate operand k, where the row has one
    (IADD3's two carries, LEA's)."""
    if not has(code, pc, k):
        return
    for lane in range(32):
        vec[1, lane] = (vec[0, lane] >> bit) & 1
    write(regs, w, dst(code, pc, k), active, vec, 1)


@njit(cache=True, _nrt=False)
def _shf_lanes(code, pc, regs, w, active, vec, flags):
    src_u32(code, pc, 1, regs, w, vec, 1)
    src_u32(code, pc, 2, regs, w, vec, 2)
    src_u32(code, pc, 3, regs, w, vec, 3)
    limit = 64 if flags & FL_BIT64 else 32
    for lane in range(32):
        n = min(vec[2, lane], limit)
        if flags & FL_LEFT:
            wide = np.uint64(vec[1, lane] | (vec[3, lane] << 32))
            v = np.int64(wide << np.uint64(n)) if n < 64 else np.int64(0)
        elif flags & FL_SIGNED:
            v = (vec[1, lane] | (signed(vec[3, lane]) << 32)) >> min(n, 63)
        else:
            wide = np.uint64(vec[1, lane] | (vec[3, lane] << 32))
            v = np.int64(wide >> np.uint64(n)) if n < 64 else np.int64(0)
        vec[0, lane] = ((v >> 32) if flags & FL_HI else v) & M32
    write(regs, w, dst(code, pc, 0), active, vec, 0)


@njit(cache=True, _nrt=False)
def _isetp_lanes(code, pc, regs, w, active, vec, flags):
    src_u32(code, pc, 2, regs, w, vec, 0)
    src_u32(code, pc, 3, regs, w, vec, 1)
    src_pred(code, pc, 4, regs, w, vec, 2)
    if flags & FL_X:
        src_pred(code, pc, 5, regs, w, vec, 3)
    cmp = code[pc, F_CMP] & 255
    boolop = code[pc, F_CMP] >> 8
    for lane in range(32):
        x, y = vec[0, lane], vec[1, lane]
        if not flags & FL_U32:
            x, y = signed(x), signed(y)
        t = compare_ordered(cmp, x, y)
        if flags & FL_X:
            if cmp == 0:
                t = t and vec[3, lane] != 0
            elif cmp == 1:
                t = t or vec[3, lane] != 0
            else:   # the high words decide unless equal; then the low words' result
                t = (x < y if cmp <= 3 else x > y) or (x == y and vec[3, lane] != 0)
        vec[0, lane] = 1 if combine(t, boolop, vec[2, lane] != 0) else 0
        vec[4, lane] = 1 if combine(not t, boolop, vec[2, lane] != 0) else 0
    write(regs, w, dst(code, pc, 0), active, vec, 0)
    write(regs, w, dst(code, pc, 1), active, vec, 4)


@njit(cache=True, _nrt=False)
def _prmt_lanes(code, pc, regs, w, active, vec):
    src_u32(code, pc, 1, regs, w, vec, 1)
    src_u32(code, pc, 2, regs, w, vec, 2)
    src_u32(code, pc, 3, regs, w, vec, 3)
    for lane in range(32):
        pool = vec[1, lane] | (vec[3, lane] << 32)
        v = 0
        for k in range(4):
            nib = (vec[2, lane] >> (4 * k)) & 0xF
            byte = (pool >> (8 * (nib & 7))) & 0xFF
            if nib & 8:
                byte = 0xFF if byte & 0x80 else 0
            v |= byte << (8 * k)
        vec[0, lane] = v
    write(regs, w, dst(code, pc, 0), active, vec, 0)


@njit(cache=True, _nrt=False)
def _rare(code, pc, op, regs, w, active, vec, flags):
    d0 = dst(code, pc, 0)
    src_u32(code, pc, 1, regs, w, vec, 1)
    if op == O_IABS:
        for lane in range(32):
            vec[0, lane] = abs(signed(vec[1, lane])) & M32
    elif op == O_FLO:   # position of the highest set bit (highest clear one for negative S32)
        for lane in range(32):
            x = vec[1, lane]
            if flags & FL_SIGNED and x & 0x80000000:
                x = ~x & M32
            n = -1
            while x:
                x >>= 1
                n += 1
            vec[0, lane] = (31 - n if flags & FL_HI and n >= 0 else n) & M32
    elif op == O_POPC:
        for lane in range(32):
            vec[0, lane] = popcount(vec[1, lane])
    elif op == O_BREV:
        for lane in range(32):
            x, v = vec[1, lane], 0
            for k in range(32):
                v |= ((x >> k) & 1) << (31 - k)
            vec[0, lane] = v
    elif op == O_IMNMX:
        src_u32(code, pc, 2, regs, w, vec, 2)
        src_pred(code, pc, 3, regs, w, vec, 3)
        for lane in range(32):
            x, y = vec[1, lane], vec[2, lane]
            if not flags & FL_U32:
                x, y = signed(x), signed(y)
            vec[0, lane] = (min(x, y) if vec[3, lane] else max(x, y)) & M32
    elif op == O_IADDMNMX:
        src_u32(code, pc, 2, regs, w, vec, 2)
        src_u32(code, pc, 3, regs, w, vec, 3)
        src_pred(code, pc, 4, regs, w, vec, 4)
        for lane in range(32):
            x, y = (vec[1, lane] + vec[2, lane]) & M32, vec[3, lane]
            if not flags & FL_U32:
                x, y = signed(x), signed(y)
            vec[0, lane] = (min(x, y) if vec[4, lane] else max(x, y)) & M32
    elif op == O_SGXT:   # sign- (or zero-) extend the low b bits
        src_u32(code, pc, 2, regs, w, vec, 2)
        for lane in range(32):
            n = vec[2, lane] & 63
            if n == 0:
                vec[0, lane] = 0
            elif n >= 32:
                vec[0, lane] = vec[1, lane]
            else:
                v = vec[1, lane] & ((1 << n) - 1)
                if not flags & FL_U32 and (v >> (n - 1)) & 1:
                    v |= (M32 << n) & M32
                vec[0, lane] = v
    elif op == O_BMSK:   # b ones from bit a
        src_u32(code, pc, 2, regs, w, vec, 2)
        for lane in range(32):
            pos, n = vec[1, lane] & 31, vec[2, lane] & 63
            vec[0, lane] = (((1 << min(n, 32)) - 1) << pos) & M32
    elif op == O_P2R:    # P2R Rd, PR, Rb, mask: predicates P0..P6 as bits, masked, into b's other bits
        src_u32(code, pc, 2, regs, w, vec, 2)
        src_u32(code, pc, 3, regs, w, vec, 3)
        for lane in range(32):
            v = 0
            for k in range(7):
                v |= (1 if regs[w, P_BASE + k, lane] != 0 else 0) << k
            vec[0, lane] = (v & vec[3, lane]) | (vec[2, lane] & ~vec[3, lane] & M32)
    elif op == O_R2P:    # R2P PR, Ra, mask
        src_u32(code, pc, 2, regs, w, vec, 2)
        for lane in range(32):
            if (active >> lane) & 1:
                for k in range(7):
                    if (vec[2, lane] >> k) & 1:
                        regs[w, P_BASE + k, lane] = (vec[1, lane] >> k) & 1
        return
    elif op == O_I2I:
        sub = code[pc, F_SUB]
        for lane in range(32):
            x = signed(vec[1, lane]) if not flags & FL_U32 else vec[1, lane]
            if sub == 11:      # S8
                v = min(max(x, -128), 127)
            elif sub == 10:    # U8
                v = min(max(x, 0), 255)
            elif sub == 9:     # S16
                v = min(max(x, -32768), 32767)
            elif sub == 8:     # U16
                v = min(max(x, 0), 65535)
            else:
                v = x
            vec[0, lane] = v & M32
    write(regs, w, d0, active, vec, 0)
