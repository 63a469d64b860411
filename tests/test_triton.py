"""Triton kernels in memsim (memsim.triton): unchanged @triton.jit kernels launched with numpy
arrays, results equal to numpy, counts equal to what the access pattern implies, on the Python
source lines; the CLI on a .py file of Triton kernels; one-line errors. Skipped without Triton
3.6.0 (pip install -e '.[triton]')."""
from __future__ import annotations

import importlib.metadata
import json
from pathlib import Path

import numpy as np
import pytest

from memsim import metrics as m
from memsim.cli import main
from memsim.errors import LaunchError

try:
    mt = pytest.importorskip("memsim.triton", reason="Triton 3.6.0 is not installed (pip install -e '.[triton]')")
except ImportError as exc:   # another Triton release: memsim.triton.TritonMissing
    pytest.skip(str(exc), allow_module_level=True)

import triton  # noqa: E402

from memsim.cli.launch_args import is_triton_file  # noqa: E402
from memsim.triton import _toolchain  # noqa: E402
from validate import triton_kernels as tk  # noqa: E402

KERNELS_FILE = Path(tk.__file__)
SECTOR = 32
WARP = 32


@pytest.fixture(autouse=True)
def fresh_reports():
    mt.clear_reports()
    yield


def _line_of(text: str) -> int:
    return next(i for i, line in enumerate(KERNELS_FILE.read_text().splitlines(), 1) if text in line)


def _sectors_per_warp_access(byte_addresses: np.ndarray) -> int:
    """Distinct 32-byte sectors one warp instruction touches (buffers are sector-aligned)."""
    return len(np.unique(byte_addresses // SECTOR))


@pytest.mark.parametrize("n, block", [(8192, 1024), (4000, 256)])
def test_vector_add_equals_numpy_and_reads_each_sector_once(n, block):
    """n a multiple of 16: Triton specializes on it and vectorizes (each thread's elements in
    one 16-byte access), so every sector is read once."""
    rng = np.random.default_rng(n)
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    out = np.zeros_like(x)
    tk.add_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK_SIZE=block)
    np.testing.assert_array_equal(out, x + y)
    report = mt.reports()[-1]
    assert report.block == (32 * 4, 1, 1) and report.grid == (triton.cdiv(n, block), 1, 1)
    # Contiguous float32 (4 KiB-aligned buffers): every sector of x and y once, of out once.
    assert report.metrics[m.GLOBAL_LD_SECTORS] == 2 * -(-n * 4 // SECTOR)
    assert report.metrics[m.GLOBAL_ST_SECTORS] == -(-n * 4 // SECTOR)
    assert report.source_file == str(KERNELS_FILE)
    loads = [row for row in report.lines if row.space == "global" and row.op == "ld"]
    assert {row.line for row in loads} == {_line_of("x = tl.load(x_ptr"), _line_of("y = tl.load(y_ptr")}
    assert all("tl.load" in row.source for row in loads)


def test_vector_add_of_an_odd_length_equals_numpy():
    """n = 5001: no divisibility specialization, unvectorized masked loads; still correct."""
    n = 5001
    x, y = np.arange(n, dtype=np.float32), np.ones(n, np.float32)
    out = np.zeros_like(x)
    tk.add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)
    np.testing.assert_array_equal(out, x + y)
    assert mt.reports()[-1].metrics[m.GLOBAL_LD_SECTORS] > 2 * -(-n * 4 // SECTOR)


@pytest.mark.parametrize("kernel, index", [
    (tk.row_sums_strided, lambda rows, k, n_rows: rows * 4 + k),
    (tk.row_sums_coalesced, lambda rows, k, n_rows: k * n_rows + rows),
])
@pytest.mark.parametrize("num_warps", [2, 4])
def test_row_sums_sectors_follow_the_access_pattern(kernel, index, num_warps):
    """BLOCK = 32 x num_warps: each thread owns one row, so warp w's lanes read rows
    32w..32w+31; the expected sectors per request follow from those addresses."""
    n_rows, block = 2048, WARP * num_warps
    x = np.random.default_rng(1).random(4 * n_rows, dtype=np.float32)
    out = np.zeros(n_rows, np.float32)
    kernel[(n_rows // block,)](x, out, n_rows, BLOCK=block, num_warps=num_warps)
    layout = x.reshape(n_rows, 4) if kernel is tk.row_sums_strided else x.reshape(4, n_rows).T
    np.testing.assert_allclose(out, layout.sum(axis=1), rtol=1e-6)
    warps = n_rows // WARP
    expected_sectors = sum(_sectors_per_warp_access(4 * index(np.arange(w * WARP, (w + 1) * WARP), k, n_rows))
                           for w in range(warps) for k in range(4))
    report = mt.reports()[-1]
    assert report.block == (block, 1, 1)
    assert report.metrics[m.GLOBAL_LD_REQUESTS] == 4 * warps
    assert report.metrics[m.GLOBAL_LD_SECTORS] == expected_sectors
    line = _line_of("acc += tl.load(x_ptr + rows * 4 + k" if kernel is tk.row_sums_strided
                    else "acc += tl.load(x_ptr + k * n_rows + rows")
    assert [row.line for row in report.lines if row.space == "global" and row.op == "ld"] == [line]


@pytest.mark.parametrize("num_stages", [1, 2])
def test_fused_softmax_equals_numpy(num_stages):
    """The tutorial's softmax; with num_stages 2 its loads are cp.async (LDGSTS) whose masked
    lanes zero-fill instead of reading."""
    rows, cols = 48, 781
    x = np.random.default_rng(2).standard_normal((rows, cols)).astype(np.float32)
    y = np.zeros_like(x)
    tk.softmax_kernel[(16,)](y, x, x.shape[1], y.shape[1], rows, cols, BLOCK_SIZE=triton.next_power_of_2(cols),
                             num_stages=num_stages, num_warps=8)
    expected = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(y, expected / expected.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)
    report = mt.reports()[-1]
    assert report.block == (256, 1, 1)
    # Every element of the rows is read and written once: at least that many sectors each way.
    assert report.metrics[m.GLOBAL_ST_SECTORS] >= rows * cols * 4 // SECTOR
    assert any(row.line == _line_of("tl.store(output_ptrs") for row in report.lines)


def test_layer_norm_forward_equals_numpy():
    rows, cols = 8, 700
    rng = np.random.default_rng(3)
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    w, b = rng.random(cols, dtype=np.float32), rng.random(cols, dtype=np.float32)
    y, mean, rstd = np.zeros_like(x), np.zeros(rows, np.float32), np.zeros(rows, np.float32)
    tk._layer_norm_fwd_fused[(rows,)](x, y, w, b, mean, rstd, cols, cols, 1e-5, BLOCK_SIZE=256, num_warps=4)
    expected = (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5) * w + b
    np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(mean, x.mean(1), rtol=1e-5, atol=1e-6)


def test_the_cli_runs_a_triton_file_as_python_does(capsys):
    n_rows, block = 1024, 128
    code = main(["predict", str(KERNELS_FILE), "--kernel", "row_sums_strided", "--grid", str(n_rows // block),
                 "--arg", f"float32[{4 * n_rows}]", "--arg", f"float32[{n_rows}]:zeros", "--arg", f"int32:{n_rows}",
                 "--constexpr", f"BLOCK={block}", "--num-warps", "4", "--json"])
    assert code == 0
    cli = json.loads(capsys.readouterr().out)
    cli = cli[0] if isinstance(cli, list) else cli
    x, out = np.random.default_rng(0).random(4 * n_rows, dtype=np.float32), np.zeros(n_rows, np.float32)
    tk.row_sums_strided[(n_rows // block,)](x, out, n_rows, BLOCK=block, num_warps=4)
    python = mt.reports()[-1]
    for name in (m.GLOBAL_LD_REQUESTS, m.GLOBAL_LD_SECTORS, m.GLOBAL_ST_SECTORS):
        assert cli["metrics"][name] == python.metrics[name]
    assert cli["block"] == [block, 1, 1]


def test_the_cli_tells_triton_files_from_numba_files():
    assert is_triton_file(str(KERNELS_FILE))
    assert not is_triton_file(str(KERNELS_FILE.parent / "numba_kernels.py"))


@pytest.mark.parametrize("argv, message", [
    (["--kernel", "nope", "--grid", "4", "--arg", "int32:4"], "no kernel 'nope'"),
    (["--kernel", "add_kernel", "--grid", "4", "--arg", "float32[16]"], "missing"),
    (["--kernel", "add_kernel", "--grid", "4", "--block", "64", "--arg", "float32[16]", "--arg", "float32[16]",
      "--arg", "float32[16]:zeros", "--arg", "int32:16", "--constexpr", "BLOCK_SIZE=16"], "32 x num_warps"),
])
def test_cli_mistakes_get_one_line(argv, message, capsys):
    assert main(["predict", str(KERNELS_FILE), *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


def test_arrays_that_share_memory_are_refused():
    x = np.zeros(256, np.float32)
    with pytest.raises(LaunchError, match="share memory"):
        tk.add_kernel[(1,)](x, x, x, 256, BLOCK_SIZE=256)


def test_another_triton_release_is_named(monkeypatch):
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "3.5.1")
    _toolchain.require_triton.cache_clear()
    try:
        with pytest.raises(_toolchain.TritonMissing, match="needs Triton 3.6.0 .* found 3.5.1"):
            _toolchain.require_triton()
    finally:
        monkeypatch.undo()
        _toolchain.require_triton.cache_clear()
        _toolchain.require_triton()


def test_memsim_run_runs_an_unchanged_triton_script(tmp_path, capsys):
    from memsim.run import main as run_main

    script = tmp_path / "add.py"
    script.write_text(
        "import numpy as np\nimport triton\nimport triton.language as tl\n\n"
        "@triton.jit\ndef add(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
        "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
        "    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)\n\n"
        "x = np.arange(1000, dtype=np.float32)\nout = np.zeros_like(x)\n"
        "add[(4,)](x, out, 1000, BLOCK=256)\nassert np.array_equal(out, 2 * x)\n")
    assert run_main([str(script)]) == 0
    table = capsys.readouterr().out
    assert "add" in table and "4x1x1" in table and "128x1x1" in table


def test_sweep_runs_a_triton_kernel_over_blocks_and_constexprs(capsys):
    """The block shape is 32 x num_warps threads; {EXPR} fills --constexpr as it fills --arg."""
    code = main(["sweep", str(KERNELS_FILE), "--kernel", "copy_strided", "--param", "s=1,8", "--grid", "64",
                 "--block", "64,256", "--arg", "float32[{16384*s}]", "--arg", "float32[16384]:zeros",
                 "--arg", "int32:16384", "--constexpr", "STRIDE={s}", "--constexpr", "BLOCK=256", "--jobs", "1",
                 "--json"])
    assert code == 0
    rows = json.loads(capsys.readouterr().out)
    rows = rows["rows"] if isinstance(rows, dict) else rows
    assert sorted((r["params"]["s"], r["block"][0]) for r in rows) == [("1", 64), ("1", 256), ("8", 64), ("8", 256)]
    sectors = {r["params"]["s"]: r["metrics"][m.GLOBAL_LD_SECTORS] for r in rows}
    assert sectors["8"] == 8 * sectors["1"]   # a stride of 8 floats: one sector a lane instead of an eighth
