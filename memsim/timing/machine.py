"""The numbers one SM's simulation runs on (memsim.timing.sm's tables), read from a GPU profile
and the launch's modeled traffic: nothing here is fitted to a kernel duration.

Per pc of the program (`memory_table`): the L1 wavefronts per sector of a global request (one
per 128-byte line: a quarter where the request is coalesced, one where its sectors are
scattered), the shares of its requests that miss L1 and, of those, reach DRAM, and the L2
sectors and DRAM bytes each of its sectors moves, from the cache model's counters.
Per launch (`machine_config`): latencies in SM cycles at ncu's base clock, and the SM's share of
the L2 and DRAM bandwidth when `active_sms` SMs stream at once.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .. import metrics as m
from ..gpus import GpuProfile
from ..report import KernelReport
from ..model.cache import LoadOutcomes
from ..model.timing import busiest_unit_cycles
from ..stream import PIPES, WAITS, IssueSchedule, WarpInstructionTrace
from .sm import (C_COLD_CONSTANT, C_DRAM, C_DRAM_BYTE, C_L1_HIT, C_L2_HIT, C_L2_SECTOR, C_LAUNCH,
                 C_LAUNCH_INTERVAL, C_LINE_LATENCY, C_LSU_QUEUE, C_READ, C_SHARED, C_TAG_LINE, C_WAVEFRONT, MEM_ATOMIC, MEM_DRAM, MEM_DRAM_BYTES,
                 MEM_L2_SECTORS, MEM_LINES, MEM_MISS,
                 N_CFG, N_MEM)


# Which measured instruction class stands for each pipe (profile.pipes) and each
# variable-latency wait class (profile.instruction_latency); pipes not listed take
# profile.timing.pipe_issue_cycles, wait classes not listed cost nothing beyond their stall.
PIPE_MEASURED_BY = {"fma": "ffma", "fmaheavy": "imad", "alu": "iadd3", "fp64": "dfma", "xu": "mufu",
                    "tensor": "hmma", "fp16": "hfma2"}
WAIT_MEASURED_BY = {"s2r": "s2r", "constant": "ldc", "xu": "mufu_rcp", "shuffle": "shfl_idx", "fp64": "dfma",
                    "tensor": "hmma", "shared_load": "lds", "shared_atomic": "atoms",
                    "memory_barrier": "membar_gpu", "other": "s2r"}
# A barrier round, measured with 1, 4 and 32 warps arriving together (barrier_cycles).
BARRIER_POINTS = ((1, "bar_1_warp"), (4, "bar_4_warps"), (32, "bar_32_warps"))


def pipe_intervals(profile: GpuProfile) -> np.ndarray:
    measured = profile.pipes.model_dump()
    rest = profile.timing.pipe_issue_cycles
    return np.array([measured[PIPE_MEASURED_BY[name]] if name in PIPE_MEASURED_BY else rest.get(name, 1.0)
                     for name in PIPES], np.float64)


def wait_latencies(profile: GpuProfile, warps_per_block: int) -> np.ndarray:
    measured = profile.instruction_latency.model_dump()
    table = {name: measured[field] for name, field in WAIT_MEASURED_BY.items()}
    table["barrier"] = barrier_cycles(profile, warps_per_block)
    return np.array([table.get(name, 0.0) for name in WAITS], np.float64)


def barrier_cycles(profile: GpuProfile, warps_per_block: int) -> float:
    """From the last warp's arrival at a block barrier to the warps' next issue, between the
    measured block sizes by the warps."""
    measured = profile.instruction_latency.model_dump()
    points = [(warps, measured[field]) for warps, field in BARRIER_POINTS]
    return float(np.interp(warps_per_block, [p[0] for p in points], [p[1] for p in points]))


def _by_warps(one_warp: float, thirty_two_warps: float, warps_per_block: int) -> float:
    """A cost measured for 1- and 32-warp blocks, in between by the warps."""
    return float(np.interp(warps_per_block, [1, 32], [one_warp, thirty_two_warps]))


def block_launch_interval(profile: GpuProfile, warps_per_block: int, mhz: float) -> float:
    """SM cycles (at `mhz`) between two blocks an SM takes, measured in boost cycles. The rate is
    one of time, not of SM cycles: ncu at base clocks measures the same nanoseconds a block
    (gpu/probes/sm_probe.cu, docs/time-model.md)."""
    costs = profile.sm_costs
    boost_cycles = _by_warps(costs.block_launch_cycles, costs.block_launch_cycles_32_warps, warps_per_block)
    return boost_cycles / profile.clocks.sm_boost_mhz * mhz


def block_turnaround_cycles(profile: GpuProfile, warps_per_block: int) -> float:
    """From a block's end to the next block's first issue on its SM."""
    costs = profile.sm_costs
    return _by_warps(costs.block_turnaround_cycles, costs.block_turnaround_cycles_32_warps, warps_per_block)


def machine_config(profile: GpuProfile, active_sms: int, warps_per_block: int, boost: bool = False) -> np.ndarray:
    """cfg[C_*] of memsim.timing.sm for a launch that keeps `active_sms` SMs busy."""
    mhz = profile.clocks.sm_boost_mhz if boost else profile.clocks.sm_base_mhz
    timing, lat, tp = profile.timing, profile.latency, profile.throughput
    dram_cycles = lat.dram_ns * mhz / 1e3
    sectors_per_clk = min(tp.l2_sectors_per_clk / active_sms, timing.sm_l2_bytes_per_clk / profile.l2.sector_bytes)
    dram_bytes_per_clk = min(tp.dram_copy_gbs * 1e3 / mhz / active_sms, timing.sm_l2_bytes_per_clk)
    cfg = np.zeros(N_CFG, np.float64)
    cfg[C_L1_HIT], cfg[C_L2_HIT], cfg[C_DRAM] = lat.l1_hit_cycles, lat.l2_hit_cycles, dram_cycles
    # a request's lines beyond the first: the measured latency per line less the pipe slot
    cfg[C_LINE_LATENCY] = max(timing.l1_line_cycles - 1.0 / tp.shared_wavefronts_per_clk_per_sm, 0.0)
    cfg[C_LAUNCH_INTERVAL] = block_launch_interval(profile, warps_per_block, mhz)
    cfg[C_SHARED] = lat.shared_cycles
    cfg[C_WAVEFRONT] = 1.0 / tp.shared_wavefronts_per_clk_per_sm
    cfg[C_TAG_LINE] = timing.l1_tag_cycles_per_line
    cfg[C_L2_SECTOR] = 1.0 / sectors_per_clk
    cfg[C_DRAM_BYTE] = 1.0 / dram_bytes_per_clk
    cfg[C_LSU_QUEUE] = timing.lsu_queue_cycles
    cfg[C_READ] = timing.operand_read_cycles
    cfg[C_LAUNCH] = block_turnaround_cycles(profile, warps_per_block)
    cfg[C_COLD_CONSTANT] = dram_cycles
    return cfg


def memory_table(report: KernelReport, n_pcs: int, partial_write_costs: tuple[float, float] = (0.0, 1.0)) -> np.ndarray:
    """mem[pc, MEM_*]: where each memory instruction's requests are served, from the report's
    counters and its modeled traffic (launch-wide rates). A store costs the L2 the sectors it
    writes; a request for a line with sectors written in part costs (per_line + per_sector x
    those sectors) whole sectors' worth instead of theirs (`partial_write_costs`: the measured
    rates, partial_write_costs_of). The cache model counts such requests and sectors per store;
    where it did not run, every partly written sector is a request of its own, and the share of
    a store's sectors written in part is taken from its bytes, 1 - bytes / (32 x sectors)."""
    get = lambda name: float(report.metrics.get(name, 0.0))   # noqa: E731
    # the cache model sends local loads and stores to the L2 too (memsim.model.cache's local
    # placement): the L2's sectors are shared over global and local ones
    local_ld = sum(ins.sectors for ins in report.instructions if ins.space == "local" and ins.op == "ld")
    local_st = sum(ins.sectors for ins in report.instructions if ins.space == "local" and ins.op == "st")
    ld_sectors = max(get(m.GLOBAL_LD_SECTORS) + local_ld, 1.0)
    st_sectors = max(get(m.GLOBAL_ST_SECTORS) + local_st, 1.0)
    l1_miss = get(m.L1_MISS) if m.L1_MISS in report.metrics else ld_sectors
    l1_lookups = max(l1_miss + get(m.L1_HIT), 1.0)
    l2_read = get(m.L2_READ) if m.L2_READ in report.metrics else ld_sectors
    l2_read_miss = max(l2_read - get(m.L2_READ_HIT), 0.0) if m.L2_READ_HIT in report.metrics else l2_read
    # Where the cache model kept no outcome for a request (request_levels: -1), the share of a
    # load's requests that go past L1 (and past L2) is the sectors' miss rate.
    miss_requests = min(1.0, l1_miss / l1_lookups)
    dram_share = min(1.0, l2_read_miss / max(l2_read, 1.0))
    dram_read = get(m.DRAM_READ) if m.DRAM_READ in report.metrics else ld_sectors * 32
    dram_write = get(m.DRAM_WRITE) if m.DRAM_WRITE in report.metrics else get(m.BYTES_GLOBAL_ST)
    l2_write = get(m.L2_WRITE) if m.L2_WRITE in report.metrics else st_sectors
    mem = np.zeros((n_pcs, N_MEM), np.float64)
    for ins in report.instructions:
        if ins.index >= n_pcs or ins.space not in ("global", "local"):
            continue
        row = mem[ins.index]
        scattered = ins.requests and ins.sectors > 2 * max(ins.ideal_sectors, 1)
        row[MEM_LINES] = 1.0 if scattered else 0.25
        if ins.op == "st":
            row[MEM_L2_SECTORS] = l2_write / st_sectors * _partial_write_scale(ins, l2_write / st_sectors,
                                                                                 *partial_write_costs)
            row[MEM_DRAM_BYTES] = dram_write / st_sectors
            if ins.modeled_dram_write_bytes is not None:     # hook: the cache model's per-pc write-back
                row[MEM_DRAM_BYTES] = ins.modeled_dram_write_bytes / max(ins.sectors, 1)
        elif ins.op in ("atom", "red"):
            # the L1 sends one packet a cycle (gpu/probes/atomic_probe.cu: one SM alone, 0.63 ns a packet)
            row[MEM_LINES] = 1.0
            row[MEM_L2_SECTORS], row[MEM_MISS], row[MEM_DRAM] = 1.0, 1.0, 0.0
            row[MEM_ATOMIC] = 1.0       # scaled by atomic_unit_cycles in memsim.timing.simulate_time
        else:
            row[MEM_MISS], row[MEM_DRAM] = miss_requests, dram_share
            row[MEM_L2_SECTORS] = l2_read / ld_sectors
            row[MEM_DRAM_BYTES] = dram_read / ld_sectors
    return mem


def _partial_write_scale(ins, reaching: float, per_line: float, per_sector: float) -> float:
    """The L2 time of a store's sectors over that of as many whole ones (`reaching`: the share of
    its L1 sectors that reach the L2)."""
    sent = reaching * ins.sectors
    if sent <= 0:
        return 1.0
    if ins.modeled_l2_partial_writes is not None:
        lines, sectors = ins.modeled_l2_partial_writes
    else:
        sectors = max(0.0, 1.0 - ins.bytes / (32.0 * ins.sectors)) * sent if ins.sectors else 0.0
        lines = sectors
    sectors = min(sectors, sent)
    return max(1.0, (sent - sectors + lines * per_line + sectors * per_sector) / sent)


def partial_write_costs_of(profile: GpuProfile) -> tuple[float, float]:
    """(per request for a line, per sector written in part): the L2 time of a line's sectors
    written in part, in whole sectors' worth (gpu/cache_probe/partial_write_probe.py: a lane of
    each store a line, one sector a request, and a lane a sector, four a request, solved for the
    two costs), (0, 1) where not measured; with only the lane-a-line rate, all per sector."""
    tp = profile.throughput
    if not tp.l2_partial_write_sectors_per_clk:
        return 0.0, 1.0
    one = max(1.0, tp.l2_sectors_per_clk / tp.l2_partial_write_sectors_per_clk)
    if not tp.l2_partial_write_quad_sectors_per_clk:
        return 0.0, one
    four = max(1.0, 4.0 * tp.l2_sectors_per_clk / tp.l2_partial_write_quad_sectors_per_clk)
    per_sector = max(0.0, (four - one) / 3.0)
    return one - per_sector, per_sector


def request_levels(trace: WarpInstructionTrace, schedule: IssueSchedule, loads: LoadOutcomes | None) -> np.ndarray:
    """Per issue of the trace: 0 where the cache model served that very global load from L1, 1
    where it went on to L2, -1 elsewhere (not a global load, or not found in the model's
    stream). The model's loads of a warp are matched to its issues in order, by pc."""
    levels = np.full(len(trace.pc), -1, np.int64)
    if loads is None or len(loads.block) == 0 or len(trace.blocks) == 0:
        return levels
    blocks = np.asarray(trace.blocks, np.int64)
    slot = np.searchsorted(blocks, loads.block)
    found = (slot < len(blocks)) & (blocks[np.minimum(slot, len(blocks) - 1)] == loads.block)
    key = slot[found] * trace.warps_per_block + loads.warp[found]
    order = np.argsort(key, kind="stable")
    starts = np.searchsorted(key[order], np.arange(len(trace.start)))
    is_load = (schedule.wait == WAITS.index("global_load")).astype(np.int64)
    _match_loads(trace.start, trace.pc.astype(np.int64), is_load, starts, loads.pc[found][order].astype(np.int64),
                 loads.past_l1[found][order].astype(np.int64), levels)
    return levels


@njit(cache=True)
def _match_loads(start, pc, is_load, o_start, o_pc, o_level, levels):
    for w in range(len(start) - 1):
        q, q_end = o_start[w], o_start[w + 1]
        for k in range(start[w], start[w + 1]):
            p = pc[k]
            if is_load[p] and q < q_end and o_pc[q] == p:
                levels[k] = o_level[q]
                q += 1


def atomic_unit_cycles(report: KernelReport, profile: GpuProfile, sharers: float, mhz: float) -> float:
    """SM cycles (at `mhz`: the float add's latency is a time, the unit's packet rate SM cycles) that one of this SM's global atomic packets holds the launch's
    busiest L2 atomic unit, as this SM's share of it: the unit applies its packets one after
    another (l2_atomic_packet_cycles each, or for floating-point adds on one sector
    l2_atomic_float_ns), it takes `busiest / packets` of the launch's packets (and the whole L2
    applies at most l2_atomic_packets_per_clk, where they spread), and this SM has
    1 / `sharers` of them (gpu/probes/atomic_probe.cu, docs/time-model.md "Atomics"). 0 without
    atomics."""
    get = lambda name: float(report.metrics.get(name, 0.0))   # noqa: E731
    packets = get(m.GLOBAL_ATOM_SECTORS) + get(m.GLOBAL_RED_SECTORS)
    if packets <= 0:
        return 0.0
    unit = busiest_unit_cycles(report, profile) or 0.0
    chain = get(m.ATOMIC_FLOAT_CHAIN) * profile.latency.l2_atomic_float_ns * mhz / 1e3
    per_packet = max(unit, chain) / packets
    if profile.throughput.l2_atomic_packets_per_clk:   # the whole L2's rate, where packets spread
        per_packet = max(per_packet, profile.clocks.sm_base_mhz / mhz / profile.throughput.l2_atomic_packets_per_clk)
    return per_packet * sharers
