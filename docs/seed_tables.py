"""The seeds' nvprof tables (Pascal cards) next to memsim's figures: docs/seed-tables.md.

    python docs/seed_tables.py        # predict every seed launch at its size, rewrite the table

The seed figures and their launches are memsim.catalog.nvprof_seeds.SEED_FIGURES; each launch
is predicted once on its GPU profile (Pascal's rules, memsim.pascal; nvprof's metrics,
memsim.nvprof). Counts must equal the seed's (tests/test_pascal.py holds them); modeled figures
show their error, and docs/pascal.md says why those off by more than 25% miss.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from memsim import metrics as m
from memsim.catalog.nvprof_seeds import SEED_FIGURES, TIME_MS, SeedFigure, SeedLaunch
from memsim.predict import predict_spec

DOC = Path(__file__).resolve().parent / "seed-tables.md"
BEGIN, END = "<!-- nvprof-seed-table:begin -->", "<!-- nvprof-seed-table:end -->"


def launch_figures(launch: SeedLaunch) -> dict[str, float]:
    """nvprof's metrics of one seed launch, and its kernel time (the CUDA-event time, ms)."""
    report, _ = predict_spec(launch.spec(), gpu=launch.gpu)
    return {**report.nvprof_metrics, TIME_MS: report.metrics[m.EVENT_TIME_MS]}


def row(figure: SeedFigure, ours: float) -> str:
    error = (ours - figure.value) / figure.value * 100 if figure.value else 0.0
    launch = figure.launch
    where = f"`{launch.entry}` {launch.nx}x{launch.ny} block {launch.block} {launch.gpu}" + \
            (" -dlcm=ca" if launch.dlcm_ca else "")
    shown = "{:.6f}" if figure.kind == "count" else "{:.5g}"
    return (f"| {figure.seed} | {launch.label} | {where} | {figure.metric} | {figure.kind} | "
            f"{shown.format(figure.value)} | {shown.format(ours)} | {error:+.1f}% |")


def table() -> str:
    cache: dict[str, dict[str, float]] = {}
    lines = ["| seed | kernel | memsim launch | metric | kind | seed | memsim | error |",
             "|---|---|---|---|---|---|---|---|"]
    for figure in SEED_FIGURES:
        key = figure.launch.model_dump_json()
        if key not in cache:
            print(f"predicting {figure.launch.label} on {figure.launch.gpu}", file=sys.stderr)
            cache[key] = launch_figures(figure.launch)
        lines.append(row(figure, cache[key][figure.metric]))
    return "\n".join(lines)


def main() -> int:
    text = DOC.read_text()
    new = re.sub(f"{re.escape(BEGIN)}.*{re.escape(END)}", f"{BEGIN}\n{table()}\n{END}", text, flags=re.S)
    DOC.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
