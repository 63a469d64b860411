"""`validate calibrate`: measure a GPU's profile numbers with microbenchmarks and record them.

    validate calibrate --measure [--record] [--out FILE]   measure here (CuPy, CUDA events, ncu)
    validate calibrate --from FILE [--record]          take a result measured elsewhere

The microbenchmarks are gpu/calibrate.py's; this module turns their results into GpuProfile
fields, each with a `source` that says how it was measured, and with --record writes them into
memsim/gpus/profiles/<gpu>.json (the numbers a datasheet gave are kept where nothing was measured).
"""
from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Callable

from pydantic import ValidationError
from rich.console import Console

from memsim import gpus
from memsim.errors import MemsimError
from memsim.gpus import Calibration, GpuProfile

from . import gpu_flags
from .microbench_rules import RULES as INSTRUCTION_RULES
from .report import table


class CalibrationError(MemsimError):
    """A calibration result that cannot be read or applied."""


Rule = tuple[str, Callable[[dict[str, float]], float], str]

# profile field <- function of the raw results, and how it was measured.
RULES: list[Rule] = [
    ("clocks.sm_boost_mhz", lambda v: v["clock.sm_mhz"],
     "k_cal_clock: 20M clock64 cycles over their CUDA-event time, one warp"),
    ("clocks.sm_base_mhz", lambda v: v["ncu.copy.sm__cycles_elapsed.avg.per_second"] / 1e6,
     "ncu sm__cycles_elapsed.avg.per_second during the copy (--clock-control base)"),
    ("clocks.memory_mhz", lambda v: v["ncu.copy.dram__cycles_elapsed.avg.per_second"] / 1e6,
     "ncu dram__cycles_elapsed.avg.per_second during the copy"),
    ("throughput.dram_copy_gbs", lambda v: v["copy.gbs"],
     "k_cal_copy: 1 GiB float4 grid-stride copy, bytes read + written over the event median, "
     "best of 4/8/32 blocks of 256 per SM"),
    ("throughput.dram_read_gbs", lambda v: v["read.gbs"], "k_cal_read: 1 GiB float4 grid-stride read"),
    ("throughput.l2_read_gbs", lambda v: v["l2_read.gbs"],
     "k_cal_l2_read: 100 passes over 16 MiB with ld.global.cg, 8 blocks of 256 per SM"),
    ("throughput.l2_sectors_per_clk", lambda v: v["l2_read.gbs"] * 1e3 / 32 / v["clock.sm_mhz"],
     "L2 read bandwidth in 32-byte sectors per SM cycle"),
    ("throughput.l1_bytes_per_clk_per_sm", lambda v: v["l1_read.bytes_per_clk_per_sm"],
     "k_cal_l1_read: 2000 passes over a 16 KiB window with ld.global.ca, 2 blocks of 1024 per SM "
     "(a lower limit: the loop's index and add instructions share the issue slots)"),
    ("throughput.l1_wavefronts_per_clk_per_sm", lambda v: v["l1_read.bytes_per_clk_per_sm"] / 128,
     "L1 read bandwidth in 128-byte wavefronts per cycle"),
    ("throughput.shared_bytes_per_clk_per_sm", lambda v: v["shared_free.wavefronts_per_clk_per_sm"] * 128,
     "k_cal_shared, conflict-free float loads (one 128-byte wavefront a request; the loop's ~4 "
     "instructions a load make this an issue-bound lower limit)"),
    ("throughput.shared_wavefronts_per_clk_per_sm", lambda v: v["shared_conflict32.wavefronts_per_clk_per_sm"],
     "k_cal_shared, 32-way bank conflicts (32 wavefronts a request)"),
    ("latency.l1_hit_cycles", lambda v: v["latency.l1_cycles"],
     "k_cal_chase_l1: one-thread pointer chase over 16 KiB, 128-byte steps, ld.global.ca, clock64"),
    ("latency.l2_hit_cycles", lambda v: v["latency.l2_cycles"],
     "k_cal_chase_l2: pointer chase over 2 MiB, 256-byte random steps, ld.global.cg, warmed"),
    ("latency.dram_ns", lambda v: v["ncu.chase_dram_ns"],
     "k_cal_chase_dram under ncu (base clocks, caches flushed): (duration - empty kernel) / 2048 "
     "dependent loads over 128 MiB, 4 KiB random steps"),
    ("latency.shared_cycles", lambda v: v["latency.shared_cycles"], "k_cal_chase_shared, clock64"),
    ("throughput.l2_atomic_packet_cycles", lambda v: v["atomic_unit.ns_per_packet"] * v["clock.sm_mhz"] / 1e3,
     "k_cal_atomic_unit: 4 blocks of 256 per SM add 1 to 32 consecutive ints of 64 (256 B, one L2 atomic "
     "unit; four packets a warp instruction), 64 times; event time minus an empty launch's, per packet, "
     "in SM cycles"),
    ("latency.l2_atomic_float_ns", lambda v: v["atomic_float_one.ns_per_add"],
     "k_cal_atomic_float_one: a block of 256 per SM adds 1.0f to one float, 16 times (a packet a lane, "
     "each waiting for the previous add); event time minus an empty launch's, per add"),
    ("launch.event_single_us", lambda v: v["launch.event_single_us"],
     "CUDA events around one launch from CuPy of an empty 1x32 kernel without arguments, median of 200"),
    ("launch.event_per_argument_us", lambda v: (v["launch.event_args_us"] - v["launch.event_single_us"]) / 4,
     "the same with 4 arguments (2 buffers, 2 ints), minus it, over 4"),
    ("launch.back_to_back_us", lambda v: v["launch.back_to_back_us"],
     "2000 empty launches between two events, per launch, median of 5"),
    ("launch.kernel_floor_ns", lambda v: v["ncu.empty_1.gpu__time_duration.sum"],
     "ncu gpu__time_duration.sum of an empty 1x32 launch (base clocks)"),
]


def apply(profile: GpuProfile, result) -> GpuProfile:
    """`profile` with every number the result measures replaced, sources and versions updated."""
    values, versions = result.values, result.versions
    data = profile.model_dump()
    source = dict(data["source"])
    date = versions.date[:10]
    for path, rule, how in RULES + INSTRUCTION_RULES:
        group, field = path.split(".")
        if data.get(group) is None:
            continue  # a profile without the group (no instruction-level model for this GPU)
        try:
            number = float(rule(values))
        except (KeyError, ZeroDivisionError):
            continue  # not measured this time (e.g. no ncu): the old number and source stay
        if not math.isfinite(number) or (number <= 0 and group in ("pipes", "instruction_latency", "sm_costs")):
            continue  # a microbenchmark that went wrong on the device: keep the old number
        data[group][field] = round(number, 3)
        source[path] = f"measured: {how} ({versions.gpu}, {date})"
    data["source"] = source
    data["calibration"] = Calibration(versions=versions.model_dump(),
                                      raw={k: round(v, 4) for k, v in sorted(values.items())}).model_dump()
    try:
        return GpuProfile.model_validate(data)
    except ValidationError as exc:
        raise CalibrationError(f"the measured numbers do not make a valid profile: {exc.errors()[0]['msg']}") from None


def load_result(path: Path):
    from gpu.calibrate import CalibrationResult

    from .record import read_json
    return read_json(path, CalibrationResult, "a calibration result", CalibrationError)


def profile_for(gpu_name: str) -> GpuProfile:
    """The shipped profile of the GPU a result was measured on (by its marketing name)."""
    from gpu.versions import gpu_slug
    return gpus.load(gpu_slug(gpu_name))


def command(args: argparse.Namespace) -> int:
    console = Console()
    if args.source is not None:
        result = load_result(args.source)
    elif args.measure:
        from gpu.calibrate import calibrate
        result = calibrate(args.work or Path("/tmp/memsim-calibrate"), with_ncu=not args.no_ncu)
    else:
        raise CalibrationError("calibrate measures on hardware: add --measure, or --from FILE to use a "
                               "result measured elsewhere")
    for note in result.notes:
        console.print(f"note: {note}")
    if args.out:
        args.out.write_text(result.model_dump_json(indent=1) + "\n")
        console.print(f"wrote {args.out}")
    old = profile_for(result.versions.gpu)
    new = apply(old, result)
    rows = [[path, _number(_get(old, path)), _number(_get(new, path))] for path, _, _ in RULES + INSTRUCTION_RULES
            if getattr(new, path.split(".")[0]) is not None and new.measured(path)]
    console.print(table(f"{new.name}: measured on {result.versions.gpu}", ["field", "before", "measured"], rows))
    if args.record:
        console.print(f"recorded {gpus.save(new)}")
    return 0


def add_parser(commands) -> None:
    cal = commands.add_parser("calibrate", help="measure the GPU profile's numbers with microbenchmarks")
    gpu_flags.add(cal)
    cal.add_argument("--from", dest="source", type=Path, default=None,
                     help="use a calibration result written by --out (measured elsewhere)")
    cal.add_argument("--record", action="store_true", help="write the numbers into memsim/gpus/profiles/")
    cal.add_argument("--out", type=Path, default=None, help="also write the raw result here (JSON)")
    cal.add_argument("--work", type=Path, default=None, help="with --measure: ncu files go here")
    cal.add_argument("--no-ncu", action="store_true", help="with --measure: event timings only")
    cal.set_defaults(handler=command)


def _get(profile: GpuProfile, path: str) -> float:
    group, field = path.split(".")
    return getattr(getattr(profile, group), field)


def _number(value: float) -> str:
    return f"{value:,.3g}" if abs(value) < 1000 else f"{value:,.0f}"
