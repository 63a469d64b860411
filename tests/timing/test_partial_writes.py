"""Partly written sectors in the time simulation, held to gpu/cache_probe/partial_write_probe.py's
H100 recordings (h100_partial_write_results.json): a store whose lanes each write one int of
their own line reaches the L2 at ~33.5 sectors a cycle, one whose lanes each write one int of
their own sector, four a line, at ~55, against 116 for whole sectors."""
import json
import statistics

import pytest

import memsim
from memsim import gpus
from memsim.launch import LaunchSpec
from memsim.timing.machine import partial_write_costs_of
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


def test_a_line_written_in_part_costs_what_the_two_measured_rates_say():
    """Per request for a line and per sector written in part, in whole sectors: one such
    sector a request costs 116/33.5 whole ones, four cost 4 x 116/55.2."""
    per_line, per_sector = partial_write_costs_of(gpus.load("H100"))
    assert per_line + per_sector == pytest.approx(116.173 / 33.5, rel=1e-3)
    assert per_line + 4 * per_sector == pytest.approx(4 * 116.173 / 55.2, rel=1e-3)
    assert partial_write_costs_of(gpus.load("A100")) == (0.0, 1.0)


@pytest.mark.parametrize("stride", [1, 8, 32, 2048])
def test_scattered_int_stores_take_the_h100s_time(stride):
    """Stride 1: a coalesced fill (whole sectors); 8: a lane a sector, four a line (the cache
    model counts the requests for lines written in part); 32 and 2048: every lane its own line,
    as a transpose's column store."""
    spec, measured = _scatter(4194304, stride)
    predicted = memsim.predict_spec(spec, gpu="H100")[0].metrics[DURATION]
    assert predicted == pytest.approx(measured, rel=0.25)


@pytest.mark.parametrize("gpu, results", [("H100", "h100_partial_write_results.json"),
                                          ("H200", "h200_partial_write_results.json")])
def test_the_profiles_partial_write_rates_are_the_probes(gpu, results):
    """Each profile's two rates are its own GPU's recorded probe: 16 MB scattered, a lane a line
    (strides 32 and 2048, averaged) and a lane a sector (stride 8), sectors over SM cycles at the
    base clock ncu runs at."""
    profile = gpus.load(gpu)
    launches = json.loads((PROBE / results).read_text())["launches"]

    def rate(stride: int) -> float:
        launch = next(x for x in launches if (x["kernel"], x["ints"], x["stride"]) == ("k_scatter", 4194304, stride))
        ns = statistics.median(r[DURATION] for r in launch["runs"])
        return launch["runs"][0]["lts__t_sectors_srcunit_tex_op_write.sum"] / (ns * profile.clocks.sm_base_mhz / 1e3)

    tp = profile.throughput
    assert tp.l2_partial_write_sectors_per_clk == pytest.approx((rate(32) + rate(2048)) / 2, rel=0.02)
    assert tp.l2_partial_write_quad_sectors_per_clk == pytest.approx(rate(8), rel=0.02)
