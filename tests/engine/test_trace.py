"""Warp access traces: the lane addresses behind the counters."""
import numpy as np

import memsim
from memsim.engine.trace import TraceRequest
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
