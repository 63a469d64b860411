"""Integer, logic, predicate and move opcodes: their declaration and semantics.

Each family module declares its opcodes once (`OPS`, ids from the family's range), lowers the
nvdisasm forms into rows (`LOWER`: SASS opcode -> handler) and runs a row on a warp
(`execute`). Uniform-datapath twins (UIADD3, UMOV, ...) share the handlers. This family, the
largest, keeps its lowering in ops_int_lowering.py.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..memory import SHARED_WINDOW_HI
from ..simt import compare_ordered
from .family import declare
from .lanes import (M32, dst, has, popcount, signed, src_pred, src_u32, src_u64, write, write64)
from .rows import (BOOL, F_CMP, F_FLAGS, F_OPS, F_SUB, F_UNIFORM, F_WIDE_OPS, FL_BIT64, FL_HI, FL_LEFT, FL_SIGNED,
                   FL_SX32, FL_U32, FL_WIDE, FL_X, K_IMM, P_BASE, RZ, UP_BASE, URZ)

OPS = declare("int", ("MOV", "MOV64", "S2R", "IADD3", "IMAD", "LEA", "LOP3", "PLOP3", "SHF",
                      "ISETP", "PRMT", "IABS", "SEL", "FLO", "POPC", "BREV", "IMNMX", "SGXT",
                      "BMSK", "P2R", "R2P", "I2I", "B2R", "IADDMNMX", "IMNMX3"))
(O_MOV, O_MOV64, O_S2R, O_IADD3, O_IMAD, O_LEA, O_LOP3, O_PLOP3, O_SHF, O_ISETP, O_PRMT, O_IABS,
 O_SEL, O_FLO, O_POPC, O_BREV, O_IMNMX, O_SGXT, O_BMSK, O_P2R, O_R2P, O_I2I, O_B2R,
 O_IADDMNMX, O_IMNMX3) = OPS.values()
# ctx slots of a BAR.RED's result (memsim.engine.sass.emulate's CTX_RESULT, CTX_RESULT_FLAG)
CTX_RESULT, CTX_RESULT_FLAG = 14, 15

SPECIALS = ("SR_TID.X", "SR_TID.Y", "SR_TID.Z", "SR_CTAID.X", "SR_CTAID.Y", "SR_CTAID.Z",
            "SR_CgaCtaId", "SR_LANEID", "SRZ", "SR_LEMASK", "SR_LTMASK", "SR_GEMASK", "SR_GTMASK",
            "SR_SMID", "SR_NSMID", "SR_WARPID", "SR_EQMASK", "SR_CLOCKLO", "SR_CLOCKHI",
            "SR_GLOBALTIMERLO", "SR_GLOBALTIMERHI", "SR_VIRTUALSMID", "SR_SWINHI")
S_TID, S_CTAID, S_CGA, S_LANE, S_ZERO, S_LE, S_LT, S_GE, S_GT, S_SMID, S_NSMID, S_WARPID, S_EQ, \
    S_CLOCKLO, S_CLOCKHI, S_TIMERLO, S_TIMERHI, S_VSMID, S_SWINHI = \
    0, 3, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22


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
    shape, the block index and the SM ids (memsim.engine.sass.emulate's CTX_*)."""
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
    if which == S_SWINHI:
        return SHARED_WINDOW_HI
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
    elif op == O_IADD3 and flags & FL_BIT64:
        _iadd3_64(code, pc, regs, w, active, vec)
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
    _write_carries(code, pc, regs, w, active, vec, 2)


@njit(cache=True, _nrt=False)
def _iadd3_64(code, pc, regs, w, active, vec):
    """IADD3.64: the sum of three 64-bit register pairs (or wide immediates), each with its - and ~."""
    for lane in range(32):
        vec[0, lane] = 0
    for k in range(3, 6):
        if not has(code, pc, k):
            continue
        src_u64(code, pc, k, regs, w, vec, 1)
        mod = code[pc, F_OPS + 3 * k + 2]
        for lane in range(32):
            x = vec[1, lane]
            if mod & 2:   # ~
                x = ~x
            if mod & 1:   # -
                x = -x
            vec[0, lane] += x
    write64(regs, w, dst(code, pc, 0), active, vec, 0)


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
            elif cs < 0 and (code[pc, F_WIDE_OPS] >> 4) & 1:   # a 64-bit constant addend
                vec[4, lane] = (code[pc, F_OPS + 13] >> 32) & M32
            elif cs < 0 and flags & FL_WIDE:
                vec[4, lane] = M32 if vec[3, lane] & 0x80000000 else 0
            else:
                vec[4, lane] = 0
        carry = has(code, pc, 1)   # Rd, Pc, a, b, c: the carry out of the 64-bit add (WIDE, HI)
        if flags & FL_WIDE:
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
        else:
            # The addend is the register pair c:c+1 (ptxas zeroes c and puts x in c+1 for
            # mulhi(vec, 1, vec, 2) + x): the high word of a * b + (c+1 << 32 | c).
            # IMAD.HI.U32 Rd, Pc, a, b, c also writes the carry out of that 64-bit add: the
            # 64 x 64 -> high 64 multiply of __cuda_sm20_div_u64/s64 (any 64-bit `/` or `%`
            # by a variable) chains it into IADD3.X; the chain only gives the right quotient
            # with this reading (hi(a*b + c:c+1), carry = the sum's bit 64).
            for lane in range(32):
                wide_c = np.uint64(vec[3, lane]) | (np.uint64(vec[4, lane]) << np.uint64(32))
                if flags & FL_U32:
                    product = np.uint64(vec[1, lane]) * np.uint64(vec[2, lane])
                else:
                    product = np.uint64(vec[1, lane] * vec[2, lane])
                total = product + wide_c
                vec[0, lane] = np.int64(total >> np.uint64(32)) & M32
                vec[5, lane] = 1 if carry and total < product else 0
            write(regs, w, d0, active, vec, 0)
        if carry:
            write(regs, w, dst(code, pc, 1), active, vec, 5)
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
    _write_carries(code, pc, regs, w, active, vec, 1)


@njit(cache=True, _nrt=False)
def _write_carries(code, pc, regs, w, active, vec, count):
    """The carry predicates (operands 1..count; IADD3 has two, LEA one) of the wide sums in
    vec[0]: with C the sum's bits above 32 (0-2), P1 = C >= 1, P2 = C >= 2, so that IADD3.X
    adding both gets C back. Reading P2 as the sum's bit 33 gave 1 for C = 2 (a - b - c without
    borrows) and broke 64-bit address arithmetic (RAJAPerf's INT_PREDICT: px + 8 * (i + 12 *
    offset - 10 * offset) read 2^35 bytes off)."""
    for k in range(1, count + 1):
        if not has(code, pc, k):
            continue
        for lane in range(32):
            vec[1, lane] = 1 if (vec[0, lane] >> 32) >= k else 0
        write(regs, w, dst(code, pc, k), active, vec, 1)


@njit(cache=True, _nrt=False)
def _shf_lanes(code, pc, regs, w, active, vec, flags):
    src_u32(code, pc, 1, regs, w, vec, 1)
    src_u32(code, pc, 2, regs, w, vec, 2)
    src_u32(code, pc, 3, regs, w, vec, 3)
    limit = 64 if flags & FL_BIT64 else 32
    for lane in range(32):
        # SHF.W (__funnelshift_l/r) takes the shift modulo the width; without it, clamped to it
        n = vec[2, lane] & (limit - 1) if flags & FL_WIDE else min(vec[2, lane], limit)
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
    elif op == O_IMNMX3:   # VIMNMX3 (sm_90): min (P) or max of three
        src_u32(code, pc, 2, regs, w, vec, 2)
        src_u32(code, pc, 3, regs, w, vec, 3)
        src_pred(code, pc, 4, regs, w, vec, 4)
        for lane in range(32):
            x, y, z = vec[1, lane], vec[2, lane], vec[3, lane]
            if not flags & FL_U32:
                x, y, z = signed(x), signed(y), signed(z)
            vec[0, lane] = (min(x, y, z) if vec[4, lane] else max(x, y, z)) & M32
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
        src_u32(code, pc, 2, regs, w, vec, 2)   # (UP2UR URd, UPR, URb, mask: the uniform ones)
        src_u32(code, pc, 3, regs, w, vec, 3)
        base = UP_BASE if code[pc, F_UNIFORM] else P_BASE
        for lane in range(32):
            v = 0
            for k in range(7):
                v |= (1 if regs[w, base + k, lane] != 0 else 0) << k
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
