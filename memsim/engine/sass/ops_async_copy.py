"""LDGSTS (cp.async) semantics: each lane copies 4, 8 or 16 bytes from global to shared memory,
or, where its source predicate is false (cp.async's src-size 0: Triton's masked pipelined
loads), reads nothing and zero-fills them. Lowered in memsim.engine.sass.ops_memory (its opcode
is one of the memory family's); counted there as a global load of the reading lanes.
"""
from __future__ import annotations

from numba import njit

from ..faults import E_SHARED_OOB
from ..memory import GLOBAL_BASE
from .lanes import M32
from .ops_memory import SOURCE_PREDICATE, _fail
from .rows import F_OPS, F_WIDTH, K_REG, M_NOT


@njit(cache=True, _nrt=False)
def ldgsts_reading(code, pc, regs, w, active):
    """The active lanes of an LDGSTS that read global memory: those whose source predicate
    (operand SOURCE_PREDICATE, if any) is true."""
    base = F_OPS + 3 * SOURCE_PREDICATE
    if code[pc, base] != K_REG:
        return active
    inverted = (code[pc, base + 2] & M_NOT) != 0
    reading = 0
    for lane in range(32):
        if (active >> lane) & 1 and (regs[w, code[pc, base + 1], lane] != 0) != inverted:
            reading |= 1 << lane
    return reading


@njit(cache=True, _nrt=False)
def ldgsts(code, pc, regs, w, active, reading, addrs, heap8, shared8, shared_size, window_base, err, block):
    """cp.async: copy each reading lane's bytes from global memory to its shared address; the
    other active lanes write zeros there."""
    width = code[pc, F_WIDTH]
    base = F_OPS + 12
    for lane in range(32):
        if not (active >> lane) & 1:
            continue
        s = code[pc, base + 4]
        if code[pc, base] == K_REG:
            s += regs[w, code[pc, base + 1], lane] & M32
        if code[pc, base + 6] == K_REG:
            s += regs[w, code[pc, base + 7], lane] & M32
        s = (s & 0xFFFFFF) - window_base
        if s < 0 or s + width > shared_size or s % width:
            _fail(err, E_SHARED_OOB, pc, block, w * 32 + lane, s, width)
            return
        if not (reading >> lane) & 1:
            for k in range(width):
                shared8[s + k] = 0
            continue
        g = addrs[lane] - GLOBAL_BASE
        for k in range(width):
            shared8[s + k] = heap8[g + k]
