"""The kernel's source with per-line memory counters beside it, like Nsight Compute's Source page.

    console.print(source_view.table(report, source_text))

One row per source line of the kernel; a line with several kinds of access (a load and a
store) gets one row per kind, its text on the first. The cells are memsim.views.render's, so the
source view and `memsim predict` agree to the character. Lines with an advice finding are
marked with its severity.
"""
from __future__ import annotations

import re

from rich.table import Table
from rich.text import Text

from . import render
from .advice import Finding
from ..report import KernelReport, LineCounters

COLUMNS = ["requests", "sectors/req", "ideal/req", "wavefronts/req"]
MARK_STYLE = {"high": "bold red", "medium": "yellow", "low": "dim"}


def kernel_span(source: str, kernel: str) -> tuple[int, int]:
    """First and last line (1-based) of the kernel's definition; the whole text if not found."""
    lines = source.splitlines()
    start = next((i for i, text in enumerate(lines)
                  if re.search(rf"\b{re.escape(kernel)}\s*\(", text)), None)
    if start is None:
        return 1, len(lines)
    if lines[start].lstrip().startswith("def "):   # a numba.cuda kernel: its indented body
        return start + 1, _python_body_end(lines, start)
    depth, opened = 0, False
    for i in range(start, len(lines)):
        depth += lines[i].count("{") - lines[i].count("}")
        opened = opened or "{" in lines[i]
        if opened and depth <= 0:
            return start + 1, i + 1
    return start + 1, len(lines)


def _python_body_end(lines: list[str], start: int) -> int:
    """Last line (1-based) of the Python function whose `def` is at index `start`."""
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = start
    for i in range(start + 1, len(lines)):
        text = lines[i]
        if text.strip() and len(text) - len(text.lstrip()) <= indent and not text.lstrip().startswith(")"):
            break
        end = i if text.strip() else end
    return end + 1


def ideal_wavefronts_per_request(row: LineCounters) -> str:
    if row.space != "shared" or not row.requests:
        return "-"
    return render.ratio(row.ideal_wavefronts / row.requests)


def table(report: KernelReport, source: str, findings: list[Finding] = ()) -> Table:
    """The kernel's lines, each memory line with its counters and finding marks."""
    first, last = kernel_span(source, report.kernel)
    lines = source.splitlines()
    rows_of: dict[int, list[LineCounters]] = {}
    for row in report.lines:
        rows_of.setdefault(row.line, []).append(row)
    marks = {(f.line, f.space, f.op): f.severity.value for f in findings}
    out = Table(title=f"{report.kernel}: source with memory counters per line", title_justify="left",
                box=None, header_style="bold")
    for title, justify in (("line", "right"), ("source", "left"), ("access", "left"),
                           *((c, "right") for c in COLUMNS), ("wf ideal/req", "right"),
                           ("finding", "left")):
        out.add_column(title, justify=justify, overflow="fold" if title == "source" else "ellipsis")
    for number in range(first, last + 1):
        text = lines[number - 1] if number <= len(lines) else ""
        rows = rows_of.get(number) or [None]
        for k, row in enumerate(rows):
            out.add_row(*_cells(number if k == 0 else None, text if k == 0 else "", row, marks))
    return out


def _cells(number: int | None, text: str, row: LineCounters | None, marks: dict) -> list[Text]:
    head = [Text(str(number) if number else ""), Text(text.rstrip(), style="cyan" if row else "")]
    if row is None:
        return head + [Text("")] * (len(COLUMNS) + 3)
    cells = render.line_cells(row)
    mark = marks.get((row.line, row.space, row.op), "")
    return head + [Text(f"{row.space} {row.op} {row.width}B")] + \
        [Text(cells[c]) for c in COLUMNS] + \
        [Text(ideal_wavefronts_per_request(row)), Text(mark, style=MARK_STYLE.get(mark, ""))]
