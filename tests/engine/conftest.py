"""Every engine, through the interface: a test that takes `each_engine` runs once per engine
of memsim.engine.registry, handing memsim.simulate the Engine itself."""
from __future__ import annotations

import pytest

from memsim.engine import registry


@pytest.fixture(params=registry.NAMES)
def each_engine(request):
    return registry.get(request.param)
