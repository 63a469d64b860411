"""nvprof's --metrics table for the seeds' Pascal GPUs: the values come from the report
(KernelReport.nvprof_metrics, computed by memsim.model.nvprof_metrics); this view only formats.

    print(render_table(metrics_from_values(report.nvprof_metrics), report.kernel, profile.full_name))
"""
from __future__ import annotations

from .. import metrics as m
from ..model.nvprof_metrics import NvprofMetric


def format_value(metric: NvprofMetric) -> str:
    """A value as nvprof prints it: 6 decimals, GB/s with 5 significant digits, % with 2 decimals."""
    if metric.unit == "GB/s":
        return f"{metric.value:.5g}GB/s"
    if metric.unit == "%":
        return f"{metric.value:.2f}%"
    if metric.value == int(metric.value) and "transactions" in metric.name and "per_request" not in metric.name:
        return f"{int(metric.value)}"
    return f"{metric.value:.6f}"


def render_table(metrics: list[NvprofMetric], kernel: str, device: str) -> str:
    """nvprof's --metrics layout: Invocations / Metric Name / Metric Description / Min / Max / Avg
    (one invocation, so the three values are equal); modeled rows are marked with '~'."""
    lines = [f"{'Invocations':<11}{'Metric Name':>42}{'Metric Description':>47}{'Min':>16}{'Max':>16}{'Avg':>16}",
             f'Device "{device} (0)"', f"    Kernel: {kernel}"]
    for metric in metrics:
        value = format_value(metric) + ("~" if metric.provenance == m.Provenance.MODELED else "")
        lines.append(f"{1:>11}{metric.name:>42}{metric.description:>47}{value:>16}{value:>16}{value:>16}")
    lines.append("~ modeled (time, DRAM, occupancy); the rest exact under Pascal's rules (docs/pascal.md)")
    return "\n".join(lines)
