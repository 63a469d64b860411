"""Pascal (compute capability 6.x) counting rules: what nvprof counts on the seeds' own GPUs.

memsim counts with sm_90's rules (memsim/engine/count.py, checked on an H100). Pascal's differ in a few
places, and no Pascal GPU is here to measure, so each rule below comes from NVIDIA's documents or
from published nvprof output; docs/pascal.md gives every source. The rules are applied on top of
the exact per-instruction counts, so what both architectures share is counted once, in one place:

- Global accesses: a request per warp instruction with an active lane, and a 32-byte transaction
  per distinct sector (sm_90's requests and sectors). GP10x consumer parts cache global loads in
  L2 only (Pascal Tuning Guide), so a plain load's transactions are its L2 sectors.
- L1-cached global loads (`ld.global.nc`, `ld.global.ca`, or every plain load under
  `-Xptxas -dlcm=ca`): nvprof counts 16 transactions for a warp's coalesced 128 bytes, and 2 more
  per launch (two independent reports, docs/pascal.md). memsim counts 4 per sector, +2 per launch.
- Shared memory: 32 banks of 4 bytes; a warp is served in phases of 32 lanes (up to 4-byte
  accesses), 16 lanes (8 bytes) or 8 lanes (16 bytes), each phase costing its busiest bank's
  distinct words, and phases never share a transaction (sm_90 merges conflict-free phases).
  Up to 4 bytes the two rules agree, so only 8- and 16-byte accesses are counted again here.
"""
from __future__ import annotations

import re
from typing import Sequence

import numpy as np
from pydantic import BaseModel, Field

from ..gpus import BANK_BYTES, BANKS, SECTOR_BYTES, GpuProfile
from ..report import InstructionCounters, KernelReport
from ..stream import WarpAccesses

SHARED_TRANSACTION_BYTES = BANKS * BANK_BYTES
L1_CACHED_TRANSACTIONS_PER_SECTOR = 4
L1_CACHED_LAUNCH_EXTRA = 2
# NVRTC 13.0 (the release memsim pins) has no target below Turing; the PTX engine then runs the
# PTX NVVM makes for the oldest target it has (docs/pascal.md: "Compiling for sm_61").
NVRTC_OLDEST_ARCH = "sm_75"
_ARCH = re.compile(r"^(?:sm|compute)_(\d+)[a-z]?$")
_L1_CACHED_OPERATORS = {"nc", "ca"}
_L2_ONLY_OPERATORS = {"cg", "cs", "cv", "lu"}


def uses_pascal_rules(profile: GpuProfile) -> bool:
    """Pascal's counting rules apply to GPUs whose profile names an sm_6x architecture."""
    return (profile.arch or "").startswith("sm_6")


def compile_arch(arch: str) -> str:
    """The architecture NVRTC 13.0 can compile `arch`'s kernels for: itself from sm_75 on, else
    sm_75 (NVVM's PTX for these seed kernels does not depend on the target; docs/pascal.md)."""
    found = _ARCH.match(arch)
    return NVRTC_OLDEST_ARCH if found and int(found.group(1)) < 75 else arch


def dlcm_ca(options: Sequence[str]) -> bool:
    """Whether the options ask ptxas to cache every global load in L1 (`-Xptxas -dlcm=ca`)."""
    return any("dlcm=ca" in option for option in options)


def load_is_l1_cached(ptx: str, all_cached: bool) -> bool:
    """A global load goes through the unified L1/texture cache when its cache operator says so
    (.nc: the read-only path; .ca), or when -dlcm=ca makes every default load cached."""
    modifiers = set(ptx.split()[0 if not ptx.lstrip().startswith("@") else 1].split(".")[1:])
    if modifiers & _L1_CACHED_OPERATORS:
        return True
    return all_cached and not modifiers & _L2_ONLY_OPERATORS


class PascalCounts(BaseModel):
    """nvprof's events of one launch on a Pascal GPU, from memsim's counts and Pascal's rules."""

    gld_requests: int = 0
    gst_requests: int = 0
    gld_transactions: int = 0
    gst_transactions: int = 0
    gld_requested_bytes: int = Field(0, description="bytes the active threads asked for (lanes x width)")
    gst_requested_bytes: int = 0
    gld_bytes: int = Field(0, description="bytes the load transactions move (32 per sector)")
    gst_bytes: int = 0
    shared_load_requests: int = 0
    shared_store_requests: int = 0
    shared_load_transactions: int = 0
    shared_store_transactions: int = 0
    shared_load_requested_bytes: int = 0
    shared_store_requested_bytes: int = 0
    l1_cached_loads: bool = Field(False, description="some global load went through L1 (.nc, .ca, -dlcm=ca)")


def pascal_counts(report: KernelReport, options: Sequence[str] = (),
                  shared_recount: dict[int, int] | None = None) -> PascalCounts:
    """PascalCounts of a simulated launch; `shared_recount` maps the index of each 8- or 16-byte
    shared instruction to its transactions under Pascal's phases (wide_shared_transactions)."""
    counts = PascalCounts()
    all_cached = dlcm_ca(options)
    for row in report.instructions:
        if row.op in ("ld", "st") and row.space == "global":
            _add_global(counts, row, all_cached)
        elif row.op in ("ld", "st") and row.space == "shared":
            transactions = (shared_recount or {}).get(row.index, row.wavefronts)
            _add_shared(counts, row, transactions)
    if counts.l1_cached_loads:
        counts.gld_transactions += L1_CACHED_LAUNCH_EXTRA
    return counts


def _add_global(counts: PascalCounts, row: InstructionCounters, all_cached: bool) -> None:
    if row.op == "st":
        counts.gst_requests += row.requests
        counts.gst_transactions += row.sectors
        counts.gst_requested_bytes += row.threads * row.width
        counts.gst_bytes += row.sectors * SECTOR_BYTES
        return
    cached = load_is_l1_cached(row.listing, all_cached) and row.requests > 0
    counts.l1_cached_loads = counts.l1_cached_loads or cached
    counts.gld_requests += row.requests
    counts.gld_transactions += row.sectors * (L1_CACHED_TRANSACTIONS_PER_SECTOR if cached else 1)
    counts.gld_requested_bytes += row.threads * row.width
    counts.gld_bytes += row.sectors * SECTOR_BYTES


def _add_shared(counts: PascalCounts, row: InstructionCounters, transactions: int) -> None:
    requested = row.threads * row.width
    if row.op == "ld":
        counts.shared_load_requests += row.requests
        counts.shared_load_transactions += transactions
        counts.shared_load_requested_bytes += requested
    else:
        counts.shared_store_requests += row.requests
        counts.shared_store_transactions += transactions
        counts.shared_store_requested_bytes += requested


def wide_shared_rows(report: KernelReport) -> dict[int, int]:
    """{instruction index: width} of the 8- and 16-byte shared loads and stores that ran: the
    accesses whose Pascal count differs from sm_90's and must be counted again from a trace."""
    return {r.index: r.width for r in report.instructions
            if r.space == "shared" and r.op in ("ld", "st") and r.width in (8, 16) and r.requests}


class WideSharedCounter:
    """Collects Pascal's shared transactions of traced 8- and 16-byte accesses, chunk by chunk
    (a memsim.engine.trace.TraceRequest's on_chunk)."""

    def __init__(self, widths: dict[int, int]):
        self.widths = widths
        self.transactions: dict[int, int] = {pc: 0 for pc in widths}

    def consume(self, accesses: WarpAccesses) -> None:
        for pc, width in self.widths.items():
            rows = accesses.addresses[accesses.pc == pc]
            if len(rows):
                self.transactions[pc] += int(phase_transactions(rows, width).sum())


def phase_transactions(addresses: np.ndarray, width: int) -> np.ndarray:
    """Pascal's shared transactions of each warp access ([n, 32] byte offsets, -1 inactive):
    per phase of 128 / width lanes, the most distinct 4-byte words one bank delivers."""
    n = len(addresses)
    words_per_lane = max(1, width // 4)
    phase_lanes = min(32, SHARED_TRANSACTION_BYTES // max(width, 4))
    words = (addresses[:, :, None] >> 2) + np.arange(words_per_lane)           # [n, 32, k]
    active = np.broadcast_to((addresses >= 0)[:, :, None], words.shape)
    row = np.broadcast_to(np.arange(n)[:, None, None], words.shape)
    phase = np.broadcast_to((np.arange(32) // phase_lanes)[None, :, None], words.shape)
    key = np.unique((row[active] << 24) | (phase[active] << 20) | words[active])   # distinct words
    bank_key = ((key >> 20) << 5) | (key & (BANKS - 1))                          # (row, phase, bank)
    banks, per_bank = np.unique(bank_key, return_counts=True)
    phases, first = np.unique(banks >> 5, return_index=True)
    worst = np.maximum.reduceat(per_bank, first)
    out = np.zeros(n, np.int64)
    np.add.at(out, phases >> 4, worst)
    return out
