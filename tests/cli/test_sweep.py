"""`memsim sweep`: the grid of configurations, the table's best row, the same rows locally and on
a Dask LocalCluster, bad input as one line, and Ctrl-C as one line with exit status 130."""
from __future__ import annotations

import json

import pytest

from memsim.cli import commands as cli, launch_args, sweep
from memsim.cli import main
from tests.helpers import ROOT

EXAMPLE = str(ROOT / "examples" / "transpose.cu")
# Two tiny launches (n = 32: one tile): the tiled transpose with two block shapes.
TINY = ["sweep", EXAMPLE, "--kernel", "transpose_tiled", "--block", "32x8,32x16", "--param", "n=32",
        "--grid", "{n/32},{n/32}", "--arg", "float32[{n}x{n}]", "--arg", "float32[{n}x{n}]:zeros",
        "--arg", "int32:{n}", "--jobs", "1"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def parsed(*argv: str):
    return cli.build_parser().parse_args(list(argv))


# ---- the grid ---------------------------------------------------------------------------------

def test_grid_is_every_block_times_every_parameter_combination_blocks_innermost():
    points = sweep.grid_points({"n": ["64", "128"], "dtype": ["float32", "float64"]},
                               sweep.parse_blocks(["32x8,32x16", "256"]))
    assert len(points) == 2 * 2 * 3
    assert [p.block for p in points[:3]] == [(32, 8, 1), (32, 16, 1), (256, 1, 1)]
    assert points[0].params == {"n": "64", "dtype": "float32"}
    assert points[3].params == {"n": "64", "dtype": "float64"}
    assert points[-1].params == {"n": "128", "dtype": "float64"}


def test_expressions_fill_the_launch_arguments():
    values = {"n": "100", "dtype": "float64", **sweep._block_values((32, 8, 1))}
    assert sweep.substitute("{dtype}[{n}x{n}]:zeros", values) == "float64[100x100]:zeros"
    assert sweep.substitute("{n/bx},{n // by}", values) == "4,12"  # / rounds up, // down
    assert sweep.substitute("-DTILE={bx*2}", values) == "-DTILE=64"
    assert sweep.substitute("{threads}", values) == "256"


def test_file_jobs_are_built_by_clis_launch_building():
    jobs = sweep.sweep_jobs(parsed(*TINY[:-2], "--param", "m=1", "--option=-DM={m}"))
    assert [(j.point.block, j.spec.block, j.spec.grid) for j in jobs] == [
        ((32, 8, 1), (32, 8, 1), (1, 1, 1)), ((32, 16, 1), (32, 16, 1), (1, 1, 1))]
    assert [str(a) for a in jobs[0].spec.args] == ["float32[1024]:random", "float32[1024]:zeros",
                                                   "int32:32"]
    assert jobs[0].spec.options[0] == "-DM=1"
    assert "transpose_tiled" in jobs[0].spec.source  # the text travels, not the path


def test_catalog_parameters_replace_the_geometry_flags():
    jobs = sweep.sweep_jobs(parsed("sweep", "transpose_naive_row", "--block", "32x8,32x16",
                                   "--param", "nx=64,128"))
    expected = [cli.catalog.get("transpose_naive_row").launch(nx, None, block)
                for nx in (64, 128) for block in ("32,8", "32,16")]
    assert [j.spec for j in jobs] == expected


# ---- the table's best row ----------------------------------------------------------------------

def _row(n: str, block: tuple, time_us: float | None, transactions: int) -> sweep.SweepRow:
    return sweep.SweepRow(name="k", kernel="k", params={"n": n}, block=block, grid=(1, 1, 1),
                          time_us=time_us, memory_transactions=transactions)


def test_best_is_the_lowest_time_per_problem():
    rows = sweep.mark_best([_row("64", (32, 8, 1), 4.0, 10), _row("64", (32, 16, 1), 3.0, 99),
                            _row("128", (32, 8, 1), 5.0, 10), _row("128", (32, 16, 1), 6.0, 10)])
    assert [r.best for r in rows] == [False, True, True, False]
    assert [r.best for r in sweep.mark_best(rows, tune=["n"])] == [False, True, False, False]


def test_best_without_a_gpu_is_the_fewest_memory_transactions():
    rows = sweep.mark_best([_row("64", (32, 8, 1), None, 30), _row("64", (32, 16, 1), None, 20)])
    assert [r.best for r in rows] == [False, True]
    text = _text(sweep.table(rows))
    assert "global sectors + shared wavefronts" in text and "time (us)" not in text
    best_line = next(line for line in text.splitlines() if "32x16" in line)
    assert best_line.rstrip(" │").endswith("*")


def _text(table) -> str:
    from rich.console import Console

    console = Console(width=200, no_color=True, record=True)
    console.print(table)
    return console.export_text()


# ---- running it: locally and on Dask -------------------------------------------------------------

def test_sweep_prints_the_table_and_marks_the_best(capsys):
    code, out, err = run(capsys, *TINY, "--gpu", "H100")
    assert code == 0 and err == ""
    assert "sweep: 2 configurations" in out and "time (us)" in out
    assert sum(line.rstrip(" │").endswith("*") for line in out.splitlines()) == 1


def test_json_rows_equal_locally_and_on_a_dask_localcluster(capsys):
    distributed = pytest.importorskip("distributed")
    code, local, _ = run(capsys, *TINY, "--json")
    assert code == 0
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster:
        code, remote, _ = run(capsys, *TINY, "--json", "--dask", cluster.scheduler_address)
    assert code == 0
    rows = json.loads(local)
    assert len(rows) == 2 and rows[0]["st_sectors_per_request"] == 4.0
    assert sum(r["best"] for r in rows) == 1
    assert json.loads(remote) == rows


def test_a_launch_error_on_dask_is_one_line(capsys):
    distributed = pytest.importorskip("distributed")
    bad_kernel = [*TINY[:3], "k_missing", *TINY[4:]]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster:
        code, out, err = run(capsys, *bad_kernel, "--dask", cluster.scheduler_address)
    assert code == 2 and out == ""
    assert err.startswith("error: no kernel named 'k_missing'") and err.count("\n") == 1


def test_a_pool_of_two_processes_gives_the_in_process_rows():
    args = parsed(*TINY)
    jobs, options = sweep.sweep_jobs(args), launch_args.LaunchOptions.of(args)
    assert sweep.run_local(jobs, options, 2) == sweep.run_local(jobs, options, 1)


def test_plot_without_matplotlib_says_so_in_one_line(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(sweep, "plot", lambda rows, path: False)
    code, out, _ = run(capsys, *TINY, "--plot", str(tmp_path / "s.png"))
    assert code == 0 and "--plot: matplotlib is missing" in out


# ---- bad input: one line, exit 2 ---------------------------------------------------------------

BAD = [
    (["--param", "m=1,2"], "--param m: no {m} in --kernel"),
    (["--grid", "{q}"], "unknown parameter 'q'"),
    (["--block", "32x"], "bad block '32x'"),
    (["--param", "n"], "bad --param 'n'"),
    (["--param", "bx=1"], "--param bx: bx, by, bz, threads come from --block"),
    (["--tune", "z"], "--tune z: not a --param"),
]


@pytest.mark.parametrize("extra, message", BAD)
def test_bad_input_is_one_line_and_exit_2(capsys, extra, message):
    code, out, err = run(capsys, *TINY, *extra)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_unknown_catalog_parameter(capsys):
    code, _, err = run(capsys, "sweep", "transpose_naive_row", "--block", "32x8", "--param", "q=1")
    assert code == 2 and "unknown parameter 'q' for catalog entry" in err


def test_dask_without_a_scheduler_is_one_line(capsys, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(sweep, "DASK_CONNECT_TIMEOUT", "2s")
    code, _, err = run(capsys, *TINY, "--dask", "tcp://127.0.0.1:9")
    assert code == 2 and err.startswith("error: cannot reach the Dask scheduler")


# ---- Ctrl-C: one line, exit 130, no traceback ------------------------------------------------------

def _interrupt(*_args, **_kwargs):
    raise KeyboardInterrupt


def test_ctrl_c_during_a_sweep(capsys, monkeypatch):
    monkeypatch.setattr(sweep, "run_job", _interrupt)
    code, out, err = run(capsys, *TINY)
    assert code == 130 and err == "interrupted\n" and "Traceback" not in out + err


def test_ctrl_c_during_a_predict(capsys, monkeypatch):
    monkeypatch.setattr(launch_args, "compute_launch", _interrupt)
    code, _, err = run(capsys, "predict", "transpose_naive_row", "--nx", "64")
    assert code == 130 and err == "interrupted\n"


def test_ctrl_c_during_validate_run(capsys, monkeypatch):
    from validate import cli as validate_cli

    monkeypatch.setattr(validate_cli, "compare_files", _interrupt)
    code = validate_cli.main(["run", "--cases", "suite", "--filter", "nothing*"])
    _, err = capsys.readouterr()
    assert code == 130 and err == "interrupted\n"
