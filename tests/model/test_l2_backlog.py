"""The L2 sees a wave's blocks at once, however the cache model splits them into windows
(memsim.model.cache.l2_backlog): the L1 pass runs window by window, the L2 pass over the windows
of a batch merged by time."""
import numpy as np
import pytest

from memsim.model.cache import CacheTuning, TrafficEstimate
from memsim.prediction import simulate_with_caches
from tests.helpers.profiles import one_pass

ONE_PASS = one_pass("H100")
# One warp a block in a grid-stride loop; of each 132 blocks (one to an SM), block r < 66 writes
# the even floats of the sectors whose odd floats block r + 66 writes, so no sector is whole
# until both have written it. With 264 blocks (one wave) of 248 stores each and windows of 2^14
# accesses (66 blocks), the two blocks of a pair are in different windows.
SOURCE = r'''
extern "C" __global__ void k_pairs(float* out, int rounds) {
  int group = blockIdx.x / 132, r = blockIdx.x % 132, pair = group * 66 + r % 66, side = r / 66;
  for (int k = 0; k < rounds; ++k)
    out[((k * (gridDim.x / 2) + pair) * 32 + threadIdx.x) * 2 + side] = 1.0f;
}'''
BLOCKS, ROUNDS = 264, 248


def traffic(window: int, batch: int) -> TrafficEstimate:
    tuning = CacheTuning.for_gpu(ONE_PASS).model_copy(update={"window_requests": window, "l2_batch_accesses": batch})
    out = np.zeros(BLOCKS * ROUNDS * 32, np.float32)
    report = simulate_with_caches(SOURCE, "k_pairs", BLOCKS, 32, [out, np.int32(ROUNDS)], gpu=ONE_PASS,
                                  tuning=tuning, timeout=None)
    return TrafficEstimate.model_validate({k: report.metrics[k] for k in TrafficEstimate().metrics()})


def test_windows_of_one_wave_meet_in_the_l2_as_one_window():
    whole = traffic(1 << 20, 1 << 20)
    split = traffic(1 << 14, 1 << 20)
    assert split.dram_read_bytes == whole.dram_read_bytes
    assert split.dram_write_bytes == whole.dram_write_bytes
    assert split.l2_write_sectors == whole.l2_write_sectors


@pytest.mark.parametrize("batch, partly_read", [(1, True), (1 << 20, False)])
def test_sectors_finished_by_blocks_of_different_windows_are_read_only_when_windows_run_apart(batch, partly_read):
    """Window by window, the first windows' half-written sectors wait for 24,576 other partly
    written lines, are read from DRAM and written back before their other halves come."""
    read = traffic(1 << 14, batch).dram_read_bytes
    assert (read > 1 << 20) == partly_read
