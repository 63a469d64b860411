"""What an engine hands the models: the stream of warp accesses and the register flow of its code.

The contract between stage 3 (memsim.engine) and stage 5 (memsim.model), as memsim.report is
the one between the engines and the views: the models read these types and never the engines,
so a model does not know which engine ran (the PTX engine and the SASS engine both deliver a
WarpAccesses stream through memsim.engine.trace and a CodeFlow through their `shape`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# State spaces of a warp access (WarpAccesses.space; the PTX lowering's space codes).
SP_GENERIC, SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_CONST, SP_PARAM = range(6)
SPACES = {"global": SP_GLOBAL, "shared": SP_SHARED, "local": SP_LOCAL, "const": SP_CONST,
          "param": SP_PARAM}
SPACE_NAMES = {v: k for k, v in SPACES.items()} | {SP_GENERIC: "generic"}

# Kinds of a warp access (WarpAccesses.op). A trace that asks for barriers (memsim.sanitizer)
# also holds a warp's BAR ("bar": each arriving lane's address is the warp's live lanes, a bit
# mask) and WARPSYNC ("warpsync": each lane's address is the mask it passed).
OPS = {0: "ld", 1: "st", 2: "atom", 3: "red", 4: "bar", 5: "warpsync"}
OP_LD, OP_ST, OP_ATOM, OP_RED, OP_BAR, OP_WARPSYNC = range(6)

_FIELDS = ("block", "warp", "pc", "space", "op", "active", "addresses")


@dataclass
class WarpAccesses:
    """One row per recorded warp-level memory access."""

    block: np.ndarray        # linear block index
    warp: np.ndarray         # warp within the block
    pc: np.ndarray           # instruction index of the engine that ran (report.instructions[...].index)
    space: np.ndarray        # SP_* code
    op: np.ndarray           # OP_* code: 0 ld, 1 st, 2 atom, 3 red
    active: np.ndarray       # active-lane bit mask
    addresses: np.ndarray    # [n, 32] lane addresses (global: device address; shared: offset); -1 inactive
    ends_chunk: bool = True  # False: the engine's buffer filled mid-chunk (TraceRequest.flush_when_full);
                             # the last block's accesses may go on in the next part

    @classmethod
    def empty(cls) -> "WarpAccesses":
        z = np.zeros(0, np.int64)
        return cls(z, z, z, z, z, z, np.zeros((0, 32), np.int64))

    @classmethod
    def from_buffers(cls, records: np.ndarray, addresses: np.ndarray) -> "WarpAccesses":
        r = records
        return cls(r[:, 0].copy(), r[:, 1].copy(), r[:, 2].copy(), r[:, 3].copy(), r[:, 4].copy(),
                   r[:, 5].copy(), addresses.copy())

    @staticmethod
    def concat(parts: list["WarpAccesses"]) -> "WarpAccesses":
        if not parts:
            return WarpAccesses.empty()
        return WarpAccesses(*(np.concatenate([getattr(p, f) for p in parts]) for f in _FIELDS))

    def __len__(self) -> int:
        return len(self.pc)


@dataclass
class AccessCosts:
    """What each record of a WarpAccesses costs, as the engines count it (memsim.engine.count),
    in arrays parallel to its records: sectors and their ideal (global, local), wavefronts,
    their ideal and the lanes one phase serves (shared). memsim.warp_trace fills it beside the
    trace; memsim.views.show lays the records out and reads their costs here."""

    sectors: np.ndarray
    ideal_sectors: np.ndarray
    wavefronts: np.ndarray
    ideal_wavefronts: np.ndarray
    phase_lanes: np.ndarray


@dataclass
class CodeFlow:
    """The registers each instruction of a lowered program reads and writes, for the order
    model (memsim.model.scheduling.ProgramFlow): `sources`/`dests` [pc, k] register slots, -1
    padded, over `n_slots` registers; boolean per pc: global `loads` and `barriers`.

    `scheduled`: machine code in issue order (SASS), where a warp stalls at the first
    instruction that reads a register a load in flight fills; then `accesses` (the traced
    global accesses) and `guarded` (a predicated write may leave the old value) are given too.
    Otherwise (PTX) the code is not scheduled yet and an access waits only for the loads its
    own operands derive from."""

    sources: np.ndarray
    dests: np.ndarray
    n_slots: int
    loads: np.ndarray
    barriers: np.ndarray
    scheduled: bool = False
    accesses: np.ndarray | None = None
    guarded: np.ndarray | None = None


@dataclass
class LocalAccesses:
    """A kernel's local loads and stores, for the cache model to place in memory: `widths[pc]`
    bytes per lane (0: not a local access); a thread's local addresses in the trace lie below
    `top` (the engine's stack top)."""

    widths: np.ndarray
    top: int


# ---- what an engine hands the timing simulation (memsim.timing) ------------------------------

# Issue pipes of an SM sub-partition, by ncu's names (smsp__inst_executed_pipe_<name>): the
# profile's `pipes` give each one's issue interval per warp instruction.
PIPES = ("alu", "fma", "fmaheavy", "fp64", "xu", "lsu", "cbu", "adu", "uniform", "tensor", "fp16")
PIPE = {name: k for k, name in enumerate(PIPES)}

# What an instruction's results wait for once it has issued: "fixed" latencies are covered by
# ptxas' stall counts; the others set a scoreboard barrier the warp waits on, and the timing
# simulation prices each (the memory kinds through its memory model, the rest with the
# profile's measured latency of that class).
WAITS = ("fixed", "s2r", "constant", "xu", "shuffle", "fp64", "tensor", "shared_load", "shared_store",
         "shared_atomic", "global_load", "global_store", "global_atomic", "local_load", "local_store",
         "barrier", "exit", "branch", "memory_barrier", "async_copy", "async_wait", "other")
WAIT = {name: k for k, name in enumerate(WAITS)}
NO_BARRIER = 7   # ptxas' "no scoreboard barrier" in a read/write barrier field


@dataclass
class IssueSchedule:
    """Per pc of the lowered program: the pipe it issues to, what its results wait for, and
    ptxas' control bits: the cycles before the warp may issue again (`stall`), the scoreboard
    barrier its results set (`write_barrier`), the one released when its sources have been
    read (`read_barrier`; NO_BARRIER: none), and the barriers it waits on (`wait_mask`, bit k).
    `from_compiler` is False where no encoding was at hand (a listing without its cubin):
    then every instruction stalls one cycle and no barrier is known."""

    pipe: np.ndarray
    wait: np.ndarray
    stall: np.ndarray
    write_barrier: np.ndarray
    read_barrier: np.ndarray
    wait_mask: np.ndarray
    from_compiler: bool = True


# Fields of WarpInstructionTrace.aux: sectors or wavefronts in the low bits, then a global load's
# L1 bank passes and distinct 128-byte lines (each at most 128 a request).
AUX_PASSES, AUX_LINES, AUX_FIELD = 10, 20, 1023


@dataclass
class WarpInstructionTrace:
    """Every warp instruction a sample of the launch's blocks issued, in each warp's order.

    `blocks`: the sampled blocks recorded whole (linear block indices); warp k of blocks[j]
    issued pc[start[i]:start[i + 1]] with i = j * warps_per_block + k. `aux` per issue: the
    sectors of a global or local access, the wavefronts of a shared one, 0 otherwise; a global
    load of the SASS engine adds its L1 bank passes << AUX_PASSES and distinct lines <<
    AUX_LINES."""

    blocks: np.ndarray
    warps_per_block: int
    start: np.ndarray
    pc: np.ndarray
    aux: np.ndarray

    @property
    def instructions(self) -> int:
        return len(self.pc)
