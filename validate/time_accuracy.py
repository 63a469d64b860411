"""How well memsim.model.timing predicts the recorded H100 durations, and the fit of its constants.

    python -m validate.time_accuracy             accuracy on the recorded suite and fuzz cases
    python -m validate.time_accuracy --fit       refit TimeModelConstants (prints them)
    python -m validate.time_accuracy --inputs    re-simulate the cases' reports (slow, ~2 min)
    ... --engine sass                            the SASS engine's reports instead (~6 min to simulate)

The time model needs each case's KernelReport. Simulating 383 launches takes minutes, so the
reports (memsim's exact counters, which equal the hardware's) are kept in
tests/golden/h100-time-inputs.json (PTX engine) and h100-time-inputs-sass.json (SASS engine,
with its warp scoreboard's round trips); the measurements come from validate/data/h100/. Traffic is
either the measured cache/DRAM counters (the time model alone) or memsim's estimate without a
cache model (`traffic="estimated"`).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from pydantic import BaseModel, Field

from memsim import gpus
from memsim import metrics as m
from memsim.engine import registry
from memsim.report import KernelReport
from memsim.gpus import GpuProfile
from memsim.model.timing import (TRAFFIC_METRICS, DurationInputs, TimeEstimate, TimeModelConstants, combine,
                           duration_inputs, predict_time)

from . import record as rec
from .accuracy import ladder_order, spearman
from .compare import stored_report
from .families import check_not_held_out, family_of

INPUTS = Path(__file__).parent.parent / "tests" / "golden" / "h100-time-inputs.json"
INPUTS_BY_ENGINE = {"ptx": INPUTS, "sass": INPUTS.with_name("h100-time-inputs-sass.json")}
# The sets whose reports the files above hold (the shipped constants' fit set)
FIT_SETS = ("suite", "fuzz")

class TimeCase(BaseModel):
    name: str
    case_set: str
    report: KernelReport
    static_shared_bytes: int = 0
    duration_ns: float
    event_ns: float | None = None
    arguments: int = 4
    registers: int | None = Field(None, description="per thread, where recorded (None: the model assumes 32)")
    traffic: dict[str, float] = Field(default_factory=dict, description="measured cache/DRAM counters")
    family: str = Field("", description="kernel family (validate.families): what cross-validation leaves out")


class CaseError(BaseModel):
    name: str
    case_set: str
    measured_ns: float
    predicted_ns: float
    error: float
    bound: str


class TimeAccuracy(BaseModel):
    traffic: str
    cases: int
    within_25: float
    within_50: float
    max_error: float
    median_error: float
    spearman_suite: float
    spearman_suite_over_4us: float
    ladder_pairs: int
    ladder_wrong: list[str]
    event_within_25: float
    event_within_25_suite: float
    errors: list[CaseError]


def load_cases(inputs: Path = INPUTS, data_dir: Path = rec.DATA_DIR) -> list[TimeCase]:
    """The recorded H100 cases joined with their stored reports."""
    stored = {entry["name"]: entry for entry in json.loads(Path(inputs).read_text())}
    cases = []
    for file in rec.load_reference(data_dir):
        if file.gpu != "h100":
            continue
        for record in file.cases:
            entry = stored.get(record.name)
            if not record.measured or entry is None or m.DURATION not in record.metrics:
                continue
            cases.append(time_case(record, file.case_set, KernelReport.model_validate(entry["report"]),
                                   entry["static_shared_bytes"]))
    return cases


def time_case(record: rec.CaseRecord, case_set: str, report: KernelReport, static_shared_bytes: int,
              registers: int | None = None) -> TimeCase:
    """One recorded launch as the time model and its fit see it: memsim's report, the measured
    traffic and duration, and its kernel family."""
    return TimeCase(
        name=record.name, case_set=case_set, report=report, static_shared_bytes=static_shared_bytes,
        duration_ns=record.metrics[m.DURATION], event_ns=record.timing.median_ms * 1e6 if record.timing else None,
        arguments=len(record.spec.args), registers=registers,
        traffic={k: record.metrics[k] for k in TRAFFIC_METRICS if k in record.metrics},
        family=family_of(case_set, record.spec.kernel, record.tags))


def predict(case: TimeCase, traffic: str = "measured", profile=None,
            constants: TimeModelConstants | None = None) -> TimeEstimate:
    return predict_time(case.report, _given(case, traffic), profile or gpus.default_profile(),
                        registers_per_thread=case.registers, static_shared_bytes=case.static_shared_bytes,
                        arguments=case.arguments, constants=constants)


def _given(case: TimeCase, traffic: str) -> dict[str, float] | None:
    """The traffic handed to the model: the measured counters ("measured"), else None (the
    report's own modeled metrics where it has them, else the estimate from its sectors)."""
    return case.traffic if traffic == "measured" and len(case.traffic) == len(TRAFFIC_METRICS) else None


def evaluate(cases: list[TimeCase], traffic: str = "measured", constants: TimeModelConstants | None = None) -> TimeAccuracy:
    profile = gpus.default_profile()
    estimates = [predict(c, traffic, profile, constants) for c in cases]
    pred = np.array([e.duration_ns for e in estimates])
    meas = np.array([c.duration_ns for c in cases])
    err = (pred - meas) / meas
    suite = np.array([c.case_set == "suite" for c in cases])
    long = suite & (meas > 4000)
    event_err = np.array([(e.event_ms * 1e6 - c.event_ns) / c.event_ns if c.event_ns else np.nan
                          for c, e in zip(cases, estimates)])
    timed = ~np.isnan(event_err)
    pairs, wrong = ladder_order({c.name: (c.duration_ns, e.duration_ns) for c, e in zip(cases, estimates)})
    return TimeAccuracy(
        traffic=traffic, cases=len(cases), within_25=float(np.mean(abs(err) <= 0.25)),
        within_50=float(np.mean(abs(err) <= 0.5)), max_error=float(abs(err).max()),
        median_error=float(np.median(abs(err))), spearman_suite=spearman(pred[suite], meas[suite]),
        spearman_suite_over_4us=spearman(pred[long], meas[long]), ladder_pairs=pairs, ladder_wrong=wrong,
        event_within_25=float(np.mean(abs(event_err[timed]) <= 0.25)),
        event_within_25_suite=float(np.mean(abs(event_err[timed & suite]) <= 0.25)),
        errors=[CaseError(name=c.name, case_set=c.case_set, measured_ns=c.duration_ns, predicted_ns=e.duration_ns,
                          error=float(x), bound=e.breakdown.bound) for c, e, x in zip(cases, estimates, err)])


# -- fitting the model's constants ------------------------------------------------------------

FIT_BOUNDS = {
    "p_norm": (1.0, 6.0), "tail": (0.5, 3.0), "tail_per_warp": (0.0, 0.1), "block_overhead_ns": (0.0, 800.0),
    "first_touch_ns": (0.0, 1500.0), "dependent_cycles": (0.0, 16.0), "issue_efficiency": (0.1, 1.0),
    "loop_unroll": (1.0, 8.0), "partial_write_cost": (1.0, 6.0),
    "l1_pipe_weight": (0.0, 4.0), "constant_round_ns": (0.0, 1000.0),
    "dram_queue": (0.0, 10.0),
}
# The rank order of the suite is a target of its own (issue 4): its weight in the fit.
SPEARMAN_WEIGHT = 2.0
# The seed launches carry the ladders users study: their share outside 20% is penalized too.
SEED_WEIGHT = 3.0


class FitSet:
    """The cases a fit reads, with the time model's constant-independent inputs computed once
    (memsim.model.timing.DurationInputs, stacked into arrays): a trial set of constants then costs one
    vectorized `combine`, not a run of the model per case. Refuses held-out corpus cases
    (validate.families): no fit may read them."""

    def __init__(self, cases: list[TimeCase], profile: GpuProfile | None = None, traffic: str = "measured"):
        check_not_held_out(c.family for c in cases)
        self.cases, self.traffic = cases, traffic
        self.profile = profile or gpus.default_profile()
        self.measured = np.array([c.duration_ns for c in cases])
        self.long = self.measured > 5000
        self.suite = np.array([c.case_set == "suite" for c in cases])
        self.seed = np.array([c.name.startswith("s00") for c in cases])
        # PTX reports have no scoreboard: their round trips depend on loop_unroll.
        self._by_unroll = any(m.WARP_GLOBAL_ROUND_TRIPS not in c.report.metrics for c in cases)
        self._inputs: dict[float | None, SimpleNamespace] = {}

    def subset(self, keep: np.ndarray) -> "FitSet":
        """The cases where `keep` is true, reusing the inputs already computed (a LOFO fold)."""
        part = FitSet.__new__(FitSet)
        part.cases = [c for c, k in zip(self.cases, keep) if k]
        part.traffic, part.profile, part._by_unroll = self.traffic, self.profile, self._by_unroll
        part.measured, part.long, part.suite, part.seed = (a[keep] for a in (self.measured, self.long, self.suite, self.seed))
        part._inputs = {key: SimpleNamespace(**{n: v[keep] for n, v in vars(ns).items()})
                        for key, ns in self._inputs.items()}
        return part

    def durations(self, constants: TimeModelConstants) -> np.ndarray:
        """Predicted gpu__time_duration of every case, in ns."""
        key = constants.loop_unroll if self._by_unroll else None
        if key not in self._inputs:
            self._inputs[key] = _stack([duration_inputs(
                c.report, _given(c, self.traffic), self.profile, registers_per_thread=c.registers,
                static_shared_bytes=c.static_shared_bytes, constants=constants) for c in self.cases])
        return combine(self._inputs[key], constants)[0]


def _stack(inputs: list[DurationInputs]) -> SimpleNamespace:
    """The fields of many DurationInputs as arrays (combine is elementwise arithmetic)."""
    return SimpleNamespace(**{name: np.array([getattr(i, name) for i in inputs], dtype=float)
                              for name in DurationInputs.model_fields})


def fit_loss(data: FitSet, constants: TimeModelConstants) -> float:
    """Mean squared log error, launches above 5 us counted four times (they carry the ladders),
    plus penalties for cases outside 25% and 50%, for ladder pairs out of order and for the
    suite's rank order (1 - Spearman) and for seed launches off by more than 20%."""
    predicted = data.durations(constants)
    logs = np.log(predicted / data.measured)
    _, wrong = ladder_order({c.name: (c.duration_ns, p) for c, p in zip(data.cases, predicted)})
    errors = abs(np.expm1(logs))
    rank = spearman(predicted[data.suite], data.measured[data.suite])
    rank_penalty = 0.0 if np.isnan(rank) else 1 - rank
    return float(np.mean(logs ** 2) + 3 * _mean(logs[data.long] ** 2) + 0.3 * np.mean(errors > 0.25)
                 + 3 * np.mean(errors > 0.5) + 0.02 * len(wrong) + SPEARMAN_WEIGHT * rank_penalty
                 + SEED_WEIGHT * _mean(errors[data.seed] > 0.2))


def _mean(values: np.ndarray) -> float:
    """The mean, 0 for no values (a fit set without seed launches has no seed penalty)."""
    return float(np.mean(values)) if len(values) else 0.0


def fit(cases: list[TimeCase] | FitSet, start: TimeModelConstants | None = None, rounds: int = 3,
        progress=print) -> TimeModelConstants:
    """Coordinate descent over FIT_BOUNDS, each constant tried at a few multiples of its value."""
    data = cases if isinstance(cases, FitSet) else FitSet(cases)
    best = start or TimeModelConstants.for_gpu(data.profile)
    best_loss = fit_loss(data, best)
    for _ in range(rounds):
        for name, (low, high) in FIT_BOUNDS.items():
            value = getattr(best, name)
            for factor in (0.5, 0.7, 0.85, 0.93, 1.07, 1.15, 1.3, 1.6, 2.0):
                trial = best.model_copy(update={name: float(np.clip(value * factor, low, high))})
                loss = fit_loss(data, trial)
                if loss < best_loss:
                    best, best_loss = trial, loss
            if progress:
                progress(f"{name} = {getattr(best, name):.4g}  loss {best_loss:.4f}")
    return best


# -- the stored reports --------------------------------------------------------------------------

def simulate_inputs(engine: str, data_dir: Path = rec.DATA_DIR, jobs: int = 2) -> list[dict]:
    """Simulate every recorded case once: its report (per-instruction PTX text dropped to keep
    the file small) and its static shared memory."""
    from concurrent.futures import ProcessPoolExecutor
    records = [c for f in rec.load_all(data_dir, FIT_SETS) if f.gpu == "h100" for c in f.cases if c.measured]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(_simulate_one, records, [engine] * len(records), chunksize=4))


def _simulate_one(record, engine: str) -> dict:
    from memsim import simulate_spec
    from memsim.compiler.nvrtc import compile_cuda
    from memsim.engine.ptx.parser import parse
    from memsim.engine.ptx.program import lower

    spec = record.spec
    report, _ = simulate_spec(spec, engine=engine)
    program = lower(parse(compile_cuda(spec.source, gpus.DEFAULT_ARCH, tuple(spec.options)).ptx), spec.kernel)
    return {"name": record.name, "report": stored_report(report), "static_shared_bytes": program.shared_static}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m validate.time_accuracy", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fit", action="store_true", help="refit the model's constants")
    parser.add_argument("--inputs", action="store_true", help="re-simulate the reports into the engine's file")
    parser.add_argument("--engine", choices=sorted(INPUTS_BY_ENGINE), default=None,
                        help="whose reports the time model reads (default: memsim's default engine, "
                             "whose reports the shipped constants were fitted on)")
    args = parser.parse_args(argv)
    args.engine = args.engine or registry.default_name()
    inputs = INPUTS_BY_ENGINE[args.engine]
    if args.inputs:
        inputs.write_text(json.dumps(simulate_inputs(engine=args.engine), separators=(",", ":")) + "\n")
        print(f"wrote {inputs}")
    cases = load_cases(inputs)
    if args.fit:
        print(fit(cases).model_dump_json(indent=1))
        return 0
    for traffic in ("measured", "estimated"):
        acc = evaluate(cases, traffic)
        print(f"{traffic:9s} traffic: {acc.cases} cases, {acc.within_25:.1%} within 25%, {acc.within_50:.1%} "
              f"within 50%, max {acc.max_error:.0%}, Spearman suite {acc.spearman_suite:.3f} "
              f"(> 4 us: {acc.spearman_suite_over_4us:.3f}), ladder pairs wrong {len(acc.ladder_wrong)}/"
              f"{acc.ladder_pairs}, event time within 25% {acc.event_within_25:.1%} (suite {acc.event_within_25_suite:.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
