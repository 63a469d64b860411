"""The seed notes' own ncu tables, reproduced through the catalog.

Seed 003 measured row and column sums of a 16384² float matrix (A100, ncu); seed 004's transpose
counts imply a 4096² double matrix. These sector and wavefront rules hold from sm_70 on, so the
numbers are the H100's too (tests/validate/test_golden_h100.py checks the float launches against an H100);
seed 003's are also held on the sm_80 code its A100 ran (docs/a100.md).
"""
import numpy as np
import pytest

import memsim
from memsim import catalog
from memsim import metrics as m
from memsim.catalog.nvprof_seeds import SEED_FIGURES
from memsim.prediction import predict_spec
from memsim.engine.sass.program import constant_bank
from memsim.engine.registry import resolve_engine
from memsim.engine.sass.compile import listing as sass_listing
from tests.validate.test_golden_h100 import RECORDS as GOLDEN_RECORDS, golden_spec

S003_ROW = {m.GLOBAL_LD_REQUESTS: 8_388_608, m.GLOBAL_LD_SECTORS: 268_435_456}
S003_COL = {m.GLOBAL_LD_REQUESTS: 8_388_608, m.GLOBAL_LD_SECTORS: 33_554_432}
# (catalog entry, parameters, {metric: the seed's published value})
SEED_TABLES = [
    ("row_sums", dict(nx=16384), S003_ROW),
    ("col_sums", dict(nx=16384), S003_COL),
    ("transpose_naive_col", dict(nx=4096, dtype="float64"),
     {m.GLOBAL_LD_REQUESTS: 524_288, m.GLOBAL_ST_REQUESTS: 524_288,
      m.GLOBAL_LD_SECTORS: 16_777_216, m.GLOBAL_ST_SECTORS: 4_194_304}),
    ("transpose_smem", dict(nx=4096, dtype="float64"), {m.SHARED_LD_WAVEFRONTS: 16_777_216}),
    ("transpose_smem_pad", dict(nx=4096, dtype="float64"), {m.SHARED_LD_WAVEFRONTS: 1_048_576}),
]


# Seed 003's 16384² sums are tests/validate/test_golden_h100.py's s003 launches, which it holds to
# the H100 on every exact metric: not simulated a second time here (268 M loads each).
GOLDEN_S003 = {"row_sums": "s003_row_sums", "col_sums": "s003_col_sums"}


@pytest.mark.parametrize("name,params,published", [t for t in SEED_TABLES if t[0] not in GOLDEN_S003],
                         ids=[t[0] for t in SEED_TABLES if t[0] not in GOLDEN_S003])
def test_seed_table_reproduces(name, params, published):
    # no time limit: a 16384² sum ran 33 s on a loaded 2-core CI machine (the limit: tests/cli/test_bad_inputs.py)
    report, _ = memsim.simulate_spec(catalog.get(name).launch(**params), timeout=None)
    assert {k: report.metrics[k] for k in published} == published


def _sass_of(source: str, kernel: str) -> list[str]:
    """The kernel's SASS instructions (addresses, encodings and line marks left out)."""
    listing = sass_listing(source)
    section = listing.split(f".text.{kernel}:")[1].split(".L_x_")[0]
    return [line.split("*/", 1)[1].strip() for line in section.splitlines() if "*/" in line]


@pytest.mark.parametrize("name", sorted(GOLDEN_S003))
def test_seed_003_tables_are_the_golden_h100_launches(name):
    """The seed's published counts are what the H100 recorded for the golden launch, and the
    catalog launches that very code (the same SASS), grid, block and arguments."""
    record = next(r for r in GOLDEN_RECORDS if r["case"] == GOLDEN_S003[name])
    published = dict(row_sums=S003_ROW, col_sums=S003_COL)[name]
    assert {k: record["metrics"][k] for k in published} == published
    spec = catalog.get(name).launch(nx=16384)
    golden = golden_spec(record)
    assert (spec.kernel, spec.grid, spec.block) == (golden.kernel, golden.grid, golden.block)
    assert [(a.dtype, a.count, a.value) for a in spec.args] == [(a.dtype, a.count, a.value) for a in golden.args]
    assert _sass_of(spec.source, spec.kernel) == _sass_of(golden.source, golden.kernel)


A100_COUNTS = [f for f in SEED_FIGURES if f.launch.gpu == "A100" and f.kind == "count"]
A100_LAUNCHES = {f.launch.entry: f.launch for f in A100_COUNTS}


@pytest.mark.parametrize("entry", sorted(A100_LAUNCHES))
def test_seed_003_on_the_a100(entry):
    """--gpu A100 compiles for sm_80 and runs that SASS: seed 003's ncu counts, at its size."""
    launch = A100_LAUNCHES[entry]
    report, _ = predict_spec(launch.spec(), gpu=launch.gpu, timeout=None)   # as above
    assert (report.arch, report.engine) == ("sm_80", "sass")
    published = {f.metric: f.value for f in A100_COUNTS if f.launch.entry == entry}
    assert {k: report.metrics[k] for k in published} == published


@pytest.mark.parametrize("entry,extra", [("row_sums", lambda ds: -2), ("col_sums", lambda ds: 2 + ds // 4)])
def test_sm_80_code_differs_from_sm_90_only_outside_memory(entry, extra):
    """The same loads (4-way unrolled LDG.E, none merged) on both; per warp, sm_80's col_sums
    loop runs one more instruction per unrolled step, and its row_sums two fewer in all."""
    ds = 1024
    spec = catalog.get(entry).launch(nx=ds)
    sm80, _ = memsim.simulate_spec(spec, arch="sm_80")
    sm90, _ = memsim.simulate_spec(spec, arch="sm_90")
    memory = [k for k in sm90.metrics if k.startswith(("l1tex__", "smsp__sass_"))]
    assert {k: sm80.metrics[k] for k in memory} == {k: sm90.metrics[k] for k in memory}
    difference = sm80.metrics[m.SASS_WARP_INSTRUCTIONS] - sm90.metrics[m.SASS_WARP_INSTRUCTIONS]
    assert difference == extra(ds) * ds // 32


def test_a100_picks_the_sass_engine_for_sm_80():
    assert resolve_engine("auto", "__global__ void k() {}", "sm_80") == "sass"
    assert resolve_engine("auto", "__global__ void k() {}", "sm_86") == "ptx"


def test_bank_zero_parameters_by_arch():
    """sm_80 code reads its parameters from c[0x0][0x160], sm_90 code from c[0x0][0x210]."""
    params = np.arange(1, 9, dtype=np.uint8)
    assert constant_bank((1, 1, 1), (1, 1, 1), params, "sm_80")[0x160:0x168].tolist() == list(range(1, 9))
    assert constant_bank((1, 1, 1), (1, 1, 1), params, "sm_90")[0x210:0x218].tolist() == list(range(1, 9))
    with pytest.raises(memsim.errors.LaunchError):
        constant_bank((1, 1, 1), (1, 1, 1), params, "sm_75")
