"""The process that runs cases on the GPU: `python -m gpu.driver --cases FILE --mode time|profile`.

For each case, in order: compile, copy the inputs, launch once, check the outputs against the
catalog's reference (when the case names a catalog kernel), then either time it (mode time) or
stop there (mode profile, run under ncu: exactly `--launches` `k_` launches per case, one by
default, so ncu's rows match the cases by order). One JSON line per finished case is appended to the results file at once, so
a crash loses nothing already measured. A fault that kills the CUDA context ends the process
with exit status 3; the caller restarts after the failed case.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pydantic import BaseModel, Field, TypeAdapter

from memsim.errors import MemsimError
from memsim.launch import LaunchSpec, Value, digest

from .errors import one_line
from .launch import DeviceLaunch, require_cupy
from .timing import EventTiming, time_launch

CONTEXT_LOST = 3


class CatalogRef(BaseModel):
    """A catalog kernel and its parameters: enough to rebuild its reference outputs."""

    name: str
    params: dict = Field(default_factory=dict)


class DriverCase(BaseModel):
    name: str
    spec: LaunchSpec
    catalog: CatalogRef | None = None


class DriverResult(BaseModel):
    """What happened to one case on the GPU."""

    name: str
    launched: bool = False
    input_digest: str = ""
    output_digest: str = ""
    output_ok: bool | None = Field(None, description="None: no reference to check against")
    output_error: str = ""
    error: str = ""
    timing: EventTiming | None = None


class Options(BaseModel):
    mode: str = "time"
    reps: int = 30
    warmups: int = 3
    flush_l2: bool = False
    launches: int = Field(1, description="profile mode: launches per case (ncu profiles each)")


def run_case(case: DriverCase, options: Options) -> DriverResult:
    inputs = case.spec.materialize()
    result = DriverResult(name=case.name, input_digest=digest(inputs))
    try:
        device = DeviceLaunch(case.spec, inputs)
        device.launch()
        device.synchronize()
    except Exception as exc:  # compile errors, bad launch configurations, faults
        result.error = one_line(exc)
        return result
    result.launched = True
    outputs = device.values()
    result.output_digest = digest(outputs)
    if case.catalog is not None:
        result.output_error = reference_mismatch(case.catalog, inputs, outputs)
        result.output_ok = not result.output_error
    if options.mode == "time":
        result.timing = time_launch(device.launch, options.reps, options.warmups, options.flush_l2)
    else:
        for _ in range(options.launches - 1):
            device.launch()
        device.synchronize()
    return result


def reference_mismatch(ref: CatalogRef, inputs: list[Value], outputs: list[Value]) -> str:
    """'' when every output the catalog predicts matches (within the entry's own tolerance),
    else one line naming the first output that differs."""
    from memsim import catalog

    try:
        problems = catalog.get(ref.name).check(inputs, outputs)
    except Exception as exc:  # a broken reference must not cost the case its measurement
        return f"reference of {ref.name} failed: {one_line(exc)}"
    more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
    return problems[0] + more if problems else ""


def context_alive() -> bool:
    """False once a fault has poisoned the CUDA context (every later call would fail too)."""
    cupy = require_cupy()
    try:
        cupy.cuda.runtime.deviceSynchronize()
        cupy.empty(1, dtype=cupy.uint8)
        return True
    except Exception:
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gpu.driver", description=__doc__.splitlines()[0])
    parser.add_argument("--cases", required=True, help="JSON list of cases")
    parser.add_argument("--results", required=True, help="JSON-lines file the results are appended to")
    parser.add_argument("--mode", choices=("time", "profile"), default="time")
    parser.add_argument("--reps", type=int, default=30)
    parser.add_argument("--warmups", type=int, default=3)
    parser.add_argument("--flush-l2", action="store_true")
    parser.add_argument("--launches", type=int, default=1, help="profile mode: launches per case")
    args = parser.parse_args(argv)
    options = Options(mode=args.mode, reps=args.reps, warmups=args.warmups, flush_l2=args.flush_l2,
                      launches=args.launches)
    try:
        require_cupy()
        return run_all(load_cases(Path(args.cases)), options, Path(args.results))
    except MemsimError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def load_cases(path: Path) -> list[DriverCase]:
    return TypeAdapter(list[DriverCase]).validate_json(path.read_text())


def run_all(cases: list[DriverCase], options: Options, results_path: Path) -> int:
    with open(results_path, "a") as results:
        for case in cases:
            result = run_case(case, options)
            results.write(result.model_dump_json() + "\n")
            results.flush()
            if result.error and not context_alive():
                return CONTEXT_LOST
    return 0


if __name__ == "__main__":
    sys.exit(main())
