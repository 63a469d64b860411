"""The public entry point: one kernel launch through compile -> parse -> lower -> emulate -> tally.

    report = memsim.simulate(source, "kernel", grid, block, args)

mirrors cupy.RawKernel: numpy arrays are device buffers (written back in place), numpy scalars
are by-value parameters.
"""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Sequence

import numba
import numpy as np

from .. import metrics as m
from ..compiler.nvrtc import SASS_SUFFIXES, include_options, kernel_module, load_source, report_source
from .count import C_SPACE, N_COUNTERS
from .ptx.emulate import (E_BUDGET, E_CONST_OOB, E_DEADLOCK, E_GLOBAL_OOB, E_LOCAL_OOB, E_MISALIGNED,
                      E_MIXED_SPACE, E_NONE, E_PARAM_OOB, E_SHARED_OOB, E_TRAP, E_TYPE,
                      E_UNSUPPORTED, run_blocks)
from ..errors import BudgetExceeded, LaunchError, MemoryFault, UnsupportedInstruction
from ..model.gpu_profile import sm_count
from ..launch import LaunchSpec, Value, dims
from .memory import GlobalHeap, pack_params, split_args
from .ptx import opcodes
from .ptx.opcodes import OP
from .ptx.parser import parse
from .ptx.program import F_OP, SPECIAL_REGISTERS, Program, bind_params, lower
from ..report import KernelReport
from .tally import instruction_rows, line_rows, metrics_from_rows
from .trace import TraceBuffers, TraceRequest

DEFAULT_BUDGET = 2_000_000_000   # warp instructions: about a minute of emulation
MAX_THREADS_PER_BLOCK = 1024
BLOCKS_PER_CHUNK = 4096
ENGINES = ("auto", "sass", "ptx")
# Architectures whose SASS the SASS engine runs: sm_90 (checked on 1,276 H100 launches) and
# sm_80 (Ampere's SASS uses the same opcodes the seed kernels need; bank 0 differs, see
# memsim.engine.sass.program.PARAM_BASES; docs/a100.md).
SASS_ARCHES = ("sm_80", "sm_90")
# What each engine's counts are: the SASS engine runs the instruction stream the GPU runs; the
# PTX engine runs NVVM's PTX, before ptxas unrolls, merges and if-converts it.
ENGINE_NOTES = {"sass": "SASS-level: the instructions the GPU runs (sm_90 or sm_80 code)",
                "ptx": "PTX-level: may differ where ptxas reshapes the code (unrolled loops, "
                       "merged or reordered loads)"}


def simulate(source, kernel_name, grid, block=None, args: Sequence[Value] | None = None,
             shared_mem: int = 0, arch: str = "sm_90", options: Sequence[str] = (), *,
             max_instructions: int = DEFAULT_BUDGET, trace: TraceRequest | None = None,
             engine: str = "auto", include_dirs: Sequence[str] | None = None) -> KernelReport:
    """Emulate one launch and count its memory traffic under ncu's metric names.

    `simulate(kernel, grid, block, args)` with a numba.cuda kernel (a @cuda.jit function)
    compiles it for the arguments' types and runs it on the SASS engine (memsim.numba_cuda);
    `shared_mem`, `engine`, `max_instructions` and `trace` apply as below.

    `kernel_name`: an extern "C" name, a mangled one, or a C++ name expression such as
    "reduce<256>" (CuPy's name_expressions). `include_dirs`: the user's header directories (the
    CUDA header wheels' are always searched).

    engine "sass" emulates the sm_90 SASS the GPU really runs (exact: ptxas' unrolling,
    merged loads and if-conversion are in the counts); "ptx" emulates the PTX (PTX input, other
    architectures, a quick look); "auto" (the default) is sass for CUDA C on sm_90, else ptx.
    `trace` (memsim.engine.trace.TraceRequest) records selected warp accesses lane by lane; its pcs
    are the instruction indices of the engine that runs."""
    if not isinstance(source, str):
        return _simulate_python(source, kernel_name, grid, block, args, shared_mem,
                                max_instructions=max_instructions, trace=trace, engine=engine)
    if block is None or args is None:
        raise LaunchError("simulate(source, kernel_name, grid, block, args): give the block and the arguments")
    engine = resolve_engine(engine, source, arch)
    options = (*options, *include_options(include_dirs))
    if engine == "sass":
        from .sass.simulate import simulate_sass
        return simulate_sass(source, kernel_name, grid, block, args, shared_mem, arch, options,
                             max_instructions=max_instructions, trace=trace)
    started = time.perf_counter()
    grid3, block3 = dims(grid), dims(block)
    threads = _threads(block3)
    if threads > MAX_THREADS_PER_BLOCK:
        raise LaunchError(f"block {block3} has {threads} threads; the limit is {MAX_THREADS_PER_BLOCK}")
    if shared_mem < 0:
        raise LaunchError("shared_mem must be >= 0")
    text, name, is_ptx = load_source(source)
    found = kernel_module(text, name, is_ptx, kernel_name, arch, options)
    version = found.nvrtc_version
    module = parse(found.ptx)
    args = list(args)
    heap = GlobalHeap(split_args(args))
    program = lower(module, found.kernel, heap.variables_base)
    heap.place_variables(program)
    params = pack_params(program, args, heap)
    workers = _workers(program, grid3[0] * grid3[1] * grid3[2], threads)
    layout = _SpaceLayout(program, block3, shared_mem, len(params), workers)
    heap.build(program, layout.tail_bytes)
    layout.place(heap, params)
    if trace is not None:
        trace.note_buffers(heap)
    counters = _run(bind_params(program, params), heap, layout, grid3, block3, shared_mem,
                    max_instructions, trace)
    heap.write_back()
    rows = instruction_rows(program, counters)
    metrics = metrics_from_rows(rows, counters)
    source_lines, source_name = report_source(text, name, is_ptx)
    return KernelReport(
        kernel=kernel_name, grid=grid3, block=block3, shared_mem=shared_mem, arch=arch,
        static_shared_bytes=program.shared_static,
        nvrtc_version=version, metrics=metrics,
        provenance={k: m.provenance(k) for k in metrics}, instructions=rows,
        lines=line_rows(rows, source_lines), source_file=source_name,
        simulation_seconds=time.perf_counter() - started)


def _simulate_python(kernel, grid, block, args, extra, shared_mem: int, **kwargs) -> KernelReport:
    """simulate(kernel, grid, block, args[, shared_mem]) of a numba.cuda kernel: simulate's
    parameters shift by one, as there is no kernel name (`args=` by keyword lands in `extra`)."""
    from ..numba_cuda import is_numba_kernel, numba_launch

    if not is_numba_kernel(kernel):
        raise LaunchError(f"simulate takes CUDA C or PTX text, a file name, or a numba.cuda kernel; "
                          f"got a {type(kernel).__name__}")
    if args is None and extra is not None:
        args, extra = extra, None
    if args is None:
        raise LaunchError("simulate(kernel, grid, block, args): give the kernel's arguments")
    compiled, values = numba_launch(kernel, args)
    report = simulate(compiled.ptx, compiled.name, grid, block, values,
                      shared_mem if extra is None else extra, **kwargs)
    return report.model_copy(update={"nvrtc_version": compiled.compiler})


def check_engine(engine: str) -> None:
    if engine not in ENGINES:
        raise LaunchError(f"unknown engine '{engine}': use {', '.join(ENGINES)}")


def resolve_engine(engine: str, source: str, arch: str = "sm_90") -> str:
    """The engine "auto" stands for: the SASS engine for CUDA C compiled for an architecture
    whose SASS it runs (SASS_ARCHES: the GPU's own instructions) and numba.cuda's PTX (made for
    sm_90, linked by nvJitLink), the PTX engine for other PTX input and other architectures."""
    from ..numba_cuda import is_numba_ptx

    check_engine(engine)
    text, name, is_ptx = load_source(source)
    if source.strip().endswith(SASS_SUFFIXES):
        if engine == "ptx" or arch != "sm_90":
            raise LaunchError(f"{name} is sm_90 SASS: it runs on the SASS engine only (no --engine ptx, "
                              f"no other architecture)")
        return "sass"
    if engine != "auto":
        return engine
    if is_ptx:
        return "sass" if arch == "sm_90" and is_numba_ptx(text) else "ptx"
    return "sass" if arch in SASS_ARCHES else "ptx"


def simulate_spec(spec: LaunchSpec, **kwargs) -> tuple[KernelReport, list[Value]]:
    """Materialize a LaunchSpec's arguments, simulate it, return the report and the values."""
    values = spec.materialize()
    report = simulate(spec.source, spec.kernel, spec.grid, spec.block, values, spec.shared_mem,
                      options=spec.options, **kwargs)
    return report, values


class _Registers:
    """Register files, one per worker: int64 bit patterns, with float views of the same memory."""

    def __init__(self, program: Program, block3, grid3, dynamic_smem: int, total_smem: int,
                 workers: int):
        threads = _threads(block3)
        self.n_warps = (threads + 31) // 32
        self.r64 = np.zeros((workers, self.n_warps, program.n_slots, 32), dtype=np.int64)
        self.rf32 = self.r64.view(np.float32)
        self.rf64 = self.r64.view(np.float64)
        for slot, bits in program.constants:
            self.r64[:, :, slot, :] = np.array([bits], dtype=np.uint64).view(np.int64)[0]
        self._specials(program.special_base, block3, grid3, dynamic_smem, total_smem)

    def _specials(self, base: int, block3, grid3, dynamic_smem: int, total_smem: int) -> None:
        linear = np.arange(self.n_warps * 32).reshape(self.n_warps, 32)
        lane = linear % 32
        values = {
            "%tid.x": linear % block3[0], "%tid.y": (linear // block3[0]) % block3[1],
            "%tid.z": linear // (block3[0] * block3[1]),
            "%ntid.x": block3[0], "%ntid.y": block3[1], "%ntid.z": block3[2],
            "%nctaid.x": grid3[0], "%nctaid.y": grid3[1], "%nctaid.z": grid3[2],
            "%laneid": lane, "%warpid": linear // 32, "%nwarpid": self.n_warps, "%nsmid": sm_count(),
            "%lanemask_eq": 1 << lane, "%lanemask_lt": (1 << lane) - 1,
            "%lanemask_le": (1 << (lane + 1)) - 1,
            "%lanemask_ge": (0xFFFFFFFF << lane) & 0xFFFFFFFF,
            "%lanemask_gt": (0xFFFFFFFF << (lane + 1)) & 0xFFFFFFFF,
            "%dynamic_smem_size": dynamic_smem, "%total_smem_size": total_smem,
        }
        for name, value in values.items():
            self.r64[:, :, base + SPECIAL_REGISTERS.index(name), :] = value


class _SpaceLayout:
    """Shared, local and param memory live after the heap in one image (one shared and local
    region per worker), so the emulator's memory path takes one set of arrays for every space."""

    def __init__(self, program: Program, block3, shared_mem: int, param_bytes: int, workers: int):
        threads = _threads(block3)
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


def _workers(program: Program, n_blocks: int, threads: int) -> int:
    """Blocks run in parallel only when no atomics order them and there is enough work."""
    has_atomics = bool(np.isin(program.code[:, F_OP], (OP["atom"], OP["red"])).any())
    if has_atomics or n_blocks * threads < 1 << 16:
        return 1
    return max(1, min(numba.get_num_threads(), n_blocks))


class _Workers:
    """Per-worker state of one launch: registers, counters, error slot and trace buffers.

    Each worker emulates a contiguous range of blocks; run_blocks releases the GIL, so the
    workers are plain threads."""

    def __init__(self, program: Program, heap: GlobalHeap, layout: _SpaceLayout, grid3, block3,
                 shared_mem: int, budget: int, trace: TraceRequest | None):
        self.program, self.heap, self.layout, self.budget = program, heap, layout, budget
        self.grid3, self.block3 = grid3, block3
        self.count = n = layout.workers
        self.regs = _Registers(program, block3, grid3, shared_mem, layout.shared_bytes, n)
        self.counters = np.zeros((n, len(program.code), N_COUNTERS), dtype=np.int64)
        self.errs = np.zeros((n, 6), dtype=np.int64)
        self.executed = np.zeros(n, dtype=np.int64)
        self.tracing = TraceBuffers(trace, program, n)

    def run(self, first: int, last: int, p: int) -> None:
        lo = first + (last - first) * p // self.count
        hi = first + (last - first) * (p + 1) // self.count
        program, heap, regs = self.program, self.heap, self.regs
        self.executed[p] = run_blocks(
            program.code, regs.r64[p], regs.rf32[p], regs.rf64[p], _threads(self.block3),
            np.array(self.grid3, np.int64), lo, hi, program.special_base, *heap.views,
            self.layout.seg[p], heap.lo, heap.hi, heap.writable, self.counters[p], self.errs[p],
            self.budget, self.executed[p], *self.tracing.arrays(p))

    def check(self) -> None:
        failed = [e for e in self.errs if e[0] != E_NONE]
        if failed:
            raise _error(min(failed, key=lambda e: e[2]), self.program, self.heap, self.grid3, self.block3)

    def merged_counters(self) -> np.ndarray:
        merged = self.counters.sum(axis=0)
        merged[:, C_SPACE] = self.counters[:, :, C_SPACE].max(axis=0)
        return merged


def _threads(block3) -> int:
    return block3[0] * block3[1] * block3[2]


def _run(program: Program, heap: GlobalHeap, layout: _SpaceLayout, grid3, block3, shared_mem: int,
         budget: int, trace: TraceRequest | None) -> np.ndarray:
    workers = _Workers(program, heap, layout, grid3, block3, shared_mem, budget, trace)
    n_blocks = grid3[0] * grid3[1] * grid3[2]
    chunk = workers.tracing.chunk_blocks(BLOCKS_PER_CHUNK) * workers.count
    with ThreadPoolExecutor(max_workers=workers.count) as pool:
        for first in range(0, n_blocks, chunk):
            last = min(n_blocks, first + chunk)
            list(pool.map(lambda p: workers.run(first, last, p), range(workers.count)))
            workers.check()
            workers.tracing.drain()
    workers.tracing.finish()
    return workers.merged_counters()


def _round16(n: int) -> int:
    return (n + 15) // 16 * 16


_ACCESS = {E_GLOBAL_OOB: "global", E_SHARED_OOB: "shared", E_LOCAL_OOB: "local",
           E_PARAM_OOB: "param", E_CONST_OOB: "const"}


def _error(err: np.ndarray, program: Program, heap: GlobalHeap, grid3, block3) -> Exception:
    code, pc, block, thread, address, extra = (int(v) for v in err)
    static = program.instructions[pc]
    where = f"line {static.line}" if static.line else f"PTX instruction {pc}"
    bx, by, bz = block % grid3[0], (block // grid3[0]) % grid3[1], block // (grid3[0] * grid3[1])
    tx, ty, tz = thread % block3[0], (thread // block3[0]) % block3[1], thread // (block3[0] * block3[1])
    who = f"thread ({tx},{ty},{tz}) in block ({bx},{by},{bz})"
    kind = "read" if static.op == "ld" else ("write" if static.op == "st" else static.op)
    if code in _ACCESS:
        space = _ACCESS[code]
        detail = f": {heap.describe(address)}," if space == "global" else ""
        return MemoryFault(f"invalid __{space}__ {kind} of size {extra} at address {address:#x}{detail} "
                           f"by {who}, {where}: `{static.text}`")
    if code == E_MISALIGNED:
        return MemoryFault(f"misaligned {kind} of size {extra} at address {address:#x} by {who}, "
                           f"{where}: `{static.text}`")
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
    if code == E_BUDGET:
        return BudgetExceeded(f"kernel {program.kernel} ran past the budget of {extra:,} warp "
                              f"instructions (at {where}, {who}): an endless loop? raise max_instructions")
    if code == E_TRAP:
        return MemoryFault(f"kernel executed trap at {where} ({who})")
    if code == E_MIXED_SPACE:
        return UnsupportedInstruction(f"one warp's generic access mixes state spaces at {where}")
    if code == E_DEADLOCK:
        return LaunchError(f"barrier deadlock at {where}")
    return LaunchError(f"emulation failed with code {code} at {where}")
