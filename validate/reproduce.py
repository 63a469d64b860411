"""Does a fresh measurement reproduce the recording? Every exact counter, case by case.

    python -m validate.reproduce FRESH_DIR [--out docs/validation-h100/reproduction.md]

FRESH_DIR holds <gpu>/<set>.json as gpu/measure_on_device.sh writes them. Exact counters follow
from the instruction stream, so a second run on the same GPU, driver and compiler must give the
same numbers; modeled ones (caches, DRAM, time) are summarised by their spread.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from memsim import metrics as m

from . import record as rec


def compare(fresh_dir: Path, data_dir: Path = rec.DATA_DIR) -> tuple[list[str], dict[str, list[float]], int]:
    """(differences in exact counters, relative spread per modeled metric, cases compared)."""
    recorded = {(f.gpu, f.case_set, c.name): c for f in rec.load_all(data_dir) for c in f.cases}
    differences: list[str] = []
    spread: dict[str, list[float]] = {name: [] for name in m.MODELED}
    compared = 0
    for f in rec.load_all(fresh_dir):
        for case in f.cases:
            old = recorded.get((f.gpu, f.case_set, case.name))
            if old is None or not case.measured or not old.measured:
                continue
            compared += 1
            for name in m.EXACT:
                if case.metrics.get(name) != old.metrics.get(name):
                    differences.append(f"{case.name}: {name} {old.metrics.get(name)} -> {case.metrics.get(name)}")
            for name in m.MODELED:
                a, b = old.metrics.get(name), case.metrics.get(name)
                if a is not None and b is not None:
                    spread[name].append(abs(b - a) / max(abs(a), 1.0))
    return differences, spread, compared


def markdown(differences: list[str], spread: dict[str, list[float]], compared: int, fresh: Path) -> str:
    lines = [f"# A second H100 run against the recording ({fresh.name})", "",
             f"{compared} cases measured again with `bash gpu/measure_on_device.sh all 200 0`; "
             f"{len(differences)} exact-counter differences.", ""]
    lines += [f"- {d}" for d in differences[:50]]
    lines += ["", "| modeled metric | cases | median relative change | 90th percentile | max |",
              "| --- | --- | --- | --- | --- |"]
    for name, values in spread.items():
        if values:
            ordered = sorted(values)
            p90 = ordered[int(0.9 * (len(ordered) - 1))]
            lines.append(f"| `{name}` | {len(values)} | {statistics.median(values):.1%} | {p90:.1%} | {ordered[-1]:.1%} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("fresh", type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    differences, spread, compared = compare(args.fresh)
    text = markdown(differences, spread, compared, args.fresh)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text)
    print(text)
    return 1 if differences or not compared else 0


if __name__ == "__main__":
    sys.exit(main())
