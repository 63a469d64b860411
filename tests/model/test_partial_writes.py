"""Partly written sectors: DRAM takes whole sectors, so the L2 reads a sector before it writes
back one whose every byte no store wrote, and waits only so long for the rest. Held to
the H100 recordings of gpu/cache_probe/partial_write_probe.py (h100_partial_write_results.json:
k_scatter writes each int of an array once, consecutive threads STRIDE ints apart; one ncu pass),
and the word bookkeeping (store_words) to the bytes a warp store covers."""
import json
import statistics

import numpy as np
import pytest

from memsim import metrics as m
from memsim.launch import LaunchSpec
from memsim.model.cache.passes import request_lines, store_words
from memsim.model.cache import TrafficEstimate
from memsim.prediction import simulate_with_caches
from tests.helpers import ROOT
from tests.helpers.profiles import one_pass

PROBE = ROOT / "gpu" / "cache_probe"
SOURCE = (PROBE / "partial_write_probe.py").read_text().split("S = r'''")[1].split("'''")[0]
RECORDED = json.loads((PROBE / "h100_partial_write_results.json").read_text())["launches"]
MIB = 1 << 20
ONE_PASS = one_pass("H100")


def recorded(ints: int, stride: int, metric: str) -> float:
    runs = next(r["runs"] for r in RECORDED if (r["kernel"], r["ints"], r["stride"]) == ("k_scatter", ints, stride))
    return statistics.median(run[metric] for run in runs)


def scatter(ints: int, stride: int) -> LaunchSpec:
    return LaunchSpec(source=SOURCE, kernel="k_scatter", grid=((ints + 255) // 256, 1, 1), block=(256, 1, 1),
                      args=[f"int32[{ints}]:zeros", f"int64:{ints}", f"int64:{stride}"])


def model_traffic(spec: LaunchSpec, gpu) -> TrafficEstimate:
    """The modeled traffic, with no wall-clock budget (16M threads take a while on a busy machine)."""
    report = simulate_with_caches(spec.source, spec.kernel, spec.grid, spec.block, spec.materialize(), gpu=gpu,
                                  timeout=None)
    return TrafficEstimate.model_validate({k: report.metrics[k] for k in TrafficEstimate().metrics()})


def without_whole_sector_writes():
    return ONE_PASS.model_copy(update={"l2": ONE_PASS.l2.model_copy(update={"whole_sector_writes": False})})


@pytest.mark.parametrize("stride", [2, 8])
def test_a_scatter_over_16_mb_reads_and_writes_back_most_of_its_sectors(stride):
    """Each sector's ints come from threads far apart: the L2, which holds 16 MB, still reads
    and writes back 13-14 MiB (an int write leaves its sector partly written for a long time)."""
    ints = 4 << 20
    traffic = model_traffic(scatter(ints, stride), gpu=ONE_PASS)
    assert recorded(ints, stride, m.DRAM_READ) > 0.8 * ints * 4
    assert traffic.dram_read_bytes == pytest.approx(recorded(ints, stride, m.DRAM_READ), rel=0.15)
    assert traffic.dram_write_bytes == pytest.approx(recorded(ints, stride, m.DRAM_WRITE), rel=0.20)


@pytest.mark.parametrize("stride", [2, 32])
def test_a_scatter_over_4_mb_is_mostly_whole_before_the_l2_gives_up_on_it(stride):
    """Over 4 MB the H100 reads 0.6-1.2 MiB: most lines get their other ints in time."""
    ints = 1 << 20
    traffic = model_traffic(scatter(ints, stride), gpu=ONE_PASS)
    assert recorded(ints, stride, m.DRAM_READ) < 0.35 * ints * 4
    assert traffic.dram_read_bytes == pytest.approx(recorded(ints, stride, m.DRAM_READ), abs=0.6 * MIB)


@pytest.mark.parametrize("stride", [1, 2048])
def test_sectors_written_whole_soon_cost_no_dram_reads(stride):
    """A coalesced fill (stride 1), and the transpose's order (stride 2048: a sector's ints come
    from 8 blocks in flight together), are whole before the L2 lets go of them."""
    ints = 4 << 20
    traffic = model_traffic(scatter(ints, stride), gpu=ONE_PASS)
    assert recorded(ints, stride, m.DRAM_READ) < 0.06 * ints * 4
    assert traffic.dram_read_bytes < 0.06 * ints * 4


def test_a_gpu_that_writes_dram_by_the_byte_reads_nothing_for_partial_sectors():
    ints = 4 << 20
    traffic = model_traffic(scatter(ints, 8), gpu=without_whole_sector_writes())
    assert traffic.dram_read_bytes < 0.01 * ints * 4


def _words(addresses: list[int], width: int) -> dict[int, int]:
    row = np.full(32, -1, np.int64)
    row[:len(addresses)] = addresses
    lines, masks = np.empty(32, np.int64), np.empty(128, np.int64)
    n = request_lines(row, lines, masks, np.empty(64, np.int64), np.zeros(64, np.int64), 1)
    words = np.zeros(32, np.int64)
    store_words(row, lines, n, width, words, np.empty(128, np.int64))
    return {int(lines[j]): int(words[j]) for j in range(n)}


def _halves(per_sector: int, sectors: int = 4) -> int:
    """The 64-bit (signed) half mask of a line whose first `sectors` sectors have `per_sector`."""
    bits = sum(per_sector << (16 * k) for k in range(sectors))
    return bits - (1 << 64) if bits >= 1 << 63 else bits


@pytest.mark.parametrize("addresses, width, expected", [
    (list(range(4096, 4096 + 128, 4)), 4, {32: -1}),                      # a warp's floats: the whole line
    (list(range(4096, 4096 + 32 * 32, 32)), 4, {32 + k: _halves(0x3) for k in range(8)}),  # one int a sector
    (list(range(4096, 4096 + 32)), 1, {32: 0xFFFF}),                      # 32 bytes: sector 0 whole
    (list(range(4096, 4096 + 16)), 1, {32: 0xFF}),                        # 16 bytes: eight halves
    ([4096, 4097], 1, {32: 0x1}),                                         # two bytes: one half
    ([4096], 1, {32: 0}),                                                 # one byte: no half whole
    (list(range(4096, 4096 + 64, 2)), 2, {32: _halves(0xFFFF, 2)}),       # a warp's halves: two sectors
    (list(range(4096, 4096 + 256, 8)), 4, {32: _halves(0x3333), 33: _halves(0x3333)}),  # stride-2 ints
    (list(range(4096, 4096 + 512, 16)), 16, {32 + k: -1 for k in range(4)}),
    (list(range(4096, 4096 + 256, 8)), 0, {32: -1, 33: -1}),              # width unknown: the 8-byte gap
    (list(range(4096, 4096 + 32 * 32, 32)), 0, {32 + k: _halves(0x3) for k in range(8)}),  # unknown, lone lanes: 4
])
def test_store_words_are_the_halves_a_warp_store_covers(addresses, width, expected):
    assert _words(addresses, width) == expected
