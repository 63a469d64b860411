"""The warp-level timing simulation (memsim.timing): its inputs from the SASS engine (issue trace,
ptxas' control bits) and the behaviour of the simulated SM."""
from __future__ import annotations

import math

import numpy as np
import pytest

import memsim
from memsim import metrics as m
from memsim.engine.issue_trace import IssueTraceRequest
from memsim.gpus import load
from memsim.stream import NO_BARRIER, WAIT
from memsim.timing import sample_blocks, simulate_time

COPY = r"""
extern "C" __global__ void k_copy(const float* a, float* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = a[i];
}
extern "C" __global__ void k_chain(float* out, int steps) {
    float x = threadIdx.x;
    for (int s = 0; s < steps; s++) x = x * 1.0001f + 0.5f;
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
"""


def _traced(kernel: str, grid: int, block: int, args, blocks=None):
    request = IssueTraceRequest(blocks=np.arange(grid) if blocks is None else blocks)
    report = memsim.simulate(COPY, kernel, grid, block, args, issue_trace=request)
    return report, request


def _copy_args(n: int):
    return [np.arange(n, dtype=np.float32), np.zeros(n, np.float32), np.int32(n)]


def test_the_issue_trace_holds_every_warp_instruction_of_the_sampled_blocks():
    report, request = _traced("k_copy", 8, 128, _copy_args(1024))
    assert request.trace.instructions == report.metrics[m.SASS_WARP_INSTRUCTIONS]
    assert list(request.trace.blocks) == list(range(8))
    per_warp = np.diff(request.trace.start)
    assert len(per_warp) == 8 * 4 and per_warp.min() > 0


@pytest.mark.parametrize("blocks", [np.array([0, 3]), np.array([5])])
def test_only_the_sampled_blocks_are_recorded(blocks):
    report, request = _traced("k_copy", 8, 128, _copy_args(1024), blocks)
    assert list(request.trace.blocks) == list(blocks)
    assert request.trace.instructions == report.metrics[m.SASS_WARP_INSTRUCTIONS] * len(blocks) // 8


def test_a_full_buffer_drops_whole_blocks():
    report, _ = _traced("k_copy", 8, 128, _copy_args(1024))
    per_block = report.metrics[m.SASS_WARP_INSTRUCTIONS] // 8
    request = IssueTraceRequest(blocks=np.arange(8), capacity=int(3.5 * per_block))
    memsim.simulate(COPY, "k_copy", 8, 128, _copy_args(1024), issue_trace=request)
    assert list(request.trace.blocks) == [0, 1, 2]
    assert request.trace.instructions == 3 * per_block


@pytest.mark.parametrize("capacity_blocks", [2.5, 40.5, 1000])
def test_the_workers_record_the_blocks_one_worker_records(capacity_blocks):
    """Enough blocks to run on every core: each worker fills a buffer of its own, and the trace
    keeps the sampled blocks one worker would have kept (launch order, up to `capacity`)."""
    import numba

    n, blocks = 256 * 128, np.arange(0, 256, 3)
    per_block = _traced("k_copy", 1, 128, _copy_args(128))[0].metrics[m.SASS_WARP_INSTRUCTIONS]
    traces = []
    for threads in (1, numba.get_num_threads()):
        numba.set_num_threads(threads)
        try:
            request = IssueTraceRequest(blocks=blocks, capacity=int(capacity_blocks * per_block))
            memsim.simulate(COPY, "k_copy", 256, 128, _copy_args(n), issue_trace=request)
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        traces.append(request.trace)
    assert len(traces[0].blocks) == min(int(capacity_blocks), len(blocks))
    for field in ("blocks", "start", "pc", "aux"):
        np.testing.assert_array_equal(getattr(traces[0], field), getattr(traces[1], field))


def test_ptxas_control_bits_make_a_load_s_consumer_wait_on_its_barrier():
    _, request = _traced("k_copy", 1, 32, _copy_args(32))
    schedule = request.schedule
    assert schedule.from_compiler
    loads = np.nonzero(schedule.wait == WAIT["global_load"])[0]
    assert len(loads) == 1
    barrier = schedule.write_barrier[loads[0]]
    assert barrier != NO_BARRIER
    later = schedule.wait_mask[loads[0] + 1:]
    assert np.any(later & (1 << barrier)), "the store of the loaded value waits on the load's barrier"


def _simulated(kernel, grid, block, args, gpu="H100", **kwargs):
    report = memsim.predict(COPY, kernel, grid, block, args, gpu=gpu)
    return report, report.time_simulation


def test_predict_carries_the_simulation_and_the_formula_side_by_side():
    report, sim = _simulated("k_copy", 64, 256, _copy_args(64 * 256))
    assert sim is not None and sim["from_compiler"]
    assert report.metrics[m.DURATION] == pytest.approx(sim["duration_ns"])
    assert m.FORMULA_DURATION in report.metrics
    assert sum(sim["stalls"].values()) == pytest.approx(1.0)


@pytest.mark.parametrize("steps", [64, 256])
def test_a_dependent_chain_costs_its_stalls(steps):
    """One warp, x = x * a + b repeated: each FFMA waits for the last (ptxas' stall counts), so
    the time grows with the chain at about the FFMA latency per step."""
    profile = load("H100")
    short = _simulated("k_chain", 1, 32, [np.zeros(32, np.float32), np.int32(steps)])[1]["sm_cycles"]
    long = _simulated("k_chain", 1, 32, [np.zeros(32, np.float32), np.int32(2 * steps)])[1]["sm_cycles"]
    per_step = (long - short) / steps
    assert 0.5 * profile.instruction_latency.ffma <= per_step <= 3 * profile.instruction_latency.ffma


def test_a_streaming_copy_is_bandwidth_bound_and_scales_with_its_bytes():
    n = 1 << 22
    small = _simulated("k_copy", n // 256, 256, _copy_args(n))[1]
    big = _simulated("k_copy", 2 * n // 256, 256, _copy_args(2 * n))[1]
    assert small["limiter"] in ("dram", "l2", "l1")
    ratio = (big["duration_ns"] - big["fixed_ns"]) / (small["duration_ns"] - small["fixed_ns"])
    assert 1.6 <= ratio <= 2.4


def test_sampling_whole_waves_and_scaling_stays_close_to_simulating_them_all():
    n = 1 << 21
    report, request = _traced("k_copy", n // 256, 256, _copy_args(n), sample_blocks(n // 256, load("H100")))
    report = memsim.predict(COPY, "k_copy", n // 256, 256, _copy_args(n), gpu="H100")
    profile = load("H100")
    whole = simulate_time(report, request.trace, request.schedule, profile, 8)
    sampled = simulate_time(report, request.trace, request.schedule, profile, 8,
                            max_issues=request.trace.instructions // 4)
    assert sampled.scale > 1.5
    assert sampled.duration_ns == pytest.approx(whole.duration_ns, rel=0.15)


def test_no_simulation_without_a_timing_profile():
    report, request = _traced("k_copy", 2, 64, _copy_args(128))
    assert simulate_time(report, request.trace, request.schedule, load("A100"), 8) is None


def test_explain_names_the_limiter_and_the_warp_states(tmp_path):
    from memsim.cli import main
    from memsim.views.explain import explain_tables
    report, _ = _simulated("k_copy", 64, 256, _copy_args(64 * 256))
    head, states = explain_tables(report)
    assert "limited by" in head.title
    assert states.row_count >= 2


def test_explain_without_a_gpu_is_one_line(capsys):
    from memsim.cli import main
    code = main(["predict", "transpose_naive", "--nx", "64", "--explain"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "--gpu" in err[0]


UNEVEN = r"""
extern "C" __global__ void k_uneven(float* out, int steps, int heavy_block) {
    float x = threadIdx.x;
    int n = blockIdx.x == heavy_block ? 4 * steps : steps;
    for (int s = 0; s < n; s++) x = x * 1.0001f + 0.5f;
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
"""


def _uneven_ns(heavy_block: int, grid: int = 8) -> float:
    args = [np.zeros(grid * 64, np.float32), np.int32(2000), np.int32(heavy_block)]
    return memsim.predict(UNEVEN, "k_uneven", grid, 64, args, gpu="H100").metrics[m.DURATION]


@pytest.mark.parametrize("heavy_block", [0, 5])
def test_a_grid_of_a_block_an_sm_lasts_as_long_as_its_slowest_block(heavy_block):
    """Eight blocks on eight SMs: one loops four times as long, and the launch waits for it,
    whichever block it is (block 0 alone was once simulated)."""
    even, first = _uneven_ns(-1), _uneven_ns(0)
    assert first > 2.5 * even
    assert _uneven_ns(heavy_block) == pytest.approx(first, rel=0.02)


def test_the_slowest_candidates_are_the_heaviest_block_and_the_one_with_the_longest_warp():
    from memsim.stream import WarpInstructionTrace
    from memsim.timing import one_block, slowest_candidates
    per_warp = np.array([5, 5, 9, 1, 6, 6, 3, 3])          # 4 blocks of 2 warps: sums 10, 10, 12, 6
    start = np.concatenate([[0], np.cumsum(per_warp)])
    trace = WarpInstructionTrace(blocks=np.array([0, 132, 264, 396]), warps_per_block=2, start=start,
                                 pc=np.arange(start[-1]), aux=np.zeros(start[-1], np.int64))
    assert slowest_candidates(trace) == [1, 2]
    alone = one_block(trace, 2)
    assert list(alone.blocks) == [264] and list(alone.start) == [0, 6, 12]
    assert list(alone.pc) == list(range(20, 32))


@pytest.mark.parametrize("limit", [100, 1 << 24])
def test_the_load_outcomes_kept_for_the_simulation_are_bounded(monkeypatch, limit):
    """Every block of a one-wave grid is watched; the outcomes kept stop where an issue trace
    would (memsim.model.cache.traffic.WATCHED_LOADS), whole blocks first, in launch order."""
    from memsim.model.cache import traffic
    from memsim.prediction import _run_with_caches
    monkeypatch.setattr(traffic, "WATCHED_LOADS", limit)
    n = 64 * 256
    _, model = _run_with_caches(COPY, "k_copy", 64, 256, _copy_args(n), gpu="H100", watched_blocks=np.arange(64))
    kept = model.load_outcomes()
    assert len(kept.block) == min(limit, n // 32)
    assert list(kept.block[:8]) == sorted(kept.block[:8])
