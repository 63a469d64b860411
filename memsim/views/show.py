"""Pictures of one warp's memory access: which bytes each lane touches, which 32-byte sectors
(global) or banks (shared) that lands on, and what is wasted or serialized.

    report, pictures = memsim.trace_pictures(spec, line=17, block=0, warp=0)   # memsim/warp_trace.py
    show.print_pictures(pictures)              # terminal; plain text where there is no colour
    show.save_figure(pictures, "store.png")    # PNG or SVG (matplotlib, imported lazily)

The costs in each picture (sectors, wavefronts and their ideals) are the engine's count of that
access (memsim.stream.AccessCosts, filled by memsim.warp_trace); this module only lays lanes,
sectors and banks out, and checks its layout against them.
"""
from __future__ import annotations

import html as html_text
import io
import re
from collections import defaultdict
from typing import Iterable

import numpy as np
from pydantic import BaseModel, Field
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..errors import LaunchError
from ..gpus import BANK_BYTES, BANKS, SECTOR_BYTES
from ..report import InstructionCounters, KernelReport
from ..stream import OPS, SPACE_NAMES, AccessCosts, WarpAccesses

WARP = 32
WORD = BANK_BYTES                      # a bank word, and one cell of a sector picture
WORDS_PER_SECTOR = SECTOR_BYTES // WORD
SHOWN_SPACES = ("global", "shared", "local")

LEGEND_GLOBAL = ("# bytes a lane uses   + word partly used   . bytes moved but unused   "
                 "sN: the N-th distinct 32-byte sector the warp touches")
LEGEND_SHARED = ("cell: the lane whose word that bank delivers in that wavefront   . idle bank   "
                 "* several lanes share the word (broadcast)   ! the bank holds several distinct "
                 "words: a conflict, each extra word costs one more wavefront")


class LaneAccess(BaseModel):
    """Where one active lane's access lands."""

    lane: int
    address: int = Field(description="device address (global, local) or shared byte offset")
    label: str = Field(description="buffer and byte offset, e.g. B+256")
    sector: int = Field(-1, description="index into WarpPicture.sectors (global, local)")
    bank: int = Field(-1, description="bank of the lane's first word (shared)")
    wavefront: int = Field(-1, description="0-based wavefront serving that word (shared)")


class SectorUse(BaseModel):
    """One 32-byte sector the warp touches and which of its bytes the lanes asked for."""

    address: int
    label: str
    words: list[list[int]] = Field(description="per 4-byte word: the lanes touching it")
    used_bytes: int


class BankCell(BaseModel):
    """One distinct 4-byte word a bank delivers in one wavefront of one phase."""

    phase: int
    bank: int
    wavefront: int
    word: int = Field(description="shared byte offset // 4")
    lanes: list[int]
    conflict: bool = Field(description="the bank holds other distinct words in this phase")


class WarpPicture(BaseModel):
    """One warp executing one memory instruction once, laid out lane by lane."""

    kernel: str
    line: int
    source: str
    pc: int
    listing: str   # the instruction as the engine that ran it lists it (SASS or PTX)
    space: str
    op: str
    width: int
    block: int
    warp: int
    execution: int = Field(description="1-based: which of the warp's executions of this instruction")
    executions: int
    lanes: list[LaneAccess]
    sectors: list[SectorUse] = Field(default_factory=list)
    ideal_sectors: int = 0
    cells: list[BankCell] = Field(default_factory=list)
    phase_lanes: int = WARP
    wavefronts: int = 0
    ideal_wavefronts: int = 0

    @property
    def is_shared(self) -> bool:
        return self.space == "shared"

    @property
    def cost(self) -> int:
        """Sectors (global, local) or wavefronts (shared) this access costs."""
        return self.wavefronts if self.is_shared else len(self.sectors)

    @property
    def ideal(self) -> int:
        return self.ideal_wavefronts if self.is_shared else self.ideal_sectors

    @property
    def unit(self) -> str:
        return "wavefronts" if self.is_shared else "sectors"

    @property
    def wasted_fraction(self) -> float:
        """Share of the bytes moved that no lane asked for (global, local)."""
        moved = len(self.sectors) * SECTOR_BYTES
        return 1 - sum(s.used_bytes for s in self.sectors) / moved if moved else 0.0

    @property
    def conflicting_lanes(self) -> list[int]:
        return sorted({lane for cell in self.cells if cell.conflict for lane in cell.lanes})

    def headline(self) -> str:
        """The cost in one sentence."""
        cost = plural(self.cost, self.unit[:-1])
        verdict = (f"{cost} where {self.ideal} would do" if self.cost > self.ideal
                   else f"{cost}, the minimum")
        if self.is_shared:
            worst = max((c.wavefront + 1 for c in self.cells), default=0)
            lanes = self.conflicting_lanes
            extra = (f"; {worst}-way bank conflict, conflicting lanes {lane_ranges(lanes)}"
                     if lanes else "; no bank conflict")
            return verdict + extra
        return verdict + f"; {100 * self.wasted_fraction:.1f}% of the bytes moved are unused"

    @property
    def buffers(self) -> list[str]:
        """The buffers the lanes touch, by name (global, local)."""
        names = [] if self.is_shared else [a.label.split("+")[0] for a in self.lanes]
        return list(dict.fromkeys(names))

    def title(self) -> str:
        op = {"ld": "load", "st": "store"}.get(self.op, self.op)
        where = f" {'from' if self.op == 'ld' else 'to'} {', '.join(self.buffers)}" if self.buffers else ""
        runs = f", execution {self.execution} of {self.executions}" if self.executions > 1 else ""
        return (f"{self.kernel} line {self.line}: {self.space} {op}{where}, {self.width} B per lane, "
                f"warp {self.warp} of block {self.block}{runs}")

    def _repr_html_(self) -> str:
        return picture_html([self])


# ---- building pictures from a trace (memsim/warp_trace.py runs the launch) -----------------

def pictures_from_trace(report: KernelReport, accesses: WarpAccesses, costs: AccessCosts,
                        buffers: list[tuple[int, int, int]], source: str, execution: int = 1) -> list[WarpPicture]:
    """One picture per traced instruction (in program order), for its `execution`-th run;
    `buffers`: (argument, address, bytes) of the launch's buffers."""
    by_pc = {row.index: row for row in report.instructions}
    names = buffer_labels(buffers, parameter_names(source, report.kernel))
    source_lines = source.splitlines()
    pictures = []
    for pc in sorted(set(accesses.pc.tolist())):
        rows = np.flatnonzero(accesses.pc == pc)
        if len(rows) < execution:
            continue
        k = int(rows[execution - 1])
        row = by_pc[pc]
        text = source_lines[row.line - 1].strip() if 0 < row.line <= len(source_lines) else row.listing
        pictures.append(picture(row, accesses, costs, k, len(rows), execution, report.kernel, names, text))
    return pictures


def picture(row: InstructionCounters, accesses: WarpAccesses, costs: AccessCosts, k: int, executions: int,
            execution: int, kernel: str, names: list[tuple[int, int, str]], source: str) -> WarpPicture:
    """The picture of trace record `k` (an execution of instruction `row`)."""
    space = SPACE_NAMES[int(accesses.space[k])]
    addrs = accesses.addresses[k]
    active = int(accesses.active[k])
    lanes = [lane for lane in range(WARP) if (active >> lane) & 1]
    picture = WarpPicture(
        kernel=kernel, line=row.line, source=source, pc=row.index,
        listing=row.listing, space=space, op=OPS[int(accesses.op[k])], width=row.width,
        block=int(accesses.block[k]), warp=int(accesses.warp[k]), execution=execution,
        executions=executions,
        lanes=[LaneAccess(lane=lane, address=int(addrs[lane]),
                          label=address_label(int(addrs[lane]), space, names)) for lane in lanes])
    if space == "shared":
        _lay_out_banks(picture, int(costs.wavefronts[k]), int(costs.ideal_wavefronts[k]), int(costs.phase_lanes[k]))
    else:
        _lay_out_sectors(picture, int(costs.sectors[k]), int(costs.ideal_sectors[k]), names)
    return picture


def _lay_out_sectors(picture: WarpPicture, sectors: int, ideal: int, names: list[tuple[int, int, str]]) -> None:
    used: dict[int, set[int]] = defaultdict(set)      # sector address -> byte offsets used
    words: dict[int, list[list[int]]] = {}
    for access in picture.lanes:
        start = access.address - access.address % SECTOR_BYTES
        cells = words.setdefault(start, [[] for _ in range(WORDS_PER_SECTOR)])
        for byte in range(access.address - start, access.address - start + picture.width):
            used[start].add(byte)
            lanes = cells[byte // WORD]
            if access.lane not in lanes:
                lanes.append(access.lane)
    order = sorted(words)
    assert len(order) == sectors, "sector layout disagrees with the engine's count"
    picture.sectors = [SectorUse(address=a, label=address_label(a, picture.space, names),
                                 words=words[a], used_bytes=len(used[a])) for a in order]
    picture.ideal_sectors = int(ideal)
    index = {a: i for i, a in enumerate(order)}
    for access in picture.lanes:
        access.sector = index[access.address - access.address % SECTOR_BYTES]


def _lay_out_banks(picture: WarpPicture, wavefronts: int, ideal: int, phase: int) -> None:
    words_per_lane = (picture.width + WORD - 1) // WORD
    cells: list[BankCell] = []
    for number, first in enumerate(range(0, WARP, phase)):
        lanes_of_word: dict[int, list[int]] = defaultdict(list)
        for access in picture.lanes:
            if first <= access.lane < first + phase:
                for k in range(words_per_lane):
                    lanes_of_word[access.address // WORD + k].append(access.lane)
        cells += _phase_cells(number, lanes_of_word)
    depth = sum(max((c.wavefront + 1 for c in cells if c.phase == p), default=0)
                for p in range(WARP // phase))
    assert depth == wavefronts, "bank layout disagrees with the engine's count"
    picture.cells, picture.phase_lanes = cells, phase
    picture.wavefronts, picture.ideal_wavefronts = int(wavefronts), int(ideal)
    first_cell = {lane: c for c in reversed(cells) for lane in c.lanes}
    for access in picture.lanes:
        cell = first_cell[access.lane]
        access.bank, access.wavefront = cell.bank, cell.wavefront


def _phase_cells(phase: int, lanes_of_word: dict[int, list[int]]) -> list[BankCell]:
    """A bank delivers one distinct word per wavefront: its k-th word waits for wavefront k."""
    per_bank: dict[int, list[int]] = defaultdict(list)
    for word in sorted(lanes_of_word):
        per_bank[word % BANKS].append(word)
    return [BankCell(phase=phase, bank=bank, wavefront=depth, word=word,
                     lanes=sorted(lanes_of_word[word]), conflict=len(words) > 1)
            for bank, words in sorted(per_bank.items()) for depth, word in enumerate(words)]


# ---- naming addresses ----------------------------------------------------------------------------

def parameter_names(source: str, kernel: str) -> list[str]:
    """The kernel's parameter names from its CUDA signature ([] if it cannot be found)."""
    match = re.search(rf"\b{re.escape(kernel)}\s*\(([^)]*)\)", source)
    if not match:
        return []
    names = []
    for parameter in match.group(1).split(","):
        found = re.search(r"(\w+)\s*(\[\s*\])?\s*$", parameter.strip())
        names.append(found.group(1) if found else "")
    return names


def buffer_labels(buffers: list[tuple[int, int, int]], params: list[str]) -> list[tuple[int, int, str]]:
    """(base, bytes, name) per device buffer: the parameter's name, else `argN`."""
    return [(base, size, params[pos] if pos < len(params) and params[pos] else f"arg{pos}")
            for pos, base, size in buffers]


def address_label(address: int, space: str, names: list[tuple[int, int, str]]) -> str:
    if space == "shared":
        return f"smem+{address}"
    for base, size, name in names:
        if base <= address < base + size:
            return f"{name}+{address - base}"
    return f"{space}:{address:#x}"


def lane_ranges(lanes: Iterable[int]) -> str:
    """[0, 1, 2, 5] -> '0-2, 5'."""
    runs: list[list[int]] = []
    for lane in sorted(lanes):
        if runs and lane == runs[-1][1] + 1:
            runs[-1][1] = lane
        else:
            runs.append([lane, lane])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs) or "none"


# ---- terminal ------------------------------------------------------------------------------------

def renderables(picture: WarpPicture, width: int = 200) -> list:
    """Rich renderables for one picture; every mark is a glyph, so it reads without colour."""
    parts: list = [Text(picture.title(), style="bold"),
                   Text(f"  {picture.source or picture.listing}", style="cyan"),
                   Text(f"  {picture.headline()}", style="red" if picture.cost > picture.ideal else "green")]
    if picture.is_shared:
        parts += [bank_grid(picture, width), Text(LEGEND_SHARED, style="dim")]
    else:
        parts += [lane_table(picture), Text(f"32-byte sectors, one mark per 4-byte word: "
                            f"{len(picture.sectors)} moved, {picture.ideal_sectors} would do"),
                   sector_table(picture), Text(LEGEND_GLOBAL, style="dim")]
    return parts


def lane_table(picture: WarpPicture, groups: int = 4) -> Table:
    """lane -> address -> sector, lanes in `groups` side-by-side column groups."""
    table = Table(title="lane -> address -> sector", title_justify="left", box=None, pad_edge=False)
    for _ in range(groups):
        for title, justify in (("lane", "right"), ("address", "left"), ("sector", "left")):
            table.add_column(title, justify=justify)
    by_lane = {a.lane: a for a in picture.lanes}
    rows = WARP // groups
    for r in range(rows):
        cells = []
        for g in range(groups):
            access = by_lane.get(g * rows + r)
            cells += ([str(access.lane), access.label, f"s{access.sector}"] if access
                      else [str(g * rows + r), "(inactive)", ""])
        table.add_row(*cells)
    return table


def sector_table(picture: WarpPicture) -> Table:
    table = Table(box=None, pad_edge=False)
    for title, justify in (("sector", "left"), ("address", "left"), ("words", "left"),
                           ("used", "right"), ("lanes", "left")):
        table.add_column(title, justify=justify)
    for i, sector in enumerate(picture.sectors):
        lanes = sorted({lane for word in sector.words for lane in word})
        table.add_row(f"s{i}", sector.label, word_marks(sector, picture.width),
                      f"{sector.used_bytes}/32 B", lane_ranges(lanes))
    return table


def word_marks(sector: SectorUse, width: int) -> Text:
    """'#' per fully used word, '+' partly used, '.' moved but unused."""
    text = Text()
    for word in sector.words:
        if not word:
            text.append(".", style="red")
        else:
            full = width >= WORD or len(word) * width >= WORD
            text.append("#" if full else "+", style="green")
    return text


def bank_grid(picture: WarpPicture, width: int = 200) -> Text:
    """Banks across, wavefronts down: each cell names the lane served there. Built as text, not
    a rich Table, so that the columns keep their width; banks wrap in groups of 16 or 8 where
    32 columns do not fit in `width`."""
    marks = any(c.conflict or len(c.lanes) > 1 for c in picture.cells)
    cell = 4 if marks else 3
    label = 14
    per_row = next((n for n in (32, 16, 8) if label + n * cell <= width), 8)
    text = Text(f"lane -> bank: {plural(picture.wavefronts, 'wavefront')}, "
                f"{picture.ideal_wavefronts} would do (one word per bank per wavefront)")
    for phase in sorted({c.phase for c in picture.cells}):
        cells = [c for c in picture.cells if c.phase == phase]
        if picture.phase_lanes < WARP:
            first = phase * picture.phase_lanes
            text.append(f"\nlanes {first}-{first + picture.phase_lanes - 1} "
                        f"(served {picture.phase_lanes} lanes at a time)", style="bold")
        for banks in range(0, BANKS, per_row):
            _bank_rows(text, cells, range(banks, banks + per_row), label, cell)
    return text


def _bank_rows(text: Text, cells: list[BankCell], banks: range, label: int, cell: int) -> None:
    text.append("\n" + "bank".ljust(label) + "".join(f"{b:>{cell}}" for b in banks), style="bold")
    used = [c.wavefront for c in cells if c.bank in banks]
    if not used:
        text.append("\n" + "(idle)".ljust(label) + ".".rjust(cell) * len(banks), style="dim")
    for wavefront in range(max(used, default=-1) + 1):
        text.append("\n" + f"wavefront {wavefront + 1}".ljust(label))
        row = {c.bank: c for c in cells if c.wavefront == wavefront}
        for bank in banks:
            text.append_text(_bank_cell(row.get(bank), cell))


def _bank_cell(cell: BankCell | None, width: int) -> Text:
    if cell is None:
        return Text(".".rjust(width), style="dim")
    mark = ("*" if len(cell.lanes) > 1 else "") + ("!" if cell.conflict else "")
    return Text(f"{cell.lanes[0]}{mark[-1:]}".rjust(width),
                style="bold red" if cell.conflict else "green")


def plural(n: int, unit: str) -> str:
    return f"{n} {unit}" if n == 1 else f"{n} {unit}{'es' if unit.endswith('s') else 's'}"


def print_pictures(pictures: list[WarpPicture], console: Console | None = None) -> None:
    console = console or Console()
    for picture in pictures:
        for part in renderables(picture, console.width):
            console.print(part)
        console.print()


def plain_text(pictures: list[WarpPicture], width: int = 200) -> str:
    """The terminal pictures without colour, as a string."""
    console = Console(width=width, no_color=True, file=io.StringIO(), record=True)
    print_pictures(pictures, console)
    return console.export_text()


# ---- figures (matplotlib, imported lazily) -------------------------------------------------------

LANE_COLOURS = "viridis"
WASTE_COLOUR = "#eeeeee"
CONFLICT_EDGE = "#d62728"


def figure(pictures: list[WarpPicture]):
    """A matplotlib Figure with one panel per picture, stacked."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    heights = [_panel_rows(p) + 4 for p in pictures]
    width = 11 if any(p.is_shared for p in pictures) else 8
    fig, axes = plt.subplots(len(pictures), 1, figsize=(width, 0.26 * sum(heights) + 1.2),
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    for ax, picture in zip(axes[:, 0], pictures):
        (_draw_banks if picture.is_shared else _draw_sectors)(ax, picture)
    fig.tight_layout()
    return fig


def _panel_rows(picture: WarpPicture) -> int:
    if picture.is_shared:
        return sum(max((c.wavefront for c in picture.cells if c.phase == p), default=-1) + 1
                   for p in {c.phase for c in picture.cells})
    return len(picture.sectors)


def _lane_colour(lane: int):
    import matplotlib
    return matplotlib.colormaps[LANE_COLOURS](lane / (WARP - 1))


def _cell(ax, x: float, y: float, lanes: list[int], edge: str = "white", hatch: str = "") -> None:
    from matplotlib.patches import Rectangle
    if lanes:
        colour = _lane_colour(lanes[0])
        ax.add_patch(Rectangle((x, y), 1, 1, facecolor=colour, edgecolor=edge,
                               linewidth=2 if edge != "white" else 1))
        label = f"{lanes[0]}{'*' if len(lanes) > 1 else ''}"
        ink = "white" if sum(colour[:3]) < 1.6 else "black"
        ax.text(x + 0.5, y + 0.5, label, ha="center", va="center", fontsize=7, color=ink)
    else:
        ax.add_patch(Rectangle((x, y), 1, 1, facecolor=WASTE_COLOUR, edgecolor="#bbbbbb",
                               hatch=hatch, linewidth=0.5))


def _draw_sectors(ax, picture: WarpPicture) -> None:
    from matplotlib.patches import Patch
    for row, sector in enumerate(picture.sectors):
        for word, lanes in enumerate(sector.words):
            _cell(ax, word, row, lanes, hatch="///")
    rows = len(picture.sectors)
    ax.set_xlim(0, WORDS_PER_SECTOR)
    ax.set_ylim(rows, 0)
    ax.set_xticks([w + 0.5 for w in range(WORDS_PER_SECTOR)],
                  [f"{WORD * w}-{WORD * w + WORD - 1}" for w in range(WORDS_PER_SECTOR)], fontsize=7)
    ax.set_yticks([r + 0.5 for r in range(rows)], [s.label for s in picture.sectors],
                  fontsize=7 if rows <= 32 else 5)
    ax.set_xlabel("byte within the 32-byte sector (each cell: one 4-byte word, number: the lane)")
    ax.set_ylabel("sector (buffer + byte offset)" if rows >= 8 else "sector")
    ax.set_title(f"{picture.title()}\n{picture.source}\n{picture.headline()}", fontsize=9, loc="left")
    ax.legend(handles=[Patch(facecolor=_lane_colour(12), label="bytes a lane uses (colour, number: lane)"),
                       Patch(facecolor=WASTE_COLOUR, edgecolor="#bbbbbb", hatch="///",
                             label="moved but unused")],
              loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=7, frameon=False)
    ax.set_aspect("auto")


def _draw_banks(ax, picture: WarpPicture) -> None:
    from matplotlib.patches import Patch
    y, ticks, labels = 0, [], []
    for phase in sorted({c.phase for c in picture.cells}):
        cells = [c for c in picture.cells if c.phase == phase]
        depth = max(c.wavefront for c in cells) + 1
        ax.vlines(range(BANKS + 1), y, y + depth, color="#e4e4e4", linewidth=0.5, zorder=0.5)
        ax.hlines(range(y, y + depth + 1), 0, BANKS, color="#e4e4e4", linewidth=0.5, zorder=0.5)
        for c in cells:
            _cell(ax, c.bank, y + c.wavefront, c.lanes, edge=CONFLICT_EDGE if c.conflict else "white")
        for wavefront in range(depth):
            ticks.append(y + wavefront + 0.5)
            prefix = (f"lanes {phase * picture.phase_lanes}-{(phase + 1) * picture.phase_lanes - 1}: "
                      if picture.phase_lanes < WARP and wavefront == 0 else "")
            labels.append(f"{prefix}{wavefront + 1}")
        y += depth
        if picture.phase_lanes < WARP:
            ax.axhline(y, color="black", linewidth=1)
    ax.set_xlim(0, BANKS)
    ax.set_ylim(y, 0)
    ax.set_xticks([b + 0.5 for b in range(BANKS)], [str(b) for b in range(BANKS)], fontsize=7)
    ax.set_yticks(ticks, labels, fontsize=7 if y <= 32 else 5)
    ax.set_xlabel("shared-memory bank (4-byte words; number in a cell: the lane)")
    ax.set_ylabel("wavefront")
    ax.set_title(f"{picture.title()}\n{picture.source}\n{picture.headline()}", fontsize=9, loc="left")
    ax.legend(handles=[Patch(facecolor=_lane_colour(12), label="a lane's word (colour, number: lane)"),
                       Patch(facecolor="white", edgecolor=CONFLICT_EDGE, linewidth=2,
                             label="bank conflict: bank holds several words"),
                       Patch(facecolor="white", edgecolor="white", label="* several lanes, one word")],
              loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=7, frameon=False)


def save_figure(pictures: list[WarpPicture], path: str) -> None:
    """PNG or SVG by the file's suffix."""
    import matplotlib.pyplot as plt
    if not path.lower().endswith((".png", ".svg")):
        raise LaunchError(f"figure file must end in .png or .svg: {path}")
    fig = figure(pictures)
    try:
        fig.savefig(path, dpi=130, bbox_inches="tight")
    except OSError as exc:
        raise LaunchError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        plt.close(fig)


def svg(pictures: list[WarpPicture]) -> str:
    import matplotlib.pyplot as plt
    fig = figure(pictures)
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight")
    plt.close(fig)
    return buffer.getvalue()


def picture_html(pictures: list[WarpPicture]) -> str:
    """Notebook HTML of pictures: the SVG figure and each picture's headline."""
    return svg(pictures) + "".join(f"<p>{html_text.escape(p.headline())}</p>" for p in pictures)
