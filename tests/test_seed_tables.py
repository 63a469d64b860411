"""The seed notes' own ncu tables, reproduced through the catalog.

Seed 003 measured row and column sums of a 16384² float matrix (A100, ncu); seed 004's transpose
counts imply a 4096² double matrix. These sector and wavefront rules hold from sm_70 on, so the
numbers are the H100's too (tests/test_golden_h100.py checks the float launches against an H100).
"""
import pytest

import memsim
from memsim import catalog
from memsim import metrics as m

# (catalog entry, parameters, {metric: the seed's published value})
SEED_TABLES = [
    ("row_sums", dict(nx=16384), {m.GLOBAL_LD_REQUESTS: 8_388_608, m.GLOBAL_LD_SECTORS: 268_435_456}),
    ("col_sums", dict(nx=16384), {m.GLOBAL_LD_REQUESTS: 8_388_608, m.GLOBAL_LD_SECTORS: 33_554_432}),
    ("transpose_naive_col", dict(nx=4096, dtype="float64"),
     {m.GLOBAL_LD_REQUESTS: 524_288, m.GLOBAL_ST_REQUESTS: 524_288,
      m.GLOBAL_LD_SECTORS: 16_777_216, m.GLOBAL_ST_SECTORS: 4_194_304}),
    ("transpose_smem", dict(nx=4096, dtype="float64"), {m.SHARED_LD_WAVEFRONTS: 16_777_216}),
    ("transpose_smem_pad", dict(nx=4096, dtype="float64"), {m.SHARED_LD_WAVEFRONTS: 1_048_576}),
]


@pytest.mark.parametrize("name,params,published", SEED_TABLES, ids=[t[0] for t in SEED_TABLES])
def test_seed_table_reproduces(name, params, published):
    report, _ = memsim.simulate_spec(catalog.get(name).launch(**params))
    assert {k: report.metrics[k] for k in published} == published
