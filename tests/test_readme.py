"""Every ```python block of the README runs as pasted from the repository's root (a reader
copies them first), and the pytest example's test passes with the plugin's fixture."""
from __future__ import annotations

import re
import runpy

import pytest

from memsim.testing import LaunchCache
from tests.helpers.docs import ROOT

FENCE = re.compile(r"^```python\n(.*?)^```", re.M | re.S)
BLOCKS = FENCE.findall((ROOT / "README.md").read_text())


def test_the_readme_has_python_blocks():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("code", BLOCKS, ids=lambda code: code.splitlines()[0][:40])
def test_readme_python_block_runs(code, monkeypatch, tmp_path):
    """Run from a file, as a reader's script would be (numba.cuda reads a kernel's source)."""
    monkeypatch.chdir(ROOT)
    script = tmp_path / "readme_block.py"
    script.write_text(code)
    namespace = runpy.run_path(str(script))
    tests = [f for name, f in namespace.items() if name.startswith("test_") and callable(f)]
    for test in tests:   # the pytest plugin's example: run it with the plugin's fixture
        test(LaunchCache())
    assert tests or "report" in namespace
