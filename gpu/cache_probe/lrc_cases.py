"""Where do L2 read sectors go? Profile recorded cases with the L2 request coalescer's counters.

    python gpu/cache_probe/lrc_cases.py OUT.json CASES.json    (on the GPU machine)

CASES.json: a list of gpu.driver.DriverCase ({name, spec, catalog}); `bash gpu/measure_on_device.sh
lrc [NAME_GLOB ...]` writes it from validate's recorded suite and fuzz cases (the GPU side
imports nothing from validate, which imports it).

The H100 puts an L2 request coalescer (LRC) between the crossbar and the L2 slices: identical
reads from several SMs can leave it as one. Its counters say how many read sectors came in, how
many were eligible for coalescing and how many were coalesced, next to the L1 misses and the L2
read sectors that memsim models. Writes {case name: {metric: value}} to OUT.json.
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from gpu.driver import DriverCase  # noqa: E402
from gpu.measure import MeasureOptions, measure  # noqa: E402

METRICS = [
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_requests_srcunit_tex_op_read.sum",
    "lrc__xbar2lrc_requests_op_read.sum",
    "lrc__request_sectors_op_read_coalescable.sum",
    "lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum",
    "lrc__lrc2xbar_sectors_op_read.sum",
    "lrc__lrc2xbar_sectors_op_read_coalescing_achieved.sum",
    "lrc__lrc2xbar_sectors_op_read_coalescing_none.sum",
    "lrc__lrc2xbar_sectors_op_read_replayed.sum",
    "lrc__lts2lrc_sectors_op_read.sum",
    "lrc__xbar2gpc_sectors_op_read.sum",
    "lrc__xbar2lrc_requests_cmd_bypassed.sum",
    "gpu__time_duration.sum",
]


def profile_cases(out: Path, listed: Path, metrics: list[str]) -> int:
    """Profile every DriverCase listed in `listed` once with `metrics`; write {name: metrics}."""
    cases = [DriverCase.model_validate(c) for c in json.loads(listed.read_text())]
    with tempfile.TemporaryDirectory() as work:
        _, measured = measure(cases, Path(work),
                              MeasureOptions(timing=False, metrics=metrics), progress=print)
    out.write_text(json.dumps({m.name: m.metrics or m.error for m in measured}, indent=1))
    print(f"wrote {len(measured)} cases to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(profile_cases(Path(sys.argv[1]), Path(sys.argv[2]), METRICS))
