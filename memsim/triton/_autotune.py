"""Choosing among a kernel's configs without a GPU timer: @triton.autotune's list, or the
configs Inductor's heuristics give a generated kernel. Each config is simulated; the one memsim
predicts cheapest wins: the shortest modeled time where the report has one, else the fewest
memory transactions (global sectors + shared wavefronts), as `memsim sweep` marks its best row.
The Python API's Autotuner runs each config on memsim this way (_launcher); `memsim sweep
kernels.py --kernel k --autotune` makes one row per config of the list (autotune_configs).
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from .. import metrics as m
from ..errors import LaunchError
from ..report import KernelReport

CHOICE_NOTE = ("memsim ran every config and kept the one it predicts cheapest (modeled time where "
               "there is one, else global sectors + shared wavefronts)")


def cost(report: KernelReport) -> float:
    """What the choice minimises."""
    duration = report.metrics.get(m.DURATION, 0)
    return float(duration) if duration else float(report.memory_transactions())


class TuneConfig(BaseModel):
    """One triton.Config of an @triton.autotune list: its constexprs and launch options."""

    constexprs: dict[str, Any]
    num_warps: int
    num_stages: int


def autotune_configs(path: str, kernel: str) -> list[TuneConfig] | None:
    """The configs of the @triton.autotune wrapping kernel `kernel` of the Python file `path`,
    in the list's order; None when it is not autotuned."""
    from triton.runtime.autotuner import Autotuner

    from ..compiler.python_file import import_file

    value = getattr(import_file(path, "memsim_triton"), kernel, None)
    while value is not None and not isinstance(value, Autotuner):
        value = getattr(value, "fn", None)
    if value is None:
        return None
    for config in value.configs:
        if config.num_ctas != 1 or config.maxnreg is not None or config.pre_hook is not None:
            raise LaunchError(f"{kernel}: a config with num_ctas, maxnreg or a pre_hook ({config}) is not "
                              "supported by memsim's autotune sweep")
    return [TuneConfig(constexprs=dict(c.kwargs), num_warps=c.num_warps, num_stages=c.num_stages)
            for c in value.configs]
