"""The SASS engine: the instruction stream the GPU really executes, run warp by warp.

    report = memsim.simulate(source, "k_name", grid, block, args)     # engine "auto": this one
    report = memsim.simulate(source, "k_name", grid, block, args, engine=SassEngine(listing))
                                                                      # nvdisasm's listing given

The kernel runs as the sm_90 (or sm_80) cubin that NVRTC (with CuPy's flags) makes, read with
nvdisasm, so ptxas' unrolling, if-conversion and merged loads are in the counts. The kernel's
PTX declarations still give the parameter layout and shared-memory size (memsim.engine.layout).
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Sequence

import numba
import numpy as np

from ...gpus import DEFAULT_ARCH
from ... import gpus, metrics as m
from ...compiler.names import match_kernel, unknown_kernel
from ...compiler.nvrtc import load_source
from ...errors import MemsimError
from ...stream import CodeFlow, LocalAccesses
from ..clock import deadline_ns
from ..count import N_COUNTERS, atomic_contention, new_atomic_table
from ..faults import E_BUDGET, E_NONE, FaultSite, describe
from ..interface import Engine, KernelShape, Launch, LoadedKernel, RunResult, Source
from ..layout import kernel_layout
from ..memory import GlobalHeap
from ..program import has_loops
from ..issue_trace import IssueTraceBuffers
from ..trace import TraceBuffers, TraceRequest, streamed
from . import emulate as e
from .compile import compile_cubin, kernel_constant_banks, kernel_registers, listing
from .control import issue_schedule
from .listing_input import is_listing_file, listing_kernel
from .ops_memory import STACK_TOP
from .parser import parse as parse_sass
from .program import (F_GUARD, F_TARGET, N_SLOTS, SassProgram, sass_abi, bind, constant_bank, constant_banks, lower,
                      register_operands, round_trip_steps)

# Local memory each thread may use below the stack top (register spills, local arrays, call
# frames); a deeper access is reported as out of bounds.
LOCAL_BYTES_PER_THREAD = 16 * 1024


class SassEngine(Engine):
    """`listing`: nvdisasm -c -g text of the kernel's cubin, where given (no compile to SASS or
    nvdisasm then, and no constant banks beyond bank 0)."""

    name = "sass"
    label = "SASS"
    note = "SASS-level: the instructions the GPU runs"

    @classmethod
    def runs(cls, arch: str) -> bool:
        """Architectures whose SASS layout a GPU profile gives (sass_abi): Hopper's, checked on
        1,276 recorded launches, and Ampere's (the same opcodes the seed kernels need; bank 0
        and the shared window differ, docs/a100.md)."""
        return gpus.sass_abi(arch) is not None

    def __init__(self, listing: str | None = None):
        self.listing = listing

    def load(self, launch: Launch, variables_base: int) -> LoadedKernel:
        given = (listing_kernel(launch.source, launch.kernel_name, launch.args)
                 if is_listing_file(launch.source) else None)
        if given:
            text, name, is_ptx = load_source(launch.source)
            if given.source_file:
                text, name = Path(given.source_file).read_text(), given.source_file
            source, compiled = Source(text, name, is_ptx), given.module
        else:
            source, compiled = self.compile(launch.source, launch.kernel_name, launch.arch, launch.options)
        layout = kernel_layout(compiled.ptx, compiled.kernel, variables_base)
        listed = given.sass if given else self.listing
        program = sass_program(source.text, layout.kernel, launch.arch, launch.options, source.name,
                               listed, compiled.name_expressions)
        banks = given.banks if given else {} if listed is not None else None
        registers = None if listed is not None else kernel_registers(
            source.text, layout.kernel, launch.arch, tuple(launch.options), source.name,
            tuple(compiled.name_expressions))
        return LoadedKernel(program=program, layout=layout, source=source, compiler=compiled.nvrtc_version,
                            private={"banks": banks, "name_expressions": compiled.name_expressions},
                            registers=registers)

    def run(self, kernel: LoadedKernel, launch: Launch, heap: GlobalHeap, params: np.ndarray) -> RunResult:
        program: SassProgram = kernel.program
        layout = kernel.layout
        heap.build(layout)
        if launch.trace is not None:
            _check_traceable(launch.trace, program)
            launch.trace.note_buffers(heap)
        bank0 = constant_bank(launch.block, launch.grid, params, launch.arch, launch.nsmid, layout.params)
        others = kernel.private["banks"]
        if others is None:
            others = kernel_constant_banks(kernel.source.text, layout.kernel, launch.arch, tuple(launch.options),
                                           kernel.source.name, kernel.private["name_expressions"])
        code = bind(program, bank0, others)
        shared_bytes = max(layout.shared_static, layout.shared_dynamic_offset + launch.shared_mem)
        counters, round_trips, contention = _run(code, program, heap, launch, shared_bytes,
                                                 constant_banks(bank0, others),
                                                 lambda: self._schedule(kernel, launch))
        return RunResult(counters, {**dict(zip(m.ROUND_TRIPS, (int(v) for v in round_trips))), **contention})

    def _schedule(self, kernel: LoadedKernel, launch: Launch):
        """ptxas' control bits of the program's rows, from the cubin where it can be had."""
        cubin = None
        if kernel.private["banks"] is None or is_listing_file(launch.source):
            cubin = _cubin_of(kernel, launch)
        return issue_schedule(kernel.program, cubin)

    def shape(self, source: str, kernel_name: str, arch: str, options: Sequence[str]) -> KernelShape:
        """Global memory instructions, loops and register flow of the SASS this engine runs."""
        given, compiled = self.compile(source, kernel_name, arch, options)
        layout = kernel_layout(compiled.ptx, compiled.kernel)
        sass = sass_program(given.text, layout.kernel, arch, options, given.name, self.listing,
                            compiled.name_expressions)
        code = sass.code
        memory, loads, local, widths = sass.cached_memory()
        local_widths = np.where(local, widths, 0)
        sources, dests = register_operands(sass)
        flow = CodeFlow(sources=sources, dests=dests, n_slots=N_SLOTS, loads=loads, barriers=sass.barriers(),
                        scheduled=True, accesses=memory, guarded=code[:, F_GUARD] >= 0)
        registers = None if self.listing is not None else kernel_registers(
            given.text, layout.kernel, arch, tuple(options), given.name, tuple(compiled.name_expressions))
        return KernelShape(shared_static=layout.shared_static, global_instructions=int(memory.sum()),
                           has_loops=has_loops(code, sass.branches(), F_TARGET), flow=flow,
                           registers=registers, local=LocalAccesses(widths=local_widths, top=STACK_TOP)
                           if local_widths.any() else None, widths=widths)

    def name_metrics(self, metrics: dict[str, int]) -> dict[str, int]:
        metrics[m.SASS_WARP_INSTRUCTIONS] = metrics.pop(m.PTX_WARP_INSTRUCTIONS)
        metrics[m.SASS_THREAD_INSTRUCTIONS] = metrics.pop(m.PTX_THREAD_INSTRUCTIONS)
        return metrics


def sass_program(source: str, kernel: str, arch: str = DEFAULT_ARCH, options: Sequence[str] = (),
                 source_name: str = "kernel.cu", sass: str | None = None,
                 name_expressions: Sequence[str] = ()) -> SassProgram:
    """The lowered SASS of one kernel (its lowered name) of a CUDA C source (or of `sass`,
    nvdisasm's listing of its cubin, where given: no nvdisasm needed then), with the functions
    it calls. `name_expressions`: those the PTX compile used, so that template instantiations
    are the same."""
    if sass is None:
        sass = listing(source, arch, tuple(options), source_name, tuple(name_expressions))
    functions = parse_sass(sass)
    entries = [name for name, k in functions.items() if k.is_kernel]
    found = match_kernel(kernel, entries)
    if found is None:
        raise unknown_kernel(kernel, entries)
    return lower(functions[found], functions)


def _workers(program: SassProgram, n_blocks: int, threads: int, tracing: bool) -> int:
    """Blocks run on every core unless global atomics order them or there is little work.
    A trace that is not streamed keeps one worker (a streamed one, TraceBuffers.streamed, is
    handed on in the request's chunks whatever the workers)."""
    if tracing or program.has_global_atomics or n_blocks * threads < 1 << 14:
        return 1
    return max(1, min(numba.get_num_threads(), n_blocks))


def _local_window(program: SassProgram) -> int:
    """Bytes of local memory each thread gets below the stack top: none without LDL/STL."""
    return LOCAL_BYTES_PER_THREAD if program.has_local else 16


def _cubin_of(kernel: LoadedKernel, launch: Launch) -> bytes | None:
    """The cubin the program was read from: the user's .cubin, or NVRTC's (cached) compile."""
    from pathlib import Path

    from ...errors import MemsimError as _Error
    if is_listing_file(launch.source):
        path = Path(launch.source.strip())
        return path.read_bytes() if path.suffix == ".cubin" else None
    try:
        return compile_cubin(kernel.source.text, launch.arch, tuple(launch.options), kernel.source.name,
                             tuple(kernel.private["name_expressions"]))
    except (_Error, OSError):
        return None


def _run(code: np.ndarray, program: SassProgram, heap: GlobalHeap, launch: Launch, shared_bytes: int,
         cbank: np.ndarray, schedule=None) -> tuple[np.ndarray, np.ndarray, dict[str, int]]:
    """Run the grid in chunks of blocks (the trace's, or all at once untraced) on the workers,
    handing each chunk's accesses on before the next; the budget bounds each worker's share of
    a chunk (an endless loop is caught; a long launch of many chunks may run past it in all).
    Returns the counters, the warps' round trips (memsim.metrics.ROUND_TRIPS, in order) and the
    global atomics' contention (memsim.metrics.ATOMIC_CONTENTION)."""
    threads, n_blocks, budget = launch.threads, launch.blocks, launch.budget
    serial = launch.trace is not None and not streamed(launch.trace)
    workers = _workers(program, n_blocks, threads, serial)
    tracing = TraceBuffers(launch.trace, program, workers, cut_chunks=True)
    local_bytes = _local_window(program)
    run_constants = np.zeros(e.N_LAUNCH, np.int64)
    run_constants[e.L_THREADS] = threads
    run_constants[e.L_BLOCK:e.L_BLOCK + 3] = launch.block
    run_constants[e.L_GRID:e.L_GRID + 3] = launch.grid
    run_constants[e.L_NSMID], run_constants[e.L_BUDGET], run_constants[e.L_SHARED] = launch.nsmid, budget, shared_bytes
    run_constants[e.L_LOCAL_LO] = STACK_TOP - local_bytes
    run_constants[e.L_DEADLINE] = deadline_ns(launch.timeout)
    run_constants[e.L_SHARED_BASE] = sass_abi(launch.arch).shared_window_base
    counters = np.zeros((workers, len(code), N_COUNTERS), np.int64)
    errs = np.zeros((workers, 6), np.int64)
    stats = np.zeros((workers, 2), np.int64)
    round_trips = np.zeros((workers, len(m.ROUND_TRIPS)), np.int64)
    flow = (*register_operands(program), round_trip_steps(program))
    n_warps = (threads + 31) // 32
    shared = [np.zeros((shared_bytes + 15) // 16 * 16 + 16, np.uint8) for _ in range(workers)]
    local = [np.zeros((n_warps * 32, local_bytes), np.uint8) for _ in range(workers)]
    heap8 = heap.views[0]
    atomic_table = new_atomic_table(program.has_global_atomics)   # one worker where there are any
    issues = IssueTraceBuffers(launch.issue_trace, n_blocks, workers)

    def run(first: int, last: int, p: int) -> int:
        memory = (heap8, shared[p], local[p], cbank, heap.lo, heap.hi, heap.writable, heap.views[2],
                  shared[p].view(np.uint32), local[p].view(np.uint32), atomic_table)
        return e.run_blocks(code, run_constants, first, last, memory, flow, tracing.arrays(p),
                            issues.arrays(p), counters[p], errs[p], stats[p], round_trips[p])

    first = 0
    with ThreadPoolExecutor(max_workers=workers) as pool:
        while first < n_blocks:
            blocks, active = tracing.engine_chunk(n_blocks, workers)
            last = min(n_blocks, first + blocks)
            bounds = [first + (last - first) * p // active for p in range(active + 1)]
            list(pool.map(run, bounds[:-1], bounds[1:], range(active)))
            for p in range(workers):
                if errs[p, 0] != E_NONE:
                    if errs[p, 0] == E_BUDGET:
                        errs[p, 5] = budget
                    raise describe(errs[p], FaultSite(
                        kernel=program.kernel, instructions=program.instructions, label=SassEngine.label,
                        grid=launch.grid, block=launch.block, heap=heap, local_limit=LOCAL_BYTES_PER_THREAD,
                        externals=program.externals, timeout=launch.timeout or 0.0))
            tracing.drain(last - first)
            first = last
    tracing.finish()
    if launch.issue_trace is not None:
        issues.finish(n_warps, schedule() if schedule else None)
    trips = round_trips.sum(axis=0)
    trips[2:] = round_trips[:, 2:].max(axis=0)
    return counters.sum(axis=0), trips, atomic_contention(atomic_table)


def _check_traceable(trace: TraceRequest, program: SassProgram) -> None:
    """Selecting by source line needs the listing's line notes (nvdisasm -g of a -lineinfo
    cubin, as memsim compiles); a listing without them can only be selected by pc."""
    if trace.lines is not None and not any(static.line for static in program.instructions):
        raise MemsimError("trace lines= needs SASS line info, and this listing has none "
                          "(disassemble with nvdisasm -g): select SASS instructions with pcs= instead")
