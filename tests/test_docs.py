"""The docs cannot drift: every `$ memsim ...` command in docs/*.md runs, and prints what is shown.

In ```console blocks, a line `$ memsim ...` is a command and the lines after it (up to the next
command) are output that must appear in what it prints ("..." marks elided output). Figures
(--png/--svg) are written to a temporary folder, not over the committed ones. Sizes above
MAX_NX are run at MAX_NX, only for commands that show no output, to keep the suite fast.
```python blocks run as they are. The seed tables of the tutorial must hold the H100's
numbers, and memsim's for the launches small enough to simulate here.
"""
from __future__ import annotations

import importlib.util
import re
import runpy
import shlex
import sys
from pathlib import Path

import pytest

from memsim import catalog
from memsim import simulate_spec
from memsim.cli import main
from tests.helpers.docs import COMMANDS, DOCS, ROOT, blocks, runnable


def test_the_docs_have_commands():
    assert len(COMMANDS) >= 15


@pytest.mark.parametrize("doc, command, expected", COMMANDS, ids=[c for _, c, _ in COMMANDS])
def test_documented_command_runs_and_prints_what_is_shown(doc, command, expected, tmp_path,
                                                          capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    argv = runnable(shlex.split(command)[1:], tmp_path, bool(expected))
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, f"{doc}: `{command}` failed: {err}"
    printed = "\n".join(line.rstrip() for line in (err + out).splitlines())   # a console shows both
    missing = [line for line in expected if line not in printed]
    assert not missing, f"{doc}: `{command}` no longer prints {missing}"


@pytest.mark.parametrize("doc, code", blocks("python"), ids=lambda x: str(x)[:30])
def test_python_blocks_run(doc, code, monkeypatch, tmp_path):
    """Each block runs as a file (as a user pastes it into one): Triton reads a kernel's source
    from its file."""
    monkeypatch.chdir(ROOT)
    script = tmp_path / f"{Path(doc).stem}_block.py"
    script.write_text(code)
    runpy.run_path(str(script), run_name="__main__")


def test_every_picture_is_committed_and_made_by_a_documented_command():
    made = {Path(arg).name for _, command, _ in COMMANDS
            for flag, arg in zip(shlex.split(command), shlex.split(command)[1:])
            if flag in ("--png", "--svg")}
    shown = {Path(target).name for doc in DOCS
             for target in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", doc.read_text())}
    assert shown and shown <= made
    for name in shown:
        data = (ROOT / "docs" / "img" / name).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 10_000


# ---- the seed tables ------------------------------------------------------------------------------

def _seed_table_module():
    spec = importlib.util.spec_from_file_location("seed_table", ROOT / "docs" / "seed_table.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module        # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


seed_table = _seed_table_module()
TUTORIAL = (ROOT / "docs" / "tutorial.md").read_text()
CASES = {case.case: case for case in catalog.SEED_CASES}
SMALL = [c for c in catalog.SEED_CASES if c.params["nx"] * c.params["ny"] <= 2048 * 1024]


@pytest.mark.parametrize("table", seed_table.TABLES, ids=lambda t: t.name)
def test_seed_table_holds_the_h100_measurements(table):
    measured = seed_table.golden()
    rows = table.parse(TUTORIAL)
    assert [r[0] for r in rows] == [c.case for c in catalog.SEED_CASES]
    for cells in rows:
        expected = table.row(CASES[cells[0]], {}, measured[cells[0]])
        assert cells[:2] == expected[:2]
        assert cells[3::2] == expected[3::2], f"{cells[0]}: H100 columns"


@pytest.mark.parametrize("case", SMALL, ids=lambda c: c.case)
def test_seed_table_holds_memsims_predictions(case):
    predicted = simulate_spec(case.launch())[0].metrics
    measured = seed_table.golden()[case.case]
    for table in seed_table.TABLES:
        row = next(r for r in table.parse(TUTORIAL) if r[0] == case.case)
        assert row == table.row(case, predicted, measured)


def test_numbers_quoted_in_the_prose_come_from_the_tables():
    prose = TUTORIAL.split(seed_table.COUNTERS.markers[0])[0]
    times = {cells[-1] for cells in seed_table.COUNTERS.parse(TUTORIAL)}
    cache = {cell for cells in seed_table.CACHES.parse(TUTORIAL) for cell in cells[3::2]}
    quoted_times = re.findall(r"(\d[\d,]*\.\d) µs", prose)
    quoted_sectors = re.findall(r"(\d+\.\d\d) M\b", prose)
    assert quoted_times and quoted_sectors
    assert set(quoted_times) <= times
    assert set(quoted_sectors) <= cache
