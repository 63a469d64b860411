"""Notebook HTML of memsim's results: a report's tables and findings, findings alone, warp
pictures. Registered with IPython's HTML formatter (`register`, called by `import memsim` inside
IPython) so that results stay plain data and know nothing of their views.

    memsim.views.notebook.html(report)    # the HTML a notebook shows for a KernelReport
"""
from __future__ import annotations

import html as html_text
import sys

from . import render
from .advice import Finding, findings
from ..report import KernelReport
from .show import WarpPicture, picture_html


def html(obj) -> str:
    """HTML for a KernelReport, a finding or list of findings (memsim.views.advice), or warp pictures."""
    if isinstance(obj, KernelReport):
        return _report_html(obj) + _findings_html(findings(obj))
    items = list(obj) if isinstance(obj, (list, tuple)) else [obj]
    if items and all(isinstance(i, Finding) for i in items):
        return _findings_html(items)
    if items and all(isinstance(i, WarpPicture) for i in items):
        return picture_html(items)
    raise TypeError(f"no HTML rendering for {type(obj).__name__}")


def register(formatter=None) -> bool:
    """Show reports and findings as HTML in IPython: register `html` with the running shell's
    text/html formatter (or `formatter`). False outside IPython."""
    if formatter is None:
        if "IPython" not in sys.modules:   # never import IPython just to look for a shell
            return False
        shell = sys.modules["IPython"].get_ipython()
        if shell is None:
            return False
        formatter = shell.display_formatter.formatters["text/html"]
    for kind in (KernelReport, Finding):
        formatter.for_type(kind, html)
    return True


def _html_table(header: list[str], rows: list[list[str]], caption: str = "") -> str:
    head = "".join(f"<th>{html_text.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html_text.escape(str(c))}</td>" for c in row) + "</tr>"
                   for row in rows)
    cap = f"<caption style='text-align:left'>{html_text.escape(caption)}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _report_html(report: KernelReport) -> str:
    grid = "x".join(map(str, report.grid))
    block = "x".join(map(str, report.block))
    summary = [[label, *(c.cell(totals) for c in render.ACCESS_COLUMNS)]
               for label, totals in render.access_summary(report)]
    parts = [f"<h4>{html_text.escape(report.kernel)} grid {grid} block {block}</h4>",
             _html_table(["access", *(c.title for c in render.ACCESS_COLUMNS)], summary,
                         "memory accesses")]
    if report.lines:
        columns = [c.title for c in render.LINE_COLUMNS]
        parts.append(_html_table(columns, [list(render.line_cells(r).values()) for r in report.lines],
                                 "by source line"))
    return "".join(parts)


def _findings_html(items: list) -> str:
    if not items:
        return "<p>no findings: every access is coalesced and conflict-free</p>"
    rows = [[f.severity, f.line, f.message, f.remedy] for f in items]
    return _html_table(["severity", "line", "finding", "remedy"], rows, "findings")
