"""Stages 3 to 5 together: the modeled numbers for one GPU, on top of the exact counts.

    report = memsim.predict(source, "kernel", grid, block, args, gpu="A100")

The one place that runs an engine and then the models: the engine (memsim.engine.registry)
emulates the launch with the cache model (memsim.model.cache: L1, L2, DRAM traffic) listening
to every global warp access it streams, ordered by the register flow the engine gives of its
code; then the time model (memsim.model.timing: ncu's gpu__time_duration at base clocks and the
CUDA-event time) reads the report. The report comes back with those metrics marked MODELED.
With engine="sass" the exact counters and the trace the cache model reads both come from the
instruction stream the GPU runs.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from . import metrics as m
from .compiler.nvrtc import SASS_SUFFIXES, include_options
from .engine import registry
from .engine.interface import DEFAULT_BUDGET, DEFAULT_TIMEOUT, Engine, KernelShape
from .engine.issue_trace import IssueTraceRequest
from .engine.simulation import check_spec, simulate
from .engine.trace import TraceRequest
from .errors import LaunchError
from .launch import LaunchSpec, Value, dims
from .model.cache import CacheModel, CacheTuning, TrafficEstimate
from .model.nvprof_metrics import nvprof_metrics, occupancy_fraction
from .gpus import DEFAULT_GPU, GpuProfile, load
from .model.pascal import WideSharedCounter, compile_arch, pascal_counts, uses_pascal_rules, wide_shared_rows
from .model.scheduling import ProgramFlow
from .model.timing import DEFAULT_REGISTERS, predict_time
from .report import KernelReport
from .timing import sample_blocks, simulate_time

# The trace streams through a buffer of TRACE_CAPACITY warp accesses (~40 MB: 304 bytes each);
# the cache model orders a chunk of blocks whole up to WHOLE_CHUNK_ACCESSES (~640 MB of trace),
# and a longer one (one block's loop over a large array) in windows of that many accesses.
TRACE_CAPACITY = 1 << 17
WHOLE_CHUNK_ACCESSES = 1 << 21


def predict(source: str, kernel_name: str, grid, block, args: Sequence[Value], shared_mem: int = 0,
            arch: str | None = None, options: Sequence[str] = (), *, gpu: str | GpuProfile = DEFAULT_GPU,
            engine: str | Engine = registry.DEFAULT, registers_per_thread: int | None = None,
            include_dirs: Sequence[str] | None = None, max_warp_instructions: int = DEFAULT_BUDGET,
            timeout: float | None = DEFAULT_TIMEOUT) -> KernelReport:
    """memsim.simulate plus the cache and time models of `gpu` (a profile name or GpuProfile);
    `kernel_name` and `include_dirs` as memsim.simulate's. `arch` defaults to the GPU's (its
    profile's `arch`); on Pascal (sm_6x) the report also carries nvprof's metrics,
    counted with Pascal's rules (memsim.model.pascal, memsim.model.nvprof_metrics).
    `registers_per_thread` (occupancy) defaults to the cubin's figure (the report's), else 32;
    `max_warp_instructions` and `timeout` bound the run as memsim.simulate's. A launch `gpu`
    would refuse is refused as its driver does."""
    profile = gpu if isinstance(gpu, GpuProfile) else load(gpu)
    budget = dict(max_warp_instructions=max_warp_instructions, timeout=timeout)
    arch = arch or profile.arch
    target = compile_arch(arch)
    engine = registry.choose(engine, source, target)   # once: the Engine is passed on
    if source.strip().endswith(SASS_SUFFIXES):
        raise LaunchError("--gpu's cache and time models read the kernel's PTX, which a .sass or "
                          ".cubin lacks: leave out --gpu for its exact counters")
    issues = IssueTraceRequest(blocks=sample_blocks(int(np.prod(dims(grid))), profile))
    report, model = _run_with_caches(source, kernel_name, grid, block, args, shared_mem, target, options,
                                     gpu=profile, registers_per_thread=registers_per_thread, engine=engine,
                                     include_dirs=include_dirs, issue_trace=issues,
                                     watched_blocks=issues.blocks, **budget)
    registers_per_thread = registers_per_thread or report.registers_per_thread
    estimate = predict_time(report, None, profile, registers_per_thread=registers_per_thread,
                            static_shared_bytes=report.static_shared_bytes, arguments=len(args))
    report.metrics[m.DURATION] = estimate.duration_ns
    report.metrics[m.EVENT_TIME_MS] = estimate.event_ms
    simulated = simulate_time(report, issues.trace, issues.schedule, profile, estimate.occupancy.blocks_per_sm,
                              loads=model.load_outcomes(), block_slots=estimate.occupancy.block_slots,
                              warp_slots=estimate.occupancy.warp_slots)
    if simulated is not None:
        report.metrics[m.FORMULA_DURATION] = estimate.duration_ns
        report.metrics[m.DURATION] = max(simulated.duration_ns, estimate.breakdown.atomics_ns
                                         + simulated.fixed_ns)
        report.time_simulation = simulated.model_dump()
    report.provenance.update({name: m.Provenance.MODELED for name in m.MODELED + [m.EVENT_TIME_MS,
                                                                                  m.FORMULA_DURATION]
                              if name in report.metrics})
    report.gpu = profile.name
    report.arch = arch
    if uses_pascal_rules(profile):
        launch = dict(source=source, kernel_name=kernel_name, grid=grid, block=block, args=args,
                      shared_mem=shared_mem, arch=target, options=options, engine=engine,
                      include_dirs=include_dirs, gpu=profile, **budget)
        report.nvprof_metrics = _nvprof_view(report, profile, estimate.occupancy, launch)
    return report


def predict_spec(spec: LaunchSpec, **kwargs) -> tuple[KernelReport, list[Value]]:
    """Materialize a LaunchSpec's arguments and predict it (a launch the GPU would refuse is
    refused before its buffers are made)."""
    check_spec(spec, kwargs.get("gpu", DEFAULT_GPU))
    values = spec.materialize()
    return predict(spec.source, spec.kernel, spec.grid, spec.block, values, spec.shared_mem,
                   options=spec.options, **kwargs), values


# ---- the cache model, listening to a run ------------------------------------------------------

def simulate_with_caches(source: str, kernel_name: str, grid, block, args: Sequence[Value],
                         shared_mem: int = 0, arch: str | None = None, options: Sequence[str] = (), *,
                         gpu: str | GpuProfile = DEFAULT_GPU, registers_per_thread: int | None = None,
                         tuning: CacheTuning | None = None, engine: str | Engine = registry.DEFAULT,
                         **simulate_kwargs) -> KernelReport:
    """memsim.simulate plus the cache model: the report's MODELED cache and DRAM metrics filled in.

    `engine` (a name or an Engine, as memsim.simulate) emulates the launch, and its trace and code
    (the loads each access waits for) drive the model: with "sass" the access stream is the
    one the GPU runs, ptxas' unrolling included. `registers_per_thread` (occupancy) defaults
    to the cubin's figure, else to 32 where the compiler's figure is unknown."""
    return _run_with_caches(source, kernel_name, grid, block, args, shared_mem, arch, options, gpu=gpu,
                            registers_per_thread=registers_per_thread, tuning=tuning, engine=engine,
                            **simulate_kwargs)[0]


def _run_with_caches(source: str, kernel_name: str, grid, block, args: Sequence[Value], shared_mem: int = 0,
                     arch: str | None = None, options: Sequence[str] = (), *, gpu: str | GpuProfile = DEFAULT_GPU,
                     registers_per_thread: int | None = None, tuning: CacheTuning | None = None,
                     engine: str | Engine = registry.DEFAULT, watched_blocks: np.ndarray | None = None,
                     **simulate_kwargs) -> tuple[KernelReport, CacheModel]:
    """simulate_with_caches, and the cache model it ran (`watched_blocks`: whose loads' outcomes it keeps)."""
    profile = gpu if isinstance(gpu, GpuProfile) else load(gpu)
    arch = arch or compile_arch(profile.arch)
    engine = registry.choose(engine, source, arch)
    options = (*options, *include_options(simulate_kwargs.pop("include_dirs", None)))
    shape = engine.shape(source, kernel_name, arch, options)
    b = dims(block)
    threads = b[0] * b[1] * b[2]
    flow = ProgramFlow.of(shape.flow)
    model = CacheModel(profile, threads_per_block=threads,
                       registers_per_thread=registers_per_thread or shape.registers or DEFAULT_REGISTERS,
                       shared_per_block=shape.shared_static + shared_mem,
                       flow=flow, blocks=int(np.prod(dims(grid))), tuning=tuning,
                       watched_blocks=watched_blocks, local=shape.local, widths=shape.widths)
    blocks_per_chunk, capacity, whole = _chunking(shape, threads, model.wave_blocks)
    model.split_rows = whole
    request = TraceRequest(spaces=("global",) if shape.local is None else ("global", "local"),
                           on_chunk=model.consume, blocks_per_chunk=blocks_per_chunk,
                           capacity=capacity, flush_when_full=True)
    try:
        report = simulate(source, kernel_name, grid, block, args, shared_mem, arch, options,
                          trace=request, engine=engine, gpu=profile, **simulate_kwargs)
    except BaseException:
        model.close()
        raise
    traffic = model.result()
    report.metrics.update(traffic.metrics())
    for ins in report.instructions:     # the time model charges each store its own write-back
        if ins.space in ("global", "local") and ins.op != "ld":
            ins.modeled_dram_write_bytes = float(traffic.dram_write_bytes_by_pc.get(ins.index, 0))
            if model.geometry.l2_whole_sector_writes and ins.op == "st":
                ins.modeled_l2_partial_writes = traffic.l2_partial_writes_by_pc.get(ins.index, (0, 0))
    report.provenance.update({k: m.Provenance.MODELED for k in traffic.metrics()})
    report.gpu = model.geometry.gpu
    return report, model


def model_traffic(spec: LaunchSpec, gpu: str | GpuProfile = DEFAULT_GPU, registers_per_thread: int | None = None,
                  tuning: CacheTuning | None = None, engine: str | Engine = registry.DEFAULT) -> TrafficEstimate:
    """The modeled cache and DRAM counters of a LaunchSpec (its arguments materialized)."""
    report = simulate_with_caches(spec.source, spec.kernel, spec.grid, spec.block, spec.materialize(),
                                  spec.shared_mem, options=spec.options, gpu=gpu,
                                  registers_per_thread=registers_per_thread, tuning=tuning,
                                  engine=engine)
    return TrafficEstimate.model_validate({k: report.metrics[k] for k in TrafficEstimate().metrics()})


def _chunking(shape: KernelShape, threads: int, wave_blocks: int) -> tuple[int, int, int]:
    """(blocks per chunk, trace capacity, accesses of a chunk the cache model orders whole):
    about half a wave per chunk, so the model works on one window while the emulator runs the
    next; one block per chunk where loops leave its accesses unknown. A bound on one block's
    warp accesses is exact without loops (each instruction runs once per warp), and such a
    block is always ordered whole."""
    if shape.has_loops:
        return 1, TRACE_CAPACITY, WHOLE_CHUNK_ACCESSES
    per_block = max(shape.global_instructions * (-(-threads // 32)), 1)
    if per_block > TRACE_CAPACITY:
        return 1, TRACE_CAPACITY, max(per_block, WHOLE_CHUNK_ACCESSES)
    blocks = max(1, min(max(wave_blocks // 2, 1), TRACE_CAPACITY // per_block))
    return blocks, blocks * per_block, WHOLE_CHUNK_ACCESSES


# ---- Pascal: nvprof's metrics ------------------------------------------------------------------

def _nvprof_view(report: KernelReport, profile: GpuProfile, occ, launch: dict) -> dict[str, float]:
    """nvprof's metrics under Pascal's rules; 8- and 16-byte shared accesses, whose Pascal count
    differs from sm_90's, are counted again from a trace of just those instructions (the launch
    runs once more; its outputs are discarded: the arguments were already written once)."""
    recount = _wide_shared_recount(report, launch)
    counts = pascal_counts(report, launch["options"], recount)
    blocks = report.grid[0] * report.grid[1] * report.grid[2]
    occupancy = occupancy_fraction(profile, blocks, occ.blocks_per_sm,
                                   occ.warps_per_sm // max(occ.blocks_per_sm, 1))
    return {metric.name: metric.value for metric in nvprof_metrics(report, counts, occupancy)}


def _wide_shared_recount(report: KernelReport, launch: dict) -> dict[int, int]:
    widths = wide_shared_rows(report)
    if not widths:
        return {}
    counter = WideSharedCounter(widths)
    args = [a.copy() if hasattr(a, "copy") else a for a in launch.pop("args")]
    simulate(args=args, trace=TraceRequest(pcs=set(widths), spaces=("shared",), on_chunk=counter.consume),
             **launch)
    return counter.transactions
