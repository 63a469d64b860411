"""What gpu/probes/sm_probe.cu measures, from a recording of its cases (sm_probe_cases.json).

Record on a GPU machine:  bash gpu/measure_on_device.sh file gpu/probes/sm_probe_cases.json
Then here:                python -m gpu.probes.sm_probe <data>/h100/sm_probe_cases.json [--base-mhz F]

Prints the block launch interval per SM (ns and base cycles, from the empty kernels' slope over
128 -> 1152 blocks an SM) and the L1 latency of a request against its lines (the chase's time
per step between 512 and 4096 steps), with and without a store before each load.
"""
from __future__ import annotations

import argparse
import json

import numpy as np

from memsim.gpus import load

BLOCKS_PER_SM = (128, 1152)
STEPS = (512, 4096)
LANES = (1, 4, 16, 32)


def probe_figures(cases: dict[str, float], base_mhz: float) -> dict[str, float]:
    """{figure: value} from {case name: ncu duration in ns}."""
    out: dict[str, float] = {}
    for threads in (32, 1024):
        lo, hi = (cases[f"empty_b{threads}_x{n}"] for n in BLOCKS_PER_SM)
        out[f"launch_interval_ns_t{threads}"] = (hi - lo) / (BLOCKS_PER_SM[1] - BLOCKS_PER_SM[0])
    for mode in range(4):
        per_step = [(cases[f"chase{mode}_b{n}_s{STEPS[1]}"] - cases[f"chase{mode}_b{n}_s{STEPS[0]}"])
                    / (STEPS[1] - STEPS[0]) * base_mhz / 1e3 for n in LANES]
        slope, intercept = np.polyfit(LANES, per_step, 1)
        out[f"chase{mode}_cycles_per_line"], out[f"chase{mode}_cycles_at_0_lines"] = slope, intercept
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recording")
    parser.add_argument("--base-mhz", type=float, default=None,
                        help="SM clock under ncu (default: the recording GPU's profile)")
    args = parser.parse_args()
    data = json.load(open(args.recording))
    cases = {c["name"]: c["metrics"]["gpu__time_duration.sum"] for c in data["cases"]}
    mhz = args.base_mhz
    if mhz is None:
        mhz = load(data["gpu"]).clocks.sm_base_mhz
    for name, value in probe_figures(cases, mhz).items():
        print(f"{name:32s} {value:9.2f}")


if __name__ == "__main__":
    main()
