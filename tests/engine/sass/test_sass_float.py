"""Float and double arithmetic bit for bit against the H100: gpu/probes/roi_trig_probe.py runs
Detectron2 RoIAlignRotated's scalar steps (a double division by an immediate, float cos and sin,
float divisions) on 4096 random rois; h100_roi_trig_probe.npy holds the GPU's outputs."""
import numpy as np
import pytest

from gpu.probes import roi_trig_probe
from tests.helpers import ROOT

RECORDED = np.load(ROOT / "gpu" / "probes" / "h100_roi_trig_probe.npy").reshape(roi_trig_probe.N, 8)


@pytest.fixture(scope="module")
def simulated() -> np.ndarray:
    return roi_trig_probe.simulated()


@pytest.mark.parametrize("column", range(len(roi_trig_probe.NAMES)), ids=roi_trig_probe.NAMES)
def test_every_output_equals_the_h100_bit_for_bit(simulated, column):
    differ = np.flatnonzero(simulated[:, column].view(np.uint32) != RECORDED[:, column].view(np.uint32))
    assert len(differ) == 0, f"{len(differ)} of {len(RECORDED)} differ, e.g. roi {differ[:3]}"
