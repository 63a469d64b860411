"""ptxas' scheduling decisions for each SASS instruction, read from the cubin, and the pipe each
opcode issues to: the static half of what the timing simulation (memsim.timing) replays.

Every sm_70+ instruction is 128 bits; the top 23 bits of its second word hold the control bits
ptxas sets (Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking",
2018, sec. 2.1; the same layout on Turing, Ampere and Hopper):

    bits 41-44 stall     cycles before the warp may issue its next instruction
    bit  45    yield     (not modeled)
    bits 46-48 write barrier: scoreboard barrier (0-5) cleared when a variable-latency
               result is written; 7: none
    bits 49-51 read barrier: cleared when the instruction has read its source registers; 7: none
    bits 52-57 wait mask: barriers that must be clear before the instruction issues
    bits 58-61 register reuse cache (not modeled)

So a fixed-latency dependency is already in the stall counts, and a variable-latency one is a
barrier the warp waits on: the timing simulation needs only how long each variable-latency
instruction takes (its class, memsim.stream.WAITS) and how often each pipe accepts one.
"""
from __future__ import annotations

import numpy as np

from ...stream import NO_BARRIER, PIPE, WAIT, IssueSchedule
from .cubin import sections
from .program import F_FLAGS, F_OP, FL_GLOBAL, FL_LOCAL, FL_SHARED, SassProgram
from . import ops_memory as M

CONTROL_SHIFT = 41

# Opcode (without modifiers) -> (pipe, what a barrier it sets waits for). Pipes are ncu's
# (smsp__inst_executed_pipe_*): FP32 arithmetic issues to both FMA halves, integer multiply and
# IMAD moves only to the heavy one (CUDA C Programming Guide, "Arithmetic Instructions",
# compute capability 9.0: 128 FP32 vs 64 32-bit integer multiply results per SM per clock).
_FMA = ("FFMA", "FADD", "FMUL", "FFMA32I", "FADD32I", "FMUL32I")
_FMAHEAVY = ("IMAD", "IMUL", "IMAD32I", "IDP", "IDP4A", "IMADSP")
_ALU = ("IADD3", "IADD", "IADD32I", "LOP3", "LOP", "LOP32I", "SHF", "SHL", "SHR", "LEA", "ISETP", "SEL",
        "MOV", "MOV32I", "PRMT", "IABS", "IMNMX", "VIMNMX", "VIMNMX3", "SGXT", "BMSK", "P2R", "R2P",
        "PLOP3", "FSEL", "FSETP", "FSET", "FMNMX", "ISET", "CSET", "CSETP", "IADD3X", "FCHK", "VABSDIFF",
        "VABSDIFF4", "LEPC", "VOTE", "FLO32", "MOV64", "F2FP", "HMNMX2")
_FP16 = ("HFMA2", "HADD2", "HMUL2", "HSETP2", "HSET2", "HFMA2.MMA")
_FP64 = ("DFMA", "DADD", "DMUL", "DSETP", "DMNMX", "DSET")
_XU = ("MUFU", "F2I", "I2F", "F2F", "FRND", "I2I", "POPC", "FLO", "BREV", "I2FP", "F2IP")
_TENSOR = ("HMMA", "IMMA", "DMMA", "BMMA", "HGMMA", "IGMMA")
_CBU = ("BRA", "BRX", "BRXU", "JMP", "JMX", "EXIT", "BAR", "BSSY", "BSYNC", "BREAK", "WARPSYNC", "CALL", "RET",
        "YIELD", "NOP", "BPT", "KILL", "BMOV", "B2R", "R2B", "ACQBULK", "ELECT", "NANOSLEEP")
_ADU = ("S2R", "CS2R", "LDC", "S2UR", "SHFL", "MATCH", "REDUX", "VOTEU", "CCTL", "MEMBAR", "FENCE",
        "ERRBAR", "DEPBAR")

_WAIT_OF = {"S2R": "s2r", "S2UR": "s2r", "CS2R": "s2r", "LDC": "constant", "ULDC": "constant",
            "SHFL": "shuffle", "MATCH": "shuffle", "REDUX": "shuffle", "BAR": "barrier", "EXIT": "exit",
            "MEMBAR": "memory_barrier", "FENCE": "memory_barrier", "ERRBAR": "memory_barrier",
            "DEPBAR": "async_wait", "BRA": "branch", "BRX": "branch", "BRXU": "branch", "JMP": "branch", "CALL": "branch",
            "RET": "branch"}


def _pipe_and_wait(opcode: str) -> tuple[str, str]:
    base = opcode.split(".")[0]
    if base in _FMA:
        return "fma", "fixed"
    if base in _FMAHEAVY:
        return "fmaheavy", "fixed"
    if base in _FP16:
        return "fp16", "fixed"
    if base in _FP64:
        return "fp64", "fp64"
    if base in _XU:
        return "xu", "xu"
    if base in _TENSOR:
        return "tensor", "tensor"
    if base in _CBU:
        return "cbu", _WAIT_OF.get(base, "fixed")
    if base in _ADU:
        return "adu", _WAIT_OF.get(base, "other")
    if base.startswith("U") or base == "VOTEU":
        return "uniform", _WAIT_OF.get(base, "fixed")
    if base in _ALU:
        return "alu", "fixed"
    return "alu", "other"


def _memory_wait(row: np.ndarray) -> str | None:
    """The wait class of a memory row by what it does (LD/ST/ATOM/...) and where."""
    op, flags = int(row[F_OP]), int(row[F_FLAGS])
    if op >> 6 != M.O_LD >> 6 or op == M.O_LDC:
        return None
    if op == M.O_LDGSTS:
        return "async_copy"
    if op == M.O_LDSM:
        return "shared_load"
    if op == M.O_STSM:
        return "shared_store"
    if op >= M.O_SYNCS_EXCH:
        return "async_copy" if op >= M.O_UBLKCP else "shared_atomic"   # bulk copies, TMA
    space = "shared" if flags & FL_SHARED else ("local" if flags & FL_LOCAL else "global")
    if flags & M.FL_GENERIC:
        space = "global"
    kind = {M.O_LD: "load", M.O_ST: "store", M.O_ATOM: "atomic", M.O_RED: "atomic"}[op]
    if space == "local" and kind == "atomic":
        kind = "load"
    if space == "shared" and kind == "atomic":
        return "shared_atomic"
    return f"{space}_{kind}"


def control_bits(cubin: bytes, program: SassProgram) -> np.ndarray | None:
    """[pc, 4]: stall, write barrier, read barrier, wait mask of each program row, from the
    encodings in the cubin's `.text.<function>` sections; None if any row's is missing."""
    texts = sections(cubin)
    out = np.zeros((len(program.code), 4), np.int64)
    for pc, (function, address) in enumerate(program.origins):
        text = texts.get(f".text.{function}")
        if text is None or address + 16 > len(text):
            return None
        control = int.from_bytes(text[address + 8:address + 16], "little") >> CONTROL_SHIFT
        out[pc] = (control & 15, (control >> 5) & 7, (control >> 8) & 7, (control >> 11) & 63)
    return out


def issue_schedule(program: SassProgram, cubin: bytes | None) -> IssueSchedule:
    """The program's IssueSchedule: pipes and wait classes by opcode, and ptxas' control bits
    where the cubin is at hand (else a one-cycle stall and no barriers)."""
    n = len(program.code)
    pipe = np.zeros(n, np.int64)
    wait = np.zeros(n, np.int64)
    for pc, static in enumerate(program.instructions):
        name, waits = _pipe_and_wait(static.opcode)
        memory = _memory_wait(program.code[pc])
        if memory is not None:
            name, waits = "lsu", memory
        pipe[pc], wait[pc] = PIPE[name], WAIT[waits]
    bits = control_bits(cubin, program) if cubin is not None and len(program.origins) == n else None
    if bits is None:
        none = np.full(n, NO_BARRIER, np.int64)
        return IssueSchedule(pipe=pipe, wait=wait, stall=np.ones(n, np.int64), write_barrier=none,
                             read_barrier=none.copy(), wait_mask=np.zeros(n, np.int64), from_compiler=False)
    # An instruction ptxas gave a write barrier has a variable latency whatever its class says
    # (FCHK, say): it waits as long as the unclassified ones.
    wait[(bits[:, 1] != NO_BARRIER) & (wait == WAIT["fixed"])] = WAIT["other"]
    return IssueSchedule(pipe=pipe, wait=wait, stall=bits[:, 0].copy(), write_barrier=bits[:, 1].copy(),
                         read_barrier=bits[:, 2].copy(), wait_mask=bits[:, 3].copy())
