"""A latency-bound loop's cycles a step, held to the H100 and H200 recordings of
gpu/probes/loop_probe.cu (h100_loop_probe.json, h200_loop_probe.json): the shape of mmcv's ball
query, whose launch the simulation ran too fast (docs/time-model.md, session 18). The loop alone
is right to within 10%; the launch's shortfall lies elsewhere."""
import json

import pytest

import memsim
from gpu.probes import loop_probe
from memsim.gpus import load
from memsim.launch import LaunchSpec
from tests.helpers import ROOT

RECORDED = {gpu: json.loads((ROOT / "gpu" / "probes" / f"{gpu}_loop_probe.json").read_text()) for gpu in ("h100", "h200")}


def _durations(gpu: str, names: list[str]) -> tuple[dict[str, float], dict[str, float]]:
    cases = {c["name"]: c for c in loop_probe.cases()}
    measured = {c["name"]: c["metrics"]["gpu__time_duration.sum"] for c in RECORDED[gpu]["cases"]}
    predicted = {n: memsim.predict_spec(LaunchSpec(**cases[n]["spec"]), gpu=RECORDED[gpu]["gpu"])[0].metrics[
        "gpu__time_duration.sum"] for n in names}
    return measured, predicted


@pytest.mark.parametrize("gpu", ["h100", "h200"])
@pytest.mark.parametrize("regime", ["never", "rare"])
def test_a_lone_warps_loop_step_costs_what_the_gpu_takes(gpu, regime):
    names = [loop_probe.case_name(regime, 1, n) for n in loop_probe.STEPS]
    measured, predicted = _durations(gpu, names)
    span = loop_probe.STEPS[1] - loop_probe.STEPS[0]
    mhz = load(RECORDED[gpu]["gpu"]).clocks.sm_base_mhz
    gpu_step = (measured[names[1]] - measured[names[0]]) / span * mhz / 1e3
    model_step = (predicted[names[1]] - predicted[names[0]]) / span * mhz / 1e3
    assert 200 < gpu_step < 300
    assert model_step == pytest.approx(gpu_step, rel=0.10)
