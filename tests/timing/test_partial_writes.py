"""Partly written sectors in the time simulation, held to gpu/cache_probe/partial_write_probe.py's
H100 recordings (h100_partial_write_results.json): a store whose lanes each write one int of
their own line reaches the L2 at ~33.5 sectors a cycle, against 116 for whole sectors."""
import json
import statistics

import pytest

import memsim
from memsim import gpus
from memsim.launch import LaunchSpec
from memsim.timing.machine import partial_write_cost_of
from tests.helpers import ROOT

PROBE = ROOT / "gpu" / "cache_probe"
SOURCE = (PROBE / "partial_write_probe.py").read_text().split("S = r'''")[1].split("'''")[0]
LAUNCHES = json.loads((PROBE / "h100_partial_write_results.json").read_text())["launches"]
DURATION = "gpu__time_duration.sum"


def _scatter(ints: int, stride: int) -> tuple[LaunchSpec, float]:
    launch = next(x for x in LAUNCHES if (x["kernel"], x["ints"], x["stride"]) == ("k_scatter", ints, stride))
    spec = LaunchSpec(source=SOURCE, kernel="k_scatter", grid=((ints + 255) // 256, 1, 1), block=(256, 1, 1),
                      args=[f"int32[{16 << 20}]:zeros", f"int64:{ints}", f"int64:{stride}"])
    return spec, statistics.median(r[DURATION] for r in launch["runs"])


def test_a_partly_written_sector_costs_the_measured_rate_ratio():
    h100 = gpus.load("H100")
    assert partial_write_cost_of(h100) == pytest.approx(116.173 / 33.5, rel=1e-3)
    assert partial_write_cost_of(gpus.load("A100")) == 1.0


@pytest.mark.parametrize("stride", [1, 32, 2048])
def test_lane_per_line_int_stores_take_the_h100s_time(stride):
    """Stride 1: a coalesced fill (whole sectors); 32 and 2048: every lane its own line, as a
    transpose's column store. Stride 8 (a lane a sector, four a line: 55 sectors a cycle) is
    charged the lane-per-line rate too (the counters do not say how many lines a request
    spans): +57% there."""
    spec, measured = _scatter(4194304, stride)
    predicted = memsim.predict_spec(spec, gpu="H100")[0].metrics[DURATION]
    assert predicted == pytest.approx(measured, rel=0.25)
