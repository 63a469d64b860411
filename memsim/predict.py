"""Stage 5: the modeled numbers for one GPU, on top of the exact counts.

    report = memsim.predict(source, "kernel", grid, block, args, gpu="H100")

runs the emulator with the cache model listening to every global warp access (memsim/cache.py:
L1, L2, DRAM traffic), then the time model (memsim/timing.py: ncu's gpu__time_duration at base
clocks and the CUDA-event time), and returns the report with those metrics marked MODELED.
With engine="sass" the SASS engine emulates the launch: the exact counters and the trace the
cache model reads both come from the instruction stream the H100 runs.
"""
from __future__ import annotations

from typing import Sequence

from . import metrics as m
from .gpu_profile import GpuProfile, load
from .launch import LaunchSpec, Value
from .report import KernelReport


def predict(source: str, kernel_name: str, grid, block, args: Sequence[Value], shared_mem: int = 0,
            arch: str = "sm_90", options: Sequence[str] = (), *, gpu: str | GpuProfile = "H100",
            engine: str = "auto", registers_per_thread: int | None = None,
            include_dirs: Sequence[str] | None = None) -> KernelReport:
    """memsim.simulate plus the cache and time models of `gpu` (a profile name or GpuProfile);
    `kernel_name` and `include_dirs` as memsim.simulate's."""
    from .cache import simulate_with_caches
    from .timing import predict_time

    from .simulate import resolve_engine

    profile = gpu if isinstance(gpu, GpuProfile) else load(gpu)
    engine = resolve_engine(engine, source, arch)
    report = simulate_with_caches(source, kernel_name, grid, block, args, shared_mem, arch, options,
                                  gpu=profile, registers_per_thread=registers_per_thread, engine=engine,
                                  include_dirs=include_dirs)
    estimate = predict_time(report, None, profile, registers_per_thread=registers_per_thread,
                            static_shared_bytes=report.static_shared_bytes, arguments=len(args))
    report.metrics[m.DURATION] = estimate.duration_ns
    report.metrics[m.EVENT_TIME_MS] = estimate.event_ms
    report.provenance.update({name: m.Provenance.MODELED for name in m.MODELED + [m.EVENT_TIME_MS]
                              if name in report.metrics})
    report.gpu = profile.name
    return report


def predict_spec(spec: LaunchSpec, **kwargs) -> tuple[KernelReport, list[Value]]:
    """Materialize a LaunchSpec's arguments and predict it."""
    values = spec.materialize()
    return predict(spec.source, spec.kernel, spec.grid, spec.block, values, spec.shared_mem,
                   options=spec.options, **kwargs), values
