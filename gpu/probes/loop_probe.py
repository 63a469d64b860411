"""The cases of gpu/probes/loop_probe.cu (loop_probe_cases.json), and the cycles a loop step costs
on the GPU and in memsim, from a recording of them.

Write the cases:          python -m gpu.probes.loop_probe --write-cases
Record on a GPU machine:  bash gpu/measure_on_device.sh file gpu/probes/loop_probe_cases.json
Then here:                python -m gpu.probes.loop_probe <data>/h100/loop_probe_cases.json
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

HERE = Path(__file__).parent
CASES = HERE / "loop_probe_cases.json"
STEPS = (1024, 4096)
WARPS = (1, 16)
RADII = {"never": 0.0, "rare": 0.04, "always": 100.0}


def case_name(regime: str, warps: int, n: int) -> str:
    return f"loop_{regime}_w{warps}_n{n}"


BALL_QUERY = ("validate/prereg12/mmcv_point_ops.cu", "ball_query_forward_cuda_kernel<float>")
BQ_STEPS = {"never": (1024, 4096), "rare": (1024, 1536)}   # rare: about 34 and 51 of 64 hits a lane
BQ_RADII = {"never": 0.0, "rare": 0.2}


def ball_query_cases() -> list[dict]:
    """mmcv's ball query itself (prereg12's copy), one block of 1 or 16 warps over n points in
    the unit cube: radius 0 finds nothing (the loop alone), 0.2 finds about 3% of the points and
    writes them (nsample 64 is not reached, so no lane leaves early)."""
    source = (HERE.parent.parent / BALL_QUERY[0]).read_text()
    out = []
    for regime, radius in BQ_RADII.items():
        for warps in WARPS:
            m = 32 * warps
            for n in BQ_STEPS[regime]:
                spec = {"source": source, "kernel": BALL_QUERY[1], "grid": [1, 1, 1], "block": [m, 1, 1],
                        "args": ["int32:1", f"int32:{n}", f"int32:{m}", "float32:0.0", f"float32:{radius}",
                                 "int32:64", f"float32[{3 * m}]", f"float32[{3 * n}]", f"int32[{64 * m}]:zeros"],
                        "shared_mem": 0, "options": [], "seed": 0}
                out.append({"name": f"bq_{regime}_w{warps}_n{n}", "spec": spec, "tags": ["probe"]})
    return out


def cases() -> list[dict]:
    return loop_cases() + ball_query_cases()


def loop_cases() -> list[dict]:
    source = (HERE / "loop_probe.cu").read_text()
    out = []
    for regime, r2 in RADII.items():
        for warps in WARPS:
            threads = 32 * warps
            for n in STEPS:
                spec = {"source": source, "kernel": "k_loop", "grid": [1, 1, 1], "block": [threads, 1, 1],
                        "args": [f"int32:{n}", f"float32:{r2}", f"float32[{3 * n}]", f"float32[{3 * threads}]",
                                 f"int32[{64 * threads}]:zeros"], "shared_mem": 0, "options": [], "seed": 0}
                out.append({"name": case_name(regime, warps, n), "spec": spec, "tags": ["probe"]})
    return out


def step_cycles(durations: dict[str, float], mhz: float) -> dict[str, float]:
    """{regime_wN: cycles a step} from {case name: duration in ns}."""
    out = {}
    for regime in RADII:
        for warps in WARPS:
            lo, hi = (durations[case_name(regime, warps, n)] for n in STEPS)
            out[f"{regime}_w{warps}"] = (hi - lo) / (STEPS[1] - STEPS[0]) * mhz / 1e3
    for regime, (n0, n1) in BQ_STEPS.items():
        for warps in WARPS:
            lo, hi = (durations.get(f"bq_{regime}_w{warps}_n{n}") for n in (n0, n1))
            if lo is not None and hi is not None:
                out[f"bq_{regime}_w{warps}"] = (hi - lo) / (n1 - n0) * mhz / 1e3
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recording", nargs="?")
    parser.add_argument("--write-cases", action="store_true")
    parser.add_argument("--predict", action="store_true", help="also memsim's figures (the recording GPU's profile)")
    args = parser.parse_args()
    if args.write_cases:
        CASES.write_text(json.dumps(cases(), indent=1) + "\n")
        return
    from memsim.gpus import load
    data = json.load(open(args.recording))
    mhz = load(data["gpu"]).clocks.sm_base_mhz
    measured = step_cycles({c["name"]: c["metrics"]["gpu__time_duration.sum"] for c in data["cases"]}, mhz)
    predicted = {}
    if args.predict:
        import memsim
        from memsim.launch import LaunchSpec
        durations = {c["name"]: memsim.predict_spec(LaunchSpec(**c["spec"]), gpu=data["gpu"])[0].metrics[
            "gpu__time_duration.sum"] for c in cases()}
        predicted = step_cycles(durations, mhz)
    for key, value in measured.items():
        print(f"{key:14s} GPU {value:8.1f} cycles a step" + (f"   memsim {predicted[key]:8.1f}" if predicted else ""))


if __name__ == "__main__":
    main()
