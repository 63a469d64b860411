"""numba.cuda kernels in memsim (memsim.numba_cuda): signatures from numpy arguments, numba's
array ABI, results equal to numpy, counts on the Python source lines, the CLI on a .py file,
one-line errors, and the `numba` validation set's PTX."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import memsim
from memsim import metrics as m
from memsim.cli import main
from memsim.errors import CompileError, LaunchError
from memsim.numba_cuda import ArgType, abi_arg_specs, abi_values, arg_type, compile_kernel, is_numba_ptx
from memsim.report import KernelReport
from memsim.engine.sass.nvjitlink import link_ptx

nk = pytest.importorskip("validate.numba_kernels")
KERNELS_FILE = Path(nk.__file__)
F1 = ArgType(dtype="float32", ndim=1)


@pytest.fixture(scope="module", autouse=True)
def numba_compiles():
    """numba.cuda needs NVVM (a CUDA toolkit's libnvvm) to compile; without it, skip."""
    try:
        compile_kernel(nk.k_vector_add, (F1, F1, F1))
    except CompileError as exc:
        pytest.skip(f"numba.cuda cannot compile here: {exc}")


def _line_of(text: str) -> int:
    """1-based line of numba_kernels.py holding `text`."""
    return next(i for i, line in enumerate(KERNELS_FILE.read_text().splitlines(), 1) if text in line)


# ---- signatures and the array ABI ------------------------------------------------------------

def test_signature_from_numpy_arguments():
    kinds = [arg_type(p, v) for p, v in enumerate(
        [np.zeros(4, np.float32), np.zeros((2, 3), np.float64), np.int32(1), np.float32(2), 3, 4.0, True])]
    assert kinds == [ArgType(dtype="float32", ndim=1), ArgType(dtype="float64", ndim=2),
                     ArgType(dtype="int32"), ArgType(dtype="float32"), ArgType(dtype="int64"),
                     ArgType(dtype="float64"), ArgType(dtype="bool")]
    assert [str(k.numba_type()) for k in kinds] == [
        "array(float32, 1d, C)", "array(float64, 2d, C)", "int32", "float32", "int64", "float64", "bool"]


def test_array_abi_is_numbas_struct_flattened():
    a = np.zeros((3, 5), np.float32)
    values = abi_values(0, a)
    assert values[4] is a
    assert [int(v) for i, v in enumerate(values) if i != 4] == [0, 0, 15, 4, 3, 5, 20, 4]
    specs, kinds = abi_arg_specs(["float32[3x5]:zeros", "int32:7"])
    assert [str(s) for s in specs] == ["int64:0", "int64:0", "int64:15", "int64:4", "float32[15]:zeros",
                                       "int64:3", "int64:5", "int64:20", "int64:4", "int32:7"]
    assert kinds == [ArgType(dtype="float32", ndim=2), ArgType(dtype="int32")]


@pytest.mark.parametrize("value, message", [
    ([1.0, 2.0], "argument 1 is a list: memsim passes numpy arrays"),
    (np.complex64(1), "argument 1 has dtype complex64"),
    (np.zeros((4, 4), np.float32)[:, ::2], "argument 1 is a non-contiguous array"),
    (np.zeros((), np.float32), "argument 1 is a 0-d array"),
])
def test_unsupported_arguments_are_one_line_errors(value, message):
    x = np.zeros(8, np.float32)
    with pytest.raises(LaunchError, match=message) as caught:
        memsim.simulate(nk.k_saxpy, 1, 32, [np.float32(1), value, x])
    assert "\n" not in str(caught.value)


def test_canonical_ptx_is_the_same_in_every_compile():
    """numba's mangled names carry a per-process counter; the canonical PTX names the entry after
    the Python function and has none, so the GPU side can link the very text memsim ran."""
    first = compile_kernel(nk.k_stencil_1d, (F1, F1)).ptx
    from memsim.numba_cuda import _compile
    again = _compile.__wrapped__(nk.k_stencil_1d.py_func, tuple(t.model_dump_json() for t in (F1, F1)),
                                 False, True).ptx
    assert first == again and is_numba_ptx(first)
    assert ".entry k_stencil_1d(" in first and "_ZN" not in first.split(".section")[0]


# ---- results and counts ----------------------------------------------------------------------

def test_vector_add_equals_numpy_on_the_sass_engine():
    rng = np.random.default_rng(0)
    a, b = rng.random(1000, np.float32), rng.random(1000, np.float32)
    out = np.zeros_like(a)
    report = memsim.simulate(nk.k_vector_add, 4, 256, [a, b, out])
    np.testing.assert_array_equal(out, a + b)
    assert report.engine == "sass" and report.kernel == "k_vector_add"
    assert report.nvrtc_version.startswith("numba ")
    assert report.metrics[m.GLOBAL_LD_SECTORS] == 2 * 1000 * 4 // 32
    assert report.metrics[m.GLOBAL_ST_SECTORS] == 1000 * 4 // 32


def test_tiled_transpose_of_2d_arrays_equals_numpy_without_bank_conflicts():
    a = np.random.default_rng(1).random((64, 96), np.float32)
    out = np.zeros((96, 64), np.float32)
    report = memsim.simulate(nk.k_transpose_tiled, (3, 2), (32, 32), [a, out])
    np.testing.assert_array_equal(out, a.T)
    shared = [row for row in report.lines if row.space == "shared"]
    assert shared and all(row.bank_conflicts == 0 for row in shared)


def test_shared_reduction_and_atomics_equal_numpy():
    x = np.random.default_rng(2).integers(0, 4, 4096).astype(np.float32)
    total = np.zeros(1, np.float32)
    memsim.simulate(nk.k_sum_shared, 16, nk.BLOCK, [x, total])
    assert total[0] == x.sum()
    values = np.random.default_rng(3).random(2048, dtype=np.float32)
    bins = np.zeros(nk.NBINS, np.int32)
    memsim.simulate(nk.k_histogram, 8, 256, [values, bins])
    np.testing.assert_array_equal(bins, np.bincount((values * nk.NBINS).astype(np.int32), minlength=nk.NBINS))


def test_naive_matmul_equals_numpy():
    rng = np.random.default_rng(4)
    a, b = rng.random((32, 48), np.float32), rng.random((48, 64), np.float32)
    c = np.zeros((32, 64), np.float32)
    memsim.simulate(nk.k_matmul_naive, (2, 4), (32, 8), [a, b, c])
    np.testing.assert_allclose(c, a @ b, rtol=1e-5)


def test_report_lines_are_the_python_source_lines():
    a = np.random.default_rng(5).random((64, 64), np.float32)
    out = np.zeros_like(a)
    report = memsim.simulate(nk.k_transpose_naive, (2, 8), (32, 8), [a, out])
    line = _line_of("out[x, y] = a[y, x]")
    rows = {(r.space, r.op): r for r in report.lines}
    assert rows[("global", "ld")].line == line and rows[("global", "st")].line == line
    assert rows[("global", "st")].source.strip() == "out[x, y] = a[y, x]"
    assert rows[("global", "st")].sectors_per_request == 32 and rows[("global", "ld")].sectors_per_request == 4
    assert report.source_file == str(KERNELS_FILE)


# ---- the CLI on a .py file -------------------------------------------------------------------

KERNEL_PY = '''\
from numba import cuda


@cuda.jit
def scale(x, out, factor):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * factor
'''


def test_cli_predicts_a_kernel_of_a_python_file(tmp_path, capsys):
    path = tmp_path / "kernels.py"
    path.write_text(KERNEL_PY)
    code = main(["predict", str(path), "--kernel", "scale", "--grid", "2", "--block", "128",
                 "--arg", "float32[256]", "--arg", "float32[256]:zeros", "--arg", "float32:2", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    (report,) = [KernelReport.model_validate(item) for item in json.loads(out)]
    assert report.engine == "sass" and report.kernel == "scale"
    assert report.metrics[m.GLOBAL_LD_SECTORS] == 256 * 4 // 32
    (store,) = [r for r in report.lines if r.op == "st"]
    assert store.line == 8 and store.source.strip() == "out[i] = x[i] * factor"


@pytest.mark.parametrize("argv, message", [
    (["--kernel", "nope", "--arg", "float32[8]"], "error: no kernel 'nope' in "),
    (["--kernel", "scale", "--arg", "float32[8]"], "error: numba could not compile scale("),
    (["--kernel", "scale", "--arg", "float32[2x4]", "--arg", "float32[8]", "--arg", "float32:2"],
     "error: numba could not compile scale(array(float32, 2d, C), "),
    (["--kernel", "scale", "--arg", "float32[8]", "--arg", "float32[8]", "--arg", "float32:2",
      "--option=-O3"], "error: --option and -I apply to CUDA C"),
])
def test_cli_errors_on_python_files_are_one_line(tmp_path, capsys, argv, message):
    path = tmp_path / "kernels.py"
    path.write_text(KERNEL_PY)
    code = main(["predict", str(path), "--grid", "1", "--block", "32", *argv])
    _, err = capsys.readouterr()
    assert code == 2 and err.startswith(message) and err.count("\n") == 1


# ---- the numba validation set ----------------------------------------------------------------

def test_kept_ptx_is_what_numba_compiles_now():
    """validate/numba_ptx holds the PTX the GPU links: rewrite it after changing a kernel
    (python -m validate.numba_cases)."""
    from validate import numba_cases

    fresh = numba_cases.fresh_ptx()
    stale = sorted(k for k, ptx in fresh.items() if ptx != numba_cases.kernel_ptx(k))
    assert not stale, f"stale PTX of {stale}: run python -m validate.numba_cases"
    assert len(numba_cases.numba_cases()) >= 12


def test_gpu_side_loads_the_cubin_memsim_links(monkeypatch):
    """gpu/launch.py gives CuPy the cubin nvJitLink makes of the case's PTX (not the PTX)."""
    from gpu import launch
    from validate import numba_cases

    case = next(c for c in numba_cases.numba_cases() if c.name == "nb_saxpy")
    loaded = {}

    class Module:
        def __init__(self, path=None, **kwargs):
            loaded.update(cubin=Path(path).read_bytes(), kwargs=kwargs)

        def get_function(self, name):
            loaded["name"] = name

    monkeypatch.setattr(launch, "require_cupy", lambda: None)
    launch._module(type("FakeCupy", (), {"RawModule": Module}), case.spec)
    assert loaded == {"cubin": link_ptx(case.spec.source), "kwargs": {}, "name": "k_saxpy"}
