"""A warp's load waits for its slowest line (memsim.timing.sm._memory): a request whose lines
miss L1 waits for DRAM when any one of them misses the L2 as well."""
from __future__ import annotations

import numpy as np
import pytest

from memsim import gpus
from memsim.stream import AUX_LINES, AUX_PASSES
from memsim.timing.machine import machine_config
from memsim.timing.sm import C_DRAM, MEM_DRAM, MEM_MISS, N_MEM, W_GLOBAL_LOAD, _memory

PROFILE = gpus.load("H100")


def dram_share(lines: int, miss: float, l2_miss: float, requests: int = 2000) -> float:
    """Share of `requests` past-L1 global loads of `lines` lines each that wait for DRAM."""
    cfg = machine_config(PROFILE, PROFILE.sm_count, 1)
    mem = np.zeros((1, N_MEM), np.float64)
    mem[0, MEM_MISS], mem[0, MEM_DRAM] = miss, l2_miss
    carry = np.zeros((1, 2), np.float64)
    aux = float(lines * 4 | 1 << AUX_PASSES | lines << AUX_LINES)
    waited = 0
    for k in range(requests):
        queues = np.zeros(7, np.float64)
        back, _ = _memory(W_GLOBAL_LOAD, 0, aux, 1, 0.0, mem, cfg, queues, carry)
        waited += back >= cfg[C_DRAM]
    return waited / requests


@pytest.mark.parametrize("lines, miss, expected", [(1, 1.0, 0.5), (4, 0.25, 0.5), (32, 0.125, 1 - 0.5 ** 4),
                                                   (32, 1.0, 1.0)])
def test_a_request_waits_for_dram_when_any_missing_line_misses_the_l2(lines, miss, expected):
    """Half the sectors that miss L1 miss the L2 too. A one-line request (or one whose expected
    missing lines are one) waits for DRAM half the time; 32 lines of which an eighth miss L1
    (darknet's mean_kernel: each lane walks its own row, 4 lanes a request cross into a new
    sector) wait for DRAM unless all four missing lines hit the L2."""
    assert dram_share(lines, miss, 0.5) == pytest.approx(expected, abs=0.01)
