"""The contract every engine implements, and the launch it is handed.

memsim.engine.simulation checks a launch once (dimensions, limits, budget), builds the heap
and the parameter block, asks the engine chosen from memsim.engine.registry to `load` the
kernel and `run` it, and assembles the report; memsim.prediction asks the same engine for the
`shape` of its code (the register flow the order model reads) before running it with the
cache model listening to the trace. So no caller knows which engine runs, and an engine holds
only what is its own: compiling to the code it runs, lowering, and executing that code.

    class MyEngine(Engine):
        name, label, note = "mine", "MINE", "what its counts are"
        def load(self, launch, variables_base): ...   # -> LoadedKernel
        def run(self, kernel, launch, heap, params): ...   # -> counters [pc, C_*] (+ metrics)
        def shape(self, source, kernel_name, arch, options): ...   # -> KernelShape
    registry.register(MyEngine)
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import ClassVar, Sequence

import numpy as np

from ..compiler.nvrtc import KernelModule, kernel_module, load_source
from ..gpus import GpuProfile, default_profile
from ..launch import Value
from ..stream import CodeFlow, LocalAccesses
from .layout import KernelLayout
from .memory import GlobalHeap
from .program import TracedProgram
from .issue_trace import IssueTraceRequest
from .trace import TraceRequest

DEFAULT_BUDGET = 2_000_000_000   # warp instructions per worker and chunk: minutes of emulation
# Seconds a launch may emulate. An endless loop stops here with its line and warps named; the
# longest launches of the benchmarks and of validate take under 10 s.
DEFAULT_TIMEOUT = 30.0


@dataclass
class Launch:
    """One launch, checked (memsim.engine.simulation.check_launch): what every engine runs."""

    source: str
    kernel_name: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    args: list[Value]
    shared_mem: int
    arch: str
    options: tuple[str, ...]
    budget: int = DEFAULT_BUDGET           # warp instructions per worker and chunk
    timeout: float | None = DEFAULT_TIMEOUT   # seconds of emulation; None or 0: no limit
    trace: TraceRequest | None = None
    issue_trace: IssueTraceRequest | None = None   # engines that cannot record leave it unfilled
    gpu: GpuProfile = field(default_factory=default_profile)   # the GPU it runs on

    @property
    def nsmid(self) -> int:
        """%nsmid: the GPU's SMs (%smid ranges over them)."""
        return self.gpu.sm_count

    @property
    def threads(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]

    @property
    def blocks(self) -> int:
        return self.grid[0] * self.grid[1] * self.grid[2]


@dataclass
class Source:
    """The launch's source as the report shows it (memsim.compiler.nvrtc.load_source)."""

    text: str
    name: str
    is_ptx: bool


@dataclass
class LoadedKernel:
    """What an engine's `load` gives the launch: the program it runs (one StaticInstruction per
    row: the report's instruction rows and the trace's pcs), the parameter and variable layout
    the heap and parameter block follow, the source and the compiler release."""

    program: TracedProgram
    layout: KernelLayout
    source: Source
    compiler: str
    private: dict = field(default_factory=dict)    # the engine's own (constant banks, ...)
    registers: int | None = None                   # per thread, from the cubin; None: unknown


@dataclass
class RunResult:
    """Per-instruction counters (memsim.engine.count's C_* columns, one row per program row)
    and any metrics only this engine measures."""

    counters: np.ndarray
    metrics: dict[str, int] = field(default_factory=dict)


@dataclass
class KernelShape:
    """What the cache model's driver needs of the code before the run: static shared memory,
    the memory instructions that go through L1 to the L2, whether a branch goes back (a loop
    that can repeat accesses), and the register flow of the code whose pcs the trace carries."""

    shared_static: int
    global_instructions: int        # global accesses, and local ones where `local` is given
    has_loops: bool
    flow: CodeFlow
    registers: int | None = None    # per thread, from the cubin; None: unknown
    local: LocalAccesses | None = None   # None: no local access the trace carries to the cache model
    widths: np.ndarray | None = None     # [pc] bytes a lane of each memory access; None: not known


class Engine(ABC):
    """An emulator of one kind of code. Subclasses set the class attributes and implement
    `load`, `run` and `shape`; memsim.engine.registry lists them by `name`."""

    name: ClassVar[str]                  # memsim.simulate(..., engine=name)
    label: ClassVar[str]                 # how errors name an instruction: "<label> instruction 12"
    note: ClassVar[str]                  # what its counts are

    @classmethod
    def runs(cls, arch: str) -> bool:
        """Whether it runs `arch`'s code as the GPU does (what "auto" picks it for)."""
        return False

    @staticmethod
    def compile(source: str, kernel_name: str, arch: str, options: Sequence[str]) -> tuple[Source, KernelModule]:
        """The source (text or file) and the PTX module holding its kernel (NVRTC for CUDA C)."""
        text, name, is_ptx = load_source(source)
        return Source(text, name, is_ptx), kernel_module(text, name, is_ptx, kernel_name, arch, options)

    @abstractmethod
    def load(self, launch: Launch, variables_base: int) -> LoadedKernel:
        """Compile and lower the launch's kernel; module variables go on the heap from
        `variables_base` (memsim.engine.memory.GlobalHeap)."""

    @abstractmethod
    def run(self, kernel: LoadedKernel, launch: Launch, heap: GlobalHeap, params: np.ndarray) -> RunResult:
        """Run every block: the heap holds the buffers and variables (placed, not built: the
        engine builds it with the room it needs), `params` is the packed parameter block.
        Streams the launch's trace, and raises memsim.engine.faults.describe's error for a
        failed run."""

    @abstractmethod
    def shape(self, source: str, kernel_name: str, arch: str, options: Sequence[str]) -> KernelShape:
        """The shape of the code `run` would run for this kernel, without running it."""

    def name_metrics(self, metrics: dict[str, int]) -> dict[str, int]:
        """The report's metrics under this engine's names (memsim.engine.tally counts
        instructions under the PTX names)."""
        return metrics
