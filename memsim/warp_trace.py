"""One warp of a launch, traced and pictured: runs the launch with a TraceRequest for that warp
(and line) on an engine, counts what each traced access costs with the engine's own rules
(memsim.engine.count), then hands the report, the trace and its costs to memsim.views.show,
which pictures what it is given and counts and runs nothing."""
from __future__ import annotations

import numpy as np

from .gpus import BANKS, DEFAULT_ARCH
from .compiler.nvrtc import load_source
from .engine import count, registry
from .engine.simulation import simulate_spec
from .engine.trace import TraceRequest
from .errors import LaunchError
from .launch import LaunchSpec
from .report import KernelReport
from .stream import OPS, SPACE_NAMES, AccessCosts, WarpAccesses
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
    accesses = request.accesses if request.accesses is not None else WarpAccesses.empty()
    pictures = show.pictures_from_trace(report, accesses, access_costs(report, accesses), request.buffers,
                                        source, execution)
    _check_found(report, pictures, line, block, warp, execution)
    if access is None:
        return report, pictures
    if not 1 <= access <= len(pictures):
        raise LaunchError(f"line {line} has {show.plural(len(pictures), 'memory access')} in this warp: "
                          f"pick 1-{len(pictures)}")
    return report, [pictures[access - 1]]


def access_costs(report: KernelReport, accesses: WarpAccesses) -> AccessCosts:
    """What each traced access costs, counted as the engine counts it (one warp's trace: few
    records, so counted here again rather than kept per record by the engine)."""
    width = {row.index: row.width for row in report.instructions}
    costs = AccessCosts(*(np.zeros(len(accesses), np.int64) for _ in range(5)))
    for k in range(len(accesses)):
        addrs, active, size = accesses.addresses[k].copy(), int(accesses.active[k]), width[int(accesses.pc[k])]
        if SPACE_NAMES[int(accesses.space[k])] == "shared":
            is_store = OPS[int(accesses.op[k])] != "ld"
            costs.wavefronts[k], costs.ideal_wavefronts[k], _ = count.shared_wavefronts(
                addrs, active, size, is_store, np.zeros(4 * show.WARP, np.int64), np.zeros(BANKS, np.int64))
            costs.phase_lanes[k] = count.shared_phase_lanes(size, is_store)
        else:
            costs.sectors[k], costs.ideal_sectors[k], _ = count.global_sectors(addrs, active, size,
                                                                                np.zeros(show.WARP, np.int64))
    return costs


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
