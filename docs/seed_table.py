"""The tutorial's tables: memsim's predictions next to the H100's measurements, per seed launch.

    python docs/seed_table.py            # simulate the 25 seed launches, rewrite the tables in tutorial.md
    python docs/seed_table.py --check    # exit 1 if the tables in tutorial.md are not what it would write

Measured numbers come from tests/golden/h100-seed-kernels.json (ncu on an H100); the launches
are the catalog's seed cases (memsim.catalog.SEED_CASES), which compile to the same PTX.
Simulating all 25 at full size takes a few minutes (the two 1 GB row/column sums take most of it).
Each figure appears twice, memsim's and the H100's; memsim shows "-" for a figure it does not
predict (cache and time figures, until the report carries them).
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from memsim import catalog, metrics as m
from memsim import simulate_spec

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "h100-seed-kernels.json"
TUTORIAL = ROOT / "docs" / "tutorial.md"
NO_VALUE = "-"


def per_request(numerator: str, requests: str) -> Callable[[dict], str]:
    def cell(metrics: dict) -> str:
        n = metrics.get(requests, 0)
        return f"{metrics[numerator] / n:.2f}" if n and numerator in metrics else NO_VALUE
    return cell


def scaled(name: str, divisor: float, digits: int) -> Callable[[dict], str]:
    def cell(metrics: dict) -> str:
        return f"{metrics[name] / divisor:,.{digits}f}" if name in metrics else NO_VALUE
    return cell


@dataclass(frozen=True)
class SeedTable:
    """A markdown table between `<!-- NAME:begin -->` and `<!-- NAME:end -->` in the tutorial."""

    name: str
    figures: list[tuple[str, Callable[[dict], str]]]

    @property
    def markers(self) -> tuple[str, str]:
        return f"<!-- {self.name}:begin -->", f"<!-- {self.name}:end -->"

    def header(self) -> list[str]:
        cells = ["case", "catalog launch"]
        for title, _ in self.figures:
            cells += [f"{title} memsim", "H100"]
        return cells

    def row(self, case: catalog.SeedCase, predicted: dict, measured: dict) -> list[str]:
        cells = [case.case, launch_text(case)]
        for _, figure in self.figures:
            cells += [figure(predicted), figure(measured)]
        return cells

    def markdown(self, rows: list[list[str]]) -> str:
        header = self.header()
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        return "\n".join(lines + ["| " + " | ".join(cells) + " |" for cells in rows])

    def parse(self, text: str) -> list[list[str]]:
        """The rows of this table in `text`."""
        begin, end = self.markers
        block = text[text.index(begin) + len(begin):text.index(end)]
        rows = [line.strip().strip("|").split("|") for line in block.strip().splitlines()[2:]]
        return [[cell.strip() for cell in cells] for cells in rows]

    def replace(self, text: str, table: str) -> str:
        begin, end = self.markers
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        return f"{head}{begin}\n{table}\n{end}{tail}"


COUNTERS = SeedTable("seed-table", [
    ("ld sectors/req", per_request(m.GLOBAL_LD_SECTORS, m.GLOBAL_LD_REQUESTS)),
    ("st sectors/req", per_request(m.GLOBAL_ST_SECTORS, m.GLOBAL_ST_REQUESTS)),
    ("shared ld wavefronts/req", per_request(m.SHARED_LD_WAVEFRONTS, m.INST_SHARED_LD)),
    ("time (us)", scaled(m.DURATION, 1000, 1)),
])
CACHES = SeedTable("cache-table", [
    ("L1 hit sectors (M)", scaled(m.L1_HIT, 1e6, 2)),
    ("L2 read sectors (M)", scaled(m.L2_READ, 1e6, 2)),
    ("L2 write sectors (M)", scaled(m.L2_WRITE, 1e6, 2)),
    ("DRAM read (MB)", scaled(m.DRAM_READ, 1e6, 1)),
])
TABLES = [COUNTERS, CACHES]


def golden() -> dict[str, dict]:
    return {r["case"]: r["metrics"] for r in json.loads(GOLDEN.read_text())}


def launch_text(case: catalog.SeedCase) -> str:
    p = case.params
    size = f"{p['nx']}" if p["nx"] == p["ny"] else f"{p['nx']}x{p['ny']}"
    dtype = "" if p.get("dtype", "float32") == "float32" else f" {p['dtype']}"
    return f"{case.entry} {size} block {p['block']}{dtype}"


def updated_text(text: str) -> str:
    measured = golden()
    predicted = {}
    for case in catalog.SEED_CASES:
        print(f"simulating {case.case}", file=sys.stderr)
        predicted[case.case] = simulate_spec(case.launch())[0].metrics
    for table in TABLES:
        rows = [table.row(c, predicted[c.case], measured[c.case]) for c in catalog.SEED_CASES]
        text = table.replace(text, table.markdown(rows))
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare with tutorial.md")
    args = parser.parse_args(argv)
    text = TUTORIAL.read_text()
    updated = updated_text(text)
    if args.check:
        if updated != text:
            print("docs/tutorial.md: the seed tables are out of date; run python docs/seed_table.py")
            return 1
        return 0
    TUTORIAL.write_text(updated)
    return 0


if __name__ == "__main__":
    sys.exit(main())
