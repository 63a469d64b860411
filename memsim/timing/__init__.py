"""Stage 5b, time: a warp-level simulation of the SM, driven by the instructions the launch's
warps really issue (the SASS engine's issue trace) and ptxas' own schedule of them.

    request = memsim.engine.issue_trace.IssueTraceRequest(blocks=sample_blocks(grid_blocks, profile))
    report = memsim.simulate(..., issue_trace=request)            # (memsim.predict does all this)
    result = memsim.timing.simulate_time(report, request.trace, request.schedule, profile, blocks_per_sm)
    result.duration_ns, result.stalls, result.limiter

The machine (docs/time-model.md, "The warp-level simulation"):
- each SM has four sub-partition schedulers; each issues at most one warp instruction a cycle,
  to a pipe that accepts one every `pipe_issue_cycles` (the profile's, per ncu pipe);
- a warp waits as ptxas told it to: the stall count of its previous instruction, and the
  scoreboard barriers its next instruction's wait mask names (set by variable-latency
  instructions: memory, S2R, MUFU, shuffles, LDC, ...; memsim.engine.sass.control);
- memory instructions pass the SM's L1 pipe (one wavefront a cycle) and come back after the
  latency of the level that serves them; L2 and DRAM bytes queue at this SM's share of the
  GPU's bandwidth; barriers release a block's warps when the last one arrives; blocks start
  when a resident block ends, at most as many at once as occupancy allows;
- one SM is simulated: the blocks it would run (every `sm_count`-th block of the grid, so that
  blocks from the whole grid are represented), and when those are too many, as many whole
  block waves of them as the issue budget allows, scaled to the rest.
"""
from __future__ import annotations

import math

import numpy as np
from pydantic import BaseModel, Field

from ..gpus import GpuProfile
from ..report import KernelReport
from ..stream import IssueSchedule, WarpInstructionTrace
from ..model.cache import LoadOutcomes
from .machine import (atomic_unit_cycles, machine_config, memory_table, partial_write_costs_of, pipe_intervals,
                      request_levels, wait_latencies)
from .sm import (C_LAUNCH, C_LAUNCH_INTERVAL, MEM_ATOMIC, N_OUT, N_STALLS, O_CYCLES, O_DRAM_BUSY, O_FIRST_REFILL, O_ISSUED, O_L1_BUSY, O_L2_BUSY, O_LAST_START,
                 STALL_NAMES, simulate_sm)

MAX_SIMULATED_ISSUES = 3_000_000   # per prediction: about a second of simulation


class SimulatedTime(BaseModel):
    """What the warp-level simulation says of one launch."""

    duration_ns: float = Field(description="gpu__time_duration.sum: ncu, base clocks, caches flushed")
    sm_cycles: float = Field(description="cycles the busiest SM is busy (scaled to all its blocks)")
    blocks_per_sm: int = Field(description="blocks the busiest SM runs")
    resident_blocks: int = Field(description="blocks an SM holds at once (occupancy)")
    blocks_simulated: int
    traces: int = Field(description="distinct recorded blocks the simulated ones replay")
    scale: float = Field(description="blocks_per_sm / blocks_simulated: how far the simulated waves are scaled")
    issued: int = Field(description="warp instructions simulated")
    stalls: dict[str, float] = Field(description="share of warp-cycles per ncu warp state "
                                                 "(smsp__pcsamp_warps_issue_stalled_*; selected = issuing)")
    utilization: dict[str, float] = Field(description="busy share of the simulated time: issue (of the four "
                                                      "schedulers), l1 (L1 pipe), l2 and dram (this SM's share)")
    limiter: str = Field(description="the most utilized unit, or latency when none is busy half the time")
    fixed_ns: float = Field(description="the empty kernel's duration (launch and teardown under ncu)")
    from_compiler: bool = Field(description="ptxas' control bits were read from the cubin")


def sample_blocks(total_blocks: int, profile: GpuProfile) -> np.ndarray:
    """The blocks whose issues are recorded: those one SM would run, spread over the grid; in a
    grid of at most a block an SM, every block (the launch lasts as long as its slowest SM, and
    a data-dependent loop makes some blocks run longer: simulate_time takes the heaviest)."""
    if total_blocks <= profile.sm_count:
        return np.arange(total_blocks, dtype=np.int64)
    return np.arange(0, total_blocks, profile.sm_count, dtype=np.int64)


def slowest_candidates(trace: WarpInstructionTrace) -> list[int]:
    """The blocks of the trace that may run longest: the one that issued the most warp
    instructions (throughput-bound), and the one with the longest warp (latency-bound)."""
    per_warp = np.diff(trace.start).reshape(-1, trace.warps_per_block)
    return sorted({int(np.argmax(per_warp.sum(axis=1))), int(np.argmax(per_warp.max(axis=1)))})


def one_block(trace: WarpInstructionTrace, j: int) -> WarpInstructionTrace:
    """The trace of its j-th block alone."""
    w = trace.warps_per_block
    lo, hi = int(trace.start[j * w]), int(trace.start[(j + 1) * w])
    return WarpInstructionTrace(blocks=trace.blocks[j:j + 1], warps_per_block=w,
                                start=trace.start[j * w:(j + 1) * w + 1] - lo, pc=trace.pc[lo:hi], aux=trace.aux[lo:hi])


def scaled_cycles(out: np.ndarray, cfg: np.ndarray, per_sm: int, n_sim: int, resident: int) -> float:
    """The busiest SM's cycles for all its blocks from a simulation of the first n_sim: the blocks
    left start at the pace of block starts, and the last one's run (from its start to the end) is
    counted once. The pace is the one seen where at least a wave of blocks replaced others; after
    one wave, each of the `resident` slots takes a block per block run and turnaround, and the SM
    takes at most one block per launch interval."""
    if n_sim >= per_sm:
        return float(out[O_CYCLES])
    refills = n_sim - resident
    tail = out[O_CYCLES] - out[O_LAST_START]
    if refills >= resident:
        pace = (out[O_LAST_START] - out[O_FIRST_REFILL]) / max(refills - 1, 1)
    else:
        pace = max(cfg[C_LAUNCH_INTERVAL], (tail + cfg[C_LAUNCH]) / resident)
    return float(out[O_LAST_START] + (per_sm - n_sim) * pace + tail)


def simulate_time(report: KernelReport, trace: WarpInstructionTrace, schedule: IssueSchedule,
                  profile: GpuProfile, resident_blocks: int, *,
                  max_issues: int = MAX_SIMULATED_ISSUES, loads: LoadOutcomes | None = None,
                  block_slots: int = 0, warp_slots: int = 0) -> SimulatedTime | None:
    """Simulate the busiest SM's blocks; None where no block was recorded (engine without an
    issue trace, or a profile without a `timing` section). `block_slots`/`warp_slots`
    (memsim.model.scheduling.ResidentBlocks): the blocks and live warps an SM holds once warps
    that exited have given their slots back; 0: `resident_blocks` whole blocks."""
    if None in (profile.timing, profile.pipes, profile.instruction_latency, profile.sm_costs) or trace is None or schedule is None or len(trace.blocks) == 0:
        return None
    blocks = math.prod(report.grid)
    per_sm = -(-blocks // profile.sm_count)
    if per_sm == 1 and len(trace.blocks) > 1:   # a block an SM: the slowest SM's is the launch's time
        runs = [simulate_time(report, one_block(trace, j), schedule, profile, resident_blocks, max_issues=max_issues,
                              loads=loads, block_slots=block_slots, warp_slots=warp_slots)
                for j in slowest_candidates(trace)]
        return max(runs, key=lambda run: run.duration_ns)
    resident = max(1, min(resident_blocks, per_sm))
    n_traces = len(trace.blocks)
    per_block = max(trace.instructions / n_traces, 1.0)
    n_sim = per_sm
    if per_sm * per_block > max_issues:
        n_sim = max(resident, int(max_issues // per_block) // resident * resident)
        n_sim = min(n_sim, per_sm)
    n_pcs = len(schedule.stall)
    active = min(blocks, profile.sm_count)
    cfg = machine_config(profile, active, trace.warps_per_block)
    mem = memory_table(report, n_pcs, partial_write_costs_of(profile))
    # the busiest unit's packets spread over the SMs as their blocks do: this SM (per_sm blocks)
    # holds per_sm / blocks of it
    mem[:, MEM_ATOMIC] *= atomic_unit_cycles(report, profile, blocks / per_sm, profile.clocks.sm_base_mhz)
    out = np.zeros(N_OUT, np.float64)
    stalls = np.zeros(N_STALLS, np.float64)
    # every resident block keeps a live warp, and a new one needs a block's warp slots free
    warp_slots = max(warp_slots, resident * trace.warps_per_block)
    block_slots = max(min(block_slots, warp_slots - trace.warps_per_block + 1, per_sm), resident)
    simulate_sm(trace.start, trace.pc.astype(np.int64), trace.aux.astype(np.float64),
                request_levels(trace, schedule, loads), n_traces, n_sim,
                trace.warps_per_block, resident, block_slots, warp_slots,
                schedule.stall, schedule.write_barrier, schedule.read_barrier,
                schedule.wait_mask, schedule.pipe, schedule.wait, pipe_intervals(profile), wait_latencies(profile, trace.warps_per_block),
                mem, cfg, out,
                stalls)
    scale = per_sm / n_sim
    cycles = scaled_cycles(out, cfg, per_sm, n_sim, resident)
    floor = profile.launch.kernel_floor_ns
    duration = floor + profile.cycles_to_ns(cycles)
    span = max(out[O_CYCLES], 1.0)
    utilization = {"issue": out[O_ISSUED] / (4 * span), "l1": out[O_L1_BUSY] / span,
                   "l2": out[O_L2_BUSY] / span, "dram": out[O_DRAM_BUSY] / span}
    busiest = max(utilization, key=utilization.get)
    total = max(stalls.sum(), 1.0)
    return SimulatedTime(
        duration_ns=duration, sm_cycles=cycles, blocks_per_sm=per_sm, resident_blocks=resident,
        blocks_simulated=n_sim, traces=n_traces, scale=scale, issued=int(out[O_ISSUED]),
        stalls={name: float(v / total) for name, v in zip(STALL_NAMES, stalls)},
        utilization={k: float(min(v, 1.0)) for k, v in utilization.items()},
        limiter=busiest if utilization[busiest] >= 0.5 else "latency", fixed_ns=floor,
        from_compiler=schedule.from_compiler)
