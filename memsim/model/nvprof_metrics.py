"""nvprof's metrics, under nvprof's names and definitions, for the seeds' Pascal GPUs.

Seeds 000-002 were measured with nvprof on sm_61 cards, which Nsight Compute does not support.
Their values follow from memsim.model.pascal's counts (exact, like ncu's counters) and the
modeled time and DRAM traffic (throughputs, occupancy: modeled). Every definition is the one
nvprof's Metrics Reference gives for compute capability 5.x/6.x; docs/pascal.md quotes them.
memsim.prediction writes them into the report (KernelReport.nvprof_metrics); memsim.views.nvprof
prints them as nvprof does.

    metrics = nvprof_metrics(report, counts, occupancy_fraction(profile, blocks, per_sm, warps))
"""
from __future__ import annotations

from typing import Callable

from pydantic import BaseModel, Field

from .. import metrics as m
from ..gpus import GpuProfile
from ..report import KernelReport
from .pascal import PascalCounts


class NvprofMetric(BaseModel):
    """One row of nvprof's --metrics table."""

    name: str
    description: str = Field(description="nvprof's Metric Description column")
    value: float
    unit: str = Field(description="'' (a count or ratio), '%' or 'GB/s', as nvprof prints it")
    provenance: m.Provenance


class _Inputs(BaseModel):
    counts: PascalCounts
    seconds: float
    dram_read_bytes: float
    dram_write_bytes: float
    occupancy: float


_Rule = Callable[[_Inputs], float]


def _ratio(a: float, b: float) -> float:
    return a / b if b else 0.0


def _gbs(nbytes: float, seconds: float) -> float:
    return nbytes / seconds / 1e9 if seconds else 0.0


_E, _M = m.Provenance.EXACT, m.Provenance.MODELED
# (name, nvprof's description, unit, provenance, rule)
_METRICS: list[tuple[str, str, str, m.Provenance, _Rule]] = [
    ("gld_transactions", "Global Load Transactions", "", _E, lambda x: x.counts.gld_transactions),
    ("gst_transactions", "Global Store Transactions", "", _E, lambda x: x.counts.gst_transactions),
    ("gld_transactions_per_request", "Global Load Transactions Per Request", "", _E,
     lambda x: _ratio(x.counts.gld_transactions, x.counts.gld_requests)),
    ("gst_transactions_per_request", "Global Store Transactions Per Request", "", _E,
     lambda x: _ratio(x.counts.gst_transactions, x.counts.gst_requests)),
    ("shared_load_transactions", "Shared Load Transactions", "", _E,
     lambda x: x.counts.shared_load_transactions),
    ("shared_store_transactions", "Shared Store Transactions", "", _E,
     lambda x: x.counts.shared_store_transactions),
    ("shared_load_transactions_per_request", "Shared Memory Load Transactions Per Request", "", _E,
     lambda x: _ratio(x.counts.shared_load_transactions, x.counts.shared_load_requests)),
    ("shared_store_transactions_per_request", "Shared Memory Store Transactions Per Request", "", _E,
     lambda x: _ratio(x.counts.shared_store_transactions, x.counts.shared_store_requests)),
    ("gld_efficiency", "Global Memory Load Efficiency", "%", _E,
     lambda x: 100 * _ratio(x.counts.gld_requested_bytes, x.counts.gld_bytes)),
    ("gst_efficiency", "Global Memory Store Efficiency", "%", _E,
     lambda x: 100 * _ratio(x.counts.gst_requested_bytes, x.counts.gst_bytes)),
    ("shared_efficiency", "Shared Memory Efficiency", "%", _E,
     lambda x: 100 * _ratio(x.counts.shared_load_requested_bytes + x.counts.shared_store_requested_bytes,
                            128 * (x.counts.shared_load_transactions + x.counts.shared_store_transactions))),
    ("gld_throughput", "Global Load Throughput", "GB/s", _M, lambda x: _gbs(x.counts.gld_bytes, x.seconds)),
    ("gst_throughput", "Global Store Throughput", "GB/s", _M, lambda x: _gbs(x.counts.gst_bytes, x.seconds)),
    ("gld_requested_throughput", "Requested Global Load Throughput", "GB/s", _M,
     lambda x: _gbs(x.counts.gld_requested_bytes, x.seconds)),
    ("gst_requested_throughput", "Requested Global Store Throughput", "GB/s", _M,
     lambda x: _gbs(x.counts.gst_requested_bytes, x.seconds)),
    ("dram_read_throughput", "Device Memory Read Throughput", "GB/s", _M,
     lambda x: _gbs(x.dram_read_bytes, x.seconds)),
    ("dram_write_throughput", "Device Memory Write Throughput", "GB/s", _M,
     lambda x: _gbs(x.dram_write_bytes, x.seconds)),
    ("achieved_occupancy", "Achieved Occupancy", "", _M, lambda x: x.occupancy),
]
NAMES = [name for name, *_ in _METRICS]


def occupancy_fraction(profile: GpuProfile, blocks: int, blocks_per_sm: int, warps_per_block: int) -> float:
    """Resident warps per SM over the SM's maximum, when the grid fills the SMs as far as it can:
    the ceiling of achieved_occupancy (nvprof's average active warps per active cycle)."""
    per_sm = min(blocks_per_sm, -(-blocks // profile.sm_count))
    return per_sm * warps_per_block / profile.occupancy.max_warps_per_sm


def nvprof_metrics(report: KernelReport, counts: PascalCounts, occupancy: float) -> list[NvprofMetric]:
    """nvprof's metrics of a predicted launch (the report carries the modeled time and DRAM)."""
    inputs = _Inputs(counts=counts, seconds=report.metrics.get(m.DURATION, 0.0) * 1e-9,
                     dram_read_bytes=report.metrics.get(m.DRAM_READ, 0.0),
                     dram_write_bytes=report.metrics.get(m.DRAM_WRITE, 0.0), occupancy=occupancy)
    return [NvprofMetric(name=name, description=text, value=float(rule(inputs)), unit=unit,
                         provenance=provenance)
            for name, text, unit, provenance, rule in _METRICS]


def metrics_from_values(values: dict[str, float]) -> list[NvprofMetric]:
    """The rows of a report's nvprof_metrics (name -> value), with nvprof's descriptions."""
    return [NvprofMetric(name=name, description=text, value=values[name], unit=unit, provenance=provenance)
            for name, text, unit, provenance, _ in _METRICS if name in values]
