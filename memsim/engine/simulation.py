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
from typing import Callable, Sequence

from .. import metrics as m
from ..compiler.nvrtc import include_options, report_source
from ..errors import LaunchError
from ..launch import LaunchSpec, Value, dims
from ..gpus import GpuProfile, for_arch, load as load_gpu
from ..report import KernelReport
from . import registry
from .jit_cache import drop_stale
from .shipped_code import install as install_shipped_code
from .interface import DEFAULT_BUDGET, DEFAULT_TIMEOUT, Engine, Launch, LoadedKernel, RunResult
from .launch_limits import check_buffer_bytes, check_geometry, check_launch_bounds, check_registers, check_shared
from .memory import GlobalHeap, pack_params, split_args
from .tally import instruction_rows, line_rows, metrics_from_rows
from .issue_trace import IssueTraceRequest
from .trace import TraceRequest


def simulate(source, kernel_name, grid, block=None, args: Sequence[Value] | None = None,
             shared_mem: int = 0, arch: str | None = None, options: Sequence[str] = (), *,
             max_warp_instructions: int = DEFAULT_BUDGET, timeout: float | None = DEFAULT_TIMEOUT,
             trace: TraceRequest | None = None, engine: str | Engine = registry.DEFAULT,
             include_dirs: Sequence[str] | None = None, gpu: str | GpuProfile | None = None,
             max_instructions: int | None = None, issue_trace: IssueTraceRequest | None = None) -> KernelReport:
    """Emulate one launch and count its memory traffic under ncu's metric names.

    `simulate(kernel, grid, block, args)` with a numba.cuda kernel (a @cuda.jit function)
    compiles it for the arguments' types and runs it on the SASS engine (memsim.numba_cuda, which
    registers itself with register_python_kernels: the engine imports no front end);
    `shared_mem`, `engine`, `max_warp_instructions`, `timeout`, `trace` and `gpu` apply as below.

    `kernel_name`: an extern "C" name, a mangled one, or a C++ name expression such as
    "reduce<256>" (CuPy's name_expressions). `include_dirs`: the user's header directories (the
    CUDA header wheels' are always searched).

    engine "sass" emulates the sm_90 SASS the GPU really runs (exact: ptxas' unrolling,
    merged loads and if-conversion are in the counts); "ptx" emulates the PTX (PTX input, other
    architectures, a quick look); "auto" (the default) is sass for CUDA C on sm_90, else ptx
    (memsim.engine.registry.resolve_engine); an Engine instance runs as given.
    `trace` (memsim.engine.trace.TraceRequest) records selected warp accesses lane by lane; its
    pcs are the instruction indices of the engine that runs. `issue_trace`
    (memsim.engine.issue_trace.IssueTraceRequest) records every warp instruction of a sample of
    blocks for the timing simulation (the SASS engine fills it). `gpu` (a name or a GpuProfile;
    default: the GPU of `arch`, memsim.gpus.for_arch) is what %nsmid and %smid read, and whose
    limits a launch must keep: one the GPU would refuse is refused as its driver does
    (LaunchError naming the CUDA error: memsim.engine.launch_limits); `arch` defaults to its
    profile's.

    The run stops with one line (BudgetExceeded) naming the source line and the warps still
    running past `max_warp_instructions` (warp instructions per worker and chunk of blocks;
    `max_instructions` is its old name) or `timeout` seconds of emulation (None or 0: no limit)."""
    if max_instructions is not None:
        max_warp_instructions = max_instructions
    if not isinstance(source, str):
        if _python_kernels is None:
            raise LaunchError(f"simulate takes CUDA C or PTX text or a file name; got a {type(source).__name__}")
        return _python_kernels(source, kernel_name, grid, block, args, shared_mem,
                               max_warp_instructions=max_warp_instructions, timeout=timeout, trace=trace,
                               engine=engine, gpu=gpu)
    if block is None or args is None:
        raise LaunchError("simulate(source, kernel_name, grid, block, args): give the block and the arguments")
    started = time.perf_counter()
    profile = limits_profile(gpu, arch)
    arch = arch or profile.arch
    runner = registry.choose(engine, source, arch)
    launch = check_launch(source, kernel_name, grid, block, args, shared_mem, arch,
                          (*options, *include_options(include_dirs)), max_warp_instructions, trace, profile,
                          timeout)
    launch.issue_trace = issue_trace
    drop_stale()   # once per process, before an engine first runs
    install_shipped_code()
    heap = GlobalHeap(split_args(launch.args))
    kernel = runner.load(launch, heap.variables_base)
    check_shared(kernel.layout.shared_static, launch.shared_mem, profile)
    check_registers(kernel.registers, launch.threads, profile)
    check_launch_bounds(kernel.layout.max_threads, kernel.layout.block_shape, launch.block, profile)
    heap.place_variables(kernel.layout)
    params = pack_params(kernel.layout, launch.args, heap)
    result = runner.run(kernel, launch, heap, params)
    heap.write_back()
    return assemble_report(runner, launch, kernel, result, time.perf_counter() - started)


def limits_profile(gpu: str | GpuProfile | None = None, arch: str | None = None) -> GpuProfile:
    """The GPU a launch runs on and whose limits apply: `gpu`, else the GPU of `arch`
    (memsim.gpus.for_arch: the default GPU where its arch matches)."""
    return load_gpu(gpu) if isinstance(gpu, str) else gpu or for_arch(arch)


def check_launch(source: str, kernel_name: str, grid, block, args: Sequence[Value], shared_mem: int,
                 arch: str, options: Sequence[str], budget: int = DEFAULT_BUDGET,
                 trace: TraceRequest | None = None, gpu: str | GpuProfile | None = None,
                 timeout: float | None = DEFAULT_TIMEOUT) -> Launch:
    """The launch every engine runs, checked against `gpu`'s limits before anything is compiled
    (LaunchError naming the CUDA error); the static shared memory and the registers are checked
    once the kernel is loaded (simulate). `gpu` defaults to the GPU of `arch`."""
    profile = limits_profile(gpu, arch)
    grid3, block3 = dims(grid), dims(block)
    check_geometry(grid3, block3, profile)
    check_shared(0, shared_mem, profile)
    check_buffer_bytes(sum(int(getattr(a, "nbytes", 0)) for a in args if getattr(a, "ndim", 0)), profile)
    if budget < 1 or (timeout is not None and timeout < 0):
        raise LaunchError("max_warp_instructions must be >= 1 and timeout >= 0 (0: no limit)")
    return Launch(source=source, kernel_name=kernel_name, grid=grid3, block=block3, args=list(args),
                  shared_mem=shared_mem, arch=arch, options=tuple(options), budget=budget,
                  timeout=timeout, trace=trace, gpu=profile)


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
        registers_per_thread=kernel.registers,
        arch=launch.arch, static_shared_bytes=kernel.layout.shared_static, nvrtc_version=kernel.compiler,
        metrics=metrics, provenance={k: m.provenance(k) for k in metrics}, instructions=rows,
        lines=line_rows(rows, source_lines), source_file=source_name, engine=engine.name,
        simulation_seconds=seconds)


# What simulate does with a kernel that is a Python object rather than source text: a front end
# registers it (memsim/__init__.py registers memsim.numba_cuda.simulate_kernel), so the engine
# never imports a front end.
_python_kernels: Callable[..., KernelReport] | None = None


def register_python_kernels(run: Callable[..., KernelReport]) -> None:
    """`run(kernel, grid, block, args, extra, shared_mem, **simulate_kwargs)` simulates a kernel
    given as a Python object (memsim.numba_cuda.simulate_kernel)."""
    global _python_kernels
    _python_kernels = run


def simulate_spec(spec: LaunchSpec, **kwargs) -> tuple[KernelReport, list[Value]]:
    """Materialize a LaunchSpec's arguments, simulate it, return the report and the values.
    A launch the GPU would refuse is refused before its buffers are made."""
    check_spec(spec, kwargs.get("gpu"))
    values = spec.materialize()
    report = simulate(spec.source, spec.kernel, spec.grid, spec.block, values, spec.shared_mem,
                      options=spec.options, **kwargs)
    return report, values


def check_spec(spec: LaunchSpec, gpu: str | GpuProfile | None = None) -> None:
    """What can be checked of a LaunchSpec before its buffers are made: the geometry, the
    dynamic shared memory and the buffers' bytes against `gpu`'s limits."""
    profile = limits_profile(gpu)
    check_geometry(spec.grid, spec.block, profile)
    check_shared(0, spec.shared_mem, profile)
    check_buffer_bytes(sum(arg.nbytes for arg in spec.args if arg.is_buffer), profile)
