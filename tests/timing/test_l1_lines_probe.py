"""L1's data banks for global loads (gpu/probes/l1_lines_probe.cu, recorded on the H100): the
engine's count of bank passes and lines per request, and the profile's tag cost, against the
recording."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gpu.probes.l1_lines_probe import cycles_per_request
from memsim import gpus
from memsim.engine.count import l1_data_passes

RECORDING = Path(__file__).resolve().parents[2] / "gpu" / "probes" / "h100_l1_lines_probe.json"
PROFILE = gpus.load("H100")
CYCLES = cycles_per_request(json.loads(RECORDING.read_text()), PROFILE.clocks.sm_base_mhz, PROFILE.sm_count)
ALL = (1 << 32) - 1


def passes(addresses: list[int], width: int = 4, active: int = ALL) -> tuple[int, int]:
    return l1_data_passes(np.array(addresses, np.int64), active, width, np.zeros(32, np.int64))


@pytest.mark.parametrize("stride, expected", [(1, (1, 1)), (32, (32, 32)), (49, (1, 32)), (64, (32, 32))])
def test_the_probes_lanes_make_the_passes_and_lines_the_recording_shows(stride, expected):
    """Each probe stride's lanes (word stride * lane): one bank pass per line on one bank, one
    pass for 32 lines on 32 banks; the recorded cycles follow the larger of passes and lines x
    the tag cost."""
    got = passes([4 * stride * lane for lane in range(32)])
    assert got == expected
    bank_passes, lines = got
    modeled = max(bank_passes / PROFILE.throughput.shared_wavefronts_per_clk_per_sm,
                  lines * PROFILE.timing.l1_tag_cycles_per_line)
    assert modeled == pytest.approx(CYCLES[stride], rel=0.15)


def test_the_tag_cost_is_the_recorded_one():
    assert PROFILE.timing.l1_tag_cycles_per_line == pytest.approx(CYCLES[49] / 32, abs=0.005)


@pytest.mark.parametrize("width, addresses, expected", [
    (8, [8 * lane for lane in range(32)], (2, 2)),              # 256 coalesced bytes: two lines
    (16, [16 * lane for lane in range(32)], (4, 4)),            # 512 bytes: four
    (4, [0] * 32, (1, 1)),                                      # one word for every lane
    (4, [64 + 4 * lane for lane in range(32)], (1, 2)),         # 128 bytes across two lines: each bank once
    (8, [64 + 8 * lane for lane in range(32)], (2, 3)),         # 256 bytes across three lines
    (4, [188] + [64 + 4 * lane for lane in range(31)], (1, 2)),  # the same words, not in lane order
    (4, [4 * (lane % 4) for lane in range(32)], (1, 1)),        # four words of a line, repeated
    (4, [128 * (lane % 2) for lane in range(32)], (2, 2)),      # bank 0 of two lines
    (8, [256 * lane for lane in range(32)], (32, 32)),          # banks 0-1 of 32 lines
])
def test_bank_passes_count_distinct_lines_per_bank(width, addresses, expected):
    assert passes(addresses, width) == expected


def test_inactive_lanes_take_no_pass():
    assert passes([4 * 32 * lane for lane in range(32)], active=0b1011) == (3, 3)
    assert passes([0] * 32, active=0) == (0, 0)
