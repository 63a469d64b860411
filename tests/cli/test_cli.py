"""`memsim list` / `memsim predict`, and the tables, CSV and JSON behind them."""
from __future__ import annotations

import csv
import dataclasses
import io
import json
import subprocess
import sys

import pytest
from rich.console import Console

from memsim import catalog, metrics as m
from memsim.views import render
from memsim.cli import main
from memsim.compiler.nvrtc import compile_cuda
from memsim.report import KernelReport, LineCounters
from tests.helpers import GOLDEN

SEED_FILE = str(GOLDEN / "seed_kernels.cu")
ADD2 = ["--kernel", "k_add2", "--grid", "4", "--block", "32"]
ADD2_ARGS = ["--arg", "float32[160]", "--arg", "f32[160]:ones", "--arg", "float32[160]:zeros"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---- list -----------------------------------------------------------------------------------

def test_list_shows_every_entry_and_group(capsys):
    code, out, err = run(capsys, "list")
    assert code == 0 and err == ""
    for name in catalog.names() + list(catalog.groups()):
        assert name in out
    assert "nx=1024 ny=2048 float32 block 32,16" in out  # the rect tile's default geometry


# ---- user mistakes: one line on stderr, exit 2 ---------------------------------------------

BAD_INPUTS = [
    (["predict", "no_such_kernel"], "unknown catalog kernel or group 'no_such_kernel'"),
    (["predict", "transpose_smme"], "did you mean transpose_smem"),
    (["predict", "copy_row", "--block", "a,b"], "bad block 'a,b'"),
    (["predict", "copy_row", "--block", "64,64"], "too large"),
    (["predict", "copy_row", "--dtype", "complex"], "unknown type 'complex'"),
    (["predict", "transpose_smem", "--nx", "100"], "transpose_smem: needs nx divisible by the tile edge 32"),
    (["predict", "copy_row", "--arg", "int32:1"], "--arg: for a .cu/.ptx file only"),
    (["predict", "missing.cu", *ADD2], "no such file: missing.cu"),
    (["predict", SEED_FILE, "--grid", "4"], "a kernel file needs --kernel, --block"),
    (["predict", SEED_FILE, "--kernel", "k_add2", "--grid", "a,b", "--block", "32"], "bad grid 'a,b'"),
    (["predict", SEED_FILE, *ADD2, "--arg", "float32[abc]"], "bad argument 'float32[abc]'"),
    (["predict", SEED_FILE, *ADD2, "--arg", "float32[16]"], "takes 3 arguments, got 1"),
    (["predict", SEED_FILE, *ADD2, *ADD2_ARGS, "--check"], "--check needs a catalog entry"),
    (["predict", SEED_FILE, *ADD2, *ADD2_ARGS, "--nx", "64"], "--nx, --ny and --dtype apply to catalog"),
    (["predict", SEED_FILE, "--kernel", "k_nope", "--grid", "4", "--block", "32"], "no kernel named 'k_nope'"),
]


@pytest.mark.parametrize("argv,message", BAD_INPUTS, ids=[" ".join(a[1:3]) for a, _ in BAD_INPUTS])
def test_bad_input_is_one_error_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("error: ") and err.count("\n") == 1
    assert message in err


@pytest.mark.parametrize("argv", [["predict"], ["predict", "copy_row", "--nx", "x"],
                                  ["predict", "copy_row", "--json", "--csv"], ["nonsense"]])
def test_usage_errors_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_installed_entry_point_reports_without_traceback():
    result = subprocess.run([sys.executable, "-m", "memsim.cli", "predict", "transpose_smem", "--nx", "100"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "error: transpose_smem: needs nx divisible by the tile edge 32 (got nx=100)"]


def test_help_documents_the_argument_syntax(capsys):
    with pytest.raises(SystemExit):
        main(["predict", "--help"])
    out = capsys.readouterr().out
    assert "float32[4096]:zeros" in out and "randint(LO,HI)" in out and "int32:4096" in out


# ---- render, from a hand-built report -------------------------------------------------------

def hand_report() -> KernelReport:
    """A transpose through an unpadded shared tile: strided global loads, conflicted shared loads."""
    lines = [
        LineCounters(line=5, source="sub[row][col] = a[i];", space="global", op="ld", width=4,
                     instructions=1, executed=8, requests=8, sectors=256, ideal_sectors=32, bytes=1024),
        LineCounters(line=5, source="sub[row][col] = a[i];", space="shared", op="st", width=4,
                     instructions=1, executed=8, requests=8, wavefronts=8, ideal_wavefronts=8, bytes=1024),
        LineCounters(line=7, source="c[j] = sub[col][row];", space="shared", op="ld", width=4,
                     instructions=1, executed=8, requests=8, wavefronts=256, ideal_wavefronts=8, bytes=1024),
    ]
    metrics = {m.GLOBAL_LD_REQUESTS: 8, m.GLOBAL_LD_SECTORS: 256, m.GLOBAL_LD_IDEAL_SECTORS: 32,
               m.INST_SHARED_LD: 8, m.SHARED_LD_WAVEFRONTS: 256, m.SHARED_LD_IDEAL_WAVEFRONTS: 8,
               m.INST_SHARED_ST: 8, m.SHARED_ST_WAVEFRONTS: 8, m.SHARED_ST_IDEAL_WAVEFRONTS: 8,
               m.DRAM_READ: 4096}
    return KernelReport(kernel="k_tile", grid=(2, 2, 1), block=(32, 8, 1), metrics=metrics, lines=lines)


def test_access_summary_derives_efficiency_and_conflicts():
    rows = dict(render.access_summary(hand_report()))
    assert list(rows) == ["global loads", "shared loads", "shared stores"]  # no global stores ran
    loads = rows["global loads"]
    assert loads.sectors_per_request == 32 and loads.ideal_sectors_per_request == 4
    assert loads.coalescing_efficiency == pytest.approx(0.125)
    assert rows["shared loads"].bank_conflicts == 248 and rows["shared stores"].bank_conflicts == 0


def test_line_cells_mark_columns_that_do_not_apply():
    global_load, _, shared_load = (render.line_cells(r) for r in hand_report().lines)
    assert global_load["sectors/req"] == "32.00" and global_load["efficiency"] == "12.5%"
    assert global_load["wavefronts"] == "-" and global_load["conflicts"] == "-"
    assert shared_load["sectors"] == "-" and shared_load["wavefronts/req"] == "32.00"
    assert shared_load["conflicts"] == "248" and shared_load["source"] == "c[j] = sub[col][row];"


def test_tables_label_provenance_and_keep_source_brackets():
    console = Console(file=io.StringIO(), width=250, no_color=True)
    for part in render.kernel_tables(hand_report(), "transpose_smem", "float32"):
        console.print(part)
    text = console.file.getvalue()
    assert "transpose_smem (k_tile)" in text
    assert "exact" in text and "unchecked" in text and "modeled" in text  # DRAM is modeled
    assert "sub[col][row]" in text  # not swallowed as rich markup
    assert m.DRAM_READ in text


def test_csv_is_one_row_per_kernel_per_metric():
    report = hand_report()
    stream = io.StringIO()
    render.write_csv([report, report], ["a", "b"], stream)
    rows = list(csv.DictReader(io.StringIO(stream.getvalue())))
    assert len(rows) == 2 * len(report.metrics)
    first = next(r for r in rows if r["metric"] == m.GLOBAL_LD_SECTORS and r["name"] == "a")
    assert first["value"] == "256" and first["provenance"] == "exact" and first["block"] == "32x8x1"
    assert next(r for r in rows if r["metric"] == m.DRAM_READ)["provenance"] == "modeled"


def test_json_round_trips_as_kernel_reports():
    report = hand_report()
    parsed = [KernelReport.model_validate(item) for item in json.loads(render.reports_json([report]))]
    assert parsed == [report]


# ---- predict, through the simulator ----------------------------------------------------------

def test_predict_group_as_json_parses_as_kernel_reports(capsys):
    code, out, err = run(capsys, "predict", "transpose_tile", "--nx", "64", "--json", "--check")
    assert code == 0
    reports = [KernelReport.model_validate(item) for item in json.loads(out)]
    assert [r.kernel for r in reports] == ["k_smemTile", "k_smemTilePad"]
    conflicts = [r.metrics[m.SHARED_LD_WAVEFRONTS] / r.metrics[m.INST_SHARED_LD] for r in reports]
    assert conflicts == [32, 1]  # seed 004: the padding removes the 32-way conflict
    assert err.count("check passed") == 2  # checks go to stderr when stdout is JSON


def test_predict_table_shows_headline_and_lines(capsys):
    code, out, _ = run(capsys, "predict", "add_misaligned", "--nx", "128", "--check")
    assert code == 0
    assert "check passed: add_misaligned" in out
    assert "global loads" in out and "5.00" in out and "80.0%" in out  # 5 sectors where 4 would do
    assert "z[n] = x[n] + y[n];" in out  # the per-line table quotes the source


def test_predict_csv(capsys):
    code, out, _ = run(capsys, "predict", "copy", "--nx", "64", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and {r["name"] for r in rows} == {"copy_row", "copy_col"}
    sectors = {r["name"]: float(r["value"]) for r in rows if r["metric"] == m.GLOBAL_LD_SECTORS}
    assert sectors == {"copy_row": 512, "copy_col": 4096}


@pytest.mark.parametrize("suffix", [".cu", ".ptx"])
def test_predict_any_kernel_file(capsys, tmp_path, suffix):
    source = (GOLDEN / "seed_kernels.cu").read_text()
    path = tmp_path / f"kernels{suffix}"
    path.write_text(compile_cuda(source).ptx if suffix == ".ptx" else source)
    code, out, _ = run(capsys, "predict", str(path), *ADD2, *ADD2_ARGS, "--json")
    assert code == 0
    (report,) = [KernelReport.model_validate(item) for item in json.loads(out)]
    assert report.kernel == "k_add2" and report.grid == (4, 1, 1)
    assert report.metrics[m.GLOBAL_LD_SECTORS] == 2 * 4 * 5


def test_failed_check_exits_1(capsys, monkeypatch):
    entry = catalog.get("copy_row")
    monkeypatch.setitem(catalog.entries.ENTRIES, "copy_row",
                        dataclasses.replace(entry, expect=catalog.layouts.transpose_row_reference))
    code, out, _ = run(capsys, "predict", "copy_row", "--nx", "32", "--ny", "16", "--check")
    assert code == 1
    assert "check FAILED: copy_row argument 1" in out
