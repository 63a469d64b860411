"""The kernel catalog: launches as the seeds make them, references that are right, clear errors."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

from memsim import catalog, metrics as m
from memsim import simulate_spec
from memsim.compiler.nvrtc import compile_cuda
from memsim.errors import CatalogError, MemsimError
from memsim.launch import ArgSpec
from tests.helpers import GOLDEN

SEED_JSON = json.loads((GOLDEN / "h100-seed-kernels.json").read_text())
SEED_BY_CASE = {case["case"]: case for case in SEED_JSON}


def _dims(values) -> tuple[int, int, int]:
    return tuple(values) + (1,) * (3 - len(values))


def _arg_identity(arg: ArgSpec) -> tuple:
    # The golden file leaves initial contents unsaid (inputs random, outputs zero-filled).
    return arg.dtype, arg.count, arg.value


# ---- the seed measurements as catalog launches ----------------------------------------------

def test_seed_cases_cover_the_golden_file_once():
    assert sorted(case.case for case in catalog.SEED_CASES) == sorted(SEED_BY_CASE)


@pytest.mark.parametrize("case", catalog.SEED_CASES, ids=lambda c: c.case)
def test_seed_case_reproduces_the_measured_launch(case):
    golden = SEED_BY_CASE[case.case]
    spec = case.launch()
    assert spec.kernel == golden["kernel"]
    assert spec.grid == _dims(golden["grid"])
    assert spec.block == _dims(golden["block"])
    assert spec.shared_mem == golden["shared_mem"]
    assert [_arg_identity(a) for a in spec.args] == [_arg_identity(ArgSpec.parse(a)) for a in golden["args"]]


def _entry_bodies(ptx: str) -> dict[str, str]:
    """Kernel name -> PTX body without line info; labels renumbered (they count module position)."""
    bodies = {}
    for match in re.finditer(r"\.entry (\w+)\(.*?\n\}", ptx, re.S):
        lines = [line for line in match.group(0).splitlines()
                 if line.strip() and not line.strip().startswith((".loc", "//"))]
        bodies[match.group(1)] = re.sub(r"\$L__BB\d+_", "$L__BB_", "\n".join(lines))
    return bodies


@pytest.fixture(scope="module")
def measured_ptx() -> dict[str, str]:
    return _entry_bodies(compile_cuda((GOLDEN / "seed_kernels.cu").read_text()).ptx)


@pytest.mark.parametrize("case", list({c.entry: c for c in catalog.SEED_CASES}.values()),
                         ids=lambda c: c.entry)
def test_catalog_ptx_is_the_measured_ptx(case, measured_ptx):
    spec = case.launch()
    ours = _entry_bodies(compile_cuda(spec.source).ptx)
    assert ours[spec.kernel] == measured_ptx[spec.kernel]


# ---- every entry: a sane launch ---------------------------------------------------------------

SMALL = {  # a small geometry each entry accepts, away from its defaults where possible
    "transpose_smem_rect": dict(nx=64, ny=32), "transpose_smem_rect_pad": dict(nx=64, ny=32),
    "add2d_strided": dict(nx=64, ny=32), "add2d_coalesced": dict(nx=64, ny=32),
    "add_aligned": dict(nx=96), "add_misaligned": dict(nx=96),
    "transpose_naive_row": dict(nx=48, ny=40), "transpose_naive_col": dict(nx=40, ny=48),
    "copy_row": dict(nx=50, ny=30), "copy_col": dict(nx=30, ny=50),
    "transpose_unroll4_row": dict(nx=128, ny=64), "transpose_unroll4_col": dict(nx=128, ny=64),
}


def small(name: str) -> dict:
    return SMALL.get(name, dict(nx=64))


@pytest.mark.parametrize("name", catalog.names())
def test_launch_spec_is_sane(name):
    entry = catalog.get(name)
    spec = entry.launch(**small(name))
    assert spec.kernel == entry.kernel and spec.kernel.startswith("k_")
    signature = re.search(rf'extern "C" __global__ void {spec.kernel}\(([^)]*)\)', spec.source)
    assert signature, "kernel not defined in its source"
    assert len(signature.group(1).split(",")) == len(spec.args)
    assert spec.source.startswith("typedef float T;") or entry.dtype != "float32"
    buffers = [a for a in spec.args if a.is_buffer]
    assert buffers and all(a.dtype == entry.dtype for a in buffers)
    assert {a.init for a in buffers} == {"random", "zeros"}


@pytest.mark.parametrize("name", catalog.names())
def test_default_launch_matches_default_geometry(name):
    entry = catalog.get(name)
    spec = entry.launch()
    assert spec.block == entry.block
    assert str(entry.nx) in entry.default_geometry
    assert all(g >= 1 for g in spec.grid)


@pytest.mark.parametrize("name", catalog.names())
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_each_dtype_instantiates_T(name, dtype):
    entry = catalog.get(name)
    if dtype not in entry.dtypes:
        with pytest.raises(CatalogError, match="does not take"):
            entry.launch(dtype=dtype)
        return
    spec = entry.launch(dtype=dtype, **small(name))
    c_type = {"float32": "float", "float64": "double", "int32": "int"}[dtype]
    assert spec.source.splitlines()[0] == f"typedef {c_type} T;"
    assert all(a.dtype == dtype for a in spec.args if a.is_buffer)


def test_tile_edge_and_rect_dims_become_defines():
    spec = catalog.get("transpose_smem_pad").launch(nx=64, block="16,16", dtype="float64")
    assert "#define TILE 16" in spec.source and spec.grid == (4, 4, 1)
    rect = catalog.get("transpose_smem_rect").launch(nx=128, ny=64, block="16,8")
    assert "#define BDIMX 16" in rect.source and "#define BDIMY 8" in rect.source
    assert rect.grid == (8, 8, 1)
    strided = catalog.get("add2d_strided").launch(nx=64, ny=32)
    assert "#define WIDTH 32" in strided.source


def test_unroll4_grid_is_a_quarter_wide():
    spec = catalog.get("transpose_unroll4_col").launch(nx=256, ny=64, block="16,16")
    assert spec.grid == (4, 4, 1)


# ---- references against a numpy emulation of each kernel's threads ----------------------------

def _threads(spec):
    """Global (ix, iy) and block (bx, by) of every thread of a launch, flattened."""
    gx, gy, _ = spec.grid
    bdx, bdy, _ = spec.block
    bx, by, tx, ty = (a.ravel() for a in np.meshgrid(np.arange(gx), np.arange(gy), np.arange(bdx),
                                                      np.arange(bdy), indexing="ij"))
    return bx, by, tx, ty


def _emulate_matrix(spec, values, read_rows: bool, copy: bool, unroll: int = 1, diagonal: bool = False):
    a, b, nx, ny = values
    bx, by, tx, ty = _threads(spec)
    bdx, bdy, _ = spec.block
    if diagonal:
        bx, by = (bx + by) % spec.grid[0], bx
    for k in range(unroll):
        ix = tx + bdx * bx * unroll + k * bdx
        iy = ty + bdy * by
        first_ix = tx + bdx * bx * unroll
        ok = (first_ix < nx) & (iy < ny)
        ix, iy = ix[ok], iy[ok]
        row, col = ix + iy * nx, ix * ny + iy
        if copy:
            index = row if read_rows else col
            b[index] = a[index]
        elif read_rows:
            b[col] = a[row]
        else:
            b[row] = a[col]
    return {1: b}


def _emulate_tile(spec, values):
    a, c, m = values
    bx, by, tx, ty = _threads(spec)
    tile_x, tile_y = bx * spec.block[0], by * spec.block[1]
    # sub[row][col] = a[(tileY+row)*m + tileX+col]; c[(tileX+row)*m + tileY+col] = sub[col][row]
    c[(tile_x + ty) * m + tile_y + tx] = a[(tile_y + tx) * m + tile_x + ty]
    return {1: c}


def _emulate_tile_rect(spec, values):
    out, source, nx, ny = values
    bx, by, tx, ty = _threads(spec)
    bdx, bdy, _ = spec.block
    ti = (by * bdy + ty) * nx + bx * bdx + tx
    bidx = ty * bdx + tx
    irow, icol = bidx // bdy, bidx % bdy
    # thread (tx, ty) stores tile[ty][tx] = in[ti]; thread with (irow, icol) reads tile[icol][irow]
    tile = np.empty((len(bx) // (bdx * bdy), bdy, bdx), source.dtype)
    block_id = bx * spec.grid[1] + by
    tile[block_id, ty, tx] = source[ti]
    out[(bx * bdx + irow) * ny + by * bdy + icol] = tile[block_id, icol, irow]
    return {0: out}


def _emulate_sums(values, axis: int):
    a, sums, ds = values
    return {1: a.reshape(int(ds), int(ds)).sum(axis=axis, dtype=np.float64).astype(sums.dtype)}


def _emulate_vector_add(spec, values, offset: int):
    x, y, z = values
    n = np.arange(spec.grid[0] * spec.block[0]) + offset
    z[n] = x[n] + y[n]
    return {2: z}


def _emulate_matrix_add(spec, values, strided: bool):
    ad, bd, cd = values
    bx, by, tx, ty = _threads(spec)
    tidx, tidy = tx + bx * spec.block[0], ty + by * spec.block[1]
    width = int(re.search(r"#define WIDTH (\d+)", spec.source).group(1))
    index = tidx * width + tidy if strided else tidy * width + tidx
    cd[index] = ad[index] + bd[index]
    return {2: cd}


def _emulate_matmul(values):
    a, b, c, n = values
    return {2: np.einsum("ik,kj->ij", a.reshape(n, n).astype(np.float64),
                         b.reshape(n, n).astype(np.float64)).ravel().astype(c.dtype)}


EMULATIONS = {
    "copy_row": lambda s, v: _emulate_matrix(s, v, read_rows=True, copy=True),
    "copy_col": lambda s, v: _emulate_matrix(s, v, read_rows=False, copy=True),
    "transpose_naive_row": lambda s, v: _emulate_matrix(s, v, read_rows=True, copy=False),
    "transpose_naive_col": lambda s, v: _emulate_matrix(s, v, read_rows=False, copy=False),
    "transpose_unroll4_row": lambda s, v: _emulate_matrix(s, v, True, False, unroll=4),
    "transpose_unroll4_col": lambda s, v: _emulate_matrix(s, v, False, False, unroll=4),
    "transpose_diagonal_row": lambda s, v: _emulate_matrix(s, v, True, False, diagonal=True),
    "transpose_diagonal_col": lambda s, v: _emulate_matrix(s, v, False, False, diagonal=True),
    "transpose_smem": _emulate_tile,
    "transpose_smem_pad": _emulate_tile,
    "transpose_smem_rect": _emulate_tile_rect,
    "transpose_smem_rect_pad": _emulate_tile_rect,
    "row_sums": lambda s, v: _emulate_sums(v, axis=1),
    "col_sums": lambda s, v: _emulate_sums(v, axis=0),
    "add_aligned": lambda s, v: _emulate_vector_add(s, v, 0),
    "add_misaligned": lambda s, v: _emulate_vector_add(s, v, 1),
    "add2d_strided": lambda s, v: _emulate_matrix_add(s, v, strided=True),
    "add2d_coalesced": lambda s, v: _emulate_matrix_add(s, v, strided=False),
    "matmul_naive": lambda s, v: _emulate_matmul(v),
    "matmul_smem": lambda s, v: _emulate_matmul(v),
}

GEOMETRIES = {  # more shapes and blocks than SMALL, to exercise the index math
    "transpose_naive_col": [dict(nx=40, ny=48, block="16,8"), dict(nx=33, ny=17, block="8,4")],
    "transpose_unroll4_row": [dict(nx=128, ny=40, block="16,8")],
    "transpose_diagonal_col": [dict(nx=64, ny=32, block="16,8")],
    "transpose_smem_rect_pad": [dict(nx=128, ny=64, block="16,8")],
    "transpose_smem": [dict(nx=48, block="16,16", dtype="float64")],
    "matmul_smem": [dict(nx=48, block="16,16", dtype="int32")],
    "row_sums": [dict(nx=300, block="128", dtype="float64")],
}


def _cases():
    for name in catalog.names():
        yield pytest.param(name, small(name), id=name)
        for i, params in enumerate(GEOMETRIES.get(name, [])):
            yield pytest.param(name, params, id=f"{name}-{i}")


@pytest.mark.parametrize("name,params", list(_cases()))
def test_reference_matches_thread_emulation(name, params):
    entry = catalog.get(name)
    spec = entry.launch(**params)
    expected = entry.reference(spec.materialize())
    emulated = EMULATIONS[name](spec, spec.materialize())
    assert set(expected) == set(emulated)
    for index, array in expected.items():
        assert array.dtype == emulated[index].dtype and array.shape == emulated[index].shape
        rtol = max(entry.tolerance(array.dtype), 1e-6 if array.dtype.kind == "f" else 0)
        np.testing.assert_allclose(array, emulated[index], rtol=rtol, atol=0)
        # a reference that equals its (zero) starting buffer would prove nothing
        assert np.any(array != spec.materialize()[index])


def test_check_reports_a_wrong_output_and_passes_the_reference():
    entry = catalog.get("transpose_naive_row")
    spec = entry.launch(nx=32, ny=16)
    before = spec.materialize()
    after = spec.materialize()
    after[1][:] = entry.reference(before)[1]
    assert entry.check(before, after) == []
    after[1][5] += 1
    problems = entry.check(before, after)
    assert len(problems) == 1 and "1 of 512 elements differ (first at 5" in problems[0]


def test_sums_reference_adds_in_kernel_order():
    # float32 summed left to right differs from numpy's pairwise sum; the reference must not.
    entry = catalog.get("row_sums")
    values = entry.launch(nx=4096, block="256").materialize()
    expected = entry.reference(values)[1]
    a = values[0].reshape(4096, 4096)
    sequential = np.zeros(4096, np.float32)
    for i in range(4096):
        sequential += a[:, i]
    assert np.array_equal(expected, sequential)


def test_tolerance_is_exact_for_ints_and_scaled_for_float64():
    entry = catalog.get("matmul_smem")
    assert entry.tolerance("int32") == 0.0
    assert entry.tolerance("float32") == pytest.approx(1e-4)
    assert entry.tolerance("float64") < 1e-12


# ---- names, groups, errors ------------------------------------------------------------------

EXPECTED_NAMES = [
    "copy_row", "copy_col", "transpose_naive_row", "transpose_naive_col", "transpose_unroll4_row",
    "transpose_unroll4_col", "transpose_diagonal_row", "transpose_diagonal_col", "transpose_smem",
    "transpose_smem_pad", "transpose_smem_rect", "transpose_smem_rect_pad", "row_sums", "col_sums",
    "add_aligned", "add_misaligned", "add2d_strided", "add2d_coalesced", "matmul_naive", "matmul_smem",
]


def test_names_and_groups():
    assert catalog.names() == EXPECTED_NAMES
    groups = catalog.groups()
    assert set(groups) == {"copy", "transpose_naive", "transpose_unroll4", "transpose_diagonal",
                           "transpose_tile", "transpose_tile_rect", "transpose_ladder", "sums",
                           "vector_add", "matrix_add", "matmul"}
    assert all(member in EXPECTED_NAMES for members in groups.values() for member in members)
    ladder = [k.name for k in catalog.resolve("transpose_ladder")]
    assert ladder == EXPECTED_NAMES[:10]
    assert [k.name for k in catalog.resolve("row_sums")] == ["row_sums"]


@pytest.mark.parametrize("call,message", [
    (lambda: catalog.get("transpose_smme"), "unknown catalog kernel 'transpose_smme': did you mean transpose_smem"),
    (lambda: catalog.resolve("nothing_like_it"), "unknown catalog kernel or group 'nothing_like_it'"),
    (lambda: catalog.get("transpose_naive"), "'transpose_naive' is a group of catalog kernels "
                                             "(transpose_naive_row, transpose_naive_col): name one of them"),
    (lambda: catalog.get("transpose_smem").launch(nx=100), "transpose_smem: needs nx divisible by the tile edge 32"),
    (lambda: catalog.get("transpose_smem").launch(nx=64, ny=32), "square matrix"),
    (lambda: catalog.get("transpose_smem").launch(block="32,16"), "needs a square block"),
    (lambda: catalog.get("transpose_smem_rect").launch(nx=1000, ny=2048), "nx divisible by block.x=32"),
    (lambda: catalog.get("transpose_smem_rect").launch(nx=1024, ny=2040), "ny by block.y=16"),
    (lambda: catalog.get("transpose_unroll4_row").launch(nx=100), "divisible by block.x*4 = 128"),
    (lambda: catalog.get("transpose_diagonal_row").launch(block="32,16"), "square grid of blocks"),
    (lambda: catalog.get("add_aligned").launch(nx=100), "no bounds check"),
    (lambda: catalog.get("add_aligned").launch(nx=64, ny=32), "give nx only"),
    (lambda: catalog.get("row_sums").launch(block="16,16"), "needs a 1-D block"),
    (lambda: catalog.get("copy_row").launch(block="a,b"), "bad block 'a,b'"),
    (lambda: catalog.get("copy_row").launch(block="64,32"), "too large"),
    (lambda: catalog.get("copy_row").launch(block="8,8,2"), "needs a 2-D block"),
    (lambda: catalog.get("copy_row").launch(nx=0), "sizes must be positive"),
    (lambda: catalog.get("copy_row").launch(nx=65536, ny=65536), "overflow the kernel's int indices"),
    (lambda: catalog.get("copy_row").launch(nx=64, ny=70000, block="64,1"), "exceeds the limit"),
    (lambda: catalog.get("copy_row").launch(dtype="float16"), "does not take float16"),
    (lambda: catalog.get("copy_row").launch(dtype="complex"), "unknown type 'complex'"),
])
def test_bad_parameters_are_one_line_errors(call, message):
    with pytest.raises(MemsimError) as info:
        call()
    assert message in str(info.value)
    assert "\n" not in str(info.value)


# ---- through the simulator: outputs equal the references, the seeds' stories hold ------------

SIMULATED = [pytest.param(name, small(name), id=name) for name in catalog.names()] + [
    pytest.param("transpose_smem_pad", dict(nx=64, dtype="float64"), id="smem_pad-float64"),
    pytest.param("transpose_diagonal_col", dict(nx=64, ny=32, block="16,8", dtype="int32"), id="diagonal-int32"),
    pytest.param("col_sums", dict(nx=96, block="64", dtype="float64"), id="col_sums-float64"),
    pytest.param("matmul_smem", dict(nx=48, block="16,16", dtype="int32"), id="matmul_smem-int32"),
]


@pytest.mark.parametrize("name,params", SIMULATED)
def test_simulated_outputs_equal_the_reference(name, params):
    entry = catalog.get(name)
    spec = entry.launch(**params)
    report, after = simulate_spec(spec)
    assert report.kernel == entry.kernel
    assert entry.check(spec.materialize(), after) == []


def _per_request(report, numerator: str, denominator: str) -> float:
    return report.metrics[numerator] / report.metrics[denominator]


SEED_STORIES = [  # (entry, params, metric, per-request metric, value) from the seed documents
    ("copy_row", dict(nx=64), m.GLOBAL_LD_SECTORS, m.GLOBAL_LD_REQUESTS, 4),
    ("copy_col", dict(nx=64), m.GLOBAL_LD_SECTORS, m.GLOBAL_LD_REQUESTS, 32),
    ("transpose_naive_row", dict(nx=64), m.GLOBAL_ST_SECTORS, m.GLOBAL_ST_REQUESTS, 32),
    ("transpose_naive_col", dict(nx=64), m.GLOBAL_LD_SECTORS, m.GLOBAL_LD_REQUESTS, 32),
    ("transpose_smem", dict(nx=64), m.SHARED_LD_WAVEFRONTS, m.INST_SHARED_LD, 32),
    ("transpose_smem_pad", dict(nx=64), m.SHARED_LD_WAVEFRONTS, m.INST_SHARED_LD, 1),
    # seed 004's counts are float64: 8 sectors a request, 32 and 2 wavefronts
    ("transpose_smem", dict(nx=64, dtype="float64"), m.GLOBAL_LD_SECTORS, m.GLOBAL_LD_REQUESTS, 8),
    ("transpose_smem", dict(nx=64, dtype="float64"), m.SHARED_LD_WAVEFRONTS, m.INST_SHARED_LD, 32),
    ("transpose_smem_pad", dict(nx=64, dtype="float64"), m.SHARED_LD_WAVEFRONTS, m.INST_SHARED_LD, 2),
    ("row_sums", dict(nx=256), m.GLOBAL_LD_SECTORS, m.GLOBAL_LD_REQUESTS, 32),
    ("col_sums", dict(nx=256), m.GLOBAL_LD_SECTORS, m.GLOBAL_LD_REQUESTS, 4),
    ("add_aligned", dict(nx=128), m.GLOBAL_LD_SECTORS, m.GLOBAL_LD_REQUESTS, 4),
    ("add_misaligned", dict(nx=128), m.GLOBAL_LD_SECTORS, m.GLOBAL_LD_REQUESTS, 5),
    ("add2d_strided", dict(nx=64), m.GLOBAL_ST_SECTORS, m.GLOBAL_ST_REQUESTS, 32),
    ("add2d_coalesced", dict(nx=64), m.GLOBAL_ST_SECTORS, m.GLOBAL_ST_REQUESTS, 4),
]


@pytest.mark.parametrize("name,params,metric,per,value", SEED_STORIES,
                         ids=[f"{s[0]}-{s[2].split('__')[1][:24]}" for s in SEED_STORIES])
def test_seed_stories_hold_at_small_sizes(name, params, metric, per, value):
    report, _ = simulate_spec(catalog.get(name).launch(**params))
    assert _per_request(report, metric, per) == value
