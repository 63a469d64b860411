"""What every lowered program has, whichever engine lowered it: one StaticInstruction per row
of its int64 `code` (what the report, the trace's selection and the error messages need to know
of an instruction), and where its branches go back."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

import numpy as np


@dataclass
class StaticInstruction:
    """What the report needs to know about one instruction."""

    index: int
    text: str
    line: int
    opcode: str
    space: str = ""
    op: str = ""
    width: int = 0
    # A SASS generic LD/ST: counted per lane in global and shared memory (two report rows).
    generic: bool = False


class TracedProgram(Protocol):
    """A lowered program (memsim.engine.ptx.program.Program or
    memsim.engine.sass.program.SassProgram): one StaticInstruction per row of `code`."""

    kernel: str
    code: np.ndarray
    instructions: Sequence[StaticInstruction]


def has_loops(code: np.ndarray, is_branch: np.ndarray, target_field: int) -> bool:
    """A branch back to an earlier instruction: a loop that can repeat memory accesses. A
    branch to itself repeats none (ptxas ends every kernel with one, after the last EXIT), and
    counting it would size every SASS trace for loops: one block per chunk."""
    branches = np.nonzero(is_branch)[0]
    return bool(np.any(code[branches, target_field] < branches))
