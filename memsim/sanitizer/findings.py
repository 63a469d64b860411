"""What `memsim check` finds, and the text compute-sanitizer would print for it.

A Finding is one error as compute-sanitizer counts it (memcheck, initcheck, synccheck: one per
thread) or one racecheck analysis record (a pair of instructions and its hazards); the text is
compute-sanitizer's, line for line, without its host backtrace, so the two can be diffed.
"""
from __future__ import annotations

from pydantic import BaseModel, Field

PREFIX = "========= "
INDENT = "=========     "
# Finding.kind
OUT_OF_BOUNDS, MISALIGNED, READ_ONLY = "out_of_bounds", "misaligned", "read_only"
RACE, HAZARD, UNINITIALIZED, DIVERGENT_BARRIER, INVALID_SYNCWARP = (
    "race", "hazard", "uninitialized", "divergent_barrier", "invalid_syncwarp")

Dim3 = tuple[int, int, int]


class Site(BaseModel):
    """An instruction as compute-sanitizer names it: kernel+offset in file:line."""

    line: int = 0
    offset: int = 0          # byte offset of the SASS instruction in the kernel's code

    def where(self, kernel: str, source_file: str) -> str:
        place = f"{source_file}:{self.line}" if self.line else source_file
        return f"{kernel}+{self.offset:#x} in {place}"


class Finding(BaseModel):
    """One error (or one racecheck record) of one tool."""

    tool: str
    kind: str
    sites: list[Site] = Field(description="the instruction; a race: the first and the second access")
    threads: list[Dim3] = Field(default_factory=list, description="a race: the sample hazard's two threads")
    block: Dim3 = (0, 0, 0)
    space: str = ""
    access: list[str] = Field(default_factory=list, description="read/write per site")
    size: int = 0
    address: int | None = None
    severity: str = "error"  # racecheck: "warning" for hazards inside one warp only
    hazards: int = 0         # racecheck: hazards of this pair of instructions (one per byte)
    hazard_kinds: dict[str, int] = Field(default_factory=dict)
    detail: str = ""         # memcheck: where the address lies against the nearest buffer

    @property
    def lines(self) -> list[int]:
        return [s.line for s in self.sites]


class SanitizerReport(BaseModel):
    """`memsim check`'s result: the findings of one tool on one launch."""

    tool: str
    kernel: str
    source_file: str
    engine: str
    findings: list[Finding]
    errors: int = Field(description="compute-sanitizer's ERROR SUMMARY count (racecheck: hazard records)")
    hazard_total: int = 0    # racecheck: every hazard (compute-sanitizer's hazard reports)
    hazard_records: list[Finding] = Field(default_factory=list, description="racecheck: the first hazards, "
                                          "each naming its two threads (--racecheck-report hazard)")

    @property
    def clean(self) -> bool:
        return not self.findings

    def text(self, racecheck_report: str = "analysis", print_limit: int = 0) -> str:
        """compute-sanitizer's report of the launch: racecheck_report as its
        --racecheck-report (analysis, hazard, all), at most print_limit errors (0: all)."""
        lines = [f"{PREFIX}COMPUTE-SANITIZER"]
        shown = []
        if self.tool == "racecheck" and racecheck_report in ("hazard", "all"):
            shown += self.hazard_records
        if self.tool != "racecheck" or racecheck_report in ("analysis", "all"):
            shown += self.findings
        shown = shown[:print_limit or None]
        for f in shown:
            lines += _hazard(f, self.kernel, self.source_file) if f.kind == HAZARD else \
                _FORMAT[f.tool](f, self.kernel, self.source_file)
            lines.append(PREFIX)
        if self.tool == "racecheck":
            warnings = sum(f.severity == "warning" for f in shown)
            lines.append(f"{PREFIX}RACECHECK SUMMARY: {len(shown)} hazards displayed "
                         f"({len(shown) - warnings} errors, {warnings} warnings)")
        else:
            lines.append(f"{PREFIX}ERROR SUMMARY: {self.errors} error{'' if self.errors == 1 else 's'}")
        return "\n".join(lines) + "\n"


def _thread(t: Dim3) -> str:
    return "({},{},{})".format(*t)


def _memcheck(f: Finding, kernel: str, source: str) -> list[str]:
    access = f.access[0] if f.access else "read"
    out = [f"{PREFIX}Invalid __{f.space}__ {access} of size {f.size} bytes",
           f"{INDENT}at {f.sites[0].where(kernel, source)}",
           f"{INDENT}by thread {_thread(f.threads[0])} in block {_thread(f.block)}"]
    what = {OUT_OF_BOUNDS: "is out of bounds", MISALIGNED: "is misaligned",
            READ_ONLY: "is to read-only memory"}[f.kind]
    out.append(f"{INDENT}Access to {f.address:#x} {what}")
    if f.detail:
        out.append(f"{INDENT}and is {f.detail}")
    return out


def _initcheck(f: Finding, kernel: str, source: str) -> list[str]:
    return [f"{PREFIX}Uninitialized __{f.space}__ memory read of size {f.size} bytes",
            f"{INDENT}at {f.sites[0].where(kernel, source)}",
            f"{INDENT}by thread {_thread(f.threads[0])} in block {_thread(f.block)}",
            f"{INDENT}Address {f.address:#x}"]


def _synccheck(f: Finding, kernel: str, source: str) -> list[str]:
    what = "Divergent thread(s) in warp." if f.kind == DIVERGENT_BARRIER else "Invalid arguments."
    return [f"{PREFIX}Barrier error detected. {what}",
            f"{INDENT}at {f.sites[0].where(kernel, source)}",
            f"{INDENT}by thread {_thread(f.threads[0])} in block {_thread(f.block)}"]


def _racecheck(f: Finding, kernel: str, source: str) -> list[str]:
    a, b = f.sites
    first, second = (x.capitalize() for x in f.access)
    return [f"{PREFIX}{f.severity.capitalize()}: Race reported between {first} access at "
            f"{a.where(kernel, source)}",
            f"{INDENT}and {second} access at {b.where(kernel, source)} [{f.hazards} hazards]"]


def _hazard(f: Finding, kernel: str, source: str) -> list[str]:
    kind = next(iter(f.hazard_kinds))
    head = "Error:" if f.severity == "error" else "Warning: (Warp Level Programming)"
    return [f"{PREFIX}{head} Potential {kind} hazard detected at __shared__ {f.address:#x} in block "
            f"{_thread(f.block)} :"] + [
        f"{INDENT}{access.capitalize()} Thread {_thread(t)} at {site.where(kernel, source)}"
        for access, t, site in zip(f.access, f.threads, f.sites)]


_FORMAT = {"memcheck": _memcheck, "initcheck": _initcheck, "synccheck": _synccheck,
           "racecheck": _racecheck}
