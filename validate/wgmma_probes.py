"""Launches of Hopper's warpgroup MMA (wgmma.mma_async: HGMMA, WARPGROUP.ARRIVE/DEPBAR) from
validate/wgmma_probes.cu, recorded on the H100: N = 8, 64, 128, 256, f16 and bf16, both operands
in shared memory (no swizzle, 128-, 64- and 32-byte swizzles, A or B MN-major, B negated) and A
from registers, and a TMA-fed GEMM.

    python -m validate.wgmma_probes CASES.json              # here: the case list
    bash gpu/measure_on_device.sh file CASES.json           # on the GPU machine
    validate run --cases sm90                               # compares the recording

Compiled for sm_90a (wgmma needs it): `-arch=sm_90a` in the spec's options.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

SOURCE = Path(__file__).with_name("wgmma_probes.cu")
OPTIONS = ("-arch=sm_90a",)
BLOCKS = 2


def _case(form: str, n: int, swizzle: int, accumulate: bool, tags: tuple[str, ...] = (), variant: str = "") -> dict:
    kernel = f"k_wgmma_{form}_n{n}{variant}"
    name = f"wgmma_{form}_n{n}{variant}_{f'swizzle{swizzle}' if swizzle else 'plain'}{'_acc' if accumulate else ''}"
    args = [f"float32[{BLOCKS * 64 * 64}]", f"float32[{BLOCKS * n * 64}]", f"float32[{BLOCKS * 64 * n}]:zeros",
            f"int32:{swizzle}", f"int32:{int(accumulate)}"]
    return {"name": name, "tags": ["sm90", "wgmma", *tags],
            "spec": {"source": SOURCE.read_text(), "kernel": kernel, "grid": [BLOCKS, 1, 1], "block": [128, 1, 1],
                     "args": args, "options": list(OPTIONS)}}


def probe_cases() -> list[dict]:
    return [
        _case("ss_f16", 8, 0, False),
        _case("ss_f16", 64, 0, True),
        _case("ss_f16", 64, 128, False, ("swizzle",)),
        _case("ss_f16", 128, 128, True, ("swizzle",)),
        _case("ss_f16", 256, 0, False),
        _case("ss_f16", 64, 64, True, ("swizzle",)),
        _case("ss_f16", 128, 32, False, ("swizzle",)),
        _case("ss_f16", 256, 128, True, ("swizzle",)),
        _case("ss_bf16", 64, 128, True, ("bf16", "swizzle")),
        _case("ss_f16", 64, 128, True, ("mn-major", "swizzle"), variant="_tb"),
        _case("ss_f16", 64, 128, False, ("mn-major", "swizzle", "negate"), variant="_ta"),
        _case("rs_f16", 64, 0, False, ("registers",)),
        _case("rs_f16", 64, 128, True, ("registers", "swizzle")),
        _case("rs_bf16", 64, 0, True, ("registers", "bf16")),
        _gemm(128, 128, 256),
    ]


def _gemm(m: int, n: int, k: int) -> dict:
    """k_wgmma_tma_gemm: D (m x n, f32) = A (m x k) B (n x k)^T, f16 inputs in [0, 1), TMA tiles
    of 64 x 64 with the 128-byte swizzle, one block per 64 x 64 tile of D."""
    args = [f"float16[{m * k}]", f"float16[{n * k}]", f"float32[{m * n}]:zeros",
            f"tensormap:0:{m}x{k}:64x64:swizzle128", f"tensormap:1:{n}x{k}:64x64:swizzle128", f"int32:{k // 64}"]
    return {"name": f"wgmma_tma_gemm_{m}x{n}x{k}", "tags": ["sm90", "wgmma", "tma", "mbarrier", "swizzle"],
            "spec": {"source": SOURCE.read_text(), "kernel": "k_wgmma_tma_gemm", "grid": [n // 64, m // 64, 1],
                     "block": [128, 1, 1], "args": args, "options": list(OPTIONS)}}


def probe_as_cases():
    """The probes as validate Cases (set `wgmma_probes`)."""
    from .case import Case

    return [Case(name=c["name"], spec=c["spec"], tags=c["tags"]) for c in probe_cases()]


if __name__ == "__main__":
    Path(sys.argv[1]).write_text(json.dumps(probe_cases()))
