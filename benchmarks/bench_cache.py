"""Cost of the cache model against the counting-only simulation (issue 4: at most 2x).

    python benchmarks/bench_cache.py            # transpose 2048^2 and 4096^2, row_sums 16384^2
    python benchmarks/bench_cache.py --quick    # without the 1 GiB row_sums case

Warm figures: a small first run compiles the kernel and the Numba code; each figure is the best
of --repeat runs of memsim.simulate (counting only) and of memsim.prediction.simulate_with_caches
(the same emulation, tracing every global access, plus the L1/L2/DRAM model), input generation
excluded. The ratio is what the issue bounds.
"""
from __future__ import annotations

import argparse
import time

import memsim
from memsim import catalog
from memsim.prediction import simulate_with_caches

CASES = [  # (catalog entry, parameters)
    ("transpose_naive_col", dict(nx=2048)),
    ("transpose_naive_col", dict(nx=4096)),
    ("transpose_naive_row", dict(nx=4096)),
    ("row_sums", dict(nx=16384)),
]
LIMIT = 2.0


def best_of(run, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def measure(name: str, params: dict, repeat: int) -> tuple[float, float]:
    entry = catalog.get(name)
    small = entry.launch(**{k: (v if k != "nx" else 64) for k, v in params.items()})
    simulate_with_caches(small.source, small.kernel, small.grid, small.block, small.materialize(),
                         small.shared_mem, options=small.options)
    spec = entry.launch(**params)
    values = spec.materialize()
    args = (spec.source, spec.kernel, spec.grid, spec.block, values, spec.shared_mem)
    counting = best_of(lambda: memsim.simulate(*args, options=spec.options), repeat)
    modeled = best_of(lambda: simulate_with_caches(*args, options=spec.options), repeat)
    return counting, modeled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="skip row_sums (1 GiB)")
    parser.add_argument("--repeat", type=int, default=2)
    options = parser.parse_args()
    print(f"{'case':34s} {'counting s':>10s} {'+caches s':>10s} {'ratio':>6s}  limit {LIMIT}x")
    worst = 0.0
    for name, params in CASES:
        if options.quick and name == "row_sums":
            continue
        counting, modeled = measure(name, params, options.repeat)
        ratio = modeled / counting
        worst = max(worst, ratio)
        label = f"{name} " + " ".join(f"{k}={v}" for k, v in params.items())
        print(f"{label:34s} {counting:10.2f} {modeled:10.2f} {ratio:6.2f}  {'ok' if ratio <= LIMIT else 'OVER'}")
    print(f"worst ratio {worst:.2f} ({'within' if worst <= LIMIT else 'over'} the {LIMIT}x limit)")


if __name__ == "__main__":
    main()
