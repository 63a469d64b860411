"""The launch's memory, engine-independent: parameters and variables laid out from the PTX
declarations (memsim.engine.layout), the global heap and the parameter block
(memsim.engine.memory)."""
from __future__ import annotations

import numpy as np
import pytest

from memsim.engine.layout import kernel_layout
from memsim.engine.memory import ALIGN, GLOBAL_BASE, GUARD, GlobalHeap, pack_params, split_args
from memsim.errors import LaunchError
from memsim.stream import SP_GLOBAL, SP_LOCAL, SP_PARAM, SP_SHARED
from tests.helpers.kernels import LAYOUT_PTX as PTX


def test_parameters_and_variables_are_laid_out_from_the_declarations():
    layout = kernel_layout(PTX, "k", heap_base=GLOBAL_BASE + 8192)
    assert layout.kernel == "k"
    assert [(p.name, p.offset, p.size) for p in layout.params] == [("k_param_0", 0, 8), ("k_param_1", 8, 4)]
    assert layout.param_bytes == 12
    assert (layout.shared_static, layout.shared_dynamic_offset, layout.local_bytes) == (100, 112, 24)
    assert [v.name for v in layout.heap_variables] == ["table"]
    assert layout.variable_addresses["table"] == GLOBAL_BASE + 8192          # 256-byte aligned base
    assert layout.variable_addresses["dyn"] == 112 and layout.variable_addresses["tile"] == 0
    assert {name: layout.address_spaces[name] for name in ("k_param_0", "tile", "dyn", "stack", "table")} == {
        "k_param_0": SP_PARAM, "tile": SP_SHARED, "dyn": SP_SHARED, "stack": SP_LOCAL, "table": SP_GLOBAL}


def test_unknown_kernel_names_the_entries():
    with pytest.raises(LaunchError, match=r"no kernel named 'nope'.*kernels: k"):
        kernel_layout(PTX, "nope")


def test_buffers_sit_aligned_with_a_guard_gap_and_come_back_written():
    a, b = np.arange(10, dtype=np.float32), np.zeros(3, np.int64)
    args = [a, np.int32(7), b]
    heap = GlobalHeap(split_args(args))
    # 4 KiB-aligned, with GUARD bytes after each buffer: b starts two pages in
    assert [(s.position, s.address - GLOBAL_BASE, s.nbytes) for s in heap.slots] == [(0, 0, 40), (2, 2 * ALIGN, 24)]
    assert heap.variables_base == GLOBAL_BASE + 4 * ALIGN
    layout = kernel_layout(PTX, "k", heap.variables_base)
    heap.place_variables(layout)
    heap.build(layout)
    assert heap.views[2][(heap.slots[1].address - GLOBAL_BASE) // 4] == 0
    assert bytes(heap.raw[layout.variable_addresses["table"] - GLOBAL_BASE:][:8]) == bytes([1, 0, 0, 0, 2, 0, 0, 0])
    heap.raw[2 * ALIGN:2 * ALIGN + 8] = np.frombuffer(np.int64(5).tobytes(), np.uint8)
    heap.write_back()
    assert b.tolist() == [5, 0, 0]
    assert heap.describe(GLOBAL_BASE + 40) == "0 bytes past the end of argument 0 (40 bytes)"
    assert heap.describe(GLOBAL_BASE + 8) == "inside argument 0"
    assert GUARD == ALIGN


def test_the_parameter_block_holds_addresses_and_scalars_at_their_offsets():
    out = np.zeros(4, np.uint32)
    heap = GlobalHeap(split_args([out, np.uint32(9)]))
    block = pack_params(kernel_layout(PTX, "k", heap.variables_base), [out, np.uint32(9)], heap)
    assert int.from_bytes(block[0:8].tobytes(), "little") == GLOBAL_BASE
    assert int.from_bytes(block[8:12].tobytes(), "little") == 9


@pytest.mark.parametrize("args, message", [
    ([np.zeros(4, np.uint32)], r"takes 2 arguments, got 1"),
    ([np.zeros(4, np.uint32), np.int64(9)], r"int64 \(8 bytes\).*\.u32 \(4 bytes\)"),
    ([np.zeros(4, np.uint32), np.zeros(2, np.int32)], r"not a pointer"),
    ([np.zeros(4, np.uint32), 9], r"numpy scalars"),
])
def test_a_wrong_argument_is_one_line(args, message):
    heap = GlobalHeap(split_args(args))
    with pytest.raises(LaunchError, match=message):
        pack_params(kernel_layout(PTX, "k", heap.variables_base), args, heap)


def test_a_non_contiguous_buffer_is_refused():
    with pytest.raises(LaunchError, match="not C-contiguous"):
        split_args([np.zeros((4, 4), np.float32)[:, 1]])
