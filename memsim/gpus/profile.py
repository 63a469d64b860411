"""GPU profiles: what the engines and the models need to know about one GPU, one JSON file each.

    profile = memsim.gpus.load("a100")      # case-insensitive; aliases like "a100-40gb"
    profile.arch, profile.sm_count, profile.dram.bandwidth_gbs, profile.occupancy.max_warps_per_sm, ...

Profiles live in memsim/gpus/profiles/<name>.json. Every number says where it comes from: `source`
maps a field path ("dram.bandwidth_gbs") or a whole group ("occupancy") to "datasheet: ...",
"measured: ..." or "derived: ...", and loading fails if a number has no source. The default
GPU's measured numbers are written by `validate calibrate --measure --record`; the others are
datasheets. The fitted model constants live once, in the profile they were fitted on: another
profile names it (`"fitted_from": "<GPU>"`) and loads its block, as Accel-Sim composes a
config from a base file and overrides.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError, model_validator

from ..errors import MemsimError

PROFILE_DIR = Path(__file__).parent / "profiles"
SOURCE_KINDS = ("datasheet:", "measured:", "derived:", "fitted:", "literature:")
# The units ncu's memory counters count in, the same on every GPU memsim models (Pascal to
# Hopper): a sector of global memory, and the shared-memory banks and their word. The
# engines count with them (memsim.engine.count), Pascal's rules and the views read them here.
SECTOR_BYTES = 32
BANKS = 32
BANK_BYTES = 4


class ProfileError(MemsimError):
    """Unknown GPU name, or a profile file that is not a valid profile."""


class Clocks(BaseModel):
    sm_base_mhz: float = Field(gt=0, description="SM clock that ncu locks to (--clock-control base)")
    sm_boost_mhz: float = Field(gt=0, description="SM clock under load without ncu (CUDA-event timings)")
    memory_mhz: float = Field(gt=0, description="DRAM clock as ncu's dram__cycles_elapsed.avg.per_second shows it")


class Occupancy(BaseModel):
    max_threads_per_sm: int = Field(gt=0)
    max_warps_per_sm: int = Field(gt=0)
    max_blocks_per_sm: int = Field(gt=0)
    max_threads_per_block: int = Field(gt=0)
    registers_per_sm: int = Field(gt=0)
    max_registers_per_thread: int = Field(gt=0)
    register_allocation_unit: int = Field(gt=0, description="registers, allocated per warp in these units")
    shared_per_sm_bytes: int = Field(ge=0, description="largest shared-memory carveout of one SM")
    shared_per_block_bytes: int = Field(ge=0, description="largest shared memory one block may opt in to")
    shared_reserved_per_block_bytes: int = Field(ge=0, description="what the driver reserves per block")
    shared_allocation_unit: int = Field(gt=0)


class LaunchLimits(BaseModel):
    """What the CUDA driver checks before it runs a launch (memsim.engine.launch_limits)."""

    max_grid_dims: tuple[int, int, int] = Field(description="largest grid (x, y, z): cudaErrorInvalidConfiguration")
    max_block_dims: tuple[int, int, int] = Field(description="largest block (x, y, z): "
                                                 "cudaErrorInvalidConfiguration")
    registers_per_block: int = Field(gt=0, description="32-bit registers one block may use: "
                                                       "cudaErrorLaunchOutOfResources")


class CarveoutPolicy(BaseModel):
    """How the driver picks a launch's carveout when the program states no preference. Measured
    on the H100 with ncu's launch__shared_mem_config_size (gpu/cache_probe/carveout_probe.py,
    docs/caches.md): 522 of 525 launches. The default is the smallest carveout that holds the
    resident blocks, as documented, where nothing was measured."""

    headroom: float = Field(1.0, description="shared memory for this many times the resident "
                                             "blocks (at most the SM's block limit)...")
    headroom_limit_kb: int = Field(0, description="...but no more carveout than this for it "
                                                   "(a larger need still gets what it needs)")
    unshared_blocks_per_thread_limit: int = Field(1, description="a kernel without shared memory: "
                                                  "the per-block reservation for this many times "
                                                  "the blocks its threads allow")


class L1(BaseModel):
    l1_shared_per_sm_bytes: int = Field(gt=0, description="unified L1 + shared memory of one SM")
    carveouts_kb: list[int] = Field(description="shared-memory carveouts the driver can choose (KB)")
    carveout_policy: CarveoutPolicy = Field(default_factory=CarveoutPolicy)
    store_merge_max_lines: int = Field(32, ge=0, description="stores issued together merge in L1 "
                                       "only when a warp's request spans at most this many lines")
    store_allocate: bool = Field(False, description="global stores allocate their lines in L1 "
                                 "(write-through); sectors written whole become valid")
    line_bytes: int = Field(gt=0)
    sector_bytes: int = Field(gt=0)
    caches_global_loads: bool = Field(description="plain ld.global allocates in L1 (False on consumer "
                                                  "Pascal: only read-only ld.global.nc does)")


class L2(BaseModel):
    size_bytes: int = Field(gt=0)
    line_bytes: int = Field(gt=0)
    sector_bytes: int = Field(gt=0)
    partitions: int = Field(gt=0, description="L2 partitions (a far partition costs extra latency)")
    request_coalescer: bool = Field(False, description="an L2 request coalescer merges reads of the same "
                                                       "sectors from SMs of one GPC (measured on the H100)")
    atomic_unit_bytes: int = Field(gt=0, description="aligned address range whose atomic packets one L2 atomic "
                                                     "unit applies one after another (memsim.metrics."
                                                     "ATOMIC_UNIT_SIZES)")
    dirty_at_profiled_launch_bytes: int = Field(
        0, ge=0, description="dirty bytes, not the kernel's, the L2 holds when a launch profiled in "
                             "several ncu replay passes starts; evicted like the kernel's own lines, "
                             "they are DRAM writes of the launch (gpu/cache_probe/dirty_start_probe.py)")
    home_partitions: bool = Field(False, description="each line lives in one partition, its home (by address); "
                                                     "a read from an SM of the other side also leaves a clean "
                                                     "copy in that side's partition (gpu/cache_probe/"
                                                     "stream_mix_probe.py). False: every partition holds "
                                                     "every line (one partition's share is the capacity)")
    whole_sector_writes: bool = Field(False, description="DRAM is written in whole sectors: a dirty sector "
                                                         "not every byte of which stores wrote is read from "
                                                         "DRAM before its write-back (gpu/cache_probe/"
                                                         "partial_write_probe.py). False: partly written "
                                                         "sectors cost nothing more")
    atomic_units_pair: bool = Field(False, description="the four 256-byte atomic units of an aligned KiB pair up "
                                                       "(0 with 3, 1 with 2): memsim.engine.count.paired_unit")


class GpcLayout(BaseModel):
    """How SMs group into GPCs, the L2 request coalescer's domains, and how a launch's first wave
    of blocks lands on them (memsim.model.cache.coalescing_domains)."""

    count: int = Field(gt=0, description="GPCs; a full grid's first wave fills one after another")
    tpcs_per_gpc: int = Field(gt=0, description="TPCs a full grid fills per GPC before the next (the last "
                                                "GPC also takes the SMs left over)")
    sms_per_tpc: int = Field(gt=0)
    lead_blocks: int = Field(ge=0, description="blocks a grid smaller than the GPU puts on GPC 0 first, "
                                               "filling its TPCs; the rest spread one SM per TPC over "
                                               "the GPCs")


class Dram(BaseModel):
    size_bytes: int = Field(gt=0)
    bus_width_bits: int = Field(gt=0)
    bandwidth_gbs: float = Field(gt=0, description="peak DRAM bandwidth (datasheet), GB/s")
    fetch_bytes: int = Field(gt=0, description="bytes a 32-byte L2 miss pulls from DRAM")


class Throughput(BaseModel):
    """Sustained rates: bandwidths in GB/s at the boost clock, per-SM rates per SM cycle."""

    dram_copy_gbs: float = Field(gt=0, description="streaming device-to-device copy, bytes read + written")
    dram_read_gbs: float = Field(gt=0, description="streaming read-only kernel")
    l2_read_gbs: float = Field(gt=0, description="reading a buffer that fits in L2, all SMs")
    l2_sectors_per_clk: float = Field(gt=0, description="L2 sector accesses per SM cycle, whole GPU "
                                                        "(the limit of scattered, one-sector requests)")
    l1_bytes_per_clk_per_sm: float = Field(gt=0, description="global loads served by L1")
    l1_wavefronts_per_clk_per_sm: float = Field(gt=0, description="L1 tag/data-stage wavefronts per cycle")
    shared_bytes_per_clk_per_sm: float = Field(gt=0, description="conflict-free shared loads")
    shared_wavefronts_per_clk_per_sm: float = Field(gt=0)
    issue_per_clk_per_sm: float = Field(gt=0, description="warp instructions issued per SM cycle (schedulers)")
    l2_atomic_packet_cycles: float = Field(gt=0, description="SM cycles an L2 atomic unit spends on one packet of "
                                                             "a global atomic (one sector, one operation per word)")
    l2_atomic_full_packet_cycles: float | None = Field(None, gt=0, description="the same for a packet with an "
                                                       "operation on every word of its sector (None: as any other)")
    l2_partial_write_sectors_per_clk: float | None = Field(
        None, gt=0, description="partly written sectors the whole L2 takes per SM cycle when each "
                                "lane of a store writes its own line (None: as whole sectors)")
    l2_partial_write_quad_sectors_per_clk: float | None = Field(
        None, gt=0, description="the same when each request for a line writes four of its sectors in part "
                                "(a lane a sector; None: each sector costs as the lane-a-line rate says)")
    l2_atomic_packets_per_clk: float | None = Field(None, gt=0, description="global atomic packets the whole L2 "
                                                    "applies per SM cycle when they spread over many units (None: "
                                                    "not measured, no such limit)")


class Latency(BaseModel):
    l1_hit_cycles: float = Field(gt=0, description="dependent load that hits L1 (SM cycles)")
    l2_hit_cycles: float = Field(gt=0, description="dependent load that misses L1 and hits L2 (SM cycles)")
    dram_ns: float = Field(gt=0, description="dependent load that misses L2 (ns)")
    shared_cycles: float = Field(gt=0, description="dependent shared load (SM cycles)")
    l2_atomic_float_ns: float = Field(gt=0, description="ns a floating-point atomic packet waits for the previous "
                                                     "one to its sector (the add's latency; the same at base and "
                                                     "boost SM clocks, measured: not in SM cycles)")


class Pipes(BaseModel):
    """Issue cycles per warp instruction per SM sub-partition when all four issue it back to back
    (4 / warp instructions per SM cycle at the plateau): what a warp-level timing model charges a
    pipe for one instruction. Names are the SASS instruction classes (docs/microbenchmarks.md)."""

    ffma: float = Field(gt=0)
    fadd: float = Field(gt=0)
    fmul: float = Field(gt=0)
    imad: float = Field(gt=0)
    iadd3: float = Field(gt=0)
    lop3: float = Field(gt=0)
    isetp: float = Field(gt=0, description="ISETP and SEL alternating, per instruction")
    fsetp: float = Field(gt=0, description="FSETP and FSEL alternating, per instruction")
    mufu: float = Field(gt=0, description="MUFU.EX2")
    dfma: float = Field(gt=0)
    hfma2: float = Field(gt=0)
    conversion: float = Field(gt=0, description="F2I and I2FP alternating, per instruction")
    shfl: float = Field(gt=0)
    lds: float = Field(gt=0, description="32-bit conflict-free LDS (one wavefront each)")
    sts: float = Field(gt=0, description="32-bit conflict-free STS")
    ldg_l1: float = Field(gt=0, description="32-bit LDG hitting L1, one 128-byte line a warp instruction")
    hmma: float = Field(gt=0, description="HMMA.16816.F32 (mma.sync m16n8k16 f16 -> f32)")


class InstructionLatency(BaseModel):
    """SM cycles from an instruction's issue until a dependent instruction can use its result
    (one warp, a dependent chain): the variable-latency classes a scoreboard waits on, and a few
    fixed-latency ones as a check of the method."""

    s2r: float = Field(gt=0, description="S2R of a special register")
    ldc: float = Field(gt=0, description="LDC at a register offset, constant-cache hit")
    lds: float = Field(gt=0, description="LDS, no bank conflict, address from the previous load")
    sts_lds: float = Field(gt=0, description="STS then LDS of the same word (one step of the pair)")
    ldsm: float = Field(gt=0, description="LDSM.16.M88 (ldmatrix .x1)")
    shfl_idx: float = Field(gt=0)
    shfl_bfly: float = Field(gt=0)
    mufu_rcp: float = Field(gt=0)
    mufu_ex2: float = Field(gt=0)
    mufu_rsq: float = Field(gt=0)
    mufu_sin: float = Field(gt=0)
    dfma: float = Field(gt=0)
    dadd: float = Field(gt=0)
    f2i_i2f: float = Field(gt=0, description="an F2I and an I2FP, one after the other (the pair)")
    popc: float = Field(gt=0)
    flo: float = Field(gt=0)
    imad_wide: float = Field(gt=0)
    hfma2: float = Field(gt=0)
    hmma: float = Field(gt=0, description="HMMA.16816.F32 through its accumulator")
    atoms: float = Field(gt=0, description="ATOMS.ADD with return, no conflict")
    atomg: float = Field(gt=0, description="ATOMG.ADD with return on one hot 128-byte line (L2 round trip)")
    bar_1_warp: float = Field(gt=0, description="BAR.SYNC round, block of 1 warp")
    bar_4_warps: float = Field(gt=0, description="BAR.SYNC round, block of 4 warps arriving together")
    bar_32_warps: float = Field(gt=0, description="BAR.SYNC round, block of 32 warps arriving together")
    membar_gpu: float = Field(gt=0, description="__threadfence (MEMBAR.SC.GPU with its ERRBAR/CCTL), "
                                                "nothing outstanding")
    ffma: float = Field(gt=0)
    iadd3: float = Field(gt=0)
    imad: float = Field(gt=0)


class SmCosts(BaseModel):
    """What a block costs an SM beyond its instructions."""

    block_launch_cycles: float = Field(gt=0, description="SM cycles each empty 1-warp block adds on its SM "
                                                         "at full occupancy")
    block_launch_cycles_32_warps: float = Field(gt=0, description="the same for empty 32-warp blocks")
    resident_blocks: float = Field(gt=0, description="blocks of 1 warp an SM runs at once, as seen")
    block_turnaround_cycles: float = Field(gt=0, description="from a 1-warp block's last instruction to the "
                                                             "next block's first on an SM that holds one")
    block_turnaround_cycles_32_warps: float = Field(gt=0, description="the same for 32-warp blocks")


class Launch(BaseModel):
    event_single_us: float = Field(ge=0, description="CUDA events around one launch of an empty kernel "
                                                     "without arguments from CuPy (median)")
    event_per_argument_us: float = Field(ge=0, description="what each kernel argument adds to that")
    back_to_back_us: float = Field(ge=0, description="per launch, many empty launches between two events")
    kernel_floor_ns: float = Field(ge=0, description="gpu__time_duration.sum of an empty kernel under ncu")


class SmTiming(BaseModel):
    """What memsim.timing's warp-level simulation of one SM needs beyond `pipes`,
    `instruction_latency`, `sm_costs` and the memory latencies: the pipes no microbenchmark
    times yet (branch, address and uniform units) and the SM's queues."""

    pipe_issue_cycles: dict[str, float] = Field(description="per pipe of memsim.stream.PIPES that `pipes` "
                                                "does not measure: cycles a sub-partition's pipe is busy with "
                                                "one warp instruction")
    operand_read_cycles: float = Field(gt=0, description="from issue until an instruction's sources are read "
                                       "(its read barrier clears)")
    lsu_queue_cycles: float = Field(gt=0, description="L1-pipe backlog (cycles) beyond which the LSU takes no "
                                    "further memory instruction (MIO throttle)")
    sm_l2_bytes_per_clk: float = Field(gt=0, description="most L2 traffic one SM moves per SM cycle")
    l1_line_cycles: float = Field(gt=0, description="latency each distinct 128-byte line adds to a global "
                                  "request that hits L1 (a request of n lines: about l1_hit_cycles + "
                                  "(n - 1) times this)")
    l1_tag_cycles_per_line: float = Field(0.0, ge=0, description="L1 pipe cycles each distinct 128-byte line "
                                          "of a global load takes in the tag stage, when its lanes' words "
                                          "fall on different banks (0: not measured; a line then costs a "
                                          "wavefront)")


class Calibration(BaseModel):
    """What the measured numbers were measured with (filled by `validate calibrate --record`)."""

    versions: dict[str, str | int] = Field(default_factory=dict, description="gpu.versions.Versions: "
                                           "GPU, driver, CUDA, CuPy, NVRTC, ncu, date")
    raw: dict[str, float] = Field(default_factory=dict, description="every microbenchmark's result")


class Fitted(BaseModel):
    """The models' constants that were fitted to recordings rather than measured or read from a
    datasheet: memsim.model.timing.TimeModelConstants and the numbers of memsim.model.cache.CacheTuning.
    The profile's source["fitted"] says which recordings (the fit set) they were fitted to."""

    time_model: dict[str, float]
    cache_tuning: dict[str, float | int | list[tuple[int, float]]]


class SassAbi(BaseModel):
    """Where the architecture's SASS finds what the launch sets up (what the SASS engine writes)."""

    param_base: int = Field(gt=0, description="bank 0 offset of the first kernel parameter")
    shared_window_base: int = Field(ge=0, description="offset of user shared memory in a block's window")
    nsmid_offset: int = Field(gt=0, description="bank 0 offset of the GPU's SM count (what %nsmid reads)")
    param_address: int | None = Field(None, gt=0, description="bank 0 offset of the parameter block's own "
                                      "address (a __grid_constant__ parameter's address is computed from it)")


class GpuProfile(BaseModel):
    name: str = Field(description="short name, also the file name")
    full_name: str
    aliases: list[str] = Field(default_factory=list)
    compute_capability: str
    arch: str = Field(description="the architecture memsim compiles for and counts with on this GPU "
                                  "(sm_6x: Pascal's rules, memsim.model.pascal)")
    sass_abi: SassAbi | None = Field(None, description="bank 0 and shared window of the arch's SASS; None: "
                                     "the SASS engine does not run this architecture (the PTX engine does)")
    sm_count: int = Field(gt=0)
    warp_size: int = 32
    clocks: Clocks
    occupancy: Occupancy
    limits: LaunchLimits
    l1: L1
    l2: L2
    gpcs: GpcLayout | None = Field(None, description="None where l2.request_coalescer is false: no reads "
                                   "merge across SMs, so the coalescer's domains are not needed")
    dram: Dram
    throughput: Throughput
    latency: Latency
    launch: Launch
    pipes: Pipes | None = Field(None, description="issue cost per pipe (the warp-level timing model's)")
    instruction_latency: InstructionLatency | None = None
    sm_costs: SmCosts | None = None
    timing: SmTiming | None = Field(None, description="the rest of what the warp-level timing simulation "
                                    "(memsim.timing) needs; None: the time formula alone")
    fitted: Fitted
    fitted_from: str | None = Field(None, description="the profile whose fitted block this one loads "
                                    "(None: its own, fitted to its own recordings)")
    base: str | None = Field(None, description="the profile this file gives overrides of: every number and "
                             "source it does not give is the base's (its name, calibration and fitted block "
                             "excepted); None: a whole profile")
    source: dict[str, str] = Field(description="field path or group -> 'datasheet: ...' / "
                                               "'measured: ...' / 'derived: ...' / 'fitted: ...' / 'literature: ...'")
    calibration: Calibration | None = None

    @model_validator(mode="after")
    def _atomic_unit_is_counted(self) -> "GpuProfile":
        from ..metrics import ATOMIC_UNIT_SIZES
        if self.l2.atomic_unit_bytes not in ATOMIC_UNIT_SIZES:
            raise ValueError(f"l2.atomic_unit_bytes must be one of {ATOMIC_UNIT_SIZES} (the units the emulator "
                             f"counts atomic packets in), not {self.l2.atomic_unit_bytes}")
        return self

    @model_validator(mode="after")
    def _coalescer_has_domains(self) -> "GpuProfile":
        if self.l2.request_coalescer and self.gpcs is None:
            raise ValueError("l2.request_coalescer needs gpcs (the coalescer's domains)")
        return self

    @model_validator(mode="after")
    def _every_number_has_a_source(self) -> "GpuProfile":
        for key, text in self.source.items():
            if not text.startswith(SOURCE_KINDS):
                raise ValueError(f"source of '{key}' must start with one of {', '.join(SOURCE_KINDS)}")
        missing = [path for path in self.number_paths() if self.source_of(path) is None]
        if missing:
            raise ValueError(f"no source for {', '.join(missing[:6])}")
        return self

    def number_paths(self) -> list[str]:
        """Dotted paths of every hardware number (the sub-models' fields and sm_count)."""
        paths = ["sm_count", "fitted"]
        for group in ("clocks", "occupancy", "limits", "l1", "l2", "gpcs", "dram", "throughput", "latency", "launch",
                      "pipes", "instruction_latency", "sm_costs", "timing", "sass_abi"):
            if getattr(self, group) is not None:
                paths += [f"{group}.{field}" for field in type(getattr(self, group)).model_fields]
        return paths

    def source_of(self, path: str) -> str | None:
        """The source text of a number: its own entry, else its group's."""
        return self.source.get(path) or self.source.get(path.split(".")[0])

    def measured(self, path: str) -> bool:
        return (self.source_of(path) or "").startswith("measured:")

    def cycles_to_ns(self, cycles: float, boost: bool = False) -> float:
        mhz = self.clocks.sm_boost_mhz if boost else self.clocks.sm_base_mhz
        return cycles * 1e3 / mhz


# The GPU a launch runs on when none is named: the one whose counters the exact engines were
# checked on (most recordings in validate/ are of it). The one place memsim names it.
DEFAULT_GPU = "H100"


def default_profile() -> GpuProfile:
    return load(DEFAULT_GPU)


def for_arch(arch: str | None) -> GpuProfile:
    """The GPU a launch compiled for `arch` alone runs on: the default GPU where it has that
    architecture (or none is named), else the first profile (by name) that does."""
    default = default_profile()
    if arch is None or arch == default.arch:
        return default
    for name in names():
        profile = load(name)
        if profile.arch == arch:
            return profile
    return default.model_copy(update={"arch": arch, "sass_abi": None})


def sass_abi(arch: str) -> SassAbi | None:
    """The SASS layout of `arch` as the profiles naming it give it (None: no profile gives one)."""
    for name in names():
        profile = load(name)
        if profile.arch == arch and profile.sass_abi is not None:
            return profile.sass_abi
    return None


def sass_arches() -> list[str]:
    """Architectures whose SASS layout a profile gives (those the SASS engine runs)."""
    return sorted({p.arch for p in map(load, names()) if p.sass_abi is not None})


def names() -> list[str]:
    """Short names of every profile shipped with memsim."""
    return sorted(p["name"] for p in _raw_profiles().values())


def load(name: str) -> GpuProfile:
    """The profile of `name` (case-insensitive; short name or alias); ProfileError if unknown.
    Each call gives a fresh copy (callers may change it)."""
    profile = _load(_key(name))
    if profile is None:
        raise ProfileError(f"unknown GPU '{name}': known GPUs are {', '.join(names())}")
    return profile.model_copy(deep=True)


@functools.lru_cache(maxsize=None)
def _load(key: str) -> GpuProfile | None:
    for file, raw in _raw_profiles().items():
        if key in {_key(raw.get("name", "")), *map(_key, raw.get("aliases", []))}:
            return _validated(file, _inherited(file, raw))
    return None


# What a profile never takes from its base: who the GPU is, what it was calibrated with, and the
# fitted block (a GPU without its own fit names fitted_from, whose source says so).
_OWN_KEYS = ("name", "full_name", "aliases", "base", "fitted", "fitted_from", "calibration")


def _raw_named(name: str) -> dict | None:
    return next((r for r in _raw_profiles().values() if _key(r.get("name", "")) == _key(name)), None)


def _based(file: Path, raw: dict, seen: tuple[str, ...] = ()) -> dict:
    """`raw` over the profile it names in `base` (as Accel-Sim's configs compose a base file and
    overrides): groups merge field by field, sources entry by entry; a refit or a remeasurement
    of the base reaches every profile built on it."""
    base_name = raw.get("base")
    if not base_name:
        return raw
    base = _raw_named(base_name)
    if base is None or _key(base_name) in seen or _key(base_name) == _key(raw.get("name", "")):
        raise ProfileError(f"{file.name}: base names '{base_name}', which is no other shipped profile")
    base = _based(file, base, (*seen, _key(raw.get("name", ""))))
    return _merged({k: v for k, v in base.items() if k not in _OWN_KEYS}, raw)


def _merged(base: dict, over: dict) -> dict:
    return {**base, **{k: _merged(base[k], v) if isinstance(v, dict) and isinstance(base.get(k), dict) else v
                       for k, v in over.items()}}


def _overrides(full: dict, base: dict, top: bool = True) -> dict:
    """What `full` gives that `base` does not (the inverse of _merged), its own keys kept."""
    out = {}
    for k, v in full.items():
        if top and k in _OWN_KEYS:
            out[k] = v
        elif isinstance(v, dict) and isinstance(base.get(k), dict):
            if differs := _overrides(v, base[k], top=False):
                out[k] = differs
        elif k not in base or base[k] != v:
            out[k] = v
    return out


def _inherited(file: Path, raw: dict) -> dict:
    """`raw` over its base (`base`), with the fitted block of the profile it names in
    `fitted_from` (and that block's source)."""
    raw = _based(file, raw)
    base_name = raw.get("fitted_from")
    if not base_name:
        return raw
    base = _raw_named(base_name)
    if base is None or base.get("fitted_from") or "fitted" not in base:
        raise ProfileError(f"{file.name}: fitted_from names '{base_name}', which has no fitted block of its own")
    source = {**raw.get("source", {}), "fitted": f"fitted: the {base['name']}'s fit ({base['name'].lower()}.json), "
              f"not refitted for the {raw.get('name')}: no recording of it"}
    return {**raw, "fitted": base["fitted"], "source": source}


def load_file(path: Path) -> GpuProfile:
    try:
        raw = _inherited(Path(path), json.loads(Path(path).read_text()))
    except OSError as exc:
        raise ProfileError(f"cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ProfileError(f"{path} is not JSON: {exc.msg} at line {exc.lineno}") from None
    return _validated(Path(path), raw)


def save(profile: GpuProfile, directory: Path = PROFILE_DIR) -> Path:
    path = Path(directory) / f"{profile.name.lower()}.json"
    inherited = {"fitted"} if profile.fitted_from else set()
    dumped = json.loads(profile.model_dump_json(exclude=inherited))
    if profile.fitted_from:
        dumped["source"].pop("fitted", None)
    if profile.base:
        dumped = _overrides(dumped, json.loads(load(profile.base).model_dump_json()))
    path.write_text(json.dumps(dumped, indent=1, ensure_ascii=False) + "\n")
    _raw_profiles.cache_clear()
    _load.cache_clear()
    return path


def _validated(path: Path, raw: dict) -> GpuProfile:
    try:
        return GpuProfile.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "profile"
        raise ProfileError(f"{path.name}: {where}: {first['msg']}") from None


def _key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


@functools.lru_cache(maxsize=1)
def _raw_profiles() -> dict[Path, dict]:
    profiles = {}
    for path in sorted(PROFILE_DIR.glob("*.json")):
        try:
            profiles[path] = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise ProfileError(f"cannot read GPU profile {path.name}: {exc}") from None
    return profiles


# The default GPU's architecture: what a launch compiles for when neither a GPU nor an
# architecture is named.
DEFAULT_ARCH = default_profile().arch
