"""Speed of the simulator against the targets of the engine issue, printed as a table.

    python benchmarks/bench_simulator.py                  # everything (SASS and PTX engines)
    python benchmarks/bench_simulator.py --quick          # skip the 1 GiB row_sums case
    python benchmarks/bench_simulator.py --engine sass    # the default engine only
    python benchmarks/bench_simulator.py --repeat 3 --only matmul_smem32

Warm figures, per engine: the kernel (NVRTC -> PTX, or -> sm_90 cubin -> SASS) and the Numba code
are compiled by a first, small run of the same kernel; the figure is the best of --repeat runs of
memsim.simulate(..., engine=...) (input generation excluded, the heap copy and the result
write-back included). Verdicts are the SASS engine's (the default engine); the PTX engine's
figures are printed beside them. warp inst/s is the engine's own warp-instruction count
(memsim__sass_warp_inst_executed.sum or memsim__ptx_warp_inst_executed.sum) over the wall time:
the two engines run different instruction streams, so compare seconds across engines, and
instructions per second within one.

Cold: `memsim predict transpose_naive --nx 2048` (default engine) in a fresh process with an empty
NUMBA_CACHE_DIR, as after a fresh install (the machine code memsim ships is copied in, where it
applies: memsim.engine.shipped_code), then warm: again with the cache the cold run left; and,
for reference, cold with MEMSIM_SHIPPED_CODE=0 (Numba compiles everything: other platforms).
CPU time (this process's, or the child's) is printed beside wall time: on a shared machine wall
time also measures the neighbours; the load average is printed before and after.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

import numpy as np

import memsim
from memsim import catalog
from memsim import metrics as m
from memsim.engine import registry

ENGINE_METRIC = {"sass": m.SASS_WARP_INSTRUCTIONS, "ptx": m.PTX_WARP_INSTRUCTIONS}


@dataclass(frozen=True)
class Case:
    key: str                   # --only name
    label: str                 # what the issue asks
    entry: str                 # catalog entry
    nx: int
    target: float              # seconds, warm, SASS engine
    block: tuple | None = None  # None: the entry's default block
    warmup_nx: int = 64        # the small first run that compiles kernel and emulator
    big: bool = False          # skipped by --quick


CASES = [
    Case("transpose", "naive transpose 4096^2", "transpose_naive_row", 4096, 1.0),
    Case("row_sums", "row_sums 16384^2", "row_sums", 16384, 5.0, big=True, warmup_nx=256),
    # The catalog's tiled kernel uses TILE = block edge: block 32x32 -> 32x32 tiles (its default),
    # block 16x16 -> the classic TILE=16 SGEMM (1024^3, grid 64x64, As/Bs[16][16]).
    Case("matmul_smem32", "32x32 smem-tiled matmul 1024^2", "matmul_smem", 1024, 8.0, block=(32, 32)),
    Case("matmul_smem16", "16x16 smem-tiled matmul 1024^2", "matmul_smem", 1024, 10.0, block=(16, 16)),
    Case("matmul_naive", "naive SGEMM 512^3 (block 16x16)", "matmul_naive", 512, 10.0, block=(16, 16)),
]


@dataclass
class Measured:
    wall: float = float("inf")
    cpu: float = float("inf")
    instructions: int = 0
    error: str = ""
    walls: list = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.instructions / self.wall if self.wall and self.instructions else 0.0


def launch(case: Case, nx: int):
    return catalog.get(case.entry).launch(nx=nx, block=case.block)


def run_once(spec, values, engine: str):
    return memsim.simulate(spec.source, spec.kernel, spec.grid, spec.block, values, spec.shared_mem,
                           options=spec.options, engine=engine)


def warm_seconds(case: Case, engine: str, repeat: int) -> Measured:
    out = Measured()
    try:
        small = launch(case, case.warmup_nx)
        run_once(small, small.materialize(), engine)  # compile the kernel and the emulator
        spec = launch(case, case.nx)
        values = spec.materialize()
        report = None
        for _ in range(repeat):
            wall, cpu = time.perf_counter(), time.process_time()
            report = run_once(spec, values, engine)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            out.walls.append(wall)
            out.wall, out.cpu = min(out.wall, wall), min(out.cpu, cpu)
        out.instructions = int(report.metrics.get(ENGINE_METRIC[engine], 0))
    except Exception as exc:  # noqa: BLE001 - a failing case is a row, not the end of the table
        out.error = f"{type(exc).__name__}: {exc}"[:120]
    return out


def cli_seconds(cache_dir: str, shipped_code: bool = True) -> tuple[float, float]:
    """Wall and CPU seconds (the child's user+system) of one `memsim predict` process.
    shipped_code False: as on a platform memsim ships no machine code for (all JIT)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CPU")}
    env.update(NUMBA_CACHE_DIR=cache_dir, **({} if shipped_code else {"MEMSIM_SHIPPED_CODE": "0"}))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "memsim.cli", "predict", "transpose_naive", "--nx", "2048"],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def fmt(value: float, width: int = 8, spec: str = ".2f") -> str:
    return f"{value:{width}{spec}}" if np.isfinite(value) and value else f"{'-':>{width}s}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="skip row_sums 16384^2 (1 GiB input)")
    parser.add_argument("--repeat", type=int, default=2, help="warm runs per case; the best counts")
    parser.add_argument("--engine", choices=("both", *registry.NAMES), default="both",
                        help="engines to time (verdicts are the default engine's; default both)")
    parser.add_argument("--only", action="append", choices=[c.key for c in CASES],
                        help="run only these cases (repeatable)")
    parser.add_argument("--no-cli", action="store_true", help="skip the cold/warm `memsim predict` rows")
    args = parser.parse_args()
    engines = registry.NAMES if args.engine == "both" else (args.engine,)
    main_engine = registry.default_name() if registry.default_name() in engines else engines[0]
    load_before = os.getloadavg()
    print(f"load average {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f} on "
          f"{os.cpu_count()} cores; repeat {args.repeat}; engines {', '.join(engines)}")
    head = f"{'case':40s} {'wall s':>8s} {'cpu s':>8s} {'target':>7s} {'warp inst/s':>12s}  {'verdict':7s}"
    if "ptx" in engines and "sass" in engines:
        head += f" {'ptx wall':>9s} {'ptx cpu':>8s} {'ptx inst/s':>11s}"
    print(head)
    print("-" * len(head))
    passed = failed = 0
    for case in CASES:
        if (args.quick and case.big) or (args.only and case.key not in args.only):
            continue
        results = {engine: warm_seconds(case, engine, args.repeat) for engine in engines}
        r = results[main_engine]
        label = f"{case.label} <= {case.target:g} s"
        if r.error:
            verdict = "ERROR"
        else:
            verdict = "ok" if r.wall <= case.target else "OVER"
        passed += verdict == "ok"
        failed += verdict != "ok"
        line = (f"{label:40s} {fmt(r.wall)} {fmt(r.cpu)} {case.target:7.1f} {fmt(r.rate, 12, '.3g')}  "
                f"{verdict:7s}")
        if len(engines) == 2:
            p = results["ptx"]
            line += f" {fmt(p.wall, 9)} {fmt(p.cpu)} {fmt(p.rate, 11, '.3g')}"
        print(line, flush=True)
        for engine, res in results.items():
            if res.error:
                print(f"    {engine}: {res.error}")
    if not args.no_cli:
        with tempfile.TemporaryDirectory() as cache:
            cold = cli_seconds(cache)
            warm = cli_seconds(cache)
        with tempfile.TemporaryDirectory() as cache:
            jit = cli_seconds(cache, shipped_code=False)
        for label, (wall, cpu), target in (("predict transpose_naive 2048 cold", cold, 20.0),
                                           ("predict transpose_naive 2048 warm", warm, 3.0),
                                           ("  cold, no shipped code (all JIT)", jit, None)):
            verdict = "" if target is None else "ok" if wall <= target else "OVER"
            passed += verdict == "ok"
            failed += verdict == "OVER"
            shown = f"{target:7.1f}" if target else f"{'-':>7s}"
            print(f"{label:40s} {fmt(wall)} {fmt(cpu)} {shown} {'':12s}  {verdict:7s}", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    load = os.getloadavg()
    print(f"summary: {passed} ok, {failed} over/error of {passed + failed} targets (verdicts: "
          f"{main_engine} engine, warm best of {args.repeat}); peak RSS "
          f"{peak:.0f} MiB; load average {load_before[0]:.2f} before, {load[0]:.2f} "
          f"{load[1]:.2f} {load[2]:.2f} after, {os.cpu_count()} cores")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    np.random.seed(0)
    sys.exit(main())
