"""KernelReports as rich tables, CSV rows and JSON: what `memsim predict` prints.

Two tables per kernel share one set of columns: the access summary (global/shared x load/store,
from the report's ncu metrics) and the per-source-line table (from report.lines), so that a
later source view can reuse `line_cells` row by row. Every number carries its provenance:
exact (equals the H100's ncu counter), modeled (cache/DRAM/time model) or unchecked (memsim's
own figure, e.g. the ideal sector count behind the coalescing efficiency).
"""
from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import partial
from typing import Callable, Iterable, TextIO

from pydantic import TypeAdapter
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from .. import metrics as m
from ..report import KernelReport, LineCounters

PROVENANCE_LEGEND = ("exact: equals the H100's ncu counter | modeled: cache/DRAM/time model, "
                     "within a tolerance | unchecked: memsim's own figure (ideal sectors and "
                     "wavefronts, and what follows from them)")

# (row label, space, op, requests metric, sectors metric, ideal sectors metric,
#  wavefronts metric, ideal wavefronts metric); shared "requests" are executed instructions.
_SUMMARY = [
    ("global loads", "global", "ld", m.GLOBAL_LD_REQUESTS, m.GLOBAL_LD_SECTORS,
     m.GLOBAL_LD_IDEAL_SECTORS, None, None),
    ("global stores", "global", "st", m.GLOBAL_ST_REQUESTS, m.GLOBAL_ST_SECTORS,
     m.GLOBAL_ST_IDEAL_SECTORS, None, None),
    ("shared loads", "shared", "ld", m.INST_SHARED_LD, None, None, m.SHARED_LD_WAVEFRONTS,
     m.SHARED_LD_IDEAL_WAVEFRONTS),
    ("shared stores", "shared", "st", m.INST_SHARED_ST, None, None, m.SHARED_ST_WAVEFRONTS,
     m.SHARED_ST_IDEAL_WAVEFRONTS),
    # TMA (memsim.engine.sass.ops_tma): requests are instructions, a box's rows are contiguous
    ("TMA loads", "global", "tma_ld", m.TMA_LD_INSTRUCTIONS, m.TMA_LD_SECTORS, m.TMA_LD_SECTORS, None, None),
    ("TMA stores", "global", "tma_st", m.TMA_ST_INSTRUCTIONS, m.TMA_ST_SECTORS, m.TMA_ST_SECTORS, None, None),
]


@dataclass(frozen=True)
class Column:
    title: str
    provenance: str  # exact | unchecked | "" (descriptive, e.g. the source text)
    cell: Callable[[LineCounters], str]
    justify: str = "right"


def count(value: float) -> str:
    return f"{int(value):,}"


def ratio(value: float) -> str:
    return f"{value:.2f}"


def _is_global(row: LineCounters) -> bool:
    """Accesses counted in 32-byte sectors: global, and local (which goes through L1 the same way)."""
    return row.space != "shared"


def _is_shared(row: LineCounters) -> bool:
    return row.space == "shared"


def _only(test: Callable[[LineCounters], bool], cell: Callable[[LineCounters], str]):
    """A cell that reads '-' where the column does not apply (sectors of a shared access...)."""
    return lambda row: cell(row) if test(row) and row.requests else "-"


ACCESS_COLUMNS = [
    Column("requests", "exact", lambda r: count(r.requests)),
    Column("sectors", "exact", _only(_is_global, lambda r: count(r.sectors))),
    Column("sectors/req", "exact", _only(_is_global, lambda r: ratio(r.sectors_per_request))),
    Column("ideal/req", "unchecked", _only(_is_global, lambda r: ratio(r.ideal_sectors_per_request))),
    Column("efficiency", "unchecked", _only(_is_global, lambda r: f"{100 * r.coalescing_efficiency:.1f}%")),
    Column("wavefronts", "exact", _only(_is_shared, lambda r: count(r.wavefronts))),
    Column("wavefronts/req", "exact", _only(_is_shared, lambda r: ratio(r.wavefronts_per_request))),
    Column("ideal", "unchecked", _only(_is_shared, lambda r: count(r.ideal_wavefronts))),
    Column("conflicts", "unchecked", _only(_is_shared, lambda r: count(r.bank_conflicts))),
]

LINE_COLUMNS = [
    Column("line", "", lambda r: str(r.line) if r.line else "?"),
    Column("source", "", lambda r: r.source.strip(), justify="left"),
    Column("space", "", lambda r: r.space, justify="left"),
    Column("op", "", lambda r: r.op, justify="left"),
    Column("width", "", lambda r: f"{r.width}B"),
] + ACCESS_COLUMNS


def access_summary(report: KernelReport) -> list[tuple[str, LineCounters]]:
    """(label, totals) per access kind the kernel performs, from the report's metrics."""
    rows = []
    for label, space, op, requests, sectors, ideal_sectors, wavefronts, ideal_wavefronts in _SUMMARY:
        get = partial(_metric, report)
        totals = LineCounters(line=0, space=space, op=op, width=0, instructions=0,
                              requests=get(requests), sectors=get(sectors),
                              ideal_sectors=get(ideal_sectors), wavefronts=get(wavefronts),
                              ideal_wavefronts=get(ideal_wavefronts))
        if totals.requests:
            rows.append((label, totals))
    return rows


def _metric(report: KernelReport, name: str | None) -> int:
    return int(report.metrics.get(name, 0)) if name else 0


def line_cells(row: LineCounters) -> dict[str, str]:
    """One per-line row as formatted cells keyed by column title."""
    return {column.title: column.cell(row) for column in LINE_COLUMNS}


def _header(column: Column) -> str:
    return f"{column.title}\n[dim]{column.provenance}[/dim]" if column.provenance else column.title


def _table(title: str, columns: list[Column], first: str | None = None) -> Table:
    table = Table(title=title, title_justify="left")
    if first:
        table.add_column(first, justify="left")
    for column in columns:
        table.add_column(_header(column), justify=column.justify,
                         overflow="fold" if column.title == "source" else "ellipsis")
    return table


def summary_table(report: KernelReport) -> Table:
    table = _table("memory accesses", ACCESS_COLUMNS, first="access")
    for label, totals in access_summary(report):
        table.add_row(label, *(Text(column.cell(totals)) for column in ACCESS_COLUMNS))
    return table


def lines_table(report: KernelReport) -> Table:
    table = _table("by source line", LINE_COLUMNS)
    for row in report.lines:
        # Text, not markup: source such as tile[threadIdx.y] must not read as a style tag.
        table.add_row(*(Text(cell) for cell in line_cells(row).values()))
    return table


def modeled_table(report: KernelReport) -> Table | None:
    """Cache, DRAM and time predictions, where the report carries them."""
    present = [name for name in m.MODELED if name in report.metrics]
    if not present:
        return None
    table = Table(title="modeled (cache, DRAM, time)", title_justify="left")
    for title in ("metric", "value", "provenance"):
        table.add_column(title, justify="right" if title == "value" else "left")
    for name in present:
        table.add_row(name, count(report.metrics[name]), provenance_of(report, name))
    return table


def provenance_of(report: KernelReport, metric: str) -> str:
    return (report.provenance.get(metric) or m.provenance(metric)).value


def dims_text(dims: tuple[int, ...]) -> str:
    """(32, 8, 1) -> "32x8x1", as the tables write launch shapes."""
    return "x".join(str(d) for d in dims)


def heading(report: KernelReport, name: str = "", detail: str = "") -> str:
    label = escape(f"{name} ({report.kernel})" if name and name != report.kernel else report.kernel)
    extra = f"  {escape(detail)}" if detail else ""
    engine = ("  [yellow]PTX-level: may differ where ptxas reshapes the code[/yellow]"
              if report.engine == "ptx" else "  SASS")
    return (f"[bold]{label}[/bold]{extra}  grid {dims_text(report.grid)}  block {dims_text(report.block)}"
            f"  {report.arch}{engine}  simulated in {report.simulation_seconds:.2f}s")


def kernel_tables(report: KernelReport, name: str = "", detail: str = "") -> list:
    """Everything printed for one kernel, in order: heading, summary, per-line, modeled."""
    parts: list = [heading(report, name, detail), summary_table(report)]
    if report.lines:
        parts.append(lines_table(report))
    modeled = modeled_table(report)
    if modeled is not None:
        parts.append(modeled)
    return parts


CSV_FIELDS = ["name", "kernel", "grid", "block", "metric", "value", "provenance"]


def csv_rows(reports: Iterable[KernelReport], names: Iterable[str]) -> list[dict]:
    """One row per kernel per metric."""
    rows = []
    for report, name in zip(reports, names):
        for metric in sorted(report.metrics):
            rows.append(dict(name=name, kernel=report.kernel,
                             grid=dims_text(report.grid), block=dims_text(report.block), metric=metric,
                             value=report.metrics[metric], provenance=provenance_of(report, metric)))
    return rows


def write_csv(reports: list[KernelReport], names: list[str], stream: TextIO) -> None:
    writer = csv.DictWriter(stream, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(csv_rows(reports, names))


REPORT_LIST = TypeAdapter(list[KernelReport])


def reports_json(reports: list[KernelReport]) -> str:
    return REPORT_LIST.dump_json(reports, indent=2).decode()
