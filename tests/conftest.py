"""Fixtures every test folder may use. tests/ mirrors memsim's tree (engine/, model/, views/,
cli/, compiler/, catalog/) and the repository's other packages (validate/, gpu/); what several
modules share lives in tests/helpers."""
from __future__ import annotations

import os
import shutil

import pytest


@pytest.fixture(scope="session")
def recorded():
    """The recorded H100 launches with metrics, by case name (validate/data/h100)."""
    from validate import record
    return {r.name: r for f in record.load_all() if f.gpu == "h100" for r in f.cases if r.metrics}



@pytest.fixture(scope="session")
def launch_cache_folder(tmp_path_factory):
    """This run's launch cache, shared by the xdist workers (tests/helpers/launch_cache.py)."""
    from tests.helpers.launch_cache import run_folder
    return run_folder(tmp_path_factory.getbasetemp())


@pytest.fixture
def launch_cache(launch_cache_folder, monkeypatch):
    """memsim.simulate_spec, memsim.predict_spec and the compiles under them read this run's
    launch cache: a recorded launch another test of the run compiled or emulated is not
    compiled or emulated again."""
    from tests.helpers.launch_cache import install
    install(monkeypatch, launch_cache_folder)
    return launch_cache_folder


def pytest_sessionfinish(session):
    """The launch cache holds about 1.3 GB by the end of a whole run: removed as the run ends,
    by xdist's controller (its basetemp is the run's folder the workers share) or by the one
    process of a run without xdist."""
    factory = getattr(session.config, "_tmp_path_factory", None)
    if factory is None or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    from tests.helpers.launch_cache import run_folder
    shutil.rmtree(run_folder(factory.getbasetemp()), ignore_errors=True)
