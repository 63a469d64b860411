"""Hopper's mbarriers and bulk copies: SYNCS.EXCH.64 (mbarrier.init), SYNCS.ARRIVE.TRANS64
(arrive, arrive.expect_tx), SYNCS.PHASECHK.TRANS64[.TRYWAIT] (test_wait/try_wait.parity) and
UBLKCP.S.G (cp.async.bulk global -> shared, completing bytes on an mbarrier).

Their opcodes are the memory family's (memsim.engine.sass.ops_memory). None of them counts in
an LSU smsp__sass_* or l1tex__t_* metric (measured on the H100: validate/sm90_probes.py's
p90_mbarrier and p90_bulk_*: the bulk copy's reads reach L2 alone, lts__t_sectors_srcunit_tex);
the bulk copy counts as a TMA load (memsim.engine.sass.ops_tma, which runs it through `step`).

The mbarrier's 64-bit word in shared memory is memsim's own layout (the hardware's is not
documented): bits 0-19 arrivals still pending in this phase, 20-39 arrivals a phase expects,
40-62 the transaction bytes still pending (signed, 23 bits), 63 the phase parity. SYNCS.EXCH.64
turns ptxas' init value ((2^20 - count) << 1 in its low word) into it. A phase completes when
no arrival and no byte is pending: the parity flips and the arrivals start again.

A failed try_wait pauses its warp (memsim.engine.sass.emulate runs the block's other warps before
it tries again), so a warp waiting on others' arrivals does not spin forever.
"""
from __future__ import annotations

from numba import njit

from .lanes import M32
from .ops_memory import O_SYNCS_ARRIVE, O_SYNCS_EXCH, O_SYNCS_WAIT, O_UBLKCP, _address, _load, _store
from .rows import F_FLAGS, F_MWIDE, F_OP, F_OPS, F_SUB, F_WIDTH, FL_GLOBAL, FL_SHARED, K_REG, SINK, put, unsupported
from ..faults import E_GLOBAL_OOB, E_SHARED_OOB
from ..memory import GLOBAL_BASE
from .ops_memory import _fail

PENDING, EXPECTED, TX_SHIFT, TX_BITS = 0xFFFFF, 20, 40, 23
ARRIVE_ONE, ARRIVE_TX = 1, 2   # F_SUB bits of SYNCS.ARRIVE: counts an arrival, adds expected bytes


def _mem(ins, ops):
    found = [o for o in ops if o.kind == "mem"]
    if not found:
        raise unsupported(ins, "address form")
    return found


def _exch(ins, mods, ops, row):
    """SYNCS.EXCH.64 URd, [addr], URs: mbarrier.init."""
    if "64" not in mods:
        raise unsupported(ins)
    row[F_OP], row[F_WIDTH], row[F_FLAGS] = O_SYNCS_EXCH, 8, FL_SHARED
    _address(row, _mem(ins, ops)[0])
    put(row, 1, [o for o in ops if o.kind != "mem"][-1])


def _arrive(ins, mods, ops, row):
    """SYNCS.ARRIVE.TRANS64[.A1T0|.A0T1] Rd, [addr], Rtx: an arrival and/or expected bytes."""
    if "TRANS64" not in mods or "RED" in mods:
        raise unsupported(ins)
    row[F_OP], row[F_WIDTH], row[F_FLAGS] = O_SYNCS_ARRIVE, 8, FL_SHARED
    row[F_SUB] = ARRIVE_ONE if "A1T0" in mods else (ARRIVE_TX if "A0T1" in mods else ARRIVE_ONE | ARRIVE_TX)
    _address(row, _mem(ins, ops)[0])
    values = [o for o in ops if o.kind != "mem"]
    put(row, 0, values[0], dst=True)
    put(row, 1, values[1] if len(values) > 1 else None)


def _phasechk(ins, mods, ops, row):
    """SYNCS.PHASECHK.TRANS64[.TRYWAIT] Pd, [addr], Rparity: Pd = the phase of parity
    Rparity's bit 31 (try_wait.parity's operand, shifted there by ptxas) is over."""
    if "TRANS64" not in mods:
        raise unsupported(ins)
    row[F_OP], row[F_WIDTH], row[F_FLAGS] = O_SYNCS_WAIT, 8, FL_SHARED
    row[F_SUB] = int("TRYWAIT" in mods)
    _address(row, _mem(ins, ops)[0])
    values = [o for o in ops if o.kind != "mem"]
    put(row, 0, values[0], dst=True)
    put(row, 1, values[1])


def _ublkcp(ins, mods, ops, row):
    """UBLKCP.S.G [URd], [URs], URn: copy URn x 16 bytes from global URs to shared URd, then
    complete them on the mbarrier at UR(d+1)."""
    if set(mods) != {"S", "G"}:
        raise unsupported(ins)
    dst, src = _mem(ins, ops)
    if dst.base < 0 or not dst.base_uniform or src.base < 0 or not src.base_uniform:
        raise unsupported(ins, "address form")
    row[F_OP], row[F_WIDTH], row[F_FLAGS] = O_UBLKCP, 16, FL_GLOBAL
    _address(row, src)   # the global source, a uniform pair
    row[F_MWIDE] = 1
    put(row, 0, [o for o in ops if o.kind != "mem"][0])            # bytes / 16
    put(row, 1, dst.__class__("ureg", dst.base))                    # the shared destination
    put(row, 2, dst.__class__("ureg", dst.base + 1))                # its mbarrier


def _syncs(ins, mods, ops, row):
    if "EXCH" in mods:
        return _exch(ins, mods, ops, row)
    if "ARRIVE" in mods:
        return _arrive(ins, mods, ops, row)
    if "PHASECHK" in mods:
        return _phasechk(ins, mods, ops, row)
    raise unsupported(ins)


LOWER = {"SYNCS": _syncs, "UBLKCP": _ublkcp}


# ---- semantics -------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def _reg(code, pc, k, regs, w, lane):
    base = F_OPS + 3 * k
    return regs[w, code[pc, base + 1], lane] & M32 if code[pc, base] == K_REG else code[pc, base + 1] & M32


@njit(cache=True, _nrt=False)
def _complete(word):
    """The word with its phase completed where nothing is pending."""
    tx = (word >> TX_SHIFT) & ((1 << TX_BITS) - 1)
    if word & PENDING == 0 and tx == 0:
        expected = (word >> EXPECTED) & PENDING
        parity = (word >> 63) & 1
        word = (word & ~((1 << 63) | PENDING)) | ((1 - parity) << 63) | expected
    return word


@njit(cache=True, _nrt=False)
def _add_tx(word, delta):
    mask = (1 << TX_BITS) - 1
    tx = (((word >> TX_SHIFT) & mask) + delta) & mask
    return (word & ~(mask << TX_SHIFT)) | (tx << TX_SHIFT)


@njit(cache=True, _nrt=False)
def step(code, pc, op, regs, w, active, addrs, shared8, heap8, window_base, err, block):
    """One warp's SYNCS/UBLKCP (SYNCS's shared addresses checked before)."""
    for lane in range(32):
        if not (active >> lane) & 1:
            continue
        if op == O_UBLKCP:
            _bulk_copy(code, pc, regs, w, lane, addrs[lane], shared8, heap8, window_base, err, block)
            return   # a uniform instruction: one copy for the warp
        a = addrs[lane]
        word = _load(shared8, a, 8, False)
        if op == O_SYNCS_EXCH:
            count = (0x100000 - ((_reg(code, pc, 1, regs, w, lane) >> 1) & PENDING)) & PENDING
            _store(shared8, a, 8, (count << EXPECTED) | count)
        elif op == O_SYNCS_ARRIVE:
            sub = code[pc, F_SUB]
            if sub & ARRIVE_TX:
                word = _add_tx(word, _reg(code, pc, 1, regs, w, lane))
            if sub & ARRIVE_ONE:
                word = (word & ~PENDING) | (((word & PENDING) - 1) & PENDING)
            old = word
            _store(shared8, a, 8, _complete(word))
            d = code[pc, F_OPS + 1]
            if d != SINK:
                regs[w, d, lane] = old & M32
        else:
            parity = (_reg(code, pc, 1, regs, w, lane) >> 31) & 1
            d = code[pc, F_OPS + 1]
            if d != SINK:
                regs[w, d, lane] = 1 if ((word >> 63) & 1) != parity else 0   # that phase is over


@njit(cache=True, _nrt=False)
def _bulk_copy(code, pc, regs, w, lane, source, shared8, heap8, window_base, err, block):
    n = 16 * _reg(code, pc, 0, regs, w, lane)
    target = (_reg(code, pc, 1, regs, w, lane) & 0xFFFFFF) - window_base
    bar = (_reg(code, pc, 2, regs, w, lane) & 0xFFFFFF) - window_base
    g = source - GLOBAL_BASE
    if g < 0 or g + n > heap8.shape[0] or g % 16:
        _fail(err, E_GLOBAL_OOB, pc, block, w * 32 + lane, source, n)
        return
    if target < 0 or target + n > shared8.shape[0] or bar < 0 or bar + 8 > shared8.shape[0] or target % 16:
        _fail(err, E_SHARED_OOB, pc, block, w * 32 + lane, target, n)
        return
    for k in range(n):
        shared8[target + k] = heap8[g + k]
    word = _add_tx(_load(shared8, bar, 8, False), -n)
    _store(shared8, bar, 8, _complete(word))


@njit(cache=True, _nrt=False)
def waiting(code, pc, regs, w, active):
    """True where a try_wait found its phase not yet come in an active lane: the warp pauses."""
    if code[pc, F_OP] != O_SYNCS_WAIT or code[pc, F_SUB] == 0:
        return False
    d = code[pc, F_OPS + 1]
    if d == SINK:
        return False
    for lane in range(32):
        if (active >> lane) & 1 and regs[w, d, lane] == 0:
            return True
    return False
