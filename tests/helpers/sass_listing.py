"""Hand-written SASS on one warp: a listing as nvdisasm prints it, lowered and run on the SASS
engine's emulator directly (no compile), with R2:R3 the output buffer."""
from __future__ import annotations

import struct

import numpy as np

from memsim.engine.count import new_atomic_table, new_counters
from memsim.engine.memory import GLOBAL_BASE
from memsim.engine.sass import emulate as e
from memsim.engine.sass.parser import parse
from memsim.engine.sass.program import bind, constant_bank, constant_banks, lower, register_operands, round_trip_steps
from memsim.engine.issue_trace import IssueTraceBuffers
from memsim.engine.trace import TraceBuffers

STORE = "STG.E desc[UR4][R2.64], R5"


def listing(body: list[str], name: str = "k_t") -> str:
    lines = [f'\t.section\t.text.{name},"ax",@progbits', f"{name}:"]
    for k, text in enumerate(body):
        if text.endswith(":"):
            lines.append(text)
        elif text.startswith("//##"):
            lines.append("\t" + text)
        else:
            lines.append(f"        /*{16 * k:04x}*/                   {text} ;")
    return "\n".join(lines)


def run(body: list[str], threads: int = 1, round_trips: np.ndarray | None = None):
    """Run `body` with R2:R3 = the output buffer and one 32-bit word per thread at R4*4.
    Returns the output words and the per-instruction counters; the warps' round trips go to
    `round_trips` where given."""
    prologue = ["LDC.64 R2, c[0x0][0x210]", "S2R R4, SR_TID.X", "IMAD.WIDE.U32 R2, R4, 0x4, R2"]
    kernel = parse(listing(prologue + body))["k_t"]
    heap = np.zeros(4096, dtype=np.uint8)
    params = np.frombuffer(struct.pack("<Q", GLOBAL_BASE), dtype=np.uint8)
    program = lower(kernel)
    bank = constant_bank((threads, 1, 1), (1, 1, 1), params)
    code = bind(program, bank)
    counters = new_counters(len(code))
    err = np.zeros(6, dtype=np.int64)
    launch = np.zeros(e.N_LAUNCH, np.int64)
    launch[e.L_THREADS], launch[e.L_BLOCK:e.L_BLOCK + 3], launch[e.L_GRID:e.L_GRID + 3] = threads, (threads, 1, 1), 1
    launch[e.L_NSMID], launch[e.L_BUDGET], launch[e.L_SHARED] = 132, 10**9, 1024
    launch[e.L_LOCAL_LO] = 0xFFFC00 - 1024
    shared, local = np.zeros(1024, np.uint8), np.zeros((((threads + 31) // 32) * 32, 1024), np.uint8)
    memory = (heap, shared, local, constant_banks(bank), np.array([GLOBAL_BASE]), np.array([GLOBAL_BASE + 4096]),
              np.array([1]), heap.view(np.uint32), shared.view(np.uint32), local.view(np.uint32),
              new_atomic_table(True))
    e.run_blocks(code, launch, 0, 1, memory, (*register_operands(program), round_trip_steps(program)),
                 TraceBuffers(None, program).arrays(), IssueTraceBuffers(None, 1, 1).arrays(0), counters, err,
                 np.zeros(2, np.int64),
                 np.zeros(4, np.int64) if round_trips is None else round_trips)
    assert err[0] == 0, err
    return heap.view(np.uint32)[:threads].copy(), counters[len(prologue):]
