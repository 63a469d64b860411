"""The reference measurements' launches (tests/golden) as validate cases.

Used by the GPU tests and by `gpu/measure_on_device.sh smoke`, which measures them again and
checks the exact counters against tests/golden/h100-seed-kernels.json:
    python -m tests.helpers.seed_cases OUT.json
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def reference() -> list[dict]:
    return json.loads((GOLDEN / "h100-seed-kernels.json").read_text())


def seed_cases() -> list[dict]:
    """[{name, spec, tags}] for every reference launch, the spec as LaunchSpec's JSON."""
    source = (GOLDEN / "seed_kernels.cu").read_text()
    return [{"name": r["case"], "tags": ["seed"],
             "spec": {"source": source, "kernel": r["kernel"], "grid": r["grid"], "block": r["block"],
                      "args": r["args"], "shared_mem": r["shared_mem"]}}
            for r in reference()]


if __name__ == "__main__":
    Path(sys.argv[1]).write_text(json.dumps(seed_cases()))
