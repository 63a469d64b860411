"""The fake simulator validate's tests run against (tests/helpers/records.py has the records)."""
from __future__ import annotations

import pytest

import memsim
from memsim.launch import LaunchSpec
from memsim.report import KernelReport
from tests.helpers.records import MEASURED


@pytest.fixture
def simulator(monkeypatch):
    """memsim.simulate_spec replaced: predicts MEASURED (minus/plus what a test sets)."""
    state = {"metrics": dict(MEASURED), "error": None, "calls": 0}

    def fake(spec: LaunchSpec, engine: str = "ptx", gpu: str | None = None, **budget):
        state["calls"] += 1
        state["engine"] = engine
        if state["error"]:
            raise state["error"]
        values = spec.materialize()
        values[1] = values[0] + 1
        return KernelReport(kernel=spec.kernel, grid=spec.grid, block=spec.block, metrics=state["metrics"]), values

    monkeypatch.setattr(memsim, "simulate_spec", fake, raising=False)
    return state
