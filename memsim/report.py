"""Result models of a simulation: pydantic, so they go to JSON and come back unchanged."""
from __future__ import annotations

from pydantic import AliasChoices, BaseModel, Field

from .gpus import DEFAULT_ARCH
from . import metrics as m


class InstructionCounters(BaseModel):
    """Dynamic counts of one static memory instruction (summed over every warp that ran it)."""

    index: int = Field(description="position of the instruction in the engine's listing of the kernel")
    listing: str = Field(validation_alias=AliasChoices("listing", "ptx"),
                         description="the instruction's text in the engine's listing: PTX or SASS, as "
                                     "KernelReport.engine says (reports stored before the rename call it "
                                     "`ptx`; they still load)")
    line: int = Field(description="CUDA source line (0 where the compiler gave none)")
    space: str = Field(description="global | shared | local | const | param")
    op: str = Field(description="ld | st | atom | red")
    width: int = Field(description="bytes each thread accesses")
    executed: int = Field(0, description="warp-level executions")
    requests: int = Field(0, description="warp executions with at least one active thread")
    threads: int = Field(0, description="thread-level executions (active, predicate on)")
    sectors: int = Field(0, description="32-byte sectors (global) touched, summed over requests")
    ideal_sectors: int = Field(0, description="sectors if each request's bytes were contiguous and aligned")
    wavefronts: int = Field(0, description="shared-memory wavefronts, summed over requests")
    ideal_wavefronts: int = Field(0, description="wavefronts without bank conflicts")
    bytes: int = Field(0, description="bytes the active threads accessed")
    modeled_dram_write_bytes: float | None = Field(
        None, description="MODELED (memsim.predict, stores and atomics): the bytes of this "
                          "instruction's writes that the L2 wrote back to DRAM during the launch "
                          "(dirty sectors it evicted); None where no cache model ran")
    modeled_l2_partial_writes: tuple[int, int] | None = Field(
        None, description="MODELED (memsim.predict, stores): this instruction's requests to the L2 for "
                          "one line with a sector written in part, and those sectors; None where no "
                          "cache model ran or the GPU writes DRAM by the byte")

    @property
    def sectors_per_request(self) -> float:
        return self.sectors / self.requests if self.requests else 0.0

    @property
    def wavefronts_per_request(self) -> float:
        return self.wavefronts / self.requests if self.requests else 0.0


class LineCounters(BaseModel):
    """Memory counters of one source line and access kind, like ncu's Source page."""

    line: int
    source: str = ""
    space: str
    op: str
    width: int
    instructions: int = Field(description="static PTX instructions folded into this row")
    executed: int = 0
    requests: int = 0
    sectors: int = 0
    ideal_sectors: int = 0
    wavefronts: int = 0
    ideal_wavefronts: int = 0
    bytes: int = 0

    @property
    def sectors_per_request(self) -> float:
        return self.sectors / self.requests if self.requests else 0.0

    @property
    def ideal_sectors_per_request(self) -> float:
        return self.ideal_sectors / self.requests if self.requests else 0.0

    @property
    def coalescing_efficiency(self) -> float:
        """Useful fraction of the sectors moved (1.0 = perfectly coalesced)."""
        return self.ideal_sectors / self.sectors if self.sectors else 1.0

    @property
    def wavefronts_per_request(self) -> float:
        return self.wavefronts / self.requests if self.requests else 0.0

    @property
    def bank_conflicts(self) -> int:
        """Wavefronts beyond the conflict-free minimum."""
        return self.wavefronts - self.ideal_wavefronts


class KernelReport(BaseModel):
    """What one simulated launch did to the memory system, under ncu's metric names."""

    kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    shared_mem: int = 0
    static_shared_bytes: int = Field(0, description="the kernel's static shared memory per block")
    registers_per_thread: int | None = Field(None, description="registers per thread ptxas gave the kernel "
                                             "(its cubin's EIATTR_REGCOUNT); None where no cubin was read")
    arch: str = DEFAULT_ARCH
    nvrtc_version: str = ""
    gpu: str | None = Field(None, description="the GPU profile the modeled metrics are of; None "
                            "when no model ran (exact counts are of sm_90 code)")
    metrics: dict[str, int | float] = Field(default_factory=dict)
    provenance: dict[str, m.Provenance] = Field(default_factory=dict)
    instructions: list[InstructionCounters] = Field(default_factory=list)
    lines: list[LineCounters] = Field(default_factory=list)
    source_file: str = ""
    engine: str = Field("ptx", description="ptx: PTX emulation (fast); sass: the sm_90 SASS the GPU runs (exact)")
    simulation_seconds: float = 0.0
    time_simulation: dict | None = Field(None, description="memsim.timing.SimulatedTime of the launch (where "
                                         "the warp-level simulation ran): stalls, utilization, limiter")
    nvprof_metrics: dict[str, float] = Field(default_factory=dict, description="nvprof's metrics "
                                             "on a Pascal GPU (memsim.model.nvprof_metrics; empty elsewhere)")

    def metric(self, name: str) -> float:
        return self.metrics[name]

    def memory_transactions(self) -> int:
        """Global sectors plus shared wavefronts: what `memsim sweep` and the autotune choice
        rank configurations by where no modeled time exists."""
        get = lambda name: self.metrics.get(name, 0)   # noqa: E731
        return int(get(m.GLOBAL_LD_SECTORS) + get(m.GLOBAL_ST_SECTORS)
                   + get(m.SHARED_LD_WAVEFRONTS) + get(m.SHARED_ST_WAVEFRONTS))

