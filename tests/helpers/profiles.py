"""GPU profiles as some recordings saw them: measured in one ncu pass, the L2 holds none of the
foreign dirty lines that the recordings' multi-pass replay leaves (docs/caches.md, session 12)."""
from __future__ import annotations

from memsim.gpus import GpuProfile, load


def one_pass(gpu: str = "H100") -> GpuProfile:
    profile = load(gpu)
    return profile.model_copy(update={"l2": profile.l2.model_copy(update={"dirty_at_profiled_launch_bytes": 0})})
