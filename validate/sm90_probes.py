"""Small launches of the sm_90 instructions the SASS engine learns (validate/sm90_probes.cu):
VIMNMX3, BRX, LDSM/STSM of every shape, ELECT, mbarriers (SYNCS.*) and bulk copies (UBLKCP).

    python -m validate.sm90_probes CASES.json               # here: the case list
    bash gpu/measure_on_device.sh file CASES.json           # on the GPU machine: set `sm90_probes`
    validate run --cases sm90                               # compares the recording
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

SOURCE = Path(__file__).with_name("sm90_probes.cu")
N = 1 << 16


def _case(name: str, kernel: str, grid: int, block: int, args: list[str], tags: list[str]) -> dict:
    return {"name": name, "tags": ["sm90", *tags],
            "spec": {"source": SOURCE.read_text(), "kernel": kernel, "grid": [grid, 1, 1], "block": [block, 1, 1],
                     "args": args}}


def probe_cases() -> list[dict]:
    cases = [
        _case("p90_min3", "k_min3", N // 256, 256, [f"int32[{N}]:randint(-1000,1000)"] * 3 +
              [f"int32[{N}]:zeros", f"int32:{N}"], ["vimnmx3"]),
        _case("p90_max3u", "k_max3u", N // 256, 256, [f"uint32[{N}]"] * 3 + [f"uint32[{N}]:zeros", f"int32:{N}"],
              ["vimnmx3"]),
        _case("p90_brx", "k_brx", N // 256, 256, [f"uint32[{N}]:randint(0,4)", f"float32[{N}]", f"float32[{N}]:zeros",
                                                   f"int32:{N}"], ["brx"]),
        _case("p90_switch", "k_switch", N // 256, 256, [f"int32[{N}]:randint(0,16)", f"float32[{N}]",
                                                         f"float32[{N}]:zeros", f"int32:{N}"], ["switch"]),
        _case("p90_elect", "k_elect", 64, 128, ["int32[8192]", "int32[256]:zeros"], ["elect"]),
        _case("p90_mbarrier", "k_mbarrier", 32, 256, ["float32[8192]", "float32[8192]:zeros"], ["mbarrier"]),
        *[_case(f"p90_bulk_{k}", f"k_bulk_{k}", 64, 128, [f"float32[{64 * 1024}]", f"float32[{64 * 1024}]:zeros"],
                ["bulk-copy", "mbarrier"]) for k in ("1k", "4k")],
    ]
    for op in ("ldsm", "stsm"):
        shapes = ["x1", "x2", "x4", "x4_trans"] + (["x2_trans"] if op == "ldsm" else [])
        for shape, stride in [(s, 4) for s in shapes] + [("x4", 32), ("x4", 36)]:
            cases.append(_case(f"p90_{op}_{shape}_s{stride}", f"k_{op}_{shape}", 4, 128,
                               [f"uint32[{4 * 32 * 36}]", f"uint32[{4 * 128 * 4 if op == 'ldsm' else 4 * 32 * 36}]:zeros",
                                f"int32:{stride}"], [op]))
    return cases


def probe_as_cases():
    """The probes as validate Cases (set `sm90_probes`)."""
    from .case import Case

    return [Case(name=c["name"], spec=c["spec"], tags=c["tags"]) for c in probe_cases()]


if __name__ == "__main__":
    Path(sys.argv[1]).write_text(json.dumps(probe_cases()))
