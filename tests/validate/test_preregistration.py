"""validate.preregistration: committed predictions are scored against recordings of the same
launches, never re-predicted."""
from __future__ import annotations

import pytest

from gpu.versions import Versions
from memsim import metrics as m
from memsim.launch import LaunchSpec
from validate import record as rec
from validate.case import Case
from validate.preregistration import PredictedCase, PredictionFile, score, spec_digest, spearman


def _case(name: str, n: int) -> Case:
    return Case(name=name, spec=LaunchSpec(source="k.cu", kernel="k", grid=(n, 1, 1), block=(32, 1, 1), args=[]),
                tags=["sweep:k"])


def _files(predicted: dict[str, float], measured: dict[str, float], change: str | None = None):
    cases = {name: _case(name, i + 1) for i, name in enumerate(predicted)}
    pred = PredictionFile(case_set="prereg", model="H100", commit="abc", date="today", cases=[
        PredictedCase(name=n, spec_digest=spec_digest(c.spec), tags=c.tags, metrics={m.DURATION: predicted[n]})
        for n, c in cases.items()])
    records = [rec.CaseRecord(name=n, spec=(_case(n, 99).spec if n == change else c.spec),
                              metrics={m.DURATION: measured[n]}) for n, c in cases.items()]
    return pred, rec.MeasurementFile(gpu="h100", case_set="prereg", versions=Versions(gpu="H100"), cases=records)


def test_the_score_counts_the_committed_predictions_within_the_tolerance():
    pred, measured = _files({"a": 100, "b": 130, "c": 200}, {"a": 100, "b": 100, "c": 100})
    result = score(pred, measured, {})
    time = next(s for s in result.metrics if s.metric == m.DURATION)
    assert time.cases == 3
    assert time.within == pytest.approx(1 / 3)
    assert time.worst_error == pytest.approx(1.0)
    assert result.errors["b"][m.DURATION] == pytest.approx(0.3)


def test_repeated_durations_are_compared_by_their_median():
    pred, measured = _files({"a": 100}, {"a": 500})
    result = score(pred, measured, {"a": [90, 100, 400]})
    assert result.errors["a"][m.DURATION] == pytest.approx(0.0)


def test_a_launch_that_changed_after_it_was_predicted_is_not_scored():
    pred, measured = _files({"a": 100, "b": 100}, {"a": 100, "b": 100}, change="b")
    result = score(pred, measured, {})
    assert result.missing == ["b"] and set(result.errors) == {"a"}


@pytest.mark.parametrize("hit, miss, inexact", [(30, 70, []), (30, 60, ["a"])])
def test_l1_lookups_that_differ_from_the_recorded_load_sectors_are_named(hit, miss, inexact):
    pred, measured = _files({"a": 100}, {"a": 100})
    pred.cases[0].metrics.update({m.L1_HIT: hit, m.L1_MISS: miss})
    measured.cases[0].metrics[m.GLOBAL_LD_SECTORS] = 100
    assert score(pred, measured, {}).inexact == inexact


def test_a_sweep_scores_memsim_s_pick_against_the_fastest():
    pred, measured = _files({"a": 10, "b": 20, "c": 30}, {"a": 300, "b": 100, "c": 200})
    sweep = score(pred, measured, {}).sweeps[0]
    assert sweep.configurations == 3
    assert sweep.picked_slowdown == pytest.approx(2.0)      # memsim picks a: 300 against 100
    assert sweep.spearman == pytest.approx(-0.5)


@pytest.mark.parametrize("a, b, expected", [([1, 2, 3], [10, 20, 30], 1.0), ([1, 2, 3], [3, 2, 1], -1.0),
                                            ([1, 2], [1, 2], None)])
def test_spearman(a, b, expected):
    assert spearman(a, b) == (pytest.approx(expected) if expected is not None else None)


def test_predict_writes_a_file_of_committed_shape(tmp_path):
    """`validate prereg predict` end to end on one small corpus launch."""
    from validate.cli import main
    out = tmp_path / "p.json"
    assert main(["prereg", "predict", "--cases", "corpus", "--filter", "reduce_interleaved", "--out", str(out),
                 "--jobs", "1"]) == 0
    from validate.preregistration import load_predictions
    written = load_predictions(out)
    assert [c.name for c in written.cases] == ["reduce_interleaved"]
    assert m.DURATION in written.cases[0].metrics and written.commit
