"""Nsight Compute: which metrics to collect, how to call `ncu`, and how to read its raw CSV.

ncu runs the driver (`python -m gpu.driver --mode profile`) with its defaults for clock control
(base clocks locked) and cache control (caches flushed before each kernel), as the reference
measurements were taken, and profiles the project's kernels (names starting with `k_`) and the
kernels of the cases being measured, whatever their names (`kernel_filter`).
"""
from __future__ import annotations

import csv
import glob
import io
import os
import re
import shutil
import subprocess
from typing import Sequence

from pydantic import BaseModel

from memsim import metrics as m

from .errors import GPUUnavailable, ProfilerError

# Hardware counterparts and cross-checks of what memsim predicts: the hardware's own shared
# wavefronts and bank conflicts (they include arbitration extras), and misses at L1 and L2.
EXTRA_METRICS = [
    "smsp__sass_inst_executed.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
    "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum",
    # every warp instruction (SASS), and local memory (runtime-indexed arrays, spills): names
    # checked against ncu metric listings in public profiling scripts; not yet predicted
    "smsp__inst_executed.sum",
    "smsp__sass_inst_executed_op_local_ld.sum",
    "smsp__sass_inst_executed_op_local_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum",
]
# The atomics (memsim.metrics.ATOMICS) are predicted, UNCHECKED until recorded.
# TMA (memsim.metrics.TMA): EXACT where recorded (validate/tma_probes.py first); wgmma
# (memsim.metrics.GMMA): measured on one launch so far, collected from session 16 on.
METRICS = list(dict.fromkeys(m.EXACT + m.MODELED + m.ATOMICS + EXTRA_METRICS + m.TMA + m.GMMA))
# The raw page also lists ~400 device attributes, launch figures and .avg/.min/.max of every
# metric; of those only what a timing model can use is kept in recorded files.
LAUNCH_FIGURES = ["launch__registers_per_thread", "launch__waves_per_multiprocessor",
                  "profiler__replayer_passes"]
RECORDED = frozenset(METRICS + LAUNCH_FIGURES)
KERNEL_FILTER = "regex:^k_"
ID_COLUMNS = ("ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
              "Block Size", "Grid Size", "Device", "CC")
PERMISSION_MARK = "ERR_NVGPUCTRPERM"
SEARCH_PATHS = ("/opt/nvidia/nsight-compute/*/ncu", "/usr/local/cuda/bin/ncu", "/usr/local/cuda-*/bin/ncu")


class NcuRow(BaseModel):
    """One profiled kernel launch as ncu reported it."""

    kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    metrics: dict[str, float]


def find_ncu() -> str:
    """Path of the ncu executable; GPUUnavailable where there is none."""
    found = shutil.which("ncu")
    if found:
        return found
    for pattern in SEARCH_PATHS:
        hits = sorted(glob.glob(pattern))
        if hits and os.access(hits[-1], os.X_OK):
            return hits[-1]
    raise GPUUnavailable("Nsight Compute (ncu) is not installed or not on PATH: it reads the "
                         "hardware counters that validate compares with")


def version(ncu: str) -> str:
    """'2025.3.1.0' from `ncu --version`; the raw last line where the format is unexpected."""
    done = subprocess.run([ncu, "--version"], capture_output=True, text=True, timeout=60)
    found = re.search(r"Version\s+([\d.]+)", done.stdout)
    lines = done.stdout.strip().splitlines()
    return found.group(1) if found else (lines[-1] if lines else "")


def command(ncu: str, log_file: str, program: list[str], metrics: list[str] = METRICS,
            kernels: Sequence[str] = ()) -> list[str]:
    """The ncu command line that profiles, into `log_file`, every kernel `program` launches whose
    name starts with k_ (the project's kernels) or is one of `kernels` (a user's, any name): not
    CuPy's own copy and fill kernels."""
    return [ncu, "--csv", "--page", "raw", "--print-units", "base", "--metrics", ",".join(metrics),
            "-k", kernel_filter(kernels), "--log-file", log_file, *program]


def kernel_filter(kernels: Sequence[str] = ()) -> str:
    """ncu's -k for k_ kernels plus `kernels`, each by its function name (ncu matches the name
    without parameters; a template's by its name before the <). A kernel in a namespace
    (`caffe::Tile<float>`) is matched by its own name with or without the qualifiers before it:
    ncu's function name may leave them out, and a filter that demanded them profiled nothing
    (prereg10's first recording: 0 of 97 measured)."""
    names = sorted({re.escape(k.split("<")[0].strip().split("::")[-1]) for k in kernels if not k.startswith("k_")})
    return KERNEL_FILTER if not names else f"regex:^(k_|(\\w+::)*({'|'.join(names)})($|<))"


def check_output(text: str) -> None:
    """Raise the one-sentence error for ncu failures that end a whole run."""
    if PERMISSION_MARK in text:
        raise GPUUnavailable("ncu may not read the GPU's performance counters (ERR_NVGPUCTRPERM): "
                             "run as root or allow profiling by non-admin users in the driver")


def parse_csv(text: str) -> list[NcuRow]:
    """Rows of `ncu --csv --page raw --print-units base` output, in launch order.

    Tolerates the ==PROF== / ==WARNING== lines ncu mixes in, the units row under the header, and
    numbers written with thousands separators ("67,115,264"). Values that are not numbers
    ("n/a") are left out of the row's metrics.
    """
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID"')), None)
    if start is None:
        return []
    table = [row for row in csv.reader(io.StringIO("\n".join(lines[start:]))) if row]
    header = table[0]
    rows = []
    for row in table[1:]:
        if not row[0].strip().isdigit():  # the units row and stray ==PROF== lines
            continue
        if len(row) != len(header):
            raise ProfilerError(f"ncu CSV row has {len(row)} fields, its header {len(header)}")
        fields = dict(zip(header, row))
        rows.append(NcuRow(kernel=fields.get("Kernel Name", ""),
                           grid=_dim3(fields.get("Grid Size", "")),
                           block=_dim3(fields.get("Block Size", "")),
                           metrics=_numbers(fields)))
    return rows


def recorded(metrics: dict[str, float], keep: frozenset[str] = RECORDED) -> dict[str, float]:
    """The part of a row worth keeping in a measurement file."""
    return {name: value for name, value in metrics.items() if name in keep}


def _numbers(fields: dict[str, str]) -> dict[str, float]:
    values = {}
    for name, text in fields.items():
        if name in ID_COLUMNS:
            continue
        number = parse_number(text)
        if number is not None:
            values[name] = number
    return values


def parse_number(text: str) -> float | None:
    """'67,115,264' -> 67115264.0; '' or 'n/a' -> None."""
    cleaned = text.strip().replace(",", "")
    try:
        return float(cleaned)
    except ValueError:
        return None


def _dim3(text: str) -> tuple[int, int, int]:
    """'(128, 128, 1)' -> (128, 128, 1); (0, 0, 0) where ncu gave no size."""
    numbers = [int(v) for v in re.findall(r"\d+", text)]
    return tuple(numbers) if len(numbers) == 3 else (0, 0, 0)


def run(cmd: list[str], timeout_s: float) -> subprocess.CompletedProcess:
    """Run ncu; GPUUnavailable when it cannot start or cannot read counters."""
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
    except OSError as exc:
        raise GPUUnavailable(f"cannot start ncu: {exc}") from None
    check_output(done.stdout + done.stderr)
    return done
