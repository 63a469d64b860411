"""The seeds' own profiler tables next to memsim's figures: docs/seed-tables.md.

    python docs/seed_tables.py        # predict every seed launch at its size, rewrite the table

The seed figures and their launches are memsim.catalog.nvprof_seeds.SEED_FIGURES; each launch
is predicted once on its GPU profile, for the profile's architecture: Pascal's rules and
nvprof's metrics (memsim.model.pascal, memsim.model.nvprof_metrics) for seeds 000-002, ncu's names on the A100's
sm_80 code for seed 003. Counts must equal the seed's (tests/model/test_pascal.py and
tests/catalog/test_seed_tables.py hold them); modeled figures show their error, and docs/pascal.md and
docs/a100.md say why those off by more than 25% miss.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from memsim import metrics as m
from memsim.catalog.nvprof_seeds import DRAM_PCT, DURATION_MS, SEED_FIGURES, TIME_MS, SeedFigure, SeedLaunch
from memsim.gpus import load
from memsim.prediction import predict_spec

HERE = Path(__file__).resolve().parent
DOCS = (HERE / "seed-tables.md", HERE / "tutorial.md")   # the same table in both, between the markers
BEGIN, END = "<!-- nvprof-seed-table:begin -->", "<!-- nvprof-seed-table:end -->"


def launch_figures(launch: SeedLaunch) -> dict[str, float]:
    """A seed launch's figures: nvprof's metrics (Pascal) or ncu's (report.metrics), the kernel
    time (the CUDA-event time, ms), ncu's Duration (ms) and DRAM Throughput (% of peak)."""
    report, _ = predict_spec(launch.spec(), gpu=launch.gpu)
    duration_ns = report.metrics[m.DURATION]
    dram_bytes = report.metrics[m.DRAM_READ] + report.metrics[m.DRAM_WRITE]
    return {**report.metrics, **report.nvprof_metrics, TIME_MS: report.metrics[m.EVENT_TIME_MS],
            DURATION_MS: duration_ns / 1e6,
            DRAM_PCT: dram_bytes / duration_ns / load(launch.gpu).dram.bandwidth_gbs * 100}


def row(figure: SeedFigure, ours: float) -> str:
    error = (ours - figure.value) / figure.value * 100 if figure.value else 0.0
    launch = figure.launch
    where = f"`{launch.entry}` {launch.nx}x{launch.ny} block {launch.block} {launch.gpu} " + \
            f"{load(launch.gpu).arch}" + (" -dlcm=ca" if launch.dlcm_ca else "")
    shown = "{:.5g}" if figure.kind == "modeled" else "{:.6f}" if launch.profiler == "nvprof" else "{:.0f}"
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
    block = f"{BEGIN}\n{table()}\n{END}"
    for doc in DOCS:
        doc.write_text(re.sub(f"{re.escape(BEGIN)}.*{re.escape(END)}", lambda _: block, doc.read_text(),
                              flags=re.S))
    return 0


if __name__ == "__main__":
    sys.exit(main())
