"""Speed of the simulator against the targets of issue 2, printed as a table.

    python benchmarks/bench_simulator.py            # everything (about 2 minutes on 2 cores)
    python benchmarks/bench_simulator.py --quick    # skip the 1 GiB row_sums case

Warm figures: the kernel's PTX and the Numba code are compiled by a first, small run; the figure
is the best of --repeat runs of memsim.simulate (input generation excluded, the heap copy and the
result write-back included). Cold: `memsim predict transpose_naive --nx 2048` in a fresh process
with an empty Numba cache directory (JIT included), then again with the cache it left.
CPU time is printed beside wall time: on a shared machine wall time also measures the neighbours.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

import memsim
from memsim import catalog

TARGETS = [  # (catalog entry, parameters, target seconds, what the issue asks)
    ("transpose_naive_row", dict(nx=4096), 1.0, "naive transpose 4096^2 <= 1 s"),
    ("row_sums", dict(nx=16384), 5.0, "row_sums 16384^2 <= 5 s"),
    ("matmul_smem", dict(nx=1024), 10.0, "1024^2 shared-tiled matmul <= 10 s"),
]


def warm_seconds(name: str, params: dict, repeat: int) -> tuple[float, float, int]:
    entry = catalog.get(name)
    small = entry.launch(**{k: (v if k != "nx" else 64) for k, v in params.items()})
    memsim.simulate_spec(small)  # compile the kernel and the emulator
    spec = entry.launch(**params)
    values = spec.materialize()
    best_wall = best_cpu = float("inf")
    report = None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        report = memsim.simulate(spec.source, spec.kernel, spec.grid, spec.block, values,
                                 spec.shared_mem, options=spec.options)
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    return best_wall, best_cpu, int(report.metrics[memsim.metrics.PTX_WARP_INSTRUCTIONS])


def cli_seconds(cache_dir: str) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "memsim.cli", "predict", "transpose_naive", "--nx", "2048"],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="skip row_sums 16384^2 (1 GiB input)")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    print(f"{'case':40s} {'wall s':>8s} {'cpu s':>8s} {'target':>8s}  {'warp inst/s':>12s}  verdict")
    for name, params, target, label in TARGETS:
        if args.quick and name == "row_sums":
            continue
        wall, cpu, instructions = warm_seconds(name, params, args.repeat)
        verdict = "ok" if wall <= target else "OVER"
        print(f"{label:40s} {wall:8.2f} {cpu:8.2f} {target:8.1f}  {instructions / wall:12.3g}  {verdict}")
    with tempfile.TemporaryDirectory() as cache:
        cold = cli_seconds(cache)
        warm = cli_seconds(cache)
    print(f"{'memsim predict transpose_naive 2048 cold':40s} {cold:8.2f} {'':8s} {20.0:8.1f}  {'':12s}  "
          f"{'ok' if cold <= 20 else 'OVER'}")
    print(f"{'memsim predict transpose_naive 2048 warm':40s} {warm:8.2f} {'':8s} {3.0:8.1f}  {'':12s}  "
          f"{'ok' if warm <= 3 else 'OVER'}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of this process: {peak:.0f} MiB; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")


if __name__ == "__main__":
    np.random.seed(0)
    main()
