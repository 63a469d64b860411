"""One warp of a launch, traced and pictured: runs the launch with a TraceRequest for that warp
(and line) on an engine, then hands the report and its trace to memsim.views.show, which
pictures what it is given and runs nothing."""
from __future__ import annotations

from .gpus import DEFAULT_ARCH
from .compiler.nvrtc import load_source
from .engine import registry
from .engine.simulation import simulate_spec
from .engine.trace import TraceRequest
from .errors import LaunchError
from .launch import LaunchSpec
from .report import KernelReport
from .views import show


def trace_pictures(spec: LaunchSpec, line: int | None = None, block: int = 0, warp: int = 0,
                   execution: int = 1, arch: str = DEFAULT_ARCH, access: int | None = None,
                   engine: str = registry.DEFAULT, **budget) -> tuple[KernelReport, list[show.WarpPicture]]:
    """Simulate `spec`, recording one warp's accesses on `line` (every memory line if None);
    `access` keeps only the line's access-th memory instruction (1-based, program order).
    `budget`: memsim.simulate's max_warp_instructions and timeout.

    LaunchError for a block, warp, line, execution or access the launch does not have."""
    if access is not None and line is None:
        raise LaunchError("picking an access (--access) needs a line (--line)")
    warps_per_block = _check_warp(spec, block, warp)
    request = TraceRequest(lines=None if line is None else {line},
                           warps=(block * warps_per_block + warp, block * warps_per_block + warp + 1))
    report, _ = simulate_spec(spec, arch=arch, trace=request, engine=engine, **budget)
    source = load_source(spec.source)[0]
    pictures = show.pictures_from_trace(report, request, source, execution)
    _check_found(report, pictures, line, block, warp, execution)
    if access is None:
        return report, pictures
    if not 1 <= access <= len(pictures):
        raise LaunchError(f"line {line} has {show.plural(len(pictures), 'memory access')} in this warp: "
                          f"pick 1-{len(pictures)}")
    return report, [pictures[access - 1]]


def _check_warp(spec: LaunchSpec, block: int, warp: int) -> int:
    threads = spec.block[0] * spec.block[1] * spec.block[2]
    warps_per_block = (threads + show.WARP - 1) // show.WARP
    blocks = spec.grid[0] * spec.grid[1] * spec.grid[2]
    if not 0 <= block < blocks:
        raise LaunchError(f"no block {block}: the grid has blocks 0-{blocks - 1} (linear index)")
    if not 0 <= warp < warps_per_block:
        raise LaunchError(f"no warp {warp}: a block of {threads} threads has warps "
                          f"0-{warps_per_block - 1}")
    return warps_per_block


def _check_found(report: KernelReport, pictures: list[show.WarpPicture], line: int | None, block: int,
                 warp: int, execution: int) -> None:
    if pictures:
        return
    memory_lines = sorted({r.line for r in report.instructions
                           if r.space in show.SHOWN_SPACES and r.requests})
    listed = ", ".join(str(n) for n in memory_lines) or "none"
    if line is not None and line not in memory_lines:
        raise LaunchError(f"line {line} of {report.kernel} has no executed memory access; "
                          f"memory lines: {listed}")
    what = f"line {line}" if line is not None else "any memory line"
    if execution > 1:
        raise LaunchError(f"warp {warp} of block {block} runs {what} fewer than {execution} times")
    raise LaunchError(f"warp {warp} of block {block} does not execute {what} (no active lane)")
