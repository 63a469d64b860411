"""The seed kernels against Nsight Compute on an H100: every exact metric equal to the unit.

Golden data: tests/golden/h100-seed-kernels.json (ncu 2025.3.1, NVRTC 13.0, driver 580.159.04)
and the exact source it measured, tests/golden/seed_kernels.cu.
"""
import json

import numpy as np
import pytest

import memsim
from memsim import metrics as m
from memsim.launch import LaunchSpec
from tests.helpers import GOLDEN

SOURCE = (GOLDEN / "seed_kernels.cu").read_text()
RECORDS = json.loads((GOLDEN / "h100-seed-kernels.json").read_text())


def golden_spec(record: dict) -> LaunchSpec:
    return LaunchSpec(source=SOURCE, kernel=record["kernel"], grid=record["grid"],
                      block=record["block"], args=[a.replace(" ", ":") for a in record["args"]],
                      shared_mem=record["shared_mem"])


@pytest.fixture(scope="module")
def simulated():
    cache = {}

    def run(record):
        if record["case"] not in cache:
            # no time limit: s003's 268M loads ran past the default 30 s on a loaded 2-core CI
            # machine (tests/cli/test_bad_inputs.py tests the limit)
            cache[record["case"]] = memsim.simulate_spec(golden_spec(record), timeout=None)
        return cache[record["case"]]
    return run


@pytest.mark.parametrize("record", RECORDS, ids=[r["case"] for r in RECORDS])
def test_exact_metrics_equal_h100(record, simulated):
    report, _ = simulated(record)
    measured = record["metrics"]
    diffs = {k: (report.metrics[k], measured[k]) for k in m.EXACT if report.metrics[k] != measured[k]}
    assert not diffs, f"predicted vs measured: {diffs}"


def test_golden_covers_required_metrics():
    assert len(RECORDS) == 25
    for record in RECORDS:
        assert set(m.EXACT) <= set(record["metrics"])


@pytest.mark.parametrize("record", [r for r in RECORDS if r["kernel"] in ("k_naiveRow", "k_smemTilePad", "k_add2")],
                         ids=lambda r: r["case"])
def test_outputs_are_real(record, simulated):
    _, values = simulated(record)
    if record["kernel"] == "k_add2":
        x, y, z = values
        np.testing.assert_array_equal(z[1:4097], x[1:4097] + y[1:4097])
    elif record["kernel"] == "k_naiveRow":
        a, b, nx, ny = values
        np.testing.assert_array_equal(b.reshape(int(nx), int(ny)), a.reshape(int(ny), int(nx)).T)
    else:
        a, c, n = values
        np.testing.assert_array_equal(c.reshape(int(n), int(n)), a.reshape(int(n), int(n)).T)
