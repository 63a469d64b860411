"""The public entry point: one kernel launch through compile -> lower -> emulate -> tally.

    report = memsim.simulate(source, "kernel", grid, block, args)

mirrors cupy.RawKernel: numpy arrays are device buffers (written back in place), numpy scalars
are by-value parameters. The launch is checked and set up here once, for every engine (the
dimensions and limits, the budget, the heap and the parameter block, the report); the engine
chosen from memsim.engine.registry compiles, lowers and runs the kernel
(memsim.engine.interface.Engine).
"""
from __future__ import annotations

import time
from typing import Sequence

from .. import metrics as m
from ..compiler.nvrtc import include_options, report_source
from ..errors import LaunchError
from ..launch import LaunchSpec, Value, dims
from ..gpus import GpuProfile, for_arch, load as load_gpu
from ..report import KernelReport
from . import registry
from .jit_cache import drop_stale
from .shipped_code import install as install_shipped_code
from .interface import DEFAULT_BUDGET, MAX_THREADS_PER_BLOCK, Engine, Launch, LoadedKernel, RunResult
from .memory import GlobalHeap, pack_params, split_args
from .tally import instruction_rows, line_rows, metrics_from_rows
from .trace import TraceRequest


def simulate(source, kernel_name, grid, block=None, args: Sequence[Value] | None = None,
             shared_mem: int = 0, arch: str | None = None, options: Sequence[str] = (), *,
             max_instructions: int = DEFAULT_BUDGET, trace: TraceRequest | None = None,
             engine: str | Engine = "auto", include_dirs: Sequence[str] | None = None,
             gpu: str | GpuProfile | None = None) -> KernelReport:
    """Emulate one launch and count its memory traffic under ncu's metric names.

    `simulate(kernel, grid, block, args)` with a numba.cuda kernel (a @cuda.jit function)
    compiles it for the arguments' types and runs it on the SASS engine (memsim.numba_cuda);
    `shared_mem`, `engine`, `max_instructions` and `trace` apply as below.

    `kernel_name`: an extern "C" name, a mangled one, or a C++ name expression such as
    "reduce<256>" (CuPy's name_expressions). `include_dirs`: the user's header directories (the
    CUDA header wheels' are always searched).

    engine "sass" emulates the sm_90 SASS the GPU really runs (exact: ptxas' unrolling,
    merged loads and if-conversion are in the counts); "ptx" emulates the PTX (PTX input, other
    architectures, a quick look); "auto" (the default) is sass for CUDA C on sm_90, else ptx
    (memsim.engine.registry.resolve_engine); an Engine instance runs as given.
    `trace` (memsim.engine.trace.TraceRequest) records selected warp accesses lane by lane; its
    pcs are the instruction indices of the engine that runs. `gpu` (a name or a GpuProfile;
    default: the GPU of `arch`, memsim.gpus.for_arch) is what %nsmid and %smid read; `arch`
    defaults to its profile's."""
    if not isinstance(source, str):
        return _simulate_python(source, kernel_name, grid, block, args, shared_mem,
                                max_instructions=max_instructions, trace=trace, engine=engine, gpu=gpu)
    if block is None or args is None:
        raise LaunchError("simulate(source, kernel_name, grid, block, args): give the block and the arguments")
    started = time.perf_counter()
    profile = load_gpu(gpu) if isinstance(gpu, str) else gpu or for_arch(arch)
    arch = arch or profile.arch
    runner = engine if isinstance(engine, Engine) else registry.get(registry.resolve_engine(engine, source, arch))
    launch = check_launch(source, kernel_name, grid, block, args, shared_mem, arch,
                          (*options, *include_options(include_dirs)), max_instructions, trace, profile)
    drop_stale()   # once per process, before an engine first runs
    install_shipped_code()
    heap = GlobalHeap(split_args(launch.args))
    kernel = runner.load(launch, heap.variables_base)
    heap.place_variables(kernel.layout)
    params = pack_params(kernel.layout, launch.args, heap)
    result = runner.run(kernel, launch, heap, params)
    heap.write_back()
    return assemble_report(runner, launch, kernel, result, time.perf_counter() - started)


def check_launch(source: str, kernel_name: str, grid, block, args: Sequence[Value], shared_mem: int,
                 arch: str, options: Sequence[str], budget: int = DEFAULT_BUDGET,
                 trace: TraceRequest | None = None, gpu: GpuProfile | None = None) -> Launch:
    """The launch every engine runs, its dimensions and limits checked (LaunchError)."""
    grid3, block3 = dims(grid), dims(block)
    threads = block3[0] * block3[1] * block3[2]
    if threads > MAX_THREADS_PER_BLOCK:
        raise LaunchError(f"block {block3} has {threads} threads; the limit is {MAX_THREADS_PER_BLOCK}")
    if shared_mem < 0:
        raise LaunchError("shared_mem must be >= 0")
    return Launch(source=source, kernel_name=kernel_name, grid=grid3, block=block3, args=list(args),
                  shared_mem=shared_mem, arch=arch, options=tuple(options), budget=budget,
                  trace=trace, gpu=gpu or for_arch(arch))


def assemble_report(engine: Engine, launch: Launch, kernel: LoadedKernel, result: RunResult,
                    seconds: float) -> KernelReport:
    """The KernelReport of a run: its counters as ncu's metrics (under the engine's names),
    per instruction and per source line."""
    rows = instruction_rows(kernel.program, result.counters)
    metrics = engine.name_metrics(metrics_from_rows(rows, result.counters))
    metrics.update(result.metrics)
    source_lines, source_name = report_source(kernel.source.text, kernel.source.name, kernel.source.is_ptx)
    return KernelReport(
        kernel=launch.kernel_name, grid=launch.grid, block=launch.block, shared_mem=launch.shared_mem,
        arch=launch.arch, static_shared_bytes=kernel.layout.shared_static, nvrtc_version=kernel.compiler,
        metrics=metrics, provenance={k: m.provenance(k) for k in metrics}, instructions=rows,
        lines=line_rows(rows, source_lines), source_file=source_name, engine=engine.name,
        simulation_seconds=seconds)


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


def simulate_spec(spec: LaunchSpec, **kwargs) -> tuple[KernelReport, list[Value]]:
    """Materialize a LaunchSpec's arguments, simulate it, return the report and the values."""
    values = spec.materialize()
    report = simulate(spec.source, spec.kernel, spec.grid, spec.block, values, spec.shared_mem,
                      options=spec.options, **kwargs)
    return report, values
