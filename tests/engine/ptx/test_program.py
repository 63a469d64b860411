"""The PTX engine's front end: parsing (memsim.engine.ptx.parser) and lowering to int64 rows
(memsim.engine.ptx.program), the parameters bound as constants."""
from __future__ import annotations

import numpy as np

from memsim.engine.ptx.opcodes import OP
from memsim.engine.ptx.parser import parse
from memsim.engine.ptx.program import F_LINE, F_OP, F_S0, F_SPACE, F_WIDTH, bind_params, lower
from memsim.stream import SP_GLOBAL
from tests.helpers.kernels import LAYOUT_PTX as PTX


def test_the_parser_reads_entries_registers_variables_and_instructions():
    module = parse(PTX)
    kernel = module.entry("k")
    assert kernel.entry and [p.name for p in kernel.params] == ["k_param_0", "k_param_1"]
    assert {"%r1", "%r2", "%rd1", "%rd3"} <= set(kernel.registers)
    assert [v.name for v in module.variables] == ["table"]
    assert [i.opcode for i in kernel.instructions] == ["ld", "ld", "mov", "cvta", "mul", "add", "st", "ret"]


def test_lowering_gives_one_row_and_one_static_instruction_per_instruction():
    program = lower(parse(PTX), "k")
    assert program.kernel == "k" and len(program.code) == len(program.instructions) == 8
    store = program.instructions[6]
    assert (store.op, store.space, store.width) == ("st", "global", 4)
    assert program.code[6, F_OP] == OP["st"] and program.code[6, F_SPACE] == SP_GLOBAL
    assert program.code[6, F_WIDTH] == 4
    assert np.all(program.code[:, F_LINE] >= 0)
    assert program.shared_static == 100 and program.layout.param_bytes == 12


def test_parameters_become_constants_of_the_launch():
    program = lower(parse(PTX), "k")
    block = np.zeros(16, np.uint8)
    block[8:12] = np.frombuffer(np.uint32(42).tobytes(), np.uint8)
    bound = bind_params(program, block)
    assert bound.code[1, F_OP] == OP["mov"]                # ld.param.u32 -> mov from a constant slot
    slot = int(bound.code[1, F_S0])
    assert (slot, 42) in bound.constants
    assert program.code[1, F_OP] == OP["ld"]               # the unbound program is left alone
