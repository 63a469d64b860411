"""Warps that exit early give their slots back (gpu/cache_probe/exit_probe.py, recorded on the
H100): blocks of 8 warps of which 1, 2, 4 or all 8 run a dependent FFMA chain. The H100 keeps
about 10 such blocks resident where 7 of each exit at once (sm__ctas_active; the launch-time
limit is 8), and spreads the working warps over its four sub-partitions. The timing simulation
is held to the H100's durations."""
import json
import statistics

import pytest

import memsim
from memsim import metrics as m
from memsim.launch import LaunchSpec
from tests.helpers import ROOT

PROBE = ROOT / "gpu" / "cache_probe"
SOURCE = (PROBE / "exit_probe.py").read_text().split("SRC = r'''")[1].split("'''")[0]
RESULTS = json.loads((PROBE / "h100_exit_results.json").read_text())
BLOCKS = 132 * 64


def _measured(i: int) -> float:
    return statistics.median(run[i][m.DURATION] for run in RESULTS["runs"].values())


@pytest.mark.parametrize("i, launch", list(enumerate(RESULTS["launches"])), ids=lambda v: str(v))
def test_blocks_whose_warps_exit_early_run_as_the_h100_runs_them(i, launch):
    _, working, iters = launch
    spec = LaunchSpec(source=SOURCE, kernel="k_chain", grid=(BLOCKS, 1, 1), block=(256, 1, 1),
                      args=[f"float32[{BLOCKS * 256}]:zeros", f"int32:{working}", f"int32:{iters}"])
    report, _ = memsim.predict_spec(spec, gpu="H100")
    assert report.metrics[m.DURATION] == pytest.approx(_measured(i), rel=0.25)


def test_the_h100_holds_more_blocks_than_launch_time_occupancy_when_warps_exit():
    """The evidence the rule rests on: one working warp of eight, 8 blocks by threads."""
    one_working = [i for i, launch in enumerate(RESULTS["launches"]) if launch[1] == 1 and launch[2] == 64]
    assert RESULTS["runs"]["run_3"][one_working[0]]["sm__ctas_active.avg.per_cycle_active"] > 8
