"""Record compute-sanitizer's verdicts on memsim's sanitizer cases (validate/sanitizer_cases.py).

On the GPU machine, from the repository root:

    python -m validate.sanitizer_cases cases.json               # the cases, written by validate
    python -m gpu.sanitizer record cases.json $OUT/sanitizer.json   # every case under its tools
    python -m gpu.sanitizer launch cases.json race_raw_neighbour    # one launch (what record runs)

The cases come as a file (a JSON list of {name, spec, tools}): the GPU side imports nothing
from validate, which imports it.

`record` runs `compute-sanitizer --tool T` around `launch` once per case and tool, several at a
time, and keeps each run's text and exit status. `launch` compiles the case's source with the
same NVRTC path as every other recording (gpu.launch: CuPy's RawModule, `-std=c++17`) plus
`-lineinfo`, so the sanitizer names source lines (it adds line tables only, memsim compiles
with it too), and allocates with CuPy's memory pool switched off: each buffer is its own
cudaMalloc, an `:empty` one is never written (cupy.empty), every other one is copied in.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from memsim.launch import LaunchSpec

from .launch import _function, require_cupy

LINEINFO = "-lineinfo"
RUN_TIMEOUT_S = 120
KEEP_HAZARDS = 24   # racecheck's hazard records kept whole per run; the rest are counted
_HAZARD = re.compile(r"Potential (\w+) hazard detected")


def read_cases(path: Path) -> list[dict]:
    """[{name, spec (a LaunchSpec), tools}] from the file validate.sanitizer_cases writes."""
    return [dict(c, spec=LaunchSpec.model_validate(c["spec"])) for c in json.loads(Path(path).read_text())]


def launch(cases: Path, name: str) -> int:
    """Run one case once on the GPU; 0 when the launch completed."""
    cupy = require_cupy()
    cupy.cuda.set_allocator(None)   # one cudaMalloc per buffer: nothing reuses written memory
    spec = next(c["spec"] for c in read_cases(cases) if c["name"] == name)
    spec = spec.model_copy(update={"options": (*spec.options, LINEINFO)})
    function = _function(cupy, spec)
    args = []
    for arg, value in zip(spec.args, spec.materialize()):
        if arg.is_buffer and arg.init == "empty":
            args.append(cupy.empty(arg.count, np.dtype(arg.dtype)))
        elif arg.is_buffer:
            args.append(cupy.asarray(value))
        else:
            args.append(value)
    function(spec.grid, spec.block, tuple(args), shared_mem=spec.shared_mem)
    cupy.cuda.Device().synchronize()
    return 0


def _sanitize(cases: Path, name: str, tool: str, sanitizer: str) -> dict:
    command = [sanitizer, "--tool", tool, "--print-limit", "100000", "--error-exitcode", "1",
               *(["--racecheck-report", "all"] if tool == "racecheck" else []),
               sys.executable, "-m", "gpu.sanitizer", "launch", str(cases), name]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        text, hazards = condense(done.stdout + done.stderr)
        return {"case": name, "tool": tool, "rc": done.returncode, "text": text, "hazards": hazards}
    except subprocess.TimeoutExpired as exc:
        text = (exc.stdout or b"").decode(errors="replace") if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        return {"case": name, "tool": tool, "rc": None, "text": text + f"\n[timed out after {RUN_TIMEOUT_S} s]"}


def condense(text: str) -> tuple[str, dict[str, int]]:
    """racecheck's text with its first KEEP_HAZARDS hazard records (`--racecheck-report all`
    prints one per pair of threads and byte: tens of megabytes) and the count of each kind."""
    kept, hazards, block, inside = [], {}, 0, False
    for line in text.splitlines():
        found = _HAZARD.search(line)
        if found:
            hazards[found.group(1)] = hazards.get(found.group(1), 0) + 1
            block, inside = block + 1, True
        elif inside and not line.startswith("=========     "):
            inside = False
        if not inside or block <= KEEP_HAZARDS:
            kept.append(line)
    return "\n".join(kept) + "\n", hazards


def record(cases: Path, out: Path, jobs: int, only: list[str]) -> int:
    sanitizer = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
    version = subprocess.run([sanitizer, "--version"], capture_output=True, text=True).stdout.strip()
    work = [(c["name"], t) for c in read_cases(cases) for t in c["tools"] if not only or c["name"] in only]
    with ThreadPoolExecutor(jobs) as pool:
        runs = list(pool.map(lambda job: _sanitize(cases, *job, sanitizer), work))
    out.write_text(json.dumps({"gpu": _gpu_name(), "compute_sanitizer": version, "runs": runs}, indent=1))
    print(f"{len(runs)} runs -> {out}")
    return 0


def _gpu_name() -> str:
    cupy = require_cupy()
    return cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gpu.sanitizer")
    sub = parser.add_subparsers(dest="command", required=True)
    one = sub.add_parser("launch")
    one.add_argument("cases", type=Path)
    one.add_argument("name")
    rec = sub.add_parser("record")
    rec.add_argument("cases", type=Path)
    rec.add_argument("out", type=Path)
    rec.add_argument("--jobs", type=int, default=8)
    rec.add_argument("--only", nargs="*", default=[])
    args = parser.parse_args(argv)
    if args.command == "launch":
        return launch(args.cases, args.name)
    return record(args.cases, args.out, args.jobs, args.only)


if __name__ == "__main__":
    sys.exit(main())
