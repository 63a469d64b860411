"""Fixtures every test folder may use. tests/ mirrors memsim's tree (engine/, model/, views/,
cli/, compiler/, catalog/) and the repository's other packages (validate/, gpu/); what several
modules share lives in tests/helpers."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def recorded():
    """The recorded H100 launches with metrics, by case name (validate/data/h100)."""
    from validate import record
    return {r.name: r for f in record.load_all() if f.gpu == "h100" for r in f.cases if r.metrics}
