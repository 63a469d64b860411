"""Stage 5: the modeled numbers for one GPU, on top of the exact counts.

    report = memsim.predict(source, "kernel", grid, block, args, gpu="H100")

runs the emulator with the cache model listening to every global warp access (memsim/model/cache.py:
L1, L2, DRAM traffic), then the time model (memsim/model/timing.py: ncu's gpu__time_duration at base
clocks and the CUDA-event time), and returns the report with those metrics marked MODELED.
With engine="sass" the SASS engine emulates the launch: the exact counters and the trace the
cache model reads both come from the instruction stream the H100 runs.
"""
from __future__ import annotations

from typing import Sequence

from . import metrics as m
from .compiler.nvrtc import SASS_SUFFIXES
from .errors import LaunchError
from .model.gpu_profile import GpuProfile, load
from .launch import LaunchSpec, Value
from .model.pascal import WideSharedCounter, compile_arch, pascal_counts, uses_pascal_rules, wide_shared_rows
from .report import KernelReport


def predict(source: str, kernel_name: str, grid, block, args: Sequence[Value], shared_mem: int = 0,
            arch: str | None = None, options: Sequence[str] = (), *, gpu: str | GpuProfile = "H100",
            engine: str = "auto", registers_per_thread: int | None = None,
            include_dirs: Sequence[str] | None = None) -> KernelReport:
    """memsim.simulate plus the cache and time models of `gpu` (a profile name or GpuProfile);
    `kernel_name` and `include_dirs` as memsim.simulate's. `arch` defaults to the GPU's (its
    profile's `arch`, else sm_90); on Pascal (sm_6x) the report also carries nvprof's metrics,
    counted with Pascal's rules (memsim.model.pascal, memsim.views.nvprof)."""
    from .model.cache import simulate_with_caches
    from .model.timing import predict_time

    from .engine.simulation import resolve_engine

    profile = gpu if isinstance(gpu, GpuProfile) else load(gpu)
    arch = arch or profile.arch or "sm_90"
    target = compile_arch(arch)
    engine = resolve_engine(engine, source, target)
    if source.strip().endswith(SASS_SUFFIXES):
        raise LaunchError("--gpu's cache and time models read the kernel's PTX, which a .sass or "
                          ".cubin lacks: leave out --gpu for its exact counters")
    report = simulate_with_caches(source, kernel_name, grid, block, args, shared_mem, target, options,
                                  gpu=profile, registers_per_thread=registers_per_thread, engine=engine,
                                  include_dirs=include_dirs)
    estimate = predict_time(report, None, profile, registers_per_thread=registers_per_thread,
                            static_shared_bytes=report.static_shared_bytes, arguments=len(args))
    report.metrics[m.DURATION] = estimate.duration_ns
    report.metrics[m.EVENT_TIME_MS] = estimate.event_ms
    report.provenance.update({name: m.Provenance.MODELED for name in m.MODELED + [m.EVENT_TIME_MS]
                              if name in report.metrics})
    report.gpu = profile.name
    report.arch = arch
    if uses_pascal_rules(profile):
        launch = dict(source=source, kernel_name=kernel_name, grid=grid, block=block, args=args,
                      shared_mem=shared_mem, arch=target, options=options, engine=engine,
                      include_dirs=include_dirs)
        report.nvprof_metrics = _nvprof_view(report, profile, estimate.occupancy, launch)
    return report


def _nvprof_view(report: KernelReport, profile: GpuProfile, occ, launch: dict) -> dict[str, float]:
    """nvprof's metrics under Pascal's rules; 8- and 16-byte shared accesses, whose Pascal count
    differs from sm_90's, are counted again from a trace of just those instructions (the launch
    runs once more; its outputs are discarded: the arguments were already written once)."""
    from .views.nvprof import nvprof_metrics, occupancy_fraction

    recount = _wide_shared_recount(report, launch)
    counts = pascal_counts(report, launch["options"], recount)
    blocks = report.grid[0] * report.grid[1] * report.grid[2]
    occupancy = occupancy_fraction(profile, blocks, occ.blocks_per_sm,
                                   occ.warps_per_sm // max(occ.blocks_per_sm, 1))
    return {metric.name: metric.value for metric in nvprof_metrics(report, counts, occupancy)}


def _wide_shared_recount(report: KernelReport, launch: dict) -> dict[int, int]:
    from .engine.simulation import simulate
    from .engine.trace import TraceRequest

    widths = wide_shared_rows(report)
    if not widths:
        return {}
    counter = WideSharedCounter(widths)
    args = [a.copy() if hasattr(a, "copy") else a for a in launch.pop("args")]
    simulate(args=args, trace=TraceRequest(pcs=set(widths), spaces=("shared",), on_chunk=counter.consume),
             **launch)
    return counter.transactions


def predict_spec(spec: LaunchSpec, **kwargs) -> tuple[KernelReport, list[Value]]:
    """Materialize a LaunchSpec's arguments and predict it."""
    values = spec.materialize()
    return predict(spec.source, spec.kernel, spec.grid, spec.block, values, spec.shared_mem,
                   options=spec.options, **kwargs), values
