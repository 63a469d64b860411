"""One launch emulated at the SASS level: the instruction stream the H100 really executes.

    report = simulate_sass(source, "k_name", grid, block, args)

Same arguments and report as memsim.simulate, but the kernel runs as the sm_90 cubin that
NVRTC (with CuPy's flags) makes, so ptxas' unrolling, if-conversion and merged loads are in the
counts. The PTX front end still supplies the parameter layout and shared-memory size.
"""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Sequence

import numba
import numpy as np

from ... import metrics as m
from ...compiler.nvrtc import include_options, kernel_module, load_source, report_source
from ..count import N_COUNTERS
from ...errors import BudgetExceeded, LaunchError, MemoryFault, MemsimError, UnsupportedInstruction
from ...model.gpu_profile import sm_count
from ...launch import Value, dims
from ...compiler.names import match_kernel, unknown_kernel
from ..memory import GlobalHeap, pack_params, split_args
from ..ptx.parser import parse as parse_ptx
from ..ptx.program import lower as lower_ptx
from ...report import KernelReport
from ..tally import instruction_rows, line_rows, metrics_from_rows
from ..trace import TraceBuffers, TraceRequest
from . import emulate as e
from .compile import kernel_constant_banks, listing
from .listing_input import is_listing_file, listing_kernel
from .parser import parse as parse_sass
from .ops_memory import STACK_TOP
from .program import (SassProgram, bind, constant_bank, constant_banks, lower, register_operands,
                      round_trip_steps)

DEFAULT_BUDGET = 2_000_000_000
# Local memory each thread may use below the stack top (register spills, local arrays, call
# frames); a deeper access is reported as out of bounds.
LOCAL_BYTES_PER_THREAD = 16 * 1024
MAX_THREADS_PER_BLOCK = 1024


def sass_program(source: str, kernel: str, arch: str = "sm_90", options: Sequence[str] = (),
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


def cuda_source(source: str) -> tuple[str, str]:
    """(text, file name) of a CUDA C or PTX source or file: NVRTC makes the cubin of CUDA C,
    nvJitLink that of PTX (memsim.engine.sass.compile.compile_cubin)."""
    text, name, _ = load_source(source)
    return text, name


def simulate_sass(source: str, kernel_name: str, grid, block, args: Sequence[Value], shared_mem: int = 0,
                  arch: str = "sm_90", options: Sequence[str] = (), *,
                  max_instructions: int = DEFAULT_BUDGET, sass: str | None = None,
                  trace: TraceRequest | None = None,
                  include_dirs: Sequence[str] | None = None) -> KernelReport:
    """Emulate one launch on the SASS the H100 runs; `sass` (nvdisasm -c -g text of the
    kernel's cubin) skips compiling and disassembling it here; `source` may also be the path of
    such a listing (.sass) or of a .cubin (memsim.engine.sass.listing_input). `trace` records warp accesses
    as memsim.simulate does, with SASS instruction indices as pcs."""
    started = time.perf_counter()
    grid3, block3 = dims(grid), dims(block)
    threads = block3[0] * block3[1] * block3[2]
    if threads > MAX_THREADS_PER_BLOCK:
        raise LaunchError(f"block {block3} has {threads} threads; the limit is {MAX_THREADS_PER_BLOCK}")
    args = list(args)
    options = (*options, *include_options(include_dirs))
    given = listing_kernel(source, kernel_name, args) if is_listing_file(source) else None
    text, name, is_ptx = load_source(source)
    compiled = given.module if given else kernel_module(text, name, is_ptx, kernel_name, arch, options)
    sass = given.sass if given else sass
    heap = GlobalHeap(split_args(args))
    ptx_program = lower_ptx(parse_ptx(compiled.ptx), compiled.kernel, heap.variables_base)
    heap.place_variables(ptx_program)
    params = pack_params(ptx_program, args, heap)
    heap.build(ptx_program)
    program = sass_program(text, ptx_program.kernel, arch, options, name, sass,
                           compiled.name_expressions)
    if trace is not None:
        _check_traceable(trace, program)
        trace.note_buffers(heap)
    bank0 = constant_bank(block3, grid3, params, arch)
    others = given.banks if given else {} if sass is not None else kernel_constant_banks(
        text, ptx_program.kernel, arch, tuple(options), name, compiled.name_expressions)
    code = bind(program, bank0, others)
    shared_bytes = max(ptx_program.shared_static, ptx_program.shared_dynamic_offset + shared_mem)
    counters, round_trips = _run(code, program, heap, threads, block3, grid3, shared_bytes,
                                 max_instructions, TraceBuffers(trace, program),
                                 constant_banks(bank0, others), sm_count())
    heap.write_back()
    source_lines, source_name = report_source(text, name, is_ptx)
    rows = instruction_rows(program, counters)
    metrics = metrics_from_rows(rows, counters)
    metrics[m.SASS_WARP_INSTRUCTIONS] = metrics.pop(m.PTX_WARP_INSTRUCTIONS)
    metrics[m.SASS_THREAD_INSTRUCTIONS] = metrics.pop(m.PTX_THREAD_INSTRUCTIONS)
    metrics.update(dict(zip(m.ROUND_TRIPS, (int(v) for v in round_trips))))
    return KernelReport(
        kernel=kernel_name, grid=grid3, block=block3, shared_mem=shared_mem, arch=arch,
        static_shared_bytes=ptx_program.shared_static,
        nvrtc_version=compiled.nvrtc_version, metrics=metrics,
        provenance={k: m.provenance(k) for k in metrics}, instructions=rows,
        lines=line_rows(rows, source_lines), source_file=source_name, engine="sass",
        simulation_seconds=time.perf_counter() - started)


def _workers(program: SassProgram, n_blocks: int, threads: int, tracing: bool) -> int:
    """Blocks run on every core unless global atomics order them or there is little work.
    A trace keeps one worker: its records come in block order."""
    if tracing or program.has_global_atomics or n_blocks * threads < 1 << 14:
        return 1
    return max(1, min(numba.get_num_threads(), n_blocks))


def _local_window(program: SassProgram) -> int:
    """Bytes of local memory each thread gets below the stack top: none without LDL/STL."""
    return LOCAL_BYTES_PER_THREAD if program.has_local else 16


def _run(code: np.ndarray, program: SassProgram, heap: GlobalHeap, threads: int, block3, grid3,
         shared_bytes: int, budget: int, tracing: TraceBuffers, cbank: np.ndarray,
         nsmid: int) -> tuple[np.ndarray, np.ndarray]:
    """Run the grid in chunks of blocks (the trace's, or all at once untraced) on the workers,
    handing each chunk's accesses on before the next; the budget bounds each worker's share of
    a chunk (an endless loop is caught; a long launch of many chunks may run past it in all).
    Returns the counters and the warps' round trips (memsim.metrics.ROUND_TRIPS, in order)."""
    n_blocks = grid3[0] * grid3[1] * grid3[2]
    workers = _workers(program, n_blocks, threads, tracing.trace is not None)
    local_bytes = _local_window(program)
    launch = np.zeros(e.N_LAUNCH, np.int64)
    launch[e.L_THREADS] = threads
    launch[e.L_BLOCK:e.L_BLOCK + 3] = block3
    launch[e.L_GRID:e.L_GRID + 3] = grid3
    launch[e.L_NSMID], launch[e.L_BUDGET], launch[e.L_SHARED] = nsmid, budget, shared_bytes
    launch[e.L_LOCAL_LO] = STACK_TOP - local_bytes
    counters = np.zeros((workers, len(code), N_COUNTERS), np.int64)
    errs = np.zeros((workers, 6), np.int64)
    stats = np.zeros((workers, 2), np.int64)
    round_trips = np.zeros((workers, len(m.ROUND_TRIPS)), np.int64)
    flow = (*register_operands(program), round_trip_steps(program))
    n_warps = (threads + 31) // 32
    shared = [np.zeros((shared_bytes + 15) // 16 * 16 + 16, np.uint8) for _ in range(workers)]
    local = [np.zeros((n_warps * 32, local_bytes), np.uint8) for _ in range(workers)]
    heap8 = heap.views[0]

    def run(first: int, last: int, p: int) -> int:
        memory = (heap8, shared[p], local[p], cbank, heap.lo, heap.hi, heap.writable, heap.views[2],
                  shared[p].view(np.uint32), local[p].view(np.uint32))
        return e.run_blocks(code, launch, first, last, memory, flow, tracing.arrays(0),
                            counters[p], errs[p], stats[p], round_trips[p])

    chunk = tracing.chunk_blocks(n_blocks)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for first in range(0, n_blocks, chunk):
            last = min(n_blocks, first + chunk)
            bounds = [first + (last - first) * p // workers for p in range(workers + 1)]
            list(pool.map(run, bounds[:-1], bounds[1:], range(workers)))
            for p in range(workers):
                if errs[p, 0] != e.E_NONE:
                    if errs[p, 0] == e.E_BUDGET:
                        errs[p, 5] = budget
                    raise _error(errs[p], program, heap, grid3, block3)
            tracing.drain()
    tracing.finish()
    trips = round_trips.sum(axis=0)
    trips[2:] = round_trips[:, 2:].max(axis=0)
    return counters.sum(axis=0), trips


def _check_traceable(trace: TraceRequest, program: SassProgram) -> None:
    """Selecting by source line needs the listing's line notes (nvdisasm -g of a -lineinfo
    cubin, as memsim compiles); a listing without them can only be selected by pc."""
    if trace.lines is not None and not any(static.line for static in program.instructions):
        raise MemsimError("trace lines= needs SASS line info, and this listing has none "
                          "(disassemble with nvdisasm -g): select SASS instructions with pcs= instead")


def _error(err: np.ndarray, program: SassProgram, heap: GlobalHeap, grid3, block3) -> Exception:
    """The one-line error of a failed run, worded as the PTX engine words it (memsim.simulate),
    with the SASS instruction."""
    code, pc, block, thread, address, extra = (int(v) for v in err)
    static = program.instructions[pc]
    where = f"line {static.line}" if static.line else f"SASS instruction {pc}"
    who = "thread ({},{},{}) in block ({},{},{})".format(*_thread(thread, block3), *_block(block, grid3))
    kind = {"ld": "read", "st": "write", "ldsm": "read", "ldgsts": "read"}.get(static.op, static.op or "read")
    if code == e.E_BUDGET:
        return BudgetExceeded(f"kernel {program.kernel} ran past the budget of {extra:,} warp "
                              f"instructions (at {where}, {who}): an endless loop? raise max_instructions")
    if code == e.E_CALL_DEPTH:
        return LaunchError(f"{who} nested calls deeper than {extra} (endless recursion?) at {where}: "
                           f"`{static.text}`")
    if code == e.E_EXTERNAL:
        name = program.externals[extra] if extra >= 0 else "a function outside the module"
        return UnsupportedInstruction(f"printf and assert's failure path are not emulated: {who} calls "
                                      f"{name} at {where}: `{static.text}`")
    if code == e.E_TRAP:
        return MemoryFault(f"kernel executed trap at {where} ({who})")
    if code == e.E_MISALIGNED:
        return MemoryFault(f"misaligned {kind} of size {extra} at address {address:#x} by {who}, "
                           f"{where}: `{static.text}`")
    if code == e.E_READ_ONLY:
        return MemoryFault(f"{kind} of size {extra} to a read-only buffer at address {address:#x} by "
                           f"{who}, {where}: `{static.text}`")
    space = {e.E_GLOBAL_OOB: "global", e.E_SHARED_OOB: "shared", e.E_LOCAL_OOB: "local"}.get(code)
    if space:
        detail = (f": {heap.describe(address)}," if space == "global" else
                  f" (beyond the {LOCAL_BYTES_PER_THREAD:,} bytes emulated per thread)" if space == "local" else "")
        return MemoryFault(f"invalid __{space}__ {kind} of size {extra} at address {address:#x}{detail} "
                           f"by {who}, {where}: `{static.text}`")
    return UnsupportedInstruction(f"SASS emulation failed with code {code} at {where}: `{static.text}`")


def _thread(linear: int, block3) -> tuple[int, int, int]:
    return (linear % block3[0], linear // block3[0] % block3[1], linear // (block3[0] * block3[1]))


def _block(linear: int, grid3) -> tuple[int, int, int]:
    return (linear % grid3[0], linear // grid3[0] % grid3[1], linear // (grid3[0] * grid3[1]))
