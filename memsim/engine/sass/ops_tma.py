"""Hopper's tensor-memory accelerator: UTMALDG (cp.async.bulk.tensor global -> shared, completing
bytes on an mbarrier), UTMASTG (shared -> global, bulk_group), UTMACMDFLUSH (commit_group), and
USETMAXREG (setmaxnreg: registers move between warpgroups; nothing memsim counts changes).

The tensor map is memsim's own 128-byte layout (memsim/tensormap.py), read from bank 0: SASS
computes its address as the parameter block's (bank 0 at the SASS ABI's param_address holds
memsim.engine.memory.PARAM_WINDOW) plus the parameter's offset. Operands, as ptxas 13.0 emits
them: `UTMALDG.2D [URd], [URm]`: URd the shared destination, UR(d+1) its mbarrier, UR(d+2)...
the coordinates, innermost first; `UTMASTG.2D [URs], [URm]`: URs the shared source, UR(s+1)...
the coordinates; URm:URm+1 the map's address.

A load fills the whole box, zeros where it lies outside the tensor, and completes the box's
bytes on the mbarrier; a store writes only the elements inside the tensor. With swizzle128,
each 16-byte chunk of a 128-byte shared row moves to chunk (chunk ^ row % 8), rows counted from
a 1024-byte aligned address (CUTLASS's Swizzle<3,4,3>).

Counted as the H100 counts them (validate/tma_probes.py, recorded): one instruction per warp
issue in smsp__sass_inst_executed_op_tma_{ld,st} and, with UTMACMDFLUSH,
smsp__inst_executed_pipe_tma; sectors in l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld
(loads) and l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st (stores), bytes = 32 x
sectors: each box row cut where the box's 128-byte chunks of shared memory end, a piece
counting the sectors its in-bounds part touches and, for loads, its out-of-bounds bytes / 32
(`_row_sectors`). A bulk copy (UBLKCP) counts as a TMA load of its bytes. None of it is an LSU
(l1tex__t_*) count.
"""
from __future__ import annotations

from numba import njit

from . import ops_mbarrier, ops_wgmma
from ..count import C_BYTES, C_IDEAL_SECTORS, C_REQUESTS, C_SECTORS
from ..faults import E_GLOBAL_OOB, E_PARAM_OOB, E_SHARED_OOB
from ..memory import GLOBAL_BASE, PARAM_WINDOW
from ... import tensormap as TM
from .ops_int_lowering import _plop3
from .ops_memory import O_HGMMA, O_UBLKCP, O_UTMAFLUSH, O_UTMALDG, O_UTMASTG, _address, _fail, _load, _store
from .family import OP
from .parser import Operand
from .rows import F_FLAGS, F_MWIDE, F_OP, F_OPS, F_UNIFORM, F_WIDTH, FL_GLOBAL, put, unsupported
from .lanes import M32

RANKS = {"1D": 1, "2D": 2, "3D": 3, "4D": 4, "5D": 5}


def _utma(ins, mods, ops, row):
    """UTMALDG/UTMASTG.nD [URx], [URm]: operands URx, UR(x+1), ... (see above); the rank is the map's."""
    rank = [RANKS[m] for m in mods if m in RANKS]
    extra = set(mods) - set(RANKS)
    mems = [o for o in ops if o.kind == "mem"]
    if len(rank) != 1 or extra or len(mems) != 2 or not all(m.base_uniform and m.base >= 0 for m in mems):
        raise unsupported(ins, "only tiled nD forms without multicast, im2col or cache hints are emulated")
    load = ins.opcode == "UTMALDG"
    row[F_OP], row[F_FLAGS], row[F_WIDTH], row[F_UNIFORM] = (O_UTMALDG if load else O_UTMASTG), FL_GLOBAL, 0, 1
    _address(row, mems[1])
    row[F_MWIDE] = 1   # the map's address, a uniform pair
    first = mems[0].base
    for k in range(rank[0] + (2 if load else 1)):
        put(row, k, Operand("ureg", first + k))


def _flush(ins, mods, ops, row):
    row[F_OP], row[F_FLAGS], row[F_WIDTH], row[F_UNIFORM] = O_UTMAFLUSH, FL_GLOBAL, 0, 1


def _setmaxnreg(ins, mods, ops, row):
    """USETMAXREG.TRY_ALLOC.CTAPOOL UPd, n (always granted: memsim keeps no register pool) or
    .DEALLOC.CTAPOOL n (nothing to do); the launch keeps the cubin's register count."""
    if "TRY_ALLOC" in mods:
        true = Operand("upred", 7)
        _plop3(ins, mods, [ops[0], true, true, true, true, Operand("imm", 0x80), Operand("imm", 0)], row)
        row[F_UNIFORM] = 1
    elif "DEALLOC" not in mods:
        raise unsupported(ins)
    else:
        row[F_OP] = OP["NOP"]


LOWER = {"UTMALDG": _utma, "UTMASTG": _utma, "UTMACMDFLUSH": _flush, "USETMAXREG": _setmaxnreg}
TMA_OPS = {O_UBLKCP: "tma_ld", O_UTMALDG: "tma_ld", O_UTMASTG: "tma_st", O_UTMAFLUSH: "tma_flush"}


# ---- semantics -------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def step(code, pc, op, regs, w, active, addrs, shared8, heap8, window_base, err, block, cbank, counters, f32b, f32v):
    """One warp's mbarrier, bulk-copy or TMA instruction (ops_mbarrier runs the first two), or
    an HGMMA (ops_wgmma: it reads shared memory through descriptors, as TMA does)."""
    if op == O_HGMMA:
        ops_wgmma.step(code, pc, regs, w, active, shared8, window_base, err, block, f32b, f32v, counters)
        return
    if op < O_UBLKCP:
        ops_mbarrier.step(code, pc, op, regs, w, active, addrs, shared8, heap8, window_base, err, block)
        return
    lane = 0
    while lane < 32 and not (active >> lane) & 1:
        lane += 1
    if lane == 32:
        return
    counters[pc, C_REQUESTS] += 1
    if op == O_UBLKCP:   # the H100 counts a bulk copy as a TMA load of its bytes (tma_probes' bulk_copy_2k)
        n = 16 * ops_mbarrier._reg(code, pc, 0, regs, w, lane)
        sectors = _row_sectors(addrs[lane], n, addrs[lane], addrs[lane] + n, False, 0)
        counters[pc, C_SECTORS] += sectors
        counters[pc, C_IDEAL_SECTORS] += sectors
        counters[pc, C_BYTES] += 32 * sectors
        ops_mbarrier.step(code, pc, op, regs, w, active, addrs, shared8, heap8, window_base, err, block)
        return
    if op == O_UTMAFLUSH:
        return
    _tensor(code, pc, op, regs, w, lane, addrs[lane], shared8, heap8, window_base, err, block, cbank[0], counters)


@njit(cache=True, _nrt=False)
def _u32(bank, offset):
    return _load(bank, offset, 4, False) & M32


@njit(cache=True, _nrt=False)
def _ureg(code, pc, k, regs, w, lane):
    return regs[w, code[pc, F_OPS + 3 * k + 1], lane] & M32


@njit(cache=True, _nrt=False)
def _field(bank, m, offset, i, size):
    return _load(bank, m + offset + size * i, size, False) & (M32 if size == 4 else -1)


@njit(cache=True, _nrt=False)
def _coord(code, pc, regs, w, lane, k):
    c = _ureg(code, pc, k, regs, w, lane)
    return c - (1 << 32) if c >= 1 << 31 else c


@njit(cache=True, _nrt=False)
def _tensor(code, pc, op, regs, w, lane, map_address, shared8, heap8, window_base, err, block, bank, counters):
    load = op == O_UTMALDG
    m = map_address - PARAM_WINDOW   # bank 0's byte m (memsim.engine.memory.PARAM_WINDOW)
    if m < 0 or m + TM.SIZE > bank.shape[0] or _u32(bank, m + TM.O_MAGIC) != TM.MAGIC:
        _fail(err, E_PARAM_OOB, pc, block, w * 32 + lane, map_address, TM.SIZE)
        return
    rank, es, swizzle = _u32(bank, m + TM.O_RANK), _u32(bank, m + TM.O_ELEMENT), _u32(bank, m + TM.O_SWIZZLE)
    base = _load(bank, m + TM.O_ADDRESS, 8, False) - GLOBAL_BASE
    smem = (_ureg(code, pc, 0, regs, w, lane) & 0xFFFFFF) - window_base
    first = 2 if load else 1   # the operand of the innermost coordinate
    box0, dim0, x0 = _field(bank, m, TM.O_BOX, 0, 4), _field(bank, m, TM.O_DIMS, 0, 8), _coord(code, pc, regs, w, lane, first)
    row_bytes = box0 * es
    n_rows = 1
    for i in range(1, rank):
        n_rows *= _field(bank, m, TM.O_BOX, i, 4)
    total = n_rows * row_bytes
    if smem < 0 or smem + total > shared8.shape[0]:
        _fail(err, E_SHARED_OOB, pc, block, w * 32 + lane, smem, total)
        return
    sectors = 0
    for r in range(n_rows):
        inside, offset, rest = True, 0, r
        for i in range(1, rank):
            size = _field(bank, m, TM.O_BOX, i, 4)
            g = _coord(code, pc, regs, w, lane, first + i) + rest % size
            rest //= size
            inside = inside and 0 <= g < _field(bank, m, TM.O_DIMS, i, 8)
            offset += g * _field(bank, m, TM.O_STRIDES, i - 1, 8)
        lo = 0   # the row's elements inside the tensor: [lo, hi)
        hi = 0
        if inside:
            lo = min(max(-x0, 0), box0)
            hi = max(min(dim0 - x0, box0), lo)
        first_byte = base + offset + x0 * es   # where the box row would start, inside or not
        start = first_byte + lo * es
        if hi > lo and (start < 0 or start + (hi - lo) * es > heap8.shape[0]):
            _fail(err, E_GLOBAL_OOB, pc, block, w * 32 + lane, start + GLOBAL_BASE, (hi - lo) * es)
            return
        for b in range(row_bytes):
            s = _swizzled(smem + r * row_bytes + b, swizzle)
            e = b // es
            if load:
                shared8[s] = heap8[start + b - lo * es] if lo <= e < hi else 0
            elif lo <= e < hi:
                heap8[start + b - lo * es] = shared8[s]
        sectors += _row_sectors(first_byte, row_bytes, start, start + (hi - lo) * es, load, r * row_bytes)
    counters[pc, C_SECTORS] += sectors
    counters[pc, C_IDEAL_SECTORS] += sectors   # what the box asks for is what it moves
    counters[pc, C_BYTES] += 32 * sectors
    if load:
        bar = (_ureg(code, pc, 1, regs, w, lane) & 0xFFFFFF) - window_base
        if bar < 0 or bar + 8 > shared8.shape[0]:
            _fail(err, E_SHARED_OOB, pc, block, w * 32 + lane, bar, 8)
            return
        word = ops_mbarrier._add_tx(_load(shared8, bar, 8, False), -total)
        _store(shared8, bar, 8, ops_mbarrier._complete(word))


@njit(cache=True, _nrt=False)
def _row_sectors(first, size, lo, hi, load, box_offset):
    """The 32-byte sectors the H100 counts for one box row of `size` bytes from `first`, of which
    [lo, hi) lies inside the tensor and which lands `box_offset` bytes into the box in shared
    memory: the row goes in pieces cut where the box's 128-byte shared-memory chunks end, each
    piece counting the sectors its inside part touches, plus, for a load, its outside bytes / 32
    (recorded: validate/tma_probes.py's int16, 48-byte-row and 368-byte-row edges)."""
    n = 0
    p = first
    while p < first + size:
        q = min(first + size, p + 128 - (box_offset + p - first) % 128)
        a, b = max(p, lo), min(q, hi)
        inside = b - a if b > a else 0
        if inside:
            n += (b - 1) // 32 - a // 32 + 1
        if load:
            n += (q - p - inside + 31) // 32
        p = q
    return n


@njit(cache=True, _nrt=False)
def _swizzled(offset, swizzle):
    if swizzle == 3:
        return offset ^ (((offset >> 7) & 7) << 4)
    return offset
