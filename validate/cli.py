"""`validate`: hold memsim to real hardware.

    validate run                          simulate the recorded cases, compare with the recordings
    validate run --cases corpus --sim-only  simulate the corpus (validate/corpus/*.cu) without
                                          recordings: which cases each engine runs
    validate run --cases prereg --sim-only  the pre-registered public kernels (validate/prereg/*.cu),
                                          held out of every fit
    validate run --gpu H100               also the cache, DRAM and time models of that GPU profile
    validate run --measure [--record]     measure the cases on this machine's GPU, then compare
    validate fuzz --measure --n N --seed S  measure random cases on the GPU, then compare
    validate run --measure --record --cases fuzz2   the fuzz2 set (warp, atomic, double and local-array
                                          kernels; 150 cases of seed 2 unless --n/--seed)
    validate list                         the cases and where they are recorded
    validate durations --measure [--launches N]  repeated ncu durations of the cases (their median
                                          is what the time model is held to)
    validate import DIR                   file measurement files fetched from a GPU machine
    validate calibrate --measure [--record]  measure the GPU profile's numbers (memsim/gpus/profiles/)

`--gpu NAME` is a GPU profile and `--measure` measures here, as in memsim; the old spellings (a
bare --gpu, --model NAME) still work with a one-line warning (validate.gpu_flags).

Exit status: 0 when every exact metric equals the hardware, 1 when one differs (or cannot be
simulated), 2 on bad input or a missing GPU, with one line on stderr; 130 on Ctrl-C ("interrupted").
On a terminal, simulating the cases shows a progress bar.
"""
from __future__ import annotations

import argparse
import fnmatch
import functools
import os
import signal
import sys
import tempfile
from pathlib import Path

from pydantic import BaseModel, Field
from rich.console import Console

from gpu.driver import CatalogRef, DriverCase
from gpu.measure import NCU_METHOD, MeasureOptions, measure, ncu_method
from memsim import metrics as m
from memsim.tools import progress
from memsim.engine import registry
from memsim.errors import MemsimError
from memsim.launch import LaunchSpec
from memsim.tools.pool import run_all

from . import calibrate, gpu_flags, preregistration
from .fuzz2_cases import FUZZ2_N, FUZZ2_SEED
from . import record as rec
from .compare import ComparisonReport, compare_files
from .lofo import cross_validate_run
from .report import check_report_folder, print_summary, table, write_reports

# "all": every recorded set, what `validate run` holds memsim to; "classic": the suite and the
# first fuzz set (the cache and time models' fit data; gpu/cache_probe measures it);
# corpus: kernels as people write them (validate/corpus_cases.py); numba: numba.cuda kernels
# (validate/numba_cases.py); prereg, prereg2 ... prereg16: public kernels whose predictions were committed before
# their recordings were read (validate/prereg_cases.py, prereg2_cases.py, prereg3_cases.py, prereg4_cases.py, prereg5_cases.py, prereg6_cases.py, prereg7_cases.py, prereg8_cases.py, prereg9_cases.py, prereg10_cases.py, prereg11_cases.py, prereg12_cases.py, prereg13_cases.py, prereg14_cases.py, prereg15_cases.py, prereg16_cases.py), run on their own, not in "all" (CI's time);
# triton: Triton kernels (validate/triton_cases.py, needs Triton 3.6.0; not in "all" until it is
# recorded); inductor: torch.compile's generated kernels (validate/inductor_cases.py, needs torch too); sm90: small launches of sm_90's own instructions (validate/sm90_probes.py) and of
# TMA/setmaxnreg (validate/tma_probes.py) and of wgmma (validate/wgmma_probes.py; also alone as `wgmma`).
SETS = {"suite": ("suite",), "fuzz": ("fuzz",), "fuzz2": ("fuzz2",), "corpus": ("corpus",),
        "numba": ("numba",), "prereg": ("prereg",), "prereg2": ("prereg2",),
        "prereg3": ("prereg3",), "prereg4": ("prereg4",),
        "prereg5": ("prereg5",), "prereg6": ("prereg6",),
        "prereg7": ("prereg7",), "prereg8": ("prereg8",), "prereg9": ("prereg9",), "prereg10": ("prereg10",), "prereg11": ("prereg11",), "prereg12": ("prereg12",), "prereg13": ("prereg13",), "prereg14": ("prereg14",), "prereg15": ("prereg15",), "prereg16": ("prereg16",),
        "triton": ("triton",), "inductor": ("inductor",), "sm90": ("sm90_probes", "tma_probes", "wgmma_probes"), "wgmma": ("wgmma_probes",), "classic": ("suite", "fuzz"),
        "all": ("suite", "fuzz", "fuzz2", "corpus", "numba", "sm90_probes", "tma_probes", "wgmma_probes")}
FUZZ_N, FUZZ_SEED = 200, 0
# fuzz2 keeps its own defaults (validate.fuzz2_cases): --n/--seed override both sets'


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        gpu_flags.resolve(args)
        if getattr(args, "report", None) is not None:
            check_report_folder(args.report)
        return args.handler(args)
    except (MemsimError, argparse.ArgumentTypeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return progress.interrupted()


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="validate", description=__doc__,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = top.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="compare memsim with recorded (or fresh, --gpu) measurements")
    run.add_argument("--cases", choices=SETS, default="all", help="which case set (default all)")
    run.add_argument("--sim-only", action="store_true",
                     help="simulate the set's cases without recordings (no comparison): which run")
    _add_common(run)
    run.set_defaults(handler=command_run)
    fuzz = commands.add_parser("fuzz", help="measure random cases on the GPU and compare")
    _add_common(fuzz)
    fuzz.set_defaults(handler=command_fuzz, cases="fuzz")
    listing = commands.add_parser("list", help="the cases and where they are recorded")
    listing.add_argument("--cases", choices=SETS, default="all")
    listing.add_argument("--filter", default="*", help="glob on case names")
    listing.add_argument("--data", type=Path, default=rec.DATA_DIR, help="recorded measurements")
    listing.set_defaults(handler=command_list)
    importing = commands.add_parser("import", help="file measurement files under the data folder")
    importing.add_argument("paths", nargs="+", type=Path, help="measurement files or folders of them")
    importing.add_argument("--data", type=Path, default=rec.DATA_DIR)
    importing.set_defaults(handler=command_import)
    durations = commands.add_parser("durations", help="record repeated ncu durations of the cases")
    durations.add_argument("--cases", choices=SETS, default="suite")
    durations.add_argument("--filter", default="*", help="glob on case names")
    gpu_flags.add(durations, measure_help="measure on this machine's GPU (required)")
    durations.add_argument("--launches", type=int, default=21, help="profiled launches per case")
    durations.add_argument("--n", type=int, default=None, help=f"fuzz cases to generate (default {FUZZ_N}, fuzz2 {FUZZ2_N})")
    durations.add_argument("--seed", type=int, default=None, help=f"fuzz generator seed (default {FUZZ_SEED}, fuzz2 {FUZZ2_SEED})")
    durations.add_argument("--out", type=Path, default=rec.DATA_DIR, help="data folder to save into")
    durations.add_argument("--work", type=Path, default=None, help="keep driver and ncu files here")
    durations.set_defaults(handler=command_durations)
    calibrate.add_parser(commands)
    preregistration.add_parser(commands, select_cases)
    return top


def _add_common(command: argparse.ArgumentParser) -> None:
    command.add_argument("--filter", default="*", help="glob on case names (default all)")
    command.add_argument("--skip-tag", action="append", default=[], metavar="TAG",
                         help="leave out cases with this tag, e.g. seed (the 25 large seed launches)")
    gpu_flags.add(command, profile_help="also predict caches, DRAM and time with this GPU profile (e.g. H100) "
                                        "and report their errors against the recorded counters")
    command.add_argument("--record", action="store_true", help="with --measure: save the measurements")
    command.add_argument("--measure-only", action="store_true", help="with --measure: skip the simulation")
    command.add_argument("--n", type=int, default=None, help=f"fuzz cases to generate (default {FUZZ_N}, fuzz2 {FUZZ2_N})")
    command.add_argument("--seed", type=int, default=None, help=f"fuzz generator seed (default {FUZZ_SEED}, fuzz2 {FUZZ2_SEED})")
    command.add_argument("--data", type=Path, default=rec.DATA_DIR, help="recorded measurements to compare with")
    command.add_argument("--out", type=Path, default=None, help="with --record: data folder to save into (default --data)")
    command.add_argument("--work", type=Path, default=None, help="with --measure: keep driver and ncu files here")
    command.add_argument("--report", type=Path, default=None, help="write report.md/.json and scatter.png here")
    command.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="simulation processes")
    command.add_argument("--engine", choices=registry.NAMES, default=None,
                         help="memsim engine: sass (the sm_90 SASS the GPU runs; the default) or ptx "
                              "(PTX-level; its measured differences: data/<gpu>/known_differences.json)")
    command.add_argument("--flush-l2", action="store_true", help="with --measure: cold L2 before each timed rep")
    command.add_argument("--case-file", type=Path, default=None,
                         help="with --measure: measure the cases of this JSON list ({name, spec, tags}) "
                              "instead of suite/fuzz; recorded as the set named after the file")


def command_run(args: argparse.Namespace) -> int:
    if args.measure:
        return measure_and_compare(args)
    if args.record or args.measure_only:
        raise rec.RecordError("--record and --measure-only need --measure (they measure on hardware)")
    if args.sim_only:
        return simulate_only(args)
    files = local_triton_specs(rec.load_reference(args.data, SETS[args.cases]))
    if not files:
        raise rec.RecordError(f"no recorded measurements of {' or '.join(SETS[args.cases])} cases under {args.data}: record "
                              "them on a GPU machine with `validate run --measure --record`, or simulate without "
                              "comparing: --sim-only")
    files = recordings_of(files, args.model, args.data)
    selected = lambda record: (fnmatch.fnmatchcase(record.name, args.filter)
                               and not set(args.skip_tag) & set(record.tags))
    total = sum(1 for f in files for c in f.cases if c.measured and selected(c))
    with progress.bar(total, "validate run", progress.wanted()) as advance:
        compared = compare_files(files, jobs=args.jobs, select=selected, engine=engine_for(args),
                                 model=args.model, progress=advance, cross_validate=cross_validate_run)
    code = finish(compared, args)
    note = unrecorded_note([f for f in files if f.case_set == "suite"], args.filter)
    if note:
        print(note)
    return code


def recordings_of(files: list[rec.MeasurementFile], model: str | None, data: Path) -> list[rec.MeasurementFile]:
    """With --gpu NAME (a profile), only the recordings of that GPU: its cache and time models say nothing of
    another GPU's launches (validate/data holds the H200's beside the H100's, and the H100's
    leave-one-family-out fits must not read H200 durations)."""
    if not model:
        return files
    from memsim import gpus
    gpu = gpus.load(model).name
    mine = [f for f in files if f.gpu == gpu.lower()]
    if not mine:
        raise rec.RecordError(f"no recordings of the {gpu} under {data} (found: "
                              f"{', '.join(sorted({f.gpu for f in files}))}); --gpu NAME compares a GPU's "
                              "model with that GPU's recordings")
    return mine


def simulate_only(args: argparse.Namespace) -> int:
    """Simulate the chosen cases with no recordings to compare with: one line each (its exact
    counters' headline or the first line of its error); 1 when any case cannot be simulated."""
    cases = [(s, c) for s, c in select_cases(args.cases, args.filter, args.n, args.seed)
             if not set(args.skip_tag) & set(c.tags)]
    engine = engine_for(args)
    rows, failed = [], 0
    with progress.bar(len(cases), "validate run --sim-only", progress.wanted()) as advance:
        simulated = run_all(_simulate_case, [(c.spec, engine) for _, c in cases], args.jobs, advance)
    for (case_set, case), (error, metrics, seconds) in zip(cases, simulated):
        failed += bool(error)
        counters = "" if error else (f"ld sectors {metrics.get(m.GLOBAL_LD_SECTORS, 0):.0f}, "
                                     f"st sectors {metrics.get(m.GLOBAL_ST_SECTORS, 0):.0f}, "
                                     f"shared ld wavefronts {metrics.get(m.SHARED_LD_WAVEFRONTS, 0):.0f}")
        rows.append([case_set, case.name, case.spec.kernel, "error" if error else "ok", f"{seconds:.1f}",
                     error or counters])
    console = Console()
    console.print(table(f"simulated with the {engine} engine (not compared: --sim-only)",
                        ["set", "case", "kernel", "status", "s", "counters or error"], rows))
    console.print(f"{len(rows) - failed} of {len(rows)} cases simulated")
    return 1 if failed else 0


def _simulate_case(spec: LaunchSpec, engine: str) -> tuple[str, dict, float]:
    """(first line of the error or '', metrics, seconds) of one simulation."""
    import time

    from memsim.engine.simulation import simulate_spec
    started = time.perf_counter()
    try:
        report, _ = simulate_spec(spec, engine=engine, timeout=None)
        return "", report.metrics, time.perf_counter() - started
    except Exception as exc:  # noqa: BLE001 - each failure is one row
        lines = str(exc).strip().splitlines()
        return f"{type(exc).__name__}: {lines[0] if lines else ''}"[:200], {}, time.perf_counter() - started


def unrecorded_note(suite_files: list[rec.MeasurementFile], pattern: str) -> str:
    """A line naming suite cases that are new or changed since the recording ('' if none)."""
    if not suite_files:
        return ""
    try:
        current = {c.name: c for _, c in select_cases("suite", pattern, 0, 0)}
    except MemsimError:
        return ""
    recorded = {c.name: c.spec for f in suite_files for c in f.cases}
    stale = sorted(n for n, c in current.items() if n not in recorded or recorded[n] != c.spec)
    if not stale:
        return ""
    shown = ", ".join(stale[:8]) + (f" and {len(stale) - 8} more" if len(stale) > 8 else "")
    return (f"note: {len(stale)} suite cases are new or changed since the recording and were not "
            f"checked against hardware: {shown} (record them: validate run --measure --record --cases suite)")


def engine_for(args: argparse.Namespace) -> str:
    """--engine, else the engine memsim's default stands for (the SASS engine: exact on every
    recorded case, and the one whose warp scoreboard, memsim.metrics.ROUND_TRIPS, the time
    model reads)."""
    return args.engine or registry.default_name()


def command_fuzz(args: argparse.Namespace) -> int:
    if not args.measure:
        raise rec.RecordError("`validate fuzz` measures new cases on hardware: add --measure "
                              "(recorded fuzz cases are checked by `validate run --cases fuzz`)")
    return measure_and_compare(args)


def measure_and_compare(args: argparse.Namespace) -> int:
    console = Console(stderr=True)
    if args.case_file:
        cases = load_case_file(args.case_file, args.filter)
    else:
        cases = select_cases(args.cases, args.filter, args.n, args.seed)
    versions, measured = measure_cases(cases, MeasureOptions(flush_l2=args.flush_l2), args.work, console)
    by_set: dict[str, list[rec.CaseRecord]] = {}
    for (case_set, case), measurement in zip(cases, measured):
        by_set.setdefault(case_set, []).append(case_record(case, measurement))
    files = [rec.MeasurementFile(gpu=versions.slug, case_set=s, versions=versions, method=NCU_METHOD, cases=r)
             for s, r in by_set.items()]
    if args.record:
        for file in files:
            console.print(f"recorded {len(file.cases)} cases in {rec.save(file, args.out or args.data)}")
    failed = [r for r in measured if r.error]
    console.print(f"measured {len(measured) - len(failed)} of {len(measured)} cases on {versions.gpu}"
                  + (f"; failed: {', '.join(r.name for r in failed[:20])}" if failed else ""))
    if args.measure_only:
        return 0
    return finish(compare_files(files, jobs=args.jobs, engine=engine_for(args), model=args.model,
                                cross_validate=cross_validate_run), args)


def measure_cases(cases: list[tuple[str, object]], options: MeasureOptions, work: Path | None,
                  console: Console) -> tuple:
    """gpu.measure over the cases, in `work` or a scratch folder: (versions, measurements)."""
    # `timeout` stops us with SIGTERM: exit through Python so the driver processes are ended too.
    previous = signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        with tempfile.TemporaryDirectory(prefix="memsim-gpu-") as scratch:
            return measure([driver_case(c) for _, c in cases], work or Path(scratch), options,
                           progress=console.print)
    finally:
        signal.signal(signal.SIGTERM, previous)


def finish(report: ComparisonReport, args: argparse.Namespace) -> int:
    print_summary(report)
    if args.report:
        for path in write_reports(report, args.report):
            print(f"wrote {path}")
    return 0 if report.ok else 1


def select_cases(which: str, pattern: str, n: int | None, seed: int | None) -> list[tuple[str, object]]:
    """(set name, Case) for the chosen sets, filtered by a glob on names; n and seed (None: each
    fuzz set's default) pick the fuzz cases."""
    chosen: list[tuple[str, object]] = []
    if "suite" in SETS[which]:
        chosen += [("suite", c) for c in _case_source("suite_cases", "suite_cases")()]
    if "fuzz" in SETS[which]:
        chosen += [("fuzz", c) for c in _case_source("fuzz_cases", "generate")(
            FUZZ_N if n is None else n, FUZZ_SEED if seed is None else seed)]
    if "fuzz2" in SETS[which]:
        chosen += [("fuzz2", c) for c in _case_source("fuzz2_cases", "generate2")(
            FUZZ2_N if n is None else n, FUZZ2_SEED if seed is None else seed)]
    if "corpus" in SETS[which]:
        chosen += [("corpus", c) for c in _case_source("corpus_cases", "corpus_cases")()]
    if "numba" in SETS[which]:
        chosen += [("numba", c) for c in _case_source("numba_cases", "numba_cases")()]
    for name in ("prereg", "prereg2", "prereg3", "prereg4", "prereg5", "prereg6", "prereg7", "prereg8", "prereg9", "prereg10", "prereg11", "prereg12", "prereg13", "prereg14", "prereg15", "prereg16"):   # the pre-registered sets, validate/<name>_cases.py
        if name in SETS[which]:
            chosen += [(name, c) for c in _case_source(f"{name}_cases", f"{name}_cases")()]
    if "triton" in SETS[which]:
        chosen += [("triton", c) for c in _case_source("triton_cases", "triton_cases")()]
    if "inductor" in SETS[which]:
        chosen += [("inductor", c) for c in _case_source("inductor_cases", "inductor_cases")()]
    if "sm90_probes" in SETS[which]:
        chosen += [("sm90_probes", c) for c in _case_source("sm90_probes", "probe_as_cases")()]
    if "tma_probes" in SETS[which]:
        chosen += [("tma_probes", c) for c in _case_source("tma_probes", "probe_as_cases")()]
    if "wgmma_probes" in SETS[which]:
        chosen += [("wgmma_probes", c) for c in _case_source("wgmma_probes", "probe_as_cases")()]
    chosen = [(s, c) for s, c in chosen if fnmatch.fnmatchcase(c.name, pattern)]
    if not chosen:
        raise rec.RecordError(f"no {which} case matches '{pattern}'")
    names = [c.name for _, c in chosen]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise rec.RecordError(f"case names must be unique; repeated: {', '.join(repeated[:5])}")
    return chosen


def local_triton_specs(files: list[rec.MeasurementFile]) -> list[rec.MeasurementFile]:
    """A Triton recording's spec names the cubin the GPU machine's Triton made; the same
    compile here (its code digest, the `sass:` tag, equal) is the launch memsim runs."""
    for case_set, module in (("triton", "triton_cases"), ("inductor", "inductor_cases")):
        recorded = [c for f in files if f.case_set == case_set for c in f.cases]
        if recorded:
            _local_specs(recorded, {c.name: c for c in _case_source(module, module)()})
    return files


def _local_specs(recorded: list, local: dict) -> None:
    for case in recorded:
        mine = local.get(case.name)
        digests = {t for t in case.tags if t.startswith("sass:")}
        if mine is not None and digests and digests == {t for t in mine.tags if t.startswith("sass:")}:
            case.spec = mine.spec


def _case_source(module: str, function: str):
    import importlib
    try:
        source = importlib.import_module(f"validate.{module}")
    except ModuleNotFoundError as exc:
        if exc.name != f"validate.{module}":
            raise   # a case module that fails to import is a bug to see, not "no such cases"
        raise rec.RecordError(f"validate.{module} is missing: no such cases to run") from None
    if not hasattr(source, function):
        raise rec.RecordError(f"validate.{module}.{function} is missing: no such cases to run")
    return getattr(source, function)


class FileCase(BaseModel):
    """A case written out by hand or by a script, for `--case-file`."""

    name: str
    spec: LaunchSpec
    tags: list[str] = Field(default_factory=list)
    catalog: CatalogRef | None = None


def load_case_file(path: Path, pattern: str) -> list[tuple[str, FileCase]]:
    cases = rec.read_json(path, list[FileCase], "a JSON list of cases")
    chosen = [(path.stem, c) for c in cases if fnmatch.fnmatchcase(c.name, pattern)]
    if not chosen:
        raise rec.RecordError(f"no case in {path} matches '{pattern}'")
    return chosen


def catalog_ref(case) -> CatalogRef | None:
    """The catalog kernel a case launches, so the GPU run can check its outputs: the case's own
    `catalog` field where it has one, else the catalog's seed launch of the same name."""
    ref = getattr(case, "catalog", None)
    if ref is not None:
        return CatalogRef.model_validate(ref if isinstance(ref, dict) else ref.model_dump())
    seed = _seed_launches().get(case.name)
    return CatalogRef(name=seed.entry, params=seed.params) if seed else None


@functools.lru_cache(maxsize=1)
def _seed_launches() -> dict:
    from memsim import catalog
    return {seed.case: seed for seed in catalog.SEED_CASES}


def driver_case(case) -> DriverCase:
    return DriverCase(name=case.name, spec=case.spec, catalog=catalog_ref(case))


def case_record(case, measurement) -> rec.CaseRecord:
    return rec.CaseRecord(**measurement.model_dump(), tags=list(getattr(case, "tags", []) or []),
                          spec=case.spec, catalog=catalog_ref(case), expect=dict(getattr(case, "expect", {}) or {}))


def command_list(args: argparse.Namespace) -> int:
    recorded = {(f.case_set, c.name): (f.gpu, c) for f in rec.load_all(args.data, SETS[args.cases]) for c in f.cases}
    listed = {}
    try:
        listed = {(s, c.name): c for s, c in select_cases(args.cases, args.filter, None, None)}
    except MemsimError:
        pass  # no case matches, or no generator: the recorded ones are still worth listing
    names = sorted(set(listed) | {k for k in recorded if fnmatch.fnmatchcase(k[1], args.filter)})
    if not names:
        raise rec.RecordError(f"no {args.cases} case matches '{args.filter}'")
    rows = []
    for key in names:
        case = listed.get(key) or recorded[key][1]
        rows.append([key[0], key[1], case.spec.kernel, _dims(case.spec.grid), _dims(case.spec.block),
                     ",".join(getattr(case, "tags", []) or []), _recorded_state(recorded.get(key))])
    console = Console()
    console.print(table("", ["set", "case", "kernel", "grid", "block", "tags", "recorded"], rows))
    console.print(f"{len(names)} cases")
    return 0


def _recorded_state(entry) -> str:
    if entry is None:
        return "-"
    gpu, record = entry
    return f"{gpu}: {'ok' if record.measured else 'failed'}"


def _dims(dims) -> str:
    return "x".join(str(d) for d in dims)


def command_durations(args: argparse.Namespace) -> int:
    if not args.measure:
        raise rec.RecordError("`validate durations` measures on hardware: add --measure")
    if args.launches < 1:
        raise rec.RecordError(f"--launches must be at least 1, not {args.launches}")
    console = Console(stderr=True)
    cases = select_cases(args.cases, args.filter, args.n, args.seed)
    options = MeasureOptions(timing=False, metrics=[m.DURATION], launches=args.launches)
    versions, measured = measure_cases(cases, options, args.work, console)
    method = ncu_method(args.launches, m.DURATION)
    for case_set in dict.fromkeys(s for s, _ in cases):
        samples = {r.name: r.duration_samples for (s, _), r in zip(cases, measured) if s == case_set}
        record = rec.DurationFile(gpu=versions.slug, case_set=case_set, versions=versions, method=method,
                                  launches=args.launches, samples=samples)
        console.print(f"recorded durations of {len(samples)} cases in {rec.save_durations(record, args.out)}")
    short = [r.name for r in measured if len(r.duration_samples) < args.launches]
    if short:
        console.print(f"{len(short)} cases have fewer than {args.launches} durations: {', '.join(short[:10])}")
    return 0


def command_import(args: argparse.Namespace) -> int:
    for path in rec.import_files(args.paths, args.data):
        print(f"imported {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
