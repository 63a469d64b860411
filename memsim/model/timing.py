"""Kernel time from the counted and modeled traffic: ncu's gpu__time_duration and CUDA-event time.

    estimate = memsim.model.timing.predict_time(report, traffic, memsim.gpus.default_profile())
    estimate.duration_ns        # gpu__time_duration.sum as ncu measures it (base clocks, cold caches)
    estimate.event_ms           # CUDA-event time of a launch from Python at boost clocks, warm L2

The model (docs/time-model.md has the derivation and the accuracy on the H100 recordings):

- **Occupancy and waves**: resident blocks per SM from threads, registers (32 a thread where the
  compiler's figure is unknown), shared memory and the block limit (memsim.model.scheduling); the
  busiest SM runs ceil(blocks / SMs) blocks in ceil(that / resident) block waves.
- **Latency chain**: one warp's dependent path. Its global round trips are the SASS engine's
  scoreboard count (memsim.metrics.WARP_GLOBAL_ROUND_TRIPS); from PTX, loads are grouped by
  how often a warp executes them (a loop body's loads, unrolled by the compiler, are in flight
  together). Each round trip goes to where the request is served (L1, L2 or DRAM, by the
  traffic's hit rates), after the resident blocks' requests have passed the L1 pipe and the
  DRAM bytes of their round have streamed; per-thread constant reads the warp waits for add
  their own round trips; shared-memory wavefronts queue the warps, and every other warp
  instruction costs a few cycles of dependency. The slowest of a block's warps sets when the
  block ends (`tail`), and each block wave adds the block's launch and exit cost.
- **Throughput**: DRAM bytes over the copy bandwidth, L2 sectors over the L2 bandwidth (partial
  sector writes cost more: the L2 merges bytes), warp instructions at a sustained issue rate,
  and global atomics at the L2 (`_atomic_ns`): the packets the busiest unit of L2 serialization
  applies one after another, or the floating-point packets of the busiest sector, each waiting
  for the previous one's add.
- **Combination**: the terms overlap imperfectly. A block wave's latency and its bytes' transfer
  mostly add up when each warp has little in flight, and hide each other when much is in flight,
  so the terms are combined as a p-norm, (sum t_i^p)^(1/p), between a sum (p = 1) and a max.
  The atomics' queue at one L2 unit adds to that.
- **Fixed costs**: the empty kernel's duration under ncu (measured), plus a first touch of the
  kernel's parameters and code in cold caches.

Event time adds the launch cost measured from Python (CuPy) and runs the SM-clock terms at the
boost clock with a warm L2: buffers that fit in L2 are read from it, not from DRAM.
"""
from __future__ import annotations

import math
from collections import defaultdict

from pydantic import BaseModel, Field

from .. import metrics as m
from ..gpus import DEFAULT_GPU, GpuProfile
from ..report import KernelReport
from .scheduling import ResidentBlocks, occupancy

DEFAULT_REGISTERS = 32   # registers a thread, where the compiler's figure is unknown (memsim.prediction too)
DEFAULT_ARGUMENTS = 4
TRAFFIC_METRICS = (m.L1_HIT, m.L1_MISS, m.L2_READ, m.L2_WRITE, m.L2_READ_HIT, m.DRAM_READ, m.DRAM_WRITE)


class TimeModelConstants(BaseModel):
    """Model choices that are not hardware numbers, fitted to a GPU's recorded durations
    (validate/time_accuracy.py --fit; docs/time-model.md). Their values live in the GPU's
    profile (`fitted.time_model`, with the fit set), not here."""

    p_norm: float = Field(description="exponent combining the latency and throughput terms")
    tail: float = Field(description="slowest warp of a one-warp block over the average chain")
    tail_per_warp: float = Field(description="how much later the slowest warp ends, per further warp of the block")
    block_overhead_ns: float = Field(description="launch and retire one block wave on an SM")
    first_touch_ns: float = Field(description="cold parameter/constant and code fetch of the first wave")
    dependent_cycles: float = Field(description="cycles a non-memory warp instruction adds to the chain")
    l1_pipe_weight: float = Field(description="L1 pipe cycles per global wavefront of the resident warps "
                                                   "that a round's last request waits")
    dram_queue: float = Field(description="DRAM transfers of one round of the resident warps that its last "
                                               "read waits for, in units of the bytes over the copy bandwidth")
    issue_efficiency: float = Field(description="share of the SM's issue rate a kernel sustains")
    loop_unroll: float = Field(description="loads of one loop ptxas keeps in flight together "
                                                 "(PTX reports; the SASS engine's scoreboard counts them)")
    constant_round_ns: float = Field(description="a per-thread constant-bank read (LDC) a warp waits for "
                                                       "in a cold launch")
    partial_write_cost: float = Field(description="L2 cost of a partially written sector, in full sectors")
    l2_warm_fraction: float = Field(description="share of the L2 a buffer can use to stay warm between launches")

    @classmethod
    def for_gpu(cls, profile: GpuProfile) -> "TimeModelConstants":
        """The constants the profile holds (a GPU without its own fit holds the H100's, and says so)."""
        return cls(**profile.fitted.time_model)


class TimeBreakdown(BaseModel):
    """The terms of the duration, in ns (each is what it would cost alone)."""

    dram_ns: float = Field(description="DRAM bytes over the streaming bandwidth")
    l2_ns: float = Field(description="L2 sectors (partial writes weighted) over the L2 bandwidth")
    l1_shared_ns: float = Field(description="L1 + shared wavefronts of the busiest SM")
    issue_ns: float = Field(description="warp instructions of the busiest SM at the sustained issue rate")
    latency_ns: float = Field(description="block waves x (slowest warp's dependent chain + block cost)")
    atomics_ns: float = Field(description="global atomics' packets at the busiest L2 unit, or the floating-point "
                                          "packets of the busiest sector one after another")
    fixed_ns: float = Field(description="empty-kernel duration + cold first touch")
    bound: str = Field(description="the largest term")


class LaunchOccupancy(ResidentBlocks):
    """ResidentBlocks of a launch, with the launch's registers, shared memory and waves."""

    registers_per_thread: int
    registers_assumed: bool = Field(description="32 a thread was assumed (the compiler's figure is unknown)")
    shared_per_block: int
    warps_per_sm: int
    occupancy: float = Field(description="resident warps / the SM's maximum")
    active_sms: int
    waves: float = Field(description="blocks / (SMs x resident blocks per SM), as ncu's launch__waves_per_multiprocessor")
    block_waves: int = Field(description="resident-block rounds of the busiest SM")
    wave_efficiency: float = Field(description="average SM's blocks / busiest SM's blocks")


class TimeEstimate(BaseModel):
    """Predicted kernel time and where it goes."""

    gpu: str
    duration_ns: float = Field(description="gpu__time_duration.sum: ncu, base clocks, caches flushed")
    event_ms: float = Field(description="CUDA-event time of one launch from Python, boost clocks, warm L2")
    breakdown: TimeBreakdown
    occupancy: LaunchOccupancy
    traffic_source: str = Field(description="given | report | estimated (from sectors, no cache model)")
    memory_rounds_per_warp: float
    round_latency_ns: float = Field(description="average latency of one load round trip")

    @property
    def metrics(self) -> dict[str, float]:
        return {m.DURATION: self.duration_ns}


class _Traffic(BaseModel):
    l1_hit: float
    l1_miss: float
    l2_read: float
    l2_write: float
    l2_read_hit: float
    dram_read: float
    dram_write: float


def predict_time(report: KernelReport, traffic=None, profile: GpuProfile | None = None, *,
                 registers_per_thread: int | None = None, static_shared_bytes: int = 0,
                 arguments: int = DEFAULT_ARGUMENTS, constants: TimeModelConstants | None = None) -> TimeEstimate:
    """Predict ncu's gpu__time_duration and the CUDA-event time of the launch `report` describes.

    `traffic` (memsim.model.cache.TrafficEstimate) is the modeled cache/DRAM traffic; without it the
    report's own modeled metrics are used, and failing those an estimate from the sector counts
    (every load sector misses both caches). `static_shared_bytes` counts toward occupancy;
    `arguments` (the kernel's parameter count) toward the launch cost in the event time."""
    profile = profile or _default_profile(report)
    k = constants or TimeModelConstants.for_gpu(profile)
    flow, source, occ, rounds = _prepare(report, traffic, profile, registers_per_thread, static_shared_bytes, k)
    duration, breakdown = _duration(report, flow, profile, occ, rounds, k, boost=False)
    boosted, _ = _duration(report, _warm(flow, profile, k), profile, occ, rounds, k, boost=True)
    launch = profile.launch
    launch_ns = (launch.event_single_us + arguments * launch.event_per_argument_us) * 1e3 - launch.kernel_floor_ns
    return TimeEstimate(gpu=profile.name, duration_ns=duration, event_ms=(launch_ns + boosted) / 1e6,
                        breakdown=breakdown, occupancy=occ, traffic_source=source,
                        memory_rounds_per_warp=rounds, round_latency_ns=_round_latency(report, flow, profile))


def duration_inputs(report: KernelReport, traffic=None, profile: GpuProfile | None = None, *,
                    registers_per_thread: int | None = None, static_shared_bytes: int = 0,
                    constants: TimeModelConstants | None = None) -> DurationInputs:
    """What predict_time's duration is made of before the constants meet it (`combine`): a fit
    computes these once per launch instead of re-running the model for every trial."""
    profile = profile or _default_profile(report)
    k = constants or TimeModelConstants.for_gpu(profile)
    flow, _, occ, rounds = _prepare(report, traffic, profile, registers_per_thread, static_shared_bytes, k)
    return DurationInputs.of(report, flow, profile, occ, rounds, boost=False)


def _default_profile(report: KernelReport) -> GpuProfile:
    from ..gpus import load
    return load(report.gpu or DEFAULT_GPU)


def _prepare(report: KernelReport, traffic, profile: GpuProfile, registers_per_thread: int | None,
             static_shared_bytes: int, k: TimeModelConstants) -> tuple:
    """(traffic, its source, occupancy, round trips per warp): the model's view of the launch."""
    flow, source = _traffic(report, traffic, profile)
    occ = occupancy_of(report, profile, registers_per_thread, static_shared_bytes)
    return flow, source, occ, _rounds(report, k)


# -- inputs ------------------------------------------------------------------------------------

def _traffic(report: KernelReport, traffic, profile: GpuProfile) -> tuple[_Traffic, str]:
    if traffic is not None:
        t = traffic.metrics() if hasattr(traffic, "metrics") else dict(traffic)
        return _from_metrics(t), "given"
    if all(name in report.metrics for name in TRAFFIC_METRICS):
        return _from_metrics(report.metrics), "report"
    return estimate_traffic(report, profile), "estimated"


def _from_metrics(t: dict) -> _Traffic:
    return _Traffic(l1_hit=t[m.L1_HIT], l1_miss=t[m.L1_MISS], l2_read=t[m.L2_READ], l2_write=t[m.L2_WRITE],
                    l2_read_hit=t[m.L2_READ_HIT], dram_read=t[m.DRAM_READ], dram_write=t[m.DRAM_WRITE])


def estimate_traffic(report: KernelReport, profile: GpuProfile) -> _Traffic:
    """Without a cache model: no reuse anywhere. Every load sector misses L1 and L2 and reads its
    32 bytes from DRAM; every store sector is an L2 write and its bytes reach DRAM. An upper
    bound for kernels whose warps share sectors (transposes, stencils), exact for streaming ones."""
    ld, st = _metric(report, m.GLOBAL_LD_SECTORS), _metric(report, m.GLOBAL_ST_SECTORS)
    sector = profile.l2.sector_bytes
    return _Traffic(l1_hit=0, l1_miss=ld, l2_read=ld, l2_write=st, l2_read_hit=0,
                    dram_read=ld * sector, dram_write=_metric(report, m.BYTES_GLOBAL_ST))


def occupancy_of(report: KernelReport, profile: GpuProfile, registers_per_thread: int | None = None,
                 static_shared_bytes: int = 0) -> LaunchOccupancy:
    from .cache import CacheGeometry

    threads = math.prod(report.block)
    blocks = math.prod(report.grid)
    regs = registers_per_thread or DEFAULT_REGISTERS
    shared = static_shared_bytes + report.shared_mem
    # At least one byte: GPUs that reserve no shared memory per block (Pascal) would otherwise
    # divide by a zero-byte block in memsim.model.scheduling.
    occ = occupancy(threads, regs, max(shared, 1), CacheGeometry.from_profile(profile).limits)
    sms = profile.sm_count
    busiest = -(-blocks // sms)
    return LaunchOccupancy(
        **occ.model_dump(),
        registers_per_thread=regs, registers_assumed=registers_per_thread is None, shared_per_block=shared,
        warps_per_sm=occ.blocks_per_sm * occ.warps_per_block,
        occupancy=min(1.0, occ.blocks_per_sm * occ.warps_per_block / profile.occupancy.max_warps_per_sm),
        active_sms=min(sms, blocks), waves=blocks / (sms * occ.blocks_per_sm),
        block_waves=-(-busiest // occ.blocks_per_sm), wave_efficiency=blocks / (sms * busiest))


def _metric(report: KernelReport, name: str) -> float:
    return float(report.metrics.get(name, 0))


def _warps(report: KernelReport) -> int:
    return math.prod(report.grid) * (-(-math.prod(report.block) // 32))


# -- the latency chain -------------------------------------------------------------------------

def _rounds(report: KernelReport, k: TimeModelConstants) -> float:
    """Global round trips on a warp's dependent path, on average: the SASS engine's
    scoreboard counts them (memsim.metrics.WARP_GLOBAL_ROUND_TRIPS). From PTX they are
    estimated: loads that run equally often are taken as one group in flight together (a
    loop body, or straight-line loads before their first use). A loop body with fewer loads
    than ptxas's usual unroll factor is unrolled further in SASS, which PTX does not show:
    its iterations overlap that much more."""
    warps = _warps(report)
    if m.WARP_GLOBAL_ROUND_TRIPS in report.metrics:
        return _metric(report, m.WARP_GLOBAL_ROUND_TRIPS) / max(warps, 1)
    groups: dict[int, list[float]] = defaultdict(list)
    for ins in report.instructions:
        if ins.space in ("global", "local") and ins.op in ("ld", "atom") and ins.executed:
            per_warp = ins.executed / warps
            groups[round(per_warp * 8)].append(per_warp)
    rounds = 0.0
    for loads in groups.values():
        trips = max(loads)
        if trips > 1.0:
            trips = max(1.0, trips * min(1.0, len(loads) / k.loop_unroll))
        rounds += trips
    return rounds


def _constant_round_trips(report: KernelReport) -> float:
    """Per-thread constant reads a warp waits for one after another, on average: the SASS
    engine's scoreboard counts them; PTX does not show where ptxas puts them (every kernel
    reads its block size, one round)."""
    if m.WARP_CONSTANT_ROUND_TRIPS in report.metrics:
        return _metric(report, m.WARP_CONSTANT_ROUND_TRIPS) / max(_warps(report), 1)
    return 1.0


def _warp_instructions(report: KernelReport) -> float:
    """Warp instructions executed, of whichever engine made the report."""
    return _metric(report, m.SASS_WARP_INSTRUCTIONS) or _metric(report, m.PTX_WARP_INSTRUCTIONS)


def _round_latency(report: KernelReport, flow: _Traffic, profile: GpuProfile, boost: bool = False) -> float:
    """Average latency (ns) of one load round trip, from where the traffic says loads are served."""
    lat = profile.latency
    l1_ns = profile.cycles_to_ns(lat.l1_hit_cycles, boost)
    l2_ns = profile.cycles_to_ns(lat.l2_hit_cycles, boost)
    requests = max(_metric(report, m.GLOBAL_LD_REQUESTS), 1.0)
    # A request waits for its slowest sector: it misses L1 if any sector does.
    l1_miss = min(1.0, flow.l1_miss / requests) if flow.l1_miss else min(1.0, flow.l2_read / requests)
    l2_misses = max(flow.l2_read - flow.l2_read_hit, 0.0)
    dram_share = min(1.0, l2_misses / max(requests * l1_miss, 1.0))
    return l1_ns + l1_miss * (l2_ns - l1_ns + dram_share * max(lat.dram_ns - l2_ns, 0.0))


# -- the duration ------------------------------------------------------------------------------

class DurationInputs(BaseModel):
    """Everything the duration needs that the fitted constants do not change, in ns (or counts).

    Computed once per launch, so a fit that tries thousands of constant sets only re-runs
    `combine` (validate.lofo stacks these into numpy arrays: `combine` is plain arithmetic and
    works on arrays as on floats). `rounds` depends on `loop_unroll` where the report has no
    scoreboard count (PTX engine): such inputs hold for the constants they were built with."""

    dram_ns: float = Field(description="DRAM bytes over the streaming bandwidth")
    l2_full_ns: float = Field(description="L2 sectors at one sector each, over the L2 bandwidth")
    l2_partial_ns: float = Field(description="the partially written store sectors' share of l2_full_ns")
    issue_ns: float = Field(description="warp instructions of the busiest SM at the full issue rate")
    atomic_ns: float = Field(description="global atomics at the L2 (_atomic_ns): no fitted constant")
    l1_shared_ns: float = Field(description="L1 + shared wavefronts of the busiest SM (shown, not combined)")
    rounds: float
    round_ns: float = Field(description="rounds x the average round-trip latency")
    pipe_ns: float = Field(description="L1 pipe time of the resident warps' global wavefronts")
    shared_ns: float = Field(description="shared wavefronts of the resident warps")
    other_ns: float = Field(description="one cycle per non-memory warp instruction of a warp")
    constant_trips: float
    queue_ns: float = Field(description="one round's DRAM reads of the resident warps over the copy bandwidth")
    block_waves: float
    extra_warps: float = Field(description="warps per block beyond the first")
    floor_ns: float = Field(description="the empty kernel's duration")

    @classmethod
    def of(cls, report: KernelReport, flow: _Traffic, profile: GpuProfile, occ: LaunchOccupancy, rounds: float,
           boost: bool) -> "DurationInputs":
        cycle_ns = profile.cycles_to_ns(1.0, boost)
        blocks = math.prod(report.grid)
        busiest_share = -(-blocks // profile.sm_count) / blocks   # of all the work, on the busiest SM
        l2_ns = profile.l2.sector_bytes / profile.throughput.l2_read_gbs
        global_wf, shared_wf = _l1_wavefronts(report)
        resident = min(occ.blocks_per_sm, -(-blocks // profile.sm_count))
        wf_ns = resident / blocks / profile.throughput.shared_wavefronts_per_clk_per_sm * cycle_ns
        resident_share = min(blocks, profile.sm_count * occ.blocks_per_sm) / blocks
        return cls(
            dram_ns=(flow.dram_read + flow.dram_write) / profile.throughput.dram_copy_gbs,
            l2_full_ns=(flow.l2_read + flow.l2_write) * l2_ns,
            l2_partial_ns=flow.l2_write * _partial_write_share(report) * l2_ns,
            issue_ns=_warp_instructions(report) * busiest_share * cycle_ns / profile.throughput.issue_per_clk_per_sm,
            atomic_ns=_atomic_ns(report, profile, boost),
            l1_shared_ns=(global_wf + shared_wf) * busiest_share * cycle_ns
                         / profile.throughput.shared_wavefronts_per_clk_per_sm,
            rounds=rounds, round_ns=rounds * _round_latency(report, flow, profile, boost),
            pipe_ns=global_wf * wf_ns, shared_ns=shared_wf * wf_ns,
            other_ns=max(_warp_instructions(report) / max(_warps(report), 1) - rounds, 0.0) * cycle_ns,
            constant_trips=_constant_round_trips(report),
            queue_ns=flow.dram_read * resident_share / max(rounds, 1.0) / profile.throughput.dram_copy_gbs,
            block_waves=occ.block_waves, extra_warps=occ.warps_per_sm / occ.blocks_per_sm - 1,
            floor_ns=profile.launch.kernel_floor_ns)


def combine(d, k: TimeModelConstants) -> tuple:
    """(duration, {term: ns}) from DurationInputs (or the same fields as numpy arrays) and the
    constants: the one place where the model's terms meet its fitted constants.

    The latency term is block waves x (the slowest warp's dependent chain + the block's launch
    and exit). A round ends when its data is back and the resident blocks' requests have passed
    the L1 pipe; shared-memory wavefronts (bank conflicts) queue the warps between barriers;
    every other instruction waits a few cycles for its operands; per-thread constant reads add
    their round trips; and since a cold launch's warps all ask at once, a round's last read
    arrives after the resident warps' DRAM bytes of that round have streamed. A block frees its
    slot when its slowest warp ends: the more warps, the later.

    The atomics add to the rest instead of joining the p-norm: one L2 unit applies them one
    after another, fed by warps that issue them after their loads came back (docs/time-model.md,
    Atomics: inside the p-norm the 117 recorded H100 launches with atomics came out 6% too fast
    on average, and leave-one-family-out refits drifted first_touch_ns to make up for it)."""
    chain = (d.round_ns + k.l1_pipe_weight * d.pipe_ns + d.shared_ns + k.dependent_cycles * d.other_ns
             + d.constant_trips * k.constant_round_ns + k.dram_queue * d.queue_ns)
    tail = k.tail + k.tail_per_warp * d.extra_warps
    terms = {
        "dram": d.dram_ns,
        "l2": d.l2_full_ns + d.l2_partial_ns * (k.partial_write_cost - 1.0),
        "issue": d.issue_ns / k.issue_efficiency,
        "latency": d.block_waves * (tail * chain + k.block_overhead_ns),
    }
    combined = sum(t ** k.p_norm for t in terms.values()) ** (1.0 / k.p_norm)
    terms["atomics"] = d.atomic_ns
    return d.floor_ns + k.first_touch_ns + combined + d.atomic_ns, terms


def _duration(report: KernelReport, flow: _Traffic, profile: GpuProfile, occ: LaunchOccupancy, rounds: float,
              k: TimeModelConstants, boost: bool) -> tuple[float, TimeBreakdown]:
    """ncu's duration (or, with `boost`, the kernel's part of the event time) and its terms."""
    inputs = DurationInputs.of(report, flow, profile, occ, rounds, boost)
    duration, terms = combine(inputs, k)
    # L1/shared wavefronts are inside the latency term (the chain waits for the pipe); the
    # busiest SM's total is shown for comparison.
    terms["l1_shared"] = inputs.l1_shared_ns
    breakdown = TimeBreakdown(dram_ns=terms["dram"], l2_ns=terms["l2"], l1_shared_ns=terms["l1_shared"],
                              issue_ns=terms["issue"], latency_ns=terms["latency"], atomics_ns=terms["atomics"],
                              fixed_ns=inputs.floor_ns + k.first_touch_ns, bound=max(terms, key=terms.get))
    return duration, breakdown


def _partial_write_share(report: KernelReport) -> float:
    """Share of the store sectors that are only partly written (the L2 merges their bytes: they
    cost `partial_write_cost` sectors each)."""
    partial = 0.0
    for ins in report.instructions:
        if ins.space == "global" and ins.op == "st" and ins.sectors:
            partial += max(ins.sectors - ins.bytes / 32.0, 0.0)
    st_sectors = max(_metric(report, m.GLOBAL_ST_SECTORS), 1.0)
    return min(partial / st_sectors, 1.0)


def _atomic_ns(report: KernelReport, profile: GpuProfile, boost: bool = False) -> float:
    """Global atomics at the L2, in ns (docs/time-model.md, "Atomics").

    A warp's atomic leaves the L1 as packets, one per 32-byte sector for each lane on the same
    address (memsim.engine.count.atomic_packets, ncu's l1tex__t_sectors_pipe_lsu_mem_global_op_{atom,red}).
    The L2 applies them in its slices' atomic units: packets to different units proceed in
    parallel; those that fall in one unit (profile.l2.atomic_unit_bytes of address space) are
    applied one after another, `l2_atomic_packet_cycles` each, whatever words they update; and a
    floating-point packet waits for the previous one to its sector to finish its add
    (`latency.l2_atomic_float_ns`, in ns: it takes as long at the base and the boost SM clock;
    an integer operation completes within the packet's cycle). The launch-wide busiest unit and sector come from the emulator
    (memsim.metrics.ATOMIC_CONTENTION); a report without them is charged as if every packet
    went to one unit (an upper bound)."""
    cycles = busiest_unit_cycles(report, profile)
    if cycles is None:
        cycles = profile.throughput.l2_atomic_packet_cycles * sum(
            ins.sectors for ins in report.instructions if ins.space == "global" and ins.op in ("atom", "red"))
    float_chain = _metric(report, m.ATOMIC_FLOAT_CHAIN)
    return max(profile.cycles_to_ns(cycles, boost),
               float_chain * profile.latency.l2_atomic_float_ns)


def busiest_unit_cycles(report: KernelReport, profile: GpuProfile) -> float | None:
    """Cycles the launch's busiest L2 atomic unit (paired where the profile says units pair)
    takes to apply its packets: l2_atomic_packet_cycles each, l2_atomic_full_packet_cycles for
    those with an operation on every word of their sector (gpu/probes/atomic_probe.cu). None
    where the report does not say which unit is busiest (the emulator's ATOMIC_CONTENTION)."""
    l2, tp = profile.l2, profile.throughput
    busiest = report.metrics.get(m.ATOMIC_BUSIEST_PAIRED if l2.atomic_units_pair
                                 else m.ATOMIC_BUSIEST_UNIT.get(l2.atomic_unit_bytes, ""))
    if busiest is None:
        return None
    paired_full = l2.atomic_units_pair and tp.l2_atomic_full_packet_cycles
    full = _metric(report, m.ATOMIC_BUSIEST_PAIRED_FULL) if paired_full else 0.0
    return (busiest - full) * tp.l2_atomic_packet_cycles + full * (tp.l2_atomic_full_packet_cycles or 0.0)


def _l1_wavefronts(report: KernelReport) -> tuple[float, float]:
    """(global, shared) wavefronts of the L1 data stage: one per 128-byte line a global request
    touches (sectors of scattered requests lie in separate lines), and shared memory's own,
    shared atomics (ATOMS, executed in the shared-memory unit) included."""
    shared = (_metric(report, m.SHARED_LD_WAVEFRONTS) + _metric(report, m.SHARED_ST_WAVEFRONTS)
              + _metric(report, m.SHARED_ATOM_WAVEFRONTS))
    total = 0.0
    for ins in report.instructions:
        if ins.space in ("global", "local") and ins.requests:
            per_request = ins.sectors / ins.requests
            scattered = ins.sectors > 2 * max(ins.ideal_sectors, 1)
            lines = per_request if scattered else max(1.0, per_request / 4)
            total += lines * ins.requests
    return total, shared


def _warm(flow: _Traffic, profile: GpuProfile, k: TimeModelConstants) -> _Traffic:
    """The traffic of a repeated launch: what fits in L2 stays there between launches."""
    footprint = flow.dram_read + flow.dram_write
    if footprint > k.l2_warm_fraction * profile.l2.size_bytes:
        return flow
    return flow.model_copy(update={"dram_read": 0.0, "dram_write": 0.0, "l2_read_hit": flow.l2_read})
