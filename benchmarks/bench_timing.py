"""What the warp-level timing simulation costs: a prediction with --gpu against the plain
simulation of the same launch (issue 24's target: at most 2x), printed as a table.

    python benchmarks/bench_timing.py               # the catalog launches below, best of 2 warm runs
    python benchmarks/bench_timing.py --repeat 3 --only matmul_naive

Per launch: `plain` is memsim.simulate (exact counters only); `predict` is memsim.predict(...,
gpu="H100"): the same emulation with the cache model listening and the issue trace recorded,
then the time formula and the warp-level simulation; `timing` is the simulation alone
(memsim.timing.simulate_time on the recorded trace). Warm: a first run compiles everything.
"""
from __future__ import annotations

import argparse
import os
import time

import memsim
from memsim import catalog
from memsim.engine.issue_trace import IssueTraceRequest
from memsim.gpus import DEFAULT_GPU, load
from memsim.timing import sample_blocks, simulate_time

CASES = (("transpose_naive_row", {"nx": 4096}), ("matmul_smem", {"nx": 1024}), ("row_sums", {"nx": 8192}),
         ("transpose_smem", {"nx": 4096}), ("matmul_naive", {"nx": 512}))


def _best(run, repeat: int) -> float:
    return _best_with_cpu(run, repeat)[0]


def _best_with_cpu(run, repeat: int) -> tuple[float, float]:
    """The least wall time and the least CPU time (all threads) of `repeat` runs: on a shared
    machine the CPU time is the steadier figure."""
    times, cpus = [], []
    for _ in range(repeat):
        started, cpu = time.perf_counter(), time.process_time()
        run()
        times.append(time.perf_counter() - started)
        cpus.append(time.process_time() - cpu)
    return min(times), min(cpus)


def measure(name: str, params: dict, repeat: int) -> tuple[tuple[float, float], tuple[float, float], float, int]:
    """((plain wall, CPU), (predict wall, CPU), timing simulation, instructions simulated)."""
    spec = catalog.get(name).launch(**params)
    profile = load(DEFAULT_GPU)

    def plain():
        memsim.simulate_spec(spec, timeout=None)     # a benchmark measures: it is never cut short

    def predict():
        memsim.predict_spec(spec, gpu=profile, timeout=None)

    plain(), predict()   # compile
    values = spec.materialize()
    request = IssueTraceRequest(blocks=sample_blocks(spec.grid[0] * spec.grid[1] * spec.grid[2], profile))
    report = memsim.predict(spec.source, spec.kernel, spec.grid, spec.block, values, spec.shared_mem,
                            options=spec.options, gpu=profile, timeout=None)
    memsim.simulate(spec.source, spec.kernel, spec.grid, spec.block, spec.materialize(), spec.shared_mem,
                    options=spec.options, issue_trace=request, timeout=None)
    resident = report.time_simulation["resident_blocks"]
    timing = _best(lambda: simulate_time(report, request.trace, request.schedule, profile, resident), repeat)
    return (_best_with_cpu(plain, repeat), _best_with_cpu(predict, repeat), timing,
            report.time_simulation["issued"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--only", action="append", help="a launch's catalog name (repeatable)")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print("| launch | plain | predict --gpu | ratio (target <= 2) | CPU: plain, predict, ratio "
          "| timing simulation | instructions simulated |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, params in [c for c in CASES if not args.only or c[0] in args.only]:
        (plain, plain_cpu), (predict, predict_cpu), timing, issued = measure(name, params, args.repeat)
        label = f"{name} " + " ".join(f"{k}={v}" for k, v in params.items())
        print(f"| {label} | {plain:.2f} s | {predict:.2f} s | {predict / plain:.2f} | {plain_cpu:.2f} s, "
              f"{predict_cpu:.2f} s, {predict_cpu / plain_cpu:.2f} | {timing:.2f} s | {issued:,} |", flush=True)
        print(f"  (load average {os.getloadavg()[0]:.2f})", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
