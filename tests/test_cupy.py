"""memsim.cupy mirrors the CuPy surface a kernel script uses, and python -m memsim.run runs one.

Every launch is a real memsim.simulate: the arrays must equal numpy's result and each launch must
leave its KernelReport, with the counts memsim.simulate gives for the same launch.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import memsim
import memsim.cupy as cp
from memsim.errors import LaunchError, MemsimError
from memsim.run import main as run_main

ROOT = Path(__file__).resolve().parent.parent
SOURCE = r'''
extern "C" __global__ void axpy(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void column_copy(const int* in, int* out, int n) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    for (int c = 0; c < n; ++c) out[r * n + c] = in[r * n + c];
}
template <int STEP>
__global__ void scale(double* v, double s, long long n) {
    long long i = (long long)blockIdx.x * STEP + threadIdx.x;
    if (i < n) v[i] *= s;
}
'''


@pytest.fixture(autouse=True)
def fresh_reports():
    cp.clear_reports()
    yield
    cp.clear_reports()


@pytest.mark.parametrize("n, a", [(256, np.float32(2.5)), (100, np.float32(-1.0))])
def test_axpy_script_computes_numpys_result_and_reports_the_launch(n, a):
    x_host = np.random.default_rng(n).random(n, dtype=np.float32)
    x, y = cp.asarray(x_host), cp.ones(n, dtype=cp.float32)
    kernel = cp.RawKernel(SOURCE, "axpy")
    kernel(((n + 127) // 128,), (128,), (x, y, a, n))   # n: a Python int, as CuPy allows
    np.testing.assert_allclose(cp.asnumpy(y), a * x_host + 1, rtol=1e-6)
    [report] = cp.reports()
    assert (report.kernel, report.grid, report.block) == ("axpy", ((n + 127) // 128, 1, 1), (128, 1, 1))
    direct = memsim.simulate(SOURCE, "axpy", ((n + 127) // 128,), (128,),
                             [x_host.copy(), np.ones(n, np.float32), a, np.int32(n)])
    assert report.metrics == direct.metrics


def test_each_launch_leaves_one_report_and_clear_forgets_them():
    n = 32
    source, out = cp.arange(n * n, dtype=cp.int32), cp.zeros(n * n, dtype=cp.int32)
    kernel = cp.RawKernel(SOURCE, "column_copy")
    for _ in range(3):
        kernel((1,), (n,), (source, out, np.int32(n)))
    assert np.array_equal(out.get(), np.arange(n * n))
    assert [r.kernel for r in cp.reports()] == ["column_copy"] * 3
    # each thread walks its own row: 32 sectors per request, the strided pattern memsim counts
    assert cp.reports()[0].lines[0].sectors_per_request == 32
    cp.clear_reports()
    assert cp.reports() == []


def test_raw_module_name_expressions_run_a_template_kernel():
    n = 1000
    v = cp.arange(n, dtype=cp.float64)
    module = cp.RawModule(code=SOURCE, name_expressions=["scale<256>"], options=("-DUNUSED=1",))
    module.get_function("scale<256>")(((n + 255) // 256,), (256,), (v, 3.0, n))
    assert np.array_equal(v.get(), 3.0 * np.arange(n))
    assert cp.reports()[0].kernel == "scale<256>"


def test_template_names_must_be_listed_in_name_expressions():
    with pytest.raises(LaunchError, match=r"list it in RawModule\(name_expressions"):
        cp.RawModule(code=SOURCE).get_function("scale<256>")


def test_unknown_kernel_fails_at_get_function_naming_the_kernels():
    with pytest.raises(LaunchError, match="no kernel named 'nope'.*axpy"):
        cp.RawModule(code=SOURCE).get_function("nope")


@pytest.mark.parametrize("name", ["fft", "linalg", "ElementwiseKernel", "cuda.Event",
                                  "cuda.Graph", "random.Generator", "ndarray.data"])
def test_what_is_not_mirrored_names_itself(name):
    owner = cp
    *path, last = name.split(".")
    if path == ["ndarray"]:
        owner, path = cp.zeros(4), []
    for part in path:
        owner = getattr(owner, part)
    with pytest.raises(cp.NotMirrored, match=rf"^memsim.cupy does not mirror cupy\.{name}; "):
        attribute = getattr(owner, last)
        attribute()   # cuda.Event is a callable that says so when used
    assert isinstance(cp.NotMirrored("x"), (MemsimError, AttributeError))


def test_unmirrored_submodule_import_names_itself():
    with pytest.raises(cp.NotMirrored, match="does not mirror cupy.fft"):
        import memsim.cupy.fft  # noqa: F401


def test_python_float_for_a_float_parameter_is_refused_as_the_gpu_would_misread_it():
    x, y = cp.zeros(4, dtype=cp.float32), cp.zeros(4, dtype=cp.float32)
    with pytest.raises(LaunchError, match=r"parameter 2 is \.f32.*np\.float32"):
        cp.RawKernel(SOURCE, "axpy")((1,), (4,), (x, y, 2.0, 4))


@pytest.mark.parametrize("args, message", [
    (lambda x: (x, np.zeros(4, np.float32), np.float32(1), np.int32(4)), "numpy.ndarray of shape"),
    (lambda x: (x, x, np.float32(1), np.int32(4)), "share memory"),
    (lambda x: (x, cp.zeros(4, dtype=cp.float32), "1", np.int32(4)), "unsupported type str"),
])
def test_bad_arguments_get_one_line(args, message):
    x = cp.zeros(4, dtype=cp.float32)
    with pytest.raises(MemsimError, match=message):
        cp.RawKernel(SOURCE, "axpy")((1,), (4,), args(x))


def test_arrays_behave_like_cupys():
    a = cp.arange(6, dtype=cp.float32).reshape(2, 3)
    assert (a.shape, a.dtype, a.nbytes, a.size) == ((2, 3), np.float32, 24, 6)
    assert isinstance(a + 1, cp.ndarray) and float((a * 2).sum()) == 30.0
    assert np.array_equal(cp.asnumpy(cp.sqrt(a * a)), np.arange(6).reshape(2, 3))
    with pytest.raises(TypeError, match="Implicit conversion to a NumPy array"):
        np.asarray(a)
    with pytest.raises(TypeError, match="Unsupported type"):
        a + np.ones(3)


SCRIPT = '''
import sys
import numpy as np
import cupy as cp
n = int(sys.argv[1])
x = cp.arange(n, dtype=cp.float32); y = cp.zeros(n, dtype=cp.float32)
cp.RawKernel(open(sys.argv[2]).read(), "axpy")((n // 64,), (64,), (x, y, np.float32(2), np.int32(n)))
assert np.array_equal(y.get(), 2 * np.arange(n, dtype=np.float32))
cp.cuda.Device().synchronize()
if len(sys.argv) > 3:
    cp.fft.fft(x)
'''


@pytest.fixture
def script(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "axpy.cu").write_text(SOURCE)
    (tmp_path / "script.py").write_text(SCRIPT)
    return tmp_path / "script.py", tmp_path / "axpy.cu"


def test_memsim_run_runs_the_script_and_prints_its_launches(script, capsys):
    path, source = script
    assert run_main([str(path), "256", str(source)]) == 0
    out = capsys.readouterr().out
    assert "axpy" in out and "4x1x1" in out and "64x1x1" in out
    assert "cupy" not in sys.modules   # the redirection is undone


def test_memsim_run_stops_with_one_line_on_an_unmirrored_name(script, capsys):
    path, source = script
    assert run_main([str(path), "128", str(source), "fft"]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip().splitlines() == [
        "error: memsim.cupy does not mirror cupy.fft; it mirrors " + cp._mirror.MIRRORED]
    assert "axpy" in captured.out   # the launch before the error is still shown


def test_memsim_run_as_a_module_on_the_example_script():
    done = subprocess.run([sys.executable, "-m", "memsim.run", "examples/transpose_cupy.py", "64"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "both kernels transpose correctly" in done.stdout
    rows = [line for line in done.stdout.splitlines() if "transpose_" in line]
    assert "32.00" in rows[0] and "32.00" not in rows[1]   # naive stores strided, tiled not


@pytest.mark.parametrize("name", ["transpose_naive_row", "transpose_smem_pad"])
def test_a_catalog_launch_through_memsim_cupy_reports_what_memsim_predict_does(name):
    from memsim import catalog
    from memsim import simulate_spec
    entry = catalog.get(name)
    spec = entry.launch(nx=64)
    values = spec.materialize()
    device = [cp.asarray(v) if isinstance(v, np.ndarray) else v for v in values]
    cp.RawKernel(spec.source, spec.kernel, spec.options)(spec.grid, spec.block, tuple(device),
                                                         shared_mem=spec.shared_mem)
    predicted, _ = simulate_spec(spec)
    assert cp.reports()[0].metrics == predicted.metrics
    for index, expected in entry.reference(values).items():
        np.testing.assert_allclose(cp.asnumpy(device[index]), expected)
