"""ldmatrix and stmatrix (LDSM, STSM): a warp moves n 8x8 matrices of 16-bit elements between
shared memory and registers; lanes 8i..8i+7 give the row addresses of matrix i, and thread t
holds, of matrix i, the 32-bit word t % 4 of row t // 4 (.MT88, transposed: the 16-bit
elements of rows 2(t%4) and 2(t%4)+1 in column t // 4).

Their opcodes are the memory family's (memsim.engine.sass.ops_memory); the interpreter's
memory step checks and counts them. How the H100 counts them (validate/data/h100/sm90_probes.json,
triton.json): in l1tex__data_pipe_lsu_wavefronts_mem_shared_* (n wavefronts without bank
conflicts), in no smsp__sass_* shared instruction, wavefront or byte count.
"""
from __future__ import annotations

from numba import njit

from .lanes import dst
from .ops_memory import O_LDSM, O_STSM, _address, _load, _store
from .rows import F_FLAGS, F_OP, F_OPS, F_SUB, F_TYPE, F_WIDTH, FL_SHARED, SINK, put, unsupported


def _matrices(ins, mods) -> tuple[int, bool]:
    """(matrices, transposed) of LDSM/STSM.16.M88[.2|.4] or .MT88 (no count: one matrix)."""
    if "16" not in mods or not ({"M88", "MT88"} & set(mods)):
        raise unsupported(ins)
    counts = [int(m) for m in mods if m in ("2", "4")]
    return (counts[0] if counts else 1), ("MT88" in mods or "TRANS" in mods)


def _ldsm(ins, mods, ops, row):
    """LDSM.16.M88.n Rd, [addr]: n matrices into Rd..Rd+n-1."""
    n, trans = _matrices(ins, mods)
    row[F_OP] = O_LDSM
    row[F_SUB], row[F_TYPE] = n, int(trans)
    row[F_WIDTH] = 16   # each address is a 16-byte row
    row[F_FLAGS] = FL_SHARED
    put(row, 0, ops[0], dst=True)
    _address(row, next(o for o in ops if o.kind == "mem"))


def _stsm(ins, mods, ops, row):
    """STSM.16.M88.n [addr], Rs: n matrices from Rs..Rs+n-1."""
    n, trans = _matrices(ins, mods)
    row[F_OP] = O_STSM
    row[F_SUB], row[F_TYPE] = n, int(trans)
    row[F_WIDTH] = 16
    row[F_FLAGS] = FL_SHARED
    address = next(o for o in ops if o.kind == "mem")
    data = [o for o in ops if o.kind != "mem"]
    if len(data) != 1 or data[0].kind != "reg":
        raise unsupported(ins, "operand form")
    put(row, 1, data[0])
    _address(row, address)


LOWER = {"LDSM": _ldsm, "STSM": _stsm}


@njit(cache=True, _nrt=False)
def matrix_lanes(code, pc):
    """The lanes whose addresses an ldmatrix/stmatrix of code[pc, F_SUB] matrices uses."""
    return (1 << (8 * code[pc, F_SUB])) - 1


@njit(cache=True, _nrt=False)
def ldsm(code, pc, regs, w, active, addrs, shared8, vec):
    n = code[pc, F_SUB]
    trans = code[pc, F_TYPE] == 1
    d = dst(code, pc, 0)
    for i in range(n):
        for t in range(32):
            if trans:
                col = t // 4
                lo = _load(shared8, addrs[i * 8 + 2 * (t % 4)] + 2 * col, 2, False)
                hi = _load(shared8, addrs[i * 8 + 2 * (t % 4) + 1] + 2 * col, 2, False)
                vec[0, t] = lo | (hi << 16)
            else:
                vec[0, t] = _load(shared8, addrs[i * 8 + t // 4] + 4 * (t % 4), 4, False)
        if d != SINK:
            for t in range(32):
                if (active >> t) & 1:
                    regs[w, d + i, t] = vec[0, t]


@njit(cache=True, _nrt=False)
def stsm(code, pc, regs, w, active, addrs, shared8):
    """stmatrix: the inverse of ldsm; a thread's word is written where ldsm would read it.
    Every thread of the warp takes part (.sync.aligned): `active` is not consulted."""
    n = code[pc, F_SUB]
    trans = code[pc, F_TYPE] == 1
    s = code[pc, F_OPS + 4]
    for i in range(n):
        for t in range(32):
            v = regs[w, s + i, t] if s != SINK else 0
            if trans:
                col = t // 4
                _store(shared8, addrs[i * 8 + 2 * (t % 4)] + 2 * col, 2, v & 0xFFFF)
                _store(shared8, addrs[i * 8 + 2 * (t % 4) + 1] + 2 * col, 2, (v >> 16) & 0xFFFF)
            else:
                _store(shared8, addrs[i * 8 + t // 4] + 4 * (t % 4), 4, v)
