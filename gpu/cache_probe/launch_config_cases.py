"""Which shared-memory carveout did the driver give each recorded case? (memsim issue 24)

    python gpu/cache_probe/launch_config_cases.py OUT.json CASES.json    (on the GPU machine)

`bash gpu/measure_on_device.sh launchcfg SET [NAME_GLOB ...]` lists the cases of a recorded set
(CASES.json, as for lrc_cases.py). ncu's launch__shared_mem_config_size is the carveout the
driver chose; the model's L1 capacity is what the unified array leaves next to it
(gpu/cache_probe/carveout_probe.py has the rule's probe). Writes {case name: {metric: value}}.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from gpu.cache_probe.lrc_cases import profile_cases  # noqa: E402

METRICS = [
    "launch__shared_mem_config_size",
    "launch__shared_mem_per_block_static",
    "launch__shared_mem_per_block_dynamic",
    "launch__registers_per_thread",
    "launch__block_size",
    "launch__occupancy_limit_shared_mem",
    "launch__occupancy_limit_registers",
    "launch__occupancy_limit_warps",
    "launch__occupancy_limit_blocks",
]

if __name__ == "__main__":
    sys.exit(profile_cases(Path(sys.argv[1]), Path(sys.argv[2]), METRICS))
