"""Hold the simulator to recorded hardware: simulate each recorded launch and compare counters.

EXACT metrics must equal the hardware to the unit (a difference, or no prediction, fails the
case). MODELED metrics are reported with their relative error. Inputs are checked first: the
simulator must materialize the very bytes the GPU saw, or a data-dependent count could differ
for a reason that is no fault of the simulator's.
"""
from __future__ import annotations

import json
import statistics
import time
from enum import Enum

from pydantic import BaseModel, Field

from gpu.versions import Versions
from memsim import metrics as m
from memsim.engine import registry
from memsim.errors import MemsimError
from memsim.launch import LaunchSpec, digest
from memsim.report import KernelReport
from memsim.tools.pool import run_all
from memsim.tools.progress import Advance

from .cross_validation import CrossValidation
from .record import DATA_DIR, CaseRecord, MeasurementFile


class Status(str, Enum):
    PASS = "pass"                  # every exact metric equal
    FAIL = "fail"                  # an exact metric differs or is not predicted
    SIM_ERROR = "sim error"        # the simulator refused or crashed
    INPUTS_DIFFER = "inputs differ"  # materialize() gave other bytes than the GPU saw
    NOT_MEASURED = "not measured"  # the hardware run failed: nothing to compare
    KNOWN = "known difference"     # differs as validate/data/<gpu>/known_differences.json explains
    FIXED = "fixed"                # listed as a known difference but now equal: prune the list

    @property
    def failed(self) -> bool:
        return self in (Status.FAIL, Status.SIM_ERROR, Status.INPUTS_DIFFER, Status.FIXED)


class KnownDifference(BaseModel):
    """A recorded case the simulator does not yet reproduce, and why (measured evidence)."""

    reason: str
    metrics: list[str]


def load_known_differences(gpu: str, engine: str) -> dict[str, KnownDifference]:
    """The known differences of one engine: known_differences.json (the PTX engine's) or
    known_differences_<engine>.json; each file says which engine it describes."""
    path = DATA_DIR / gpu / ("known_differences.json" if engine == "ptx" else f"known_differences_{engine}.json")
    if not path.exists():
        return {}
    raw = json.loads(path.read_text())
    if raw.get("engine", "ptx") != engine:
        return {}
    return {name: KnownDifference.model_validate(entry) for name, entry in raw["cases"].items()}


class MetricComparison(BaseModel):
    metric: str
    exact: bool
    measured: float | None = None
    predicted: float | None = None
    status: str = Field(description="match | mismatch | compared | not predicted | not measured")
    rel_error: float | None = Field(None, description="(predicted - measured) / max(|measured|, 1)")


class CaseComparison(BaseModel):
    name: str
    gpu: str
    case_set: str
    tags: list[str] = Field(default_factory=list)
    status: Status
    detail: str = ""
    output_ok: bool | None = None
    outputs_identical: bool | None = Field(None, description="simulated outputs bit-equal to the GPU's")
    wrong_expectations: list[str] = Field(
        default_factory=list, description="metrics where the case's first-principles value differs from the hardware")
    sim_seconds: float = 0.0
    metrics: list[MetricComparison] = Field(default_factory=list)

    def metric(self, name: str) -> MetricComparison | None:
        return next((c for c in self.metrics if c.metric == name), None)


class MetricSummary(BaseModel):
    metric: str
    exact: bool
    compared: int = 0
    matched: int = 0
    not_predicted: int = 0
    median_abs_rel_error: float | None = None
    max_abs_rel_error: float | None = None


class ComparisonReport(BaseModel):
    versions: dict[str, Versions] = Field(default_factory=dict, description="per GPU folder")
    cases: list[CaseComparison] = Field(default_factory=list)
    cross_validation: CrossValidation | None = Field(
        None, description="with a model: the time model's leave-one-family-out and held-out accuracy")

    @property
    def failures(self) -> list[CaseComparison]:
        return [c for c in self.cases if c.status.failed]

    @property
    def ok(self) -> bool:
        return not self.failures

    def count(self, status: Status) -> int:
        return sum(c.status == status for c in self.cases)

    def summary(self) -> list[MetricSummary]:
        return [summarize(metric, self.cases) for metric in m.EXACT + m.MODELED]


class Prediction(BaseModel):
    """What the simulator said about one launch (small, so it crosses process boundaries cheaply)."""

    input_digest: str = ""
    output_digest: str = ""
    metrics: dict[str, float] = Field(default_factory=dict)
    error: str = ""
    seconds: float = 0.0
    report: dict | None = Field(None, description="with a model: what the time model reads of the report "
                                                  "(stored_report), for its refits")


def predict(spec: LaunchSpec, engine: str, model: str | None = None,
            registers: int | None = None) -> Prediction:
    """memsim's counters for one launch; with `model` (a GPU profile name) also the modeled
    cache, DRAM and time metrics (occupancy from `registers` per thread, where recorded)."""
    import memsim

    started = time.perf_counter()
    try:
        input_digest = digest(spec.materialize())
        if model:
            report, values = memsim.predict_spec(spec, engine=engine, gpu=model, timeout=None,
                                                 registers_per_thread=registers)
        else:
            report, values = memsim.simulate_spec(spec, engine=engine, timeout=None)
    except MemsimError as exc:
        return Prediction(error=str(exc), seconds=time.perf_counter() - started)
    except Exception as exc:  # a simulator bug must fail this case, not the whole comparison
        return Prediction(error=f"simulator crashed: {type(exc).__name__}: {exc}",
                          seconds=time.perf_counter() - started)
    return Prediction(input_digest=input_digest, output_digest=digest(values), metrics=report.metrics,
                      seconds=time.perf_counter() - started, report=stored_report(report) if model else None)


def stored_report(report: KernelReport) -> dict:
    """What the time model reads of a report: metrics and the global/local instructions."""
    kept = [i.model_copy(update={"listing": ""}) for i in report.instructions if i.space in ("global", "local")]
    slim = report.model_copy(update={"lines": [], "instructions": kept, "provenance": {}})
    return json.loads(slim.model_dump_json(exclude_defaults=True))


def compare_files(files: list[MeasurementFile], jobs: int = 1,
                  select=lambda record: True, engine: str | None = None, model: str | None = None,
                  progress: Advance = lambda n=1: None, cross_validate=None) -> ComparisonReport:
    """Simulate every selected recorded case (in `jobs` processes, with `engine`; with `model`
    the cache and time models of that GPU too) and compare; progress(1) per simulated case.
    With a model, `cross_validate(work, predictions, model)` (validate.lofo.cross_validate_run)
    fills the report's cross_validation."""
    engine = engine or registry.default_name()
    work = [(f, c) for f in files for c in f.cases if select(c)]
    measured = [(f, c) for f, c in work if c.measured]
    calls = [(c.spec, engine, model, recorded_registers(c)) for _, c in measured]
    predictions = _predict_distinct(calls, jobs, progress)
    known = {f.gpu: load_known_differences(f.gpu, engine) for f in files}
    by_case = {(f.gpu, f.case_set, c.name): p for (f, c), p in zip(measured, predictions)}
    cases = [compare_case(c, f.gpu, f.case_set, by_case.get((f.gpu, f.case_set, c.name)),
                          known[f.gpu].get(c.name))
             for f, c in work]
    report = ComparisonReport(versions={f.gpu: f.versions for f in files}, cases=cases)
    if model and cross_validate is not None:
        report.cross_validation = cross_validate(work, by_case, model)
    return report


def _predict_distinct(calls: list[tuple], jobs: int, progress: Advance) -> list[Prediction]:
    """predict(*call) for every call, simulating identical calls once: the same launch recorded
    on two GPUs (the H100 and the H200 run the same sm_90 code) needs one simulation."""
    keys = [(spec.model_dump_json(), *rest) for spec, *rest in calls]
    first = {}
    for i, key in enumerate(keys):
        first.setdefault(key, i)
    distinct = list(first.values())
    results = dict(zip(first, run_all(predict, [calls[i] for i in distinct], jobs, progress)))
    if len(calls) > len(distinct):
        progress(len(calls) - len(distinct))
    return [results[key] for key in keys]


def recorded_registers(record: CaseRecord) -> int | None:
    """Registers per thread ncu saw (launch__registers_per_thread), for the models' occupancy."""
    value = record.metrics.get("launch__registers_per_thread")
    return int(value) if value else None


def compare_case(record: CaseRecord, gpu: str, case_set: str,
                 prediction: Prediction | None, known: "KnownDifference | None" = None) -> CaseComparison:
    base = CaseComparison(name=record.name, gpu=gpu, case_set=case_set, tags=record.tags,
                          status=Status.NOT_MEASURED, output_ok=record.output_ok,
                          wrong_expectations=wrong_expectations(record))
    if prediction is None:
        return base.model_copy(update={"detail": record.error or "no counters recorded"})
    base.sim_seconds = prediction.seconds
    if prediction.error:
        return base.model_copy(update={"status": Status.SIM_ERROR, "detail": prediction.error})
    if prediction.input_digest != record.input_digest:
        return base.model_copy(update={
            "status": Status.INPUTS_DIFFER,
            "detail": f"input digest {prediction.input_digest}, hardware saw {record.input_digest}"})
    recorded_tma = [name for name in m.TMA if name in record.metrics]   # recorded since session 15
    metrics = [compare_metric(name, record.metrics, prediction.metrics) for name in m.EXACT + recorded_tma + m.MODELED]
    bad = [c.metric for c in metrics if c.exact and c.status in ("mismatch", "not predicted")]
    status, detail = Status.FAIL if bad else Status.PASS, (
        f"{len(bad)} exact metrics differ: {', '.join(bad)}" if bad else "")
    if known is not None:
        if not bad:
            status, detail = Status.FIXED, "listed as a known difference but every exact metric is equal now"
        elif set(bad) <= set(known.metrics):
            status, detail = Status.KNOWN, f"{known.reason} ({', '.join(bad)})"
    return base.model_copy(update={
        "status": status,
        "detail": detail,
        "outputs_identical": prediction.output_digest == record.output_digest if record.output_digest else None,
        "metrics": metrics})


def wrong_expectations(record: CaseRecord) -> list[str]:
    """Metrics whose value the case predicted by hand and the hardware contradicts."""
    return [name for name, value in record.expect.items()
            if name in record.metrics and record.metrics[name] != value]


def compare_metric(name: str, measured: dict[str, float], predicted: dict[str, float]) -> MetricComparison:
    exact = m.provenance(name) == m.Provenance.EXACT
    got, want = predicted.get(name), measured.get(name)
    comparison = MetricComparison(metric=name, exact=exact, measured=want, predicted=got, status="compared")
    if want is None:
        comparison.status = "not measured"
    elif got is None:
        comparison.status = "not predicted"
    else:
        comparison.rel_error = (got - want) / max(abs(want), 1.0)
        if exact:
            comparison.status = "match" if got == want else "mismatch"
    return comparison


def summarize(metric: str, cases: list[CaseComparison]) -> MetricSummary:
    found = [c for c in (case.metric(metric) for case in cases) if c is not None]
    errors = [abs(c.rel_error) for c in found if c.rel_error is not None]
    return MetricSummary(
        metric=metric, exact=m.provenance(metric) == m.Provenance.EXACT, compared=len(errors),
        matched=sum(c.status == "match" for c in found),
        not_predicted=sum(c.status == "not predicted" for c in found),
        median_abs_rel_error=statistics.median(errors) if errors else None,
        max_abs_rel_error=max(errors) if errors else None)
