"""The chosen GPU reaches the engines: %nsmid reads its SM count on both engines, and a fitted
block lives once, in the profile it was fitted on."""
from __future__ import annotations

import json

import numpy as np
import pytest

from memsim import gpus
from memsim.engine.simulation import simulate

NSMID = """extern "C" __global__ void k(unsigned* out) {
  unsigned n; asm("mov.u32 %0, %%nsmid;" : "=r"(n));
  if (threadIdx.x == 0) out[blockIdx.x] = n;
}"""
SASS_GPUS = [name for name in gpus.names() if gpus.load(name).sass_abi is not None]


@pytest.mark.parametrize("engine", ["sass", "ptx"])
@pytest.mark.parametrize("gpu", SASS_GPUS)
def test_nsmid_reads_the_chosen_gpus_sm_count(gpu, engine):
    out = np.zeros(2, np.uint32)
    simulate(NSMID, "k", 2, 32, [out], engine=engine, gpu=gpu)
    assert out.tolist() == [gpus.load(gpu).sm_count] * 2


def test_a_bare_simulation_runs_on_the_default_gpu():
    out = np.zeros(1, np.uint32)
    simulate(NSMID, "k", 1, 32, [out])
    assert out[0] == gpus.default_profile().sm_count


def test_fitted_block_lives_once():
    raw = {name: json.loads((gpus.PROFILE_DIR / f"{name.lower()}.json").read_text()) for name in gpus.names()}
    owners = [name for name, profile in raw.items() if "fitted" in profile]
    assert len(owners) == 1
    for name, profile in raw.items():
        if name not in owners:
            assert profile["fitted_from"] == owners[0]
            assert gpus.load(name).fitted == gpus.load(owners[0]).fitted
