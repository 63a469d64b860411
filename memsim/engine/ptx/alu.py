"""The PTX engine's arithmetic, logic, compare, convert and move instructions, and the warp
collectives (shuffle, vote, activemask): fast paths over a warp's active lanes for the common
32-bit forms, the general per-lane path for the rest (Numba).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..simt import shuffle_source
from .program import (F_CMP, F_D0, F_D1, F_MOD, F_S0, F_S1, F_S2, F_S3, F_SNEG, F_SPACE, F_TYPE2,
                      F_VEC, LOCAL_WINDOW, M_HI, M_SAT, M_TO, M_WIDE, SHARED_WINDOW, SP_LOCAL,
                      SP_SHARED)
from .values import (INT64_MIN, K_FLOAT, K_PRED, K_SIGNED, O_ABS, O_ACTIVEMASK, O_ADD, O_AND,
                     O_BFE, O_BFI, O_BREV, O_CLZ, O_CNOT, O_CVT, O_CVTA, O_FMA, O_MAD, O_MOV,
                     O_MUL, O_NEG, O_NOT, O_OR, O_PACK, O_POPC, O_PRMT, O_SELP, O_SET, O_SETP,
                     O_SHL, O_SHR, O_SLCT, O_SUB, O_TESTP, O_UNPACK, O_VOTE, O_XOR, compare, cvt,
                     ext, float_op, getf, int_binary, popcount, putf, trunc, type_mask)


@njit(cache=True)
def alu(code, pc, op, t, r64, rf32, rf64, w, active):
    """Fast paths for the instructions that dominate real kernels; the rest lane by lane.

    Fast paths index the register file directly (array views cost reference counting) and
    compute every lane, storing only the active ones.
    """
    kind = t >> 4
    mod = code[pc, F_MOD]
    d0, s0, s1, s2 = code[pc, F_D0], code[pc, F_S0], code[pc, F_S1], code[pc, F_S2]
    if code[pc, F_SNEG] != 0 or mod & (M_SAT | M_HI):
        return _alu_general(code[pc], op, t, r64, rf32, rf64, w, active)
    if kind == K_FLOAT:
        if (t & 15) == 2 and (op == O_ADD or op == O_SUB or op == O_MUL or op == O_FMA or op == O_MAD):
            _f32_arith(op, rf32, w, d0, s0, s1, s2, active)
            return True
        return _alu_general(code[pc], op, t, r64, rf32, rf64, w, active)
    m, h = type_mask(t)
    if op == O_MOV:
        for lane in range(32):
            if (active >> lane) & 1:
                r64[w, d0, lane] = r64[w, s0, lane] & m
        return True
    if kind != K_PRED and (op == O_ADD or op == O_SUB or op == O_AND or op == O_OR or op == O_XOR
                           or op == O_SHL or ((op == O_MUL or op == O_MAD) and not (mod & M_WIDE))):
        _int_fast2(op, t, r64, w, s0, s1, s2 if s2 >= 0 else s1, d0, active, m, h)
        return True
    if (op == O_MUL or op == O_MAD) and mod & M_WIDE:
        wide = (t & ~15) | ((t & 15) + 1)
        wm, wh = type_mask(wide)
        for lane in range(32):
            v = (((r64[w, s0, lane] & m) ^ h) - h) * (((r64[w, s1, lane] & m) ^ h) - h)
            if op == O_MAD:
                v += r64[w, s2, lane]
            if (active >> lane) & 1:
                r64[w, d0, lane] = ((v & wm) ^ wh) - wh
        return True
    if op == O_SETP and kind != K_PRED and (mod >> 8) & 3 == 0 and code[pc, F_D1] < 0:
        _setp_fast(code[pc, F_CMP], t, r64, w, s0, s1, d0, active, m, h)
        return True
    if op == O_SELP:
        for lane in range(32):
            if (active >> lane) & 1:
                r64[w, d0, lane] = r64[w, s0, lane] if r64[w, s2, lane] != 0 else r64[w, s1, lane]
        return True
    st = code[pc, F_TYPE2]
    if op == O_CVT and (st >> 4) != K_FLOAT:
        sm, sh = type_mask(st)
        for lane in range(32):
            if (active >> lane) & 1:
                v = ((r64[w, s0, lane] & sm) ^ sh) - sh
                r64[w, d0, lane] = ((v & m) ^ h) - h
        return True
    return _alu_general(code[pc], op, t, r64, rf32, rf64, w, active)


@njit(cache=True)
def _int_fast2(op, t, r, w, s0, s1, s2, d0, active, m, h):
    if op == O_ADD:
        for lane in range(32):
            v = r[w, s0, lane] + r[w, s1, lane]
            if (active >> lane) & 1:
                r[w, d0, lane] = ((v & m) ^ h) - h
    elif op == O_SUB:
        for lane in range(32):
            v = r[w, s0, lane] - r[w, s1, lane]
            if (active >> lane) & 1:
                r[w, d0, lane] = ((v & m) ^ h) - h
    elif op == O_MUL:
        for lane in range(32):
            v = r[w, s0, lane] * r[w, s1, lane]
            if (active >> lane) & 1:
                r[w, d0, lane] = ((v & m) ^ h) - h
    elif op == O_MAD:
        for lane in range(32):
            v = r[w, s0, lane] * r[w, s1, lane] + r[w, s2, lane]
            if (active >> lane) & 1:
                r[w, d0, lane] = ((v & m) ^ h) - h
    elif op == O_AND:
        for lane in range(32):
            v = r[w, s0, lane] & r[w, s1, lane]
            if (active >> lane) & 1:
                r[w, d0, lane] = ((v & m) ^ h) - h
    elif op == O_OR:
        for lane in range(32):
            v = r[w, s0, lane] | r[w, s1, lane]
            if (active >> lane) & 1:
                r[w, d0, lane] = ((v & m) ^ h) - h
    elif op == O_XOR:
        for lane in range(32):
            v = r[w, s0, lane] ^ r[w, s1, lane]
            if (active >> lane) & 1:
                r[w, d0, lane] = ((v & m) ^ h) - h
    else:
        bits = 8 << (t & 15)
        for lane in range(32):
            sh = r[w, s1, lane] & 0xFFFFFFFF
            v = r[w, s0, lane] << sh if sh < bits else 0
            if (active >> lane) & 1:
                r[w, d0, lane] = ((v & m) ^ h) - h


@njit(cache=True)
def _setp_fast(cmp, t, r64, w, s0, s1, d0, active, m, h):
    """Integer setp without a boolean combine. Normalised values of up to 32 bits compare
    correctly as int64 whatever their signedness; 64-bit unsigned ones are biased first."""
    if cmp >= 6:          # lo ls hi hs -> lt le gt ge, unsigned
        cmp -= 4
        unsigned = True
    else:
        unsigned = (t >> 4) != K_SIGNED
    bias = INT64_MIN if unsigned and (t & 15) >= 3 else np.int64(0)
    for lane in range(32):
        x = (((r64[w, s0, lane] & m) ^ h) - h) ^ bias
        y = (((r64[w, s1, lane] & m) ^ h) - h) ^ bias
        if cmp == 0:
            r = x == y
        elif cmp == 1:
            r = x != y
        elif cmp == 2:
            r = x < y
        elif cmp == 3:
            r = x <= y
        elif cmp == 4:
            r = x > y
        else:
            r = x >= y
        if (active >> lane) & 1:
            r64[w, d0, lane] = 1 if r else 0


@njit(cache=True)
def _f32_arith(op, rf32, w, d0, s0, s1, s2, active):
    for lane in range(32):
        x, y = rf32[w, s0, 2 * lane], rf32[w, s1, 2 * lane]
        if op == O_ADD:
            v = x + y
        elif op == O_SUB:
            v = x - y
        elif op == O_MUL:
            v = x * y
        else:
            v = np.float32(np.float64(x) * np.float64(y) + np.float64(rf32[w, s2, 2 * lane]))
        if (active >> lane) & 1:
            rf32[w, d0, 2 * lane] = v


@njit(cache=True)
def _alu_general(row, op, t, r64, rf32, rf64, w, active):
    """Per-lane arithmetic, logic, compare, convert and move instructions."""
    d0, s0, s1, s2 = row[F_D0], row[F_S0], row[F_S1], row[F_S2]
    kind = t >> 4
    mod = row[F_MOD]
    for lane in range(32):
        if not (active >> lane) & 1:
            continue
        if op == O_MOV or op == O_CVTA:
            v = r64[w, s0, lane]
            if op == O_CVTA:
                v = _cvta(row, v)
            r64[w, d0, lane] = v if (t & 15) >= 3 or t < 0 else trunc(v, t)
        elif op == O_SETP or op == O_SET:
            st = t if op == O_SETP else row[F_TYPE2]
            a, b = ext(r64[w, s0, lane], st), ext(r64[w, s1, lane], st)
            fa, fb = 0.0, 0.0
            if (st >> 4) == K_FLOAT:
                fa, fb = getf(r64, rf32, rf64, w, s0, lane, st), getf(r64, rf32, rf64, w, s1, lane, st)
            r = compare(row[F_CMP], st, a, b, fa, fb)
            boolop = (mod >> 8) & 3
            if boolop:
                p = r64[w, s2, lane] != 0
                if (row[F_SNEG] >> 2) & 1:
                    p = not p
                r = (r and p) if boolop == 1 else ((r or p) if boolop == 2 else (r != p))
            if op == O_SETP:
                r64[w, d0, lane] = 1 if r else 0
                if row[F_D1] >= 0:
                    r64[w, row[F_D1], lane] = 0 if r else 1
            elif (t >> 4) == K_FLOAT:
                putf(r64, rf32, rf64, w, d0, lane, t, 1.0 if r else 0.0)
            else:
                r64[w, d0, lane] = trunc(-1 if r else 0, t)
        elif op == O_SELP:
            p = r64[w, s2, lane] != 0
            if (row[F_SNEG] >> 2) & 1:
                p = not p
            r64[w, d0, lane] = r64[w, s0 if p else s1, lane]
        elif op == O_SLCT:
            c = ext(r64[w, s2, lane], row[F_TYPE2]) if row[F_TYPE2] >= 0 else r64[w, s2, lane]
            if row[F_TYPE2] >= 0 and (row[F_TYPE2] >> 4) == K_FLOAT:
                ok = getf(r64, rf32, rf64, w, s2, lane, row[F_TYPE2]) >= 0.0
            else:
                ok = c >= 0
            r64[w, d0, lane] = r64[w, s0 if ok else s1, lane]
        elif op == O_CVT:
            st = row[F_TYPE2]
            raw = ext(r64[w, s0, lane], st)
            fx = getf(r64, rf32, rf64, w, s0, lane, st) if (st >> 4) == K_FLOAT else 0.0
            if (st >> 4) == K_FLOAT and (st & 15) < 2 or (t >> 4) == K_FLOAT and (t & 15) < 2:
                return False  # half precision is not modelled
            iv, fv, isf = cvt(t, st, row[F_CMP], (mod & M_SAT) != 0, raw, fx)
            if isf:
                putf(r64, rf32, rf64, w, d0, lane, t, fv)
            else:
                r64[w, d0, lane] = ext(trunc(iv, t), t)
        elif op == O_PACK:
            part = row[F_TYPE2]
            pbits = 8 << (part & 15)
            v = 0
            for k in range(row[F_VEC]):
                v |= trunc(r64[w, row[F_S0 + k], lane], part) << (pbits * k)
            r64[w, d0, lane] = v
        elif op == O_UNPACK:
            n = row[F_VEC]
            pbits = (8 << (t & 15)) // n
            v = r64[w, s0, lane]
            for k in range(n):
                dk = row[F_D0 + k]
                if dk >= 0:
                    piece = (v >> (pbits * k)) & ((1 << pbits) - 1) if pbits < 64 else v
                    r64[w, dk, lane] = piece
        elif kind == K_FLOAT:
            if (t & 15) < 2:
                return False
            if op == O_TESTP:
                x = getf(r64, rf32, rf64, w, s0, lane, t)
                m = row[F_CMP]
                if m == 0:
                    r = not (math.isinf(x) or math.isnan(x))
                elif m == 1:
                    r = math.isinf(x)
                elif m == 2:
                    r = not math.isnan(x)
                elif m == 3:
                    r = math.isnan(x)
                else:
                    tiny = 1.1754943508222875e-38 if (t & 15) == 2 else 2.2250738585072014e-308
                    normal = abs(x) >= tiny and not (math.isinf(x) or math.isnan(x))
                    r = normal if m == 4 else (x != 0.0 and abs(x) < tiny)
                r64[w, d0, lane] = 1 if r else 0
                continue
            a = getf(r64, rf32, rf64, w, s0, lane, t)
            b = getf(r64, rf32, rf64, w, s1, lane, t) if s1 >= 0 else 0.0
            c = getf(r64, rf32, rf64, w, s2, lane, t) if s2 >= 0 else 0.0
            x = float_op(op, a, b, c, (t & 15) == 2)
            if mod & M_SAT:
                x = 0.0 if math.isnan(x) else min(max(x, 0.0), 1.0)
            putf(r64, rf32, rf64, w, d0, lane, t, x)
        elif kind == K_PRED:
            a = r64[w, s0, lane] != 0
            if row[F_SNEG] & 1:
                a = not a
            b = False
            if s1 >= 0:
                b = r64[w, s1, lane] != 0
                if (row[F_SNEG] >> 1) & 1:
                    b = not b
            if op == O_AND:
                r = a and b
            elif op == O_OR:
                r = a or b
            elif op == O_XOR:
                r = a != b
            elif op == O_NOT:
                r = not a
            else:
                r = a
            r64[w, d0, lane] = 1 if r else 0
        else:
            if not _int_lane(row, op, t, mod, r64, w, lane, d0, s0, s1, s2):
                return False
    return True


@njit(cache=True)
def _int_lane(row, op, t, mod, r64, w, lane, d0, s0, s1, s2):
    a = ext(r64[w, s0, lane], t)
    if op == O_NOT:
        r64[w, d0, lane] = trunc(~a, t)
        return True
    if op == O_CNOT:
        r64[w, d0, lane] = 1 if a == 0 else 0
        return True
    if op == O_NEG:
        r64[w, d0, lane] = ext(trunc(-a, t), t)
        return True
    if op == O_ABS:
        r64[w, d0, lane] = ext(trunc(abs(a), t), t)
        return True
    if op == O_POPC:
        r64[w, d0, lane] = popcount(trunc(a, t) if (t & 15) < 3 else a)
        return True
    if op == O_CLZ:
        bits = 8 << (t & 15)
        v = np.uint64(trunc(a, t)) if bits < 64 else np.uint64(a)
        n = 0
        for k in range(bits - 1, -1, -1):
            if (v >> np.uint64(k)) & np.uint64(1):
                break
            n += 1
        r64[w, d0, lane] = n
        return True
    if op == O_BREV:
        bits = 8 << (t & 15)
        v = trunc(a, t) if bits < 64 else a
        r = 0
        for k in range(bits):
            if (v >> k) & 1:
                r |= 1 << (bits - 1 - k)
        r64[w, d0, lane] = r
        return True
    b = ext(r64[w, s1, lane], t) if s1 >= 0 else 0
    if op == O_SHL or op == O_SHR:
        b = r64[w, s1, lane] & 0xFFFFFFFF
    if op == O_BFE:
        bits = 8 << (t & 15)
        pos = r64[w, s1, lane] & 0xFF
        ln = r64[w, s2, lane] & 0xFF
        src = trunc(a, t) if bits < 64 else a
        if ln == 0:
            r = 0
        else:
            r = (src >> pos) & ((1 << ln) - 1) if pos < bits else 0
            if (t >> 4) == K_SIGNED:
                sign_pos = min(pos + ln - 1, bits - 1)
                if (src >> sign_pos) & 1:
                    r |= ~((1 << ln) - 1)
        r64[w, d0, lane] = trunc(r, t) if bits < 64 else r
        return True
    if op == O_BFI:
        bits = 8 << (t & 15)
        pos = r64[w, s2, lane] & 0xFF
        ln = r64[w, row[F_S3], lane] & 0xFF
        fld = ((1 << ln) - 1) << pos if pos < bits else 0
        r = (b & ~fld) | ((a << pos) & fld)
        r64[w, d0, lane] = trunc(r, t)
        return True
    if op == O_PRMT:
        c = r64[w, s2, lane] & 0xFFFF
        pool = (trunc(a, t) & 0xFFFFFFFF) | ((trunc(b, t) & 0xFFFFFFFF) << 32)
        r = 0
        for k in range(4):
            sel = (c >> (4 * k)) & 0xF
            byte = (pool >> (8 * (sel & 7))) & 0xFF
            if sel & 8:
                byte = 0xFF if byte & 0x80 else 0
            r |= byte << (8 * k)
        r64[w, d0, lane] = r
        return True
    c = 0
    if s2 >= 0:
        ct = t
        if mod & M_WIDE:
            ct = (t & ~15) | ((t & 15) + 1)
        c = ext(r64[w, s2, lane], ct)
    if mod & M_WIDE:
        wide = (t & ~15) | ((t & 15) + 1)
        r = a * b + (c if op == O_MAD else 0)
        r64[w, d0, lane] = ext(trunc(r, wide), wide)
        return True
    r = int_binary(op, mod, t, a, b, c)
    r64[w, d0, lane] = ext(trunc(r, t), t)
    return True


@njit(cache=True)
def _cvta(row, v):
    space = row[F_SPACE]
    to_space = (row[F_MOD] & M_TO) != 0
    if space == SP_SHARED:
        return v - SHARED_WINDOW if to_space else v + SHARED_WINDOW
    if space == SP_LOCAL:
        return v - LOCAL_WINDOW if to_space else v + LOCAL_WINDOW
    return v  # global and const: generic addresses are the addresses themselves


@njit(cache=True)
def warp_collective(row, op, t, r64, w, active, mask, tmp):
    d0 = row[F_D0]
    if op == O_ACTIVEMASK:
        for lane in range(32):
            if (active >> lane) & 1:
                r64[w, d0, lane] = mask & 0xFFFFFFFF
        return
    s0, s1, s2 = row[F_S0], row[F_S1], row[F_S2]
    if op == O_VOTE:
        ballot = 0
        for lane in range(32):
            if (active >> lane) & 1:
                p = r64[w, s0, lane] != 0
                if row[F_SNEG] & 1:
                    p = not p
                if p:
                    ballot |= 1 << lane
        mode = row[F_CMP]
        for lane in range(32):
            if (active >> lane) & 1:
                if mode == 3:
                    r64[w, d0, lane] = ballot & 0xFFFFFFFF
                elif mode == 0:
                    r64[w, d0, lane] = 1 if ballot == active else 0
                elif mode == 1:
                    r64[w, d0, lane] = 1 if ballot != 0 else 0
                else:
                    r64[w, d0, lane] = 1 if (ballot == 0 or ballot == active) else 0
        return
    # shfl.sync: read every source first, then write.
    for lane in range(32):
        tmp[lane] = r64[w, s0, lane]
    mode = row[F_CMP]
    d1 = row[F_D1]
    for lane in range(32):
        if not (active >> lane) & 1:
            continue
        cval = r64[w, s2, lane]
        # PTX's modes up down bfly idx (0-3) in the shared numbering idx up down bfly
        j, ok = shuffle_source((mode + 1) & 3, lane, r64[w, s1, lane] & 0x1F, cval & 0x1F,
                               (cval >> 8) & 0x1F)
        r64[w, d0, lane] = tmp[j]
        if d1 >= 0:
            r64[w, d1, lane] = 1 if ok else 0
