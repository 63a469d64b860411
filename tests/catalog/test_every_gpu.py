"""Every catalog kernel predicts on every seed GPU but the default one (whose recordings check it
elsewhere), on the default engine, and leaves the outputs the reference expects: sm_80 code
(A100) reads its own bank 0 and shared window, sm_61 code (Pascal) goes the PTX way."""
from __future__ import annotations

import pytest

from memsim import catalog
from memsim.gpus import DEFAULT_GPU, names as gpu_names
from memsim.prediction import predict
from tests.catalog.test_catalog import small

OTHER_GPUS = [name for name in gpu_names() if name != DEFAULT_GPU]


@pytest.mark.parametrize("gpu", OTHER_GPUS)
@pytest.mark.parametrize("name", catalog.names())
def test_catalog_kernel_predicts_on_gpu(name, gpu):
    entry = catalog.get(name)
    spec = entry.launch(**small(name))
    before = spec.materialize()
    after = [v.copy() if hasattr(v, "copy") else v for v in before]
    report = predict(spec.source, spec.kernel, spec.grid, spec.block, after, spec.shared_mem,
                     options=spec.options, gpu=gpu)
    assert report.gpu == gpu
    assert entry.check(before, after) == []
