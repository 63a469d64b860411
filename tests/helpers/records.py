"""Fake validate records: one measured launch of a one-line kernel, and a file of them."""
from __future__ import annotations

from gpu.timing import EventTiming
from gpu.versions import Versions
from memsim import metrics as m
from memsim.launch import LaunchSpec, digest
from validate import record as rec

SOURCE = 'extern "C" __global__ void k_add(const float* x, float* y) { y[threadIdx.x] = x[threadIdx.x] + 1; }'
VERSIONS = Versions(gpu="NVIDIA H100 80GB HBM3", driver="580.159.04", cuda_runtime="13.2", cupy="14.2.0",
                    nvrtc="13.0", ncu="2025.3.1.0", date="2026-11-22T17:12:04+00:00")
MEASURED = {name: 100.0 for name in m.EXACT} | {m.DRAM_READ: 1000.0, m.DURATION: 2000.0}


def make_record(name: str = "add", metrics: dict | None = None, error: str = "") -> rec.CaseRecord:
    spec = LaunchSpec(source=SOURCE, kernel="k_add", grid=1, block=32, args=["float32[32]", "float32[32]:zeros"])
    values = spec.materialize()
    return rec.CaseRecord(name=name, spec=spec, tags=["t"], input_digest=digest(values),
                          output_digest=digest([values[0], values[0] + 1]), error=error,
                          metrics=dict(MEASURED if metrics is None else metrics),
                          timing=EventTiming.from_samples([0.01] * 30, 3, False))


def make_file(*records: rec.CaseRecord, case_set: str = "suite", versions: Versions = VERSIONS) -> rec.MeasurementFile:
    return rec.MeasurementFile(gpu="h100", case_set=case_set, versions=versions, method="test",
                               cases=list(records) or [make_record()])
