"""One launch emulated at the SASS level: the instruction stream the H100 really executes.

    report = simulate_sass(source, "k_name", grid, block, args)

Same arguments and report as memsim.simulate, but the kernel runs as the sm_90 cubin that
NVRTC (with CuPy's flags) makes, so ptxas' unrolling, if-conversion and merged loads are in the
counts. The PTX front end still supplies the parameter layout and shared-memory size.
"""
from __future__ import annotations

import time
from typing import Sequence

import numpy as np

from .. import metrics as m
from ..compile import include_options, kernel_module, load_source
from ..count import new_counters
from ..errors import BudgetExceeded, LaunchError, MemoryFault, MemsimError, UnsupportedInstruction
from ..launch import LaunchSpec, Value, dims
from ..names import match_kernel, unknown_kernel
from ..memory import GlobalHeap, pack_params, split_args
from ..ptx.parser import parse as parse_ptx
from ..ptx.program import lower as lower_ptx
from ..report import KernelReport
from ..tally import instruction_rows, line_rows, metrics_from_rows
from ..trace import TraceBuffers, TraceRequest
from . import emulate as e
from .compile import listing
from .parser import parse as parse_sass
from .program import SassProgram, bind, constant_bank, lower, register_operands, round_trip_steps

DEFAULT_BUDGET = 2_000_000_000
MAX_THREADS_PER_BLOCK = 1024


def sass_program(source: str, kernel: str, arch: str = "sm_90", options: Sequence[str] = (),
                 source_name: str = "kernel.cu", sass: str | None = None,
                 name_expressions: Sequence[str] = ()) -> SassProgram:
    """The lowered SASS of one kernel (its lowered name) of a CUDA C source (or of `sass`,
    nvdisasm's listing of its cubin, where given: no nvdisasm needed then). `name_expressions`:
    those the PTX compile used, so that template instantiations are the same."""
    if sass is None:
        sass = listing(source, arch, tuple(options), source_name, tuple(name_expressions))
    kernels = parse_sass(sass)
    entries = [name for name, k in kernels.items() if k.is_kernel]
    found = match_kernel(kernel, entries)
    if found is None:
        raise unknown_kernel(kernel, entries)
    return lower(kernels[found])


def cuda_source(source: str) -> tuple[str, str]:
    """(text, file name) of a CUDA C source or file: the SASS engine needs the cubin, which a
    PTX file does not give here."""
    text, name, is_ptx = load_source(source)
    if is_ptx:
        raise LaunchError("SASS emulation needs CUDA C source (a .ptx file has no cubin here)")
    return text, name


def simulate_sass(source: str, kernel_name: str, grid, block, args: Sequence[Value], shared_mem: int = 0,
                  arch: str = "sm_90", options: Sequence[str] = (), *,
                  max_instructions: int = DEFAULT_BUDGET, sass: str | None = None,
                  trace: TraceRequest | None = None,
                  include_dirs: Sequence[str] | None = None) -> KernelReport:
    """Emulate one launch on the SASS the H100 runs; `sass` (nvdisasm -c -g text of the
    kernel's cubin) skips compiling and disassembling it here. `trace` records warp accesses
    as memsim.simulate does, with SASS instruction indices as pcs."""
    started = time.perf_counter()
    grid3, block3 = dims(grid), dims(block)
    threads = block3[0] * block3[1] * block3[2]
    if threads > MAX_THREADS_PER_BLOCK:
        raise LaunchError(f"block {block3} has {threads} threads; the limit is {MAX_THREADS_PER_BLOCK}")
    text, name = cuda_source(source)
    options = (*options, *include_options(include_dirs))
    compiled = kernel_module(text, name, False, kernel_name, arch, options)
    args = list(args)
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
    code = bind(program, constant_bank(block3, grid3, params))
    shared_bytes = max(ptx_program.shared_static, ptx_program.shared_dynamic_offset + shared_mem)
    counters, round_trips = _run(code, program, heap, threads, block3, grid3, shared_bytes,
                                 max_instructions, TraceBuffers(trace, program))
    heap.write_back()
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
        lines=line_rows(rows, text.splitlines()), source_file=name, engine="sass",
        simulation_seconds=time.perf_counter() - started)


def _run(code: np.ndarray, program: SassProgram, heap: GlobalHeap, threads: int, block3, grid3,
         shared_bytes: int, budget: int, tracing: TraceBuffers) -> tuple[np.ndarray, np.ndarray]:
    """Run the grid in chunks of blocks (the trace's, or all at once untraced), handing each
    chunk's accesses on before the next; the budget counts over the whole launch. Returns the
    counters and the warps' round trips (memsim.metrics.ROUND_TRIPS, in that order)."""
    shared = np.zeros((shared_bytes + 15) // 16 * 16 + 16, dtype=np.uint8)
    counters = new_counters(len(code))
    err = np.zeros(6, dtype=np.int64)
    stats = np.zeros(2, dtype=np.int64)
    round_trips = np.zeros(len(m.ROUND_TRIPS), dtype=np.int64)
    sources, dests = register_operands(program)
    steps = round_trip_steps(program)
    regs = e.new_registers((threads + 31) // 32)
    raw = heap.views
    n_blocks = grid3[0] * grid3[1] * grid3[2]
    chunk = tracing.chunk_blocks(n_blocks)
    executed = 0
    for first in range(0, n_blocks, chunk):
        executed += e.run_blocks(
            code, regs, threads, np.array(block3, np.int64), np.array(grid3, np.int64), first,
            min(n_blocks, first + chunk), raw[0], raw[1], raw[2], shared[:max(shared_bytes, 16)],
            heap.lo, heap.hi, counters, err, budget - executed, stats, *tracing.arrays(),
            sources, dests, steps, round_trips)
        if err[0] != e.E_NONE:
            if err[0] == e.E_BUDGET:
                err[5] = budget
            raise _error(err, program, grid3, block3)
        tracing.drain()
    tracing.finish()
    return counters, round_trips


def _check_traceable(trace: TraceRequest, program: SassProgram) -> None:
    """Selecting by source line needs the listing's line notes (nvdisasm -g of a -lineinfo
    cubin, as memsim compiles); a listing without them can only be selected by pc."""
    if trace.lines is not None and not any(static.line for static in program.instructions):
        raise MemsimError("trace lines= needs SASS line info, and this listing has none "
                          "(disassemble with nvdisasm -g): select SASS instructions with pcs= instead")


def simulate_spec_sass(spec: LaunchSpec, **kwargs) -> tuple[KernelReport, list[Value]]:
    values = spec.materialize()
    report = simulate_sass(spec.source, spec.kernel, spec.grid, spec.block, values, spec.shared_mem,
                           options=spec.options, **kwargs)
    return report, values


def _error(err: np.ndarray, program: SassProgram, grid3, block3) -> Exception:
    code, pc, block, thread, address, extra = (int(v) for v in err)
    static = program.instructions[pc]
    where = f"line {static.line}, SASS `{static.text}`"
    if code == e.E_BUDGET:
        return BudgetExceeded(f"kernel {program.kernel} ran past the budget of {extra:,} warp "
                              f"instructions (at {where})")
    kind = {e.E_GLOBAL_OOB: "invalid __global__ access", e.E_SHARED_OOB: "invalid __shared__ access",
            e.E_MISALIGNED: "misaligned access"}.get(code)
    if kind:
        return MemoryFault(f"{kind} of size {extra} at address {address:#x} by thread {thread} of "
                           f"block {block}, {where}")
    return UnsupportedInstruction(f"SASS emulation failed with code {code} at {where}")
