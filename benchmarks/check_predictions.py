"""Save, then compare, the full `memsim predict --gpu` reports of a set of launches: for changes
that must leave every modeled number as it was (speed work on the cache model, the issue trace
or the timing simulation).

    python benchmarks/check_predictions.py --save /tmp/before      # before the change
    python benchmarks/check_predictions.py --check /tmp/before     # after: every field equal
    python benchmarks/check_predictions.py --check /tmp/before --only hist_global_4096

The launches: bench_timing.py's five, then catalog and corpus launches of other shapes
(strided, misaligned, atomics, histograms, reductions, stencils, row loops). A report is its
JSON as `memsim predict --json` prints it, less simulation_seconds (wall time); floats compare
exactly (JSON keeps every bit of a float). Exit status 1 when any report differs.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import memsim
from memsim import catalog
from memsim.gpus import load
from validate.corpus_cases import corpus_cases

from bench_timing import CASES as TIMING_CASES

CATALOG = (*TIMING_CASES, ("copy_col", {"nx": 2048}), ("add_misaligned", {}),
           ("transpose_smem_rect_pad", {}), ("col_sums", {"nx": 4096}))
CORPUS = ("hist_global_4096", "hist_shared_256", "reduce_shfl_256", "dot_shared_atomic", "stencil1d_r3",
          "jacobi2d_1000_partial", "softmax_block_per_row_c1000", "dsum_atomic", "transpose_ldg_1024",
          "sgemm_cp_async_256")
UNTIMED = ("simulation_seconds",)


def launches() -> dict[str, memsim.LaunchSpec]:
    specs = {f"{name}" + "".join(f"_{k}{v}" for k, v in params.items()): catalog.get(name).launch(**params)
             for name, params in CATALOG}
    specs.update({case.name: case.spec for case in corpus_cases() if case.name in CORPUS})
    return specs


def report_of(spec, gpu: str) -> dict:
    report, _ = memsim.predict_spec(spec, gpu=load(gpu), timeout=None)
    data = json.loads(report.model_dump_json())
    for key in UNTIMED:
        data.pop(key, None)
    return data


def differences(before, after, path: str = "") -> list[str]:
    """The paths where two JSON values differ (first few of each list)."""
    if isinstance(before, dict) and isinstance(after, dict):
        out = [f"{path}.{k}: only {'before' if k in before else 'after'}" for k in before.keys() ^ after.keys()]
        for k in before.keys() & after.keys():
            out += differences(before[k], after[k], f"{path}.{k}")
        return out
    if isinstance(before, list) and isinstance(after, list):
        if len(before) != len(after):
            return [f"{path}: {len(before)} items before, {len(after)} after"]
        return [d for k, (b, a) in enumerate(zip(before, after)) for d in differences(b, a, f"{path}[{k}]")]
    return [] if before == after and type(before) is type(after) else [f"{path}: {before!r} -> {after!r}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--save", type=Path, metavar="DIR")
    mode.add_argument("--check", type=Path, metavar="DIR")
    parser.add_argument("--only", action="append", help="a launch's name (repeatable)")
    parser.add_argument("--gpu", default="H100")
    args = parser.parse_args()
    failed = 0
    for name, spec in launches().items():
        if args.only and name not in args.only:
            continue
        started = time.perf_counter()
        data = report_of(spec, args.gpu)
        path = (args.save or args.check) / f"{name}.{args.gpu}.json"
        if args.save:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(data, indent=1, sort_keys=True))
            verdict = "saved"
        else:
            diffs = differences(json.loads(path.read_text()), data)
            failed += bool(diffs)
            verdict = "same" if not diffs else f"DIFFERS ({len(diffs)}): " + "; ".join(diffs[:5])
        print(f"{name:40s} {time.perf_counter() - started:6.2f} s  {verdict}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
