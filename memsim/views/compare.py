"""Variants of a kernel side by side: what each moves, what it costs, how much faster it is.

    console.print(compare.table([("naive", report_a), ("tiled", report_b)]))

Sectors and wavefronts are exact counters; the time is the model's prediction
(gpu__time_duration.sum, when the report carries it) and the speed-up is relative to the first
variant's predicted time.
"""
from __future__ import annotations

from rich.table import Table
from rich.text import Text

from .. import metrics as m
from . import render
from ..report import KernelReport

NO_VALUE = "-"


def _per_request(report: KernelReport, numerator: str, requests: str) -> str:
    n = report.metrics.get(requests, 0)
    return render.ratio(report.metrics.get(numerator, 0) / n) if n else NO_VALUE


def _count(report: KernelReport, *names: str) -> str:
    present = [report.metrics[n] for n in names if n in report.metrics]
    return render.count(sum(present)) if present else NO_VALUE


def time_us(report: KernelReport) -> float | None:
    """Predicted kernel time in microseconds (ncu's gpu__time_duration is in nanoseconds)."""
    value = report.metrics.get(m.DURATION)
    return value / 1000 if value else None


# (title, provenance, cell)
COLUMNS = [
    ("global sectors", "exact", lambda r: _count(r, m.GLOBAL_LD_SECTORS, m.GLOBAL_ST_SECTORS)),
    ("ld sectors/req", "exact", lambda r: _per_request(r, m.GLOBAL_LD_SECTORS, m.GLOBAL_LD_REQUESTS)),
    ("st sectors/req", "exact", lambda r: _per_request(r, m.GLOBAL_ST_SECTORS, m.GLOBAL_ST_REQUESTS)),
    ("shared wavefronts", "exact", lambda r: _count(r, m.SHARED_LD_WAVEFRONTS, m.SHARED_ST_WAVEFRONTS)),
    ("ld wavefronts/req", "exact", lambda r: _per_request(r, m.SHARED_LD_WAVEFRONTS, m.INST_SHARED_LD)),
    ("st wavefronts/req", "exact", lambda r: _per_request(r, m.SHARED_ST_WAVEFRONTS, m.INST_SHARED_ST)),
    ("time (us)", "modeled", lambda r: f"{time_us(r):.1f}" if time_us(r) else NO_VALUE),
]


def speedups(reports: list[KernelReport]) -> list[str]:
    """Each variant's speed-up over the first, from predicted times ('-' without a time)."""
    base = time_us(reports[0]) if reports else None
    return [f"{base / t:.2f}x" if base and (t := time_us(r)) else NO_VALUE for r in reports]


def rows(named: list[tuple[str, KernelReport]]) -> list[dict[str, str]]:
    """The table's cells, by column title, one dict per variant."""
    ups = speedups([r for _, r in named])
    return [{"variant": name, "kernel": report.kernel,
             **{title: cell(report) for title, _, cell in COLUMNS}, "speed-up": up}
            for (name, report), up in zip(named, ups)]


def table(named: list[tuple[str, KernelReport]]) -> Table:
    out = Table(title="variants side by side (speed-up: predicted time of the first / this one)",
                title_justify="left")
    out.add_column("variant")
    out.add_column("kernel")
    for title, provenance, _ in COLUMNS:
        out.add_column(f"{title}\n[dim]{provenance}[/dim]", justify="right")
    out.add_column("speed-up\n[dim]modeled[/dim]", justify="right")
    for cells in rows(named):
        out.add_row(*(Text(v) for v in cells.values()))
    return out
