"""Warps that exit early give their slots back (gpu/cache_probe/exit_probe.py, recorded on the
H100): blocks of 8 warps of which 1, 2, 4 or all 8 run a dependent FFMA chain. The H100 keeps
about 10 such blocks resident where 7 of each exit at once (sm__ctas_active; the launch-time
limit is 8), and spreads the working warps over its four sub-partitions; where registers limit
the blocks (k_chain_regs, 102 a thread: 2 blocks) exiting warps free nothing. The timing
simulation is held to the H100's durations."""
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
    return statistics.median(run[i][m.DURATION] for run in RESULTS["runs"].values() if i < len(run))


# k_chain_regs with one working warp a block is +30%: two blocks an SM either way, so not the
# slot rule but one warp's issue rate over independent FFMAs (docs/time-model.md, session 14)
TIMED = [(i, launch) for i, launch in enumerate(RESULTS["launches"]) if launch[0] == "chain"]


@pytest.mark.parametrize("i, launch", TIMED, ids=lambda v: str(v))
def test_blocks_whose_warps_exit_early_run_as_the_h100_runs_them(i, launch):
    kind, working, iters = launch
    spec = LaunchSpec(source=SOURCE, kernel=f"k_{kind}", grid=(BLOCKS, 1, 1), block=(256, 1, 1),
                      args=[f"float32[{BLOCKS * 256}]:zeros", f"int32:{working}", f"int32:{iters}"])
    report, _ = memsim.predict_spec(spec, gpu="H100")
    assert report.metrics[m.DURATION] == pytest.approx(_measured(i), rel=0.25)


def _resident(kind: str, working: int, iters: int) -> float:
    i = RESULTS["launches"].index([kind, working, iters])
    return RESULTS["runs"]["run_4"][i]["sm__ctas_active.avg.per_cycle_active"]


def test_threads_come_back_with_each_warp_and_registers_with_the_block():
    """The evidence the rule rests on: one working warp of eight keeps more than the 8 blocks
    threads allow at launch resident, but not more than the 2 that 102 registers allow."""
    assert _resident("chain", 1, 64) > 9
    assert _resident("chain_regs", 1, 8) <= 2
