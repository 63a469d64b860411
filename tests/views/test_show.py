"""Warp pictures (memsim.views.show) and the show/source/advise/compare commands.

Every catalog kernel is pictured for warp 0 of block 0 at a small size; each picture's cost
must be the seed documents' known pattern and equal the exact per-request counters.
"""
from __future__ import annotations

from collections import Counter

import pytest

from memsim import catalog, metrics
from memsim.views import compare, notebook, show
from memsim.warp_trace import trace_pictures
from memsim.views.advice import Finding
from memsim.cli import main
from memsim.errors import LaunchError
from memsim.cli.inspect_cli import block_index
from memsim.report import KernelReport
from tests.helpers.small_catalog import cached, small_launch as launch


# Per catalog entry, in program order: (space+op, cost, ideal) of warp 0's first execution;
# cost = sectors (global) or wavefronts (shared) of that one request.
G4, STRIDED, MISALIGNED = ("gld", 4, 4), ("gld", 32, 4), ("gld", 5, 4)
ST4, ST_STRIDED = ("gst", 4, 4), ("gst", 32, 4)
EXPECTED = {
    "copy_row": [G4, ST4],
    "copy_col": [STRIDED, ST_STRIDED],
    "transpose_naive_row": [G4, ST_STRIDED],
    "transpose_naive_col": [STRIDED, ST4],
    "transpose_unroll4_row": [G4, ST_STRIDED] * 4,
    "transpose_unroll4_col": [STRIDED, ST4] * 4,
    "transpose_diagonal_row": [G4, ST_STRIDED],
    "transpose_diagonal_col": [STRIDED, ST4],
    "transpose_smem": [G4, ("sst", 1, 1), ("sld", 32, 1), ST4],
    "transpose_smem_pad": [G4, ("sst", 1, 1), ("sld", 1, 1), ST4],
    "transpose_smem_rect": [G4, ("sst", 1, 1), ("sld", 16, 1), ST4],
    # the book's padding with a 32x16 block: two lanes still share each bank (H100: 2 per request)
    "transpose_smem_rect_pad": [G4, ("sst", 1, 1), ("sld", 2, 1), ST4],
    "row_sums": [STRIDED] * 4 + [ST4],       # the loop is unrolled by 4
    "col_sums": [G4] * 4 + [ST4],
    "add_aligned": [G4, G4, ST4],
    "add_misaligned": [MISALIGNED, MISALIGNED, ("gst", 5, 4)],
    "add2d_strided": [STRIDED, STRIDED, ST_STRIDED],
    "add2d_coalesced": [G4, G4, ST4],
    # Unrolled loops, as the SASS runs them: ptxas interleaves the loads, so only how many of
    # each (a Counter) is fixed. A[row][k] is one word for the whole warp; 16 k per iteration.
    "matmul_naive": Counter({G4: 16, ("gld", 1, 1): 16, ST4: 1}),
    # As[ty][k..k+3] is one LDS.128 per 4 k (2 wavefronts, as validate holds the H100 to for
    # this kernel), Bs[k][tx] one LDS per k
    "matmul_smem": Counter({G4: 2, ("sst", 1, 1): 2, ("sld", 2, 2): 8, ("sld", 1, 1): 32, ST4: 1}),
}


@pytest.fixture(scope="module")
def traced():
    return cached(lambda name: trace_pictures(launch(name)))


def test_every_catalog_kernel_has_an_expectation():
    assert set(EXPECTED) == set(catalog.names())


@pytest.mark.parametrize("name", list(EXPECTED))
def test_pictures_show_the_known_pattern_and_equal_the_counters(name, traced):
    report, pictures = traced(name)
    seen = [(p.space[0] + p.op, p.cost, p.ideal) for p in pictures]
    expected = EXPECTED[name]
    assert (Counter(seen) if isinstance(expected, Counter) else seen) == expected
    counters = {row.index: row for row in report.instructions}
    for p in pictures:
        row = counters[p.pc]
        per_request = (row.wavefronts if p.is_shared else row.sectors) / row.requests
        assert p.cost == per_request, f"line {p.line}: every warp costs the same here"
        assert p.line and p.source, "each picture names its source line"


def test_naive_column_store_puts_every_lane_in_its_own_sector(traced):
    _, pictures = traced("transpose_naive_row")
    store = next(p for p in pictures if p.op == "st")
    assert len(store.sectors) == 32 and store.ideal_sectors == 4
    assert [a.sector for a in store.lanes] == list(range(32))
    assert all(s.used_bytes == 4 for s in store.sectors)
    assert store.wasted_fraction == pytest.approx(28 / 32)
    assert store.lanes[1].label == "B+256"      # nx = 64 floats: lanes a row (256 B) apart
    assert "32 sectors where 4 would do; 87.5% of the bytes moved are unused" in store.headline()


def test_misaligned_add_shows_a_fifth_sector_with_one_lane(traced):
    _, pictures = traced("add_misaligned")
    load = pictures[0]
    assert len(load.sectors) == 5 and load.ideal_sectors == 4
    first, last = load.sectors[0], load.sectors[-1]
    assert first.words[0] == [] and first.used_bytes == 28   # x[0] is read by no lane
    assert [lane for word in last.words for lane in word] == [31] and last.used_bytes == 4
    text = show.plain_text([load])
    assert ".#######" in text and "#......." in text


def test_padded_tile_shows_no_conflicting_lanes(traced):
    _, pictures = traced("transpose_smem_pad")
    load = next(p for p in pictures if p.is_shared and p.op == "ld")
    assert load.conflicting_lanes == []
    assert sorted(c.bank for c in load.cells) == list(range(32))
    assert "!" not in show.bank_grid(load).plain


def test_unpadded_tile_puts_all_32_lanes_in_one_bank(traced):
    _, pictures = traced("transpose_smem")
    load = next(p for p in pictures if p.is_shared and p.op == "ld")
    assert load.conflicting_lanes == list(range(32))
    assert {c.bank for c in load.cells} == {0}
    assert sorted(c.wavefront for c in load.cells) == list(range(32))
    assert "32-way bank conflict, conflicting lanes 0-31" in load.headline()


def test_eight_byte_shared_load_is_served_in_half_warps():
    _, pictures = trace_pictures(launch("transpose_smem_pad", dtype="float64"), line=24)
    load = next(p for p in pictures if p.is_shared)
    assert load.phase_lanes == 16 and load.wavefronts == 2 and not load.conflicting_lanes
    assert {(c.phase, c.wavefront) for c in load.cells} == {(0, 0), (1, 0)}
    assert "lanes 16-31" in show.bank_grid(load).plain


def test_broadcast_lanes_share_one_cell(traced):
    _, pictures = traced("matmul_smem")
    loads = [p for p in pictures if p.is_shared and p.op == "ld"]
    # As[ty][k..k+3]: one LDS.128 per 4 k, the same 16 bytes for every lane, served a half-warp
    # at a time (each of its 4 banks' cells holds the phase's 16 lanes); Bs[k][tx]: 32 words
    # in 32 banks
    broadcasts = [p for p in loads if p.width == 16 and len(p.cells) == 8
                  and all(len(c.lanes) == 16 for c in p.cells)]
    spread = [p for p in loads if len(p.cells) == 32]
    assert len(broadcasts) == 8 and len(spread) == 32
    assert not any(p.conflicting_lanes for p in loads)
    assert "0*" in show.bank_grid(broadcasts[0]).plain


def test_loop_executions_walk_the_row():
    spec = launch("row_sums")
    _, first = trace_pictures(spec, line=6, execution=1)
    _, second = trace_pictures(spec, line=6, execution=2)
    assert first[0].executions == second[0].executions == 16   # 64 elements, unrolled by 4
    assert second[0].lanes[0].address - first[0].lanes[0].address == 16


def test_plain_text_has_legends_and_no_escape_codes(traced):
    _, pictures = traced("transpose_smem")
    text = show.plain_text(pictures)
    assert show.LEGEND_GLOBAL in text.replace("\n", " ") or "bytes moved but unused" in text
    assert "idle bank" in text and "\x1b[" not in text


def test_narrow_console_wraps_banks_in_groups():
    report, pictures = trace_pictures(launch("transpose_smem"), line=15)
    load = next(p for p in pictures if p.is_shared)
    narrow = show.bank_grid(load, width=80).plain
    assert max(len(line) for line in narrow.splitlines()) <= 80
    assert "bank" in narrow and "16" in narrow


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_figure_files_are_written(tmp_path, traced, suffix):
    _, pictures = traced("transpose_smem")
    path = tmp_path / f"tile.{suffix}"
    show.save_figure(pictures, str(path))
    data = path.read_bytes()
    assert len(data) > 10_000
    assert data.startswith(b"\x89PNG") if suffix == "png" else b"<svg" in data[:2000]


def test_figure_file_must_be_png_or_svg(traced):
    _, pictures = traced("copy_row")
    with pytest.raises(LaunchError, match="must end in .png or .svg"):
        show.save_figure(pictures, "out.pdf")


def test_html_of_report_pictures_and_findings(traced):
    report, pictures = traced("transpose_naive_row")
    page = notebook.html(report)
    assert "<table>" in page and "uncoalesced global stores" in page
    assert "<svg" in pictures[0]._repr_html_() and "<svg" in notebook.html(pictures)
    assert KernelReport.model_validate_json(report.model_dump_json()) == report


class _Formatter:
    """IPython's text/html formatter, as far as memsim.views.notebook.register uses it."""

    def __init__(self):
        self.types = {}

    def for_type(self, kind, function):
        self.types[kind] = function


def test_notebook_html_is_registered_with_the_formatter(traced):
    report, _ = traced("transpose_naive_row")
    formatter = _Formatter()
    assert notebook.register(formatter)
    assert formatter.types[KernelReport](report) == notebook.html(report)
    assert set(formatter.types) == {KernelReport, Finding}


@pytest.mark.parametrize("text, expected", [("0", 0), ("5", 5), ("1,1", 3), ("1x0", 1)])
def test_block_index(text, expected):
    assert block_index(text, (2, 2, 1)) == expected


# ---- the commands ----------------------------------------------------------------------------------

def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_show_command_prints_the_picture_and_writes_png(capsys, tmp_path):
    png = tmp_path / "store.png"
    code, out, err = run(capsys, "show", "transpose_naive_row", "--nx", "64", "--line", "17",
                         "--png", str(png))
    assert code == 0 and err == ""
    assert "32 sectors where 4 would do" in out and "bytes moved but unused" in out
    assert png.stat().st_size > 10_000


SHOW_ERRORS = [
    (["--line", "99"], "line 99 of k_naiveRow has no executed memory access; memory lines: 17"),
    (["--warp", "32"], "no warp 32: a block of 1024 threads has warps 0-31"),
    (["--block-index", "4"], "no block 4: the grid has blocks 0-3"),
    (["--block-index", "2,0"], "no block (2,0) in a grid of 2x2x1"),
    (["--block-index", "a"], "bad --block-index 'a'"),
    (["--execution", "2"], "runs line 17 fewer than 2 times"),
    (["--png", "x.gif"], "must end in .png or .svg"),
]


@pytest.mark.parametrize("extra, message", SHOW_ERRORS)
def test_show_bad_input_is_one_line_and_exit_2(capsys, extra, message):
    # the last --line wins, as argparse does
    code, _, err = run(capsys, "show", "transpose_naive_row", "--nx", "64", "--line", "17", *extra)
    assert code == 2 and message in err and err.count("\n") == 1


def test_show_a_group_is_refused(capsys):
    code, _, err = run(capsys, "show", "transpose_naive", "--nx", "64")
    assert code == 2 and "is a group" in err


def test_source_command_puts_counters_beside_the_source(capsys):
    code, out, _ = run(capsys, "source", "transpose_smem", "--nx", "64")
    assert code == 0
    lines = out.splitlines()
    load_line = next(line for line in lines if "= sub[col][row];" in line)
    assert "global st 4B" in load_line
    shared_row = next(line for line in lines if "shared ld 4B" in line)
    assert "32.00" in shared_row and "high" in shared_row
    assert "32-way bank conflict on shared loads" in out


def test_advise_command_on_a_clean_kernel(capsys):
    code, out, _ = run(capsys, "advise", "copy_row", "--nx", "64")
    assert code == 0 and "no findings" in out


def test_compare_command(capsys):
    code, out, _ = run(capsys, "compare", "transpose_naive_row", "transpose_smem_pad", "--nx", "64")
    assert code == 0
    naive = next(line for line in out.splitlines() if "k_naiveRow" in line)
    assert "32.00" in naive and "4,608" in naive       # 512 load + 128 x 32 store sectors
    assert "compare takes catalog entries" in _compare_file_error(capsys)


def _compare_file_error(capsys) -> str:
    _, _, err = run(capsys, "compare", "tests/golden/seed_kernels.cu")
    return err


def test_speed_up_is_relative_to_the_first_predicted_time():
    def report(ns):
        metrics_ = {metrics.DURATION: ns} if ns else {}
        return KernelReport(kernel="k", grid=(1, 1, 1), block=(1, 1, 1), metrics=metrics_)
    assert compare.speedups([report(300_000), report(100_000), report(None)]) == ["1.00x", "3.00x", "-"]
    cells = compare.rows([("a", report(300_000))])[0]
    assert cells["time (us)"] == "300.0" and cells["speed-up"] == "1.00x"
