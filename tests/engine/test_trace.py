"""Warp access traces: the lane addresses behind the counters."""
import numpy as np
import pytest

import memsim
from memsim.engine.trace import TraceRequest
from memsim.stream import WarpAccesses
from tests.helpers.kernels import TRACE_SOURCE as SRC


def test_trace_of_one_warp_and_line_gives_lane_addresses():
    n = 64
    a, b = np.random.rand(n * n).astype(np.float32), np.zeros(n * n, np.float32)
    request = TraceRequest(lines={3}, warps=(0, 1))
    report = memsim.simulate(SRC, "k_t", (2, 2), (32, 32), [a, b, np.int32(n)], trace=request)
    acc = request.accesses
    assert len(acc) == 2                              # one load, one store of warp 0 of block 0
    base_a = request.buffers[0][1]
    base_b = request.buffers[1][1]
    load, store = (acc.op == 0).nonzero()[0][0], (acc.op == 1).nonzero()[0][0]
    np.testing.assert_array_equal(acc.addresses[load], base_a + 4 * np.arange(32))
    np.testing.assert_array_equal(acc.addresses[store], base_b + 4 * n * np.arange(32))
    # the traced store's 32 distinct sectors are the per-request rate the counters report
    assert len(np.unique(acc.addresses[store] >> 5)) == 32
    assert report.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"] == 32 * n * n // 32


def test_streamed_chunks_cover_every_request_in_block_order():
    n = 256
    a, b = np.random.rand(n * n).astype(np.float32), np.zeros(n * n, np.float32)
    chunks = []
    request = TraceRequest(spaces=("global",), blocks_per_chunk=4, on_chunk=chunks.append)
    report = memsim.simulate(SRC, "k_t", (8, 8), (32, 32), [a, b, np.int32(n)], trace=request)
    blocks = np.concatenate([c.block for c in chunks])
    assert len(blocks) == report.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] * 2
    assert np.all(np.diff(blocks) >= 0)


@pytest.mark.parametrize("engine", ["ptx", "sass"])
@pytest.mark.parametrize("capacity", [1, 7, 100])
def test_a_full_buffer_is_handed_on_in_parts_that_join_into_the_whole_trace(engine, capacity):
    """flush_when_full: a chunk larger than the buffer comes in parts (all but the chunk's last
    with ends_chunk False) whose records, joined, are the chunk's. 64 blocks of 1024 threads:
    the PTX engine runs them on every core, and a later worker's parts wait for the earlier's."""
    n = 256
    args = [np.random.rand(n * n).astype(np.float32), np.zeros(n * n, np.float32), np.int32(n)]
    whole, parts = [], []
    memsim.simulate(SRC, "k_t", (8, 8), (32, 32), [a.copy() if hasattr(a, "copy") else a for a in args],
                    engine=engine, trace=TraceRequest(spaces=("global",), blocks_per_chunk=4,
                                                      capacity=1 << 14, on_chunk=whole.append))
    memsim.simulate(SRC, "k_t", (8, 8), (32, 32), args, engine=engine,
                    trace=TraceRequest(spaces=("global",), blocks_per_chunk=4, capacity=capacity,
                                       on_chunk=parts.append, flush_when_full=True))
    assert all(c.ends_chunk for c in whole) and len(parts) > len(whole)
    assert all(len(p) == capacity for p in parts if not p.ends_chunk)
    assert all(len(np.unique(p.block // 4)) == 1 for p in parts)    # the request's chunks, on any workers
    assert sum(p.ends_chunk for p in parts) == len(whole)
    joined, expected = WarpAccesses.concat(parts), WarpAccesses.concat(whole)
    for field in ("block", "warp", "pc", "op", "active", "addresses"):
        np.testing.assert_array_equal(getattr(joined, field), getattr(expected, field))


@pytest.mark.parametrize("engine", ["ptx", "sass"])
def test_a_failure_while_a_full_buffer_is_handed_on_is_raised_by_the_launch(engine):
    """on_chunk runs inside the emulator's loop when the buffer fills: what it raises comes out
    of memsim.simulate, not lost in the emulator."""
    n = 256

    def refuse(part):
        raise ValueError("no room")

    with pytest.raises(ValueError, match="no room"):
        memsim.simulate(SRC, "k_t", (2, 2), (32, 32), [np.zeros(n * n, np.float32), np.zeros(n * n, np.float32),
                                                      np.int32(n)], engine=engine,
                        trace=TraceRequest(spaces=("global",), capacity=10, on_chunk=refuse, flush_when_full=True))
