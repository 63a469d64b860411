"""Findings in the style of Nsight Compute's rules, with numbers and the usual remedy.

    for finding in advice.findings(report):
        print(finding.message, "->", finding.remedy)

Two rules, both read from a KernelReport's per-line counters:
- uncoalesced global (and local) accesses: more 32-byte sectors per request than the bytes the
  lanes asked for need;
- shared-memory bank conflicts: more wavefronts per request than the distinct words need.
Each finding says how much of that kind of traffic is excess, which sets its severity.
"""
from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, Field
from rich.text import Text

from .. import metrics as m
from ..report import InstructionCounters, KernelReport, LineCounters

HIGH_SHARE = 0.5     # at least half of that traffic is excess
MEDIUM_SHARE = 0.1
# Each lane in its own sector: the access is strided, not merely offset.
STRIDED_LANE_FRACTION = 0.9

OP_NAMES = {"ld": "load", "st": "store", "atom": "atomic", "red": "reduction"}
TOTAL_SECTORS = {("global", "ld"): m.GLOBAL_LD_SECTORS, ("global", "st"): m.GLOBAL_ST_SECTORS}
TOTAL_WAVEFRONTS = {"ld": m.SHARED_LD_WAVEFRONTS, "st": m.SHARED_ST_WAVEFRONTS}

REMEDY_MISALIGNED = ("align each warp's first address to 32 bytes: the extra sector per request "
                     "is a misaligned head and tail (start the index at a multiple of 32 bytes, "
                     "or shift the buffer's base pointer)")
REMEDY_SWAP = ("consecutive lanes (threadIdx.x) are a row apart: reorganise so that they take "
               "consecutive elements, i.e. swap the index order (A[i * n + idx] rather than "
               "A[idx * n + i])")
REMEDY_STAGE = ("a transpose (the other side already runs along rows): stage a tile through "
                "shared memory so that both global sides run along rows (load rows into "
                "tile[T][T+1], __syncthreads(), store rows of the transposed tile)")
REMEDY_SCATTERED = ("make consecutive lanes access consecutive addresses, or use wider accesses "
                    "(float2/float4) so that each lane moves 8-16 contiguous bytes")
REMEDY_PAD = ("pad the shared array by one element per row (tile[T][T+1]) so that the elements of "
              "a column fall in different banks, or swizzle the column index (col ^ row): the "
              "lanes of a warp must land in different banks, or on the same word")


class Severity(str, Enum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


class Finding(BaseModel):
    """One problem on one source line, with the numbers behind it."""

    severity: Severity
    kind: str = Field(description="uncoalesced | bank_conflict")
    line: int
    source: str = ""
    space: str
    op: str
    requests: int
    per_request: float = Field(description="sectors (global) or wavefronts (shared) per request")
    ideal_per_request: float
    excess: int = Field(description="sectors or wavefronts beyond the ideal, whole launch")
    share: float = Field(description="excess / all sectors (wavefronts) of this space and op")
    message: str
    remedy: str



def findings(report: KernelReport) -> list[Finding]:
    """Every finding of the launch, most severe (then largest excess) first."""
    found = []
    for row in report.lines:
        if row.space == "shared":
            finding = _bank_conflict(row, report)
        else:
            finding = _uncoalesced(row, report)
        if finding is not None:
            found.append(finding)
    order = list(Severity)
    return sorted(found, key=lambda f: (order.index(f.severity), -f.excess, f.line))


def _severity(share: float) -> Severity:
    if share >= HIGH_SHARE:
        return Severity.HIGH
    return Severity.MEDIUM if share >= MEDIUM_SHARE else Severity.LOW


def number(value: float) -> str:
    """4.0 -> '4', 4.03125 -> '4.03'."""
    return f"{value:.0f}" if abs(value - round(value)) < 0.005 else f"{value:.2f}"


def _uncoalesced(row: LineCounters, report: KernelReport) -> Finding | None:
    excess = row.sectors - row.ideal_sectors
    if not row.requests or excess <= 0:
        return None
    total = report.metrics.get(TOTAL_SECTORS.get((row.space, row.op), ""), 0) or row.sectors
    share = excess / total
    op = OP_NAMES.get(row.op, row.op)
    message = (f"line {row.line}: uncoalesced {row.space} {op}s: {row.sectors_per_request:.1f} "
               f"sectors per request where {number(row.ideal_sectors_per_request)} would do, "
               f"{number(excess / row.requests)} excess "
               f"{'sector' if excess == row.requests else 'sectors'} per request "
               f"({100 * share:.1f}% of {op} traffic)")
    return Finding(severity=_severity(share), kind="uncoalesced", line=row.line, source=row.source,
                   space=row.space, op=row.op, requests=row.requests,
                   per_request=row.sectors_per_request,
                   ideal_per_request=row.ideal_sectors_per_request, excess=excess, share=share,
                   message=message, remedy=_coalescing_remedy(row, report))


def _coalescing_remedy(row: LineCounters, report: KernelReport) -> str:
    if row.sectors - row.ideal_sectors <= row.requests:
        return REMEDY_MISALIGNED
    if row.sectors_per_request < STRIDED_LANE_FRACTION * _lanes_per_request(row, report):
        return REMEDY_SCATTERED
    return REMEDY_STAGE if _is_transpose_side(row, report) else REMEDY_SWAP


def _is_transpose_side(row: LineCounters, report: KernelReport) -> bool:
    """A coalesced access of the other direction, as many requests: each element is read once
    and written once, one side along rows and this side along columns."""
    return any(other.space == row.space and other.op != row.op and other.requests == row.requests
               and other.sectors == other.ideal_sectors for other in report.lines)


def _lanes_per_request(row: LineCounters, report: KernelReport) -> float:
    same: list[InstructionCounters] = [
        i for i in report.instructions
        if (i.line, i.space, i.op, i.width) == (row.line, row.space, row.op, row.width)]
    requests = sum(i.requests for i in same)
    return sum(i.threads for i in same) / requests if requests else 32.0


def _bank_conflict(row: LineCounters, report: KernelReport) -> Finding | None:
    excess = row.bank_conflicts
    if not row.requests or excess <= 0:
        return None
    total = report.metrics.get(TOTAL_WAVEFRONTS.get(row.op, ""), 0) or row.wavefronts
    share = excess / total
    ideal = row.ideal_wavefronts / row.requests
    ways = row.wavefronts / row.ideal_wavefronts
    op = OP_NAMES.get(row.op, row.op)
    message = (f"line {row.line}: {number(ways)}-way bank conflict on shared {op}s "
               f"({number(row.wavefronts_per_request)} wavefronts per request where "
               f"{number(ideal)} would do; {100 * share:.1f}% of shared {op} wavefronts)")
    return Finding(severity=_severity(share), kind="bank_conflict", line=row.line,
                   source=row.source, space=row.space, op=row.op, requests=row.requests,
                   per_request=row.wavefronts_per_request, ideal_per_request=ideal,
                   excess=excess, share=share, message=message, remedy=REMEDY_PAD)


# ---- rendering -----------------------------------------------------------------------------------

SEVERITY_STYLE = {Severity.HIGH: "bold red", Severity.MEDIUM: "yellow", Severity.LOW: "dim"}


def text(items: list[Finding]) -> Text:
    """One paragraph per finding: severity, message, then the remedy (reads without colour)."""
    if not items:
        return Text("no findings: every access is coalesced and conflict-free", style="green")
    out = Text()
    for f in items:
        out.append(f"{f.severity.value:<7}", style=SEVERITY_STYLE[f.severity])
        out.append(f"{f.message}\n")
        out.append(f"{'':7}remedy: {f.remedy}\n", style="dim")
    out.rstrip()
    return out
