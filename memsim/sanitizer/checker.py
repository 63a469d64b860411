"""`memsim.check`: one launch under one of compute-sanitizer's four tools.

memcheck runs the launch as `memsim.simulate` does (the engines check every access already) and
words its first fault. racecheck, initcheck and synccheck run it on the SASS engine with a trace
of every shared and global access and every BAR and WARPSYNC (memsim.engine.trace, barriers=True)
and feed each chunk of it to memsim.sanitizer.shadow's passes: nothing of this runs in a launch
that is not checked, so `predict` and `simulate` keep their speed.

The SASS engine, not the PTX engine: it runs the instructions compute-sanitizer instruments
(ptxas' merged, vectorized and if-converted accesses, its barriers and reconvergence), and its
listing carries the line table (nvdisasm -g of a -lineinfo cubin) and each instruction's offset,
which compute-sanitizer's reports name.
"""
from __future__ import annotations

import re
from typing import Sequence

import numpy as np

from ..errors import MemoryFault, MemsimError
from ..engine import registry
from ..engine.faults import unflatten
from ..engine.interface import DEFAULT_BUDGET, DEFAULT_TIMEOUT
from ..engine.simulation import check_spec as check_launch_spec, limits_profile, simulate
from ..engine.trace import TraceRequest
from ..launch import LaunchSpec, Value, dims
from ..stream import WarpAccesses
from . import shadow as sh
from .findings import (DIVERGENT_BARRIER, HAZARD, INVALID_SYNCWARP, RACE, UNINITIALIZED, Finding,
                       SanitizerReport, Site)

TOOLS = ("memcheck", "racecheck", "initcheck", "synccheck")
TRACE_CAPACITY = 1 << 18   # warp accesses per block (records and lane addresses: 80 MB)
TRACE_BLOCKS = 1
HAZARD_RECORDS = 256       # racecheck hazards a report keeps whole (all are counted)


class _CheckTrace(TraceRequest):
    """A trace of every shared and global access and barrier, that remembers the program."""

    program = None

    def selection(self, program):
        self.program = program
        return super().selection(program)


def check(source, kernel_name: str, grid, block, args: Sequence[Value], tool: str = "memcheck", *,
          empty: Sequence[int] = (), shared_mem: int = 0, options: Sequence[str] = (),
          initcheck_shared: bool = False, engine: str = "auto", gpu=None, arch: str | None = None,
          max_warp_instructions: int = DEFAULT_BUDGET, timeout: float | None = DEFAULT_TIMEOUT,
          include_dirs: Sequence[str] | None = None) -> SanitizerReport:
    """Run one launch under `tool` (memcheck, racecheck, initcheck, synccheck) and return its
    findings; `report.text()` is compute-sanitizer's wording. `empty`: positions of buffer
    arguments never written before the launch (`:empty`, cupy.empty), which initcheck watches;
    `initcheck_shared`: initcheck watches shared memory too (compute-sanitizer does not)."""
    if tool not in TOOLS:
        raise MemsimError(f"unknown tool '{tool}': use one of {', '.join(TOOLS)}")
    arch = arch or limits_profile(gpu).arch
    chosen = registry.resolve_engine(engine, source, arch) if isinstance(source, str) else "sass"
    run = dict(shared_mem=shared_mem, options=options, engine=engine, gpu=gpu, arch=arch,
               max_warp_instructions=max_warp_instructions, timeout=timeout, include_dirs=include_dirs)
    if tool == "memcheck":
        return _memcheck(source, kernel_name, grid, block, args, chosen, run)
    if chosen != "sass":
        raise MemsimError(f"--tool {tool} runs on the SASS engine only (it needs the barriers and the "
                          f"line table of the code the GPU runs); this launch would run on the "
                          f"{chosen} engine: leave --engine out, on CUDA C for sm_90")
    # compute-sanitizer names a shared address after the block's reserved bytes (0x400 on sm_90)
    watch = _Watch(tool, dims(block), args, empty, initcheck_shared,
                   limits_profile(gpu).occupancy.shared_reserved_per_block_bytes)
    trace = _CheckTrace(spaces=("global", "shared"), barriers=True, capacity=TRACE_CAPACITY,
                        blocks_per_chunk=TRACE_BLOCKS, on_chunk=watch.feed)
    watch.trace = trace
    try:
        report = simulate(source, kernel_name, grid, block, args, trace=trace, **run)
    except MemsimError as exc:
        if not str(exc).startswith("trace overflow"):
            raise
        raise MemsimError(f"memsim check: a block of this launch makes more than {TRACE_CAPACITY:,} warp-level "
                          f"memory accesses and barriers, more than --tool {tool} holds; check a smaller "
                          f"launch (fewer loop trips a block)") from None
    return watch.report(report.kernel, report.source_file, report.engine, dims(grid))


def check_spec(spec: LaunchSpec, tool: str = "memcheck", **kwargs) -> SanitizerReport:
    """check() of a LaunchSpec: its `:empty` buffers are the never-written ones."""
    check_launch_spec(spec, kwargs.get("gpu"))
    empty = [i for i, arg in enumerate(spec.args) if arg.is_buffer and arg.init == "empty"]
    return check(spec.source, spec.kernel, spec.grid, spec.block, spec.materialize(), tool, empty=empty,
                 shared_mem=spec.shared_mem, options=spec.options, **kwargs)


def _memcheck(source, kernel_name, grid, block, args, engine: str, run: dict) -> SanitizerReport:
    try:
        report = simulate(source, kernel_name, grid, block, args, **run)
    except MemoryFault as fault:
        site = fault.site
        if not site:
            raise
        finding = Finding(tool="memcheck", kind=site["kind"], sites=[Site(line=site["line"], offset=16 * site["pc"])],
                          threads=[site["thread"]], block=site["block"], space=site["space"],
                          access=[site["access"]], size=site["size"], address=site["address"],
                          detail=_nearest(site.get("nearest", "")))
        name = kernel_name if isinstance(kernel_name, str) else str(kernel_name)
        return SanitizerReport(tool="memcheck", kernel=name, source_file=_file_name(source), engine=engine,
                               findings=[finding], errors=1)
    return SanitizerReport(tool="memcheck", kernel=report.kernel, source_file=report.source_file,
                           engine=report.engine, findings=[], errors=0)


def _nearest(text: str) -> str:
    """memsim's "4 bytes before argument 0 (256 bytes)" in compute-sanitizer's words."""
    parts = text.split(" argument ")
    if len(parts) != 2 or " bytes " not in parts[0]:
        return ""
    size = parts[1].split("(")[-1].rstrip(")").replace(" bytes", "")
    return f"{parts[0]} the nearest allocation (argument {parts[1].split(' ')[0]}) of size {int(size):,} bytes"


def _file_name(source) -> str:
    from ..compiler.nvrtc import load_source
    try:
        return load_source(source)[1] if isinstance(source, str) else "kernel"
    except MemsimError:
        return "kernel.cu"


_MOV_IMMEDIATE = re.compile(r"^MOV (R\d+), (0x[0-9a-f]+|\d+)\s*;?$")


def nop_masks(instructions) -> np.ndarray:
    """Per pc, the mask of a __syncwarp that ptxas wrote as a NOP: the immediate that a MOV of
    the same source line just before it puts in a register (ptxas keeps the mask there for the
    sanitizer); -1 where there is none."""
    masks = np.full(len(instructions), -1, np.int64)
    for s in instructions:
        if s.opcode != "NOP" or not s.line:
            continue
        for before in reversed(instructions[max(0, s.index - 8):s.index]):
            found = _MOV_IMMEDIATE.match(before.text.strip())
            if found and before.line == s.line:
                masks[s.index] = int(found.group(2), 0) & 0xFFFFFFFF
                break
    return masks


class _Watch:
    """The chosen pass over each chunk of the trace, and its findings at the end."""

    def __init__(self, tool: str, block: tuple[int, int, int], args, empty, initcheck_shared: bool,
                 shared_base: int):
        self.tool, self.block, self.shared_base = tool, block, shared_base
        self.threads = block[0] * block[1] * block[2]
        self.empty, self.args = set(empty), args
        self.initcheck_shared = initcheck_shared
        self.trace: _CheckTrace | None = None
        self.state = None

    def _setup(self) -> None:
        program = self.trace.program
        self.width = np.array([max(s.width, 1) for s in program.instructions], np.int64)
        if self.tool == "racecheck":
            shared = [s.index for s in program.instructions
                      if s.space == "shared" and s.op in ("ld", "st") and not s.generic]
            self.compact = np.full(len(program.instructions), -1, np.int64)
            self.compact[shared] = np.arange(len(shared))
            self.shared_pcs = np.array(shared, np.int64)
            self.race = sh.RaceState(0, self.threads, len(shared))
        elif self.tool == "initcheck":
            ranges, offset = [], 0
            for position, address, nbytes in self.trace.buffers:
                if position in self.empty:
                    ranges.append((address, address + nbytes, offset))
                    offset += nbytes
            self.ranges = np.array(ranges, np.int64).reshape(-1, 3)
            self.written = np.zeros(max(offset, 1), np.uint8)
            self.shared_written = np.zeros(0, np.uint8)
            self.current = np.full(1, -1, np.int64)
        else:
            self.masks = nop_masks(program.instructions)
            self.failed = np.zeros((self.threads + 31) // 32, np.int64)
            self.current = np.full(1, -1, np.int64)
        self.kept = np.zeros((sh.KEEP, 6), np.int64)
        self.counts = np.zeros(1, np.int64)
        self.state = True

    def feed(self, chunk: WarpAccesses) -> None:
        if self.state is None:
            self._setup()
        if not len(chunk):
            return
        c = chunk
        if self.tool == "racecheck":
            self._grow(c, "race")
            sh.racecheck(c.block, c.warp, c.pc, c.space, c.op, c.active, c.addresses, self.width,
                         self.compact, self.threads, self.race.arrays())
        elif self.tool == "initcheck":
            if self.initcheck_shared:
                self._grow(c, "init")
            sh.initcheck(c.block, c.warp, c.pc, c.space, c.op, c.active, c.addresses, self.width,
                         self.ranges, self.written, self.shared_written, self.current, self.kept,
                         self.counts)
        else:
            sh.synccheck(c.block, c.warp, c.pc, c.op, c.active, c.addresses, self.masks, self.failed,
                         self.current, self.kept, self.counts)

    def _grow(self, c: WarpAccesses, which: str) -> None:
        """Shadow rows for every shared byte this chunk touches (kept from chunk to chunk)."""
        shared = (c.space == sh.SP_SHARED) & (c.op <= 3)
        if not shared.any():
            return
        top = int(c.addresses[shared].max()) + 16 + 1
        if which == "race" and top > len(self.race.shadow):
            grown = np.full((top, 13), -1, np.int64)
            grown[:len(self.race.shadow)] = self.race.shadow
            self.race.shadow = grown
        elif which == "init" and top > len(self.shared_written):
            grown = np.zeros(top, np.uint8)
            grown[:len(self.shared_written)] = self.shared_written
            self.shared_written = grown

    def report(self, kernel: str, source_file: str, engine: str, grid) -> SanitizerReport:
        if self.state is None:
            self._setup()
        program = self.trace.program
        offsets = [o for _, o in getattr(program, "origins", [])] or [16 * s.index for s in program.instructions]

        def site(pc: int) -> Site:
            return Site(line=program.instructions[pc].line, offset=offsets[pc])

        def thread(t: int):
            return unflatten(t, self.block)

        if self.tool == "racecheck":
            findings = self._races(site, thread, grid)
            return SanitizerReport(tool=self.tool, kernel=kernel, source_file=source_file, engine=engine,
                                   findings=findings, errors=len(findings),
                                   hazard_total=int(self.race.counts[0]),
                                   hazard_records=self._hazards(site, thread, grid))
        findings = []
        for block, pc, t, address, size, kind in self.kept[:min(int(self.counts[0]), sh.KEEP)]:
            if self.tool == "initcheck":
                findings.append(Finding(tool=self.tool, kind=UNINITIALIZED, sites=[site(pc)], threads=[thread(t)],
                                        block=unflatten(block, grid), access=["read"], size=int(size),
                                        address=int(address) + (0 if kind == sh.SP_GLOBAL else self.shared_base),
                                        space="global" if kind == sh.SP_GLOBAL else "shared"))
            else:
                findings.append(Finding(tool=self.tool, sites=[site(pc)], threads=[thread(t)],
                                        block=unflatten(block, grid),
                                        kind=DIVERGENT_BARRIER if kind == sh.SYNC_DIVERGENT else INVALID_SYNCWARP))
        return SanitizerReport(tool=self.tool, kernel=kernel, source_file=source_file, engine=engine,
                               findings=findings, errors=int(self.counts[0]))

    def _hazards(self, site, thread, grid) -> list[Finding]:
        """The first HAZARD_RECORDS hazards, each with its two threads and instructions."""
        kept = self.race.kept[:min(int(self.race.counts[0]), HAZARD_RECORDS)]
        records = []
        for block, kind, q, p, first, second, address, same_warp in kept:
            access = {sh.RAW: ["write", "read"], sh.WAR: ["read", "write"], sh.WAW: ["write", "write"]}[kind]
            records.append(Finding(
                tool="racecheck", kind=HAZARD, sites=[site(int(self.shared_pcs[q])), site(int(self.shared_pcs[p]))],
                threads=[thread(int(first)), thread(int(second))], block=unflatten(int(block), grid),
                space="shared", access=access, address=int(address) + self.shared_base, hazards=1,
                severity="warning" if same_warp and q != p else "error",
                hazard_kinds={sh.HAZARD_NAMES[kind]: 1}))
        return records

    def _races(self, site, thread, grid) -> list[Finding]:
        """One analysis record per pair of instructions, in the order first seen; the first kept
        hazard of the pair names its two threads."""
        race = self.race
        pairs = np.argwhere(race.first >= 0)
        pairs = sorted(pairs.tolist(), key=lambda qp: race.first[qp[0], qp[1]])
        kept = race.kept[:min(int(race.counts[0]), sh.KEEP)]
        findings = []
        for q, p in pairs:
            counts = race.pairs[q, p] + (race.pairs[p, q] if p != q else 0)
            errors = race.errors[q, p] + (race.errors[p, q] if p != q else 0)
            first_kind = int(np.argmax(race.pairs[q, p] > 0))
            access = ["read", "write"] if first_kind == sh.WAR else ["write", "write" if first_kind == sh.WAW else "read"]
            sample = kept[((kept[:, 2] == q) & (kept[:, 3] == p)) | ((kept[:, 2] == p) & (kept[:, 3] == q))]
            threads = [thread(int(sample[0, 4])), thread(int(sample[0, 5]))] if len(sample) else []
            block = unflatten(int(sample[0, 0]), grid) if len(sample) else (0, 0, 0)
            pq = (self.shared_pcs[q], self.shared_pcs[p])
            findings.append(Finding(
                tool="racecheck", kind=RACE, sites=[site(int(pq[0])), site(int(pq[1]))], threads=threads,
                block=block, space="shared", access=access, severity="error" if errors else "warning",
                hazards=int(counts.sum()), address=int(sample[0, 6]) + self.shared_base if len(sample) else None,
                hazard_kinds={sh.HAZARD_NAMES[k]: int(n) for k, n in enumerate(counts) if n}))
        return findings
