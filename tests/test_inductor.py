"""torch.compile's generated kernels on memsim (memsim.triton's Inductor runner): the H100's
recording of every Triton launch of validate/inductor/*.py (Inductor's output code of 7
functions, written on the GPU machine by gpu/inductor_functions.py) is held exactly, this
machine compiles the same SASS (the `sass:` digests), the graphs compute what torch computes,
and `memsim predict FILE --inductor` lists the launches. Skipped without torch and Triton 3.6.0."""
from __future__ import annotations

import json
import os

import pytest

import memsim
from memsim import metrics as m

try:
    pytest.importorskip("memsim.triton", reason="Triton 3.6.0 is not installed (pip install -e '.[triton]')")
except ImportError as exc:   # another Triton release
    pytest.skip(str(exc), allow_module_level=True)
torch = pytest.importorskip("torch", reason="Inductor's output code runs Inductor's own code: torch is not installed")

from memsim.cli.commands import main  # noqa: E402
from memsim.triton import run_output_code  # noqa: E402
from validate import record as rec  # noqa: E402
from validate.inductor_cases import FOLDER, inductor_cases, output_code_files  # noqa: E402

RECORDED = {c.name: c for c in rec.load(rec.DATA_DIR / "h100" / "inductor.json").cases}


@pytest.fixture(scope="module")
def cases():
    return {c.name: c for c in inductor_cases()}


def _digest(tags: list[str]) -> list[str]:
    return [t for t in tags if t.startswith("sass:")]


def test_the_recording_covers_every_launch_and_was_the_same_compile(cases):
    assert len(RECORDED) >= 8 and set(RECORDED) == set(cases)
    assert {t.split(":")[1] for c in RECORDED.values() for t in c.tags if t.startswith("function:")} == \
        {p.stem for p in output_code_files()}
    assert all(_digest(cases[n].tags) == _digest(RECORDED[n].tags) for n in RECORDED)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_exact_counters_equal_the_h100(name, cases):
    report, _ = memsim.simulate_spec(cases[name].spec)
    measured = RECORDED[name].metrics
    differ = {k: (report.metrics[k], measured[k]) for k in m.EXACT if report.metrics[k] != measured[k]}
    assert not differ, f"predicted vs measured: {differ}"


def test_the_files_were_written_on_the_gpu_by_the_pinned_releases():
    versions = json.loads((FOLDER / "versions.json").read_text())
    assert versions["triton"] == memsim.triton.TRITON_RELEASE and "H100" in versions["device"]
    assert versions["torch"].split("+")[0] == torch.__version__.split("+")[0]


def _eager(name: str, inputs: list):
    """What each graph computes (gpu/inductor_functions.py's functions), in torch on the CPU."""
    F = torch.nn.functional
    x = inputs
    return {"softmax": lambda: (torch.softmax(x[0], -1),),
            "layer_norm": lambda: (F.layer_norm(x[0], (x[0].shape[-1],), x[1], x[2], 1e-5),),
            "column_sum": lambda: (x[0].sum(0),),
            "transpose_copy": lambda: (x[0].t().contiguous(),),
            "embedding": lambda: (F.embedding(x[0], x[1]),)}[name]()


@pytest.mark.parametrize("name", ["softmax", "layer_norm", "column_sum", "transpose_copy", "embedding"])
def test_the_graph_computes_what_torch_computes(name):
    run = run_output_code(str(FOLDER / f"{name}.py"))
    assert all(one.report is not None and one.report.kernel == one.kernel for one in run.launches)
    for got, want in zip(run.outputs, _eager(name, run.inputs)):
        torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-5)


def test_an_extern_kernel_is_listed_and_run_by_torch():
    run = run_output_code(str(FOLDER / "gelu_linear.py"))
    assert [(one.kernel, one.extern) for one in run.launches] == \
        [("extern_kernels.mm", True), ("triton_poi_fused_add_gelu_0", False)]
    x, w, b = run.inputs
    torch.testing.assert_close(run.outputs[0], torch.nn.functional.gelu(x @ w + b), rtol=1e-4, atol=1e-4)
    assert run.launches[0].report is None and run.launches[1].report is not None


def test_inductor_s_environment_does_not_leak_into_memsim_triton():
    before = {k: os.environ.get(k) for k in ("TRITON_PTXAS_PATH", "TRITON_CACHE_DIR")}
    run_output_code(str(FOLDER / "transpose_copy.py"), simulate=False)
    assert {k: os.environ.get(k) for k in before} == before


def test_the_cli_lists_one_row_per_launch(capsys):
    assert main(["predict", str(FOLDER / "column_sum.py"), "--inductor", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["kernel"] for r in rows] == ["triton_red_fused_sum_0", "triton_per_fused_sum_1"]
    run = run_output_code(str(FOLDER / "column_sum.py"))
    for row, one in zip(rows, run.launches):
        assert tuple(row["grid"]) == one.grid and row["constexprs"] == one.constexprs
        assert row["report"]["metrics"][m.GLOBAL_LD_SECTORS] == one.report.metrics[m.GLOBAL_LD_SECTORS]
    assert main(["predict", str(FOLDER / "column_sum.py"), "--inductor"]) == 0
    table = capsys.readouterr().out
    assert "triton_per_fused_sum_1" in table and "by source line" in table


def test_output_code_without_inductor_says_to_add_it(capsys):
    argv = ["predict", str(FOLDER / "softmax.py"), "--kernel", "triton_per_fused__softmax_exp_prepare_softmax_online_sub_0",
            "--grid", "1", "--arg", "float32[4]"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "--inductor" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("argv, says", [
    (["--inductor", "--grid", "4"], "drop --grid"),
    (["--inductor"], "not Inductor output code"),
])
def test_bad_input_is_one_line(tmp_path, capsys, argv, says):
    plain = tmp_path / "plain.py"
    plain.write_text("x = 1\n")
    assert main(["predict", str(plain), *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert says in err and len(err.splitlines()) == 1


def test_several_configs_run_each_and_keep_the_cheapest():
    """Under Inductor's defaults the embedding kernel has 6 configs (the GPU timed them, the
    recording holds their times): memsim simulates each, keeps the one it predicts cheapest, and
    the graph still computes the embedding."""
    from memsim.triton._autotune import cost
    from validate.inductor_cases import DEFAULTS

    run = run_output_code(str(DEFAULTS / "embedding.py"))
    [one] = run.launches
    assert one.configs == len(one.candidates) == len(one.costs) == 6
    assert one.costs == [cost(memsim.simulate_spec(c.spec)[0]) for c in one.candidates]
    best = one.candidates[one.costs.index(min(one.costs))]
    assert (one.constexprs, one.num_warps, one.grid) == (best.constexprs, best.num_warps, best.grid)
    torch.testing.assert_close(run.outputs[0], torch.nn.functional.embedding(*run.inputs))
    timed = json.loads((DEFAULTS / "autotune_timings.json").read_text())[one.kernel]
    assert [(t["constexprs"], t["num_warps"], t["num_stages"]) for t in timed] == \
        [(c.constexprs, c.num_warps, c.num_stages) for c in one.candidates]   # Inductor's list on the GPU too
