"""Kernels whose block-uniform bools ptxas keeps in uniform predicates packed into a uniform
register (UP2UR): candle's index_select (validate/prereg8/candle_indexing.cu, MIT), which the
SASS engine could not run when prereg8 was built, gathers what numpy gathers."""
import numpy as np
import pytest

import memsim
from memsim.launch import LaunchSpec
from tests.helpers import ROOT

SOURCE = (ROOT / "validate" / "prereg8" / "candle_indexing.cu").read_text()
ROWS, COLS, IDS = 64, 32, 48


@pytest.mark.parametrize("engine", ["sass", "ptx"])
def test_index_select_gathers_the_rows_its_ids_name(engine):
    spec = LaunchSpec(source=SOURCE, kernel="is_u32_f32", grid=(4, 1, 1), block=(256, 1, 1),
                      args=[f"uint64:{IDS * COLS}", "uint64:0", "uint64[2]:zeros", f"uint32[{IDS}]:randint(0,{ROWS})",
                            f"float32[{ROWS * COLS}]:random", f"float32[{IDS * COLS}]:zeros",
                            "uint64:1", f"uint64:{ROWS}", f"uint64:{IDS}", f"uint64:{COLS}"])
    values = spec.materialize()
    memsim.simulate(spec.source, spec.kernel, spec.grid, spec.block, values, spec.shared_mem, engine=engine)
    ids, table, out = values[3], values[4], values[5]
    assert np.array_equal(out, table.reshape(ROWS, COLS)[ids.astype(np.int64)].ravel())
