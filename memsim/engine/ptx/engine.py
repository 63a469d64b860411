"""The PTX engine: NVVM's (or NVRTC's) PTX lowered to int64 rows and run warp by warp.

For PTX input and architectures whose SASS the SASS engine does not run, and as a quick look:
its counts are those of the PTX, before ptxas unrolls, merges and if-converts it (see
memsim.engine.sass.engine for the instruction stream the GPU runs).

Registers live in one int64 file per worker (with float views of the same memory); shared,
local and param memory lie after the heap in one image, so the emulator's memory path takes
one set of arrays for every space. Blocks run in parallel threads (run_blocks releases the GIL)
unless atomics order them.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Sequence

import numba
import numpy as np

from ...errors import UnsupportedInstruction
from ...stream import SP_GLOBAL, CodeFlow
from ..count import C_SPACE, N_COUNTERS, atomic_contention, new_atomic_table
from ..clock import deadline_ns
from ..faults import E_NONE, E_TYPE, E_UNSUPPORTED, FaultSite, describe
from ..interface import Engine, KernelShape, Launch, LoadedKernel, RunResult
from ..memory import GlobalHeap
from ..program import StaticInstruction, has_loops
from ..trace import TraceBuffers
from . import opcodes
from .emulate import run_blocks
from .opcodes import OP
from .parser import parse
from .program import (DST_FIELDS, F_ABASE, F_GUARD, F_OP, F_SPACE, F_TARGET, SPECIAL_REGISTERS,
                      SRC_FIELDS, Program, bind_params, lower)

BLOCKS_PER_CHUNK = 4096


class PtxEngine(Engine):
    name = "ptx"
    label = "PTX"
    note = ("PTX-level: may differ where ptxas reshapes the code (unrolled loops, merged or "
            "reordered loads)")

    def load(self, launch: Launch, variables_base: int) -> LoadedKernel:
        source, found = self.compile(launch.source, launch.kernel_name, launch.arch, launch.options)
        program = lower(parse(found.ptx), found.kernel, variables_base)
        return LoadedKernel(program=program, layout=program.layout, source=source,
                            compiler=found.nvrtc_version)

    def run(self, kernel: LoadedKernel, launch: Launch, heap: GlobalHeap, params: np.ndarray) -> RunResult:
        program: Program = kernel.program
        workers = _workers(program, launch.blocks, launch.threads)
        layout = _SpaceLayout(program, launch.block, launch.shared_mem, len(params), workers)
        heap.build(program.layout, layout.tail_bytes)
        layout.place(heap, params)
        if launch.trace is not None:
            launch.trace.note_buffers(heap)
        return RunResult(*_run(bind_params(program, params), heap, layout, launch))

    def shape(self, source: str, kernel_name: str, arch: str, options: Sequence[str]) -> KernelShape:
        """Global memory instructions, loops and register flow of the PTX this engine runs."""
        _, found = self.compile(source, kernel_name, arch, options)
        program = lower(parse(found.ptx), found.kernel)
        code = program.code
        ops = code[:, F_OP]
        is_global = np.isin(code[:, F_SPACE], (0, SP_GLOBAL))
        memory = np.isin(ops, (OP["ld"], OP["st"], OP["atom"], OP["red"])) & is_global
        flow = CodeFlow(sources=code[:, list(SRC_FIELDS) + [F_ABASE, F_GUARD]], dests=code[:, list(DST_FIELDS)],
                        n_slots=program.n_slots, loads=(ops == OP["ld"]) & is_global,
                        barriers=np.isin(ops, (OP["bar"], OP["barrier"])))
        return KernelShape(shared_static=program.shared_static, global_instructions=int(memory.sum()),
                           has_loops=has_loops(code, ops == OP["bra"], F_TARGET), flow=flow)


class _Registers:
    """Register files, one per worker: int64 bit patterns, with float views of the same memory."""

    def __init__(self, program: Program, launch: Launch, total_smem: int, workers: int):
        self.n_warps = (launch.threads + 31) // 32
        self.r64 = np.zeros((workers, self.n_warps, program.n_slots, 32), dtype=np.int64)
        self.rf32 = self.r64.view(np.float32)
        self.rf64 = self.r64.view(np.float64)
        for slot, bits in program.constants:
            self.r64[:, :, slot, :] = np.array([bits], dtype=np.uint64).view(np.int64)[0]
        self._specials(program.special_base, launch, total_smem)

    def _specials(self, base: int, launch: Launch, total_smem: int) -> None:
        block3, grid3 = launch.block, launch.grid
        linear = np.arange(self.n_warps * 32).reshape(self.n_warps, 32)
        lane = linear % 32
        values = {
            "%tid.x": linear % block3[0], "%tid.y": (linear // block3[0]) % block3[1],
            "%tid.z": linear // (block3[0] * block3[1]),
            "%ntid.x": block3[0], "%ntid.y": block3[1], "%ntid.z": block3[2],
            "%nctaid.x": grid3[0], "%nctaid.y": grid3[1], "%nctaid.z": grid3[2],
            "%laneid": lane, "%warpid": linear // 32, "%nwarpid": self.n_warps, "%nsmid": launch.nsmid,
            "%lanemask_eq": 1 << lane, "%lanemask_lt": (1 << lane) - 1,
            "%lanemask_le": (1 << (lane + 1)) - 1,
            "%lanemask_ge": (0xFFFFFFFF << lane) & 0xFFFFFFFF,
            "%lanemask_gt": (0xFFFFFFFF << (lane + 1)) & 0xFFFFFFFF,
            "%dynamic_smem_size": launch.shared_mem, "%total_smem_size": total_smem,
        }
        for name, value in values.items():
            self.r64[:, :, base + SPECIAL_REGISTERS.index(name), :] = value


class _SpaceLayout:
    """Shared, local and param memory live after the heap in one image (one shared and local
    region per worker), so the emulator's memory path takes one set of arrays for every space."""

    def __init__(self, program: Program, block3, shared_mem: int, param_bytes: int, workers: int):
        threads = block3[0] * block3[1] * block3[2]
        self.workers = workers
        self.shared_bytes = _round16(max(program.shared_static, program.shared_dynamic_offset + shared_mem))
        self.local_bytes = _round16(program.local_bytes)
        self.local_total = ((threads + 31) // 32) * 32 * self.local_bytes
        self.param_bytes = _round16(param_bytes)
        self.tail_bytes = workers * (self.shared_bytes + self.local_total) + self.param_bytes

    def place(self, heap: GlobalHeap, params: np.ndarray) -> None:
        param_off = heap.size + self.workers * (self.shared_bytes + self.local_total)
        heap.raw[param_off:param_off + len(params)] = params
        self.seg = np.zeros((self.workers, 6), dtype=np.int64)
        for p in range(self.workers):
            shared_off = heap.size + p * (self.shared_bytes + self.local_total)
            self.seg[p] = (shared_off, self.shared_bytes, shared_off + self.shared_bytes,
                           self.local_bytes, param_off, len(params))


def _has_atomics(program: Program) -> bool:
    return bool(np.isin(program.code[:, F_OP], (OP["atom"], OP["red"])).any())


def _workers(program: Program, n_blocks: int, threads: int) -> int:
    """Blocks run in parallel only when no atomics order them and there is enough work."""
    if _has_atomics(program) or n_blocks * threads < 1 << 16:
        return 1
    return max(1, min(numba.get_num_threads(), n_blocks))


class _Workers:
    """Per-worker state of one launch: registers, counters, error slot and trace buffers.

    Each worker emulates a contiguous range of blocks; run_blocks releases the GIL, so the
    workers are plain threads."""

    def __init__(self, program: Program, heap: GlobalHeap, layout: _SpaceLayout, launch: Launch):
        self.program, self.heap, self.layout, self.launch = program, heap, layout, launch
        self.count = n = layout.workers
        self.regs = _Registers(program, launch, layout.shared_bytes, n)
        self.counters = np.zeros((n, len(program.code), N_COUNTERS), dtype=np.int64)
        self.errs = np.zeros((n, 6), dtype=np.int64)
        self.executed = np.zeros(n, dtype=np.int64)
        self.limits = np.array([launch.budget, deadline_ns(launch.timeout)], np.int64)
        self.tracing = TraceBuffers(launch.trace, program, n)
        # one worker where there are atomics (_workers): one tally
        self.atomic_table = new_atomic_table(n == 1 and _has_atomics(program))

    def run(self, first: int, last: int, p: int) -> None:
        lo = first + (last - first) * p // self.count
        hi = first + (last - first) * (p + 1) // self.count
        program, heap, regs = self.program, self.heap, self.regs
        memory = (*heap.views, self.layout.seg[p], heap.lo, heap.hi, heap.writable, self.atomic_table)
        self.executed[p] = run_blocks(
            program.code, (regs.r64[p], regs.rf32[p], regs.rf64[p]), self.launch.threads,
            np.array(self.launch.grid, np.int64), lo, hi, program.special_base, memory,
            self.counters[p], self.errs[p], self.limits, self.executed[p], self.tracing.arrays(p))

    def check(self) -> None:
        failed = [e for e in self.errs if e[0] != E_NONE]
        if failed:
            site = FaultSite(kernel=self.program.kernel, instructions=self.program.instructions,
                             label=PtxEngine.label, grid=self.launch.grid, block=self.launch.block,
                             heap=self.heap, explain=_explain, timeout=self.launch.timeout or 0.0)
            raise describe(min(failed, key=lambda e: e[2]), site)

    def merged_counters(self) -> np.ndarray:
        merged = self.counters.sum(axis=0)
        merged[:, C_SPACE] = self.counters[:, :, C_SPACE].max(axis=0)
        return merged


def _run(program: Program, heap: GlobalHeap, layout: _SpaceLayout,
         launch: Launch) -> tuple[np.ndarray, dict[str, int]]:
    """The merged counters and the global atomics' contention (memsim.metrics.ATOMIC_CONTENTION)."""
    workers = _Workers(program, heap, layout, launch)
    chunk = workers.tracing.chunk_blocks(BLOCKS_PER_CHUNK) * workers.count
    with ThreadPoolExecutor(max_workers=workers.count) as pool:
        for first in range(0, launch.blocks, chunk):
            last = min(launch.blocks, first + chunk)
            list(pool.map(lambda p: workers.run(first, last, p), range(workers.count)))
            workers.check()
            workers.tracing.drain()
    workers.tracing.finish()
    return workers.merged_counters(), atomic_contention(workers.atomic_table)


def _explain(code: int, static: StaticInstruction, where: str) -> UnsupportedInstruction | None:
    """The PTX engine's wording of what it does not run."""
    if code == E_UNSUPPORTED and any(f".{t}" in static.text for t in ("f16", "bf16")):
        return UnsupportedInstruction(
            f"half-precision arithmetic is not emulated by the PTX engine (engine='sass' runs it): "
            f"`{static.text}` at {where}")
    if code == E_UNSUPPORTED:
        return UnsupportedInstruction(
            f"unsupported instruction '{static.opcode}' at {where}: `{static.text}` "
            f"(memsim knows: {', '.join(opcodes.supported_names())})")
    if code == E_TYPE:
        return UnsupportedInstruction(f"unsupported type in `{static.text}` at {where} "
                                      "(half precision is not emulated)")
    return None


def _round16(n: int) -> int:
    return (n + 15) // 16 * 16
