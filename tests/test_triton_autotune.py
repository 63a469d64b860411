"""@triton.autotune on memsim: `memsim sweep FILE --kernel k` (or --autotune) makes one row per
triton.Config of the kernel's list, each equal to a separate launch of that config; launched
from Python, the Autotuner times each config by memsim's prediction (on copies of the arrays)
and runs the cheapest, saying so in one line. Skipped without Triton 3.6.0."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from memsim import metrics as m
from memsim.cli import main

try:
    mt = pytest.importorskip("memsim.triton", reason="Triton 3.6.0 is not installed (pip install -e '.[triton]')")
except ImportError as exc:
    pytest.skip(str(exc), allow_module_level=True)

import triton  # noqa: E402

from memsim.triton._autotune import autotune_configs, cost  # noqa: E402

FILE = Path(__file__).parents[1] / "examples" / "triton_autotune.py"
N = 8192
LAUNCH = {"scale_rows": ["--grid", f"{{{N}/BLOCK}}", "--arg", f"float32[{N}]", "--arg", f"float32[{N}]:zeros",
                         "--arg", f"int32:{N}", "--arg", "float32:2.0"],
          "scale_by_table_sum": ["--grid", f"{{{N}/BLOCK}}", "--arg", f"float32[{N}]", "--arg", "float32[256]",
                                 "--arg", f"float32[{N}]:zeros", "--arg", f"int32:{N}", "--constexpr", "TABLE=256"]}


@pytest.fixture(scope="module")
def examples():
    sys.path.insert(0, str(FILE.parent))
    import triton_autotune
    yield triton_autotune
    sys.path.remove(str(FILE.parent))


def _json(capsys, argv: list[str]):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("kernel", sorted(LAUNCH))
@pytest.mark.parametrize("flag", [[], ["--autotune"]])
def test_each_config_is_a_row_equal_to_its_own_launch(capsys, kernel, flag):
    rows = _json(capsys, ["sweep", str(FILE), "--kernel", kernel, *LAUNCH[kernel], *flag, "--json", "--jobs", "1"])
    configs = autotune_configs(str(FILE), kernel)
    assert len(rows) == len(configs) >= 3
    for row, config in zip(rows, configs):
        block = config.constexprs["BLOCK"]
        alone = [a.replace("{%d/BLOCK}" % N, str(N // block)) for a in LAUNCH[kernel]]
        [report] = _json(capsys, ["predict", str(FILE), "--kernel", kernel, *alone, "--constexpr", f"BLOCK={block}",
                                  "--num-warps", str(config.num_warps), "--num-stages", str(config.num_stages), "--json"])
        assert row["params"] == {"BLOCK": str(block), "num_warps": str(config.num_warps),
                                 "num_stages": str(config.num_stages)}
        assert tuple(row["block"]) == (32 * config.num_warps, 1, 1) == tuple(report["block"])
        assert {k: row["metrics"][k] for k in m.EXACT} == {k: report["metrics"][k] for k in m.EXACT}
    assert sum(r["best"] for r in rows) == 1


def test_the_python_autotuner_runs_the_config_memsim_predicts_cheapest(capsys, examples):
    x = np.random.default_rng(0).random(N, dtype=np.float32)
    table = np.random.default_rng(1).random(256, dtype=np.float32)
    out = np.zeros_like(x)
    mt.clear_reports()
    kernel = examples.scale_by_table_sum
    kernel[lambda meta: (triton.cdiv(N, meta["BLOCK"]),)](x, table, out, N, TABLE=256)
    np.testing.assert_allclose(out, x * table.sum(dtype=np.float32), rtol=1e-5)
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and "chose BLOCK: 1024" in said[0]   # in one line
    [kept] = mt.reports()    # the configs' trial runs are not kept
    rows = _json(capsys, ["sweep", str(FILE), "--kernel", "scale_by_table_sum", *LAUNCH["scale_by_table_sum"],
                          "--json", "--jobs", "1"])
    best = next(r for r in rows if r["best"])
    assert kernel.best_config.kwargs["BLOCK"] == int(best["params"]["BLOCK"])
    assert kept.block == tuple(best["block"]) and cost(kept) == min(r["memory_transactions"] for r in rows)
    assert len(rows) > 1 and len({r["memory_transactions"] for r in rows}) > 1   # a real choice
    kernel[lambda meta: (triton.cdiv(N, meta["BLOCK"]),)](x, table, out, N, TABLE=256)
    assert capsys.readouterr().err == "" and len(mt.reports()) == 2   # tuned once per key


def test_the_trial_runs_leave_the_arrays_alone(examples):
    x = np.arange(N, dtype=np.float32)
    out = np.full(N, -1.0, np.float32)
    before = out.copy()
    examples.scale_rows.cache.clear()
    examples.scale_rows.run(x, out, N, 2.0, grid=lambda meta: (triton.cdiv(N, meta["BLOCK"]),), warmup=False)
    np.testing.assert_array_equal(out, x * 2)   # written once, by the chosen config
    assert not np.array_equal(before, out)


@pytest.mark.parametrize("kernel, extra, says", [
    ("scale_rows", ["--block", "128"], "drop --block"),
    ("scale_rows", ["--constexpr", "BLOCK=64"], "drop BLOCK"),
])
def test_autotune_conflicts_are_one_line(capsys, kernel, extra, says):
    assert main(["sweep", str(FILE), "--kernel", kernel, *LAUNCH[kernel], "--autotune", *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert says in err and len(err.splitlines()) == 1


def test_autotune_on_a_plain_kernel_is_one_line(capsys):
    plain = Path(__file__).parents[1] / "validate" / "triton_kernels.py"
    argv = ["sweep", str(plain), "--kernel", "add_kernel", "--grid", "4", "--arg", "float32[4096]", "--arg",
            "float32[4096]", "--arg", "float32[4096]:zeros", "--arg", "int32:4096", "--constexpr", "BLOCK_SIZE=1024",
            "--autotune"]
    assert main(argv) == 2
    assert "not wrapped in @triton.autotune" in capsys.readouterr().err


def test_memsim_picks_what_the_h100_s_autotuner_picked_where_traffic_decides(examples):
    """scale_by_table_sum: Triton's autotuner on the H100 (validate/data/h100/
    triton_autotune_choice.json, gpu/autotune_choice.py) kept BLOCK=1024, as memsim does."""
    recorded = json.loads((FILE.parents[1] / "validate" / "data" / "h100" / "triton_autotune_choice.json").read_text())
    kernel = examples.scale_by_table_sum
    kernel.cache.clear()
    x, table, out = np.ones(N, np.float32), np.ones(256, np.float32), np.zeros(N, np.float32)
    kernel[lambda meta: (triton.cdiv(N, meta["BLOCK"]),)](x, table, out, N, TABLE=256)
    assert recorded["scale_by_table_sum"]["best"] == str(kernel.best_config)


def test_uninstall_gives_the_autotuner_back_to_triton():
    from triton.runtime.autotuner import Autotuner

    mt.uninstall()
    try:
        assert Autotuner._bench.__module__ == Autotuner.run.__module__ == "triton.runtime.autotuner"
    finally:
        mt.install()
    assert Autotuner._bench.__module__ == "memsim.triton._launcher"
