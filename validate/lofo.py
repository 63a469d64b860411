"""Leave-one-family-out (LOFO) accuracy of the time model, and the held-out corpus (issue 11).

The time model's constants (memsim.model.timing.TimeModelConstants) were fitted on the recorded H100
cases, so the figures on those cases are in-sample. Here every kernel family
(validate.families: all launches of one kernel, or one fuzz template) is predicted by
constants refitted on all other families, with the same fit as `validate.time_accuracy --fit`
(same loss, same coordinate descent, started from the shipped constants). The held-out corpus
families are in no fit: they are predicted once, with constants fitted on everything else.

    python -m validate.lofo [--engine sass|ptx]    on the stored reports of the suite and fuzz
                                                   cases (tests/golden), measured traffic: seconds
    validate run --gpu H100                      on every recorded set, memsim's cache model's
                                                   traffic: the figures beside today's

Only TimeModelConstants are refitted: CacheTuning (memsim.model.cache) has no fitting code (its
numbers were chosen by hand from the probes and the suite), so DRAM write figures are the same
in every split.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict

import numpy as np

from memsim import gpus
from memsim import metrics as m
from memsim.engine import registry
from memsim.gpus import GpuProfile
from memsim.report import KernelReport
from memsim.model.timing import TimeModelConstants

from .accuracy import TARGETS, spearman
from .compare import Prediction, compare_metric, recorded_registers
from .cross_validation import CasePrediction, CrossValidation, FamilyAccuracy, TimeFigures
from .families import is_held_out
from .record import CaseRecord, MeasurementFile
from .time_accuracy import INPUTS_BY_ENGINE, FitSet, TimeCase, fit, load_cases, predict, time_case

METHOD = ("leave one kernel family out (validate.families): refit TimeModelConstants on all other "
          "non-held-out families (validate.time_accuracy.fit, from the shipped constants), predict the "
          "family; held-out corpus families: constants fitted on all non-held-out families")


def cross_validate(cases: list[TimeCase], profile: GpuProfile | None = None, traffic: str = "measured",
                   start: TimeModelConstants | None = None, rounds: int = 3) -> CrossValidation:
    """LOFO over the non-held-out cases, and the held-out ones from a fit on all of those."""
    profile = profile or gpus.default_profile()
    start = start or TimeModelConstants.for_gpu(profile)
    pool = [c for c in cases if not is_held_out(c.family)]
    held = [c for c in cases if is_held_out(c.family)]
    data = FitSet(pool, profile)
    data.durations(start)   # every case's inputs, once: the folds slice them
    families = np.array([c.family for c in pool])
    predicted: dict[str, float] = {}
    started = time.perf_counter()
    for family in sorted(set(families)):
        constants = fit(data.subset(families != family), start, rounds, progress=None)
        predicted.update(_predictions([c for c in pool if c.family == family], traffic, profile, constants))
    everything = fit(data, start, rounds, progress=None) if held else start
    predicted.update(_predictions(held, traffic, profile, everything))
    seconds = time.perf_counter() - started
    shipped = _predictions(cases, traffic, profile, start)
    return CrossValidation(
        method=METHOD, traffic=traffic, fits=len(set(families)) + bool(held), fit_seconds=seconds,
        in_sample=figures(pool, shipped), lofo=figures(pool, predicted), held_out=figures(held, predicted),
        held_out_shipped=figures(held, shipped), families=family_rows(cases, predicted))


def _predictions(cases: list[TimeCase], traffic: str, profile: GpuProfile,
                 constants: TimeModelConstants) -> dict[str, float]:
    return {c.name: predict(c, traffic, profile, constants).duration_ns for c in cases}


def figures(cases: list[TimeCase], predicted: dict[str, float]) -> TimeFigures:
    """Share within 25% and 50%, worst |error|, Spearman (suite, all) and DRAM writes within
    their target, of `predicted` durations against the measured ones."""
    if not cases:
        return TimeFigures(cases=0)
    measured = np.array([c.duration_ns for c in cases])
    pred = np.array([predicted[c.name] for c in cases])
    errors = abs(pred - measured) / measured
    suite = np.array([c.case_set == "suite" for c in cases])
    dram = [hit for c in cases if (hit := dram_write_hit(c)) is not None]
    return TimeFigures(cases=len(cases), within_25=float(np.mean(errors <= 0.25)),
                       within_50=float(np.mean(errors <= 0.5)), max_error=float(errors.max()),
                       spearman_suite=_rank(pred[suite], measured[suite]), spearman_all=_rank(pred, measured),
                       dram_write_within_20=float(np.mean(dram)) if dram else None)


def _rank(predicted: np.ndarray, measured: np.ndarray) -> float | None:
    rank = spearman(predicted, measured)
    return None if np.isnan(rank) else rank


def dram_write_hit(case: TimeCase) -> bool | None:
    """Whether memsim's modeled DRAM write bytes are within their target of the measured (None
    where the report carries no modeled traffic, as the stored fit inputs do)."""
    comparison = compare_metric(m.DRAM_WRITE, case.traffic, case.report.metrics)
    if comparison.rel_error is None:
        return None
    return abs(comparison.rel_error) <= TARGETS[m.DRAM_WRITE].tolerance


def family_rows(cases: list[TimeCase], predicted: dict[str, float]) -> list[FamilyAccuracy]:
    """Per family: its figures and every launch's LOFO (or held-out) prediction."""
    grouped: dict[str, list[TimeCase]] = defaultdict(list)
    for case in cases:
        grouped[case.family].append(case)
    return [FamilyAccuracy(
        family=family, case_set=members[0].case_set, held_out=is_held_out(family),
        figures=figures(members, predicted),
        cases=[CasePrediction(name=c.name, measured_ns=c.duration_ns, predicted_ns=predicted[c.name],
                              error=(predicted[c.name] - c.duration_ns) / c.duration_ns) for c in members])
        for family, members in sorted(grouped.items())]


def summary_lines(result: CrossValidation) -> list[str]:
    """The splits side by side, one line each (for the terminal and report.md)."""
    rows = [("in-sample (shipped constants)", result.in_sample), ("leave one family out", result.lofo),
            ("held-out corpus (fit on the rest)", result.held_out),
            ("held-out corpus (shipped constants)", result.held_out_shipped)]
    return [f"{label}: {figure_text(f)}" for label, f in rows] + [
        f"{result.fits} fits in {result.fit_seconds:.1f} s; traffic: {result.traffic}"]


def figure_text(f: TimeFigures) -> str:
    if not f.cases:
        return "no cases"
    dram = f", DRAM write within 20% {f.dram_write_within_20:.1%}" if f.dram_write_within_20 is not None else ""
    rank = lambda r: "n/a" if r is None else f"{r:.3f}"
    return (f"{f.cases} launches, time within 25% {f.within_25:.1%}, within 50% {f.within_50:.1%}, worst "
            f"{f.max_error:.0%}, Spearman suite {rank(f.spearman_suite)} / all {rank(f.spearman_all)}{dram}")


def cross_validate_run(work: list[tuple[MeasurementFile, CaseRecord]],
                       predictions: dict[tuple[str, str, str], Prediction], model: str) -> CrossValidation | None:
    """validate.lofo over the compared cases that have a duration and a simulated report: fits
    read their measured traffic, predictions memsim's cache model's (the report's metrics)."""
    reports = {key: KernelReport.model_validate(p.report) for key, p in predictions.items() if p.report}
    cases = [time_case(c, f.case_set, report, report.static_shared_bytes, recorded_registers(c))
             for f, c in work if (report := reports.get((f.gpu, f.case_set, c.name))) and m.DURATION in c.metrics]
    return cross_validate(cases, gpus.load(model), traffic="model") if cases else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m validate.lofo", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", choices=sorted(INPUTS_BY_ENGINE), default=None,
                        help="whose stored reports (default: memsim's default engine)")
    parser.add_argument("--families", action="store_true", help="also print each family's figures")
    args = parser.parse_args(argv)
    result = cross_validate(load_cases(INPUTS_BY_ENGINE[args.engine or registry.default_name()]))
    for line in summary_lines(result):
        print(line)
    if args.families:
        for row in result.families:
            print(f"{row.family}{' (held out)' if row.held_out else ''}: {figure_text(row.figures)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
