"""Warp-wide opcodes (SHFL, VOTE, MATCH, REDUX, ELECT): lowering and semantics.

They read other lanes' registers, so they run on the whole warp step: the lanes executing the
instruction are `active`; a shuffle from a lane that does not take part reads whatever that
lane's register holds (undefined in CUDA; here the stale value).
"""
from __future__ import annotations

from numba import njit

from ..simt import shuffle_source
from .family import declare
from .lanes import ALL, M32, dst, has, signed, src_pred, src_u32, write, write_pred
from .rows import F_FLAGS, F_OP, F_SUB, FL_BIT64, FL_SIGNED, put, unsupported

OPS = declare("warp", ("SHFL", "VOTE", "MATCH", "REDUX", "ELECT"))
O_SHFL, O_VOTE, O_MATCH, O_REDUX, O_ELECT = OPS.values()

SHUFFLES = ("IDX", "UP", "DOWN", "BFLY")
VOTES = ("ALL", "ANY", "EQ")
REDUCTIONS = ("SUM", "MIN", "MAX", "AND", "OR", "XOR")


def _mode(ins, mods, names) -> int:
    found = [m for m in mods if m in names]
    if not found:
        raise unsupported(ins)
    return names.index(found[0])


def _shfl(ins, mods, ops, row):
    """SHFL.mode Pd, Rd, Ra, b, c."""
    row[F_OP] = O_SHFL
    row[F_SUB] = _mode(ins, mods, SHUFFLES)
    put(row, 0, ops[1], dst=True)
    put(row, 1, ops[0], dst=True)
    for k, op in enumerate(ops[2:5]):
        put(row, 2 + k, op)


def _vote(ins, mods, ops, row):
    """VOTE.mode [Rd,] Pd, Ps: Rd the ballot, Pd the vote."""
    row[F_OP] = O_VOTE
    row[F_SUB] = _mode(ins, mods, VOTES)
    regs = [o for o in ops if o.kind in ("reg", "ureg")]
    preds = [o for o in ops if o.kind in ("pred", "upred")]
    put(row, 0, regs[0] if regs else None, dst=True)
    put(row, 1, preds[0], dst=True)
    put(row, 2, preds[1])


def _match(ins, mods, ops, row):
    """MATCH.ANY Rd, Ra / MATCH.ALL Pd, Rd, Ra (.U64: Ra a register pair)."""
    row[F_OP] = O_MATCH
    row[F_SUB] = _mode(ins, mods, ("ALL", "ANY"))
    row[F_FLAGS] = FL_BIT64 if "U64" in mods else 0
    preds = [o for o in ops if o.kind in ("pred", "upred")]
    regs = [o for o in ops if o.kind not in ("pred", "upred")]
    put(row, 0, regs[0], dst=True)
    put(row, 1, preds[0] if preds else None, dst=True)
    put(row, 2, regs[1])


def _redux(ins, mods, ops, row):
    """REDUX.op[.S32] URd, Ra: the warp's reduction, into a uniform register."""
    row[F_OP] = O_REDUX
    row[F_SUB] = _mode(ins, mods, REDUCTIONS) if any(m in REDUCTIONS for m in mods) else 0
    row[F_FLAGS] = FL_SIGNED if "S32" in mods else 0
    put(row, 0, ops[0], dst=True)
    put(row, 2, ops[1])


def _elect(ins, mods, ops, row):
    """ELECT Pd, URd, Pm (sm_90's elect.sync): Pd holds in one lane, the lowest of the executing
    lanes where Pm holds; URd (unless URZ) gets that lane's index."""
    row[F_OP] = O_ELECT
    if len(ops) != 3:
        raise unsupported(ins, "operand form")
    put(row, 0, ops[0], dst=True)
    put(row, 1, ops[1], dst=True)
    put(row, 2, ops[2])


LOWER = {"SHFL": _shfl, "VOTE": _vote, "VOTEU": _vote, "MATCH": _match, "REDUX": _redux, "ELECT": _elect}


@njit(cache=True, _nrt=False)
def execute(code, pc, op, regs, w, active, vec):
    d0 = dst(code, pc, 0)
    sub = code[pc, F_SUB]
    if op == O_SHFL:
        src_u32(code, pc, 2, regs, w, vec, 1)
        src_u32(code, pc, 3, regs, w, vec, 2)
        src_u32(code, pc, 4, regs, w, vec, 3)
        for lane in range(32):
            j, ok = shuffle_source(sub, lane, vec[2, lane] & 31, vec[3, lane] & 31, (vec[3, lane] >> 8) & 31)
            vec[0, lane] = vec[1, j]
            vec[4, lane] = 1 if ok else 0
        write(regs, w, d0, active, vec, 0)
        write_pred(regs, w, dst(code, pc, 1), active, vec, 4)
    elif op == O_VOTE:
        vote(code, pc, regs, w, active, active, vec)
    elif op == O_MATCH:
        _match_lanes(code, pc, regs, w, active, vec, sub)
    elif op == O_ELECT:
        _elect_lanes(code, pc, regs, w, active, vec)
    else:
        _redux_lanes(code, pc, regs, w, active, vec, sub)


@njit(cache=True, _nrt=False)
def vote(code, pc, regs, w, lanes, written, vec):
    """VOTE over the lanes that execute it (`lanes`); the ballot and the vote go to the register
    copies of `written`: the same lanes, or every lane for VOTEU, whose uniform destination all
    lanes read (a uniform row runs on ALL lanes, but its ballot is still of the active ones: the
    compiler's warp-aggregated atomics elect their leader from VOTEU.ANY UR, UPT, PT)."""
    src_pred(code, pc, 2, regs, w, vec, 1)
    ballot = 0
    for lane in range(32):
        if (lanes >> lane) & 1 and vec[1, lane]:
            ballot |= 1 << lane
    sub = code[pc, F_SUB]
    if sub == 0:
        agreed = ballot == lanes
    elif sub == 1:
        agreed = ballot != 0
    else:
        agreed = ballot == lanes or ballot == 0
    for lane in range(32):
        vec[0, lane] = ballot
        vec[2, lane] = 1 if agreed else 0
    if has(code, pc, 0):
        write(regs, w, dst(code, pc, 0), written, vec, 0)
    write_pred(regs, w, dst(code, pc, 1), written, vec, 2)


@njit(cache=True, _nrt=False)
def _match_lanes(code, pc, regs, w, active, vec, sub):
    src_u32(code, pc, 2, regs, w, vec, 1)
    wide = code[pc, F_FLAGS] & FL_BIT64
    s = code[pc, 9 + 3 * 2 + 1]
    for lane in range(32):
        vec[2, lane] = regs[w, s + 1, lane] & M32 if wide else 0
    all_equal = True
    first = -1
    for lane in range(32):
        if not (active >> lane) & 1:
            continue
        mask = 0
        for other in range(32):
            if (active >> other) & 1 and vec[1, other] == vec[1, lane] and vec[2, other] == vec[2, lane]:
                mask |= 1 << other
        vec[0, lane] = mask
        if first < 0:
            first = lane
        elif vec[1, lane] != vec[1, first] or vec[2, lane] != vec[2, first]:
            all_equal = False
    for lane in range(32):
        if sub == 0:
            vec[0, lane] = active if all_equal else 0
        vec[4, lane] = 1 if all_equal else 0
    write(regs, w, dst(code, pc, 0), active, vec, 0)
    if has(code, pc, 1):   # MATCH.ANY has no predicate: writing one would clobber slot 0 (R0)
        write_pred(regs, w, dst(code, pc, 1), active, vec, 4)


@njit(cache=True, _nrt=False)
def _redux_lanes(code, pc, regs, w, active, vec, sub):
    src_u32(code, pc, 2, regs, w, vec, 1)
    is_signed = code[pc, F_FLAGS] & FL_SIGNED
    acc = 0
    started = False
    for lane in range(32):
        if not (active >> lane) & 1:
            continue
        v = signed(vec[1, lane]) if is_signed else vec[1, lane]
        if not started:
            acc, started = v, True
            continue
        if sub == 0:
            acc = acc + v
        elif sub == 1:
            acc = min(acc, v)
        elif sub == 2:
            acc = max(acc, v)
        elif sub == 3:
            acc = acc & v
        elif sub == 4:
            acc = acc | v
        else:
            acc = acc ^ v
    for lane in range(32):
        vec[0, lane] = acc & M32
    write(regs, w, dst(code, pc, 0), (1 << 32) - 1, vec, 0)


@njit(cache=True, _nrt=False)
def _elect_lanes(code, pc, regs, w, active, vec):
    src_pred(code, pc, 2, regs, w, vec, 1)
    leader = -1
    for lane in range(32):
        if (active >> lane) & 1 and vec[1, lane]:
            leader = lane
            break
    for lane in range(32):
        vec[0, lane] = 1 if lane == leader else 0
        vec[2, lane] = leader & M32
    write_pred(regs, w, dst(code, pc, 0), active, vec, 0)
    if has(code, pc, 1):
        write(regs, w, dst(code, pc, 1), ALL, vec, 2)   # a uniform register: every lane's copy
