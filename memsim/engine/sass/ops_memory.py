"""Memory opcodes: loads, stores, atomics, reductions, async copies, indexed constant reads
(ldmatrix and stmatrix: memsim.engine.sass.ops_matrix). Lowering, address generation, bounds checks, the data movement, and the hand-off of
every warp access to the counters (memsim/engine/count.py).

Row layout: operand 0 the destination (loads, atomics), operands 1 and 2 the data (a store's
value; an atomic's operand, or CAS's compare and new value), operand 3 an atomic's predicate
result; the address in F_MBASE/F_MWIDE/F_MUR/F_MOFF; F_WIDTH bytes per lane, F_SUB the atomic
operation, F_TYPE its data type. LDGSTS keeps its shared destination address in operands 4-6.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..count import (C_BYTES, C_IDEAL_SECTORS, C_IDEAL_WAVEFRONTS, C_L1_BANK_PASSES, C_L1_LINES, C_REQUESTS, C_SECTORS,
                     C_SHARED_IDEAL_WAVEFRONTS, C_SHARED_REQUESTS, C_SHARED_WAVEFRONTS, C_SPACE, C_WAVEFRONTS,
                     atomic_packets, data_bytes, global_sectors, l1_data_passes, shared_atomic_add_wavefronts,
                     shared_wavefronts, shared_wavefronts_memo, sort_prefix)
from ...stream import SP_GLOBAL, SP_LOCAL, SP_SHARED
from ..memory import GLOBAL_BASE, SHARED_WINDOW_HI
from ..faults import E_GLOBAL_OOB, E_LOCAL_OOB, E_MISALIGNED, E_READ_ONLY, E_SHARED_OOB
from .family import declare
from .lanes import M32, dst, popcount
from .rows import (F_FLAGS, F_MBASE, F_MOFF, F_MUR, F_MWIDE, F_OP, F_OPS, F_SUB, F_TYPE, F_WIDTH,
                   FL_GENERIC, FL_GLOBAL, FL_LOCAL, FL_SHARED, FL_SIGNED, K_IMM, K_REG, RZ, T_F32, T_F64, T_S32,
                   T_S64, T_U32, T_U64, TYPES, UR_BASE, URZ, SINK, put, unsupported)

OPS = declare("memory", ("LD", "ST", "ATOM", "RED", "LDGSTS", "LDSM", "LDC_INDEXED", "STSM", "SYNCS_EXCH",
                         "SYNCS_ARRIVE", "SYNCS_WAIT", "UBLKCP", "UTMALDG", "UTMASTG", "UTMACMDFLUSH", "HGMMA"))
(O_LD, O_ST, O_ATOM, O_RED, O_LDGSTS, O_LDSM, O_LDC, O_STSM, O_SYNCS_EXCH, O_SYNCS_ARRIVE, O_SYNCS_WAIT, O_UBLKCP,
 O_UTMALDG, O_UTMASTG, O_UTMAFLUSH, O_HGMMA) = OPS.values()   # from SYNCS_EXCH: ops_mbarrier; from UTMALDG: ops_tma (HGMMA: ops_wgmma)

ATOMICS = ("ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "EXCH", "CAS", "CAST", "POPC")
A_ADD, A_MIN, A_MAX, A_INC, A_DEC, A_AND, A_OR, A_XOR, A_EXCH, A_CAS, A_CAST, A_POPC = range(12)
SOURCE_PREDICATE = 7   # LDGSTS: the operand slot of its `src-size != 0` predicate
MEMORY_WIDTHS = {"U8": 1, "S8": 1, "U16": 2, "S16": 2, "64": 8, "128": 16}
# The stack top the launch bank holds at c[0x0][0x28]: local frames lie below it.
STACK_TOP = 0xFFFC00
SPACE_FLAGS = {"global": FL_GLOBAL, "shared": FL_SHARED, "local": FL_LOCAL, "generic": FL_GLOBAL | FL_GENERIC}
SPACE_CODES = {"global": SP_GLOBAL, "shared": SP_SHARED, "local": SP_LOCAL}


# ---- lowering -------------------------------------------------------------------------------

def _width(mods) -> tuple[int, bool]:
    for m, width in MEMORY_WIDTHS.items():
        if m in mods:
            return width, m.startswith("S")
    return 4, False


def _address(row: np.ndarray, address, extended: bool = False) -> None:
    """The address fields; `extended` (.E on a global access) makes a register base a pair
    even where nvdisasm does not print .64 (ATOMG.E.CAS ... [R12])."""
    row[F_MBASE] = -1 if address.base < 0 else (
        (URZ if address.base == 63 else UR_BASE + address.base) if address.base_uniform else address.base)
    row[F_MWIDE] = int(address.wide or (extended and address.base >= 0 and not address.base_uniform))
    row[F_MUR] = -1 if address.uoffset < 0 else (URZ if address.uoffset == 63 else UR_BASE + address.uoffset)
    row[F_MOFF] = address.value


def _memory(space: str, op: int):
    def handler(ins, mods, ops, row):
        width, signed = _width(mods)
        row[F_OP] = op
        row[F_WIDTH] = width
        row[F_FLAGS] = SPACE_FLAGS[space] | (FL_SIGNED if signed else 0)
        addresses = [o for o in ops if o.kind == "mem"]
        data = [o for o in ops if o.kind != "mem"]
        if len(addresses) != 1:
            raise unsupported(ins, "address form")
        _address(row, addresses[0], space in ("global", "generic") and "E" in mods)
        if op == O_LD:
            put(row, 0, data[0], dst=True)
        else:
            put(row, 1, data[0])
    return handler


def _atomic(space: str, op: int):
    """ATOMG/ATOMS/ATOM [Pd,] Rd, [addr], Ra[, Rb]; RED/REDG [addr], Ra."""
    def handler(ins, mods, ops, row):
        kind = [m for m in ins.mods if m in ATOMICS]   # in listing order: POPC before INC
        if not kind:
            raise unsupported(ins, "atomic operation")
        types = [m for m in mods if m in TYPES]
        data_type = TYPES[types[0]] if types else (T_U64 if "64" in mods else T_U32)
        if data_type not in (T_U32, T_S32, T_U64, T_S64, T_F32, T_F64):
            raise unsupported(ins, "atomic data type")
        row[F_OP] = op
        row[F_SUB] = ATOMICS.index(kind[0])
        row[F_TYPE] = data_type
        row[F_WIDTH] = 8 if data_type in (T_U64, T_S64, T_F64) else 4
        row[F_FLAGS] = SPACE_FLAGS[space]
        address = next(o for o in ops if o.kind == "mem")
        _address(row, address, space == "global" and "E" in mods)
        before = ops[:ops.index(address)]
        after = ops[ops.index(address) + 1:]
        preds = [o for o in before if o.kind in ("pred", "upred")]
        dests = [o for o in before if o.kind not in ("pred", "upred")]
        put(row, 0, dests[0] if dests else None, dst=True)
        put(row, 3, preds[0] if preds else None, dst=True)
        for k, o in enumerate(after[:2]):
            put(row, 1 + k, o)
    return handler


def _ldgsts(ins, mods, ops, row):
    """LDGSTS [shared], [global](, P): a cp.async of 4, 8 or 16 bytes per lane. The predicate
    is ptxas' `src-size != 0` (cp.async with a src-size, what Triton makes of a masked
    pipelined load): where it is false the lane reads nothing and fills its shared bytes with
    zeros."""
    addresses = [o for o in ops if o.kind == "mem"]
    if len(addresses) != 2:
        raise unsupported(ins, "address form")
    source = [o for o in ops if o.kind == "pred"]
    if len(source) > 1:
        raise unsupported(ins, "operand form")
    put(row, SOURCE_PREDICATE, source[0] if source else None)
    shared, source = addresses
    row[F_OP] = O_LDGSTS
    row[F_WIDTH] = _width(mods)[0]
    row[F_FLAGS] = FL_GLOBAL
    _address(row, source)
    base = F_OPS + 3 * 4
    row[base], row[base + 1] = (K_REG, shared.base) if shared.base >= 0 else (K_IMM, 0)
    if shared.base >= 0 and shared.base_uniform:
        row[base + 1] = URZ if shared.base == 63 else UR_BASE + shared.base
    row[base + 3], row[base + 4] = K_IMM, shared.value
    if shared.uoffset >= 0:
        row[base + 6], row[base + 7] = K_REG, UR_BASE + shared.uoffset if shared.uoffset != 63 else URZ


def _ldc_indexed(ins, mods, ops, row):
    """LDC Rd, c[bank][Rx + off]: a constant read at an address computed per lane."""
    const = ops[1]
    row[F_OP] = O_LDC
    row[F_WIDTH] = _width(mods)[0]
    put(row, 0, ops[0], dst=True)
    base = F_OPS + 3
    row[base + 1] = const.bank
    row[F_MOFF] = const.value
    index = const.index
    if const.index_uniform:
        index = URZ if index == 63 else UR_BASE + index
    row[F_MBASE] = index
    row[F_FLAGS] = FL_SIGNED if _width(mods)[1] else 0


def is_indexed_constant(ops) -> bool:
    return len(ops) > 1 and ops[1].kind == "const" and ops[1].index >= 0


LOWER = {
    "LDG": _memory("global", O_LD), "STG": _memory("global", O_ST),
    "LD": _memory("generic", O_LD), "ST": _memory("generic", O_ST),
    "LDS": _memory("shared", O_LD), "STS": _memory("shared", O_ST),
    "LDL": _memory("local", O_LD), "STL": _memory("local", O_ST),
    "ATOMG": _atomic("global", O_ATOM), "ATOM": _atomic("global", O_ATOM),
    "ATOMS": _atomic("shared", O_ATOM), "RED": _atomic("global", O_RED),
    "REDG": _atomic("global", O_RED), "LDGSTS": _ldgsts,
}


# ---- semantics ------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def _fail(err, code, pc, block, thread, address, extra):
    err[0], err[1], err[2], err[3], err[4], err[5] = code, pc, block, thread, address, extra


@njit(cache=True, _nrt=False)
def lane_addresses(code, pc, regs, w, active, addrs, space_flags, window_base):
    """The byte address of every active lane: global addresses as the device sees them,
    shared ones as offsets into the block's shared memory (its window's user part starts at
    window_base), local ones below STACK_TOP."""
    base, mur, off = code[pc, F_MBASE], code[pc, F_MUR], code[pc, F_MOFF]
    wide = code[pc, F_MWIDE]
    for lane in range(32):
        a = off
        if base >= 0:
            a += regs[w, base, lane] & M32
            if wide:
                a += (regs[w, base + 1, lane] & M32) << 32
        if mur >= 0:
            a += regs[w, mur, lane] & M32
        if space_flags & FL_SHARED:
            a = (a & 0xFFFFFF) - window_base
        addrs[lane] = a


@njit(cache=True, _nrt=False)
def check(code, pc, active, addrs, width, space_flags, block, w, buf_lo, buf_hi, buf_writable,
          shared_size, local_lo, store, err):
    """Alignment and bounds of every active lane's access; the first fault goes to err."""
    if space_flags & FL_SHARED:
        lo, hi = 0, shared_size
    elif space_flags & FL_GLOBAL:
        return _check_global(pc, active, addrs, width, block, w, buf_lo, buf_hi, buf_writable, store, err)
    else:
        lo, hi = local_lo, STACK_TOP
    for lane in range(32):
        if (active >> lane) & 1:
            a = addrs[lane]
            if a & (width - 1) or a < lo or a + width > hi:
                _fail_lane(err, pc, block, w * 32 + lane, a, width, E_SHARED_OOB if space_flags & FL_SHARED
                           else E_LOCAL_OOB)
                return False
    return True


@njit(cache=True, _nrt=False)
def _check_global(pc, active, addrs, width, block, w, buf_lo, buf_hi, buf_writable, store, err):
    """Global lanes: each inside one buffer (the previous lane's is tried first: a warp's lanes
    mostly share one), and a writable one for stores."""
    found = 0
    for lane in range(32):
        if not (active >> lane) & 1:
            continue
        a = addrs[lane]
        if a & (width - 1):
            _fail(err, E_MISALIGNED, pc, block, w * 32 + lane, a, width)
            return False
        if not (a >= buf_lo[found] and a + width <= buf_hi[found]):
            found = -1
            for k in range(buf_lo.shape[0]):
                if a >= buf_lo[k] and a + width <= buf_hi[k]:
                    found = k
                    break
            if found < 0:
                _fail(err, E_GLOBAL_OOB, pc, block, w * 32 + lane, a, width)
                return False
        if store and buf_writable[found] == 0:
            _fail(err, E_READ_ONLY, pc, block, w * 32 + lane, a, width)
            return False
    return True


@njit(cache=True, _nrt=False)
def _fail_lane(err, pc, block, thread, a, width, out_of_bounds):
    """A misaligned access is reported as such before its bounds."""
    _fail(err, E_MISALIGNED if a & (width - 1) else out_of_bounds, pc, block, thread, a, width)


@njit(cache=True, _nrt=False)
def _load(mem8, off, width, is_signed):
    """A little-endian value of `width` bytes (1, 2, 4 or 8) at mem8[off]."""
    v = np.int64(0)
    for k in range(width):
        v |= np.int64(mem8[off + k]) << (8 * k)
    if is_signed and width < 4 and (v >> (8 * width - 1)) & 1:
        v |= (M32 << (8 * width)) & M32
    return v


@njit(cache=True, _nrt=False)
def _store(mem8, off, width, v):
    for k in range(width):
        mem8[off + k] = np.uint8((v >> (8 * k)) & 0xFF)


@njit(cache=True, _nrt=False)
def _move_lane(op, mem, off, regs, w, lane, d, width, is_signed, store_kind, store_imm):
    if op == O_LD:
        if d != SINK:
            regs[w, d, lane] = _load(mem, off, width, is_signed)
    elif store_kind == K_REG and d != RZ:
        _store(mem, off, width, regs[w, d, lane])
    else:
        _store(mem, off, width, store_imm if store_kind == K_IMM else 0)


@njit(cache=True, _nrt=False)
def move_bytes(code, pc, op, regs, w, active, addrs, heap8, shared8, local8, local_lo, space):
    """Loads fill their register, stores write memory: the 1- and 2-byte accesses (wider ones
    go a word at a time through move_words). `space`: the access's FL_GLOBAL/SHARED/LOCAL
    (a generic access's part)."""
    flags = code[pc, F_FLAGS]
    width = code[pc, F_WIDTH]
    is_signed = (flags & FL_SIGNED) != 0
    d = dst(code, pc, 0) if op == O_LD else code[pc, F_OPS + 4]
    store_kind = code[pc, F_OPS + 3]
    for lane in range(32):
        if not (active >> lane) & 1:
            continue
        a = addrs[lane]
        if space & FL_GLOBAL:
            _move_lane(op, heap8, a - GLOBAL_BASE, regs, w, lane, d, width, is_signed, store_kind, d)
        elif space & FL_SHARED:
            _move_lane(op, shared8, a, regs, w, lane, d, width, is_signed, store_kind, d)
        else:
            _move_lane(op, local8[w * 32 + lane], a - local_lo, regs, w, lane, d, width, is_signed,
                       store_kind, d)


@njit(cache=True, _nrt=False)
def move_words(code, pc, op, regs, w, active, addrs, heap32, shared32, local32, local_lo, flags):
    """Loads and stores of 4, 8 and 16 bytes (aligned: checked before), a 32-bit word at
    a time through the memories' uint32 views. One loop per space and direction: the branches
    stay out of the lane loop (a third of a tiled matmul's time went here before). `flags`:
    the access's space (FL_GLOBAL/SHARED/LOCAL; a generic access's part)."""
    words = code[pc, F_WIDTH] // 4
    d = dst(code, pc, 0) if op == O_LD else code[pc, F_OPS + 4]
    if op == O_LD:
        if d == SINK:
            return
        if flags & FL_SHARED:
            _load_words(regs, w, d, words, active, addrs, shared32, 0)
        elif flags & FL_GLOBAL:
            _load_words(regs, w, d, words, active, addrs, heap32, GLOBAL_BASE)
        else:
            for lane in range(32):
                if (active >> lane) & 1:
                    i = (addrs[lane] - local_lo) >> 2
                    for k in range(words):
                        regs[w, d + k, lane] = local32[w * 32 + lane, i + k]
        return
    from_register = code[pc, F_OPS + 3] == K_REG and d != RZ
    immediate = (code[pc, F_OPS + 4] if code[pc, F_OPS + 3] == K_IMM else 0) & M32
    if flags & FL_SHARED:
        _store_words(regs, w, d, words, active, addrs, shared32, 0, from_register, immediate)
    elif flags & FL_GLOBAL:
        _store_words(regs, w, d, words, active, addrs, heap32, GLOBAL_BASE, from_register, immediate)
    else:
        for lane in range(32):
            if (active >> lane) & 1:
                i = (addrs[lane] - local_lo) >> 2
                for k in range(words):
                    local32[w * 32 + lane, i + k] = regs[w, d + k, lane] & M32 if from_register else immediate


@njit(cache=True, _nrt=False)
def _load_words(regs, w, d, words, active, addrs, mem32, base):
    for k in range(words):
        for lane in range(32):
            if (active >> lane) & 1:
                regs[w, d + k, lane] = mem32[((addrs[lane] - base) >> 2) + k]


@njit(cache=True, _nrt=False)
def _store_words(regs, w, d, words, active, addrs, mem32, base, from_register, immediate):
    for lane in range(32):
        if (active >> lane) & 1:
            i = (addrs[lane] - base) >> 2
            for k in range(words):
                mem32[i + k] = regs[w, d + k, lane] & M32 if from_register else immediate


@njit(cache=True, _nrt=False)
def _apply(kind, data_type, old, v, compare, f32b, f32v, f64b, f64v):
    """An atomic's new value from the old one, the operand v and (CAS) the compare value;
    floats go through the scratch vectors' bit views."""
    if kind == A_CAS or kind == A_CAST:
        return v if old == compare else old
    if kind == A_EXCH:
        return v
    if data_type == T_F32:
        f32b[0, 0], f32b[0, 1] = old & M32, v & M32
        x, y = f32v[0, 0], f32v[0, 1]
        f32v[0, 2] = x + y if kind == A_ADD else (min(x, y) if kind == A_MIN else max(x, y))
        return np.int64(f32b[0, 2])
    if data_type == T_F64:
        f64b[0, 0], f64b[0, 1] = np.uint64(old), np.uint64(v)
        x64, y64 = f64v[0, 0], f64v[0, 1]
        f64v[0, 2] = x64 + y64 if kind == A_ADD else (min(x64, y64) if kind == A_MIN else max(x64, y64))
        return np.int64(f64b[0, 2])
    mask = M32 if data_type == T_U32 or data_type == T_S32 else np.int64(-1)
    if kind == A_ADD:
        return (old + v) & mask
    if kind == A_INC:
        return 0 if (old & M32) >= (v & M32) else old + 1
    if kind == A_DEC:
        return v if old == 0 or (old & M32) > (v & M32) else old - 1
    if kind == A_AND:
        return old & v
    if kind == A_OR:
        return old | v
    if kind == A_XOR:
        return old ^ v
    a, b = old, v
    if data_type == T_S32:
        a = a - (1 << 32) if a & 0x80000000 else a
        b = b - (1 << 32) if b & 0x80000000 else b
    elif data_type == T_U64:
        ua, ub = np.uint64(a), np.uint64(b)
        return np.int64(min(ua, ub) if kind == A_MIN else max(ua, ub))
    r = min(a, b) if kind == A_MIN else max(a, b)
    return r & mask


@njit(cache=True, _nrt=False)
def _operand(regs, w, lane, code, pc, k, width):
    base = F_OPS + 3 * k
    if code[pc, base] == K_IMM:
        return code[pc, base + 1]
    if code[pc, base] != K_REG or code[pc, base + 1] == RZ:
        return np.int64(0)
    s = code[pc, base + 1]
    v = regs[w, s, lane] & M32
    if width == 8:
        v |= (regs[w, s + 1, lane] & M32) << 32
    return v


@njit(cache=True, _nrt=False)
def atomics(code, pc, op, regs, w, active, addrs, heap8, shared8, f32b, f32v, f64b, f64v):
    """Atomics lane by lane, in lane order (a warp's atomics on one address serialise); ATOM
    returns the old value, ATOMS.POPC.INC adds one per lane."""
    flags = code[pc, F_FLAGS]
    width = code[pc, F_WIDTH]
    kind, data_type = code[pc, F_SUB], code[pc, F_TYPE]
    mem = heap8 if flags & FL_GLOBAL else shared8
    d = dst(code, pc, 0) if op == O_ATOM else SINK
    p = code[pc, F_OPS + 3 * 3 + 1] if code[pc, F_OPS + 9] == K_REG else SINK
    for lane in range(32):
        if not (active >> lane) & 1:
            continue
        off = addrs[lane] - GLOBAL_BASE if flags & FL_GLOBAL else addrs[lane]
        old = _load(mem, off, width, False) if width == 8 else _load(mem, off, 4, False)
        v = _operand(regs, w, lane, code, pc, 1, width)
        compare = np.int64(0)
        if kind == A_CAS or kind == A_CAST:
            compare, v = v, _operand(regs, w, lane, code, pc, 2, width)
        elif kind == A_POPC:
            v = np.int64(1)
        new = _apply(A_ADD if kind == A_POPC else kind, data_type, old, v, compare, f32b, f32v, f64b, f64v)
        _store(mem, off, width, new) if width == 4 else _store(mem, off, 8, new)
        if d != SINK and d != RZ:
            # CAST.SPIN (the shared-memory CAS loop) returns whether the store happened
            result = (1 if old == compare else 0) if kind == A_CAST else old
            regs[w, d, lane] = result & M32
            if width == 8:
                regs[w, d + 1, lane] = (result >> 32) & M32
        if p != SINK:
            regs[w, p, lane] = 1 if (kind != A_CAS and kind != A_CAST) or old == compare else 0


@njit(cache=True, _nrt=False)
def ldc_indexed(code, pc, regs, w, active, cbank, vec, err, block):
    """LDC Rd, c[bank][Rx + off] lane by lane from the launch's constant banks."""
    width = code[pc, F_WIDTH]
    bank = code[pc, F_OPS + 4]
    index = code[pc, F_MBASE]
    d = dst(code, pc, 0)
    for lane in range(32):
        if not (active >> lane) & 1:
            continue
        a = code[pc, F_MOFF] + (regs[w, index, lane] & M32 if index >= 0 else 0)
        if a < 0 or a + width > cbank.shape[1] or bank >= cbank.shape[0]:
            _fail(err, E_GLOBAL_OOB, pc, block, w * 32 + lane, a, width)
            return
        if d == SINK:
            continue
        if width < 4:
            regs[w, d, lane] = _load(cbank[bank], a, width, code[pc, F_FLAGS] & FL_SIGNED)
        else:
            for k in range(width // 4):
                regs[w, d + k, lane] = _load(cbank[bank], a + 4 * k, 4, False)


@njit(cache=True, _nrt=False)
def split_generic(active, addrs, window_base):
    """A generic access's (global lanes, shared lanes): a lane whose address's high word is the
    shared window's (SR_SWINHI) reads shared memory at the low word's window offset, which
    its address becomes."""
    shared = 0
    for lane in range(32):
        if (active >> lane) & 1 and (addrs[lane] >> 32) == SHARED_WINDOW_HI:
            shared |= 1 << lane
            addrs[lane] = (addrs[lane] & 0xFFFFFF) - window_base
    return active & ~shared, shared


@njit(cache=True, _nrt=False)
def count_generic(code, pc, op, glob, shared, addrs, counters, scratch, bank_load):
    """A generic LD/ST (measured on the H100, validate/suite/generic_access.cu): its global
    lanes make a global request (instruction, sectors), its shared lanes a shared one
    (instruction, wavefronts), each only where it has a lane; its bytes, all lanes', count in
    both smsp__sass_data_bytes_mem_global_* and _shared_* whatever the lanes resolve to."""
    width = code[pc, F_WIDTH]
    is_load = op == O_LD
    distinct = 0
    if glob:
        counters[pc, C_REQUESTS] += 1
        counters[pc, C_SPACE] = SP_GLOBAL
        sectors, ideal, found = global_sectors(addrs, glob, width, scratch)
        counters[pc, C_SECTORS] += sectors
        counters[pc, C_IDEAL_SECTORS] += ideal
        distinct += found
    if shared:
        counters[pc, C_SHARED_REQUESTS] += 1
        wavefronts, ideal, found = shared_wavefronts(addrs, shared, width, not is_load, scratch, bank_load)
        counters[pc, C_SHARED_WAVEFRONTS] += wavefronts
        counters[pc, C_SHARED_IDEAL_WAVEFRONTS] += ideal
        distinct += found
    counters[pc, C_BYTES] += data_bytes(is_load, popcount(glob | shared), distinct, width)


@njit(cache=True, _nrt=False)
def local_sectors(addrs, active, width, scratch):
    """Sectors of a local access: local memory interleaves threads word by word (word k of
    lane l at (k * 32 + l) * 4), so lanes at one offset share sectors."""
    n = 0
    for lane in range(32):
        if (active >> lane) & 1:
            for k in range(max(width // 4, 1)):
                scratch[n] = (((addrs[lane] >> 2) + k) * 32 + lane) >> 3
                n += 1
    sort_prefix(scratch, n)
    sectors = 1 if n else 0
    for i in range(1, n):
        if scratch[i] != scratch[i - 1]:
            sectors += 1
    return sectors


@njit(cache=True, _nrt=False)
def count(code, pc, op, active, addrs, counters, scratch, bank_load, memo, atomic_table):
    """Requests, sectors (a global atomic's: its packets, memsim.engine.count.atomic_packets, tallied
    in atomic_table) or wavefronts (shared ones remembered in memo), and bytes of one warp access."""
    flags = code[pc, F_FLAGS]
    width = code[pc, F_WIDTH]
    is_load = op == O_LD or op == O_LDSM
    lanes = popcount(active)
    counters[pc, C_REQUESTS] += 1
    if flags & FL_GLOBAL and (op == O_ATOM or op == O_RED):
        counters[pc, C_SPACE] = SP_GLOBAL
        is_float = code[pc, F_TYPE] == T_F32 or code[pc, F_TYPE] == T_F64
        sectors, ideal, distinct = atomic_packets(addrs, active, width, scratch, atomic_table, is_float)
        counters[pc, C_SECTORS] += sectors
        counters[pc, C_IDEAL_SECTORS] += ideal
    elif flags & FL_GLOBAL:
        counters[pc, C_SPACE] = SP_GLOBAL
        sectors, ideal, distinct = global_sectors(addrs, active, width, scratch)
        counters[pc, C_SECTORS] += sectors
        counters[pc, C_IDEAL_SECTORS] += ideal
        if is_load:
            passes, lines = l1_data_passes(addrs, active, width, bank_load)
            counters[pc, C_L1_BANK_PASSES] += passes
            counters[pc, C_L1_LINES] += lines
    elif flags & FL_SHARED:
        counters[pc, C_SPACE] = SP_SHARED
        wavefronts, ideal, distinct = shared_wavefronts_memo(addrs, active, width, not is_load, scratch,
                                                             bank_load, memo, pc)
        if op == O_ATOM and code[pc, F_SUB] == A_ADD and width == 4:
            # ATOMS.ADD applies lanes on one word one after another (ATOMS.POPC.INC counts them in
            # one pass): a wavefront per lane of the busiest bank (gpu/probes/atomic_probe.cu)
            wavefronts = max(wavefronts, shared_atomic_add_wavefronts(addrs, active, bank_load))
        counters[pc, C_WAVEFRONTS] += wavefronts
        counters[pc, C_IDEAL_WAVEFRONTS] += ideal
    else:
        counters[pc, C_SPACE] = SP_LOCAL
        counters[pc, C_SECTORS] += local_sectors(addrs, active, width, scratch)
        distinct = lanes
    counters[pc, C_BYTES] += data_bytes(is_load, lanes, distinct, width)
