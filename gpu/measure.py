"""Measure a list of cases on the GPU: outputs and event timing in one driver process, then ncu
counters in another (profiling perturbs timing, so the two never share a process).

Each pass runs `python -m gpu.driver` as a child, in batches: when a case kills its process (a
fault that poisons the CUDA context, a crash, a hang), that case is recorded as failed and a new
batch starts after it, so one bad case never costs the others their measurements.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from pydantic import BaseModel, Field

from memsim import metrics as m

from . import ncu
from .driver import CONTEXT_LOST, DriverCase, DriverResult
from .errors import GPUUnavailable, ProfilerError
from .launch import require_cupy
from .timing import EventTiming
from .versions import Versions, collect


def ncu_method(launches: int = 1, metrics: str = "") -> str:
    """How the counters were collected, for measurement files."""
    per_case = "one launch per case" if launches == 1 else f"{launches} launches per case"
    only = f"; metric {metrics} only" if metrics else ""
    return ("ncu --csv --page raw --print-units base -k regex:^k_, default clock control (base "
            f"clocks) and cache control (flush all caches before each kernel), {per_case}{only}")


NCU_METHOD = ncu_method()
# A case that writes no result for this long is taken as hung.
STALL_SECONDS = 180.0
# Restarts after failed cases before the rest of a pass is given up (each costs a few seconds).
MAX_RESTARTS = 25

Progress = Callable[[str], None]


class Measurement(BaseModel):
    """One case as the GPU ran it: output check, event timing and ncu counters."""

    name: str
    input_digest: str = ""
    output_digest: str = ""
    output_ok: bool | None = Field(None, description="None: no reference to check against")
    output_error: str = ""
    error: str = Field("", description="why the case has no (complete) measurement")
    timing: EventTiming | None = None
    metrics: dict[str, float] = Field(default_factory=dict)
    duration_samples: list[float] = Field(default_factory=list,
                                          description="gpu__time_duration.sum of each profiled launch")


class MeasureOptions(BaseModel):
    profile: bool = True
    timing: bool = True
    reps: int = 30
    warmups: int = 3
    flush_l2: bool = False
    metrics: list[str] | None = Field(None, description="ncu metrics to collect (None: ncu.METRICS)")
    launches: int = Field(1, ge=1, description="profiled launches per case (ncu profiles each)")


def measure(cases: list[DriverCase], workdir: Path, options: MeasureOptions = MeasureOptions(),
            progress: Progress = lambda line: None) -> tuple[Versions, list[Measurement]]:
    """Measure every case (in order); the versions they were measured with and the results."""
    require_cupy()
    ncu_path = ncu.find_ncu() if options.profile else ""
    versions = collect(ncu.version(ncu_path) if ncu_path else "")
    workdir.mkdir(parents=True, exist_ok=True)
    measured = {c.name: Measurement(name=c.name) for c in cases}
    if options.timing:
        for result in _run_pass(cases, "time", workdir, options, None, progress):
            _merge_result(measured[result.name], result, keep_timing=True)
    if options.profile:
        keep = frozenset(options.metrics) if options.metrics else ncu.RECORDED
        for result, rows in _profile(cases, workdir, options, ncu_path, progress):
            _merge_result(measured[result.name], result, keep_timing=False)
            if rows:
                measured[result.name].metrics = ncu.recorded(rows[0].metrics, keep)
                measured[result.name].duration_samples = [r.metrics[m.DURATION] for r in rows
                                                          if m.DURATION in r.metrics]
            elif result.launched:
                _add_error(measured[result.name], "ncu reported no counters for this launch")
    return versions, [measured[c.name] for c in cases]


def _merge_result(target: Measurement, result: DriverResult, keep_timing: bool) -> None:
    target.input_digest = result.input_digest or target.input_digest
    target.output_digest = target.output_digest or result.output_digest
    if result.output_ok is not None:
        target.output_ok = result.output_ok and target.output_ok is not False
        target.output_error = target.output_error or result.output_error
    if keep_timing:
        target.timing = result.timing
    if result.error:
        _add_error(target, result.error)


def _add_error(target: Measurement, error: str) -> None:
    if error not in target.error:
        target.error = f"{target.error}; {error}" if target.error else error


def _profile(cases, workdir, options, ncu_path, progress):
    """(result, its ncu rows: one per launch, [] where none fit) per case, batch by batch."""
    metrics = options.metrics or ncu.METRICS

    def wrap(program: list[str], batch: int) -> list[str]:
        return ncu.command(ncu_path, str(workdir / f"ncu-{batch}.csv"), program, metrics,
                           kernels=[c.spec.kernel for c in cases])

    def ncu_log(batch: int) -> str:
        log = workdir / f"ncu-{batch}.csv"
        text = log.read_text(errors="replace") if log.exists() else ""
        ncu.check_output(text)
        return text

    by_name = {c.name: c for c in cases}
    for batch, results in _run_batches(cases, "profile", workdir, options, wrap, ncu_log, progress):
        try:
            rows = ncu.parse_csv(ncu_log(batch))
        except ProfilerError as exc:  # an unreadable log costs this batch its counters, no more
            progress(f"profile pass: batch {batch}: {exc}")
            rows = []
        yield from zip(results, match_rows([by_name[r.name] for r in results], results, rows,
                                           options.launches))


def match_rows(cases: list[DriverCase], results: list[DriverResult], rows: list[ncu.NcuRow],
               launches: int = 1) -> list[list[ncu.NcuRow]]:
    """The ncu rows of each launched case (`launches` each), by launch order, checked by kernel
    name and geometry.

    A case that raised before or during its launch may or may not have a row (a fault is
    profiled, a bad launch configuration is not), so rows are taken only while they fit the case.
    """
    matched: list[list[ncu.NcuRow]] = []
    queue = list(rows)
    for case, result in zip(cases, results):
        taken: list[ncu.NcuRow] = []
        while len(taken) < launches and queue and row_fits(queue[0], case) and (result.launched or result.error):
            taken.append(queue.pop(0))
            if not result.launched:
                break
        matched.append(taken if result.launched else [])
    return matched


def row_fits(row: ncu.NcuRow, case: DriverCase) -> bool:
    shown, name = shown_kernel_name(row.kernel), case.spec.kernel.replace(" ", "")
    name_fits = (row.kernel == case.spec.kernel or _as_ncu_shows(shown) == _as_ncu_shows(name)
                 or ("<" in name and _as_ncu_shows(shown) == _as_ncu_shows(name.split("<")[0]))
                 or _enumerators_fit(_as_ncu_shows(shown), _as_ncu_shows(name)))
    return name_fits and row.grid == case.spec.grid and row.block == case.spec.block


def _template_args(name: str) -> tuple[str, list[str]] | None:
    """A normalised template name's base and top-level arguments (None without arguments)."""
    if not name.endswith(">") or "<" not in name:
        return None
    base, inner = name[:name.index("<")], name[name.index("<") + 1:-1]
    args, depth, start = [], 0, 0
    for i, char in enumerate(inner):
        depth += {"<": 1, ">": -1, "(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            args.append(inner[start:i])
            start = i + 1
    return base, [*args, inner[start:]]


def _enumerators_fit(shown: str, name: str) -> bool:
    """ncu writes an enumerator template argument as its value (vLLM's
    `reshape_and_cache_kernel<__half, __half, vllm::Fp8KVCacheDataType::kAuto>` is ncu's
    `<__half, __half, 0>`): the names fit where they differ only at arguments the launch names by
    an identifier (an enumerator or constant; a type is never shown as a number) and ncu by an
    integer."""
    a, b = _template_args(shown), _template_args(name)
    if a is None or b is None or a[0] != b[0] or len(a[1]) != len(b[1]):
        return False
    return all(x == y or (re.fullmatch(r"-?\d+", x) and re.fullmatch(r"[A-Za-z_]\w*", y)) for x, y in zip(a[1], b[1]))


def _as_ncu_shows(name: str) -> str:
    """A kernel name with what ncu's spelling adds taken out: the `&` of a function template
    argument, namespace qualifiers (NVRTC puts a static function in `_INTERNAL_<hash>::`, ncu
    may print `(anonymous namespace)::`) and CUDA's `__half` for `half`; then _spelled_as_ncu.
    Unmatched rows are not skipped (match_rows keeps launch order), so one name ncu spells
    differently would cost every later case of its batch its counters."""
    name = re.sub(r"&\((?:void\s+)?([^()]*)\([^()]*\)\)", r"\1", name)   # &(void f<..>(params)): f<..>
    name = name.replace(" ", "").replace("(anonymousnamespace)::", "").replace("&", "")
    name = re.sub(r"\b__half\b", "half", re.sub(r"\b\w+::", "", name))
    name = re.sub(r"\bint32_t\b", "int", re.sub(r"\buint32_t\b", "unsignedint", name))   # <cstdint>'s, as ncu shows them
    return _spelled_as_ncu(name)


def _spelled_as_ncu(name: str) -> str:
    """A template's arguments as ncu spells them: `true`/`false` as 1/0, integer literals
    without their u/l suffixes (`reduce6<float, 256u, true>` is ncu's `reduce6<float, 256, 1>`)."""
    name = re.sub(r"\btrue\b", "1", re.sub(r"\bfalse\b", "0", name))
    return re.sub(r"\b(\d+)[uUlL]+\b", r"\1", name)


def shown_kernel_name(kernel: str) -> str:
    """ncu names a kernel `k_x`, `void k_x(float *)` or, for a template,
    `void k_x<64, 8>(float *)`: the name with its template arguments, spaces removed."""
    depth, cut = 0, len(kernel)
    for i, char in enumerate(kernel):   # the parameter list's "(" (not one inside <...>)
        depth += {"<": 1, ">": -1}.get(char, 0)
        if char == "(" and depth == 0:
            cut = i
            break
    head = kernel[:cut].strip()
    if head.startswith("void "):
        head = head[len("void "):]
    elif " " in head or depth != 0:   # another return type (enable_if<(w > 0) && ...>::type, whose
        head = _name_after_return_type(kernel)   # `>` of a comparison unbalances the brackets)
    return head.replace(" ", "")


def _name_after_return_type(kernel: str) -> str:
    """`R name<args>(params)` with any return type R: the parameter list is the last
    parenthesised group, and the name the last part before it with balanced angle brackets and
    no space outside them."""
    head, depth = kernel.rstrip(), 0
    if head.endswith(")"):
        for i in range(len(head) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(head[i], 0)
            if depth == 0:
                head = head[:i].rstrip()
                break
    return next((head[i + 1:] for i, char in enumerate(head) if char == " " and _balanced(head[i + 1:])), head)


def _balanced(text: str) -> bool:
    """Whether text's angle brackets close in order and no space stands outside them (a kernel's
    qualified name with its template arguments)."""
    depth = 0
    for char in text:
        depth += {"<": 1, ">": -1}.get(char, 0)
        if depth < 0 or (char == " " and depth == 0):
            return False
    return depth == 0 and bool(text) and (text[0].isalpha() or text[0] == "_")


def _run_pass(cases, mode, workdir, options, wrap, progress):
    for _, results in _run_batches(cases, mode, workdir, options, wrap, None, progress):
        yield from results


def _run_batches(cases: list[DriverCase], mode: str, workdir: Path, options: MeasureOptions,
                 wrap, tool_log, progress: Progress):
    """Yield (batch number, results) until every case has a result (possibly a failure)."""
    remaining, batch, started = list(cases), 0, time.monotonic()
    while remaining:
        if batch > MAX_RESTARTS:
            yield batch, [DriverResult(name=c.name, error=f"not run: {mode} pass restarted {MAX_RESTARTS} times")
                          for c in remaining]
            break
        cases_file = workdir / f"{mode}-{batch}.cases.json"
        results_file = workdir / f"{mode}-{batch}.results.jsonl"
        cases_file.write_text(json.dumps([c.model_dump(mode="json") for c in remaining]))
        results_file.unlink(missing_ok=True)
        program = [sys.executable, "-m", "gpu.driver", "--cases", str(cases_file), "--results",
                   str(results_file), "--mode", mode, "--reps", str(options.reps),
                   "--warmups", str(options.warmups), "--launches", str(options.launches)]
        program += ["--flush-l2"] if options.flush_l2 else []
        progress(f"{mode} pass: batch {batch}, {len(remaining)} cases to go, {time.monotonic() - started:.0f} s")
        code, output = _watch(wrap(program, batch) if wrap else program, results_file)
        if tool_log:
            output += tool_log(batch)
        results = _read_results(results_file)
        if batch == 0 and not results and code not in (0, CONTEXT_LOST) and _says_error(output):
            # Nothing ran at all: the setup failed (no GPU, a bad ncu option), not a case.
            raise GPUUnavailable(_last_error_line(output))
        if len(results) < len(remaining) and code != CONTEXT_LOST:
            # The process died inside this case without writing its result.
            why = "hung (no result in time)" if code is None else f"driver died (exit {code}): {_last_error_line(output)}"
            results.append(DriverResult(name=remaining[len(results)].name, error=why))
        yield batch, results
        remaining, batch = remaining[len(results):], batch + 1
    progress(f"{mode} pass: {len(cases)} cases in {time.monotonic() - started:.0f} s, {batch} batches")


def _watch(command: list[str], results_file: Path) -> tuple[int | None, str]:
    """Run a driver (maybe under ncu); kill its process group once it stops producing results.

    Returns (exit status, or None when it was killed as hung; its combined output).
    """
    log = results_file.with_suffix(".log")
    with open(log, "w") as sink:
        # Its own session, so that a hang can be ended with every process under it (ncu's too).
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True,
                                   env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            return _wait(process, results_file), log.read_text(errors="replace")
        finally:
            if process.poll() is None:  # hung, or we are being stopped: leave nothing running
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def _wait(process: subprocess.Popen, results_file: Path) -> int | None:
    """The exit status, or None once no new result has come for STALL_SECONDS."""
    last_count, last_change = 0, time.monotonic()
    while process.poll() is None:
        time.sleep(0.5)
        count = _count_lines(results_file)
        if count != last_count:
            last_count, last_change = count, time.monotonic()
        elif time.monotonic() - last_change > STALL_SECONDS:
            return None
    return process.returncode


def _count_lines(path: Path) -> int:
    try:
        with open(path, "rb") as handle:
            return sum(1 for _ in handle)
    except FileNotFoundError:
        return 0


def _read_results(path: Path) -> list[DriverResult]:
    if not path.exists():
        return []
    lines = path.read_text().splitlines()
    # The last line may be cut short by a kill.
    results = []
    for line in lines:
        try:
            results.append(DriverResult.model_validate_json(line))
        except ValueError:
            break
    return results


def _says_error(output: str) -> bool:
    return "error:" in output or "==ERROR==" in output


def _last_error_line(output: str) -> str:
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if "error" in line.lower()]
    return (errors or lines or ["no output"])[-1].removeprefix("error: ")
