"""memsim.testing: assertions that pass on a good kernel and fail, naming line, measured and
allowed value, on a bad one; the fixture simulates each launch once; the plugin is declared."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import memsim.testing
from memsim.errors import MemsimError
from memsim.testing import LaunchCache, assert_coalesced, assert_no_bank_conflicts, assert_sectors

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "transpose.cu"
N = 64
# Line 9: the naive store; line 19: the tiled load into shared memory; line 24: the tiled store.
NAIVE_STORE, TILE_LOAD, TILE_STORE = 9, 19, 24
UNPADDED = EXAMPLE.read_text().replace("tile[TILE][TILE + 1]", "tile[TILE][TILE]")


@pytest.fixture(scope="module")
def launch() -> LaunchCache:
    return LaunchCache()


def transpose(launch: LaunchCache, kernel: str, source: str = str(EXAMPLE)):
    return launch(source, kernel, (N // 32, N // 32), (32, 8),
                  [f"float32[{N}x{N}]", f"float32[{N}x{N}]:zeros", f"int32:{N}"])


def test_the_example_lines_are_the_ones_named_here():
    lines = EXAMPLE.read_text().splitlines()
    assert "out[x * n" in lines[NAIVE_STORE - 1] and "tile[threadIdx.y" in lines[TILE_LOAD - 1]
    assert "out[(y + j)" in lines[TILE_STORE - 1]


@pytest.mark.parametrize("line", [None, TILE_LOAD, TILE_STORE])
def test_assert_coalesced_passes_on_the_tiled_transpose(launch, line):
    assert_coalesced(transpose(launch, "transpose_tiled"), line=line)


@pytest.mark.parametrize("line", [None, NAIVE_STORE])
def test_assert_coalesced_fails_on_the_strided_store_naming_line_measured_and_allowed(launch, line):
    with pytest.raises(AssertionError) as failure:
        assert_coalesced(transpose(launch, "transpose_naive"), line=line, min_efficiency=0.9)
    message = str(failure.value)
    assert f"line {NAIVE_STORE} `out[x * n + (y + j)]" in message
    assert "global st coalescing efficiency 12.5%" in message and "allowed at least 90.0%" in message
    assert "global ld" not in message   # the row-wise load is coalesced


def test_assert_coalesced_threshold_is_the_allowed_value(launch):
    assert_coalesced(transpose(launch, "transpose_naive"), min_efficiency=0.125)


def test_a_line_without_the_access_is_named_with_the_lines_that_have_it(launch):
    with pytest.raises(AssertionError, match=rf"line 3 of transpose_naive has no global access "
                                             rf"\(lines with global accesses: {NAIVE_STORE}\)"):
        assert_coalesced(transpose(launch, "transpose_naive"), line=3)


def test_assert_no_bank_conflicts_passes_with_the_padding_column(launch):
    assert_no_bank_conflicts(transpose(launch, "transpose_tiled"))


def test_assert_no_bank_conflicts_fails_without_it(launch):
    report = transpose(launch, "transpose_tiled", UNPADDED)
    with pytest.raises(AssertionError) as failure:
        assert_no_bank_conflicts(report)
    message = str(failure.value)
    assert f"line {TILE_STORE} `out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];`: shared ld has" in message
    assert "32.00 wavefronts/request, ideal 1.00), allowed 0" in message
    assert_no_bank_conflicts(report, line=TILE_LOAD)   # the row-wise store into the tile is fine


@pytest.mark.parametrize("kernel, op, budget, passes", [
    ("transpose_tiled", "st", N * N * 4 // 32, True),
    ("transpose_naive", "st", N * N * 4 // 32, False),
    ("transpose_naive", "ld", N * N * 4 // 32, True),
    ("transpose_naive", "ld", N * N * 4 // 32 - 1, False),
])
def test_assert_sectors_holds_the_budget(launch, kernel, op, budget, passes):
    report = transpose(launch, kernel)
    if passes:
        assert_sectors(report, op, at_most=budget)
        return
    with pytest.raises(AssertionError, match=rf"global {op} moves [\d,]+ sectors, allowed at most "
                                             rf"{budget:,}; most at line \d+ `"):
        assert_sectors(report, op, at_most=budget)


def test_assert_sectors_sums_to_ncus_counter(launch):
    report = transpose(launch, "transpose_naive")
    sectors = report.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]
    assert_sectors(report, "st", at_most=sectors)
    with pytest.raises(AssertionError):
        assert_sectors(report, "st", at_most=sectors - 1)


@pytest.mark.parametrize("op, space", [("atom", "global"), ("ld", "shared")])
def test_assert_sectors_refuses_what_it_does_not_count(launch, op, space):
    with pytest.raises(MemsimError, match="counts op 'ld' or 'st'"):
        assert_sectors(transpose(launch, "transpose_tiled"), op, at_most=1, space=space)


def test_the_cache_simulates_each_distinct_launch_once():
    cache = LaunchCache()
    first, again = transpose(cache, "transpose_tiled"), transpose(cache, "transpose_tiled")
    assert first is again and cache.simulated == 1
    transpose(cache, "transpose_naive")
    assert cache.simulated == 2


def test_the_plugin_is_declared_for_pytest():
    entry_points = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
    assert entry_points["pytest11"] == {"memsim": "memsim.testing"}
    assert callable(memsim.testing.memsim_launch)


def run_pytest(*paths: Path) -> None:
    """pytest in this process with the plugin loaded by name (as its entry point would)."""
    pytest.main(["-q", "-p", "no:memsim", "-p", "memsim.testing", "-p", "no:cacheprovider",
                 "--rootdir", str(paths[0].parent), *map(str, paths)])


USES_THE_FIXTURE = f"""
def test_launch(memsim_launch):
    before = memsim_launch.simulated
    memsim_launch({str(EXAMPLE)!r}, "transpose_tiled", (2, 2), (32, 8),
                  ["float32[64x64]", "float32[64x64]:zeros", "int32:64"])
    assert (before, memsim_launch.simulated) == (BEFORE, 1)
"""


def test_the_fixture_simulates_a_launch_once_per_session_across_modules(tmp_path, capsys):
    files = [tmp_path / f"test_fixture_{i}.py" for i in range(2)]
    for before, file in enumerate(files):   # the second module finds the first one's launch
        file.write_text(USES_THE_FIXTURE.replace("BEFORE", str(before)))
    run_pytest(*files)
    assert "2 passed" in capsys.readouterr().out


@pytest.mark.parametrize("kernel, outcome", [("transpose_tiled", "3 passed"),
                                             ("transpose_naive", "2 failed, 1 passed")])
def test_the_example_passes_coalesced_and_fails_strided(kernel, outcome, tmp_path, capsys):
    example = (ROOT / "examples" / "test_transpose_budget.py").read_text()
    assert 'KERNEL = "transpose_tiled"' in example
    (tmp_path / "transpose.cu").write_text(EXAMPLE.read_text())
    test_file = tmp_path / f"test_budget_{kernel}.py"
    test_file.write_text(example.replace('KERNEL = "transpose_tiled"', f'KERNEL = "{kernel}"'))
    run_pytest(test_file)
    out = capsys.readouterr().out
    assert outcome in out
    if "failed" in outcome:
        assert "global st coalescing efficiency 12.5%" in out and f"line {NAIVE_STORE}" in out
